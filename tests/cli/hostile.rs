//! Hostile input and faults (issue 7): no crash, no hang, no silent loss, bounded memory.
//! Large fixtures are generated here, in temporary folders; every test asserts the exit
//! code, the number of games counted and the findings.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::*;

/// A run of `validate --format jsonl --level info` on one file or on stdin. The tag
/// hygiene infos (`tag.*`) are left out: hostile input rarely carries a roster.
struct Run {
    code: i32,
    findings: Vec<serde_json::Value>,
    stderr: String,
}

impl Run {
    /// `(code, game, ply)` of every finding, in output order.
    fn codes(&self) -> Vec<(String, u64, u64)> {
        self.findings
            .iter()
            .map(|f| {
                (
                    f["code"].as_str().unwrap().to_string(),
                    f["game"].as_u64().unwrap(),
                    f["ply"].as_u64().unwrap(),
                )
            })
            .collect()
    }

    /// Asserts the exit code and the games and plies of the summary line.
    fn assert_counts(&self, code: i32, games: u64, plies: u64) {
        assert_eq!(self.code, code, "{}", self.stderr);
        assert_eq!(self.summary("games"), games, "{}", self.stderr);
        assert_eq!(self.summary("plies"), plies, "{}", self.stderr);
    }

    /// Asserts that the only finding is `code` at `game` and `ply`, its message holding `words`.
    fn assert_only(&self, code: &str, game: u64, ply: u64, words: &str) {
        assert_eq!(self.codes(), vec![(code.to_string(), game, ply)]);
        let message = self.findings[0]["message"].as_str().unwrap();
        assert!(message.contains(words), "{message}");
    }

    /// A figure of the summary line: `summary("games")` in "1 file, 2 games, 3 plies".
    fn summary(&self, what: &str) -> u64 {
        let line = self
            .stderr
            .lines()
            .find(|l| l.contains(" games, ") || l.contains(" game, "))
            .unwrap_or_else(|| panic!("no summary line in {}", self.stderr));
        let singular = what.trim_end_matches('s');
        line.trim_start_matches("pgnkit: ")
            .split(", ")
            .find_map(|part| {
                let (number, word) = part.split_once(' ')?;
                let word = word.split(' ').next()?;
                (word == what || word == singular).then(|| number.replace(',', "").parse().ok())?
            })
            .unwrap_or_else(|| panic!("no `{what}` in {line}"))
    }
}

fn validate_with(args: &[&str], stdin: &[u8]) -> Run {
    let mut all = vec!["validate", "--format", "jsonl", "--level", "info"];
    all.extend_from_slice(args);
    let output = pgnkit()
        .args(&all)
        .write_stdin(stdin.to_vec())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "a panic: {stderr}");
    Run {
        code: output.status.code().unwrap_or(-1),
        findings: stdout
            .lines()
            .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
            .filter(|f| !f["code"].as_str().unwrap_or("").starts_with("tag."))
            .collect(),
        stderr,
    }
}

fn validate_bytes(pgn: &[u8]) -> Run {
    validate_with(&["-"], pgn)
}

fn validate_path(path: &Path) -> Run {
    validate_with(&[path.to_str().unwrap()], b"")
}

/// The codes of the findings of game `game`.
fn codes_of_game(run: &Run, game: u64) -> Vec<String> {
    run.codes()
        .into_iter()
        .filter(|(_, g, _)| *g == game)
        .map(|(code, _, _)| code)
        .collect()
}

/// A small deterministic generator (xorshift64*), so a failing input can be rebuilt.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

const GAME_B: &str = "[Event \"B\"]\n\n1. d4 d5 *\n";

// ---- random and malformed bytes -------------------------------------------------------

#[test]
fn random_bytes_never_crash_and_thread_count_changes_nothing() {
    for seed in [1u64, 2, 3] {
        let mut noise = Noise(0x9e37_79b9_7f4a_7c15 ^ seed);
        // Printable-heavy noise reaches the tokeniser; raw noise reaches the byte paths.
        let mut bytes = noise.bytes(64 * 1024);
        if seed == 2 {
            let alphabet = b"[]{}()\"\n .123456789abcdefghKQRBNOx-+=#*$!?%;\\/";
            for b in &mut bytes {
                *b = alphabet[*b as usize % alphabet.len()];
            }
        }
        let one = validate_with(&["--threads", "1", "-"], &bytes);
        let two = validate_with(&["--threads", "2", "-"], &bytes);
        assert!(matches!(one.code, 0 | 1), "seed {seed}: exit {}", one.code);
        assert_eq!(one.code, two.code);
        assert_eq!(one.findings, two.findings, "seed {seed}");
        assert_eq!(one.summary("games"), two.summary("games"));
        // Every game that has a finding was counted.
        let counted = one.summary("games");
        assert!(one.codes().iter().all(|(_, game, _)| *game <= counted));
    }
}

