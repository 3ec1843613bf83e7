//! Who can still mate (SPEC.md "Who can still mate", FIDE 5.2.2 and 6.9): dead positions
//! beyond insufficient material and games lost on time against a side that cannot mate,
//! through `stats`, `validate` and `convert` on the own games of testdata/mate/games.pgn
//! and on games built from chasolver's labelled sets (testdata/chasolver/).

use crate::util::*;

fn games() -> String {
    testdata("mate/games.pgn").to_str().unwrap().to_string()
}

fn stats(args: &[&str]) -> Vec<Row> {
    let mut all = vec!["stats", "--quiet"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run_args(&all);
    assert_eq!(code, 0, "stderr: {stderr}");
    rows_of(&stdout)
}

/// Each own game: termination, cannot_mate, dead_position_ply (by round, 1-based).
const EXPECTED: [(&str, &str, &str); 22] = [
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("none", "black", ""),
    ("none", "black", ""),
    ("dead-position", "both", "1"),
    ("dead-position", "both", "1"),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
    ("none", "black", ""),
    ("none", "white", ""),
    ("dead-position", "both", "0"),
    ("stalemate", "", "0"),
    ("insufficient-material", "both", "1"),
    ("dead-position", "both", "0"),
    ("none", "", ""),
    ("dead-position", "both", "0"),
    ("dead-position", "both", "0"),
];

#[test]
fn own_games_are_judged_at_fast_and_full() {
    for level in ["fast", "full"] {
        let rows = stats(&[&games(), "--mate-check", level]);
        assert_eq!(rows.len(), EXPECTED.len());
        for (row, (termination, cannot, dead)) in rows.iter().zip(EXPECTED) {
            let what = format!("{level}, game {} ({})", row["game"], row["event"]);
            assert_eq!(row["status"], "ok", "{what}");
            assert_eq!(row["termination"], termination, "{what}");
            assert_eq!(row["cannot_mate"], cannot, "{what}");
            assert_eq!(row["dead_position_ply"], dead, "{what}");
        }
    }
}

/// `material` is the judgement before this section: a locked wall is not dead.
#[test]
fn material_level_judges_by_material_alone() {
    let rows = stats(&[&games(), "--mate-check", "material"]);
    assert_eq!(rows[0]["termination"], "none");
    assert_eq!(rows[0]["cannot_mate"], "");
    assert_eq!(rows[0]["dead_position_ply"], "");
    assert_eq!(rows[14]["cannot_mate"], "white", "a bare king");
    assert_eq!(rows[17]["termination"], "insufficient-material");
    assert_eq!(rows[17]["dead_position_ply"], "1");
}

#[test]
fn findings_name_the_dead_ply_and_the_loss_on_time() {
    let (_, stdout, _) = run_args(&["validate", "--quiet", "--format", "jsonl", &games()]);
    let findings: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let of = |game: u64, code: &str| -> Vec<String> {
        findings
            .iter()
            .filter(|f| f["game"] == game && f["code"] == code)
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        of(1, "result.after-automatic-draw"),
        [
            "the game had already ended in a draw at ply 0 (dead position); the 4 moves played after it do not count"
        ]
    );
    assert_eq!(
        of(7, "result.after-automatic-draw"),
        [
            "the game had already ended in a draw at ply 1 (dead position); the 3 moves played after it do not count"
        ]
    );
    assert_eq!(
        of(18, "result.after-automatic-draw"),
        [
            "the game had already ended in a draw at ply 1 (insufficient material); the 2 moves played after it do not count"
        ]
    );
    // lichess, chess.com and ChessBase spellings of a loss on time.
    for (game, message) in [
        (
            2,
            "the game is recorded as 1-0 and Black lost on time, but White could not mate by any series of legal moves: FIDE 6.9 makes this a draw",
        ),
        (
            3,
            "the game is recorded as 0-1 and White lost on time, but Black could not mate by any series of legal moves: FIDE 6.9 makes this a draw",
        ),
        (
            4,
            "the game is recorded as 1-0 and Black lost on time, but White could not mate by any series of legal moves: FIDE 6.9 makes this a draw",
        ),
        (
            5,
            "the game is recorded as 0-1 and White lost on time, but Black could not mate by any series of legal moves: FIDE 6.9 makes this a draw",
        ),
        (
            10,
            "the game is recorded as 1-0 and Black lost on time, but White could not mate by any series of legal moves: FIDE 6.9 makes this a draw",
        ),
        (
            15,
            "the game is recorded as 1-0 and Black lost on time, but White could not mate by any series of legal moves: FIDE 6.9 makes this a draw",
        ),
        (
            16,
            "the game is recorded as 1-0 but White cannot mate by any series of legal moves in the final position (FIDE 6.9: a draw)",
        ),
    ] {
        assert_eq!(of(game, "result.unwinnable-win"), [message], "game {game}");
    }
    // A side that can still mate won on time; a draw recorded right; a wall not yet shut.
    for game in [6, 14, 19, 20] {
        assert!(of(game, "result.unwinnable-win").is_empty(), "game {game}");
    }
    assert!(
        findings.iter().all(|f| f["code"] != "result.mismatch"),
        "a dead position recorded as a win is no mismatch"
    );
}

#[test]
fn fix_results_draws_dead_positions_and_losses_on_time() {
    let (code, stdout, stderr) = run_args(&["convert", "--quiet", "--fix-results", &games()]);
    assert_eq!(code, 0, "{stderr}");
    let results: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("[Result \""))
        .map(|rest| rest.trim_end_matches("\"]"))
        .collect();
    let mut expected = ["1/2-1/2"; 22];
    // Play could go on, or the winner could mate: the recorded result stands.
    expected[5] = "1-0";
    expected[13] = "1-0";
    expected[19] = "1-0";
    assert_eq!(results, expected);
    // At `material` the walls keep their results; the bare king's win on time does not.
    let (_, stdout, _) = run_args(&[
        "convert",
        "--quiet",
        "--fix-results",
        "--mate-check",
        "material",
        &games(),
    ]);
    let results: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.strip_prefix("[Result \""))
        .map(|rest| rest.trim_end_matches("\"]"))
        .collect();
    assert_eq!(results[1], "1-0");
    assert_eq!(results[14], "1/2-1/2");
}

