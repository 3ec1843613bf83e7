//! The splitter: one pass over a byte stream that finds game boundaries (SPEC.md "What a
//! game is"), numbers lines, and tokenises tags and movetext, so that no token can be lost
//! and every move knows its line. Chess is not its business: a `Word` token may or may not
//! be a move; the replay decides.

use std::io::{self, BufRead};
use std::sync::Arc;

use super::game::{InputProblem, InputProblemKind, RawGame, RawTag, Token, TokenKind};

/// Documented limits: a game past one of them is reported as `input.limit-exceeded`, the
/// moves read before the limit are kept, and the next game is read normally.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of one game (tags, movetext, comments).
    pub max_game_bytes: usize,
    /// Nesting depth of variations.
    pub max_depth: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_game_bytes: 8 * 1024 * 1024,
            max_depth: 256,
        }
    }
}

/// What a line after an overflow is read up to: enough to see whether it starts a game.
const OVERFLOW_PEEK: usize = 4096;

/// Annotation symbols that are skipped like NAGs (SPEC.md).
const GLYPHS: [&str; 15] = [
    "+-", "-+", "=", "+=", "=+", "±", "∓", "+/-", "-/+", "∞", "=/∞", "⩲", "⩱", "N", "D",
];

/// Splits a decompressed byte stream into games.
pub struct Splitter<R> {
    reader: R,
    file: Arc<str>,
    limits: Limits,
    /// The 1-based number of the next line to be read.
    next_line: u64,
    next_index: u64,
    /// The game being assembled and the tokeniser's state for it.
    game: Option<RawGame>,
    current: Builder,
    at_start: bool,
    done: bool,
    /// Bytes read so far (for the progress bar).
    bytes_read: u64,
    /// A read error, reported after the game in progress has been handed on.
    pending_error: Option<io::Error>,
    /// Bytes and tokens of the last game: a new game's buffers start at about this size,
    /// so that they are not grown (copied) line by line.
    size_hint: (usize, usize),
}

/// The tokeniser's state for the game being assembled.
#[derive(Default)]
struct Builder {
    has_tags: bool,
    has_movetext: bool,
    /// A termination marker was read outside variations.
    finished: bool,
    /// An open `{` comment: its start offset and line offset.
    open_comment: Option<(u32, u32)>,
    depth: u32,
    /// Past `max_game_bytes`: lines are only looked at for the next game's start.
    overflow: bool,
    /// A limit was hit: no further tokens are recorded.
    limit_hit: bool,
}

impl<R: BufRead> Splitter<R> {
    pub fn new(reader: R, file: Arc<str>, limits: Limits) -> Splitter<R> {
        Splitter {
            reader,
            file,
            limits,
            next_line: 1,
            next_index: 1,
            game: None,
            current: Builder::default(),
            at_start: true,
            done: false,
            bytes_read: 0,
            pending_error: None,
            size_hint: (0, 0),
        }
    }

    /// An empty game starting at `line`, its buffers sized after the last game.
    fn new_game(&self, line: u64) -> RawGame {
        let (bytes, tokens) = self.size_hint;
        RawGame {
            file: self.file.clone(),
            index: 0,
            global_index: 0,
            line,
            bytes: Vec::with_capacity((bytes + bytes / 2).clamp(1024, 64 * 1024)),
            tags: Vec::with_capacity(16),
            tokens: Vec::with_capacity((tokens + tokens / 2).clamp(64, 4096)),
            problems: Vec::new(),
        }
    }

