//! The report's time and accuracy panel, made of the `[%clk]` and `[%eval]` annotations
//! (SPEC.md "Tag columns and annotations": lichess's centipawn loss and judgements): per
//! side, the mean ACPL and the inaccuracies, mistakes and blunders; the games a side's
//! clock ran low in and the games lost on time; and how the ACPLs spread. A run whose
//! games hold no clock and no evaluation writes no panel.

use std::fmt::Write as _;

use shakmaty::Color;

use super::bar_chart;
use crate::output::board::escape_html;
use crate::rules::GameReport;
use crate::rules::replay::annotations::Clock;
use crate::rules::result::GameResult;
use crate::terminal::thousands;

/// The ACPL buckets of the distribution: each a lower bound (the next is its upper, the
/// last is open) and its label.
const BUCKETS: [(u64, &str); 5] = [
    (0, "0-9"),
    (10, "10-24"),
    (25, "25-49"),
    (50, "50-99"),
    (100, "100+"),
];

/// Time trouble: a side's lowest clock under each of these (seconds), the wider first.
const LOW_CLOCKS: [u64; 2] = [60, 10];

/// What the `Termination` tag says of a game lost on the clock (PGN standard, lichess).
const TIME_FORFEIT: &str = "time forfeit";

/// The figures of one side (White or Black) over the games.
#[derive(Debug, Default, Clone, Copy)]
struct SideFigures {
    /// Games in which the side has an ACPL (a move with an evaluation before and after),
    /// and the sum of those ACPLs.
    acpl_games: u64,
    acpl_sum: u64,
    /// Side-games in each of `BUCKETS`.
    acpl_buckets: [u64; BUCKETS.len()],
    inaccuracies: u64,
    mistakes: u64,
    blunders: u64,
    /// Games with a clock for the side, and those whose lowest fell under each of
    /// `LOW_CLOCKS`.
    clock_games: u64,
    low_clock: [u64; LOW_CLOCKS.len()],
    /// Games the side lost with `Termination "Time forfeit"`.
    lost_on_time: u64,
}

/// Clock and evaluation figures, gathered game by game.
#[derive(Debug, Default)]
pub struct TimeAndAccuracy {
    games: u64,
    with_clocks: u64,
    with_evals: u64,
    /// White, then Black.
    sides: [SideFigures; 2],
}

impl TimeAndAccuracy {
    /// Counts one game's annotations, and its `Termination` tag.
    pub fn add(&mut self, report: &GameReport) {
        let figures = &report.annotations;
        self.games += 1;
        self.with_clocks += u64::from(figures.clocks > 0);
        self.with_evals += u64::from(figures.evals > 0);
        let on_time = report
            .tags
            .value("Termination")
            .trim()
            .eq_ignore_ascii_case(TIME_FORFEIT);
        let loser = match GameResult::parse(&report.result) {
            Some(GameResult::WhiteWins) => Some(Color::Black),
            Some(GameResult::BlackWins) => Some(Color::White),
            _ => None,
        };
        for (s, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let Some(side) = self.sides.get_mut(s) else {
                continue;
            };
            if let Some(acpl) = figures.acpl(color) {
                side.acpl_games += 1;
                side.acpl_sum += acpl;
                let bucket = BUCKETS.iter().rposition(|&(from, _)| acpl >= from);
                if let Some(count) = bucket.and_then(|b| side.acpl_buckets.get_mut(b)) {
                    *count += 1;
                }
            }
            let judged = |counts: [u32; 2]| u64::from(counts.get(s).copied().unwrap_or(0));
            side.inaccuracies += judged(figures.inaccuracies);
            side.mistakes += judged(figures.mistakes);
            side.blunders += judged(figures.blunders);
            if let Some(lowest) = figures.clock_min.get(s).copied().flatten() {
                side.clock_games += 1;
                for (under, count) in LOW_CLOCKS.iter().zip(side.low_clock.iter_mut()) {
                    *count += u64::from(lowest < Clock::from_seconds(*under));
                }
            }
            side.lost_on_time += u64::from(on_time && loser == Some(color));
        }
    }

