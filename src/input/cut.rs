//! Where a stream may be cut into parts that the workers split each on its own.

use crate::pgn::Span;

use super::split::lines::{first_significant, looks_like_tag_line};
use super::split::tags::bracketless_tag;

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
