//! The HTML report of `pgnkit report`: one self-contained page (inline CSS and SVG, no
//! script, no network) with the run's summary as tables and bar charts, and a board for
//! each error finding, the move attempted drawn as an arrow.

use crate::stats::Summary;
use crate::stats::summary::DRAW_RULES;
use std::fmt::Write as _;

use crate::output::board::{escape_html, svg_board};
use crate::output::summary::thousands;
use crate::rules::findings::marks::marks_of;
use crate::rules::result::Termination;
use crate::rules::{Code, Finding, GameReport, Severity, Status};

/// One error finding kept for a board, with its game's identity and tags.
#[derive(Debug, Clone)]
struct ErrorBoard {
    file: String,
    game: u64,
    line: u64,
    tags: Vec<(String, String)>,
    finding: Finding,
}

/// The figures of a run, gathered game by game in input order: the same `Summary` that
/// `stats --summary-output` writes, so the page and the CSV always agree.
#[derive(Debug, Default)]
pub struct ReportBuilder {
    limit: usize,
    summary: Summary,
    games_with_errors: u64,
    boards: Vec<ErrorBoard>,
    /// Error findings beyond the limit of boards.
    boards_left_out: u64,
}

/// Where the page came from, for its header.
#[derive(Debug, Clone)]
pub struct ReportMeta {
    pub title: String,
    pub inputs: Vec<String>,
    pub files: u64,
    pub version: &'static str,
}

