//! A game as the splitter hands it on: its bytes, where it stands, and its tokens.

use std::sync::Arc;

use super::Span;

/// How a lone CR line end (old Mac files) stands in a game's bytes: CR, CR, LF. The
/// reader hands it on so (`input::line_ends`): the splitter sees a line end it knows (LF,
/// after white space), and a writer of the original text gets the CR back
/// (`restore_lone_crs`), which no other byte sequence of the input can be mistaken for.
pub const LONE_CR: &[u8] = b"\r\r\n";

/// A game's bytes with each `LONE_CR` turned back into the CR it was.
pub fn restore_lone_crs(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut from = 0;
    for at in memchr::memmem::find_iter(bytes, LONE_CR) {
        out.extend_from_slice(bytes.get(from..at).unwrap_or_default());
        out.push(b'\r');
        from = at + LONE_CR.len();
    }
    out.extend_from_slice(bytes.get(from..).unwrap_or_default());
    out
}

/// One game's bytes and the tokens the splitter found in them.
#[derive(Debug, Clone)]
pub struct RawGame {
    /// The file name findings use (`-` for stdin).
    pub file: Arc<str>,
    /// 1-based index of the game within its file, counting every game.
    pub index: u64,
    /// 0-based index of the game within the whole input (for `--shard`).
    pub global_index: u64,
    /// 1-based line of the game's first byte in the decompressed stream.
    pub line: u64,
    /// The game's bytes as read (possibly cut at a limit).
    pub bytes: Vec<u8>,
    /// Tag pairs in input order.
    pub tags: Vec<RawTag>,
    /// Movetext tokens in input order (variations included). Move numbers are tokens only
    /// where the run keeps them (`Limits::move_numbers` of the splitter, for the outputs
    /// that show them as written); otherwise the token before one says so
    /// (`Token::number_follows`).
    pub tokens: Vec<Token>,
    /// What went wrong while reading the bytes (not the chess).
    pub problems: Vec<InputProblem>,
}

impl RawGame {
    /// Empties the game for reuse as a new one starting at `line`, keeping its buffers'
    /// capacity. (Every field is named, so a new field cannot be forgotten here.)
    pub fn reset(&mut self, file: Arc<str>, line: u64) {
        let RawGame {
            file: old_file,
            index,
            global_index,
            line: old_line,
            bytes,
            tags,
            tokens,
            problems,
        } = self;
        *old_file = file;
        *index = 0;
        *global_index = 0;
        *old_line = line;
        bytes.clear();
        tags.clear();
        tokens.clear();
        problems.clear();
    }

    /// The bytes of a token or tag part.
    pub fn text(&self, span: Span) -> &[u8] {
        span.of(&self.bytes)
    }

    /// The token's text as written in the file.
    pub fn token_text(&self, token: &Token) -> &[u8] {
        token.span.of(&self.bytes)
    }

    /// The absolute line of a token.
    pub fn token_line(&self, token: &Token) -> u64 {
        self.line + u64::from(token.line)
    }
}

/// A game made in a test from tag lines alone, without the splitter: `rules` reads games
/// but may not name `input` (`src/layers.rs`), even in its tests.
#[cfg(test)]
impl RawGame {
    /// The game of `text`, each `[Name "value"]` line a tag (its value still escaped, as
    /// the splitter leaves it); other lines are bytes of the game and no tag.
    pub fn of_tag_lines(text: &[u8]) -> RawGame {
        let mut tags = Vec::new();
        let mut start = 0;
        for (line, bytes) in (0u32..).zip(text.split_inclusive(|&b| b == b'\n')) {
            let tag = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            let space = tag.iter().position(|&b| b == b' ');
            let quote = tag.iter().position(|&b| b == b'"');
            if let (true, true, Some(space), Some(quote)) =
                (tag.starts_with(b"["), tag.ends_with(b"\"]"), space, quote)
            {
                tags.push(RawTag {
                    name: Span::new(start + 1, start + space),
                    value: Span::new(start + quote + 1, start + tag.len() - 2),
                    line,
                });
            }
            start += bytes.len();
        }
        RawGame {
            file: "-".into(),
            index: 1,
            global_index: 0,
            line: 1,
            bytes: text.to_vec(),
            tags,
            tokens: Vec::new(),
            problems: Vec::new(),
        }
    }
}

/// `[Name "value"]`: byte ranges into the game's bytes.
#[derive(Debug, Clone, Copy)]
pub struct RawTag {
    pub name: Span,
    /// The value between the quotes, still escaped (`\"`, `\\`).
    pub value: Span,
    /// Line offset from the game's first line.
    pub line: u32,
}

/// The tokens of a game read with its move numbers kept as tokens as the splitter gives
/// them without: each number's token left out, the token before it marked
/// (`Token::number_follows`; a number before the first token marks none). What the tests
/// and the fuzz target hold the splitter's two ways to.
pub fn numbers_as_marks(tokens: &[Token]) -> Vec<Token> {
    let mut marked: Vec<Token> = Vec::with_capacity(tokens.len());
    for token in tokens {
        if token.kind != TokenKind::MoveNumber {
            marked.push(*token);
        } else if let Some(before) = marked.last_mut() {
            before.number_follows = true;
        }
    }
    marked
}

/// A movetext token: a byte range into the game and its line offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    /// A move number that is no token of its own (move numbers not kept) stands between
    /// this token and the next: what is read of the token after this one (a promotion
    /// piece, an en passant mark, a check sign apart) is read as if the number's token
    /// stood there. (It fills the token's padding: the list's memory is the same.)
    pub number_follows: bool,
    pub span: Span,
    /// Line offset from the game's first line.
    pub line: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Anything that is not one of the kinds below: a move, or a token that means no move.
    Word,
    /// `12.`, `12...`, `12`.
    MoveNumber,
    /// `$12`, `!`, `?`, `!!`, `??`, `!?`, `?!`.
    Nag,
    /// An annotation symbol such as `+-`, `=`, `±`, `N` or `D` (skipped like a NAG).
    Glyph,
    /// `{ ... }` (braces included) or `; ...` to the end of the line.
    Comment,
    VariationStart,
    VariationEnd,
    /// `1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`.
    Result,
}

/// A defect in the bytes of a game, found by the splitter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputProblem {
    pub kind: InputProblemKind,
    /// Line offset from the game's first line.
    pub line: u32,
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputProblemKind {
    /// A `{` comment runs to the end of the game or file.
    UnterminatedComment,
    /// The input ends inside the game.
    Truncated,
    /// A tag value with unescaped quotes was repaired.
    UnescapedQuote,
    /// A tag line that could not be read; the game cannot be trusted.
    Unreadable,
    /// A tag line that is not `[Name "value"]` was repaired or skipped.
    BadTag,
    /// A `)` that closes no variation, or a `(` never closed.
    UnbalancedParenthesis,
    /// A `}` that closes no comment.
    UnbalancedBrace,
    /// Lines between games that hold no PGN text (control characters, `0xFF`, ...).
    StrayBytes,
    /// UTF-16 or UTF-32 input.
    UnsupportedEncoding,
    /// The game went past a documented limit (size, nesting).
    LimitExceeded,
    /// A NAG written with a backslash (`\$14`) was read as the NAG.
    EscapedNag,
}
