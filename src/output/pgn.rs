//! The PGN writer: tags in roster order, movetext with move numbers where a reader needs
//! them, wrapped at 80 columns; moves in SAN, UCI or LAN.

use std::io::{self, Write};

use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position, Role};

/// The seven tags every PGN game carries first, in this order.
pub const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Movetext lines stay within this many columns.
pub const LINE_WIDTH: usize = 80;

/// `--moves`: how moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoveStyle {
    /// Standard algebraic notation with `+`/`#` (`Nf3`, `exd5`, `e8=Q+`).
    #[default]
    San,
    /// UCI (`g1f3`, `e7e8q`; Chess960 castling as king takes rook).
    Uci,
    /// Long algebraic (`Ng1-f3`, `e4xd5`, `e7-e8=Q`) with `+`/`#`.
    Lan,
}

/// The text of a legal move `m` in `pos` (before it is played).
pub fn move_text(pos: &Chess, m: Move, style: MoveStyle) -> String {
    match style {
        MoveStyle::San => SanPlus::from_move(pos.clone(), m).to_string(),
        MoveStyle::Uci => m.to_uci(pos.castles().mode()).to_string(),
        MoveStyle::Lan => lan(pos, m),
    }
}

fn lan(pos: &Chess, m: Move) -> String {
    let suffix = SanPlus::from_move(pos.clone(), m)
        .suffix
        .map_or(String::new(), |s| s.char().to_string());
    if let Move::Castle { king, rook } = m {
        let side = if rook.file() > king.file() {
            "O-O"
        } else {
            "O-O-O"
        };
        return format!("{side}{suffix}");
    }
    let piece = match m.role() {
        Role::Pawn => String::new(),
        role => role.upper_char().to_string(),
    };
    let from = m.from().map_or(String::new(), |sq| sq.to_string());
    let sep = if m.is_capture() { 'x' } else { '-' };
    let promotion = m
        .promotion()
        .map_or(String::new(), |r| format!("={}", r.upper_char()));
    format!("{piece}{from}{sep}{}{promotion}{suffix}", m.to())
}

/// The tags in export order: the roster first (missing ones as `?`, Date as
/// `????.??.??`, Result as `result`), then the others in input order. A repeated roster
/// tag keeps its last value (the one that counts, SPEC.md `tag.duplicate`).
pub fn ordered_tags(pairs: &[(String, String)], result: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = ROSTER
        .iter()
        .map(|&name| {
            let value = pairs
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| match name {
                    "Date" => "????.??.??".to_string(),
                    "Result" => result.to_string(),
                    _ => "?".to_string(),
                });
            (name.to_string(), value)
        })
        .collect();
    out.extend(
        pairs
            .iter()
            .filter(|(n, _)| !ROSTER.contains(&n.as_str()))
            .cloned(),
    );
    out
}

/// Movetext being built: words, with move numbers added where a reader needs them.
#[derive(Debug, Default)]
pub struct Movetext {
    /// The words, each after a single space (one `String` per word took ten times the
    /// bytes of a long game); `write_game` wraps at the spaces.
    words: String,
    /// A Black move needs its `N...` number (start of a line, after a comment or variation).
    need_number: bool,
    /// `(` waiting to be glued to the next word.
    open: usize,
    /// `need_number` before the first waiting `(`: an empty variation (`1. d4 () d5`)
    /// writes nothing, so it must not add a number either (`1... d5` would not convert to
    /// itself).
    need_number_before_open: bool,
}

impl Movetext {
    pub fn new() -> Movetext {
        Movetext {
            need_number: true,
            ..Movetext::default()
        }
    }

    fn push(&mut self, word: &str) {
        self.words.push(' ');
        for _ in 0..self.open {
            self.words.push('(');
        }
        self.open = 0;
        self.words.push_str(word);
    }

    /// A move written as `text`, played from `before`.
    pub fn push_move(&mut self, before: &Chess, text: String) {
        let number = before.fullmoves();
        if before.turn().is_white() {
            self.push(&format!("{number}."));
        } else if self.need_number {
            self.push(&format!("{number}..."));
        }
        self.push(&text);
        self.need_number = false;
    }

    /// `$N` (`N` as written when it is past 255).
    pub fn push_nag(&mut self, nag: impl std::fmt::Display) {
        self.push(&format!("${nag}"));
    }

