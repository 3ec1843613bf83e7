//! What the parquet crate is not trusted with: the magic bytes, the footer's column
//! chunks checked before reading (`check_chunks`), every call into the crate run under
//! `guarded` (a panic in it is an input error), and which columns are read as tags.

use std::fs::File;
use std::io::{self, Read};

use parquet::basic::{ConvertedType, LogicalType, TimeUnit, Type as Physical};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescriptor;

use super::at_file::AtFile;
use super::{Kind, MAGIC, Wanted, invalid};

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
pub(super) fn is_tag_name(name: &str) -> bool {
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
pub(super) fn guarded<T>(read: impl FnOnce() -> T) -> io::Result<T> {
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
pub(super) fn check_chunks(
    reader: &SerializedFileReader<AtFile>,
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
pub(super) fn kind_of(column: &ColumnDescriptor) -> Option<Kind> {
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

#[cfg(test)]
mod tests {
    use super::is_tag_name;

    #[test]
    fn tag_names_are_letters_digits_and_underscores() {
        assert!(is_tag_name("WhiteElo"));
        assert!(is_tag_name("Event_2"));
        assert!(!is_tag_name("__index_level_0__"));
        assert!(!is_tag_name("a b"));
        assert!(!is_tag_name(""));
    }
}
