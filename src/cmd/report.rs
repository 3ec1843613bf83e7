//! `pgnkit report`: one self-contained HTML page about an archive.

use crate::cmd::args::CodeArgs;
use crate::cmd::args::{GlobalArgs, InputArgs, OutputArg};
use crate::cmd::run::{Ending, GameRun, Reads, data_context};
use crate::cmd::validate::Level;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::report::{ReportBuilder, ReportMeta};
use crate::output::summary::RunFigures;

/// Write one self-contained HTML page about the games: summary charts and error boards.
///
/// The page has the run's summary (games, results, terminations, how far each replay got,
/// draw rules, openings, findings by code) as tables and bar charts; when the games have
/// `[%clk]` or `[%eval]` comments, their time and accuracy per side (mean ACPL,
/// inaccuracies, mistakes, blunders, lowest clocks under 60 s and 10 s, losses on time,
/// the spread of ACPLs); a table of every finding
/// (file, game, players, move, message) grouped by code and counted by file, and for each
/// error finding, up to --limit, a card with the board before the move (the move drawn as
/// an arrow), the players, event, round and date, the moves before, and the explanation.
/// The table's rows wait in temporary files (in $TMPDIR), so memory does not grow with
/// the findings; the page does, by about 200 bytes a finding. It holds everything inline (no script, no
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

    #[command(flatten)]
    pub codes: CodeArgs,

    /// The page's title (default: "pgnkit report" and the inputs).
    #[arg(long, value_name = "TEXT", help_heading = "Output")]
    pub title: Option<String>,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit report games.pgn -o report.html
  pgnkit report archive/ --limit 20 --title 'Club championship 2024' -o club.html
  pgnkit report archive/ --limit 0 --ignore tag. -o findings.html
  pgnkit report lichess.pgn -o accuracy.html      with time and accuracy per side
  zstdcat lichess.pgn.zst | pgnkit report --games 1..10000 -o sample.html
  pgnkit report archive/ --where 'WhiteElo >= 2600 && BlackElo >= 2600' -o top.html

The guide: docs/GUIDE.md, \"Reading findings, picking games, the HTML report\" (every command, filter, code and column).";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let outputs = [("-o", args.output.output.as_deref())];
    let ctx = data_context(global, &outputs);
    if ctx.data_on_terminal {
        anyhow::bail!("the report is an HTML page: give -o FILE (for example -o report.html)");
    }
    let codes = args.codes.filter()?;
    let reads = Reads {
        // The openings and the time and accuracy panels show the figures.
        figures: true,
        info_findings: args.level == Level::Info,
        // A card shows the moves before an error with their numbers.
        move_numbers: true,
        ..Reads::REPORT
    };
    let run = GameRun::with_context(ctx, &args.input, &outputs, reads)?;
    let mut output = Output::create(args.output.output.as_deref())?;

    let mut builder = ReportBuilder::new(args.limit, args.level.least(), codes);
    let mut figures = RunFigures::default();
    let totals = run.run(
        |raw| run.judge(raw, &mut (), |game| game.report),
        |raw, report| {
            figures.add_game(report);
            builder.add(raw, report)?;
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
    builder.render(&meta, &mut output)?;
    output.finish()?;
    // Broken games are data here: error findings do not change the exit code.
    Ok(run.finish(
        &totals,
        Ending {
            figures: Some(figures),
            failing_errors: 0,
            selection: None,
        },
    ))
}