    /// Bytes consumed from the (decompressed) stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads the next game; `Ok(None)` at the end of the stream.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        if self.done {
            return match self.pending_error.take() {
                Some(err) => Err(err),
                None => Ok(None),
            };
        }
        if self.at_start {
            self.at_start = false;
            if let Some(game) = self.check_encoding()? {
                self.done = true;
                return Ok(Some(game));
            }
        }
        loop {
            let line_no = self.next_line;
            if self.game.is_none() {
                self.game = Some(self.new_game(line_no));
            }
            let Some(game) = self.game.as_mut() else {
                continue;
            };
            let line_start = game.bytes.len();
            let cap = if self.current.overflow {
                OVERFLOW_PEEK
            } else {
                self.limits
                    .max_game_bytes
                    .saturating_sub(line_start)
                    .max(OVERFLOW_PEEK)
            };
            let (consumed, cut) = match read_line_capped(&mut self.reader, &mut game.bytes, cap) {
                Ok(read) => read,
                Err(err) => {
                    // Keep what was read (reported as truncated), then report the error.
                    self.done = true;
                    self.pending_error = Some(err);
                    return Ok(self.finish_current(true));
                }
            };
            self.bytes_read += consumed as u64;
            if consumed == 0 {
                self.done = true;
                return Ok(self.finish_current(true));
            }
            self.next_line += 1;
            if let Some(finished) = self.take_line(line_start, line_no, cut) {
                return Ok(Some(finished));
            }
        }
    }

    /// Looks at the first bytes: UTF-16/32 input is reported as one unreadable game.
    fn check_encoding(&mut self) -> io::Result<Option<RawGame>> {
        // A byte-order mark, or NUL-padded ASCII over the first several dozen bytes; one
        // NUL (a short input, a binary blob) is left to the splitter.
        if !super::encoding::looks_wide(self.reader.fill_buf()?) {
            return Ok(None);
        }
        let problems = vec![InputProblem {
            kind: InputProblemKind::UnsupportedEncoding,
            line: 0,
            detail: "the input is UTF-16 or UTF-32; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)"
                .to_string(),
        }];
        // Count what is skipped so the progress bar still reaches the end.
        loop {
            let len = self.reader.fill_buf()?.len();
            if len == 0 {
                break;
            }
            self.reader.consume(len);
            self.bytes_read += len as u64;
        }
        let index = self.next_index;
        self.next_index += 1;
        Ok(Some(RawGame {
            file: self.file.clone(),
            index,
            global_index: 0,
            line: 1,
            bytes: Vec::new(),
            tags: Vec::new(),
            tokens: Vec::new(),
            problems,
        }))
    }

    /// Handles the line just appended at `line_start`; returns a finished game when this
    /// line starts the next one.
    fn take_line(&mut self, line_start: usize, line_no: u64, cut: bool) -> Option<RawGame> {
        let game = self.game.as_mut()?;
        let line = game.bytes.get(line_start..).unwrap_or_default();
        let first = first_significant(line);
        let starts_tag = first.is_some_and(|i| line.get(i) == Some(&b'['));
        let looks_like_tag =
            first.is_some_and(|i| looks_like_tag_line(line.get(i..).unwrap_or_default()));

        let b = &self.current;
        let boundary = if b.overflow || b.open_comment.is_some() {
            // An open comment or an oversized game ends only where a new game clearly starts.
            looks_like_tag
        } else if starts_tag {
            b.has_movetext || b.finished
        } else {
            first.is_some() && b.finished && line.first() != Some(&b'%')
        };

        if boundary {
            let mut next = self.new_game(line_no);
            if let Some(game) = self.game.as_mut() {
                let line = game.bytes.get(line_start..).unwrap_or_default();
                next.bytes.extend_from_slice(line);
                game.bytes.truncate(line_start);
            }
            let finished = self.finish_current(false);
            self.game = Some(next);
            self.process_line(0, line_no, cut);
            return finished;
        }
        if self.current.overflow {
            if let Some(game) = self.game.as_mut() {
                game.bytes.truncate(line_start);
            }
            return None;
        }
        self.process_line(line_start, line_no, cut);
        None
    }

    /// Tokenises the line at `line_start` of the current game; the line that crosses the
    /// size limit is still tokenised (its moves are kept), then the limit is recorded.
    fn process_line(&mut self, line_start: usize, line_no: u64, cut: bool) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let line_offset = u32::try_from(line_no.saturating_sub(game.line)).unwrap_or(u32::MAX);
        let over = (cut || game.bytes.len() > self.limits.max_game_bytes) && !self.current.overflow;
        self.tokenise_line(line_start, line_offset);
        let b = &mut self.current;
        let Some(game) = self.game.as_mut() else {
            return;
        };
        if over {
            // A word the cut went through is not the word that was written.
            if cut
                && game.tokens.last().is_some_and(|t| {
                    t.end as usize == game.bytes.len() && t.kind != TokenKind::Comment
                })
            {
                game.tokens.pop();
            }
            b.overflow = true;
            let detail = format!(
                "the game is longer than {} MiB",
                self.limits.max_game_bytes / (1024 * 1024)
            );
            push_limit(&mut b.limit_hit, game, line_offset, detail);
        }
    }

    fn tokenise_line(&mut self, line_start: usize, line_offset: u32) {
        let b = &mut self.current;
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let end = game.bytes.len();
        let line = game.bytes.get(line_start..end).unwrap_or_default();
        let Some(first) = first_significant(line) else {
            return;
        };
        let mut from = line_start + first;
        if b.open_comment.is_none() {
            match line.get(first) {
                Some(b'%') if first == 0 => return,
                Some(b'[') => {
                    b.has_tags = true;
                    match parse_tag_line(game, from, end, line_offset) {
                        Some(movetext_start) => from = movetext_start,
                        None => return,
                    }
                }
                _ => {}
            }
        }
        lex_movetext(b, game, from, end, line_offset, &self.limits);
    }

    /// Completes the current game (if it holds anything) and numbers it.
    fn finish_current(&mut self, at_eof: bool) -> Option<RawGame> {
        let b = std::mem::take(&mut self.current);
        let mut game = self.game.take()?;
        if !b.has_tags && !b.has_movetext && game.problems.is_empty() {
            return None; // only blank or escape lines
        }
        // Past the size limit the closing `}` was never looked for: the limit says it all.
        if let Some((start, line)) = b.open_comment.filter(|_| !b.overflow) {
            let end = u32::try_from(game.bytes.len()).unwrap_or(u32::MAX);
            if !b.limit_hit {
                game.tokens.push(Token {
                    kind: TokenKind::Comment,
                    start,
                    end,
                    line,
                });
            }
            game.problems.push(InputProblem {
                kind: InputProblemKind::UnterminatedComment,
                line,
                detail: "a `{` comment is never closed; the moves before it are kept".to_string(),
            });
        } else if at_eof && !b.finished && !b.overflow {
            let line = game.tokens.last().map_or(0, |t| t.line);
            game.problems.push(InputProblem {
                kind: InputProblemKind::Truncated,
                line,
                detail: "the input ends inside this game (no termination marker)".to_string(),
            });
        }
        game.index = self.next_index;
        self.next_index += 1;
        self.size_hint = (game.bytes.len(), game.tokens.len());
        Some(game)
    }
}

