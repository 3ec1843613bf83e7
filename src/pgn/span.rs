//! `Span`: a byte range into a game's bytes (a token, a tag name or value) or into a line
//! being read, with one checked accessor.
//!
//! Every range the splitter records must lie in the bytes it is later applied to. In a
//! debug build (tests, fuzzing) a range that does not panics where it is used, so a span
//! bug fails loudly; in a release build it reads as empty rather than crash on untrusted
//! input.

/// `start..end` in bytes, `start <= end`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// The span `start..end` of a game's bytes (which never exceed `u32::MAX`, the size
    /// limit being far below it).
    pub fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end, "span {start}..{end} ends before it starts");
        Span {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The same span moved `by` bytes further (from a line's bytes to the game's).
    pub fn shifted(self, by: usize) -> Span {
        Span::new(self.start as usize + by, self.end as usize + by)
    }

    pub fn len(self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The bytes the span covers: the one way a span is read.
    pub fn of(self, bytes: &[u8]) -> &[u8] {
        let range = self.start as usize..self.end as usize;
        debug_assert!(
            range.start <= range.end && range.end <= bytes.len(),
            "span {range:?} outside {} bytes",
            bytes.len()
        );
        bytes.get(range).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::Span;

    #[test]
    fn a_span_reads_its_bytes() {
        assert_eq!(Span::new(1, 3).of(b"e4 e5"), b"4 ");
        assert_eq!(Span::new(2, 2).of(b"e4"), b"");
        assert_eq!(Span::new(0, 2).shifted(3).of(b"1. e4"), b"e4");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "outside")]
    fn a_span_past_the_bytes_fails_in_a_debug_build() {
        let _ = Span::new(1, 9).of(b"e4");
    }
}
