//! `pgnkit stats`: the per-game CSV, the draw-rule columns and the mergeable summary.
//! Fixtures are RULES.md section 5.4/5.5 cases (testdata/README.md).

use std::path::{Path, PathBuf};

use crate::util::*;

/// `pgnkit stats` of a fixture in testdata/stats/.
fn stats_of(fixture: &str) -> Vec<Row> {
    let path = testdata(&format!("stats/{fixture}"));
    let (code, stdout, stderr) = run_args(&["stats", "--quiet", path.to_str().unwrap()]);
    assert_eq!(code, 0, "stderr: {stderr}");
    rows_of(&stdout)
}

/// Asserts the given cells of one row (game numbers are 1-based).
fn assert_cells(rows: &[Row], game: usize, expected: &[(&str, &str)]) {
    let row = &rows[game - 1];
    for (column, value) in expected {
        assert_eq!(
            row[*column], *value,
            "game {game} ({}), column {column}",
            row["event"]
        );
    }
}

#[test]
fn header_has_the_spec_columns_in_order() {
    let (code, stdout, _) = run(&["stats", "--quiet"], "");
    assert_eq!(code, 0);
    let spec = "file,game,line,event,site,date,round,white,black,white_elo,black_elo,eco,result,\
plies,status,termination,final_fen,first_error_ply,first_error_code,checks,captures,\
castles,en_passant,promotions,missed_en_passant,max_repetition,threefold_ply,\
fivefold_ply,fifty_move_ply,seventy_five_move_ply,perpetual_check,insufficient_material,\
result_consistent";
    let header = stdout.lines().next().unwrap();
    assert!(header.starts_with(spec), "header: {header}");
    assert_eq!(stdout.lines().count(), 1, "no game, no row");
}

#[test]
fn tag_columns_and_identity() {
    let pgn = "[Event \"Ch, \\\"open\\\"\"]\n[Site \"Oslo\"]\n[Date \"2024.01.02\"]\n\
[Round \"3\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[WhiteElo \"2700\"]\n\
[BlackElo \"2650\"]\n[ECO \"C20\"]\n\n1. e4 e5 1-0\n\n1. d4 *\n";
    let (code, stdout, _) = run(&["stats", "--quiet"], pgn);
    assert_eq!(code, 0);
    let rows = rows_of(&stdout);
    assert_eq!(rows.len(), 2);
    assert_cells(
        &rows,
        1,
        &[
            ("file", "-"),
            ("game", "1"),
            ("line", "1"),
            ("event", "Ch, \"open\""),
            ("site", "Oslo"),
            ("date", "2024.01.02"),
            ("round", "3"),
            ("white", "A"),
            ("black", "B"),
            ("white_elo", "2700"),
            ("black_elo", "2650"),
            ("eco", "C20"),
            ("result", "1-0"),
            ("plies", "2"),
            ("status", "ok"),
            ("termination", "none"),
            (
                "final_fen",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
            ),
            ("max_repetition", "1"),
            ("result_consistent", "true"),
        ],
    );
    // A game without tags: empty tag cells, R from the marker.
    assert_cells(
        &rows,
        2,
        &[
            ("game", "2"),
            ("line", "14"),
            ("event", ""),
            ("result", "*"),
            ("plies", "1"),
        ],
    );
}

#[test]
fn threefold_only_when_the_en_passant_capture_is_illegal() {
    // D4b: c6 after 1...c5 is pseudo-legal only (b5 is pinned), so ply 9 repeats ply 1.
    let rows = stats_of("repetition.pgn");
    assert_cells(
        &rows,
        1,
        &[
            ("plies", "9"),
            ("max_repetition", "3"),
            ("threefold_ply", "9"),
            ("termination", "threefold-repetition"),
            ("fivefold_ply", ""),
        ],
    );
}

#[test]
fn castling_rights_make_positions_differ() {
    // D4: a key without castling rights would say ply 10.
    let rows = stats_of("repetition.pgn");
    assert_cells(
        &rows,
        2,
        &[("threefold_ply", "12"), ("max_repetition", "3")],
    );
}

