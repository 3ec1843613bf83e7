//! The `stats` columns a `--where` reads, taken from the `StatsRow` that `stats` writes:
//! its cells as the records writer takes them, so the column list lives in one place
//! (src/stats/columns.rs) and the values are exactly those of the CSV.

use std::cell::RefCell;

use crate::record::{Cells, Record};

/// Which columns to keep, each into its slot of the values.
#[derive(Debug, Clone, Default)]
pub struct ColumnPicker {
    /// (column index in `StatsRow::COLUMNS`, slot).
    pub wanted: Vec<(usize, usize)>,
}

impl ColumnPicker {
    /// Writes the wanted columns of `row` into `values` (buffers reused; each thread
    /// keeps its cells, so no game allocates for them).
    pub fn pick(&self, row: &impl Record, values: &mut [String]) {
        thread_local! {
            static CELLS: RefCell<Cells> = RefCell::new(Cells::default());
        }
        CELLS.with_borrow_mut(|cells| {
            cells.clear();
            row.cells(cells);
            self.pick_from(cells, values);
        });
    }

    /// Writes the wanted columns of a row's `cells` into `values`.
    pub fn pick_from(&self, cells: &Cells, values: &mut [String]) {
        for (column, slot) in &self.wanted {
            if let Some(value) = values.get_mut(*slot) {
                value.clear();
                value.push_str(cells.get(*column).unwrap_or_default());
            }
        }
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
    use crate::output::records::{RecordFormat, encode};
    use crate::record::Record;
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
        let row = StatsRow::new(&report, &[]);
        let line = encode(&row, RecordFormat::Csv, &[]).unwrap();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line.as_slice());
        let record = reader.records().next().unwrap().unwrap();
        let columns = StatsRow::COLUMNS;
        let picker = ColumnPicker {
            wanted: (0..columns.len()).map(|i| (i, i)).collect(),
        };
        let mut values = vec![String::new(); columns.len()];
        picker.pick(&row, &mut values);
        for (i, column) in columns.iter().enumerate() {
            assert_eq!(values[i], record[i], "column {}", column.name);
        }
        assert_eq!(values[9], "2500");
    }
}
