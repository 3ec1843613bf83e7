//! The columns of a `stats` row as a record: each column's name and JSON type, declared
//! once, and its cell. The row's values are worked out in `stats::row`; `output::records`
//! writes the cells, and `--where` reads them (`filter::picker`).

use crate::record::{CellSink, Column, Record};
use crate::rules::fen::style::FenText;
use crate::rules::time_control::seconds_text;
use crate::stats::StatsRow;

impl Record for StatsRow<'_> {
    /// SPEC.md's columns in SPEC.md's order, then `under_promotions`, the opening, clock
    /// and evaluation columns; tag columns are strings. The `--tags` columns follow, as extra columns.
    const COLUMNS: &'static [Column] = &[
        Column::string("file"),
        Column::number("game"),
        Column::number("line"),
        Column::string("event"),
        Column::string("site"),
        Column::string("date"),
        Column::string("round"),
        Column::string("white"),
        Column::string("black"),
        Column::string("white_elo"),
        Column::string("black_elo"),
        Column::string("eco"),
        Column::string("result"),
        Column::number("plies"),
        Column::string("status"),
        Column::string("termination"),
        Column::string("final_fen"),
        Column::number("first_error_ply"),
        Column::string("first_error_code"),
        Column::number("checks"),
        Column::number("captures"),
        Column::number("castles"),
        Column::number("en_passant"),
        Column::number("promotions"),
        Column::number("missed_en_passant"),
        Column::number("max_repetition"),
        Column::number("threefold_ply"),
        Column::number("fivefold_ply"),
        Column::number("fifty_move_ply"),
        Column::number("seventy_five_move_ply"),
        Column::bool("perpetual_check"),
        Column::bool("insufficient_material"),
        Column::bool("result_consistent"),
        Column::number("under_promotions"),
        // SPEC.md "Openings": empty when the game names none.
        Column::string("opening_eco"),
        Column::string("opening_name"),
        Column::number("opening_ply"),
        // Clocks in seconds (a decimal when the clock has a fraction), evaluation figures.
        Column::number("clocks"),
        Column::decimal("white_clock_end"),
        Column::decimal("black_clock_end"),
        Column::decimal("white_clock_min"),
        Column::decimal("black_clock_min"),
        Column::number("evals"),
        Column::number("white_acpl"),
        Column::number("black_acpl"),
        Column::number("white_inaccuracies"),
        Column::number("black_inaccuracies"),
        Column::number("white_mistakes"),
        Column::number("black_mistakes"),
        Column::number("white_blunders"),
        Column::number("black_blunders"),
        // SPEC.md "Who can still mate".
        Column::string("cannot_mate"),
        Column::number("dead_position_ply"),
        // SPEC.md "How the game ended": the time control and the move times, seconds.
        Column::string("time_control"),
        Column::decimal("white_time_used"),
        Column::decimal("black_time_used"),
        Column::decimal("white_move_time_max"),
        Column::decimal("black_move_time_max"),
    ];
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        cells.text(self.file);
        cells.number(self.game);
        cells.number(self.line);
        cells.text(self.event);
        cells.text(self.site);
        cells.text(self.date);
        cells.text(self.round);
        cells.text(self.white);
        cells.text(self.black);
        cells.text(self.white_elo);
        cells.text(self.black_elo);
        cells.text(self.eco);
        cells.text(self.result);
        cells.number(self.plies);
        cells.text(self.status);
        cells.text(self.termination);
        cells.text(self.final_fen.as_ref().map_or("", FenText::as_str));
        cells.optional(self.first_error_ply);
        cells.text(self.first_error_code);
        cells.number(self.checks);
        cells.number(self.captures);
        cells.number(self.castles);
        cells.number(self.en_passant);
        cells.number(self.promotions);
        cells.number(self.missed_en_passant);
        cells.optional(self.max_repetition);
        cells.optional(self.threefold_ply);
        cells.optional(self.fivefold_ply);
        cells.optional(self.fifty_move_ply);
        cells.optional(self.seventy_five_move_ply);
        cells.bool(self.perpetual_check);
        cells.bool(self.insufficient_material);
        cells.bool(self.result_consistent);
        cells.number(self.under_promotions);
        cells.text(self.opening_eco);
        cells.text(self.opening_name);
        cells.optional(self.opening_ply);
        cells.number(self.clocks);
        for clock in [
            self.white_clock_end,
            self.black_clock_end,
            self.white_clock_min,
            self.black_clock_min,
        ] {
            match clock {
                Some(clock) => cells.text(&clock.to_text()),
                None => cells.optional(None::<u32>),
            }
        }
        cells.number(self.evals);
        cells.optional(self.white_acpl);
        cells.optional(self.black_acpl);
        cells.number(self.white_inaccuracies);
        cells.number(self.black_inaccuracies);
        cells.number(self.white_mistakes);
        cells.number(self.black_mistakes);
        cells.number(self.white_blunders);
        cells.number(self.black_blunders);
        cells.text(self.cannot_mate);
        cells.optional(self.dead_position_ply);
        cells.text(self.time_control);
        for seconds in [
            self.white_time_used,
            self.black_time_used,
            self.white_move_time_max,
            self.black_move_time_max,
        ] {
            match seconds {
                Some(millis) => cells.text(&seconds_text(millis)),
                None => cells.optional(None::<u32>),
            }
        }
        self.tag_cells(cells);
    }
}

impl StatsRow<'_> {
    /// The cells of the `--tags` columns, the last ones of a row.
    pub fn tag_cells<S: CellSink>(&self, cells: &mut S) {
        for value in &self.tags {
            cells.text(value);
        }
    }
}