#[test]
fn file_cut_mid_tag_is_one_game_with_the_tag_reported() {
    let run = validate_bytes(b"[Event \"T\"]\n[White \"Ab");
    // The cut tag is repaired (closed), a warning like the cut.
    assert_eq!(run.code, 0);
    assert_eq!(run.summary("games"), 1);
    let codes = codes_of_game(&run, 1);
    assert!(codes.contains(&"input.bad-tag".to_string()), "{codes:?}");
    assert!(codes.contains(&"input.truncated".to_string()), "{codes:?}");
    assert!(
        run.findings[0]["message"]
            .as_str()
            .unwrap()
            .contains("[White \"Ab")
    );
}

#[test]
fn file_cut_mid_comment_keeps_the_moves_before_it() {
    // pgn-reader returns an error here and loses the game; pgnkit keeps both plies.
    let run = validate_bytes(b"[Event \"T\"]\n\n1. e4 e5 {a comm");
    run.assert_counts(0, 1, 2);
    // A game-level finding: the last ply replayed, here 2.
    run.assert_only(
        "input.unterminated-comment",
        1,
        2,
        "moves before it are kept",
    );
    // A game-level finding: `move_line` is the game's line, the message names the line.
    assert_eq!(run.findings[0]["move_line"], 1);
    assert!(
        run.findings[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("line 3: ")
    );
}

#[test]
fn unterminated_comment_at_end_of_file_after_good_games() {
    let mut pgn = String::from(GAME_B);
    pgn.push_str("\n[Event \"C\"]\n\n1. e4 e5 2. Nf3 { never closed\n\n2... Nc6 3. Bb5\n");
    let run = validate_bytes(pgn.as_bytes());
    // 2 plies of game 1, 3 of game 2 (the moves inside the open comment are not moves).
    run.assert_counts(0, 2, 5);
    run.assert_only("input.unterminated-comment", 2, 3, "never closed");
}

#[test]
fn file_cut_mid_move_reports_the_stump_and_the_cut() {
    let run = validate_bytes(b"[Event \"T\"]\n\n1. e4 e5 2. Nf");
    assert_eq!(run.code, 1);
    assert_eq!(run.summary("games"), 1);
    assert_eq!(run.summary("plies"), 2);
    let codes = run.codes();
    assert!(
        codes.contains(&("input.truncated".to_string(), 1, 2)),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("move.syntax".to_string(), 1, 3)),
        "{codes:?}"
    );
    let syntax = run
        .findings
        .iter()
        .find(|f| f["code"] == "move.syntax")
        .unwrap();
    assert_eq!(syntax["move"], "2. Nf");
}

#[test]
fn nul_bytes_are_a_bad_token_not_a_crash() {
    let run = validate_bytes(b"[Event \"T\"]\n\n1. e4 \0\0 e5 *\n\n[Event \"B\"]\n\n1. d4 d5 *\n");
    run.assert_counts(1, 2, 3);
    run.assert_only("move.syntax", 1, 2, "not a move");
    assert_eq!(run.findings[0]["san"], "\u{0}\u{0}");
}

#[test]
fn empty_input_is_zero_games() {
    let (_dir, path) = temp_file("empty.pgn", b"");
    let run = validate_path(&path);
    assert_eq!(run.code, 0);
    assert_eq!(run.summary("games"), 0);
    assert!(run.findings.is_empty());
}

#[test]
fn tags_only_and_movetext_only_are_games() {
    let run = validate_bytes(b"[Event \"Tags\"]\n[Result \"*\"]\n");
    assert_eq!((run.code, run.summary("games")), (0, 1));
    assert_eq!(run.codes(), vec![("input.truncated".to_string(), 1, 0)]);

    let run = validate_bytes(b"1. e4 e5 *\n\n1. d4 d5 *\n");
    run.assert_counts(0, 2, 4);
    assert!(run.findings.is_empty());
}

