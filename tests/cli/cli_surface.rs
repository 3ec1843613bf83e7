//! What every command shares: help, version, completions, man pages, usage errors, exit
//! codes, colour, the no-game warning, and picking games (--game, --games, --shard).

use crate::util::*;

const COMMANDS: [&str; 10] = [
    "validate",
    "stats",
    "fen",
    "pgn",
    "check-fen",
    "convert",
    "perft",
    "report",
    "completions",
    "man",
];

fn event() -> String {
    testdata("ux/event.pgn").to_str().unwrap().to_string()
}

/// The game numbers of the findings of `validate --format jsonl` with extra flags.
fn games_found(extra: &[&str]) -> Vec<u64> {
    let event = event();
    let mut args = vec!["validate", "--format", "jsonl", "-q", event.as_str()];
    args.extend_from_slice(extra);
    let (_, stdout, stderr) = run_args(&args);
    stdout
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value["game"].as_u64().unwrap_or_else(|| panic!("{stderr}"))
        })
        .collect()
}

#[test]
fn completions_for_every_shell_mention_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (code, stdout, stderr) = run_args(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {stderr}");
        assert!(stdout.len() > 1000, "{shell}: script too short");
        for command in COMMANDS {
            assert!(stdout.contains(command), "{shell} script lacks {command}");
        }
        assert!(
            stdout.contains("--clean-out"),
            "{shell} lacks validate's flags"
        );
    }
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let (code, _, stderr) = run_args(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("possible values"), "{stderr}");
}

#[test]
fn man_page_is_roff_and_lists_every_command() {
    let (code, stdout, stderr) = run_args(&["man"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with(".ie") || stdout.contains(".TH pgnkit"),
        "{stdout}"
    );
    assert!(stdout.contains(".TH pgnkit 1"), "title line");
    for command in COMMANDS {
        let roff = command.replace('-', "\\-");
        assert!(stdout.contains(&roff), "man page lacks {command}");
    }
}

#[test]
fn man_dir_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run_args(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    for page in ["pgnkit.1", "pgnkit-validate.1", "pgnkit-report.1"] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.contains(".TH"), "{page} is not a man page");
    }
    let validate = std::fs::read_to_string(dir.path().join("pgnkit-validate.1")).unwrap();
    assert!(
        validate.contains("broken\\-out"),
        "validate page lacks its flags"
    );
}

