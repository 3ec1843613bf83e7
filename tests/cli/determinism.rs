//! Output never depends on the thread count: every game-reading command, over one table
//! of inputs, gives byte-identical output (stdout, every file it writes, exit code) at
//! --threads 1, 2 and 3. A new game-reading command or output flag gets a row in
//! `COMMANDS`; an input that once split differently gets a row in `inputs`.

use crate::util::*;

/// Every game-reading command and output, as arguments before the input. `OUT` stands for
/// a file in the run's folder, compared too.
const COMMANDS: [&[&str]; 20] = [
    &["validate", "--level", "info"],
    &[
        "validate",
        "--level",
        "info",
        "--format",
        "jsonl",
        "--verbose",
    ],
    &["validate", "--format", "csv", "--variations"],
    &[
        "validate",
        "--clean-out",
        "OUT.clean.pgn",
        "--broken-out",
        "OUT.broken.pgn",
    ],
    &["stats", "--summary-output", "OUT.summary.csv"],
    &["stats", "--summary", "-o", "OUT.csv"],
    &["stats", "--tags", "White,ECO,PlyCount"],
    &["fen", "--every-ply", "--format", "csv"],
    &[
        "stats",
        "--format",
        "parquet",
        "--tags",
        "White",
        "-o",
        "OUT.parquet",
    ],
    &[
        "validate",
        "--level",
        "info",
        "--format",
        "parquet",
        "-o",
        "OUT.parquet",
    ],
    &[
        "fen",
        "--every-ply",
        "--format",
        "parquet",
        "-o",
        "OUT.parquet",
    ],
    &["moves", "--fen", "--comments", "--tags", "White"],
    &["moves", "--format", "parquet", "-o", "OUT.parquet"],
    &["moves", "--format", "jsonl"],
    &[
        "moves",
        "--per-game",
        "--format",
        "parquet",
        "-o",
        "OUT.parquet",
    ],
    &["convert"],
    &["convert", "--moves", "uci", "--skip-invalid"],
    &["report", "-o", "OUT.html"],
    &[
        "select",
        "--dedupe",
        "--duplicates-out",
        "OUT.dups.pgn",
        "--duplicates-csv",
        "OUT.dups.csv",
    ],
    &[
        "select",
        "--where",
        "plies > 20 || WhiteElo >= 2500",
        "--dedupe=game",
        "--invert",
    ],
];

/// The inputs: real games, each fixture folder, broken and random bytes. Each is written to
/// a file, repeated past the reader's first chunk (64 KiB), so that workers split it on
/// their own. (`chunks_give_the_output_of_one_thread` below reads a megabyte.)
fn inputs() -> Vec<(&'static str, Vec<u8>)> {
    let file = |name: &str| std::fs::read(testdata(name)).unwrap();
    let folder = |name: &str| {
        let mut paths: Vec<_> = std::fs::read_dir(testdata(name))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
            .collect();
        paths.sort();
        let mut bytes = Vec::new();
        for path in paths {
            bytes.extend(std::fs::read(path).unwrap());
            bytes.extend_from_slice(b"\n");
        }
        bytes
    };
    let mut noise = 0x9e37_79b9_7f4a_7c15_u64;
    let alphabet = b"[]{}()\"\n .123456789abcdefghKQRBNOx-+=#*$!?%;\\/";
    let random: Vec<u8> = (0..64 * 1024)
        .map(|_| {
            noise ^= noise >> 12;
            noise ^= noise << 25;
            noise ^= noise >> 27;
            alphabet[(noise.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % alphabet.len()]
        })
        .collect();
    vec![
        ("twic", file("sample/twic1599-excerpt.pgn")),
        ("event", file("ux/event.pgn")),
        ("clean", file("clean.pgn")),
        ("convert fixtures", folder("convert")),
        ("stats fixtures", folder("stats")),
        ("validate fixtures", folder("validate")),
        ("diagnosis fixtures", folder("diagnosis")),
        ("tricky joins", TRICKY_JOINS.as_bytes().to_vec()),
        ("random", random),
    ]
}

/// Stdout, exit code and the files written of `args` run on `input` at `threads`.
fn outputs_of(args: &[&str], input: &std::path::Path, threads: &str) -> Vec<(String, Vec<u8>)> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let args: Vec<String> = args.iter().map(|arg| arg.replace("OUT", out)).collect();
    let mut all = vec!["--threads", threads, "--quiet"];
    all.extend(args.iter().map(String::as_str));
    all.push(input.to_str().unwrap());
    let output = pgnkit().args(&all).output().unwrap();
    let mut outputs = vec![
        (
            "exit code".to_string(),
            format!("{:?}", output.status.code()).into_bytes(),
        ),
        ("stdout".to_string(), output.stdout),
    ];
    let mut written: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    written.sort();
    for path in written {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        outputs.push((name, std::fs::read(&path).unwrap()));
    }
    outputs
}