/// The results a chart always shows, in this order; anything else recorded follows.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl ReportBuilder {
    /// A builder that keeps at most `limit` boards.
    pub fn new(limit: usize) -> ReportBuilder {
        ReportBuilder {
            limit,
            ..ReportBuilder::default()
        }
    }

    /// Counts one game and keeps its error findings for boards while there is room.
    pub fn add(&mut self, report: &GameReport) {
        self.summary.add_game(report);
        let mut has_error = false;
        for finding in &report.findings {
            if finding.severity() != Severity::Error {
                continue;
            }
            has_error = true;
            if self.boards.len() < self.limit {
                self.boards.push(ErrorBoard {
                    file: report.file.to_string(),
                    game: report.index,
                    line: report.line,
                    tags: report
                        .tags
                        .iter()
                        .map(|(name, value)| (name.to_string(), value.to_string()))
                        .collect(),
                    finding: finding.clone(),
                });
            } else {
                self.boards_left_out += 1;
            }
        }
        if has_error {
            self.games_with_errors += 1;
        }
    }

    /// The whole page.
    pub fn render(&self, meta: &ReportMeta) -> String {
        let mut html = String::with_capacity(64 * 1024 + self.boards.len() * 8 * 1024);
        let title = escape_html(&meta.title);
        let _ = write!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        );
        let _ = write!(html, "<header><h1>{title}</h1><p class=\"meta\">");
        let _ = write!(
            html,
            "{} {} read from {} &middot; pgnkit {}",
            thousands(meta.files),
            if meta.files == 1 { "file" } else { "files" },
            escape_html(&meta.inputs.join(", ")),
            escape_html(meta.version)
        );
        html.push_str("</p></header>\n<main>\n");
        self.render_cards(&mut html);
        html.push_str("<div class=\"grid\">\n");
        self.render_results(&mut html);
        self.render_terminations(&mut html);
        self.render_statuses(&mut html);
        self.render_draw_rules(&mut html);
        html.push_str("</div>\n");
        self.render_findings(&mut html);
        self.render_boards(&mut html);
        html.push_str("</main>\n</body>\n</html>\n");
        html
    }

    /// One row per key, in the order given, with its count in `section`.
    fn rows_of<K>(
        &self,
        keys: &[K],
        section: &str,
        name: impl Fn(&K) -> (&'static str, &'static str),
    ) -> Vec<(String, u64, &'static str)> {
        keys.iter()
            .map(|key| {
                let (label, class) = name(key);
                (label.to_string(), self.summary.get(section, label), class)
            })
            .collect()
    }

    fn games(&self) -> u64 {
        self.summary.get("games", "games")
    }

    /// Each code found, with its count, in `Code` order.
    fn findings(&self) -> Vec<(Code, u64)> {
        Code::ALL
            .iter()
            .map(|&code| (code, self.summary.get("finding", code.as_str())))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    fn render_cards(&self, html: &mut String) {
        let findings = self.findings();
        let count = |severity: Severity| -> u64 {
            findings
                .iter()
                .filter(|(code, _)| code.severity() == severity)
                .map(|(_, n)| n)
                .sum()
        };
        let cards = [
            ("games", self.games(), ""),
            ("plies", self.summary.get("moves", "plies"), ""),
            ("games with an error", self.games_with_errors, "error"),
            ("errors", count(Severity::Error), "error"),
            ("warnings", count(Severity::Warning), "warning"),
            ("infos", count(Severity::Info), "info"),
        ];
        html.push_str("<section class=\"cards\">");
        for (label, value, class) in cards {
            let _ = write!(
                html,
                "<div class=\"card {class}\"><div class=\"value\">{}</div><div class=\"label\">{label}</div></div>",
                thousands(value)
            );
        }
        html.push_str("</section>\n");
    }

    fn render_results(&self, html: &mut String) {
        let mut rows: Vec<(String, u64, &str)> = RESULTS
            .iter()
            .map(|r| ((*r).to_string(), self.summary.get("result", r), ""))
            .collect();
        for (_, result, n) in self
            .summary
            .rows()
            .into_iter()
            .filter(|(s, _, _)| *s == "result")
        {
            if !RESULTS.contains(&result) {
                let label = if result.is_empty() { "(none)" } else { result };
                rows.push((label.to_string(), n, ""));
            }
        }
        panel(
            html,
            "Results",
            "the result recorded (R)",
            &rows,
            self.games(),
        );
    }

    fn render_terminations(&self, html: &mut String) {
        let rows = self.rows_of(&Termination::ALL, "termination", |t| (t.as_str(), ""));
        panel(
            html,
            "Terminations",
            "what the final position shows",
            &rows,
            self.games(),
        );
    }

    fn render_statuses(&self, html: &mut String) {
        let rows = self.rows_of(&Status::ALL, "status", |s| {
            (s.as_str(), if *s == Status::Ok { "" } else { "error" })
        });
        panel(html, "Replay", "how far each game got", &rows, self.games());
    }

    fn render_draw_rules(&self, html: &mut String) {
        let rows = self.rows_of(&DRAW_RULES, "draw_rule", |&(rule, _)| (rule, ""));
        panel(
            html,
            "Draw rules",
            "games in which each rule held at some ply",
            &rows,
            self.games(),
        );
    }

    fn render_findings(&self, html: &mut String) {
        let mut codes = self.findings();
        codes.sort_by(|a, b| {
            b.0.severity()
                .cmp(&a.0.severity())
                .then(b.1.cmp(&a.1))
                .then(a.0.cmp(&b.0))
        });
        let rows: Vec<(String, u64, &str)> = codes
            .iter()
            .map(|(code, n)| (code.as_str().to_string(), *n, code.severity().as_str()))
            .collect();
        html.push_str("<section class=\"panel wide\"><h2>Findings by code</h2>");
        if rows.is_empty() {
            html.push_str(
                "<p class=\"empty\">No finding: every game replayed cleanly.</p></section>\n",
            );
            return;
        }
        html.push_str(
            "<p class=\"hint\">every finding of every severity; errors stop a game's replay</p>",
        );
        let max = rows.iter().map(|r| r.1).max().unwrap_or(0);
        html.push_str(&bar_chart(&rows, max));
        html.push_str("<table><thead><tr><th>code</th><th>severity</th><th class=\"num\">findings</th><th>meaning</th></tr></thead><tbody>");
        for (code, n) in codes {
            let severity = code.severity().as_str();
            let _ = write!(
                html,
                "<tr><td><code>{code}</code></td><td><span class=\"sev {severity}\">{severity}</span></td><td class=\"num\">{}</td><td>{}</td></tr>",
                thousands(n),
                escape_html(code.explanation())
            );
        }
        html.push_str("</tbody></table></section>\n");
    }

    fn render_boards(&self, html: &mut String) {
        let shown = self.boards.len() as u64;
        let _ = write!(
            html,
            "<section class=\"errors\"><h2>Errors, move by move</h2><p class=\"hint\">the position before each move that could not be played; the arrow is the move as written, red frames what forbids it, blue rings what the message names</p>"
        );
        if shown == 0 {
            html.push_str("<p class=\"empty\">No error finding.</p>");
        }
        for board in &self.boards {
            render_board(html, board);
        }
        if self.boards_left_out > 0 {
            let _ = write!(
                html,
                "<p class=\"more\">{} more error {} not drawn (the first {} are; raise --limit to see more).</p>",
                thousands(self.boards_left_out),
                if self.boards_left_out == 1 {
                    "finding"
                } else {
                    "findings"
                },
                thousands(shown)
            );
        }
        html.push_str("</section>\n");
    }
}

