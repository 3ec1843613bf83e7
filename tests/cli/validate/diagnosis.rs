//! Rule diagnosis (issue 3): castling, en passant, promotion, notation, ordinary illegal
//! moves, results, tags and variations. Fixtures in `testdata/diagnosis/`; most games are
//! the verified cases of RULES.md section 5 (named in each game's Event tag).

use serde_json::Value;

use crate::util::*;

/// `validate --level info --format jsonl` of a fixture, with extra flags.
fn findings(fixture: &str, extra: &[&str]) -> Vec<Value> {
    let path = testdata(&format!("diagnosis/{fixture}"));
    let mut args = vec![
        "validate",
        "--format",
        "jsonl",
        "--level",
        "info",
        "--quiet",
        path.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run_args(&args);
    assert!(code == 0 || code == 1, "exit {code}: {stderr}");
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The findings of game `game`, roster infos left out (the fixtures carry few tags).
fn of_game(all: &[Value], game: u64) -> Vec<&Value> {
    all.iter()
        .filter(|f| f["game"] == game && f["code"] != "tag.missing-roster")
        .collect()
}

/// Asserts that game `game` has exactly one finding and that it is `code` at `ply`, on
/// `move`, with every key word in its message; returns the finding.
fn only<'a>(
    all: &'a [Value],
    game: u64,
    code: &str,
    ply: u64,
    mv: &str,
    words: &[&str],
) -> &'a Value {
    let found = of_game(all, game);
    assert_eq!(found.len(), 1, "game {game}: {found:#?}");
    let f = found[0];
    check(f, code, ply, mv, words);
    f
}

fn check(f: &Value, code: &str, ply: u64, mv: &str, words: &[&str]) {
    assert_eq!(f["code"], code, "{f:#?}");
    assert_eq!(f["ply"], ply, "{f:#?}");
    assert_eq!(f["move"], mv, "{f:#?}");
    let message = f["message"].as_str().unwrap();
    for word in words {
        assert!(message.contains(word), "`{word}` not in: {message}");
    }
}

fn clean(all: &[Value], game: u64) {
    let found = of_game(all, game);
    assert!(found.is_empty(), "game {game}: {found:#?}");
}

#[test]
fn castling_king_moved_from_standard_and_fen_start_and_already_castled() {
    let all = findings("castling.pgn", &[]);
    only(&all, 1, "castling.king-moved", 11, "6. O-O", &["2. Ke2"]);
    only(&all, 2, "castling.king-moved", 5, "3. O-O", &["1. Kf1"]);
    only(
        &all,
        3,
        "castling.king-moved",
        17,
        "9. O-O",
        &["already castled at 4. O-O"],
    );
}

#[test]
fn castling_rook_moved_and_rook_captured() {
    let all = findings("castling.pgn", &[]);
    only(
        &all,
        4,
        "castling.rook-moved",
        11,
        "6. O-O",
        &["h1 rook", "2. Rg1"],
    );
    only(
        &all,
        5,
        "castling.rook-moved",
        5,
        "3. O-O-O",
        &["a1 rook", "1. Rb1"],
    );
    only(
        &all,
        6,
        "castling.rook-captured",
        12,
        "6... O-O",
        &["h8 rook", "5. Bxh8"],
    );
    only(
        &all,
        7,
        "castling.rook-captured",
        2,
        "2. O-O",
        &["h1 rook", "1... Bxh1"],
    );
    only(
        &all,
        8,
        "castling.rook-captured",
        4,
        "3. O-O",
        &["1... Bxh1", "different piece"],
    );
}

#[test]
fn castling_no_right_in_the_setup() {
    let all = findings("castling.pgn", &[]);
    only(
        &all,
        9,
        "castling.no-right",
        1,
        "1. O-O",
        &["castling field", "h1"],
    );
    only(
        &all,
        10,
        "castling.no-right",
        1,
        "1. O-O",
        &["no White rook on h1"],
    );
}

