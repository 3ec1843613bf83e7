//! `pgnkit convert`: re-export PGN as clean UTF-8 with standard SAN, the tag roster
//! first and 80-column movetext; comments, NAGs and variations kept.

use crate::cmd::args::{CodeArgs, MoveStyleArg};
use crate::cmd::args::{GlobalArgs, InputArgs, OutputArg};
use crate::cmd::run::{Ending, GameRun, Reads, StderrErrors};
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::pgn_export::{ExportOptions, MainLine, convert_game};

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

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let codes = args.codes.filter()?;
    let run = GameRun::new(
        global,
        &args.input,
        &[("-o", args.output.output.as_deref())],
        Reads {
            // The opening for --add-opening.
            figures: args.add_opening,
            // The rest of a line after an illegal move is written with its numbers.
            move_numbers: true,
            ..Reads::REPORT
        },
    )?;
    let export = ExportOptions {
        moves: args.moves.into(),
        comments: !args.no_comments,
        variations: !args.no_variations,
        skip_invalid: args.skip_invalid,
        add_opening: args.add_opening,
        fix_results: args.fix_results,
    };
    let mut output = Output::create(args.output.output.as_deref())?;
    let mut errors = StderrErrors::new(codes)?;
    let totals = run.run(
        |raw| {
            // The main line's moves, kept as the replay plays them, are not read again
            // when the movetext is written.
            let mut main_line = MainLine::default();
            let judged = run.judge(raw, &mut main_line, |game| game.report);
            judged.map(|report| convert_game(raw, *report, &main_line, run.options(), &export))
        },
        |_raw, converted| {
            errors.report(&converted.report)?;
            Ok(converted.write(&mut output)?)
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
