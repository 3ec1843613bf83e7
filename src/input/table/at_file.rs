//! A Parquet file read at positions: each reader the parquet crate asks for keeps its
//! own offset, where the crate's own `File` readers share the file's one offset (clones
//! of a handle), so row groups can be decoded on several threads at once.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::sync::Arc;

use bytes::Bytes;
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, Length};

/// The file, shared by the readers made from it.
pub(super) struct AtFile {
    file: Arc<File>,
    len: u64,
}

impl AtFile {
    pub(super) fn new(file: File) -> io::Result<AtFile> {
        let len = file.metadata()?.len();
        Ok(AtFile {
            file: Arc::new(file),
            len,
        })
    }
}

impl Length for AtFile {
    fn len(&self) -> u64 {
        self.len
    }
}

/// A reader of the file from an offset of its own.
pub(super) struct ReadAt {
    file: Arc<File>,
    at: u64,
}

impl Read for ReadAt {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = read_at(&self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl ChunkReader for AtFile {
    type T = BufReader<ReadAt>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        Ok(BufReader::new(ReadAt {
            file: self.file.clone(),
            at: start,
        }))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        let mut buffer = Vec::with_capacity(length);
        let reader = ReadAt {
            file: self.file.clone(),
            at: start,
        };
        let read = reader.take(length as u64).read_to_end(&mut buffer)?;
        if read != length {
            return Err(ParquetError::EOF(format!(
                "expected to read {length} bytes, read only {read}"
            )));
        }
        Ok(buffer.into())
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use std::io::{Read, Write};

    use parquet::file::reader::ChunkReader;

    use super::AtFile;

    /// Two readers of one file, read in turns past their buffers, each read its own
    /// bytes (the crate's `File` readers, clones sharing one offset, would not).
    #[test]
    fn readers_keep_their_own_offsets() {
        let bytes: Vec<u8> = (0..65_536u32).map(|i| (i % 251) as u8).collect();
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bytes).unwrap();
        let file = AtFile::new(file).unwrap();
        let (mut a, mut b) = (file.get_read(0).unwrap(), file.get_read(32_768).unwrap());
        let read = |reader: &mut dyn Read| {
            let mut buf = vec![0; 12_000];
            reader.read_exact(&mut buf).unwrap();
            buf
        };
        let (a1, b1, a2, b2) = (read(&mut a), read(&mut b), read(&mut a), read(&mut b));
        assert_eq!(a1, bytes[..12_000]);
        assert_eq!(a2, bytes[12_000..24_000]);
        assert_eq!(b1, bytes[32_768..44_768]);
        assert_eq!(b2, bytes[44_768..56_768]);
        assert_eq!(file.get_bytes(65_000, 536).unwrap(), bytes[65_000..]);
        assert!(file.get_bytes(65_000, 537).is_err());
    }
}
