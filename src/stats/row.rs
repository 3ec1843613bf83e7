//! The per-game record of `pgnkit stats`: one CSV row, SPEC.md's columns in SPEC.md's order.

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;
use shakmaty::Position;

use crate::rules::GameReport;
use crate::rules::replay::annotations::Clock;
use crate::rules::replay::fen_of;
use shakmaty::Color;

/// One game's row. Games that never reached a position (unreadable, unsupported variant,
/// invalid setup) have an empty `termination`, `final_fen` and `max_repetition`, zero
/// counts, and `false` for the booleans that describe a position; `result_consistent` is
/// `true` since no `result.mismatch` can be reported without a position.
#[derive(Debug, Serialize)]
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
}

impl<'a> StatsRow<'a> {
    /// The column names, in the order of the fields above.
    pub const HEADER: [&'static str; 51] = [
        "file",
        "game",
        "line",
        "event",
        "site",
        "date",
        "round",
        "white",
        "black",
        "white_elo",
        "black_elo",
        "eco",
        "result",
        "plies",
        "status",
        "termination",
        "final_fen",
        "first_error_ply",
        "first_error_code",
        "checks",
        "captures",
        "castles",
        "en_passant",
        "promotions",
        "missed_en_passant",
        "max_repetition",
        "threefold_ply",
        "fivefold_ply",
        "fifty_move_ply",
        "seventy_five_move_ply",
        "perpetual_check",
        "insufficient_material",
        "result_consistent",
        "under_promotions",
        "opening_eco",
        "opening_name",
        "opening_ply",
        "clocks",
        "white_clock_end",
        "black_clock_end",
        "white_clock_min",
        "black_clock_min",
        "evals",
        "white_acpl",
        "black_acpl",
        "white_inaccuracies",
        "black_inaccuracies",
        "white_mistakes",
        "black_mistakes",
        "white_blunders",
        "black_blunders",
    ];

    pub fn new(report: &'a GameReport) -> StatsRow<'a> {
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
        }
    }
}

/// The values of the `--tags` columns, in the order named ("" for an absent tag).
pub fn tag_values<'a>(report: &'a GameReport, names: &[String]) -> Vec<&'a str> {
    names.iter().map(|name| report.tags.value(name)).collect()
}

/// One CSV record (with its line end) of `StatsRow::HEADER` or of a game's row: made on the
/// worker threads, so that the writer only copies bytes. Each thread keeps one CSV writer
/// for all its rows.
pub fn csv_record(record: impl Serialize) -> csv::Result<Vec<u8>> {
    thread_local! {
        static WRITER: RefCell<RowWriter> = RefCell::new(RowWriter::new());
    }
    WRITER.with_borrow_mut(|writer| {
        let made = writer
            .csv
            .serialize(record)
            .and_then(|()| Ok(writer.csv.flush()?));
        let row = made.map(|()| writer.bytes.borrow().clone());
        writer.bytes.borrow_mut().clear();
        if row.is_err() {
            // A record cut short must not lead the next one.
            *writer = RowWriter::new();
        }
        row
    })
}

/// A CSV writer whose output the caller can take after each record.
struct RowWriter {
    csv: csv::Writer<SharedBytes>,
    bytes: Rc<RefCell<Vec<u8>>>,
}

impl RowWriter {
    fn new() -> RowWriter {
        let bytes = Rc::new(RefCell::new(Vec::new()));
        let csv = csv::WriterBuilder::new()
            .has_headers(false)
            .buffer_capacity(512)
            .from_writer(SharedBytes(bytes.clone()));
        RowWriter { csv, bytes }
    }
}

struct SharedBytes(Rc<RefCell<Vec<u8>>>);

impl std::io::Write for SharedBytes {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
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
    use crate::rules::{ReplayOptions, replay};

    /// The header written first must name the serialised fields, in their order.
    #[test]
    fn header_matches_the_serialised_fields() {
        let pgn: &[u8] = b"1. e4 e5 *\n";
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        let raw = splitter.next_game().unwrap().unwrap();
        let report = replay(&raw, &ReplayOptions::default(), &mut ());
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.serialize(StatsRow::new(&report)).unwrap();
        let text = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        let header = text.lines().next().unwrap();
        assert_eq!(header, StatsRow::HEADER.join(","));
    }
}
