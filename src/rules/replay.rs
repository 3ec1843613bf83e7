//! The replay: one game's tokens played through shakmaty from its start position. The
//! legal path is a plain `San::to_move` and `play_unchecked`; only when a move fails is
//! the diagnosis layer asked why.

use std::sync::Arc;

use shakmaty::fen::Fen;
use shakmaty::san::{SanError, SanPlus, Suffix};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::diagnose;
use super::draw::DrawTracker;
use super::finding::{Code, Finding};
use super::history::History;
use super::notation;
use super::result::{self, GameResult, Termination};
use super::setup::{self, SetupError};
use super::tags::Tags;
use crate::input::{InputProblem, InputProblemKind, RawGame, TextDecoder, Token, TokenKind};
use crate::stats::MoveCounts;

/// How games are replayed.
#[derive(Debug, Clone, Copy)]
pub struct ReplayOptions {
    pub decoder: TextDecoder,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            decoder: TextDecoder::Auto,
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

/// Sees every position of the main line as it is reached (ply 0 is the start position).
pub trait PlyVisitor {
    fn position(&mut self, ply: u32, san: &[u8], pos: &Chess);
}

/// A visitor that wants nothing.
impl PlyVisitor for () {
    fn position(&mut self, _ply: u32, _san: &[u8], _pos: &Chess) {}
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
    pub counts: MoveCounts,
    pub draws: DrawTracker,
    /// R of SPEC.md.
    pub result: String,
    pub result_consistent: bool,
    pub termination: Termination,
    pub perpetual_check: bool,
}

impl GameReport {
    /// The first error finding, if any.
    pub fn first_error(&self) -> Option<&Finding> {
        self.findings
            .iter()
            .find(|f| f.severity() == super::finding::Severity::Error)
    }
}

/// Writes a position as `pgnkit fen` does by default (en passant after every double step).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

/// `23. O-O` or `23... O-O`: the move as a reader finds it.
pub fn move_label(pos: &Chess, text: &str) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots} {text}", pos.fullmoves())
}

/// Replays one game's main line.
pub fn replay(raw: &RawGame, options: &ReplayOptions, visitor: &mut impl PlyVisitor) -> GameReport {
    let tags = Tags::decode(raw, &options.decoder);
    let mut game = Replay {
        raw,
        report: GameReport {
            file: raw.file.clone(),
            index: raw.index,
            line: raw.line,
            tags,
            findings: Vec::new(),
            status: Status::Ok,
            plies: 0,
            castling_mode: CastlingMode::Standard,
            final_pos: None,
            counts: MoveCounts::default(),
            draws: DrawTracker::default(),
            result: String::new(),
            result_consistent: true,
            termination: Termination::None,
            perpetual_check: false,
        },
        pos: Chess::default(),
        history: History::default(),
        marker: None,
        automatic_end: None,
        reported_after_end: false,
    };
    game.run(visitor);
    game.report
}

struct Replay<'a> {
    raw: &'a RawGame,
    report: GameReport,
    pos: Chess,
    history: History,
    /// The first termination marker outside variations.
    marker: Option<GameResult>,
    /// The ply at which a fivefold repetition, the 75-move rule or dead material ended the game.
    automatic_end: Option<(u32, Termination)>,
    reported_after_end: bool,
}

/// Whether the replay goes on after a token.
enum Flow {
    Continue,
    Stop,
}

