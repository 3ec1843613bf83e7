//! `--dedupe`: a 128-bit key per game, made on the worker threads, and the set of keys
//! seen, kept in input order by the one consumer (so the first occurrence wins whatever
//! `--threads`).

use std::hash::Hasher as _;
use std::sync::Arc;

use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role};
use siphasher::sip128::{Hasher128, SipHasher13};

use crate::pgn::{RawGame, TokenKind};
use crate::rules::{GameReport, Status};

/// What makes two games the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DedupeBy {
    /// Same start position and main-line moves.
    Moves,
    /// Moves, and equal White, Black, Date and Result tags.
    Game,
}

/// The key of one game, fed by the replay's positions.
pub struct KeyBuilder {
    hasher: SipHasher13,
    /// The moves, two bytes each, hashed in one write at the end: a write per move cost
    /// more than the bytes themselves (the same bytes in the same order give the same key).
    moves: Vec<u8>,
}

impl KeyBuilder {
    pub fn new() -> KeyBuilder {
        // Fixed keys: the same game gives the same key in every run.
        KeyBuilder {
            hasher: SipHasher13::new_with_keys(0x7067_6e6b_6974_2d31, 0x6465_6475_7065_2d6b),
            moves: Vec::with_capacity(512),
        }
    }

    /// The start position (ply 0): placement, side to move, castling rights and en
    /// passant square (where a capture is legal), as repetitions compare positions.
    pub fn start(&mut self, pos: &Chess) {
        let board = pos.board();
        for color in Color::ALL {
            self.hasher.write_u64(u64::from(board.by_color(color)));
        }
        for role in Role::ALL {
            self.hasher.write_u64(u64::from(board.by_role(role)));
        }
        self.hasher.write_u8(u8::from(pos.turn().is_white()));
        self.hasher
            .write_u64(u64::from(pos.castles().castling_rights()));
        let ep = pos.ep_square(EnPassantMode::Legal).map_or(64, u8::from);
        self.hasher.write_u8(ep);
    }

    /// One main-line move: its origin, target and promotion in two bytes (from the same
    /// position, the same move however its SAN was spelt). Castling is the king's move
    /// onto its rook, as shakmaty writes it in both standard chess and Chess960.
    pub fn ply(&mut self, m: Move) {
        let from = m.from().map_or(0, u16::from);
        let to = u16::from(m.to());
        let promotion = m.promotion().map_or(0, |role| role as u16);
        let code = from | to << 6 | promotion << 12;
        self.moves.extend_from_slice(&code.to_le_bytes());
    }

    /// The key: for a game whose replay stopped, also its status and the exact text of the
    /// rest of its main line; with `--dedupe game` the four tags.
    pub fn finish(mut self, raw: &RawGame, report: &GameReport, by: DedupeBy) -> u128 {
        self.hasher.write(&self.moves);
        self.hasher.write_u8(0xff);
        if report.status != Status::Ok {
            self.hasher.write(report.status.as_str().as_bytes());
            self.hasher.write_u8(0);
            if report.final_pos.is_none() {
                // No start position was hashed: the FEN tag stands for it.
                self.tag(report, "FEN");
            }
            let mut depth = 0u32;
            let mut moves_seen = 0u32;
            for token in &raw.tokens {
                match token.kind {
                    TokenKind::VariationStart => depth += 1,
                    TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                    TokenKind::Word | TokenKind::Result if depth == 0 => {
                        if token.kind == TokenKind::Word && moves_seen < report.plies {
                            moves_seen += 1;
                            continue;
                        }
                        self.hasher.write(raw.token_text(token));
                        self.hasher.write_u8(b' ');
                    }
                    _ => {}
                }
            }
        }
        if by == DedupeBy::Game {
            for name in ["White", "Black", "Date", "Result"] {
                self.tag(report, name);
            }
        }
        self.hasher.finish128().as_u128()
    }

    fn tag(&mut self, report: &GameReport, name: &str) {
        let value = report.tags.value(name).as_bytes();
        self.hasher.write_u64(value.len() as u64);
        self.hasher.write(value);
    }
}

impl Default for KeyBuilder {
    fn default() -> KeyBuilder {
        KeyBuilder::new()
    }
}

/// Where a kept game stands, for `--duplicates-csv`.
#[derive(Debug, Clone)]
pub struct Origin {
    pub file: Arc<str>,
    pub game: u64,
    pub line: u64,
}

/// The kinds of game seen so far, in input order.
pub enum KindsSeen {
    Keys(KeyTable<()>),
    /// The keys with the index of each first game's place in `origins`.
    WithOrigins {
        keys: KeyTable<u32>,
        origins: Vec<Origin>,
    },
}

impl KindsSeen {
    /// `with_origins`: remember where each first game stands (for `--duplicates-csv`).
    pub fn new(with_origins: bool) -> KindsSeen {
        if with_origins {
            KindsSeen::WithOrigins {
                keys: KeyTable::default(),
                origins: Vec::new(),
            }
        } else {
            KindsSeen::Keys(KeyTable::default())
        }
    }

