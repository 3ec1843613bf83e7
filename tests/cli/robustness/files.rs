//! See the parent module.

use super::*;
use crate::util::*;

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The path of the built binary, for runs through `sh -c`.
fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("pgnkit")
}

/// Runs `script` under `sh -c` with `$PGNKIT` set to the binary, in `dir`; returns
/// (exit code, stdout, stderr).
fn shell(dir: &Path, script: &str) -> (i32, String, String) {
    let output = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("PGNKIT", binary())
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh folder holding `event.pgn` (4 games, 2 with errors) and `clean.pgn` (2 games).
fn archive() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(testdata("ux/event.pgn"), dir.path().join("event.pgn")).unwrap();
    std::fs::copy(testdata("clean.pgn"), dir.path().join("clean.pgn")).unwrap();
    dir
}

/// The `N games` of the summary line.
fn games_in_summary(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.contains(" games, "))
        .unwrap_or_else(|| panic!("no summary in {stderr}"));
    let before = line.split(" games, ").next().unwrap();
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

// ---- folders: symbolic links ------------------------------------------------------------

#[test]
fn folder_with_two_links_to_itself_ends_and_reads_each_file_once() {
    let dir = archive();
    symlink(".", dir.path().join("s1")).unwrap();
    symlink(".", dir.path().join("s2")).unwrap();
    let output = pgnkit()
        .args(["validate", "--format", "jsonl"])
        .arg(dir.path())
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(games_in_summary(&stderr), 6, "{stderr}");
    for link in ["s1", "s2"] {
        let path = dir.path().join(link);
        assert!(
            stderr.contains(&format!(
                "pgnkit: warning: {} is the folder {} again (a symbolic link loop: not followed)",
                path.display(),
                dir.path().display()
            )),
            "{stderr}"
        );
    }
}

