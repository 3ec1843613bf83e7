//! The HTML report of `pgnkit report`: one self-contained page (inline CSS and SVG, no
//! script, no network) with the run's summary as tables and bar charts, and a board for
//! each error finding, the move attempted drawn as an arrow.

use crate::stats::Summary;
use crate::stats::summary::DRAW_RULES;
use std::fmt::Write as _;
use std::io;
use std::sync::Arc;

use crate::output::board::escape_html;
use crate::output::findings::CodeFilter;
use crate::pgn::RawGame;
use crate::rules::result::Termination;
use crate::rules::{Code, Finding, GameReport, Severity, Status};
use crate::terminal::thousands;

mod accuracy;
mod cards;
mod openings;
mod standings;
mod table;

use accuracy::TimeAndAccuracy;
use cards::ErrorBoard;
use openings::OpeningScores;
use standings::StandingsSection;
use table::{FindingRow, FindingTable};

/// The figures of a run, gathered game by game in input order: the same `Summary` that
/// `stats --summary-output` writes, so the page and the CSV always agree.
#[derive(Debug, Default)]
pub struct ReportBuilder {
    limit: usize,
    /// The least severe finding listed in the table.
    least: Option<Severity>,
    filter: CodeFilter,
    summary: Summary,
    games_with_errors: u64,
    boards: Vec<ErrorBoard>,
    /// Error findings beyond the limit of boards.
    boards_left_out: u64,
    /// Every finding listed, in input order: nothing is ever left out of the table (its
    /// rows wait in temporary files, not in memory).
    table: FindingTable,
    openings: OpeningScores,
    time_and_accuracy: TimeAndAccuracy,
    standings: StandingsSection,
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
    /// A builder that keeps at most `limit` boards and lists every finding at least as
    /// severe as `least` that `filter` allows.
    pub fn new(limit: usize, least: Severity, filter: CodeFilter) -> ReportBuilder {
        ReportBuilder {
            limit,
            least: Some(least),
            filter,
            ..ReportBuilder::default()
        }
    }

    /// Counts one game, lists its findings and keeps its error findings for boards while
    /// there is room, with the moves `raw` has before each. Fails only when the table's
    /// temporary files cannot be written.
    pub fn add(&mut self, raw: &RawGame, report: &GameReport) -> io::Result<()> {
        self.summary.add_game(report);
        self.openings.add(report);
        self.time_and_accuracy.add(report);
        self.standings.add(raw, report);
        // Errors of the codes `--select`/`--ignore` leave out count as none, as in
        // `validate`'s exit status.
        if report
            .findings
            .iter()
            .any(|f| f.severity() == Severity::Error && self.filter.allows(f.code))
        {
            self.games_with_errors += 1;
        }
        let least = self.least.unwrap_or(Severity::Info);
        let mut players: Option<Arc<str>> = None;
        for finding in &report.findings {
            let severity = finding.severity();
            if severity < least || !self.filter.allows(finding.code) {
                continue;
            }
            // A result FIDE 6.9 overturns, and a Termination claim the board contradicts,
            // get their final board too, as errors do.
            let card = if severity == Severity::Error
                || matches!(
                    finding.code,
                    Code::ResultUnwinnableWin
                        | Code::ResultTimeoutDrawWinnable
                        | Code::ResultTerminationConflict
                ) {
                self.keep_board(raw, report, finding)
            } else {
                None
            };
            let players = players
                .get_or_insert_with(|| {
                    let side = |name: &str| if name.is_empty() { "?" } else { name }.to_string();
                    Arc::from(format!(
                        "{} \u{2013} {}",
                        side(report.tags.value("White")),
                        side(report.tags.value("Black"))
                    ))
                })
                .clone();
            self.table.push(&FindingRow {
                file: report.file.clone(),
                game: report.index,
                players,
                move_text: finding.move_text.clone(),
                code: finding.code,
                message: finding.message.clone(),
                card,
            })?;
        }
        Ok(())
    }

    /// Keeps a board for this error while there is room: its card's number.
    fn keep_board(
        &mut self,
        raw: &RawGame,
        report: &GameReport,
        finding: &Finding,
    ) -> Option<usize> {
        if self.boards.len() >= self.limit {
            self.boards_left_out += 1;
            return None;
        }
        self.boards.push(ErrorBoard {
            file: report.file.to_string(),
            game: report.index,
            line: report.line,
            tags: report
                .tags
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            moves_before: cards::moves_before(raw, finding.ply),
            finding: finding.clone(),
        });
        Some(self.boards.len())
    }

