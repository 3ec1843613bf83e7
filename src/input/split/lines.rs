//! What a line is, from its first bytes: blank, an escape or `;` comment line, a tag line,
//! and where the next game starts on the line of a termination marker.

use super::scan::{find_byte, is_space};

pub(in crate::input) fn is_bom_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i..i + 3) == Some(&[0xef, 0xbb, 0xbf][..])
}

/// Index of the first byte of the line at the front of `line` that is not white space or
/// a byte-order mark; `None` when the line (up to its `\n`) holds none.
pub(in crate::input) fn first_significant(line: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(&byte) = line.get(i) {
        if byte == b'\n' {
            return None;
        } else if is_space(byte) {
            i += 1;
        } else if byte == 0xef && is_bom_at(line, i) {
            i += 3;
        } else {
            return Some(i);
        }
    }
    None
}

/// `[Name "` at the start: a line that opens a tag pair (a name starts with a letter or a
/// digit, as `input.bad-tag` has it).
pub(in crate::input) fn looks_like_tag_line(line: &[u8]) -> bool {
    let mut i = 1;
    if line.first() != Some(&b'[') || !line.get(1).is_some_and(u8::is_ascii_alphanumeric) {
        return false;
    }
    while line
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    {
        i += 1;
    }
    while line.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
    }
    line.get(i) == Some(&b'"')
}

/// A blank line, an escape line or a `;` comment line: no part of a game when it stands
/// before one.
pub(in crate::input) fn is_between_games(line: &[u8]) -> bool {
    let first = first_significant(line);
    first.is_none_or(|i| line.get(i) == Some(&b';')) || line.first() == Some(&b'%')
}

/// A line of stray bytes (SPEC.md `input.stray-bytes`): not blank, but holding no ASCII
/// letter, digit, sign or PGN token character and no text (control characters, `0xFF`,
/// bytes that are not UTF-8). Returns whether every such byte is a DOS end-of-file byte
/// (`0x1A`), or `None` when the line is not stray.
pub(in crate::input) fn stray_line(line: &[u8]) -> Option<bool> {
    let text = line.get(..line_end(line, 0)).unwrap_or(line);
    if text.iter().any(|b| (0x21..=0x7e).contains(b)) {
        return None;
    }
    let is_blank = |c: char| c.is_whitespace() || c == '\u{feff}';
    if let Ok(text) = std::str::from_utf8(text)
        && text.chars().any(|c| !is_blank(c) && !c.is_control())
    {
        return None;
    }
    let mut stray = text.iter().filter(|&&b| !is_space(b)).peekable();
    stray.peek()?;
    Some(stray.all(|&b| b == 0x1a))
}

/// A line that holds only `}` and `)` (and white space): closers of nothing, which after a
/// game's termination marker make no game but belong to the game before it
/// (`input.unbalanced-brace`, `input.unbalanced-parenthesis`). Out of line: asked only of
/// the few lines after a marker.
#[cold]
#[inline(never)]
pub(in crate::input) fn closer_line(line: &[u8], first: Option<usize>) -> bool {
    let Some(first) = first else {
        return false;
    };
    matches!(line.get(first), Some(b'}' | b')'))
        && line
            .get(first..line_end(line, first))
            .unwrap_or_default()
            .iter()
            .all(|&b| matches!(b, b'}' | b')') || is_space(b))
}

/// Whether a line (its first significant byte at `first`) after a game's termination
/// marker starts the next game: anything but a blank line, an escape line or a `;`
/// comment line (which belongs to no game).
pub(in crate::input) fn starts_game_after_marker(line: &[u8], first: Option<usize>) -> bool {
    first.is_some_and(|i| line.get(i) != Some(&b';')) && line.first() != Some(&b'%')
}

/// Where the next game starts on the line of a termination marker that ended a game:
/// the first significant byte after `from`, unless it is a `;` comment (kept in the game),
/// `%` (not an escape line there: read as a word of the game), `[/` (a forum wrapper's
/// end, kept in the game as a bad tag line) or `0x1A` (stray bytes of the game).
pub(in crate::input) fn next_game_on_line(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let i = first_significant(rest)?;
    let starts = match rest.get(i..) {
        // A DOS end-of-file byte glued to the marker (`1-0\x1a`) starts nothing.
        Some([b';' | b'%' | 0x1a, ..] | [b'[', b'/', ..]) | None => false,
        Some(_) => true,
    };
    starts.then_some(from + i)
}

/// Where the line that holds `bytes[from]` ends: just past its `\n`, or at the end.
pub(in crate::input) fn line_end(bytes: &[u8], from: usize) -> usize {
    match find_byte(b'\n', bytes.get(from..).unwrap_or_default()) {
        Some(newline) => from + newline + 1,
        None => bytes.len(),
    }
}
