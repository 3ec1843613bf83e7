//! Following a game's bytes past its size limit without keeping them, byte by byte (the
//! bytes may come in pieces of any size), so that its termination marker still ends it.

use super::Builder;
use super::lexer::marker_len;
use super::scan::{ends_word, is_space};

/// The last bytes of a word that `Skip` keeps: enough for the longest termination marker
/// (`1/2–1/2`, 9 bytes) and the two before it (a glued marker, `lex_movetext`).
const WORD_KEPT: usize = 11;

/// Follows the bytes of a game past its size limit without keeping them, so that its
/// termination marker is seen: the lexer of `lex_movetext` reduced to what can end a game
/// (comments, variations, results), byte by byte, so that the bytes may come in pieces of
/// any size. The game's `Builder` holds the open comment, the depth and `finished`.
#[derive(Default, Clone, Copy)]
pub(super) struct Skip {
    mode: SkipMode,
    /// The last `WORD_KEPT` bytes of the word being read (its first ones while it is
    /// short), and its length.
    word: [u8; WORD_KEPT],
    word_len: usize,
    /// The word so far is all digits (a move number when a `.` follows).
    digits: bool,
    /// The word starts with a digit (no marker is glued to it).
    first_digit: bool,
    /// The word started the line (after a byte-order mark the line has not started yet).
    word_starts_line: bool,
    /// In a tag line: inside a quoted value, and just after its `\\`.
    quoted: bool,
    escaped: bool,
}

#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum SkipMode {
    /// The first byte of a line.
    #[default]
    LineStart,
    /// Only white space or byte-order marks read on this line so far.
    Indent,
    /// Between tokens.
    Between,
    Word,
    /// The dots after a move number.
    Dots,
    /// The digits after a `$`.
    Nag,
    /// A `;` comment or an escape line, up to the end of the line.
    RestOfLine,
    /// A tag pair (well formed or not), up to its `]` outside quotes: then more tag pairs
    /// or movetext, as `parse_tag_line` reads them.
    TagLine,
    /// Just after a `[` in movetext: `[/` starts a tag pair (a forum wrapper's end).
    Bracket,
}

impl Skip {
    /// Follows the next `bytes` of the skipped lines of the game whose state is `b`.
    pub(super) fn scan(&mut self, b: &mut Builder, bytes: &[u8]) {
        let mut i = 0;
        while let Some(&byte) = bytes.get(i) {
            let rest = bytes.get(i..).unwrap_or_default();
            if b.open_comment.is_some() {
                let Some(close) = memchr::memchr(b'}', rest) else {
                    return;
                };
                b.open_comment = None;
                self.mode = SkipMode::Between;
                i += close + 1;
            } else if self.mode == SkipMode::RestOfLine {
                let Some(newline) = memchr::memchr(b'\n', rest) else {
                    return;
                };
                self.mode = SkipMode::LineStart;
                i += newline + 1;
            } else if self.step(b, byte) {
                i += 1;
            }
        }
    }

    /// Follows one byte outside comments; returns whether it was used (else it is looked
    /// at again, in the mode it led to).
    fn step(&mut self, b: &mut Builder, byte: u8) -> bool {
        match self.mode {
            SkipMode::Word => {
                if ends_word(byte) {
                    self.end_word(b);
                    self.mode = SkipMode::Between;
                    return false;
                }
                if byte == b'.' && self.digits && self.word_len > 0 {
                    // A move number glued to what follows (`12.1-0` holds a result).
                    self.mode = SkipMode::Dots;
                    return true;
                }
                if let Some(slot) = self.word.get_mut(self.word_len) {
                    *slot = byte;
                } else {
                    self.word.copy_within(1.., 0);
                    if let Some(last) = self.word.last_mut() {
                        *last = byte;
                    }
                }
                self.word_len = self.word_len.saturating_add(1);
                self.digits &= byte.is_ascii_digit();
                if self.word_len == 3 && self.word.starts_with(&[0xef, 0xbb, 0xbf]) {
                    // A byte-order mark, skipped like white space.
                    self.mode = if self.word_starts_line {
                        SkipMode::Indent
                    } else {
                        SkipMode::Between
                    };
                }
                true
            }
            SkipMode::Dots | SkipMode::Nag => {
                let more = if self.mode == SkipMode::Dots {
                    byte == b'.'
                } else {
                    byte.is_ascii_digit()
                };
                if !more {
                    self.mode = SkipMode::Between;
                }
                more
            }
            SkipMode::RestOfLine => {
                if byte == b'\n' {
                    self.mode = SkipMode::LineStart;
                }
                true
            }
            SkipMode::LineStart | SkipMode::Indent | SkipMode::Between => {
                if byte == b'\n' {
                    self.mode = SkipMode::LineStart;
                    return true;
                }
                let line_start = self.mode != SkipMode::Between;
                if is_space(byte) {
                    if line_start {
                        self.mode = SkipMode::Indent;
                    }
                    return true;
                }
                // An escape line, or a tag line that did not start the next game: not
                // movetext.
                if byte == b'%' && self.mode == SkipMode::LineStart {
                    self.mode = SkipMode::RestOfLine;
                    return true;
                }
                if byte == b'[' && line_start {
                    self.start_tag();
                    return true;
                }
                if byte == b'.' {
                    // Periods that start a word belong to a move number (`lex_movetext`).
                    self.mode = SkipMode::Dots;
                    return true;
                }
                if !ends_word(byte) {
                    self.mode = SkipMode::Word;
                    self.word_len = 0;
                    self.digits = true;
                    self.first_digit = byte.is_ascii_digit();
                    self.word_starts_line = line_start;
                    return false;
                }
                self.mode = SkipMode::Between;
                match byte {
                    b'{' => b.open_comment = Some((0, 0)),
                    b';' => self.mode = SkipMode::RestOfLine,
                    b'(' => b.depth = b.depth.saturating_add(1),
                    b')' => b.depth = b.depth.saturating_sub(1),
                    b'*' => b.finished |= b.depth == 0,
                    b'$' => self.mode = SkipMode::Nag,
                    b'[' => self.mode = SkipMode::Bracket,
                    _ => {}
                }
                true
            }
            SkipMode::Bracket => {
                if byte == b'/' {
                    self.start_tag();
                    return true;
                }
                self.mode = SkipMode::Between;
                false
            }
            SkipMode::TagLine => {
                if byte == b'\n' {
                    self.mode = SkipMode::LineStart;
                } else if self.escaped {
                    self.escaped = false;
                } else if self.quoted {
                    match byte {
                        b'\\' => self.escaped = true,
                        b'"' => self.quoted = false,
                        _ => {}
                    }
                } else if byte == b'"' {
                    self.quoted = true;
                } else if byte == b']' {
                    // More tag pairs or movetext may follow on the line.
                    self.mode = SkipMode::Indent;
                }
                true
            }
        }
    }

    /// A tag pair starts (its `[` read).
    fn start_tag(&mut self) {
        self.mode = SkipMode::TagLine;
        self.quoted = false;
        self.escaped = false;
    }

    /// A word ended: a result outside variations finishes the game.
    fn end_word(&self, b: &mut Builder) {
        let kept = self
            .word
            .get(..self.word_len.min(WORD_KEPT))
            .unwrap_or_default();
        // The whole word, or (not after a digit) a marker glued to a move.
        let result = marker_len(kept, !self.first_digit).is_some();
        if result && b.depth == 0 {
            b.finished = true;
        }
    }
}