    /// `Ok(())` when this is the first game with `key` (it is remembered), else
    /// `Err(origin)`: the first one, when origins are kept.
    pub fn first(&mut self, key: u128, raw: &RawGame) -> Result<(), Option<&Origin>> {
        match self {
            KindsSeen::Keys(keys) => match keys.get_or_insert(key, ()) {
                None => Ok(()),
                Some(()) => Err(None),
            },
            KindsSeen::WithOrigins { keys, origins } => {
                let next = u32::try_from(origins.len()).unwrap_or(u32::MAX);
                match keys.get_or_insert(key, next) {
                    Some(index) => Err(origins.get(index as usize)),
                    None => {
                        if origins.len() == origins.capacity() {
                            // Grown by half, not doubled: an origin then costs 32-48 bytes.
                            origins.reserve_exact((origins.len() / 2).max(64));
                        }
                        origins.push(Origin {
                            file: raw.file.clone(),
                            game: raw.index,
                            line: raw.line,
                        });
                        Ok(())
                    }
                }
            }
        }
    }
}

/// A set of 128-bit keys, each with a small value, in one array of keys (open addressing,
/// linear probing) and one of values. It grows by half when 7/8 full, so a key costs 16
/// bytes over a table 58-88% full: 18-28 bytes (a std `HashSet<u128>` costs 17 bytes a
/// slot over a table 44-88% full: 19-39 bytes). The keys are SipHash outputs, so their
/// low bits place them evenly; 0 marks an empty slot and is kept aside.
pub struct KeyTable<V> {
    keys: Vec<u128>,
    values: Vec<V>,
    /// Keys held, `0` included.
    len: usize,
    /// The value of the key 0, when it is held.
    zero: Option<V>,
}

impl<V> Default for KeyTable<V> {
    fn default() -> KeyTable<V> {
        KeyTable {
            keys: Vec::new(),
            values: Vec::new(),
            len: 0,
            zero: None,
        }
    }
}

impl<V: Copy + Default> KeyTable<V> {
    /// The value of `key` when it is held; otherwise `key` is added with `value` and
    /// `None` comes back.
    pub fn get_or_insert(&mut self, key: u128, value: V) -> Option<V> {
        if key == 0 {
            if self.zero.is_none() {
                self.zero = Some(value);
                self.len += 1;
                return None;
            }
            return self.zero;
        }
        if (self.len + 1) * 8 > self.keys.len() * 7 {
            self.grow();
        }
        let (index, found) = self.find(key);
        if found {
            return self.values.get(index).copied();
        }
        if let (Some(slot), Some(held)) = (self.keys.get_mut(index), self.values.get_mut(index)) {
            *slot = key;
            *held = value;
            self.len += 1;
        }
        None
    }

    /// The slot of `key`, and whether it holds it (else the empty slot where it goes).
    /// There is always an empty slot: the table is never more than 7/8 full.
    fn find(&self, key: u128) -> (usize, bool) {
        let size = self.keys.len();
        // The key's low 64 bits scaled to the table (no power-of-two size needed).
        let mut index = ((u128::from(key as u64) * size as u128) >> 64) as usize;
        for _ in 0..size {
            match self.keys.get(index) {
                Some(&held) if held == key => return (index, true),
                Some(&0) | None => return (index, false),
                Some(_) => index = if index + 1 == size { 0 } else { index + 1 },
            }
        }
        (index, false)
    }

    fn grow(&mut self) {
        let size = (self.keys.len() + self.keys.len() / 2).max(64);
        let keys = std::mem::replace(&mut self.keys, vec![0; size]);
        let values = std::mem::replace(&mut self.values, vec![V::default(); size]);
        for (key, value) in keys.into_iter().zip(values) {
            if key != 0 {
                let (index, _) = self.find(key);
                if let (Some(slot), Some(held)) =
                    (self.keys.get_mut(index), self.values.get_mut(index))
                {
                    *slot = key;
                    *held = value;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::KeyTable;

    /// Keys spread as SipHash outputs are (a fixed mix of a counter).
    fn key(i: u64) -> u128 {
        let mut x = i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xd1b5_4a32_d192_ed03;
        x ^= x >> 31;
        let low = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (u128::from(low.rotate_left(17)) << 64) | u128::from(low)
    }

    /// Each key goes in once and is found after, with the value it came with; the key 0
    /// too; and a kept key never costs more than 28 bytes (35 with a 4-byte value),
    /// whatever the count.
    #[test]
    fn holds_each_key_once_in_at_most_28_bytes_a_key() {
        let mut table = KeyTable::<u32>::default();
        assert_eq!(table.get_or_insert(0, 7), None);
        assert_eq!(table.get_or_insert(0, 8), Some(7));
        let count = 300_000u32;
        let mut most = 0.0f64;
        for i in 1..=count {
            assert_eq!(table.get_or_insert(key(u64::from(i)), i), None, "{i}");
            let bytes = (table.keys.capacity() * 16 + table.values.capacity() * 4) as f64;
            if i >= 1000 {
                most = most.max(bytes / table.len as f64);
            }
        }
        assert_eq!(table.len, count as usize + 1);
        for i in (1..=count).step_by(7) {
            assert_eq!(table.get_or_insert(key(u64::from(i)), 0), Some(i), "{i}");
        }
        // 20 bytes a slot (key and value) over a table at least 58% full.
        assert!(most <= 35.0, "{most} bytes a key");
        let mut set = KeyTable::<()>::default();
        let mut most = 0.0f64;
        for i in 1..=count {
            assert_eq!(set.get_or_insert(key(u64::from(i)), ()), None);
            if i >= 1000 {
                most = most.max((set.keys.capacity() * 16) as f64 / set.len as f64);
            }
        }
        assert!(most <= 28.0, "{most} bytes a key");
        assert_eq!(set.get_or_insert(key(5), ()), Some(()));
    }
}
