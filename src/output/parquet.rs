//! `--format parquet`: the records of one type as one Parquet file, its schema made from
//! the record type's columns (`record::Column`). Rows are gathered column by column and
//! written as a row group, zstd-compressed, every `ROW_GROUP_ROWS` rows or
//! `ROW_GROUP_BYTES` bytes of cell text, whichever comes first: what is held is at most
//! two row groups' cells (one gathered, one encoded), whatever the input. A row group's
//! column chunks are encoded apart from the file and then appended to it, on a thread of
//! their own when there are worker threads (`encode_ahead`): the workers need not wait
//! while a group is compressed. The bytes depend only on the records, in their order, so
//! the file is the same at any thread count.

use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use bytes::Bytes;
use parquet::basic::{Compression, IntType, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::column::writer::{ColumnCloseResult, ColumnWriter, get_column_writer};
use parquet::data_type::ByteArray;
use parquet::file::properties::{EnabledStatistics, WriterProperties, WriterPropertiesPtr};
use parquet::file::writer::{SerializedFileWriter, SerializedPageWriter, TrackedWrite};
use parquet::schema::types::{ColumnDescPtr, ColumnPath, Type};

use crate::record::{Json, Typed, Value};

/// Rows of one row group at most.
pub const ROW_GROUP_ROWS: usize = 65_536;
/// Bytes of cell text (as CSV writes it) of one row group at most.
pub const ROW_GROUP_BYTES: usize = 32 * 1024 * 1024;

/// One file being written: the cells of the row group in progress, by column.
pub struct ParquetTable<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    columns: Vec<Gathered>,
    empty_string_is_null: bool,
    rows: usize,
    bytes: usize,
    /// `ROW_GROUP_ROWS`, smaller in tests.
    group_rows: usize,
    encoder: Encoder,
}

/// A row group's column chunks, each encoded (compressed pages) with its metadata,
/// ready to be appended to the file.
type EncodedGroup = Vec<(Bytes, ColumnCloseResult)>;

/// What a row group's columns are encoded with: the file's column descriptors and
/// properties, so that an encoded chunk is what the file writer would have made.
#[derive(Clone)]
struct Encoding {
    columns: Vec<ColumnDescPtr>,
    properties: WriterPropertiesPtr,
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
    receive: Receiver<anyhow::Result<EncodedGroup>>,
    /// A group was sent and its encoding not yet taken back.
    pending: bool,
    thread: JoinHandle<()>,
}

impl Encoding {
    /// Encodes each column's cells as one column chunk in memory. A column's cells are
    /// freed once encoded: on the encoding thread, the group shrinks while the next one
    /// grows, so the two together hold little more than one group.
    fn encode(&self, columns: Vec<Gathered>) -> anyhow::Result<EncodedGroup> {
        self.check_width(columns.len())?;
        columns
            .into_iter()
            .zip(&self.columns)
            .map(|(mut column, descr)| self.encode_column(&mut column, descr))
            .collect()
    }

    /// As `encode`, the cells' buffers emptied and kept, for the next group to be
    /// gathered in (in line: one group's buffers in all, none made again).
    fn encode_in_place(&self, columns: &mut [Gathered]) -> anyhow::Result<EncodedGroup> {
        self.check_width(columns.len())?;
        columns
            .iter_mut()
            .zip(&self.columns)
            .map(|(column, descr)| {
                let text = column.text_len();
                let encoded = self.encode_column(column, descr)?;
                // The text went to the writer: room for as much again.
                column.reserve_text(text);
                Ok(encoded)
            })
            .collect()
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
    ) -> anyhow::Result<(Bytes, ColumnCloseResult)> {
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

    /// The group sent last, encoded, if one was sent and not yet taken back.
    fn take(&mut self) -> anyhow::Result<Option<EncodedGroup>> {
        if !std::mem::take(&mut self.pending) {
            return Ok(None);
        }
        self.receive.recv().map_err(|_| stopped())?.map(Some)
    }
}

fn stopped() -> anyhow::Error {
    anyhow::anyhow!("the Parquet encoding thread stopped")
}

/// A column's cells of the row group in progress: the values that are not null, and the
/// definition level of every row (1: a value, 0: null).
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

    /// A column of the same type with no cell. It grows as it is gathered, while the
    /// encoding thread frees the full group column by column: the two together hold
    /// little more than one group.
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

