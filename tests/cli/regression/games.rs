//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

use crate::determinism::same_games_at_any_thread_count;

/// `stats` rows of PGN text on stdin: (game, line, event, result, plies, status).
fn games_of(pgn: &[u8], extra: &[&str]) -> Vec<(u64, u64, String, String, u64, String)> {
    let output = pgnkit()
        .args(["stats", "-q"])
        .args(extra)
        .arg("-")
        .write_stdin(pgn.to_vec())
        .output()
        .unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|row| {
            let cells: Vec<&str> = row.split(',').collect();
            (
                cells[1].parse().unwrap(),
                cells[2].parse().unwrap(),
                cells[3].to_string(),
                cells[12].to_string(),
                cells[13].parse().unwrap(),
                cells[14].to_string(),
            )
        })
        .collect()
}

/// A row of `games_of`, written short.
fn game(
    index: u64,
    line: u64,
    event: &str,
    result: &str,
    plies: u64,
) -> (u64, u64, String, String, u64, String) {
    (
        index,
        line,
        event.to_string(),
        result.to_string(),
        plies,
        "ok".to_string(),
    )
}

/// (code, line, move_line) of every finding at the default level.
fn codes_and_lines(pgn: &str) -> Vec<(String, u64, u64)> {
    findings_of(pgn, &[])
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["move_line"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn movetext_after_a_result_on_the_same_line_is_the_next_game() {
    assert_eq!(
        games_of(b"1. e4 e5 1-0 1. d4 d5 0-1\n", &[]),
        vec![game(1, 1, "", "1-0", 2), game(2, 1, "", "0-1", 2)]
    );
    assert!(findings_of("1. e4 e5 1-0 1. d4 d5 0-1\n", &[]).is_empty());
}

#[test]
fn movetext_after_an_asterisk_on_the_same_line_is_the_next_game() {
    assert_eq!(
        games_of(b"1. e4 e5 * 1. d4 d5 * 1. c4 *", &[]),
        vec![
            game(1, 1, "", "*", 2),
            game(2, 1, "", "*", 2),
            game(3, 1, "", "*", 1),
        ]
    );
}

#[test]
fn convert_writes_games_on_one_line_as_separate_games() {
    let (code, stdout, _) = run(&["convert", "-q", "-"], "1. e4 e5 1-0 1. d4 d5 0-1\n");
    assert_eq!(code, 0);
    assert_eq!(stdout.matches("[Event ").count(), 2, "{stdout}");
    assert!(stdout.contains("\n1. e4 e5 1-0\n"), "{stdout}");
    assert!(stdout.contains("\n1. d4 d5 0-1\n"), "{stdout}");
}

#[test]
fn games_on_one_line_split_alike_at_any_thread_count() {
    same_games_at_any_thread_count(
        b"1. e4 e5 1-0 1. d4 d5 0-1 1. c4 *\n[Event \"x\"] 1. f4 *\n",
        4,
    );
}

#[test]
fn a_tag_pair_glued_to_a_result_starts_the_next_game() {
    // `cat a.pgn b.pgn` where a.pgn lacks its final newline.
    let pgn = b"[Event \"A\"]\n\n1. e4 e5 1-0[Event \"B\"]\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n";
    assert_eq!(
        games_of(pgn, &[]),
        vec![game(1, 1, "A", "1-0", 2), game(2, 3, "B", "0-1", 2)]
    );
    assert!(findings_of(std::str::from_utf8(pgn).unwrap(), &[]).is_empty());
}

#[test]
fn a_tag_pair_after_a_result_on_the_same_line_starts_the_next_game() {
    let pgn = b"1. e4 e5 1-0 [Event \"B\"] 1. d4 d5 0-1\n";
    assert_eq!(
        games_of(pgn, &[]),
        vec![game(1, 1, "", "1-0", 2), game(2, 1, "B", "0-1", 2)]
    );
}

#[test]
fn glued_tag_pairs_split_alike_at_any_thread_count() {
    let unit = b"[Event \"A\"]\n\n1. e4 e5 1-0[Event \"B\"]\n[Site \"b\"]\n\n1. d4 d5 0-1\n";
    let findings = same_games_at_any_thread_count(unit, 2);
    assert!(!findings.contains("move.syntax"), "{findings}");
}

/// One game whose only finding is `input.bad-tag` on `bad_line`, its 4 plies replayed.
fn assert_tag_repaired(pgn: &str, event: &str, bad_line: u64) {
    let found = findings_of(pgn, &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "input.bad-tag");
    assert_eq!(found[0]["severity"], "warning");
    assert_eq!(found[0]["move_line"], found[0]["line"]);
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("line {bad_line}: ")),
        "{message}"
    );
    let games = games_of(pgn.as_bytes(), &[]);
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!((games[0].2.as_str(), games[0].4), (event, 4));
    assert_eq!(games[0].5, "ok");
}

