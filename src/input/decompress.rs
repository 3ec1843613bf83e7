//! Opening a source as a stream of decompressed bytes, or as a Parquet table of games;
//! the format is told by magic bytes, so stdin and misnamed files work too.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::line_ends::{self, LineEnds};
use super::table::{self, TableGames};
use super::{Limits, Source};

const BUFFER_SIZE: usize = 64 * 1024;

/// Where a compressed source is decompressed (and how a plain one is buffered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decompression {
    /// By the thread that reads the source (`--threads 1` runs on one thread).
    InLine,
    /// On a thread of its own, a few blocks ahead of the reading (several threads: the
    /// workers take turns reading, and none of them then waits for a decompressor); a
    /// plain source is read past a small buffer, straight into the chunks.
    Ahead,
}

/// A source opened: PGN text, or a Parquet table whose rows are games.
pub enum Opened {
    Text(Decoded),
    Table(Box<TableGames>),
}

/// Opens the source: a regular file that starts with `PAR1` is a Parquet table (read by
/// seeking in it), anything else a stream decoded as its first bytes call for.
/// `counter` adds up the bytes read from the source itself, for the progress bar.
/// Decompression is in line.
pub fn open_source(source: &Source, limits: Limits, counter: Arc<AtomicU64>) -> io::Result<Opened> {
    open_source_with(source, limits, counter, Decompression::InLine)
}

/// As [`open_source`], decompressing where `decompression` says.
pub fn open_source_with(
    source: &Source,
    limits: Limits,
    counter: Arc<AtomicU64>,
    decompression: Decompression,
) -> io::Result<Opened> {
    if let Source::File { path, .. } = source {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::other("is a directory"));
        }
        // Only a regular file can be peeked at and read again; a pipe goes to `decode`,
        // which tells Parquet it cannot read.
        if meta.is_file() {
            if table::is_parquet(&mut file)? {
                let games = TableGames::open(file, Arc::from(source.name()), limits, counter)?;
                return Ok(Opened::Table(Box::new(games)));
            }
            file.seek(SeekFrom::Start(0))?;
        }
        return decode_counted(Box::new(file), source.name(), counter, decompression)
            .map(Opened::Text);
    }
    open_decoded_with(source, counter, decompression).map(Opened::Text)
}

/// Opens the source and wraps it in the decoder its first bytes call for; `counter` adds
/// up the bytes read from the source itself (compressed), for the progress bar.
pub fn open_decoded(source: &Source, counter: Arc<AtomicU64>) -> io::Result<Decoded> {
    open_decoded_with(source, counter, Decompression::InLine)
}

fn open_decoded_with(
    source: &Source,
    counter: Arc<AtomicU64>,
    decompression: Decompression,
) -> io::Result<Decoded> {
    let raw: Box<dyn Read + Send> = match source {
        Source::Stdin => Box::new(io::stdin()),
        Source::File { path, .. } => {
            let file = File::open(path)?;
            if file.metadata()?.is_dir() {
                return Err(io::Error::other("is a directory"));
            }
            Box::new(file)
        }
    };
    decode_counted(raw, source.name(), counter, decompression)
}

fn decode_counted(
    raw: Box<dyn Read + Send>,
    name: &str,
    counter: Arc<AtomicU64>,
    decompression: Decompression,
) -> io::Result<Decoded> {
    decode_with(
        Box::new(Counting {
            inner: raw,
            counter,
        }),
        name,
        decompression,
    )
}

/// A source's decompressed bytes.
pub type Decoded = Box<dyn BufRead + Send>;

/// Counts the bytes that pass through.
struct Counting {
    inner: Box<dyn Read + Send>,
    counter: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Wraps any byte stream (of the source `name`) in the decoder its magic bytes call for,
/// decompressing where `decompression` says; an archive pgnkit does not unpack is an
/// error that says how to unpack it.
pub fn decode_with(
    raw: Box<dyn Read + Send>,
    name: &str,
    decompression: Decompression,
) -> io::Result<Decoded> {
    let mut reader = BufReader::with_capacity(BUFFER_SIZE, raw);
    // Enough for the magic bytes and for the UTF-16/32 check the splitter makes on the
    // first buffer, even when the first read is short (a pipe).
    let head = fill_at_least(&mut reader, super::encoding::WIDE_WINDOW)?;
    if let Some(hint) = unsupported_archive(&head, name) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, hint));
    }
    let reader: Box<dyn BufRead + Send> = if head.starts_with(&[0x1f, 0x8b]) {
        decompressed(
            Box::new(flate2::bufread::MultiGzDecoder::new(reader)),
            decompression,
        )?
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        decompressed(
            Box::new(zstd::stream::read::Decoder::with_buffer(reader)?),
            decompression,
        )?
    } else if head.starts_with(b"BZh") {
        decompressed(
            Box::new(bzip2::bufread::MultiBzDecoder::new(reader)),
            decompression,
        )?
    } else if decompression == Decompression::Ahead {
        // A plain file's bytes are a copy from the page cache: nothing to do ahead, but
        // the chunks are read past the buffer.
        return Ok(Box::new(read_past(reader)?));
    } else {
        Box::new(reader)
    };
    // Old Mac files (lone CR line ends) are read with LF line ends.
    let reader = Box::new(LineEnds::new(reader));
    Ok(reader)
}