    /// The panel, when some game has a clock or an evaluation; else nothing.
    pub fn render(&self, html: &mut String) {
        if self.with_clocks == 0 && self.with_evals == 0 {
            return;
        }
        let [white, black] = self.sides;
        html.push_str("<section class=\"panel wide\"><h2>Time and accuracy</h2>");
        let _ = write!(
            html,
            "<p class=\"hint\">from the <code>[%clk]</code> and <code>[%eval]</code> comments, as lichess counts them: \
             ACPL is a side's mean centipawn loss over its moves with an evaluation before and after; \
             an inaccuracy, a mistake, a blunder loses 10, 20, 30 points of winning chances</p>\
             <p>{} of {} games have clocks, {} have evaluations.</p>",
            thousands(self.with_clocks),
            thousands(self.games),
            thousands(self.with_evals),
        );
        html.push_str(
            "<table class=\"sides\"><thead><tr><th></th><th class=\"num\">White</th><th class=\"num\">Black</th></tr></thead><tbody>",
        );
        let row = |html: &mut String, label: &str, cell: &dyn Fn(&SideFigures) -> String| {
            let _ = write!(
                html,
                "<tr><th scope=\"row\">{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                escape_html(label),
                cell(&white),
                cell(&black)
            );
        };
        row(html, "games with an ACPL", &|side| {
            thousands(side.acpl_games)
        });
        row(html, "mean ACPL of those games", &|side| {
            mean(side.acpl_sum, side.acpl_games)
        });
        // Per game with an ACPL: the games whose moves could be judged.
        let judged = |total: u64, side: &SideFigures| {
            if side.acpl_games == 0 {
                return thousands(total);
            }
            format!(
                "{} <span class=\"dim\">({} a game)</span>",
                thousands(total),
                mean(total, side.acpl_games)
            )
        };
        row(html, "inaccuracies", &|side| {
            judged(side.inaccuracies, side)
        });
        row(html, "mistakes", &|side| judged(side.mistakes, side));
        row(html, "blunders", &|side| judged(side.blunders, side));
        row(html, "games with a clock", &|side| {
            thousands(side.clock_games)
        });
        for (i, under) in LOW_CLOCKS.iter().enumerate() {
            let label = format!("lowest clock under {under}\u{a0}s");
            row(html, &label, &|side| {
                thousands(side.low_clock.get(i).copied().unwrap_or(0))
            });
        }
        row(
            html,
            "lost on time (Termination \"Time forfeit\")",
            &|side| thousands(side.lost_on_time),
        );
        html.push_str("</tbody></table>");

        html.push_str("<h3>ACPL per side and game</h3>");
        let rows: Vec<(String, u64, &str)> = BUCKETS
            .iter()
            .enumerate()
            .map(|(b, (_, label))| {
                let count = |side: &SideFigures| side.acpl_buckets.get(b).copied().unwrap_or(0);
                (label.to_string(), count(&white) + count(&black), "")
            })
            .collect();
        let max = rows.iter().map(|r| r.1).max().unwrap_or(0);
        html.push_str(&bar_chart("ACPL per side and game", &rows, max));
        html.push_str(
            "<table class=\"sides\"><thead><tr><th>ACPL</th><th class=\"num\">White</th><th class=\"num\">Black</th></tr></thead><tbody>",
        );
        for (b, (_, label)) in BUCKETS.iter().enumerate() {
            row(html, label, &|side| {
                thousands(side.acpl_buckets.get(b).copied().unwrap_or(0))
            });
        }
        html.push_str("</tbody></table></section>\n");
    }
}

/// `total / count` with one decimal, rounded half up (`28.5`); `-` when `count` is 0.
fn mean(total: u64, count: u64) -> String {
    if count == 0 {
        return "-".to_string();
    }
    let tenths = (20 * total + count) / (2 * count);
    format!("{}.{}", thousands(tenths / 10), tenths % 10)
}