#[test]
fn a_tag_value_ending_in_a_backslash_is_repaired() {
    assert_tag_repaired(
        "[Event \"Ugra Cup \\\"]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        "Ugra Cup \\",
        1,
    );
}

#[test]
fn a_tag_value_missing_its_closing_quote_is_repaired() {
    assert_tag_repaired(
        "[Site \"x\"]\n[Event \"Lille]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        "Lille",
        2,
    );
}

#[test]
fn an_unquoted_tag_value_is_taken_as_it_is() {
    assert_tag_repaired("[Event A]\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n", "A", 1);
}

#[test]
fn a_tag_pair_missing_its_closing_bracket_is_repaired() {
    assert_tag_repaired(
        "[Event \"A\"\n[Site \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        "A",
        1,
    );
}

#[test]
fn forum_wrappers_are_skipped_and_the_games_replayed() {
    let pgn = concat!(
        "[pgn][Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0[/pgn]\n\n",
        "[pgn]\n[Event \"B\"]\n\n1. d4 d5 2. c4 c6 0-1\n[/pgn]\n",
    );
    assert_eq!(
        games_of(pgn.as_bytes(), &[]),
        vec![game(1, 1, "A", "1-0", 4), game(2, 5, "B", "0-1", 4)]
    );
    assert_eq!(
        codes_and_lines(pgn),
        vec![
            ("input.bad-tag".to_string(), 1, 1),
            ("input.bad-tag".to_string(), 1, 1),
            ("input.bad-tag".to_string(), 5, 5),
            ("input.bad-tag".to_string(), 5, 5),
        ]
    );
}

#[test]
fn forum_wrappers_split_alike_at_any_thread_count() {
    let unit =
        b"[pgn][Event \"A\"]\n\n1. e4 e5 1-0[/pgn]\n[pgn]\n[Event \"B\"]\n\n1. d4 *\n[/pgn]\n\n";
    same_games_at_any_thread_count(unit, 2);
}

#[test]
fn two_bad_tag_lines_give_game_level_findings_on_the_game_line() {
    let pgn = "\n[Event \"A\"]\n[White X]\n[Black \"Y]\n\n1. e4 *\n";
    assert_eq!(
        codes_and_lines(pgn),
        vec![
            ("input.bad-tag".to_string(), 2, 2),
            ("input.bad-tag".to_string(), 2, 2),
        ]
    );
    let found = findings_of(pgn, &[]);
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 3: ")
    );
    assert!(
        found[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 4: ")
    );
}

const MAC: &[u8] = b"[Event \"A\"]\r[Site \"a\"]\r\r1. e4 e5 1-0\r\r[Event \"B\"]\r\r1. d4 d5 0-1\r\r[Event \"C\"]\r\r1. c4 *\r";

#[test]
fn cr_only_line_ends_end_lines() {
    assert_eq!(
        games_of(MAC, &[]),
        vec![
            game(1, 1, "A", "1-0", 2),
            game(2, 6, "B", "0-1", 2),
            game(3, 10, "C", "*", 1),
        ]
    );
    // CRLF stays one line end.
    let crlf = b"[Event \"A\"]\r\n\r\n1. e4 e5 1-0\r\n\r\n[Event \"B\"]\r\n\r\n1. d4 *\r\n";
    assert_eq!(
        games_of(crlf, &[]),
        vec![game(1, 1, "A", "1-0", 2), game(2, 5, "B", "*", 1)]
    );
}

#[test]
fn cr_only_files_split_alike_at_any_thread_count() {
    same_games_at_any_thread_count(MAC, 3);
}

#[test]
fn a_comment_line_after_a_result_makes_no_game() {
    let pgn = concat!(
        "; Arena header\n",
        "[Event \"A\"]\n\n1. e4 e5 1-0\n; Game Nr. 117 : Komodo wins by GUI adjudication\n\n",
        "[Event \"B\"]\n\n1. d4 d5 0-1\n; Game Nr. 118\n",
    );
    assert_eq!(
        games_of(pgn.as_bytes(), &[]),
        vec![game(1, 2, "A", "1-0", 2), game(2, 7, "B", "0-1", 2)]
    );
    assert!(findings_of(pgn, &[]).is_empty());
}

