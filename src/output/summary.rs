//! The one-line run summary on stderr.

use std::time::Duration;

use crate::rules::{GameReport, Severity};

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

/// `1 game`, `2,000 games`.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// 1234567 -> "1,234,567"
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

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