#[test]
fn folder_with_one_link_loop_reads_each_file_once_with_a_warning() {
    let dir = archive();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    symlink("..", dir.path().join("sub/up")).unwrap();
    let (code, stdout, stderr) = run_args(&[
        "validate",
        "--format",
        "jsonl",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(games_in_summary(&stderr), 6, "{stderr}");
    // Each error finding once: event.pgn's two broken games, read once.
    assert_eq!(
        stdout.matches("\"severity\":\"error\"").count(),
        2,
        "{stdout}"
    );
    assert_eq!(stderr.matches("symbolic link loop").count(), 1, "{stderr}");
}

#[test]
fn file_reached_twice_through_links_in_a_folder_is_read_once() {
    let dir = archive();
    symlink("event.pgn", dir.path().join("latest.pgn")).unwrap();
    std::fs::create_dir(dir.path().join("mirror")).unwrap();
    symlink("../clean.pgn", dir.path().join("mirror/clean.pgn")).unwrap();
    let (code, _, stderr) = run_args(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(games_in_summary(&stderr), 6, "{stderr}");
    let latest = dir.path().join("latest.pgn");
    let event = dir.path().join("event.pgn");
    assert!(
        stderr.contains(&format!(
            "pgnkit: warning: {} is the file {} again (read once)",
            latest.display(),
            event.display()
        )),
        "{stderr}"
    );
    assert!(stderr.contains("pgnkit: 2 files, 6 games"), "{stderr}");
}

// ---- closed or full stderr ----------------------------------------------------------------

/// Each data command with `-o`, run with a working stderr and then with `redirect`
/// (`2>&-`, `2>/dev/full`): the same exit code and the same bytes in the output file.
fn data_survives_stderr(redirect: &str) {
    let dir = archive();
    for command in [
        "validate --format csv",
        "stats",
        "fen --every-ply",
        "convert",
        "report",
    ] {
        let normal = format!("\"$PGNKIT\" {command} event.pgn -o normal.out");
        let (normal_code, _, normal_err) = shell(dir.path(), &normal);
        assert!(
            normal_code == 0 || normal_code == 1,
            "{command}: {normal_err}"
        );
        let cut = format!("exec {redirect}; \"$PGNKIT\" {command} event.pgn -o cut.out");
        let (code, _, _) = shell(dir.path(), &cut);
        assert_eq!(code, normal_code, "{command} with {redirect}");
        let mut expected = std::fs::read(dir.path().join("normal.out")).unwrap();
        let mut written = std::fs::read(dir.path().join("cut.out")).unwrap();
        if command == "report" {
            // The page names when and how long: keep what the run decides.
            let keep = |page: &mut Vec<u8>| page.retain(|b| !b.is_ascii_digit());
            keep(&mut expected);
            keep(&mut written);
        }
        assert!(
            expected == written,
            "{command} with {redirect}: the output file differs"
        );
    }
}

#[test]
fn closed_or_full_stderr_neither_stops_nor_changes_the_output_file() {
    data_survives_stderr("2>&-");
    data_survives_stderr("2>/dev/full");
}

#[test]
fn full_stderr_and_stdout_findings_do_not_panic() {
    let dir = archive();
    for command in ["validate", "stats --summary", "fen", "convert"] {
        let script = format!("\"$PGNKIT\" {command} event.pgn 2>/dev/full");
        let (code, stdout, _) = shell(dir.path(), &script);
        assert!(code == 0 || code == 1, "{command}: exit {code}");
        assert!(!stdout.is_empty(), "{command}");
    }
}

#[test]
fn data_that_cannot_be_written_is_exit_2_even_with_a_full_stderr() {
    let dir = archive();
    let (code, _, _) = shell(
        dir.path(),
        "\"$PGNKIT\" validate event.pgn >/dev/full 2>/dev/full",
    );
    assert_eq!(code, 2);
}

// ---- special files --------------------------------------------------------------------------

#[test]
fn output_to_dev_stdout_redirected_to_a_file_is_written_into_that_file() {
    let dir = archive();
    let target = dir.path().join("findings.txt");
    let file = std::fs::File::create(&target).unwrap();
    let output = Command::new(binary())
        .args(["validate", "-q", "-o", "/dev/stdout", "event.pgn"])
        .current_dir(dir.path())
        .stdout(file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    let written = std::fs::read_to_string(&target).unwrap();
    assert_eq!(written.matches("error[").count(), 2, "{written}");
    // Written through the stream: /dev/stdout is still what it was.
    assert!(
        std::fs::symlink_metadata("/dev/stdout")
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn output_to_a_descriptor_path_appends_where_the_shell_left_it() {
    let dir = archive();
    let (code, _, stderr) = shell(
        dir.path(),
        "echo first >out.txt; \"$PGNKIT\" fen clean.pgn -o /dev/fd/3 3>>out.txt",
    );
    assert_eq!(code, 0, "{stderr}");
    let written = std::fs::read_to_string(dir.path().join("out.txt")).unwrap();
    assert!(written.starts_with("first\n"), "{written}");
    assert_eq!(written.lines().count(), 3, "{written}");
}

// ---- output paths that collide --------------------------------------------------------------

#[test]
fn every_command_refuses_an_output_that_is_its_input() {
    let dir = archive();
    let original = std::fs::read(dir.path().join("event.pgn")).unwrap();
    for args in [
        &["validate", "event.pgn", "-o", "event.pgn"][..],
        &["validate", "event.pgn", "--broken-out", "./event.pgn"][..],
        &["stats", "event.pgn", "-o", "event.pgn"][..],
        &["stats", "event.pgn", "--summary-output", "event.pgn"][..],
        &["fen", "event.pgn", "-o", "event.pgn"][..],
        &["convert", "event.pgn", "-o", "event.pgn"][..],
        &["report", "event.pgn", "-o", "event.pgn"][..],
        &["pgn", "--input", "event.pgn", "-o", "event.pgn"][..],
        &["check-fen", "--input", "event.pgn", "-o", "event.pgn"][..],
        &["stats", "--merge", "event.pgn", "-o", "event.pgn"][..],
        &["perft", "--suite", "event.pgn", "-o", "event.pgn"][..],
    ] {
        let output = pgnkit()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("event.pgn is also an input (event.pgn)"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            std::fs::read(dir.path().join("event.pgn")).unwrap(),
            original,
            "{args:?}"
        );
    }
}

#[test]
fn an_output_linked_to_the_input_is_refused() {
    let dir = archive();
    symlink("event.pgn", dir.path().join("link.csv")).unwrap();
    let output = pgnkit()
        .args(["stats", "event.pgn", "-o", "link.csv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("-o link.csv is also an input (event.pgn)"),
        "{stderr}"
    );
}

#[test]
fn two_outputs_of_one_command_on_the_same_file_are_refused() {
    let dir = archive();
    for (args, message) in [
        (
            &[
                "stats",
                "event.pgn",
                "-o",
                "x.csv",
                "--summary-output",
                "x.csv",
            ][..],
            "-o x.csv and --summary-output x.csv are the same file",
        ),
        (
            &[
                "validate",
                "event.pgn",
                "--clean-out",
                "x.pgn",
                "--broken-out",
                "./x.pgn",
            ][..],
            "--clean-out x.pgn and --broken-out ./x.pgn are the same file",
        ),
    ] {
        let output = pgnkit()
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        // Refused before reading: nothing created.
        assert!(!dir.path().join("x.csv").exists());
        assert!(!dir.path().join("x.pgn").exists());
    }

    // Not a collision: an output inside an input folder (not itself a game file of it),
    // and a special file given twice.
    for summary in [
        "/dev/null",
        dir.path().join("summary.csv").to_str().unwrap(),
    ] {
        let (code, _, stderr) = run_args(&[
            "stats",
            dir.path().to_str().unwrap(),
            "-o",
            dir.path().join("rows.csv").to_str().unwrap(),
            "--summary-output",
            summary,
        ]);
        assert_eq!(code, 0, "{stderr}");
    }
    let (code, _, stderr) = run_args(&[
        "stats",
        dir.path().to_str().unwrap(),
        "-o",
        "/dev/null",
        "--summary-output",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{stderr}");
}

// ---- --clean-out and --threads --------------------------------------------------------------

#[test]
fn clean_out_of_a_damaged_compressed_archive_is_the_same_whatever_the_threads() {
    let game = std::fs::read(testdata("clean.pgn")).unwrap();
    let mut archive = Vec::new();
    for _ in 0..300 {
        archive.extend_from_slice(&game);
    }
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(&archive).unwrap();
    let compressed = encoder.finish().unwrap();
    let damaged = &compressed[..compressed.len() / 2];
    // The readable part ends inside a line: the case where the readings differed.
    let mut readable = Vec::new();
    let _ = flate2::read::GzDecoder::new(damaged).read_to_end(&mut readable);
    assert!(!readable.is_empty() && !readable.ends_with(b"\n"));

    let (dir, path) = temp_file("damaged.pgn.gz", damaged);
    let mut copies = Vec::new();
    for threads in ["1", "2", "3"] {
        let clean = dir.path().join(format!("clean{threads}.pgn"));
        let (code, _, stderr) = run_args(&[
            "validate",
            "--threads",
            threads,
            path.to_str().unwrap(),
            "--clean-out",
            clean.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{stderr}");
        copies.push(std::fs::read(&clean).unwrap());
    }
    assert!(!copies[0].is_empty());
    assert!(copies[0] == copies[1], "--threads 1 and 2 differ");
    assert!(copies[1] == copies[2], "--threads 2 and 3 differ");
    // The copy holds only whole lines of the readable part.
    let last_line = copies[0]
        .trim_ascii_end()
        .rsplit(|&b| b == b'\n')
        .next()
        .unwrap();
    let readable_text = String::from_utf8_lossy(&readable);
    assert!(
        readable_text.contains(&format!("{}\n", String::from_utf8_lossy(last_line))),
        "{}",
        String::from_utf8_lossy(last_line)
    );
}

// ---- file modes and links -------------------------------------------------------------------

fn mode_of_new_output(umask: &str) -> u32 {
    let dir = archive();
    let script = format!("umask {umask}; \"$PGNKIT\" validate -q clean.pgn -o out.txt");
    let (code, _, stderr) = shell(dir.path(), &script);
    assert_eq!(code, 0, "{stderr}");
    std::fs::metadata(dir.path().join("out.txt"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}

#[test]
fn a_new_output_file_honours_the_umask() {
    assert_eq!(mode_of_new_output("077"), 0o600);
    assert_eq!(mode_of_new_output("022"), 0o644);
    assert_eq!(mode_of_new_output("002"), 0o664);

    // A file replaced keeps its mode, as with a shell redirect.
    let dir = archive();
    let out = dir.path().join("out.txt");
    std::fs::write(&out, "old").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    let (code, _, stderr) = shell(
        dir.path(),
        "umask 077; \"$PGNKIT\" validate -q clean.pgn -o out.txt",
    );
    assert_eq!(code, 0, "{stderr}");
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
}

#[test]
fn an_output_through_a_symlink_replaces_the_target_and_keeps_the_link() {
    let dir = archive();
    std::fs::create_dir(dir.path().join("real")).unwrap();
    std::fs::write(dir.path().join("real/rows.csv"), "old").unwrap();
    symlink("real/rows.csv", dir.path().join("rows.csv")).unwrap();
    // A dangling link is created through, as a shell redirect does.
    symlink("real/new.csv", dir.path().join("new.csv")).unwrap();
    for name in ["rows.csv", "new.csv"] {
        let output = pgnkit()
            .args(["stats", "-q", "clean.pgn", "-o", name])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{name}");
        let link = dir.path().join(name);
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{name}"
        );
        let target = std::fs::read_to_string(dir.path().join("real").join(name)).unwrap();
        assert!(target.starts_with("file,game,"), "{name}: {target}");
    }
}

// ---- --threads ------------------------------------------------------------------------------

#[test]
fn threads_beyond_four_per_core_are_cut_with_a_warning() {
    let dir = archive();
    let event = dir.path().join("event.pgn");
    let (code, many, stderr) =
        run_args(&["validate", "--threads", "100000", event.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("pgnkit: warning: --threads 100000 is more than 4 per core; using "),
        "{stderr}"
    );
    let (_, one, _) = run_args(&["validate", "--threads", "1", event.to_str().unwrap()]);
    assert_eq!(many, one);
}

// ---- small ones -----------------------------------------------------------------------------

#[test]
fn help_that_cannot_be_written_exits_2() {
    for args in [
        &["--help"][..],
        &["validate", "--help"][..],
        &["--version"][..],
    ] {
        let full = std::fs::File::options()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let status = Command::new(binary())
            .args(args)
            .stdout(full)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}");
    }
    let (code, stdout, _) = run_args(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Usage"));
}

#[test]
fn output_in_a_missing_folder_names_the_folder_not_a_temporary_file() {
    let dir = archive();
    let output = pgnkit()
        .args(["validate", "clean.pgn", "-o", "nowhere/out.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "pgnkit: cannot create nowhere/out.txt: the folder nowhere does not exist\n"
    );
}

#[test]
fn a_damaged_compressed_file_counts_as_a_file_read() {
    let game = std::fs::read(testdata("clean.pgn")).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for _ in 0..50 {
        encoder.write_all(&game).unwrap();
    }
    let compressed = encoder.finish().unwrap();
    let (_dir, path) = temp_file("cut.pgn.gz", &compressed[..compressed.len() / 2]);
    let (code, _, stderr) = run_args(&["validate", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("pgnkit: cannot read "), "{stderr}");
    assert!(stderr.contains("pgnkit: 1 file, "), "{stderr}");
}

// Issue 15, item 13: a game-level input finding names the last ply and the final position.

#[test]
fn input_findings_carry_the_last_ply_and_the_final_position() {
    // Cut inside the game (truncated), and past the nesting limit (limit-exceeded).
    let deep = format!("1. e4 e5 2. Nf3 {}Nc6 *\n", "(".repeat(300));
    for (pgn, code) in [
        ("1. e4 e5 2. Nf3", "input.truncated"),
        (deep.as_str(), "input.limit-exceeded"),
    ] {
        let found = findings_of(pgn, &[]);
        let finding = found
            .iter()
            .find(|f| f["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {found:?}"));
        assert_eq!(finding["ply"], 3, "{finding}");
        assert_eq!(
            finding["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "{finding}"
        );
    }
}

// ---- damaged archives, dangling links -----------------------------------------------------

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
    // `zcat endless.pgn.gz | pgnkit validate --level info | head -1`: far more output
    // than the buffers, from an input that only ends when pgnkit stops reading it.
    for format in ["text", "jsonl", "csv"] {
        closed_pipe_with(format);
    }
}

/// What the closed-pipe run may read before it must have stopped: far more than the
/// buffers between the reader and the closed output hold.
const ENDLESS_CAP: usize = 256 << 20;

fn closed_pipe_with(format: &str) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args(["validate", "--level", "info", "--format", format, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Feeds games until pgnkit stops reading (the write fails) or the cap is reached.
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let games = broken_games(1_000);
        let mut written = 0;
        while written < ENDLESS_CAP && stdin.write_all(&games).is_ok() {
            written += games.len();
        }
        written
    });
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
    let written = feeder.join().unwrap();
    assert_eq!(output.status.code(), Some(0), "{format}");
    assert_eq!(String::from_utf8_lossy(&output.stderr), "", "{format}");
    // The run ended when its output closed: it did not read on to the end of its input.
    assert!(written < ENDLESS_CAP, "{format}: read all {written} bytes");
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

/// `-o /dev/stdout` writes to the descriptor already open, as a shell redirect does:
/// reopening the name fails where the stream cannot be opened again (a socket here; a file
/// owned by another user does the same).
#[test]
fn output_to_dev_stdout_writes_to_the_open_descriptor_even_when_it_cannot_be_reopened() {
    use std::io::Read as _;
    use std::os::unix::net::UnixStream;
    let (_dir, path) = temp_file("one.pgn", &broken_games(1));
    for name in ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"] {
        let (mine, theirs) = UnixStream::pair().unwrap();
        let status = Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
            .args(["validate", "-q", "-o", name])
            .arg(&path)
            .stdout(std::os::fd::OwnedFd::from(theirs))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let mut written = String::new();
        mine.shutdown(std::net::Shutdown::Write).unwrap();
        (&mine).read_to_string(&mut written).unwrap();
        assert_eq!(
            status.status.code(),
            Some(1),
            "{name}: {}",
            String::from_utf8_lossy(&status.stderr)
        );
        assert!(written.contains("move.illegal"), "{name}: {written}");
    }
}

/// Starts `validate -o out.txt` reading a stdin that stays open, sends SIGINT, and waits.
fn interrupt_a_run(dir: &Path) -> (Option<i32>, String) {
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
    // Its stdin stays open, so only the interrupt can end the run; the clock below only
    // keeps a hung run from hanging the tests, and is not a measure of speed.
    let sent = Instant::now();
    let mut waited = None;
    while sent.elapsed() < Duration::from_secs(60) {
        if let Some(status) = child.try_wait().unwrap() {
            waited = Some(status);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if waited.is_none() {
        let _ = child.kill();
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
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
fn ctrl_c_exits_130_and_leaves_no_partial_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let (code, stderr) = interrupt_a_run(dir.path());
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("pgnkit: interrupted"), "{stderr}");
    // Neither the final name nor the temporary file is left behind.
    assert_eq!(names_in(dir.path()), Vec::<String>::new());
}

#[test]
fn ctrl_c_keeps_an_earlier_output_file_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out.txt"), "the previous run\n").unwrap();
    let (code, stderr) = interrupt_a_run(dir.path());
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
