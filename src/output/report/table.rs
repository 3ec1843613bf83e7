//! The report's list of every finding, grouped by code (one folded group per code, its
//! rows in input order) and counted by file: nothing is left out, however many there
//! are, so each row is kept short (about 150 bytes) and has no board of its own; a row
//! whose error has a card links to it. A row is written as HTML when it comes, into a
//! temporary file of its code's group, and the groups are joined when the page is
//! written: the page grows with the findings, the memory does not.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::sync::Arc;

use crate::output::board::escape_html;
use crate::rules::{Code, Severity};
use crate::terminal::thousands;

/// One finding in the table.
#[derive(Debug, Clone)]
pub(super) struct FindingRow {
    pub file: Arc<str>,
    pub game: u64,
    /// `White – Black`, shared by the findings of one game.
    pub players: Arc<str>,
    pub move_text: String,
    pub code: Code,
    pub message: String,
    /// The number of its card (`#card-N`), when its error has a board.
    pub card: Option<usize>,
}

/// Groups with at most this many rows start open; larger ones stay folded so that a
/// page of a million findings opens quickly.
const OPEN_UP_TO: u64 = 50;

fn code_index(code: Code) -> usize {
    Code::ALL.iter().position(|&c| c == code).unwrap_or(0)
}

/// The rows of one code so far, spilled to a temporary file.
struct Group {
    rows: u64,
    spill: BufWriter<File>,
}

/// Every finding listed so far: the rows of each code spilled to its own temporary file
/// (deleted when the table is dropped), and the counts per file, which are small.
#[derive(Default)]
pub(super) struct FindingTable {
    /// One slot per code, in `Code::ALL` order.
    groups: Vec<Option<Group>>,
    files: Vec<(Arc<str>, [u64; 3])>,
    rows: u64,
}

impl std::fmt::Debug for FindingTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FindingTable")
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl FindingTable {
    /// Lists one finding: its row is written to its code's file at once.
    pub(super) fn push(&mut self, row: &FindingRow) -> io::Result<()> {
        self.rows += 1;
        self.count_by_file(row);
        if self.groups.is_empty() {
            self.groups.resize_with(Code::ALL.len(), || None);
        }
        let Some(slot) = self.groups.get_mut(code_index(row.code)) else {
            return Ok(());
        };
        let group = match slot {
            Some(group) => group,
            None => slot.insert(Group {
                rows: 0,
                spill: BufWriter::new(tempfile::tempfile()?),
            }),
        };
        group.rows += 1;
        write_row(&mut group.spill, row)
    }

    fn count_by_file(&mut self, row: &FindingRow) {
        let slot = match row.code.severity() {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        // Findings come file by file, so the file is nearly always the last one.
        let known = self
            .files
            .iter()
            .rposition(|(file, _)| Arc::ptr_eq(file, &row.file) || file == &row.file);
        let index = match known {
            Some(index) => index,
            None => {
                self.files.push((row.file.clone(), [0; 3]));
                self.files.len() - 1
            }
        };
        if let Some(count) = self
            .files
            .get_mut(index)
            .and_then(|(_, counts)| counts.get_mut(slot))
        {
            *count += 1;
        }
    }

    /// Both groupings, written to `out`: by file (counts) and by code (every row).
    pub(super) fn render(&mut self, out: &mut dyn Write, least: Severity) -> io::Result<()> {
        write!(
            out,
            "<section class=\"panel wide groups\" id=\"findings\"><h2>Every finding</h2><p class=\"hint\">{} {} of severity {} or above, grouped by code, each group in input order; a row with a board links to it</p>",
            thousands(self.rows),
            if self.rows == 1 {
                "finding"
            } else {
                "findings"
            },
            least.as_str()
        )?;
        if self.rows == 0 {
            return out.write_all(b"<p class=\"empty\">No finding to list.</p></section>\n");
        }
        render_by_file(out, &self.files)?;
        let mut order: Vec<(Code, &mut Group)> = Code::ALL
            .iter()
            .zip(self.groups.iter_mut())
            .filter_map(|(&code, group)| group.as_mut().map(|group| (code, group)))
            .collect();
        order.sort_by(|a, b| {
            b.0.severity()
                .cmp(&a.0.severity())
                .then(b.1.rows.cmp(&a.1.rows))
                .then(a.0.cmp(&b.0))
        });
        out.write_all(b"<h3>By code</h3>")?;
        for (code, group) in order {
            render_group(out, code, group)?;
        }
        out.write_all(b"</section>\n")
    }
}

/// One code: a folded group with its count, then a table of its findings, copied back
/// from its file.
fn render_group(out: &mut dyn Write, code: Code, group: &mut Group) -> io::Result<()> {
    let severity = code.severity().as_str();
    write!(
        out,
        "<details id=\"code-{code}\"{}><summary><span class=\"sev {severity}\">{severity}</span> <code>{code}</code> \u{00d7} {}</summary>",
        if group.rows <= OPEN_UP_TO {
            " open"
        } else {
            ""
        },
        thousands(group.rows)
    )?;
    out.write_all(
        b"<div class=\"scroll\"><table class=\"list\"><thead><tr><th>file</th><th class=\"num\">game</th><th>players</th><th>move</th><th>message</th><th>board</th></tr></thead><tbody>\n",
    )?;
    group.spill.flush()?;
    let file = group.spill.get_mut();
    file.seek(SeekFrom::Start(0))?;
    io::copy(file, out)?;
    out.write_all(b"</tbody></table></div></details>\n")
}

fn write_row(out: &mut impl Write, row: &FindingRow) -> io::Result<()> {
    write!(
        out,
        "<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>",
        escape_html(&row.file),
        row.game,
        escape_html(&row.players),
        escape_html(&row.move_text),
        escape_html(&row.message)
    )?;
    if let Some(card) = row.card {
        write!(out, "<a href=\"#card-{card}\">board</a>")?;
    }
    out.write_all(b"</td></tr>\n")
}

/// Per file: how many findings of each severity, in the order the files were read.
fn render_by_file(out: &mut dyn Write, files: &[(Arc<str>, [u64; 3])]) -> io::Result<()> {
    out.write_all(
        b"<h3>By file</h3><div class=\"scroll\"><table class=\"files\"><thead><tr><th>file</th><th class=\"num\">errors</th><th class=\"num\">warnings</th><th class=\"num\">infos</th></tr></thead><tbody>",
    )?;
    for (file, [errors, warnings, infos]) in files {
        write!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape_html(file),
            thousands(*errors),
            thousands(*warnings),
            thousands(*infos)
        )?;
    }
    out.write_all(b"</tbody></table></div>\n")
}
