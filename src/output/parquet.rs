//! `--format parquet`: the records of one type as one Parquet file, its schema made from
//! the record type's columns (`record::Column`). Rows are gathered column by column and
//! written as a row group, zstd-compressed, every `ROW_GROUP_ROWS` rows or
//! `ROW_GROUP_BYTES` bytes of cells as held, whichever comes first: what is held is at most
//! two row groups' cells (one gathered, one encoded), whatever the input. A row group's
//! column chunks are encoded apart from the file and then appended to it, on a thread of
//! their own when there are worker threads (`encode_ahead`): the workers need not wait
//! while a group is compressed. The bytes depend only on the records, in their order, so
//! the file is the same at any thread count.

use std::io::Write;
use std::ops::Range;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use bytes::Bytes;
use parquet::basic::{
    Compression, Encoding as Packing, IntType, LogicalType, Repetition, Type as Physical, ZstdLevel,
};
use parquet::column::writer::{ColumnCloseResult, ColumnWriter, get_column_writer};
use parquet::data_type::ByteArray;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type};

use crate::record::{CellSink, Cells, Decimal, Json, Typed, Value};

/// Rows of one row group at most.
pub const ROW_GROUP_ROWS: usize = 65_536;
/// Bytes of one row group's cells as they are held, at most (`HELD`). Two groups' buffers
/// are held for the whole run (they take turns: one gathered, one encoded), so the bound
/// is half of round 17's 32 MiB, which let one group grow while the other was freed.
pub const ROW_GROUP_BYTES: usize = 16 * 1024 * 1024;

/// The bytes a cell holds beside its text: its value or a text's end (8), its level (2).
const HELD: usize = 10;

/// One file being written: the cells of the row group in progress, by column.
pub struct ParquetTable<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    columns: Vec<Gathered>,
    rows: usize,
    bytes: usize,
    /// `ROW_GROUP_ROWS`, smaller in tests.
    group_rows: usize,
    encoder: Encoder,
    /// Whether an empty string cell is null (`Record::EMPTY_STRING_IS_NULL`).
    empty_string_is_null: bool,
}

/// A row group's column chunks, each encoded (compressed pages) with its metadata,
/// ready to be appended to the file.
type EncodedGroup = Vec<EncodedChunk>;

/// A column chunk encoded (compressed pages) with its metadata.
type EncodedChunk = (Bytes, ColumnCloseResult);

/// What a row group's columns are encoded with: the file's column descriptors and
/// properties, so that an encoded chunk is what the file writer would have made.
#[derive(Clone)]
struct Encoding {
    columns: Vec<ColumnDescPtr>,
    properties: WriterPropertiesPtr,
    /// Threads a group's columns are shared among (each column is encoded by one).
    threads: usize,
}

/// Where full row groups are encoded.
enum Encoder {
    /// In line, on the thread that gathers (`--threads 1`).
    InLine(Encoding),
    /// On a thread of its own: one group is encoded while the next is gathered.
    Ahead(Running),
}

/// The encoding thread: it takes a group's cells and hands back the group encoded.
struct Running {
    send: SyncSender<Vec<Gathered>>,
    /// A group encoded, and its columns emptied for the next group.
    receive: Receiver<anyhow::Result<(EncodedGroup, Vec<Gathered>)>>,
    /// A group was sent and its encoding not yet taken back.
    pending: bool,
    thread: JoinHandle<()>,
}

impl Encoding {
    /// Encodes each column's cells as one column chunk in memory, and hands the columns
    /// back emptied, their room kept: the next group is gathered in them, without the
    /// reallocations and page faults of buffers grown from nothing for every group.
    fn encode(&self, columns: Vec<Gathered>) -> anyhow::Result<(EncodedGroup, Vec<Gathered>)> {
        self.check_width(columns.len())?;
        let threads = self.threads.min(columns.len());
        if threads <= 1 {
            let mut columns = columns;
            let group = self.encode_in_place(&mut columns)?;
            return Ok((group, columns));
        }
        // Columns are taken one at a time by whichever thread is free, and put back in
        // their order: the group's bytes do not depend on who encoded what.
        let queue = Mutex::new(columns.into_iter().zip(&self.columns).enumerate());
        let mut encoded: Vec<(usize, anyhow::Result<EncodedChunk>, Gathered)> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|_| {
                        scope.spawn(|| {
                            let mut done = Vec::new();
                            loop {
                                let next = match queue.lock() {
                                    Ok(mut queue) => queue.next(),
                                    Err(_) => None,
                                };
                                let Some((index, (mut column, descr))) = next else {
                                    return done;
                                };
                                let encoded = self.encode_kept(&mut column, descr);
                                done.push((index, encoded, column));
                            }
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| handle.join().map_err(|_| stopped()))
                    .collect::<anyhow::Result<Vec<_>>>()
            })?
            .into_iter()
            .flatten()
            .collect();
        if encoded.len() != self.columns.len() {
            return Err(stopped());
        }
        encoded.sort_unstable_by_key(|&(index, ..)| index);
        let mut group = Vec::with_capacity(encoded.len());
        let mut emptied = Vec::with_capacity(encoded.len());
        for (_, chunk, column) in encoded {
            group.push(chunk?);
            emptied.push(column);
        }
        Ok((group, emptied))
    }

    /// As `encode`, the cells' buffers emptied and kept, for the next group to be
    /// gathered in (in line: one group's buffers in all, none made again).
    fn encode_in_place(&self, columns: &mut [Gathered]) -> anyhow::Result<EncodedGroup> {
        self.check_width(columns.len())?;
        columns
            .iter_mut()
            .zip(&self.columns)
            .map(|(column, descr)| self.encode_kept(column, descr))
            .collect()
    }

    /// `encode_column`, the column's room kept for as many cells again.
    fn encode_kept(
        &self,
        column: &mut Gathered,
        descr: &ColumnDescPtr,
    ) -> anyhow::Result<EncodedChunk> {
        let text = column.text_len();
        let encoded = self.encode_column(column, descr)?;
        // The text went to the writer: room for as much again.
        column.reserve_text(text);
        Ok(encoded)
    }

    /// A group of `gathered` columns fits the schema's.
    fn check_width(&self, gathered: usize) -> anyhow::Result<()> {
        if gathered != self.columns.len() {
            anyhow::bail!(
                "{gathered} record columns for {} Parquet columns",
                self.columns.len()
            );
        }
        Ok(())
    }

    /// One column's cells as a column chunk in memory; the cells are emptied.
    fn encode_column(
        &self,
        column: &mut Gathered,
        descr: &ColumnDescPtr,
    ) -> anyhow::Result<EncodedChunk> {
        let mut sink = TrackedWrite::new(Vec::new());
        let close = {
            let pages = Box::new(SerializedPageWriter::new(&mut sink));
            let mut writer = get_column_writer(descr.clone(), self.properties.clone(), pages);
            column.write_into(&mut writer)?;
            writer.close()?
        };
        Ok((Bytes::from(sink.into_inner()?), close))
    }
}

