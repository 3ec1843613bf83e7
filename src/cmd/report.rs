//! `pgnkit report`: one self-contained HTML page about an archive.

use std::io::Write;

use crate::cli::{GlobalArgs, InputArgs, OutputArg};
use crate::cmd::run::{Ending, GameRun, data_context};
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::report::{ReportBuilder, ReportMeta};
use crate::output::summary::RunFigures;

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
    let outputs = [("-o", args.output.output.as_deref())];
    let ctx = data_context(global, &outputs);
    if ctx.data_on_terminal {
        anyhow::bail!("the report is an HTML page: give -o FILE (for example -o report.html)");
    }
    let run = GameRun::with_context(ctx, &args.input, &outputs)?;
    let mut output = Output::create(args.output.output.as_deref())?;

    let mut builder = ReportBuilder::new(args.limit);
    let mut figures = RunFigures::default();
    let totals = run.run(
        |raw| run.replay(raw, &mut ()),
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
    // Broken games are data here: error findings do not change the exit code.
    Ok(run.finish(
        &totals,
        Ending {
            figures: Some(figures),
            failing_errors: 0,
        },
    ))
}
