//! The per-game record of `pgnkit stats`: one CSV row or JSON line, SPEC.md's columns in
//! SPEC.md's order.

use shakmaty::{Color, EnPassantMode, Position};

use crate::rules::GameReport;
use crate::rules::fen::style::FenText;
use crate::rules::replay::annotations::Clock;

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
    /// Made on the stack and written into the row's cells: no `String` per row.
    pub final_fen: Option<FenText>,
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
    // SPEC.md "Who can still mate": the sides that provably cannot mate in the final
    // position (`white`, `black`, `both`, empty), and the first dead ply.
    pub cannot_mate: &'static str,
    pub dead_position_ply: Option<u32>,
    // SPEC.md "stats columns" of "How the game ended": the time control in its standard
    // form, and each side's move times (milliseconds).
    pub time_control: &'a str,
    pub white_time_used: Option<i64>,
    pub black_time_used: Option<i64>,
    pub white_move_time_max: Option<i64>,
    pub black_move_time_max: Option<i64>,
    /// The values of the `--tags` columns, in the order named ("" for an absent tag).
    pub tags: Vec<&'a str>,
}

impl<'a> StatsRow<'a> {
    /// The row of a game, with the values of the tags `--tags` names.
    pub fn new(report: &'a GameReport, tag_columns: &[String]) -> StatsRow<'a> {
        let tag = |name: &str| report.tags.value(name);
        let [
            event,
            site,
            date,
            round,
            white,
            black,
            white_elo,
            black_elo,
            eco,
        ] = report.tags.values([
            "Event", "Site", "Date", "Round", "White", "Black", "WhiteElo", "BlackElo", "ECO",
        ]);
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
        let [white_time_used, black_time_used] = report.clocks.time_used;
        let [white_move_time_max, black_move_time_max] = report.clocks.move_time_max;
        StatsRow {
            file: &report.file,
            game: report.index,
            line: report.line,
            event,
            site,
            date,
            round,
            white,
            black,
            white_elo,
            black_elo,
            eco,
            result: &report.result,
            plies: report.plies,
            status: report.status.as_str(),
            termination: position.map_or("", |_| report.termination.as_str()),
            final_fen: position.map(|pos| FenText::of(pos, EnPassantMode::Always)),
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
            opening_eco: report.opening.map_or("", |found| found.opening.eco()),
            opening_name: report.opening.map_or("", |found| found.opening.name()),
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
            cannot_mate: report
                .mate
                .verdict
                .cannot_mate()
                .map_or("", |sides| sides.as_str()),
            dead_position_ply: report.mate.dead_position_ply,
            time_control: report.time_control.as_deref().unwrap_or(""),
            white_time_used,
            black_time_used,
            white_move_time_max,
            black_move_time_max,
            tags: tag_columns.iter().map(|name| tag(name)).collect(),
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
