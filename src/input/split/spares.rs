//! Games handed back after use keep their buffers for the next games: a long run
//! allocates nothing per game once the first batches have come back.

use std::sync::Arc;

use crate::pgn::RawGame;

/// Spare games kept at most, and the largest buffer a spare game may keep (a game near
/// the size limit is not held on to).
pub(super) const MAX_SPARE: usize = 512;
pub(super) const MAX_SPARE_BYTES: usize = 64 * 1024;

/// Adds used `games` to `spare` for their buffers' reuse (`games` is left empty), up to
/// `MAX_SPARE` games and leaving out buffers larger than `MAX_SPARE_BYTES`.
pub fn keep_spares(spare: &mut Vec<RawGame>, games: &mut Vec<RawGame>) {
    let room = MAX_SPARE.saturating_sub(spare.len());
    spare.extend(
        games
            .drain(..)
            .filter(|game| game.bytes.capacity() <= MAX_SPARE_BYTES)
            .take(room),
    );
}

/// A spare game emptied for reuse, or a new one.
pub(super) fn take_game(
    spare: &mut Vec<RawGame>,
    file: &Arc<str>,
    size_hint: (usize, usize, usize),
    line: u64,
) -> RawGame {
    let Some(mut game) = spare.pop() else {
        return new_game(file, size_hint, line);
    };
    game.reset(file.clone(), line);
    game
}

/// A new game starting at `line`, its buffers sized after the last game's.
fn new_game(file: &Arc<str>, size_hint: (usize, usize, usize), line: u64) -> RawGame {
    let (bytes, tags, tokens) = size_hint;
    RawGame {
        file: file.clone(),
        index: 0,
        global_index: 0,
        line,
        bytes: Vec::with_capacity((bytes + bytes / 2).clamp(1024, 64 * 1024)),
        tags: Vec::with_capacity((tags + tags / 4).clamp(16, 64)),
        tokens: Vec::with_capacity((tokens + tokens / 2).clamp(64, 4096)),
        problems: Vec::new(),
    }
}
