//! Cutting a decompressed byte stream into chunks of whole games, for worker threads to
//! split and replay on their own core: the reader only copies bytes and looks for a safe
//! cut near each chunk's end (`last_safe_cut`), so that every chunk splits, on its own,
//! into the games the whole stream splits into.

use std::io::{self, BufRead, Chain, Cursor, Read};
use std::sync::Arc;

use super::cut::{last_game_start, last_safe_cut};
use super::encoding::looks_wide;
use super::split::{Limits, Splitter};

/// Bytes read for a chunk before a cut is looked for: small enough that a chunk's games
/// and tokens stay in the core's cache while they are replayed.
pub const CHUNK_BYTES: usize = 64 * 1024;
/// A chunk that finds no safe cut (one game larger than this, or no tag pairs at all) is
/// given up on: the rest of the file is split by one splitter (`Cut::Rest`).
pub const MAX_CHUNK_BYTES: usize = 16 * 1024 * 1024;

/// Games a chunk holds at most, and lines it is cut within when it has more: a game's
/// buffers, report and `stats` row cost a few kilobytes however short it is, so a chunk
/// of thousands of `*` lines would cost a thousand times its bytes (2048 took 85 MB at 8
/// threads); an ordinary chunk of 64 KiB has 1,000 to 2,000 lines, so it is cut at about
/// a third of its size, at no measurable cost. A game starts at a line
/// (or after a game that ended on it), so a chunk of this many lines holds no more games
/// than that.
pub const MAX_CHUNK_GAMES: usize = 512;

/// Whole games of one file (`Chunk::splitter` splits them).
#[derive(Debug, Default)]
pub struct Chunk {
    /// The chunk is `buffer[..len]`. The rest was read past the cut (and carried into the
    /// next chunk), and stays in the buffer so that a read into the reused buffer
    /// overwrites bytes rather than zeroing them first.
    buffer: Vec<u8>,
    len: usize,
    /// The 1-based line of the first byte.
    pub first_line: u64,
    pub starts_file: bool,
    pub ends_file: bool,
}

impl Chunk {
    /// The chunk's bytes: whole games, from a safe cut to a safe cut (or the file's ends).
    pub fn bytes(&self) -> &[u8] {
        self.buffer.get(..self.len).unwrap_or_default()
    }

    /// The chunk's buffer, to build the next chunk in (`Chunker::next_piece`).
    pub fn into_buffer(self) -> Vec<u8> {
        self.buffer
    }

    /// A splitter for the chunk's games.
    pub fn splitter(&self, file: Arc<str>, limits: Limits) -> Splitter<&[u8]> {
        Splitter::for_part(
            self.bytes(),
            file,
            limits,
            self.first_line,
            self.starts_file,
            self.ends_file,
        )
    }
}

/// What the chunker hands on.
pub enum Cut {
    Chunk(Chunk),
    Rest(Rest),
}

/// No safe cut was found: the bytes read and not yet handed on (from `first_line`), then
/// the rest of the stream, go to a single splitter.
pub struct Rest {
    pub bytes: Vec<u8>,
    pub first_line: u64,
    pub starts_file: bool,
}

impl Rest {
    /// The splitter for the rest of the file; `reader` is the chunker's
    /// (`Chunker::into_reader`).
    pub fn splitter<R: BufRead>(
        self,
        reader: R,
        file: Arc<str>,
        limits: Limits,
    ) -> Splitter<Chain<Cursor<Vec<u8>>, R>> {
        let rest = Cursor::new(self.bytes).chain(reader);
        Splitter::for_part(rest, file, limits, self.first_line, self.starts_file, true)
    }
}

pub struct Chunker<R> {
    reader: R,
    /// The splitter's limits, which decide where its games end (`last_game_start`).
    limits: Limits,
    /// `MAX_CHUNK_GAMES` (smaller in tests).
    max_games: usize,
    /// `CHUNK_BYTES` and `MAX_CHUNK_BYTES` (smaller in tests).
    chunk_bytes: usize,
    max_chunk_bytes: usize,
    /// The bytes after the last cut, which lead the next chunk.
    carry: Vec<u8>,
    /// Bytes per line in the last chunk's buffer (0 before the first): a chunk of short
    /// lines is bounded by `max_games` lines, not by its bytes.
    line_bytes: usize,
    next_line: u64,
    started: bool,
    /// The reader reached its end (or failed): it is not read again, while the chunks
    /// of what was read are handed on.
    ended: bool,
    done: bool,
    /// A read error, reported after the bytes before it have been handed on.
    pending_error: Option<io::Error>,
}