#[test]
fn a_legal_en_passant_capture_makes_positions_differ() {
    // D3: P_4 offered axb6 e.p., so its look-alike at ply 12 is only the second occurrence.
    let rows = stats_of("repetition.pgn");
    assert_cells(
        &rows,
        3,
        &[("threefold_ply", "13"), ("max_repetition", "3")],
    );
}

#[test]
fn fivefold_repetition() {
    let rows = stats_of("repetition.pgn");
    assert_cells(
        &rows,
        4,
        &[
            ("threefold_ply", "8"),
            ("fivefold_ply", "16"),
            ("max_repetition", "5"),
            ("termination", "fivefold-repetition"),
            ("result_consistent", "true"),
            ("perpetual_check", "false"),
        ],
    );
    // Recorded as a win: the board says draw.
    assert_cells(
        &rows,
        5,
        &[
            ("termination", "fivefold-repetition"),
            ("result_consistent", "false"),
        ],
    );
}

#[test]
fn decisive_result_after_the_fivefold() {
    // D19: the mate at ply 20 comes after the game ended at ply 16. SPEC.md judges the
    // final position (a mate, matching 0-1), so the result is consistent; validate
    // reports result.after-automatic-draw at ply 17.
    let rows = stats_of("repetition.pgn");
    assert_cells(
        &rows,
        6,
        &[
            ("plies", "20"),
            ("fivefold_ply", "16"),
            ("termination", "checkmate"),
            ("result", "0-1"),
            ("result_consistent", "true"),
        ],
    );
    let path = testdata("stats/repetition.pgn");
    let (_, summary, _) = run_args(&[
        "stats",
        "--quiet",
        path.to_str().unwrap(),
        "--summary-output",
        "/dev/stdout",
        "-o",
        "/dev/null",
    ]);
    assert!(
        summary.contains("finding,result.after-automatic-draw,1\n"),
        "{summary}"
    );
    assert!(summary.contains("finding,result.mismatch,1\n"), "{summary}");
}

#[test]
fn fifty_and_seventy_five_moves_from_the_fen_clock() {
    let rows = stats_of("clock.pgn");
    // D6: clock 98 + 2 plies.
    assert_cells(
        &rows,
        1,
        &[
            ("fifty_move_ply", "2"),
            ("seventy_five_move_ply", ""),
            ("termination", "fifty-moves"),
        ],
    );
    // D8: the FEN starts at 148, so fifty holds at ply 0.
    assert_cells(
        &rows,
        2,
        &[
            ("fifty_move_ply", "0"),
            ("seventy_five_move_ply", "2"),
            ("termination", "seventy-five-moves"),
        ],
    );
    // D7: a pawn move resets the clock.
    assert_cells(&rows, 5, &[("fifty_move_ply", ""), ("termination", "none")]);
}

#[test]
fn mate_on_the_hundredth_and_hundred_fiftieth_ply_takes_precedence() {
    let rows = stats_of("clock.pgn");
    assert_cells(
        &rows,
        3,
        &[
            ("final_fen", "R6k/8/6K1/8/8/8/8/8 b - - 100 100"),
            ("fifty_move_ply", ""),
            ("termination", "checkmate"),
            ("checks", "1"),
        ],
    );
    // D9: clock 149 at the start (fifty held at ply 0), 150 with the mate.
    assert_cells(
        &rows,
        4,
        &[
            ("fifty_move_ply", "0"),
            ("seventy_five_move_ply", ""),
            ("termination", "checkmate"),
            ("result_consistent", "true"),
        ],
    );
}

#[test]
fn stalemate() {
    let rows = stats_of("endings.pgn");
    assert_cells(
        &rows,
        1,
        &[("termination", "stalemate"), ("result_consistent", "true")],
    );
    // R4: a win recorded in a stalemate.
    assert_cells(
        &rows,
        2,
        &[("termination", "stalemate"), ("result_consistent", "false")],
    );
}

