//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

const ESC: char = '\u{1b}';

/// Whether `text` holds a control character a terminal would act on (tab and newline
/// aside: they end lines here).
fn has_raw_controls(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\t' && c != '\n')
}

// Human-readable output: control characters from the data are written visibly.

#[test]
fn tag_value_with_esc_is_escaped_in_the_indented_lines_of_a_finding() {
    let pgn = "[White \"Evil\u{1b}[2J\u{1b}]0;owned\u{7}\"]\n[Black \"B\u{9b}31m\"]\n\n1. e4 e5 2. Ke3 *\n";
    let (code, stdout, _) = run(&["validate", "--quiet", "--verbose"], pgn);
    assert_eq!(code, 1);
    assert!(!has_raw_controls(&stdout), "{stdout:?}");
    assert!(
        stdout
            .contains("    game: Evil\\x1b[2J\\x1b]0;owned\\x07 \u{2013} B\\u{9b}31m, ?, round ?"),
        "{stdout}"
    );
}

#[test]
fn move_token_with_esc_is_escaped_in_a_text_finding() {
    // `[` ends a token (a tag pair may follow a result on its line), so the attack here is
    // ESC c (reset the terminal), whole inside one token.
    let (code, stdout, _) = run(&["validate", "--quiet"], "1. e4 e5 2. K\u{1b}ce3 *\n");
    assert_eq!(code, 1);
    assert!(!has_raw_controls(&stdout), "{stdout:?}");
    assert!(
        stdout.starts_with("-:1: game 1, 2. K\\x1bce3: error[move.syntax]: `K\\x1bce3`"),
        "{stdout}"
    );
}

#[test]
fn file_name_with_esc_is_escaped_in_a_finding_line() {
    let (_dir, path) = temp_file("a\u{1b}]52;c;b3duZWQ=\u{7}.pgn", b"1. e4 e5 2. Ke3 *\n");
    let (_, stdout, _) = run_args(&["validate", "--quiet", path.to_str().unwrap()]);
    assert!(!has_raw_controls(&stdout), "{stdout:?}");
    assert!(
        stdout.contains("a\\x1b]52;c;b3duZWQ=\\x07.pgn:1: game 1, 2. Ke3: error[move.illegal]"),
        "{stdout}"
    );
}

#[test]
fn file_name_with_a_newline_does_not_split_a_finding_line() {
    let (_dir, path) = temp_file("two\nlines.pgn", b"1. e4 e5 2. Ke3 *\n");
    let (_, stdout, _) = run_args(&["validate", "--quiet", path.to_str().unwrap()]);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("two\\x0alines.pgn:1: game 1"), "{stdout}");
}