impl Running {
    fn start(encoding: Encoding) -> anyhow::Result<Running> {
        // One group waits to be encoded at most: memory stays at two groups' cells.
        let (send, cells) = sync_channel::<Vec<Gathered>>(0);
        let (done, receive) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("parquet".into())
            .spawn(move || {
                for columns in cells {
                    if done.send(encoding.encode(columns)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Running {
            send,
            receive,
            pending: false,
            thread,
        })
    }

    /// The group sent last, encoded, with its columns emptied, if one was sent and not
    /// yet taken back.
    fn take(&mut self) -> anyhow::Result<Option<(EncodedGroup, Vec<Gathered>)>> {
        if !std::mem::take(&mut self.pending) {
            return Ok(None);
        }
        self.receive.recv().map_err(|_| stopped())?.map(Some)
    }
}

fn stopped() -> anyhow::Error {
    anyhow::anyhow!("the Parquet encoding thread stopped")
}

/// The rows of some records (one game's, as a worker encodes them), gathered column by
/// column where they are made: a number stays a number, and the writer only appends
/// each column to its row group's. A cell of another type than its column's is read from
/// its text, as a CSV cell would be.
#[derive(Debug)]
pub struct Rows {
    columns: Vec<Gathered>,
    /// The column of the next cell.
    next: usize,
    /// Rows complete.
    rows: usize,
    empty_string_is_null: bool,
    /// The first cell that could not be stored (a number out of INT64, a list that is
    /// not JSON), reported when the rows are written.
    error: Option<anyhow::Error>,
}

/// The columns of rows written and dropped, emptied, for the next rows of the same
/// types: a game's rows then cost no allocation once the run has warmed up.
static SPARE: Mutex<Vec<Vec<Gathered>>> = Mutex::new(Vec::new());

/// Spare columns kept at most: enough for the games between the workers that make rows
/// and the writer that drops them.
const SPARE_KEPT: usize = 64;

/// Columns that held more values (rows, or a list's elements) or text than this are not
/// kept: one long game must not
/// leave its room held for the rest of the run.
const SPARE_ROWS: usize = 1024;
const SPARE_TEXT: usize = 1 << 20;

impl Rows {
    /// No row yet, for columns of these types; room for `rows` rows.
    pub fn new(
        columns: impl Iterator<Item = Json> + Clone,
        empty_string_is_null: bool,
        rows: usize,
    ) -> Rows {
        let spare = SPARE.lock().ok().and_then(|mut spare| {
            let fits = |kept: &Vec<Gathered>| {
                kept.len() == columns.clone().count()
                    && kept.iter().zip(columns.clone()).all(|(k, json)| k.is(json))
            };
            let at = spare.iter().position(fits)?;
            Some(spare.swap_remove(at))
        });
        let mut columns: Vec<Gathered> = match spare {
            Some(columns) => columns,
            None => columns.map(Gathered::of).collect(),
        };
        // One row (a `stats` game) grows its columns as well as a reservation would.
        if rows > 1 {
            for column in &mut columns {
                column.reserve_rows(rows);
            }
        }
        Rows {
            columns,
            next: 0,
            rows: 0,
            empty_string_is_null,
            error: None,
        }
    }

    /// The index of the next cell's column; the cursor moves on.
    #[inline]
    fn advance(&mut self) -> usize {
        let index = self.next;
        self.next += 1;
        if self.next >= self.columns.len() {
            self.next = 0;
            self.rows += 1;
        }
        index
    }

    /// Stores the next cell into its column, and moves on.
    #[inline]
    fn cell(&mut self, store: impl FnOnce(&mut Gathered, bool) -> anyhow::Result<()>) {
        let index = self.advance();
        let empty_string_is_null = self.empty_string_is_null;
        let stored = match self.columns.get_mut(index) {
            Some(column) => store(column, empty_string_is_null),
            None => Err(anyhow::anyhow!("a cell for no column")),
        };
        if let Err(err) = stored {
            self.error.get_or_insert(err);
        }
    }

    /// Adds one cell of `typed`, as `CellSink` adds it.
    #[inline]
    fn push_value(&mut self, value: &Value, typed: &Typed) {
        match *value {
            Value::Null => self.null(),
            Value::Text { start, end } => self.text(typed.str(start, end)),
            Value::List { start, end } => self.list(typed.str(start, end)),
            Value::Unsigned(n) => self.number(n),
            Value::Signed(n) => self.signed(Some(n)),
            Value::Decimal(d) => self.decimal(Some(d)),
            Value::Bool(b) => self.bool(b),
        }
    }

    /// An empty cell: null, or an empty string where those are kept.
    fn null(&mut self) {
        self.cell(|column, empty_string_is_null| {
            column.push_null(empty_string_is_null);
            Ok(())
        });
    }

    /// A value stored as it is where the next column holds its type (`slot` finds its
    /// values there), else read from the text `text` writes.
    #[inline]
    fn typed<T>(&mut self, value: T, slot: Slot<T>, text: impl FnOnce(&mut Cells)) {
        match self.columns.get_mut(self.next).and_then(slot) {
            Some((values, defined)) => {
                push_one(values, defined, value);
                self.advance();
            }
            None => self.as_text(text),
        }
    }

    /// A cell given as text where its column may hold another type.
    #[cold]
    fn as_text(&mut self, fill: impl FnOnce(&mut Cells)) {
        let mut cells = Cells::default();
        fill(&mut cells);
        let text = cells.get(0).unwrap_or_default();
        self.cell(|column, empty_string_is_null| {
            column.push(text.as_bytes(), empty_string_is_null)
        });
    }
}

impl Drop for Rows {
    /// The columns, emptied, are kept for the next rows.
    fn drop(&mut self) {
        let mut columns = std::mem::take(&mut self.columns);
        if !worth_keeping(&columns) {
            return;
        }
        for column in &mut columns {
            column.clear();
        }
        if let Ok(mut spare) = SPARE.lock()
            && spare.len() < SPARE_KEPT
        {
            spare.push(columns);
        }
    }
}

/// Whether columns are small enough to be kept for the next rows (`SPARE_ROWS`,
/// `SPARE_TEXT`).
fn worth_keeping(columns: &[Gathered]) -> bool {
    let text: usize = columns.iter().map(Gathered::text_len).sum();
    let values = columns.iter().map(|c| c.levels().len()).max().unwrap_or(0);
    !columns.is_empty() && values <= SPARE_ROWS && text <= SPARE_TEXT
}

impl CellSink for Rows {
    fn text(&mut self, value: &str) {
        self.cell(|column, empty_string_is_null| match column {
            Gathered::Text {
                text,
                ends,
                defined,
            } => {
                if value.is_empty() && empty_string_is_null {
                    defined.push(0);
                } else {
                    text.extend_from_slice(value.as_bytes());
                    ends.push(text.len());
                    defined.push(1);
                }
                Ok(())
            }
            other => other.push(value.as_bytes(), empty_string_is_null),
        });
    }
    fn number(&mut self, value: impl Into<u64>) {
        let n = value.into();
        self.cell(|column, empty_string_is_null| column.push_unsigned(n, empty_string_is_null));
    }
    fn optional(&mut self, value: Option<impl Into<u64>>) {
        match value {
            Some(n) => self.number(n),
            None => self.null(),
        }
    }
    fn signed(&mut self, value: Option<i64>) {
        match value {
            None => self.null(),
            Some(n) => self.typed(n, Gathered::ints, |cells| cells.signed(Some(n))),
        }
    }
    fn decimal(&mut self, value: Option<Decimal>) {
        match value {
            None => self.null(),
            Some(d) => self.typed(d.to_f64(), Gathered::doubles, |cells| {
                cells.decimal(Some(d));
            }),
        }
    }
    fn bool(&mut self, value: bool) {
        self.typed(value, Gathered::bools, |cells| cells.bool(value));
    }
    fn list(&mut self, json_array: &str) {
        self.text(json_array);
    }
}

/// Where a column of `T` keeps its values and levels (`Gathered::ints` and its kin).
type Slot<T> = fn(&mut Gathered) -> Option<(&mut Vec<T>, &mut Vec<i16>)>;

/// A column's cells of the row group in progress (or of a worker's rows): the values that
/// are not null, and the definition level of every row (1: a value, 0: null).
#[derive(Debug)]
enum Gathered {
    Text {
        text: Vec<u8>,
        ends: Vec<usize>,
        defined: Vec<i16>,
    },
    Int {
        values: Vec<i64>,
        defined: Vec<i16>,
    },
    /// Unsigned 64-bit values, stored as INT64 of the same bits (UINT_64).
    Unsigned {
        values: Vec<i64>,
        defined: Vec<i16>,
    },
    Double {
        values: Vec<f64>,
        defined: Vec<i16>,
    },
    Bool {
        values: Vec<bool>,
        defined: Vec<i16>,
    },
    /// A LIST column: its elements' values and definition levels (0: no list, 1: an
    /// empty list, 2: a null element, 3: an element), and each element's repetition
    /// level (0: the first of its row, 1: another).
    List {
        element: Box<Gathered>,
        repeated: Vec<i16>,
    },
}

impl Gathered {
    fn of(json: Json) -> Gathered {
        match json {
            Json::String => Gathered::Text {
                text: Vec::new(),
                ends: Vec::new(),
                defined: Vec::new(),
            },
            Json::Number => Gathered::Int {
                values: Vec::new(),
                defined: Vec::new(),
            },
            Json::Unsigned => Gathered::Unsigned {
                values: Vec::new(),
                defined: Vec::new(),
            },
            Json::Decimal => Gathered::Double {
                values: Vec::new(),
                defined: Vec::new(),
            },
            Json::Bool => Gathered::Bool {
                values: Vec::new(),
                defined: Vec::new(),
            },
            Json::List(element) => Gathered::List {
                element: Box::new(Gathered::of(match element {
                    // No list of lists: `Column::list_of` makes none.
                    Json::List(_) => Json::String,
                    scalar => *scalar,
                })),
                repeated: Vec::new(),
            },
        }
    }

    /// The bytes of text held (of the elements, for a list).
    fn text_len(&self) -> usize {
        match self {
            Gathered::Text { text, .. } => text.len(),
            Gathered::List { element, .. } => element.text_len(),
            _ => 0,
        }
    }

    /// Room for `bytes` of text.
    fn reserve_text(&mut self, bytes: usize) {
        match self {
            Gathered::Text { text, .. } => text.reserve(bytes),
            Gathered::List { element, .. } => element.reserve_text(bytes),
            _ => {}
        }
    }

    /// The definition levels of the values (of the elements, for a list).
    fn defined(&mut self) -> &mut Vec<i16> {
        match self {
            Gathered::Text { defined, .. }
            | Gathered::Int { defined, .. }
            | Gathered::Unsigned { defined, .. }
            | Gathered::Double { defined, .. }
            | Gathered::Bool { defined, .. } => defined,
            Gathered::List { element, .. } => element.defined(),
        }
    }

    /// A column of the same type with no cell, for the second group gathered while the
    /// first is encoded; from then on the two sets of columns take turns.
    fn emptied(&self) -> Gathered {
        match self {
            Gathered::Text { .. } => Gathered::of(Json::String),
            Gathered::Int { .. } => Gathered::of(Json::Number),
            Gathered::Unsigned { .. } => Gathered::of(Json::Unsigned),
            Gathered::Double { .. } => Gathered::of(Json::Decimal),
            Gathered::Bool { .. } => Gathered::of(Json::Bool),
            Gathered::List { element, .. } => Gathered::List {
                element: Box::new(element.emptied()),
                repeated: Vec::new(),
            },
        }
    }

    /// Whether the column holds cells of type `json`.
    fn is(&self, json: Json) -> bool {
        match (self, json) {
            (Gathered::List { element, .. }, Json::List(inner)) => match inner {
                Json::List(_) => element.is(Json::String),
                scalar => element.is(*scalar),
            },
            (Gathered::Text { .. }, Json::String)
            | (Gathered::Int { .. }, Json::Number)
            | (Gathered::Unsigned { .. }, Json::Unsigned)
            | (Gathered::Double { .. }, Json::Decimal)
            | (Gathered::Bool { .. }, Json::Bool) => true,
            _ => false,
        }
    }

    /// No cell, the room kept.
    fn clear(&mut self) {
        match self {
            Gathered::Text {
                text,
                ends,
                defined,
            } => {
                text.clear();
                ends.clear();
                defined.clear();
            }
            Gathered::Int { values, defined } | Gathered::Unsigned { values, defined } => {
                values.clear();
                defined.clear();
            }
            Gathered::Double { values, defined } => {
                values.clear();
                defined.clear();
            }
            Gathered::Bool { values, defined } => {
                values.clear();
                defined.clear();
            }
            Gathered::List { element, repeated } => {
                repeated.clear();
                element.clear();
            }
        }
    }

    /// Room for `rows` more rows (their values and levels; a list's, one element each).
    fn reserve_rows(&mut self, rows: usize) {
        match self {
            Gathered::Text { ends, defined, .. } => {
                ends.reserve(rows);
                defined.reserve(rows);
            }
            Gathered::Int { values, defined } | Gathered::Unsigned { values, defined } => {
                values.reserve(rows);
                defined.reserve(rows);
            }
            Gathered::Double { values, defined } => {
                values.reserve(rows);
                defined.reserve(rows);
            }
            Gathered::Bool { values, defined } => {
                values.reserve(rows);
                defined.reserve(rows);
            }
            Gathered::List { element, repeated } => {
                repeated.reserve(rows);
                element.reserve_rows(rows);
            }
        }
    }

    /// The definition levels, read only.
    fn levels(&self) -> &[i16] {
        match self {
            Gathered::Text { defined, .. }
            | Gathered::Int { defined, .. }
            | Gathered::Unsigned { defined, .. }
            | Gathered::Double { defined, .. }
            | Gathered::Bool { defined, .. } => defined,
            Gathered::List { element, .. } => element.levels(),
        }
    }

    /// A column of signed integers' values and levels.
    fn ints(&mut self) -> Option<(&mut Vec<i64>, &mut Vec<i16>)> {
        match self {
            Gathered::Int { values, defined } => Some((values, defined)),
            _ => None,
        }
    }

    /// A column of decimals' values and levels.
    fn doubles(&mut self) -> Option<(&mut Vec<f64>, &mut Vec<i16>)> {
        match self {
            Gathered::Double { values, defined } => Some((values, defined)),
            _ => None,
        }
    }

    /// A column of booleans' values and levels.
    fn bools(&mut self) -> Option<(&mut Vec<bool>, &mut Vec<i16>)> {
        match self {
            Gathered::Bool { values, defined } => Some((values, defined)),
            _ => None,
        }
    }

    /// An empty cell, as `push` stores one, without looking at it.
    #[inline]
    fn push_null(&mut self, empty_string_is_null: bool) {
        match self {
            Gathered::Text {
                text,
                ends,
                defined,
            } if !empty_string_is_null => {
                ends.push(text.len());
                defined.push(1);
            }
            Gathered::List { element, repeated } => {
                repeated.push(0);
                element.defined().push(0);
            }
            other => other.defined().push(0),
        }
    }

    /// An unsigned number: stored as it is in a column of numbers, else read from its
    /// text as `push` reads it.
    #[inline]
    fn push_unsigned(&mut self, n: u64, empty_string_is_null: bool) -> anyhow::Result<()> {
        match self {
            Gathered::Int { values, defined } => match i64::try_from(n) {
                Ok(n) => push_one(values, defined, n),
                Err(_) => anyhow::bail!("`{n}` is not an integer"),
            },
            // The same 64 bits: UINT_64 tells a reader to read them unsigned.
            Gathered::Unsigned { values, defined } => push_one(values, defined, n.cast_signed()),
            _ => self.push(
                itoa::Buffer::new().format(n).as_bytes(),
                empty_string_is_null,
            )?,
        }
        Ok(())
    }

    /// Appends rows `rows` of `other` (a column of the same type); the bytes they hold
    /// (about): a text's length, and `HELD` for each cell.
    fn append(&mut self, other: &Gathered, rows: Range<usize>) -> anyhow::Result<usize> {
        match (self, other) {
            (
                Gathered::List { element, repeated },
                Gathered::List {
                    element: theirs,
                    repeated: their_repeated,
                },
            ) => {
                // A row is its first element's level and those that repeat it.
                let levels = row_levels(their_repeated, rows).ok_or_else(mismatch)?;
                let added = their_repeated.get(levels.clone()).ok_or_else(mismatch)?;
                extend(repeated, added);
                element.append_levels(theirs, levels, 3)
            }
            (scalar, theirs) => scalar.append_levels(theirs, rows, 1),
        }
    }

    /// Appends the levels `levels` of `other` and the values they define (level
    /// `value_level`).
    fn append_levels(
        &mut self,
        other: &Gathered,
        levels: Range<usize>,
        value_level: i16,
    ) -> anyhow::Result<usize> {
        let theirs = other.levels();
        let added = theirs.get(levels.clone()).ok_or_else(mismatch)?;
        let values = if levels.start == 0 && levels.end == theirs.len() {
            // All of them (the common case): no need to count.
            0..other.value_count()
        } else {
            let count = |levels: &[i16]| levels.iter().filter(|&&l| l == value_level).count();
            let before = count(theirs.get(..levels.start).ok_or_else(mismatch)?);
            before..before + count(added)
        };
        let bytes = match (self, other) {
            (
                Gathered::Text {
                    text,
                    ends,
                    defined,
                },
                Gathered::Text {
                    text: their_text,
                    ends: their_ends,
                    ..
                },
            ) => {
                let end_of = |value: usize| match value.checked_sub(1) {
                    None => Some(0),
                    Some(last) => their_ends.get(last).copied(),
                };
                let start = end_of(values.start).ok_or_else(mismatch)?;
                let end = end_of(values.end).ok_or_else(mismatch)?;
                let base = text.len();
                extend(text, their_text.get(start..end).ok_or_else(mismatch)?);
                let their_ends = their_ends.get(values).ok_or_else(mismatch)?;
                ends.extend(their_ends.iter().map(|&e| e - start + base));
                extend(defined, added);
                return Ok(end - start + HELD * added.len());
            }
            (
                Gathered::Int {
                    values: to,
                    defined,
                }
                | Gathered::Unsigned {
                    values: to,
                    defined,
                },
                Gathered::Int { values: from, .. } | Gathered::Unsigned { values: from, .. },
            ) => append_values(to, defined, from, values, added),
            (
                Gathered::Double {
                    values: to,
                    defined,
                },
                Gathered::Double { values: from, .. },
            ) => append_values(to, defined, from, values, added),
            (
                Gathered::Bool {
                    values: to,
                    defined,
                },
                Gathered::Bool { values: from, .. },
            ) => append_values(to, defined, from, values, added),
            _ => None,
        };
        bytes.ok_or_else(mismatch)
    }

    /// How many values (not nulls) are held.
    fn value_count(&self) -> usize {
        match self {
            Gathered::Text { ends, .. } => ends.len(),
            Gathered::Int { values, .. } | Gathered::Unsigned { values, .. } => values.len(),
            Gathered::Double { values, .. } => values.len(),
            Gathered::Bool { values, .. } => values.len(),
            Gathered::List { element, .. } => element.value_count(),
        }
    }

    /// Adds one cell (its CSV text); an empty cell is null, except an empty string where
    /// empty strings are kept (`Record::EMPTY_STRING_IS_NULL`).
    fn push(&mut self, cell: &[u8], empty_string_is_null: bool) -> anyhow::Result<()> {
        self.push_at(cell, empty_string_is_null, (0, 1))
    }

    /// As `push`, with the definition levels of a null and of a value.
    fn push_at(
        &mut self,
        cell: &[u8],
        empty_string_is_null: bool,
        (null_level, value_level): (i16, i16),
    ) -> anyhow::Result<()> {
        let null = cell.is_empty();
        match self {
            Gathered::List { element, repeated } => {
                if null {
                    repeated.push(0);
                    element.defined().push(0);
                    return Ok(());
                }
                let items: Vec<serde_json::Value> =
                    serde_json::from_slice(cell).map_err(|err| {
                        anyhow::anyhow!("a list cell that is not a JSON array: {err}")
                    })?;
                if items.is_empty() {
                    repeated.push(0);
                    element.defined().push(1);
                }
                for (i, item) in items.iter().enumerate() {
                    repeated.push(if i == 0 { 0 } else { 1 });
                    let text = match item {
                        serde_json::Value::Null => String::new(),
                        serde_json::Value::String(text) => text.clone(),
                        other => other.to_string(),
                    };
                    element.push_at(text.as_bytes(), empty_string_is_null, (2, 3))?;
                }
            }
            Gathered::Text {
                text,
                ends,
                defined,
            } => {
                if null && empty_string_is_null {
                    defined.push(null_level);
                } else {
                    text.extend_from_slice(cell);
                    ends.push(text.len());
                    defined.push(value_level);
                }
            }
            Gathered::Int { values, defined } => {
                let levels = (null_level, value_level);
                push_parsed(values, defined, cell, levels, "an integer", parse_integer)?;
            }
            Gathered::Unsigned { values, defined } => {
                let levels = (null_level, value_level);
                push_parsed(
                    values,
                    defined,
                    cell,
                    levels,
                    "an unsigned integer",
                    |cell| {
                        let value = std::str::from_utf8(cell).ok()?.parse::<u64>().ok()?;
                        // The same 64 bits: UINT_64 tells a reader to read them unsigned.
                        Some(i64::from_ne_bytes(value.to_ne_bytes()))
                    },
                )?;
            }
            Gathered::Double { values, defined } => {
                let levels = (null_level, value_level);
                push_parsed(values, defined, cell, levels, "a number", |cell| {
                    std::str::from_utf8(cell).ok()?.parse::<f64>().ok()
                })?;
            }
            Gathered::Bool { values, defined } => {
                let levels = (null_level, value_level);
                push_parsed(values, defined, cell, levels, "a boolean", |cell| {
                    Some(cell == b"true")
                })?;
            }
        }
        Ok(())
    }

    /// Writes the row group's cells into the column's writer and empties the buffers.
    fn write_into(&mut self, writer: &mut ColumnWriter<'_>) -> anyhow::Result<()> {
        self.write_levels(writer, None)
    }

    /// As `write_into`, with the repetition levels of a list's elements.
    fn write_levels(
        &mut self,
        writer: &mut ColumnWriter<'_>,
        repeated: Option<&[i16]>,
    ) -> anyhow::Result<()> {
        match (self, writer) {
            (Gathered::List { element, repeated }, writer) => {
                element.write_levels(writer, Some(repeated))?;
                repeated.clear();
            }
            (
                Gathered::Text {
                    text,
                    ends,
                    defined,
                },
                ColumnWriter::ByteArrayColumnWriter(writer),
            ) => {
                // One buffer for the whole column; each value is a slice of it, or the
                // program's own copy of a value it knows (`well_known`).
                let all = bytes::Bytes::from(std::mem::take(text));
                let mut start = 0;
                let values: Vec<ByteArray> = ends
                    .iter()
                    .map(|&end| {
                        let known = all.get(start..end).and_then(well_known);
                        let value = match known {
                            Some(known) => Bytes::from_static(known),
                            None => all.slice(start..end),
                        };
                        start = end;
                        ByteArray::from(value)
                    })
                    .collect();
                writer.write_batch(&values, Some(defined), repeated)?;
                ends.clear();
                defined.clear();
            }
            (
                Gathered::Int { values, defined } | Gathered::Unsigned { values, defined },
                ColumnWriter::Int64ColumnWriter(writer),
            ) => {
                writer.write_batch(values, Some(defined), repeated)?;
                values.clear();
                defined.clear();
            }
            (Gathered::Double { values, defined }, ColumnWriter::DoubleColumnWriter(writer)) => {
                writer.write_batch(values, Some(defined), repeated)?;
                values.clear();
                defined.clear();
            }
            (Gathered::Bool { values, defined }, ColumnWriter::BoolColumnWriter(writer)) => {
                writer.write_batch(values, Some(defined), repeated)?;
                values.clear();
                defined.clear();
            }
            _ => return Err(mismatch()),
        }
        Ok(())
    }
}

/// The program's own copy of a short text it writes often: a piece letter, a square, a
/// colour, castling. The parquet crate clones and drops every value it is given; a
/// slice of the column's buffer pays two atomic operations each time, a static text
/// none (a tenth of `moves --format parquet`'s time at two threads went to them).
fn well_known(value: &[u8]) -> Option<&'static [u8]> {
    // Patterns on the bytes: a length test and a few compares, no search.
    Some(match *value {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
            let at = 2 * (usize::from(rank - b'1') * 8 + usize::from(file - b'a'));
            return SQUARES.get(at..at + 2);
        }
        [b'P'] => b"P",
        [b'N'] => b"N",
        [b'B'] => b"B",
        [b'R'] => b"R",
        [b'Q'] => b"Q",
        [b'K'] => b"K",
        [b'w', b'h', b'i', b't', b'e'] => b"white",
        [b'b', b'l', b'a', b'c', b'k'] => b"black",
        [b'O', b'-', b'O'] => b"O-O",
        [b'O', b'-', b'O', b'-', b'O'] => b"O-O-O",
        _ => return None,
    })
}

/// The 64 squares' names, `a1` to `h8`, two bytes each.
static SQUARES: &[u8; 128] = b"a1b1c1d1e1f1g1h1a2b2c2d2e2f2g2h2a3b3c3d3e3f3g3h3a4b4c4d4e4f4g4h4\
      a5b5c5d5e5f5g5h5a6b6c6d6e6f6g6h6a7b7c7d7e7f7g7h7a8b8c8d8e8f8g8h8";

/// A value and its definition level (1: a value).
#[inline]
fn push_one<T>(values: &mut Vec<T>, defined: &mut Vec<i16>, value: T) {
    values.push(value);
    defined.push(1);
}

/// Appends `from`'s values `values` and their levels `levels`; the bytes they hold
/// (about: `HELD` a level), or `None` where the ranges do not fit.
fn append_values<T: Copy>(
    to: &mut Vec<T>,
    defined: &mut Vec<i16>,
    from: &[T],
    values: Range<usize>,
    levels: &[i16],
) -> Option<usize> {
    extend(to, from.get(values)?);
    extend(defined, levels);
    Some(HELD * levels.len())
}

/// `to.extend_from_slice(from)`, without a call to `memcpy` for the few values of one
/// game's row (`stats`: one row a game, in 60 columns).
#[inline]
fn extend<T: Copy>(to: &mut Vec<T>, from: &[T]) {
    if from.len() <= 4 {
        for &value in from {
            to.push(value);
        }
    } else {
        to.extend_from_slice(from);
    }
}

/// The repetition levels of rows `rows` of a list column: each row starts at a level 0.
fn row_levels(repeated: &[i16], rows: Range<usize>) -> Option<Range<usize>> {
    if rows.start == 0 && rows.end == repeated.iter().filter(|&&r| r == 0).count() {
        return Some(0..repeated.len());
    }
    let mut starts = repeated
        .iter()
        .enumerate()
        .filter(|&(_, &r)| r == 0)
        .map(|(at, _)| at)
        .chain(std::iter::once(repeated.len()));
    let start = starts.nth(rows.start)?;
    let end = if rows.is_empty() {
        start
    } else {
        starts.nth(rows.len() - 1)?
    };
    Some(start..end)
}

fn mismatch() -> anyhow::Error {
    anyhow::anyhow!("a Parquet column of another type")
}

/// A scalar cell read from its text into `values`, or a null (an empty cell) into the
/// definition levels only; `what` names the type in the error.
fn push_parsed<T>(
    values: &mut Vec<T>,
    defined: &mut Vec<i16>,
    cell: &[u8],
    (null_level, value_level): (i16, i16),
    what: &str,
    parse: impl FnOnce(&[u8]) -> Option<T>,
) -> anyhow::Result<()> {
    if cell.is_empty() {
        defined.push(null_level);
        return Ok(());
    }
    let value = parse(cell)
        .ok_or_else(|| anyhow::anyhow!("`{}` is not {what}", String::from_utf8_lossy(cell)))?;
    values.push(value);
    defined.push(value_level);
    Ok(())
}

/// A decimal integer as the records write it (`-` and digits), read from bytes.
fn parse_integer(cell: &[u8]) -> Option<i64> {
    let (negative, digits) = match cell.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, cell),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &digit in digits {
        if !digit.is_ascii_digit() {
            return None;
        }
        value = value
            .checked_mul(10)?
            .checked_add(i64::from(digit - b'0'))?;
    }
    Some(if negative { -value } else { value })
}

