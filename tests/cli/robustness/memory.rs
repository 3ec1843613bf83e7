//! See the parent module.

use super::*;
use crate::util::*;

use std::process::Command;

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
fn hundred_thousand_move_game_replays_in_linear_work() {
    // Knights shuffling: no pawn move, no capture, so every position stays in the
    // repetition window (a scan of it per ply made this quadratic).
    let mut pgn = String::from("[Event \"A\"]\n\n");
    for n in (1..=100_000).step_by(2) {
        pgn.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8\n", n + 1));
    }
    pgn.push_str("1/2-1/2\n\n");
    pgn.push_str(GAME_B);
    let (_dir, path) = temp_file("long.pgn", pgn.as_bytes());
    // Bounded by CPU seconds (`ulimit -t`), not by a clock: linear work takes a debug
    // build a few seconds, the quadratic scan took many minutes.
    let (code, stdout, stderr) = run_limited(
        &[
            "validate",
            "--format",
            "jsonl",
            "--level",
            "info",
            path.to_str().unwrap(),
        ],
        ADDRESS_SPACE_MB,
    );
    let run = Run::of(code, &stdout, stderr);
    run.assert_counts(0, 2, 200_002);
    // The fivefold repetition ended the game at ply 16 (FIDE 9.6.1): a game-level warning
    // at the last ply replayed, naming the ply where the game ended.
    run.assert_only("result.after-automatic-draw", 1, 200_000, "fivefold");
}

// ---- memory bounded on hostile input (issue 15) ---------------------------------------

/// `stats` of `pgn` at one thread and at `threads` threads, under the address-space
/// limit: both complete, with a row per game and the same bytes.
fn stats_bounded(pgn: &[u8], threads: &str, megabytes: u64, games: usize) {
    let (_dir, path) = temp_file("hostile.pgn", pgn);
    let path = path.to_str().unwrap();
    let (code, one, stderr) = run_limited(&["stats", "--quiet", "--threads", "1", path], megabytes);
    assert_eq!(code, 0, "--threads 1: {stderr}");
    assert_eq!(one.lines().count(), games + 1);
    let (code, many, stderr) =
        run_limited(&["stats", "--quiet", "--threads", threads, path], megabytes);
    assert_eq!(code, 0, "--threads {threads}: {stderr}");
    assert!(one == many, "--threads {threads} differs from --threads 1");
}

/// Games without tag pairs give no safe cut: a chunk is still cut where a game ends, and
/// holds a bounded number of games (they took 3 KB each, in one chunk of the whole file).
#[test]
fn result_lines_without_tags_are_read_in_bounded_memory() {
    stats_bounded(
        "*\n".repeat(150_000).as_bytes(),
        "3",
        ADDRESS_SPACE_MB,
        150_000,
    );
}

/// The same with a move in each game.
#[test]
fn one_move_games_without_tags_are_read_in_bounded_memory() {
    stats_bounded(
        "1. e4 *\n".repeat(100_000).as_bytes(),
        "3",
        ADDRESS_SPACE_MB,
        100_000,
    );
}

/// Tiny games with a tag pair are cut at tag pairs, but a 64 KiB chunk holds thousands
/// of them: at 16 threads, 33 chunks in flight took 700 MB.
#[test]
fn tiny_tagged_games_at_sixteen_threads_are_read_in_bounded_memory() {
    stats_bounded(
        "[A \"\"]\n*\n".repeat(300_000).as_bytes(),
        "16",
        512,
        300_000,
    );
}

