//! `pgnkit convert`: re-export PGN as clean UTF-8 with standard SAN, the tag roster
//! first and 80-column movetext; comments, NAGs and variations kept.

use crate::cli::{CodeArgs, MoveStyleArg};
use crate::cli::{GlobalArgs, InputArgs, OutputArg};
use crate::cmd::run::{Ending, GameRun, Reads, StderrErrors};
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::pgn::{
    MoveStyle, Movetext, move_text, ordered_tags, write_game, write_original,
};
use crate::pgn::{RawGame, TokenKind};
use crate::rules::fen::setup::start_position;
use crate::rules::replay::movetext::{WalkStep, walk_known};
use crate::rules::replay::{self, PlyVisitor};
use crate::rules::result::{GameResult, Termination, lost_on_time};
use crate::rules::{Code, GameReport, ReplayOptions, Status};
use shakmaty::{Chess, Move, Position as _};

/// Re-export PGN: standard SAN, tag roster order, 80-column movetext.
///
/// Each game is written as clean UTF-8: the seven-tag roster first (missing tags as `?`,
/// Date as `????.??.??`), the other tags in input order, moves in standard SAN with
/// correct `+`/`#`, comments as `{ ... }` (whitespace collapsed), `!`/`?` and
/// annotation symbols as `$N` NAGs (`D`, the diagram mark, is dropped), variations
/// replayed from their own positions. No move is lost: a line with an illegal move is
/// replayed up to it, and the rest of the line is kept as one comment `{ rest: ... }`
/// holding the original tokens (comments in it as `<text>`). In a variation a comment
/// naming the move and what is wrong comes first; an error in the main line is reported
/// on stderr (exit 1), or the game is skipped with --skip-invalid. --select and --ignore
/// pick the errors reported on stderr, as in `validate` (one left out does not make the
/// exit code 1), not the games --skip-invalid skips. A PlyCount tag is
/// rewritten to the main line's plies written. Games that cannot start (unsupported
/// variant, invalid [FEN]) are reported and written as their original text (decoded to
/// UTF-8, PlyCount as it was); --skip-invalid leaves them out. The termination marker and the
/// Result tag are R (the Result tag if it holds a result, else the marker found, else
/// `*`); `--fix-results` replaces it where the final position decides the game, and
/// `--add-opening` names the opening in the ECO and Opening tags (both change nothing
/// when run again). With `--moves san` and `--moves lan` the output converts to itself
/// byte for byte (a UCI promotion with capture is not read back).
#[allow(
    rustdoc::broken_intra_doc_links,
    reason = "this is --help text: [FEN] is the PGN tag, not a link"
)]
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    #[command(flatten)]
    pub codes: CodeArgs,

    /// How moves are written: san (`Nf3`), uci (`g1f3`) or lan (`Ng1-f3`, `e7-e8=Q`).
    #[arg(long, value_enum, default_value_t = MoveStyleArg::San, help_heading = "Output")]
    pub moves: MoveStyleArg,

    /// Leave comments out.
    #[arg(long, help_heading = "Output")]
    pub no_comments: bool,

    /// Leave variations out (only the main line).
    #[arg(long, help_heading = "Output")]
    pub no_variations: bool,

    /// Skip games whose main line has an error instead of writing them up to it, and
    /// games that cannot start instead of writing their original text. Any
    /// error counts, reported or not: --select and --ignore do not change which games
    /// are skipped (as `validate --broken-out` judges games).
    #[arg(long, help_heading = "Output")]
    pub skip_invalid: bool,

    /// Set the ECO and Opening tags of each game whose opening is named (standard chess
    /// from the standard start; lichess chess-openings data), replacing their values;
    /// other games keep theirs.
    #[arg(long, help_heading = "Repairs")]
    pub add_opening: bool,

    /// Where the final position decides the game, set the Result tag and the termination
    /// marker to that result: checkmate (the mating side wins), stalemate, insufficient
    /// material, a dead position (see --mate-check), fivefold repetition, seventy-five
    /// moves (1/2-1/2); and a game whose Termination tag records a loss on time against a
    /// side that cannot mate is drawn (FIDE 6.9), and a draw on time against a side that
    /// can still mate is that side's win. Games replayed to their end only; other games
    /// keep theirs.
    #[arg(long, help_heading = "Repairs")]
    pub fix_results: bool,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit convert messy.pgn -o clean.pgn                 standard PGN, 80 columns
  pgnkit convert event.pgn --skip-invalid -o valid.pgn  only games without errors
  pgnkit convert --no-comments --no-variations --moves uci games.pgn
  pgnkit convert archive/ --games 1..10 --moves lan     the first ten games
  pgnkit convert games.pgn --dedupe -o unique.pgn  each distinct game once
  pgnkit convert games.pgn --add-opening --fix-results -o named.pgn
  pgnkit convert archive/ --ignore move.syntax -o clean.pgn  other errors on stderr

