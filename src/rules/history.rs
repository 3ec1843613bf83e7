//! The little history the diagnosis layer needs: what happened earlier in the game that
//! explains why a move is illegal now. Recorded on the legal path, read only on failure.

use shakmaty::{Chess, Move};

/// Per-game history, updated after every legal move.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// Plies replayed so far.
    pub plies: u32,
}

impl History {
    /// Called once with the start position.
    pub fn start(&mut self, _pos: &Chess) {
        self.plies = 0;
    }

    /// Called with each legal move before it is played; `ply` is its 1-based ply.
    pub fn record(&mut self, _pos: &Chess, _m: Move, ply: u32) {
        self.plies = ply;
    }
}
