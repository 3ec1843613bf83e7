//! A Parquet file read as a table of games (SPEC.md "Parquet"): one game per row, its
//! `movetext` column the movetext and every other column a tag of that name. A row's game
//! is PGN text (its tags in column order, escaped, a blank line, the movetext): the tag
//! lines are written with their spans, the movetext is split by the same `Splitter` as a
//! PGN file, so a row is a game in every way (`select` writes that text); its `game`,
//! `line` and every line within it are the row number. Rows are read in batches of at
//! most `BATCH_ROWS` rows, fewer when their cells are large (`BATCH_BYTES`), whatever the
//! file's row groups. The reading (decompression and decoding, `cells`) hands out the rows
//! as `TableRows`, pieces of a batch that share its cells; a row becomes a game where the
//! piece is made into games (`rows`, `TableRows::next_game`: on a worker with several
//! threads), its cells written as tag text by `text`. What the parquet crate is not
//! trusted with (the footer, its panics) is `footer`'s.

use std::fs::File;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;
use parquet::file::reader::{FileReader, SerializedFileReader};

use super::split::Limits;
use crate::pgn::RawGame;
use cells::{ColumnCells, Values, read_cells, value_at};
use footer::{check_chunks, guarded, is_tag_name, kind_of};

mod cells;
mod footer;
mod rows;
mod text;

pub use footer::is_parquet;
pub use rows::{RowMaker, TableRows};

/// The four bytes a Parquet file starts (and ends) with.
pub const MAGIC: &[u8; 4] = b"PAR1";

/// Rows of one batch at most, and the cell bytes above which the next batch is halved.
const BATCH_ROWS: usize = 1024;
const BATCH_BYTES: usize = 4 * 1024 * 1024;

/// How a column's values become tag text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Text,
    Bool,
    Int32,
    Int64,
    Float,
    Double,
    /// Days since 1970-01-01: `YYYY.MM.DD`.
    Date,
    /// Time of day in units of 1/`per_second` s: `HH:MM:SS`, the fraction when not zero.
    Time32 {
        per_second: i64,
    },
    Time64 {
        per_second: i64,
    },
}

/// A column read as a tag (or the movetext).
struct Wanted {
    /// Index among the file's leaf columns.
    index: usize,
    name: String,
    kind: Kind,
    /// The definition level of a value that is there (0: the column cannot be null).
    max_def: i16,
}

/// The games of one Parquet file, one per row.
pub struct TableGames {
    reader: SerializedFileReader<File>,
    file: Arc<str>,
    limits: Limits,
    /// The tag columns in file order, then the movetext column last.
    wanted: Arc<[Wanted]>,
    /// Column readers of the row group being read (as `wanted`), and its rows left.
    readers: Vec<ColumnReader>,
    rows_left: u64,
    next_group: usize,
    /// The batch being handed out (as `wanted`), its rows not yet handed out, the next
    /// of them, and each column's index of the value of that row.
    batch: Arc<Vec<ColumnCells>>,
    batch_rows_left: usize,
    batch_row: usize,
    batch_values: Vec<usize>,
    batch_size: usize,
    /// Rows handed out so far.
    row: u64,
    counter: Arc<AtomicU64>,
    /// The rows being made into games by `next_game` (one thread), and its buffers.
    current: Option<TableRows>,
    maker: RowMaker,
    /// Columns skipped as no tag name, said once per file (taken by the caller).
    pub warnings: Vec<String>,
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

impl TableGames {
    /// Reads the file's footer and schema: the `movetext` string column must be there.
    pub fn open(
        file: File,
        name: Arc<str>,
        limits: Limits,
        counter: Arc<AtomicU64>,
    ) -> io::Result<TableGames> {
        let file_len = file.metadata()?.len();
        let reader = guarded(|| SerializedFileReader::new(file))?
            .map_err(|err| invalid(format!("not a readable Parquet file: {err}")))?;
        let schema = reader.metadata().file_metadata().schema_descr_ptr();
        let mut wanted = Vec::new();
        let mut movetext = None;
        let mut skipped = Vec::new();
        for (index, column) in schema.columns().iter().enumerate() {
            let name = column.path().string();
            let max_def = column.max_def_level();
            match kind_of(column) {
                Some(Kind::Text) if name == "movetext" => {
                    movetext = Some(Wanted {
                        index,
                        name,
                        kind: Kind::Text,
                        max_def,
                    });
                }
                Some(_) if name == "movetext" => {
                    return Err(invalid(
                        "a Parquet file whose `movetext` column is not a string column".into(),
                    ));
                }
                Some(kind) if is_tag_name(&name) => wanted.push(Wanted {
                    index,
                    name,
                    kind,
                    max_def,
                }),
                Some(_) => skipped.push(format!("`{name}` (not a tag name)")),
                None => skipped.push(format!("`{name}` (a type not read as a tag)")),
            }
        }
        let Some(movetext) = movetext else {
            return Err(invalid(
                "a Parquet file without a string column `movetext` (the moves of each row's game)"
                    .into(),
            ));
        };
        wanted.push(movetext);
        check_chunks(&reader, &wanted, file_len)?;
        let mut warnings = Vec::new();
        if !skipped.is_empty() {
            warnings.push(format!(
                "{name}: Parquet column{} {} skipped",
                if skipped.len() == 1 { "" } else { "s" },
                skipped.join(", ")
            ));
        }
        Ok(TableGames {
            reader,
            file: name,
            limits,
            wanted: wanted.into(),
            readers: Vec::new(),
            rows_left: 0,
            next_group: 0,
            batch: Arc::new(Vec::new()),
            batch_rows_left: 0,
            batch_row: 0,
            batch_values: Vec::new(),
            batch_size: BATCH_ROWS,
            row: 0,
            counter,
            current: None,
            maker: RowMaker::default(),
            warnings,
        })
    }

