//! The `stats` columns a `--where` reads, taken from the `StatsRow` that `stats` writes:
//! a serde serializer that keeps only the wanted fields' text, so the column list lives in
//! one place (src/stats/row.rs) and the values are exactly those of the CSV.

use std::fmt::Write as _;

use serde::ser::{self, Impossible, Serialize, SerializeStruct, Serializer};

/// Which columns to keep, each into its slot of the values.
#[derive(Debug, Clone, Default)]
pub struct ColumnPicker {
    /// (column name, slot).
    pub wanted: Vec<(&'static str, usize)>,
}

#[derive(Debug)]
pub struct PickError(String);

impl std::fmt::Display for PickError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PickError {}

impl ser::Error for PickError {
    fn custom<T: std::fmt::Display>(msg: T) -> PickError {
        PickError(msg.to_string())
    }
}

impl ColumnPicker {
    /// Writes the wanted columns of `row` into `values` (cleared first; buffers reused).
    pub fn pick(&self, row: &impl Serialize, values: &mut [String]) {
        for (_, slot) in &self.wanted {
            if let Some(value) = values.get_mut(*slot) {
                value.clear();
            }
        }
        // Every field is a plain value: the serializer cannot fail on a StatsRow.
        let _ = row.serialize(Row {
            picker: self,
            values,
        });
    }
}

struct Row<'p, 'v> {
    picker: &'p ColumnPicker,
    values: &'v mut [String],
}

impl SerializeStruct for Row<'_, '_> {
    type Ok = ();
    type Error = PickError;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), PickError> {
        for (name, slot) in &self.picker.wanted {
            if *name == key
                && let Some(out) = self.values.get_mut(*slot)
            {
                value.serialize(Cell(out))?;
            }
        }
        Ok(())
    }

    fn end(self) -> Result<(), PickError> {
        Ok(())
    }
}

/// Refuses what a row never holds.
fn unsupported<T>() -> Result<T, PickError> {
    Err(PickError("not a stats row value".into()))
}

macro_rules! refuse {
    ($($name:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ok, PickError> {
            unsupported()
        })*
    };
}

impl<'p, 'v> Serializer for Row<'p, 'v> {
    type Ok = ();
    type Error = PickError;
    type SerializeSeq = Impossible<(), PickError>;
    type SerializeTuple = Impossible<(), PickError>;
    type SerializeTupleStruct = Impossible<(), PickError>;
    type SerializeTupleVariant = Impossible<(), PickError>;
    type SerializeMap = Impossible<(), PickError>;
    type SerializeStruct = Row<'p, 'v>;
    type SerializeStructVariant = Impossible<(), PickError>;

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Row<'p, 'v>, PickError> {
        Ok(self)
    }

    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), PickError> {
        unsupported()
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), PickError> {
        unsupported()
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), PickError> {
        unsupported()
    }
}

/// One cell's text, as the CSV writer writes it (an absent value is the empty cell).
struct Cell<'o>(&'o mut String);

macro_rules! display {
    ($($name:ident($ty:ty);)*) => {
        $(fn $name(self, value: $ty) -> Result<(), PickError> {
            let _ = write!(self.0, "{value}");
            Ok(())
        })*
    };
}

impl Serializer for Cell<'_> {
    type Ok = ();
    type Error = PickError;
    type SerializeSeq = Impossible<(), PickError>;
    type SerializeTuple = Impossible<(), PickError>;
    type SerializeTupleStruct = Impossible<(), PickError>;
    type SerializeTupleVariant = Impossible<(), PickError>;
    type SerializeMap = Impossible<(), PickError>;
    type SerializeStruct = Impossible<(), PickError>;
    type SerializeStructVariant = Impossible<(), PickError>;

    display! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), PickError> {
        self.0.push_str(&String::from_utf8_lossy(value));
        Ok(())
    }

    fn serialize_none(self) -> Result<(), PickError> {
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), PickError> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), PickError> {
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), PickError> {
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<(), PickError> {
        self.0.push_str(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), PickError> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), PickError> {
        value.serialize(self)
    }

    refuse! {
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use super::ColumnPicker;
    use crate::input::{Limits, Splitter};
    use crate::rules::{ReplayOptions, replay};
    use crate::stats::StatsRow;

    /// Every column picked reads exactly as the CSV cell `stats` writes.
    #[test]
    fn picked_columns_equal_the_csv_cells() {
        let pgn: &[u8] =
            b"[White \"A, B\"]\n[WhiteElo \"2500\"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        let raw = splitter.next_game().unwrap().unwrap();
        let report = replay(&raw, &ReplayOptions::default(), &mut ());
        let mut csv = csv::Writer::from_writer(Vec::new());
        csv.serialize(StatsRow::new(&report)).unwrap();
        let text = String::from_utf8(csv.into_inner().unwrap()).unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let record = reader.records().next().unwrap().unwrap();
        let picker = ColumnPicker {
            wanted: StatsRow::HEADER.iter().copied().zip(0..).collect(),
        };
        let mut values = vec![String::new(); StatsRow::HEADER.len()];
        picker.pick(&StatsRow::new(&report), &mut values);
        for (i, column) in StatsRow::HEADER.iter().enumerate() {
            assert_eq!(values[i], record[i], "column {column}");
        }
        assert_eq!(values[9], "2500");
    }
}
