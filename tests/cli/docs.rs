//! Documentation that cannot lie (issue 22): the console blocks of README.md and
//! docs/GUIDE.md and the `Examples:` of every `--help` run against the built binary.
//!
//! - README.md and docs/GUIDE.md: every ```` ```console ```` block runs under trycmd, in a
//!   scratch folder (one per document) that holds a copy of `testdata/`, and its output
//!   (stdout and stderr together, as a terminal shows them) must match what the document
//!   shows; `[..]` elides a volatile part of a line
//!   (timings) and `? 1` states a non-zero exit code. A block that cannot run here is a
//!   ```` ```sh ```` block, and the document says why beside it.
//! - `--help`: every line of a command's `Examples:` section runs through `sh -c` in a
//!   scratch folder whose files carry the names the examples use (`games.pgn`, `archive/`,
//!   ...). It must exit 0 (1 where the example is about games with errors), never with a
//!   usage error, nor with a warning that it read or picked no game, and each file it names
//!   after `-o` or `>` must exist and hold something.
//!   Examples that cannot run here are listed in `NOT_RUN` with the reason.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::testdata;

/// The binary under test.
fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("pgnkit")
}

/// Copies a folder tree (files only, links not followed).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The documents whose console blocks run: the README's tour and the guide.
const DOCUMENTS: &[(&str, &str)] = &[("README.md", "readme"), ("docs/GUIDE.md", "guide")];

#[test]
fn readme_console_blocks_run_as_shown() {
    let scratch = tempfile::tempdir().unwrap();
    let cases = trycmd::TestCases::new();
    cases.register_bin("pgnkit", binary()).env("NO_COLOR", "1");
    for (document, name) in DOCUMENTS {
        let copy = scratch.path().join(format!("{name}.md"));
        fs::copy(
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(document),
            &copy,
        )
        .unwrap();
        // trycmd runs a `NAME.md` in `NAME.in/` when that folder exists.
        copy_tree(
            &testdata(""),
            &scratch.path().join(format!("{name}.in/testdata")),
        );
        cases.case(&copy);
    }
    cases.run();

    // The guide says that the merged summaries of the two shards are byte for byte the
    // summary of one run.
    let tour = scratch.path().join("guide.in");
    let whole = tour.join("whole.sum.csv");
    let status = Command::new(binary())
        .args(["stats", "testdata/sample/", "--quiet", "-o", "/dev/null"])
        .arg("--summary-output")
        .arg(&whole)
        .current_dir(&tour)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        fs::read_to_string(tour.join("total.sum.csv")).unwrap(),
        fs::read_to_string(&whole).unwrap()
    );
}

/// Help examples that are not run, with the reason (the README and `--help` keep them
/// because they show real use).
const NOT_RUN: &[(&str, &str)] = &[];

/// Commands whose `--help` has an `Examples:` section.
const COMMANDS: &[&str] = &[
    "validate",
    "select",
    "stats",
    "fen",
    "pgn",
    "check-fen",
    "convert",
    "perft",
    "report",
    "standings",
    "completions",
    "man",
];

/// The example command lines of one command's `--help`, without their descriptions
/// (a description stands after a run of at least two spaces).
fn help_examples(command: &str) -> Vec<String> {
    let output = Command::new(binary())
        .args([command, "--help"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{command} --help");
    let help = String::from_utf8(output.stdout).unwrap();
    let mut examples = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Examples:" {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            let command_line = line.trim().split("  ").next().unwrap().trim();
            examples.push(command_line.to_string());
        }
    }
    assert!(!examples.is_empty(), "{command} --help has no examples");
    examples
}

