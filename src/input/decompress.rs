//! Opening a source as a stream of decompressed bytes, or as a Parquet table of games;
//! the format is told by magic bytes, so stdin and misnamed files work too.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::table::{self, TableGames};
use super::{Limits, Source};

const BUFFER_SIZE: usize = 64 * 1024;

/// A source opened: PGN text, or a Parquet table whose rows are games.
pub enum Opened {
    Text(Decoded),
    Table(Box<TableGames>),
}

/// Opens the source: a regular file that starts with `PAR1` is a Parquet table (read by
/// seeking in it), anything else a stream decoded as its first bytes call for.
/// `counter` adds up the bytes read from the source itself, for the progress bar.
pub fn open_source(source: &Source, limits: Limits, counter: Arc<AtomicU64>) -> io::Result<Opened> {
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
        return decode_counted(Box::new(file), source.name(), counter).map(Opened::Text);
    }
    open_decoded(source, counter).map(Opened::Text)
}

/// Opens the source and wraps it in the decoder its first bytes call for; `counter` adds
/// up the bytes read from the source itself (compressed), for the progress bar.
pub fn open_decoded(source: &Source, counter: Arc<AtomicU64>) -> io::Result<Decoded> {
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
    decode_counted(raw, source.name(), counter)
}

fn decode_counted(
    raw: Box<dyn Read + Send>,
    name: &str,
    counter: Arc<AtomicU64>,
) -> io::Result<Decoded> {
    decode(
        Box::new(Counting {
            inner: raw,
            counter,
        }),
        name,
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

/// Wraps any byte stream (of the source `name`) in the decoder its magic bytes call for;
/// an archive pgnkit does not unpack is an error that says how to unpack it.
pub fn decode(raw: Box<dyn Read + Send>, name: &str) -> io::Result<Decoded> {
    let mut reader = BufReader::with_capacity(BUFFER_SIZE, raw);
    // Enough for the magic bytes and for the UTF-16/32 check the splitter makes on the
    // first buffer, even when the first read is short (a pipe).
    let head = fill_at_least(&mut reader, super::encoding::WIDE_WINDOW)?;
    if let Some(hint) = unsupported_archive(&head, name) {
        return Err(io::Error::new(io::ErrorKind::InvalidData, hint));
    }
    let reader: Box<dyn BufRead + Send> = if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::with_capacity(
            BUFFER_SIZE,
            flate2::bufread::MultiGzDecoder::new(reader),
        ))
    } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        Box::new(BufReader::with_capacity(
            BUFFER_SIZE,
            zstd::stream::read::Decoder::with_buffer(reader)?,
        ))
    } else if head.starts_with(b"BZh") {
        Box::new(BufReader::with_capacity(
            BUFFER_SIZE,
            bzip2::bufread::MultiBzDecoder::new(reader),
        ))
    } else {
        Box::new(reader)
    };
    // Old Mac files (lone CR line ends) are read with LF line ends.
    let reader = Box::new(super::line_ends::LineEnds::new(reader));
    Ok(reader)
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
    let chained: Box<dyn Read + Send> = Box::new(io::Cursor::new(head.clone()).chain(rest));
    *reader = BufReader::with_capacity(BUFFER_SIZE, chained);
    Ok(head)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use std::io::{BufRead, Read};

    use super::decode;

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
        let mut reader =
            decode(Box::new(Trickle(std::io::Cursor::new(utf16.clone()))), "-").unwrap();
        let head = reader.fill_buf().unwrap();
        assert!(head.len() >= super::super::encoding::WIDE_WINDOW);
        assert!(super::super::encoding::looks_wide(head));
        let mut all = Vec::new();
        reader.read_to_end(&mut all).unwrap();
        assert_eq!(all, utf16);
    }
}
