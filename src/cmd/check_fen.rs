//! `pgnkit check-fen`: validate positions and name every defect.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use anyhow::Context as _;
use serde::Serialize;

use crate::cli::{GlobalArgs, OutputArg};
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::rules::Severity;
use crate::rules::epd;
use crate::rules::fen_check::{self, CheckOptions};

/// Check FEN positions and name every defect.
///
/// Positions come from the arguments, or one per line from `--input FILE` or stdin (EPD
/// lines too: the opcodes are ignored; blank and `#` lines are skipped). Errors (the
/// position is not legal; exit 1): fen.syntax, fen.empty-board, fen.missing-king,
/// fen.too-many-kings, fen.pawns-on-backrank, fen.invalid-castling-rights,
/// fen.invalid-ep-square, fen.opposite-check, fen.impossible-check,
/// fen.too-much-material. Warnings (legal but implausible; exit 0):
/// fen.implausible-clock, fen.ep-with-clock, fen.noncanonical-castling.
///
/// Text output: `FEN: ok`, or `FEN: error[CODE]: MESSAGE` per defect (prefixed with
/// `FILE:LINE: ` when read from a file). jsonl/csv: `input, fen, severity, code,
/// message` (`input`: the argument's 1-based index or the line number), nothing for a
/// position without defects.
///
/// Examples:
///   pgnkit check-fen "4k3/8/8/8/8/8/8/4K2R w K - 0 1"
///   pgnkit check-fen --input positions.epd --format csv
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// Positions to check.
    #[arg(value_name = "FEN")]
    pub fens: Vec<String>,

    /// Read positions from FILE, one per line (`-`: stdin).
    #[arg(long, value_name = "FILE", conflicts_with = "fens")]
    pub input: Option<PathBuf>,

    /// Read castling rights as Chess960 (chosen anyway when the field uses file letters).
    #[arg(long)]
    pub chess960: bool,

    /// Add the nearest legal FEN (impossible castling rights and en passant squares
    /// dropped) to the messages.
    #[arg(long)]
    pub repair: bool,

    #[arg(long, value_enum, default_value_t = CheckFormat::Text, help_heading = "Output")]
    pub format: CheckFormat,

    #[command(flatten)]
    pub output: OutputArg,
}

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

/// A position to check and where it came from.
struct Item {
    input: u64,
    /// `FILE:LINE: ` for text output of file input.
    prefix: String,
    fen: String,
}

pub fn run(args: Args, _global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let items = read_items(&args)?;
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
        let defects = fen_check::check(&item.fen, options);
        errors += defects
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count() as u64;
        if let Some(out) = text_out.as_mut()
            && args.format == CheckFormat::Text
            && defects.is_empty()
        {
            writeln!(out, "{}{}: ok", item.prefix, item.fen)?;
        }
        for defect in &defects {
            let record = Record {
                input: item.input,
                fen: &item.fen,
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
                        "{}{}: {}[{}]: {}",
                        item.prefix, item.fen, record.severity, record.code, record.message
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
                .map_err(|e| anyhow::anyhow!("cannot write the output: {}", e.error()))?
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

fn read_items(args: &Args) -> anyhow::Result<Vec<Item>> {
    if !args.fens.is_empty() {
        return Ok(args
            .fens
            .iter()
            .enumerate()
            .map(|(i, fen)| Item {
                input: i as u64 + 1,
                prefix: String::new(),
                fen: fen.trim().to_string(),
            })
            .collect());
    }
    let (name, lines) = read_lines(args.input.as_ref())?;
    Ok(lines
        .into_iter()
        .map(|(line_no, line)| Item {
            input: line_no,
            prefix: format!("{name}:{line_no}: "),
            fen: epd::split_line(&line).fen,
        })
        .collect())
}

/// The non-blank, non-`#` lines of FILE (or stdin) with their 1-based numbers, and the
/// name to show for them.
pub fn read_lines(path: Option<&PathBuf>) -> anyhow::Result<(String, Vec<(u64, String)>)> {
    let (name, reader): (String, Box<dyn BufRead>) = match path {
        Some(p) if p.as_os_str() != "-" => {
            let file =
                std::fs::File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            (
                p.display().to_string(),
                Box::new(std::io::BufReader::new(file)),
            )
        }
        _ => ("-".to_string(), Box::new(std::io::stdin().lock())),
    };
    let mut lines = Vec::new();
    for (i, line) in reader.split(b'\n').enumerate() {
        let bytes = line.with_context(|| format!("cannot read {name}"))?;
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        lines.push((i as u64 + 1, text.to_string()));
    }
    Ok((name, lines))
}
