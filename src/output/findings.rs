//! Writers of `validate` findings: compiler-style text, JSON lines, CSV (SPEC.md keys).

use std::io::Write;

use crate::output::board::text_board;
use crate::output::sink::{Sink, SinkFormat};
use crate::record::{CellSink, Column, Record};
use crate::rules::findings::marks::marks_of;
use crate::rules::{Code, Finding, GameReport, Severity};
use crate::terminal::visible;

/// One finding with its game's identity: the record of the jsonl and csv formats, with
/// SPEC.md's keys in SPEC.md's order.
pub struct FindingRecord<'a> {
    game: &'a GameAt<'a>,
    finding: &'a Finding,
}

/// The game a finding is about, as the writers name it: a replayed game's report, or a
/// game `standings` kept a few facts of (its `event.*` findings).
#[derive(Debug, Clone, Copy)]
pub struct GameAt<'a> {
    pub file: &'a str,
    pub index: u64,
    pub line: u64,
    pub white: &'a str,
    pub black: &'a str,
    pub event: &'a str,
    pub round: &'a str,
}

impl<'a> GameAt<'a> {
    pub fn of(report: &'a GameReport) -> GameAt<'a> {
        GameAt {
            file: &report.file,
            index: report.index,
            line: report.line,
            white: report.tags.value("White"),
            black: report.tags.value("Black"),
            event: report.tags.value("Event"),
            round: report.tags.value("Round"),
        }
    }
}

impl Record for FindingRecord<'_> {
    const COLUMNS: &'static [Column] = &[
        Column::string("file"),
        Column::number("game"),
        Column::number("line"),
        Column::string("white"),
        Column::string("black"),
        Column::number("ply"),
        Column::string("move"),
        Column::string("san"),
        Column::string("severity"),
        Column::string("code"),
        Column::string("message"),
        Column::string("fen"),
        Column::number("move_line"),
    ];
    const EMPTY_STRING_IS_NULL: bool = false;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        let (game, finding) = (self.game, self.finding);
        cells.text(game.file);
        cells.number(game.index);
        cells.number(game.line);
        cells.text(game.white);
        cells.text(game.black);
        cells.number(finding.ply);
        cells.text(&finding.move_text);
        cells.text(&finding.san);
        cells.text(finding.severity().as_str());
        cells.text(finding.code.as_str());
        cells.text(&finding.message);
        cells.text(&finding.fen);
        cells.number(finding.move_line);
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
                        "{flag} {}: no finding code starts so (see `pgnkit validate --help` or the codes table of docs/GUIDE.md, \"Finding codes\")",
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

    /// Whether every code is reported (neither flag given).
    pub fn allows_all(&self) -> bool {
        self.select.is_empty() && self.ignore.is_empty()
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
pub struct FindingWriter<W: Write + Send> {
    sink: Sink<W>,
    color: bool,
    /// What the text adds under each finding.
    detail: TextDetail,
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

impl<W: Write + Send> FindingWriter<W> {
    /// Findings on `out` in `format` (`color` and `detail`: the text's).
    pub fn new(
        out: W,
        format: SinkFormat,
        color: bool,
        detail: TextDetail,
    ) -> anyhow::Result<FindingWriter<W>> {
        Ok(FindingWriter {
            sink: format.open::<FindingRecord, W>(out, &[])?,
            color,
            detail,
            written: 0,
            explained: Vec::new(),
        })
    }

    /// Writes one finding of one game.
    pub fn write(&mut self, game: &GameReport, finding: &Finding) -> anyhow::Result<()> {
        self.write_at(&GameAt::of(game), finding)
    }

    /// Writes one finding about the game `game` names.
    pub fn write_at(&mut self, game: &GameAt, finding: &Finding) -> anyhow::Result<()> {
        self.written += 1;
        match &mut self.sink {
            Sink::Records(records) => records.write(&FindingRecord { game, finding })?,
            Sink::Text(out) => {
                let (color, detail) = (self.color, self.detail);
                write_text(out, game, finding, color)?;
                if detail.context {
                    let first_of_code = !self.explained.contains(&finding.code);
                    if first_of_code {
                        self.explained.push(finding.code);
                    }
                    let why = detail.why_every_time || first_of_code;
                    write_context(out, game, finding, why, color)?;
                }
                if detail.board {
                    write_board(out, finding, color)?;
                }
            }
        }
        Ok(())
    }

    pub fn finish(self) -> anyhow::Result<W> {
        self.sink.finish()
    }
}

/// The escape codes around a severity's name: red errors, yellow warnings, dim infos
/// (none without colour).
pub fn severity_colour(severity: Severity, color: bool) -> (&'static str, &'static str) {
    if !color {
        return ("", "");
    }
    let on = match severity {
        Severity::Error => RED,
        Severity::Warning => YELLOW,
        Severity::Info => DIM,
    };
    (on, RESET)
}

/// `FILE:MOVE_LINE: game N, 23... O-O: error[code]: MESSAGE`, the data's control
/// characters written visibly (a file may hold anything; a terminal obeys it).
fn write_text<W: Write>(
    out: &mut W,
    game: &GameAt,
    finding: &Finding,
    color: bool,
) -> std::io::Result<()> {
    let severity = finding.severity();
    let (on, off) = severity_colour(severity, color);
    write!(
        out,
        "{}:{}: game {}",
        visible(game.file),
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
    game: &GameAt,
    finding: &Finding,
    why: bool,
    color: bool,
) -> std::io::Result<()> {
    let (dim, off) = if color { (DIM, RESET) } else { ("", "") };
    writeln!(
        out,
        "    {dim}game:{off} {} \u{2013} {}, {}, round {}",
        visible(or_unknown(game.white)),
        visible(or_unknown(game.black)),
        visible(or_unknown(game.event)),
        visible(or_unknown(game.round)),
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
