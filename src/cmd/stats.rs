//! `pgnkit stats`: one CSV row per game with draw-rule figures, and a mergeable summary.

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cmd::args::{
    GlobalArgs, InputArgs, OutputArg, RecordsOnly, check_tag_columns, format_values,
};
use crate::cmd::run::{Ending, Game, GameRun, Reads};
use crate::exit::ExitStatus;
use crate::output::records::{encode, encode_with};
use crate::output::summary::{RunFigures, summary_table};
use crate::output::summary_csv::{read_summary_csv, write_summary_csv};
use crate::output::{Format, Output, SinkFormat};
use crate::record::Cells;
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
/// `white_inaccuracies` .. `black_blunders` as lichess computes them; `[%emt]` and
/// cutechess's `{+0.86/8 1.0s}` are read too), then `cannot_mate`, `dead_position_ply`,
/// `time_control` (the TimeControl tag in its standard form) and each side's time used
/// and longest move in seconds (`white_time_used` .. `black_move_time_max`), then the
/// `--tags` columns. Rows come in input order whatever `--threads` is; the exit code is 0 whenever
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

    /// One row per game as CSV with a header, or one JSON object per game with the same
    /// keys in the same order (counts and figures as numbers, booleans as booleans, tag
    /// values as strings, empty cells as null), or one Parquet file with the same columns
    /// typed as JSON types them (integers INT64, clock seconds DOUBLE, BOOLEAN, UTF-8
    /// strings, null where JSON has null; zstd; needs -o FILE or a pipe).
    #[arg(
        long,
        value_parser = format_values::<RecordsOnly>(),
        default_value_t = Format::Csv,
        help_heading = "Output"
    )]
    pub format: Format,

    /// Print a readable summary table on stderr at the end (also with --merge).
    #[arg(long, help_heading = "Output")]
    pub summary: bool,

    /// Write the summary as `section,key,count` CSV to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub summary_output: Option<PathBuf>,

    /// Read the INPUTs as summary CSV files (from --summary-output) and write their sum,
    /// in the same format, to stdout or -o. A sum that does not fit in 64 bits is an
    /// error naming its key (exit 2): a merge is exact or it fails.
    #[arg(long, help_heading = "Input")]
    pub merge: bool,

    /// Append one column per named tag (header: the name as given; "" when absent), after
    /// every other column. An empty name, or one that repeats another ignoring case, is
    /// refused: no table reader takes such columns.
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
  pgnkit stats games.pgn --format jsonl         one JSON object per game
  pgnkit stats games.pgn --format parquet -o games.parquet  typed, for DuckDB, Polars, Spark
  pgnkit stats lichess.parquet -o games.csv     a lichess Parquet table read as games
  pgnkit stats archive/ --summary -o /dev/null  only the summary table
  pgnkit stats big.pgn --shard 0/4 -o part0.csv --summary-output part0.sum.csv
  pgnkit stats --merge part*.sum.csv -o total.sum.csv
  pgnkit stats games.pgn --tags TimeControl,Opening  two more columns, at the end
  pgnkit stats lichess.pgn -o games.csv         clocks, acpl, blunders from [%clk]/[%eval]
  pgnkit stats games.pgn --where 'plies >= 150 || termination == \"stalemate\"' -o long.csv
  pgnkit stats games.pgn --mate-check full --where 'cannot_mate != \"\"' -o dead.csv

