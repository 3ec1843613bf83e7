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

use std::collections::VecDeque;
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

/// What a line after an overflow is copied up to: enough to see whether it starts a game
/// (the rest of it is followed in the reader's buffer).
const OVERFLOW_PEEK: usize = 4096;

/// Annotation symbols that are skipped like NAGs (SPEC.md).
const GLYPHS: [&str; 15] = [
    "+-", "-+", "=", "+=", "=+", "±", "∓", "+/-", "-/+", "∞", "=/∞", "⩲", "⩱", "N", "D",
];

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
}

/// Spare games kept at most, and the largest buffer a spare game may keep (a game near
/// the size limit is not held on to).
const MAX_SPARE: usize = 512;
const MAX_SPARE_BYTES: usize = 64 * 1024;

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
}

/// Follows the bytes of a game past its size limit without keeping them, so that its
/// termination marker is seen: the lexer of `lex_movetext` reduced to what can end a game
/// (comments, variations, results), byte by byte, so that the bytes may come in pieces of
/// any size. The game's `Builder` holds the open comment, the depth and `finished`.
#[derive(Default, Clone, Copy)]
struct Skip {
    mode: SkipMode,
    /// The first bytes of the word being read, and its length: a result is at most 7 bytes.
    word: [u8; 7],
    word_len: usize,
    /// The word so far is all digits (a move number when a `.` follows).
    digits: bool,
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

/// Where the tokens, tags and problems of a line go (the parts of a `RawGame` other than
/// its bytes, which may hold the line being read).
struct Out<'a> {
    tokens: &'a mut Vec<Token>,
    tags: &'a mut Vec<RawTag>,
    problems: &'a mut Vec<InputProblem>,
}

/// One line to tokenise: its bytes (up to and including `\n`, unless cut), where they
/// start in the game's bytes, and where they stand.
#[derive(Clone, Copy)]
struct Line<'a> {
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
        let line = self.state.line_from(line_start);
        if line_start == 0 && whole && !self.state.has_begun() && is_between_games(line) {
            // Before the first game: no part of it (`skip_before_game`).
            let next_line = self.state.next_line;
            if let Some(game) = self.state.game.as_mut() {
                game.bytes.clear();
                game.line = next_line;
            }
            return Ok(None);
        }
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

impl State {
    /// An empty game starting at `line`, its buffers sized after the last game.
    fn new_game(&mut self, line: u64) -> RawGame {
        take_game(&mut self.spare, &self.file, self.size_hint, line)
    }

    /// The current game, started at `line` if there is none.
    fn game_mut(&mut self, line: u64) -> &mut RawGame {
        let State {
            file,
            size_hint,
            game,
            spare,
            ..
        } = self;
        game.get_or_insert_with(|| take_game(spare, file, *size_hint, line))
    }

    /// How much of a line starting at byte `line_start` of the game is kept.
    fn cap_at(&self, line_start: usize) -> usize {
        if self.current.overflow {
            OVERFLOW_PEEK
        } else {
            self.limits
                .max_game_bytes
                .saturating_sub(line_start)
                .max(OVERFLOW_PEEK)
        }
    }

    /// The bytes of the current game from `start`.
    fn line_from(&self, start: usize) -> &[u8] {
        self.game
            .as_ref()
            .and_then(|game| game.bytes.get(start..))
            .unwrap_or_default()
    }

    /// Whether a line (its first significant byte at `first`) starts the next game.
    fn is_boundary(&self, line: &[u8], first: Option<usize>) -> bool {
        let b = &self.current;
        if b.overflow || b.open_comment.is_some() {
            // An open comment ends only where a new game clearly starts; an oversized game
            // also where movetext follows its termination marker.
            first.is_some_and(|i| looks_like_tag_line(line.get(i..).unwrap_or_default()))
                || (b.overflow
                    && b.open_comment.is_none()
                    && b.finished
                    && starts_game_after_marker(line, first))
        } else if first.is_some_and(|i| line.get(i) == Some(&b'[')) {
            // `[/pgn]` closes a forum wrapper: it ends the game before it.
            (b.has_movetext || b.finished) && first.is_some_and(|i| line.get(i + 1) != Some(&b'/'))
        } else {
            b.finished && starts_game_after_marker(line, first)
        }
    }

    /// Appends bytes taken from the reader's buffer to the current game.
    fn append(&mut self, bytes: &[u8]) {
        if let Some(game) = self.game.as_mut() {
            game.bytes.extend_from_slice(bytes);
        }
    }

    /// Handles the whole lines at the front of `buf` straight from the reader's buffer,
    /// up to the first line that is not whole there or is longer than its size limit.
    /// Returns the bytes used and a game that one of the lines finished.
    fn take_lines(&mut self, buf: &[u8]) -> (usize, Option<RawGame>) {
        let mut pos = 0;
        // `buf[copied..pos]` belongs to the current game but is not in its bytes yet.
        let mut copied = 0;
        while let Some(rest) = buf.get(pos..) {
            let line_no = self.next_line;
            if pos == copied
                && !self.has_begun()
                && let Some(len) = self.skip_before_game(rest)
            {
                pos += len;
                copied = pos;
                continue;
            }
            let line_start = self.game_mut(line_no).bytes.len() + (pos - copied);
            if let Some(len) = self.take_inner_line(rest, line_start, line_no) {
                pos += len;
                continue;
            }
            let Some(newline) = find_byte(b'\n', rest) else {
                break;
            };
            let line = rest.get(..=newline).unwrap_or_default();
            if line.len() > self.cap_at(line_start) {
                break;
            }
            self.next_line += 1;
            self.bytes_read += line.len() as u64;
            let first = first_significant(line);
            if self.is_boundary(line, first) {
                self.append(buf.get(copied..pos).unwrap_or_default());
                let next = self.new_game(line_no);
                let finished = self.finish_current(false);
                self.game = Some(next);
                let end = self.process_line(line, 0, first, line_no, false);
                copied = pos;
                pos += self.end_of_line(line.len(), end);
                if finished.is_some() {
                    self.append(buf.get(copied..pos).unwrap_or_default());
                    return (pos, finished);
                }
                continue;
            }
            if self.current.overflow {
                // Past the size limit the line is followed, then dropped.
                self.skip.scan(&mut self.current, line);
                self.append(buf.get(copied..pos).unwrap_or_default());
                pos += line.len();
                copied = pos;
                continue;
            }
            let end = self.process_line(line, line_start, first, line_no, false);
            pos += self.end_of_line(line.len(), end);
        }
        self.append(buf.get(copied..pos).unwrap_or_default());
        (pos, None)
    }

