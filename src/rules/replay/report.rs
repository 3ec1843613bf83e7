//! What a replay hands on: its options (`ReplayOptions`), the `GameReport` of a game (its
//! `Status`, findings, figures and `MateFigures`), and what a `PlyVisitor` sees of each
//! main-line position (`PlyMove`). The replay engine that fills them is `replay/mod.rs`.

use std::sync::Arc;

use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::annotations::AnnotationFigures;
use super::counts::MoveCounts;
use super::notation::PieceLetters;
use crate::pgn::TextDecoder;
use crate::rules::clocks::ClockFigures;
use crate::rules::draw::DrawTracker;
use crate::rules::findings::Finding;
use crate::rules::mate_check::{MateCheck, WhoCannotMate};
use crate::rules::openings::OpeningMatch;
use crate::rules::result::Termination;
use crate::rules::tags::Tags;

/// How games are replayed.
#[derive(Debug, Clone, Copy)]
pub struct ReplayOptions {
    pub decoder: TextDecoder,
    /// Replay and check every variation too (`validate --variations`).
    pub variations: bool,
    /// Read piece letters of this language (`--piece-letters`).
    pub piece_letters: Option<PieceLetters>,
    /// Whether info-level tag checks are wanted (`validate --level info`); the other
    /// findings cost nothing until they occur.
    pub tag_infos: bool,
    /// Whether to work out the figures only a stats row needs: the opening, the move
    /// counts and the `[%clk]`/`[%eval]` annotations (with their `comment.bad-annotation` findings),
    /// and who cannot mate where neither a finding nor the termination asks (a side not
    /// the recorded winner, in a position another side keeps alive).
    /// Commands that never show them (`validate` below `--level info`, `fen`, `convert`
    /// without `--add-opening`, `select`) turn it off unless a `--where` reads a column.
    pub figures: bool,
    /// Whether to judge the game: follow the draw rules move by move (repetitions, the
    /// 50/75-move counts, perpetual check, the en passant windows missed) and, once it is
    /// replayed, work out its termination and check the result against the final
    /// position, the tags and the moves after an automatic draw (all resting on the draw
    /// figures, as the openings' keys do). `select` without a column to read turns it off:
    /// its verdicts and `--dedupe` keys need the status, the moves and the tags only.
    pub judgement: bool,
    /// Who can still mate (`--mate-check`), asked of the final position when judging.
    pub mate_check: MateCheck,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            decoder: TextDecoder::Auto,
            variations: false,
            piece_letters: None,
            tag_infos: true,
            figures: true,
            judgement: true,
            mate_check: MateCheck::Fast,
        }
    }
}

/// How far the replay of a game got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Replayed to the end (a game with no moves too).
    Ok,
    /// Stopped at an error in the movetext.
    Illegal,
    InvalidSetup,
    UnsupportedVariant,
    Unreadable,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Ok,
        Status::Illegal,
        Status::InvalidSetup,
        Status::UnsupportedVariant,
        Status::Unreadable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Illegal => "illegal",
            Status::InvalidSetup => "invalid-setup",
            Status::UnsupportedVariant => "unsupported-variant",
            Status::Unreadable => "unreadable",
        }
    }
}

/// The move that reached a position of the main line.
#[derive(Debug, Clone, Copy)]
pub struct PlyMove<'a> {
    pub m: Move,
    /// Its standard SAN, check sign included.
    pub san: &'a [u8],
    /// How often the position it reached has occurred in the game, this time included
    /// (the draw rules' count, FIDE 9.2.3's identity); 0 where the game is not judged
    /// (`ReplayOptions::judgement` off).
    pub repetition: u32,
    /// The position's repetition key (`draw::position_key`), where the game is judged.
    pub key: Option<u64>,
}

/// Sees every position of the main line as it is reached, with the move that reached it
/// (`None` at ply 0, the start position).
pub trait PlyVisitor {
    fn position(&mut self, ply: u32, step: Option<PlyMove<'_>>, pos: &Chess);

    /// True once the visitor has seen all it needs and nobody needs the rest of the game
    /// (a `select --reaches` that found its position): the replay stops there, and its
    /// report covers only the moves played.
    fn decided(&self) -> bool {
        false
    }
}

/// A visitor that wants nothing.
impl PlyVisitor for () {
    fn position(&mut self, _ply: u32, _step: Option<PlyMove<'_>>, _pos: &Chess) {}
}

/// Everything the replay learnt about one game.
#[derive(Debug, Clone)]
pub struct GameReport {
    pub file: Arc<str>,
    pub index: u64,
    pub line: u64,
    pub tags: Tags,
    pub findings: Vec<Finding>,
    pub status: Status,
    /// Moves replayed legally.
    pub plies: u32,
    pub castling_mode: CastlingMode,
    /// The last position reached (`None` when the game could not start).
    pub final_pos: Option<Chess>,
    /// The move counts of the stats row: counted only with `ReplayOptions::figures`
    /// (zero without), as nothing else reads them.
    pub counts: MoveCounts,
    pub draws: DrawTracker,
    /// R of SPEC.md.
    pub result: String,
    pub result_consistent: bool,
    pub termination: Termination,
    pub perpetual_check: bool,
    /// Clocks and evaluations read in the comments after main-line moves.
    pub annotations: AnnotationFigures,
    /// The opening named by the last position of the main line found in the data set
    /// (standard chess from the standard start only; SPEC.md "Openings").
    pub opening: Option<OpeningMatch>,
    /// Who can still mate in the final position (SPEC.md "Who can still mate").
    pub mate: MateFigures,
    /// The `TimeControl` tag in its standard form, with the figures (`None`: none known).
    pub time_control: Option<String>,
    /// Each side's move times, with the figures (SPEC.md "stats columns").
    pub clocks: ClockFigures,
}

/// What the mate analysis found in a game (all empty when the game was not judged).
#[derive(Debug, Clone, Copy, Default)]
pub struct MateFigures {
    /// The level the final position was analysed at (`None`: not analysed).
    pub level: Option<MateCheck>,
    /// The sides that provably cannot mate in the final position.
    pub verdict: WhoCannotMate,
    /// The first ply from which every position is dead (insufficient material counts).
    pub dead_position_ply: Option<u32>,
    /// An analysis of the game (the final position or one before it) was stopped by the
    /// complete search's work limit.
    pub budget: bool,
}

impl GameReport {
    /// The first error finding, if any.
    pub fn first_error(&self) -> Option<&Finding> {
        self.findings
            .iter()
            .find(|f| f.severity() == crate::rules::findings::Severity::Error)
    }
}

/// Writes a position as `pgnkit fen` does by default (en passant after every double step).
pub fn fen_of(pos: &Chess) -> String {
    let mut fen = String::new();
    crate::rules::fen::style::append_fen(pos, EnPassantMode::Always, &mut fen);
    fen
}

/// `23. O-O` or `23... O-O`: the move as a reader finds it.
pub fn move_label(pos: &Chess, text: &str) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots} {text}", pos.fullmoves())
}