impl Replay<'_> {
    fn run(&mut self, visitor: &mut impl PlyVisitor) {
        let raw = self.raw;
        self.report_input_problems();
        let marker = self.scan_marker();
        self.marker = marker;
        let tag_result = self.report.tags.get("Result").map(str::to_string);
        self.report.result = result::recorded_result(tag_result.as_deref(), marker);
        if self.report.status == Status::Unreadable {
            return;
        }
        match setup::start_position(&self.report.tags) {
            Ok((pos, mode)) => {
                self.pos = pos;
                self.report.castling_mode = mode;
            }
            Err(SetupError::UnsupportedVariant(variant)) => {
                self.report.status = Status::UnsupportedVariant;
                self.game_finding(
                    Code::SetupUnsupportedVariant,
                    format!(
                        "variant `{variant}` is not replayed (standard chess and Chess960 are)"
                    ),
                );
                return;
            }
            Err(SetupError::InvalidFen(message)) => {
                self.report.status = Status::InvalidSetup;
                self.game_finding(Code::SetupInvalidFen, message);
                return;
            }
        }
        self.history.start(&self.pos);
        self.report.draws.start(&self.pos);
        visitor.position(0, b"", &self.pos);

        let mut depth = 0u32;
        let mut stopped = false;
        for token in &raw.tokens {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Word if depth == 0 => {
                    if let Flow::Stop = self.play_token(token, visitor) {
                        stopped = true;
                        break;
                    }
                }
                _ => {}
            }
        }
        if stopped || self.has_problem(InputProblemKind::LimitExceeded) {
            self.report.status = Status::Illegal;
        }
        self.finish(tag_result.as_deref());
    }

    /// Turns what the splitter noticed into findings.
    fn report_input_problems(&mut self) {
        for input_problem in &self.raw.problems {
            let InputProblem { kind, line, detail } = input_problem;
            let code = problem_code(*kind);
            if matches!(code, Code::InputUnreadable | Code::InputUnsupportedEncoding) {
                self.report.status = Status::Unreadable;
            }
            self.report.findings.push(Finding {
                code,
                ply: 0,
                move_text: String::new(),
                san: String::new(),
                message: detail.clone(),
                fen: String::new(),
                move_line: self.raw.line + u64::from(*line),
            });
        }
    }

    fn has_problem(&self, kind: InputProblemKind) -> bool {
        self.raw.problems.iter().any(|p| p.kind == kind)
    }

    /// The first termination marker outside variations.
    fn scan_marker(&self) -> Option<GameResult> {
        let mut depth = 0u32;
        for token in &self.raw.tokens {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Result if depth == 0 => {
                    let text = String::from_utf8_lossy(self.raw.token_text(token));
                    return GameResult::parse(&text);
                }
                _ => {}
            }
        }
        None
    }

    /// Plays one move token, or reports why it cannot be played.
    fn play_token(&mut self, token: &Token, visitor: &mut impl PlyVisitor) -> Flow {
        let text = self.raw.token_text(token);
        let (san_plus, notation) = match SanPlus::from_ascii(text) {
            Ok(san_plus) => (san_plus, None),
            Err(_) => match notation::read(&self.pos, text) {
                Some(reading) => (reading.san_plus, Some(reading.why)),
                None => {
                    let message = notation::why_not_a_move(text);
                    self.move_finding(Code::MoveSyntax, token, message);
                    return Flow::Stop;
                }
            },
        };
        match san_plus.san.to_move(&self.pos) {
            Ok(m) => {
                if let Some(why) = notation {
                    let standard = SanPlus::from_move(self.pos.clone(), m).to_string();
                    self.move_finding(
                        Code::SanNotation,
                        token,
                        format!("read as {standard} ({why})"),
                    );
                }
                self.play(m, san_plus.suffix, token, visitor);
                Flow::Continue
            }
            Err(err) => {
                let (code, message) = match err {
                    SanError::AmbiguousSan => (
                        Code::MoveAmbiguous,
                        diagnose::ambiguous(&self.pos, san_plus.san),
                    ),
                    SanError::IllegalSan => {
                        diagnose::illegal(&self.pos, san_plus.san, &self.history)
                    }
                };
                self.move_finding(code, token, message);
                Flow::Stop
            }
        }
    }

    /// Plays a legal move and updates every figure.
    fn play(
        &mut self,
        m: Move,
        written_suffix: Option<Suffix>,
        token: &Token,
        visitor: &mut impl PlyVisitor,
    ) {
        if let Some((end_ply, termination)) = self.automatic_end
            && !self.reported_after_end
        {
            self.reported_after_end = true;
            self.move_finding(
                Code::ResultAfterAutomaticDraw,
                token,
                format!(
                    "the game had already ended in a draw at ply {end_ply} ({}); later moves do not count",
                    termination.as_str().replace('-', " ")
                ),
            );
        }
        let missed_en_passant = !m.is_en_passant() && self.pos.legal_ep_square().is_some();
        if missed_en_passant {
            self.move_finding(
                Code::EnPassantMissed,
                token,
                "an en passant capture was available and another move was played: the window closed"
                    .to_string(),
            );
        }
        self.report.draws.before_move(&self.pos, m);
        self.history.record(&self.pos, m, self.report.plies + 1);
        self.pos.play_unchecked(m);
        self.report.plies += 1;
        let ply = self.report.plies;
        let gave_check = self.pos.is_check();
        let actual_suffix = if gave_check {
            Some(if self.pos.is_checkmate() {
                Suffix::Checkmate
            } else {
                Suffix::Check
            })
        } else {
            None
        };
        if written_suffix != actual_suffix {
            self.check_suffix_finding(token, written_suffix, actual_suffix);
        }
        self.report.counts.record(m, gave_check, missed_en_passant);
        self.report.draws.after_move(ply, &self.pos, gave_check);
        if self.automatic_end.is_none() {
            let clock = self.pos.halfmoves();
            let end = if self.report.draws.current_count >= 5 {
                Some(Termination::FivefoldRepetition)
            } else if clock >= 150 && actual_suffix != Some(Suffix::Checkmate) {
                Some(Termination::SeventyFiveMoves)
            } else if self.pos.is_insufficient_material() {
                Some(Termination::InsufficientMaterial)
            } else {
                None
            };
            self.automatic_end = end.map(|t| (ply, t));
        }
        visitor.position(ply, self.raw.token_text(token), &self.pos);
    }

    fn check_suffix_finding(
        &mut self,
        token: &Token,
        written: Option<Suffix>,
        actual: Option<Suffix>,
    ) {
        // The finding is about the move just played: report it at its own ply and position.
        let name = |s: Option<Suffix>| match s {
            Some(Suffix::Check) => "`+`",
            Some(Suffix::Checkmate) => "`#`",
            None => "no suffix",
        };
        let message = format!(
            "written with {} but the move calls for {}",
            name(written),
            name(actual)
        );
        let text = String::from_utf8_lossy(self.raw.token_text(token)).into_owned();
        let ply = self.report.plies;
        self.report.findings.push(Finding {
            code: Code::SanCheckSuffix,
            ply,
            move_text: self.label_before_last(&text),
            san: text,
            message,
            fen: String::new(),
            move_line: self.raw.token_line(token),
        });
    }

    /// The label of the move just played (the position has already advanced).
    fn label_before_last(&self, text: &str) -> String {
        let (number, dots) = if self.pos.turn().is_white() {
            (self.pos.fullmoves().get().saturating_sub(1), "...")
        } else {
            (self.pos.fullmoves().get(), ".")
        };
        format!("{number}{dots} {text}")
    }

    /// A finding about the move `token` in the current position (before it is played).
    fn move_finding(&mut self, code: Code, token: &Token, message: String) {
        let text = String::from_utf8_lossy(self.raw.token_text(token)).into_owned();
        self.report.findings.push(Finding {
            code,
            ply: self.report.plies + 1,
            move_text: move_label(&self.pos, &text),
            san: text,
            message,
            fen: fen_of(&self.pos),
            move_line: self.raw.token_line(token),
        });
    }

    /// A finding about the whole game, at the last ply replayed.
    fn game_finding(&mut self, code: Code, message: String) {
        let fen = if matches!(self.report.status, Status::Ok | Status::Illegal) {
            fen_of(&self.pos)
        } else {
            String::new()
        };
        self.report.findings.push(Finding {
            code,
            ply: self.report.plies,
            move_text: String::new(),
            san: String::new(),
            message,
            fen,
            move_line: self.raw.line,
        });
    }

    /// The final position: termination, result cross-check, perpetual check.
    fn finish(&mut self, tag_result: Option<&str>) {
        self.report.final_pos = Some(self.pos.clone());
        let termination = Termination::of(&self.pos, &self.report.draws);
        self.report.termination = termination;
        self.report.perpetual_check = self.report.draws.perpetual_check();
        if self.report.status != Status::Ok {
            // A replay that stopped early does not show the game's real final position.
            return;
        }
        if let Some(message) = result::mismatch(
            tag_result,
            self.marker,
            &self.report.result,
            &self.pos,
            termination,
        ) {
            self.report.result_consistent = false;
            self.game_finding(Code::ResultMismatch, message);
        } else if let Some(message) = result::unwinnable_win(&self.report.result, &self.pos) {
            self.game_finding(Code::ResultUnwinnableWin, message);
        }
    }
}

/// The finding code of a defect the splitter found in the bytes.
fn problem_code(kind: InputProblemKind) -> Code {
    match kind {
        InputProblemKind::UnterminatedComment => Code::InputUnterminatedComment,
        InputProblemKind::Truncated => Code::InputTruncated,
        InputProblemKind::UnescapedQuote => Code::InputUnescapedQuote,
        InputProblemKind::Unreadable => Code::InputUnreadable,
        InputProblemKind::UnsupportedEncoding => Code::InputUnsupportedEncoding,
        InputProblemKind::LimitExceeded => Code::InputLimitExceeded,
    }
}