#[test]
fn insufficient_material_cases() {
    let rows = stats_of("endings.pgn");
    let dead = [
        ("termination", "insufficient-material"),
        ("insufficient_material", "true"),
    ];
    let alive = [("termination", "none"), ("insufficient_material", "false")];
    assert_cells(&rows, 3, &dead); // D11: K+B v K after Kxd2
    assert_cells(&rows, 4, &dead); // D12: bishops on one colour
    assert_cells(&rows, 5, &alive); // D13: bishops on both colours
    assert_cells(&rows, 6, &alive); // D14: N v N (a helpmate exists)
    assert_cells(&rows, 7, &dead); // K+N v K
    assert_cells(&rows, 8, &dead); // bare kings
    // D16: locked pawns, dead only beyond material: `dead-position`, not insufficient
    // material (SPEC.md "Who can still mate"); by material alone, play goes on.
    assert_cells(
        &rows,
        9,
        &[
            ("termination", "dead-position"),
            ("insufficient_material", "false"),
            ("cannot_mate", "both"),
        ],
    );
    let path = testdata("stats/endings.pgn");
    let (_, stdout, _) = run_args(&[
        "stats",
        "--quiet",
        "--mate-check",
        "material",
        path.to_str().unwrap(),
    ]);
    assert_cells(&rows_of(&stdout), 9, &alive);
}

#[test]
fn win_on_time_with_a_lone_king_is_not_a_mismatch() {
    // R6: result.unwinnable-win, not result.mismatch; Black still has mating material.
    let rows = stats_of("endings.pgn");
    assert_cells(
        &rows,
        10,
        &[
            ("result", "1-0"),
            ("termination", "none"),
            ("insufficient_material", "false"),
            ("result_consistent", "true"),
            ("first_error_code", ""),
        ],
    );
    let findings = findings_of(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/q7/4K3 w - - 0 1\"]\n\n1. Kf1 1-0\n",
        &[],
    );
    assert_eq!(
        codes_of(&findings),
        vec![("result.unwinnable-win".to_string(), 1)]
    );
}

#[test]
fn checkmate_recorded_as_a_draw() {
    // R1.
    let rows = stats_of("endings.pgn");
    assert_cells(
        &rows,
        11,
        &[("termination", "checkmate"), ("result_consistent", "false")],
    );
}

#[test]
fn result_tag_and_marker_that_differ() {
    // R7: R is the tag's 1-0; the marker says 0-1.
    let rows = stats_of("endings.pgn");
    assert_cells(
        &rows,
        12,
        &[
            ("result", "1-0"),
            ("termination", "none"),
            ("result_consistent", "false"),
        ],
    );
}

#[test]
fn perpetual_check() {
    let rows = stats_of("perpetual.pgn");
    // D17: five checks by White, the final position three times.
    assert_cells(
        &rows,
        1,
        &[
            ("perpetual_check", "true"),
            ("checks", "5"),
            ("threefold_ply", "9"),
        ],
    );
    // D18: the same checks, but the position occurred only twice.
    assert_cells(
        &rows,
        2,
        &[
            ("perpetual_check", "false"),
            ("checks", "4"),
            ("max_repetition", "2"),
        ],
    );
    // D18n: threefold without checks.
    assert_cells(
        &rows,
        3,
        &[("perpetual_check", "false"), ("threefold_ply", "8")],
    );
}

#[test]
fn move_counts() {
    let rows = stats_of("counts.pgn");
    assert_cells(
        &rows,
        1,
        &[
            ("plies", "13"),
            ("checks", "1"),
            ("captures", "3"),
            ("en_passant", "1"),
            ("castles", "1"),
            ("promotions", "0"),
            ("missed_en_passant", "0"),
        ],
    );
    assert_cells(
        &rows,
        2,
        &[
            ("promotions", "1"),
            ("under_promotions", "1"),
            ("checks", "1"),
        ],
    );
    // 3. Nc3 leaves exd6 e.p. unplayed.
    assert_cells(&rows, 3, &[("missed_en_passant", "1"), ("en_passant", "0")]);
}