#[test]
fn comment_lines_between_games_split_alike_at_any_thread_count() {
    let unit = b"[Event \"A\"]\n\n1. e4 e5 1-0\n; Game Nr. 117\n\n1. d4 *\n; tail\n";
    same_games_at_any_thread_count(unit, 2);
}

#[test]
fn escape_lines_before_a_game_are_not_part_of_it() {
    let pgn = b"% exported by X\n% version 2\n\n[Event \"A\"]\n\n1. e4 *\n";
    assert_eq!(games_of(pgn, &[]), vec![game(1, 4, "A", "*", 1)]);
}

#[test]
fn escape_and_comment_lines_after_a_game_are_not_part_of_it() {
    let pgn = "[Event \"A\"]\n\n1. e4 e5 1-0\n% esc\n; Game Nr. 1\n\n[Event \"B\"]\n\n1. d4 d5 0-1\n% tail\n";
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.pgn");
    let (code, _, _) = run(
        &[
            "validate",
            "-q",
            "--clean-out",
            clean.to_str().unwrap(),
            "-",
        ],
        pgn,
    );
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read_to_string(&clean).unwrap(),
        "[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 0-1\n\n"
    );
}

// Games added, lost or given another game's data (issue 27, items 8-10 and 12).

/// A header-only record before the game: the first values won, so a game that ends
/// `Qh4# 0-1` got `?` for its players and `*` for its result.
#[test]
fn the_last_value_of_a_duplicated_tag_counts() {
    let pgn = concat!(
        "[Event \"Batch 2690\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n",
        "[Event \"Club\"]\n[White \"Anna\"]\n[Black \"Ben\"]\n[Result \"0-1\"]\n\n",
        "1. f3 e5 2. g4 Qh4# 0-1\n",
    );
    let (_, stdout, _) = run(&["stats", "-q", "-"], pgn);
    let rows = rows_of(&stdout);
    assert_eq!(rows.len(), 1, "{stdout}");
    for (column, value) in [
        ("event", "Club"),
        ("white", "Anna"),
        ("black", "Ben"),
        ("result", "0-1"),
        ("result_consistent", "true"),
    ] {
        assert_eq!(rows[0][column], value, "{column}");
    }
    let found = findings_of(pgn, &[]);
    assert!(
        found.iter().all(|f| f["code"] == "tag.duplicate"
            && f["message"].as_str().unwrap().contains("last value")),
        "{found:?}"
    );
    let (_, converted, _) = run(&["convert", "-q", "-"], pgn);
    assert!(converted.starts_with("[Event \"Club\"]\n"), "{converted}");
    assert!(converted.contains("[White \"Anna\"]\n"), "{converted}");
    assert!(converted.contains("[Result \"0-1\"]\n"), "{converted}");
}

