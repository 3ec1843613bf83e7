//! The PGN writer of `convert`: a game re-exported as standard PGN (the tags in roster
//! order, the moves in the style asked for, comments, NAGs and variations as the options
//! keep them, the rest of a line past an illegal move kept as a comment, `--fix-results`
//! and `--add-opening`), or as its original text when it cannot start.

use std::io::{self, Write};

use shakmaty::{Chess, Move, Position as _};

use super::pgn::{MoveStyle, Movetext, move_text, ordered_tags, write_game, write_original};
use crate::pgn::{RawGame, TokenKind};
use crate::rules::fen::setup::start_position;
use crate::rules::replay::movetext::{WalkStep, walk_known};
use crate::rules::replay::{self, PlyVisitor};
use crate::rules::result::{GameResult, Termination, lost_on_time};
use crate::rules::{Code, GameReport, ReplayOptions, Status};

/// How `convert` writes the games: its flags, as plain data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// How moves are written (`--moves`).
    pub moves: MoveStyle,
    /// Comments kept (not `--no-comments`).
    pub comments: bool,
    /// Variations kept (not `--no-variations`).
    pub variations: bool,
    /// Games with an error in the main line, and games that cannot start, left out.
    pub skip_invalid: bool,
    /// The ECO and Opening tags set to the opening found.
    pub add_opening: bool,
    /// The result set where the final position decides it.
    pub fix_results: bool,
}

/// What the writer needs of each game: its report (for the errors on stderr) and what is
/// written of it.
pub struct Converted {
    pub report: GameReport,
    /// What is written of the game, if anything.
    game: Option<Written>,
}

enum Written {
    /// Tags and movetext, re-exported.
    Converted(Vec<(String, String)>, Movetext),
    /// A game that cannot start, as its original text, decoded (SPEC.md "convert
    /// repairs").
    Original(String),
}

impl Converted {
    /// Writes the game, if anything of it is written.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        match &self.game {
            Some(Written::Converted(tags, movetext)) => write_game(out, tags, movetext),
            Some(Written::Original(text)) => write_original(out, text.as_bytes()),
            None => Ok(()),
        }
    }
}

/// The moves of the main line as the replay plays them, and their standard SAN (one
/// text, cut at `ends`).
#[derive(Default)]
pub struct MainLine {
    moves: Vec<Move>,
    san: String,
    ends: Vec<usize>,
}

impl MainLine {
    /// The standard SAN of the main line's ply `ply` (1-based).
    fn san(&self, ply: u32) -> Option<&str> {
        let index = (ply as usize).checked_sub(1)?;
        let end = *self.ends.get(index)?;
        let start = match index.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.san.get(start..end)
    }
}

impl PlyVisitor for MainLine {
    fn position(&mut self, _ply: u32, step: Option<replay::PlyMove<'_>>, _pos: &Chess) {
        if let Some(step) = step {
            self.moves.push(step.m);
            self.san.push_str(&String::from_utf8_lossy(step.san));
            self.ends.push(self.san.len());
        }
    }
}

/// What is written of a game its replay played (`main_line`: the main line's moves as the
/// replay saw them, not read again).
pub fn convert_game(
    raw: &RawGame,
    report: GameReport,
    main_line: &MainLine,
    options: &ReplayOptions,
    export: &ExportOptions,
) -> Converted {
    let writable = match report.status {
        Status::Ok => true,
        Status::Illegal => !export.skip_invalid,
        Status::InvalidSetup | Status::UnsupportedVariant => {
            // It cannot start: nothing to re-export, but nothing is lost either.
            let game = (!export.skip_invalid)
                .then(|| Written::Original(options.decoder.decode(&raw.bytes).into_owned()));
            return Converted { report, game };
        }
        Status::Unreadable => false,
    };
    let start = start_position(&report.tags).ok().map(|(pos, _)| pos);
    let game = match (writable, start) {
        (true, Some(start)) => {
            let recorded = GameResult::parse(&report.result).map_or("*", GameResult::as_str);
            let result = match decided_result(&report) {
                Some(decided) if export.fix_results => decided.as_str(),
                _ => recorded,
            };
            let (mut movetext, plies) = movetext_of(raw, &start, main_line, options, export);
            // The Result tag always agrees with the marker written (R of SPEC.md), and a
            // PlyCount tag with the main line written.
            let mut pairs: Vec<(String, String)> = report
                .tags
                .iter()
                .map(|(name, value)| match name {
                    "Result" => (name.to_string(), result.to_string()),
                    "PlyCount" => (name.to_string(), plies.to_string()),
                    _ => (name.to_string(), value.to_string()),
                })
                .collect();
            if export.add_opening {
                set_opening_tags(&mut pairs, &report);
            }
            let tags = ordered_tags(&pairs, result);
            movetext.push_result(result);
            Some(Written::Converted(tags, movetext))
        }
        _ => None,
    };
    Converted { report, game }
}

