//! One writer for every command that writes records (validate's findings, check-fen's
//! defects, fen's positions, stats' rows): CSV with a header, JSON lines, or Parquet. A
//! record type (`crate::record`) names its columns once, each with its JSON type; its
//! cells are the text CSV writes, and JSON and Parquet (`output::parquet`) take each
//! cell's type from its column.

use std::cell::RefCell;
use std::io::Write;

use super::parquet::ParquetTable;
use super::parquet::Rows;
use super::sink::Format;
use crate::record::{CellSink, Cells, Json, Record, Typed};

/// Writes records of one type in one format.
pub struct RecordWriter<W: Write + Send> {
    out: Destination<W>,
    format: Format,
    /// Columns named at run time after the record type's own: strings (`stats --tags`),
    /// or typed (`standings`' tie-breaks).
    extra: Vec<(String, Json)>,
}

/// Text records go straight to the destination; Parquet ones are gathered in row groups.
enum Destination<W: Write + Send> {
    Text(W),
    Parquet(Box<ParquetTable<W>>),
}

impl<W: Write + Send> RecordWriter<W> {
    /// A writer that has written the CSV header, so a run without records still gives a
    /// table (and Parquet a file with the columns and no row). `extra` names the columns
    /// that follow the record type's own, with their types (the record pushes their cells
    /// last). Commands open one through `SinkFormat::open`.
    pub(super) fn new<R: Record>(
        mut out: W,
        format: Format,
        extra: &[(String, Json)],
    ) -> anyhow::Result<RecordWriter<W>> {
        let out = match format {
            Format::Text => anyhow::bail!(NOT_A_RECORD_FORMAT),
            Format::Csv => {
                out.write_all(&csv_header::<R>(Extra::Typed(extra)))?;
                Destination::Text(out)
            }
            Format::Jsonl => Destination::Text(out),
            Format::Parquet => Destination::Parquet(Box::new(ParquetTable::new(
                out,
                columns::<R>(Extra::Typed(extra)),
                R::EMPTY_STRING_IS_NULL,
            )?)),
        };
        Ok(RecordWriter {
            out,
            format,
            extra: extra.to_vec(),
        })
    }

    /// Parquet row groups encoded apart, their columns shared among `threads` threads
    /// (`SinkFormat::new` says when).
    pub(super) fn encode_ahead(&mut self, threads: usize) -> anyhow::Result<()> {
        if let Destination::Parquet(table) = &mut self.out {
            table.encode_ahead(threads)?;
        }
        Ok(())
    }

    pub fn write<R: Record>(&mut self, record: &R) -> anyhow::Result<()> {
        let encoded = encode_extra(
            std::iter::once(record),
            self.format,
            Extra::Typed(&self.extra),
        )?;
        self.write_encoded(&encoded)
    }

    /// Writes the records `encode` or `encode_rows` made (on a worker thread).
    pub fn write_encoded(&mut self, encoded: &Encoded) -> anyhow::Result<()> {
        match (&mut self.out, encoded) {
            (Destination::Text(out), Encoded::Text(bytes)) => out.write_all(bytes)?,
            (Destination::Parquet(table), Encoded::Rows(rows)) => table.push_rows(rows)?,
            (Destination::Parquet(table), Encoded::Typed(typed)) => table.push_typed(typed)?,
            _ => anyhow::bail!("records encoded for another format"),
        }
        Ok(())
    }

    /// Ends the records (Parquet's last row group and footer) and hands back the
    /// destination.
    pub fn finish(self) -> anyhow::Result<W> {
        match self.out {
            Destination::Text(out) => Ok(out),
            Destination::Parquet(table) => table.finish(),
        }
    }
}

/// A command's text is its own: a record has none (its `--format` does not offer text).
const NOT_A_RECORD_FORMAT: &str = "--format text writes no records";