    /// Where a line of `len` bytes, taken whole, was left: at its end, or at `end` where
    /// the next game starts on it (after a termination marker). Then the rest is read as a
    /// line of its own, on the same line number: the line is given back.
    fn end_of_line(&mut self, len: usize, end: usize) -> usize {
        if end < len {
            self.next_line -= 1;
            self.bytes_read -= (len - end) as u64;
            return end;
        }
        len
    }

    /// Before the first game (no game begun): a whole blank line, escape line or `;`
    /// comment line at the front of `rest` belongs to no game and is passed over (the
    /// game, if there is one yet, starts on a later line); returns its length.
    fn skip_before_game(&mut self, rest: &[u8]) -> Option<usize> {
        let line = rest.get(..=find_byte(b'\n', rest)?)?;
        if !is_between_games(line) {
            return None;
        }
        self.next_line += 1;
        self.bytes_read += line.len() as u64;
        let next_line = self.next_line;
        if let Some(game) = self.game.as_mut() {
            game.line = next_line;
        }
        Some(line.len())
    }

    /// The common case, tokenised without looking for the line's end first: a line at the
    /// front of `rest` that belongs to the current game, which is not past its size limit.
    /// Returns its length, or `None` (and keeps nothing) when the line is not whole in
    /// `rest`, crosses the size limit or needs the careful path.
    fn take_inner_line(&mut self, rest: &[u8], line_start: usize, line_no: u64) -> Option<usize> {
        if self.current.overflow {
            return None;
        }
        let first = first_significant(rest);
        if self.is_boundary(rest, first) {
            return None;
        }
        let State {
            game,
            current,
            limits,
            ..
        } = self;
        let game = game.as_mut()?;
        let saved = (
            *current,
            game.tokens.len(),
            game.tags.len(),
            game.problems.len(),
        );
        let line = Line {
            bytes: rest,
            base: line_start,
            first,
            offset: line_offset(line_no, game.line),
            cut: false,
        };
        let mut out = Out {
            tokens: &mut game.tokens,
            tags: &mut game.tags,
            problems: &mut game.problems,
        };
        let len = tokenise_line(current, &mut out, limits, line);
        let whole = len > 0 && rest.get(len - 1) == Some(&b'\n');
        if !whole || line_start + len > limits.max_game_bytes {
            // Undone: the careful path reads this line again.
            *current = saved.0;
            game.tokens.truncate(saved.1);
            game.tags.truncate(saved.2);
            game.problems.truncate(saved.3);
            return None;
        }
        self.next_line += 1;
        self.bytes_read += len as u64;
        Some(len)
    }

    /// Whether the current game holds anything yet (more than blank or escape lines); no
    /// game yet is none begun.
    fn has_begun(&self) -> bool {
        let b = &self.current;
        b.has_tags
            || b.has_movetext
            || self
                .game
                .as_ref()
                .is_some_and(|game| !game.problems.is_empty())
    }

    /// The whole line copied into the current game at `start` was processed up to `end`
    /// of its bytes: where that is short of its end, the next game starts there (after a
    /// termination marker). Each game finished so on the line is queued.
    fn start_games_on_line(&mut self, mut start: usize, mut end: usize, line_no: u64) {
        while start + end < self.line_from(0).len() {
            if let Some(finished) = self.start_next_game(start + end, line_no) {
                self.queued.push_back(finished);
            }
            let first = first_significant(self.line_from(0));
            start = 0;
            end = self.process_copied_line(0, first, line_no, false);
        }
    }

    /// The line copied into the current game at `line_start` starts the next game: moves
    /// it there and returns the finished game.
    fn start_next_game(&mut self, line_start: usize, line_no: u64) -> Option<RawGame> {
        let mut next = self.new_game(line_no);
        if let Some(game) = self.game.as_mut() {
            let line = game.bytes.get(line_start..).unwrap_or_default();
            next.bytes.extend_from_slice(line);
            game.bytes.truncate(line_start);
        }
        let finished = self.finish_current(false);
        self.game = Some(next);
        finished
    }

    /// Past the size limit: follows the line copied into the current game at `line_start`
    /// (the start of it, when it is long), then drops it.
    fn skip_copied_line(&mut self, line_start: usize) {
        let State {
            game,
            current,
            skip,
            ..
        } = self;
        if let Some(game) = game.as_mut() {
            skip.scan(current, game.bytes.get(line_start..).unwrap_or_default());
            game.bytes.truncate(line_start);
        }
    }

    /// `process_line` for a line that is already in the game's bytes (from `line_start`).
    /// A line that was `cut` is also followed by `Skip` from its start, so that the rest
    /// of it can be followed from where the cut left it (in a word, a `;` comment, ...).
    fn process_copied_line(
        &mut self,
        line_start: usize,
        first: Option<usize>,
        line_no: u64,
        cut: bool,
    ) -> usize {
        let State {
            game,
            current,
            limits,
            skip,
            ..
        } = self;
        let Some(game) = game.as_mut() else {
            return 0;
        };
        let before = *current;
        let RawGame {
            bytes,
            tags,
            tokens,
            problems,
            line: game_line,
            ..
        } = game;
        let line = Line {
            bytes: bytes.get(line_start..).unwrap_or_default(),
            base: line_start,
            first,
            offset: line_offset(line_no, *game_line),
            cut,
        };
        let mut out = Out {
            tokens,
            tags,
            problems,
        };
        let end = process_line(current, &mut out, limits, line);
        if cut {
            current.open_comment = before.open_comment;
            current.depth = before.depth;
            current.finished = before.finished;
            *skip = Skip::default();
            skip.scan(current, line.bytes);
        }
        end
    }

    /// `process_line` for a line that is not in the game's bytes yet: it will be at `base`.
    fn process_line(
        &mut self,
        bytes: &[u8],
        base: usize,
        first: Option<usize>,
        line_no: u64,
        cut: bool,
    ) -> usize {
        let State {
            game,
            current,
            limits,
            ..
        } = self;
        let Some(game) = game.as_mut() else {
            return bytes.len();
        };
        let line = Line {
            bytes,
            base,
            first,
            offset: line_offset(line_no, game.line),
            cut,
        };
        let mut out = Out {
            tokens: &mut game.tokens,
            tags: &mut game.tags,
            problems: &mut game.problems,
        };
        process_line(current, &mut out, limits, line)
    }

