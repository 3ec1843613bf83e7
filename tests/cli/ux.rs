//! The first five minutes: help, completions, man page, version, colour, readable
//! findings with diagrams, picking games, splitting an event into clean and broken games,
//! and the HTML report.

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

/// The version of a crate as Cargo.lock pins it.
fn locked_version(krate: &str) -> String {
    let lock = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock"),
    )
    .unwrap();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == format!("name = \"{krate}\"") {
            let version = lines.next().unwrap();
            return version
                .trim_start_matches("version = \"")
                .trim_end_matches('"')
                .to_string();
        }
    }
    panic!("{krate} not in Cargo.lock");
}

#[test]
fn long_version_names_the_crates_and_the_rules() {
    let (code, stdout, _) = run_args(&["--version"]);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!("pgnkit {}\n", env!("CARGO_PKG_VERSION"))),
        "{stdout}"
    );
    assert!(stdout.contains("FIDE Laws of Chess 2023"), "{stdout}");
    for krate in ["shakmaty", "pgn-reader"] {
        let expected = format!("{krate} {}", locked_version(krate));
        assert!(stdout.contains(&expected), "{stdout} lacks {expected}");
    }
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

/// Runs `report` and returns the page.
fn report_of(extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let event = event();
    let mut args = vec!["report", "-q", event.as_str(), "-o", page.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (code, _, stderr) = run_args(&args);
    assert_eq!(code, 0, "report exits 0 with broken games: {stderr}");
    std::fs::read_to_string(&page).unwrap()
}

#[test]
fn report_is_one_self_contained_page() {
    let html = report_of(&[]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.trim_end().ends_with("</html>"));
    for outside in ["<script", " src=", "href=", "url(", "@import", "https:"] {
        assert!(
            !html.contains(outside),
            "the page reaches outside: {outside}"
        );
    }
    assert!(
        html.matches("<svg").count() >= 7,
        "charts and boards are inline SVG"
    );
}

#[test]
fn report_summary_counts_the_games() {
    let html = report_of(&[]);
    let card =
        |label: &str| format!("<div class=\"value\">{{}}</div><div class=\"label\">{label}</div>");
    assert!(
        html.contains(&card("games").replace("{}", "4")),
        "games card"
    );
    assert!(html.contains(&card("games with an error").replace("{}", "2")));
    assert!(html.contains(&card("warnings").replace("{}", "1")));
    assert!(
        html.contains(
            "<tr><td>1-0</td><td class=\"num\">3</td><td class=\"num dim\">75.0%</td></tr>"
        )
    );
    assert!(html.contains("<tr><td>0-1</td><td class=\"num\">1</td>"));
    assert!(html.contains("<tr><td>checkmate</td><td class=\"num\">2</td>"));
    assert!(html.contains("<tr><td>illegal</td><td class=\"num\">2</td>"));
    assert!(html.contains("<td><code>move.illegal</code></td><td><span class=\"sev error\">error</span></td><td class=\"num\">1</td>"));
    assert!(html.contains("<td><code>castling.through-check</code></td><td><span class=\"sev error\">error</span></td><td class=\"num\">1</td>"));
    assert!(html.contains("<td><code>result.mismatch</code></td><td><span class=\"sev warning\">warning</span></td><td class=\"num\">1</td>"));
}

#[test]
fn report_draws_a_board_with_an_arrow_for_each_error() {
    let html = report_of(&[]);
    assert_eq!(html.matches("<article class=\"error-card\">").count(), 2);
    assert_eq!(html.matches("<g class=\"arrow\"").count(), 2);
    assert!(html.contains("aria-label=\"position before 5. O-O\""));
    assert!(html.contains("aria-label=\"position before 4. Nd5\""));
    assert!(html.contains("<tr><th>White</th><td>Clark, C.</td></tr>"));
    assert!(html.contains("the knight on c3 is pinned by Bb4 against the king on e1"));
    assert!(!html.contains("not drawn"));

    let limited = report_of(&["--limit", "1"]);
    assert_eq!(limited.matches("<article class=\"error-card\">").count(), 1);
    assert!(
        limited.contains("1 more error finding not drawn"),
        "the rest is counted"
    );
}

#[test]
fn report_does_not_depend_on_the_thread_count() {
    assert_eq!(
        report_of(&["--threads", "1"]),
        report_of(&["--threads", "4"])
    );
}

#[test]
fn report_escapes_what_the_games_say() {
    let pgn = "[White \"<b>Bold</b> & co\"]\n\n1. e4 e5 2. Ke3 *\n";
    let (code, html, stderr) = run(&["report", "-q", "--title", "A <test>"], pgn);
    assert_eq!(code, 0, "{stderr}");
    assert!(html.contains("&lt;b&gt;Bold&lt;/b&gt; &amp; co"));
    assert!(html.contains("<title>A &lt;test&gt;</title>"));
    assert!(!html.contains("<b>Bold"));
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

#[test]
fn report_lists_insufficient_material_among_the_draw_rules() {
    // Both sides left with a king: the rule holds in the final position.
    let pgn = "[FEN \"4k3/8/8/8/8/8/3q4/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kxd2 Kd7 1/2-1/2\n";
    let (code, html, stderr) = run(&["report", "--quiet", "-o", "/dev/stdout"], pgn);
    assert_eq!(code, 0, "{stderr}");
    let draw_rules = html.split("Draw rules").nth(1).unwrap();
    let panel = draw_rules.split("</section>").next().unwrap();
    assert!(panel.contains("insufficient_material"), "{panel}");
    assert!(panel.contains("perpetual_check"), "{panel}");
}
