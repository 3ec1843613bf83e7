//! `--format`, and the one way a command opens the sink its data goes to: its own text, or
//! records of one type (CSV, JSON lines, Parquet, written by `output::records`). Parquet is
//! refused on a terminal and encoded ahead with worker threads here, so every command
//! that writes records does both the same way.

use std::fmt;
use std::io::Write;

use super::records::RecordWriter;
use crate::record::{Json, Record};

/// `--format`: a command's text form, or one of the record formats. Each command takes
/// the values its flag lists (`cmd::args::format_values`, `cmd::args::FormatList`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Csv,
    Jsonl,
    Parquet,
}

impl Format {
    /// The value `--format` takes.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Parquet => "parquet",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--format` checked against where the data goes, before anything is opened; `open`
/// then opens the sink. The two steps are apart because a command opens its other
/// outputs between them (`stats --summary-output`), and a refusal must come first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinkFormat {
    format: Format,
    /// The worker threads: above 1, Parquet row groups are encoded apart, on as many
    /// threads.
    threads: usize,
}

impl SinkFormat {
    /// Text, with nothing to check: the error findings `fen` and `convert` write on
    /// stderr.
    pub const TEXT: SinkFormat = SinkFormat {
        format: Format::Text,
        threads: 1,
    };

    /// Parquet is binary: refused when the data goes to a terminal (it needs `-o FILE` or
    /// a pipe). With worker threads (`threads` above 1) its row groups are encoded apart,
    /// each group's columns shared among as many threads, so the workers do not wait
    /// while one is compressed (`ParquetTable::encode_ahead`); `--threads 1` stays one
    /// thread. The bytes are the same either way.
    pub fn new(
        format: Format,
        data_on_terminal: bool,
        threads: usize,
    ) -> anyhow::Result<SinkFormat> {
        if format == Format::Parquet && data_on_terminal {
            anyhow::bail!("--format parquet writes a binary file: give -o FILE or pipe the output");
        }
        Ok(SinkFormat { format, threads })
    }

    /// The format checked.
    pub fn format(self) -> Format {
        self.format
    }

    /// The sink of a command's data on `out`: `out` itself for text, else a writer of
    /// `R` records that has written the CSV header (so a run without records still gives
    /// a table, and Parquet a file with the columns and no row). `extra` names string
    /// columns after the record type's own (`stats --tags`; the record pushes their cells
    /// last).
    pub fn open<R: Record, W: Write + Send>(
        self,
        out: W,
        extra: &[String],
    ) -> anyhow::Result<Sink<W>> {
        self.open_typed::<R, W>(out, &string_columns(extra))
    }

    /// As [`SinkFormat::open`], for a command that writes records only (its `--format`
    /// does not take text: text here is an error).
    pub fn open_records<R: Record, W: Write + Send>(
        self,
        out: W,
        extra: &[String],
    ) -> anyhow::Result<RecordWriter<W>> {
        self.open_typed_records::<R, W>(out, &string_columns(extra))
    }

    /// As [`SinkFormat::open`], with `extra` columns of any type (`standings`' tie-breaks).
    pub fn open_typed<R: Record, W: Write + Send>(
        self,
        out: W,
        extra: &[(String, Json)],
    ) -> anyhow::Result<Sink<W>> {
        if self.format == Format::Text {
            return Ok(Sink::Text(out));
        }
        Ok(Sink::Records(self.open_typed_records::<R, W>(out, extra)?))
    }

    /// As [`SinkFormat::open_records`], with `extra` columns of any type (`standings`'
    /// tie-breaks, decimals).
    pub fn open_typed_records<R: Record, W: Write + Send>(
        self,
        out: W,
        extra: &[(String, Json)],
    ) -> anyhow::Result<RecordWriter<W>> {
        let mut records = RecordWriter::new::<R>(out, self.format, extra)?;
        if self.threads > 1 {
            records.encode_ahead(self.threads)?;
        }
        Ok(records)
    }
}

/// Run-time columns named by the user (`--tags`): strings.
fn string_columns(names: &[String]) -> Vec<(String, Json)> {
    names
        .iter()
        .map(|name| (name.clone(), Json::String))
        .collect()
}

/// Where a command's data goes: its own text, or records.
pub enum Sink<W: Write + Send> {
    Text(W),
    Records(RecordWriter<W>),
}

impl<W: Write + Send> Sink<W> {
    /// Ends the records (Parquet's last row group and footer) and hands back the
    /// destination.
    pub fn finish(self) -> anyhow::Result<W> {
        match self {
            Sink::Text(out) => Ok(out),
            Sink::Records(records) => records.finish(),
        }
    }
}
