//! The splitter: one pass over a byte stream that finds game boundaries (SPEC.md "What a
//! game is"), numbers lines, and tokenises tags and movetext, so that no token can be lost
//! and every move knows its line. Chess is not its business: a `Word` token may or may not
//! be a move; the replay decides.
//!
//! A line that lies whole in the reader's buffer is tokenised there and copied into the
//! game's bytes with its neighbours in one piece; a line that crosses the end of the buffer
//! or a size limit is first copied (and cut) into the game, then tokenised the same way.
//!
//! Past the size limit nothing more of the game is kept, but its bytes are still followed
//! (`Skip`, in pieces, storing nothing) so that its termination marker ends it as usual.
//!
//! The parts: `assemble` (lines into the game being assembled, and its end), `lines` (what
//! a line is: blank, a tag line, where the next game starts on it), `tags` (tag pairs),
//! `lexer` (movetext tokens), `scan` (byte classes and word-at-a-time search), `skip`
//! (following bytes past the size limit) and `spares` (buffers reused between games).

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use crate::pgn::{InputProblem, InputProblemKind, RawGame, RawTag, Token};

mod assemble;
mod finish;
mod lexer;
pub(super) mod lines;
pub(super) mod scan;
mod skip;
mod spares;
pub(super) mod tags;
#[cfg(test)]
mod tests;

use lines::{first_significant, is_between_games};
use skip::Skip;
pub use spares::keep_spares;

/// Documented limits: a game past one of them is reported as `input.limit-exceeded`, the
/// moves read before the limit are kept, and the next game is read normally. And, with
/// them, the one thing a run may ask the splitter to keep or not: move numbers.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of one game (tags, movetext, comments).
    pub max_game_bytes: usize,
    /// Nesting depth of variations.
    pub max_depth: u32,
    /// Move numbers kept as tokens (`TokenKind::MoveNumber`), for the outputs that show
    /// them as written. Without (the default), the token before one says that it follows
    /// (`Token::number_follows`): a third of the tokens, which nothing else reads, are
    /// neither stored nor passed over by the replay.
    pub move_numbers: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_game_bytes: 8 * 1024 * 1024,
            max_depth: 256,
            move_numbers: false,
        }
    }
}

/// What a line after an overflow is copied up to: enough to see whether it starts a game
/// (the rest of it is followed in the reader's buffer).
const OVERFLOW_PEEK: usize = 4096;

/// Splits a decompressed byte stream into games.
pub struct Splitter<R> {
    reader: R,
    state: State,
    at_start: bool,
    /// The end of the reader is the end of the file (not of a chunk cut at a game's start).
    ends_file: bool,
    done: bool,
    /// A read error, reported after the game in progress has been handed on.
    pending_error: Option<io::Error>,
}

/// Everything but the reader, so that lines can be handled while the reader's buffer is
/// borrowed.
struct State {
    file: Arc<str>,
    limits: Limits,
    /// The 1-based number of the next line to be read.
    next_line: u64,
    next_index: u64,
    /// The game being assembled and the tokeniser's state for it.
    game: Option<RawGame>,
    current: Builder,
    /// Bytes read so far (for the progress bar).
    bytes_read: u64,
    /// Bytes, tags and tokens of the last game: a new game's buffers start at about this
    /// size, so that they are not grown (copied) line by line.
    size_hint: (usize, usize, usize),
    /// Games handed back after use (`Splitter::recycle`): their buffers are reused, so a
    /// long run allocates nothing per game once the first batches have come back.
    spare: Vec<RawGame>,
    /// Where the bytes skipped past the size limit stand.
    skip: Skip,
    /// Games finished on a line that went on with the next games (`start_games_on_line`),
    /// handed on before anything else is read.
    queued: VecDeque<RawGame>,
    /// Lines of stray bytes before the first game (their first and last line): reported
    /// with that game.
    stray_before: Option<(u64, u64)>,
    /// Bytes at the front of the current game put there before it was read
    /// (`with_head`): they do not count toward the size limit.
    head: usize,
}

