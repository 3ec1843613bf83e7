//! Opening names (SPEC.md "Openings"): the lichess chess-openings data set
//! (`data/chess-openings`, CC0), embedded in the binary and read into a map from position
//! key to opening at first use. A game is named by the last position of its main line
//! found in the map; the key is the repetition key the replay keeps anyway
//! (`draw::position_key`). The replay notes the keys up to the deepest ply of the data set
//! and looks them up once the game is over, from the last backwards, through a 4 KiB
//! filter: a game costs a probe or two of the map, not one per ply.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Position};

use super::draw::{KeyHasher, position_key};
use super::fen::setup::variant_kind;
use super::tags::Tags;

/// The data set's five volumes (ECO A to E), as the lichess repository ships them.
const VOLUMES: [&str; 5] = [
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/chess-openings/a.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/chess-openings/b.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/chess-openings/c.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/chess-openings/d.tsv"
    )),
    include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/chess-openings/e.tsv"
    )),
];

/// One named line of the data set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
    /// The line's moves as the data set writes them (`1. e4 c5 2. Nf3`).
    pub pgn: &'static str,
    /// The plies of `pgn`.
    pub plies: u32,
    /// `ECO Name`, the key of the summary section `opening` (made once, not per game).
    pub summary_key: String,
    /// Its place in `Book::lines`.
    pub index: usize,
}

/// The opening a game reached, and the ply of the position that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpeningMatch {
    pub ply: u32,
    pub opening: &'static Opening,
}

/// The deepest line the replay looks for (the data set's deepest is 36 plies; a deeper
/// line would be left out).
pub const MAX_BOOK_PLIES: usize = 64;

/// Bits of the filter in front of the map: a key whose bit is clear is in no line, and
/// the 4 KiB of the filter stay in the cache where the map would not.
const FILTER_BITS: usize = 1 << 15;

/// The data set, read: every line, and the position after each line mapped to the line
/// that names it.
#[derive(Debug)]
pub struct Book {
    pub lines: Vec<Opening>,
    by_position: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    /// One bit per `filter_bit` of the keys in `by_position`.
    filter: Vec<u64>,
    /// The most plies of any line: no later position can be found.
    pub deepest: u32,
}

impl Book {
    /// The opening named by the position with this key (`draw::position_key`).
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<&Opening> {
        let bit = filter_bit(key);
        if self
            .filter
            .get(bit / 64)
            .is_none_or(|word| word & (1 << (bit % 64)) == 0)
        {
            return None;
        }
        self.by_position
            .get(&key)
            .and_then(|&index| self.lines.get(index))
    }

    /// The line whose position the other lines reaching the same position yield to: the
    /// shortest, and of lines as short, the first in the data set (as lichess's own
    /// classifier keeps the shortest line per position).
    fn read() -> Book {
        let mut book = Book {
            lines: Vec::with_capacity(4096),
            by_position: HashMap::default(),
            filter: vec![0; FILTER_BITS / 64],
            deepest: 0,
        };
        let mut positions = Prefixes::default();
        for volume in VOLUMES {
            // The first line is the header `eco	name	pgn`.
            for row in volume.lines().skip(1) {
                let mut columns = row.split('\t');
                let (Some(eco), Some(name), Some(pgn)) =
                    (columns.next(), columns.next(), columns.next())
                else {
                    continue;
                };
                let Some((pos, plies)) = positions.play(pgn) else {
                    continue;
                };
                if plies as usize > MAX_BOOK_PLIES {
                    continue;
                }
                let index = book.lines.len();
                book.lines.push(Opening {
                    eco,
                    name,
                    pgn,
                    plies,
                    summary_key: format!("{eco} {name}"),
                    index,
                });
                book.deepest = book.deepest.max(plies);
                let key = position_key(&pos);
                let bit = filter_bit(key);
                if let Some(word) = book.filter.get_mut(bit / 64) {
                    *word |= 1 << (bit % 64);
                }
                let lines = &book.lines;
                book.by_position
                    .entry(key)
                    .and_modify(|kept| {
                        let shorter = lines
                            .get(*kept)
                            .is_some_and(|line: &Opening| plies < line.plies);
                        if shorter {
                            *kept = index;
                        }
                    })
                    .or_insert(index);
            }
        }
        book
    }
}

