//! A tiny harness: run the binary on fixtures or inline text, read its output.

#![allow(dead_code)] // each test module uses a different part of the harness

use std::path::PathBuf;
use std::process::Output;

use assert_cmd::Command;

/// The path of a file in `testdata/`.
pub fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
}

/// A `pgnkit` command, quiet on stderr unless the test asks otherwise.
pub fn pgnkit() -> Command {
    let mut cmd = Command::cargo_bin("pgnkit").unwrap();
    cmd.env_remove("NO_COLOR");
    cmd
}

/// Runs pgnkit with `args` and `stdin`, returning (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_bytes(args, stdin.as_bytes())
}

/// As `run`, with stdin given as bytes (input that is not UTF-8).
pub fn run_bytes(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let output = pgnkit()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    outcome(output)
}

/// Runs pgnkit with `args` and no stdin.
pub fn run_args(args: &[&str]) -> (i32, String, String) {
    let output = pgnkit()
        .args(args)
        .write_stdin(Vec::new())
        .output()
        .unwrap();
    outcome(output)
}

/// (exit code, stdout, stderr) of a finished run.
pub fn outcome(output: Output) -> (i32, String, String) {
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// `validate --format jsonl` of PGN text given on stdin, as parsed JSON objects.
pub fn findings_of(pgn: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["validate", "--format", "jsonl", "--quiet"];
    args.extend_from_slice(extra);
    let (_, stdout, _) = run(&args, pgn);
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The (code, ply) pairs of the findings, in order.
pub fn codes_of(findings: &[serde_json::Value]) -> Vec<(String, u64)> {
    findings
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["ply"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Writes `contents` to a fresh temporary directory and returns (dir guard, path).
pub fn temp_file(name: &str, contents: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (dir, path)
}

/// A CSV row keyed by column name.
pub type Row = std::collections::HashMap<String, String>;

/// The rows of a CSV text, keyed by column name.
pub fn rows_of(csv_text: &str) -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            header
                .iter()
                .zip(record.iter())
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Address space allowed to a run on hostile input (`ulimit -v`): far below what the
/// unbounded code took (gigabytes), with room for the allocator's per-thread arenas of
/// three threads (64 MiB of address space each).
pub const ADDRESS_SPACE_MB: u64 = 256;
/// CPU seconds allowed to a run: a debug build does the linear work in a few seconds; the
/// quadratic work it replaced took many minutes.
pub const CPU_SECONDS: u64 = 30;

/// Runs pgnkit with `args` under an address-space limit of `megabytes` and a CPU limit
/// (`ulimit -v`, `ulimit -t`), returning (exit code, stdout, stderr). A run killed by a
/// limit exits with -1 or 128+.
pub fn run_limited(args: &[&str], megabytes: u64) -> (i32, String, String) {
    run_under(
        &format!("ulimit -v {} && ulimit -t {CPU_SECONDS}", megabytes * 1024),
        args,
    )
}

/// As `run_limited`, with the address-space limit alone (for runs whose debug build needs
/// more CPU time than `CPU_SECONDS`).
pub fn run_memory_limited(args: &[&str], megabytes: u64) -> (i32, String, String) {
    run_under(&format!("ulimit -v {}", megabytes * 1024), args)
}

fn run_under(limits: &str, args: &[&str]) -> (i32, String, String) {
    let binary = assert_cmd::cargo::cargo_bin("pgnkit");
    let script = format!("{limits} && exec \"$0\" \"$@\"");
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(binary)
        .args(args)
        // Sixteen threads would reserve sixteen arenas of address space.
        .env("MALLOC_ARENA_MAX", "4")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    outcome(output)
}
