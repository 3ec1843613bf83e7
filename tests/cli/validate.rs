//! `pgnkit validate`: codes, formats, levels, inputs, the text output with its diagrams, and
//! the split into clean and broken games. Why a move is illegal: `diagnosis`.

mod diagnosis;

use std::fs;

use crate::util::*;

fn path(name: &str) -> String {
    testdata(name).to_str().unwrap().to_string()
}

/// (game, code, ply, move, move_line) of each finding of a fixture at `--level info`,
/// leaving out the tag checks (the fixtures are deliberately short of tags).
fn findings_in(name: &str) -> Vec<(u64, String, u64, String, u64)> {
    let (_, stdout, _) = run_args(&[
        "validate",
        "--format",
        "jsonl",
        "--level",
        "info",
        "-q",
        &path(name),
    ]);
    stdout
        .lines()
        .map(|line| {
            let f: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                f["game"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["ply"].as_u64().unwrap(),
                f["move"].as_str().unwrap().to_string(),
                f["move_line"].as_u64().unwrap(),
            )
        })
        .filter(|f| !f.1.starts_with("tag."))
        .collect()
}

#[test]
fn clean_game_has_no_findings_and_exits_0() {
    let (code, stdout, stderr) = run_args(&["validate", &path("clean.pgn")]);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("pgnkit: 1 file, 2 games, 37 plies, 0 errors, 0 warnings in "),
        "{stderr}"
    );
}

#[test]
fn move_codes_name_the_game_ply_move_and_line() {
    let found = findings_in("validate/codes.pgn");
    let errors: Vec<_> = found
        .iter()
        .filter(|f| f.1 != "san.check-suffix")
        .cloned()
        .collect();
    assert_eq!(
        errors,
        vec![
            (1, "move.illegal".into(), 3, "2. Ke3".into(), 6),
            (3, "move.ambiguous".into(), 7, "4. Nb5".into(), 20),
            (4, "move.syntax".into(), 6, "3... Qxz9".into(), 28),
            (5, "move.illegal".into(), 2, "1... --".into(), 35),
        ]
    );
}

#[test]
fn messages_explain_ambiguity_null_moves_and_dropped_tokens() {
    let (code, stdout, _) = run_args(&["validate", "-q", &path("validate/codes.pgn")]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains(
            "game 3, 4. Nb5: error[move.ambiguous]: Nb5 matches 2 legal moves: Ncb5 (the knight on c3), Ndb5 (the knight on d4)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 4, 3... Qxz9: error[move.syntax]: `Qxz9` is not a move"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 5, 1... --: error[move.illegal]: a null move"),
        "{stdout}"
    );
    // The replay of game 4 stops at the dropped token: nothing is reported after it.
    assert!(!stdout.contains("4. d3"), "{stdout}");
}

#[test]
fn text_lines_are_compiler_style() {
    let (_, stdout, _) = run_args(&["validate", "-q", &path("validate/codes.pgn")]);
    let first = stdout.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "{}:6: game 1, 2. Ke3: error[move.illegal]: the king on e1 cannot move to e3",
            path("validate/codes.pgn")
        )
    );
}

#[test]
fn setup_codes_name_every_defect() {
    let (code, stdout, _) = run_args(&[
        "validate",
        "-q",
        "--format",
        "jsonl",
        &path("validate/setup.pgn"),
    ]);
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[0]["code"], "setup.invalid-fen");
    let message = lines[0]["message"].as_str().unwrap();
    assert!(message.contains("more than one king"), "{message}");
    assert!(
        message.contains("pawns stand on the first or last rank"),
        "{message}"
    );
    assert_eq!(lines[1]["code"], "setup.invalid-fen");
    assert!(
        lines[1]["message"]
            .as_str()
            .unwrap()
            .contains("does not parse")
    );
    assert_eq!(lines[2]["code"], "setup.unsupported-variant");
    assert_eq!(lines[2]["game"], 3);
    assert!(lines[2]["message"].as_str().unwrap().contains("Crazyhouse"));
    // Game 4 (`Chess 960` with a Shredder-FEN) replays without a finding.
    assert!(lines.iter().all(|l| l["game"] != 4));
}

