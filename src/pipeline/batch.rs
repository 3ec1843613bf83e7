//! What the parallel and the single-thread reading share: the batches games are handed on
//! in, and the wording of an input that could not be read.

use crate::input::Source;
use crate::pgn::RawGame;

/// Games per batch, and bytes per batch: large enough to amortise the hand-over, small
/// enough to keep every worker busy and memory bounded.
pub(super) const BATCH_GAMES: usize = 24;
pub(super) const BATCH_BYTES: usize = 64 * 1024;

/// Games gathered to be handed on together.
pub(super) struct Batch {
    games: Vec<RawGame>,
    bytes: usize,
}

impl Batch {
    pub(super) fn new() -> Batch {
        Batch {
            games: Vec::with_capacity(BATCH_GAMES),
            bytes: 0,
        }
    }

    pub(super) fn push(&mut self, game: RawGame) {
        self.bytes += game.bytes.len();
        self.games.push(game);
    }

    /// Whether the batch holds enough games, or bytes, to be handed on.
    pub(super) fn is_full(&self) -> bool {
        self.games.len() >= BATCH_GAMES || self.bytes >= BATCH_BYTES
    }

    pub(super) fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games gathered so far; the batch starts again empty.
    pub(super) fn take(&mut self) -> Vec<RawGame> {
        self.bytes = 0;
        std::mem::replace(&mut self.games, Vec::with_capacity(BATCH_GAMES))
    }

    pub(super) fn into_games(self) -> Vec<RawGame> {
        self.games
    }
}

/// An input that could not be opened, or read to its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum InputError {
    #[error("cannot open {name}: {reason}")]
    Open { name: String, reason: String },
    #[error("cannot read {name}: {reason}")]
    Read { name: String, reason: String },
}

impl InputError {
    pub(super) fn open(source: &Source, err: impl std::fmt::Display) -> InputError {
        InputError::Open {
            name: source.name().to_string(),
            reason: err.to_string(),
        }
    }

    pub(super) fn read(source: &Source, err: impl std::fmt::Display) -> InputError {
        InputError::Read {
            name: source.name().to_string(),
            reason: err.to_string(),
        }
    }

    /// Whether the input was never opened (it does not count as a file read).
    pub(super) fn is_unopened(&self) -> bool {
        matches!(self, InputError::Open { .. })
    }
}

/// Warnings about an input that is still read (what `input` found when it opened it).
pub(super) fn say_warnings(warnings: &[String]) {
    for warning in warnings {
        crate::stderr::say!("pgnkit: warning: {}", crate::terminal::visible(warning));
    }
}