/// The columns named at run time after a record type's own: strings (`--tags`) or typed.
#[derive(Debug, Clone, Copy)]
enum Extra<'e> {
    Strings(&'e [String]),
    Typed(&'e [(String, Json)]),
}

impl<'e> Extra<'e> {
    fn columns(self) -> impl Iterator<Item = (&'e str, Json)> + Clone {
        let (strings, typed): (&[String], &[(String, Json)]) = match self {
            Extra::Strings(names) => (names, &[]),
            Extra::Typed(columns) => (&[], columns),
        };
        let strings = strings.iter().map(|name| (name.as_str(), Json::String));
        strings.chain(typed.iter().map(|(name, json)| (name.as_str(), *json)))
    }
}

/// The columns of a record type, then the `extra` columns: names and JSON types.
fn columns<'e, R: Record>(extra: Extra<'e>) -> impl Iterator<Item = (&'e str, Json)> + Clone {
    R::COLUMNS
        .iter()
        .map(|column| (column.name, column.json))
        .chain(extra.columns())
}

/// Records encoded on a worker: the bytes of CSV or JSON lines, or Parquet's typed cells:
/// column by column where they are many (`COLUMNS_FROM`), row after row where few.
#[derive(Debug)]
pub enum Encoded {
    Text(Vec<u8>),
    Rows(Rows),
    Typed(Typed),
}

/// From this many records in one piece (`moves`' of a game), the worker sorts their cells
/// into columns, so that the writer only appends each column; one record (a `stats`
/// game's row) is kept in two buffers, which the writer sorts: columns of its own would
/// cost more to make, hand over and free than the one cell in each (+16% instructions
/// for `stats --format parquet`, more at two threads).
const COLUMNS_FROM: usize = 2;

impl Encoded {
    /// The bytes of CSV or JSON lines (none for Parquet's cells).
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Encoded::Text(bytes) => Some(bytes),
            Encoded::Rows(_) | Encoded::Typed(_) => None,
        }
    }
}

/// One record in `format`, with its line end (`extra`: as `RecordWriter::new` takes them;
/// Parquet: the typed cells, for [`RecordWriter::write_encoded`] to gather).
pub fn encode<R: Record>(record: &R, format: Format, extra: &[String]) -> anyhow::Result<Encoded> {
    encode_rows(std::iter::once(record), format, extra)
}

/// As [`encode`], for the records one game gives, in one piece. Each thread keeps its
/// text cells' buffer, so the records cost one allocation (two for Parquet).
pub fn encode_rows<R: Record>(
    records: impl IntoIterator<Item = R>,
    format: Format,
    extra: &[String],
) -> anyhow::Result<Encoded> {
    encode_extra(records, format, Extra::Strings(extra))
}

/// As [`encode_rows`], with the run-time columns of either kind.
fn encode_extra<R: Record>(
    records: impl IntoIterator<Item = R>,
    format: Format,
    extra: Extra<'_>,
) -> anyhow::Result<Encoded> {
    let records = records.into_iter();
    if format == Format::Parquet {
        let many = records.size_hint().0;
        if many >= COLUMNS_FROM {
            let types = columns::<R>(extra).map(|(_, json)| json);
            let rows = Rows::new(types, R::EMPTY_STRING_IS_NULL, many);
            return Ok(Encoded::Rows(cells_of(records, rows)));
        }
        return Ok(Encoded::Typed(cells_of(records, Typed::default())));
    }
    let mut out = Vec::new();
    for record in records {
        encode_text::<R>(|cells| record.cells(cells), format, extra, &mut out)?;
    }
    Ok(Encoded::Text(out))
}

/// As [`encode`], with the cells of an `R` that `fill` writes (from cells made earlier,
/// not made again; Parquet parses them by their columns' types).
pub fn encode_with<R: Record>(
    fill: impl FnOnce(&mut Cells),
    format: Format,
    extra: &[String],
) -> anyhow::Result<Encoded> {
    if format == Format::Parquet {
        let mut cells = Cells::default();
        fill(&mut cells);
        return Ok(Encoded::Typed(Typed::of_text(&cells)));
    }
    let mut out = Vec::new();
    encode_text::<R>(fill, format, Extra::Strings(extra), &mut out)?;
    Ok(Encoded::Text(out))
}

