//! Which games a run takes: `--shard K/N` and `--game N` / `--games A..B`, by the games'
//! 0-based index over the whole input. (`cli` parses the flags into these.)

/// `--game N` / `--games A..B`: a 1-based inclusive range of games over the whole input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameRange {
    pub first: u64,
    /// `None`: to the end of the input.
    pub last: Option<u64>,
}

impl GameRange {
    /// Whether the game with this 0-based index over the whole input is in the range.
    pub fn contains(&self, game_index: u64) -> bool {
        let number = game_index.saturating_add(1);
        number >= self.first && self.last.is_none_or(|last| number <= last)
    }

    /// Whether no game at or after this 0-based index can be in the range.
    pub fn is_past(&self, game_index: u64) -> bool {
        self.last
            .is_some_and(|last| game_index.saturating_add(1) > last)
    }
}

/// `--shard K/N`: this worker's part of a split archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Whether the game with this 0-based index over the whole input belongs to the shard.
    pub fn contains(&self, game_index: u64) -> bool {
        game_index % self.count == self.index
    }
}
