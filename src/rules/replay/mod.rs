//! The replay engine: one game's tokens played through shakmaty from its start position,
//! filling the `GameReport` and the other types of `report`. The
//! legal path is a plain `San::to_move` and `play_unchecked`; only when a move fails is
//! the diagnosis layer asked why. Beside it: the move counts it keeps (`counts`), the
//! clocks and evaluations of the comments (`annotations`), the
//! history the diagnosis reads (`history`), the non-standard move notations it accepts
//! (`notation`), its fast path for common moves (`piece_move`), and the walk over the
//! whole movetext, variations included (`movetext`, `variations`).

use std::cell::Cell;

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingMode, Chess, Move, Position};

pub mod annotations;
mod counts;
pub mod history;
pub mod movetext;
pub mod notation;
pub mod piece_move;
mod read;
mod report;
pub mod variations;

use annotations::AnnotationFigures;
pub use counts::MoveCounts;
use history::{History, Played};
use read::plain_move;
pub(crate) use read::{TokenRead, read_move, taken_in};
pub use report::{
    GameReport, MateFigures, PlyMove, PlyVisitor, ReplayOptions, Status, fen_of, move_label,
};

use crate::pgn::{InputProblem, InputProblemKind, RawGame, Token, TokenKind};
use crate::rules::draw::{DrawTracker, RepetitionBuffers};
use crate::rules::fen::setup::{self, SetupError};
use crate::rules::findings::{Code, Finding};
use crate::rules::mate_check::{self, Verdict, Wanted};
use crate::rules::openings::{self, Book, MAX_BOOK_PLIES, OpeningMatch};
use crate::rules::result::{self, GameResult, Termination};
use crate::rules::tags::Tags;
use crate::rules::tags::checks as tag_checks;

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
        // A ply per two tokens, up to a long game's worth: a game of many variations or
        // comments has far fewer main-line plies than tokens.
        if self.recording {
            self.played
                .reserve((raw.tokens.len() / 2).min(MAX_RESERVED_PLIES));
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
                TokenKind::Word if depth == 0 => match self.play_token(i, visitor) {
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
                    if self.options.figures
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

    /// Reads the clock and evaluation of a comment after the last move played (most
    /// comments hold no `[%`, and cost one byte search).
    fn read_annotations(&mut self, token: &Token) {
        let text = self.raw.token_text(token);
        if !annotations::may_annotate(text) {
            return;
        }
        let found = annotations::read_comment(text);
        // The move just played was made by the side not to move now.
        let mover = !self.pos.turn();
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

    /// Turns what the splitter noticed into findings.
    fn report_input_problems(&mut self) {
        for input_problem in &self.raw.problems {
            let InputProblem { kind, line, detail } = input_problem;
            let code = problem_code(*kind);
            if matches!(code, Code::InputUnreadable | Code::InputUnsupportedEncoding) {
                self.report.status = Status::Unreadable;
            }
            // A finding about the game: its `move_line` is the game's line, and the
            // message names the line where the defect stands.
            let message = if code == Code::InputUnsupportedEncoding {
                detail.clone()
            } else {
                format!("line {}: {detail}", self.raw.line + u64::from(*line))
            };
            self.report.findings.push(Finding {
                code,
                ply: 0,
                move_text: String::new(),
                san: String::new(),
                message,
                fen: String::new(),
                move_line: self.raw.line,
            });
        }
    }

    fn has_problem(&self, kind: InputProblemKind) -> bool {
        self.raw.problems.iter().any(|p| p.kind == kind)
    }

    /// The first termination marker outside variations from token `from` on, at `depth`.
    fn scan_marker(&self, from: usize, mut depth: u32) -> Option<GameResult> {
        for token in self.raw.tokens.iter().skip(from) {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::Result if depth == 0 => return self.marker_of(token),
                _ => {}
            }
        }
        None
    }

    fn marker_of(&self, token: &Token) -> Option<GameResult> {
        GameResult::parse_marker(self.raw.token_text(token))
    }

    /// `input.empty-variation`: whether the variation opened at `index` holds no move
    /// before a nested variation or its end (`((1... c5))`, `()`); comments, NAGs and move
    /// numbers are no move. The main line goes on as if it were not there.
    fn is_empty_variation(&self, index: usize) -> bool {
        let next = self.raw.tokens.iter().skip(index + 1).find(|t| {
            !matches!(
                t.kind,
                TokenKind::Comment | TokenKind::Nag | TokenKind::Glyph | TokenKind::MoveNumber
            )
        });
        next.is_some_and(|t| matches!(t.kind, TokenKind::VariationStart | TokenKind::VariationEnd))
    }

    /// One `input.empty-variation` finding for the game (a million `()` must not make a
    /// million findings): how many, and the line of the first.
    fn empty_variations_finding(&mut self, count: u32, first: usize) {
        let Some(open) = self.raw.tokens.get(first) else {
            return;
        };
        let line = self.raw.token_line(open);
        let what = if count == 1 {
            "a variation holds".to_string()
        } else {
            format!("{count} variations hold")
        };
        self.report.findings.push(Finding {
            code: Code::InputEmptyVariation,
            ply: self.report.plies,
            move_text: String::new(),
            san: String::new(),
            message: format!(
                "line {line}: {what} no move before a nested variation or its end (`((`, `()`); ignored, the main line is kept"
            ),
            fen: fen_of(&self.pos),
            move_line: line,
        });
    }

    /// `result.notation`: the marker at `index` (the game's) written loosely, or glued
    /// to the move before it.
    fn loose_marker(&mut self, index: usize) {
        let raw = self.raw;
        let Some(token) = raw.tokens.get(index) else {
            return;
        };
        let text = raw.token_text(token);
        let glued_to = index
            .checked_sub(1)
            .and_then(|i| raw.tokens.get(i))
            .filter(|before| before.kind == TokenKind::Word && before.span.end == token.span.start);
        let canonical = matches!(text, b"1-0" | b"0-1" | b"1/2-1/2" | b"*");
        if canonical && glued_to.is_none() {
            return;
        }
        let Some(result) = GameResult::parse_marker(text) else {
            return;
        };
        let written = self.written(text);
        let mut message = format!(
            "`{written}` read as the termination marker {}",
            result.as_str()
        );
        if let Some(before) = glued_to {
            message.push_str(&format!(
                " (glued to the move `{}`)",
                self.written(raw.token_text(before))
            ));
        }
        self.report.findings.push(Finding {
            code: Code::ResultNotation,
            ply: self.report.plies,
            move_text: String::new(),
            san: written,
            message,
            fen: fen_of(&self.pos),
            move_line: raw.token_line(token),
        });
    }

    /// R of SPEC.md, from the Result tag and the termination marker.
    fn record_result(&mut self, tag_result: Option<&str>, marker: Option<GameResult>) {
        self.marker = marker;
        self.report.result = result::recorded_result(tag_result, marker);
    }

    /// Plays the move token at `index`, or reports why it cannot be played. Returns the
    /// number of following tokens it took in (`e8 (Q)`, `exd6 e.p.`), `None` on an error.
    /// (Inlined into the one loop that calls it: as a call, saving and restoring its
    /// registers cost 16 instructions a move.)
    #[inline(always)]
    fn play_token(&mut self, index: usize, visitor: &mut impl PlyVisitor) -> Option<usize> {
        let raw = self.raw;
        let token = raw.tokens.get(index)?;
        if let Some((m, suffix)) = plain_move(&self.pos, self.in_check, raw, index, self.options) {
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
            } else if (ply == 1 || m.is_capture() || m.is_promotion())
                && self.pos.is_insufficient_material()
            {
                // Only a capture or a promotion changes the material (a FEN may start dead).
                Some(Termination::InsufficientMaterial)
            } else {
                None
            };
            self.automatic_end = end.map(|t| (ply, t));
        }
        let text = self.raw.token_text(token);
        if standard.is_none() && written_suffix == actual_suffix {
            visitor.position(ply, Some(PlyMove { m, san: text }), &self.pos);
        } else {
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
            visitor.position(ply, Some(PlyMove { m, san }), &self.pos);
        }
    }

    /// `Bxc6 +`, `Qh4 #`: a lone check sign right after the move just played (written
    /// without one; annotations may stand between, `Bc4 ! +`) is that move's sign: `san.notation` when it is right, else
    /// `san.check-suffix` in place of the one `play` gave for the missing sign. Returns
    /// false when the token is not such a sign (it is then read as a move, and fails).
    fn check_sign_apart(&mut self, index: usize, sign: u8) -> bool {
        let raw = self.raw;
        let (Some(move_token), Some(token)) = (
            read::move_before_sign(raw, index).and_then(|i| raw.tokens.get(i)),
            raw.tokens.get(index),
        ) else {
            return false;
        };
        let move_text = raw.token_text(move_token);
        if move_token.kind != TokenKind::Word
            || self.played_moves().last().map(|p| p.token) != Some(move_token.span)
            || matches!(move_text.last(), Some(b'+' | b'#'))
        {
            return false;
        }
        let written = Some(if sign == b'#' {
            Suffix::Checkmate
        } else {
            Suffix::Check
        });
        let actual = if !self.in_check {
            None
        } else if self.pos.is_checkmate() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        };
        let plies = self.report.plies;
        if let Some(last) = self.report.findings.last()
            && last.code == Code::SanCheckSuffix
            && last.ply == plies
        {
            self.report.findings.pop();
        }
        let before = self.position_before_last_move();
        let san = format!("{} {}", self.written(move_text), char::from(sign));
        let (code, message) = if written == actual {
            let Some(&Played { mv, .. }) = self.played.last() else {
                return false;
            };
            let standard = SanPlus::from_move(before.clone(), mv);
            (
                Code::SanNotation,
                format!("read as {standard} (a check sign written apart from its move)"),
            )
        } else {
            let name = |s: Option<Suffix>| match s {
                Some(Suffix::Check) => "`+`",
                Some(Suffix::Checkmate) => "`#`",
                None => "no suffix",
            };
            (
                Code::SanCheckSuffix,
                format!(
                    "written with {} (apart from the move) but the move calls for {}",
                    name(written),
                    name(actual)
                ),
            )
        };
        self.report.findings.push(Finding {
            code,
            ply: plies,
            move_text: move_label(&before, &san),
            san,
            message,
            fen: fen_of(&before),
            move_line: raw.token_line(token),
        });
        true
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

    fn check_suffix_finding(
        &mut self,
        before: &Chess,
        token: &Token,
        written: Option<Suffix>,
        actual: Option<Suffix>,
    ) {
        // The finding is about the move just played: report it at its own ply and position.
        let text = self.written(self.raw.token_text(token));
        let name = |s: Option<Suffix>| match s {
            Some(Suffix::Check) => "`+`",
            Some(Suffix::Checkmate) => "`#`",
            None => "no suffix",
        };
        // The sign as written: `++`, `†`, `‡` are read as `#`, `+`, `#`.
        let written_name = ["++", "†", "‡"]
            .into_iter()
            .find(|sign| written.is_some() && text.ends_with(sign))
            .map_or_else(|| name(written).to_string(), |sign| format!("`{sign}`"));
        let message = format!(
            "written with {written_name} but the move calls for {}",
            name(actual)
        );
        let ply = self.report.plies;
        self.report.findings.push(Finding {
            code: Code::SanCheckSuffix,
            ply,
            move_text: move_label(before, &text),
            san: text,
            message,
            fen: fen_of(before),
            move_line: self.raw.token_line(token),
        });
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

    /// The final position, and unless turned off (`judgement`) the game's judgement:
    /// termination, result cross-check, perpetual check, the tag checks.
    fn finish(&mut self, tag_result: Option<&str>) {
        self.report.final_pos = Some(self.pos.clone());
        if !self.options.judgement {
            return;
        }
        // The splitter's findings (the first ones) are about the whole game: they carry the
        // last ply replayed and the final position, as every game-level finding does.
        if !self.raw.problems.is_empty() {
            let fen = fen_of(&self.pos);
            let plies = self.report.plies;
            for finding in self
                .report
                .findings
                .iter_mut()
                .take(self.raw.problems.len())
            {
                finding.ply = plies;
                finding.fen.clone_from(&fen);
            }
        }
        let mut termination = Termination::of(&self.pos, &self.report.draws);
        self.judge_mates(termination);
        if self.report.mate.verdict.is_dead() && termination > Termination::InsufficientMaterial {
            termination = Termination::DeadPosition;
        }
        self.report.termination = termination;
        self.report.perpetual_check = self.report.draws.perpetual_check();
        for (code, message) in tag_checks::check(&self.report.tags, self.options.tag_infos) {
            self.game_finding(code, message);
        }
        // The earliest automatic end: the first dead ply may come before the others.
        if let Some(dead) = self.report.mate.dead_position_ply
            && self.automatic_end.is_none_or(|(ply, _)| dead <= ply)
        {
            let kind = if self.report.mate.verdict.is_dead() && dead == self.report.plies {
                termination
            } else {
                self.dead_kind(dead)
            };
            self.automatic_end = Some((dead, kind));
            self.plies_after_end = self.report.plies - dead;
        }
        if let Some((end_ply, termination)) = self.automatic_end
            && self.plies_after_end > 0
        {
            let message = format!(
                "the game had already ended in a draw at ply {end_ply} ({}); {} played after it do{} not count",
                termination.as_str().replace('-', " "),
                if self.plies_after_end == 1 {
                    "the 1 move".to_string()
                } else {
                    format!("the {} moves", self.plies_after_end)
                },
                if self.plies_after_end == 1 { "es" } else { "" }
            );
            self.game_finding(Code::ResultAfterAutomaticDraw, message);
        }
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
        } else if let Some(message) = result::unwinnable_win(
            &self.report.result,
            &self.pos,
            self.report.mate.verdict,
            self.report.tags.get("Termination"),
        ) {
            self.game_finding(Code::ResultUnwinnableWin, message);
        }
    }
}

