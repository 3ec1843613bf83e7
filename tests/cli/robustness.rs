//! Bounded under attack (issue 15): memory, time, files, terminals and disks. Each test
//! asserts the work done or the bytes written, never a wall-clock time.

mod files; // symlink loops, output paths, modes, special files, closed or full streams,
// damaged archives, write errors and signals
mod input; // random bytes, files cut short, NULs, wide text, encodings: nothing lost
mod memory; // memory bounded by a chunk's bytes, per-game limits, pathological games
mod terminal; // control characters escaped, archives recognised by magic bytes

use std::path::Path;
use std::time::Duration;

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
    Run::of(
        output.status.code().unwrap_or(-1),
        &String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

impl Run {
    /// The run of `validate --format jsonl` that printed `stdout` and `stderr`.
    fn of(code: i32, stdout: &str, stderr: String) -> Run {
        assert!(!stderr.contains("panicked"), "a panic: {stderr}");
        Run {
            code,
            findings: stdout
                .lines()
                .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
                .filter(|f| !f["code"].as_str().unwrap_or("").starts_with("tag."))
                .collect(),
            stderr,
        }
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

/// A game whose second move is illegal, so that the finding shows the players.
fn game_with_white(white: &[u8]) -> Vec<u8> {
    let mut pgn = b"[Event \"E\"]\n[White \"".to_vec();
    pgn.extend_from_slice(white);
    pgn.extend_from_slice(b"\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qxh7 *\n");
    pgn
}
