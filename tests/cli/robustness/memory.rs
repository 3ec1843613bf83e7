//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

use std::path::Path;
use std::process::Command;

/// Address space allowed to a run on hostile input: far below what the unbounded code
/// used (gigabytes), with room for 16 threads' stacks and the allocator's arenas.
const ADDRESS_SPACE_MB: u64 = 1024;
/// CPU seconds allowed to a run: a debug build does the linear work in a few seconds; the
/// quadratic work it replaced took many minutes.
const CPU_SECONDS: u64 = 30;

/// Runs pgnkit with `args` under an address-space and CPU limit (`ulimit -v`, `ulimit -t`),
/// returning (exit code, stdout, stderr). A run killed by a limit exits with -1 or 128+.
fn run_limited(args: &[&str], stdin: Option<&Path>) -> (i32, String, String) {
    let binary = assert_cmd::cargo::cargo_bin("pgnkit");
    let script = format!(
        "ulimit -v {} && ulimit -t {} && exec \"$0\" \"$@\"",
        ADDRESS_SPACE_MB * 1024,
        CPU_SECONDS
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(script).arg(binary).args(args);
    cmd.stdin(match stdin {
        Some(path) => std::fs::File::open(path).unwrap().into(),
        None => std::process::Stdio::null(),
    });
    let output = cmd.output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
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
        &["validate", "--format", "jsonl", "--quiet", "--threads", "2", path],
        None,
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
        assert!(message.starts_with(&format!("[{name}] appears more than once")), "{message}");
    }
    assert!(!codes(&stdout).contains(&"input.limit-exceeded".to_string()));
}
