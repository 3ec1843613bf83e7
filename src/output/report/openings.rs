//! The report's openings panel: the most frequent openings (SPEC.md "Openings") with their
//! score, white wins / draws / black wins, as a table with a stacked bar per opening.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::output::board::escape_html;
use crate::rules::GameReport;
use crate::rules::result::GameResult;
use crate::terminal::thousands;

/// Openings shown, the most frequent first.
const SHOWN: usize = 20;

/// Games and results per opening, gathered game by game.
#[derive(Debug, Default)]
pub struct OpeningScores {
    /// (ECO, name) -> [games, white wins, draws, black wins].
    scores: HashMap<(&'static str, &'static str), [u64; 4]>,
}

impl OpeningScores {
    /// Counts a game with an opening under its result (R of SPEC.md).
    pub fn add(&mut self, report: &GameReport) {
        let Some(found) = report.opening else {
            return;
        };
        let (eco, name) = (found.opening.eco(), found.opening.name());
        let score = self.scores.entry((eco, name)).or_default();
        score[0] += 1;
        match GameResult::parse(&report.result) {
            Some(GameResult::WhiteWins) => score[1] += 1,
            Some(GameResult::Draw) => score[2] += 1,
            Some(GameResult::BlackWins) => score[3] += 1,
            _ => {}
        }
    }

    /// The panel: the `SHOWN` most frequent openings (ties by ECO and name).
    pub fn render(&self, html: &mut String) {
        html.push_str("<section class=\"panel wide\"><h2>Openings</h2>");
        if self.scores.is_empty() {
            html.push_str(
                "<p class=\"empty\">No opening named (standard chess from the standard start only).</p></section>\n",
            );
            return;
        }
        let mut rows: Vec<_> = self.scores.iter().collect();
        rows.sort_by(|a, b| b.1[0].cmp(&a.1[0]).then(a.0.cmp(b.0)));
        let _ = write!(
            html,
            "<p class=\"hint\">the {} most frequent of {} openings named (lichess chess-openings); score: white wins / draws / black wins</p>",
            rows.len().min(SHOWN),
            rows.len()
        );
        html.push_str(
            "<div class=\"scroll\"><table class=\"openings\"><thead><tr><th>ECO</th><th>opening</th><th class=\"num\">games</th><th>score</th><th class=\"num\">1-0</th><th class=\"num\">&frac12;</th><th class=\"num\">0-1</th></tr></thead><tbody>",
        );
        for ((eco, name), [games, white, draws, black]) in rows.into_iter().take(SHOWN) {
            let share = |n: &u64| {
                if *games > 0 {
                    *n as f64 * 100.0 / *games as f64
                } else {
                    0.0
                }
            };
            let _ = write!(
                html,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td>\
                 <td class=\"num\">{:.0}%</td><td class=\"num\">{:.0}%</td><td class=\"num\">{:.0}%</td></tr>",
                escape_html(eco),
                escape_html(name),
                thousands(*games),
                score_bar([share(white), share(draws), share(black)]),
                share(white),
                share(draws),
                share(black),
            );
        }
        html.push_str("</tbody></table></div></section>\n");
    }
}

/// A stacked bar of the three shares: white wins light, draws grey, black wins dark.
fn score_bar(shares: [f64; 3]) -> String {
    const WIDTH: f64 = 160.0;
    // A text alternative: the bar's colours are not the only carrier of its meaning.
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} 14" width="{WIDTH}" height="14" role="img" aria-label="Score: white wins {:.0}%, draws {:.0}%, black wins {:.0}%">"#,
        shares[0], shares[1], shares[2]
    );
    let mut x = 0.0;
    for (share, fill) in shares.into_iter().zip(["#f3f4f6", "#9ca3af", "#1f2933"]) {
        let width = share * WIDTH / 100.0;
        let _ = write!(
            svg,
            r##"<rect x="{x:.1}" y="0" width="{width:.1}" height="14" fill="{fill}" stroke="#6b7280" stroke-width="0.5"/>"##
        );
        x += width;
    }
    svg.push_str("</svg>");
    svg
}
