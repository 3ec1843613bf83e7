//! `pgnkit select` and the game filters (`--where`, `--reaches`, `--material`, `--dedupe`)
//! on every command that reads games (SPEC.md "Game filters", "select output").

use std::fs;
use std::path::{Path, PathBuf};

use crate::util::{pgnkit, run, run_args, temp_file, testdata};

const ELO: &str = "\
[Event \"Strong\"]
[WhiteElo \"2600\"]
[BlackElo \"2550\"]

1. e4 e5 *

[Event \"Unrated\"]
[WhiteElo \"?\"]
[BlackElo \"2700\"]

1. d4 d5 *

[Event \"Mixed\"]
[WhiteElo \"2400\"]
[BlackElo \"2650\"]

1. c4 c5 *
";

fn select(args: &[&str], stdin: &str) -> String {
    let mut all = vec!["select", "-q"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(&all, stdin);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

/// `select -q ARGS --out-dir OUT` on `stdin`: (exit code, stderr).
fn split_into(out: &Path, args: &[&str], stdin: &str) -> (i32, String) {
    let mut all = vec!["select", "-q"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out-dir", out.to_str().unwrap()]);
    let (code, _, stderr) = run(&all, stdin);
    (code, stderr)
}

/// The `Event` tags of the games in PGN text, in order.
fn events(pgn: &str) -> Vec<String> {
    pgn.lines()
        .filter_map(|line| line.strip_prefix("[Event \""))
        .map(|rest| rest.trim_end_matches("\"]").to_string())
        .collect()
}

fn dupes() -> String {
    testdata("select/dupes.pgn").display().to_string()
}

#[test]
fn where_compares_tag_numbers_and_unrated_is_false() {
    let out = select(&["--where", "WhiteElo >= 2500"], ELO);
    assert_eq!(events(&out), ["Strong"]);
    let out = select(&["--where", "WhiteElo >= 2500 && BlackElo >= 2500"], ELO);
    assert_eq!(events(&out), ["Strong"]);
    let out = select(&["--where", "WhiteElo != 2500"], ELO);
    assert_eq!(events(&out), ["Strong", "Unrated", "Mixed"]);
}

#[test]
fn where_or_and_not_and_parentheses() {
    let out = select(&["--where", "WhiteElo < 2500 || Event == \"Unrated\""], ELO);
    assert_eq!(events(&out), ["Unrated", "Mixed"]);
    let out = select(&["--where", "!(BlackElo > 2600)"], ELO);
    assert_eq!(events(&out), ["Strong"]);
    let out = select(&["--where", "!BlackElo > 2600 && WhiteElo > 2500"], ELO);
    assert_eq!(events(&out), ["Strong"]);
    let out = select(
        &["--where", "!(Event == \"Strong\" || Event == \"Mixed\")"],
        ELO,
    );
    assert_eq!(events(&out), ["Unrated"]);
}

#[test]
fn where_orders_strings_byte_wise() {
    let pgn = "[Event \"a\"]\n[Date \"2009.12.31\"]\n\n1. e4 *\n\n[Event \"b\"]\n[Date \"2010.??.??\"]\n\n1. d4 *\n";
    let out = select(&["--where", "Date >= \"2010\""], pgn);
    assert_eq!(events(&out), ["b"]);
    let out = select(&["--where", "Event < \"b\""], pgn);
    assert_eq!(events(&out), ["a"]);
}

#[test]
fn where_matches_regular_expressions() {
    let pgn = "[Event \"44th Olympiad\"]\n[Date \"2022.08.01\"]\n\n1. e4 *\n\n[Event \"Olympiad\"]\n[Date \"2008.11.13\"]\n\n1. d4 *\n\n[Event \"Open\"]\n\n1. c4 *\n";
    let out = select(
        &["--where", "Event ~ \"(?i)olympiad\" && Date >= \"2010\""],
        pgn,
    );
    assert_eq!(events(&out), ["44th Olympiad"]);
    let out = select(&["--where", "Event ~ \"olympiad\""], pgn);
    assert_eq!(events(&out), Vec::<String>::new());
    let out = select(&["--where", "Event !~ \"Olympiad\""], pgn);
    assert_eq!(events(&out), ["Open"]);
}

#[test]
fn where_reads_stats_columns() {
    let endings = testdata("stats/endings.pgn").display().to_string();
    let (_, stats, _) = run_args(&[
        "stats",
        "-q",
        &endings,
        "--where",
        "termination == \"stalemate\"",
    ]);
    let rows: Vec<&str> = stats.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{stats}");
    assert!(rows.iter().all(|row| row.contains(",stalemate,")));
    let repetition = testdata("stats/repetition.pgn").display().to_string();
    let out = select(
        &[
            &repetition,
            "--where",
            "threefold_ply != \"\" && result != \"1/2-1/2\"",
            "--count",
        ],
        "",
    );
    // Games 3 (*), 5 (1-0) and 6 (0-1) of the fixture have a threefold ply and are not
    // drawn; 1, 2 and 4 are drawn.
    assert_eq!(out.trim(), "3");
    let out = select(
        &["--where", "!(plies > 2)"],
        "1. e4 e5 *\n\n1. d4 d5 2. c4 *\n",
    );
    assert_eq!(out, "1. e4 e5 *\n\n");
}

/// select works out the openings, clocks and evaluations only for a --where or a
/// --split-by that reads a column; then it reads them as `stats` writes them.
#[test]
fn select_reads_opening_clock_and_evaluation_columns() {
    let annotated = testdata("stats/annotated.pgn").display().to_string();
    // Two lichess games: D93 (White's ACPL 16) and C45 (White's ACPL 41), both with clocks.
    for (expr, count) in [
        ("clocks > 0 && opening_eco != \"\"", "2"),
        ("white_acpl > 30", "1"),
        ("opening_eco == \"D93\"", "1"),
    ] {
        let out = select(&[&annotated, "--where", expr, "--count"], "");
        assert_eq!(out.trim(), count, "{expr}");
    }
    let dir = tempfile::tempdir().unwrap();
    let by_eco = dir.path().join("eco");
    let (code, stderr) = split_into(&by_eco, &[&annotated, "--split-by", "opening_eco"], "");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(files_in(&by_eco), ["C45.pgn", "D93.pgn"]);
}

#[test]
fn where_syntax_error_is_a_usage_error_with_a_caret_before_any_output() {
    let (dir, out) = temp_file("kept.txt", b"");
    fs::remove_file(&out).unwrap();
    let (code, stdout, stderr) = run(
        &[
            "stats",
            "-o",
            out.to_str().unwrap(),
            "--where",
            "plies > 2 && (white_elo",
        ],
        "1. e4 *\n",
    );
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("  plies > 2 && (white_elo\n                         ^"),
        "{stderr}"
    );
    assert!(!out.exists());
    drop(dir);
}

#[test]
fn where_unknown_lower_case_field_and_bad_regex_are_usage_errors() {
    let (code, _, stderr) = run(&["select", "--where", "whiteelo > 1"], "1. e4 *\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown field `whiteelo`"), "{stderr}");
    assert!(stderr.contains("\n  ^"), "{stderr}");
    let (code, _, stderr) = run(&["select", "--where", "Event ~ \"(\""], "1. e4 *\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("bad regular expression"), "{stderr}");
    let (code, _, stderr) = run(&["select", "--where", "1 < plies < 3"], "1. e4 *\n");
    assert_eq!(code, 2);
    assert!(stderr.contains("do not chain"), "{stderr}");
}

#[test]
fn reaches_finds_a_position_whatever_its_clocks() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. Nf3 e5 2. e4 *\n\n[Event \"c\"]\n\n1. e4 e6 2. Nf3 *\n";
    // After 1. e4 e5 2. Nf3, reached by two move orders; clocks differ from the games'.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 5 40";
    let out = select(&["--reaches", fen], pgn);
    assert_eq!(events(&out), ["a", "b"]);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(events(&select(&["--reaches", start], pgn)).len(), 3);
    let (code, _, _) = run(&["select", "--reaches", "not a fen"], pgn);
    assert_eq!(code, 2);
}

#[test]
fn reaches_ignores_an_en_passant_square_without_a_capture() {
    // After 1. e4 the FEN names e3; no black pawn can take, so the positions agree.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(
        select(&["--reaches", fen, "--count"], "1. e4 e5 *\n").trim(),
        "1"
    );
}

#[test]
fn material_finds_a_signature_on_the_main_line() {
    let endings = testdata("stats/endings.pgn").display().to_string();
    let sample = testdata("sample/twic1599-excerpt.pgn")
        .display()
        .to_string();
    assert_eq!(
        select(&[&sample, "--material", "KRPvKR", "--count"], "").trim(),
        "0"
    );
    assert_eq!(
        select(&[&sample, "--material", "KRPPvKR", "--count"], "").trim(),
        "1"
    );
    assert_eq!(
        select(&[&sample, "--material", "PKRPvRK", "--count"], "").trim(),
        "1"
    );
    assert_eq!(
        select(&[&endings, "--material", "KvK", "--count"], "").trim(),
        "1"
    );
    let (code, _, stderr) = run(&["select", "--material", "KRPvKX"], "");
    assert_eq!(code, 2);
    assert!(stderr.contains("KQRBNP"), "{stderr}");
}

#[test]
fn several_filters_must_all_pass() {
    let out = select(
        &["--where", "BlackElo > 2500", "--where", "WhiteElo < 2500"],
        ELO,
    );
    assert_eq!(events(&out), ["Mixed"]);
    let out = select(
        &[
            "--where",
            "BlackElo > 2500",
            "--material",
            "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPP",
        ],
        ELO,
    );
    assert_eq!(events(&out), Vec::<String>::new());
}

#[test]
fn filters_judge_the_games_that_games_and_shard_picked() {
    // --games picks games 2..3 first; the filter then judges those.
    let out = select(&["--games", "2..3", "--where", "BlackElo >= 2600"], ELO);
    assert_eq!(events(&out), ["Unrated", "Mixed"]);
    let out = select(&["--shard", "0/2", "--where", "BlackElo >= 2600"], ELO);
    assert_eq!(events(&out), ["Mixed"]);
    let out = select(&["--shard", "1/2", "--where", "BlackElo >= 2600"], ELO);
    assert_eq!(events(&out), ["Unrated"]);
    // --dedupe after --games: the first game is not picked, so its twin is kept.
    let out = select(&[&dupes(), "--games", "2..", "--dedupe"], "");
    assert_eq!(
        events(&out)[0],
        "Same moves, other tags, comments, spelling and spacing"
    );
}

#[test]
fn every_command_that_reads_games_takes_the_filters() {
    let where_ = ["--where", "WhiteElo >= 2500"];
    let (_, out, _) = run(
        &[&["validate", "-q", "--format", "jsonl"], &where_[..]].concat(),
        "[WhiteElo \"2600\"]\n\n1. e4 Ke7?? 2. Kf2 *\n\n[WhiteElo \"2000\"]\n\n1. e4 e4 *\n",
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("\"game\":1"), "{out}");
    let (_, out, _) = run(&[&["stats", "-q"], &where_[..]].concat(), ELO);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.contains(",Strong,"));
    let (_, out, _) = run(&[&["fen", "-q"], &where_[..]].concat(), ELO);
    assert_eq!(
        out,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n"
    );
    let (_, out, _) = run(&[&["convert", "-q"], &where_[..]].concat(), ELO);
    assert_eq!(events(&out), ["Strong"]);
    let (dir, html) = temp_file("r.html", b"");
    let (code, _, _) = run(
        &[&["report", "-q", "-o", html.to_str().unwrap()], &where_[..]].concat(),
        ELO,
    );
    assert_eq!(code, 0);
    let page = fs::read_to_string(&html).unwrap();
    let (_, unfiltered, _) = run(&["report", "-q", "-o", "/dev/stdout"], ELO);
    assert_ne!(page, unfiltered);
    drop(dir);
    let out = select(&where_, ELO);
    assert_eq!(events(&out), ["Strong"]);
}

#[test]
fn select_writes_the_original_bytes_of_each_game() {
    let input = testdata("select/lossless.pgn");
    let output = pgnkit()
        .args(["select", "-q", input.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let expected: &[u8] =
        b"[Event \"Caf\xe9 open\"]\n[White \"M\xfcller, J\xf6rg\"]\n[Result \"1-0\"]\n\n\
1. e4 {best by test; \xe9} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Qh5?! $6 Nc6\n\
3. Bc4 Nf6?? 4. Qxf7# 1-0   \n\n\
[Event \"CRLF game\"]\r\n[Result \"*\"]\r\n\r\n1. d4 d5 ; rest of line\r\n2. c4 *\r\n\r\n\
[Event \"No final newline\"]\n\n1. c4 *\n\n";
    assert_eq!(output.stdout, expected);
}

#[test]
fn select_and_invert_together_are_the_whole_input_in_order() {
    let where_ = "BlackElo > 2600";
    let kept = select(&["--where", where_], ELO);
    let rest = select(&["--where", where_, "--invert"], ELO);
    assert_eq!(events(&kept), ["Unrated", "Mixed"]);
    assert_eq!(events(&rest), ["Strong"]);
    let all = select(&[], ELO);
    assert_eq!(events(&all), ["Strong", "Unrated", "Mixed"]);
    assert_eq!(all.len(), kept.len() + rest.len());
}

#[test]
fn invert_is_deduplicated_after_inverting() {
    let out = select(
        &[
            &dupes(),
            "--where",
            "Event == \"Broken\"",
            "--invert",
            "--dedupe",
        ],
        "",
    );
    assert_eq!(
        events(&out),
        [
            "Original",
            "One move differs",
            "Other start position (no castling rights)",
            "Broken, another rest",
            "Broken, same rest"
        ]
    );
}

#[test]
fn count_prints_only_the_number() {
    let (code, stdout, _) = run(&["select", "--count", "--where", "WhiteElo > 2000"], ELO);
    assert_eq!(code, 0);
    assert_eq!(stdout, "2\n");
}

#[test]
fn dedupe_keeps_the_first_of_each_kind() {
    let out = select(&[&dupes(), "--dedupe"], "");
    assert_eq!(
        events(&out),
        [
            "Original",
            "One move differs",
            "Other start position (no castling rights)",
            "Broken",
            "Broken, another rest"
        ]
    );
}

#[test]
fn dedupe_game_also_compares_players_date_and_result() {
    let out = select(&[&dupes(), "--dedupe=game"], "");
    assert_eq!(
        events(&out),
        [
            "Original",
            "Same moves, other tags, comments, spelling and spacing",
            "One move differs",
            "Other start position (no castling rights)",
            "Broken",
            "Broken, another rest"
        ]
    );
}

#[test]
fn duplicates_out_and_csv_name_what_was_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("dups.pgn");
    let csv = dir.path().join("dups.csv");
    let (code, _, stderr) = run_args(&[
        "select",
        "-q",
        &dupes(),
        "--dedupe",
        "--duplicates-out",
        pgn.to_str().unwrap(),
        "--duplicates-csv",
        csv.to_str().unwrap(),
        "-o",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let file = dupes();
    assert_eq!(
        fs::read_to_string(&csv).unwrap(),
        format!(
            "file,game,line,first_file,first_game,first_line\n{file},2,9,{file},1,1\n{file},5,36,{file},1,1\n{file},8,52,{file},6,44\n"
        )
    );
    assert_eq!(
        events(&fs::read_to_string(&pgn).unwrap()),
        [
            "Same moves, other tags, comments, spelling and spacing",
            "Same moves and the same four tags, another event",
            "Broken, same rest"
        ]
    );
    let (code, _, _) = run_args(&[
        "select",
        &dupes(),
        "--duplicates-csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "--duplicates-csv needs --dedupe");
}

#[test]
fn dedupe_works_on_validate_and_stats_too() {
    let (_, out, _) = run_args(&["stats", "-q", &dupes(), "--dedupe"]);
    assert_eq!(out.lines().count(), 6, "{out}");
    let (_, out, _) = run_args(&["validate", "-q", &dupes(), "--dedupe"]);
    assert_eq!(out.lines().count(), 2, "{out}");
}

/// A folder holding `copies` copies of the sample and the dupes fixture, so that several
/// threads share the work.
fn big_archive(copies: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..copies {
        fs::copy(
            testdata("sample/twic1599-excerpt.pgn"),
            dir.path().join(format!("{i:02}a.pgn")),
        )
        .unwrap();
        fs::copy(
            testdata("select/dupes.pgn"),
            dir.path().join(format!("{i:02}b.pgn")),
        )
        .unwrap();
    }
    dir
}

#[test]
fn output_is_the_same_at_one_two_and_three_threads() {
    let dir = big_archive(8);
    let folder = dir.path().to_str().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let csv = dir.path().join(format!("dups{threads}.csv.out"));
        let out = select(
            &[
                folder,
                "--threads",
                threads,
                "--dedupe",
                "--where",
                "plies > 40 || Event ~ \"Broken\"",
                "--duplicates-csv",
                csv.to_str().unwrap(),
            ],
            "",
        );
        outputs.push((out, fs::read_to_string(&csv).unwrap()));
    }
    assert!(!outputs[0].0.is_empty());
    // Every copy after the first is a duplicate, wherever a thread read it.
    let distinct = select(
        &[
            testdata("sample/twic1599-excerpt.pgn").to_str().unwrap(),
            testdata("select/dupes.pgn").to_str().unwrap(),
            "--dedupe",
            "--where",
            "plies > 40 || Event ~ \"Broken\"",
        ],
        "",
    );
    assert_eq!(outputs[0].0, distinct);
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn split_by_writes_one_file_per_value() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("by");
    let pgn = "[Event \"Wch 2024/25\"]\n\n1. e4 *\n\n[Event \"\"]\n\n1. d4 *\n\n[Event \"Wch 2024:25\"]\n\n1. c4 *\n\n1. f4 *\n";
    let (code, stderr) = split_into(&out, &["--split-by", "Event"], pgn);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(files_in(&out), ["Wch_2024_25.pgn", "_empty.pgn"]);
    assert_eq!(
        fs::read_to_string(out.join("Wch_2024_25.pgn")).unwrap(),
        "[Event \"Wch 2024/25\"]\n\n1. e4 *\n\n[Event \"Wch 2024:25\"]\n\n1. c4 *\n\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("_empty.pgn")).unwrap(),
        "[Event \"\"]\n\n1. d4 *\n\n1. f4 *\n\n"
    );
    let by_result = dir.path().join("res");
    let (code, _) = split_into(
        &by_result,
        &["--split-by", "termination"],
        "1. f3 e5 2. g4 Qh4# 0-1\n\n1. e4 *\n",
    );
    assert_eq!(code, 0);
    assert_eq!(files_in(&by_result), ["checkmate.pgn", "none.pgn"]);
}

#[test]
fn split_every_numbers_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("parts");
    let (code, _) = split_into(&out, &["--split-every", "2"], ELO);
    assert_eq!(code, 0);
    assert_eq!(files_in(&out), ["00001.pgn", "00002.pgn"]);
    assert_eq!(
        events(&fs::read_to_string(out.join("00001.pgn")).unwrap()),
        ["Strong", "Unrated"]
    );
    assert_eq!(
        events(&fs::read_to_string(out.join("00002.pgn")).unwrap()),
        ["Mixed"]
    );
}

#[test]
fn split_never_overwrites_and_writes_nothing_on_a_clash() {
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("by");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("Mixed.pgn"), "mine\n").unwrap();
    let (code, stderr) = split_into(&out, &["--split-by", "Event"], ELO);
    assert_eq!(code, 2);
    assert!(stderr.contains("Mixed.pgn exists"), "{stderr}");
    assert_eq!(files_in(&out), ["Mixed.pgn"]);
    assert_eq!(fs::read_to_string(out.join("Mixed.pgn")).unwrap(), "mine\n");
    fs::write(out.join("00001.pgn"), "mine\n").unwrap();
    let (code, _) = split_into(&out, &["--split-every", "1"], ELO);
    assert_eq!(code, 2);
    assert_eq!(files_in(&out), ["00001.pgn", "Mixed.pgn"]);
}

#[test]
fn out_dir_needs_a_split_and_split_needs_out_dir() {
    let (code, _, _) = run(&["select", "--out-dir", "x"], ELO);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["select", "--split-every", "2"], ELO);
    assert_eq!(code, 2);
    let (code, _, stderr) = run(&["select", "--split-by", "nosuch", "--out-dir", "x"], ELO);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown field"), "{stderr}");
}
