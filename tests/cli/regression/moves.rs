//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

// move numbers and stray tokens

/// The findings (at the default level) and the plies replayed of one PGN text.
fn findings_and_plies(pgn: &str) -> (Vec<serde_json::Value>, String) {
    let (_, _, stderr) = run(&["validate", "--format", "jsonl", "-"], pgn);
    (findings_of(pgn, &[]), stderr)
}

#[test]
fn periods_standing_apart_from_the_move_number_are_read_as_move_numbers() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 5. ... Ba5 6. d4 *\n";
    let (found, stderr) = findings_and_plies(pgn);
    assert!(found.is_empty(), "{found:?}");
    assert!(stderr.contains(" 11 plies"), "{stderr}");
}

#[test]
fn a_move_number_and_periods_apart_are_read_as_a_move_number() {
    let pgn = concat!(
        "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n",
        "1 ... e5 2 . Nf3 .. Nc6 3 ...Bb5 *\n",
    );
    let (found, stderr) = findings_and_plies(pgn);
    assert!(found.is_empty(), "{found:?}");
    assert!(stderr.contains(" 4 plies"), "{stderr}");
}

#[test]
fn unmatched_closing_parentheses_are_reported() {
    let mut pgn = String::from("1. e4 e5 ");
    pgn.push_str(&") ".repeat(100_000));
    pgn.push_str("2. Nf3 *\n");
    let (code, stdout, _) = run(&["validate", "--format", "jsonl", "-q", "-"], &pgn);
    assert_eq!(code, 0, "a warning");
    let found: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "input.unbalanced-parenthesis");
    assert_eq!(found[0]["severity"], "warning");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("100000 `)` close no variation"),
        "{message}"
    );
}

#[test]
fn an_unclosed_variation_is_reported() {
    let found = findings_of("1. e4 e5 (1... c5 2. Nf3 *\n\n1. d4 *\n", &[]);
    let codes: Vec<&str> = found.iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"input.unbalanced-parenthesis"), "{codes:?}");
}

#[test]
fn convert_keeps_nags_past_255_as_written() {
    let (code, stdout, _) = run(&["convert", "-q", "-"], "1. e4 $256 e5 $999 $1 *\n");
    assert_eq!(code, 0);
    assert!(stdout.contains("1. e4 $256 e5 $999 $1 *"), "{stdout}");
}