    /// Completes the current game (if it holds anything) and numbers it.
    fn finish_current(&mut self, at_eof: bool) -> Option<RawGame> {
        let b = std::mem::take(&mut self.current);
        self.skip = Skip::default();
        let mut game = self.game.take()?;
        if !b.has_tags && !b.has_movetext && game.problems.is_empty() {
            return None; // only blank or escape lines
        }
        // A comment left open past the size limit is not reported: the limit says it all.
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
        unbalanced_parentheses(&b, &mut game);
        trim_between_games(&mut game);
        game.index = self.next_index;
        self.next_index += 1;
        self.size_hint = (game.bytes.len(), game.tags.len(), game.tokens.len());
        Some(game)
    }
}

/// Drops the lines at the end of a game's bytes that belong to no game: blank lines,
/// escape lines and `;` comment lines after its last tag or token.
fn trim_between_games(game: &mut RawGame) {
    let last_token = game.tokens.last().map_or(0, |t| t.end as usize);
    let last_tag = game.tags.last().map_or(0, |t| t.value.1 as usize);
    let keep = last_token.max(last_tag);
    let mut end = game.bytes.len();
    while end > keep {
        let before = game.bytes.get(..end - 1).unwrap_or_default();
        let start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        let line = game.bytes.get(start..end).unwrap_or_default();
        if start < keep || !is_between_games(line) {
            break;
        }
        end = start;
    }
    game.bytes.truncate(end);
}

/// Reports `)` that closed no variation and, in a game read whole, variations never
/// closed: the replay passes over both, so that no token goes unaccounted for.
fn unbalanced_parentheses(b: &Builder, game: &mut RawGame) {
    let (count, line) = b.unmatched_close;
    if count > 0 {
        let detail = if count == 1 {
            "a `)` closes no variation; it is ignored".to_string()
        } else {
            format!("{count} `)` close no variation; they are ignored")
        };
        game.problems.push(InputProblem {
            kind: InputProblemKind::UnbalancedParenthesis,
            line,
            detail,
        });
    }
    if b.depth > 0 && !b.limit_hit && !b.overflow {
        let line = game.tokens.last().map_or(0, |t| t.line);
        let detail = if b.depth == 1 {
            "a variation `(` is never closed; it is closed at the end of the game".to_string()
        } else {
            format!(
                "{} variations `(` are never closed; they are closed at the end of the game",
                b.depth
            )
        };
        game.problems.push(InputProblem {
            kind: InputProblemKind::UnbalancedParenthesis,
            line,
            detail,
        });
    }
}

/// Adds used `games` to `spare` for their buffers' reuse (`games` is left empty), up to
/// `MAX_SPARE` games and leaving out buffers larger than `MAX_SPARE_BYTES`.
pub fn keep_spares(spare: &mut Vec<RawGame>, games: &mut Vec<RawGame>) {
    let room = MAX_SPARE.saturating_sub(spare.len());
    spare.extend(
        games
            .drain(..)
            .filter(|game| game.bytes.capacity() <= MAX_SPARE_BYTES)
            .take(room),
    );
}

/// A spare game emptied for reuse, or a new one.
fn take_game(
    spare: &mut Vec<RawGame>,
    file: &Arc<str>,
    size_hint: (usize, usize, usize),
    line: u64,
) -> RawGame {
    let Some(mut game) = spare.pop() else {
        return new_game(file, size_hint, line);
    };
    game.reset(file.clone(), line);
    game
}

/// A new game starting at `line`, its buffers sized after the last game's.
fn new_game(file: &Arc<str>, size_hint: (usize, usize, usize), line: u64) -> RawGame {
    let (bytes, tags, tokens) = size_hint;
    RawGame {
        file: file.clone(),
        index: 0,
        global_index: 0,
        line,
        bytes: Vec::with_capacity((bytes + bytes / 2).clamp(1024, 64 * 1024)),
        tags: Vec::with_capacity((tags + tags / 4).clamp(16, 64)),
        tokens: Vec::with_capacity((tokens + tokens / 2).clamp(64, 4096)),
        problems: Vec::new(),
    }
}

fn line_offset(line_no: u64, game_line: u64) -> u32 {
    u32::try_from(line_no.saturating_sub(game_line)).unwrap_or(u32::MAX)
}

/// Tokenises a line of the current game; the line that crosses the size limit is still
/// tokenised (its moves are kept), then the limit is recorded. Returns where the line
/// ended: at its end, or where the next game starts on it (`next_game_after_marker`).
fn process_line(b: &mut Builder, out: &mut Out<'_>, limits: &Limits, line: Line<'_>) -> usize {
    let was_overflow = b.overflow;
    let taken = tokenise_line(b, out, limits, line).min(line.bytes.len());
    let end = line.base + taken;
    let over = (line.cut || end > limits.max_game_bytes) && !was_overflow;
    if over {
        // A word the cut went through is not the word that was written.
        if line.cut
            && out
                .tokens
                .last()
                .is_some_and(|t| t.end as usize == end && t.kind != TokenKind::Comment)
        {
            out.tokens.pop();
        }
        b.overflow = true;
        let detail = format!(
            "the game is longer than {} MiB",
            limits.max_game_bytes / (1024 * 1024)
        );
        push_limit(&mut b.limit_hit, out.problems, line.offset, detail);
    }
    taken
}

/// Tokenises the line at the front of `line.bytes` (which may go on past its `\n`) and
/// returns where it ends: just past its `\n`, or at the end of the bytes.
fn tokenise_line(b: &mut Builder, out: &mut Out<'_>, limits: &Limits, line: Line<'_>) -> usize {
    let Some(first) = line.first else {
        return line_end(line.bytes, 0);
    };
    let mut from = first;
    if b.open_comment.is_none() {
        match line.bytes.get(first) {
            Some(b'%') if first == 0 => return line_end(line.bytes, 0),
            // A `;` comment line after the termination marker belongs to no game.
            Some(b';') if b.finished => return line_end(line.bytes, 0),
            Some(b'[') => {
                b.has_tags = true;
                match parse_tag_line(out, line, first) {
                    Ok(movetext_start) => from = movetext_start,
                    Err(end) => return end,
                }
            }
            _ => {}
        }
    }
    lex_movetext(b, out, limits, line, from)
}

/// Where the line that holds `bytes[from]` ends: just past its `\n`, or at the end.
fn line_end(bytes: &[u8], from: usize) -> usize {
    match find_byte(b'\n', bytes.get(from..).unwrap_or_default()) {
        Some(newline) => from + newline + 1,
        None => bytes.len(),
    }
}