#[test]
fn castling_temporary_reasons_from_standard_and_fen_start() {
    let all = findings("castling.pgn", &[]);
    only(&all, 11, "castling.in-check", 5, "3. O-O", &["Bb4"]);
    only(&all, 12, "castling.in-check", 1, "1. O-O", &["Re5"]);
    only(&all, 13, "castling.blocked", 1, "1. O-O", &["Bf1", "Ng1"]);
    only(&all, 14, "castling.blocked", 1, "1. O-O-O", &["Nb1"]);
    only(
        &all,
        15,
        "castling.through-check",
        7,
        "4. O-O",
        &["f1", "Nh2"],
    );
    only(
        &all,
        16,
        "castling.through-check",
        1,
        "1. O-O",
        &["f1", "Rf5"],
    );
    only(
        &all,
        17,
        "castling.through-check",
        1,
        "1. O-O",
        &["f1", "Ne3"],
    );
    only(&all, 18, "castling.into-check", 9, "5. O-O", &["g1", "Bc5"]);
    only(&all, 19, "castling.into-check", 1, "1. O-O", &["g1", "Rg5"]);
    // C10: b1 and h1 may be attacked.
    clean(&all, 20);
}

#[test]
fn castling_precedence_follows_spec_order() {
    let all = findings("castling.pgn", &[]);
    // king-moved before rook-moved
    only(&all, 21, "castling.king-moved", 15, "8. O-O", &["5. Ke2"]);
    // king-moved before rook-captured
    only(&all, 22, "castling.king-moved", 6, "4. O-O", &["2. Kf1"]);
    // no-right before in-check
    only(&all, 23, "castling.no-right", 1, "1. O-O", &[]);
    // in-check before blocked (standard start: Bf1 and Ng1 still home)
    only(&all, 11, "castling.in-check", 5, "3. O-O", &[]);
    // blocked before through-check
    only(&all, 24, "castling.blocked", 1, "1. O-O", &["Bf1"]);
    // through-check before into-check
    only(&all, 25, "castling.through-check", 1, "1. O-O", &["f1"]);
}

#[test]
fn chess960_castling_is_diagnosed_with_the_same_codes() {
    let all = findings("chess960.pgn", &[]);
    clean(&all, 1);
    only(
        &all,
        2,
        "castling.rook-moved",
        5,
        "3. O-O",
        &["g1 rook", "1. Rh1"],
    );
    only(&all, 3, "castling.blocked", 1, "1. O-O", &["Nf1"]);
    only(&all, 4, "castling.blocked", 1, "1. O-O-O", &["Nd1"]);
    only(&all, 5, "castling.king-moved", 5, "3. O-O-O", &["1. Kd1"]);
    let king_takes_rook = of_game(&all, 6);
    assert_eq!(king_takes_rook.len(), 2, "{king_takes_rook:#?}");
    check(king_takes_rook[0], "san.notation", 1, "1. f1g1", &["O-O"]);
    check(king_takes_rook[1], "san.notation", 2, "1... f8g8", &["O-O"]);
}

#[test]
fn en_passant_window_closed_after_one_and_several_moves() {
    let all = findings("en_passant.pgn", &[]);
    let game = of_game(&all, 2);
    assert_eq!(game.len(), 2, "{game:#?}");
    check(game[0], "en-passant.missed", 5, "3. Nc3", &["exd6"]);
    check(
        game[1],
        "en-passant.window-closed",
        7,
        "4. exd6",
        &["2... d5", "(3.)"],
    );
    let game = of_game(&all, 3);
    check(
        game[1],
        "en-passant.window-closed",
        9,
        "5. exd6",
        &["2... d5", "(3.)"],
    );
    let game = of_game(&all, 4);
    check(
        game[1],
        "en-passant.window-closed",
        3,
        "4. exd6",
        &["start position", "d6"],
    );
}

#[test]
fn en_passant_without_a_double_step_names_how_the_pawn_arrived() {
    let all = findings("en_passant.pgn", &[]);
    only(
        &all,
        5,
        "en-passant.no-double-step",
        5,
        "3. exd6",
        &["single step", "2... d5"],
    );
    only(
        &all,
        6,
        "en-passant.no-double-step",
        9,
        "5. exd6",
        &["capture", "4... cxd5"],
    );
    only(
        &all,
        7,
        "en-passant.no-double-step",
        1,
        "3. exd6",
        &["since the start position"],
    );
}