#[test]
fn where_reads_the_new_columns() {
    let count = |expr: &str| {
        let (code, stdout, stderr) =
            run_args(&["select", "--quiet", "--count", "--where", expr, &games()]);
        assert_eq!(code, 0, "{stderr}");
        stdout.trim().to_string()
    };
    assert_eq!(count("cannot_mate == \"both\""), "16");
    assert_eq!(count("cannot_mate == \"black\""), "3");
    assert_eq!(count("dead_position_ply >= 1"), "3");
    assert_eq!(count("termination == \"dead-position\""), "15");
}

#[test]
fn summary_counts_and_merge_refuses_mixed_levels() {
    let dir = tempfile::tempdir().unwrap();
    let fast = dir.path().join("fast.csv");
    let material = dir.path().join("material.csv");
    for (level, path) in [("fast", &fast), ("material", &material)] {
        let (code, _, stderr) = run_args(&[
            "stats",
            "--quiet",
            &games(),
            "--mate-check",
            level,
            "-o",
            dir.path().join("rows.csv").to_str().unwrap(),
            "--summary-output",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{stderr}");
    }
    let text = std::fs::read_to_string(&fast).unwrap();
    for row in [
        "cannot_mate,black,3",
        "cannot_mate,both,16",
        "cannot_mate,white,1",
        "draw_rule,dead_position,17",
        "mate_check,fast,22",
        "termination,dead-position,15",
    ] {
        assert!(text.lines().any(|line| line == row), "{row} in\n{text}");
    }
    let (code, stdout, _) = run_args(&[
        "stats",
        "--merge",
        fast.to_str().unwrap(),
        fast.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(stdout.lines().any(|line| line == "mate_check,fast,44"));
    let (code, _, stderr) = run_args(&[
        "stats",
        "--merge",
        fast.to_str().unwrap(),
        material.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--mate-check material"), "{stderr}");
    assert!(stderr.contains("--mate-check fast"), "{stderr}");
}

/// Labelled positions as games with no moves: `cannot_mate` is the label.
fn labelled_games(name: &str, every: usize) -> (String, Vec<&'static str>) {
    let text = std::fs::read_to_string(testdata(&format!("chasolver/{name}"))).unwrap();
    let mut pgn = String::new();
    let mut expected = Vec::new();
    let lines = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'));
    for line in lines.step_by(every) {
        let (label, fen) = line.split_once(' ').unwrap();
        pgn.push_str(&format!(
            "[Event \"{label}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n*\n\n"
        ));
        expected.push(match label {
            "WB" => "",
            "W-" => "black",
            "-B" => "white",
            _ => "both",
        });
    }
    (pgn, expected)
}

#[test]
fn labelled_samples_through_stats() {
    for (name, every, level) in [("lichess.txt", 16, "fast"), ("positions.txt", 8, "full")] {
        let (pgn, expected) = labelled_games(name, every);
        let (code, stdout, stderr) = run(&["stats", "--quiet", "--mate-check", level], &pgn);
        assert_eq!(code, 0, "{stderr}");
        let rows = rows_of(&stdout);
        assert_eq!(rows.len(), expected.len());
        let mut checked = 0;
        for (row, cannot) in rows.iter().zip(expected) {
            // Rejected setups, checkmates and stalemates have no `cannot_mate`.
            match (row["status"].as_str(), row["termination"].as_str()) {
                ("invalid-setup", _) | (_, "checkmate" | "stalemate") => {
                    assert_eq!(row["cannot_mate"], "", "{}", row["final_fen"]);
                }
                _ => {
                    assert_eq!(row["cannot_mate"], cannot, "{name}: {}", row["final_fen"]);
                    assert_eq!(
                        row["termination"] == "dead-position",
                        cannot == "both" && row["insufficient_material"] == "false",
                        "{}",
                        row["final_fen"]
                    );
                    checked += 1;
                }
            }
        }
        assert!(
            checked * 10 > rows.len() * 8,
            "{name}: {checked} of {}",
            rows.len()
        );
    }
}