/// The tokeniser's state for the game being assembled.
#[derive(Default, Clone, Copy)]
struct Builder {
    has_tags: bool,
    has_movetext: bool,
    /// A termination marker was read outside variations.
    finished: bool,
    /// An open `{` comment: its start offset and line offset.
    open_comment: Option<(u32, u32)>,
    depth: u32,
    /// Past `max_game_bytes`: lines are only looked at for the next game's start, and
    /// followed by `Skip` (which keeps `open_comment`, `depth` and `finished` up to date).
    overflow: bool,
    /// A limit was hit: no further tokens are recorded.
    limit_hit: bool,
    /// `)` that closed no variation, and the line offset of the first.
    unmatched_close: (u32, u32),
    /// `}` that closed no comment, and the line offset of the first.
    unmatched_brace: (u32, u32),
    /// Lines of stray bytes after the termination marker, or starting with `0x1A` before
    /// it (`lines::stray_line`): the line offsets of the first and the last, whether they
    /// hold only `0x1A`, and whether the first came before the marker.
    stray: Option<(u32, u32, bool, bool)>,
    /// Text after the `]` of a tag line in the tag section, read as movetext until the
    /// next line says what it is (`tags::drop_tag_tail`): how many tokens came before it,
    /// and its line offset.
    tag_tail: Option<(u32, u32)>,
    /// Move numbers not kept as tokens (`Limits::move_numbers` off), the last two before
    /// any limit: where each ends and its line offset ((0, 0): none). What a game's end
    /// says of its last token (the line where the input ends, ...) is said of a number
    /// that comes after it, as where numbers are tokens (`last_token_line`); the one
    /// before the last stands in for a last one a cut at the size limit went through.
    numbers: [(u32, u32); 2],
}

/// Where the tokens, tags and problems of a line go (the parts of a `RawGame` other than
/// its bytes, which may hold the line being read).
struct Out<'a> {
    tokens: &'a mut Vec<Token>,
    tags: &'a mut Vec<RawTag>,
    problems: &'a mut Vec<InputProblem>,
    /// `Limits::move_numbers`.
    move_numbers: bool,
}

/// One line to tokenise: its bytes (up to and including `\n`, unless cut), where they
/// start in the game's bytes, and where they stand.
#[derive(Clone, Copy)]
struct LexLine<'a> {
    bytes: &'a [u8],
    base: usize,
    first: Option<usize>,
    offset: u32,
    cut: bool,
}

impl<R: BufRead> Splitter<R> {
    pub fn new(reader: R, file: Arc<str>, limits: Limits) -> Splitter<R> {
        Splitter::for_part(reader, file, limits, 1, true, true)
    }

    /// A splitter for part of a file: from `first_line` (a game's start, see
    /// `last_safe_cut`), at the file's start or not (the encoding check), up to the file's
    /// end or not (whether the last game can be truncated).
    pub fn for_part(
        reader: R,
        file: Arc<str>,
        limits: Limits,
        first_line: u64,
        starts_file: bool,
        ends_file: bool,
    ) -> Splitter<R> {
        Splitter {
            reader,
            state: State {
                file,
                limits,
                next_line: first_line,
                next_index: 1,
                game: None,
                current: Builder::default(),
                bytes_read: 0,
                size_hint: (0, 0, 0),
                spare: Vec::new(),
                skip: Skip::default(),
                queued: VecDeque::new(),
                stray_before: None,
                head: 0,
            },
            at_start: starts_file,
            ends_file,
            done: false,
            pending_error: None,
        }
    }

    /// Takes back games that have been used, to reuse their buffers (`games` is left empty).
    pub fn recycle(&mut self, games: &mut Vec<RawGame>) {
        keep_spares(&mut self.state.spare, games);
    }

    /// Hands over spare games (`recycle`) for another splitter to reuse.
    pub fn into_spares(self) -> Vec<RawGame> {
        self.state.spare
    }

    /// Hands spare games over from another splitter (`into_spares`), with games added
    /// by `keep_spares`. A new splitter takes them as they are: moving each of a few
    /// hundred spares for every chunk cost more than the chunk's copy.
    pub fn with_spares(mut self, mut spares: Vec<RawGame>) -> Splitter<R> {
        if self.state.spare.is_empty() {
            self.state.spare = spares;
        } else {
            self.recycle(&mut spares);
        }
        self
    }

