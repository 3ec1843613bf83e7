//! Telling UTF-16 and UTF-32 input (which the splitter cannot read) from ordinary text by
//! its first bytes. Decoding text in the encoding `--encoding` names is `pgn::TextDecoder`.

/// Bytes looked at to tell UTF-16 or UTF-32 text without a byte-order mark.
pub const WIDE_WINDOW: usize = 64;
/// A head shorter than this is too short to tell: it is read as ordinary text.
const WIDE_MIN: usize = 16;

/// Whether the first bytes of an input are UTF-16 or UTF-32: a byte-order mark, or text in
/// which nearly every code unit over the first several dozen bytes is an ASCII character
/// padded with NULs (`[ \0E\0v\0` ...). One NUL after the first byte is not enough: short
/// inputs and binary blobs go to the splitter, which reports what it cannot read.
pub fn looks_wide(head: &[u8]) -> bool {
    let bom = head.starts_with(&[0xff, 0xfe])
        || head.starts_with(&[0xfe, 0xff])
        || head.starts_with(&[0, 0, 0xfe, 0xff]);
    let window = head.get(..WIDE_WINDOW).unwrap_or(head);
    bom || (window.len() >= WIDE_MIN
        // (code unit size, position of the byte that holds the character): UTF-16LE,
        // UTF-16BE, UTF-32LE, UTF-32BE.
        && [(2, 0), (2, 1), (4, 0), (4, 3)]
            .into_iter()
            .any(|(size, low)| ascii_in_units(window, size, low)))
}

/// Whether at least 7 in 8 of the whole code units of `window` are an ASCII character
/// (printable, tab, CR or LF) in byte `low` and NULs elsewhere; the rest may be other
/// characters (a name with an accent).
fn ascii_in_units(window: &[u8], size: usize, low: usize) -> bool {
    let units = window.chunks_exact(size);
    let total = units.len();
    let ascii = units
        .filter(|unit| {
            unit.iter().enumerate().all(|(i, &byte)| {
                if i == low {
                    matches!(byte, b'\t' | b'\n' | b'\r' | 0x20..=0x7e)
                } else {
                    byte == 0
                }
            })
        })
        .count();
    total > 0 && ascii * 8 >= total * 7
}

#[cfg(test)]
mod tests {
    use super::looks_wide;

    const PGN: &str = "[Event \"Ljubojević Memorial\"]\n[Site \"?\"]\n\n1. e4 e5 *\n";

    fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
        text.encode_utf16()
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    }

    fn utf32(text: &str, big_endian: bool) -> Vec<u8> {
        text.chars()
            .flat_map(|c| {
                let c = u32::from(c);
                if big_endian {
                    c.to_be_bytes()
                } else {
                    c.to_le_bytes()
                }
            })
            .collect()
    }

    #[test]
    fn wide_text_is_told_with_or_without_a_bom() {
        for big_endian in [false, true] {
            assert!(looks_wide(&utf16(PGN, big_endian)), "UTF-16 {big_endian}");
            assert!(looks_wide(&utf32(PGN, big_endian)), "UTF-32 {big_endian}");
        }
        assert!(looks_wide(&utf16("\u{feff}*", false)));
        assert!(looks_wide(&utf16("\u{feff}*", true)));
        assert!(looks_wide(&utf32("\u{feff}*", true)));
    }

    #[test]
    fn one_nul_is_not_wide_text() {
        assert!(!looks_wide(PGN.as_bytes()));
        assert!(!looks_wide(b"e\0"));
        assert!(!looks_wide(b"\0e"));
        assert!(!looks_wide(b"1\0. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n"));
        // A binary blob: a little-endian count, then anything.
        let blob: Vec<u8> = [7, 0, 0, 0].into_iter().chain((0..=255).rev()).collect();
        assert!(!looks_wide(&blob));
        assert!(!looks_wide(&[0; 64]));
    }
}