The guide: docs/GUIDE.md, \"stats\" and \"stats columns\" (every command, filter, code and column).";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    if args.merge {
        return merge(&args);
    }
    check_tag_columns(&args.tags)?;
    let wants_summary = args.summary || args.summary_output.is_some();
    let run = GameRun::new(
        global,
        &args.input,
        &[
            ("-o", args.output.output.as_deref()),
            ("--summary-output", args.summary_output.as_deref()),
        ],
        // The summary counts every finding; a row reads only the first error, so without
        // a summary the info-level tag findings are not made (nothing would read them).
        Reads {
            figures: true,
            info_findings: wants_summary,
            ..Reads::REPORT
        },
    )?;
    let sink = SinkFormat::new(args.format, run.ctx.data_on_terminal, run.ctx.threads)?;
    let format = sink.format();
    let output = Output::create(args.output.output.as_deref())?;
    // Opened before the run, so that a bad path fails at once, not after hours of work.
    let summary_output = summary_output(&args)?;
    // The CSV header comes first, also when the input holds no game.
    let tags = &args.tags;
    let mut rows = sink.open_records::<StatsRow, _>(output, tags)?;
    let mut summary = Summary::default();
    let mut figures = RunFigures::default();
    let quiet = run.ctx.quiet;
    let totals = run.run(
        |raw| {
            run.judge(
                raw,
                &mut (),
                |Game {
                     report, columns, ..
                 }| {
                    report.map(|mut report| {
                        // Encoded on the worker threads, so that the writer only copies bytes;
                        // from the cells a column `--where` made, if it did.
                        let encoded = {
                            let row = StatsRow::new(&report, tags);
                            if columns.is_empty() {
                                encode(&row, format, tags)
                            } else {
                                let fill = |cells: &mut Cells| {
                                    cells.extend_from(columns);
                                    row.tag_cells(cells);
                                };
                                encode_with::<StatsRow>(fill, format, tags)
                            }
                        };
                        // The summary line's figures are counted here; the report goes on
                        // only to a summary, else its tags' buffers serve the next game.
                        let mut game = RunFigures::default();
                        if !quiet {
                            game.add_game(&report);
                        }
                        let report = if wants_summary {
                            Some(report)
                        } else {
                            report.tags.recycle();
                            None
                        };
                        (report, game, encoded)
                    })
                },
            )
        },
        |_raw, (report, game, row)| {
            let row = row.as_ref().map_err(|err| anyhow::anyhow!("{err}"))?;
            rows.write_encoded(row)?;
            if let Some(report) = report {
                summary.add_game(report);
            }
            figures.add(game);
            Ok(())
        },
    )?;
    rows.finish()?.finish()?;

    finish_summary(&summary, summary_output, args.summary)?;
    // Broken games are data here: only input and output errors change the exit code.
    Ok(run.finish(
        &totals,
        Ending {
            figures: Some(figures),
            failing_errors: 0,
            selection: None,
        },
    ))
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
    // The first file that names a `--mate-check` level, and the level.
    let mut level_of: Option<(&str, Vec<&str>)> = None;
    for name in &args.input.inputs {
        let part = if name == "-" {
            read_summary_csv(std::io::stdin().lock(), name)?
        } else {
            let file = File::open(name).with_context(|| format!("cannot open {name}"))?;
            read_summary_csv(file, name)?
        };
        // Figures of different levels do not add up to the figures of one run.
        let levels = part.mate_levels();
        match &level_of {
            _ if levels.len() > 1 => anyhow::bail!(
                "{name}: its games were analysed at different --mate-check levels ({}); summaries of different levels do not add up",
                levels.join(", ")
            ),
            Some((first, theirs)) if !levels.is_empty() && *theirs != levels => anyhow::bail!(
                "{name} was made at --mate-check {} but {first} at --mate-check {}; summaries of different levels do not add up",
                levels.join(", "),
                theirs.join(", ")
            ),
            None if !levels.is_empty() => level_of = Some((name, levels)),
            _ => {}
        }
        total
            .merge(&part)
            .with_context(|| format!("cannot add {name} to the files before it"))?;
    }
    let summary_output = summary_output(args)?;
    let mut output = Output::create(args.output.output.as_deref())?;
    write_summary_csv(&total, &mut output)?;
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
        write_summary_csv(summary, &mut output)?;
        output.finish()?;
    }
    if print_table {
        crate::stderr::text(format_args!("{}", summary_table(summary)));
    }
    Ok(())
}