    /// Starts the first game with `bytes` already in it, holding `tags` (a table row's
    /// tag lines, before its movetext is split): spans are then made where they belong,
    /// and the head does not count toward the size limit (it did not when the tags were
    /// put before the split movetext).
    pub fn with_head(mut self, bytes: &[u8], tags: &[RawTag]) -> Splitter<R> {
        let line = self.state.next_line;
        let game = self.state.game_mut(line);
        game.bytes.extend_from_slice(bytes);
        game.tags.extend_from_slice(tags);
        self.state.head = bytes.len();
        self
    }

    /// Whether the end of the reader may leave the last game truncated: at the end of the
    /// file, or after a read error.
    fn at_end(&self) -> bool {
        self.ends_file || self.pending_error.is_some()
    }

    /// Bytes consumed from the (decompressed) stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.state.bytes_read
    }

    /// Reads the next game; `Ok(None)` at the end of the stream.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        if let Some(game) = self.state.queued.pop_front() {
            return Ok(Some(game));
        }
        if self.done {
            // A read error can come after a finished game was handed on: the game that was
            // in progress comes next.
            if let Some(game) = self.state.finish_current(self.at_end()) {
                return Ok(Some(game));
            }
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
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => {
                    self.done = true;
                    self.pending_error = Some(err);
                    return Ok(self.state.finish_current(true));
                }
            };
            if buf.is_empty() {
                self.done = true;
                let at_end = self.at_end();
                return Ok(self.state.finish_current(at_end));
            }
            let (used, finished) = self.state.take_lines(buf);
            self.reader.consume(used);
            if finished.is_some() {
                return Ok(finished);
            }
            if used > 0 {
                continue;
            }
            // The next line crosses the end of the buffer or its size limit.
            if let Some(finished) = self.read_one_line()? {
                return Ok(Some(finished));
            }
        }
    }

    /// Reads one line into the current game (cut at the size limit), then handles it;
    /// returns a finished game when this line starts the next one. Past the size limit
    /// only the first `OVERFLOW_PEEK` bytes are copied, to see whether the line starts
    /// the next game; the rest of a line that is cut is followed (`Skip`) and dropped.
    fn read_one_line(&mut self) -> io::Result<Option<RawGame>> {
        let line_no = self.state.next_line;
        let line_start = self.state.game_mut(line_no).bytes.len();
        let cap = self.state.cap_at(line_start);
        let game = self.state.game_mut(line_no);
        let (consumed, mut whole) = match read_line_upto(&mut self.reader, &mut game.bytes, cap) {
            Ok(read) => read,
            // Keep the lines read before (reported as truncated), then report the error;
            // the line it cut is dropped, as the chunked reading of `--threads 2` drops it.
            Err(err) => return Ok(self.fail_in_line(err, line_no, line_start)),
        };
        self.state.bytes_read += consumed as u64;
        if consumed == 0 {
            self.done = true;
            let at_end = self.at_end();
            return Ok(self.state.finish_current(at_end));
        }
        self.state.next_line += 1;
        let between = is_between_games(self.state.line_from(line_start));
        if line_start == 0
            && whole
            && !self.state.has_begun()
            && (between || self.state.stray_before_game(line_no))
        {
            // Before the first game: no part of it (`skip_before_game`).
            let next_line = self.state.next_line;
            if let Some(game) = self.state.game.as_mut() {
                game.bytes.clear();
                game.line = next_line;
            }
            return Ok(None);
        }
        let line = self.state.line_from(line_start);
        let first = first_significant(line);
        let mut finished = None;
        let mut processed = None;
        if self.state.is_boundary(line, first) {
            finished = self.state.start_next_game(line_start, line_no);
            if !whole {
                // The line was read up to the last game's limit; the new game has its own.
                let cap = self.state.cap_at(0);
                let game = self.state.game_mut(line_no);
                let room = cap.saturating_sub(game.bytes.len());
                match read_line_upto(&mut self.reader, &mut game.bytes, room) {
                    Ok((more, rest_whole)) => {
                        self.state.bytes_read += more as u64;
                        whole = rest_whole;
                    }
                    Err(err) => return Ok(self.fail(err, finished)),
                }
            }
            let end = self.state.process_copied_line(0, first, line_no, !whole);
            processed = Some((0, end));
        } else if self.state.current.overflow {
            self.state.skip_copied_line(line_start);
        } else {
            let end = self
                .state
                .process_copied_line(line_start, first, line_no, !whole);
            processed = Some((line_start, end));
        }
        if whole && let Some((start, end)) = processed {
            self.state.start_games_on_line(start, end, line_no);
        }
        if !whole {
            let state = &mut self.state;
            let follow = |piece: &[u8]| {
                state.bytes_read += piece.len() as u64;
                state.skip.scan(&mut state.current, piece);
            };
            if let Err(err) = skip_line_rest(&mut self.reader, follow) {
                return Ok(self.fail(err, finished));
            }
        }
        Ok(finished.or_else(|| self.state.queued.pop_front()))
    }

    /// A read error: what was read is handed on (the game in progress as truncated, after
    /// `finished`), then the error is reported.
    fn fail(&mut self, err: io::Error, finished: Option<RawGame>) -> Option<RawGame> {
        self.done = true;
        self.pending_error = Some(err);
        finished.or_else(|| self.state.finish_current(true))
    }

    /// A read error inside a line: its bytes copied so far are dropped (they were never
    /// tokenized, so a copy of the game would hold text no check saw), then as `fail`.
    fn fail_in_line(&mut self, err: io::Error, line_no: u64, line_start: usize) -> Option<RawGame> {
        self.state.game_mut(line_no).bytes.truncate(line_start);
        self.fail(err, None)
    }

    /// Looks at the first bytes: UTF-16/32 input is reported as one unreadable game.
    fn check_encoding(&mut self) -> io::Result<Option<RawGame>> {
        // A byte-order mark, or NUL-padded ASCII over the first several dozen bytes; one
        // NUL (a short input, a binary blob) is left to the splitter.
        if !crate::input::encoding::looks_wide(self.reader.fill_buf()?) {
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
            self.state.bytes_read += len as u64;
        }
        let index = self.state.next_index;
        self.state.next_index += 1;
        Ok(Some(RawGame {
            file: self.state.file.clone(),
            index,
            global_index: 0,
            line: 1,
            bytes: Vec::new(),
            tags: Vec::new(),
            tokens: Vec::new(),
            problems,
        }))
    }
}

