//! `pgnkit check-fen`: every defect named with its code (RULES.md 5.6), warnings for
//! implausible positions, output formats, inputs and --repair.

use crate::util::*;

/// The (severity, code) pairs `check-fen --format jsonl` gives for one FEN, and the exit code.
fn codes(fen: &str, extra: &[&str]) -> (i32, Vec<(String, String)>) {
    let mut args = vec!["check-fen", "--format", "jsonl"];
    args.extend_from_slice(extra);
    args.push(fen);
    let (code, stdout, _) = run_args(&args);
    let pairs = stdout
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["severity"].as_str().unwrap().to_string(),
                v["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (code, pairs)
}

#[test]
fn every_error_code_of_rules_5_6() {
    let cases = [
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "fen.pawns-on-backrank"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "fen.pawns-on-backrank"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "fen.opposite-check"),
        (
            "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1",
            "fen.invalid-castling-rights",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            "fen.invalid-castling-rights",
        ),
        (
            "4k3/8/8/8/8/8/8/r3K2R w KQ - 0 1",
            "fen.invalid-castling-rights",
        ),
        ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "fen.invalid-ep-square"),
        ("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", "fen.invalid-ep-square"),
        (
            "4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1",
            "fen.invalid-ep-square",
        ),
        (
            "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
            "fen.too-much-material",
        ),
        (
            "4k3/8/8/8/8/8/PPPPPPPP/RNNQKNNR w - - 0 1",
            "fen.too-much-material",
        ),
        ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "fen.too-many-kings"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "fen.missing-king"),
        ("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "fen.impossible-check"),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "fen.empty-board"),
        ("4k3/8/8/8/8/8/8 w - - 0 1", "fen.syntax"),
        ("4k4/8/8/8/8/8/8/4K3 w - - 0 1", "fen.syntax"),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "fen.syntax"),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "fen.syntax"),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "fen.syntax"),
    ];
    for (fen, code) in cases {
        let (exit, found) = codes(fen, &[]);
        assert_eq!(exit, 1, "{fen}");
        assert!(
            found.contains(&("error".to_string(), code.to_string())),
            "{fen}: expected {code}, got {found:?}"
        );
    }
}