#[test]
fn byte_order_mark_in_the_middle_starts_a_game_like_any_other() {
    let mut pgn = b"[Event \"A\"]\n\n1. e4 *\n\n".to_vec();
    pgn.extend_from_slice(b"\xef\xbb\xbf[Event \"B\"]\n\n1. d4 d5 *\n");
    let run = validate_bytes(&pgn);
    run.assert_counts(0, 2, 3);
    assert!(run.findings.is_empty(), "{:?}", run.codes());
}

#[test]
fn utf16_input_is_unsupported_encoding() {
    let text = "[Event \"A\"]\n\n1. e4 e5 *\n";
    for bom in [&[0xff_u8, 0xfe][..], &[][..]] {
        let mut bytes = bom.to_vec();
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let run = validate_bytes(&bytes);
        assert_eq!(run.code, 1);
        assert_eq!(run.summary("games"), 1);
        assert_eq!(
            run.codes(),
            vec![("input.unsupported-encoding".to_string(), 1, 0)]
        );
        assert!(
            run.findings[0]["message"]
                .as_str()
                .unwrap()
                .contains("UTF-16")
        );
    }
}

#[test]
fn wide_text_without_a_bom_is_unsupported_encoding_in_every_byte_order() {
    let text = "[Event \"A\"]\n\n1. e4 e5 *\n";
    let utf16be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
    let utf32le: Vec<u8> = text
        .chars()
        .flat_map(|c| u32::from(c).to_le_bytes())
        .collect();
    for bytes in [utf16be, utf32le] {
        let run = validate_bytes(&bytes);
        assert_eq!(run.code, 1);
        assert_eq!(
            run.codes(),
            vec![("input.unsupported-encoding".to_string(), 1, 0)]
        );
    }
}

#[test]
fn a_nul_after_the_first_byte_is_not_utf16() {
    // Two bytes, a byte and a NUL: a bad token, not a wide encoding.
    let run = validate_bytes(b"e\0");
    run.assert_counts(1, 1, 0);
    assert_eq!(
        codes_of_game(&run, 1),
        vec!["input.truncated".to_string(), "move.syntax".to_string()]
    );
    // A binary blob that opens with a little-endian number: read as (bad) text.
    let mut blob = vec![7, 0, 0, 0];
    blob.extend((0..=255u8).rev());
    let run = validate_bytes(&blob);
    assert_eq!((run.code, run.summary("games")), (1, 1));
    assert!(
        run.codes()
            .iter()
            .all(|(code, _, _)| code != "input.unsupported-encoding"),
        "{:?}",
        run.codes()
    );
    assert!(run.codes().iter().any(|(code, _, _)| code == "move.syntax"));
    // A stray NUL in the first game's move number: the games after it are read.
    let mut pgn = b"1\0. e4 e5 *\n\n".to_vec();
    pgn.extend_from_slice(GAME_B.as_bytes());
    let run = validate_bytes(&pgn);
    run.assert_counts(1, 2, 2);
    assert_eq!(codes_of_game(&run, 1), vec!["move.syntax".to_string()]);
    assert!(codes_of_game(&run, 2).is_empty(), "{:?}", run.codes());
}

// ---- text encodings --------------------------------------------------------------------

/// A game whose second move is illegal, so that the finding shows the players.
fn game_with_white(white: &[u8]) -> Vec<u8> {
    let mut pgn = b"[Event \"E\"]\n[White \"".to_vec();
    pgn.extend_from_slice(white);
    pgn.extend_from_slice(b"\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qxh7 *\n");
    pgn
}

#[test]
fn tag_values_are_utf8_when_valid_else_latin1() {
    let run = validate_bytes(&game_with_white(b"M\xfcller"));
    assert_eq!(run.findings[0]["white"], "Müller");
    let run = validate_bytes(&game_with_white("Müller".as_bytes()));
    assert_eq!(run.findings[0]["white"], "Müller");
}