/// `records`' cells pushed into `sink`, record after record.
fn cells_of<R: Record, S: CellSink>(records: impl Iterator<Item = R>, mut sink: S) -> S {
    for record in records {
        record.cells(&mut sink);
    }
    sink
}

/// Appends one record as CSV or JSON lines to `out`, its cells written by `fill` into
/// the thread's buffer.
fn encode_text<R: Record>(
    fill: impl FnOnce(&mut Cells),
    format: Format,
    extra: Extra<'_>,
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    thread_local! {
        static CELLS: RefCell<Cells> = RefCell::new(Cells::default());
    }
    CELLS.with_borrow_mut(|cells| {
        cells.clear();
        fill(cells);
        match format {
            Format::Text | Format::Parquet => anyhow::bail!(NOT_A_RECORD_FORMAT),
            Format::Csv => {
                // An empty `out` is given its size at once (`reserve` on an empty Vec
                // takes the slow growth path: +2.4% instructions of fen --every-ply).
                if out.is_empty() {
                    *out = Vec::with_capacity(cells.joined().len() + 1);
                } else {
                    out.reserve(cells.joined().len() + 1);
                }
                csv_row(cells, out);
            }
            Format::Jsonl => json_line::<R>(cells, extra, out),
        }
        Ok(())
    })
}

/// The CSV header of a record type, with its line end.
fn csv_header<R: Record>(extra: Extra<'_>) -> Vec<u8> {
    let mut names = Cells::default();
    for (name, _) in columns::<R>(extra) {
        names.text(name);
    }
    let mut header = Vec::new();
    csv_row(&names, &mut header);
    header
}

/// One CSV record and `\n`, byte for byte as the csv crate's default writer makes it:
/// a cell holding `,`, `"`, CR or LF is quoted with its quotes doubled (RFC 4180), and a
/// record that would be empty is `""`. The cells come joined by commas, with the cells
/// to quote named (in a stats row: mostly the names, `Carlsen, Magnus`; numbers never
/// are), so the line is that text, copied in one piece between the quoted cells.
fn csv_row(cells: &Cells, out: &mut Vec<u8>) {
    let joined = cells.joined().as_bytes();
    if joined.is_empty() {
        // No cell, or one empty cell (two or more have their commas).
        out.extend_from_slice(b"\"\"\n");
        return;
    }
    let mut from = 0;
    for &cell in &cells.quoted {
        let (start, end) = cells.span(cell).unwrap_or((from, from));
        out.extend_from_slice(joined.get(from..start).unwrap_or_default());
        quote(joined.get(start..end).unwrap_or_default(), out);
        from = end;
    }
    out.extend_from_slice(joined.get(from..).unwrap_or_default());
    out.push(b'\n');
}

/// A cell in quotes, its quotes doubled.
fn quote(cell: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    let mut from = 0;
    for at in memchr::memchr_iter(b'"', cell) {
        out.extend_from_slice(cell.get(from..=at).unwrap_or_default());
        from = at;
    }
    out.extend_from_slice(cell.get(from..).unwrap_or_default());
    out.push(b'"');
}

/// `{"name":cell,...}` and a newline, each cell typed by its column.
fn json_line<R: Record>(cells: &Cells, extra: Extra<'_>, line: &mut Vec<u8>) {
    line.reserve(cells.text.len() + 16 * R::COLUMNS.len());
    line.push(b'{');
    for (i, ((name, json), cell)) in columns::<R>(extra).zip(cells.iter()).enumerate() {
        if i > 0 {
            line.push(b',');
        }
        json_string(line, name);
        line.push(b':');
        match json {
            Json::String if cell.is_empty() && R::EMPTY_STRING_IS_NULL => {
                line.extend_from_slice(b"null")
            }
            Json::String => json_string(line, cell),
            Json::Number | Json::Unsigned | Json::Decimal | Json::Bool | Json::List(_)
                if cell.is_empty() =>
            {
                line.extend_from_slice(b"null")
            }
            Json::Number | Json::Unsigned | Json::Decimal | Json::Bool | Json::List(_) => {
                line.extend_from_slice(cell.as_bytes())
            }
        }
    }
    line.extend_from_slice(b"}\n");
}