/// Moves the line at the front of the reader (up to and including `\n`) to `buf`, but at
/// most `cap` bytes of it. Returns the bytes moved and whether that is the whole line (its
/// `\n` or the end of the input was reached).
fn read_line_upto<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<(usize, bool)> {
    let mut moved = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok((moved, true));
        }
        let room = cap.saturating_sub(moved);
        if room == 0 {
            return Ok((moved, false));
        }
        let window = available.get(..room).unwrap_or(available);
        let (chunk, done) = match memchr::memchr(b'\n', window) {
            Some(pos) => (window.get(..=pos).unwrap_or_default(), true),
            None => (window, false),
        };
        buf.extend_from_slice(chunk);
        let len = chunk.len();
        reader.consume(len);
        moved += len;
        if done {
            return Ok((moved, true));
        }
    }
}

/// Consumes the rest of the line at the front of the reader (up to and including `\n`),
/// handing it to `follow` in pieces of the reader's buffer: nothing of it is stored.
fn skip_line_rest<R: BufRead>(reader: &mut R, mut follow: impl FnMut(&[u8])) -> io::Result<()> {
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(());
        }
        let (piece, done) = match memchr::memchr(b'\n', available) {
            Some(pos) => (available.get(..=pos).unwrap_or_default(), true),
            None => (available, false),
        };
        follow(piece);
        let len = piece.len();
        reader.consume(len);
        if done {
            return Ok(());
        }
    }
}