#[test]
fn cp437_file_is_read_with_encoding_cp437() {
    // In code page 437, 0x81 is ü and 0x94 is ö; in Latin-1 they are control characters.
    let (_dir, path) = temp_file("dos.pgn", &game_with_white(b"M\x81ller, J\x94rg"));
    let path = path.to_str().unwrap();
    let dos = validate_with(&["--encoding", "cp437", path], b"");
    assert_eq!(dos.code, 1);
    assert_eq!(dos.findings[0]["white"], "Müller, Jörg");
    let auto = validate_with(&[path], b"");
    assert_eq!(auto.findings[0]["white"], "M\u{81}ller, J\u{94}rg");
    let unknown = validate_with(&["--encoding", "cp9999", path], b"");
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("unknown encoding `cp9999`"));
}

// ---- size limits and pathological games -------------------------------------------------

/// 10 MB of comment text: on one line, or in 80-byte lines.
fn ten_megabytes(one_line: bool) -> String {
    if one_line {
        "x".repeat(10_000_000)
    } else {
        format!("{}\n", "x".repeat(79)).repeat(125_000)
    }
}

#[test]
fn ten_megabyte_comment_hits_the_game_limit_and_the_next_game_is_read() {
    for one_line in [true, false] {
        let body = ten_megabytes(one_line);
        let pgn = format!("[Event \"A\"]\n\n1. e4 {{{body}}} e5 *\n\n{GAME_B}");
        let (_dir, path) = temp_file("comment.pgn", pgn.as_bytes());
        let run = validate_path(&path);
        // 1. e4 before the comment is kept, the moves after the limit are not.
        run.assert_counts(1, 2, 3);
        run.assert_only("input.limit-exceeded", 1, 1, "longer than 8 MiB");
    }
}

#[test]
fn oversized_game_does_not_swallow_the_next_game_without_tags() {
    // SPEC: movetext after a finished game (its termination marker read) is a new game.
    for one_line in [true, false] {
        let body = ten_megabytes(one_line);
        let pgn = format!("[Event \"A\"]\n\n1. e4 {{{body}}} e5 *\n\n1. d4 d5 *\n");
        let (_dir, path) = temp_file("oversized.pgn", pgn.as_bytes());
        let run = validate_path(&path);
        // Game 1 keeps 1. e4; game 2 is read whole.
        run.assert_counts(1, 2, 3);
        run.assert_only("input.limit-exceeded", 1, 1, "longer than 8 MiB");
    }
}

#[test]
fn fifty_thousand_nested_variations_hit_the_depth_limit() {
    let pgn = format!(
        "[Event \"A\"]\n\n1. e4 {}{} e5 *\n\n{GAME_B}",
        "( 1. d4 ".repeat(50_000),
        ")".repeat(50_000)
    );
    let run = validate_bytes(pgn.as_bytes());
    run.assert_counts(1, 2, 3);
    run.assert_only("input.limit-exceeded", 1, 1, "deeper than 256");
}

#[test]
fn one_megabyte_tag_value_is_within_the_limits() {
    let white = "W".repeat(1_000_000);
    let run = validate_bytes(&game_with_white(white.as_bytes()));
    assert_eq!(run.code, 1);
    assert_eq!(run.summary("games"), 1);
    assert_eq!(run.codes(), vec![("move.illegal".to_string(), 1, 3)]);
    assert_eq!(run.findings[0]["white"].as_str().unwrap().len(), 1_000_000);
}

#[test]
fn hundred_thousand_move_game_replays_in_linear_time() {
    // Knights shuffling: no pawn move, no capture, so every position stays in the
    // repetition window (a scan of it per ply made this quadratic).
    let mut pgn = String::from("[Event \"A\"]\n\n");
    for n in (1..=100_000).step_by(2) {
        pgn.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8\n", n + 1));
    }
    pgn.push_str("1/2-1/2\n\n");
    pgn.push_str(GAME_B);
    let (_dir, path) = temp_file("long.pgn", pgn.as_bytes());
    let started = Instant::now();
    let run = validate_path(&path);
    assert!(started.elapsed() < Duration::from_secs(30));
    run.assert_counts(0, 2, 200_002);
    // The fivefold repetition ended the game at ply 16 (FIDE 9.6.1): a game-level warning
    // at the last ply replayed, naming the ply where the game ended.
    run.assert_only("result.after-automatic-draw", 1, 200_000, "fivefold");
}

// ---- nothing lost ------------------------------------------------------------------------