    /// Adds a column's typed cells; the bytes they hold (about). Cells all of the column's
    /// type (or null) are stored in one loop; otherwise each goes through `push_value`.
    fn push_values<'v>(
        &mut self,
        cells: impl Iterator<Item = &'v Value> + Clone,
        typed: &Typed,
        empty_string_is_null: bool,
    ) -> anyhow::Result<usize> {
        let fits = |value: &Value| match (&*self, value) {
            (_, Value::Null)
            | (Gathered::Text { .. }, Value::Text { .. })
            | (Gathered::Int { .. }, Value::Signed(_))
            | (Gathered::Unsigned { .. }, Value::Unsigned(_))
            | (Gathered::Double { .. }, Value::Decimal(_))
            | (Gathered::Bool { .. }, Value::Bool(_)) => true,
            (Gathered::Int { .. }, Value::Unsigned(n)) => i64::try_from(*n).is_ok(),
            _ => false,
        };
        if matches!(self, Gathered::List { .. }) || !cells.clone().all(fits) {
            let mut bytes = 0;
            for value in cells {
                bytes += self.push_value(value, typed, empty_string_is_null)?;
            }
            return Ok(bytes);
        }
        let mut bytes = 0;
        match self {
            Gathered::Text {
                text,
                ends,
                defined,
            } => {
                for value in cells {
                    let cell = match *value {
                        Value::Text { start, end } => typed.slice(start, end),
                        _ => b"",
                    };
                    if cell.is_empty() && empty_string_is_null {
                        defined.push(0);
                    } else {
                        text.extend_from_slice(cell);
                        ends.push(text.len());
                        defined.push(1);
                    }
                    bytes += cell.len();
                }
                return Ok(bytes);
            }
            Gathered::Int { values, defined } => {
                for value in cells {
                    match *value {
                        Value::Signed(n) => push_one(values, defined, n),
                        Value::Unsigned(n) => push_one(values, defined, n.cast_signed()),
                        _ => defined.push(0),
                    }
                    bytes += 8;
                    bytes += 8;
                }
            }
            Gathered::Unsigned { values, defined } => {
                for value in cells {
                    match *value {
                        // The same 64 bits: UINT_64 tells a reader to read them unsigned.
                        Value::Unsigned(n) => push_one(values, defined, n.cast_signed()),
                        _ => defined.push(0),
                    }
                }
            }
            Gathered::Double { values, defined } => {
                for value in cells {
                    match *value {
                        Value::Decimal(d) => push_one(values, defined, d.to_f64()),
                        _ => defined.push(0),
                    }
                    bytes += 8;
                }
            }
            Gathered::Bool { values, defined } => {
                for value in cells {
                    match *value {
                        Value::Bool(b) => push_one(values, defined, b),
                        _ => defined.push(0),
                    }
                    bytes += 8;
                }
            }
            Gathered::List { .. } => {}
        }
        Ok(bytes)
    }

    /// Adds one typed cell; the bytes it holds (about). A value of the column's type is
    /// stored as it is; any other (text where a number is due, a list's JSON) is read from
    /// its text as `push` reads it.
    #[inline]
    fn push_value(
        &mut self,
        value: &Value,
        typed: &Typed,
        empty_string_is_null: bool,
    ) -> anyhow::Result<usize> {
        match self {
            Gathered::Text {
                text,
                ends,
                defined,
            } => {
                let cell = match *value {
                    Value::Text { start, end } => typed.slice(start, end),
                    Value::Null => b"",
                    _ => return self.push_as_text(value, typed, empty_string_is_null),
                };
                if cell.is_empty() && empty_string_is_null {
                    defined.push(0);
                } else {
                    text.extend_from_slice(cell);
                    ends.push(text.len());
                    defined.push(1);
                }
                return Ok(cell.len());
            }
            Gathered::Int { values, defined } => match *value {
                Value::Unsigned(n) => match i64::try_from(n) {
                    Ok(n) => push_one(values, defined, n),
                    Err(_) => anyhow::bail!("`{n}` is not an integer"),
                },
                Value::Signed(n) => push_one(values, defined, n),
                Value::Null => defined.push(0),
                _ => return self.push_as_text(value, typed, empty_string_is_null),
            },
            Gathered::Unsigned { values, defined } => match *value {
                // The same 64 bits: UINT_64 tells a reader to read them unsigned.
                Value::Unsigned(n) => {
                    push_one(values, defined, i64::from_ne_bytes(n.to_ne_bytes()))
                }
                Value::Null => defined.push(0),
                _ => return self.push_as_text(value, typed, empty_string_is_null),
            },
            Gathered::Double { values, defined } => match *value {
                Value::Decimal(d) => push_one(values, defined, d.to_f64()),
                Value::Null => defined.push(0),
                _ => return self.push_as_text(value, typed, empty_string_is_null),
            },
            Gathered::Bool { values, defined } => match *value {
                Value::Bool(b) => push_one(values, defined, b),
                Value::Null => defined.push(0),
                _ => return self.push_as_text(value, typed, empty_string_is_null),
            },
            Gathered::List { .. } => return self.push_as_text(value, typed, empty_string_is_null),
        }
        Ok(8)
    }

    /// A value read from its text (`push`): a list's JSON, or a cell pushed as text.
    #[cold]
    fn push_as_text(
        &mut self,
        value: &Value,
        typed: &Typed,
        empty_string_is_null: bool,
    ) -> anyhow::Result<usize> {
        let cell = typed.text_of(value);
        self.push(cell.as_bytes(), empty_string_is_null)?;
        Ok(cell.len())
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
        let mismatch = || anyhow::anyhow!("a Parquet column of another type");
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
                // One buffer for the whole column; each value is a slice of it.
                let all = bytes::Bytes::from(std::mem::take(text));
                let mut start = 0;
                let values: Vec<ByteArray> = ends
                    .iter()
                    .map(|&end| {
                        let value = ByteArray::from(all.slice(start..end));
                        start = end;
                        value
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

/// A value and its definition level (1: a value).
#[inline]
fn push_one<T>(values: &mut Vec<T>, defined: &mut Vec<i16>, value: T) {
    values.push(value);
    defined.push(1);
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
                Json::List(Json::String) => vec![name.into(), "list".into(), "element".into()],
                _ => continue,
            };
            properties = properties
                .set_column_statistics_enabled(ColumnPath::new(path), EnabledStatistics::None);
        }
        // Position keys hardly repeat: a dictionary of them is work for nothing.
        for &(name, json) in &columns {
            let path = match json {
                Json::Unsigned => vec![name.to_string()],
                Json::List(Json::Unsigned) => vec![name.into(), "list".into(), "element".into()],
                _ => continue,
            };
            properties = properties.set_column_dictionary_enabled(ColumnPath::new(path), false);
        }
        let properties = properties.build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?;
        let encoding = Encoding {
            columns: writer.schema_descr().columns().to_vec(),
            properties: writer.properties().clone(),
        };
        Ok(ParquetTable {
            writer,
            columns: columns
                .iter()
                .map(|&(_, json)| Gathered::of(json))
                .collect(),
            empty_string_is_null,
            rows: 0,
            bytes: 0,
            group_rows: ROW_GROUP_ROWS,
            encoder: Encoder::InLine(encoding),
        })
    }

    /// Full row groups are encoded on a thread of their own, while the next group is
    /// gathered: for runs with worker threads, whom a group encoded in line would keep
    /// waiting. The file's bytes are the same.
    pub fn encode_ahead(&mut self) -> anyhow::Result<()> {
        if let Encoder::InLine(encoding) = &self.encoder {
            self.encoder = Encoder::Ahead(Running::start(encoding.clone())?);
        }
        Ok(())
    }

    /// Adds the rows of `typed`, their cells in column order, row after row.
    pub fn push_rows(&mut self, typed: &Typed) -> anyhow::Result<()> {
        let width = self.columns.len();
        let values = typed.values();
        if width == 0 || !values.len().is_multiple_of(width) {
            anyhow::bail!("{} cells for rows of {width} columns", values.len());
        }
        // The rows that fit in the group, column by column: one loop over a column's
        // values of one type.
        let mut rest = values;
        while !rest.is_empty() {
            let room = self.group_rows.saturating_sub(self.rows).max(1);
            let (now, later) = rest.split_at((rest.len() / width).min(room) * width);
            for (index, column) in self.columns.iter_mut().enumerate() {
                let cells = now.iter().skip(index).step_by(width);
                self.bytes += column.push_values(cells, typed, self.empty_string_is_null)?;
            }
            self.rows += now.len() / width;
            rest = later;
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
                let empty = self.columns.iter().map(Gathered::emptied).collect();
                let full = std::mem::replace(&mut self.columns, empty);
                // The group before this one is appended first.
                if let Some(group) = running.take()? {
                    append(&mut self.writer, group)?;
                }
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
            if let Some(group) = running.take()? {
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

    use super::{ParquetTable, parse_integer};
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
    }

    /// A table of `rows` rows in row groups of 7 rows, encoded in line or ahead, its
    /// cells pushed typed or as their text.
    fn table(rows: usize, ahead: bool, as_text: bool) -> Vec<u8> {
        let columns = [
            ("name", Json::String),
            ("n", Json::Number),
            ("s", Json::Number),
            ("k", Json::Unsigned),
            ("t", Json::Decimal),
            ("b", Json::Bool),
        ];
        let mut table = ParquetTable::new(Vec::new(), columns.into_iter(), true).unwrap();
        table.group_rows = 7;
        if ahead {
            table.encode_ahead().unwrap();
        }
        let mut typed = Typed::default();
        for row in 0..rows {
            if as_text {
                let mut cells = Cells::default();
                row_cells(row, &mut cells);
                typed = Typed::of_text(&cells);
                table.push_rows(&typed).unwrap();
            } else {
                row_cells(row, &mut typed);
            }
        }
        if !as_text {
            table.push_rows(&typed).unwrap();
        }
        table.finish().unwrap()
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
        assert_eq!(kept, [false, true, true, true, true, true]);
    }

    /// A row of another width is refused, not shifted into the next row's columns.
    #[test]
    fn a_row_of_another_width_is_refused() {
        let columns = [("a", Json::Number), ("b", Json::Number)];
        let mut table = ParquetTable::new(Vec::new(), columns.into_iter(), true).unwrap();
        let mut typed = Typed::default();
        typed.number(1u32);
        typed.number(2u32);
        typed.number(3u32);
        assert!(table.push_rows(&typed).is_err());
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
