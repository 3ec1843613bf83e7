//! The replay engine: one game's tokens played through shakmaty from its start position,
//! filling the `GameReport` and the other types of `report`. The
//! legal path is a plain `San::to_move` and `play_unchecked`; only when a move fails is
//! the diagnosis layer asked why. The end of the game is judged once the moves are over,
//! in `end` (`Replay::finish`, the one way in); findings about how the movetext is
//! written, not about its moves, are `written`'s. Beside it: the move counts it keeps (`counts`), the
//! clocks and evaluations of the comments (`annotations`), the
//! history the diagnosis reads (`history`), the non-standard move notations it accepts
//! (`notation`), its fast path for common moves (`piece_move`), and the walk over the
//! whole movetext, variations included (`movetext`, `variations`).

use std::cell::Cell;

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingMode, Chess, Move, Position};

pub mod annotations;
mod counts;
mod end;
pub mod history;
pub mod movetext;
pub mod notation;
pub mod piece_move;
mod read;
mod report;
pub mod variations;
mod written;

use crate::rules::clocks::{ClockFigures, MoveClock};
use annotations::AnnotationFigures;
pub use counts::MoveCounts;
use history::{History, Played};
use read::plain_move;
pub(crate) use read::{TokenRead, read_move, taken_in};
pub use report::{
    GameReport, MateFigures, PlyMove, PlyVisitor, ReplayOptions, Status, fen_of, move_label,
};

use crate::pgn::{InputProblemKind, RawGame, Token, TokenKind};
use crate::rules::draw::{DrawTracker, RepetitionBuffers};
use crate::rules::fen::setup::{self, SetupError};
use crate::rules::findings::{Code, Finding};
use crate::rules::openings::{self, Book, MAX_BOOK_PLIES, OpeningMatch};
use crate::rules::result::{GameResult, Termination};
use crate::rules::tags::Tags;

/// The main-line plies room is made for before a replay (more grow as needed).
const MAX_RESERVED_PLIES: usize = 1024;

/// Replays one game's main line.
pub fn replay(raw: &RawGame, options: &ReplayOptions, visitor: &mut impl PlyVisitor) -> GameReport {
    replay_with_tags(raw, Tags::decode(raw, &options.decoder), options, visitor)
}

/// Replays one game's main line, its tags already decoded (by a filter that read them).
pub fn replay_with_tags(
    raw: &RawGame,
    tags: Tags,
    options: &ReplayOptions,
    visitor: &mut impl PlyVisitor,
) -> GameReport {
    let mut game = Replay::new(raw, tags, options, HISTORY.take(), false);
    game.run(visitor);
    // Kept here, on the thread that made them, for its next game (not freed after the
    // report's long way round).
    HISTORY.set(game.report.draws.take_history());
    game.report
}

/// The first `plies` moves of the main line, replayed again: for the rare finding that
/// needs the moves before it, in a replay that did not keep them. The same reading of
/// the same tokens plays the same moves; nothing but the moves is worked out.
fn replayed_moves(raw: &RawGame, tags: &Tags, options: &ReplayOptions, plies: u32) -> Vec<Played> {
    /// Stops the replay once it has played `plies` moves.
    struct Until {
        plies: u32,
        reached: u32,
    }
    impl PlyVisitor for Until {
        fn position(&mut self, ply: u32, _step: Option<PlyMove<'_>>, _pos: &Chess) {
            self.reached = ply;
        }
        fn decided(&self) -> bool {
            self.reached >= self.plies
        }
    }
    if plies == 0 {
        return Vec::new();
    }
    // The decoder and the piece letters read the moves; the rest only adds findings.
    let options = ReplayOptions {
        variations: false,
        tag_infos: false,
        figures: false,
        judgement: false,
        ..*options
    };
    let mut game = Replay::new(
        raw,
        tags.clone(),
        &options,
        RepetitionBuffers::default(),
        true,
    );
    game.run(&mut Until { plies, reached: 0 });
    debug_assert_eq!(
        game.played.len(),
        plies as usize,
        "the moves replayed again"
    );
    game.played
}