/// A scratch folder with a file for every name the examples use.
fn example_fixtures() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let copy = |from: &str, to: &str| {
        fs::copy(testdata(from), root.join(to)).unwrap();
    };
    copy("sample/twic1599-excerpt.pgn", "games.pgn");
    copy("sample/twic1599-excerpt.pgn", "big.pgn");
    copy("ux/event.pgn", "event.pgn");
    copy("stats/annotated.pgn", "lichess.pgn");
    copy("parquet/lichess.parquet", "lichess.parquet");
    copy("convert/immortal_messy.pgn", "messy.pgn");
    copy("perft/tricky.perft", "tricky.perft");
    copy("perft/perftsuite_head.epd", "perftsuite.epd");
    copy("perft/frc_head.epd", "positions.epd");
    copy_tree(&testdata("sample"), &root.join("archive"));
    let games = fs::read(testdata("sample/twic1599-excerpt.pgn")).unwrap();
    fs::write(
        root.join("lichess.pgn.zst"),
        zstd::encode_all(&games[..], 3).unwrap(),
    )
    .unwrap();
    fs::create_dir_all(root.join("home")).unwrap();
    dir
}

/// The files an example writes: the word after `-o`/`--output`/`--summary-output`/
/// `--clean-out`/`--broken-out`, or after `>`/`>>`.
fn written_files(example: &str) -> Vec<String> {
    let words: Vec<&str> = example.split_whitespace().collect();
    words
        .windows(2)
        .filter(|pair| {
            matches!(
                pair[0],
                "-o" | "--output"
                    | "--summary-output"
                    | "--clean-out"
                    | "--broken-out"
                    | ">"
                    | ">>"
            )
        })
        .map(|pair| pair[1].to_string())
        .filter(|file| file != "/dev/null")
        .collect()
}

#[test]
fn every_help_example_runs() {
    let fixtures = example_fixtures();
    let root = fixtures.path();
    let bin_dir = binary().parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for command in COMMANDS {
        for example in help_examples(command) {
            if NOT_RUN.iter().any(|(part, _)| example.contains(part)) {
                continue;
            }
            let output = Command::new("sh")
                .arg("-c")
                .arg(&example)
                .current_dir(root)
                .env("PATH", &path)
                .env("HOME", root.join("home"))
                .env("PROFILE", root.join("home/profile.ps1"))
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            let code = output.status.code().unwrap_or(-1);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                code == 0 || code == 1,
                "`{example}` ({command} --help) exited {code}:\n{stderr}"
            );
            assert!(
                !stderr.contains("error: unexpected argument")
                    && !stderr.contains("error: invalid value"),
                "`{example}` is a usage error:\n{stderr}"
            );
            assert!(
                !stderr.contains("no game"),
                "`{example}` read or picked no game:\n{stderr}"
            );
            for file in written_files(&example) {
                let home = root.join("home").display().to_string();
                let file = file
                    .replace('~', &home)
                    .replace("$PROFILE", &format!("{home}/profile.ps1"));
                let written = root.join(&file);
                let len = fs::metadata(&written).map(|m| m.len()).unwrap_or(0);
                assert!(len > 0, "`{example}` wrote nothing to {file}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 30, "only {ran} help examples ran");
}

/// Every `--help` (and `pgnkit --help`) points to the guide, which exists.
#[test]
fn every_help_points_to_the_guide() {
    let guide = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/GUIDE.md");
    let text = fs::read_to_string(guide).unwrap();
    let mut helps = vec![vec!["--help".to_string()]];
    helps.extend(
        COMMANDS
            .iter()
            .map(|c| vec![c.to_string(), "--help".to_string()]),
    );
    for args in helps {
        let output = Command::new(binary()).args(&args).output().unwrap();
        let help = String::from_utf8(output.stdout).unwrap();
        let pointer = help
            .lines()
            .find(|line| line.starts_with("The guide: docs/GUIDE.md"))
            .unwrap_or_else(|| panic!("{args:?} does not point to docs/GUIDE.md"));
        // Each section the pointer names ("stats columns") is a heading of the guide.
        for section in pointer.split('"').skip(1).step_by(2) {
            assert!(
                text.lines()
                    .any(|l| l.starts_with("## ") && l[3..].starts_with(section)),
                "{args:?} names a section the guide lacks: {section}"
            );
        }
    }
}