/// One error: the board on the left, the finding, its meaning and the game's tags beside.
fn render_board(html: &mut String, board: &ErrorBoard) {
    let finding = &board.finding;
    let heading = format!(
        "{}:{}: game {}{}{}",
        board.file,
        finding.move_line,
        board.game,
        if finding.move_text.is_empty() {
            ""
        } else {
            ", "
        },
        finding.move_text
    );
    html.push_str("<article class=\"error-card\">");
    let diagram = if finding.move_text.is_empty() {
        None
    } else {
        marks_of(finding)
    };
    match diagram {
        Some((setup, marks)) => {
            let title = format!("position before {}", finding.move_text);
            html.push_str(&svg_board(&setup.board, &marks, &title));
        }
        None => html.push_str("<div class=\"no-board\">no position to draw</div>"),
    }
    let _ = write!(
        html,
        "<div class=\"detail\"><h3>{}</h3><p><span class=\"sev error\">error</span> <code>{}</code></p><p class=\"message\">{}</p><p class=\"why\">{}</p>",
        escape_html(&heading),
        finding.code,
        escape_html(&finding.message),
        escape_html(finding.code.explanation())
    );
    if !finding.fen.is_empty() {
        let _ = write!(
            html,
            "<p class=\"fen\"><code>{}</code></p>",
            escape_html(&finding.fen)
        );
    }
    if !board.tags.is_empty() {
        html.push_str("<table class=\"tags\">");
        for (name, value) in &board.tags {
            let _ = write!(
                html,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape_html(name),
                escape_html(value)
            );
        }
        let _ = write!(
            html,
            "<tr><th>line</th><td>{}</td></tr></table>",
            board.line
        );
    }
    html.push_str("</div></article>\n");
}

/// A panel: heading, chart and table of one summary section.
fn panel(html: &mut String, heading: &str, hint: &str, rows: &[(String, u64, &str)], total: u64) {
    let _ = write!(
        html,
        "<section class=\"panel\"><h2>{heading}</h2><p class=\"hint\">{hint}</p>"
    );
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0);
    html.push_str(&bar_chart(rows, max));
    html.push_str("<table><tbody>");
    for (label, n, _) in rows {
        let share = if total > 0 {
            *n as f64 * 100.0 / total as f64
        } else {
            0.0
        };
        // A rare case must not read as none at all.
        let share = if *n > 0 && share < 0.1 {
            "&lt;0.1%".to_string()
        } else {
            format!("{share:.1}%")
        };
        let _ = write!(
            html,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num dim\">{share}</td></tr>",
            escape_html(label),
            thousands(*n)
        );
    }
    html.push_str("</tbody></table></section>\n");
}

