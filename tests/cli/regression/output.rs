//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

use std::path::{Path, PathBuf};

fn convert(pgn: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["convert", "--quiet"];
    args.extend_from_slice(extra);
    run(&args, pgn)
}

/// The movetext of the last game written (the lines after its tags), unwrapped.
fn movetext(pgn: &str) -> String {
    let game = pgn.trim_end().rsplit("\n\n").next().unwrap_or_default();
    game.replace('\n', " ")
}

// Issue 14, item 13: convert never loses a move.

#[test]
fn convert_keeps_the_rest_of_the_main_line_after_an_error_as_one_comment() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Nd5 Nxe4 5. Qe2 Nxf2 6. Nxc7+ Qxc7 1-0\n";
    let (code, stdout, stderr) = convert(pgn, &[]);
    assert_eq!(code, 1, "the error is reported as by validate");
    assert!(
        stderr.contains("game 1, 4. Nd5: error[move.illegal]"),
        "{stderr}"
    );
    assert_eq!(
        movetext(&stdout),
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 { rest: 4. Nd5 Nxe4 5. Qe2 Nxf2 6. Nxc7+ Qxc7 } 1-0"
    );
}

#[test]
fn convert_keeps_comments_nags_and_variations_of_the_rest_in_a_form_that_reads_back() {
    let pgn = "1. e4 e5 2. Ke3 {bold} Nc6 $1 (2... Nf6 3. d3) ; a line } comment\n3. d3 *\n";
    let (code, stdout, _) = convert(pgn, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        movetext(&stdout),
        "1. e4 e5 { rest: 2. Ke3 <bold> Nc6 $1 (2... Nf6 3. d3) <a line ) comment> 3. d3 } *"
    );
    // The output is a valid game that converts to itself.
    let (code, again, stderr) = convert(&stdout, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(again, stdout);
}

#[test]
fn convert_keeps_the_moves_after_a_stray_parenthesis_in_the_rest_of_the_main_line() {
    let (_, stdout, _) = convert("1. e4 e5 2. Ke3 ) 2... Nc6 3. d3 *\n", &[]);
    assert_eq!(
        movetext(&stdout),
        "1. e4 e5 { rest: 2. Ke3) 2... Nc6 3. d3 } *"
    );
}

#[test]
fn convert_keeps_the_rest_of_a_variation_after_an_illegal_move() {
    let (code, stdout, _) = convert("1. e4 e5 (1... Nf6 2. Ke3 Nc6 3. d3) 2. Nf3 *\n", &[]);
    assert_eq!(code, 0);
    assert!(
        movetext(&stdout).ends_with("{ rest: 2. Ke3 Nc6 3. d3 }) 2. Nf3 *"),
        "{stdout}"
    );
}

#[test]
fn convert_rewrites_plycount_to_the_plies_written() {
    // A stale PlyCount after an error: 3 plies written, not 6.
    let pgn = "[PlyCount \"6\"]\n\n1. e4 e5 2. Nf3 Ke6 3. Bc4 Nf6 *\n";
    let (_, stdout, _) = convert(pgn, &[]);
    assert!(stdout.contains("[PlyCount \"3\"]\n"), "{stdout}");
    // A wrong one in a clean game; variations do not count.
    let pgn = "[PlyCount \"40\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n";
    let (code, stdout, _) = convert(pgn, &[]);
    assert_eq!(code, 0);
    assert!(stdout.contains("[PlyCount \"3\"]\n"), "{stdout}");
    // No tag is added where there was none.
    let (_, stdout, _) = convert("1. e4 *\n", &[]);
    assert!(!stdout.contains("PlyCount"), "{stdout}");
}

// Issue 14, item 14: convert is stable.

#[test]
fn convert_of_an_empty_variation_adds_no_move_number() {
    let (_, stdout, _) = convert("1. d4 () d5 *\n", &[]);
    assert_eq!(movetext(&stdout), "1. d4 d5 *");
    let (_, stdout, _) = convert("1. d4 (()) d5 2. c4 ( ) *\n", &[]);
    assert_eq!(movetext(&stdout), "1. d4 d5 2. c4 *");
}

/// Every plain PGN file under testdata/.
fn corpus() -> Vec<PathBuf> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
            {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&testdata(""), &mut files);
    files.sort();
    files
}

#[test]
fn convert_output_converts_to_itself_over_the_test_corpus() {
    let files = corpus();
    assert!(files.len() >= 30, "{files:?}");
    // The round trip that convert --help promises: SAN and LAN.
    for style in ["san", "lan"] {
        for file in &files {
            let output = pgnkit()
                .args(["convert", "--quiet", "--moves", style])
                .arg(file)
                .output()
                .unwrap();
            let once = output.stdout;
            let output = pgnkit()
                .args(["convert", "--quiet", "--moves", style, "-"])
                .write_stdin(once.clone())
                .output()
                .unwrap();
            assert!(
                output.stdout == once,
                "{style}: {} does not convert to itself:\n{}",
                file.display(),
                first_difference(&once, &output.stdout)
            );
        }
    }
}

/// The first line where two outputs differ, for the failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let a = String::from_utf8_lossy(a);
    let b = String::from_utf8_lossy(b);
    for (n, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  once:  {x}\n  twice: {y}", n + 1);
        }
    }
    "one output is a prefix of the other".to_string()
}

// Issue 14, item 16: the no-game warning on every command that reads games.