/// `count` legal games of about 7.8 MB each: 40 plies of a Ruy Lopez, each followed by
/// variations that replay the next plies from there, one per line (as scripts/memory.sh).
fn large_games(count: usize) -> String {
    let moves: Vec<&str> = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 \
         d4 Nbd7 Nbd2 Bb7 Bc2 Re8 Nf1 Bf8 Ng3 g6 a4 c5 d5 c4 Bg5 h6 Be3 Nc5 Qd2 h5 Bg5 Be7"
        .split_whitespace()
        .collect();
    let line = |from: usize, to: usize| {
        let mut out = Vec::new();
        for (ply, san) in moves.iter().enumerate().take(to).skip(from) {
            if ply % 2 == 0 {
                out.push(format!("{}.", ply / 2 + 1));
            } else if ply == from {
                out.push(format!("{}...", ply / 2 + 1));
            }
            out.push((*san).to_string());
        }
        out.join(" ")
    };
    let per_ply = 7_800_000 / moves.len();
    let mut pgn = String::new();
    for game in 0..count {
        pgn.push_str(&format!("[Event \"large {game}\"]\n[Result \"*\"]\n\n"));
        for ply in 0..moves.len() {
            let variation = format!("({})\n", line(ply, (ply + 12).min(moves.len())));
            pgn.push_str(&line(ply, ply + 1));
            pgn.push('\n');
            pgn.push_str(&variation.repeat(per_ply / variation.len()));
        }
        pgn.push_str("*\n\n");
    }
    pgn
}

/// The peak resident memory (`VmHWM`) of a running process, in MB; 0 once it is gone.
#[cfg(target_os = "linux")]
fn peak_rss_mb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// Runs pgnkit with `args` and reads its stdout, sampling the peak resident memory from
/// /proc between reads (the run is alive while output is left to read): (peak MB, stdout
/// bytes).
#[cfg(target_os = "linux")]
fn peak_while_reading(args: &[&str]) -> (u64, usize) {
    use std::io::Read;
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (mut peak, mut read, mut buffer) = (0, 0, vec![0u8; 1 << 20]);
    loop {
        peak = peak.max(peak_rss_mb(child.id()));
        let n = stdout.read(&mut buffer).unwrap();
        if n == 0 {
            break;
        }
        read += n;
    }
    assert!(child.wait().unwrap().success(), "pgnkit {args:?} failed");
    (peak, read)
}

/// Large games at more than one thread: the pieces in flight are bounded by bytes, so two
/// threads hold about two such games, not five (2 x threads + 1 pieces: 238 MB for four
/// 7.8 MB games), and a game written is freed at once.
#[cfg(target_os = "linux")]
#[test]
fn large_games_at_two_threads_hold_about_one_game_per_thread() {
    let pgn = large_games(4);
    let (_dir, path) = temp_file("large.pgn", pgn.as_bytes());
    let path = path.to_str().unwrap();
    let (peak, read) = peak_while_reading(&["select", "--quiet", "--threads", "2", path]);
    assert_eq!(read, pgn.len(), "select writes the games' bytes");
    // Each game in flight: its bytes and 16 bytes per token, about 45 MB.
    assert!(peak > 40, "the run was not seen: peak {peak} MB");
    assert!(peak < 170, "peak RSS {peak} MB at 2 threads");
}

/// Tiny games at many threads: each of the 2 x threads + 1 chunks in flight holds at most
/// 512 games (lines), whose `stats` rows and reports cost kilobytes each (2048 a chunk
/// took 85 MB at 8 threads).
#[cfg(target_os = "linux")]
#[test]
fn tiny_games_at_sixteen_threads_stay_under_64_megabytes() {
    let (_dir, path) = temp_file("stars.pgn", "*\n".repeat(300_000).as_bytes());
    let path = path.to_str().unwrap();
    let (peak, read) = peak_while_reading(&["stats", "--quiet", "--threads", "16", path]);
    assert!(read > 300_000 * 50, "a row per game");
    assert!(peak < 64, "peak RSS {peak} MB at 16 threads");
}

/// The codes of `validate --format jsonl` output.
fn codes(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .map(|line| {
            let finding: serde_json::Value = serde_json::from_str(line).unwrap();
            finding["code"].as_str().unwrap().to_string()
        })
        .collect()
}

