//! The clocks against the time control (SPEC.md "Time controls", "Clock annotations",
//! "stats columns"): the figures and findings of the games in testdata/clocks/, each
//! worked out by hand (the arithmetic is beside each assertion).

use crate::util::{Row, rows_of, run_args, testdata};

/// The stats rows of a file of testdata/clocks/.
fn rows(name: &str) -> Vec<Row> {
    let path = testdata(&format!("clocks/{name}"));
    let (code, stdout, stderr) = run_args(&["stats", "-q", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    rows_of(&stdout)
}

/// The (game, ply, code, message) of the `validate --level info` findings of a file whose
/// code starts with `clock.` or is `tag.bad-time-control`.
fn clock_findings(name: &str) -> Vec<(u64, u64, String, String)> {
    let path = testdata(&format!("clocks/{name}"));
    let (_, stdout, _) = run_args(&[
        "validate",
        "-q",
        "--level",
        "info",
        "--format",
        "jsonl",
        path.to_str().unwrap(),
    ]);
    stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|f| {
            let code = f["code"].as_str().unwrap();
            code.starts_with("clock.") || code == "tag.bad-time-control"
        })
        .map(|f| {
            (
                f["game"].as_u64().unwrap(),
                f["ply"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn cells<'r>(row: &'r Row, names: &[&str]) -> Vec<&'r str> {
    names.iter().map(|name| row[*name].as_str()).collect()
}

const MOVE_TIMES: [&str; 5] = [
    "time_control",
    "white_time_used",
    "black_time_used",
    "white_move_time_max",
    "black_move_time_max",
];

/// `[%clk]` under `180+2`: White 3:00, 2:58, 3:01 (a second of rounding: no gain), 3:20
/// (17 s more than 3:01 + 2 s); move times c(k-1) + 2 - c(k), clamped at 0: White 2, 4,
/// 0, 0; Black (3:00, 2:59, 2:55, 2:50) 2, 3, 6, 7. Under `2/60:30` the 30 s of the second
/// period come after move 2 (White 0:55 -> 1:20 is no gain), 1:20 -> 1:50 is 30 s gained.
#[test]
fn a_clock_that_gains_more_than_the_control_adds_is_found_once_per_move() {
    let findings = clock_findings("gain.pgn");
    let codes: Vec<(u64, u64, &str)> = findings
        .iter()
        .map(|(game, ply, code, _)| (*game, *ply, code.as_str()))
        .collect();
    assert_eq!(codes, [(1, 7, "clock.gain"), (2, 5, "clock.gain")]);
    let (_, _, _, message) = &findings[0];
    assert!(
        message.contains(
            "from 0:03:01 to 0:03:20 with this move: 17 s more than the increment of 2 s"
        ),
        "{message}"
    );
    assert!(message.contains("FIDE 7.5.5"), "{message}");
    assert!(findings[1].3.contains("30 s more"), "{}", findings[1].3);
    let rows = rows("gain.pgn");
    assert_eq!(cells(&rows[0], &MOVE_TIMES), ["180+2", "6", "18", "4", "7"]);
    assert_eq!(
        cells(&rows[1], &MOVE_TIMES),
        ["2/60:30", "10", "10", "5", "5"]
    );
    // A time per move and a sandclock: no move time from the clocks, nothing checked.
    assert_eq!(cells(&rows[2], &MOVE_TIMES), ["1/86400", "", "", "", ""]);
    assert_eq!(cells(&rows[3], &MOVE_TIMES), ["*60", "", "", "", ""]);
}

/// `[%emt]` under `60+1` (written `0060+1.0`), no `[%clk]`: White 5, 5, 5 gives clocks
/// 56, 52, 48; Black 2.5, a book move (0), 1.25 gives 58.5, 59.5, 59.25.
#[test]
fn clocks_are_derived_from_move_times_where_none_is_written() {
    let rows = rows("move_times.pgn");
    let row = &rows[0];
    assert_eq!(cells(row, &MOVE_TIMES), ["60+1", "15", "3.75", "5", "2.5"]);
    assert_eq!(
        cells(
            row,
            &[
                "clocks",
                "white_clock_end",
                "black_clock_end",
                "white_clock_min",
                "black_clock_min"
            ]
        ),
        ["6", "48", "59.25", "48", "58.5"]
    );
}

/// cutechess's comments under `5+0.1`: White's four moves take 2.0 s each, 8 s by move
/// 4 against 5 + 4 x 0.1 = 5.4 s given: over by 2.6 s, more than the 1 s allowed (the
/// times have a fractional digit). Written `2s`, each may be a second short: 8 s is
/// within 5.4 + 1 + 4 s. A game White lost on time raises nothing. Evaluations are read
/// from the mover's point of view into White's.
#[test]
fn move_times_over_the_control_are_found_unless_the_side_lost_on_time() {
    let findings = clock_findings("move_times.pgn");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let (game, ply, code, message) = &findings[0];
    assert_eq!((*game, *ply, code.as_str()), (2, 7, "clock.over-time"));
    assert!(
        message.contains("add up to 8 s by this move, 2.6 s more than the 5.4 s"),
        "{message}"
    );
    let rows = rows("move_times.pgn");
    assert_eq!(
        cells(&rows[1], &MOVE_TIMES),
        ["5+0.1", "8", "1.5", "2", "0.5"]
    );
    assert_eq!(cells(&rows[1], &["evals"]), ["7"]);
    // Derived clocks of a side over its time show 0.
    assert_eq!(
        cells(
            &rows[1],
            &[
                "clocks",
                "white_clock_end",
                "black_clock_end",
                "black_clock_min"
            ]
        ),
        ["8", "0", "3.9", "3.8"]
    );
}

/// A value that is no time control is an info finding, and its clocks are not checked
/// (Black's 10:00 after a 5:00 start would be a gain); `?` is no time control known.
#[test]
fn a_time_control_is_read_in_the_standards_forms() {
    let findings = clock_findings("time_controls.pgn");
    assert_eq!(findings.len(), 1, "{findings:?}");
    let (game, _, code, message) = &findings[0];
    assert_eq!((*game, code.as_str()), (1, "tag.bad-time-control"));
    assert!(message.contains("[TimeControl \"5 min\"]"), "{message}");
    let rows = rows("time_controls.pgn");
    let controls: Vec<&str> = rows
        .iter()
        .map(|row| row["time_control"].as_str())
        .collect();
    assert_eq!(controls, ["", "", "40/5400+30:1800+30"]);
}

/// `--where` reads the new columns: a real lichess game under `300+0`, and the largest
/// move time of a side.
#[test]
fn the_new_columns_are_filters_too() {
    let path = testdata("termination/lichess_time_forfeit.pgn");
    let (_, stdout, _) = run_args(&[
        "stats",
        "-q",
        "--where",
        "time_control == \"300\"",
        path.to_str().unwrap(),
    ]);
    assert_eq!(rows_of(&stdout).len(), 1);
    let gain = testdata("clocks/gain.pgn");
    let (_, stdout, _) = run_args(&[
        "stats",
        "-q",
        "--where",
        "black_move_time_max >= 7",
        gain.to_str().unwrap(),
    ]);
    let games: Vec<String> = rows_of(&stdout).iter().map(|r| r["game"].clone()).collect();
    assert_eq!(games, ["1"]);
}