impl<'a> Replay<'a> {
    /// A replay of `raw`: a game's (which keeps the moves only once they are asked for),
    /// or with `moves_only` one that keeps them from the start and writes no finding
    /// about a move (`replayed_moves`).
    fn new(
        raw: &'a RawGame,
        tags: Tags,
        options: &'a ReplayOptions,
        history: RepetitionBuffers,
        moves_only: bool,
    ) -> Replay<'a> {
        Replay {
            raw,
            options,
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
                draws: DrawTracker::with_history(history),
                result: String::new(),
                result_consistent: true,
                termination: Termination::None,
                perpetual_check: false,
                annotations: AnnotationFigures::default(),
                opening: None,
                mate: MateFigures::default(),
                time_control: None,
                clocks: ClockFigures::default(),
            },
            pos: Chess::default(),
            in_check: false,
            start: Chess::default(),
            played: Vec::new(),
            recording: moves_only,
            moves_only,
            marker: None,
            automatic_end: None,
            plies_after_end: 0,
            openings: None,
            opening_keys: [0; MAX_BOOK_PLIES],
            move_clocks: Vec::new(),
        }
    }
}

thread_local! {
    /// The position history buffers of the thread's last game, reused by its next one.
    static HISTORY: Cell<RepetitionBuffers> = Cell::new(RepetitionBuffers::default());
}

struct Replay<'a> {
    raw: &'a RawGame,
    options: &'a ReplayOptions,
    report: GameReport,
    pos: Chess,
    /// Whether the side to move in `pos` is in check.
    in_check: bool,
    /// The start position and the moves played from it: the diagnosis's `History` is
    /// rebuilt from them only when a move fails, so the legal path records nothing more.
    start: Chess,
    /// The moves played, while `recording`: read through `played_moves`.
    played: Vec<Played>,
    /// Whether `played` is kept. A game's replay starts without (a push a move cost 24
    /// instructions of some 1,150); a rare finding that needs the moves before it has
    /// them replayed again (`replayed_moves`), and they are kept from then on. A flag
    /// beside the moves, not an `Option` of them: testing the `Option` on every move cost
    /// 3 instructions a move more (5.2 M on the 22 MiB cut, measured).
    recording: bool,
    /// Only the moves are wanted (`replayed_moves`): the findings about the moves played
    /// are not written, as each replays the moves before it (a game written without
    /// check signs would pay that at every check).
    moves_only: bool,
    /// The first termination marker outside variations.
    marker: Option<GameResult>,
    /// The ply at which a fivefold repetition, the 75-move rule or dead material ended the game.
    automatic_end: Option<(u32, Termination)>,
    /// Moves played after that automatic end.
    plies_after_end: u32,
    /// The opening data, for a game that is classified.
    openings: Option<&'static Book>,
    /// The keys of the main line's positions up to the data set's deepest line (ply 1
    /// first): looked up once the game is over, from the last backwards, so a game costs
    /// a probe or two instead of one per ply (each probe a likely cache miss).
    opening_keys: [u64; MAX_BOOK_PLIES],
    /// The clock annotations of the main line's moves, for the clock checks at the end.
    move_clocks: Vec<MoveClock>,
}