/// The buffer of a plain stream the workers cut into chunks (`Decompression::Ahead`).
/// A chunk reads about as many bytes as its 512 lines take (some 20 KiB), less than
/// `BUFFER_SIZE`: through a buffer that large every byte was copied twice, from the page
/// cache into the buffer and from there into the chunk (0.9% of `validate`'s instructions
/// at two threads, in the reading turn that the workers take one at a time). A
/// `BufReader` hands a read at least as large as its buffer straight to its source.
const READ_PAST_BUFFER: usize = 8 * 1024;

/// `reader`, from the bytes it holds (the peeked head), behind a buffer that reads of a
/// chunk's size pass by; its line ends decided on those bytes, the first buffer that the
/// in-line reading decides them on, so that they are read alike at any `--threads`.
fn read_past(
    mut reader: BufReader<Box<dyn Read + Send>>,
) -> io::Result<LineEnds<BufReader<Box<dyn Read + Send>>>> {
    let first = reader.fill_buf()?.to_vec();
    let translate = line_ends::translates(&first);
    let source = reader.into_inner();
    Ok(LineEnds::decided(
        led_by(first, Box::new(source), READ_PAST_BUFFER),
        translate,
    ))
}

/// `rest` behind a buffer of `capacity` bytes, led by `head`, bytes already read from it.
fn led_by(
    head: Vec<u8>,
    rest: Box<dyn Read + Send>,
    capacity: usize,
) -> BufReader<Box<dyn Read + Send>> {
    BufReader::with_capacity(capacity, Box::new(io::Cursor::new(head).chain(rest)))
}

/// A decompressor's bytes, buffered in line or made ahead on a thread of their own.
fn decompressed(
    decoder: Box<dyn Read + Send>,
    decompression: Decompression,
) -> io::Result<Box<dyn BufRead + Send>> {
    Ok(match decompression {
        Decompression::InLine => Box::new(BufReader::with_capacity(BUFFER_SIZE, decoder)),
        Decompression::Ahead => Box::new(Ahead::spawn(decoder)?),
    })
}

/// Decompressed bytes made on a thread of their own, a few blocks ahead of the reader:
/// the decompressor runs while the workers split and replay. The thread ends at the end
/// of the stream, after a read error (handed on after the bytes before it), or when the
/// reader is dropped (its next block has nowhere to go); it is not waited for, as it may
/// be blocked reading a pipe.
struct Ahead {
    blocks: crossbeam_channel::Receiver<io::Result<Block>>,
    /// Blocks read, handed back for the decompressor to fill again.
    spent: crossbeam_channel::Sender<Vec<u8>>,
    block: Block,
    at: usize,
    done: bool,
}

/// A buffer of `AHEAD_BLOCK` bytes and how many of them hold data.
struct Block {
    bytes: Vec<u8>,
    filled: usize,
}

/// The size of a block: the in-line reader's buffer size.
const AHEAD_BLOCK: usize = BUFFER_SIZE;
/// Blocks made ahead of the reading (with the reader's own and the one being filled: a
/// few hundred KiB, against the decompressor's window of megabytes).
const AHEAD_BLOCKS: usize = 4;

impl Ahead {
    fn spawn(mut decoder: Box<dyn Read + Send>) -> io::Result<Ahead> {
        let (filled, blocks) = crossbeam_channel::bounded(AHEAD_BLOCKS);
        let (spent, reused) = crossbeam_channel::bounded::<Vec<u8>>(AHEAD_BLOCKS + 2);
        std::thread::Builder::new()
            .name("decompress".into())
            .spawn(move || {
                loop {
                    let bytes = reused.try_recv().unwrap_or_else(|_| vec![0; AHEAD_BLOCK]);
                    let (block, failed) = fill_block(&mut *decoder, bytes);
                    let end = block.filled == 0 || failed.is_some();
                    if block.filled > 0 && filled.send(Ok(block)).is_err() {
                        return;
                    }
                    if let Some(err) = failed {
                        let _ = filled.send(Err(err));
                    }
                    if end {
                        return;
                    }
                }
            })?;
        Ok(Ahead {
            blocks,
            spent,
            block: Block {
                bytes: Vec::new(),
                filled: 0,
            },
            at: 0,
            done: false,
        })
    }
}