/// A DOS end-of-file byte or a stray `0xFF` after the last game became a game of its own
/// (`move.syntax`, exit 1).
#[test]
fn stray_bytes_between_games_make_no_game() {
    let game_a = b"[Event \"A\"]\n\n1. e4 e5 1-0\n".to_vec();
    let game_b = b"[Event \"B\"]\n\n1. d4 d5 0-1\n".to_vec();
    // A lone 0x1A at the very end: not a word.
    for tail in [&b"\x1a"[..], b"\x1a\n", b"\r\n\x1a"] {
        let pgn = [game_a.clone(), tail.to_vec()].concat();
        assert_eq!(
            games_of(&pgn, &[]),
            vec![game(1, 1, "A", "1-0", 2)],
            "{tail:?}"
        );
        let (code, stdout, _) = run_bytes(&["validate", "-q", "--format", "jsonl", "-"], &pgn);
        assert_eq!((code, stdout.as_str()), (0, ""), "{tail:?}");
    }
    // Also after a game cut off before its marker: only `input.truncated` is said.
    let (_, stdout, _) = run_bytes(
        &["validate", "-q", "--format", "jsonl", "-"],
        b"[Event \"A\"]\n\n1. e4 e5\r\n\x1a",
    );
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.contains("input.truncated"), "{stdout}");
    // Inside a game, with moves after it: the warning, and the moves are read.
    let pgn = b"[Event \"A\"]\n\n1. e4\n\x1a\n1... e5 1-0\n";
    assert_eq!(games_of(pgn, &[]), vec![game(1, 1, "A", "1-0", 2)]);
    let (_, stdout, _) = run_bytes(&["validate", "-q", "--format", "jsonl", "-"], pgn);
    assert!(
        stdout.contains("input.stray-bytes") && stdout.contains("line 4: "),
        "{stdout}"
    );
    // Other stray bytes: a warning on the game before them, naming the line.
    let pgn = [
        game_a.clone(),
        b"\xff\n\x01\x02\n\n".to_vec(),
        game_b.clone(),
    ]
    .concat();
    assert_eq!(
        games_of(&pgn, &[]),
        vec![game(1, 1, "A", "1-0", 2), game(2, 7, "B", "0-1", 2)]
    );
    let (code, stdout, _) = run_bytes(&["validate", "-q", "--format", "jsonl", "-"], &pgn);
    assert_eq!(code, 0, "{stdout}");
    let found: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{stdout}");
    assert_eq!(found[0]["code"], "input.stray-bytes");
    assert_eq!(found[0]["game"], 1);
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("line 4: ") && message.contains("to line 5"),
        "{message}"
    );
    // At the start of a file: the warning belongs to the next game.
    let pgn = [b"\xff\n".to_vec(), game_a.clone()].concat();
    assert_eq!(games_of(&pgn, &[]), vec![game(1, 2, "A", "1-0", 2)]);
    let (_, stdout, _) = run_bytes(&["validate", "-q", "--format", "jsonl", "-"], &pgn);
    assert!(
        stdout.contains("input.stray-bytes") && stdout.contains("on line 1"),
        "{stdout}"
    );
    // `select` writes no stray byte, and the split is the same at any thread count.
    let pgn = [
        game_a.clone(),
        b"\xff\n".to_vec(),
        game_b.clone(),
        b"\x1a".to_vec(),
    ]
    .concat();
    let (_, selected, _) = run_bytes(&["select", "-q", "-"], &pgn);
    assert_eq!(
        selected,
        "[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 d5 0-1\n\n"
    );
    let unit = [game_a, b"\xff\n".to_vec(), game_b, b"\x1a\n".to_vec()].concat();
    same_games_at_any_thread_count(&unit, 2);
}

/// `[%~<|> "x"]` was accepted and written back by convert as invalid PGN; in
/// `[Site "Somewhere" %~<|>]` the warning said the quote was missing and the value held
/// the rest of the line.
#[test]
fn a_tag_name_that_is_not_a_name_is_skipped_and_text_after_a_value_is_left_out() {
    let pgn =
        "[Event \"E\"]\n[%~<|> \"x\"]\n[Site \"Somewhere\" %~<|>]\n[1a_B \"ok\"]\n\n1. e4 *\n";
    let found = findings_of(pgn, &[]);
    let messages: Vec<&str> = found
        .iter()
        .map(|f| {
            assert_eq!(f["code"], "input.bad-tag", "{found:?}");
            f["message"].as_str().unwrap()
        })
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("skipped") && messages[0].contains("tag name"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("text follows the closing quote"),
        "{messages:?}"
    );
    let (_, stdout, _) = run(&["stats", "-q", "-"], pgn);
    assert_eq!(rows_of(&stdout)[0]["site"], "Somewhere");
    let (_, converted, _) = run(&["convert", "-q", "-"], pgn);
    assert!(!converted.contains("%~<|>"), "{converted}");
    assert!(converted.contains("[Site \"Somewhere\"]\n"), "{converted}");
    assert!(converted.contains("[1a_B \"ok\"]\n"), "{converted}");
}

