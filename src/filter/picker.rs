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