impl<R: BufRead> Chunker<R> {
    pub fn with_sizes(
        reader: R,
        limits: Limits,
        chunk_bytes: usize,
        max_chunk_bytes: usize,
    ) -> Chunker<R> {
        Chunker {
            reader,
            limits,
            max_games: MAX_CHUNK_GAMES,
            chunk_bytes: chunk_bytes.max(1),
            max_chunk_bytes,
            carry: Vec::new(),
            line_bytes: 0,
            next_line: 1,
            started: false,
            ended: false,
            done: false,
            pending_error: None,
        }
    }

    /// The reader, for the splitter that takes over after `Cut::Rest`.
    pub fn into_reader(self) -> R {
        self.reader
    }

    /// The next chunk, built in `buffer` (a spent chunk's, for reuse); `Ok(None)` at the
    /// end of the stream. A read error comes after the bytes read before it.
    pub fn next_piece(&mut self, mut buffer: Vec<u8>) -> io::Result<Option<Cut>> {
        if self.done {
            return match self.pending_error.take() {
                Some(err) => Err(err),
                None => Ok(None),
            };
        }
        let starts_file = !self.started;
        self.started = true;
        // The bytes carried from the last chunk, written over the reused buffer's old ones.
        let mut filled = self.carry.len();
        if buffer.len() < filled {
            buffer.resize(filled, 0);
        }
        if let Some(front) = buffer.get_mut(..filled) {
            front.copy_from_slice(&self.carry);
        }
        self.carry.clear();
        // A chunk's worth of new bytes after the carried ones, unless the carried bytes
        // (left by a chunk cut short at `max_games`) make a chunk already. Where lines are
        // short, `max_games` lines take fewer bytes than that: about as many are read as
        // they take (as the last chunk's lines went), since whatever is read past the cut
        // is carried, copied out and back in (a 64 KiB read of 40-byte lines left two
        // thirds of it to carry, every chunk).
        let lines_take = self
            .line_bytes
            .saturating_mul(self.max_games)
            .saturating_mul(7)
            / 8;
        // Nothing is read when the carried bytes hold that many lines already (the cut
        // then comes within them, or, in one long game, the loop below reads on).
        let fresh = if lines_take == 0 {
            self.chunk_bytes
        } else {
            lines_take.saturating_sub(filled).min(self.chunk_bytes)
        };
        let mut want = if filled >= self.chunk_bytes {
            filled
        } else {
            filled + fresh
        };
        loop {
            let at_end = self.fill(&mut buffer, &mut filled, want);
            let bytes = buffer.get(..filled).unwrap_or_default();
            if starts_file && looks_wide(bytes) {
                // UTF-16/32: the splitter reports the file as one game from its first bytes;
                // the rest is read (for the progress bar) and dropped.
                self.drain();
                return Ok(Some(self.last_chunk(buffer, filled, starts_file)));
            }
            if at_end && filled == 0 && !starts_file {
                self.done = true;
                return self.next_piece(Vec::new());
            }
            let lines = count_lines(bytes);
            self.line_bytes = usize::try_from(bytes.len() as u64 / lines.max(1)).unwrap_or(0);
            let crowded = lines > self.max_games as u64;
            if at_end && !crowded {
                return Ok(Some(self.last_chunk(buffer, filled, starts_file)));
            }
            // A cut before a game's tag pairs, at one of the first `max_games + 1` lines
            // (so that the chunk holds at most `max_games` lines, and games); else (no tag
            // pairs, or too many games) where the splitter ends a game.
            let within = if crowded {
                nth_line_end(bytes, self.max_games + 1)
            } else {
                bytes.len()
            };
            // The game ends are looked for in those lines first, then (after a game of
            // more lines) in all the bytes, up to `max_games` games.
            let first_lines = bytes.get(..within).unwrap_or_default();
            let cut = last_safe_cut(first_lines)
                .or_else(|| last_game_start(first_lines, self.limits, self.max_games))
                .or_else(|| {
                    crowded
                        .then(|| last_game_start(bytes, self.limits, self.max_games))
                        .flatten()
                });
            if let Some(cut) = cut {
                self.carry
                    .extend_from_slice(bytes.get(cut..).unwrap_or_default());
                let first_line = self.next_line;
                self.next_line += lines - count_lines(bytes.get(cut..).unwrap_or_default());
                return Ok(Some(Cut::Chunk(Chunk {
                    buffer,
                    len: cut,
                    first_line,
                    starts_file,
                    ends_file: false,
                })));
            }
            if at_end {
                // One game of many lines: the rest of the file is one chunk.
                return Ok(Some(self.last_chunk(buffer, filled, starts_file)));
            }
            if filled >= self.max_chunk_bytes {
                self.done = true;
                buffer.truncate(filled);
                return Ok(Some(Cut::Rest(Rest {
                    bytes: buffer,
                    first_line: self.next_line,
                    starts_file,
                })));
            }
            // One game longer than the chunk: read on, twice as far each time, so that the
            // search for a cut stays linear in the game's size.
            want = filled * 2;
        }
    }

