//! The one-line run summary on stderr.

use std::time::Duration;

/// Figures of a whole run, for the summary line.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunFigures {
    pub files: u64,
    pub games: u64,
    pub plies: u64,
    pub errors: u64,
    pub warnings: u64,
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
        "pgnkit: {} {}, {} games, {} plies, {} {}, {} {} in {:.1} s ({} games/s)",
        thousands(figures.files),
        if figures.files == 1 { "file" } else { "files" },
        thousands(figures.games),
        thousands(figures.plies),
        thousands(figures.errors),
        if figures.errors == 1 {
            "error"
        } else {
            "errors"
        },
        thousands(figures.warnings),
        if figures.warnings == 1 {
            "warning"
        } else {
            "warnings"
        },
        secs,
        thousands(rate.round() as u64),
    )
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
    fn groups_digits_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(98113), "98,113");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