#[test]
fn result_mismatch_follows_the_spec() {
    let found = findings_in("validate/results.pgn");
    let mismatches: Vec<u64> = found
        .iter()
        .filter(|f| f.1 == "result.mismatch")
        .map(|f| f.0)
        .collect();
    // 1: tag and marker differ; 2: mate recorded as a draw; 3: a win for the mated side;
    // 4: stalemate recorded as a win; 6: no tag, the marker is R. 5 (`*`) never contradicts.
    assert_eq!(mismatches, vec![1, 2, 3, 4, 6]);
    let (_, stdout, _) = run_args(&["validate", "-q", &path("validate/results.pgn")]);
    assert!(
        stdout.contains("the Result tag says 1-0 but the movetext ends with 0-1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("recorded as 1-0 but the final position is a stalemate"),
        "{stdout}"
    );
}

#[test]
fn input_codes_keep_the_run_going() {
    let found = findings_in("validate/input.pgn");
    let codes: Vec<(u64, &str, u64)> = found.iter().map(|f| (f.0, f.1.as_str(), f.4)).collect();
    assert_eq!(
        codes,
        vec![
            // Game-level findings: `move_line` is the game's line.
            (1, "input.unescaped-quote", 1),
            // The bad tag line is repaired and the moves replayed, up to `g`.
            (2, "input.bad-tag", 8),
            (2, "move.syntax", 9),
            (3, "input.unterminated-comment", 12),
            (4, "input.truncated", 18),
        ]
    );
    let (code, stdout, stderr) =
        run_args(&["validate", "--format", "csv", &path("validate/input.pgn")]);
    assert_eq!(code, 1, "a move that cannot be read is an error");
    assert!(stderr.contains("4 games"), "{stderr}");
    // The repaired tag keeps its inner quotes.
    assert!(stdout.contains(r#","""Socrates Expert""","#), "{stdout}");
}

#[test]
fn utf16_input_is_an_unsupported_encoding() {
    let text = "[Event \"x\"]\n\n1. e4 *\n";
    let mut bytes = vec![0xff, 0xfe];
    for unit in text.encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let (_dir, file) = temp_file("wide.pgn", &bytes);
    let (code, stdout, stderr) = run_args(&["validate", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("error[input.unsupported-encoding]"),
        "{stdout}"
    );
    assert!(stderr.contains("1 game"), "{stderr}");
}

#[test]
fn deep_variations_exceed_a_limit_and_keep_earlier_moves() {
    let pgn = format!(
        "[Event \"deep\"]\n\n1. e4 e5 {}2. Nf3{} *\n\n[Event \"next\"]\n\n1. d4 *\n",
        "( 1... c5 ".repeat(300),
        ")".repeat(300)
    );
    let found = findings_of(&pgn, &[]);
    assert_eq!(
        codes_of(&found),
        vec![("input.limit-exceeded".to_string(), 2)]
    );
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("nested deeper than 256")
    );
    let (_, _, stderr) = run(&["validate"], &pgn);
    assert!(
        stderr.contains("2 games, 3 plies"),
        "the moves before the limit are kept: {stderr}"
    );
}

#[test]
fn jsonl_keys_come_in_spec_order() {
    let (_, stdout, _) = run_args(&[
        "validate",
        "-q",
        "--format",
        "jsonl",
        &path("validate/codes.pgn"),
    ]);
    let first = stdout.lines().next().unwrap();
    let keys: Vec<&str> = first
        .trim_matches(|c| c == '{' || c == '}')
        .split(",\"")
        .map(|kv| kv.trim_start_matches('"').split('"').next().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "file",
            "game",
            "line",
            "white",
            "black",
            "ply",
            "move",
            "san",
            "severity",
            "code",
            "message",
            "fen",
            "move_line"
        ]
    );
    let value: serde_json::Value = serde_json::from_str(first).unwrap();
    assert_eq!(
        value["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
    );
    assert_eq!(value["san"], "Ke3");
    assert_eq!(value["white"], "A");
}

#[test]
fn csv_has_the_spec_header_even_without_findings() {
    let (code, stdout, _) = run_args(&["validate", "-q", "--format", "csv", &path("clean.pgn")]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "file,game,line,white,black,ply,move,san,severity,code,message,fen,move_line\n"
    );
}

#[test]
fn level_filters_what_is_shown() {
    let (_, errors_only, _) = run_args(&[
        "validate",
        "-q",
        "--level",
        "error",
        &path("validate/results.pgn"),
    ]);
    assert_eq!(errors_only, "");
    let scholar = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 1-0\n";
    let (code, warnings, _) = run(&["validate", "-q"], scholar);
    assert_eq!((code, warnings.as_str()), (0, ""));
    let (_, info, _) = run(&["validate", "-q", "--level", "info"], scholar);
    assert_eq!(
        info,
        "-:9: game 1, 4. Qxf7: info[san.check-suffix]: written with no suffix but the move calls for `#`\n"
    );
}

#[test]
fn a_folder_contributes_its_game_files_in_path_order() {
    let (code, stdout, stderr) = run_args(&["validate", &path("validate/folder")]);
    assert_eq!(code, 1);
    // a.pgn (2 clean games) and sub/b.PGN (5 games); notes.txt and .hidden/ are skipped.
    assert!(stderr.contains("2 files, 7 games"), "{stderr}");
    assert!(
        stdout.starts_with(&format!("{}:", path("validate/folder/sub/b.PGN"))),
        "{stdout}"
    );
}

#[test]
fn stdin_is_read_when_no_input_or_dash_is_given() {
    let pgn = fs::read_to_string(testdata("validate/codes.pgn")).unwrap();
    let (code, stdout, stderr) = run(&["validate"], &pgn);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with("-:6: game 1, 2. Ke3: error[move.illegal]"),
        "{stdout}"
    );
    assert!(stderr.contains("1 file, 5 games"), "{stderr}");
    let (_, dash, _) = run(&["validate", "-"], &pgn);
    assert_eq!(dash, stdout);
}

#[test]
fn compressed_inputs_give_identical_findings() {
    let plain = findings_in("validate/compressed/games.pgn");
    assert_eq!(plain.len(), 4);
    for name in [
        "games.pgn.gz",
        "multi.pgn.gz",
        "games.pgn.zst",
        "games.pgn.bz2",
    ] {
        assert_eq!(
            findings_in(&format!("validate/compressed/{name}")),
            plain,
            "{name}"
        );
    }
    // Magic bytes, not names, decide: compressed data on stdin works too.
    let gz = fs::read(testdata("validate/compressed/games.pgn.zst")).unwrap();
    let output = pgnkit()
        .args(["validate", "-q"])
        .write_stdin(gz)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("-:6: game 1, 2. Ke3"));
}

#[test]
fn a_missing_file_is_reported_and_the_others_still_run() {
    let (code, stdout, stderr) = run_args(&[
        "validate",
        &path("clean.pgn"),
        &path("validate/no-such-file.pgn"),
        &path("validate/codes.pgn"),
    ]);
    assert_eq!(code, 2, "an I/O error wins over findings");
    assert!(
        stderr.contains(&format!(
            "pgnkit: cannot open {}: ",
            path("validate/no-such-file.pgn")
        )),
        "{stderr}"
    );
    assert!(
        stdout.contains("error[move.illegal]"),
        "the later file is still validated: {stdout}"
    );
    assert!(stderr.contains("2 files, 7 games"), "{stderr}");
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("findings.csv");
    let (code, stdout, _) = run_args(&[
        "validate",
        "-q",
        "--format",
        "csv",
        "-o",
        out.to_str().unwrap(),
        &path("validate/codes.pgn"),
    ]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    let written = fs::read_to_string(&out).unwrap();
    assert_eq!(written.lines().count(), 5, "{written}");
    // Only the final file is left behind, no temporary one.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn shard_selects_games_by_global_index() {
    let file = path("validate/codes.pgn");
    let (_, all, _) = run_args(&["validate", "-q", "--format", "jsonl", &file]);
    let (_, even, _) = run_args(&[
        "validate", "-q", "--format", "jsonl", "--shard", "0/2", &file,
    ]);
    let (_, odd, _) = run_args(&[
        "validate", "-q", "--format", "jsonl", "--shard", "1/2", &file,
    ]);
    let games = |text: &str| -> Vec<u64> {
        text.lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(games(&even), vec![1, 3, 5]);
    assert_eq!(games(&odd), vec![4]);
    assert_eq!(games(&all), vec![1, 3, 4, 5]);
    let (code, _, stderr) = run_args(&["validate", "--shard", "2/2", &file]);
    assert_eq!(code, 2);
    assert!(stderr.contains("K must be below N"), "{stderr}");
}

/// Text findings of `validate` on a fixture with extra flags (summary line left out).
fn text_of(name: &str, extra: &[&str]) -> String {
    let file = path(name);
    let mut args = vec!["validate", "-q", file.as_str()];
    args.extend_from_slice(extra);
    let (_, stdout, stderr) = run_args(&args);
    assert!(!stderr.contains("error:"), "{stderr}");
    stdout
}

#[test]
fn compact_prints_one_line_per_finding() {
    let compact = text_of("validate/codes.pgn", &["--compact"]);
    assert_eq!(compact.lines().count(), 4, "{compact}");
    assert!(
        compact.lines().all(|line| line.contains("]: ")),
        "{compact}"
    );
    assert!(!compact.contains("why:"));
}

#[test]
fn verbose_explains_every_finding_and_board_explains_each_code_once() {
    // Games 1 and 5 are both `move.illegal`.
    let verbose = text_of("validate/codes.pgn", &["--verbose"]);
    assert_eq!(verbose.matches("    game: ").count(), 4, "{verbose}");
    assert_eq!(
        verbose.matches("    why:  No legal move").count(),
        2,
        "{verbose}"
    );
    let board = text_of("validate/codes.pgn", &["--board"]);
    assert_eq!(board.matches("    game: ").count(), 4, "{board}");
    assert_eq!(
        board.matches("    why:  No legal move").count(),
        1,
        "{board}"
    );
    assert_eq!(board.matches("    why:  ").count(), 3, "{board}");
}

#[test]
fn select_and_ignore_pick_codes_by_prefix() {
    let file = path("validate/codes.pgn");
    let codes = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["validate", "-q", "--format", "jsonl", file.as_str()];
        args.extend_from_slice(extra);
        let (_, stdout, _) = run_args(&args);
        stdout
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["code"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(
        codes(&[]),
        [
            "move.illegal",
            "move.ambiguous",
            "move.syntax",
            "move.illegal"
        ]
    );
    assert_eq!(
        codes(&["--select", "move.ill"]),
        ["move.illegal", "move.illegal"]
    );
    assert_eq!(
        codes(&["--select", "move.", "--ignore", "move.illegal,move.syntax"]),
        ["move.ambiguous"]
    );
    assert_eq!(codes(&["--ignore", "move."]), Vec::<String>::new());
    // What is not reported does not fail the run.
    let (code, _, _) = run_args(&["validate", "-q", "--ignore", "move.", file.as_str()]);
    assert_eq!(code, 0);
}

#[test]
fn select_of_a_code_that_does_not_exist_is_refused() {
    let file = path("validate/codes.pgn");
    let (code, _, stderr) = run_args(&["validate", "-q", "--select", "mvoe.", file.as_str()]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--select mvoe.: no finding code starts so"),
        "{stderr}"
    );
}

#[test]
fn game_file_n_picks_the_game_a_finding_names_in_a_folder() {
    let (dir, _) = temp_file("a.pgn", b"1. e4 e5 *\n\n1. e4 e5 2. Ke3 *\n");
    std::fs::write(
        dir.path().join("b.pgn"),
        b"1. d4 d5 *\n\n1. d4 d5 2. Kd3 *\n",
    )
    .unwrap();
    let folder = dir.path().to_str().unwrap().to_string();
    let (_, all, _) = run_args(&["validate", "-q", &folder]);
    // The finding of b.pgn names it `game 2`, its own file's numbering ...
    let line = all.lines().find(|l| l.contains("b.pgn")).unwrap();
    assert!(
        line.contains(": game 2, 2. Kd3: error[move.illegal]"),
        "{all}"
    );
    let file = line.split(':').next().unwrap().to_string();
    // ... and `--game FILE:2` picks exactly that game.
    let pick = format!("{file}:2");
    let (code, one, stderr) = run_args(&["validate", "-q", &folder, "--game", &pick]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(one, format!("{line}\n"));
    // `--game 2` still counts over the whole input (the second game of a.pgn).
    let (_, second, _) = run_args(&["validate", "-q", &folder, "--game", "2"]);
    assert!(second.contains("a.pgn:3: game 2, 2. Ke3"), "{second}");
    let (code, _, stderr) = run_args(&["validate", "-q", &folder, "--game", "c.pgn:1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no input file is named so"), "{stderr}");
}

#[test]
fn unknown_elo_written_as_the_standard_says_is_not_a_bad_value() {
    let pgn =
        "[WhiteElo \"?\"]\n[BlackElo \"-\"]\n\n1. e4 e5 *\n\n[WhiteElo \"21OO\"]\n\n1. e4 e5 *\n";
    let bad: Vec<u64> = findings_of(pgn, &["--level", "info"])
        .iter()
        .filter(|f| f["code"] == "tag.bad-value")
        .map(|f| f["game"].as_u64().unwrap())
        .collect();
    assert_eq!(bad, [2]);
}

#[test]
fn board_of_a_game_level_finding_is_the_final_position() {
    // White is checkmated, the result says White won: `result.mismatch`, no move.
    let (_, out, _) = run(&["validate", "-q", "--board"], "1. f3 e5 2. g4 Qh4# 1-0\n");
    assert!(out.contains("warning[result.mismatch]"), "{out}");
    assert!(out.contains("    final position:\n"), "{out}");
    assert!(out.contains("    4  .  .  .  .  .  .  P  q"), "{out}");
}

#[test]
fn en_passant_window_closed_board_does_not_ring_the_own_king() {
    let out = text_of("diagnosis/en_passant.pgn", &["--board", "--game", "2"]);
    assert!(out.contains("error[en-passant.window-closed]"), "{out}");
    assert!(out.contains("    1  R  .  B  Q  K  B  N  R"), "{out}");
    assert!(!out.contains("*K*"), "{out}");
}

fn event() -> String {
    testdata("ux/event.pgn").to_str().unwrap().to_string()
}

/// The fixture's games as written, each with the blank line that ends it.
fn fixture_games() -> Vec<String> {
    let text = std::fs::read_to_string(testdata("ux/event.pgn")).unwrap();
    text.split("\n\n[Event")
        .enumerate()
        .map(|(i, part)| {
            let part = part.trim_end();
            if i == 0 {
                format!("{part}\n\n")
            } else {
                format!("[Event{part}\n\n")
            }
        })
        .collect()
}

#[test]
fn clean_out_and_broken_out_split_the_games_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.pgn");
    let broken = dir.path().join("broken.pgn");
    let (code, stdout, stderr) = run_args(&[
        "validate",
        "-q",
        &event(),
        "--clean-out",
        clean.to_str().unwrap(),
        "--broken-out",
        broken.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout.lines().count(),
        3,
        "findings still printed: {stdout}"
    );
    let games = fixture_games();
    assert_eq!(games.len(), 4);
    // Games 2 and 3 have errors; game 4 only a warning, so it is clean.
    assert_eq!(
        std::fs::read_to_string(&clean).unwrap(),
        format!("{}{}", games[0], games[3])
    );
    assert_eq!(
        std::fs::read_to_string(&broken).unwrap(),
        format!("{}{}", games[1], games[2])
    );
    // The clean part validates without error; the broken part keeps both errors.
    let (code, _, _) = run_args(&["validate", "-q", clean.to_str().unwrap()]);
    assert_eq!(code, 0);
    let (code, stdout, _) = run_args(&["validate", "-q", broken.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(stdout.matches("error[").count(), 2, "{stdout}");
}

#[test]
fn clean_out_refuses_to_replace_an_input() {
    let original = std::fs::read(testdata("ux/event.pgn")).unwrap();
    let (_dir, path) = temp_file("games.pgn", &original);
    let path = path.to_str().unwrap();
    let (code, _, stderr) = run_args(&["validate", "-q", path, "--clean-out", path]);
    assert_eq!(code, 2);
    assert!(stderr.contains("is also an input"), "{stderr}");
    assert_eq!(std::fs::read(path).unwrap(), original);
}

#[test]
fn piped_text_has_one_line_per_finding_and_verbose_adds_the_game() {
    let event = event();
    let (_, plain, _) = run_args(&["validate", "-q", &event, "--game", "2"]);
    assert_eq!(plain.lines().count(), 1, "{plain}");
    assert!(plain.starts_with(&format!("{event}:19: game 2, 5. O-O: error[")));

    let (_, verbose, _) = run_args(&["validate", "-q", &event, "--game", "2", "--verbose"]);
    let lines: Vec<&str> = verbose.lines().collect();
    assert_eq!(lines[0], plain.trim_end(), "the first line keeps its shape");
    assert_eq!(
        lines[1],
        "    game: Clark, C. \u{2013} Dunn, D., Club Championship, round 2"
    );
    assert!(lines[2].starts_with("    why:  "), "{verbose}");
    assert_eq!(lines.len(), 3);
}

#[test]
fn board_marks_the_attacked_square_of_castling() {
    let (_, stdout, _) = run_args(&["validate", "-q", &event(), "--game", "2", "--board"]);
    let lines: Vec<&str> = stdout.lines().collect();
    // Ba6 attacks f1, which the king must cross; the king starts on e1, lands on g1, and
    // the h1 rook is named.
    assert!(lines.contains(&"    6 !b! p  .  .  p  n  .  ."), "{stdout}");
    assert!(
        lines.contains(&"    1  R  N  B  Q (K)!.![.]*R*"),
        "{stdout}"
    );
    assert!(lines.contains(&"       a  b  c  d  e  f  g  h"), "{stdout}");
    assert!(
        stdout.contains("    White to move. (x) moves from"),
        "{stdout}"
    );
}

#[test]
fn board_marks_the_pinned_piece_and_its_pinner() {
    let (_, stdout, _) = run_args(&["validate", "-q", &event(), "--game", "3", "--board"]);
    let lines: Vec<&str> = stdout.lines().collect();
    // Nc3 is pinned by Bb4 against Ke1; Nd5 would expose the king.
    assert!(lines.contains(&"    5  .  .  . [.] p  .  .  ."), "{stdout}");
    assert!(lines.contains(&"    4  . !b! .  P  P  .  .  ."), "{stdout}");
    assert!(lines.contains(&"    3  .  . (N) .  .  .  .  ."), "{stdout}");
    assert!(lines.contains(&"    1  R  .  B  Q *K* B  N  R"), "{stdout}");
}

#[test]
fn board_marks_the_pieces_in_the_way_of_castling() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O-O *\n";
    let (code, stdout, _) = run(&["validate", "-q", "--board"], pgn);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(": game 1, 5... O-O-O: error["), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    // The king on e8 goes to c8; the bishop on c8 and the queen on d8 stand in the way of
    // the a8 rook.
    assert!(lines.contains(&"    8 *r* . [b]*q*(k) .  .  r"), "{stdout}");
    assert!(stdout.contains("    Black to move."), "{stdout}");
}

#[test]
fn board_marks_the_missing_double_step() {
    // Black's d-pawn stepped d7-d6-d5 in two moves: exd6 is no en passant capture.
    let pgn = "1. e4 d6 2. e5 a6 3. Nf3 d5 4. exd6 *\n";
    let (code, stdout, _) = run(&["validate", "-q", "--board"], pgn);
    assert_eq!(code, 1, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.contains(&"    7  .  p  p *.* p  p  p  p"), "{stdout}");
    assert!(lines.contains(&"    6  p  .  . [.] .  .  .  ."), "{stdout}");
    assert!(lines.contains(&"    5  .  .  . *p*(P) .  .  ."), "{stdout}");
}

#[test]
fn board_marks_the_line_an_en_passant_capture_opens() {
    let pgn = "[FEN \"8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1\"]\n[SetUp \"1\"]\n\n1... c5 2. bxc6 *\n";
    let (code, stdout, _) = run(&["validate", "-q", "--board"], pgn);
    assert_eq!(code, 1, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    // Both pawns leave the fifth rank and the h5 rook attacks the a5 king; the double step
    // c7-c5 did happen, so c7 is not marked.
    assert!(lines.contains(&"    7  .  .  .  .  .  .  .  ."), "{stdout}");
    assert!(lines.contains(&"    6  .  . [.] .  .  .  .  ."), "{stdout}");
    assert!(
        lines.contains(&"    5 *K*(P)*p* .  .  .  . !r!"),
        "{stdout}"
    );
}

#[test]
fn board_marks_the_attacked_square_the_king_steps_on() {
    let pgn = "1. e4 f5 2. Qh5+ Kf7 *\n";
    let (code, stdout, _) = run(&["validate", "-q", "--board"], pgn);
    assert_eq!(code, 1, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.contains(&"    8  r  n  b  q (k) b  n  r"), "{stdout}");
    assert!(lines.contains(&"    7  p  p  p  p  p [.] p  p"), "{stdout}");
    assert!(
        lines.contains(&"    5  .  .  .  .  .  p  . !Q!"),
        "{stdout}"
    );
}
