//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

/// `validate --format jsonl` findings of `pgn` at level info, as (code, message).
fn findings(pgn: &str) -> Vec<(String, String)> {
    findings_of(pgn, &["--level", "info"])
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn codes(pgn: &str) -> Vec<String> {
    findings(pgn).into_iter().map(|(code, _)| code).collect()
}

/// SPEC's list of replayed variants, in the spellings GUIs write (compared case- and
/// space-insensitively): none is skipped as unsupported, and the Chess960 ones castle as
/// Chess960.
#[test]
fn every_variant_name_of_the_spec_is_replayed() {
    for variant in [
        "",
        "standard",
        "Standard",
        "normal",
        "Normal",
        "chess",
        "From Position",
        "fromposition",
    ] {
        let pgn = format!("[Variant \"{variant}\"]\n\n1. e4 e5 2. Nf3 *\n");
        let found = codes(&pgn);
        assert!(
            !found
                .iter()
                .any(|c| c.starts_with("setup.") || c.starts_with("move.")),
            "{variant}: {found:?}"
        );
    }
    for variant in [
        "chess960",
        "Chess960",
        "chess 960",
        "960",
        "fischerandom",
        "Fischer Random",
        "frc",
        "FRC",
    ] {
        // Kings on f1/f8, rooks on b and g: X-FEN rights valid only in Chess960.
        let pgn = format!(
            "[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"1r3k1r/5ppp/8/8/8/8/5PPP/1R3K1R w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n"
        );
        let found = codes(&pgn);
        assert!(
            !found.iter().any(|c| c.starts_with("setup.")
                || c.starts_with("move.")
                || c.starts_with("castling.")),
            "{variant}: {found:?}"
        );
    }
    let found = codes("[Variant \"Crazyhouse\"]\n\n1. e4 *\n");
    assert!(
        found.contains(&"setup.unsupported-variant".to_string()),
        "{found:?}"
    );
}

const IMPOSSIBLE_RIGHTS: &str =
    "[SetUp \"1\"]\n[FEN \"1r4k1/8/8/8/8/8/8/2K4R b Kq - 0 1\"]\n\n1... O-O-O 2. Kd2 *\n";

/// `Kq` with the white king on c1 and the black king on g8: rights that only Chess960 can
/// have. In a standard game the setup is invalid; `O-O-O` is never played as a Chess960
/// castle.
#[test]
fn impossible_castling_rights_are_an_invalid_setup_in_validate() {
    let found = findings(IMPOSSIBLE_RIGHTS);
    assert_eq!(
        found.first().map(|f| f.0.as_str()),
        Some("setup.invalid-fen"),
        "{found:?}"
    );
    assert!(found[0].1.contains("castling rights"), "{found:?}");
    assert!(
        found.iter().all(|(code, _)| code != "san.check-suffix"),
        "{found:?}"
    );
}

/// `KQq` after Black has castled king side (king g8, rook f8): the `q` right is possible
/// only in Chess960.
#[test]
fn a_right_of_a_king_that_already_castled_is_an_invalid_setup() {
    let pgn = "[SetUp \"1\"]\n[FEN \"r4rk1/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQq - 0 1\"]\n\n1. a3 O-O-O *\n";
    let found = codes(pgn);
    assert_eq!(
        found.first().map(String::as_str),
        Some("setup.invalid-fen"),
        "{found:?}"
    );
}

/// The same FEN, judged by `stats`, `fen`, `convert`, `pgn` and `check-fen` alike.
#[test]
fn impossible_castling_rights_are_judged_alike_by_every_command() {
    let (_, stdout, _) = run(&["stats", "--quiet"], IMPOSSIBLE_RIGHTS);
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let row = reader.records().next().unwrap().unwrap();
    let status = headers.iter().position(|h| h == "status").unwrap();
    assert_eq!(&row[status], "invalid-setup", "{stdout}");
    for command in ["fen", "convert"] {
        let (code, _, stderr) = run(&[command], IMPOSSIBLE_RIGHTS);
        assert_eq!(code, 1, "{command}: {stderr}");
        assert!(stderr.contains("setup.invalid-fen"), "{command}: {stderr}");
    }
    let (code, _, stderr) = run_args(&["pgn", "1r4k1/8/8/8/8/8/8/2K4R b Kq - 0 1"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("fen.invalid-castling-rights"), "{stderr}");
    let (code, stdout, _) = run_args(&["check-fen", "1r4k1/8/8/8/8/8/8/2K4R b Kq - 0 1"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("fen.invalid-castling-rights"), "{stdout}");
}

/// With a Chess960 variant tag the same rights are valid and `O-O-O` is a Chess960 castle.
#[test]
fn chess960_rights_are_played_with_a_chess960_variant() {
    let pgn = format!("[Variant \"Chess960\"]\n{IMPOSSIBLE_RIGHTS}");
    let found = codes(&pgn);
    assert!(
        !found
            .iter()
            .any(|c| c.starts_with("setup.") || c.starts_with("castling.")),
        "{found:?}"
    );
}

/// `check-fen` and `validate` reject the same non-standard FENs, naming the field.
fn assert_rejected_everywhere(fen: &str, field: &str) {
    let (code, stdout, _) = run_args(&["check-fen", "--format", "csv", fen]);
    assert_eq!(code, 1, "{fen}: {stdout}");
    assert!(
        stdout.contains("fen.syntax") && stdout.contains(field),
        "{fen}: {stdout}"
    );
    let found = findings(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n*\n"));
    assert_eq!(
        found.first().map(|f| f.0.as_str()),
        Some("setup.invalid-fen"),
        "{fen}: {found:?}"
    );
    assert!(found[0].1.contains(field), "{fen}: {found:?}");
}

#[test]
fn a_crazyhouse_pocket_or_ninth_rank_is_not_a_standard_fen() {
    assert_rejected_everywhere(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/QQQQ w KQkq - 0 1",
        "the board",
    );
    assert_rejected_everywhere(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQ] w KQkq - 0 1",
        "the board",
    );
}

#[test]
fn clocks_that_are_not_numbers_are_rejected_by_check_fen() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    assert_rejected_everywhere(&format!("{start} 0 x"), "fullmove number");
    assert_rejected_everywhere(&format!("{start} x 1"), "halfmove clock");
    assert_rejected_everywhere(&format!("{start} a 33"), "halfmove clock");
}

#[test]
fn a_rank_written_with_two_digits_is_rejected() {
    assert_rejected_everywhere(
        "rnbqkbnr/pppppppp/17/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rank 6",
    );
}

/// EPD lines: `- -` placeholder clocks, four fields with `;`-terminated operations.
#[test]
fn epd_placeholder_clocks_and_operations_are_accepted() {
    for line in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - - -",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    ] {
        let (code, stdout, _) = run(&["check-fen"], &format!("{line}\n"));
        assert_eq!(code, 0, "{line}: {stdout}");
        assert!(stdout.ends_with(": ok\n"), "{line}: {stdout}");
    }
    let found = codes(
        "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - - -\"]\n\n1. e4 *\n",
    );
    assert!(!found.iter().any(|c| c.starts_with("setup.")), "{found:?}");
}

/// `Regular` and `chess-960` were skipped as unsupported variants (issue 27, item 6).
#[test]
fn the_variant_names_regular_and_chess_960_are_replayed() {
    let found = codes("[Variant \"Regular\"]\n\n1. e4 e5 2. Nf3 *\n");
    assert!(!found.iter().any(|c| c.starts_with("setup.")), "{found:?}");
    let pgn = "[Variant \"chess-960\"]\n[SetUp \"1\"]\n[FEN \"1r3k1r/5ppp/8/8/8/8/5PPP/1R3K1R w KQkq - 0 1\"]\n\n1. O-O O-O-O *\n";
    let found = codes(pgn);
    assert!(
        !found
            .iter()
            .any(|c| c.starts_with("setup.") || c.starts_with("castling.")),
        "{found:?}"
    );
}