/// The path of a LIST column's elements.
fn list_path(name: &str) -> Vec<String> {
    vec![name.into(), "list".into(), "element".into()]
}

/// The Parquet type of a column: every column is optional (null where JSON lines write
/// `null`); strings are UTF-8, numbers INT64, decimals DOUBLE.
fn field(name: &str, json: Json) -> anyhow::Result<Arc<Type>> {
    if let Json::List(element) = json {
        // The three-level LIST of the Parquet format: an optional list of optional
        // elements.
        let element = field("element", *element)?;
        let list = Type::group_type_builder("list")
            .with_repetition(Repetition::REPEATED)
            .with_fields(vec![element])
            .build()?;
        return Ok(Arc::new(
            Type::group_type_builder(name)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(Some(LogicalType::List))
                .with_fields(vec![Arc::new(list)])
                .build()?,
        ));
    }
    let (physical, logical) = match json {
        // A list of lists is never made (`Column::list_of`).
        Json::List(_) => anyhow::bail!("a list of lists: {name}"),
        Json::String => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
        Json::Number => (Physical::INT64, None),
        Json::Unsigned => (
            Physical::INT64,
            Some(LogicalType::Integer(IntType {
                bit_width: 64,
                is_signed: false,
            })),
        ),
        Json::Decimal => (Physical::DOUBLE, None),
        Json::Bool => (Physical::BOOLEAN, None),
    };
    Ok(Arc::new(
        Type::primitive_type_builder(name, physical)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(logical)
            .build()?,
    ))
}