#[test]
fn file_name_with_esc_or_a_newline_is_escaped_in_error_messages() {
    // A file that cannot be opened (the listing of inputs reports it).
    let (code, _, stderr) = run_args(&["validate", "--quiet", "no\u{1b}[2Jsuch\nfile.pgn"]);
    assert_eq!(code, 2);
    assert!(!has_raw_controls(&stderr), "{stderr:?}");
    assert!(
        stderr.contains("pgnkit: cannot open no\\x1b[2Jsuch\\x0afile.pgn: "),
        "{stderr}"
    );
    // A file that opens but cannot be read (the pipeline reports it).
    let (_dir, path) = temp_file("z\u{1b}[2J\n.pgn", b"PK\x03\x04rest of a zip");
    let (code, _, stderr) = run_args(&["stats", "--quiet", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(!has_raw_controls(&stderr), "{stderr:?}");
    assert!(
        stderr.contains("z\\x1b[2J\\x0a.pgn: a zip archive"),
        "{stderr}"
    );
    // A fatal error naming a file (an unreadable --merge input).
    let (_dir, path) = temp_file("m\u{1b}[2J.csv", b"not,a,summary\n");
    let (code, _, stderr) = run_args(&["stats", "--merge", path.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(!has_raw_controls(&stderr), "{stderr:?}");
    assert!(stderr.contains("m\\x1b[2J.csv"), "{stderr}");
}

#[test]
fn error_findings_of_convert_and_fen_on_stderr_are_escaped() {
    for command in ["convert", "fen"] {
        let (_, _, stderr) = run(&[command, "--quiet"], "1. e4 e5 2. K\u{1b}ce3 *\n");
        assert!(!has_raw_controls(&stderr), "{command}: {stderr:?}");
        assert!(stderr.contains("K\\x1bce3"), "{command}: {stderr}");
    }
}

#[test]
fn check_fen_and_pgn_text_escape_the_position_given() {
    let (code, stdout, _) = run_args(&["check-fen", "8/8\u{1b}[2J/8 w - - 0 1"]);
    assert_eq!(code, 1);
    assert!(!has_raw_controls(&stdout), "{stdout:?}");
    assert!(
        stdout.starts_with("8/8\\x1b[2J/8 w - - 0 1: error[fen.syntax]"),
        "{stdout}"
    );
    let (_, _, stderr) = run_args(&["pgn", "bad\u{1b}[2J\u{7}"]);
    assert!(!has_raw_controls(&stderr), "{stderr:?}");
    assert!(stderr.contains("`bad\\x1b[2J\\x07`"), "{stderr}");
}

#[test]
fn perft_suite_lines_and_summary_escape_ids_and_file_names() {
    let suite = b"id x\x1b[2Jy\nepd 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nperft 1 4\n";
    let (_dir, path) = temp_file("s\u{1b}[2J.perft", suite);
    let (code, stdout, stderr) = run_args(&["perft", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(!has_raw_controls(&stdout), "{stdout:?}");
    assert!(!has_raw_controls(&stderr), "{stderr:?}");
    assert!(stdout.contains("x\\x1b[2Jy"), "{stdout}");
    assert!(stderr.contains("s\\x1b[2J.perft: 1 positions"), "{stderr}");
}

#[test]
fn stats_summary_table_escapes_its_keys() {
    let (_dir, path) = temp_file("m.csv", b"section,key,count\nresult,x\x1b[2Jy,3\n");
    let (code, stdout, stderr) =
        run_args(&["stats", "--merge", "--summary", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!has_raw_controls(&stderr), "{stderr:?}");
    assert!(stderr.contains("  x\\x1b[2Jy  "), "{stderr}");
    // The merged CSV is data: kept exact.
    assert!(stdout.contains("result,x\u{1b}[2Jy,3"), "{stdout}");
}

#[test]
fn report_html_holds_no_raw_control_characters() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.html");
    let pgn = "[White \"W\u{1b}[2J\"]\n[Event \"E\u{9b}\u{7}\"]\n\n1. e4 e5 2. K\u{1b}e3 *\n";
    let (_, _, stderr) = run(
        &["report", "--quiet", "-o", out.to_str().unwrap(), "-"],
        pgn,
    );
    let html = std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert!(
        !has_raw_controls(&html),
        "a raw control character in the report"
    );
    assert!(html.contains("W\\x1b[2J"), "the tag value is shown visibly");
    assert!(
        html.contains("E\\u{9b}\\x07"),
        "the C1 character is shown visibly"
    );
}

// Machine formats keep the data exact.

#[test]
fn jsonl_csv_and_convert_keep_the_raw_bytes() {
    let pgn = "[White \"W\u{1b}[2J\u{9b}\"]\n\n1. e4 e5 2. K\u{1b}e3 *\n";
    let (_, jsonl, _) = run(&["validate", "--quiet", "--format", "jsonl"], pgn);
    let record: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(record["white"], "W\u{1b}[2J\u{9b}");
    assert_eq!(record["san"], "K\u{1b}e3");
    let (_, csv, _) = run(&["validate", "--quiet", "--format", "csv"], pgn);
    assert!(csv.contains(",W\u{1b}[2J\u{9b},"), "{csv:?}");
    assert!(csv.contains(",K\u{1b}e3,"), "{csv:?}");
    let (_, converted, _) = run(&["convert", "--quiet"], pgn);
    assert!(
        converted.contains("[White \"W\u{1b}[2J\u{9b}\"]"),
        "{converted:?}"
    );
    assert!(converted.contains(&format!("K{ESC}e3")), "{converted:?}");
}

// Archives pgnkit does not read are recognised by their magic bytes.

fn refused(name: &str, bytes: &[u8], hint: &str) {
    let (_dir, path) = temp_file(name, bytes);
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) = run_args(&["validate", "--quiet", path]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(stdout, "", "no game is read from it");
    assert!(
        stderr.contains(&format!("pgnkit: cannot open {path}: {hint}")),
        "{stderr}"
    );
    // Piped in, it is recognised too.
    let output = pgnkit()
        .args(["validate", "--quiet", "-"])
        .write_stdin(bytes.to_vec())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot open -: "));
}

#[test]
fn zip_archive_is_refused_with_how_to_extract_it() {
    refused(
        "games.zip",
        b"PK\x03\x04\x14\x00\x00\x00\x08\x00rest of a zip archive",
        "a zip archive: extract it first, e.g. `unzip -p",
    );
}

#[test]
fn xz_file_is_refused_with_how_to_decompress_it() {
    refused(
        "games.pgn.xz",
        b"\xfd7zXZ\x00\x00\x04\xe6\xd6\xb4\x46rest of an xz stream",
        "an xz file: decompress it first, e.g. `xz -dc",
    );
}

#[test]
fn seven_zip_archive_is_refused_with_how_to_extract_it() {
    refused(
        "games.7z",
        b"7z\xbc\xaf\x27\x1c\x00\x04rest of a 7z archive",
        "a 7z archive: extract it first, e.g. `7z x -so",
    );
}

#[test]
fn rar_archive_is_refused_with_how_to_extract_it() {
    refused(
        "games.rar",
        b"Rar!\x1a\x07\x01\x00rest of a rar archive",
        "a rar archive: extract it first, e.g. `unrar p",
    );
}