    /// `{ text }`, whitespace collapsed so that the writer may wrap it.
    pub fn push_comment(&mut self, text: &str) {
        if text.split_whitespace().next().is_none() {
            return;
        }
        self.push("{");
        for word in text.split_whitespace() {
            self.words.push(' ');
            self.words
                .extend(word.chars().map(|c| if c == '}' { ')' } else { c }));
        }
        self.push("}");
        self.need_number = true;
    }

    pub fn start_variation(&mut self) {
        if self.open == 0 {
            self.need_number_before_open = self.need_number;
        }
        self.open += 1;
        self.need_number = true;
    }

    pub fn end_variation(&mut self) {
        if self.open > 0 {
            // An empty variation writes nothing.
            self.open -= 1;
            if self.open == 0 {
                self.need_number = self.need_number_before_open;
            }
            return;
        }
        if !self.words.is_empty() {
            self.words.push(')');
        }
        self.need_number = true;
    }

    /// The termination marker ends the movetext.
    pub fn push_result(&mut self, result: &str) {
        self.open = 0;
        self.push(result);
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes one game: tag pairs, a blank line, the wrapped movetext, a blank line.
pub fn write_game(
    out: &mut impl Write,
    tags: &[(String, String)],
    movetext: &Movetext,
) -> io::Result<()> {
    for (name, value) in tags {
        writeln!(out, "[{name} \"{}\"]", escape(value))?;
    }
    writeln!(out)?;
    let mut line_len = 0usize;
    for word in movetext.words.split(' ').filter(|word| !word.is_empty()) {
        let width = word.chars().count();
        if line_len > 0 && line_len + 1 + width > LINE_WIDTH {
            writeln!(out)?;
            line_len = 0;
        }
        if line_len > 0 {
            out.write_all(b" ")?;
            line_len += 1;
        }
        out.write_all(word.as_bytes())?;
        line_len += width;
    }
    writeln!(out)?;
    writeln!(out)
}

/// The castling mode a game from this position is played in (for UCI of castling moves).
pub fn castling_mode(pos: &Chess) -> CastlingMode {
    pos.castles().mode()
}

/// A UTF-8 byte-order mark: a file's, never a game's (SPEC.md "select output").
const BOM: &[u8] = b"\xef\xbb\xbf";

/// A game's original text: its bytes through the line break that ends its last non-blank
/// line (`\n` when the input ends without one), then one empty line in the game's own
/// line ending, LF, CRLF or CR (SPEC.md "select output"). A lone CR, which the reader
/// hands on as `LONE_CR`, is written back as the CR it was; a file's byte-order mark in
/// front of the game is left out.
pub fn write_original(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let restored;
    let bytes = if memchr::memmem::find(bytes, crate::pgn::LONE_CR).is_some() {
        restored = crate::pgn::restore_lone_crs(bytes);
        &restored[..]
    } else {
        bytes
    };
    let Some(last) = bytes.iter().rposition(|b| !b.is_ascii_whitespace()) else {
        return Ok(());
    };
    let rest = bytes.get(last + 1..).unwrap_or_default();
    let spaces = rest
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    let after = rest.get(spaces..).unwrap_or_default();
    let break_len = if after.starts_with(b"\r\n") {
        2
    } else {
        usize::from(after.first().is_some_and(|b| *b == b'\n' || *b == b'\r'))
    };
    // The game's line ending: that of its first line.
    let line_end: &[u8] = match memchr::memchr2(b'\r', b'\n', bytes) {
        Some(i) if bytes.get(i) == Some(&b'\r') && bytes.get(i + 1) == Some(&b'\n') => b"\r\n",
        Some(i) if bytes.get(i) == Some(&b'\r') => b"\r",
        _ => b"\n",
    };
    out.write_all(
        bytes
            .get(..last + 1 + spaces + break_len)
            .unwrap_or_default(),
    )?;
    if break_len == 0 {
        out.write_all(b"\n")?;
    }
    out.write_all(line_end)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::write_original;

    #[test]
    fn games_end_with_their_line_break_and_one_empty_line() {
        for (game, written) in [
            (&b"1. e4 *  \r\n\r\n"[..], &b"1. e4 *  \r\n\r\n"[..]),
            (b"1. e4 *", b"1. e4 *\n\n"),
            (b"\xef\xbb\xbf1. e4 *\n", b"1. e4 *\n\n"),
            (
                b"[Event \"A\"]\r\r\n\r\r\n1. e4 *\r\r\n",
                b"[Event \"A\"]\r\r1. e4 *\r\r",
            ),
        ] {
            let mut out = Vec::new();
            write_original(&mut out, game).unwrap();
            assert_eq!(out, written, "{:?}", String::from_utf8_lossy(game));
        }
    }
}