impl<W: Write + Send> ParquetTable<W> {
    /// A file with these columns (name and JSON type, in order).
    pub fn new<'a>(
        out: W,
        columns: impl Iterator<Item = (&'a str, Json)>,
        empty_string_is_null: bool,
    ) -> anyhow::Result<ParquetTable<W>> {
        let columns: Vec<(&str, Json)> = columns.collect();
        let fields = columns
            .iter()
            .map(|&(name, json)| field(name, json))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let schema = Type::group_type_builder("schema")
            .with_fields(fields)
            .build()?;
        let mut properties = WriterProperties::builder()
            // Level 1: the cheapest zstd (docs/benchmarks-history.md "Parquet").
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
            .set_created_by(format!("pgnkit {}", env!("CARGO_PKG_VERSION")));
        // A string column's min and max (SAN, UCI, names) prune no query worth it, and
        // comparing every value for them cost a tenth of `moves --format parquet`: none.
        for &(name, json) in &columns {
            let path = match json {
                Json::String => vec![name.to_string()],
                Json::List(Json::String) => list_path(name),
                _ => continue,
            };
            properties = properties
                .set_column_statistics_enabled(ColumnPath::new(path), EnabledStatistics::None);
        }
        // Position keys hardly repeat: a dictionary of them is work for nothing. Integers
        // (game numbers, plies, clocks, ratings) mostly run or step: their differences,
        // bit-packed, take a tenth of the instructions a dictionary does for a file 0.6%
        // larger (BENCHMARKS.md, `moves`); DuckDB, Polars, pyarrow and Spark read them.
        for &(name, json) in &columns {
            let (path, delta) = match json {
                Json::Unsigned => (vec![name.to_string()], false),
                Json::List(Json::Unsigned) => (list_path(name), false),
                Json::Number => (vec![name.to_string()], true),
                Json::List(Json::Number) => (list_path(name), true),
                _ => continue,
            };
            let path = ColumnPath::new(path);
            properties = properties.set_column_dictionary_enabled(path.clone(), false);
            if delta {
                properties = properties.set_column_encoding(path, Packing::DELTA_BINARY_PACKED);
            }
        }
        let properties = properties.build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?;
        let encoding = Encoding {
            columns: writer.schema_descr().columns().to_vec(),
            properties: writer.properties().clone(),
            threads: 1,
        };
        Ok(ParquetTable {
            writer,
            columns: columns
                .iter()
                .map(|&(_, json)| Gathered::of(json))
                .collect(),
            rows: 0,
            bytes: 0,
            group_rows: ROW_GROUP_ROWS,
            encoder: Encoder::InLine(encoding),
            empty_string_is_null,
        })
    }