/// Records a limit: a `Limit` problem, after which no tokens are kept.
fn push_limit(limit_hit: &mut bool, problems: &mut Vec<InputProblem>, line: u32, detail: String) {
    if *limit_hit {
        return;
    }
    *limit_hit = true;
    problems.push(InputProblem {
        kind: InputProblemKind::LimitExceeded,
        line,
        detail,
    });
}

/// Byte classes: white space ...
const SPACE: u8 = 1;
/// ... a byte that ends a word (white space included) ...
const STOP: u8 = 2;
/// ... an ASCII digit ...
const DIGIT: u8 = 4;
/// ... a byte that starts a glyph or `½-½` ...
const GLYPH_START: u8 = 8;
/// ... and a byte that ends a tag name.
const NAME_END: u8 = 16;

/// The class bits of every byte.
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of range fails the build"
)]
const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let class = match byte as u8 {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => SPACE | STOP | NAME_END,
            b'{' | b'}' | b'(' | b')' | b';' | b'$' | b'!' | b'?' | b'*' | b'[' => STOP,
            b'0'..=b'9' => DIGIT,
            b'+' | b'-' | b'=' | b'N' | b'D' | 0xc2 | 0xe2 => GLYPH_START,
            b'"' | b']' => NAME_END,
            _ => 0,
        };
        table[byte] = class;
        byte += 1;
    }
    table
};

fn class(byte: u8) -> u8 {
    CLASSES.get(usize::from(byte)).copied().unwrap_or(0)
}

fn is_space(byte: u8) -> bool {
    class(byte) & SPACE != 0
}

/// Bytes that end a word (a move or another unclassified token).
fn ends_word(byte: u8) -> bool {
    class(byte) & STOP != 0
}

/// Eight bytes at once (SWAR): `ONES` has 1 in every byte, `HIGHS` the top bit of every
/// byte. Of the masks below only the lowest set bit is exact; higher ones may be false
/// alarms (a borrow), so every hit is checked or only the first one is used.
const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The top bit of each byte of `x` that is zero (the lowest one exact).
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The top bit of each byte of `x` equal to `byte` (the lowest one exact).
fn bytes_equal(x: u64, byte: u8) -> u64 {
    zero_bytes(x ^ (ONES * u64::from(byte)))
}

/// The first `byte` in `hay`: the first 32 bytes eight at a time, the rest with `memchr`
/// (whose set-up costs more than a short search).
fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
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
fn find_close(hay: &[u8]) -> Option<(usize, u8)> {
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
fn word_len(rest: &[u8]) -> usize {
    let mut at = 0;
    while let Some(chunk) = rest.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*chunk);
        // Every byte that ends a word is below `+`, or `;`/`?` (`x | 4` is `?`), or
        // `[`/`{`/`}` (`x | 0x26` is 0x7f); the few other bytes these let through are
        // checked.
        let below = x.wrapping_sub(ONES * 0x2b) & !x & HIGHS;
        let mut hits =
            below | bytes_equal(x | (ONES * 0x04), b'?') | bytes_equal(x | (ONES * 0x26), 0x7f);
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

fn is_bom_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i..i + 3) == Some(&[0xef, 0xbb, 0xbf][..])
}