/// `--fix-results`: the result the final position decides (SPEC.md "convert repairs"),
/// for a game replayed to its end; `None` where play could have gone on.
fn decided_result(report: &GameReport) -> Option<GameResult> {
    if report.status != Status::Ok {
        return None;
    }
    let pos = report.final_pos.as_ref()?;
    match report.termination {
        // The side to move is mated.
        Termination::Checkmate if pos.turn().is_white() => Some(GameResult::BlackWins),
        Termination::Checkmate => Some(GameResult::WhiteWins),
        Termination::Stalemate
        | Termination::InsufficientMaterial
        | Termination::DeadPosition
        | Termination::FivefoldRepetition
        | Termination::SeventyFiveMoves => Some(GameResult::Draw),
        // FIDE 6.9: lost on time against a side that cannot mate is a draw, and a draw on
        // time against a side that can mate is that side's win.
        Termination::ThreefoldRepetition | Termination::FiftyMoves | Termination::None => {
            let winnable = report
                .findings
                .iter()
                .any(|f| f.code == Code::ResultTimeoutDrawWinnable);
            if winnable {
                // The side whose clock was not running.
                return Some(if pos.turn().is_white() {
                    GameResult::BlackWins
                } else {
                    GameResult::WhiteWins
                });
            }
            let winner = GameResult::parse(&report.result)?.winner()?;
            let on_time = report.tags.get("Termination").is_some_and(lost_on_time);
            (on_time && report.mate.verdict.cannot(winner)).then_some(GameResult::Draw)
        }
    }
}

/// `--add-opening`: the ECO and Opening tags of a classified game set to its opening, in
/// place where they exist, else after the other tags.
fn set_opening_tags(pairs: &mut Vec<(String, String)>, report: &GameReport) {
    let Some(found) = report.opening else {
        return;
    };
    for (name, value) in [
        ("ECO", found.opening.eco()),
        ("Opening", found.opening.name()),
    ] {
        let mut set = false;
        for pair in pairs.iter_mut().filter(|(n, _)| n == name) {
            pair.1 = value.to_string();
            set = true;
        }
        if !set {
            pairs.push((name.to_string(), value.to_string()));
        }
    }
}

/// The movetext of every line, as the flags ask for it, and the plies of its main line.
fn movetext_of(
    raw: &RawGame,
    start: &Chess,
    main_line: &MainLine,
    options: &ReplayOptions,
    export: &ExportOptions,
) -> (Movetext, u32) {
    let mut movetext = Movetext::new();
    // Depth inside variations that --no-variations leaves out.
    let mut dropped = 0u32;
    // Depth inside variations that are written, to count the main line's plies.
    let mut depth = 0u32;
    let mut plies = 0u32;
    for step in walk_known(raw, start, options, &main_line.moves) {
        match step {
            WalkStep::VariationStart if !export.variations => dropped += 1,
            WalkStep::VariationEnd if !export.variations => dropped = dropped.saturating_sub(1),
            _ if dropped > 0 => {}
            WalkStep::VariationStart => {
                depth += 1;
                movetext.start_variation();
            }
            WalkStep::VariationEnd => {
                depth = depth.saturating_sub(1);
                movetext.end_variation();
            }
            WalkStep::Move { before, m, ply, .. } => {
                if depth == 0 {
                    plies += 1;
                }
                // The main line's SAN is the replay's, not worked out again.
                let text = match main_line.san(ply) {
                    Some(san) if depth == 0 && export.moves == MoveStyle::San => san.to_string(),
                    _ => move_text(&before, m, export.moves),
                };
                movetext.push_move(&before, text)
            }
            // `--` in every style: `0000` would read back as a move number.
            WalkStep::Pass { before, .. } => movetext.push_move(&before, "--".to_string()),
            WalkStep::Comment(token) if export.comments => {
                let text = options.decoder.decode(raw.token_text(&token));
                movetext.push_comment(comment_body(&text));
            }
            WalkStep::Comment(_) => {}
            WalkStep::Nag(token) | WalkStep::Glyph(token) => {
                let text = options.decoder.decode(raw.token_text(&token));
                if let Some(nag) = nag_of(&text) {
                    movetext.push_nag(nag);
                } else if let Some(number) = text.strip_prefix('$') {
                    // Past the standard's 255: kept as written, not dropped.
                    movetext.push_nag(number);
                }
            }
            WalkStep::Illegal {
                text,
                code,
                message,
                main_line,
                token,
                ..
            } => {
                // The main line's error is on stderr; a variation's is only here.
                if !main_line {
                    movetext.push_comment(&format!(
                        "{text}: {}: {message}; the variation stops here",
                        code.as_str()
                    ));
                }
                let rest = rest_of_line(raw, token, main_line, options);
                movetext.push_comment(&format!("rest: {rest}"));
            }
        }
    }
    (movetext, plies)
}