    /// Full row groups are encoded on a thread of their own, while the next group is
    /// gathered: for runs with worker threads, whom a group encoded in line would keep
    /// waiting. The file's bytes are the same.
    pub fn encode_ahead(&mut self, threads: usize) -> anyhow::Result<()> {
        if let Encoder::InLine(encoding) = &self.encoder {
            let encoding = Encoding {
                threads,
                ..encoding.clone()
            };
            self.encoder = Encoder::Ahead(Running::start(encoding)?);
        }
        Ok(())
    }

    /// Adds the rows of `typed` (a few records' cells, row after row), each cell straight
    /// into its column of the group.
    pub fn push_typed(&mut self, typed: &Typed) -> anyhow::Result<()> {
        let width = self.columns.len();
        let values = typed.values();
        if width == 0 || !values.len().is_multiple_of(width) {
            anyhow::bail!("{} cells for rows of {width} columns", values.len());
        }
        for row in values.chunks(width) {
            // The group's columns, lent for one row to the cell pushing of `Rows`.
            let mut group = Rows {
                columns: std::mem::take(&mut self.columns),
                next: 0,
                rows: 0,
                empty_string_is_null: self.empty_string_is_null,
                error: None,
            };
            let mut bytes = HELD * width;
            for value in row {
                if let Value::Text { start, end } | Value::List { start, end } = *value {
                    bytes += end.saturating_sub(start) as usize;
                }
                group.push_value(value, typed);
            }
            let error = group.error.take();
            self.columns = std::mem::take(&mut group.columns);
            if let Some(err) = error {
                return Err(err);
            }
            self.rows += 1;
            self.bytes += bytes;
            if self.rows >= self.group_rows || self.bytes >= ROW_GROUP_BYTES {
                self.end_row_group()?;
            }
        }
        Ok(())
    }

