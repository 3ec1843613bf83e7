//! `pgnkit report`: one self-contained HTML page about an archive.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use crate::cli::{Context, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::common;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::report::{ReportBuilder, ReportMeta};
use crate::output::summary::{RunFigures, summary_line};

/// Write one self-contained HTML page about the games: summary charts and error boards.
///
/// The page has the run's summary (games, results, terminations, how far each replay got,
/// draw rules, findings by code) as tables and bar charts, and for each error finding, up
/// to --limit, a board of the position before the move with the move drawn as an arrow,
/// the explanation and the game's tags. It holds everything inline (no script, no
/// network, no external file), so it can be mailed or archived as it is. Broken games are
/// data here: the exit code is 0 whenever the run completed.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Draw at most N error boards (the page says how many more there were).
    #[arg(long, value_name = "N", default_value_t = 100, help_heading = "Output")]
    pub limit: usize,

    /// The page's title (default: "pgnkit report" and the inputs).
    #[arg(long, value_name = "TEXT", help_heading = "Output")]
    pub title: Option<String>,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit report games.pgn -o report.html
  pgnkit report archive/ --limit 20 --title 'Club championship 2024' -o club.html
  zstdcat lichess.pgn.zst | pgnkit report --games 1..10000 -o sample.html
  pgnkit report archive/ --where 'WhiteElo >= 2600 && BlackElo >= 2600' -o top.html";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let started = Instant::now();
    if args.output.output.is_none() && std::io::stdout().is_terminal() {
        anyhow::bail!("the report is an HTML page: give -o FILE (for example -o report.html)");
    }
    let ctx = Context::new(global, args.output.output.is_none());
    let options = common::replay_options(&args.input)?;
    let filter = common::filter(&args.input)?;
    let (sources, listing_errors) =
        common::sources(&args.input, &[("-o", args.output.output.as_deref())])?;
    let pipeline = common::pipeline(&ctx, &args.input);
    let mut output = Output::create(args.output.output.as_deref())?;

    let mut builder = ReportBuilder::new(args.limit);
    let mut figures = RunFigures::default();
    let totals = common::run_games(
        &pipeline,
        &args.input,
        &sources,
        &filter,
        |raw| filter.replay(raw, &options, &mut ()),
        |_raw, report| {
            figures.add_game(report);
            builder.add(report);
            Ok(())
        },
    )?;

    let inputs = if args.input.inputs.is_empty() {
        vec!["-".to_string()]
    } else {
        args.input.inputs.clone()
    };
    let meta = ReportMeta {
        title: args
            .title
            .unwrap_or_else(|| format!("pgnkit report: {}", inputs.join(", "))),
        inputs,
        files: totals.files,
        version: env!("CARGO_PKG_VERSION"),
    };
    output.write_all(builder.render(&meta).as_bytes())?;
    output.finish()?;

    figures.files = totals.files;
    figures.games = totals.games;
    if !ctx.quiet {
        crate::say!("{}", summary_line(&figures, started.elapsed()));
    }
    if totals.input_errors + listing_errors > 0 {
        return Ok(ExitStatus::Error);
    }
    Ok(ExitStatus::Success)
}