    /// Takes back games that have been used, to reuse their buffers.
    pub fn recycle(&mut self, games: &mut Vec<RawGame>) {
        self.maker.recycle(games);
    }

    /// The next row's game; `Ok(None)` after the last row.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        loop {
            if let Some(rows) = self.current.as_mut()
                && let Some(game) = rows.next_game(&mut self.maker)
            {
                return Ok(Some(game));
            }
            self.current = self.next_rows(BATCH_ROWS, usize::MAX)?;
            if self.current.is_none() {
                return Ok(None);
            }
        }
    }

    /// The next rows, at most `max_rows` of them and no more than needed to hold
    /// `max_bytes` of string cells (one row at least); `Ok(None)` after the last row.
    pub fn next_rows(
        &mut self,
        max_rows: usize,
        max_bytes: usize,
    ) -> io::Result<Option<TableRows>> {
        if self.batch_rows_left == 0 && !guarded(|| self.read_batch())?? {
            return Ok(None);
        }
        let start = self.batch_row;
        let values = self.batch_values.clone();
        let mut bytes = 0;
        let mut rows = 0;
        while rows < max_rows.max(1) && self.batch_rows_left > 0 && (rows == 0 || bytes < max_bytes)
        {
            let row = self.batch_row;
            for ((wanted, cells), value) in self
                .wanted
                .iter()
                .zip(self.batch.iter())
                .zip(&mut self.batch_values)
            {
                let Some(index) = value_at(cells, wanted.max_def, row, value) else {
                    continue;
                };
                if let Values::Text(texts) = &cells.values {
                    bytes += texts.get(index).map_or(0, ByteArray::len);
                }
            }
            self.batch_row += 1;
            self.batch_rows_left -= 1;
            rows += 1;
        }
        let number = self.row + 1;
        self.row += rows as u64;
        Ok(Some(TableRows {
            file: self.file.clone(),
            limits: self.limits,
            wanted: self.wanted.clone(),
            batch: self.batch.clone(),
            row: start,
            end: start + rows,
            values,
            number,
            bytes,
        }))
    }

    /// Reads the next batch of rows, from the next row group if need be; false at the end.
    fn read_batch(&mut self) -> io::Result<bool> {
        while self.rows_left == 0 {
            if self.next_group >= self.reader.num_row_groups() {
                return Ok(false);
            }
            let group = self
                .reader
                .get_row_group(self.next_group)
                .map_err(|err| invalid(format!("row group {}: {err}", self.next_group + 1)))?;
            let meta = group.metadata();
            self.rows_left = u64::try_from(meta.num_rows()).unwrap_or(0);
            self.counter.fetch_add(
                u64::try_from(meta.compressed_size()).unwrap_or(0),
                Ordering::Relaxed,
            );
            self.readers.clear();
            for wanted in self.wanted.iter() {
                let reader = group
                    .get_column_reader(wanted.index)
                    .map_err(|err| invalid(format!("column `{}`: {err}", wanted.name)))?;
                self.readers.push(reader);
            }
            self.next_group += 1;
        }
        let rows = usize::try_from(self.rows_left)
            .unwrap_or(usize::MAX)
            .min(self.batch_size);
        // The last batch's cells are reused unless pieces cut from it are still held.
        let mut batch = match Arc::get_mut(&mut self.batch) {
            Some(cells) => std::mem::take(cells),
            None => Vec::new(),
        };
        batch.resize_with(self.wanted.len(), ColumnCells::default);
        let mut bytes = 0;
        for ((wanted, reader), cells) in self.wanted.iter().zip(&mut self.readers).zip(&mut batch) {
            let read = read_cells(reader, wanted, rows, cells)
                .map_err(|err| invalid(format!("column `{}`: {err}", wanted.name)))?;
            if read != rows {
                return Err(invalid(format!(
                    "column `{}` ends at row {}, before its row group",
                    wanted.name,
                    self.row + read as u64
                )));
            }
            if let Values::Text(values) = &cells.values {
                bytes += values.iter().map(ByteArray::len).sum::<usize>();
            }
        }
        // Many large cells: smaller batches; small ones: back to full batches.
        self.batch_size = if bytes > BATCH_BYTES {
            (rows / 2).max(1)
        } else {
            (self.batch_size * 2).min(BATCH_ROWS)
        };
        self.batch = Arc::new(batch);
        self.batch_values.clear();
        self.batch_values.resize(self.wanted.len(), 0);
        self.rows_left -= rows as u64;
        self.batch_rows_left = rows;
        self.batch_row = 0;
        Ok(rows > 0)
    }
}