#[test]
fn broken_games_get_their_rows() {
    let rows = stats_of("broken.pgn");
    assert_eq!(rows.len(), 4);
    assert_cells(
        &rows,
        1,
        &[
            ("status", "illegal"),
            ("plies", "4"),
            ("first_error_ply", "5"),
            ("first_error_code", "move.illegal"),
            ("termination", "none"),
            ("result_consistent", "true"),
        ],
    );
    assert_cells(
        &rows,
        2,
        &[
            ("status", "unsupported-variant"),
            ("plies", "0"),
            ("first_error_ply", "0"),
            ("first_error_code", "setup.unsupported-variant"),
            ("termination", ""),
            ("final_fen", ""),
            ("max_repetition", ""),
            ("result", "1-0"),
        ],
    );
    assert_cells(
        &rows,
        3,
        &[
            ("status", "invalid-setup"),
            ("first_error_code", "setup.invalid-fen"),
            ("termination", ""),
        ],
    );
    assert_cells(
        &rows,
        4,
        &[
            ("status", "ok"),
            ("termination", "checkmate"),
            ("game", "4"),
        ],
    );
}

/// `--summary-output` of one run over `inputs` with `extra` flags.
fn summary_of(inputs: &[&Path], extra: &[&str], dir: &Path, name: &str) -> String {
    runs_of(inputs, extra, dir, name).1
}

/// The rows (stdout) and the `--summary-output` of one run.
fn runs_of(inputs: &[&Path], extra: &[&str], dir: &Path, name: &str) -> (String, String) {
    let out = dir.join(name);
    let mut args = vec!["stats", "--quiet", "--summary-output"];
    args.push(out.to_str().unwrap());
    args.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run_args(&args);
    assert_eq!(code, 0, "stderr: {stderr}");
    (stdout, std::fs::read_to_string(&out).unwrap())
}

fn merge(parts: &[String], dir: &Path) -> String {
    let mut args = vec![
        "stats".to_string(),
        "--quiet".to_string(),
        "--merge".to_string(),
    ];
    for (i, part) in parts.iter().enumerate() {
        let path = dir.join(format!("merge-{i}.csv"));
        std::fs::write(&path, part).unwrap();
        args.push(path.to_str().unwrap().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = run_args(&args);
    assert_eq!(code, 0, "stderr: {stderr}");
    stdout
}

#[test]
fn summary_counts_the_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = testdata("stats/endings.pgn");
    let summary = summary_of(&[&fixture], &[], dir.path(), "s.csv");
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines[0], "section,key,count");
    let mut sorted = lines[1..].to_vec();
    sorted.sort_by_key(|line| {
        let mut fields = line.splitn(3, ',');
        (fields.next().unwrap(), fields.next().unwrap())
    });
    assert_eq!(lines[1..], sorted[..], "rows sorted");
    for expected in [
        "games,games,12",
        "result,1-0,3",
        "result,1/2-1/2,9",
        "status,ok,12",
        "termination,checkmate,1",
        "termination,stalemate,2",
        "termination,insufficient-material,4",
        "termination,dead-position,1",
        "termination,none,4",
        "draw_rule,insufficient_material,4",
        "finding,result.mismatch,3",
        "finding,result.unwinnable-win,1",
        "moves,plies,10",
    ] {
        assert!(
            lines.contains(&expected),
            "{expected} missing in\n{summary}"
        );
    }
}

#[test]
fn merged_shards_and_files_equal_one_run() {
    let dir = tempfile::tempdir().unwrap();
    // Real games (the sample) and the rule fixtures: shards then cross file and folder
    // boundaries.
    let folders = vec![testdata("sample"), testdata("stats")];
    let inputs: Vec<&Path> = folders.iter().map(PathBuf::as_path).collect();
    let whole = summary_of(&inputs, &[], dir.path(), "whole.csv");
    assert!(whole.contains("games,games,"), "{whole}");
    // The openings are counted by slot, not by key: they merge as every other count.
    assert!(whole.contains("\nopening,C"), "{whole}");

    let shards: Vec<String> = (0..3)
        .map(|k| {
            let shard = format!("{k}/3");
            summary_of(
                &inputs,
                &["--shard", &shard],
                dir.path(),
                &format!("s{k}.csv"),
            )
        })
        .collect();
    assert_ne!(shards[0], whole, "a shard is only a part");
    assert_eq!(merge(&shards, dir.path()), whole, "by --shard");

    let mut files: Vec<PathBuf> = Vec::new();
    for folder in &folders {
        let mut in_folder: Vec<_> = std::fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
            .collect();
        in_folder.sort();
        files.extend(in_folder);
    }
    assert!(files.len() >= 6);
    let parts: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, file)| summary_of(&[file], &[], dir.path(), &format!("f{i}.csv")))
        .collect();
    assert_eq!(merge(&parts, dir.path()), whole, "by file");
}