/// `--version` names the crates that decide the answers at the versions Cargo.lock pins
/// (build.rs reads them from there), and the rules followed.
#[test]
fn long_version_names_the_locked_crates_and_the_rules() {
    let (code, stdout, _) = run_args(&["--version"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!("pgnkit {}\n", env!("CARGO_PKG_VERSION"))),
        "{stdout}"
    );
    assert!(stdout.contains("FIDE Laws of Chess 2023"), "{stdout}");
    let lock = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"),
    )
    .unwrap();
    let built_on = stdout
        .lines()
        .find_map(|line| line.strip_prefix("built on: "))
        .unwrap_or_else(|| panic!("no `built on:` line in {stdout}"));
    let mut crates = Vec::new();
    for entry in built_on.split(", ") {
        let (krate, version) = entry.split_once(' ').unwrap();
        let pinned = format!("name = \"{krate}\"\nversion = \"{version}\"\n");
        assert!(
            lock.contains(&pinned),
            "{entry} is not what Cargo.lock pins"
        );
        crates.push(krate);
    }
    // pgn-reader is only the benchmark's yardstick, not a crate of the binary.
    assert_eq!(crates, ["shakmaty", "clap", "rayon"], "{stdout}");
    let (_, short, _) = run_args(&["-V"]);
    assert_eq!(short, format!("pgnkit {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn no_arguments_prints_the_commands() {
    let (code, _, stderr) = run_args(&[]);
    assert_eq!(code, 2);
    for command in ["validate", "stats", "report", "completions"] {
        assert!(stderr.contains(command), "{stderr}");
    }
    assert!(stderr.contains("Examples:"), "{stderr}");
}

#[test]
fn a_typo_gets_a_suggestion() {
    let (code, _, stderr) = run_args(&["valdate", "x.pgn"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("similar subcommand") && stderr.contains("'validate'"),
        "{stderr}"
    );
}

#[test]
fn help_has_a_paragraph_headings_and_examples() {
    for command in ["validate", "report"] {
        let (code, stdout, _) = run_args(&[command, "--help"]);
        assert_eq!(code, 0);
        for part in [
            "Input:",
            "Output:",
            "Performance:",
            "Examples:",
            "--shard",
            "--games",
        ] {
            assert!(stdout.contains(part), "{command} --help lacks {part}");
        }
        let example = format!("  pgnkit {command} ");
        assert!(
            stdout.contains(&example),
            "{command}: no example invocation"
        );
    }
    for command in ["completions", "man"] {
        let (_, stdout, _) = run_args(&[command, "--help"]);
        assert!(
            stdout.contains("Examples:"),
            "{command} --help lacks examples"
        );
    }
    let (_, long, _) = run_args(&["validate", "--help"]);
    let (_, short, _) = run_args(&["validate", "-h"]);
    assert!(long.contains("Errors stop"), "no paragraph: {long}");
    assert!(long.len() > short.len());
}

#[test]
fn game_picks_one_game_and_games_a_range() {
    assert_eq!(games_found(&["--game", "3"]), vec![3]);
    assert_eq!(games_found(&["--games", "2..3"]), vec![2, 3]);
    assert_eq!(games_found(&["--games", "3.."]), vec![3, 4]);
    assert_eq!(games_found(&["--games", "..2"]), vec![2]);
    assert_eq!(games_found(&[]), vec![2, 3, 4]);
}

#[test]
fn games_and_shard_both_apply() {
    // 0-based indexes 1 and 3 are shard 1/2: games 2 and 4; --games 1..3 keeps game 2.
    assert_eq!(games_found(&["--shard", "1/2"]), vec![2, 4]);
    assert_eq!(games_found(&["--shard", "1/2", "--games", "1..3"]), vec![2]);
}

#[test]
fn reading_stops_after_the_last_game_picked() {
    let event = event();
    let clean = testdata("clean.pgn");
    let clean = clean.to_str().unwrap();
    // The range ends in the first file: the second is never opened.
    let (code, stdout, stderr) = run_args(&["validate", &event, clean, "--games", "2..3"]);
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), 2, "{stdout}");
    assert!(stderr.contains("pgnkit: 1 file, 2 games,"), "{stderr}");
    // Game 5 is the first game of the second file.
    let (code, stdout, stderr) = run_args(&["validate", &event, clean, "--game", "5"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stderr.contains("pgnkit: 2 files, 1 game"), "{stderr}");
}

#[test]
fn bad_game_numbers_are_usage_errors() {
    let event = event();
    for bad in [
        &["--game", "0"][..],
        &["--games", "3..2"],
        &["--games", "7"],
        &["--game", "1", "--games", "1..2"],
    ] {
        let mut args = vec!["validate", event.as_str()];
        args.extend_from_slice(bad);
        let (code, _, stderr) = run_args(&args);
        assert_eq!(code, 2, "{bad:?}: {stderr}");
    }
}

#[test]
fn empty_input_warns_that_there_is_no_game() {
    let (code, stdout, stderr) = run(&["validate", "-q"], "\n\n");
    assert_eq!(code, 0);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("warning: the input holds no game"),
        "{stderr}"
    );

    let (code, _, stderr) = run_args(&["validate", "-q", &event(), "--game", "9"]);
    assert_eq!(code, 0);
    assert!(
        stderr.contains("--game/--games picked no game (4 read)"),
        "{stderr}"
    );

    let (_, _, stderr) = run_args(&["validate", "-q", &event(), "--shard", "0/3", "--game", "2"]);
    assert!(
        stderr.contains("--game/--games and --shard picked no game (2 read)"),
        "reading stops after game 2: {stderr}"
    );

    let (_, _, stderr) = run_args(&["validate", "-q", &event()]);
    assert!(!stderr.contains("no game"), "{stderr}");
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let event = event();
    let (_, always, _) = run_args(&["validate", "-q", &event, "--color", "always"]);
    assert!(
        always.contains("\x1b[31merror[move.illegal]\x1b[0m"),
        "{always:?}"
    );
    assert!(
        always.contains("\x1b[1m5. O-O\x1b[0m"),
        "the move in bold: {always:?}"
    );
    assert!(
        always.contains("\x1b[33mwarning[result.mismatch]"),
        "{always:?}"
    );
    let (_, piped, _) = run_args(&["validate", "-q", &event]);
    assert!(!piped.contains('\x1b'), "{piped:?}");
    let (_, never, _) = run_args(&["validate", "-q", &event, "--color", "never"]);
    assert!(!never.contains('\x1b'));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("findings.txt");
    let (_, _, _) = run_args(&["validate", "-q", &event, "-o", file.to_str().unwrap()]);
    assert!(!std::fs::read_to_string(&file).unwrap().contains('\x1b'));
}