/// The positions after the prefixes of the lines read so far: most lines extend another
/// line, so each is played from its longest known prefix (a few thousand moves in all
/// instead of tens of thousands), which keeps the first use of the data cheap.
#[derive(Default)]
struct Prefixes {
    after: HashMap<&'static str, Chess>,
}

impl Prefixes {
    /// The position after `pgn` and its plies, like `play_line`.
    fn play(&mut self, pgn: &'static str) -> Option<(Chess, u32)> {
        let mut pos = Chess::default();
        let mut plies = 0;
        let mut known = true;
        for (end, word) in move_ends(pgn) {
            plies += 1;
            let prefix = pgn.get(..end)?;
            if known && let Some(after) = self.after.get(prefix) {
                pos = after.clone();
                continue;
            }
            known = false;
            let m = San::from_ascii(word.as_bytes()).ok()?.to_move(&pos).ok()?;
            pos.play_unchecked(m);
            self.after.insert(prefix, pos.clone());
        }
        Some((pos, plies))
    }
}

/// The moves of a line (`1. e4 c5`: `e4`, `c5`) with the byte offset where each ends.
fn move_ends(pgn: &str) -> impl Iterator<Item = (usize, &str)> {
    pgn.split(' ')
        .scan(0usize, |offset, word| {
            let start = *offset;
            *offset += word.len() + 1;
            Some((start + word.len(), word))
        })
        .filter(|(_, word)| !word.is_empty() && !word.ends_with('.'))
}

/// The filter bit of a key: bits the map's hashing does not start from.
fn filter_bit(key: u64) -> usize {
    (key >> 32) as usize % FILTER_BITS
}

/// The data set, read at first use (a few milliseconds).
pub fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(Book::read)
}

/// The position after a line of the data set (`1. e4 c5 2. Nf3`) and its plies; `None`
/// if a move cannot be played (never, for the embedded data: a test checks it).
pub fn play_line(pgn: &str) -> Option<(Chess, u32)> {
    let mut pos = Chess::default();
    let mut plies = 0;
    for word in pgn.split_whitespace() {
        if word.ends_with('.') {
            continue;
        }
        let m = San::from_ascii(word.as_bytes()).ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(m);
        plies += 1;
    }
    Some((pos, plies))
}

/// Whether a game with these tags, starting from the position with key `start_key`
/// (`draw::position_key`) in `mode`, is classified: standard chess (not a Chess960
/// variant) from the standard start position.
pub fn classifies(tags: &Tags, start_key: u64, mode: CastlingMode) -> bool {
    let chess960 = tags
        .get("Variant")
        .is_some_and(|variant| variant_kind(variant) != Some(false));
    !chess960 && mode == CastlingMode::Standard && start_key == standard_start_key()
}

fn standard_start_key() -> u64 {
    static KEY: OnceLock<u64> = OnceLock::new();
    *KEY.get_or_init(|| position_key(&Chess::default()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::{book, play_line};
    use crate::rules::draw::position_key;

    /// Every row of the embedded data is read and its moves are legal.
    #[test]
    fn every_line_of_the_data_set_is_read() {
        let total: usize = super::VOLUMES
            .iter()
            .map(|volume| volume.lines().skip(1).filter(|l| !l.is_empty()).count())
            .sum();
        assert_eq!(total, 3807);
        assert_eq!(book().lines.len(), 3807);
        assert_eq!(book().deepest, 36);
    }

    /// Each line's final position names the shortest line reaching it (the first of
    /// equally short ones): every line but those listed in
    /// `tests/cli/openings.rs::lines_sharing_a_position` names itself.
    #[test]
    fn each_position_names_its_shortest_line() {
        let book = book();
        for line in &book.lines {
            let (pos, plies) = play_line(line.pgn).unwrap();
            let named = book.lookup(position_key(&pos)).unwrap();
            assert!(named.plies <= plies, "{} -> {}", line.name, named.name);
        }
    }
}
