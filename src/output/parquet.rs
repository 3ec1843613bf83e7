//! `--format parquet`: the records of one type as one Parquet file, its schema made from
//! the record type's columns (`record::Column`). Rows are gathered column by column and
//! written as a row group, zstd-compressed, every `ROW_GROUP_ROWS` rows or
//! `ROW_GROUP_BYTES` bytes of cell text, whichever comes first: what is held is at most one
//! row group's cells, whatever the input. The bytes depend only on the records, in their
//! order, so the file is the same at any thread count.

use std::io::Write;
use std::sync::Arc;

use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use crate::record::Json;

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
    Double {
        values: Vec<f64>,
        defined: Vec<i16>,
    },
    Bool {
        values: Vec<bool>,
        defined: Vec<i16>,
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
            Json::Decimal => Gathered::Double {
                values: Vec::new(),
                defined: Vec::new(),
            },
            Json::Bool => Gathered::Bool {
                values: Vec::new(),
                defined: Vec::new(),
            },
        }
    }

    fn defined(&self) -> &[i16] {
        match self {
            Gathered::Text { defined, .. }
            | Gathered::Int { defined, .. }
            | Gathered::Double { defined, .. }
            | Gathered::Bool { defined, .. } => defined,
        }
    }

    /// Adds one cell (its CSV text); an empty cell is null, except an empty string where
    /// empty strings are kept (`Record::EMPTY_STRING_IS_NULL`).
    fn push(&mut self, cell: &[u8], empty_string_is_null: bool) -> anyhow::Result<()> {
        let null = cell.is_empty();
        match self {
            Gathered::Text {
                text,
                ends,
                defined,
            } => {
                if null && empty_string_is_null {
                    defined.push(0);
                } else {
                    text.extend_from_slice(cell);
                    ends.push(text.len());
                    defined.push(1);
                }
            }
            Gathered::Int { values, defined } => {
                if null {
                    defined.push(0);
                } else {
                    let value = parse_integer(cell).ok_or_else(|| {
                        anyhow::anyhow!("`{}` is not an integer", String::from_utf8_lossy(cell))
                    })?;
                    values.push(value);
                    defined.push(1);
                }
            }
            Gathered::Double { values, defined } => {
                if null {
                    defined.push(0);
                } else {
                    let value = std::str::from_utf8(cell)
                        .ok()
                        .and_then(|text| text.parse::<f64>().ok())
                        .ok_or_else(|| {
                            anyhow::anyhow!("`{}` is not a number", String::from_utf8_lossy(cell))
                        })?;
                    values.push(value);
                    defined.push(1);
                }
            }
            Gathered::Bool { values, defined } => {
                if null {
                    defined.push(0);
                } else {
                    values.push(cell == b"true");
                    defined.push(1);
                }
            }
        }
        Ok(())
    }

    /// Writes the row group's cells into the column's writer and empties the buffers.
    fn write_into(&mut self, writer: &mut ColumnWriter<'_>) -> anyhow::Result<()> {
        let mismatch = || anyhow::anyhow!("a Parquet column of another type");
        match (self, writer) {
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
                writer.write_batch(&values, Some(defined), None)?;
                ends.clear();
                defined.clear();
            }
            (Gathered::Int { values, defined }, ColumnWriter::Int64ColumnWriter(writer)) => {
                writer.write_batch(values, Some(defined), None)?;
                values.clear();
                defined.clear();
            }
            (Gathered::Double { values, defined }, ColumnWriter::DoubleColumnWriter(writer)) => {
                writer.write_batch(values, Some(defined), None)?;
                values.clear();
                defined.clear();
            }
            (Gathered::Bool { values, defined }, ColumnWriter::BoolColumnWriter(writer)) => {
                writer.write_batch(values, Some(defined), None)?;
                values.clear();
                defined.clear();
            }
            _ => return Err(mismatch()),
        }
        Ok(())
    }
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
    let (physical, logical) = match json {
        Json::String => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
        Json::Number => (Physical::INT64, None),
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
        let properties = WriterProperties::builder()
            // Level 1: the cheapest zstd (BENCHMARKS.md "Parquet").
            .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
            .set_created_by(format!("pgnkit {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer = SerializedFileWriter::new(out, Arc::new(schema), Arc::new(properties))?;
        Ok(ParquetTable {
            writer,
            columns: columns
                .iter()
                .map(|&(_, json)| Gathered::of(json))
                .collect(),
            empty_string_is_null,
            rows: 0,
            bytes: 0,
        })
    }

    /// Adds one row, its cells as CSV writes them, in column order.
    pub fn push_row<'c>(&mut self, cells: impl Iterator<Item = &'c [u8]>) -> anyhow::Result<()> {
        let mut count = 0;
        for (column, cell) in self.columns.iter_mut().zip(cells) {
            column.push(cell, self.empty_string_is_null)?;
            self.bytes += cell.len();
            count += 1;
        }
        if count != self.columns.len() {
            anyhow::bail!(
                "a record of {count} cells for {} columns",
                self.columns.len()
            );
        }
        self.rows += 1;
        if self.rows >= ROW_GROUP_ROWS || self.bytes >= ROW_GROUP_BYTES {
            self.write_row_group()?;
        }
        Ok(())
    }

    fn write_row_group(&mut self) -> anyhow::Result<()> {
        let mut group = self.writer.next_row_group()?;
        let mut columns = self.columns.iter_mut();
        while let Some(mut writer) = group.next_column()? {
            let Some(column) = columns.next() else {
                anyhow::bail!("more Parquet columns than record columns");
            };
            column.write_into(writer.untyped())?;
            writer.close()?;
        }
        group.close()?;
        self.rows = 0;
        self.bytes = 0;
        Ok(())
    }

    /// Writes the last row group and the footer; hands back the destination.
    pub fn finish(mut self) -> anyhow::Result<W> {
        let pending = self
            .columns
            .first()
            .is_some_and(|c| !c.defined().is_empty());
        if pending {
            self.write_row_group()?;
        }
        Ok(self.writer.into_inner()?)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_integer;

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
