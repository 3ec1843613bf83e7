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

// Issue 42, items 7 to 9: a FEN's tags and clock, an EPD's last operation.

/// The (game, code, message) of every finding of `validate` at `level` on the issue 42
/// fixture `name`, roster infos left out.
fn trust_findings(name: &str, level: &str) -> Vec<(u64, String, String)> {
    let path = testdata(&format!("trust/{name}"));
    let args = ["validate", "--format", "jsonl", "--quiet", "--level", level];
    let (_, stdout, _) = run_args(&[args.as_slice(), &[path.to_str().unwrap()]].concat());
    stdout
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|f| f["code"] != "tag.missing-roster")
        .map(|f| {
            (
                f["game"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn setup_zero_beside_a_fen_uses_the_fen_and_says_they_disagree() {
    // By hand: from 4k3/8/8/8/8/8/4P3/4K3 w, 1. e4 Kd7 leaves the king on d7, clock 1.
    let found = trust_findings("setup_zero.pgn", "info");
    assert_eq!(
        found,
        [(
            1,
            "tag.bad-value".to_string(),
            "[SetUp \"0\"] beside a [FEN]: the two disagree; the FEN is used".to_string()
        )]
    );
    let path = testdata("trust/setup_zero.pgn");
    let (_, fen, _) = run_args(&["fen", "--quiet", path.to_str().unwrap()]);
    assert_eq!(fen.trim(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
}

#[test]
fn a_fen_clock_of_150_ends_the_game_at_ply_0() {
    // By hand: a clock of 150 has ended game 1 before its one move (ply 0: 1 move after
    // it); a clock of 149 reaches 150 with game 2's first move (ply 1: 2 moves after).
    let found = trust_findings("clock_150.pgn", "warning");
    assert_eq!(
        found,
        [
            (
                1,
                "result.after-automatic-draw".to_string(),
                "the game had already ended in a draw at ply 0 (seventy five moves); the 1 move played after it does not count".to_string()
            ),
            (
                2,
                "result.after-automatic-draw".to_string(),
                "the game had already ended in a draw at ply 1 (seventy five moves); the 2 moves played after it do not count".to_string()
            ),
        ]
    );
    let path = testdata("trust/clock_150.pgn");
    let (_, stdout, _) = run_args(&["stats", "--quiet", path.to_str().unwrap()]);
    let rows = rows_of(&stdout);
    let plies: Vec<&str> = rows
        .iter()
        .map(|r| r["seventy_five_move_ply"].as_str())
        .collect();
    assert_eq!(plies, ["0", "1"]);
}

#[test]
fn an_epd_line_whose_last_operation_lacks_its_semicolon_is_read() {
    // By hand: both lines are legal positions; their `bm` operations are kept.
    let path = testdata("trust/open_operation.epd");
    let path = path.to_str().unwrap();
    let (code, stdout, stderr) = run_args(&["check-fen", "--input", path]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -: ok",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq -: ok",
        ]
    );
    let (code, games, stderr) = run_args(&["pgn", "--input", path]);
    assert_eq!(code, 0, "{stderr}");
    assert!(games.contains("{ bm Qd1+ } *"), "{games}");
    assert!(games.contains("{ bm O-O } *"), "{games}");
}
