//! Opening names (SPEC.md "Openings"): the lichess chess-openings data set
//! (`data/chess-openings`, CC0), played at build time (`build.rs`) into a table from
//! position key to opening that the binary holds. A game is named by the last position
//! of its main line found in the table; the key is the repetition key the replay keeps
//! anyway (`draw::position_key`). The replay notes the keys up to the deepest ply of the
//! data set and looks them up once the game is over, from the last backwards, through a
//! 4 KiB filter: a game costs a probe or two of the table, not one per ply.

use shakmaty::CastlingMode;

use super::draw::standard_start_key;
use super::fen::setup::variant_kind;
use super::tags::Tags;

/// One named line of the data set: its text lies in the table's one string (`TEXT`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// Where `ECO Name` starts, where it ends and the moves start, and where they end.
    text: (u32, u32, u32),
    /// The bytes of the ECO code at the start of `ECO Name`.
    eco_len: u8,
    /// The plies of `pgn`.
    pub plies: u32,
    /// Its place in `Book::lines`.
    pub index: usize,
}

impl Opening {
    /// The ECO code (`B20`).
    pub fn eco(&self) -> &'static str {
        let (start, _, _) = self.text;
        text(start, start + u32::from(self.eco_len))
    }

    /// The name (`Sicilian Defense`).
    pub fn name(&self) -> &'static str {
        let (start, end, _) = self.text;
        text(start + u32::from(self.eco_len) + 1, end)
    }

    /// The line's moves as the data set writes them (`1. e4 c5 2. Nf3`).
    pub fn pgn(&self) -> &'static str {
        let (_, start, end) = self.text;
        text(start, end)
    }

    /// `ECO Name`, the key of the summary section `opening`.
    pub fn summary_key(&self) -> &'static str {
        let (start, end, _) = self.text;
        text(start, end)
    }
}

/// A piece of the table's text (empty if out of it: never, build.rs made both).
fn text(start: u32, end: u32) -> &'static str {
    TEXT.get(start as usize..end as usize).unwrap_or_default()
}

/// The opening a game reached, and the ply of the position that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpeningMatch {
    pub ply: u32,
    pub opening: &'static Opening,
}

// `TEXT`, `LINES`, `BY_POSITION` and `DEEPEST`, made by build.rs from the data set: no
// pointer in them but the text's, so that loading the binary relocates none of them.
include!(concat!(env!("OUT_DIR"), "/openings_table.rs"));

/// The deepest line the replay looks for (the data set's deepest is 36 plies).
pub const MAX_BOOK_PLIES: usize = 64;

// A deeper line in the data set fails the build, rather than go unnamed.
const _: () = assert!(DEEPEST as usize <= MAX_BOOK_PLIES);

/// Bits of the filter in front of the table: a key whose bit is clear is in no line, and
/// the 4 KiB of the filter stay in the cache where the table would not.
const FILTER_BITS: usize = 1 << 15;

/// Slots of the table behind the filter: a power of two, over twice the positions, so
/// that a key is found within a slot or two (a binary search took 12 steps).
const SLOTS: usize = 1 << 13;
const _: () = assert!(BY_POSITION.len() * 2 <= SLOTS);

/// The line index of an empty slot.
const EMPTY: u32 = u32::MAX;

/// The data set: every line, and the position after each line with the line that names
/// it.
#[derive(Debug)]
pub struct Book {
    pub lines: &'static [Opening],
    /// The key of each position and the index of the line naming it, in the slot of its
    /// key (`slot_of`) or, when taken, the next free one; the others `EMPTY`.
    table: [(u64, u32); SLOTS],
    /// One bit per `filter_bit` of the keys in `table`.
    filter: [u64; FILTER_BITS / 64],
    /// The most plies of any line: no later position can be found.
    pub deepest: u32,
}

impl Book {
    /// The opening named by the position with this key (`draw::position_key`).
    #[inline]
    pub fn lookup(&self, key: u64) -> Option<&'static Opening> {
        let bit = filter_bit(key);
        if self
            .filter
            .get(bit / 64)
            .is_none_or(|word| word & (1 << (bit % 64)) == 0)
        {
            return None;
        }
        // An empty slot ends the search: the table has one at least (half are).
        let mut slot = slot_of(key);
        loop {
            let &(held, index) = self.table.get(slot)?;
            if index == EMPTY {
                return None;
            }
            if held == key {
                return self.lines.get(index as usize);
            }
            slot = (slot + 1) % SLOTS;
        }
    }

    /// How many positions name a line.
    #[cfg(test)]
    pub fn positions(&self) -> usize {
        self.table
            .iter()
            .filter(|&&(_, index)| index != EMPTY)
            .count()
    }
}

