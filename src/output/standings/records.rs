//! The records of `standings --format csv|jsonl|parquet`: one per player per event, the
//! columns of SPEC.md "Output", then one per tie-break and the rating figures (typed
//! columns named at run time: `SinkFormat::open_typed_records`).

use super::{EventTable, ValueColumn, figure_text, points_text, rank_text, system_name};
use crate::record::{CellSink, Column, Json, Record};
use crate::standings::table::Standing;

/// One player's line of one event.
pub struct StandingRecord<'a> {
    pub table: &'a EventTable<'a>,
    pub row: &'a Standing,
    /// The value of each column after `points`: the file's columns are the first
    /// event's ([`EventTable::record_columns`]); a column another event's list lacks is
    /// empty (`None`).
    pub values: &'a [Option<ValueColumn>],
}

/// The value columns as the writer names and types them.
pub fn value_columns(values: &[(String, ValueColumn)]) -> Vec<(String, Json)> {
    values
        .iter()
        .map(|(name, _)| (name.clone(), Json::Decimal))
        .collect()
}

impl Record for StandingRecord<'_> {
    const COLUMNS: &'static [Column] = &[
        Column::string("event"),
        Column::string("site"),
        Column::string("event_date"),
        Column::string("system"),
        Column::number("rounds"),
        Column::string("rank"),
        Column::string("player"),
        Column::unsigned("fide_id"),
        Column::string("title"),
        Column::number("rating"),
        Column::number("games"),
        Column::decimal("points"),
    ];
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        let event = self.table.event;
        let heading = &event.heading;
        let player = event.field.players.get(self.row.player);
        cells.text(&heading.event);
        cells.text(&heading.site);
        cells.text(&heading.event_date);
        cells.text(system_name(event.field.system));
        cells.number(event.field.rounds);
        cells.text(&rank_text(self.row.rank));
        cells.text(player.map_or("", |p| p.name.as_str()));
        cells.optional(player.and_then(|p| p.fide_id));
        cells.text(player.map_or("", |p| p.title.as_str()));
        cells.optional(player.and_then(|p| p.rating));
        cells.number(self.row.games);
        cells.text(&points_text(self.row.points));
        for column in self.values {
            let value = column.and_then(|column| EventTable::value(self.row, column));
            cells.text(&figure_text(value));
        }
    }
}