#[test]
fn merge_rejects_a_file_that_is_not_a_summary() {
    let (_dir, path) = temp_file("rows.csv", b"file,game\n-,1\n");
    let (code, _, stderr) = run_args(&["stats", "--merge", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a stats summary"), "{stderr}");
    assert!(stderr.contains("rows.csv"), "{stderr}");
}

#[test]
fn summary_table_on_stderr() {
    let path = testdata("stats/perpetual.pgn");
    let (code, _, stderr) = run_args(&["stats", "--summary", path.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(stderr.contains("draw_rule\n"), "{stderr}");
    assert!(stderr.contains("perpetual_check"), "{stderr}");
    assert!(stderr.contains("3 games"), "{stderr}");
}

#[test]
fn exit_code_is_0_with_broken_games_and_2_with_a_missing_input() {
    let broken = testdata("stats/broken.pgn");
    let (code, stdout, _) = run_args(&["stats", "--quiet", broken.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert_eq!(rows_of(&stdout).len(), 4);

    let (code, stdout, stderr) = run_args(&[
        "stats",
        "--quiet",
        "no-such-file.pgn",
        broken.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no-such-file.pgn"), "{stderr}");
    assert_eq!(rows_of(&stdout).len(), 4, "the other input is still read");
}

#[test]
fn result_consistent_is_false_exactly_where_validate_reports_a_mismatch() {
    let folder = testdata("stats");
    let folder = folder.to_str().unwrap();
    let (_, findings, _) = run_args(&["validate", "--quiet", "--format", "jsonl", folder]);
    let mut mismatched: Vec<(String, String)> = findings
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|f| f["code"] == "result.mismatch")
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_string(),
                f["game"].to_string(),
            )
        })
        .collect();
    mismatched.sort();
    let (_, stdout, _) = run_args(&["stats", "--quiet", folder]);
    let mut inconsistent: Vec<(String, String)> = rows_of(&stdout)
        .into_iter()
        .filter(|row| row["result_consistent"] == "false")
        .map(|row| (row["file"].clone(), row["game"].clone()))
        .collect();
    inconsistent.sort();
    assert_eq!(inconsistent.len(), 4, "R1, R4, R7 and D5 recorded as a win");
    assert_eq!(inconsistent, mismatched);
}

#[test]
fn jsonl_has_the_csv_keys_in_the_csv_order() {
    let folder = testdata("stats");
    let folder = folder.to_str().unwrap();
    let (_, csv_text, _) = run_args(&["stats", "--quiet", folder]);
    let header: Vec<String> = csv_text
        .lines()
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let (_, jsonl, _) = run_args(&["stats", "--quiet", "--format", "jsonl", folder]);
    assert_eq!(jsonl.lines().count(), rows_of(&csv_text).len());
    for line in jsonl.lines() {
        let object: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(line).unwrap();
        assert_eq!(object.len(), header.len(), "{line}");
        // serde_json's Map sorts its keys: the written order is read from the line.
        let at: Vec<usize> = header
            .iter()
            .map(|key| line.find(&format!("\"{key}\":")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{line}");
    }
}

#[test]
fn jsonl_types_counts_booleans_tags_and_empty_cells() {
    let pgn = "[White \"A\"]\n[WhiteElo \"2650\"]\n[Round \"3\"]\n\n1. e4 e5 1-0\n\n\
               [White \"B\"]\n\n1. e4 e4 *\n";
    let (code, stdout, _) = run(&["stats", "--quiet", "--format", "jsonl"], pgn);
    assert_eq!(code, 0);
    let rows: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    let (ok, broken) = (&rows[0], &rows[1]);
    // Tag-valued columns are strings even when they read as numbers; absent tags null.
    assert_eq!(ok["white_elo"], "2650");
    assert_eq!(ok["round"], "3");
    assert!(ok["black_elo"].is_null() && ok["event"].is_null());
    // Counts and figures are numbers, booleans booleans, empty cells null.
    assert_eq!(ok["game"], 1);
    assert_eq!(ok["plies"], 2);
    assert_eq!(ok["max_repetition"], 1);
    assert_eq!(ok["perpetual_check"], false);
    assert_eq!(ok["result_consistent"], true);
    assert!(ok["first_error_ply"].is_null() && ok["first_error_code"].is_null());
    assert!(ok["threefold_ply"].is_null());
    assert_eq!(broken["status"], "illegal");
    assert_eq!(broken["first_error_ply"], 2);
    assert_eq!(broken["first_error_code"], "move.illegal");
}

#[test]
fn jsonl_of_an_empty_input_is_empty() {
    let (code, stdout, _) = run(&["stats", "--quiet", "--format", "jsonl"], "");
    assert_eq!(code, 0);
    assert_eq!(stdout, "");
}

const TAGGED_GAMES: &str = "[Event \"A\"]\n[TimeControl \"180+2\"]\n[Opening \"Sicilian, Najdorf\"]\n\n1. e4 c5 *\n\n\
[Event \"B\"]\n[Annotator \"say \\\"hi\\\"\"]\n\n1. d4 d5 *\n";

#[test]
fn tags_appends_one_column_per_tag_after_every_other_column() {
    let (code, stdout, stderr) = run(
        &["stats", "--quiet", "--tags", "TimeControl,Opening"],
        TAGGED_GAMES,
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let (_, plain, _) = run(&["stats", "--quiet"], TAGGED_GAMES);
    let header = stdout.lines().next().unwrap();
    let plain_header = plain.lines().next().unwrap();
    assert_eq!(header, format!("{plain_header},TimeControl,Opening"));
    let rows = rows_of(&stdout);
    assert_cells(
        &rows,
        1,
        &[("TimeControl", "180+2"), ("Opening", "Sicilian, Najdorf")],
    );
    assert_cells(&rows, 2, &[("TimeControl", ""), ("Opening", "")]);
}

#[test]
fn tags_keeps_the_name_as_given_and_the_value_exactly() {
    let (code, stdout, _) = run(
        &[
            "stats",
            "--quiet",
            "--tags",
            "Annotator",
            "--tags",
            "timecontrol",
        ],
        TAGGED_GAMES,
    );
    assert_eq!(code, 0);
    assert!(
        stdout
            .lines()
            .next()
            .unwrap()
            .ends_with(",Annotator,timecontrol")
    );
    let rows = rows_of(&stdout);
    assert_cells(
        &rows,
        2,
        &[("Annotator", "say \"hi\""), ("timecontrol", "")],
    );
    assert_cells(&rows, 1, &[("Annotator", ""), ("timecontrol", "")]);
}

#[test]
fn tags_leaves_the_other_columns_unchanged() {
    let (_, tagged, _) = run(&["stats", "--quiet", "--tags", "Event"], TAGGED_GAMES);
    let (_, plain, _) = run(&["stats", "--quiet"], TAGGED_GAMES);
    let columns = plain.lines().next().unwrap().split(',').count();
    for (tagged, plain) in rows_of(&tagged).iter().zip(rows_of(&plain).iter()) {
        assert_eq!(
            tagged.len(),
            columns + 1,
            "Event as a tag column is keyed apart from event"
        );
        for (column, value) in plain {
            assert_eq!(&tagged[column], value, "column {column}");
        }
        assert_eq!(tagged["Event"], tagged["event"]);
    }
}

#[test]
fn jsonl_writes_the_tags_columns_last_as_strings() {
    let (code, stdout, _) = run(
        &[
            "stats",
            "-q",
            "--format",
            "jsonl",
            "--tags",
            "TimeControl,Opening",
        ],
        TAGGED_GAMES,
    );
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].ends_with(",\"TimeControl\":\"180+2\",\"Opening\":\"Sicilian, Najdorf\"}"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with(",\"TimeControl\":null,\"Opening\":null}"),
        "{}",
        lines[1]
    );
}
