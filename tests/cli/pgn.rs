//! `pgnkit pgn`: a game per position, moves checked, results decided by the board; and
//! the round trip `fen --every-ply` -> `pgn --moves` -> `fen --every-ply`.

use std::collections::BTreeMap;

use crate::util::*;

const ROSTER: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
                      [White \"?\"]\n[Black \"?\"]\n";

#[test]
fn a_game_from_a_fen_with_moves() {
    let (code, stdout, _) = run_args(&[
        "pgn",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "--moves",
        "1. e4 Kd7 e5",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        format!(
            "{ROSTER}[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n\
             1. e4 Kd7 2. e5 *\n\n"
        )
    );
}

#[test]
fn uci_moves_and_black_to_move() {
    let (code, stdout, _) = run_args(&[
        "pgn",
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1",
        "--moves",
        "e8d7 e2e4 d7c6 e1f2",
    ]);
    assert_eq!(code, 0);
    assert!(
        stdout.ends_with("\n\n1... Kd7 2. e4 Kc6 3. Kf2 *\n\n"),
        "{stdout}"
    );
}

#[test]
fn result_follows_from_a_decided_final_position() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (_, mate, _) = run_args(&["pgn", start, "--moves", "f3 e5 g4 Qh4"]);
    assert!(mate.contains("[Result \"0-1\"]"), "{mate}");
    assert!(mate.ends_with("1. f3 e5 2. g4 Qh4# 0-1\n\n"), "{mate}");
    let (_, stalemate, _) = run_args(&["pgn", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "--moves", "Qf7"]);
    assert!(stalemate.ends_with("1. Qf7 1/2-1/2\n\n"), "{stalemate}");
    let (_, bare_kings, _) = run_args(&["pgn", "8/8/8/8/8/2k5/8/K7 w - - 0 1"]);
    assert!(bare_kings.ends_with("\n\n1/2-1/2\n\n"), "{bare_kings}");
}

#[test]
fn invalid_fen_or_move_gives_no_game_and_exit_1() {
    let (code, stdout, stderr) = run_args(&[
        "pgn",
        "8/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ]);
    assert_eq!(code, 1);
    assert_eq!(stdout.matches("[Event ").count(), 1);
    assert!(
        stderr.contains("argument 1") && stderr.contains("fen.missing-king"),
        "{stderr}"
    );
    let (code, stdout, stderr) =
        run_args(&["pgn", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "--moves", "e4 e5"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(stderr.contains("move 2 `e5`"), "{stderr}");
}

#[test]
fn epd_lines_from_stdin_with_opcodes() {
    let epd = "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\"; c0 \"first; test\";\n";
    let (code, stdout, _) = run(&["pgn"], epd);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("[Event \"BK.01\"]\n"), "{stdout}");
    assert!(
        stdout.contains("[FEN \"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1\"]"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("\n\n{ bm Qd1+ } { first; test } *\n\n"),
        "{stdout}"
    );
}

#[test]
fn chess960_positions_get_a_variant_tag() {
    let (code, stdout, _) = run_args(&[
        "pgn",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "--moves",
        "Nf3",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("[Variant \"Chess960\"]"), "{stdout}");
    assert!(stdout.contains("w KQkq - 2 9"), "{stdout}");
    assert!(stdout.ends_with("9. Nf3 *\n\n"), "{stdout}");
}

/// `fen --every-ply --format csv` of a file: per game, the (san, fen) of every ply.
fn plies_by_game(path: &str) -> BTreeMap<u64, Vec<(String, String)>> {
    let (_, stdout, _) = run_args(&["fen", "--every-ply", "--format", "csv", "--quiet", path]);
    let mut games: BTreeMap<u64, Vec<(String, String)>> = BTreeMap::new();
    let mut reader = csv::Reader::from_reader(stdout.as_bytes());
    for row in reader.records() {
        let row = row.unwrap();
        games
            .entry(row[1].parse().unwrap())
            .or_default()
            .push((row[4].to_string(), row[5].to_string()));
    }
    games
}

#[test]
fn round_trip_fen_pgn_fen_over_real_games() {
    for name in [
        "convert/philidor.pgn",
        "convert/fischerrandom.pgn",
        "convert/fen_setup.pgn",
    ] {
        let file = testdata(name);
        let games = plies_by_game(file.to_str().unwrap());
        assert!(!games.is_empty(), "{name}");
        for (index, plies) in games {
            let start = &plies[0].1;
            let moves: Vec<&str> = plies[1..].iter().map(|(san, _)| san.as_str()).collect();
            let mut args = vec!["pgn", start.as_str(), "--moves"];
            let joined = moves.join(" ");
            args.push(&joined);
            // X-FEN `KQkq` of a Chess960 game is read as Chess960 only when asked for.
            if name.contains("fischerrandom") {
                args.push("--chess960");
            }
            let (code, pgn, stderr) = run_args(&args);
            assert_eq!(code, 0, "{name} game {index}: {stderr}");
            let (_dir, path) = temp_file("back.pgn", pgn.as_bytes());
            let back = plies_by_game(path.to_str().unwrap());
            let fens: Vec<&String> = plies.iter().map(|(_, fen)| fen).collect();
            let back_fens: Vec<&String> = back[&1].iter().map(|(_, fen)| fen).collect();
            assert_eq!(back_fens, fens, "{name} game {index}");
        }
    }
}
