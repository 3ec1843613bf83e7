//! `stats` clock and evaluation columns (SPEC.md "Tag columns and annotations") on
//! hand-worked games, and `comment.bad-annotation`.

use crate::util::*;

/// The `stats` rows of PGN text, keyed by column name.
fn stats_rows(pgn: &str) -> Vec<Row> {
    let (code, stdout, stderr) = run(&["stats", "--quiet"], pgn);
    assert_eq!(code, 0, "stderr: {stderr}");
    rows_of(&stdout)
}

/// Asserts cells of one row.
fn assert_cells(row: &Row, expected: &[(&str, &str)]) {
    for (column, value) in expected {
        assert_eq!(row[*column], *value, "column {column}");
    }
}

const EVAL_COLUMNS: [&str; 9] = [
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

/// The evaluation columns of one row, in `EVAL_COLUMNS` order.
fn eval_cells(row: &Row) -> Vec<&str> {
    EVAL_COLUMNS.iter().map(|c| row[*c].as_str()).collect()
}

#[test]
fn columns_follow_the_opening_columns_and_precede_tag_columns() {
    let (_, stdout, _) = run(&["stats", "--quiet", "--tags", "TimeControl"], "");
    let header = stdout.lines().next().unwrap();
    assert!(
        header.ends_with(
            ",under_promotions,opening_eco,opening_name,opening_ply,clocks,white_clock_end,black_clock_end,white_clock_min,\
black_clock_min,evals,white_acpl,black_acpl,white_inaccuracies,black_inaccuracies,\
white_mistakes,black_mistakes,white_blunders,black_blunders,cannot_mate,dead_position_ply,\
time_control,white_time_used,black_time_used,white_move_time_max,black_move_time_max,TimeControl"
        ),
        "header: {header}"
    );
}

#[test]
fn clock_formats_and_moves_without_a_clock() {
    // White: 180, (none), 170, 175; Black: 3723.4, 3725, (none).
    let rows = stats_rows(
        "1. e4 {[%clk 0:03:00]} e5 { [%clk 1:02:03.4] } 2. Nf3 Nc6 {[%clk 1:02:05]} \
3. Bb5 {[%clk 0:02:50]} a6 4. Ba4 {[%clk 0:02:55]} *\n",
    );
    assert_cells(
        &rows[0],
        &[
            ("clocks", "5"),
            ("white_clock_end", "175"),
            ("white_clock_min", "170"),
            ("black_clock_end", "3725"),
            ("black_clock_min", "3723.4"),
        ],
    );
}

#[test]
fn a_game_without_annotations_has_empty_clocks_and_zero_counts() {
    let rows = stats_rows("1. e4 {a comment} e5 {50% [of] it} *\n");
    assert_cells(
        &rows[0],
        &[
            ("clocks", "0"),
            ("white_clock_end", ""),
            ("black_clock_end", ""),
            ("white_clock_min", ""),
            ("black_clock_min", ""),
        ],
    );
    assert_eq!(
        eval_cells(&rows[0]),
        ["0", "", "", "0", "0", "0", "0", "0", "0"]
    );
}

#[test]
fn only_comments_after_main_line_moves_are_read() {
    // The game comment before the first move and a variation's comment are not read.
    let rows = stats_rows(
        "{[%clk 0:09:00] [%eval 5]} 1. e4 {[%clk 0:03:00]} (1. d4 {[%clk 0:01:00]}) \
1... e5 (1... c5 {[%eval -3]}) *\n",
    );
    assert_cells(
        &rows[0],
        &[
            ("clocks", "1"),
            ("white_clock_end", "180"),
            ("white_clock_min", "180"),
            ("black_clock_end", ""),
            ("evals", "0"),
        ],
    );
}

#[test]
fn evaluation_formats_in_pawns() {
    // Black: 0.17 -> 0.50 loses 33; White: 0.50 -> -1.52 loses 202 (a blunder: W drops
    // from 0.0918 to -0.2748).
    let rows = stats_rows("1. d4 {[%eval 0.17]} Nf6 {[%eval 0.5]} 2. c4 {[%eval -1.52]} *\n");
    assert_eq!(
        eval_cells(&rows[0]),
        ["3", "202", "33", "0", "0", "0", "0", "1", "0"]
    );
}

#[test]
fn the_first_ply_never_counts_and_a_side_without_counted_moves() {
    // 1. e4 is judged against no evaluation, so White has no counted move: no acpl, and
    // judgement counts of 0, although the evaluation fell to -5.
    let rows = stats_rows("1. e4 {[%eval -5.00]} e5 {[%eval -5.00]} *\n");
    assert_eq!(
        eval_cells(&rows[0]),
        ["2", "", "0", "0", "0", "0", "0", "0", "0"]
    );
}

#[test]
fn a_move_without_an_evaluation_is_not_counted_nor_the_next() {
    let rows = stats_rows(
        "1. e4 {[%eval 0.2]} e5 {[%eval 0.2]} 2. Nf3 Nc6 {[%eval 3.0]} 3. Bb5 {[%eval 3.0]} *\n",
    );
    // Counted: 1... e5 (Black, 0) and 3. Bb5 (White, 0); 2. Nf3 has none, 2... Nc6
    // follows it.
    assert_eq!(
        eval_cells(&rows[0]),
        ["4", "0", "0", "0", "0", "0", "0", "0", "0"]
    );
}

#[test]
fn evaluations_are_clamped_at_1000_centipawns() {
    // Black: 0.20 -> 12.50 counts as 20 -> 1000 (loss 980); White: 12.50 -> -15.00
    // counts as 1000 -> -1000 (loss 2000). Both blunders.
    let rows = stats_rows("1. e4 {[%eval 0.2]} e5 {[%eval 12.5]} 2. Nf3 {[%eval -15.00]} *\n");
    assert_eq!(
        eval_cells(&rows[0]),
        ["3", "2000", "980", "0", "0", "0", "0", "1", "1"]
    );
}

#[test]
fn mate_scores_count_as_1000_and_are_not_judged() {
    // Black: 0.30 -> #3 (mate for White) loses 970; White: #3 -> #-2 loses 2000. Neither
    // is judged, since a mate score takes part.
    let rows = stats_rows("1. e4 {[%eval 0.3]} e5 {[%eval #3]} 2. Nf3 {[%eval #-2]} *\n");
    assert_eq!(
        eval_cells(&rows[0]),
        ["3", "2000", "970", "0", "0", "0", "0", "0", "0"]
    );
}

#[test]
fn mate_zero_after_the_mating_move_counts_for_the_side_that_mated() {
    // Fool's mate. 2. g4 (-0.30 -> #-1) loses 970 for White; 2... Qh4# (#-1 -> #0, the
    // side to move is mated: -1000 for White) loses nothing for Black; 1... e5 lost 20.
    let rows = stats_rows(
        "1. f3 {[%eval -0.5]} e5 {[%eval -0.3]} 2. g4 {[%eval #-1]} Qh4# {[%eval #0]} 0-1\n",
    );
    assert_eq!(
        eval_cells(&rows[0]),
        ["4", "970", "10", "0", "0", "0", "0", "0", "0"]
    );
}

/// Judgements of White's 2. Nf3 after 0.00, 0.00, then `-loss` centipawns:
/// (inaccuracies, mistakes, blunders).
fn white_judgements(loss: u32) -> (String, String, String) {
    let pgn = format!(
        "1. e4 {{[%eval 0.00]}} e5 {{[%eval 0.00]}} 2. Nf3 {{[%eval -{}.{:02}]}} *\n",
        loss / 100,
        loss % 100
    );
    let row = &stats_rows(&pgn)[0];
    assert_eq!(row["white_acpl"], loss.to_string());
    (
        row["white_inaccuracies"].clone(),
        row["white_mistakes"].clone(),
        row["white_blunders"].clone(),
    )
}

fn counts(i: &str, m: &str, b: &str) -> (String, String, String) {
    (i.to_string(), m.to_string(), b.to_string())
}

// W(0) - W(-55) = 0.1009 and W(0) - W(-54) = 0.0991; 111: 0.2016, 110: 0.1998;
// 169: 0.3015, 168: 0.2998 (W(cp) = 2 / (1 + exp(-0.00368208 cp)) - 1).

#[test]
fn inaccuracy_at_and_just_below_its_threshold() {
    assert_eq!(white_judgements(55), counts("1", "0", "0"));
    assert_eq!(white_judgements(54), counts("0", "0", "0"));
}

#[test]
fn mistake_at_and_just_below_its_threshold() {
    assert_eq!(white_judgements(111), counts("0", "1", "0"));
    assert_eq!(white_judgements(110), counts("1", "0", "0"));
}

#[test]
fn blunder_at_and_just_below_its_threshold() {
    assert_eq!(white_judgements(169), counts("0", "0", "1"));
    assert_eq!(white_judgements(168), counts("0", "1", "0"));
}

#[test]
fn black_moves_are_judged_from_blacks_point_of_view() {
    // 1... e5 takes White from 0.00 to +1.69: a loss of 169 and a blunder for Black;
    // 2. Nf3 keeps +1.69: no loss for White.
    let rows = stats_rows("1. e4 {[%eval 0.00]} e5 {[%eval 1.69]} 2. Nf3 {[%eval 1.69]} *\n");
    assert_eq!(
        eval_cells(&rows[0]),
        ["3", "0", "169", "0", "0", "0", "0", "0", "1"]
    );
}

#[test]
fn acpl_rounds_halves_away_from_zero() {
    // White's counted losses: 2. Nf3 1, 3. Bb5 2: mean 1.5 -> 2.
    let rows = stats_rows(
        "1. e4 {[%eval 0]} e5 {[%eval 0]} 2. Nf3 {[%eval -0.01]} Nc6 {[%eval -0.01]} \
3. Bb5 {[%eval -0.03]} *\n",
    );
    assert_cells(&rows[0], &[("white_acpl", "2"), ("black_acpl", "0")]);
}

const BAD_ANNOTATIONS: &str = "1. e4 {[%clk 0:03:00]} e5 {[%clk 0:3] [%eval 0.2]} \
2. Nf3 {[%eval +-] [%clk 0:02:59]} *\n";

#[test]
fn malformed_annotations_are_passed_over_in_stats() {
    let rows = stats_rows(BAD_ANNOTATIONS);
    assert_cells(
        &rows[0],
        &[
            ("status", "ok"),
            ("clocks", "2"),
            ("white_clock_end", "179"),
            ("black_clock_end", ""),
            ("evals", "1"),
        ],
    );
}

#[test]
fn malformed_annotations_are_info_findings() {
    let findings = findings_of(BAD_ANNOTATIONS, &["--level", "info"]);
    let bad: Vec<_> = findings
        .iter()
        .filter(|f| f["code"] == "comment.bad-annotation")
        .collect();
    assert_eq!(bad.len(), 2, "{findings:?}");
    assert_eq!(bad[0]["severity"], "info");
    assert_eq!(bad[0]["ply"], 2);
    assert_eq!(bad[0]["move"], "1... e5");
    assert!(bad[0]["message"].as_str().unwrap().contains("`[%clk 0:3]`"));
    assert_eq!(bad[1]["ply"], 3);
    assert!(bad[1]["message"].as_str().unwrap().contains("`[%eval +-]`"));
    // Not shown at the default level, and the game stays valid.
    let (code, stdout, _) = run(&["validate", "--quiet"], BAD_ANNOTATIONS);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn the_summary_counts_malformed_annotations() {
    let (code, stdout, _) = run(
        &[
            "stats",
            "--quiet",
            "-o",
            "/dev/null",
            "--summary-output",
            "/dev/stdout",
        ],
        BAD_ANNOTATIONS,
    );
    assert_eq!(code, 0);
    assert!(
        stdout.contains("finding,comment.bad-annotation,2"),
        "{stdout}"
    );
}

/// Two lichess games (testdata/stats/annotated.pgn); the figures agree with
/// scripts/compare_annotations_python.py (python-chess's clock() and eval()).
#[test]
fn real_lichess_games_fixture() {
    let path = testdata("stats/annotated.pgn");
    let (code, stdout, _) = run_args(&["stats", "--quiet", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    let figures: Vec<String> = stdout
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            // The evaluation columns, before the two of "Who can still mate" and the five
            // of "How the game ended".
            cells[cells.len() - 21..cells.len() - 7].join(",")
        })
        .collect();
    assert_eq!(
        figures,
        [
            "41,297,248,297,248,41,16,42,0,2,0,0,0,1",
            "43,187,18,187,18,43,41,58,1,1,1,0,1,3"
        ]
    );
}

#[test]
fn where_filters_on_the_new_columns() {
    let path = testdata("stats/annotated.pgn");
    let (code, stdout, _) = run_args(&[
        "stats",
        "--quiet",
        "--where",
        "white_blunders >= 1 && black_clock_end < 60",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let games: Vec<&str> = stdout
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(games, ["2"]);
}

/// A `--where` on a stats column makes the game's row once, and `stats` writes it from
/// those cells (issue 30 item 5): the rows kept read exactly as without the filter, with
/// the `--tags` columns, in CSV and JSONL.
#[test]
fn where_on_a_column_writes_the_rows_it_keeps_unchanged() {
    let path = testdata("stats/annotated.pgn");
    let path = path.to_str().unwrap();
    for format in ["csv", "jsonl"] {
        let stats = |filter: &[&str]| {
            let mut args = vec!["stats", "--quiet", "--format", format];
            args.extend_from_slice(&["--tags", "Event,White", path]);
            args.extend_from_slice(filter);
            let (code, stdout, _) = run_args(&args);
            assert_eq!(code, 0);
            stdout
        };
        let all = stats(&[]);
        assert_eq!(stats(&["--where", "plies >= 0"]), all, "{format}");
        let kept = stats(&["--where", "white_blunders >= 1"]);
        let kept: Vec<&str> = kept.lines().collect();
        let header = usize::from(format == "csv");
        assert!(
            kept.len() > header && kept.len() < all.lines().count(),
            "{format}"
        );
        for line in kept {
            assert!(all.lines().any(|row| row == line), "{format}: {line}");
        }
    }
}