#[test]
fn every_command_gives_the_same_bytes_at_1_2_and_3_threads() {
    let dir = tempfile::tempdir().unwrap();
    for (name, unit) in inputs() {
        let copies = 100_000 / unit.len().max(1) + 1;
        let mut bytes = Vec::new();
        for _ in 0..copies {
            bytes.extend_from_slice(&unit);
            bytes.extend_from_slice(b"\n\n");
        }
        let input = dir.path().join(format!("{}.pgn", name.replace(' ', "-")));
        std::fs::write(&input, &bytes).unwrap();
        for args in COMMANDS {
            let one = outputs_of(args, &input, "1");
            let written: usize = one.iter().map(|(_, bytes)| bytes.len()).sum();
            assert!(written > 0, "{name}, {args:?}: nothing written");
            for threads in ["2", "3"] {
                let other = outputs_of(args, &input, threads);
                let names =
                    |o: &[(String, Vec<u8>)]| o.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
                assert_eq!(
                    names(&one),
                    names(&other),
                    "{name}, {args:?}: files written"
                );
                for ((what, a), (_, b)) in one.iter().zip(&other) {
                    assert!(
                        a == b,
                        "{name}, {args:?}: the {what} at {threads} threads differs from one thread"
                    );
                }
            }
        }
    }
}

/// Parquet tables (read in batches, their row groups decoded ahead for the workers, not
/// cut into chunks) give every command's output of one thread too; at 7 threads three
/// row groups of lichess.parquet's four are decoded at once.
#[test]
fn tables_give_the_same_bytes_at_1_2_3_and_7_threads() {
    for name in ["lichess.parquet", "pandas.parquet", "latin1.parquet"] {
        let input = testdata(&format!("parquet/{name}"));
        for args in COMMANDS {
            let one = outputs_of(args, &input, "1");
            for threads in ["2", "3", "7"] {
                let other = outputs_of(args, &input, threads);
                assert!(one == other, "{name}, {args:?}: {threads} threads differ");
            }
        }
    }
}

/// Joins that put a safe cut in doubt: a comment holding a blank line and a tag pair, an
/// escape line, tag pairs after tag pairs, a game without tags after a finished one.
const TRICKY_JOINS: &str = concat!(
    "[Event \"j1\"]\n\n1. e4 {a\n\n[Event \"in a comment\"]\nb} e5 *\n\n",
    "% escape\n\n[Event \"j2\"]\n\n[Site \"more tags\"]\n\n1. d4 d5 1-0\n1. c4 c5 *\n\n",
);

/// Runs `args` on `path` at 1, 2 and 3 threads: the outputs and exit codes must be equal.
fn same_at_every_thread_count(args: &[&str], path: &str) -> String {
    let run_at = |threads: &str| {
        let mut all = vec!["--threads", threads];
        all.extend_from_slice(args);
        all.push(path);
        run_args(&all)
    };
    let (code, one, _) = run_at("1");
    for threads in ["2", "3"] {
        let (other_code, other, _) = run_at(threads);
        assert_eq!(code, other_code, "{args:?} at {threads} threads");
        assert!(
            one == other,
            "{args:?}: the output at {threads} threads differs"
        );
    }
    one
}

