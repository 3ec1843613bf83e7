//! Writers of `validate` findings: compiler-style text, JSON lines, CSV (SPEC.md keys).

use std::io::Write;

use serde::Serialize;

use crate::output::board::text_board;
use crate::output::terminal::visible;
use crate::rules::findings::marks::marks_of;
use crate::rules::{Code, Finding, GameReport, Severity};

/// `--format` of commands that report findings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FindingFormat {
    Text,
    Jsonl,
    Csv,
}

/// One finding with its game's identity: the record of the jsonl and csv formats, with
/// SPEC.md's keys in SPEC.md's order.
#[derive(Serialize)]
pub struct FindingRecord<'a> {
    pub file: &'a str,
    pub game: u64,
    pub line: u64,
    pub white: &'a str,
    pub black: &'a str,
    pub ply: u32,
    #[serde(rename = "move")]
    pub move_text: &'a str,
    pub san: &'a str,
    pub severity: &'a str,
    pub code: &'a str,
    pub message: &'a str,
    pub fen: &'a str,
    pub move_line: u64,
}

impl<'a> FindingRecord<'a> {
    pub fn new(game: &'a GameReport, finding: &'a Finding) -> FindingRecord<'a> {
        FindingRecord {
            file: &game.file,
            game: game.index,
            line: game.line,
            white: game.tags.value("White"),
            black: game.tags.value("Black"),
            ply: finding.ply,
            move_text: &finding.move_text,
            san: &finding.san,
            severity: finding.severity().as_str(),
            code: finding.code.as_str(),
            message: &finding.message,
            fen: &finding.fen,
            move_line: finding.move_line,
        }
    }
}

/// What the text format adds under each finding's first line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextDetail {
    /// The game (players, event, round) and what the code means.
    pub context: bool,
    /// What the code means under every finding (`--verbose`), not only under the first
    /// finding of each code (a terminal's default, which reads 144 findings as ~150 lines
    /// rather than 432).
    pub why_every_time: bool,
    /// A diagram of the position before the move, the relevant squares marked (a
    /// game-level finding: the final position).
    pub board: bool,
}

/// `--select` / `--ignore`: which codes a command reports, each entry a code or the
/// start of codes (`tag.`, `san.notation`), as linters take them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeFilter {
    select: Vec<String>,
    ignore: Vec<String>,
}

impl CodeFilter {
    /// A filter from the comma-separated lists of both flags; an entry that starts no
    /// code is an error (a typo would otherwise silently select nothing).
    pub fn new(select: &[String], ignore: &[String]) -> anyhow::Result<CodeFilter> {
        let split = |lists: &[String], flag: &str| -> anyhow::Result<Vec<String>> {
            let mut entries = Vec::new();
            for entry in lists.iter().flat_map(|list| list.split(',')) {
                let entry = entry.trim();
                if entry.is_empty() {
                    continue;
                }
                if !Code::ALL
                    .iter()
                    .any(|code| code.as_str().starts_with(entry))
                {
                    anyhow::bail!(
                        "{flag} {}: no finding code starts so (see `pgnkit validate --help` or README's codes table)",
                        visible(entry)
                    );
                }
                entries.push(entry.to_string());
            }
            Ok(entries)
        };
        Ok(CodeFilter {
            select: split(select, "--select")?,
            ignore: split(ignore, "--ignore")?,
        })
    }

    /// Whether findings of this code are reported.
    pub fn allows(&self, code: Code) -> bool {
        let name = code.as_str();
        let selected =
            self.select.is_empty() || self.select.iter().any(|p| name.starts_with(p.as_str()));
        selected && !self.ignore.iter().any(|p| name.starts_with(p.as_str()))
    }
}

/// Writes findings in one format.
pub struct FindingWriter<W: Write> {
    format: FindingFormat,
    color: bool,
    detail: TextDetail,
    csv: Option<csv::Writer<W>>,
    out: Option<W>,
    /// Findings written so far.
    pub written: u64,
    /// The codes whose meaning was already printed.
    explained: Vec<Code>,
}

const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const DIM: &str = "\x1b[2m";
const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

impl<W: Write> FindingWriter<W> {
    pub fn new(out: W, format: FindingFormat, color: bool, detail: TextDetail) -> FindingWriter<W> {
        match format {
            FindingFormat::Csv => FindingWriter {
                format,
                color: false,
                detail: TextDetail::default(),
                csv: Some(csv::Writer::from_writer(out)),
                out: None,
                written: 0,
                explained: Vec::new(),
            },
            _ => FindingWriter {
                format,
                color: color && format == FindingFormat::Text,
                detail,
                csv: None,
                out: Some(out),
                written: 0,
                explained: Vec::new(),
            },
        }
    }