/// Fills `bytes` from `decoder` (short only at the end of the stream or at an error).
/// Never inlined, so that a profile shows the decompressor's share (scripts/scaling.py).
#[inline(never)]
fn fill_block(decoder: &mut dyn Read, mut bytes: Vec<u8>) -> (Block, Option<io::Error>) {
    if bytes.len() < AHEAD_BLOCK {
        bytes.resize(AHEAD_BLOCK, 0);
    }
    let mut filled = 0;
    let mut failed = None;
    while let Some(room) = bytes.get_mut(filled..).filter(|room| !room.is_empty()) {
        match decoder.read(room) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => {
                failed = Some(err);
                break;
            }
        }
    }
    (Block { bytes, filled }, failed)
}

impl BufRead for Ahead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at >= self.block.filled && !self.done {
            match self.blocks.recv() {
                Ok(Ok(block)) => {
                    let read = std::mem::replace(&mut self.block, block);
                    if read.bytes.len() == AHEAD_BLOCK {
                        let _ = self.spent.try_send(read.bytes);
                    }
                    self.at = 0;
                }
                Ok(Err(err)) => {
                    self.done = true;
                    return Err(err);
                }
                // The stream ended.
                Err(_) => self.done = true,
            }
        }
        Ok(self
            .block
            .bytes
            .get(self.at..self.block.filled)
            .unwrap_or_default())
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.block.filled);
    }
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), available.get(..n)) {
            to.copy_from_slice(from);
        }
        self.consume(n);
        Ok(n)
    }
}

/// What to do with an archive or compression format that is not read here (its bytes
/// would otherwise be read as PGN and reported as nonsense moves, or printed raw).
fn unsupported_archive(head: &[u8], name: &str) -> Option<String> {
    // Stdin has no file name to put in the example.
    let file = |example: &str| {
        if name == "-" {
            example.to_string()
        } else {
            name.to_string()
        }
    };
    let hint = if head.starts_with(table::MAGIC) {
        // The footer, at the end, says where everything is: a stream will not do.
        "a Parquet file: give its path (Parquet is read by seeking in the file, not from \
         stdin or a pipe)"
            .to_string()
    } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        format!(
            "a zip archive: extract it first, e.g. `unzip -p {} | pgnkit validate -`",
            file("x.zip")
        )
    } else if head.starts_with(b"\xfd7zXZ\x00") {
        format!(
            "an xz file: decompress it first, e.g. `xz -dc {} | pgnkit validate -`",
            file("x.xz")
        )
    } else if head.starts_with(b"7z\xbc\xaf\x27\x1c") {
        format!(
            "a 7z archive: extract it first, e.g. `7z x -so {} | pgnkit validate -`",
            file("x.7z")
        )
    } else if head.starts_with(b"Rar!\x1a\x07") {
        format!(
            "a rar archive: extract it first, e.g. `unrar p -inul {} | pgnkit validate -`",
            file("x.rar")
        )
    } else {
        return None;
    };
    Some(hint)
}

