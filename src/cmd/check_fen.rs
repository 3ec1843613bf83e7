//! `pgnkit check-fen`: validate positions and name every defect.

use std::io::Write;

use crate::cmd::args::{GlobalArgs, OutputArg, TextOrRecords, format_values};
use crate::cmd::context::Context;
use crate::cmd::positions::{PositionArgs, too_long};
use crate::exit::ExitStatus;
use crate::output::findings::severity_colour;
use crate::output::{Format, Output, Sink, SinkFormat};
use crate::record::{CellSink, Column, Record};
use crate::rules::Severity;
use crate::rules::fen::check::{self as fen_check, CheckOptions};
use crate::rules::fen::epd;
use crate::terminal::visible;

/// Check FEN positions and name every defect.
///
/// Positions come from the arguments, or one per line from `--input FILE` or stdin (EPD
/// lines too: four fields, then `;`-terminated operations, which are ignored; `- -` as
/// placeholder clocks; blank and `#` lines are skipped; a line longer
/// than 64 KiB is reported on stderr as an error and skipped). Anything else that is not a
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

    /// Output format: text lines, JSON lines, CSV with a header, or one Parquet file with
    /// the same columns, typed (needs -o FILE or a pipe).
    #[arg(
        long,
        value_parser = format_values::<TextOrRecords>(),
        default_value_t = Format::Text,
        help_heading = "Output"
    )]
    pub format: Format,

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
  pgnkit fen games.pgn --every-ply | pgnkit check-fen        positions from stdin

The guide: docs/GUIDE.md, \"Converting\" (every command, filter, code and column).";

/// One defect of the jsonl and csv formats.
struct DefectRecord<'a> {
    input: u64,
    fen: &'a str,
    severity: &'a str,
    code: &'a str,
    message: &'a str,
}

impl Record for DefectRecord<'_> {
    const COLUMNS: &'static [Column] = &[
        Column::number("input"),
        Column::string("fen"),
        Column::string("severity"),
        Column::string("code"),
        Column::string("message"),
    ];
    const EMPTY_STRING_IS_NULL: bool = false;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        cells.number(self.input);
        cells.text(self.fen);
        cells.text(self.severity);
        cells.text(self.code);
        cells.text(self.message);
    }
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let ctx = Context::new(global, args.output.output.is_none());
    args.positions
        .refuse_as_output(args.output.output.as_deref())?;
    let options = CheckOptions {
        chess960: args.chess960,
        repair: args.repair,
    };
    let format = SinkFormat::new(args.format, ctx.data_on_terminal, ctx.threads)?;
    let output = Output::create(args.output.output.as_deref())?;
    // The results: text lines (`FEN: ok`, one line per defect) or records.
    let mut sink = format.open::<DefectRecord, _>(output, &[])?;
    let color = ctx.color;
    let mut errors = 0u64;
    args.positions.each_line(&ctx, |item| {
        let item = match item {
            Ok(item) => item,
            Err(source) => {
                errors += 1;
                crate::stderr::say!("pgnkit: {}", visible(&too_long(&source)));
                return Ok(());
            }
        };
        // The position fields as written (a line that does not parse: all of it).
        let fen = epd::parse(&item.text)
            .map_or_else(|_| item.text.trim().to_string(), |(line, _)| line.fen);
        let defects = fen_check::check(&item.text, options);
        errors += defects
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count() as u64;
        match &mut sink {
            Sink::Text(out) if defects.is_empty() => {
                writeln!(out, "{}: ok", visible(&fen))?;
            }
            Sink::Text(out) => {
                for defect in &defects {
                    let (on, off) = severity_colour(defect.severity, color);
                    writeln!(
                        out,
                        "{}: {on}{}[{}]{off}: {}",
                        visible(&fen),
                        defect.severity.as_str(),
                        defect.code,
                        visible(&defect.message)
                    )?;
                }
            }
            Sink::Records(records) => {
                for defect in &defects {
                    records.write(&DefectRecord {
                        input: item.input,
                        fen: &fen,
                        severity: defect.severity.as_str(),
                        code: defect.code,
                        message: &defect.message,
                    })?;
                }
            }
        }
        Ok(())
    })?;
    sink.finish()?.finish()?;
    Ok(if errors > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}
