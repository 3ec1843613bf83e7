//! Exit status as a type: every command returns one of these, `main` maps it to a code.

/// How a run ended, in increasing order of precedence (an I/O error wins over findings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// The run completed and reported no error-severity finding.
    Success,
    /// An error-severity finding was reported (or a perft count differed, or its FEN was
    /// not a legal position).
    Failure,
    /// A usage or I/O error (an input that could not be opened, a failed write).
    Error,
    /// Interrupted by Ctrl-C.
    Interrupted,
}

impl ExitStatus {
    /// The process exit code of SPEC.md's table.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
            ExitStatus::Interrupted => 130,
        }
    }

    /// Combines two statuses: the more serious one wins.
    pub fn max(self, other: ExitStatus) -> ExitStatus {
        std::cmp::max(self, other)
    }
}
