//! The per-game record of `pgnkit stats`: one CSV row or JSON line, SPEC.md's columns in
//! SPEC.md's order.

use shakmaty::{Color, Position};

use crate::output::records::{Cells, Column, Record};
use crate::rules::GameReport;
use crate::rules::replay::annotations::Clock;
use crate::rules::replay::fen_of;

/// One game's row. Games that never reached a position (unreadable, unsupported variant,
/// invalid setup) have an empty `termination`, `final_fen` and `max_repetition`, zero
/// counts, and `false` for the booleans that describe a position; `result_consistent` is
/// `true` since no `result.mismatch` can be reported without a position.
#[derive(Debug)]
pub struct StatsRow<'a> {
    pub file: &'a str,
    pub game: u64,
    pub line: u64,
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub round: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub white_elo: &'a str,
    pub black_elo: &'a str,
    pub eco: &'a str,
    pub result: &'a str,
    pub plies: u32,
    pub status: &'static str,
    pub termination: &'static str,
    pub final_fen: String,
    pub first_error_ply: Option<u32>,
    pub first_error_code: &'static str,
    pub checks: u32,
    pub captures: u32,
    pub castles: u32,
    pub en_passant: u32,
    pub promotions: u32,
    pub missed_en_passant: u32,
    pub max_repetition: Option<u32>,
    pub threefold_ply: Option<u32>,
    pub fivefold_ply: Option<u32>,
    pub fifty_move_ply: Option<u32>,
    pub seventy_five_move_ply: Option<u32>,
    pub perpetual_check: bool,
    pub insufficient_material: bool,
    pub result_consistent: bool,
    // Columns beyond SPEC.md's list.
    /// Promotions to a rook, bishop or knight (included in `promotions`).
    pub under_promotions: u32,
    /// The opening (SPEC.md "Openings"): empty when none.
    pub opening_eco: &'static str,
    pub opening_name: &'static str,
    /// The ply of the position that names the opening.
    pub opening_ply: Option<u32>,
    // SPEC.md "Tag columns and annotations": clocks in seconds, evaluation figures.
    pub clocks: u32,
    pub white_clock_end: Option<Clock>,
    pub black_clock_end: Option<Clock>,
    pub white_clock_min: Option<Clock>,
    pub black_clock_min: Option<Clock>,
    pub evals: u32,
    pub white_acpl: Option<u64>,
    pub black_acpl: Option<u64>,
    pub white_inaccuracies: u32,
    pub black_inaccuracies: u32,
    pub white_mistakes: u32,
    pub black_mistakes: u32,
    pub white_blunders: u32,
    pub black_blunders: u32,
    /// The values of the `--tags` columns, in the order named ("" for an absent tag).
    pub tags: Vec<&'a str>,
}

impl<'a> StatsRow<'a> {
    /// The row of a game, with the values of the tags `--tags` names.
    pub fn new(report: &'a GameReport, tag_columns: &[String]) -> StatsRow<'a> {
        let tag = |name: &str| report.tags.value(name);
        let first_error = report.first_error();
        let position = report.final_pos.as_ref();
        let counts = &report.counts;
        let draws = &report.draws;
        let notes = &report.annotations;
        let [white_clock_end, black_clock_end] = notes.clock_end;
        let [white_clock_min, black_clock_min] = notes.clock_min;
        let [white_inaccuracies, black_inaccuracies] = notes.inaccuracies;
        let [white_mistakes, black_mistakes] = notes.mistakes;
        let [white_blunders, black_blunders] = notes.blunders;
        StatsRow {
            file: &report.file,
            game: report.index,
            line: report.line,
            event: tag("Event"),
            site: tag("Site"),
            date: tag("Date"),
            round: tag("Round"),
            white: tag("White"),
            black: tag("Black"),
            white_elo: tag("WhiteElo"),
            black_elo: tag("BlackElo"),
            eco: tag("ECO"),
            result: &report.result,
            plies: report.plies,
            status: report.status.as_str(),
            termination: position.map_or("", |_| report.termination.as_str()),
            final_fen: position.map(fen_of).unwrap_or_default(),
            first_error_ply: first_error.map(|f| f.ply),
            first_error_code: first_error.map_or("", |f| f.code.as_str()),
            checks: counts.checks,
            captures: counts.captures,
            castles: counts.castles,
            en_passant: counts.en_passant,
            promotions: counts.promotions,
            missed_en_passant: counts.missed_en_passant,
            max_repetition: position.map(|_| draws.max_repetition),
            threefold_ply: draws.threefold_ply,
            fivefold_ply: draws.fivefold_ply,
            fifty_move_ply: draws.fifty_move_ply,
            seventy_five_move_ply: draws.seventy_five_move_ply,
            perpetual_check: report.perpetual_check,
            insufficient_material: insufficient_material(report),
            result_consistent: report.result_consistent,
            under_promotions: counts.under_promotions,
            opening_eco: report.opening.map_or("", |found| found.opening.eco),
            opening_name: report.opening.map_or("", |found| found.opening.name),
            opening_ply: report.opening.map(|found| found.ply),
            clocks: notes.clocks,
            white_clock_end,
            black_clock_end,
            white_clock_min,
            black_clock_min,
            evals: notes.evals,
            white_acpl: notes.acpl(Color::White),
            black_acpl: notes.acpl(Color::Black),
            white_inaccuracies,
            black_inaccuracies,
            white_mistakes,
            black_mistakes,
            white_blunders,
            black_blunders,
            tags: tag_columns.iter().map(|name| tag(name)).collect(),
        }
    }
}

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
        Column::number("white_clock_end"),
        Column::number("black_clock_end"),
        Column::number("white_clock_min"),
        Column::number("black_clock_min"),
        Column::number("evals"),
        Column::number("white_acpl"),
        Column::number("black_acpl"),
        Column::number("white_inaccuracies"),
        Column::number("black_inaccuracies"),
        Column::number("white_mistakes"),
        Column::number("black_mistakes"),
        Column::number("white_blunders"),
        Column::number("black_blunders"),
    ];
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells(&self, cells: &mut Cells) {
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
        cells.text(&self.final_fen);
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
        for value in &self.tags {
            cells.text(value);
        }
    }
}

/// Neither side has mating material in the final position (false without a position).
pub fn insufficient_material(report: &GameReport) -> bool {
    report
        .final_pos
        .as_ref()
        .is_some_and(|pos| pos.is_insufficient_material())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::StatsRow;
    use crate::input::{Limits, Splitter};
    use crate::output::records::{RecordFormat, encode};
    use crate::rules::{ReplayOptions, replay};

    /// Every column gets its cell: a JSON line has as many keys as there are columns.
    #[test]
    fn every_column_gets_a_cell() {
        let pgn: &[u8] = b"1. e4 e5 *\n";
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        let raw = splitter.next_game().unwrap().unwrap();
        let report = replay(&raw, &ReplayOptions::default(), &mut ());
        let line = encode(&StatsRow::new(&report, &[]), RecordFormat::Jsonl, &[]).unwrap();
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&line).unwrap();
        let columns = <StatsRow as crate::output::records::Record>::COLUMNS;
        assert_eq!(object.len(), columns.len());
    }
}