#[test]
fn help_of_the_other_commands_teaches_too() {
    let cases: [(&str, &[&str]); 6] = [
        ("stats", &["Input:", "Output:", "Performance:"]),
        ("fen", &["Input:", "Output:", "Rules:", "Performance:"]),
        ("pgn", &["Input:", "Output:", "Rules:", "Performance:"]),
        (
            "check-fen",
            &["Input:", "Output:", "Rules:", "Performance:"],
        ),
        ("convert", &["Input:", "Output:", "Performance:"]),
        ("perft", &["Input:", "Output:", "Rules:", "Performance:"]),
    ];
    for (command, headings) in cases {
        let (code, long, stderr) = run_args(&[command, "--help"]);
        assert_eq!(code, 0, "{command} --help: {stderr}");
        assert!(
            long.contains("Examples:"),
            "{command} --help lacks examples"
        );
        let example = format!("  pgnkit {command} ");
        assert!(long.contains(&example), "{command}: no example invocation");
        for heading in headings {
            assert!(long.contains(heading), "{command} --help lacks {heading}");
        }
        let (code, short, _) = run_args(&[command, "-h"]);
        assert_eq!(code, 0);
        // Every flag sits under a heading: only -h/--help is left under "Options:" (in the
        // short help, one line per flag and a blank line after each section).
        let options: Vec<&str> = short
            .split("\nOptions:\n")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or("")
            .lines()
            .collect();
        assert_eq!(
            options.len(),
            1,
            "{command}: flags without a heading: {options:?}"
        );
        assert!(options[0].contains("--help"), "{command}: {options:?}");
        assert!(
            short.len() < long.len(),
            "{command}: -h is not shorter than --help"
        );
    }
}

#[test]
fn unknown_encoding_is_a_usage_error_in_clap_format() {
    let (code, stdout, stderr) = run(&["validate", "--encoding", "cp9999"], "");
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.starts_with(
            "error: invalid value 'cp9999' for '--encoding <NAME>': unknown encoding `cp9999`"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("For more information, try '--help'."),
        "{stderr}"
    );
}

/// Each command's `--format` takes its own values, in its own order, with its own default:
/// one it does not take is clap's usage error naming those (the one parser of
/// `--format`, given each command's list).
#[test]
fn each_format_flag_takes_its_commands_values() {
    let text_or_records = "[possible values: text, jsonl, csv, parquet]";
    for (command, refused, values, default) in [
        (
            "stats",
            "text",
            "[possible values: csv, jsonl, parquet]",
            "[default: csv]",
        ),
        ("validate", "tsv", text_or_records, "[default: text]"),
        ("fen", "Csv", text_or_records, "[default: text]"),
        ("check-fen", "html", text_or_records, "[default: text]"),
    ] {
        let (code, _, stderr) = run_args(&[command, "--format", refused]);
        assert_eq!(code, 2, "{command}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "error: invalid value '{refused}' for '--format <FORMAT>'"
            )),
            "{command}: {stderr}"
        );
        assert!(stderr.contains(values), "{command}: {stderr}");
        let (code, help, stderr) = run_args(&[command, "--help"]);
        assert_eq!(code, 0, "{command}: {stderr}");
        let flag = help.split("--format <FORMAT>").nth(1).unwrap_or_default();
        let flag = flag.split("\n\n  ").next().unwrap_or_default();
        assert!(flag.contains(default), "{command}: {flag}");
        assert!(flag.contains(values), "{command}: {flag}");
    }
}
