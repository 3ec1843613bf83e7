//! Line ends: a CR alone ends a line too (old Mac files), as LF and CRLF do. Such a
//! stream is read with each lone CR turned into `pgn::LONE_CR` (CR, CR, LF), so that the
//! splitter, the chunker and line numbers see one kind of line end (LF) while `select`
//! can still write the CR back; CRLF stays as it is. Only a stream whose first buffer
//! holds a lone CR is read this way: the others are handed through as they are.

use std::io::{self, BufRead, Read};

use crate::pgn::LONE_CR;

/// Whether `head` (the first bytes of a stream) holds a CR not followed by LF. A CR at its
/// very end cannot be told, and does not count.
pub fn has_lone_cr(head: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', head).any(|i| head.get(i + 1).is_some_and(|&next| next != b'\n'))
}

/// Reads `inner` as it is, or with every CR that is not followed by LF turned into
/// `LONE_CR` when its first buffer holds a lone CR (and is not UTF-16/32, which the splitter reports).
pub struct LineEnds<R> {
    inner: R,
    /// `None` until the first buffer has been looked at.
    translate: Option<bool>,
    buf: Vec<u8>,
    pos: usize,
    /// The last byte read was a CR, not yet written: what follows tells what it is.
    cr_pending: bool,
}

impl<R: BufRead> LineEnds<R> {
    pub fn new(inner: R) -> LineEnds<R> {
        LineEnds {
            inner,
            translate: None,
            buf: Vec::new(),
            pos: 0,
            cr_pending: false,
        }
    }

    /// As [`LineEnds::new`], with the decision `translates` made on the stream's first
    /// buffer as `new` would have seen it: for a stream whose buffer is then made smaller
    /// (`decompress::read_past`), so that the decision stays the same at any `--threads`.
    pub fn decided(inner: R, translate: bool) -> LineEnds<R> {
        LineEnds {
            translate: Some(translate),
            ..LineEnds::new(inner)
        }
    }
}

/// Whether a stream whose first buffer is `head` is read with its lone CRs translated.
pub fn translates(head: &[u8]) -> bool {
    has_lone_cr(head) && !super::encoding::looks_wide(head)
}

impl<R: BufRead> BufRead for LineEnds<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let translate = match self.translate {
            Some(translate) => translate,
            None => {
                let translate = translates(self.inner.fill_buf()?);
                self.translate = Some(translate);
                translate
            }
        };
        if !translate {
            return self.inner.fill_buf();
        }
        while self.pos >= self.buf.len() {
            self.buf.clear();
            self.pos = 0;
            let input = self.inner.fill_buf()?;
            let Some(&last) = input.last() else {
                if std::mem::take(&mut self.cr_pending) {
                    self.buf.extend_from_slice(LONE_CR);
                    continue;
                }
                break;
            };
            if std::mem::take(&mut self.cr_pending) {
                if input.first() == Some(&b'\n') {
                    self.buf.push(b'\r');
                } else {
                    self.buf.extend_from_slice(LONE_CR);
                }
            }
            let pending = last == b'\r';
            let body = input
                .get(..input.len() - usize::from(pending))
                .unwrap_or_default();
            let mut from = 0;
            for i in memchr::memchr_iter(b'\r', body) {
                // Every CR of `body` has a byte after it in `input`.
                if input.get(i + 1) != Some(&b'\n') {
                    self.buf
                        .extend_from_slice(body.get(from..i).unwrap_or_default());
                    self.buf.extend_from_slice(LONE_CR);
                    from = i + 1;
                }
            }
            self.buf
                .extend_from_slice(body.get(from..).unwrap_or_default());
            let used = input.len();
            self.inner.consume(used);
            self.cr_pending = pending;
        }
        Ok(self.buf.get(self.pos..).unwrap_or_default())
    }

    fn consume(&mut self, amount: usize) {
        if self.translate == Some(true) {
            self.pos = (self.pos + amount).min(self.buf.len());
        } else {
            self.inner.consume(amount);
        }
    }
}

impl<R: BufRead> Read for LineEnds<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.translate.is_none() {
            self.fill_buf()?;
        }
        if self.translate == Some(false) {
            // Straight through: a large read may bypass the inner buffer.
            return self.inner.read(out);
        }
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        if let (Some(to), Some(from)) = (out.get_mut(..n), available.get(..n)) {
            to.copy_from_slice(from);
        }
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use std::io::{BufReader, Read};

    use super::{LineEnds, has_lone_cr};

    /// Lone CRs become `LONE_CR` and CRLF stays, wherever the reads cut the stream (the
    /// first read holds a lone CR from capacity 3 on); `restore_lone_crs` undoes it.
    #[test]
    fn lone_crs_become_line_feeds_across_reads() {
        let input = b"a\rb\r\nc\r\rd\r";
        let expected = b"a\r\r\nb\r\nc\r\r\n\r\r\nd\r\r\n";
        for capacity in 3..=input.len() + 1 {
            let mut out = Vec::new();
            LineEnds::new(BufReader::with_capacity(capacity, &input[..]))
                .read_to_end(&mut out)
                .unwrap();
            assert_eq!(out, expected, "capacity {capacity}");
            assert_eq!(crate::pgn::restore_lone_crs(&out), input);
        }
        let mut out = Vec::new();
        LineEnds::new(&b"a\r\nb\r"[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"a\r\nb\r", "no lone CR in the first buffer: as it is");
        assert!(has_lone_cr(b"a\rb"));
        assert!(!has_lone_cr(b"a\r\nb\r"));
    }
}