/// Index of the first byte of the line at the front of `line` that is not white space or
/// a byte-order mark; `None` when the line (up to its `\n`) holds none.
fn first_significant(line: &[u8]) -> Option<usize> {
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

/// A blank line, an escape line or a `;` comment line: no part of a game when it stands
/// before one.
fn is_between_games(line: &[u8]) -> bool {
    let first = first_significant(line);
    first.is_none_or(|i| line.get(i) == Some(&b';')) || line.first() == Some(&b'%')
}

/// Whether a line (its first significant byte at `first`) after a game's termination
/// marker starts the next game: anything but a blank line, an escape line or a `;`
/// comment line (which belongs to no game).
fn starts_game_after_marker(line: &[u8], first: Option<usize>) -> bool {
    first.is_some_and(|i| line.get(i) != Some(&b';')) && line.first() != Some(&b'%')
}

/// Where the next game starts on the line of a termination marker that ended a game:
/// the first significant byte after `from`, unless it is a `;` comment (kept in the game),
/// `%` (not an escape line there: read as a word of the game) or `[/` (a forum wrapper's
/// end, kept in the game as a bad tag line).
fn next_game_on_line(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let i = first_significant(rest)?;
    let starts = match rest.get(i..) {
        Some([b';' | b'%', ..] | [b'[', b'/', ..]) | None => false,
        Some(_) => true,
    };
    starts.then_some(from + i)
}

/// How far into a line the start of a tag pair is looked for by `last_safe_cut`: within
/// the part of a line the splitter keeps past the size limit (`OVERFLOW_PEEK`).
const CUT_PEEK: usize = 256;

/// Where a stream may be cut into parts that split, each on its own, into the very games
/// the whole stream splits into: the start of the last line in `bytes` (not the first)
/// that opens a tag pair and follows, after blank lines only, a line of movetext (one
/// whose first byte that counts is not `[`, nor a `%` escape, and that holds no `[` out of
/// comments). In whatever state the
/// splitter reaches such a line, it starts the next game (`State::is_boundary`): after
/// movetext a `[` line always does, and in an open comment or past the size limit a line
/// that opens a tag pair does.
pub fn last_safe_cut(bytes: &[u8]) -> Option<usize> {
    // Lines from the last (which may be unfinished) back to the first.
    let mut end = bytes.len();
    let mut start = line_start_before(bytes, end);
    // The start of the last line seen that opens a tag pair, while only blank lines follow.
    let mut tag_line: Option<usize> = None;
    loop {
        let line = bytes.get(start..end).unwrap_or_default();
        if let Some(i) = first_significant(line) {
            let first = line.get(i).copied();
            // A `[` further on a line of movetext may start a game there (after a
            // termination marker) that holds only tags so far: not a safe place.
            if let Some(cut) = tag_line
                && first != Some(b'[')
                && !(i == 0 && first == Some(b'%'))
                && !has_bracket_outside_comments(line)
            {
                return Some(cut);
            }
            let peek = line.get(..CUT_PEEK).unwrap_or(line);
            tag_line = (start > 0 && looks_like_tag_line(peek.get(i..).unwrap_or_default()))
                .then_some(start);
        }
        if start == 0 {
            return None;
        }
        end = start;
        start = line_start_before(bytes, end - 1);
    }
}

/// Whether a line holds a `[` outside the `{}` comments opened on it (a line that starts
/// inside a comment, or a `;` comment, may give a false alarm, never a miss).
fn has_bracket_outside_comments(line: &[u8]) -> bool {
    let mut in_comment = false;
    for &byte in line {
        match byte {
            b'{' => in_comment = true,
            b'}' => in_comment = false,
            b'[' if !in_comment => return true,
            _ => {}
        }
    }
    false
}

/// The start of the line that holds `bytes[..end]`'s last byte (just past a `\n`, or 0).
fn line_start_before(bytes: &[u8], end: usize) -> usize {
    memchr::memrchr(b'\n', bytes.get(..end).unwrap_or_default()).map_or(0, |i| i + 1)
}

fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Parses the tag pairs of a line from `start` (a `[`). Returns where movetext continues
/// on the same line if anything follows the last `]`, else where the line ends.
fn parse_tag_line(out: &mut Out<'_>, line: Line<'_>, start: usize) -> Result<usize, usize> {
    let bytes = line.bytes;
    let mut i = start;
    loop {
        let (tag, next) = match parse_one_tag(bytes, i) {
            Ok((tag_name, value, next, repaired)) => {
                if repaired {
                    let name = bytes.get(tag_name.0..tag_name.1).unwrap_or_default();
                    out.problems.push(InputProblem {
                        kind: InputProblemKind::UnescapedQuote,
                        line: line.offset,
                        detail: format!(
                            "the value of tag {} holds unescaped quotes",
                            String::from_utf8_lossy(name)
                        ),
                    });
                }
                (Some((tag_name, value)), next)
            }
            Err(()) => {
                let (tag, next, why) = repair_tag(bytes, i);
                let shown = String::from_utf8_lossy(bytes.get(i..next).unwrap_or_default())
                    .trim_end()
                    .chars()
                    .take(60)
                    .collect::<String>();
                let done = if tag.is_some() { "repaired" } else { "skipped" };
                out.problems.push(InputProblem {
                    kind: InputProblemKind::BadTag,
                    line: line.offset,
                    detail: format!("tag line `{shown}` {done}: {why}"),
                });
                (tag, next)
            }
        };
        if let Some((tag_name, value)) = tag {
            out.tags.push(RawTag {
                name: (
                    offset(line.base + tag_name.0),
                    offset(line.base + tag_name.1),
                ),
                value: (offset(line.base + value.0), offset(line.base + value.1)),
                line: line.offset,
            });
        }
        let rest = bytes.get(next..).unwrap_or_default();
        match first_significant(rest) {
            None => return Err(line_end(bytes, next)),
            Some(j) if rest.get(j) == Some(&b'[') => i = next + j,
            Some(j) => return Ok(next + j),
        }
    }
}

/// A tag pair at `start` (a `[`) that is not `[Name "value"]`, read as well as it can be:
/// the tag (name and raw value) when there is one, where reading stopped, and what was
/// wrong. A missing closing quote or bracket is supplied and an unquoted value taken as
/// it is; a pair with no name (`[/pgn]`) or no value (`[pgn]`) is skipped.
fn repair_tag(bytes: &[u8], start: usize) -> (Option<(Span, Span)>, usize, &'static str) {
    let at = |i: usize| bytes.get(i).copied();
    // The line's text, without its line end and trailing white space.
    let mut end = line_end(bytes, start);
    while end > start && at(end - 1).is_some_and(is_space) {
        end -= 1;
    }
    let in_line_space = |i: usize| i < end && at(i).is_some_and(is_space);
    let mut i = start + 1;
    while in_line_space(i) {
        i += 1;
    }
    let name_start = i;
    while i < end && at(i).is_some_and(|c| class(c) & NAME_END == 0 && c != b'[') {
        i += 1;
    }
    let name = (name_start, i);
    let good_name = at(name_start).is_some_and(|c| c.is_ascii_alphabetic())
        && bytes
            .get(name_start..i)
            .unwrap_or_default()
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_');
    // Skipped up to its `]`, or to the end of the line.
    let skip_from = |from: usize| {
        let rest = bytes.get(from..end).unwrap_or_default();
        memchr::memchr(b']', rest).map_or(end, |close| from + close + 1)
    };
    if !good_name {
        return (None, skip_from(start + 1), "no tag name");
    }
    while in_line_space(i) {
        i += 1;
    }
    if i >= end || at(i) == Some(b']') {
        return (None, skip_from(i), "no value");
    }
    if at(i) != Some(b'"') {
        let close = memchr::memchr(b']', bytes.get(i..end).unwrap_or_default()).map(|c| i + c);
        let mut value_end = close.unwrap_or(end);
        while value_end > i && at(value_end - 1).is_some_and(is_space) {
            value_end -= 1;
        }
        let next = close.map_or(end, |close| close + 1);
        return (
            Some((name, (i, value_end))),
            next,
            "the value is not quoted",
        );
    }
    let value_start = i + 1;
    let last = end - 1;
    if at(last) == Some(b']') && last > value_start {
        let mut quote = last;
        while quote > value_start && at(quote - 1).is_some_and(|c| c == b' ' || c == b'\t') {
            quote -= 1;
        }
        if quote > value_start && at(quote - 1) == Some(b'"') {
            let why = if at(quote - 2) == Some(b'\\') && quote - 1 > value_start {
                "a backslash escapes the closing quote"
            } else {
                "the value is malformed"
            };
            return (Some((name, (value_start, quote - 1))), end, why);
        }
        return (
            Some((name, (value_start, last))),
            end,
            "the closing quote is missing",
        );
    }
    if at(last) == Some(b'"') && last >= value_start {
        return (
            Some((name, (value_start, last))),
            end,
            "the closing bracket is missing",
        );
    }
    (
        Some((name, (value_start, end))),
        end,
        "the closing quote and bracket are missing",
    )
}

type Span = (usize, usize);

/// How many bytes at the start of `rest` a tag value runs over without a `\\`, `"` or
/// line end.
fn skip_value_bytes(rest: &[u8]) -> usize {
    let mut at = 0;
    while let Some(chunk) = rest.get(at..).and_then(|rest| rest.first_chunk::<8>()) {
        let x = u64::from_le_bytes(*chunk);
        let hits = bytes_equal(x, b'"') | bytes_equal(x, b'\\') | bytes_equal(x, b'\n');
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let tail = rest.get(at..).unwrap_or_default();
    at + tail
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | b'\n'))
        .unwrap_or(tail.len())
}

