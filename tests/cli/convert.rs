//! `pgnkit convert`: roster order, standard SAN with suffixes, 80-column movetext,
//! comments/NAGs/variations replayed and kept, illegal moves kept as comments, move
//! styles, idempotence.

use crate::util::*;

const EMPTY_ROSTER: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                            [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n\n";

fn convert(pgn: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["convert", "--quiet"];
    args.extend_from_slice(extra);
    run(&args, pgn)
}

#[test]
fn messy_game_comes_out_clean() {
    // Tags out of order and missing, `1.e4` glued numbers, a missing `+` (3...Qh4) and `#`
    // (23.Be7), `!?` and `+=` as symbols, a `;` comment, a multi-line comment.
    let file = testdata("convert/immortal_messy.pgn");
    let (code, stdout, _) = run_args(&["convert", file.to_str().unwrap()]);
    assert_eq!(code, 0);
    let expected = "[Event \"London\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
[White \"Anderssen, Adolf\"]\n[Black \"Kieseritzky, Lionel\"]\n[Result \"1-0\"]\n[ECO \"C33\"]\n\n\
1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ { check, written without the plus sign } 4. Kf1\n\
b5 $5 (4... Nf6 5. Nf3 $1 $14) 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9.\n\
Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6\n\
16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22.\n\
Qf6+ Nxf6 23. Be7# { mate on the board } 1-0\n\n";
    assert_eq!(stdout, expected);
}

#[test]
fn variations_are_replayed_from_the_position_before_the_move_they_replace() {
    let (code, stdout, _) = convert(
        "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) (1... Nf6) 2. Nf3 *\n",
        &[],
    );
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        format!(
            "{EMPTY_ROSTER}1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) 2... d6) (1... Nf6) 2. Nf3 *\n\n"
        )
    );
}

#[test]
fn illegal_move_in_a_variation_is_kept_up_to_it_with_a_comment_and_the_rest() {
    let (code, stdout, stderr) = convert("1. e4 e5 (1... Nf6 2. Ke3 Nc6) 2. Nf3 *\n", &[]);
    assert_eq!(code, 0, "the main line is fine: {stderr}");
    assert_eq!(
        stdout,
        format!(
            "{EMPTY_ROSTER}1. e4 e5 (1... Nf6 {{ Ke3: move.illegal: the king on e1 cannot move to e3; the\n\
             variation stops here }} {{ rest: 2. Ke3 Nc6 }}) 2. Nf3 *\n\n"
        )
    );
}

#[test]
fn error_in_the_main_line_is_written_up_to_it_or_skipped() {
    let pgn = "1. e4 e5 2. Ke3 Nc6 *\n\n1. d4 *\n";
    let (code, stdout, stderr) = convert(pgn, &[]);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with(&format!(
            "{EMPTY_ROSTER}1. e4 e5 {{ rest: 2. Ke3 Nc6 }} *\n\n"
        )),
        "{stdout}"
    );
    assert!(stdout.ends_with("\n\n1. d4 *\n\n"), "{stdout}");
    assert!(
        stderr.contains("game 1, 2. Ke3: error[move.illegal]"),
        "{stderr}"
    );
    let (code, stdout, _) = convert(pgn, &["--skip-invalid"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, format!("{EMPTY_ROSTER}1. d4 *\n\n"));
}

#[test]
fn games_that_cannot_start_are_reported_and_written_as_they_are_or_skipped() {
    let (code, stdout, stderr) = convert("[Variant \"Atomic\"]\n\n1. e4 *\n", &[]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "[Variant \"Atomic\"]\n\n1. e4 *\n\n");
    assert!(stderr.contains("setup.unsupported-variant"), "{stderr}");
    let (code, stdout, _) = convert("[Variant \"Atomic\"]\n\n1. e4 *\n", &["--skip-invalid"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
}

#[test]
fn result_tag_and_marker_agree() {
    let (_, stdout, _) = convert("[Result \"\"]\n\n1. e4 1-0\n", &[]);
    assert!(stdout.contains("[Result \"1-0\"]"), "{stdout}");
    assert!(stdout.ends_with("\n\n1. e4 1-0\n\n"), "{stdout}");
    let (_, stdout, _) = convert("[Result \"0-1\"]\n\n1. e4 *\n", &[]);
    assert!(stdout.contains("[Result \"0-1\"]"), "{stdout}");
    assert!(stdout.ends_with("\n\n1. e4 0-1\n\n"), "{stdout}");
}

#[test]
fn lan_and_uci_moves() {
    let pgn = "[FEN \"8/4P3/8/8/8/8/k7/4K2R w K - 0 1\"]\n\n1. e8=Q Kb2 2. O-O *\n";
    let (_, lan, _) = convert(pgn, &["--moves", "lan"]);
    assert!(lan.ends_with("\n\n1. e7-e8=Q Ka2-b2 2. O-O *\n\n"), "{lan}");
    let (_, uci, _) = convert(pgn, &["--moves", "uci"]);
    assert!(uci.ends_with("\n\n1. e7e8q a2b2 2. e1g1 *\n\n"), "{uci}");
    let (_, lan, _) = convert("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5 *\n", &["--moves", "lan"]);
    assert!(
        lan.ends_with("\n\n1. e2-e4 d7-d5 2. e4xd5 Qd8xd5 3. Nb1-c3 Qd5-e5+ *\n\n"),
        "{lan}"
    );
}

#[test]
fn no_comments_and_no_variations() {
    let pgn = "{intro} 1. e4 {best} e5 $1 (1... c5 {Sicilian}) 2. Nf3 *\n";
    let (_, both, _) = convert(pgn, &["--no-comments", "--no-variations"]);
    assert_eq!(both, format!("{EMPTY_ROSTER}1. e4 e5 $1 2. Nf3 *\n\n"));
    let (_, no_comments, _) = convert(pgn, &["--no-comments"]);
    assert_eq!(
        no_comments,
        format!("{EMPTY_ROSTER}1. e4 e5 $1 (1... c5) 2. Nf3 *\n\n")
    );
    let (_, no_variations, _) = convert(pgn, &["--no-variations"]);
    assert_eq!(
        no_variations,
        format!("{EMPTY_ROSTER}{{ intro }} 1. e4 {{ best }} 1... e5 $1 2. Nf3 *\n\n")
    );
}

#[test]
fn latin1_input_becomes_utf8() {
    let (_dir, path) = temp_file(
        "latin1.pgn",
        b"[White \"M\xfcller\"]\n\n1. e4 {caf\xe9} *\n",
    );
    let (_, stdout, _) = run_args(&["convert", "--quiet", path.to_str().unwrap()]);
    assert!(stdout.contains("[White \"Müller\"]"), "{stdout}");
    assert!(stdout.contains("{ café }"), "{stdout}");
}

#[test]
fn output_wraps_at_80_validates_clean_and_converts_to_itself() {
    for name in [
        "convert/annotated.pgn",
        "convert/philidor.pgn",
        "convert/fischerrandom.pgn",
        "convert/fen_setup.pgn",
        "convert/immortal_messy.pgn",
    ] {
        let file = testdata(name);
        let (code, first, stderr) = run_args(&["convert", "--quiet", file.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {stderr}");
        let games_in = std::fs::read(&file)
            .unwrap()
            .windows(7)
            .filter(|w| w == b"[Event ")
            .count();
        assert_eq!(first.matches("[Event ").count(), games_in, "{name}");
        for line in first.lines() {
            assert!(line.chars().count() <= 80, "{name}: {line}");
        }
        let (_dir, path) = temp_file("once.pgn", first.as_bytes());
        let (_, second, _) = run_args(&["convert", "--quiet", path.to_str().unwrap()]);
        assert_eq!(second, first, "{name} is not idempotent");
        let (code, findings, _) = run_args(&[
            "validate",
            "--quiet",
            "--level",
            "error",
            path.to_str().unwrap(),
        ]);
        assert_eq!((code, findings.as_str()), (0, ""), "{name}");
    }
}

#[test]
fn annotated_torture_test() {
    let file = testdata("convert/annotated.pgn");
    let (_, stdout, _) = run_args(&["convert", "--quiet", file.to_str().unwrap()]);
    let movetext = stdout.split("\n\n").nth(1).unwrap();
    assert_eq!(
        movetext,
        "{ Initial main line comment } 1. e4 $1 $24 { some comment on e4 } 1... e5 $1 2.\n\
         Nf3 { [clk 1:05:23 ] comment on move 2. Nf3 } ({ Initial variation comment for\n\
         move 2.f4 ['just for fun'] } 2. f4 { some comment on f4 } 2... d5) 2... Nc6\n\
         (2... Nf6 3. Nc3 (3. d3 (3. Bc4 Bc5))) ({ Initial variation comment for 2... d6\n\
         } 2... d6) 3. Bc4 $13 *"
    );
}

#[test]
fn null_move_in_a_variation_passes_the_turn_as_validate_reads_it() {
    // The same walker serves `validate --variations`, which accepts this null move.
    let (code, stdout, stderr) = convert("1. e4 e5 (1... -- 2. d4) 2. Nf3 *\n", &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        format!("{EMPTY_ROSTER}1. e4 e5 (1... -- 2. d4) 2. Nf3 *\n\n")
    );
    let (code, out, _) = run(&["validate", "--variations", "-q"], &stdout);
    assert_eq!((code, out.as_str()), (0, ""));
}

#[test]
fn ignore_leaves_an_error_unreported_and_it_does_not_make_exit_1() {
    let pgn = "1. e4 e5 2. Ke3 Nc6 *\n\n1. d4 *\n";
    let (code, stdout, stderr) = convert(pgn, &["--ignore", "move."]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("error["), "{stderr}");
    // The game is still written up to its error, as without the flag.
    let (_, without, _) = convert(pgn, &[]);
    assert_eq!(stdout, without);
}

#[test]
fn select_reports_only_the_codes_it_names() {
    let pgn = "1. e4 e5 2. Ke3 Nc6 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n";
    let (code, _, stderr) = convert(pgn, &["--select", "setup."]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("error[setup.unsupported-variant]"),
        "{stderr}"
    );
    assert!(!stderr.contains("move.illegal"), "{stderr}");
}

/// --skip-invalid judges a game by all its errors, as `validate --broken-out` does:
/// an ignored error is not reported, and its game is skipped all the same.
#[test]
fn skip_invalid_skips_a_game_whose_error_is_ignored() {
    let pgn = "1. e4 e5 2. Ke3 Nc6 *\n\n1. d4 *\n";
    let (code, stdout, stderr) = convert(pgn, &["--skip-invalid", "--ignore", "move."]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "");
    assert_eq!(stdout, format!("{EMPTY_ROSTER}1. d4 *\n\n"));
}