/// A million tags in one game (under the 8 MiB game limit) are checked for duplicates in
/// linear time: each of the 2704 two-letter names is reported once, at its second tag,
/// in input order (the pairwise check took about a quarter of an hour).
#[test]
fn a_million_tags_are_checked_for_duplicates_in_linear_time() {
    let letters: Vec<char> = ('A'..='Z').chain('a'..='z').collect();
    let names: Vec<String> = letters
        .iter()
        .flat_map(|a| letters.iter().map(move |b| format!("{a}{b}")))
        .collect();
    let mut pgn = String::with_capacity(8_100_000);
    for i in 0..1_000_000 {
        pgn.push('[');
        pgn.push_str(&names[i % names.len()]);
        pgn.push_str(" \"\"]\n");
    }
    pgn.push_str("\n*\n");
    assert!(pgn.len() < 8 * 1024 * 1024);
    let (_dir, path) = temp_file("tags.pgn", pgn.as_bytes());
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) = run_limited(
        &[
            "validate",
            "--format",
            "jsonl",
            "--quiet",
            "--threads",
            "2",
            path,
        ],
        512,
    );
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    let duplicates: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|f| f["code"] == "tag.duplicate")
        .collect();
    assert_eq!(duplicates.len(), names.len());
    for (finding, name) in duplicates.iter().zip(&names) {
        let message = finding["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("[{name}] appears more than once")),
            "{message}"
        );
    }
    assert!(!codes(&stdout).contains(&"input.limit-exceeded".to_string()));
}

/// Runs `sh -c script` (pgnkit is `$0`) under an address-space limit of `megabytes`,
/// returning (exit code, stdout, stderr).
fn shell_limited(script: &str, megabytes: u64) -> (i32, String, String) {
    let binary = assert_cmd::cargo::cargo_bin("pgnkit");
    let script = format!("ulimit -v {} && {script}", megabytes * 1024);
    let output = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(binary)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A 300 MB line without an end on stdin (`/dev/zero`) is read line by line in bounded
/// memory: reported as too long, naming the line, and the position after it is checked
/// (the whole input was read into memory).
#[test]
fn check_fen_streams_stdin_and_skips_an_endless_line() {
    let (code, stdout, stderr) = shell_limited(
        "{ head -c 300000000 /dev/zero; printf '\\n8/8/8/8/8/8/8/K1k5 w - - 0 1\\n'; } \
         | \"$0\" check-fen",
        128,
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("-:1: the line is longer than 65536 bytes; skipped"),
        "{stderr}"
    );
    assert_eq!(stdout, "8/8/8/8/8/8/8/K1k5 w - - 0 1: ok\n");
}

/// `pgn --input` reads its file line by line: an over-long line is an error naming the
/// line, and the positions around it still become games.
#[test]
fn pgn_input_reports_an_overlong_line_and_goes_on() {
    let text = format!(
        "8/8/8/8/8/8/8/K1k5 w - - 0 1\n{}\n8/8/8/8/8/8/8/K2k4 w - - 0 1\n",
        "x".repeat(100_000)
    );
    let (_dir, path) = temp_file("positions.epd", text.as_bytes());
    let name = path.to_str().unwrap();
    let (code, stdout, stderr) = run_args(&["pgn", "--input", name]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{name}:2: the line is longer than 65536 bytes; skipped"
        )),
        "{stderr}"
    );
    assert_eq!(
        stdout.matches("[FEN \"8/8/8/8/8/8/8/K").count(),
        2,
        "{stdout}"
    );
}

/// `stats --merge` reads a summary as a stream: a file without line ends is an error
/// naming its line, not an unbounded read.
#[test]
fn stats_merge_stops_at_an_endless_line_in_bounded_memory() {
    let (code, stdout, stderr) =
        shell_limited("head -c 300000000 /dev/zero | \"$0\" stats --merge -", 128);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("line 1 is longer than 65536 bytes"),
        "{stderr}"
    );
    assert_eq!(stdout, "");
}