    /// Adds the rows a worker gathered, column by column; a row group is full at
    /// `group_rows` rows or `ROW_GROUP_BYTES` bytes, whichever comes first.
    pub fn push_rows(&mut self, rows: &Rows) -> anyhow::Result<()> {
        if let Some(err) = &rows.error {
            anyhow::bail!("{err:#}");
        }
        let width = self.columns.len();
        if width == 0 || rows.columns.len() != width || rows.next != 0 {
            anyhow::bail!("cells that make no whole rows of {width} columns");
        }
        let mut done = 0;
        while done < rows.rows {
            let room = self.group_rows.saturating_sub(self.rows).max(1);
            let now = done..done + (rows.rows - done).min(room);
            for (column, theirs) in self.columns.iter_mut().zip(&rows.columns) {
                self.bytes += column.append(theirs, now.clone())?;
            }
            self.rows += now.len();
            done = now.end;
            if self.rows >= self.group_rows || self.bytes >= ROW_GROUP_BYTES {
                self.end_row_group()?;
            }
        }
        Ok(())
    }

    /// Hands the gathered group to the encoder; the cells of the next group start empty.
    fn end_row_group(&mut self) -> anyhow::Result<()> {
        self.rows = 0;
        self.bytes = 0;
        match &mut self.encoder {
            Encoder::InLine(encoding) => {
                let group = encoding.encode_in_place(&mut self.columns)?;
                append(&mut self.writer, group)
            }
            Encoder::Ahead(running) => {
                // The group before this one is appended first; its columns, emptied,
                // gather the next one.
                let empty = match running.take()? {
                    Some((group, emptied)) => {
                        append(&mut self.writer, group)?;
                        emptied
                    }
                    None => self.columns.iter().map(Gathered::emptied).collect(),
                };
                let full = std::mem::replace(&mut self.columns, empty);
                running.send.send(full).map_err(|_| stopped())?;
                running.pending = true;
                Ok(())
            }
        }
    }

