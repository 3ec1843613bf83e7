//! What a `Termination` tag claims, checked against the recorded result and the board
//! (SPEC.md "What a Termination tag claims"): every claim of the table supported and
//! contradicted, the answers worked out by hand (the positions are given beside each).

use crate::util::{findings_of, run, testdata};

const CONFLICT: &str = "result.termination-conflict";
const WINNABLE: &str = "result.timeout-draw-winnable";

/// A game with these tags before its movetext.
fn game(tags: &[(&str, &str)], movetext: &str) -> String {
    let mut pgn = String::new();
    for (name, value) in tags {
        pgn.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    pgn.push('\n');
    pgn.push_str(movetext);
    pgn.push('\n');
    pgn
}

/// The messages of the findings of `code` that `validate --level info` raises.
fn messages(pgn: &str, code: &str) -> Vec<String> {
    findings_of(pgn, &["--level", "info"])
        .iter()
        .filter(|f| f["code"] == code)
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect()
}

/// The one message of `code`, or a failure naming what was found.
fn one(pgn: &str, code: &str) -> String {
    let found = messages(pgn, code);
    assert_eq!(found.len(), 1, "{code} in {pgn}: {found:?}");
    found.into_iter().next().unwrap()
}

fn none(pgn: &str) {
    for code in [CONFLICT, WINNABLE] {
        let found = messages(pgn, code);
        assert!(found.is_empty(), "{code} in {pgn}: {found:?}");
    }
}

/// The real lichess game, its `Result` and `Termination` tags replaced.
fn lichess(result: &str, termination: &str) -> String {
    let text = std::fs::read_to_string(testdata("termination/lichess_time_forfeit.pgn")).unwrap();
    text.replace("[Result \"1-0\"]", &format!("[Result \"{result}\"]"))
        .replace(
            "[Termination \"Time forfeit\"]",
            &format!("[Termination \"{termination}\"]"),
        )
        .replace(" 1-0\n", &format!(" {result}\n"))
}

#[test]
fn checkmate_is_a_checkmate_on_the_board() {
    let fools = "1. f3 e5 2. g4 Qh4# 0-1";
    none(&game(
        &[("Result", "0-1"), ("Termination", "Black won by checkmate")],
        fools,
    ));
    let message = one(
        &game(
            &[("Result", "1-0"), ("Termination", "Checkmate")],
            "1. e4 e5 1-0",
        ),
        CONFLICT,
    );
    assert!(
        message.contains("the final position is not checkmate"),
        "{message}"
    );
    // A checkmate claimed on a game recorded as a draw: the result contradicts it first.
    let message = one(
        &game(
            &[("Result", "1/2-1/2"), ("Termination", "checkmate")],
            "1. f3 e5 2. g4 Qh4# 1/2-1/2",
        ),
        CONFLICT,
    );
    assert!(message.contains("recorded as a draw"), "{message}");
}

#[test]
fn resignation_needs_a_decisive_result_and_a_game_still_going() {
    none(&game(
        &[("Result", "0-1"), ("Termination", "White resigns")],
        "1. e4 e5 0-1",
    ));
    let message = one(
        &game(
            &[("Result", "1/2-1/2"), ("Termination", "White resigns")],
            "1. e4 e5 1/2-1/2",
        ),
        CONFLICT,
    );
    assert!(message.contains("claims a resignation"), "{message}");
    // 7k/8/6K1/8/8/8/8/5Q2 w: 1. Qf7 stalemates the king on h8.
    let message = one(
        &game(
            &[
                ("Result", "1-0"),
                ("Termination", "Black resigned"),
                ("SetUp", "1"),
                ("FEN", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"),
            ],
            "1. Qf7 1-0",
        ),
        CONFLICT,
    );
    assert!(
        message.contains("already ended on the board by stalemate"),
        "{message}"
    );
}

/// The real game: White won on time after 42. Rxd4, Black to move (Black's clock ran).
#[test]
fn a_loss_on_time_is_the_loss_of_the_side_to_move() {
    none(&lichess("1-0", "Time forfeit"));
    none(&lichess("1-0", "Sarah-Sh won on time"));
    let message = one(&lichess("0-1", "Time forfeit"), CONFLICT);
    assert!(
        message.contains("White had just moved in the final position"),
        "{message}"
    );
    // Unknown values claim nothing, whatever the board.
    none(&lichess("0-1", "Normal"));
    none(&lichess("0-1", "Abandoned"));
}

#[test]
fn stalemate_is_a_stalemate_on_the_board() {
    let fen = ("FEN", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    none(&game(
        &[
            ("Result", "1/2-1/2"),
            ("Termination", "Game drawn by stalemate"),
            ("SetUp", "1"),
            fen,
        ],
        "1. Qf7 1/2-1/2",
    ));
    let message = one(
        &game(
            &[
                ("Result", "1/2-1/2"),
                ("Termination", "stalemate"),
                ("SetUp", "1"),
                fen,
            ],
            "1. Qg2 1/2-1/2",
        ),
        CONFLICT,
    );
    assert!(
        message.contains("the final position is not stalemate"),
        "{message}"
    );
}

/// FIDE 9.2: the position occurred three times, or the next move makes it so.
#[test]
fn repetition_is_claimable_in_the_final_position() {
    let tags = [
        ("Result", "1/2-1/2"),
        ("Termination", "Game drawn by repetition"),
    ];
    // The start position a third time.
    none(&game(
        &tags,
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2",
    ));
    // Twice, and 4... Ng8 would bring the start position back a third time.
    none(&game(
        &tags,
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2",
    ));
    // The start position twice: no move from it repeats anything a third time.
    let message = one(&game(&tags, "1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2"), CONFLICT);
    assert!(message.contains("has occurred twice"), "{message}");
    let message = one(&game(&tags, "1. e4 e5 1/2-1/2"), CONFLICT);
    assert!(message.contains("has occurred once"), "{message}");
}

/// FIDE 9.3: fifty moves of each side without a capture or a pawn move, or the next one.
#[test]
fn fifty_moves_are_claimable_in_the_final_position() {
    let tags = |clock: &'static str| {
        [
            ("Result", "1/2-1/2"),
            ("Termination", "Game drawn by 50-move rule"),
            ("SetUp", "1"),
            ("FEN", clock),
        ]
    };
    // After 1. Ra2 the clock is 99 and any king move of Black brings it to 100.
    none(&game(
        &tags("8/8/8/4k3/8/8/4K3/R7 w - - 98 60"),
        "60. Ra2 1/2-1/2",
    ));
    let message = one(
        &game(&tags("8/8/8/4k3/8/8/4K3/R7 w - - 40 60"), "60. Ra2 1/2-1/2"),
        CONFLICT,
    );
    assert!(message.contains("halfmove clock is 41"), "{message}");
}

/// chess.com's rulings: K+B v K+B on opposite colours and K+N v K+N are not insufficient
/// material (a series of legal moves mates), bishops on one colour are.
#[test]
fn insufficient_material_means_no_side_can_mate() {
    let claim = |fen: &'static str, movetext: &str| {
        game(
            &[
                ("Result", "1/2-1/2"),
                ("Termination", "Game drawn by insufficient material"),
                ("SetUp", "1"),
                ("FEN", fen),
            ],
            movetext,
        )
    };
    // Bishops on c5 (dark) and g2 (light).
    let message = one(
        &claim("8/8/8/2b1k3/8/8/4K3/5B2 w - - 0 1", "1. Bg2 1/2-1/2"),
        CONFLICT,
    );
    assert!(message.contains("White can still mate"), "{message}");
    // A knight each.
    let message = one(
        &claim("8/8/8/3nk3/8/8/4K3/6N1 w - - 0 1", "1. Nh3 1/2-1/2"),
        CONFLICT,
    );
    assert!(message.contains("can still mate"), "{message}");
    // Bishops on c4 and g2, both light: no side can mate.
    none(&claim(
        "8/8/8/4k3/2b5/8/4K3/5B2 w - - 0 1",
        "1. Bg2 1/2-1/2",
    ));
}

#[test]
fn a_draw_claim_contradicts_a_decisive_result() {
    let message = one(
        &game(
            &[
                ("Result", "1-0"),
                ("Termination", "Game drawn by agreement"),
            ],
            "1. e4 e5 1-0",
        ),
        CONFLICT,
    );
    assert!(message.contains("recorded as 1-0"), "{message}");
    none(&game(
        &[("Result", "1/2-1/2"), ("Termination", "Draw agreed")],
        "1. e4 e5 1/2-1/2",
    ));
    // `*` contradicts no claim.
    none(&game(
        &[("Result", "*"), ("Termination", "agreement")],
        "1. e4 e5 *",
    ));
}

/// FIDE 6.9: a flag fell, and the side whose clock was not running can still mate: a
/// win for that side, not a draw.
#[test]
fn a_draw_on_time_against_a_side_that_can_mate_is_its_win() {
    let timeout = |fen: &'static str| {
        game(
            &[
                ("Result", "1/2-1/2"),
                (
                    "Termination",
                    "Game drawn by timeout vs insufficient material",
                ),
                ("SetUp", "1"),
                ("FEN", fen),
            ],
            "1. Nh3 1/2-1/2",
        )
    };
    // White (K+N) against K+N, Black to move: White can mate with the knight's help.
    let pgn = timeout("8/8/8/3nk3/8/8/4K3/6N1 w - - 0 1");
    let message = one(&pgn, WINNABLE);
    assert!(message.contains("a win for White"), "{message}");
    assert!(messages(&pgn, CONFLICT).is_empty());
    // convert --fix-results gives the game to White.
    let (_, converted, _) = run(&["convert", "--fix-results", "-q"], &pgn);
    assert!(converted.contains("[Result \"1-0\"]"), "{converted}");
    assert!(converted.trim_end().ends_with("1-0"), "{converted}");
    // K+N against a bare king cannot mate.
    none(&timeout("8/8/8/4k3/8/8/4K3/6N1 w - - 0 1"));
    // The real game drawn on time with Black to move: White has a rook, a knight and
    // pawns.
    let message = one(&lichess("1/2-1/2", "Time forfeit"), WINNABLE);
    assert!(message.contains("a win for White"), "{message}");
}
