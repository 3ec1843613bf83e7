//! Games handed back after use keep their buffers for the next games: a long run
//! allocates nothing per game once the first batches have come back.

use std::sync::Arc;

use crate::pgn::{RawGame, RawTag, Token};

/// Spare games kept at most, and the most a spare game's buffers may hold (a game near
/// the size limit is not held on to): a splitter's spares take at most 512 x 32 KiB.
pub(super) const MAX_SPARE: usize = 512;
pub(super) const MAX_SPARE_BYTES: usize = 32 * 1024;

/// Adds used `games` to `spare` for their buffers' reuse (`games` is left empty), up to
/// `MAX_SPARE` games and leaving out buffers larger than `MAX_SPARE_BYTES`.
pub fn keep_spares(spare: &mut Vec<RawGame>, games: &mut Vec<RawGame>) {
    let room = MAX_SPARE.saturating_sub(spare.len());
    spare.extend(
        games
            .drain(..)
            .filter(|game| buffer_bytes(game) <= MAX_SPARE_BYTES)
            .take(room),
    );
}

/// A large game's buffers, grown by doubling, are cut to their length: a game of 8 MiB
/// then holds its bytes and tokens, not up to twice as much, while it is processed.
pub(super) fn shrink_large(game: &mut RawGame) {
    const SLACK: usize = 64 * 1024;
    if game.bytes.capacity() - game.bytes.len() > SLACK {
        game.bytes.shrink_to_fit();
    }
    if (game.tokens.capacity() - game.tokens.len()) * std::mem::size_of::<Token>() > SLACK {
        game.tokens.shrink_to_fit();
    }
}

/// The bytes a game's buffers hold (their capacity).
fn buffer_bytes(game: &RawGame) -> usize {
    game.bytes.capacity()
        + game.tags.capacity() * std::mem::size_of::<RawTag>()
        + game.tokens.capacity() * std::mem::size_of::<Token>()
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

/// A new game starting at `line`, its buffers sized after the last game's: after a
/// short game they are small, so that a chunk of thousands of `*` games does not cost
/// kilobytes per game.
fn new_game(file: &Arc<str>, size_hint: (usize, usize, usize), line: u64) -> RawGame {
    let (bytes, tags, tokens) = size_hint;
    RawGame {
        file: file.clone(),
        index: 0,
        global_index: 0,
        line,
        bytes: Vec::with_capacity((bytes + bytes / 2).clamp(16, 64 * 1024)),
        tags: Vec::with_capacity((tags + tags / 4).min(64)),
        tokens: Vec::with_capacity((tokens + tokens / 2).clamp(4, 4096)),
        problems: Vec::new(),
    }
}
