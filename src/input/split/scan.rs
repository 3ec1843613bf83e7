//! Byte classes and word-at-a-time (SWAR) search: the splitter's inner loops look at eight
//! bytes at once where a line is long, and fall back to `memchr` past a short prefix.

/// Byte classes: white space ...
pub(in crate::input) const SPACE: u8 = 1;
/// ... a byte that ends a word (white space included) ...
pub(in crate::input) const STOP: u8 = 2;
/// ... an ASCII digit ...
pub(in crate::input) const DIGIT: u8 = 4;
/// ... a byte that starts a glyph or `½-½` ...
pub(in crate::input) const GLYPH_START: u8 = 8;
/// ... a byte that ends a tag name ...
pub(in crate::input) const NAME_END: u8 = 16;
/// ... and a byte a tag name may hold: an ASCII letter or digit, or `_`.
pub(in crate::input) const NAME_CHAR: u8 = 32;

/// The class bits of every byte.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build"
)]
pub(in crate::input) const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let class = match byte as u8 {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => SPACE | STOP | NAME_END,
            // A DOS end-of-file byte ends a word: `1-0\x1a` is the marker, then that byte.
            b'{' | b'}' | b'(' | b')' | b';' | b'$' | b'!' | b'?' | b'*' | b'[' | 0x1a => STOP,
            b'0'..=b'9' => DIGIT,
            b'+' | b'-' | b'=' | b'N' | b'D' | 0xc2 | 0xe2 => GLYPH_START,
            b'"' | b']' => NAME_END,
            _ => 0,
        };
        let name = match byte as u8 {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' => NAME_CHAR,
            _ => 0,
        };
        table[byte] = class | name;
        byte += 1;
    }
    table
};

pub(in crate::input) fn class(byte: u8) -> u8 {
    CLASSES.get(usize::from(byte)).copied().unwrap_or(0)
}

pub(in crate::input) fn is_space(byte: u8) -> bool {
    class(byte) & SPACE != 0
}

/// Bytes that end a word (a move or another unclassified token).
pub(in crate::input) fn ends_word(byte: u8) -> bool {
    class(byte) & STOP != 0
}

/// Eight bytes at once (SWAR): `ONES` has 1 in every byte, `HIGHS` the top bit of every
/// byte. Of the masks below only the lowest set bit is exact; higher ones may be false
/// alarms (a borrow), so every hit is checked or only the first one is used.
pub(in crate::input) const ONES: u64 = 0x0101_0101_0101_0101;
pub(in crate::input) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `x` that is zero (the lowest one exact).
pub(in crate::input) fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The top bit of each byte of `x` equal to `byte` (the lowest one exact).
pub(in crate::input) fn bytes_equal(x: u64, byte: u8) -> u64 {
    zero_bytes(x ^ (ONES * u64::from(byte)))
}

/// The first `byte` in `hay`: the first 32 bytes eight at a time, the rest with `memchr`
/// (whose set-up costs more than a short search).
pub(in crate::input) fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < 32 {
        let Some(chunk) = hay.get(at..).and_then(|rest| rest.first_chunk::<8>()) else {
            break;
        };
        let hits = bytes_equal(u64::from_le_bytes(*chunk), byte);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = hay.get(at..)?;
    memchr::memchr(byte, rest).map(|found| at + found)
}

/// The first `}` or `\n` in `hay` and which it is: like `find_byte`.
pub(in crate::input) fn find_close(hay: &[u8]) -> Option<(usize, u8)> {
    let mut at = 0;
    let found = loop {
        if at >= 32 {
            break memchr::memchr2(b'}', b'\n', hay.get(at..)?).map(|found| at + found);
        }
        let Some(chunk) = hay.get(at..).and_then(|rest| rest.first_chunk::<8>()) else {
            break memchr::memchr2(b'}', b'\n', hay.get(at..)?).map(|found| at + found);
        };
        let x = u64::from_le_bytes(*chunk);
        let hits = bytes_equal(x, b'}') | bytes_equal(x, b'\n');
        if hits != 0 {
            break Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }?;
    Some((found, *hay.get(found)?))
}

/// Length of the word at the start of `rest`, whose first byte does not end a word.
pub(in crate::input) fn word_len(rest: &[u8]) -> usize {
    // Most words (moves, move numbers) end within their first eight bytes, at a byte that
    // ends words for certain: one look at eight bytes finds it without a loop whose exit
    // the branch predictor misses once a word.
    if let Some(chunk) = rest.first_chunk::<8>() {
        let x = u64::from_le_bytes(*chunk);
        let hits = word_end_candidates(x);
        let shift = hits.trailing_zeros() & !7;
        if hits != 0 && ends_word((x >> shift) as u8) {
            return (shift / 8) as usize;
        }
        return long_word_len(rest);
    }
    rest.iter()
        .position(|&b| ends_word(b))
        .unwrap_or(rest.len())
}

/// The top bit of each byte of `x` that may end a word: every byte that does is below
/// `+`, or `;`/`?` (`x | 4` is `?`), or `[`/`{`/`}` (`x | 0x26` is 0x7f); the few other
/// bytes these let through are checked. The lowest bit is exact.
fn word_end_candidates(x: u64) -> u64 {
    let below = x.wrapping_sub(ONES * 0x2b) & !x & HIGHS;
    below | bytes_equal(x | (ONES * 0x04), b'?') | bytes_equal(x | (ONES * 0x26), 0x7f)
}

/// `word_len` eight bytes at a time.
fn long_word_len(rest: &[u8]) -> usize {
    let mut at = 0;
    while let Some(chunk) = rest.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*chunk);
        let mut hits = word_end_candidates(x);
        while hits != 0 {
            let shift = hits.trailing_zeros() & !7;
            if ends_word((x >> shift) as u8) {
                return at + (shift / 8) as usize;
            }
            hits &= hits - 1;
        }
        at += 8;
    }
    // Fewer than eight bytes are left.
    let tail = rest.get(at..).unwrap_or_default();
    at + tail
        .iter()
        .position(|&b| ends_word(b))
        .unwrap_or(tail.len())
}