fn warns_on_no_game(command: &str) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let (_, _, stderr) = run(&[command, "--quiet", "-o", out], "");
    assert!(
        stderr.contains("pgnkit: warning: the input holds no game"),
        "{command}: {stderr}"
    );
    let (_, _, stderr) = run(&[command, "--quiet", "--game", "3", "-o", out], "1. e4 *\n");
    assert!(
        stderr.contains("pgnkit: warning: --game/--games picked no game (1 read)"),
        "{command}: {stderr}"
    );
    let (_, _, stderr) = run(&[command, "--quiet", "-o", out], "1. e4 *\n");
    assert!(!stderr.contains("warning"), "{command}: {stderr}");
}

#[test]
fn validate_warns_when_it_reads_no_game() {
    warns_on_no_game("validate");
}

#[test]
fn stats_warns_when_it_reads_no_game() {
    warns_on_no_game("stats");
}

#[test]
fn fen_warns_when_it_reads_no_game() {
    warns_on_no_game("fen");
}

#[test]
fn convert_warns_when_it_reads_no_game() {
    warns_on_no_game("convert");
}

#[test]
fn report_warns_when_it_reads_no_game() {
    warns_on_no_game("report");
}

// fatal errors create no output

#[test]
fn no_input_that_opens_creates_no_output_and_claims_no_games() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("kept.csv"), "old rows\n").unwrap();
    for args in [
        &[
            "validate",
            "missing.pgn",
            "--clean-out",
            "a.pgn",
            "--broken-out",
            "b.pgn",
        ][..],
        &["validate", "missing.pgn", "-o", "findings.txt"][..],
        &[
            "stats",
            "missing.pgn",
            "-o",
            "kept.csv",
            "--summary-output",
            "s.csv",
        ][..],
        &["report", "missing.pgn", "-o", "r.html"][..],
    ] {
        let output = pgnkit()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(
            stderr,
            "pgnkit: cannot open missing.pgn: No such file or directory (os error 2)\n\
             pgnkit: no input could be opened: nothing written\n",
            "{args:?}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, vec!["kept.csv".to_string()], "{args:?}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("kept.csv")).unwrap(),
            "old rows\n"
        );
    }

    // One input that opens is enough: the outputs are written from it, the missing one is
    // reported (exit 2) and the summary counts the file read.
    std::fs::copy(testdata("clean.pgn"), dir.path().join("clean.pgn")).unwrap();
    let output = pgnkit()
        .args([
            "validate",
            "missing.pgn",
            "clean.pgn",
            "--clean-out",
            "a.pgn",
            "--broken-out",
            "b.pgn",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("pgnkit: cannot open missing.pgn"),
        "{stderr}"
    );
    assert!(stderr.contains("pgnkit: 1 file, 2 games"), "{stderr}");
    let copy = std::fs::read_to_string(dir.path().join("a.pgn")).unwrap();
    assert_eq!(copy.matches("[Event ").count(), 2, "{copy}");
    assert_eq!(std::fs::read(dir.path().join("b.pgn")).unwrap(), b"");
}

// Output that is not what was read (issue 27, items 7 and 11).

/// `convert` left out games that cannot start: a mixed export shrank silently.
#[test]
fn convert_writes_games_that_cannot_start_as_their_original_text() {
    let pgn = concat!(
        "[Event \"Atomic\"]\n[Variant \"Atomic\"]\n[White \"J\u{f6}rg\"]\n[PlyCount \"9\"]\n\n1. e4 e5 2. Nf3 *\n\n",
        "[Event \"Bad\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n",
        "[Event \"Fine\"]\n\n1. d4 *\n",
    );
    // The first game's text in Latin-1: convert writes it decoded, in UTF-8.
    let latin1: Vec<u8> = pgn.chars().map(|c| c as u8).collect();
    let output = pgnkit()
        .args(["convert", "-q", "-"])
        .write_stdin(latin1)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "reported as today");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.starts_with(concat!(
            "[Event \"Atomic\"]\n[Variant \"Atomic\"]\n[White \"J\u{f6}rg\"]\n[PlyCount \"9\"]\n\n1. e4 e5 2. Nf3 *\n\n",
            "[Event \"Bad\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n",
            "[Event \"Fine\"]\n"
        )),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("setup.unsupported-variant") && stderr.contains("setup.invalid-fen"),
        "{stderr}"
    );
    let (_, skipped, _) = convert(pgn, &["--skip-invalid"]);
    assert!(skipped.starts_with("[Event \"Fine\"]\n"), "{skipped}");
}

/// Messages quoted Latin-1 bytes as U+FFFD, though tag values decoded correctly.
#[test]
fn messages_quote_latin1_text_decoded() {
    let found = findings_of_bytes(
        b"[Event \"x\"]\n[Site \"a\" \xe9t\xe9]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a\xe9 *\n",
    );
    let texts: Vec<String> = found
        .iter()
        .flat_map(|f| {
            [
                f["san"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            ]
        })
        .collect();
    assert!(texts.iter().all(|t| !t.contains('\u{fffd}')), "{texts:?}");
    let syntax = found.iter().find(|f| f["code"] == "move.syntax").unwrap();
    assert_eq!(syntax["san"], "a\u{e9}");
    assert!(
        syntax["message"].as_str().unwrap().contains("`a\u{e9}`"),
        "{syntax}"
    );
    let bad_tag = found.iter().find(|f| f["code"] == "input.bad-tag").unwrap();
    assert!(
        bad_tag["message"]
            .as_str()
            .unwrap()
            .contains("\u{e9}t\u{e9}"),
        "{bad_tag}"
    );
}

fn findings_of_bytes(pgn: &[u8]) -> Vec<serde_json::Value> {
    let output = pgnkit()
        .args(["validate", "--format", "jsonl", "-q", "-"])
        .write_stdin(pgn.to_vec())
        .output()
        .unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}
