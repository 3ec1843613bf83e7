//! What `standings` writes of an event (SPEC.md "standings", "Output"): the text heading,
//! table and crosstable (`text`), the records (`records`), the FIDE TRF-16 file (`trf`),
//! each from one `EventTable`, and the number text they share.

pub mod records;
pub mod text;
pub mod trf;

use crate::standings::event::Event;
use crate::standings::ranked::Ranked;
use crate::standings::table::Standing;
use crate::standings::tiebreak::{Name, TieBreak};
use crate::standings::{Figure, Half, System};

/// One event's standings as the writers read them.
pub struct EventTable<'a> {
    pub event: &'a Event,
    /// The tie-break list used (given or the default for the system).
    pub list: &'a [TieBreak],
    /// Whether the list is `--tiebreaks`' (else C.07's default for the system).
    pub given: bool,
    /// The standings in rank order.
    pub rows: &'a [Standing],
    /// `--unrated R`.
    pub unrated: Option<u32>,
}

/// A value column after `points`: a tie-break of the list (by its place in it), or the
/// rating figures the records add.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueColumn {
    TieBreak(usize),
    Aro,
    Tpr,
}

impl<'a> EventTable<'a> {
    /// The table of an event ranked (`unrated`: `--unrated`).
    pub fn of(ranked: &'a Ranked, unrated: Option<u32>) -> EventTable<'a> {
        EventTable {
            event: &ranked.event,
            list: &ranked.list,
            given: ranked.given,
            rows: &ranked.rows,
            unrated,
        }
    }

    /// The tie-breaks shown (`PTS` is the points, shown once).
    pub fn tiebreak_columns(&self) -> Vec<(String, ValueColumn)> {
        self.list
            .iter()
            .enumerate()
            .filter(|(_, t)| t.name != Name::Pts)
            .map(|(at, t)| (t.label(), ValueColumn::TieBreak(at)))
            .collect()
    }

    /// The record columns after `points`: each tie-break (`bh_c1`), then `aro` and `tpr`
    /// unless the list has them unmodified (a name is never written twice).
    pub fn record_columns(&self) -> Vec<(String, ValueColumn)> {
        record_columns(self.list)
    }

    /// One value of a row.
    pub fn value(row: &Standing, column: ValueColumn) -> Figure {
        match column {
            ValueColumn::TieBreak(at) => row.values.get(at).copied().flatten(),
            ValueColumn::Aro => row.aro,
            ValueColumn::Tpr => row.tpr,
        }
    }

    /// The list as the heading names it.
    pub fn list_text(&self) -> String {
        self.list
            .iter()
            .map(TieBreak::label)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The record columns of a list (see [`EventTable::record_columns`]).
pub fn record_columns(list: &[TieBreak]) -> Vec<(String, ValueColumn)> {
    let mut columns: Vec<(String, ValueColumn)> = list
        .iter()
        .enumerate()
        .filter(|(_, t)| t.name != Name::Pts)
        .map(|(at, t)| (t.column(), ValueColumn::TieBreak(at)))
        .collect();
    let plain = |name| list.iter().any(|t| t.name == name && t.modifier.is_none());
    if !plain(Name::Aro) {
        columns.push(("aro".to_string(), ValueColumn::Aro));
    }
    if !plain(Name::Tpr) {
        columns.push(("tpr".to_string(), ValueColumn::Tpr));
    }
    columns
}

/// Points with the fewest decimals that show them (`7`, `1.5`).
pub fn points_text(points: Half) -> String {
    hundredths_text(i64::from(points.0) * 50)
}

/// A figure in hundredths with the fewest decimals (0, 1 or 2) that show it exactly
/// (`10.25`, `1.5`, `7`); empty when absent.
pub fn figure_text(figure: Figure) -> String {
    figure.map_or_else(String::new, hundredths_text)
}

fn hundredths_text(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.unsigned_abs();
    let (whole, part) = (abs / 100, abs % 100);
    if part == 0 {
        format!("{sign}{whole}")
    } else if part % 10 == 0 {
        format!("{sign}{whole}.{}", part / 10)
    } else {
        format!("{sign}{whole}.{part:02}")
    }
}

/// `3`, or `3-4` for a shared place.
pub fn rank_text(rank: (u32, u32)) -> String {
    if rank.0 == rank.1 {
        rank.0.to_string()
    } else {
        format!("{}-{}", rank.0, rank.1)
    }
}

/// `round-robin` or `swiss`, as the records write it.
pub fn system_name(system: System) -> &'static str {
    match system {
        System::RoundRobin => "round-robin",
        System::Swiss => "swiss",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::*;
    use crate::standings::tiebreak::parse_list;

    #[test]
    fn numbers_have_the_fewest_decimals_that_show_them() {
        assert_eq!(points_text(Half(14)), "7");
        assert_eq!(points_text(Half(3)), "1.5");
        assert_eq!(figure_text(Some(1025)), "10.25");
        assert_eq!(figure_text(Some(150)), "1.5");
        assert_eq!(figure_text(Some(-250)), "-2.5");
        assert_eq!(figure_text(Some(5)), "0.05");
        assert_eq!(figure_text(None), "");
        assert_eq!(rank_text((3, 4)), "3-4");
        assert_eq!(rank_text((1, 1)), "1");
    }

    #[test]
    fn a_column_is_never_written_twice() {
        let names = |list: &str| -> Vec<String> {
            let list = parse_list(list).unwrap();
            record_columns(&list).into_iter().map(|(n, _)| n).collect()
        };
        assert_eq!(names("PTS,BH/C1,BH"), ["bh_c1", "bh", "aro", "tpr"]);
        assert_eq!(names("ARO/C1,TPR"), ["aro_c1", "tpr", "aro"]);
        assert_eq!(names("TPR,ARO"), ["tpr", "aro"]);
    }
}