#[test]
fn every_game_of_a_mixed_file_is_counted_and_named() {
    let games: [&[u8]; 8] = [
        b"[Event \"good\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n",
        b"[Event \"illegal\"]\n\n1. e4 e4 *\n",
        b"[Event \"bad tag\n\n1. d4 d5 *\n",
        b"1. c4 c5 1-0\n",
        b"[Event \"nul\"]\n\n1. \0 *\n",
        b"[Event \"syntax\"]\n\n1. e4 @@ *\n",
        b"[Event \"good\"]\n\n1. d4 Nf6 *\n",
        b"[Event \"open\"]\n\n1. e4 { never closed\n",
    ];
    let pgn: Vec<u8> = games.join(&b"\n"[..]);
    for threads in ["1", "2"] {
        let run = validate_with(&["--threads", threads, "-"], &pgn);
        assert_eq!(run.code, 1);
        assert_eq!(run.summary("games"), 8, "{}", run.stderr);
        let with_findings: std::collections::BTreeSet<u64> =
            run.codes().iter().map(|(_, game, _)| *game).collect();
        assert_eq!(
            with_findings.into_iter().collect::<Vec<_>>(),
            vec![2, 3, 5, 6, 8],
            "{:?}",
            run.codes()
        );
        assert_eq!(codes_of_game(&run, 2), vec!["move.illegal"]);
        assert_eq!(codes_of_game(&run, 8), vec!["input.unterminated-comment"]);

        // `stats` gives every one of them a row, the broken ones with their status.
        let (code, csv, _) = crate::util::run(
            &["stats", "--threads", threads, "-q"],
            &String::from_utf8_lossy(&pgn),
        );
        assert_eq!(code, 0);
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect();
        let numbered: Vec<(&str, &str)> = rows.iter().map(|r| (r[1], r[14])).collect();
        assert_eq!(
            numbered,
            vec![
                ("1", "ok"),
                ("2", "illegal"),
                // The tag line is repaired (`input.bad-tag`) and the moves replayed.
                ("3", "ok"),
                ("4", "ok"),
                ("5", "illegal"),
                ("6", "illegal"),
                ("7", "ok"),
                ("8", "ok"),
            ]
        );
    }
}

/// `count` games, each with an illegal second move, numbered in their Event tag.
fn broken_games(count: usize) -> Vec<u8> {
    (1..=count)
        .map(|i| format!("[Event \"{i}\"]\n\n1. e4 e4 *\n\n"))
        .collect::<String>()
        .into_bytes()
}

#[test]
fn truncated_gzip_and_zstd_report_the_games_before_the_cut_then_exit_2() {
    // Enough for several zstd blocks (128 KiB of text each): a decoder hands on whole blocks.
    let plain = broken_games(20_000);
    let gz = {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(&plain).unwrap();
        encoder.finish().unwrap()
    };
    let zst = zstd::encode_all(&plain[..], 1).unwrap();
    for (name, packed) in [("cut.pgn.gz", gz), ("cut.pgn.zst", zst)] {
        let cut = &packed[..packed.len() / 2];
        let (_dir, path) = temp_file(name, cut);
        let run = validate_path(&path);
        assert_eq!(run.code, 2, "{name}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("pgnkit: cannot read {}: ", path.display())),
            "{name}: {}",
            run.stderr
        );
        let games = run.summary("games");
        assert!(games > 10 && games < 20_000, "{name}: {games} games");
        // Each game read before the cut has its finding, in order, none skipped.
        let illegal: Vec<u64> = run
            .codes()
            .iter()
            .filter(|(code, _, _)| code == "move.illegal")
            .map(|(_, game, _)| *game)
            .collect();
        assert!(illegal.len() as u64 >= games - 1);
        assert_eq!(illegal, (1..=illegal.len() as u64).collect::<Vec<_>>());
    }
}

