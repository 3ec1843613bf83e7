//! `pgnkit stats`: one CSV row per game with draw-rule figures, and a mergeable summary.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;

use crate::cli::{Context, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::common;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::summary::{RunFigures, summary_line};
use crate::stats::row::{csv_record, tag_values};
use crate::stats::{StatsRow, Summary};

/// One CSV row per game: result, termination, draw-rule figures and move counts.
///
/// Every game of the input gets its row, broken ones too: `status` says how far the replay
/// got and the figures cover the plies that could be replayed. Games that never reached a
/// position (unreadable, unsupported variant, invalid setup) have empty `termination`,
/// `final_fen` and `max_repetition` and zero counts. Columns are SPEC.md's, then
/// `under_promotions`, `opening_eco`, `opening_name` and `opening_ply` (the opening of a
/// standard-start game, named by the last main-line position found in the lichess
/// chess-openings data set, transpositions included; empty when none), then the clock and
/// evaluation columns read from `[%clk H:MM:SS]` and `[%eval X]` in the comments after
/// main-line moves (`clocks`, `white_clock_end`, `black_clock_end`, `white_clock_min`,
/// `black_clock_min` in seconds; `evals`, `white_acpl`, `black_acpl`,
/// `white_inaccuracies` .. `black_blunders` as lichess computes them), then the `--tags`
/// columns. Rows come in input order whatever `--threads` is; the exit code is 0 whenever
/// the run completes (broken games are data here).
///
/// The summary counts games by result, status and termination (games without a position
/// have none), findings by code (every level), games in which each draw rule held
/// (`draw_rule`: threefold, fivefold, fifty_move, seventy_five_move, perpetual_check,
/// insufficient_material), move totals (`moves`) and games per opening (`opening`,
/// key `ECO Name`). Every count is additive: summaries
/// of the parts of a split archive (`--shard K/N`, or one run per file) merge with
/// `--merge` to exactly the summary of one run.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Print a readable summary table on stderr at the end (also with --merge).
    #[arg(long, help_heading = "Output")]
    pub summary: bool,

    /// Write the summary as `section,key,count` CSV to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub summary_output: Option<PathBuf>,

    /// Read the INPUTs as summary CSV files (from --summary-output) and write their sum,
    /// in the same format, to stdout or -o.
    #[arg(long, help_heading = "Input")]
    pub merge: bool,

    /// Append one column per named tag (header: the name as given; "" when absent), after
    /// every other column.
    #[arg(
        long,
        value_name = "TAG,...",
        value_delimiter = ',',
        help_heading = "Output"
    )]
    pub tags: Vec<String>,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit stats games.pgn -o games.csv           one row per game
  pgnkit stats archive/ --summary -o /dev/null  only the summary table
  pgnkit stats big.pgn --shard 0/4 -o part0.csv --summary-output part0.sum.csv
  pgnkit stats --merge part*.sum.csv -o total.sum.csv
  pgnkit stats games.pgn --tags TimeControl,Opening  two more columns, at the end
  pgnkit stats lichess.pgn -o games.csv         clocks, acpl, blunders from [%clk]/[%eval]
  pgnkit stats games.pgn --where 'plies >= 150 || termination == \"stalemate\"' -o long.csv";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    if args.merge {
        return merge(&args);
    }
    let started = Instant::now();
    let ctx = Context::new(global, args.output.output.is_none());
    let options = common::replay_options(&args.input)?;
    let filter = common::filter(&args.input)?;
    let (sources, listing_errors) = common::sources(
        &args.input,
        &[
            ("-o", args.output.output.as_deref()),
            ("--summary-output", args.summary_output.as_deref()),
        ],
    )?;
    let pipeline = common::pipeline(&ctx, &args.input);

    let output = Output::create(args.output.output.as_deref())?;
    // Opened before the run, so that a bad path fails at once, not after hours of work.
    let summary_output = summary_output(&args)?;
    let mut output = output;
    // The header comes first, also when the input holds no game.
    let tags = &args.tags;
    output.write_all(&csv_record((StatsRow::HEADER.as_slice(), tags))?)?;
    let mut summary = Summary::default();
    let mut figures = RunFigures::default();
    let totals = common::run_games(
        &pipeline,
        &args.input,
        &sources,
        &filter,
        |raw| {
            filter.replay(raw, &options, &mut ()).map(|report| {
                // Without --tags the row is made as before: no tag lookup on the hot path.
                let row = if tags.is_empty() {
                    csv_record(StatsRow::new(&report))
                } else {
                    csv_record((StatsRow::new(&report), tag_values(&report, tags)))
                };
                (report, row)
            })
        },
        |_raw, (report, row)| {
            let row = row
                .as_ref()
                .map_err(|err| anyhow::anyhow!("cannot make a CSV row: {err}"))?;
            output.write_all(row)?;
            summary.add_game(report);
            figures.add_game(report);
            Ok(())
        },
    )?;
    output.finish()?;

    finish_summary(&summary, summary_output, args.summary)?;
    figures.files = totals.files;
    figures.games = totals.games;
    if !ctx.quiet {
        crate::say!("{}", summary_line(&figures, started.elapsed()));
    }
    // Broken games are data here: only input and output errors change the exit code.
    Ok(if totals.input_errors + listing_errors > 0 {
        ExitStatus::Error
    } else {
        ExitStatus::Success
    })
}

/// `--merge`: the sum of summary files.
fn merge(args: &Args) -> anyhow::Result<ExitStatus> {
    if args.input.inputs.is_empty() {
        anyhow::bail!("--merge needs the summary files to add up (from --summary-output)");
    }
    let files = args
        .input
        .inputs
        .iter()
        .filter(|name| *name != "-")
        .map(|name| (name.as_str(), Path::new(name)));
    crate::output::refuse_shared_paths(
        files,
        &[
            ("-o", args.output.output.as_deref()),
            ("--summary-output", args.summary_output.as_deref()),
        ],
    )?;
    let mut total = Summary::default();
    for name in &args.input.inputs {
        let part = if name == "-" {
            Summary::read_csv(std::io::stdin().lock(), name)?
        } else {
            let file = File::open(name).with_context(|| format!("cannot open {name}"))?;
            Summary::read_csv(file, name)?
        };
        total.merge(&part);
    }
    let summary_output = summary_output(args)?;
    let mut output = Output::create(args.output.output.as_deref())?;
    total.write_csv(&mut output)?;
    output.finish()?;
    finish_summary(&total, summary_output, args.summary)?;
    Ok(ExitStatus::Success)
}

/// The destination of `--summary-output`, if asked for.
fn summary_output(args: &Args) -> anyhow::Result<Option<Output>> {
    args.summary_output
        .as_deref()
        .map(|path| Output::create(Some(path)))
        .transpose()
}

/// Writes `--summary-output` and prints the `--summary` table.
fn finish_summary(
    summary: &Summary,
    output: Option<Output>,
    print_table: bool,
) -> anyhow::Result<()> {
    if let Some(mut output) = output {
        summary.write_csv(&mut output)?;
        output.finish()?;
    }
    if print_table {
        crate::stderr::text(format_args!("{}", summary.table()));
    }
    Ok(())
}
