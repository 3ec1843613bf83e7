//! A Parquet file read as a table of games (SPEC.md "Parquet"): one game per row, its
//! `movetext` column the movetext and every other column a tag of that name. A row's game
//! is PGN text (its tags in column order, escaped, a blank line, the movetext): the tag
//! lines are written with their spans, the movetext is split by the same `Splitter` as a
//! PGN file, so a row is a game in every way (`select` writes that text); its `game`,
//! `line` and every line within it are the row number. Rows are read in batches of at
//! most `BATCH_ROWS` rows, fewer when their cells are large (`BATCH_BYTES`), whatever the
//! file's row groups. The reading (decompression and decoding) hands out the rows as
//! `TableRows`, pieces of a batch that share its cells; a row becomes a game where the
//! piece is made into games (`TableRows::next_game`: on a worker with several threads).

use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use parquet::basic::{ConvertedType, LogicalType, TimeUnit, Type as Physical};
use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescriptor;

use super::split::{Limits, Splitter, keep_spares};
use crate::pgn::{InputProblem, InputProblemKind, RawGame, RawTag, Span};

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

/// One column's values of the batch being handed out.
#[derive(Default)]
struct Cells {
    defs: Vec<i16>,
    values: Values,
}

#[derive(Default)]
enum Values {
    #[default]
    None,
    Text(Vec<ByteArray>),
    Bool(Vec<bool>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Float(Vec<f32>),
    Double(Vec<f64>),
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
    batch: Arc<Vec<Cells>>,
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

/// Rows of a batch, to be made into games (`next_game`) where the caller wants it: the
/// reading turn only decodes them. They share the batch's cells with the other pieces cut
/// from it.
pub struct TableRows {
    file: Arc<str>,
    limits: Limits,
    wanted: Arc<[Wanted]>,
    batch: Arc<Vec<Cells>>,
    /// The next row in the batch, and the row after the last one.
    row: usize,
    end: usize,
    /// Each column's index of the value of the next row (nulls hold no value).
    values: Vec<usize>,
    /// The row number of the next row in the file (1-based).
    number: u64,
    /// The bytes of the rows' string cells.
    bytes: usize,
}

/// The buffers a row's game is made with, kept from row to row, and spare games whose
/// buffers are reused.
#[derive(Default)]
pub struct RowMaker {
    /// The tag lines of the row being made and a blank line, as PGN text, and their
    /// spans; its movetext and a line end, for the splitter.
    tags: Vec<u8>,
    raw_tags: Vec<RawTag>,
    moves: Vec<u8>,
    spare: Vec<RawGame>,
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

/// Whether a file starts with the Parquet magic bytes.
pub fn is_parquet(file: &mut File) -> io::Result<bool> {
    let mut head = [0u8; 4];
    let mut read = 0;
    while read < head.len() {
        let Some(rest) = head.get_mut(read..) else {
            break;
        };
        match file.read(rest) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(read == head.len() && &head == MAGIC)
}

/// Whether a column name is a tag name (SPEC.md `input.bad-tag`): a letter or digit, then
/// letters, digits and `_`.
fn is_tag_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphanumeric())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

thread_local! {
    /// Set while the parquet crate reads: a panic there is an input error, not a crash.
    static GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `read` (a call into the parquet crate) so that a panic in it becomes an input
/// error: the crate panics on some damaged pages (an index out of range in its decoders,
/// found by the fuzz target), and a damaged file must not stop the run. The panic's own
/// message is kept off stderr (the error names the file instead); a panic anywhere else
/// is reported as always.
fn guarded<T>(read: impl FnOnce() -> T) -> io::Result<T> {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    GUARDED.with(|flag| flag.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read));
    GUARDED.with(|flag| flag.set(false));
    result.map_err(|panic| {
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        invalid(format!("a damaged Parquet page or footer ({why})"))
    })
}

/// Checks what the parquet crate trusts in the footer (it asserts that a column chunk's
/// offset and size are not negative, and indexes the chunks by column): every row group
/// holds every column, and each chunk read lies inside the file.
fn check_chunks(
    reader: &SerializedFileReader<File>,
    wanted: &[Wanted],
    file_len: u64,
) -> io::Result<()> {
    let meta = reader.metadata();
    let columns = meta.file_metadata().schema_descr().num_columns();
    for (i, group) in meta.row_groups().iter().enumerate() {
        let bad = |what: &str| {
            invalid(format!(
                "not a readable Parquet file: row group {} {what}",
                i + 1
            ))
        };
        if group.num_columns() != columns || group.num_rows() < 0 {
            return Err(bad("does not match the schema"));
        }
        for column in wanted {
            let Some(chunk) = group.columns().get(column.index) else {
                return Err(bad("does not match the schema"));
            };
            let start = chunk
                .dictionary_page_offset()
                .unwrap_or_else(|| chunk.data_page_offset());
            if start < 0 || chunk.compressed_size() < 0 || chunk.data_page_offset() < 0 {
                return Err(bad(&format!(
                    "has a negative offset or size for column `{}`",
                    column.name
                )));
            }
            let end = start
                .unsigned_abs()
                .saturating_add(chunk.compressed_size().unsigned_abs());
            if end > file_len {
                return Err(bad(&format!(
                    "places column `{}` outside the file",
                    column.name
                )));
            }
        }
    }
    Ok(())
}

/// The kind of a flat column, or `None` for a type that is not read as a tag.
fn kind_of(column: &ColumnDescriptor) -> Option<Kind> {
    if column.max_rep_level() > 0 || column.path().parts().len() != 1 {
        return None; // lists and nested groups are no tags
    }
    let logical = column.logical_type_ref();
    let kind = match column.physical_type() {
        Physical::BYTE_ARRAY => match logical {
            Some(LogicalType::Decimal(_)) => return None,
            _ => Kind::Text,
        },
        Physical::BOOLEAN => Kind::Bool,
        Physical::INT32 => match (logical, column.converted_type()) {
            (Some(LogicalType::Date), _) | (_, ConvertedType::DATE) => Kind::Date,
            (Some(LogicalType::Time(_)), _) | (_, ConvertedType::TIME_MILLIS) => {
                Kind::Time32 { per_second: 1000 }
            }
            (Some(LogicalType::Decimal(_)), _) | (_, ConvertedType::DECIMAL) => return None,
            _ => Kind::Int32,
        },
        Physical::INT64 => match (logical, column.converted_type()) {
            (Some(LogicalType::Time(time)), _) => Kind::Time64 {
                per_second: match time.unit {
                    TimeUnit::MILLIS => 1_000,
                    TimeUnit::MICROS => 1_000_000,
                    TimeUnit::NANOS => 1_000_000_000,
                },
            },
            (_, ConvertedType::TIME_MICROS) => Kind::Time64 {
                per_second: 1_000_000,
            },
            (Some(LogicalType::Decimal(_) | LogicalType::Timestamp(_)), _)
            | (
                _,
                ConvertedType::DECIMAL
                | ConvertedType::TIMESTAMP_MILLIS
                | ConvertedType::TIMESTAMP_MICROS,
            ) => return None,
            _ => Kind::Int64,
        },
        Physical::FLOAT => Kind::Float,
        Physical::DOUBLE => Kind::Double,
        Physical::INT96 | Physical::FIXED_LEN_BYTE_ARRAY => return None,
    };
    Some(kind)
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
        batch.resize_with(self.wanted.len(), Cells::default);
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

impl RowMaker {
    /// Takes back games that have been used, to reuse their buffers.
    pub fn recycle(&mut self, games: &mut Vec<RawGame>) {
        keep_spares(&mut self.spare, games);
    }

    /// Hands over the spare games, as `Splitter::into_spares`.
    pub fn take_spares(&mut self) -> Vec<RawGame> {
        std::mem::take(&mut self.spare)
    }

    /// Takes spare games from elsewhere (a worker's, kept between its pieces).
    pub fn give_spares(&mut self, spares: Vec<RawGame>) {
        if self.spare.is_empty() {
            self.spare = spares;
        } else {
            let mut spares = spares;
            self.recycle(&mut spares);
        }
    }
}

impl TableRows {
    /// The bytes of the rows' string cells (what a piece of them holds in flight).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The file the rows are from; `file` takes its place in the games made (a worker's
    /// own copy of the name).
    pub fn file(&self) -> &Arc<str> {
        &self.file
    }

    pub fn set_file(&mut self, file: Arc<str>) {
        self.file = file;
    }

    /// The next row's game; `None` after the last row of the piece.
    pub fn next_game(&mut self, maker: &mut RowMaker) -> Option<RawGame> {
        if self.row >= self.end {
            return None;
        }
        let game = self.make_game(maker);
        self.row += 1;
        self.number += 1;
        Some(game)
    }

    /// The game of the next row: its tag lines, and its movetext split as a file of one
    /// game.
    fn make_game(&mut self, maker: &mut RowMaker) -> RawGame {
        let RowMaker {
            tags,
            raw_tags,
            moves,
            spare,
        } = maker;
        tags.clear();
        raw_tags.clear();
        let row = self.row;
        let mut movetext = None;
        let last = self.wanted.len().saturating_sub(1);
        for (i, ((wanted, cells), value)) in self
            .wanted
            .iter()
            .zip(self.batch.iter())
            .zip(&mut self.values)
            .enumerate()
        {
            let Some(value) = value_at(cells, wanted.max_def, row, value) else {
                continue;
            };
            if i == last {
                movetext = Some(value);
                continue;
            }
            tags.push(b'[');
            let name_start = tags.len();
            tags.extend_from_slice(wanted.name.as_bytes());
            let name_end = tags.len();
            tags.extend_from_slice(b" \"");
            let value_start = tags.len();
            push_tag_value(tags, &cells.values, value, wanted.kind);
            let value_end = tags.len();
            tags.extend_from_slice(b"\"]\n");
            raw_tags.push(RawTag {
                name: Span::new(name_start, name_end),
                value: Span::new(value_start, value_end),
                line: 0,
            });
        }
        tags.push(b'\n');
        let movetext = match (self.batch.last().map(|cells| &cells.values), movetext) {
            (Some(Values::Text(values)), Some(value)) => {
                values.get(value).map_or(&[][..], |v| v.data())
            }
            _ => &[],
        };
        // The tags are known: only the movetext is split, into a game that starts with
        // the tag lines (`with_head`). Tags past the game size limit go through the
        // splitter with the movetext, which cuts them there.
        let head = tags.len();
        let tags_inside = head <= self.limits.max_game_bytes;
        moves.clear();
        if !tags_inside {
            moves.extend_from_slice(tags);
            raw_tags.clear();
        }
        // One buffer, the line end with the movetext: the splitter takes whole lines from
        // its buffer (a line split between two buffers goes the slow way).
        moves.extend_from_slice(movetext);
        moves.push(b'\n');
        let mut splitter =
            Splitter::for_part(&moves[..], self.file.clone(), self.limits, 1, false, true)
                .with_spares(std::mem::take(spare));
        // A row with no tag (every tag cell null) is its movetext alone.
        let with_tags = tags_inside && !raw_tags.is_empty();
        if with_tags {
            splitter = splitter.with_head(tags, raw_tags);
        }
        // Reading a slice cannot fail.
        let first = splitter.next_game().ok().flatten();
        let more = splitter.next_game().ok().flatten().is_some();
        *spare = splitter.into_spares();
        let mut game = match first {
            Some(mut game) => {
                if with_tags && game.bytes.len() < head {
                    // The movetext's lines that belong to no game were dropped, and with
                    // them the blank line after the tags: it stays (ends the tags).
                    game.bytes.clear();
                    game.bytes.extend_from_slice(tags);
                }
                game
            }
            None => {
                // No moves: the tags alone, without the blank line after them, which ends
                // nothing.
                let mut game = spare.pop().unwrap_or_else(|| empty_game(&self.file));
                game.reset(self.file.clone(), 1);
                if with_tags {
                    game.bytes
                        .extend_from_slice(tags.get(..head - 1).unwrap_or_default());
                    game.tags.extend_from_slice(raw_tags);
                }
                game
            }
        };
        game.index = self.number;
        game.line = self.number;
        // Every line of the row's game is the row.
        for tag in &mut game.tags {
            tag.line = 0;
        }
        for token in &mut game.tokens {
            token.line = 0;
        }
        for problem in &mut game.problems {
            problem.line = 0;
        }
        if more {
            game.problems.push(InputProblem {
                kind: InputProblemKind::Unreadable,
                line: 0,
                detail: "the movetext cell holds more than one game; only the first is read".into(),
            });
        }
        game
    }
}

fn empty_game(file: &Arc<str>) -> RawGame {
    RawGame {
        file: file.clone(),
        index: 0,
        global_index: 0,
        line: 1,
        bytes: Vec::new(),
        tags: Vec::new(),
        tokens: Vec::new(),
        problems: Vec::new(),
    }
}

/// The index of the column's value in row `row` of the batch, or `None` for a null;
/// `next` is the index of the next value (rows are taken in order), moved past it.
fn value_at(cells: &Cells, max_def: i16, row: usize, next: &mut usize) -> Option<usize> {
    if max_def == 0 {
        return Some(row);
    }
    if cells.defs.get(row) != Some(&max_def) {
        return None;
    }
    let value = *next;
    *next += 1;
    Some(value)
}

/// Reads `rows` rows of a column into `cells` (emptied first); returns the rows read.
fn read_cells(
    reader: &mut ColumnReader,
    wanted: &Wanted,
    rows: usize,
    cells: &mut Cells,
) -> parquet::errors::Result<usize> {
    cells.defs.clear();
    let defs = (wanted.max_def > 0).then_some(&mut cells.defs);
    macro_rules! read {
        ($reader:expr, $variant:ident) => {{
            let mut values = match std::mem::take(&mut cells.values) {
                Values::$variant(mut values) => {
                    values.clear();
                    values
                }
                _ => Vec::new(),
            };
            let (read, _, _) = $reader.read_records(rows, defs, None, &mut values)?;
            cells.values = Values::$variant(values);
            read
        }};
    }
    let read = match reader {
        ColumnReader::ByteArrayColumnReader(reader) => read!(reader, Text),
        ColumnReader::BoolColumnReader(reader) => read!(reader, Bool),
        ColumnReader::Int32ColumnReader(reader) => read!(reader, Int32),
        ColumnReader::Int64ColumnReader(reader) => read!(reader, Int64),
        ColumnReader::FloatColumnReader(reader) => read!(reader, Float),
        ColumnReader::DoubleColumnReader(reader) => read!(reader, Double),
        ColumnReader::Int96ColumnReader(_) | ColumnReader::FixedLenByteArrayColumnReader(_) => 0,
    };
    Ok(read)
}

/// Appends a value as tag text, escaped as PGN escapes it (`\"`, `\\`); a line break in
/// a string cell becomes a space (a tag pair is one line).
fn push_tag_value(out: &mut Vec<u8>, values: &Values, index: usize, kind: Kind) {
    use std::io::Write as _;
    // Writing to a Vec cannot fail.
    let _ = match values {
        Values::Text(values) => {
            let bytes = values.get(index).map_or(&[][..], |v| v.data());
            // Most values need no escape: one look at every byte (without an early exit,
            // so that it is vectorised), then one copy.
            let plain = !bytes.iter().fold(false, |seen, &b| {
                seen | matches!(b, b'"' | b'\\' | b'\n' | b'\r')
            });
            if plain {
                out.extend_from_slice(bytes);
                return;
            }
            for &b in bytes {
                match b {
                    b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
                    b'\n' | b'\r' => out.push(b' '),
                    _ => out.push(b),
                }
            }
            Ok(())
        }
        Values::Bool(values) => match values.get(index) {
            Some(true) => write!(out, "true"),
            Some(false) => write!(out, "false"),
            None => Ok(()),
        },
        Values::Int32(values) => match (values.get(index), kind) {
            (Some(&days), Kind::Date) => push_date(out, days),
            (Some(&time), Kind::Time32 { per_second }) => {
                push_time(out, i64::from(time), per_second)
            }
            (Some(&value), _) => {
                push_integer(out, i64::from(value));
                Ok(())
            }
            (None, _) => Ok(()),
        },
        Values::Int64(values) => match (values.get(index), kind) {
            (Some(&time), Kind::Time64 { per_second }) => push_time(out, time, per_second),
            (Some(&value), _) => {
                push_integer(out, value);
                Ok(())
            }
            (None, _) => Ok(()),
        },
        // Rust writes the shortest decimal that reads back as the same float.
        Values::Float(values) => values.get(index).map_or(Ok(()), |v| write!(out, "{v}")),
        Values::Double(values) => values.get(index).map_or(Ok(()), |v| write!(out, "{v}")),
        Values::None => Ok(()),
    };
}

/// Days since 1970-01-01 as `YYYY.MM.DD` (the proleptic Gregorian calendar).
fn push_date(out: &mut Vec<u8>, days: i32) -> io::Result<()> {
    let (year, month, day) = civil_from_days(i64::from(days));
    if (0..10_000).contains(&year) {
        push_padded(out, year, 4);
    } else {
        push_integer(out, year);
    }
    out.push(b'.');
    push_padded(out, month, 2);
    out.push(b'.');
    push_padded(out, day, 2);
    Ok(())
}

/// Appends `n` in decimal (a tag of every row: `write!` costs more than the digits).
fn push_integer(out: &mut Vec<u8>, n: i64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends `n` (0 or more) with leading zeros to `width` digits.
fn push_padded(out: &mut Vec<u8>, n: i64, width: usize) {
    let digits = n.checked_ilog10().map_or(1, |log| log as usize + 1);
    out.extend(std::iter::repeat_n(b'0', width.saturating_sub(digits)));
    push_integer(out, n);
}

/// The civil date of a day number (days since 1970-01-01), after Howard Hinnant's
/// `civil_from_days` (public domain).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A time of day in units of 1/`per_second` s as `HH:MM:SS`, with the fraction (its
/// trailing zeros dropped) when it is not zero.
fn push_time(out: &mut Vec<u8>, time: i64, per_second: i64) -> io::Result<()> {
    use std::io::Write as _;
    let per_second = per_second.max(1);
    let seconds = time.div_euclid(per_second);
    let fraction = time.rem_euclid(per_second);
    push_padded(out, seconds / 3600, 2);
    out.push(b':');
    push_padded(out, seconds / 60 % 60, 2);
    out.push(b':');
    push_padded(out, seconds % 60, 2);
    if fraction != 0 {
        let width = per_second.ilog10() as usize;
        let digits = format!("{fraction:0width$}");
        write!(out, ".{}", digits.trim_end_matches('0'))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, is_tag_name, push_date, push_integer, push_time};

    #[test]
    fn day_numbers_are_civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_209), (2025, 5, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn integers_and_dates_as_display_writes_them() {
        for n in [0, 7, -7, 10, 12345, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            push_integer(&mut out, n);
            assert_eq!(out, n.to_string().into_bytes());
        }
        let mut out = Vec::new();
        push_date(&mut out, 20_209).ok();
        assert_eq!(out, b"2025.05.01");
    }

    #[test]
    fn times_keep_a_fraction_that_is_not_zero() {
        let text = |time, per_second| {
            let mut out = Vec::new();
            push_time(&mut out, time, per_second).ok();
            String::from_utf8(out).unwrap_or_default()
        };
        assert_eq!(text(3_723_000, 1000), "01:02:03");
        assert_eq!(text(3_723_450, 1000), "01:02:03.45");
        assert_eq!(text(86_399_000_001, 1_000_000), "23:59:59.000001");
    }

    #[test]
    fn tag_names_are_letters_digits_and_underscores() {
        assert!(is_tag_name("WhiteElo"));
        assert!(is_tag_name("Event_2"));
        assert!(!is_tag_name("__index_level_0__"));
        assert!(!is_tag_name("a b"));
        assert!(!is_tag_name(""));
    }
}