The guide: docs/GUIDE.md, \"Converting\" (every command, filter, code and column).";

/// What the writer needs of each game.
struct Converted {
    report: GameReport,
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

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let codes = args.codes.filter()?;
    let run = GameRun::new(
        global,
        &args.input,
        &[("-o", args.output.output.as_deref())],
        Reads {
            // The opening for --add-opening.
            figures: args.add_opening,
            ..Reads::REPORT
        },
    )?;
    let mut output = Output::create(args.output.output.as_deref())?;
    let mut errors = StderrErrors::new(codes)?;
    let totals = run.run(
        |raw| {
            // The main line's moves, kept as the replay plays them, are not read again
            // when the movetext is written.
            let mut main_line = MainLine::default();
            let judged = run.judge(raw, &mut main_line, |game| game.report);
            judged.map(|report| convert_game(raw, report, &main_line, run.options(), &args))
        },
        |_raw, converted| {
            errors.report(&converted.report)?;
            match &converted.game {
                Some(Written::Converted(tags, movetext)) => {
                    write_game(&mut output, tags, movetext)?;
                }
                Some(Written::Original(text)) => write_original(&mut output, text.as_bytes())?,
                None => {}
            }
            Ok(())
        },
    )?;
    output.finish()?;
    let failing_errors = errors.finish()?;
    Ok(run.finish(
        &totals,
        Ending {
            figures: None,
            failing_errors,
            selection: None,
        },
    ))
}

/// The moves of the main line as the replay plays them, and their standard SAN (one
/// text, cut at `ends`).
#[derive(Default)]
struct MainLine {
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

fn convert_game(
    raw: &RawGame,
    report: GameReport,
    main_line: &MainLine,
    options: &ReplayOptions,
    args: &Args,
) -> Converted {
    let writable = match report.status {
        Status::Ok => true,
        Status::Illegal => !args.skip_invalid,
        Status::InvalidSetup | Status::UnsupportedVariant => {
            // It cannot start: nothing to re-export, but nothing is lost either.
            let game = (!args.skip_invalid)
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
                Some(decided) if args.fix_results => decided.as_str(),
                _ => recorded,
            };
            let (mut movetext, plies) = movetext_of(raw, &start, main_line, options, args);
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
            if args.add_opening {
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
    args: &Args,
) -> (Movetext, u32) {
    let mut movetext = Movetext::new();
    // Depth inside variations that --no-variations leaves out.
    let mut dropped = 0u32;
    // Depth inside variations that are written, to count the main line's plies.
    let mut depth = 0u32;
    let mut plies = 0u32;
    for step in walk_known(raw, start, options, &main_line.moves) {
        match step {
            WalkStep::VariationStart if args.no_variations => dropped += 1,
            WalkStep::VariationEnd if args.no_variations => dropped = dropped.saturating_sub(1),
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
                    Some(san) if depth == 0 && matches!(args.moves, MoveStyleArg::San) => {
                        san.to_string()
                    }
                    _ => move_text(&before, m, MoveStyle::from(args.moves)),
                };
                movetext.push_move(&before, text)
            }
            // `--` in every style: `0000` would read back as a move number.
            WalkStep::Pass { before, .. } => movetext.push_move(&before, "--".to_string()),
            WalkStep::Comment(token) if !args.no_comments => {
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
