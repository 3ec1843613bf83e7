//! Draw-rule tracking during a replay: repetition per FIDE 9.2.3 (placement, side to
//! move, castling rights, and an en passant square only where a legal en passant capture
//! exists), the fifty and seventy-five move rules, and perpetual check.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

/// The position identity used for repetition.
pub fn position_key(pos: &Chess) -> u64 {
    let hash: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
    hash.0
}

/// One position of the current reversible stretch of the game.
#[derive(Debug, Clone, Copy)]
struct Seen {
    key: u64,
    /// The move that led here gave check.
    by_check: bool,
}

/// Draw-rule figures of one game, updated ply by ply.
#[derive(Debug, Clone, Default)]
pub struct DrawTracker {
    /// Positions since the last irreversible move (the first is the one after it).
    stretch: Vec<Seen>,
    /// Ply of the first entry of `stretch`.
    stretch_start: u32,
    /// How often the position just reached has occurred.
    pub current_count: u32,
    pub max_repetition: u32,
    pub threefold_ply: Option<u32>,
    pub fivefold_ply: Option<u32>,
    pub fifty_move_ply: Option<u32>,
    pub seventy_five_move_ply: Option<u32>,
}

impl DrawTracker {
    /// Starts from the game's first position (ply 0, a FEN's too).
    pub fn start(&mut self, pos: &Chess) {
        self.stretch.clear();
        self.stretch.push(Seen {
            key: position_key(pos),
            by_check: false,
        });
        self.stretch_start = 0;
        self.current_count = 1;
        self.max_repetition = 1;
        self.check_clock(0, pos);
    }

    /// Records the position reached at `ply` by a move that was `irreversible` (shakmaty's
    /// `is_irreversible`, asked before the move was played) and that `gave_check`.
    pub fn after_move(&mut self, ply: u32, irreversible: bool, after: &Chess, gave_check: bool) {
        self.after_move_keyed(ply, irreversible, None, after, gave_check);
    }

    /// The key of the position the legal move `m` leads to from `before` (the position
    /// last recorded), when shakmaty can update the last key instead of hashing the whole
    /// board: most quiet moves. Ask before playing the move; pass it to `after_move_keyed`.
    pub fn key_after(&self, before: &Chess, m: Move) -> Option<u64> {
        let last = self.stretch.last()?.key;
        let key: Zobrist64 =
            before.update_zobrist_hash(Zobrist64(last), m, EnPassantMode::Legal)?;
        Some(key.0)
    }

    /// `after_move` with the new position's key when it is known (`key_after`).
    pub fn after_move_keyed(
        &mut self,
        ply: u32,
        irreversible: bool,
        key: Option<u64>,
        after: &Chess,
        gave_check: bool,
    ) {
        if irreversible {
            self.stretch.clear();
            self.stretch_start = ply;
        }
        let key = key.unwrap_or_else(|| position_key(after));
        // Positions alternate sides to move, so only every second entry can match.
        let count = 1 + self
            .stretch
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|seen| seen.key == key)
            .count() as u32;
        self.stretch.push(Seen {
            key,
            by_check: gave_check,
        });
        self.current_count = count;
        self.max_repetition = self.max_repetition.max(count);
        if count >= 3 && self.threefold_ply.is_none() {
            self.threefold_ply = Some(ply);
        }
        if count >= 5 && self.fivefold_ply.is_none() {
            self.fivefold_ply = Some(ply);
        }
        self.check_clock(ply, after);
    }

    fn check_clock(&mut self, ply: u32, pos: &Chess) {
        let clock = pos.halfmoves();
        // Checkmate on the same move takes precedence (FIDE 9.3, 9.6.2).
        if clock >= 100 && self.fifty_move_ply.is_none() && !pos.is_checkmate() {
            self.fifty_move_ply = Some(ply);
        }
        if clock >= 150 && self.seventy_five_move_ply.is_none() && !pos.is_checkmate() {
            self.seventy_five_move_ply = Some(ply);
        }
    }

    /// Perpetual check (SPEC.md): the final position occurred at least 3 times and one side
    /// gave check with every one of its moves since that position first occurred.
    pub fn perpetual_check(&self) -> bool {
        if self.current_count < 3 {
            return false;
        }
        let Some(last) = self.stretch.last() else {
            return false;
        };
        let Some(first) = self.stretch.iter().position(|seen| seen.key == last.key) else {
            return false;
        };
        let since = self.stretch.get(first + 1..).unwrap_or_default();
        // Moves alternate: the last one is by the side that just moved, and every second
        // one before it too.
        let by_last_mover = since.iter().rev().step_by(2).map(|seen| seen.by_check);
        let by_other = since
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .map(|seen| seen.by_check);
        all_true(by_last_mover) || all_true(by_other)
    }
}

/// True when the iterator is non-empty and every item is true.
fn all_true(items: impl Iterator<Item = bool>) -> bool {
    let mut any = false;
    for item in items {
        if !item {
            return false;
        }
        any = true;
    }
    any
}