    /// Writes one finding of one game.
    pub fn write(&mut self, game: &GameReport, finding: &Finding) -> anyhow::Result<()> {
        let record = FindingRecord::new(game, finding);
        self.written += 1;
        if let Some(csv) = self.csv.as_mut() {
            csv.serialize(&record)?;
            return Ok(());
        }
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        match self.format {
            FindingFormat::Jsonl => {
                serde_json::to_writer(&mut *out, &record)?;
                out.write_all(b"\n")?;
            }
            _ => {
                write_text(out, game, finding, self.color)?;
                if self.detail.context {
                    let first_of_code = !self.explained.contains(&finding.code);
                    if first_of_code {
                        self.explained.push(finding.code);
                    }
                    let why = self.detail.why_every_time || first_of_code;
                    write_context(out, game, finding, why, self.color)?;
                }
                if self.detail.board {
                    write_board(out, finding, self.color)?;
                }
            }
        }
        Ok(())
    }

    /// Writes the CSV header even when there is no finding, so the file is always a table.
    pub fn finish(mut self) -> anyhow::Result<W> {
        if let Some(mut csv) = self.csv.take() {
            if self.written == 0 {
                csv.write_record(CSV_HEADER)?;
            }
            csv.flush()?;
            return csv
                .into_inner()
                .map_err(|e| anyhow::anyhow!("{}", e.error()));
        }
        self.out
            .take()
            .ok_or_else(|| anyhow::anyhow!("writer already finished"))
    }
}

/// The CSV header, the same as the serialized record's field names.
pub const CSV_HEADER: [&str; 13] = [
    "file",
    "game",
    "line",
    "white",
    "black",
    "ply",
    "move",
    "san",
    "severity",
    "code",
    "message",
    "fen",
    "move_line",
];

/// `FILE:MOVE_LINE: game N, 23... O-O: error[code]: MESSAGE`, the data's control
/// characters written visibly (a file may hold anything; a terminal obeys it).
fn write_text<W: Write>(
    out: &mut W,
    game: &GameReport,
    finding: &Finding,
    color: bool,
) -> std::io::Result<()> {
    let severity = finding.severity();
    let (on, off) = if color {
        (
            match severity {
                Severity::Error => RED,
                Severity::Warning => YELLOW,
                Severity::Info => DIM,
            },
            RESET,
        )
    } else {
        ("", "")
    };
    write!(
        out,
        "{}:{}: game {}",
        visible(&game.file),
        finding.move_line,
        game.index
    )?;
    if !finding.move_text.is_empty() {
        let move_text = visible(&finding.move_text);
        if color {
            write!(out, ", {BOLD}{move_text}{RESET}")?;
        } else {
            write!(out, ", {move_text}")?;
        }
    }
    writeln!(
        out,
        ": {on}{severity}[{}]{off}: {}",
        finding.code,
        visible(&finding.message)
    )
}

/// The indented lines under a finding: who played, where, and what the code means.
fn write_context<W: Write>(
    out: &mut W,
    game: &GameReport,
    finding: &Finding,
    why: bool,
    color: bool,
) -> std::io::Result<()> {
    let tags = &game.tags;
    let (dim, off) = if color { (DIM, RESET) } else { ("", "") };
    writeln!(
        out,
        "    {dim}game:{off} {} \u{2013} {}, {}, round {}",
        visible(or_unknown(tags.value("White"))),
        visible(or_unknown(tags.value("Black"))),
        visible(or_unknown(tags.value("Event"))),
        visible(or_unknown(tags.value("Round"))),
    )?;
    if why {
        writeln!(out, "    {dim}why:{off}  {}", finding.code.explanation())?;
    }
    Ok(())
}

/// The position before the move, as a small diagram; a game-level finding (no move)
/// shows the final position, which is what `result.mismatch` and its kin are about.
fn write_board<W: Write>(out: &mut W, finding: &Finding, color: bool) -> std::io::Result<()> {
    let Some((setup, marks)) = marks_of(finding) else {
        return Ok(());
    };
    if finding.move_text.is_empty() {
        writeln!(out, "    final position:")?;
    }
    out.write_all(text_board(&setup.board, setup.turn, &marks, "    ", color).as_bytes())
}

fn or_unknown(value: &str) -> &str {
    if value.is_empty() { "?" } else { value }
}
