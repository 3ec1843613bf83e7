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
use std::sync::atomic::AtomicU64;

use parquet::data_type::ByteArray;
use parquet::file::reader::{FileReader, SerializedFileReader};

use super::split::Limits;
use crate::pgn::RawGame;
use at_file::AtFile;
use cells::{ColumnCells, Values, value_at};
use footer::{check_chunks, guarded, is_tag_name, kind_of};
use groups::Groups;

mod at_file;
mod cells;
mod footer;
mod groups;
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
    file: Arc<str>,
    limits: Limits,
    /// The tag columns in file order, then the movetext column last.
    wanted: Arc<[Wanted]>,
    /// The row groups, decoded into batches.
    groups: Groups,
    /// The batch being handed out (as `wanted`), its rows not yet handed out, the next
    /// of them, and each column's index of the value of that row.
    batch: Arc<Vec<ColumnCells>>,
    batch_rows_left: usize,
    batch_row: usize,
    batch_values: Vec<usize>,
    /// Rows handed out so far.
    row: u64,
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
        let file = AtFile::new(file)?;
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
        let wanted: Arc<[Wanted]> = wanted.into();
        Ok(TableGames {
            file: name,
            limits,
            groups: Groups::new(reader, wanted.clone(), counter),
            wanted,
            batch: Arc::new(Vec::new()),
            batch_rows_left: 0,
            batch_row: 0,
            batch_values: Vec::new(),
            row: 0,
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
        if self.batch_rows_left == 0 && !self.read_batch()? {
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

    /// Reads the next batch of rows; false at the end.
    fn read_batch(&mut self) -> io::Result<bool> {
        // The last batch's cells are reused unless pieces cut from it are still held.
        let reused = match Arc::get_mut(&mut self.batch) {
            Some(cells) => std::mem::take(cells),
            None => Vec::new(),
        };
        let Some((batch, rows)) = self.groups.next_batch(reused)? else {
            return Ok(false);
        };
        self.batch = Arc::new(batch);
        self.batch_values.clear();
        self.batch_values.resize(self.wanted.len(), 0);
        self.batch_rows_left = rows;
        self.batch_row = 0;
        Ok(true)
    }

    /// Decodes up to `decoders` row groups at once, each on a thread of its own, ahead of
    /// the reading (for the workers: the reading turn then only hands out rows).
    pub fn decode_ahead(&mut self, decoders: usize) {
        self.groups.decode_ahead(decoders);
    }
}