    /// Writes the last row group and the footer; hands back the destination.
    pub fn finish(mut self) -> anyhow::Result<W> {
        if self.rows > 0 {
            self.end_row_group()?;
        }
        if let Encoder::Ahead(mut running) = self.encoder {
            if let Some((group, _)) = running.take()? {
                append(&mut self.writer, group)?;
            }
            drop(running.send);
            running
                .thread
                .join()
                .map_err(|_| anyhow::anyhow!("the Parquet encoding thread failed"))?;
        }
        Ok(self.writer.into_inner()?)
    }
}

/// Appends an encoded row group to the file.
fn append<W: Write + Send>(
    writer: &mut SerializedFileWriter<W>,
    group: EncodedGroup,
) -> anyhow::Result<()> {
    let mut row_group = writer.next_row_group()?;
    for (bytes, close) in group {
        row_group.append_column(&bytes, close)?;
    }
    row_group.close()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::{ParquetTable, Rows, parse_integer};
    use crate::record::{CellSink, Cells, Decimal, Json, Typed};
    use parquet::file::reader::{FileReader, SerializedFileReader};

    /// The cells of row `row` of the test table, into any sink.
    fn row_cells(row: usize, cells: &mut impl CellSink) {
        let name = format!("player {}", row % 5);
        cells.text(if row.is_multiple_of(3) { "" } else { &name });
        cells.number(row as u64);
        cells.signed(Some(-(row as i64)));
        cells.optional((!row.is_multiple_of(4)).then_some(u64::MAX - row as u64));
        cells.decimal((!row.is_multiple_of(5)).then_some(Decimal::millis(1500 + 7 * row as u64)));
        match row % 3 {
            0 => cells.bool(true),
            1 => cells.bool(false),
            _ => cells.optional(None::<u32>),
        }
        cells.list(match row % 4 {
            0 => "[1,2,3]",
            1 => "[]",
            2 => "",
            _ => "[-4,null]",
        });
    }

    const COLUMNS: [(&str, Json); 7] = [
        ("name", Json::String),
        ("n", Json::Number),
        ("s", Json::Number),
        ("k", Json::Unsigned),
        ("t", Json::Decimal),
        ("b", Json::Bool),
        ("l", Json::List(&Json::Number)),
    ];

    /// No row yet, for the test table's columns.
    fn rows() -> Rows {
        Rows::new(COLUMNS.iter().map(|&(_, json)| json), true, 0)
    }

    /// A table of `rows` rows in row groups of 7 rows, encoded in line or ahead, its
    /// cells pushed typed (all rows at once: split across groups) or as their text (a
    /// row at a time).
    fn table(rows: usize, ahead: bool, as_text: bool) -> Vec<u8> {
        let mut table = ParquetTable::new(Vec::new(), COLUMNS.into_iter(), true).unwrap();
        table.group_rows = 7;
        if ahead {
            table.encode_ahead(3).unwrap();
        }
        let mut typed = self::rows();
        for row in 0..rows {
            if as_text {
                let mut cells = Cells::default();
                row_cells(row, &mut cells);
                let mut one = self::rows();
                for cell in cells.iter() {
                    one.text(cell);
                }
                table.push_rows(&one).unwrap();
            } else {
                row_cells(row, &mut typed);
            }
        }
        if !as_text {
            table.push_rows(&typed).unwrap();
        }
        table.finish().unwrap()
    }

    /// A table of `rows` rows in row groups of 7 rows, each row's cells handed to the
    /// writer row after row (`Typed`: a `stats` game's one row).
    fn table_of_typed_rows(rows: usize) -> Vec<u8> {
        let mut table = ParquetTable::new(Vec::new(), COLUMNS.into_iter(), true).unwrap();
        table.group_rows = 7;
        for row in 0..rows {
            let mut typed = Typed::default();
            row_cells(row, &mut typed);
            table.push_typed(&typed).unwrap();
        }
        table.finish().unwrap()
    }

    /// A row handed over as `Typed` cells makes the file that the same rows gathered into
    /// columns make, byte for byte.
    #[test]
    fn typed_rows_are_gathered_rows() {
        for rows in [0, 1, 8, 100] {
            assert_eq!(
                table_of_typed_rows(rows),
                table(rows, false, false),
                "{rows} rows"
            );
        }
    }

    /// Typed cells make the file their text, parsed by the columns' types, makes: the
    /// same values, nulls and types, byte for byte.
    #[test]
    fn typed_cells_are_their_text_parsed() {
        for rows in [0, 1, 8, 100] {
            assert_eq!(
                table(rows, false, false),
                table(rows, false, true),
                "{rows} rows"
            );
        }
    }

    /// Numbers keep their min and max, for readers' pruning; strings have none.
    #[test]
    fn statistics_for_numbers_only() {
        let file = SerializedFileReader::new(bytes::Bytes::from(table(10, false, false))).unwrap();
        let group = file.metadata().row_group(0);
        let kept: Vec<bool> = (0..group.num_columns())
            .map(|i| group.column(i).statistics().is_some())
            .collect();
        assert_eq!(kept, [false, true, true, true, true, true, true]);
    }

    /// Integer columns (and lists of them) are delta-packed without a dictionary, keys
    /// plain, strings and decimals dictionary-encoded.
    #[test]
    fn integers_are_delta_packed() {
        use parquet::basic::Encoding;
        let file = SerializedFileReader::new(bytes::Bytes::from(table(10, false, false))).unwrap();
        let group = file.metadata().row_group(0);
        let delta: Vec<bool> = (0..group.num_columns())
            .map(|i| {
                group
                    .column(i)
                    .encodings()
                    .any(|e| e == Encoding::DELTA_BINARY_PACKED)
            })
            .collect();
        let dictionary: Vec<bool> = (0..group.num_columns())
            .map(|i| group.column(i).dictionary_page_offset().is_some())
            .collect();
        assert_eq!(delta, [false, true, true, false, false, false, true]);
        assert_eq!(dictionary, [true, false, false, false, true, false, false]);
    }

    /// A long game's columns (many rows, or much text) are not kept for the next rows:
    /// their room would be held for the rest of the run.
    #[test]
    fn a_long_games_columns_are_not_kept() {
        let sizes = |rows: usize, text: usize| {
            let mut gathered = self::rows();
            for row in 0..rows {
                row_cells(row, &mut gathered);
            }
            let mut long = Rows::new([Json::String].into_iter(), true, 0);
            long.text(&"x".repeat(text));
            (
                super::worth_keeping(&gathered.columns),
                super::worth_keeping(&long.columns),
            )
        };
        assert_eq!(sizes(100, 100), (true, true));
        assert_eq!(
            sizes(super::SPARE_ROWS + 1, super::SPARE_TEXT + 1),
            (false, false)
        );
    }

    /// A row of another width is refused, not shifted into the next row's columns.
    #[test]
    fn a_row_of_another_width_is_refused() {
        let columns = [("a", Json::Number), ("b", Json::Number)];
        let mut table = ParquetTable::new(Vec::new(), columns.into_iter(), true).unwrap();
        let mut rows = Rows::new(columns.iter().map(|&(_, json)| json), true, 0);
        rows.number(1u32);
        rows.number(2u32);
        rows.number(3u32);
        assert!(table.push_rows(&rows).is_err());
    }

    /// Row groups encoded on the encoding thread, one while the next is gathered, make
    /// the file that encoding in line makes, byte for byte, and every row is in it.
    #[test]
    fn groups_encoded_ahead_are_the_groups_encoded_in_line() {
        for rows in [0, 1, 6, 7, 8, 14, 15, 100] {
            let in_line = table(rows, false, false);
            assert_eq!(table(rows, true, false), in_line, "{rows} rows");
            let file = SerializedFileReader::new(bytes::Bytes::from(in_line)).unwrap();
            let metadata = file.metadata();
            assert_eq!(metadata.num_row_groups(), rows.div_ceil(7), "{rows} rows");
            assert_eq!(metadata.file_metadata().num_rows(), rows as i64);
        }
    }

    #[test]
    fn an_encoded_groups_columns_come_back_emptied_with_their_room() {
        let mut table = ParquetTable::new(Vec::new(), COLUMNS.into_iter(), true).unwrap();
        let mut rows = self::rows();
        for row in 0..50 {
            row_cells(row, &mut rows);
        }
        table.push_rows(&rows).unwrap();
        let encoding = super::Encoding {
            columns: table.writer.schema_descr().columns().to_vec(),
            properties: table.writer.properties().clone(),
            threads: 2,
        };
        let (group, mut back) = encoding.encode(std::mem::take(&mut table.columns)).unwrap();
        assert_eq!(group.len(), COLUMNS.len());
        assert_eq!(back.len(), COLUMNS.len());
        for column in &mut back {
            assert_eq!(column.value_count(), 0);
            assert!(column.defined().capacity() >= 50);
        }
    }

    #[test]
    fn well_known_texts_are_the_same_bytes() {
        let mut known = 0;
        for file in b'a'..=b'h' {
            for rank in b'1'..=b'8' {
                assert_eq!(super::well_known(&[file, rank]), Some(&[file, rank][..]));
                known += 1;
            }
        }
        for text in [
            "P", "N", "B", "R", "Q", "K", "white", "black", "O-O", "O-O-O",
        ] {
            assert_eq!(super::well_known(text.as_bytes()), Some(text.as_bytes()));
            known += 1;
        }
        assert_eq!(known, 74);
        for text in ["", "p", "i1", "a9", "a0", "e4e5", "O-O-O-O", "White", "Nf3"] {
            assert_eq!(super::well_known(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn integers_as_str_parses_them() {
        for text in [
            "0",
            "7",
            "-12",
            "9223372036854775807",
            "-9223372036854775807",
        ] {
            assert_eq!(parse_integer(text.as_bytes()), text.parse().ok(), "{text}");
        }
        for text in ["", "-", "1.5", "x", "9223372036854775808"] {
            assert_eq!(parse_integer(text.as_bytes()), None, "{text}");
        }
    }
}
