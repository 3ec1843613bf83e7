//! See the parent module.

#[allow(unused_imports)]
use crate::util::*;

// Loose SAN (issue 14, item 7) and hints (item 8).

/// The findings of `pgn` at level info, roster infos left out, as (code, ply, message).
fn loose_findings(pgn: &str) -> Vec<(String, u64, String)> {
    findings_with(pgn, "message")
}

/// The (code, ply, `key`) of every finding of `pgn` at level info, roster infos left out.
fn findings_with(pgn: &str, key: &str) -> Vec<(String, u64, String)> {
    findings_of(pgn, &["--level", "info"])
        .iter()
        .filter(|f| f["code"] != "tag.missing-roster")
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["ply"].as_u64().unwrap(),
                f[key].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The `san` column of `fen --every-ply --format csv` (ply 0 left out).
fn san_column(pgn: &str) -> Vec<String> {
    let (_, stdout, stderr) = run(&["fen", "--every-ply", "--format", "csv", "--quiet"], pgn);
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    let sans: Vec<String> = reader
        .records()
        .map(|row| row.unwrap()[4].to_string())
        .collect();
    assert!(!sans.is_empty(), "{stderr}");
    sans.into_iter().skip(1).collect()
}

/// Asserts that the last move of `pgn` (at `ply`) is a `san.notation` info that names
/// `standard` and `why`, that nothing is an error, and that fen's `san` column holds
/// `standard` for it.
fn assert_read_loosely(pgn: &str, ply: u64, standard: &str, why: &str) {
    let found = loose_findings(pgn);
    let notation: Vec<_> = found.iter().filter(|f| f.0 == "san.notation").collect();
    assert_eq!(notation.len(), 1, "{found:?}");
    assert_eq!(notation[0].1, ply, "{found:?}");
    assert!(
        notation[0].2.contains(&format!("read as {standard} ")),
        "{found:?}"
    );
    assert!(notation[0].2.contains(why), "{found:?}");
    assert!(!found.iter().any(|f| f.0.starts_with("move.")), "{found:?}");
    let sans = san_column(pgn);
    assert_eq!(sans.last().map(String::as_str), Some(standard), "{sans:?}");
}

#[test]
fn a_bishop_capture_written_without_x_is_read_as_the_capture() {
    assert_read_loosely("1. e4 d5 2. Bb5+ c6 3. Bc6+ *\n", 5, "Bxc6+", "without `x`");
}

#[test]
fn a_capture_written_from_its_origin_square_without_x_is_read() {
    assert_read_loosely(
        "1. e4 d5 2. Bb5+ c6 3. Bb5c6+ *\n",
        5,
        "Bxc6+",
        "does not need",
    );
}

#[test]
fn a_king_capture_written_without_x_is_read() {
    assert_read_loosely(
        "[SetUp \"1\"]\n[FEN \"4k3/3P4/8/8/8/8/8/4K3 b - - 0 1\"]\n\n1... Kd7 *\n",
        1,
        "Kxd7",
        "without `x`",
    );
}

#[test]
fn a_pawn_capture_written_as_two_files_is_read() {
    assert_read_loosely("1. e4 d5 2. ed5 *\n", 3, "exd5", "without `x`");
}

#[test]
fn a_capture_marker_on_an_empty_square_is_read_as_the_plain_move() {
    assert_read_loosely("1. Nxf3 *\n", 1, "Nf3", "captures nothing");
}

/// `Nde2` where the knight on g1 is pinned: `Ne2` names one legal move. Before, it was
/// accepted silently and `fen` wrote `Nde2` in its `san` column.
#[test]
fn an_over_disambiguated_move_is_noted_and_written_as_standard_san() {
    assert_read_loosely(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/3N4/8/8/r5NK w - - 0 1\"]\n\n1. Nde2 *\n",
        1,
        "Ne2",
        "does not need",
    );
}

/// `xd5` (shakmaty reads it) was accepted silently and written as `xd5` by `fen`.
#[test]
fn a_pawn_capture_without_its_file_is_noted_and_written_as_standard_san() {
    assert_read_loosely("1. e4 d5 2. xd5 *\n", 3, "exd5", "without the file");
}

/// Every loose spelling in one game: fen's `san` column holds only standard SAN.
#[test]
fn the_fen_san_column_holds_standard_san_for_every_loose_token() {
    let sans =
        san_column("1. e2-e4 d5 2. xd5 Nf6 3. Bb5+ c6 4. dc6 Qb6 5. cb7+ Kd8 6. Nxf3 Qb6b7 *\n");
    assert_eq!(
        sans,
        [
            "e4", "d5", "exd5", "Nf6", "Bb5+", "c6", "dxc6", "Qb6", "cxb7+", "Kd8", "Nf3", "Qxb7"
        ],
    );
}

/// Two knights can take on d4: `Nd4` mended to a capture names two moves.
#[test]
fn a_loose_token_that_names_two_moves_stays_ambiguous() {
    let found = loose_findings(
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/3p4/8/2N1N3/4K3 w - - 0 1\"]\n\n1. Nd4 *\n",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "move.ambiguous", "{found:?}");
    assert!(
        found[0].2.contains("Ncxd4") && found[0].2.contains("Nexd4"),
        "{found:?}"
    );
}

/// A guard: a token that names no legal move even with its capture mark mended keeps
/// its diagnosis (the bishop on f1 cannot reach f7 at all).
#[test]
fn a_loose_token_that_names_no_legal_move_stays_illegal() {
    let found = loose_findings("1. e4 e5 2. Bf7 *\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "move.illegal", "{found:?}");
    assert!(found[0].2.contains("cannot move to f7"), "{found:?}");
}

/// `2. d5` is a pawn push onto a piece, not a loose capture: illegal, and the hint is the
/// standard SAN of the legal capture (`exd5`, not `xd5`).
#[test]
fn the_hint_for_a_push_onto_a_piece_is_standard_san() {
    let found = loose_findings("1. e4 d5 2. d5 *\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "move.illegal", "{found:?}");
    assert!(found[0].2.contains(": exd5 would be legal"), "{found:?}");
}

/// `1. exe4`: a pawn "capture" along its own file; the hint is `e4`, not `ee4`.
#[test]
fn the_hint_for_a_capture_along_a_file_is_the_push() {
    let found = loose_findings("1. exe4 *\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "move.illegal", "{found:?}");
    assert!(found[0].2.contains(": e4 would be legal"), "{found:?}");
}

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

// Archive habits read as their writers meant (issue 27, items 1-6, 11 and 13).

/// The (code, ply, san) of every finding at level info, roster infos left out.
fn infos(pgn: &str) -> Vec<(String, u64, String)> {
    findings_with(pgn, "san")
}

/// The plies and status `stats` gives the first game of `pgn`.
fn plies_and_status(pgn: &str) -> (String, String) {
    let (_, stdout, _) = run(&["stats", "-q", "-"], pgn);
    let rows = rows_of(&stdout);
    (rows[0]["plies"].clone(), rows[0]["status"].clone())
}

/// `4. Bxc6 + dxc6` stopped the replay at the `+` (move.syntax); the sign is the move's.
#[test]
fn a_check_sign_written_apart_from_its_move_belongs_to_the_move() {
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Nxe5 Qd4 6. Nf3 Qxe4 + 7. Qe2 *\n";
    assert_eq!(plies_and_status(pgn), ("13".into(), "ok".into()));
    assert_eq!(
        infos(pgn),
        [("san.notation".to_string(), 12, "Qxe4 +".to_string())]
    );
    let mate = "1. f3 e5 2. g4 Qh4 # 0-1\n";
    assert_eq!(plies_and_status(mate), ("4".into(), "ok".into()));
    let found = findings_of(mate, &["--level", "info"]);
    let notation: Vec<_> = found
        .iter()
        .filter(|f| f["code"] == "san.notation")
        .collect();
    assert_eq!(notation.len(), 1, "{found:?}");
    assert!(
        notation[0]["message"]
            .as_str()
            .unwrap()
            .contains("read as Qh4#"),
        "{found:?}"
    );
    let (_, stdout, _) = run(&["stats", "-q", "-"], mate);
    assert_eq!(rows_of(&stdout)[0]["termination"], "checkmate");
}

/// A lone sign that is wrong for its move is `san.check-suffix`, in place of the one for
/// the missing sign: one finding per move.
#[test]
fn a_wrong_check_sign_apart_is_a_check_suffix_info() {
    let found = infos("1. f3 e5 2. g4 Qh4 + 0-1\n");
    assert_eq!(
        found,
        [("san.check-suffix".to_string(), 4, "Qh4 +".to_string())]
    );
    let (_, stdout, _) = run(&["convert", "-q", "-"], "1. f3 e5 2. g4 Qh4 + 0-1\n");
    assert!(stdout.contains("2. g4 Qh4# 0-1"), "{stdout}");
}

/// `{A comment} }` was `move.syntax` and stopped the replay; now a warning, and the
/// moves after it are read.
#[test]
fn a_stray_closing_brace_is_a_warning_and_the_replay_goes_on() {
    let pgn = "1. e4 {A comment} } e5 2. Nf3 } } Nc6 *\n";
    assert_eq!(plies_and_status(pgn), ("4".into(), "ok".into()));
    let found = findings_of(pgn, &[]);
    assert_eq!(
        codes_of(&found),
        [("input.unbalanced-brace".to_string(), 4)]
    );
    assert_eq!(found[0]["severity"], "warning");
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("3 `}` close no comment"),
        "{found:?}"
    );
}

/// `Qh4#0-1`: the mating move was lost, the result not read and the game truncated.
#[test]
fn a_result_glued_to_the_last_move_is_read_as_the_move_then_the_marker() {
    for (pgn, plies, result) in [
        ("1. f3 e5 2. g4 Qh4#0-1\n\n1. d4 *\n", "4", "0-1"),
        (
            "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf71-0\n\n1. d4 *\n",
            "7",
            "1-0",
        ),
        (
            "[SetUp \"1\"]\n[FEN \"k5r1/8/8/8/8/8/6P1/7K b - - 0 1\"]\n\n1... R8xg20-1\n\n1. d4 *\n",
            "1",
            "0-1",
        ),
    ] {
        let (_, stdout, _) = run(&["stats", "-q", "-"], pgn);
        let rows = rows_of(&stdout);
        assert_eq!(rows.len(), 2, "{pgn:?}: {stdout}");
        assert_eq!(rows[0]["plies"], plies, "{pgn:?}");
        assert_eq!(rows[0]["result"], result, "{pgn:?}");
        assert_eq!(rows[0]["status"], "ok", "{pgn:?}");
    }
    let found = infos("1. f3 e5 2. g4 Qh4#0-1\n");
    assert_eq!(
        found,
        [("result.notation".to_string(), 4, "0-1".to_string())]
    );
    let found =
        infos("[SetUp \"1\"]\n[FEN \"k5r1/8/8/8/8/8/6P1/7K b - - 0 1\"]\n\n1... R8xg20-1\n");
    assert_eq!(
        found,
        [
            ("san.notation".to_string(), 1, "R8xg2".to_string()),
            ("result.notation".to_string(), 1, "0-1".to_string()),
        ]
    );
}

/// `h5xf7++` and `h5f7++` were "no pawn on h5", though `h5xf7#` was read as `Qxf7#`.
#[test]
fn a_double_plus_does_not_change_how_the_squares_are_read() {
    for written in ["h5xf7++", "h5f7++", "h5xf7#", "h5-f7++"] {
        let pgn = format!("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. {written} 1-0\n");
        let found = infos(&pgn);
        assert_eq!(
            found,
            [("san.notation".to_string(), 7, written.to_string())],
            "{written}"
        );
        assert_eq!(
            plies_and_status(&pgn),
            ("7".into(), "ok".into()),
            "{written}"
        );
    }
}

/// `1/2` as the marker was `move.syntax` (status illegal); en-dash markers likewise.
#[test]
fn loose_termination_markers_are_read_as_the_marker_they_mean() {
    for (marker, result) in [
        ("1/2", "1/2-1/2"),
        ("1–0", "1-0"),
        ("0–1", "0-1"),
        ("1/2–1/2", "1/2-1/2"),
        ("½–½", "1/2-1/2"),
        ("½-½", "1/2-1/2"),
    ] {
        let pgn = format!("1. e4 e5 {marker}\n1. d4 d5 *\n");
        let (_, stdout, _) = run(&["stats", "-q", "-"], &pgn);
        let rows = rows_of(&stdout);
        assert_eq!(rows.len(), 2, "{marker}: {stdout}");
        assert_eq!(rows[0]["result"], result, "{marker}");
        assert_eq!(rows[0]["status"], "ok", "{marker}");
        let found = infos(&pgn);
        assert_eq!(
            found,
            [("result.notation".to_string(), 2, marker.to_string())],
            "{marker}"
        );
    }
}

/// `o-o` and `o-o-o` were `move.syntax`.
#[test]
fn lowercase_castling_is_read_as_castling() {
    let pgn =
        "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. o-o-o e6 6. e3 Nf6 7. Nf3 Be7 8. Bd3 o-o *\n";
    let found = infos(pgn);
    assert_eq!(
        found,
        [
            ("san.notation".to_string(), 9, "o-o-o".to_string()),
            ("san.notation".to_string(), 16, "o-o".to_string()),
        ]
    );
    let sans = san_column(pgn);
    assert_eq!(sans[8], "O-O-O");
    assert_eq!(sans[15], "O-O");
}

/// A `++` move with a wrong suffix was reported as "written with `#`".
#[test]
fn a_double_plus_with_a_wrong_suffix_is_quoted_as_written() {
    let found = findings_of("1. e4 e5 2. Bc4 Nc6 3. Bxf7++ *\n", &["--level", "info"]);
    let suffix: Vec<_> = found
        .iter()
        .filter(|f| f["code"] == "san.check-suffix")
        .collect();
    assert_eq!(suffix.len(), 1, "{found:?}");
    assert_eq!(
        suffix[0]["message"],
        "written with `++` but the move calls for `+`"
    );
}

/// `((1... c5))` and `()` got no finding.
#[test]
fn a_variation_with_no_move_before_a_nested_one_or_its_end_is_a_warning() {
    for (pgn, plies) in [
        ("1. e4 e5 ((1... c5)) 2. Nf3 *\n", "3"),
        ("1. e4 e5 ( {nothing} ) 2. Nf3 *\n", "3"),
        ("1. e4 e5 () 2. Nf3 *\n", "3"),
    ] {
        for extra in [&[][..], &["--variations"][..]] {
            let found = findings_of(pgn, extra);
            assert_eq!(
                codes_of(&found),
                [("input.empty-variation".to_string(), 3)],
                "{pgn:?} {extra:?}"
            );
        }
        assert_eq!(
            plies_and_status(pgn),
            (plies.into(), "ok".into()),
            "{pgn:?}"
        );
    }
    // One finding per game, however many there are.
    let found = findings_of("1. e4 e5 () ((1... c5)) () 2. Nf3 *\n", &[]);
    assert_eq!(codes_of(&found), [("input.empty-variation".to_string(), 3)]);
    assert!(
        found[0]["message"]
            .as_str()
            .unwrap()
            .contains("3 variations hold no move"),
        "{found:?}"
    );
    // A variation that holds a move first is no defect.
    assert!(findings_of("1. e4 e5 (1... c5 (1... e6)) *\n", &[]).is_empty());
}

/// A check sign apart after an annotation (`Bxf7 ! +`, `Bxf7 $1 +`) or an en passant mark
/// (`exd6 e.p. +`) was `move.syntax` and stopped the replay; it is the move's sign too.
#[test]
fn a_check_sign_apart_after_an_annotation_belongs_to_the_move() {
    for written in ["Bxf7 ! +", "Bxf7 $1 +", "Bxf7 !? +", "Bxf7 += +"] {
        let pgn = format!("1. e4 e5 2. Bc4 Nc6 3. {written} Kxf7 4. Nf3 *\n");
        assert_eq!(
            plies_and_status(&pgn),
            ("7".into(), "ok".into()),
            "{written}"
        );
        let found = infos(&pgn);
        assert_eq!(
            found,
            [("san.notation".to_string(), 5, "Bxf7 +".to_string())],
            "{written}"
        );
    }
    let pgn = "1. e4 e6 2. e5 Ke7 3. d4 d5 4. exd6 e.p. + Kxd6 *\n";
    assert_eq!(plies_and_status(pgn), ("8".into(), "ok".into()));
    let codes: Vec<String> = infos(pgn).into_iter().map(|(code, ..)| code).collect();
    assert_eq!(codes, ["san.notation", "san.notation"], "{pgn}");
    // In a variation too.
    let pgn = "1. e4 e5 2. Bc4 Nc6 3. Nf3 (3. Bxf7 ! + Kxf7) 3... Nf6 *\n";
    let found = findings_of(pgn, &["--variations"]);
    assert!(found.is_empty(), "{found:?}");
}

/// A finding about a move shows the position before it, rebuilt from the moves played
/// before: a replay keeps no moves until a finding asks for them, then has them replayed
/// again and keeps them from there on. So the first such finding (a missing check sign
/// at ply 3, an unreadable clock at ply 3), the later ones (plies 6, 8 and 9) and the
/// diagnosis of a move that fails all read the positions `fen --every-ply` shows.
#[test]
fn findings_show_the_position_before_their_move_however_late_they_come() {
    let pgn = "[Event \"t\"]\n[Result \"*\"]\n\n\
        1. e4 d5 2. Bb5 c6 3. Ba4 Qa5 4. Nc3 dxe4 5. Bxc6 Nxc6 6. Qh5 Qxc3 *\n\n\
        [Event \"t\"]\n[Result \"*\"]\n\n\
        1. e4 d5 2. exd5 { [%clk 0:0x:1] } Qxd5 3. Nc3 Qe5 4. Be2 Qxe2 5. Nxe2 *\n";
    let findings = findings_of(pgn, &["--level", "info"]);
    let (_, every_ply, stderr) = run(&["fen", "--every-ply", "--format", "csv", "--quiet"], pgn);
    let fens: Vec<(u64, u64, String)> = every_ply
        .lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            let game = fields[1].parse().unwrap();
            let ply = fields[3].parse().unwrap();
            (game, ply, fields[5].to_string())
        })
        .collect();
    assert!(!fens.is_empty(), "{stderr}");
    let about_moves: Vec<(u64, u64, String, String)> = findings
        .iter()
        .filter(|f| f["move"] != "")
        .map(|f| {
            (
                f["game"].as_u64().unwrap(),
                f["ply"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["fen"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let codes: Vec<(u64, u64, &str)> = about_moves
        .iter()
        .map(|(game, ply, code, _)| (*game, *ply, code.as_str()))
        .collect();
    assert_eq!(
        codes,
        vec![
            (1, 3, "san.check-suffix"),
            (1, 9, "san.check-suffix"),
            (2, 3, "comment.bad-annotation"),
            (2, 6, "san.check-suffix"),
            (2, 8, "san.check-suffix"),
            (2, 9, "move.ambiguous"),
        ]
    );
    for (game, ply, code, fen) in &about_moves {
        let before = fens
            .iter()
            .find(|(g, p, _)| g == game && *p == ply - 1)
            .map(|(_, _, fen)| fen);
        assert_eq!(before, Some(fen), "game {game}, ply {ply}, {code}");
    }
}

// Issue 42, items 1 to 5: readings of the failure path, each an info finding.

/// The (game, ply, code, message) of every finding of `validate --level info` on the
/// issue 42 fixture `name` (tag hygiene left out).
fn trust_findings(name: &str, extra: &[&str]) -> Vec<(u64, u64, String, String)> {
    let path = testdata(&format!("trust/{name}"));
    let mut args = vec![
        "validate", "--format", "jsonl", "--quiet", "--level", "info",
    ];
    args.extend_from_slice(&["--ignore", "tag."]);
    args.extend_from_slice(extra);
    args.push(path.to_str().unwrap());
    let (_, stdout, stderr) = run_args(&args);
    stdout
        .lines()
        .map(|line| {
            let f: serde_json::Value = serde_json::from_str(line).unwrap();
            (
                f["game"].as_u64().unwrap(),
                f["ply"].as_u64().unwrap(),
                f["code"].as_str().unwrap().to_string(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .inspect(|f| assert!(!f.3.is_empty(), "{stderr}"))
        .collect()
}

/// The `plies` and `status` of each game of the issue 42 fixture `name` (`stats`).
fn file_plies_and_status(name: &str, extra: &[&str]) -> Vec<(String, String)> {
    let path = testdata(&format!("trust/{name}"));
    let mut args = vec!["stats", "--quiet"];
    args.extend_from_slice(extra);
    args.push(path.to_str().unwrap());
    let (_, stdout, stderr) = run_args(&args);
    let rows = rows_of(&stdout);
    assert!(!rows.is_empty(), "{stderr}");
    rows.iter()
        .map(|row| (row["plies"].to_string(), row["status"].to_string()))
        .collect()
}

/// Each finding as (game, ply, code) and whether its message holds `text`.
fn each_says(found: &[(u64, u64, String, String)], text: &str) -> Vec<(u64, u64, String)> {
    for f in found {
        assert!(f.3.contains(text), "{f:?} lacks {text:?}");
    }
    found.iter().map(|f| (f.0, f.1, f.2.clone())).collect()
}

fn info(game: u64, ply: u64, code: &str) -> (u64, u64, String) {
    (game, ply, code.to_string())
}

#[test]
fn castling_with_a_dash_that_is_not_a_hyphen_is_read_as_castling() {
    // By hand: game 1 castles at plies 7 (`O–O`) and 10 (`0–0`), game 2 at 7 (`0—0`) and 8
    // (`O‑O`), game 3 at 7 (`O−O`) and 10 (`O–O–O`); every game plays to its end.
    let found = trust_findings("castling_dashes.pgn", &[]);
    let notation = [
        info(1, 7, "san.notation"),
        info(1, 10, "san.notation"),
        info(2, 7, "san.notation"),
        info(2, 8, "san.notation"),
        info(3, 7, "san.notation"),
        info(3, 10, "san.notation"),
    ];
    assert_eq!(each_says(&found, "a dash that is not a hyphen"), notation);
    assert!(
        found.last().unwrap().3.starts_with("read as O-O-O "),
        "{found:?}"
    );
    let ok = |plies: &str| (plies.to_string(), "ok".to_string());
    assert_eq!(
        file_plies_and_status("castling_dashes.pgn", &[]),
        [ok("10"), ok("8"), ok("10")]
    );
}

#[test]
fn figurines_are_read_as_the_piece_letters_they_draw() {
    // By hand: every figurine move (white's and black's, a promotion `gxh8=♕`, a pawn
    // figurine `♟b6`) is read; the game plays its 26 plies.
    let found = trust_findings("figurines.pgn", &[]);
    let plies: Vec<u64> = each_says(&found, "(figurine notation)")
        .iter()
        .map(|f| f.1)
        .collect();
    assert_eq!(plies, [3, 5, 6, 7, 8, 12, 13, 21, 22, 23, 24, 25, 26]);
    let read: Vec<&str> = found.iter().map(|f| f.3.as_str()).collect();
    assert!(
        read.contains(&"read as gxh8=Q (figurine notation)"),
        "{read:?}"
    );
    assert!(
        read.contains(&"read as f1=Q+ (figurine notation)"),
        "{read:?}"
    );
    assert!(read.contains(&"read as b6 (figurine notation)"), "{read:?}");
    assert_eq!(
        file_plies_and_status("figurines.pgn", &[]),
        [("26".to_string(), "ok".to_string())]
    );
}

#[test]
fn a_sign_of_the_figurines_block_that_draws_no_piece_is_an_unreadable_move() {
    // `♀` (U+2640) stands among the figurines' code points and draws no piece: the token
    // is reported and the next game read (it was read again for ever, and the stack
    // overflow aborted the whole run).
    let (code, out, err) = run(
        &["validate", "--compact", "-"],
        "1. e4 ♀0 *\n\n1. d4 d5 *\n",
    );
    assert_eq!(code, 1, "{out}{err}");
    assert_eq!(
        out,
        "-:1: game 1, 1... ♀0: error[move.syntax]: `♀0` is not a move in standard algebraic notation\n"
    );
    assert!(err.contains("2 games"), "{err}");
}

#[test]
fn a_piece_letter_in_the_wrong_case_is_read_but_a_lower_case_b_is_a_pawn() {
    // By hand: `NF3` (3), `nc6` (4), `nXd4` (7), `qh4` (8) name one legal move each;
    // `bxc3` (12) is the b7 pawn's capture, which it cannot make, not Bb4xc3.
    let found = trust_findings("wrong_case.pgn", &[]);
    assert_eq!(
        found
            .iter()
            .map(|f| (f.0, f.1, f.2.clone()))
            .collect::<Vec<_>>(),
        [
            info(1, 3, "san.notation"),
            info(1, 4, "san.notation"),
            info(1, 7, "san.notation"),
            info(1, 8, "san.notation"),
            info(1, 12, "move.illegal"),
        ]
    );
    let read: Vec<&str> = found.iter().map(|f| f.3.as_str()).collect();
    assert!(read[0].starts_with("read as Nf3 ("), "{read:?}");
    assert!(read[2].starts_with("read as Nxd4 ("), "{read:?}");
    assert!(read[3].starts_with("read as Qh4 ("), "{read:?}");
    assert!(read[4].contains("pawn on b7"), "{read:?}");
}

#[test]
fn piece_letters_of_the_users_language_are_read_by_every_command() {
    // By hand: with RDTAC every piece move is Spanish, `Rh1` the king (g1-h1); 13 plies.
    let found = trust_findings("piece_letters_es.pgn", &["--piece-letters", "RDTAC"]);
    let plies: Vec<u64> = each_says(&found, "Spanish and Italian piece letters RDTAC")
        .iter()
        .map(|f| f.1)
        .collect();
    assert_eq!(plies, [3, 4, 5, 7, 10, 11, 12, 13]);
    assert!(
        found.last().unwrap().3.starts_with("read as Kh1 "),
        "{found:?}"
    );
    let letters = ["--piece-letters", "RDTAC"];
    assert_eq!(
        file_plies_and_status("piece_letters_es.pgn", &letters),
        [("13".to_string(), "ok".to_string())]
    );
    let path = testdata("trust/piece_letters_es.pgn");
    let path = path.to_str().unwrap();
    let (_, converted, _) = run_args(&["convert", "--quiet", "--piece-letters", "RDTAC", path]);
    assert!(
        converted
            .contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O Qd6 6. Re1 Be6 7. Kh1 *"),
        "{converted}"
    );
    let (_, fens, _) = run_args(&["fen", "--quiet", "--piece-letters", "RDTAC", path]);
    assert_eq!(
        fens.trim(),
        "r3kbnr/1pp2ppp/p1pqb3/4p3/4P3/5N2/PPPP1PPP/RNBQR2K b kq - 5 7"
    );
    let (_, selected, _) = run_args(&[
        "select",
        "--quiet",
        "--piece-letters",
        "RDTAC",
        "--where",
        "plies == 13",
        path,
    ]);
    assert!(selected.contains("7. Rh1"), "{selected}");
}

#[test]
fn a_dutch_knight_is_a_pawn_move_unless_the_user_says_dutch() {
    // By hand: in English `Pf3` is the pawn move f3 and `Pc6` c6 (legal: no guessing), and
    // `Lb5` is no move; with KDTLP the game is a Ruy Lopez of 11 plies.
    let found = trust_findings("piece_letters_nl.pgn", &[]);
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found[0].3.starts_with("read as f3 "), "{found:?}");
    assert_eq!((found[2].1, found[2].2.as_str()), (5, "move.syntax"));
    assert!(
        found[2]
            .3
            .ends_with("with --piece-letters KDTLS (German) or KDTLP (Dutch) it reads as Bb5"),
        "{found:?}"
    );
    let dutch = trust_findings("piece_letters_nl.pgn", &["--piece-letters", "KDTLP"]);
    let plies: Vec<u64> = each_says(&dutch, "Dutch piece letters KDTLP")
        .iter()
        .map(|f| f.1)
        .collect();
    assert_eq!(plies, [3, 4, 5, 7, 10, 11]);
    assert!(dutch[0].3.starts_with("read as Nf3 "), "{dutch:?}");
    // Spanish letters in an English reading: the hint names both languages that use C.
    let spanish = trust_findings("piece_letters_es.pgn", &[]);
    assert!(
        spanish[0].3.ends_with(
            "with --piece-letters RDTAC (Spanish and Italian) or RDTFC (French) it reads as Nf3"
        ),
        "{spanish:?}"
    );
}

#[test]
fn piece_letters_must_be_five_distinct_upper_case_letters() {
    for bad in ["KQRB", "KQRBNN", "KQRBB", "kqrbn", "KQRBO"] {
        let (code, _, stderr) = run_args(&["stats", "--piece-letters", bad, "-"]);
        assert_eq!(code, 2, "{bad}: {stderr}");
        assert!(
            stderr.contains("five distinct upper-case letters"),
            "{stderr}"
        );
    }
}

#[test]
fn an_escaped_nag_is_read_as_the_nag() {
    // By hand: `\$1`, `\$14` and `\$6` are NAGs (one finding for the game, naming the
    // first line); the `\$14` inside the comment is the comment's text. 5 plies.
    let found = trust_findings("escaped_nags.pgn", &[]);
    assert_eq!(
        found,
        [(
            1,
            5,
            "input.escaped-nag".to_string(),
            "line 4: a NAG written with a backslash (`\\$`) was read as the NAG".to_string()
        )]
    );
    let path = testdata("trust/escaped_nags.pgn");
    let (_, converted, _) = run_args(&["convert", "--quiet", path.to_str().unwrap()]);
    assert!(
        converted.contains(
            "1. e4 $1 e5 2. Nf3 $14 { White is slightly better \\$14 } 2... Nc6 $6 3. Bb5 *"
        ),
        "{converted}"
    );
}