    /// The chunk of the first `filled` bytes of `buffer`, which ends the file. After a read
    /// error its unfinished last line is left out, as a splitter reading the stream leaves
    /// it untokenised.
    fn last_chunk(&mut self, buffer: Vec<u8>, filled: usize, starts_file: bool) -> Cut {
        self.done = true;
        let bytes = buffer.get(..filled).unwrap_or_default();
        let len = if self.pending_error.is_some() {
            memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1)
        } else {
            filled
        };
        let first_line = self.next_line;
        self.next_line += count_lines(bytes.get(..len).unwrap_or_default());
        Cut::Chunk(Chunk {
            buffer,
            len,
            first_line,
            starts_file,
            ends_file: true,
        })
    }

    /// Reads into `buffer` after its first `filled` bytes until it holds `want` bytes;
    /// true at the end of the stream (or at a read error, which is kept for later). The
    /// buffer only grows: bytes past `filled` are old ones, overwritten by the reads.
    fn fill(&mut self, buffer: &mut Vec<u8>, filled: &mut usize, want: usize) -> bool {
        if self.ended {
            return true;
        }
        if *filled >= want {
            return false;
        }
        if buffer.len() < want {
            buffer.resize(want, 0);
        }
        // Reads of the whole room: a `BufReader` hands a read at least as large as its
        // buffer straight to its source (the file, the decompressor), so the bytes are
        // not copied through its buffer.
        loop {
            let room = buffer.get_mut(*filled..want).unwrap_or_default();
            match self.reader.read(room) {
                Ok(0) => {
                    self.ended = true;
                    return true;
                }
                Ok(n) => {
                    *filled += n;
                    if *filled >= want {
                        return false;
                    }
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.pending_error = Some(err);
                    self.ended = true;
                    return true;
                }
            }
        }
    }

    /// Reads the rest of the stream without keeping it.
    fn drain(&mut self) {
        loop {
            match self.reader.fill_buf() {
                Ok([]) => return,
                Ok(available) => {
                    let len = available.len();
                    self.reader.consume(len);
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    self.pending_error = Some(err);
                    return;
                }
            }
        }
    }
}

/// Lines that end in `bytes` (the line count the splitter will have advanced by),
/// counted with vector instructions (bytecount; the reading turn counts every byte).
pub(super) fn count_lines(bytes: &[u8]) -> u64 {
    bytecount::count(bytes, b'\n') as u64
}

/// The bytes `nth_line_end` counts at a time before it looks for the line itself.
const LINE_SEARCH_BLOCK: usize = 4096;