/// The JSON array of `cells` as elements of type `json` (empty cells are `null`, empty
/// strings too where `empty_string_is_null`): a `Json::List` cell.
pub fn json_array<'c>(
    json: Json,
    cells: impl Iterator<Item = &'c str>,
    empty_string_is_null: bool,
) -> String {
    let mut out = Vec::with_capacity(64);
    out.push(b'[');
    for (i, cell) in cells.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        match json {
            Json::String if cell.is_empty() && empty_string_is_null => {
                out.extend_from_slice(b"null")
            }
            Json::String | Json::List(_) => json_string(&mut out, cell),
            _ if cell.is_empty() => out.extend_from_slice(b"null"),
            _ => out.extend_from_slice(cell.as_bytes()),
        }
    }
    out.push(b']');
    String::from_utf8(out).unwrap_or_default()
}

/// A JSON string, escaped as serde_json escapes it.
fn json_string(out: &mut Vec<u8>, text: &str) {
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, text);
}

/// The stats columns as this writer writes them.
#[cfg(test)]
mod stats_columns {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::encode;
    use crate::input::{Limits, Splitter};
    use crate::output::sink::Format;
    use crate::record::Record;
    use crate::rules::{ReplayOptions, replay};
    use crate::stats::StatsRow;

    /// Every column gets its cell: a JSON line has as many keys as there are columns.
    #[test]
    fn every_column_gets_a_cell() {
        let pgn: &[u8] = b"1. e4 e5 *\n";
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        let raw = splitter.next_game().unwrap().unwrap();
        let report = replay(&raw, &ReplayOptions::default(), &mut ());
        let encoded = encode(&StatsRow::new(&report, &[]), Format::Jsonl, &[]).unwrap();
        let line = encoded.as_bytes().unwrap();
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(line).unwrap();
        let columns = <StatsRow as Record>::COLUMNS;
        assert_eq!(object.len(), columns.len());
    }
}

/// The CSV rows are the csv crate's, byte for byte.
#[cfg(test)]
mod csv_rows {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::csv_row;
    use crate::record::Cells;

    fn csv_crate(cells: &[&str]) -> Vec<u8> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(cells).unwrap();
        writer.into_inner().unwrap()
    }

    #[test]
    fn rows_as_the_csv_crate_writes_them() {
        let rows: &[&[&str]] = &[
            &[
                "a.pgn",
                "12",
                "",
                "Zoé",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            ],
            &["Smith, John", "say \"hi\"", "two\nlines", "cr\r", "\"", ","],
            &[""],
            &["", ""],
            &["", "", "x"],
            &["only"],
            &["a", "b,c", "d"],
            &["\"\"", "#", " lead", "tab\there"],
            &["x,", ",y", "\"q\"", "\r\n", "", ",", "a\"b\"c"],
        ];
        let many: Vec<String> = (0..40).map(|i| format!("c{i},\"{i}\"")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let rows = [rows, &[many.as_slice()]].concat();
        for row in &rows {
            let mut cells = Cells::default();
            for cell in *row {
                cells.text(cell);
            }
            let mut ours = Vec::new();
            csv_row(&cells, &mut ours);
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&csv_crate(row)),
                "{row:?}"
            );
        }
        let mut none = Vec::new();
        csv_row(&Cells::default(), &mut none);
        assert_eq!(none, csv_crate(&[]));
    }
}