#[test]
fn en_passant_that_exposes_the_king_names_the_line() {
    let all = findings("en_passant.pgn", &[]);
    only(
        &all,
        8,
        "en-passant.exposes-king",
        2,
        "2. bxc6",
        &["rank 5", "Rh5"],
    );
    only(
        &all,
        9,
        "en-passant.exposes-king",
        2,
        "2. dxc6",
        &["pinned", "diagonal", "Bg8"],
    );
}

#[test]
fn legal_en_passant_gives_no_error_and_a_missed_one_is_info() {
    let all = findings("en_passant.pgn", &[]);
    for game in [1, 10, 11, 12] {
        clean(&all, game);
    }
    only(&all, 13, "en-passant.missed", 5, "3. Nc3", &["exd6"]);
    // No enemy pawn beside the mover: not an en passant code.
    only(
        &all,
        14,
        "move.illegal",
        5,
        "3. exd6",
        &["nothing to capture on d6"],
    );
}

#[test]
fn promotion_codes_and_their_precedence() {
    let all = findings("promotion.pgn", &[]);
    clean(&all, 1);
    only(&all, 2, "promotion.missing", 1, "1. e8", &["7.5.2", "e8=Q"]);
    only(
        &all,
        3,
        "promotion.to-king",
        1,
        "1. e8=K",
        &["king", "e8=Q would be legal"],
    );
    only(&all, 4, "promotion.to-pawn", 1, "1. e8=P", &["pawn"]);
    only(
        &all,
        5,
        "promotion.not-last-rank",
        1,
        "1. e7=Q",
        &["e7", "last rank"],
    );
    only(
        &all,
        6,
        "promotion.not-last-rank",
        1,
        "1. e7=K",
        &["last rank"],
    );
    only(
        &all,
        10,
        "promotion.not-a-pawn",
        1,
        "1. Nd2=Q",
        &["knight", "Nd2 alone"],
    );
    only(&all, 11, "promotion.not-a-pawn", 1, "1. Nd2=K", &["knight"]);
    // e8=Q would not be legal either: the pawn is blocked, so it is no promotion code.
    only(&all, 12, "move.illegal", 1, "1. e8", &["blocked by Ne8"]);
    only(&all, 13, "promotion.missing", 1, "1... d1", &["d1=Q"]);
}

#[test]
fn under_promotions_are_legal() {
    let all = findings("promotion.pgn", &[]);
    for game in [7, 8, 9] {
        clean(&all, game);
    }
}

#[test]
fn non_standard_notation_is_read_as_the_move_it_means() {
    let all = findings("notation.pgn", &[]);
    let cases: [(u64, u64, &str, &str); 13] = [
        (19, 3, "2. Nxg1f3", "read as Nf3"),
        (1, 1, "1. e8Q", "read as e8=Q"),
        (2, 1, "1. e8", "parentheses"),
        (3, 1, "1. e8/Q", "read as e8=Q"),
        (4, 1, "1. e8=q", "lower case"),
        (8, 1, "1. e7e8q", "read as e8=Q"),
        (9, 1, "1. e1g1", "read as O-O"),
        (10, 2, "1... 1…e5", "read as e5"),
        (11, 7, "4. Qxf7++", "read as Qxf7#"),
        (12, 5, "3. exd6", "e.p."),
        (13, 5, "3. exd6ep", "read as exd6"),
        (14, 7, "4. 0-0", "read as O-O"),
        (7, 3, "2. g1f3", "read as Nf3"),
    ];
    for (game, ply, mv, words) in cases {
        let found: Vec<&Value> = of_game(&all, game)
            .into_iter()
            .filter(|f| f["ply"] == ply)
            .collect();
        assert_eq!(found.len(), 1, "game {game}: {found:#?}");
        check(found[0], "san.notation", ply, mv, &[words]);
    }
    let lan = of_game(&all, 5);
    assert_eq!(lan.len(), 6, "{lan:#?}");
    check(
        lan[2],
        "san.notation",
        3,
        "2. Ng1-f3",
        &["read as Nf3", "long algebraic"],
    );
    let lan_capture = of_game(&all, 6);
    check(
        lan_capture[2],
        "san.notation",
        5,
        "3. Nxc3e4",
        &["read as Nxe4"],
    );
}