#[test]
fn folder_with_a_dangling_symlink_reads_the_rest_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.pgn"), GAME_B).unwrap();
    std::os::unix::fs::symlink(dir.path().join("gone.pgn"), dir.path().join("b.pgn")).unwrap();
    std::fs::write(dir.path().join("c.pgn"), broken_games(1)).unwrap();
    let run = validate_path(dir.path());
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains(&format!(
            "pgnkit: cannot open {}",
            dir.path().join("b.pgn").display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(run.summary("games"), 2);
    assert_eq!(run.codes(), vec![("move.illegal".to_string(), 1, 2)]);
    assert!(run.findings[0]["file"].as_str().unwrap().ends_with("c.pgn"));
}

// ---- pipes, write errors and signals ---------------------------------------------------

#[test]
fn write_error_on_stdout_exits_2_with_a_message() {
    let (_dir, path) = temp_file("many.pgn", &broken_games(5_000));
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args(["validate", path.to_str().unwrap()])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("pgnkit: cannot write to stdout"),
        "{stderr}"
    );
    assert!(stderr.contains("No space left on device"), "{stderr}");

    // The same for the other commands that write data, said once (no doubled prefix).
    for command in [
        &["stats"][..],
        &["fen", "--every-ply"][..],
        &["convert"][..],
    ] {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let output = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
            .args(command)
            .arg(path.to_str().unwrap())
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command:?}: {stderr}");
        assert_eq!(
            stderr.matches("cannot write").count(),
            1,
            "{command:?}: {stderr}"
        );
    }
}

#[test]
fn closed_pipe_ends_the_run_at_once_and_quietly() {
    // `pgnkit validate --level info big.pgn | head -1`: far more output than the buffers.
    let (_dir, path) = temp_file("many.pgn", &broken_games(20_000));
    for format in ["text", "jsonl", "csv"] {
        closed_pipe_with(&path, format);
    }
}

fn closed_pipe_with(path: &Path, format: &str) {
    let started = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args(["validate", "--level", "info", "--format", format])
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(
        first.contains("game") || first.contains("file"),
        "{format}: {first}"
    );
    // Dropping our end of stdout closed the pipe, as `head -1` does when it exits.
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{format}");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{format}");
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn output_to_a_special_file_is_written_directly() {
    let (_dir, path) = temp_file("one.pgn", &broken_games(1));
    let (code, stdout, stderr) = run_args(&[
        "validate",
        "-q",
        "-o",
        "/dev/stdout",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("move.illegal"), "{stdout}");
}

/// Starts `validate -o out.txt` reading a stdin that stays open, sends SIGINT, and waits.
fn interrupt_a_run(dir: &Path) -> (Option<i32>, String, Duration) {
    let mut child: Child = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args(["validate", "-o", "out.txt", "-"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&broken_games(300)).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let sent = Instant::now();
    let mut waited = None;
    while sent.elapsed() < Duration::from_secs(10) {
        if let Some(status) = child.try_wait().unwrap() {
            waited = Some(status);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = sent.elapsed();
    if waited.is_none() {
        let _ = child.kill();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        took,
    )
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn ctrl_c_exits_130_promptly_and_leaves_no_partial_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr, took) = interrupt_a_run(dir.path());
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("pgnkit: interrupted"), "{stderr}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
    // Neither the final name nor the temporary file is left behind.
    assert_eq!(names_in(dir.path()), Vec::<String>::new());
}

#[test]
fn ctrl_c_keeps_an_earlier_output_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out.txt"), "the previous run\n").unwrap();
    let (code, stderr, _) = interrupt_a_run(dir.path());
    assert_eq!(code, Some(130), "{stderr}");
    assert_eq!(names_in(dir.path()), vec!["out.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.txt")).unwrap(),
        "the previous run\n"
    );
}

#[test]
fn compression_magic_followed_by_junk_is_an_unreadable_file_among_good_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut junk = vec![0x1f, 0x8b];
    junk.extend(Noise(7).bytes(4096));
    std::fs::write(dir.path().join("a.pgn.gz"), junk).unwrap();
    let mut junk = vec![0x28, 0xb5, 0x2f, 0xfd];
    junk.extend(Noise(8).bytes(4096));
    std::fs::write(dir.path().join("b.pgn.zst"), junk).unwrap();
    std::fs::write(dir.path().join("c.pgn"), GAME_B).unwrap();
    let run = validate_path(dir.path());
    assert_eq!(run.code, 2, "{}", run.stderr);
    for name in ["a.pgn.gz", "b.pgn.zst"] {
        let shown = dir.path().join(name);
        assert!(
            run.stderr
                .contains(&format!("pgnkit: cannot read {}: ", shown.display()))
                || run
                    .stderr
                    .contains(&format!("pgnkit: cannot open {}: ", shown.display())),
            "{name}: {}",
            run.stderr
        );
    }
    assert_eq!(run.summary("games"), 1);
    assert!(run.findings.is_empty());
}
