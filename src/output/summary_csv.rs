//! The summary file (`stats --summary-output`, `section,key,count`): written here, and read
//! back here by `stats --merge`, so that its format is decided in one place. The figures
//! themselves are `stats::Summary`'s.

use std::io::{Read, Write};

use anyhow::{Context as _, bail};

use crate::stats::Summary;

const HEADER: [&str; 3] = ["section", "key", "count"];

/// The longest line of a summary file read by `--merge`: its lines are a section, a key
/// and a count, tens of bytes.
pub const MAX_SUMMARY_LINE: usize = 64 * 1024;

/// A reader that fails at a line longer than `max` bytes, naming the line.
struct LineLimit<R> {
    inner: R,
    max: usize,
    /// Bytes since the last line end, and lines ended so far.
    in_line: usize,
    lines: u64,
}

impl<R: Read> LineLimit<R> {
    fn new(inner: R, max: usize) -> LineLimit<R> {
        LineLimit {
            inner,
            max,
            in_line: 0,
            lines: 0,
        }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for &byte in buf.get(..n).unwrap_or_default() {
            if byte == b'\n' {
                self.lines += 1;
                self.in_line = 0;
            } else {
                self.in_line += 1;
                if self.in_line > self.max {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("line {} is longer than {} bytes", self.lines + 1, self.max),
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// Writes the `section,key,count` CSV, rows sorted.
pub fn write_summary_csv(summary: &Summary, out: impl Write) -> anyhow::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(HEADER)?;
    for (section, key, n) in summary.rows() {
        writer.write_record([section, key, &n.to_string()])?;
    }
    writer.flush()?;
    Ok(())
}

/// Reads a `section,key,count` CSV written by `write_summary_csv`; `name` names it in errors.
/// It is read as a stream; a line longer than `MAX_SUMMARY_LINE` is an error that names
/// it (a file without line ends, such as `/dev/zero`, is not read into memory).
pub fn read_summary_csv(input: impl Read, name: &str) -> anyhow::Result<Summary> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(LineLimit::new(input, MAX_SUMMARY_LINE));
    let header = reader
        .headers()
        .with_context(|| format!("{name}: cannot read the header"))?;
    if header.iter().ne(HEADER) {
        bail!(
            "{name}: not a stats summary (the header must be `section,key,count`, found `{}`)",
            header.iter().collect::<Vec<_>>().join(",")
        );
    }
    let mut summary = Summary::default();
    for record in reader.records() {
        let record = record.with_context(|| format!("{name}: unreadable CSV"))?;
        let line = record.position().map_or(0, |p| p.line());
        let (Some(section), Some(key), Some(count), None) =
            (record.get(0), record.get(1), record.get(2), record.get(3))
        else {
            bail!("{name}:{line}: expected 3 fields, found {}", record.len());
        };
        let count: u64 = count
            .trim()
            .parse()
            .with_context(|| format!("{name}:{line}: count `{count}` is not a number"))?;
        summary
            .add(section, key, count)
            .with_context(|| format!("{name}:{line}"))?;
    }
    Ok(summary)
}