#[test]
fn what_means_no_move_stays_move_syntax() {
    let all = findings("notation.pgn", &[]);
    only(&all, 15, "move.syntax", 3, "2. Sf3", &["`Sf3`"]);
    only(&all, 16, "move.syntax", 2, "1... xyz", &["`xyz`"]);
}

#[test]
fn check_suffix_missing_or_wrong_is_info_at_the_move() {
    let all = findings("notation.pgn", &[]);
    let f = only(&all, 17, "san.check-suffix", 7, "4. Qxf7", &["`#`"]);
    // The position before the move, as for every move finding.
    assert_eq!(
        f["fen"],
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    );
    only(
        &all,
        18,
        "san.check-suffix",
        1,
        "1. e4+",
        &["`+`", "no suffix"],
    );
}

#[test]
fn ordinary_illegal_moves_say_why() {
    let all = findings("moves.pgn", &[]);
    only(&all, 1, "move.illegal", 1, "1. Qd1", &["no queen"]);
    only(
        &all,
        2,
        "move.illegal",
        1,
        "1. Nc4",
        &["b1", "g1", "cannot move to c4"],
    );
    only(
        &all,
        3,
        "move.illegal",
        1,
        "1. Bc4",
        &["f1", "blocked by pawn e2"],
    );
    only(
        &all,
        4,
        "move.illegal",
        7,
        "4. Nd5",
        &["c3", "pinned by Bb4"],
    );
    only(&all, 5, "move.illegal", 5, "3. a3", &["in check from Bb4"]);
    only(
        &all,
        6,
        "move.illegal",
        7,
        "4. Kg3",
        &["check on g3", "Qf2"],
    );
    // A capture marker on an empty square, or none on a capture, is a loose spelling of
    // the one move the token can mean (issue 14): read, with the standard SAN.
    only(
        &all,
        7,
        "san.notation",
        1,
        "1. Nxf3",
        &["read as Nf3", "captures nothing"],
    );
    only(
        &all,
        8,
        "san.notation",
        10,
        "5... Nf2+",
        &["read as Nxf2+", "without `x`"],
    );
    only(&all, 9, "move.illegal", 1, "1. Ng1", &["own knight"]);
    only(&all, 10, "move.illegal", 2, "1... --", &["null move"]);
    only(&all, 11, "move.illegal", 5, "3. Nf3", &["checkmate"]);
    only(&all, 12, "move.ambiguous", 1, "1. Rd8", &["a8", "h8"]);
}

#[test]
fn moves_after_an_automatic_draw_are_a_game_level_warning() {
    let all = findings("results.pgn", &[]);
    let fivefold = of_game(&all, 1);
    let f = fivefold
        .iter()
        .find(|f| f["code"] == "result.after-automatic-draw")
        .unwrap();
    check(
        f,
        "result.after-automatic-draw",
        20,
        "",
        &["ply 16", "fivefold", "4 moves"],
    );
    assert_eq!(f["san"], "");
    only(
        &all,
        2,
        "result.after-automatic-draw",
        3,
        "",
        &["ply 1", "insufficient material"],
    );
    only(
        &all,
        3,
        "result.after-automatic-draw",
        4,
        "",
        &["ply 2", "seventy five"],
    );
}

#[test]
fn a_win_without_mating_material_is_unwinnable() {
    let all = findings("results.pgn", &[]);
    only(&all, 4, "result.unwinnable-win", 1, "", &["1-0", "6.9"]);
    clean(&all, 5);
}

