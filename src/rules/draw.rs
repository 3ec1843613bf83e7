//! Draw-rule tracking during a replay: repetition per FIDE 9.2.3 (placement, side to
//! move, castling rights, and an en passant square only where a legal en passant capture
//! exists), the fifty and seventy-five move rules, and perpetual check.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

/// Up to this many positions since the last irreversible move, repetitions are counted by
/// a scan; beyond it, by a map.
const SCAN_LIMIT: usize = 64;

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
/// The move being played, as seen from the position before it.
#[derive(Debug, Clone, Copy, Default)]
struct Pending {
    irreversible: bool,
    /// The key of the position after the move, when shakmaty can update it incrementally.
    key: Option<u64>,
}

#[derive(Debug, Clone, Default)]
pub struct DrawTracker {
    /// Positions since the last irreversible move (the first is the one after it).
    stretch: Vec<Seen>,
    /// The key of the last position recorded.
    last_key: u64,
    /// What `before_move` learnt about the move being played.
    pending: Pending,
    /// How often each position of `stretch` occurred: a lookup instead of a scan, so a
    /// 100,000-move shuffle without pawn moves stays linear.
    occurrences: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
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
        let key = position_key(pos);
        self.stretch.clear();
        self.stretch.push(Seen {
            key,
            by_check: false,
        });
        self.last_key = key;
        self.pending = Pending::default();
        self.occurrences.clear();
        self.current_count = 1;
        self.max_repetition = 1;
        self.check_clock(0, pos);
    }

    /// Looks at the move about to be played from `before`: whether it is irreversible
    /// (shakmaty's `is_irreversible`: no earlier position can recur after it) and, where
    /// shakmaty allows, the next key by an incremental Zobrist update.
    pub fn before_move(&mut self, before: &Chess, m: Move) {
        self.pending = Pending {
            irreversible: before.is_irreversible(m),
            key: before
                .update_zobrist_hash(Zobrist64(self.last_key), m, EnPassantMode::Legal)
                .map(|hash| hash.0),
        };
    }

    /// Records the position reached at `ply` by the move given to `before_move`, which
    /// `gave_check`.
    pub fn after_move(&mut self, ply: u32, after: &Chess, gave_check: bool) {
        let Pending { irreversible, key } = std::mem::take(&mut self.pending);
        if irreversible {
            self.stretch.clear();
            if !self.occurrences.is_empty() {
                self.occurrences.clear();
            }
        }
        let key = key.unwrap_or_else(|| position_key(after));
        self.last_key = key;
        let count = self.count_with(key);
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

    /// How often `key` has occurred once it is added. A short stretch (the usual case: a
    /// pawn move or capture comes every few moves) is scanned; a long one is counted in a
    /// map, so a 100,000-move shuffle stays linear.
    fn count_with(&mut self, key: u64) -> u32 {
        if self.stretch.len() < SCAN_LIMIT {
            // Positions alternate sides to move, so only every second entry can match.
            let earlier = self
                .stretch
                .iter()
                .rev()
                .skip(1)
                .step_by(2)
                .filter(|seen| seen.key == key)
                .count();
            return 1 + u32::try_from(earlier).unwrap_or(u32::MAX);
        }
        if self.occurrences.is_empty() {
            for seen in &self.stretch {
                *self.occurrences.entry(seen.key).or_insert(0) += 1;
            }
        }
        let occurred = self.occurrences.entry(key).or_insert(0);
        *occurred += 1;
        *occurred
    }

    fn check_clock(&mut self, ply: u32, pos: &Chess) {
        let clock = pos.halfmoves();
        let unset = (clock >= 100 && self.fifty_move_ply.is_none())
            || (clock >= 150 && self.seventy_five_move_ply.is_none());
        // A mate (or stalemate) on the same move ends the game first (FIDE 9.3, 9.6.2), so
        // the rule holds only where a legal move exists, as python-chess's
        // `is_fifty_moves` / `is_seventyfive_moves` decide. Asked only until both are set.
        if !unset || pos.legal_moves().is_empty() {
            return;
        }
        if clock >= 100 && self.fifty_move_ply.is_none() {
            self.fifty_move_ply = Some(ply);
        }
        if clock >= 150 && self.seventy_five_move_ply.is_none() {
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use shakmaty::san::San;
    use shakmaty::{Chess, Position};

    use super::{DrawTracker, position_key};

    /// The incremental key must equal a full hash after every kind of move.
    #[test]
    fn incremental_keys_equal_full_hashes() {
        let moves = "e4 d5 exd5 e5 dxe6 Nc6 exf7+ Ke7 fxg8=N+ Rxg8 Nf3 Kd6 Bc4 Kc5 O-O \
                     Bf5 Nc3 Qd7 Re1 Rb8 Rf1 Ra8 Re1 Rb8";
        let mut pos = Chess::default();
        let mut tracker = DrawTracker::default();
        tracker.start(&pos);
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = text.parse::<San>().unwrap().to_move(&pos).unwrap();
            tracker.before_move(&pos, m);
            pos.play_unchecked(m);
            tracker.after_move(i as u32 + 1, &pos, pos.is_check());
            assert_eq!(tracker.last_key, position_key(&pos), "after {text}");
        }
    }
}

/// The keys are Zobrist hashes, already uniformly spread: hashing them again (SipHash) per
/// ply cost more than the lookup itself.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only u64 keys are hashed here; fold anything else in for completeness.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}