/// Peeks at the first `n` bytes (fewer at end of stream) without consuming them.
fn fill_at_least(reader: &mut BufReader<Box<dyn Read + Send>>, n: usize) -> io::Result<Vec<u8>> {
    // A BufReader only refills when empty, so a short first read (a pipe) is completed by
    // hand into a fresh buffer that then leads the stream.
    let first = reader.fill_buf()?.to_vec();
    if first.len() >= n || first.is_empty() {
        return Ok(first);
    }
    let mut head = first;
    reader.consume(head.len());
    while head.len() < n {
        let more = reader.fill_buf()?;
        if more.is_empty() {
            break;
        }
        let take = more.len();
        head.extend_from_slice(more);
        reader.consume(take);
    }
    let rest = std::mem::replace(reader, BufReader::new(Box::new(io::empty())));
    *reader = led_by(head.clone(), Box::new(rest), BUFFER_SIZE);
    Ok(head)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use std::io::{BufRead, Read};

    use super::{Decompression, decode_with};

    /// Hands out one byte per read, as a slow pipe may.
    struct Trickle(std::io::Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let one = buf.get_mut(..1).unwrap_or_default();
            self.0.read(one)
        }
    }

    /// The first buffer the splitter sees holds the whole window of the UTF-16 check,
    /// however short the first read was.
    #[test]
    fn a_short_first_read_still_shows_the_encoding_window() {
        let utf16: Vec<u8> = "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 *\n[Event \"c\"]"
            .bytes()
            .flat_map(|b| [b, 0])
            .collect();
        let trickle = Box::new(Trickle(std::io::Cursor::new(utf16.clone())));
        let mut reader = decode_with(trickle, "-", Decompression::InLine).unwrap();
        let head = reader.fill_buf().unwrap();
        assert!(head.len() >= super::super::encoding::WIDE_WINDOW);
        assert!(super::super::encoding::looks_wide(head));
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, utf16);
    }

    /// More blocks than are made ahead, so that the decompressor waits for the reader
    /// and reuses the blocks handed back.
    fn games(count: usize) -> Vec<u8> {
        (0..count)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 {{{i}}} *\n\n").into_bytes())
            .collect()
    }

    fn read_all(bytes: Vec<u8>, decompression: Decompression) -> (Vec<u8>, Option<String>) {
        let mut reader =
            decode_with(Box::new(std::io::Cursor::new(bytes)), "-", decompression).unwrap();
        let mut all = Vec::new();
        let failed = reader
            .read_to_end(&mut all)
            .err()
            .map(|err| err.kind().to_string());
        (all, failed)
    }

    /// Decompressed ahead, on a thread of its own, a stream gives the bytes it gives in
    /// line: gzip, zstd and bzip2, and a plain file (never decompressed ahead).
    #[test]
    fn decompressed_ahead_as_in_line() {
        use std::io::Write;
        let text = games(30_000);
        assert!(text.len() > 3 * super::AHEAD_BLOCK * super::AHEAD_BLOCKS);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&text).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(&text).unwrap();
        let streams = [
            gz.finish().unwrap(),
            zstd::encode_all(text.as_slice(), 1).unwrap(),
            bz.finish().unwrap(),
            text.clone(),
        ];
        for stream in streams {
            let ahead = read_all(stream.clone(), Decompression::Ahead);
            assert_eq!(ahead, read_all(stream, Decompression::InLine));
            assert_eq!(ahead, (text.clone(), None));
        }
    }

    /// A stream cut short gives the bytes before the cut, then the decompressor's error,
    /// ahead as in line.
    #[test]
    fn a_cut_stream_fails_after_its_bytes_ahead_as_in_line() {
        let mut zst = zstd::encode_all(games(30_000).as_slice(), 1).unwrap();
        zst.truncate(zst.len() / 2);
        let in_line = read_all(zst.clone(), Decompression::InLine);
        assert!(in_line.1.is_some());
        assert!(!in_line.0.is_empty());
        assert_eq!(read_all(zst, Decompression::Ahead), in_line);
    }

    /// Records the size of each read asked of it.
    struct Asked {
        bytes: std::io::Cursor<Vec<u8>>,
        sizes: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
    }

    impl Read for Asked {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.sizes.lock().unwrap().push(buf.len());
            self.bytes.read(buf)
        }
    }

    /// On the parallel path a plain stream's reads of a chunk's size (smaller than the
    /// in-line buffer) reach the file itself: the bytes are not copied through a buffer.
    #[test]
    fn a_plain_stream_read_ahead_passes_chunk_reads_to_its_source() {
        let sizes = std::sync::Arc::default();
        let source = Asked {
            bytes: std::io::Cursor::new(games(20_000)),
            sizes: std::sync::Arc::clone(&sizes),
        };
        let mut reader = decode_with(Box::new(source), "-", Decompression::Ahead).unwrap();
        let mut chunk = vec![0; 20_000];
        while reader.read(&mut chunk).unwrap() > 0 {}
        let sizes = sizes.lock().unwrap();
        // The head, peeked at in one buffer, then the chunks' reads as they were asked.
        assert_eq!(sizes.first(), Some(&super::BUFFER_SIZE));
        assert!(sizes.len() > 10, "{sizes:?}");
        assert!(sizes.iter().skip(1).all(|&n| n == chunk.len()), "{sizes:?}");
    }

    /// A plain stream's line ends are decided on the same first buffer on the parallel
    /// path, whose buffer is smaller, as in line: here its first lone CR is past the
    /// smaller buffer's end and within the larger's.
    #[test]
    fn lone_crs_are_found_in_the_same_first_buffer_ahead_as_in_line() {
        let mut text = games(1_000);
        assert!(text.len() > super::READ_PAST_BUFFER && text.len() < super::BUFFER_SIZE);
        text.extend_from_slice(b"[Event \"cr\"]\r\r1. e4 e5 *\r");
        text.extend(games(2_000));
        let in_line = read_all(text.clone(), Decompression::InLine);
        assert!(memchr::memmem::find(&in_line.0, crate::pgn::LONE_CR).is_some());
        assert_eq!(read_all(text, Decompression::Ahead), in_line);
    }
}