/// The tokens of a line from the one at `first` (the move that could not be played) to
/// the line's end, as written, so that no move is lost: variations inside it kept, its
/// comments as `<text>` (a `}` would end the comment that holds them). A variation ends
/// at its `)`; the main line at the termination marker (a stray `)` in it is kept).
fn rest_of_line(raw: &RawGame, first: usize, main_line: bool, options: &ReplayOptions) -> String {
    let mut rest = String::new();
    let mut depth = 0u32;
    // The move's number (`4.` of `4. Nd5`) belongs with it.
    let tokens = raw.tokens.get(..first).unwrap_or_default();
    let numbered = tokens
        .iter()
        .rev()
        .take_while(|t| t.kind == TokenKind::MoveNumber)
        .count();
    for token in raw.tokens.iter().skip(first.saturating_sub(numbered)) {
        let text = options.decoder.decode(raw.token_text(token));
        let word = match token.kind {
            TokenKind::Result => break,
            TokenKind::VariationEnd if depth == 0 && !main_line => break,
            TokenKind::VariationEnd => {
                depth = depth.saturating_sub(1);
                rest.push(')');
                continue;
            }
            TokenKind::VariationStart => {
                depth += 1;
                "(".to_string()
            }
            TokenKind::Comment => format!("<{}>", comment_body(&text).trim()).replace('}', ")"),
            _ => text.into_owned(),
        };
        if !rest.is_empty() && !rest.ends_with('(') {
            rest.push(' ');
        }
        rest.push_str(&word);
    }
    rest
}

/// The text of a `{...}` or `; ...` comment.
fn comment_body(text: &str) -> &str {
    if let Some(rest) = text.strip_prefix('{') {
        rest.strip_suffix('}').unwrap_or(rest)
    } else {
        text.strip_prefix(';').unwrap_or(text)
    }
}

/// The NAG number of `$N`, a move suffix (`!`, `?!`) or an annotation symbol.
fn nag_of(text: &str) -> Option<u8> {
    if let Some(number) = text.strip_prefix('$') {
        return number.parse().ok();
    }
    let nag = match text {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "=" => 10,
        "∞" => 13,
        "+=" | "⩲" => 14,
        "=+" | "⩱" => 15,
        "±" | "+/-" => 16,
        "∓" | "-/+" => 17,
        "+-" => 18,
        "-+" => 19,
        "=/∞" => 44,
        "N" => 146,
        _ => return None,
    };
    Some(nag)
}

/// The walk `convert` writes (`rules/replay/movetext.rs`), on the games it is handed: here
/// because the rules layer does not build games from text.
#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess, Move};

    use crate::input::{Limits, Splitter};
    use crate::pgn::RawGame;
    use crate::rules::ReplayOptions;
    use crate::rules::replay::movetext::{WalkStep, walk, walk_known};

    fn game(pgn: &[u8]) -> RawGame {
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        splitter.next_game().unwrap().unwrap()
    }

    fn uci(pos: &Chess, text: &str) -> Move {
        let m: UciMove = text.parse().unwrap();
        m.to_move(pos).unwrap()
    }

    /// The moves of the steps, as UCI, with `(` and `)` and `!` for an illegal move.
    fn moves(steps: impl Iterator<Item = WalkStep>) -> Vec<String> {
        steps
            .filter_map(|step| match step {
                WalkStep::Move { m, .. } => Some(m.to_uci(CastlingMode::Standard).to_string()),
                WalkStep::VariationStart => Some("(".into()),
                WalkStep::VariationEnd => Some(")".into()),
                WalkStep::Illegal { text, .. } => Some(format!("!{text}")),
                _ => None,
            })
            .collect()
    }

    /// A known move is taken as it is, not read from its token again: here one that the
    /// token does not say, so the step shows which was used. The main line past the known
    /// moves, and the variations, are read from their tokens.
    #[test]
    fn known_moves_are_not_read_again() {
        let raw = game(b"1. e4 (1. d4 d5) 1... e5 2. Nf3 *\n");
        let start = Chess::default();
        let options = ReplayOptions::default();
        let known = [uci(&start, "c2c4")];
        let walked = moves(walk_known(&raw, &start, &options, &known));
        assert_eq!(walked, ["c2c4", "(", "d2d4", "d7d5", ")", "e7e5", "g1f3"]);
        let read = moves(walk(&raw, &start, &options));
        assert_eq!(read, ["e2e4", "(", "d2d4", "d7d5", ")", "e7e5", "g1f3"]);
    }

    /// A variation after the comments, NAGs, glyphs and move numbers that follow a move
    /// still starts from the position before that move (the history is kept for it).
    #[test]
    fn a_variation_after_annotations_replaces_the_move() {
        let raw = game(b"1. e4 {best} $1 ! 1... (1. d4 d5) e5 2. Nf3 Nc6 (2... d6) *\n");
        let start = Chess::default();
        let walked = moves(walk(&raw, &start, &ReplayOptions::default()));
        assert_eq!(
            walked,
            [
                "e2e4", "(", "d2d4", "d7d5", ")", "e7e5", "g1f3", "b8c6", "(", "d7d6", ")"
            ]
        );
    }
}