#[test]
fn tag_checks() {
    let all = findings("tags.pgn", &[]);
    let bad = of_game(&all, 1);
    assert_eq!(bad.len(), 2, "{bad:#?}");
    check(bad[0], "tag.bad-value", 1, "", &["Date", "YYYY.MM.DD"]);
    check(bad[1], "tag.bad-value", 1, "", &["WhiteElo", "number"]);
    let roster: Vec<&Value> = all
        .iter()
        .filter(|f| f["game"] == 2 && f["code"] == "tag.missing-roster")
        .collect();
    assert_eq!(roster.len(), 1);
    check(
        roster[0],
        "tag.missing-roster",
        1,
        "",
        &["[Site]", "[Black]", "[Result]"],
    );
    assert!(!roster[0]["message"].as_str().unwrap().contains("[White]"));
    only(&all, 3, "tag.duplicate", 1, "", &["[Event]"]);
    let setup = of_game(&all, 4);
    assert_eq!(setup.len(), 2, "{setup:#?}");
    check(
        setup[0],
        "setup.implausible",
        1,
        "",
        &["fullmove number is 0"],
    );
    check(setup[1], "setup.implausible", 1, "", &["halfmove clock 5"]);
}

#[test]
fn variations_are_checked_only_when_asked_and_do_not_stop_the_main_line() {
    let without = findings("variations.pgn", &[]);
    only(&without, 1, "castling.blocked", 7, "4. O-O-O", &["Nb1"]);
    clean(&without, 2);

    let with = findings("variations.pgn", &["--variations"]);
    let game = of_game(&with, 1);
    assert_eq!(game.len(), 3, "{game:#?}");
    check(game[0], "castling.blocked", 7, "4. O-O-O", &["Nb1"]);
    check(
        game[1],
        "castling.blocked",
        4,
        "(1... c5 ...) 2... O-O",
        &["in a variation", "Bf8"],
    );
    check(
        game[2],
        "move.illegal",
        6,
        "(2... Nf6 ...) 3... Kxe1",
        &["in a variation"],
    );
    only(
        &with,
        2,
        "san.notation",
        2,
        "(1... e7-e6 ...)",
        &["in a variation", "read as e6"],
    );
}

#[test]
fn piece_letters_are_read_only_when_asked() {
    let plain = findings("piece_letters.pgn", &[]);
    only(&plain, 1, "move.syntax", 3, "2. Sf3", &[]);

    let german = findings("piece_letters.pgn", &["--piece-letters", "de"]);
    let game = of_game(&german, 1);
    let moves: Vec<&str> = game.iter().map(|f| f["move"].as_str().unwrap()).collect();
    assert_eq!(
        moves,
        [
            "2. Sf3", "2... Sc6", "3. Lb5", "4. De2", "4... Dh4", "5. Th1"
        ]
    );
    check(
        game[0],
        "san.notation",
        3,
        "2. Sf3",
        &["read as Nf3", "German"],
    );
    check(game[5], "move.illegal", 9, "5. Th1", &["own rook"]);

    let french = findings("piece_letters_fr.pgn", &["--piece-letters", "fr"]);
    let king = of_game(&french, 1)
        .into_iter()
        .find(|f| f["move"] == "4. Re2")
        .unwrap();
    check(
        king,
        "san.notation",
        7,
        "4. Re2",
        &["read as Ke2", "French"],
    );

    let dutch = findings("piece_letters_nl.pgn", &["--piece-letters", "nl"]);
    let game = of_game(&dutch, 1);
    assert_eq!(game.len(), 4, "{game:#?}");
    check(
        game[0],
        "san.notation",
        3,
        "2. Pf3",
        &["read as Nf3", "Dutch"],
    );
}

#[test]
fn duplicate_tags_are_a_warning_at_the_default_level() {
    let path = testdata("diagnosis/tags.pgn");
    let (_, stdout, _) = run_args(&[
        "validate",
        "--format",
        "jsonl",
        "-q",
        path.to_str().unwrap(),
    ]);
    let codes: Vec<(u64, String)> = stdout
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .map(|f| {
            (
                f["game"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(codes, [(3, "tag.duplicate".to_string())]);
}