/// The end of the `n`th line of `bytes` (just past its `\n`), or the end of `bytes`: the
/// blocks before the line's are counted as `count_lines` counts (one `\n` at a time is
/// several times the work, and the reading turn does this for every chunk).
pub(super) fn nth_line_end(bytes: &[u8], n: usize) -> usize {
    let Some(mut skip) = n.checked_sub(1) else {
        return bytes.len();
    };
    let mut start = 0;
    for block in bytes.chunks(LINE_SEARCH_BLOCK) {
        let here = bytecount::count(block, b'\n');
        if skip < here {
            return memchr::memchr_iter(b'\n', block)
                .nth(skip)
                .map_or(bytes.len(), |i| start + i + 1);
        }
        skip -= here;
        start += block.len();
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    /// The `n`th line's end, found by counting blocks, is where one `\n` at a time finds
    /// it, around the blocks' edges and past the last line; the count is every `\n`.
    #[test]
    fn line_ends_are_found_across_the_counted_blocks() {
        // Lines of 1 to 97 bytes, over three blocks and a bit.
        let mut bytes = Vec::new();
        let mut length = 0;
        while bytes.len() < 3 * super::LINE_SEARCH_BLOCK + 500 {
            length = length % 97 + 1;
            bytes.extend(std::iter::repeat_n(b'x', length - 1));
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"unfinished");
        let ends: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(super::count_lines(&bytes), ends.len() as u64);
        assert_eq!(super::nth_line_end(&bytes, 0), bytes.len());
        for n in 1..=ends.len() + 2 {
            let expected = ends.get(n - 1).copied().unwrap_or(bytes.len());
            assert_eq!(super::nth_line_end(&bytes, n), expected, "line {n}");
        }
    }

    use std::io::{BufRead, Read};
    use std::sync::Arc;

    use super::{Chunker, Cut};
    use crate::input::{Limits, Splitter};
    use crate::pgn::RawGame;

    fn games_of(mut splitter: Splitter<impl BufRead>, games: &mut Vec<RawGame>) {
        while let Some(game) = splitter.next_game().unwrap() {
            games.push(game);
        }
    }

    /// The games of the whole stream, as one splitter finds them.
    fn whole(pgn: &[u8], limits: Limits) -> Vec<String> {
        let mut games = Vec::new();
        games_of(Splitter::new(pgn, Arc::from("t"), limits), &mut games);
        numbered(games)
    }

    /// The games of the chunks, each split on its own (and of the rest, where no cut was
    /// found).
    fn chunked(pgn: &[u8], limits: Limits, chunk: usize, max: usize) -> Vec<String> {
        chunked_from(pgn, limits, chunk, max)
    }

    fn chunked_from(pgn: impl BufRead, limits: Limits, chunk: usize, max: usize) -> Vec<String> {
        chunked_games(pgn, limits, chunk, max, super::MAX_CHUNK_GAMES).0
    }

    /// The games of the chunks, and the most games one chunk held.
    fn chunked_games(
        pgn: impl BufRead,
        limits: Limits,
        chunk: usize,
        max: usize,
        max_games: usize,
    ) -> (Vec<String>, usize) {
        let mut chunker = Chunker::with_sizes(pgn, limits, chunk, max);
        chunker.max_games = max_games;
        let mut most = 0;
        let mut games = Vec::new();
        // Each chunk is built in the last one's buffer, as the pipeline does, after its old
        // bytes are made into lines that would start games if they were read.
        let mut buffer = Vec::new();
        loop {
            match chunker.next_piece(std::mem::take(&mut buffer)).unwrap() {
                Some(Cut::Chunk(c)) => {
                    let before = games.len();
                    games_of(c.splitter(Arc::from("t"), limits), &mut games);
                    most = most.max(games.len() - before);
                    buffer = c.into_buffer();
                    let stale = b"\n[Event \"stale\"]\n1. e4 *\n";
                    for (byte, junk) in buffer.iter_mut().zip(stale.iter().cycle()) {
                        *byte = *junk;
                    }
                }
                Some(Cut::Rest(rest)) => {
                    let splitter = rest.splitter(chunker.into_reader(), Arc::from("t"), limits);
                    games_of(splitter, &mut games);
                    break;
                }
                None => break,
            }
        }
        (numbered(games), most)
    }

    /// Each game in full, numbered as the pipeline numbers them (in order).
    fn numbered(games: Vec<RawGame>) -> Vec<String> {
        games
            .into_iter()
            .enumerate()
            .map(|(i, mut game)| {
                game.index = i as u64 + 1;
                format!("{game:?}")
            })
            .collect()
    }

    /// Wherever the chunks are cut, and also where no cut is found, every game comes out
    /// as it does from one splitter over the whole stream: its bytes, line, tags, tokens
    /// and problems (a truncated game only at the end).
    #[test]
    fn chunks_split_into_the_games_of_the_whole() {
        let x = "x".repeat(300);
        let inputs: Vec<String> = vec![
            String::new(),
            "\n\n\n".to_string(),
            concat!(
                "\u{feff}[Event \"a\"]\n[White \"x \"y\" z\"]\n\n",
                "1.e4 {a comment\n[Not \"a tag\" ... } e5 ; rest\r\n",
                "% escape\n2... Nf3!? $12 (2. d4 (2. c4)) ½-½ +- N\n\n",
                "1. d4 d5 1-0\n1. c4 *\n[Event \"b\"\n[Site \"c\"] 1. e4\n",
                "{ open [Event \"d\"]\n[Event \"e\"]\n1. f4 { never closed",
            )
            .to_string(),
            // A comment holding a blank line and a tag pair: the tag pair ends the game.
            "[Event \"a\"]\n\n1. e4 {a\n\n[Event \"x\"]\nb} e5 *\n\n[Event \"y\"]\n\n1. d4 *\n"
                .to_string(),
            // Tag pairs after tag pairs only (one game), and after an escape line.
            "[Event \"a\"]\n\n[Site \"b\"]\n\n1. e4 *\n\n% x\n\n[Event \"c\"]\n1. d4 *\n"
                .to_string(),
            // Games without tags, ended by their markers.
            "1. e4 e5 1-0\n1. d4 d5 0-1\n\n[Event \"c\"]\n1. c4 *\n\n  [Event \"d\"]\n1. Nf3 *\n"
                .to_string(),
            // Carriage returns and byte-order marks.
            "\u{feff}[Event \"a\"]\r\n\r\n1. e4 *\r\n\r\n\u{feff}[Event \"b\"]\r\n\r\n1. d4 *\r\n"
                .to_string(),
            // Past the size limit, and a tag line far along its line.
            [
                format!("[Event \"a\"]\n\n1. e4 {{{x}}}\n{x} e5 *\n\n[Event \"b\"]\n1. d4 {{\n\n"),
                " ".repeat(300),
                "[Event \"c\"]\n1. c4\n\n[Event \"d\"]\n1. e4 *".to_string(),
            ]
            .concat(),
            // Unfinished at the end.
            "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5".to_string(),
            // No tag pairs at all: no cut is ever found.
            format!("{x}\n{x}\n1. e4 *\n1. d4 *\n"),
            // Stray bytes before the first game, which are its (a fuzzed file).
            format!("\x01\0\0\n\x1b\x02\n)r\n{}*\n\x01\ng", "\x13".repeat(80)),
        ];
        let small = Limits {
            max_game_bytes: 200,
            max_depth: 2,
            move_numbers: false,
        };
        for (case, pgn) in inputs.iter().enumerate() {
            let pgn = pgn.as_bytes();
            for limits in [Limits::default(), small] {
                let expected = whole(pgn, limits);
                for chunk in (1..=40).chain([100, 333, 1000, 5000]) {
                    for max in [chunk, 700, 1 << 20] {
                        assert_eq!(
                            chunked(pgn, limits, chunk, max),
                            expected,
                            "case {case}, chunk {chunk}, max {max}"
                        );
                    }
                    // A source that hands out a few bytes per read (a pipe).
                    let trickle = std::io::BufReader::with_capacity(3, Trickle(pgn));
                    assert_eq!(
                        chunked_from(trickle, limits, chunk, 1 << 20),
                        expected,
                        "case {case}, chunk {chunk}, short reads"
                    );
                }
            }
        }
    }

    /// Games without tag pairs (where `last_safe_cut` finds no cut) and crowded chunks
    /// are cut where the splitter ends a game: every game comes out as from the whole
    /// stream, and no chunk holds more than `max_games` games.
    #[test]
    fn chunks_of_games_without_tags_are_cut_at_game_ends() {
        let x = "x".repeat(300);
        let inputs: Vec<String> = vec![
            "*\n".repeat(500),
            "1. e4 *\n\n".repeat(300),
            "1. e4 e5 1-0 1. d4 0-1\n*\n\n*\n".repeat(100),
            // Results inside comments and variations end nothing; escape lines and
            // blank lines after a result belong to its game.
            "1. e4 { * 1-0\n*\n} (1. d4 *\n*) *\n%x\n\n1. c4 ; *\n*\n".repeat(60),
            // Past the size limit, with a comment left open, and a tag line after all.
            format!("1. e4 {{{x}\n{x} *\n}} *\n1. d4 {x} *\n1. c4 {{ *\n").repeat(20)
                + "[Event \"a\"]\n*\n[B \"b\"]\n*\n",
            // Tag pairs without movetext between them, then tagless games.
            "[A \"a\"]\n*\n".repeat(200) + &"[A \"a\"]\n[B \"b\"]\n*\n*\n".repeat(100),
            // A crowded chunk with a long game in it.
            "*\n".repeat(50) + &format!("1. e4\n{}*\n", "e5\n".repeat(400)) + &"*\n".repeat(50),
        ];
        let small = Limits {
            max_game_bytes: 200,
            max_depth: 2,
            move_numbers: false,
        };
        for (case, pgn) in inputs.iter().enumerate() {
            let pgn = pgn.as_bytes();
            for (limits, is_small) in [(Limits::default(), false), (small, true)] {
                let expected = whole(pgn, limits);
                // The game after one past the size limit is no place to cut (its bytes do
                // not tell where it ended on its line): one game more under the small
                // limit, and no bound in case 4, where every game is past it.
                let bounded = !(case == 4 && is_small);
                let slack = usize::from(is_small);
                for chunk in [1, 7, 64, 333, 1000, 5000] {
                    for max_games in [1, 2, 5, 64, 1 << 20] {
                        let (games, most) = chunked_games(pgn, limits, chunk, 1 << 20, max_games);
                        assert_eq!(games, expected, "case {case}, chunk {chunk}, {max_games}");
                        // Case 2 has two games on a line: no cut between them.
                        let per_line = if case == 2 { 2 } else { 1 };
                        assert!(
                            !bounded || most <= max_games.max(per_line) + slack,
                            "case {case}, chunk {chunk}: {most} > {max_games}"
                        );
                    }
                }
            }
        }
    }

    /// Hands out at most five bytes per read.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(self.0.len()).min(5);
            let (now, later) = self.0.split_at(n);
            buf.get_mut(..n).unwrap().copy_from_slice(now);
            self.0 = later;
            Ok(n)
        }
    }

    /// A UTF-16 file is one unreadable game, not games cut out of its later chunks.
    #[test]
    fn a_wide_file_is_one_game() {
        let utf16: Vec<u8> = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n"
            .repeat(50)
            .bytes()
            .flat_map(|b| [b, 0])
            .collect();
        let expected = whole(&utf16, Limits::default());
        assert_eq!(expected.len(), 1);
        assert_eq!(chunked(&utf16, Limits::default(), 128, 1 << 20), expected);
    }

    /// Where lines are short, a chunk is bounded by its lines (`MAX_CHUNK_GAMES`), not its
    /// bytes: about as many bytes are read as those lines take, so little is carried (and
    /// copied twice) into the next chunk. Reading a full `CHUNK_BYTES` each time carried
    /// two thirds of every read.
    #[test]
    fn short_lines_leave_little_to_carry() {
        let game = b"[Event \"e\"]\n[Site \"s\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
        let pgn = game.repeat(100_000);
        let mut chunker = Chunker::with_sizes(
            &pgn[..],
            Limits::default(),
            super::CHUNK_BYTES,
            super::MAX_CHUNK_BYTES,
        );
        let (mut carried, mut emitted) = (0, 0);
        let mut buffer = Vec::new();
        while let Some(Cut::Chunk(chunk)) = chunker.next_piece(std::mem::take(&mut buffer)).unwrap()
        {
            carried += chunker.carry.len();
            emitted += chunk.bytes().len();
            assert!(super::count_lines(chunk.bytes()) <= super::MAX_CHUNK_GAMES as u64);
            buffer = chunk.into_buffer();
        }
        assert_eq!(emitted, pgn.len());
        assert!(
            carried * 4 < emitted,
            "{carried} bytes carried for {emitted}"
        );
    }
}
