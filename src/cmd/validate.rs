//! `pgnkit validate`: replay every game's main line and report each finding.

use std::path::{Path, PathBuf};

use crate::cmd::args::{CodeArgs, TextOrRecords, format_values};
use crate::cmd::args::{GlobalArgs, InputArgs, OutputArg};
use crate::cmd::run::{Ending, GameRun, Reads};
use crate::exit::ExitStatus;
use crate::output::findings::{FindingWriter, TextDetail};
use crate::output::pgn::write_original;
use crate::output::summary::RunFigures;
use crate::output::{Format, Output, SinkFormat};
use crate::rules::Severity;

/// Replay every game's main line through the rules of chess and report each defect.
///
/// Each finding names the file, the line, the game and the move, with a stable code
/// (`castling.rook-moved`, `move.illegal`, `result.mismatch`, ...) and a plain
/// explanation. Errors stop the replay of that game; the run goes on with the next.
/// How the game ended is checked too: the result against the board, the Termination tag's
/// claim (`result.termination-conflict`, `result.timeout-draw-winnable`) and the clocks
/// against the TimeControl tag (`clock.gain`, `clock.over-time`).
/// On a terminal each finding is followed by the game, and the first finding of each code
/// by what the code means (--verbose: every finding; --compact: one line each); --board
/// adds a diagram of the position before the move (a game-level finding: the final
/// position). --select and --ignore pick codes by prefix. A summary line
/// goes to stderr at the end. Exit code 1 when an error was found, 2 on an I/O error.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Output format: compiler-style text lines, JSON lines, CSV with a header, or one
    /// Parquet file with the JSON keys as typed columns (needs -o FILE or a pipe).
    #[arg(
        long,
        value_parser = format_values::<TextOrRecords>(),
        default_value_t = Format::Text,
        help_heading = "Output"
    )]
    pub format: Format,

    /// The least severe findings shown: error, warning (default) or info.
    #[arg(long, value_enum, default_value_t = Level::Warning, help_heading = "Output")]
    pub level: Level,

    /// Under each text finding, the game (players, event, round) and what the code
    /// means. On a terminal this is the default, with the meaning printed once per code.
    #[arg(short, long, help_heading = "Output", conflicts_with = "compact")]
    pub verbose: bool,

    /// One line per text finding, even on a terminal.
    #[arg(long, help_heading = "Output")]
    pub compact: bool,

    #[command(flatten)]
    pub codes: CodeArgs,

    /// Under each text finding about a move, a diagram of the position before it: (x)
    /// where the piece moves from, [x] where to, !x! what attacks, *x* what the message
    /// names (the pinned piece, the rook, the missing double step).
    #[allow(
        rustdoc::broken_intra_doc_links,
        reason = "this is --help text: [x] is the diagram's mark, not a link"
    )]
    #[arg(long, help_heading = "Output")]
    pub board: bool,

    /// Copy the original text of every game without an error finding to FILE (warnings
    /// and infos do not count), in input order: the part an arbiter can publish.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub clean_out: Option<PathBuf>,

    /// Copy the original text of every game with an error finding to FILE, in input order:
    /// the part to send back. With --clean-out, every game goes to exactly one of the two.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub broken_out: Option<PathBuf>,

    /// Also replay and check every variation, from the position before the move it
    /// replaces. A finding inside a variation says so in its message and shows the
    /// variation in `move` (`(12... Nf6 ...) 14. O-O`); it does not stop the main line.
    #[arg(long, help_heading = "Rules")]
    pub variations: bool,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit validate games.pgn                       findings as text, with a summary
  pgnkit validate games.pgn --game 7 --board      one game, each error with a diagram
  pgnkit validate archive/ --game archive/problems.pgn:2 --board   game 2 of one file
  pgnkit validate archive/ --ignore tag.,san. --compact    one line each, no tag or SAN
  pgnkit validate archive/ --format csv -o f.csv  a table for a spreadsheet
  pgnkit validate event.pgn --clean-out ok.pgn --broken-out fix.pgn
  zstdcat lichess.pgn.zst | pgnkit validate --level info --shard 0/4
  pgnkit validate games.pgn --where 'WhiteElo >= 2700'  only the games of 2700+ players
  pgnkit validate games.pgn --select result.     results the board or FIDE 6.9 contradicts

The guide: docs/GUIDE.md, \"Rule diagnosis\" and \"Finding codes\" (every command, filter, code and column).";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    Error,
    Warning,
    Info,
}

impl Level {
    /// The least severe finding shown.
    pub fn least(self) -> Severity {
        match self {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Info => Severity::Info,
        }
    }

    fn shows(self, severity: Severity) -> bool {
        severity >= self.least()
    }
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let info = args.level == Level::Info;
    let run = GameRun::new(
        global,
        &args.input,
        &[
            ("-o", args.output.output.as_deref()),
            ("--clean-out", args.clean_out.as_deref()),
            ("--broken-out", args.broken_out.as_deref()),
        ],
        Reads {
            // Openings and annotations show only through info findings.
            figures: info,
            info_findings: info,
            variations: args.variations,
            ..Reads::REPORT
        },
    )?;

    let format = SinkFormat::new(args.format, run.ctx.data_on_terminal, run.ctx.threads)?;
    let output = Output::create(args.output.output.as_deref())?;
    let detail = TextDetail {
        context: !args.compact && (args.verbose || run.ctx.data_on_terminal || args.board),
        why_every_time: args.verbose,
        board: args.board,
    };
    let codes = args.codes.filter()?;
    let mut writer = FindingWriter::new(output, format, run.ctx.color, detail)?;
    let mut clean_out = args.clean_out.as_deref().map(open_copy).transpose()?;
    let mut broken_out = args.broken_out.as_deref().map(open_copy).transpose()?;
    let mut figures = RunFigures::default();
    let level = args.level;
    let totals = run.run(
        |raw| run.judge(raw, &mut (), |game| game.report),
        |raw, report| {
            figures.plies += u64::from(report.plies);
            let copy = if report.first_error().is_some() {
                broken_out.as_mut()
            } else {
                clean_out.as_mut()
            };
            if let Some(copy) = copy {
                write_original(copy, &raw.bytes)?;
            }
            for finding in &report.findings {
                let severity = finding.severity();
                if !level.shows(severity) || !codes.allows(finding.code) {
                    continue;
                }
                figures.count_finding(severity);
                writer.write(report, finding)?;
            }
            Ok(())
        },
    )?;
    writer.finish()?.finish()?;
    for copy in [clean_out, broken_out].into_iter().flatten() {
        copy.finish()?;
    }
    Ok(run.finish(
        &totals,
        Ending {
            figures: Some(figures),
            failing_errors: figures.errors,
            selection: None,
        },
    ))
}

fn open_copy(path: &Path) -> anyhow::Result<Output> {
    Output::create(Some(path))
}
