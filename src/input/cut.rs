//! Where a stream may be cut into parts that the workers split each on its own: before a
//! game's tag pairs (`last_safe_cut`), or, with none, where a splitter starts a game
//! (`last_game_start`).

use std::sync::Arc;

use crate::pgn::{InputProblemKind, RawGame, Span};

use super::chunk::{count_lines, nth_line_end};
use super::split::lines::{first_significant, looks_like_tag_line};
use super::split::tags::bracketless_tag;
use super::split::{Limits, Splitter};

/// How far into a line the start of a tag pair is looked for by `last_safe_cut`: within
/// the part of a line the splitter keeps past the size limit (`OVERFLOW_PEEK`).
const CUT_PEEK: usize = 256;

/// Where a stream may be cut into parts that split, each on its own, into the very games
/// the whole stream splits into: the start of the last line in `bytes` (not the first)
/// that opens a tag pair and follows, after blank lines only, a line of movetext (one
/// whose first byte that counts is not `[`, nor a `%` escape, that holds no `[` out of
/// comments and is no tag line without its `[`, `tags::bracketless_tag`). In whatever state the
/// splitter reaches such a line, it starts the next game (`State::is_boundary`): after
/// movetext a `[` line always does, and in an open comment or past the size limit a line
/// that opens a tag pair does.
pub(super) fn last_safe_cut(bytes: &[u8]) -> Option<usize> {
    // Lines from the last (which may be unfinished) back to the first.
    let mut end = bytes.len();
    let mut start = line_start_before(bytes, end);
    // The start of the last line seen that opens a tag pair, while only blank lines follow.
    let mut tag_line: Option<usize> = None;
    loop {
        let line = Span::new(start, end).of(bytes);
        if let Some(i) = first_significant(line) {
            let first = line.get(i).copied();
            // A `[` further on a line of movetext may start a game there (after a
            // termination marker) that holds only tags so far: not a safe place.
            if let Some(cut) = tag_line
                && first != Some(b'[')
                && !(i == 0 && first == Some(b'%'))
                && !has_bracket_outside_comments(line)
                // A tag line without its `[` may stand inside a tag section.
                && bracketless_tag(line, i).is_none()
            {
                return Some(cut);
            }
            let peek = line.get(..CUT_PEEK).unwrap_or(line);
            tag_line = (start > 0 && looks_like_tag_line(peek.get(i..).unwrap_or_default()))
                .then_some(start);
        }
        if start == 0 {
            return None;
        }
        end = start;
        start = line_start_before(bytes, end - 1);
    }
}

/// Whether a line holds a `[` outside the `{}` comments opened on it (a line that starts
/// inside a comment, or a `;` comment, may give a false alarm, never a miss).
fn has_bracket_outside_comments(line: &[u8]) -> bool {
    let mut in_comment = false;
    for &byte in line {
        match byte {
            b'{' => in_comment = true,
            b'}' => in_comment = false,
            b'[' if !in_comment => return true,
            _ => {}
        }
    }
    false
}

/// The start of the line that holds `bytes[..end]`'s last byte (just past a `\n`, or 0).
fn line_start_before(bytes: &[u8], end: usize) -> usize {
    memchr::memrchr(b'\n', bytes.get(..end).unwrap_or_default()).map_or(0, |i| i + 1)
}

/// Where a chunk may be cut when no tag pair marks a game's start (`last_safe_cut`): the
/// start of a game as a splitter over the whole lines of `bytes` finds it, the game after
/// at most `max_games` games (or the first, when games share the first lines), where the
/// game starts at its line's start (a game that starts after a termination marker on the
/// line is no place to cut; the game before tells, `line_after`). Games are looked at up to a bound (4 x `max_games`), so
/// that a buffer growing on one line of games costs no more per read. The chunk starts
/// where a game starts, so its splitter is in the state the file's splitter is in there,
/// and finds the same boundaries; the line of a game's start is whole, so its end cannot
/// change whether it starts a game.
pub(super) fn last_game_start(bytes: &[u8], limits: Limits, max_games: usize) -> Option<usize> {
    let whole_lines = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    let lines = bytes.get(..whole_lines).unwrap_or_default();
    let mut splitter = Splitter::for_part(lines, Arc::from(""), limits, 1, false, false);
    let mut start_line = None;
    let mut spent = Vec::with_capacity(1);
    // The first line where the last game's successor starts at the line's start; `None`
    // when unknown (a game past the size limit does not keep all its bytes).
    let mut next_free_line = Some(2u64);
    for before in 0..=max_games.saturating_mul(4) {
        // Reading a slice cannot fail.
        let Ok(Some(game)) = splitter.next_game() else {
            break;
        };
        // Stray bytes before the first game are that game's (`input.stray-bytes`, "before
        // this game"): a cut at its start would leave them in a part with no game.
        let strays_before =
            before == 0 && (game.problems.iter()).any(|p| p.kind == InputProblemKind::StrayBytes);
        if game.line > 1 && next_free_line.is_some_and(|free| game.line >= free) && !strays_before {
            // A cut here leaves `before` games in the chunk.
            if before > max_games && start_line.is_some() {
                break;
            }
            start_line = Some(game.line);
            if before >= max_games {
                break;
            }
        }
        next_free_line = line_after(&game);
        spent.push(game);
        splitter.recycle(&mut spent);
    }
    let start_line = usize::try_from(start_line?).ok()?;
    Some(nth_line_end(lines, start_line - 1))
}

/// The first line after the last line of `game` (one that starts at a line's start, not
/// after the game's termination marker on its last line); `None` for a game past the
/// size limit, whose bytes do not tell where it ends.
fn line_after(game: &RawGame) -> Option<u64> {
    if game
        .problems
        .iter()
        .any(|p| p.kind == InputProblemKind::LimitExceeded)
    {
        return None;
    }
    let newlines = count_lines(&game.bytes);
    let ends_line = game.bytes.last() == Some(&b'\n');
    Some(game.line + newlines + u64::from(!ends_line))
}
