//! `pgnkit check-fen`: validate positions and name every defect.

use std::io::Write;

use serde::Serialize;

use crate::cli::{GlobalArgs, OutputArg};
use crate::cmd::common::PositionArgs;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::output::terminal::visible;
use crate::rules::Severity;
use crate::rules::fen::check::{self as fen_check, CheckOptions};
use crate::rules::fen::epd;

/// Check FEN positions and name every defect.
///
/// Positions come from the arguments, or one per line from `--input FILE` or stdin (EPD
/// lines too: four fields, then `;`-terminated operations, which are ignored; `- -` as
/// placeholder clocks; blank and `#` lines are skipped). Anything else that is not a
/// standard FEN (a ninth rank or pocket, a rank like `17`, a clock that is not a number)
/// is fen.syntax naming the field; every command reads FENs this way. Errors (the
/// position is not legal; exit 1): fen.syntax, fen.empty-board, fen.missing-king,
/// fen.too-many-kings, fen.pawns-on-backrank, fen.invalid-castling-rights,
/// fen.invalid-ep-square, fen.opposite-check, fen.impossible-check,
/// fen.too-much-material. Warnings (legal but implausible; exit 0):
/// fen.implausible-clock, fen.ep-with-clock, fen.noncanonical-castling.
///
/// Text output: `FEN: ok`, or `FEN: error[CODE]: MESSAGE` per defect. jsonl/csv: `input, fen, severity, code,
/// message` (`input`: the argument's 1-based index or the line number), nothing for a
/// position without defects.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub positions: PositionArgs,

    /// Add the nearest legal FEN (impossible castling rights and en passant squares
    /// dropped) to the messages.
    #[arg(long, help_heading = "Output")]
    pub repair: bool,

    /// Output format: text lines, JSON lines, or CSV with a header.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text, help_heading = "Output")]
    pub format: CheckFormat,

    #[command(flatten)]
    pub output: OutputArg,

    /// Read castling rights as Chess960 (chosen anyway when the field uses file letters).
    #[arg(long, help_heading = "Rules")]
    pub chess960: bool,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit check-fen \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"
  pgnkit check-fen \"4k3/8/8/8/8/8/8/4K2R w Q - 0 1\" --repair  with the nearest legal FEN
  pgnkit check-fen --input positions.epd --format csv        a table of the defects
  pgnkit fen games.pgn --every-ply | pgnkit check-fen        positions from stdin";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Text,
    Jsonl,
    Csv,
}

#[derive(Serialize)]
struct Record<'a> {
    input: u64,
    fen: &'a str,
    severity: &'a str,
    code: &'a str,
    message: &'a str,
}

pub fn run(args: Args, _global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    args.positions
        .refuse_as_output(args.output.output.as_deref())?;
    let items = args.positions.lines()?;
    let options = CheckOptions {
        chess960: args.chess960,
        repair: args.repair,
    };
    let output = Output::create(args.output.output.as_deref())?;
    let mut csv_out = None;
    let mut text_out = None;
    match args.format {
        CheckFormat::Csv => csv_out = Some(csv::Writer::from_writer(output)),
        _ => text_out = Some(output),
    }
    let mut errors = 0u64;
    let mut rows = 0u64;
    for item in &items {
        // The position fields as written (a line that does not parse: all of it).
        let fen = epd::parse(&item.text)
            .map_or_else(|_| item.text.trim().to_string(), |(line, _)| line.fen);
        let defects = fen_check::check(&item.text, options);
        errors += defects
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count() as u64;
        if let Some(out) = text_out.as_mut()
            && args.format == CheckFormat::Text
            && defects.is_empty()
        {
            writeln!(out, "{}: ok", visible(&fen))?;
        }
        for defect in &defects {
            let record = Record {
                input: item.input,
                fen: &fen,
                severity: defect.severity.as_str(),
                code: defect.code,
                message: &defect.message,
            };
            rows += 1;
            if let Some(csv) = csv_out.as_mut() {
                csv.serialize(&record)?;
            } else if let Some(out) = text_out.as_mut() {
                if args.format == CheckFormat::Jsonl {
                    serde_json::to_writer(&mut *out, &record)?;
                    out.write_all(b"\n")?;
                } else {
                    writeln!(
                        out,
                        "{}: {}[{}]: {}",
                        visible(&fen),
                        record.severity,
                        record.code,
                        visible(record.message)
                    )?;
                }
            }
        }
    }
    let output = match (csv_out, text_out) {
        (Some(mut csv), _) => {
            if rows == 0 {
                csv.write_record(["input", "fen", "severity", "code", "message"])?;
            }
            csv.into_inner()
                .map_err(|e| anyhow::Error::new(e.into_error()))?
        }
        (None, Some(out)) => out,
        (None, None) => return Ok(ExitStatus::Error),
    };
    output.finish()?;
    Ok(if errors > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}
