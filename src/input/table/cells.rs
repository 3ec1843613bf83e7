//! A batch's cells as the parquet crate decodes them: each wanted column's definition
//! levels and values, read from the row group's column readers.

use parquet::column::reader::ColumnReader;
use parquet::data_type::ByteArray;

use super::Wanted;

/// One column's values of the batch being handed out.
#[derive(Default)]
pub(super) struct ColumnCells {
    pub(super) defs: Vec<i16>,
    pub(super) values: Values,
}

#[derive(Default)]
pub(super) enum Values {
    #[default]
    None,
    Text(Vec<ByteArray>),
    Bool(Vec<bool>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Float(Vec<f32>),
    Double(Vec<f64>),
}

/// The index of the column's value in row `row` of the batch, or `None` for a null;
/// `next` is the index of the next value (rows are taken in order), moved past it.
pub(super) fn value_at(
    cells: &ColumnCells,
    max_def: i16,
    row: usize,
    next: &mut usize,
) -> Option<usize> {
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
pub(super) fn read_cells(
    reader: &mut ColumnReader,
    wanted: &Wanted,
    rows: usize,
    cells: &mut ColumnCells,
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