/// The filter of `by_position`'s keys, worked out when the binary is compiled.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build"
)]
const fn filter_of(by_position: &[(u64, u32)]) -> [u64; FILTER_BITS / 64] {
    let mut filter = [0; FILTER_BITS / 64];
    let mut i = 0;
    while i < by_position.len() {
        let bit = filter_bit(by_position[i].0);
        filter[bit / 64] |= 1 << (bit % 64);
        i += 1;
    }
    filter
}

/// The filter bit of a key: bits a search of the table does not start from.
const fn filter_bit(key: u64) -> usize {
    (key >> 32) as usize % FILTER_BITS
}

/// The table of `by_position`'s keys (`Book::table`), made when the binary is compiled.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build"
)]
const fn table_of(by_position: &[(u64, u32)]) -> [(u64, u32); SLOTS] {
    let mut table = [(0, EMPTY); SLOTS];
    let mut i = 0;
    while i < by_position.len() {
        let (key, index) = by_position[i];
        let mut slot = slot_of(key);
        while table[slot].1 != EMPTY {
            slot = (slot + 1) % SLOTS;
        }
        table[slot] = (key, index);
        i += 1;
    }
    table
}

/// The slot a key's search starts from: its top bits, apart from the filter's.
const fn slot_of(key: u64) -> usize {
    (key >> (64 - SLOTS.trailing_zeros())) as usize
}

static BOOK: Book = Book {
    lines: &LINES,
    table: table_of(&BY_POSITION),
    filter: filter_of(&BY_POSITION),
    deepest: DEEPEST,
};

/// The data set, as the binary holds it.
pub fn book() -> &'static Book {
    &BOOK
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

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use std::collections::HashMap;

    use shakmaty::san::San;
    use shakmaty::{Chess, Position};

    use super::book;
    use crate::rules::draw::position_key;

    /// The position after a line of the data set (`1. e4 c5 2. Nf3`) and its plies; `None`
    /// if a move cannot be played: played here move by move, apart from build.rs, to hold
    /// the table it made to the data.
    fn play_line(pgn: &str) -> Option<(Chess, u32)> {
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

    /// Every row of the embedded data is in the table, in the data set's order.
    #[test]
    fn every_line_of_the_data_set_is_read() {
        let volumes = ["a", "b", "c", "d", "e"].map(|volume| {
            let path = format!(
                "{}/data/chess-openings/{volume}.tsv",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::read_to_string(path).unwrap()
        });
        let rows: Vec<Vec<&str>> = volumes
            .iter()
            .flat_map(|volume| volume.lines().skip(1).filter(|l| !l.is_empty()))
            .map(|row| row.split('\t').collect())
            .collect();
        assert_eq!(rows.len(), 3807);
        assert_eq!(book().lines.len(), 3807);
        assert_eq!(book().deepest, 36);
        for (index, (row, line)) in rows.iter().zip(book().lines).enumerate() {
            assert_eq!(row.as_slice(), [line.eco(), line.name(), line.pgn()]);
            assert_eq!(
                line.summary_key(),
                format!("{} {}", line.eco(), line.name())
            );
            assert_eq!(line.index, index);
        }
    }

    /// The table made at build time is the one the run would make: each line played here,
    /// each position keyed as the replay keys it, names the first of its shortest lines,
    /// and the table holds no other position.
    #[test]
    fn the_table_names_each_position_by_its_first_shortest_line() {
        let book = book();
        let mut expected: HashMap<u64, usize> = HashMap::new();
        for line in book.lines {
            let (pos, plies) = play_line(line.pgn()).unwrap();
            assert_eq!(plies, line.plies, "{}", line.pgn());
            let kept = expected.entry(position_key(&pos)).or_insert(line.index);
            if plies < book.lines[*kept].plies {
                *kept = line.index;
            }
        }
        assert_eq!(book.positions(), expected.len());
        for (key, index) in expected {
            assert_eq!(book.lookup(key).map(|line| line.index), Some(index));
        }
        // A position of no line (the start, 1. e4 e5 2. Ke2 Ke7) is found in none.
        for line in ["", "1. e4 e5 2. Ke2 Ke7"] {
            let (pos, _) = play_line(line).unwrap();
            assert_eq!(book.lookup(position_key(&pos)), None, "{line}");
        }
    }
}
