//! The run summary on stderr: the one line every game-reading command ends with, and the
//! table of `stats --summary`.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::rules::{GameReport, Severity};
use crate::stats::Summary;
use crate::terminal::{thousands, visible};

/// Figures of a whole run, for the summary line.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunFigures {
    pub files: u64,
    pub games: u64,
    pub plies: u64,
    pub errors: u64,
    pub warnings: u64,
}

impl RunFigures {
    /// Counts one finding shown to the user.
    pub fn count_finding(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => {}
        }
    }

    /// Adds the plies and findings of `other` (a game's, counted where it was replayed).
    pub fn add(&mut self, other: &RunFigures) {
        self.plies += other.plies;
        self.errors += other.errors;
        self.warnings += other.warnings;
    }

    /// Counts one game's plies and every one of its findings.
    pub fn add_game(&mut self, report: &GameReport) {
        self.plies += u64::from(report.plies);
        for finding in &report.findings {
            self.count_finding(finding.severity());
        }
    }
}

/// `pgnkit: 3 files, 1,204 games, 98,113 plies, 12 errors, 3 warnings in 0.4 s (3,010 games/s)`
pub fn summary_line(figures: &RunFigures, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        figures.games as f64 / secs
    } else {
        0.0
    };
    format!(
        "pgnkit: {}, {}, {}, {}, {} in {secs:.1} s ({} games/s)",
        counted(figures.files, "file", "files"),
        counted(figures.games, "game", "games"),
        counted(figures.plies, "ply", "plies"),
        counted(figures.errors, "error", "errors"),
        counted(figures.warnings, "warning", "warnings"),
        thousands(rate.round() as u64),
    )
}

/// What `select` picked, for its summary line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Selection {
    pub kept: u64,
    /// The games `--dedupe` dropped, when it was asked for.
    pub dropped: Option<u64>,
}

/// `select`'s summary line: the games selected of the `games` read.
pub fn selection_line(selection: &Selection, games: u64, elapsed: Duration) -> String {
    let dedupe = match selection.dropped {
        Some(dropped) => format!(", {} duplicates dropped", thousands(dropped)),
        None => String::new(),
    };
    format!(
        "pgnkit: {} of {} games selected{dedupe} in {:.1} s",
        thousands(selection.kept),
        thousands(games),
        elapsed.as_secs_f64()
    )
}

/// The readable table of `stats --summary`: one block per section, with shares of all
/// games.
pub fn summary_table(summary: &Summary) -> String {
    let games = summary.get("games", "games");
    // Opening names are long: they get a column of their own width.
    let width = summary
        .rows()
        .into_iter()
        .filter(|(section, _, _)| *section != "opening")
        .map(|(_, key, _)| visible(key).chars().count())
        .max()
        .unwrap_or(0);
    // Sections in reading order; any other section follows.
    let order = [
        "games",
        "result",
        "status",
        "termination",
        "draw_rule",
        "moves",
        "finding",
        "opening",
    ];
    let rank = |section: &str| {
        order
            .iter()
            .position(|s| *s == section)
            .unwrap_or(order.len())
    };
    let mut sections: Vec<_> = summary.sections().into_iter().collect();
    sections.sort_by_key(|(section, _)| rank(section));
    let mut out = String::new();
    for (section, keys) in sections {
        out.push_str(section);
        out.push('\n');
        let shares = !matches!(section, "moves" | "finding") && games > 0;
        let (keys, width) = if section == "opening" {
            let keys = most_frequent_openings(keys, &mut out);
            let longest = keys
                .iter()
                .map(|(key, _)| visible(key).chars().count())
                .max();
            let opening_width = longest.unwrap_or(0).min(OPENING_WIDTH).max(width);
            (keys, opening_width)
        } else {
            (keys.into_iter().collect(), width)
        };
        for (key, n) in keys {
            let share = if shares {
                format!("  {:5.1}%", n as f64 * 100.0 / games as f64)
            } else {
                String::new()
            };
            // Keys are tag values: their control characters must not reach a terminal.
            let key = cut(&visible(key), width);
            out.push_str(&format!("  {key:<width$}  {:>12}{share}\n", thousands(n)));
        }
    }
    out
}
/// Openings the table lists: the most frequent (the CSV has them all).
const OPENINGS_SHOWN: usize = 10;
/// Opening names longer than this are cut in the table.
const OPENING_WIDTH: usize = 60;

/// The `OPENINGS_SHOWN` most frequent openings, most frequent first; says how many more
/// there are under the section's heading.
fn most_frequent_openings<'a>(
    keys: BTreeMap<&'a str, u64>,
    out: &mut String,
) -> Vec<(&'a str, u64)> {
    let mut keys: Vec<(&str, u64)> = keys.into_iter().collect();
    keys.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    if keys.len() > OPENINGS_SHOWN {
        out.push_str(&format!(
            "  (the {OPENINGS_SHOWN} most frequent of {} openings; --summary-output lists all)\n",
            keys.len()
        ));
        keys.truncate(OPENINGS_SHOWN);
    }
    keys
}

/// `text` cut to `width` characters, `…` marking the cut.
fn cut(text: &str, width: usize) -> String {
    if width == 0 || text.chars().count() <= width {
        return text.to_string();
    }
    let mut short: String = text.chars().take(width - 1).collect();
    short.push('…');
    short
}

/// `1 game`, `2,000 games`.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use crate::terminal::thousands;

    #[test]
    fn summary_line_uses_singular_for_one() {
        let figures = super::RunFigures {
            files: 1,
            games: 1,
            plies: 1,
            errors: 1,
            warnings: 0,
        };
        let line = super::summary_line(&figures, std::time::Duration::from_secs(2));
        assert_eq!(
            line,
            "pgnkit: 1 file, 1 game, 1 ply, 1 error, 0 warnings in 2.0 s (1 games/s)"
        );
    }

    #[test]
    fn groups_digits_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(98113), "98,113");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