#[test]
fn missing_king_names_the_side() {
    let (_, stdout, _) = run_args(&["check-fen", "8/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(
        stdout.contains("error[fen.missing-king]: Black has no king"),
        "{stdout}"
    );
}

#[test]
fn several_defects_are_all_named() {
    // No black king, and a pawn on the back rank.
    let (exit, found) = codes("8/8/8/8/8/8/8/P3K3 w - - 0 1", &[]);
    assert_eq!(exit, 1);
    assert_eq!(
        found,
        [
            ("error".to_string(), "fen.missing-king".to_string()),
            ("error".to_string(), "fen.pawns-on-backrank".to_string()),
        ]
    );
}

#[test]
fn warnings_alone_exit_0() {
    // F19/F20: e6 with a clock of 5 (and 5 halfmoves cannot fit in 2 plies).
    let (exit, found) = codes(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 5 2",
        &[],
    );
    assert_eq!(exit, 0);
    assert_eq!(
        found,
        [
            ("warning".to_string(), "fen.implausible-clock".to_string()),
            ("warning".to_string(), "fen.ep-with-clock".to_string()),
        ]
    );
    let (exit, found) = codes(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w qkQK - 0 1",
        &[],
    );
    assert_eq!(exit, 0);
    assert_eq!(
        found,
        [(
            "warning".to_string(),
            "fen.noncanonical-castling".to_string()
        )]
    );
    let (_, found) = codes(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQ - 0 1",
        &[],
    );
    assert_eq!(
        found,
        [(
            "warning".to_string(),
            "fen.noncanonical-castling".to_string()
        )]
    );
}

#[test]
fn plausible_clock_is_quiet() {
    // 99 halfmoves by move 50 with White to move: 98 plies played, so 99 is too many;
    // with Black to move 99 plies were played and 99 is fine.
    let (_, found) = codes("7k/8/8/8/8/8/8/R3K3 w - - 99 50", &[]);
    assert_eq!(
        found,
        [("warning".to_string(), "fen.implausible-clock".to_string())]
    );
    let (exit, found) = codes("7k/8/8/8/8/8/8/R3K3 b - - 99 50", &[]);
    assert_eq!((exit, found), (0, vec![]));
}

#[test]
fn valid_positions_text_ok_and_shredder_as_960() {
    let (exit, stdout, _) = run_args(&[
        "check-fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ]);
    assert_eq!(exit, 0);
    assert_eq!(
        stdout,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1: ok\n\
         bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9: ok\n"
    );
}

#[test]
fn chess960_flag_and_hint() {
    let fen = "4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1";
    let (_, stdout, _) = run_args(&["check-fen", fen]);
    assert!(stdout.contains("valid as Chess960"), "{stdout}");
    let (exit, found) = codes(fen, &["--chess960"]);
    assert_eq!((exit, found), (0, vec![]));
}

#[test]
fn repair_gives_the_nearest_legal_fen() {
    let (exit, stdout, _) = run_args(&["check-fen", "--repair", "4k3/8/8/8/8/8/8/4K3 w K e6 0 1"]);
    assert_eq!(exit, 1);
    assert!(
        stdout.contains("nearest legal FEN: 4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        "{stdout}"
    );
    let (_, stdout, _) = run_args(&["check-fen", "--repair", "8/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(stdout.contains("no legal FEN is near"), "{stdout}");
}

#[test]
fn csv_and_input_file_with_line_numbers() {
    let lines = "# positions\n\
                 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n\
                 \n\
                 8/8/8/8/8/8/8/4K3 w - - 0 1 bm Kd2; id \"x\";\n";
    let (_dir, path) = temp_file("p.epd", lines.as_bytes());
    let (exit, stdout, _) = run_args(&[
        "check-fen",
        "--format",
        "csv",
        "--input",
        path.to_str().unwrap(),
    ]);
    assert_eq!(exit, 1);
    assert_eq!(
        stdout,
        "input,fen,severity,code,message\n\
         4,8/8/8/8/8/8/8/4K3 w - - 0 1,error,fen.missing-king,Black has no king\n"
    );
}

#[test]
fn stdin_when_no_fen_is_given_and_empty_csv_has_a_header() {
    let (exit, stdout, _) = run(
        &["check-fen", "--format", "csv"],
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n",
    );
    assert_eq!(exit, 0);
    assert_eq!(stdout, "input,fen,severity,code,message\n");
    let (exit, stdout, _) = run(&["check-fen"], "4k3/8/8/8/8/8/8/4K3 w - - 0 1\n");
    assert_eq!(exit, 0);
    assert_eq!(stdout, "4k3/8/8/8/8/8/8/4K3 w - - 0 1: ok\n");
}

#[test]
fn invalid_castling_rights_name_only_the_bad_rights_and_what_is_missing() {
    let (exit, stdout, _) = run_args(&["check-fen", "4k3/8/8/8/8/8/8/4K2R w Q - 0 1"]);
    assert_eq!(exit, 1);
    assert_eq!(
        stdout,
        "4k3/8/8/8/8/8/8/4K2R w Q - 0 1: error[fen.invalid-castling-rights]: \
         the castling right for the rook on a1 is invalid: no White rook on a1\n"
    );
    // White's rights are valid here: only Black's are named.
    let (_, stdout, _) = run_args(&["check-fen", "4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1"]);
    assert!(!stdout.contains("a1") && !stdout.contains("h1"), "{stdout}");
    assert!(
        stdout.contains("no Black rook on a8") && stdout.contains("no Black rook on h8"),
        "{stdout}"
    );
}

#[test]
fn color_always_colours_the_severity_as_validate_does() {
    let fen = "4k3/8/8/8/8/8/8/4K2R w Q - 0 1";
    let (code, stdout, _) = run_args(&["check-fen", "--color", "always", fen]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains(": \x1b[31merror[fen.invalid-castling-rights]\x1b[0m: "),
        "{stdout:?}"
    );
    let (_, plain, _) = run_args(&["check-fen", fen]);
    assert!(
        plain.contains(": error[fen.invalid-castling-rights]: "),
        "{plain}"
    );
}