/// One `[Name "value"]` at `start`: the name, the raw value, where parsing stopped, and
/// whether unescaped inner quotes were repaired (the value runs to the last quote before `]`).
/// Nothing past the line's `\n` is looked at.
fn parse_one_tag(bytes: &[u8], start: usize) -> Result<(Span, Span, usize, bool), ()> {
    let at = |i: usize| bytes.get(i).copied();
    let in_line_space = |c: u8| c != b'\n' && is_space(c);
    let mut i = start + 1;
    while at(i).is_some_and(in_line_space) {
        i += 1;
    }
    let name_start = i;
    while at(i).is_some_and(|c| class(c) & NAME_END == 0) {
        i += 1;
    }
    let name = (name_start, i);
    if name.0 == name.1 {
        return Err(());
    }
    while at(i).is_some_and(in_line_space) {
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
            b'\\' if at(i + 1) == Some(b'\n') => break,
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
            _ => i += 1 + skip_value_bytes(bytes.get(i + 1..).unwrap_or_default()),
        }
    }
    Err(())
}

/// Tokenises the movetext of a line from `from`; returns where the line ends (just past its
/// `\n`, or at the end of the bytes).
fn lex_movetext(
    st: &mut Builder,
    out: &mut Out<'_>,
    limits: &Limits,
    line: Line<'_>,
    from: usize,
) -> usize {
    let bytes = line.bytes;
    let base = line.base;
    let mut i = from;
    let push = |tokens: &mut Vec<Token>, limit_hit: bool, kind, start: usize, stop: usize| {
        if !limit_hit {
            tokens.push(Token {
                kind,
                start: offset(base + start),
                end: offset(base + stop),
                line: line.offset,
            });
        }
    };
    if let Some((comment_start, comment_line)) = st.open_comment {
        // A comment opened on an earlier line.
        let rest = bytes.get(i..).unwrap_or_default();
        let close = match find_close(rest) {
            Some((close, b'}')) => close,
            Some((newline, _)) => return i + newline + 1,
            None => return bytes.len(),
        };
        let stop = i + close + 1;
        if !st.limit_hit {
            out.tokens.push(Token {
                kind: TokenKind::Comment,
                start: comment_start,
                end: offset(base + stop),
                line: comment_line,
            });
        }
        st.open_comment = None;
        i = stop;
    }
    loop {
        let Some(&c) = bytes.get(i) else {
            return bytes.len();
        };
        let cls = class(c);
        if cls & SPACE != 0 {
            if c == b'\n' {
                return i + 1;
            }
            i += 1;
            continue;
        }
        if c == 0xef && is_bom_at(bytes, i) {
            i += 3;
            continue;
        }
        st.has_movetext = true;
        if cls & STOP == 0 {
            // A word: a move, a move number, a result or a glyph.
            let rest = bytes.get(i..).unwrap_or_default();
            let len = word_len(rest);
            let word = rest.get(..len).unwrap_or_default();
            let kind = if cls & DIGIT != 0 {
                let digits = word
                    .iter()
                    .position(|&b| class(b) & DIGIT == 0)
                    .unwrap_or(len);
                // A move number glued to its move (`1.e4`, `12...Nf6`) is split off.
                if word.get(digits) == Some(&b'.') {
                    let dots = word
                        .get(digits..)
                        .unwrap_or_default()
                        .iter()
                        .take_while(|&&b| b == b'.')
                        .count();
                    let stop = i + digits + dots;
                    push(out.tokens, st.limit_hit, TokenKind::MoveNumber, i, stop);
                    i = stop;
                    continue;
                }
                match word {
                    b"1-0" | b"0-1" | b"1/2-1/2" => TokenKind::Result,
                    _ if digits == len => TokenKind::MoveNumber,
                    _ => TokenKind::Word,
                }
            } else if cls & GLYPH_START != 0 {
                classify_word(word)
            } else if c == b'.' {
                // Periods standing alone belong to a move number (`1 ... e5`, `2 . Nf3`);
                // glued to the move (`...Nf6`) they are split off.
                let dots = word.iter().take_while(|&&b| b == b'.').count();
                push(out.tokens, st.limit_hit, TokenKind::MoveNumber, i, i + dots);
                i += dots;
                continue;
            } else {
                TokenKind::Word
            };
            push(out.tokens, st.limit_hit, kind, i, i + len);
            i += len;
            if kind == TokenKind::Result && st.depth == 0 {
                st.finished = true;
                if let Some(next) = next_game_after_marker(line, i) {
                    return next;
                }
            }
            continue;
        }
        match c {
            b'{' => {
                let rest = bytes.get(i + 1..).unwrap_or_default();
                let close = match find_close(rest) {
                    Some((close, b'}')) => close,
                    found => {
                        // The comment goes on on the next lines.
                        st.open_comment = Some((offset(base + i), line.offset));
                        return found.map_or(bytes.len(), |(newline, _)| i + 1 + newline + 1);
                    }
                };
                let stop = i + 1 + close + 1;
                push(out.tokens, st.limit_hit, TokenKind::Comment, i, stop);
                i = stop;
            }
            b';' => {
                let end = line_end(bytes, i);
                let mut stop = end;
                while stop > i
                    && bytes
                        .get(stop - 1)
                        .is_some_and(|&b| b == b'\n' || b == b'\r')
                {
                    stop -= 1;
                }
                push(out.tokens, st.limit_hit, TokenKind::Comment, i, stop);
                return end;
            }
            b'(' => {
                st.depth += 1;
                if st.depth > limits.max_depth {
                    let detail = format!(
                        "variations are nested deeper than {} levels",
                        limits.max_depth
                    );
                    push_limit(&mut st.limit_hit, out.problems, line.offset, detail);
                }
                push(
                    out.tokens,
                    st.limit_hit,
                    TokenKind::VariationStart,
                    i,
                    i + 1,
                );
                i += 1;
            }
            b')' => {
                push(out.tokens, st.limit_hit, TokenKind::VariationEnd, i, i + 1);
                if st.depth == 0 {
                    let (count, first_line) = st.unmatched_close;
                    let first_line = if count == 0 { line.offset } else { first_line };
                    st.unmatched_close = (count.saturating_add(1), first_line);
                }
                st.depth = st.depth.saturating_sub(1);
                i += 1;
            }
            b'$' => {
                let digits = bytes
                    .get(i + 1..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let kind = if digits > 0 {
                    TokenKind::Nag
                } else {
                    TokenKind::Word
                };
                push(out.tokens, st.limit_hit, kind, i, i + 1 + digits);
                i += 1 + digits;
            }
            b'!' | b'?' => {
                let mut j = i + 1;
                if matches!(bytes.get(j), Some(b'!' | b'?')) {
                    j += 1;
                }
                push(out.tokens, st.limit_hit, TokenKind::Nag, i, j);
                i = j;
            }
            b'*' => {
                push(out.tokens, st.limit_hit, TokenKind::Result, i, i + 1);
                i += 1;
                if st.depth == 0 {
                    st.finished = true;
                    if let Some(next) = next_game_after_marker(line, i) {
                        return next;
                    }
                }
            }
            b'[' if bytes.get(i + 1) == Some(&b'/') => {
                // `[/pgn]`, a forum wrapper's end: skipped as a bad tag line.
                match parse_tag_line(out, line, i) {
                    Ok(movetext_start) => i = movetext_start,
                    Err(end) => return end,
                }
            }
            _ => {
                // `}` outside a comment, a `[` in movetext.
                push(out.tokens, st.limit_hit, TokenKind::Word, i, i + 1);
                i += 1;
            }
        }
    }
}

/// Where the next game starts on the line of the termination marker that ended a game,
/// just before `from` (`next_game_on_line`); never on a line cut at the size limit, whose
/// rest is followed by `Skip`.
fn next_game_after_marker(line: Line<'_>, from: usize) -> Option<usize> {
    if line.cut {
        return None;
    }
    next_game_on_line(line.bytes, from)
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

/// The kind of a word that starts like a glyph or `½-½` (not with a digit).
fn classify_word(word: &[u8]) -> TokenKind {
    if word == "½-½".as_bytes() {
        return TokenKind::Result;
    }
    if could_be_glyph(word) && GLYPHS.iter().any(|g| g.as_bytes() == word) {
        return TokenKind::Glyph;
    }
    TokenKind::Word
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

impl Skip {
    /// Follows the next `bytes` of the skipped lines of the game whose state is `b`.
    fn scan(&mut self, b: &mut Builder, bytes: &[u8]) {
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
        let result = matches!(
            self.word.get(..self.word_len),
            Some(b"1-0" | b"0-1" | b"1/2-1/2" | [0xc2, 0xbd, b'-', 0xc2, 0xbd])
        );
        if result && b.depth == 0 {
            b.finished = true;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use std::io::{BufReader, Cursor};

    use super::{Limits, Splitter, TokenKind, ends_word, find_byte, find_close, word_len};

    /// The eight-bytes-at-once scans agree with a byte-at-a-time scan, for every byte value
    /// at every position of a word.
    #[test]
    fn word_ends_are_found_as_byte_by_byte() {
        for len in 1..20 {
            for stop in 0..=255u8 {
                let mut word = vec![b'a'; len];
                word.push(stop);
                word.extend_from_slice(b"xyz  ");
                let expected = word.iter().position(|&b| ends_word(b)).unwrap();
                assert_eq!(word_len(&word), expected, "byte {stop:#x} after {len}");
                word.truncate(len);
                assert_eq!(word_len(&word), len);
            }
        }
    }

    #[test]
    fn short_searches_agree_with_memchr() {
        for len in 0..80 {
            for at in 0..len {
                for needle in [b'}', b'\n', b'x'] {
                    let mut hay = vec![b'a'; len];
                    hay[at] = needle;
                    if at + 3 < len {
                        hay[at + 3] = b'\n';
                    }
                    assert_eq!(find_byte(needle, &hay), memchr::memchr(needle, &hay));
                    let close = memchr::memchr2(b'}', b'\n', &hay).map(|i| (i, hay[i]));
                    assert_eq!(find_close(&hay), close);
                }
            }
        }
    }

    fn split_all(reader: impl std::io::BufRead, limits: Limits) -> Vec<String> {
        let mut splitter = Splitter::new(reader, "t".into(), limits);
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            games.push(format!("{game:?}"));
        }
        games
    }

    /// Lines are tokenised in the reader's buffer when they lie whole in it and copied
    /// first when they do not: both ways give the same games, whatever the buffer size.
    #[test]
    fn games_do_not_depend_on_the_read_buffer() {
        let pgn = concat!(
            "\u{feff}[Event \"a\"]\n[White \"x \"y\" z\"]\n\n",
            "1.e4 {a comment\n[Not \"a tag\" ... } e5 ; rest\r\n",
            "% escape\n2... Nf3!? $12 (2. d4 (2. c4)) ½-½ +- N\n\n",
            "1. d4 d5 1-0\n1. c4 *\n[Event \"b\"\n[Site \"c\"] 1. e4\n",
            "{ open [Event \"d\"]\n[Event \"e\"]\n1. f4 { never closed",
        )
        .as_bytes();
        let limits = Limits {
            max_game_bytes: 64,
            max_depth: 1,
        };
        for limits in [Limits::default(), limits] {
            let expected = split_all(Cursor::new(pgn), limits);
            assert!(expected.len() > 2, "{expected:#?}");
            for capacity in [1, 2, 3, 7, 16, 64, 4096] {
                let reader = BufReader::with_capacity(capacity, pgn);
                assert_eq!(split_all(reader, limits), expected, "capacity {capacity}");
            }
        }
    }

    /// Each game as its tag names, its tokens' text (`{..}` for a comment) and its problems.
    fn summaries(reader: impl std::io::BufRead, limits: Limits) -> Vec<String> {
        let mut splitter = Splitter::new(reader, "t".into(), limits);
        let mut games = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            let text = |start, end| String::from_utf8_lossy(game.text(start, end)).into_owned();
            let mut parts: Vec<String> =
                game.tags.iter().map(|t| text(t.name.0, t.name.1)).collect();
            parts.extend(game.tokens.iter().map(|t| match t.kind {
                TokenKind::Comment => "{..}".to_string(),
                _ => text(t.start, t.end),
            }));
            parts.extend(game.problems.iter().map(|p| format!("{:?}", p.kind)));
            games.push(parts.join(" "));
        }
        games
    }

    /// Past the size limit the bytes of a game are followed, not kept: its termination
    /// marker (outside comments and variations) ends it, also where the cut at the limit or
    /// the end of the read buffer goes through it, and movetext without tags after it is
    /// the next game. The same games come out whatever the read buffer's size.
    #[test]
    fn oversized_games_end_at_their_termination_marker() {
        let x = |n| "x".repeat(n);
        let cases = [
            // The marker is on the line cut at the limit, past the cut.
            (
                64,
                format!("1. e4 {{{}}} e5 *\n1. d4 d5 *\n", x(5000)),
                "1. e4 LimitExceeded",
                "1. d4 d5 *",
            ),
            // A comment open when the limit is crossed, closed lines later.
            (
                64,
                format!("1. e4 {{{}\n{}\n}} e5 *\n\n1. d4 *\n", x(70), x(70)),
                "1. e4 LimitExceeded",
                "1. d4 *",
            ),
            // Markers that do not end a game: in a variation, a `;` comment, an escape
            // line, a `{}` comment, a line that is not a tag.
            (
                64,
                format!(
                    "1. e4 {{{}\n}} e5\n(2. d4 1-0) ; 0-1\n% *\n{{ 1/2-1/2 }}\n[Not a tag *\n{}",
                    x(70),
                    "2. Nf3 1/2-1/2\n1. c4 *\n",
                ),
                "1. e4 LimitExceeded",
                "1. c4 *",
            ),
            // The cut at the limit goes through the marker (`1/2` is kept, not read as a
            // move).
            (
                64,
                format!("1. e4 {{{}}} 1/2-1/2\n1. d4 *\n", x(4084)),
                "1. e4 {..} LimitExceeded",
                "1. d4 *",
            ),
            // So does the end of what is copied of a long line past the limit.
            (
                64,
                format!("1. e4 {{{}}} e5\n{} ½-½\n1. d4 *\n", x(70), x(4090)),
                "1. e4 {..} e5 LimitExceeded",
                "1. d4 *",
            ),
            // Periods glued to a result, and a result glued to a `[`, are seen past the
            // limit as the main lexer sees them.
            (
                64,
                format!("1. e4 {{{}\n}} e5 ...1/2-1/2\n1. c4 *\n", x(70)),
                "1. e4 LimitExceeded",
                "1. c4 *",
            ),
            (
                64,
                format!("1. e4 {{{}\n}} e5 1-0[Event \"B\"]\n1. c4 *\n", x(70)),
                "1. e4 LimitExceeded",
                "1. c4 *",
            ),
            // Past a bad tag pair, or `[/`, the line goes on as movetext, as
            // `parse_tag_line` reads it; a quoted value left open runs to the line's end.
            (
                64,
                format!(
                    "1. e4 {{{}\n}} e5\n[1 \"A * ]\n[pgn] e5 [/pgn 1-0]\n[/pgn] 1-0\n1. c4 *\n",
                    x(70)
                ),
                "1. e4 LimitExceeded",
                "1. c4 *",
            ),
            // A long first tag line of the next game is read under that game's limit.
            (
                5000,
                format!(
                    "1. e4 {{{}}} *\n[Event \"{}\"]\n1. d4 *\n",
                    x(6000),
                    "E".repeat(4500)
                ),
                "1. e4 LimitExceeded",
                "Event 1. d4 *",
            ),
        ];
        for (case, (max_game_bytes, pgn, first, second)) in cases.iter().enumerate() {
            let limits = Limits {
                max_game_bytes: *max_game_bytes,
                max_depth: 256,
            };
            let pgn = pgn.as_bytes();
            let expected = summaries(Cursor::new(pgn), limits);
            assert_eq!(expected, [*first, *second], "case {case}");
            for capacity in (1..=64).chain([100, 1000, 4095, 4096, 4097, 8192]) {
                let reader = BufReader::with_capacity(capacity, pgn);
                let games = summaries(reader, limits);
                assert_eq!(games, expected, "case {case}, capacity {capacity}");
            }
        }
    }

    /// Games that start on the line of the last game's termination marker, bad tag lines
    /// and lines between games come out the same whatever the read buffer's size (lines
    /// that cross the buffer's end are copied first, then split).
    #[test]
    fn games_on_one_line_do_not_depend_on_the_read_buffer() {
        let pgn = concat!(
            "% escape\n; comment\n\n",
            "1. e4 e5 1-0 1. d4 d5 0-1  1. c4 * [Event \"b\"] [Site \"s\"] 1. f4 ...e5 1/2-1/2\n",
            "; Game Nr. 1\n[pgn][Event \"c\"]\n[White A]\n[Black \"B\n1. e4 ) 1-0[/pgn]\n",
            "[Event \"d\"] 1. e4 1-0 1. d4 *",
        )
        .as_bytes();
        let expected = summaries(Cursor::new(pgn), Limits::default());
        assert_eq!(
            expected,
            [
                "1. e4 e5 1-0",
                "1. d4 d5 0-1",
                "1. c4 *",
                "Event Site 1. f4 ... e5 1/2-1/2",
                "Event White Black 1. e4 ) 1-0 BadTag BadTag BadTag BadTag UnbalancedParenthesis",
                "Event 1. e4 1-0",
                "1. d4 *",
            ]
        );
        for capacity in (1..=64).chain([100, 4096]) {
            let reader = BufReader::with_capacity(capacity, pgn);
            let games = summaries(reader, Limits::default());
            assert_eq!(games, expected, "capacity {capacity}");
            let lines: Vec<u64> = {
                let mut splitter = Splitter::new(
                    BufReader::with_capacity(capacity, pgn),
                    "t".into(),
                    Limits::default(),
                );
                std::iter::from_fn(|| splitter.next_game().unwrap().map(|g| g.line)).collect()
            };
            assert_eq!(lines, [4, 4, 4, 4, 6, 10, 10], "capacity {capacity}");
        }
    }

    /// Games handed back with `recycle` are reused for later games and carry nothing of
    /// the game they held: the games read after recycling equal those of a fresh splitter.
    #[test]
    fn recycled_games_start_empty() {
        let pgn = concat!(
            "[Event \"a\"]\n[White \"x\"]\n\n1. e4 { a long comment } e5 $1 (1... c5) 1-0\n\n",
            "[Event \"b\"]\n\n1. d4 {unclosed\n\n[Event \"c\"]\n1. c4 *\n\n",
            "[Event \"d\"]\n[Site \"bad \"quote\" here\"]\n\n1. Nf3 1/2-1/2\n\n",
            "1. g3 0-1\n\n[Event \"f\"]\n\n1. b3\n",
        )
        .as_bytes();
        let expected = split_all(Cursor::new(pgn), Limits::default());
        let mut splitter = Splitter::new(Cursor::new(pgn), "t".into(), Limits::default());
        let mut found = Vec::new();
        while let Some(game) = splitter.next_game().unwrap() {
            found.push(format!("{game:?}"));
            // Every game goes back at once, so each later one reuses an earlier one.
            splitter.recycle(&mut vec![game]);
        }
        assert!(expected.len() >= 5, "{expected:#?}");
        assert_eq!(found, expected);
    }
}
