//! The report's list of every finding, grouped by code (one folded group per code, its
//! rows in input order) and counted by file: nothing is left out, however many there
//! are, so each row is kept short (about 150 bytes) and has no board of its own; a row
//! whose error has a card links to it.

use std::fmt::Write as _;
use std::sync::Arc;

use crate::output::board::escape_html;
use crate::output::summary::thousands;
use crate::rules::{Code, Severity};

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
const OPEN_UP_TO: usize = 50;

fn code_index(code: Code) -> usize {
    Code::ALL.iter().position(|&c| c == code).unwrap_or(0)
}

/// Both groupings: by file (counts) and by code (every row).
pub(super) fn render_table(html: &mut String, rows: &[FindingRow], least: Severity) {
    let _ = write!(
        html,
        "<section class=\"panel wide groups\" id=\"findings\"><h2>Every finding</h2><p class=\"hint\">{} {} of severity {} or above, grouped by code, each group in input order; a row with a board links to it</p>",
        thousands(rows.len() as u64),
        if rows.len() == 1 {
            "finding"
        } else {
            "findings"
        },
        least.as_str()
    );
    if rows.is_empty() {
        html.push_str("<p class=\"empty\">No finding to list.</p></section>\n");
        return;
    }
    render_by_file(html, rows);
    let mut groups: Vec<Vec<&FindingRow>> = vec![Vec::new(); Code::ALL.len()];
    for row in rows {
        if let Some(group) = groups.get_mut(code_index(row.code)) {
            group.push(row);
        }
    }
    let mut order: Vec<(Code, &Vec<&FindingRow>)> = Code::ALL
        .iter()
        .zip(groups.iter())
        .filter(|(_, group)| !group.is_empty())
        .map(|(&code, group)| (code, group))
        .collect();
    order.sort_by(|a, b| {
        b.0.severity()
            .cmp(&a.0.severity())
            .then(b.1.len().cmp(&a.1.len()))
            .then(a.0.cmp(&b.0))
    });
    html.push_str("<h3>By code</h3>");
    for (code, group) in order {
        render_group(html, code, group);
    }
    html.push_str("</section>\n");
}

/// One code: a folded group with its count, then a table of its findings.
fn render_group(html: &mut String, code: Code, group: &[&FindingRow]) {
    let severity = code.severity().as_str();
    let _ = write!(
        html,
        "<details id=\"code-{code}\"{}><summary><span class=\"sev {severity}\">{severity}</span> <code>{code}</code> \u{00d7} {}</summary>",
        if group.len() <= OPEN_UP_TO {
            " open"
        } else {
            ""
        },
        thousands(group.len() as u64)
    );
    html.push_str(
        "<div class=\"scroll\"><table class=\"list\"><thead><tr><th>file</th><th class=\"num\">game</th><th>players</th><th>move</th><th>message</th><th>board</th></tr></thead><tbody>\n",
    );
    for row in group {
        let _ = write!(
            html,
            "<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>",
            escape_html(&row.file),
            row.game,
            escape_html(&row.players),
            escape_html(&row.move_text),
            escape_html(&row.message)
        );
        if let Some(card) = row.card {
            let _ = write!(html, "<a href=\"#card-{card}\">board</a>");
        }
        html.push_str("</td></tr>\n");
    }
    html.push_str("</tbody></table></div></details>\n");
}

/// Per file: how many findings of each severity, in the order the files were read.
fn render_by_file(html: &mut String, rows: &[FindingRow]) {
    let mut files: Vec<(Arc<str>, [u64; 3])> = Vec::new();
    for row in rows {
        let slot = match row.code.severity() {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        let known = files
            .iter()
            .rposition(|(file, _)| Arc::ptr_eq(file, &row.file) || file == &row.file);
        let index = match known {
            Some(index) => index,
            None => {
                files.push((row.file.clone(), [0; 3]));
                files.len() - 1
            }
        };
        if let Some(count) = files
            .get_mut(index)
            .and_then(|(_, counts)| counts.get_mut(slot))
        {
            *count += 1;
        }
    }
    html.push_str(
        "<h3>By file</h3><div class=\"scroll\"><table class=\"files\"><thead><tr><th>file</th><th class=\"num\">errors</th><th class=\"num\">warnings</th><th class=\"num\">infos</th></tr></thead><tbody>",
    );
    for (file, [errors, warnings, infos]) in &files {
        let _ = write!(
            html,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape_html(file),
            thousands(*errors),
            thousands(*warnings),
            thousands(*infos)
        );
    }
    html.push_str("</tbody></table></div>\n");
}
