//! `pgnkit validate`: replay every game's main line and report each finding.

use std::time::Instant;

use anyhow::anyhow;

use crate::cli::{Context, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::common;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::findings::{FindingFormat, FindingWriter};
use crate::output::summary::{RunFigures, summary_line};
use crate::rules::notation::PieceLetters;
use crate::rules::{ReplayOptions, Severity, replay};

/// Replay every game's main line through the rules of chess and report each defect.
///
/// Each finding names the file, the line, the game and the move, with a stable code
/// (`castling.rook-moved`, `move.illegal`, `result.mismatch`, ...) and a plain
/// explanation. Errors stop the replay of that game; the run goes on with the next.
/// A summary line goes to stderr at the end.
///
/// Examples:
///   pgnkit validate games.pgn
///   pgnkit validate archive/ --format csv -o findings.csv
///   zstdcat lichess.pgn.zst | pgnkit validate --level info
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Output format: compiler-style text lines, JSON lines, or CSV with a header.
    #[arg(long, value_enum, default_value_t = FindingFormat::Text, help_heading = "Output")]
    pub format: FindingFormat,

    /// The least severe findings shown: error, warning (default) or info.
    #[arg(long, value_enum, default_value_t = Level::Warning, help_heading = "Output")]
    pub level: Level,

    /// Under each text finding, the game's players, event and round.
    #[arg(short, long, help_heading = "Output")]
    pub verbose: bool,

    /// Also replay and check every variation, from the position before the move it
    /// replaces. A finding inside a variation says so in its message and shows the
    /// variation in `move` (`(12... Nf6 ...) 14. O-O`); it does not stop the main line.
    #[arg(long, help_heading = "Rules")]
    pub variations: bool,

    /// Read piece letters of another language: de (K D T L S), fr (R D T F C) or
    /// nl (K D T L P). Each move so read is reported as info `san.notation`.
    #[arg(long, value_enum, value_name = "LANG", help_heading = "Rules")]
    pub piece_letters: Option<PieceLetters>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    Error,
    Warning,
    Info,
}

impl Level {
    fn shows(self, severity: Severity) -> bool {
        let least = match self {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Info => Severity::Info,
        };
        severity >= least
    }
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let started = Instant::now();
    let ctx = Context::new(global, args.output.output.is_none());
    let options = ReplayOptions {
        decoder: crate::input::TextDecoder::from_label(&args.input.encoding)
            .map_err(|e| anyhow!(e))?,
        variations: args.variations,
        piece_letters: args.piece_letters,
        tag_infos: args.level == Level::Info,
    };
    let (sources, listing_errors) = common::sources(&args.input);
    let pipeline = common::pipeline(&ctx, &args.input);

    let output = Output::create(args.output.output.as_deref())?;
    let mut writer = FindingWriter::new(output, args.format, ctx.color, args.verbose);
    let mut figures = RunFigures::default();
    let level = args.level;
    let totals = pipeline.run(
        &sources,
        |raw| replay(raw, &options, &mut ()),
        |_raw, report| {
            figures.plies += u64::from(report.plies);
            for finding in &report.findings {
                let severity = finding.severity();
                if !level.shows(severity) {
                    continue;
                }
                match severity {
                    Severity::Error => figures.errors += 1,
                    Severity::Warning => figures.warnings += 1,
                    Severity::Info => {}
                }
                writer.write(&report, finding)?;
            }
            Ok(())
        },
    )?;
    writer.finish()?.finish()?;

    figures.files = totals.files;
    figures.games = totals.games;
    if !ctx.quiet {
        eprintln!("{}", summary_line(&figures, started.elapsed()));
    }
    let mut status = ExitStatus::Success;
    if figures.errors > 0 {
        status = status.max(ExitStatus::Failure);
    }
    if totals.input_errors + listing_errors > 0 {
        status = status.max(ExitStatus::Error);
    }
    Ok(status)
}