/// About 1 MB: more than the reader's chunks, which workers split on their own. Every
/// finding, game number and line, and every stats row, is as one thread reads them.
#[test]
fn chunks_give_the_output_of_one_thread() {
    let parts = [
        "bench/lichess_manwithavan.pgn",
        "sample/problems.pgn",
        "sample/twic1599-excerpt.pgn",
    ];
    let mut pgn = Vec::new();
    for _ in 0..3 {
        for part in parts {
            pgn.extend(std::fs::read(testdata(part)).unwrap());
            pgn.extend_from_slice(b"\n");
            pgn.extend_from_slice(TRICKY_JOINS.as_bytes());
        }
    }
    assert!(pgn.len() > 900_000);
    let (_dir, path) = temp_file("chunks.pgn", &pgn);
    let path = path.to_str().unwrap();
    let findings = same_at_every_thread_count(&["validate", "--level", "info", "-q"], path);
    assert!(findings.lines().count() > 100, "{findings}");
    let rows = same_at_every_thread_count(&["stats", "-q"], path);
    let games = rows.lines().count() - 1;
    assert!(games > 1_000, "{games} games");
    // The last row is numbered after every game before it.
    let last_index = rows.lines().last().unwrap().split(',').nth(1).unwrap();
    assert_eq!(last_index, games.to_string());
}

/// A game longer than the largest chunk (no safe cut in 16 MiB): the rest of the file is
/// split by the reader, with the same games, numbers and lines.
#[test]
fn a_file_without_safe_cuts_gives_the_output_of_one_thread() {
    let body = format!("{}\n", "x".repeat(79)).repeat(220_000);
    let pgn = format!(
        "[Event \"A\"]\n\n1. e4 {{{body}}} e5 *\n\n1. d4 d5 *\n\n{TRICKY_JOINS}[Event \"B\"]\n\n1. e4 e4 *\n"
    );
    assert!(pgn.len() > 17_000_000);
    let (_dir, path) = temp_file("long.pgn", pgn.as_bytes());
    let path = path.to_str().unwrap();
    let findings = same_at_every_thread_count(
        &["validate", "--level", "info", "--format", "jsonl", "-q"],
        path,
    );
    let codes: Vec<(String, u64, u64)> = findings
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["game"].as_u64().unwrap(),
                f["line"].as_u64().unwrap(),
            )
        })
        .filter(|(code, _, _)| code.starts_with("input.") || code.starts_with("move."))
        .collect();
    // The last game's illegal move is found in that game, at its number and first line.
    let tag_line = pgn[..pgn.find("[Event \"B\"]").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert!(tag_line > 220_000);
    assert_eq!(
        codes.first().unwrap(),
        &("input.limit-exceeded".to_string(), 1, 1)
    );
    assert_eq!(
        codes.last().unwrap(),
        &("move.illegal".to_string(), 7, tag_line as u64)
    );
}

/// `validate --level info` (jsonl) and `stats` give byte-identical output at --threads 1
/// and 3 on `unit` repeated past several 64 KiB chunks, which splits into `games` games
/// per copy. Returns the findings. The regression tests of game boundaries use it: every
/// such fix must hold whatever the thread count.
pub(crate) fn same_games_at_any_thread_count(unit: &[u8], games: u64) -> String {
    let copies = 300_000 / unit.len() + 1;
    let pgn = unit.repeat(copies);
    let (_dir, path) = temp_file("many.pgn", &pgn);
    let path = path.to_str().unwrap();
    let outputs: Vec<(String, String, String)> = ["1", "3"]
        .iter()
        .map(|threads| {
            let validate = &["validate", "--format", "jsonl", "--level", "info"];
            let (_, findings, summary) =
                run_args(&[validate.as_slice(), &["--threads", threads, path]].concat());
            let (_, rows, _) = run_args(&["stats", "-q", "--threads", threads, path]);
            (findings, summary, rows)
        })
        .collect();
    assert_eq!(outputs[0].0, outputs[1].0, "validate findings");
    assert_eq!(outputs[0].2, outputs[1].2, "stats rows");
    let expected = format!("{} games", copies as u64 * games);
    for (_, summary, _) in &outputs {
        let summary = summary.replace(',', "");
        assert!(summary.contains(&expected), "{summary} (want {expected})");
    }
    outputs[0].0.clone()
}