impl Replay<'_> {
    /// Who can still mate in the final position and, when it is dead or a stalemate, the
    /// first dead ply: scanning back, the earliest ply from which every position is dead.
    /// A checkmate or stalemate is not called dead (the game ended there).
    fn judge_mates(&mut self, termination: Termination) {
        let (level, mode) = (self.options.mate_check, self.report.castling_mode);
        // Without the figures (no stats row shows who cannot mate), only what the findings
        // and the termination read is worked out: dead or not, and the recorded winner.
        let (wanted, earlier_wanted) = if self.options.figures {
            (Wanted::Both, Wanted::Both)
        } else {
            let winner = GameResult::parse(&self.report.result).and_then(GameResult::winner);
            (Wanted::DeadOr(winner), Wanted::DeadOr(None))
        };
        let verdict = match termination {
            Termination::Checkmate | Termination::Stalemate => Verdict::default(),
            _ => mate_check::analyse_wanted(&self.pos, mode, level, wanted),
        };
        self.report.mate = MateFigures {
            level: Some(level),
            verdict,
            dead_position_ply: None,
            budget: verdict.budget,
        };
        let final_dead = verdict.is_dead();
        if !final_dead && termination != Termination::Stalemate {
            return;
        }
        let mut first = final_dead.then_some(self.report.plies);
        // The positions before the final one, rebuilt from the start (rare: a dead end).
        let mut pos = self.start.clone();
        let played = self.played_moves();
        let mut positions = Vec::with_capacity(played.len());
        for played in played {
            positions.push(pos.clone());
            pos.play_unchecked(played.mv);
        }
        for (ply, pos) in positions.iter().enumerate().rev() {
            let earlier = mate_check::analyse_wanted(pos, mode, level, earlier_wanted);
            self.report.mate.budget |= earlier.budget;
            if !earlier.is_dead() {
                break;
            }
            first = u32::try_from(ply).ok();
        }
        self.report.mate.dead_position_ply = first;
    }

    /// What ended the game at the dead ply `ply`: insufficient material, or a dead position
    /// beyond it.
    fn dead_kind(&mut self, ply: u32) -> Termination {
        let mut pos = self.start.clone();
        for played in self.played_moves().iter().take(ply as usize) {
            pos.play_unchecked(played.mv);
        }
        if pos.is_insufficient_material() {
            Termination::InsufficientMaterial
        } else {
            Termination::DeadPosition
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
        InputProblemKind::BadTag => Code::InputBadTag,
        InputProblemKind::UnbalancedParenthesis => Code::InputUnbalancedParenthesis,
        InputProblemKind::UnbalancedBrace => Code::InputUnbalancedBrace,
        InputProblemKind::StrayBytes => Code::InputStrayBytes,
        InputProblemKind::UnsupportedEncoding => Code::InputUnsupportedEncoding,
        InputProblemKind::LimitExceeded => Code::InputLimitExceeded,
        InputProblemKind::EscapedNag => Code::InputEscapedNag,
    }
}