/// A horizontal bar chart: one labelled bar per row, the longest row filling the width.
/// The third element of a row is a class (`error`, `warning`, `info`) that colours its bar.
fn bar_chart(rows: &[(String, u64, &str)], max: u64) -> String {
    const WIDTH: u32 = 520;
    const LABEL: u32 = 190;
    const ROW: u32 = 24;
    const BAR_SPACE: u32 = WIDTH - LABEL - 70;
    let height = ROW * rows.len() as u32 + 4;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img">"#
    );
    for (i, (label, n, class)) in rows.iter().enumerate() {
        let y = i as u32 * ROW + 2;
        let length = if max > 0 {
            ((*n as f64 / max as f64) * f64::from(BAR_SPACE)).round() as u32
        } else {
            0
        };
        let length = if *n > 0 { length.max(2) } else { 0 };
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end" class="chart-label">{}</text>"#,
            LABEL - 8,
            y + ROW / 2 + 4,
            escape_html(label)
        );
        let _ = write!(
            svg,
            r#"<rect x="{LABEL}" y="{}" width="{length}" height="{}" rx="3" class="bar {class}"/>"#,
            y + 3,
            ROW - 6
        );
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}" class="chart-value">{}</text>"#,
            LABEL + length + 6,
            y + ROW / 2 + 4,
            thousands(*n)
        );
    }
    svg.push_str("</svg>");
    svg
}

const STYLE: &str = "
:root { --ink: #1f2933; --dim: #6b7280; --line: #e5e7eb; --bar: #2563eb;
  --error: #c62828; --warning: #b7791f; --info: #6b7280; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif;
  color: var(--ink); background: #f7f7f5; }
header { background: #1f2933; color: #fff; padding: 20px 32px; }
header h1 { margin: 0; font-size: 24px; }
header .meta { margin: 4px 0 0; color: #cbd5e1; }
main { padding: 24px 32px; max-width: 1240px; }
h2 { font-size: 18px; margin: 0 0 4px; }
.hint { margin: 0 0 10px; color: var(--dim); font-size: 13px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 20px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 18px; min-width: 150px; }
.card .value { font-size: 26px; font-weight: 650; }
.card .label { color: var(--dim); font-size: 13px; }
.card.error .value { color: var(--error); } .card.warning .value { color: var(--warning); }
.card.info .value { color: var(--info); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 16px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; }
.panel.wide { margin-top: 16px; }
table { border-collapse: collapse; width: 100%; margin-top: 8px; font-size: 14px; }
td, th { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td code { white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; } .dim { color: var(--dim); }
.chart-label { font-size: 13px; fill: var(--ink); } .chart-value { font-size: 12px; fill: var(--dim); }
.bar { fill: var(--bar); } .bar.error { fill: var(--error); } .bar.warning { fill: var(--warning); }
.bar.info { fill: #9ca3af; }
.sev { font-size: 12px; font-weight: 600; padding: 1px 6px; border-radius: 4px; color: #fff; }
.sev.error { background: var(--error); } .sev.warning { background: var(--warning); }
.sev.info { background: var(--info); }
.errors { margin-top: 24px; }
.error-card { display: flex; gap: 20px; background: #fff; border: 1px solid var(--line);
  border-left: 4px solid var(--error); border-radius: 8px; padding: 16px; margin-bottom: 14px; }
.error-card .board { flex: none; font-family: 'DejaVu Sans', 'Segoe UI Symbol', 'Noto Sans Symbols 2', serif; }
.error-card h3 { margin: 0 0 6px; font-size: 15px; font-family: ui-monospace, 'DejaVu Sans Mono', monospace; }
.error-card .message { font-weight: 600; margin: 6px 0; } .error-card .why { color: var(--dim); margin: 6px 0; }
.fen code { font-size: 12px; color: var(--dim); word-break: break-all; }
.tags { width: auto; font-size: 13px; } .tags th { color: var(--dim); font-weight: 500; }
.no-board { width: 370px; color: var(--dim); }
.empty { color: var(--dim); } .more { font-weight: 600; }
";