    /// Writes the whole page to `out`: the summary, then the table copied from its
    /// temporary files, then the boards.
    pub fn render(&mut self, meta: &ReportMeta, out: &mut dyn io::Write) -> io::Result<()> {
        let mut html = String::with_capacity(64 * 1024);
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
        // The sections in order; each is one function, and a section with nothing to
        // show writes nothing.
        self.openings.render(&mut html);
        self.time_and_accuracy.render(&mut html);
        self.standings.render(&mut html);
        self.render_findings(&mut html);
        out.write_all(html.as_bytes())?;
        self.table
            .render(out, self.least.unwrap_or(Severity::Info))?;
        let mut html = String::with_capacity(16 * 1024 + self.boards.len() * 10 * 1024);
        cards::render_boards(&mut html, &self.boards, self.boards_left_out);
        html.push_str("</main>\n</body>\n</html>\n");
        out.write_all(html.as_bytes())
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

    /// Each code found that `--select`/`--ignore` let in, with its count, in `Code` order.
    fn findings(&self) -> Vec<(Code, u64)> {
        Code::ALL
            .iter()
            .filter(|&&code| self.filter.allows(code))
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
            // SPEC.md "Who can still mate": decisive results for a side that cannot mate.
            (
                "results overturned (FIDE 5.2.2, 6.9)",
                self.summary
                    .get("finding", Code::ResultUnwinnableWin.as_str())
                    + self
                        .summary
                        .get("finding", Code::ResultTimeoutDrawWinnable.as_str()),
                "warning",
            ),
            // SPEC.md "What a Termination tag claims".
            (
                "Termination claims contradicted",
                self.summary
                    .get("finding", Code::ResultTerminationConflict.as_str()),
                "warning",
            ),
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
        html.push_str(if self.filter.allows_all() {
            "<p class=\"hint\">every finding of every severity; errors stop a game's replay</p>"
        } else {
            "<p class=\"hint\">every finding of the codes <code>--select</code>/<code>--ignore</code> let in, of every severity; errors stop a game's replay</p>"
        });
        let max = rows.iter().map(|r| r.1).max().unwrap_or(0);
        html.push_str(&bar_chart("Findings by code", &rows, max));
        html.push_str("<table class=\"codes\"><thead><tr><th>code</th><th>severity</th><th class=\"num\">findings</th><th>meaning</th></tr></thead><tbody>");
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
}

/// A panel: heading, chart and table of one summary section.
fn panel(html: &mut String, heading: &str, hint: &str, rows: &[(String, u64, &str)], total: u64) {
    let _ = write!(
        html,
        "<section class=\"panel\"><h2>{heading}</h2><p class=\"hint\">{hint}</p>"
    );
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0);
    html.push_str(&bar_chart(heading, rows, max));
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
/// Its text alternative names every bar with its count (the table beside holds the same).
fn bar_chart(name: &str, rows: &[(String, u64, &str)], max: u64) -> String {
    const WIDTH: u32 = 520;
    const LABEL: u32 = 190;
    const ROW: u32 = 24;
    const BAR_SPACE: u32 = WIDTH - LABEL - 70;
    let height = ROW * rows.len() as u32 + 4;
    let mut svg = String::new();
    let alternative = rows
        .iter()
        .map(|(label, n, _)| format!("{label}: {}", thousands(*n)))
        .collect::<Vec<_>>()
        .join(", ");
    let alternative = escape_html(&format!("{name} (bar chart): {alternative}"));
    let _ = write!(
        svg,
        r#"<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" aria-label="{alternative}"><title>{alternative}</title>"#
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
  --error: #c62828; --warning: #9a6700; --info: #4b5563; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif;
  color: var(--ink); background: #f7f7f5; overflow-wrap: anywhere; }
header { background: #1f2933; color: #fff; padding: 20px 32px; }
header h1 { margin: 0; font-size: 24px; overflow-wrap: anywhere; }
header .meta { margin: 4px 0 0; color: #cbd5e1; overflow-wrap: anywhere; }
main { padding: 24px 32px; max-width: 1240px; }
h2 { font-size: 18px; margin: 0 0 4px; }
.hint { margin: 0 0 10px; color: var(--dim); font-size: 13px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 20px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 18px; min-width: 140px; flex: 1 1 140px; }
.card .value { font-size: 26px; font-weight: 650; }
.card .label { color: var(--dim); font-size: 13px; }
.card.error .value { color: var(--error); } .card.warning .value { color: var(--warning); }
.card.info .value { color: var(--info); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(520px, 100%), 1fr)); gap: 16px; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 18px; min-width: 0; }
.panel.wide { margin-top: 16px; }
svg.chart { max-width: 100%; height: auto; }
table { border-collapse: collapse; width: 100%; margin-top: 8px; font-size: 14px; }
td, th { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
td code { white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; } .dim { color: var(--dim); }
.chart-label { font-size: 13px; fill: var(--ink); } .chart-value { font-size: 12px; fill: var(--dim); }
.bar { fill: var(--bar); } .bar.error { fill: var(--error); } .bar.warning { fill: var(--warning); }
.bar.info { fill: #9ca3af; }
.sev { font-size: 12px; font-weight: 600; padding: 1px 6px; border-radius: 4px; color: #fff; white-space: nowrap; }
.sev.error { background: var(--error); } .sev.warning { background: var(--warning); }
.sev.info { background: var(--info); }
.scroll { overflow-x: auto; max-width: 100%; }
.list, .files { font-size: 13px; } .list td { white-space: nowrap; }
.list td:first-child, .files td:first-child { white-space: normal; overflow-wrap: anywhere; min-width: 12em; }
.list td:nth-child(3), .list td:nth-child(5) { white-space: normal; min-width: 10em; }
.groups details { border-top: 1px solid var(--line); padding: 6px 0; }
.groups summary { cursor: pointer; overflow-wrap: anywhere; }
.errors { margin-top: 24px; }
.error-card { display: flex; flex-wrap: wrap; gap: 20px; background: #fff; border: 1px solid var(--line);
  border-left: 4px solid var(--error); border-radius: 8px; padding: 16px; margin-bottom: 14px; }
.error-card.warning { border-left-color: var(--warning); }
.error-card .board { flex: none; max-width: 100%; height: auto; font-family: 'DejaVu Sans', 'Segoe UI Symbol', 'Noto Sans Symbols 2', serif; }
.error-card .detail { flex: 1 1 280px; min-width: 0; }
.error-card h3 { margin: 0 0 6px; font-size: 15px; font-family: ui-monospace, 'DejaVu Sans Mono', monospace; overflow-wrap: anywhere; }
.error-card .message { font-weight: 600; margin: 6px 0; } .error-card .why { color: var(--dim); margin: 6px 0; }
.error-card .game, .error-card .moves { margin: 4px 0; }
.fen code { font-size: 12px; color: var(--dim); word-break: break-all; }
.tags { width: auto; font-size: 13px; } .tags th { color: var(--dim); font-weight: 500; }
.tags td { overflow-wrap: anywhere; }
.no-board { width: 100%; max-width: 370px; color: var(--dim); }
.empty { color: var(--dim); } .more { font-weight: 600; }
.panel h3 { font-size: 15px; margin: 14px 0 4px; }
.sides { width: auto; min-width: min(420px, 100%); } .sides th { font-weight: 500; } .sides td { white-space: nowrap; }
.ranking, .crosstable { width: auto; font-size: 13px; }
.crosstable td, .crosstable th { padding: 2px 5px; white-space: nowrap; }
.crosstable td:nth-child(2) { white-space: normal; overflow-wrap: anywhere; min-width: 5em; }
@media (max-width: 600px) {
  header { padding: 14px 16px; } header h1 { font-size: 20px; }
  main { padding: 14px 12px; }
  .panel { padding: 12px; } .error-card { padding: 12px; }
  .files td:first-child { min-width: 0; }
  .codes thead { display: none; }
  .codes tr { display: block; padding: 6px 0; border-bottom: 1px solid var(--line); }
  .codes td { display: inline; border: 0; padding: 0 6px 0 0; }
  .codes td:nth-child(4) { display: block; color: var(--dim); }
  .list thead { display: none; }
  .list tr { display: block; padding: 6px 0; border-bottom: 1px solid var(--line); }
  .list td { display: inline; border: 0; padding: 0 6px 0 0; white-space: normal; overflow-wrap: anywhere; }
  .list td:nth-child(2) { white-space: nowrap; }
  .list td:nth-child(2)::before { content: 'game '; color: var(--dim); }
  .list td:nth-child(5) { display: block; }
  /* The score bar repeats the three shares beside it: on a phone the shares alone fit. */
  .openings th:nth-child(4), .openings td:nth-child(4) { display: none; }
  /* Narrow cells and names that may break anywhere: the table fits a 390 px phone. */
  .openings th, .openings td { padding: 3px 4px; }
  .openings td { white-space: normal; } .openings td:nth-child(2) { overflow-wrap: anywhere; }
  /* Standings: narrow cells, names that may break anywhere; a long crosstable scrolls. */
  .ranking th, .ranking td { padding: 3px 4px; } .ranking td:nth-child(2) { overflow-wrap: anywhere; }
  .crosstable td, .crosstable th { padding: 2px 3px; font-size: 12px; }
}
";