/// Records a limit: a `Limit` problem, after which no tokens are kept.
fn push_limit(limit_hit: &mut bool, game: &mut RawGame, line: u32, detail: String) {
    if *limit_hit {
        return;
    }
    *limit_hit = true;
    game.problems.push(InputProblem {
        kind: InputProblemKind::LimitExceeded,
        line,
        detail,
    });
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

fn is_bom_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i..i + 3) == Some(&[0xef, 0xbb, 0xbf][..])
}

/// Index of the first byte that is not white space or a byte-order mark.
fn first_significant(line: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(&byte) = line.get(i) {
        if is_space(byte) {
            i += 1;
        } else if is_bom_at(line, i) {
            i += 3;
        } else {
            return Some(i);
        }
    }
    None
}

/// `[Name "` at the start: a line that opens a tag pair.
fn looks_like_tag_line(line: &[u8]) -> bool {
    let mut i = 1;
    if line.first() != Some(&b'[') || !line.get(1).is_some_and(u8::is_ascii_alphabetic) {
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

fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Parses the tag pairs of a line starting at `start` (a `[`). Returns where movetext
/// continues on the same line, if anything follows the last `]`.
fn parse_tag_line(game: &mut RawGame, start: usize, end: usize, line: u32) -> Option<usize> {
    let mut i = start;
    loop {
        match parse_one_tag(&game.bytes, i, end) {
            Ok((tag_name, value, next, repaired)) => {
                if repaired {
                    game.problems.push(InputProblem {
                        kind: InputProblemKind::UnescapedQuote,
                        line,
                        detail: format!(
                            "the value of tag {} holds unescaped quotes",
                            String::from_utf8_lossy(
                                game.text(offset(tag_name.0), offset(tag_name.1))
                            )
                        ),
                    });
                }
                game.tags.push(RawTag {
                    name: (offset(tag_name.0), offset(tag_name.1)),
                    value: (offset(value.0), offset(value.1)),
                    line,
                });
                let bytes = game.bytes.get(next..end).unwrap_or_default();
                match first_significant(bytes) {
                    None => return None,
                    Some(j) if bytes.get(j) == Some(&b'[') => i = next + j,
                    Some(j) => return Some(next + j),
                }
            }
            Err(()) => {
                let text = game.bytes.get(start..end).unwrap_or_default();
                let shown = String::from_utf8_lossy(text)
                    .trim_end()
                    .chars()
                    .take(60)
                    .collect::<String>();
                game.problems.push(InputProblem {
                    kind: InputProblemKind::Unreadable,
                    line,
                    detail: format!("malformed tag pair `{shown}`"),
                });
                return None;
            }
        }
    }
}

type Span = (usize, usize);

/// One `[Name "value"]` at `start`: the name, the raw value, where parsing stopped, and
/// whether unescaped inner quotes were repaired (the value runs to the last quote before `]`).
fn parse_one_tag(bytes: &[u8], start: usize, end: usize) -> Result<(Span, Span, usize, bool), ()> {
    let at = |i: usize| if i < end { bytes.get(i).copied() } else { None };
    let mut i = start + 1;
    while at(i).is_some_and(is_space) {
        i += 1;
    }
    let name_start = i;
    while at(i).is_some_and(|c| !is_space(c) && c != b'"' && c != b']') {
        i += 1;
    }
    let name = (name_start, i);
    if name.0 == name.1 {
        return Err(());
    }
    while at(i).is_some_and(is_space) {
        i += 1;
    }
    if at(i) != Some(b'"') {
        return Err(());
    }
    i += 1;
    let value_start = i;
    let mut repaired = false;
    while let Some(c) = at(i) {
        match c {
            b'\\' => i += 2,
            b'"' => {
                let mut j = i + 1;
                while at(j).is_some_and(|c| c == b' ' || c == b'\t') {
                    j += 1;
                }
                if at(j) == Some(b']') {
                    return Ok((name, (value_start, i), j + 1, repaired));
                }
                repaired = true;
                i += 1;
            }
            b'\n' => break,
            _ => i += 1,
        }
    }
    Err(())
}

/// Bytes that end a word (a move or another unclassified token).
fn ends_word(byte: u8) -> bool {
    is_space(byte)
        || matches!(
            byte,
            b'{' | b'}' | b'(' | b')' | b';' | b'$' | b'!' | b'?' | b'*'
        )
}

/// Tokenises movetext bytes `from..end` of one line.
fn lex_movetext(
    st: &mut Builder,
    game: &mut RawGame,
    from: usize,
    end: usize,
    line: u32,
    limits: &Limits,
) {
    let mut i = from;
    let push = |game: &mut RawGame, limit_hit: &bool, kind, start: usize, stop: usize| {
        if !*limit_hit {
            game.tokens.push(Token {
                kind,
                start: offset(start),
                end: offset(stop),
                line,
            });
        }
    };
    while i < end {
        if let Some((comment_start, comment_line)) = st.open_comment {
            let rest = game.bytes.get(i..end).unwrap_or_default();
            match memchr::memchr(b'}', rest) {
                Some(close) => {
                    let stop = i + close + 1;
                    if !st.limit_hit {
                        game.tokens.push(Token {
                            kind: TokenKind::Comment,
                            start: comment_start,
                            end: offset(stop),
                            line: comment_line,
                        });
                    }
                    st.open_comment = None;
                    i = stop;
                    continue;
                }
                None => return,
            }
        }
        let Some(&c) = game.bytes.get(i) else { return };
        if is_space(c) {
            i += 1;
            continue;
        }
        if c == 0xef && is_bom_at(&game.bytes, i) {
            i += 3;
            continue;
        }
        st.has_movetext = true;
        match c {
            b'{' => {
                st.open_comment = Some((offset(i), line));
                i += 1;
            }
            b';' => {
                let mut stop = end;
                while stop > i
                    && game
                        .bytes
                        .get(stop - 1)
                        .is_some_and(|&b| b == b'\n' || b == b'\r')
                {
                    stop -= 1;
                }
                push(game, &st.limit_hit, TokenKind::Comment, i, stop);
                return;
            }
            b'(' => {
                st.depth += 1;
                if st.depth > limits.max_depth {
                    let detail = format!(
                        "variations are nested deeper than {} levels",
                        limits.max_depth
                    );
                    push_limit(&mut st.limit_hit, game, line, detail);
                }
                push(game, &st.limit_hit, TokenKind::VariationStart, i, i + 1);
                i += 1;
            }
            b')' => {
                push(game, &st.limit_hit, TokenKind::VariationEnd, i, i + 1);
                st.depth = st.depth.saturating_sub(1);
                i += 1;
            }
            b'$' => {
                let mut j = i + 1;
                while j < end && game.bytes.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                let kind = if j > i + 1 {
                    TokenKind::Nag
                } else {
                    TokenKind::Word
                };
                push(game, &st.limit_hit, kind, i, j);
                i = j;
            }
            b'!' | b'?' => {
                let mut j = i + 1;
                if j < end && matches!(game.bytes.get(j), Some(b'!' | b'?')) {
                    j += 1;
                }
                push(game, &st.limit_hit, TokenKind::Nag, i, j);
                i = j;
            }
            b'*' => {
                push(game, &st.limit_hit, TokenKind::Result, i, i + 1);
                if st.depth == 0 {
                    st.finished = true;
                }
                i += 1;
            }
            b'}' => {
                push(game, &st.limit_hit, TokenKind::Word, i, i + 1);
                i += 1;
            }
            _ => {
                let rest = game.bytes.get(i..end).unwrap_or_default();
                let j = i + rest
                    .iter()
                    .position(|&b| ends_word(b))
                    .unwrap_or(rest.len());
                // A move number glued to its move (`1.e4`, `12...Nf6`) is split off.
                let word = game.bytes.get(i..j).unwrap_or_default();
                let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
                if digits > 0 && digits < word.len() && word.get(digits) == Some(&b'.') {
                    let dots = word.iter().skip(digits).take_while(|&&b| b == b'.').count();
                    push(
                        game,
                        &st.limit_hit,
                        TokenKind::MoveNumber,
                        i,
                        i + digits + dots,
                    );
                    i += digits + dots;
                    continue;
                }
                let kind = classify_word(word, digits);
                if kind == TokenKind::Result && st.depth == 0 {
                    st.finished = true;
                }
                push(game, &st.limit_hit, kind, i, j);
                i = j;
            }
        }
    }
}

/// A cheap first look that rules out nearly every move before the glyph list is searched:
/// glyphs are at most 5 bytes, and the letter ones (`N`, `D`) are one byte.
fn could_be_glyph(word: &[u8]) -> bool {
    match word {
        [b'N' | b'D'] => true,
        [first, ..] if word.len() <= 5 => matches!(first, b'+' | b'-' | b'=' | 0xc2 | 0xe2),
        _ => false,
    }
}

fn classify_word(word: &[u8], digits: usize) -> TokenKind {
    match word {
        b"1-0" | b"0-1" | b"1/2-1/2" => return TokenKind::Result,
        _ => {}
    }
    if word == "½-½".as_bytes() {
        return TokenKind::Result;
    }
    if digits == word.len() {
        return TokenKind::MoveNumber;
    }
    if could_be_glyph(word) && GLYPHS.iter().any(|g| g.as_bytes() == word) {
        return TokenKind::Glyph;
    }
    TokenKind::Word
}

/// Appends one line (up to and including `\n`) to `buf`, keeping at most `cap` bytes of it;
/// the rest of an over-long line is consumed and dropped. Returns the bytes consumed and
/// whether the line was cut.
fn read_line_capped<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<(usize, bool)> {
    let mut consumed = 0;
    let mut kept = 0;
    let mut cut = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok((consumed, cut));
        }
        let (chunk, done) = match memchr::memchr(b'\n', available) {
            Some(pos) => (available.get(..=pos).unwrap_or_default(), true),
            None => (available, false),
        };
        let room = cap.saturating_sub(kept);
        let take = chunk.len().min(room);
        buf.extend_from_slice(chunk.get(..take).unwrap_or_default());
        kept += take;
        if take < chunk.len() {
            cut = true;
        }
        let len = chunk.len();
        reader.consume(len);
        consumed += len;
        if done {
            return Ok((consumed, cut));
        }
    }
}
