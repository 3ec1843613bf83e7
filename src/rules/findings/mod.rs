//! Findings: what is wrong (or worth knowing) about a game, with a stable code (the
//! codes table, `codes.rs`), and the squares a diagram of one points at (`marks.rs`).

use std::fmt;

mod codes;
pub mod marks;

pub use codes::Code;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about one game. The game's own identity (file, index, line, players) is
/// kept once in the game's report, not in every finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: Code,
    /// 1-based ply of the offending move (game-level findings: the last ply replayed).
    pub ply: u32,
    /// `23. O-O` / `23... O-O`, empty for game-level findings.
    pub move_text: String,
    /// The token exactly as written, empty for game-level findings.
    pub san: String,
    pub message: String,
    /// The position before the move (game-level findings: the final position).
    pub fen: String,
    /// The line of the offending token (game-level findings: the game's line).
    pub move_line: u64,
}

impl Finding {
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}