/// `select` wrote CR-only line ends as LF, and a file's BOM in front of its first game
/// (so in mid-stream when several BOM files were selected).
#[test]
fn select_keeps_cr_line_ends_and_leaves_the_bom_out() {
    let (_dir, mac) = temp_file("mac.pgn", MAC);
    let output = pgnkit()
        .args(["select", "-q", mac.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        output.stdout,
        b"[Event \"A\"]\r[Site \"a\"]\r\r1. e4 e5 1-0\r\r[Event \"B\"]\r\r1. d4 d5 0-1\r\r[Event \"C\"]\r\r1. c4 *\r\r"
    );
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for name in ["a.pgn", "b.pgn"] {
        let path = dir.path().join(name);
        std::fs::write(&path, b"\xef\xbb\xbf[Event \"A\"]\n\n1. e4 *\n").unwrap();
        paths.push(path.to_str().unwrap().to_string());
    }
    let output = pgnkit()
        .args(["select", "-q"])
        .args(&paths)
        .output()
        .unwrap();
    assert_eq!(
        output.stdout,
        b"[Event \"A\"]\n\n1. e4 *\n\n[Event \"A\"]\n\n1. e4 *\n\n"
    );
}

/// A line holding only `}` (or `)`) after a finished game became a game of its own, with
/// only the warning and a missing roster.
#[test]
fn a_line_of_only_closers_after_a_game_makes_no_game() {
    for (closer, code) in [
        ("}", "input.unbalanced-brace"),
        (")", "input.unbalanced-parenthesis"),
        ("} )", "input.unbalanced-parenthesis"),
    ] {
        let pgn = format!("[Event \"A\"]\n\n1. e4 e5 1-0\n{closer}\n\n[Event \"B\"]\n\n1. d4 *\n");
        assert_eq!(
            games_of(pgn.as_bytes(), &[]),
            vec![game(1, 1, "A", "1-0", 2), game(2, 6, "B", "*", 1)],
            "{closer}"
        );
        let found = findings_of(&pgn, &[]);
        assert_eq!(found.len(), closer.len().div_ceil(2), "{found:?}");
        assert_eq!(found[0]["code"], code, "{found:?}");
        assert_eq!(found[0]["game"], 1, "{found:?}");
        assert!(
            found[0]["message"]
                .as_str()
                .unwrap()
                .starts_with("line 4: "),
            "{found:?}"
        );
        let (_, selected, _) = run_bytes(&["select", "-q", "--count", "-"], pgn.as_bytes());
        assert_eq!(selected.trim(), "2", "{closer}");
        let (_, selected, _) = run_bytes(&["select", "-q", "-"], pgn.as_bytes());
        assert_eq!(
            selected,
            "[Event \"A\"]\n\n1. e4 e5 1-0\n\n[Event \"B\"]\n\n1. d4 *\n\n"
        );
    }
    let unit = b"[Event \"A\"]\n\n1. e4 e5 1-0\n}\n)\n\n[Event \"B\"]\n\n1. d4 *\n";
    same_games_at_any_thread_count(unit, 2);
}

/// `1-0` with a DOS end-of-file byte glued to it at the very end was a word
/// (`move.syntax`), and the game `input.truncated`.
#[test]
fn a_dos_end_of_file_byte_glued_to_the_last_marker_is_skipped() {
    let game_a = b"[Event \"A\"]\n\n1. e4 e5 1-0".to_vec();
    for tail in [&b"\x1a"[..], b"\x1a\r\n", b"\x1a\x1a\n"] {
        let pgn = [game_a.clone(), tail.to_vec()].concat();
        assert_eq!(
            games_of(&pgn, &[]),
            vec![game(1, 1, "A", "1-0", 2)],
            "{tail:?}"
        );
        let (code, stdout, _) = run_bytes(&["validate", "-q", "--format", "jsonl", "-"], &pgn);
        assert_eq!((code, stdout.as_str()), (0, ""), "{tail:?}");
    }
    // Not at the end: the marker is read, and the byte is stray (a warning).
    let pgn = [game_a.clone(), b"\x1a\n1. d4 *\n".to_vec()].concat();
    assert_eq!(
        games_of(&pgn, &[]),
        vec![game(1, 1, "A", "1-0", 2), game(2, 4, "", "*", 1)]
    );
    let found = findings_of(std::str::from_utf8(&pgn).unwrap(), &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "input.stray-bytes", "{found:?}");
    assert_eq!(found[0]["game"], 1, "{found:?}");
    // Inside movetext, with a move after it: a warning too, and the move is read.
    let found = findings_of("1. e4 \u{1a} e5 *\n", &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "input.stray-bytes", "{found:?}");
    assert_eq!(
        games_of(b"1. e4 \x1a e5 *\n", &[]),
        vec![game(1, 1, "", "*", 2)]
    );
}

/// A tag name may start with a digit (`input.bad-tag`), but only a letter made a line a
/// tag line where game boundaries are decided: `[2nd "x"]` after an unterminated comment
/// stayed in the comment, and the next game started a line later.
#[test]
fn a_tag_line_whose_name_starts_with_a_digit_starts_a_game() {
    let pgn = b"[Event \"A\"]\n\n1. e4 { open comment\n[2nd \"x\"]\n[Event \"B\"]\n\n1. d4 *\n";
    let rows = games_of(pgn, &[]);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert_eq!((rows[1].0, rows[1].1, rows[1].2.as_str()), (2, 4, "B"));
    let (_, selected, _) = run_bytes(&["select", "-q", "--where", "event == \"B\"", "-"], pgn);
    assert!(selected.starts_with("[2nd \"x\"]\n"), "{selected}");
    // The same cut at any thread count, where a chunk may start at such a line.
    let unit =
        b"[1st \"a\"]\n[Event \"A\"]\n\n1. e4 e5 1-0\n\n[2nd \"b\"]\n[Event \"B\"]\n\n1. d4 *\n\n";
    same_games_at_any_thread_count(unit, 2);
}

// Issue 42, items 6, 10 and 11: tag lines repaired where they stand.

/// The (game, code, message) of every finding of `validate` on the issue 42 fixture `name`.
fn trust_findings(name: &str) -> Vec<(u64, String, String)> {
    let path = testdata(&format!("trust/{name}"));
    let (_, stdout, stderr) = run_args(&[
        "validate",
        "--format",
        "jsonl",
        "--quiet",
        path.to_str().unwrap(),
    ]);
    assert!(!stdout.is_empty(), "{stderr}");
    stdout
        .lines()
        .map(|line| {
            let f: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                f["game"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// `stats --tags Annotator` of the issue 42 fixture `name`, as rows.
fn trust_rows(name: &str) -> Vec<Row> {
    let path = testdata(&format!("trust/{name}"));
    let (_, stdout, _) = run_args(&[
        "stats",
        "--quiet",
        "--tags",
        "Annotator",
        path.to_str().unwrap(),
    ]);
    rows_of(&stdout)
}

#[test]
fn a_tag_line_without_its_bracket_or_with_text_after_it_stays_in_its_game() {
    // By hand: lines 1 to 7 are one tag section (line 1 has `Round 1` after its `]`,
    // line 4 lacks its `[`), so the file holds two games, not four: Euwe-Alekhine with
    // Round 1 and 2 plies, and the one-line game after it, whose moves follow a `]` too.
    let found = trust_findings("tag_lines.pgn");
    assert_eq!(
        found,
        [
            (
                1,
                "input.bad-tag".to_string(),
                "line 1: text after the closing bracket of a tag line, inside the tag section, skipped"
                    .to_string()
            ),
            (
                1,
                "input.bad-tag".to_string(),
                "line 4: tag line `Round \"1\"]` repaired: the opening bracket is missing"
                    .to_string()
            ),
        ]
    );
    let rows = trust_rows("tag_lines.pgn");
    let cells: Vec<[&str; 4]> = rows
        .iter()
        .map(|r| [&*r["white"], &*r["round"], &*r["plies"], &*r["status"]])
        .collect();
    assert_eq!(cells, [["Euwe, Max", "1", "2", "ok"], ["", "", "2", "ok"]]);
    // The chunks cut for the workers never part a tag section at a line without its `[`.
    let unit = std::fs::read(testdata("trust/tag_lines.pgn")).unwrap();
    same_games_at_any_thread_count(&[unit.as_slice(), b"\n"].concat(), 2);
}

#[test]
fn a_tag_section_cut_off_at_the_end_names_the_line_where_the_input_ends() {
    // By hand: the second game's tags are lines 6 to 8, and the file ends after line 8.
    let found = trust_findings("truncated_header.pgn");
    assert_eq!(
        found,
        [(
            2,
            "input.truncated".to_string(),
            "line 8: the input ends inside this game (no termination marker)".to_string()
        )]
    );
}

#[test]
fn a_repaired_tag_keeps_no_stray_quote() {
    // By hand: `[Event "Groningen"|` is Groningen, `[Site Groningen NED"]` Groningen NED,
    // as `[Annotator "Somewhere" |]` is Somewhere; each is one input.bad-tag.
    let found = trust_findings("stray_quotes.pgn");
    let lines: Vec<&str> = found.iter().map(|f| &f.2[..7]).collect();
    assert_eq!(lines, ["line 1:", "line 2:", "line 3:"]);
    assert!(found.iter().all(|f| f.1 == "input.bad-tag"), "{found:?}");
    assert!(
        found[1].2.ends_with("the opening quote is missing"),
        "{found:?}"
    );
    let rows = trust_rows("stray_quotes.pgn");
    let cells: Vec<[&str; 3]> = rows
        .iter()
        .map(|r| [&*r["event"], &*r["site"], &*r["Annotator"]])
        .collect();
    assert_eq!(cells, [["Groningen", "Groningen NED", "Somewhere"]]);
}