impl Replay<'_> {
    fn run(&mut self, visitor: &mut impl PlyVisitor) {
        let raw = self.raw;
        self.report_input_problems();
        let tag_result = self.report.tags.get("Result").map(str::to_string);
        if self.report.status == Status::Unreadable {
            self.record_result(tag_result.as_deref(), self.scan_marker(0, 0));
            return;
        }
        match setup::start_position(&self.report.tags) {
            Ok((pos, mode)) => {
                self.pos = pos;
                self.report.castling_mode = mode;
            }
            Err(SetupError::UnsupportedVariant(variant)) => {
                self.record_result(tag_result.as_deref(), self.scan_marker(0, 0));
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
                self.record_result(tag_result.as_deref(), self.scan_marker(0, 0));
                self.report.status = Status::InvalidSetup;
                self.game_finding(Code::SetupInvalidFen, message);
                return;
            }
        }
        self.start = self.pos.clone();
        self.in_check = self.pos.is_check();
        // A ply per token at most (move numbers are tokens only where a run keeps them),
        // up to a long game's worth: a game of many variations or comments has far fewer
        // main-line plies than tokens.
        if self.recording {
            self.played
                .reserve(raw.tokens.len().min(MAX_RESERVED_PLIES));
        }
        self.report.draws.start(&self.pos);
        // A FEN's clock of 150 or more ended the game at ply 0, before any move (FIDE 9.6.2).
        if self.report.draws.seventy_five_move_ply == Some(0) {
            self.automatic_end = Some((0, Termination::SeventyFiveMoves));
        }
        let (tags, mode) = (&self.report.tags, self.report.castling_mode);
        if self.options.figures
            && self.options.judgement
            && openings::classifies(tags, self.report.draws.key(), mode)
        {
            self.openings = Some(openings::book());
        }
        visitor.position(0, None, &self.pos);

        // Variations start from positions of the main line: replayed again only when asked.
        let start = self.options.variations.then(|| self.pos.clone());
        let mut depth = 0u32;
        let mut stopped = false;
        // The first termination marker outside variations, found on the way.
        let mut marker = None;
        // Variations that hold no move: how many, and the token of the first.
        let mut empty_variations: Option<(u32, usize)> = None;
        let mut i = 0;
        while let Some(token) = raw.tokens.get(i) {
            match token.kind {
                TokenKind::VariationStart => {
                    depth += 1;
                    if self.is_empty_variation(i) {
                        let (count, _) = empty_variations.get_or_insert((0, i));
                        *count = count.saturating_add(1);
                    }
                }
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Word if depth == 0 => match self.play_token(i, token, visitor) {
                    Some(_) if visitor.decided() => break,
                    Some(extra) => i += extra,
                    None => {
                        stopped = true;
                        break;
                    }
                },
                TokenKind::Result if depth == 0 && marker.is_none() => {
                    marker = Some(self.marker_of(token));
                    self.loose_marker(i);
                }
                TokenKind::Comment
                    if (self.options.figures || self.options.judgement)
                        && depth == 0
                        && marker.is_none()
                        && self.report.plies > 0 =>
                {
                    self.read_annotations(token);
                }
                _ => {}
            }
            i += 1;
        }
        if let Some((count, first)) = empty_variations {
            self.empty_variations_finding(count, first);
        }
        let marker = match marker {
            Some(found) => found,
            // Stopped at an error: the marker may come later.
            None => self.scan_marker(i + 1, depth),
        };
        self.record_result(tag_result.as_deref(), marker);
        if let Some(start) = start {
            let found = variations::check(raw, &start, self.options);
            self.report.findings.extend(found);
        }
        if stopped || self.has_problem(InputProblemKind::LimitExceeded) {
            self.report.status = Status::Illegal;
        }
        self.name_opening();
        self.finish(tag_result.as_deref());
    }

    /// Reads the clock, move time and evaluation of a comment after the last move played
    /// (most comments hold no `[%` nor start with a score, and cost a byte search): the
    /// clocks for the clock checks, the rest for the figures.
    fn read_annotations(&mut self, token: &Token) {
        let text = self.raw.token_text(token);
        // The move just played was made by the side not to move now.
        let mover = !self.pos.turn();
        let Some(found) = annotations::read_move_comment(text, mover) else {
            return;
        };
        if self.options.judgement && (found.clock.is_some() || found.move_time.is_some()) {
            self.note_move_clock(token, mover, &found);
        }
        if !self.options.figures {
            return;
        }
        self.report
            .annotations
            .add(self.report.plies, mover, &found);
        if found.bad.is_empty() {
            return;
        }
        let before = self.position_before_last_move();
        let move_span = self.played_moves().last().map(|played| played.token);
        let san = move_span
            .map(|span| self.written(self.raw.text(span)))
            .unwrap_or_default();
        for written in &found.bad {
            self.report.findings.push(Finding {
                code: Code::CommentBadAnnotation,
                ply: self.report.plies,
                move_text: move_label(&before, &san),
                san: san.clone(),
                message: format!(
                    "`{}` after this move cannot be read (`[%clk H:MM:SS]`, `[%eval 0.17]`, `[%eval #-2]`); passed over",
                    self.written(written)
                ),
                fen: fen_of(&before),
                move_line: self.raw.token_line(token),
            });
        }
    }

    /// Plays the move `token`, at `index`, or reports why it cannot be played. Returns the
    /// number of following tokens it took in (`e8 (Q)`, `exd6 e.p.`), `None` on an error.
    /// (Inlined into the one loop that calls it: as a call, saving and restoring its
    /// registers cost 16 instructions a move. The loop hands the token on: looked up again
    /// by its index here and in `plain_move`, it cost 8 instructions a move.)
    #[inline(always)]
    fn play_token(
        &mut self,
        index: usize,
        token: &Token,
        visitor: &mut impl PlyVisitor,
    ) -> Option<usize> {
        let raw = self.raw;
        if let Some((m, suffix)) =
            plain_move(&self.pos, self.in_check, raw, index, token, self.options)
        {
            self.play(m, suffix, None, token, visitor);
            return Some(0);
        }
        if let [sign @ (b'+' | b'#')] = raw.token_text(token)
            && self.check_sign_apart(index, *sign)
        {
            return Some(0);
        }
        let (start, plies, tags) = (&self.start, self.report.plies, &self.report.tags);
        let played = self.recording.then_some(self.played.as_slice());
        let options = self.options;
        // Asked for only when the move fails, which ends the replay: moves replayed
        // again for it are not kept.
        let history = || match played {
            Some(played) => History::replayed(start, played),
            None => History::replayed(start, &replayed_moves(raw, tags, options, plies)),
        };
        let (read, extra) = read_move(&self.pos, history, raw, index, self.options);
        match read {
            TokenRead::Move { m, suffix, why } => {
                let mut standard = None;
                if let Some(why) = why {
                    let san_plus = SanPlus::from_move(self.pos.clone(), m);
                    self.move_finding(
                        Code::SanNotation,
                        token,
                        format!("read as {san_plus} ({why})"),
                    );
                    standard = Some(san_plus.san);
                }
                self.play(m, suffix, standard, token, visitor);
                Some(extra)
            }
            TokenRead::Fail { code, message } => {
                self.move_finding(code, token, message);
                None
            }
        }
    }

    /// Plays a legal move and updates every figure. `standard` is the move's standard SAN
    /// when the token is not written so (`None`: the token is standard SAN, its check
    /// sign aside).
    #[inline(always)]
    fn play(
        &mut self,
        m: Move,
        written_suffix: Option<Suffix>,
        standard: Option<San>,
        token: &Token,
        visitor: &mut impl PlyVisitor,
    ) {
        if self.automatic_end.is_some() {
            self.plies_after_end += 1;
        }
        // The square first: it is rarely there, and reading the move costs more.
        let missed_en_passant =
            self.report.draws.en_passant_square().is_some() && !m.is_en_passant();
        if missed_en_passant && !self.moves_only {
            let message = self.missed_en_passant_message();
            self.move_finding(Code::EnPassantMissed, token, message);
        }
        if self.recording {
            self.played.push(Played {
                mv: m,
                token: token.span,
            });
        }
        self.pos.play_unchecked(m);
        self.report.plies += 1;
        let ply = self.report.plies;
        let gave_check = self.pos.is_check();
        self.in_check = gave_check;
        let actual_suffix = if gave_check {
            Some(
                if !piece_move::king_can_step(&self.pos) && self.pos.is_checkmate() {
                    Suffix::Checkmate
                } else {
                    Suffix::Check
                },
            )
        } else {
            None
        };
        if written_suffix != actual_suffix && !self.moves_only {
            let before = self.position_before_last_move();
            self.check_suffix_finding(&before, token, written_suffix, actual_suffix);
        }
        // Only a stats row reads the counts: without it, 7 instructions a move are saved.
        if self.options.figures {
            self.report.counts.record(m, gave_check, missed_en_passant);
        }
        if self.options.judgement {
            self.report.draws.after_move(ply, m, &self.pos, gave_check);
        }
        if self.openings.is_some()
            && let Some(slot) = self.opening_keys.get_mut(ply as usize - 1)
        {
            *slot = self.report.draws.key();
        }
        if self.automatic_end.is_none() {
            let clock = self.pos.halfmoves();
            let end = if self.report.draws.current_count >= 5 {
                Some(Termination::FivefoldRepetition)
            } else if clock >= 150 && actual_suffix != Some(Suffix::Checkmate) {
                Some(Termination::SeventyFiveMoves)
            } else if (ply == 1 || (clock == 0 && (m.is_capture() || m.is_promotion())))
                && self.pos.is_insufficient_material()
            {
                // Only a capture or a promotion changes the material (a FEN may start dead).
                // Both restart the halfmove clock, already at hand: most moves do not, and
                // skip reading the move (some 8 instructions).
                Some(Termination::InsufficientMaterial)
            } else {
                None
            };
            self.automatic_end = end.map(|t| (ply, t));
        }
        let (repetition, key) = if self.options.judgement {
            let draws = &self.report.draws;
            (draws.current_count, Some(draws.last_key()))
        } else {
            (0, None)
        };
        if standard.is_none() && written_suffix == actual_suffix {
            // The text is read here, not before the branch, so that a visitor that never
            // reads it (`validate`'s) does not pay for it.
            let step = PlyMove {
                m,
                san: self.raw.token_text(token),
                repetition,
                key,
            };
            visitor.position(ply, Some(step), &self.pos);
        } else {
            let text = self.raw.token_text(token);
            // The visitor sees the standard SAN, with the check sign the move calls for.
            let mut san = match standard {
                Some(san) => san.to_string(),
                None => String::from_utf8_lossy(match text {
                    [body @ .., b'+' | b'#'] => body,
                    _ => text,
                })
                .into_owned(),
            };
            match actual_suffix {
                Some(Suffix::Check) => san.push('+'),
                Some(Suffix::Checkmate) => san.push('#'),
                None => {}
            }
            let san = san.as_bytes();
            let step = PlyMove {
                m,
                san,
                repetition,
                key,
            };
            visitor.position(ply, Some(step), &self.pos);
        }
    }

    /// Names the opening: the last position of the main line found in the data set.
    fn name_opening(&mut self) {
        let Some(book) = self.openings else {
            return;
        };
        let last = self.report.plies.min(book.deepest);
        for ply in (1..=last).rev() {
            let key = self.opening_keys.get(ply as usize - 1).copied();
            if let Some(opening) = key.and_then(|key| book.lookup(key)) {
                self.report.opening = Some(OpeningMatch { ply, opening });
                return;
            }
        }
    }

    /// The position before the move just played, replayed from the start: asked only for
    /// a rare finding, so the legal path keeps no copy of every position.
    fn position_before_last_move(&mut self) -> Chess {
        let mut pos = self.start.clone();
        let played = self.played_moves();
        let earlier = played.len().saturating_sub(1);
        for &Played { mv: m, .. } in played.iter().take(earlier) {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The moves played so far, replayed again the first time they are asked for in a
    /// replay that did not keep them.
    fn played_moves(&mut self) -> &[Played] {
        if !self.recording {
            self.played =
                replayed_moves(self.raw, &self.report.tags, self.options, self.report.plies);
            self.recording = true;
        }
        &self.played
    }

    /// Names the en passant capture that was available and not played.
    fn missed_en_passant_message(&self) -> String {
        let captures: Vec<String> = self
            .pos
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_en_passant())
            .map(|m| San::from_move(&self.pos, m).to_string())
            .collect();
        format!(
            "en passant ({}) was available only now and another move was played: the window closed",
            captures.join(" or ")
        )
    }

    /// A finding about the move `token` in the current position (before it is played).
    fn move_finding(&mut self, code: Code, token: &Token, message: String) {
        let text = self.written(self.raw.token_text(token));
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

    /// A token's text as written, decoded as the tags are (Latin-1 bytes as their
    /// letters, not U+FFFD).
    fn written(&self, bytes: &[u8]) -> String {
        self.options.decoder.decode(bytes).into_owned()
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
}
