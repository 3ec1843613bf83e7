//! `pgnkit report`: one self-contained HTML page about an archive.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use crate::cli::{Context, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::common;
use crate::cmd::validate::Level;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::findings::CodeFilter;
use crate::output::report::{ReportBuilder, ReportMeta};
use crate::output::summary::{RunFigures, summary_line};
use crate::rules::ReplayOptions;

/// Write one self-contained HTML page about the games: summary charts and error boards.
///
/// The page has the run's summary (games, results, terminations, how far each replay got,
/// draw rules, findings by code) as tables and bar charts, a table of every finding
/// (file, game, players, move, message) grouped by code and counted by file, and for each
/// error finding, up to --limit, a card with the board before the move (the move drawn as
/// an arrow), the players, event, round and date, the moves before, and the explanation. It holds everything inline (no script, no
/// network, no external file), so it can be mailed or archived as it is. Broken games are
/// data here: the exit code is 0 whenever the run completed.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Draw a board for at most N error findings (0: none). The table of findings lists
    /// every finding all the same.
    #[arg(long, value_name = "N", default_value_t = 100, help_heading = "Output")]
    pub limit: usize,

    /// The least severe findings listed: error, warning (default) or info. Every
    /// finding so listed has a row in the page's table, whatever --limit says.
    #[arg(long, value_enum, default_value_t = Level::Warning, help_heading = "Output")]
    pub level: Level,

    /// List only the findings whose code starts with one of these, comma-separated.
    #[arg(long, value_name = "CODE,...", help_heading = "Output")]
    pub select: Vec<String>,

    /// Do not list the findings whose code starts with one of these (`tag.,san.`).
    #[arg(long, value_name = "CODE,...", help_heading = "Output")]
    pub ignore: Vec<String>,

    /// The page's title (default: "pgnkit report" and the inputs).
    #[arg(long, value_name = "TEXT", help_heading = "Output")]
    pub title: Option<String>,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit report games.pgn -o report.html
  pgnkit report archive/ --limit 20 --title 'Club championship 2024' -o club.html
  pgnkit report archive/ --limit 0 --ignore tag. -o findings.html
  zstdcat lichess.pgn.zst | pgnkit report --games 1..10000 -o sample.html
  pgnkit report archive/ --where 'WhiteElo >= 2600 && BlackElo >= 2600' -o top.html";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let started = Instant::now();
    if args.output.output.is_none() && std::io::stdout().is_terminal() {
        anyhow::bail!("the report is an HTML page: give -o FILE (for example -o report.html)");
    }
    let ctx = Context::new(global, args.output.output.is_none());
    let options = ReplayOptions {
        tag_infos: args.level == Level::Info,
        ..common::replay_options(&args.input)?
    };
    let codes = CodeFilter::new(&args.select, &args.ignore)?;
    let filter = common::filter(&args.input)?;
    let (sources, listing_errors) =
        common::sources(&args.input, &[("-o", args.output.output.as_deref())])?;
    let pipeline = common::pipeline(&ctx, &args.input);
    let mut output = Output::create(args.output.output.as_deref())?;

    let mut builder = ReportBuilder::new(args.limit, args.level.least(), codes);
    let mut figures = RunFigures::default();
    let totals = common::run_games(
        &pipeline,
        &args.input,
        &sources,
        &filter,
        |raw| filter.replay(raw, &options, &mut ()),
        |raw, report| {
            figures.add_game(report);
            builder.add(raw, report);
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
