//! `--dedupe`: a 128-bit key per game, made on the worker threads, and the set of keys
//! seen, kept in input order by the one consumer (so the first occurrence wins whatever
//! `--threads`).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher as _};
use std::sync::Arc;

use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role};
use siphasher::sip128::{Hasher128, SipHasher13};

use crate::pgn::{RawGame, TokenKind};
use crate::rules::draw::KeyHasher;
use crate::rules::{GameReport, Status};

/// Bytes of memory each kept game costs: its key (the hash table's spare room comes on
/// top, up to as much again), and with `--duplicates-csv` where it stands.
pub const KEY_BYTES: usize = 16;
pub const ORIGIN_BYTES: usize = 32;

/// What makes two games the same kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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

type Keys = BuildHasherDefault<KeyHasher>;

/// The kinds of game seen so far, in input order.
pub enum Seen {
    Keys(HashSet<u128, Keys>),
    WithOrigins(HashMap<u128, Origin, Keys>),
}

impl Seen {
    /// `with_origins`: remember where each first game stands (for `--duplicates-csv`).
    pub fn new(with_origins: bool) -> Seen {
        if with_origins {
            Seen::WithOrigins(HashMap::default())
        } else {
            Seen::Keys(HashSet::default())
        }
    }

    /// `Ok(())` when this is the first game with `key` (it is remembered), else
    /// `Err(origin)`: the first one, when origins are kept.
    pub fn first(&mut self, key: u128, raw: &RawGame) -> Result<(), Option<&Origin>> {
        match self {
            Seen::Keys(keys) => {
                if keys.insert(key) {
                    Ok(())
                } else {
                    Err(None)
                }
            }
            Seen::WithOrigins(origins) => match origins.entry(key) {
                std::collections::hash_map::Entry::Vacant(entry) => {
                    entry.insert(Origin {
                        file: raw.file.clone(),
                        game: raw.index,
                        line: raw.line,
                    });
                    Ok(())
                }
                std::collections::hash_map::Entry::Occupied(entry) => Err(Some(entry.into_mut())),
            },
        }
    }
}
