//! `pgnkit fen`: positions of games as FEN, every ply or one, text or CSV, en passant and
//! castling conventions.

use crate::util::*;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn final_position_by_default() {
    let (code, stdout, _) = run(&["fen"], "1. e4 e5 2. Nf3 *\n");
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n"
    );
}

#[test]
fn every_ply_csv_starts_at_ply_0_with_empty_san() {
    let (code, stdout, _) = run(
        &["fen", "--every-ply", "--format", "csv"],
        "1. e4 d5 2. exd5 *\n",
    );
    assert_eq!(code, 0);
    let expected = format!(
        "file,game,line,ply,san,fen\n\
         -,1,1,0,,{START}\n\
         -,1,1,1,e4,rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
         -,1,1,2,d5,rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2\n\
         -,1,1,3,exd5,rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2\n"
    );
    assert_eq!(stdout, expected);
}

#[test]
fn csv_names_file_game_and_line_of_each_game() {
    let pgn = "[Event \"a\"]\n\n1. d4 *\n\n[Event \"b\"]\n\n1. c4 *\n";
    let (_, stdout, _) = run(&["fen", "--format", "csv"], pgn);
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 3);
    assert!(rows[1].starts_with("-,1,1,1,d4,"), "{}", rows[1]);
    assert!(rows[2].starts_with("-,2,5,1,c4,"), "{}", rows[2]);
}

#[test]
fn ply_n_and_beyond_the_end() {
    let (_, stdout, _) = run(&["fen", "--ply", "0"], "1. e4 *\n");
    assert_eq!(stdout, format!("{START}\n"));
    let (_, stdout, _) = run(&["fen", "--ply", "2"], "1. e4 e5 *\n\n1. d4 *\n");
    assert_eq!(
        stdout, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n",
        "the second game is too short for ply 2 and gives no line"
    );
}

#[test]
fn en_passant_conventions() {
    // RULES.md 2.3: after 1...c5 the b5 pawn stands beside c5 (pseudo-legal capture) but
    // bxc6 would expose the king on a5 to the rook on h5 (no legal capture).
    let pgn = "[FEN \"7k/2p5/8/KP5r/8/8/8/8 b - - 0 1\"]\n\n1... c5 *\n";
    let with_ep = "7k/8/8/KPp4r/8/8/8/8 w - c6 0 2\n";
    let (_, always, _) = run(&["fen"], pgn);
    assert_eq!(always, with_ep);
    let (_, pseudo, _) = run(&["fen", "--ep", "pseudo"], pgn);
    assert_eq!(pseudo, with_ep);
    let (_, legal, _) = run(&["fen", "--ep", "legal"], pgn);
    assert_eq!(legal, "7k/8/8/KPp4r/8/8/8/8 w - - 0 2\n");
    // No enemy pawn beside e4: only the PGN standard writes e3.
    let (_, pseudo, _) = run(&["fen", "--ep", "pseudo"], "1. e4 *\n");
    assert_eq!(
        pseudo,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
    );
}

#[test]
fn castling_letters_xfen_and_shredder() {
    let file = testdata("convert/fischerrandom.pgn");
    let (_, xfen, _) = run_args(&["fen", "--ply", "0", file.to_str().unwrap()]);
    assert_eq!(
        xfen.lines().next(),
        Some("nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1")
    );
    let (_, shredder, _) = run_args(&[
        "fen",
        "--ply",
        "0",
        "--castling",
        "shredder",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        shredder.lines().collect::<Vec<_>>(),
        [
            "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1",
            "rqkrbnnb/pppppppp/8/8/8/8/PPPPPPPP/RQKRBNNB w DAda - 0 1",
            "rnkqnbbr/pppppppp/8/8/8/8/PPPPPPPP/RNKQNBBR w HAha - 0 1",
            "nbrnbkqr/pppppppp/8/8/8/8/PPPPPPPP/NBRNBKQR w HChc - 0 1",
        ]
    );
    let (_, standard, _) = run(&["fen", "--castling", "shredder"], "1. Nf3 *\n");
    assert_eq!(
        standard,
        "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b HAha - 1 1\n"
    );
}

#[test]
fn castling_rights_come_from_the_moves_not_the_placement() {
    // C1: the king went away and came back: White has lost both rights.
    let (_, stdout, _) = run(&["fen"], "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 *\n");
    assert_eq!(
        stdout,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - - 4 4\n"
    );
}

#[test]
fn illegal_move_gives_fens_up_to_it_and_exit_1() {
    let (code, stdout, stderr) = run(&["fen", "--every-ply"], "1. e4 e5 2. Ke3 Nc6 *\n");
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), 3, "plies 0, 1, 2: {stdout}");
    assert!(stderr.contains("2. Ke3: error[move.illegal]"), "{stderr}");
}

#[test]
fn quiet_keeps_the_findings_that_explain_exit_1() {
    // SPEC: --quiet drops the progress bar and the summary line only; validate --quiet
    // still writes every finding, and so do fen and convert (on stderr, beside their data).
    let pgn = "1. e4 e5 2. Ke3 Nc6 *\n";
    for command in ["fen", "convert", "validate"] {
        let (code, stdout, stderr) = run(&[command, "--quiet"], pgn);
        assert_eq!(code, 1, "{command}");
        let findings = if command == "validate" {
            stdout
        } else {
            stderr
        };
        assert!(
            findings.contains("2. Ke3: error[move.illegal]"),
            "{command}: {findings}"
        );
    }
    let (_, _, stderr) = run(&["validate", "--quiet"], pgn);
    assert_eq!(stderr, "", "no summary line");
}

#[test]
fn unsupported_variant_and_invalid_setup_give_no_fen() {
    let pgn =
        "[Variant \"Atomic\"]\n\n1. e4 *\n\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n\n1. d4 *\n";
    let (code, stdout, stderr) = run(&["fen"], pgn);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1\n"
    );
    assert!(
        stderr.contains("error[setup.unsupported-variant]"),
        "{stderr}"
    );
    assert!(stderr.contains("error[setup.invalid-fen]"), "{stderr}");
}

#[test]
fn a_closed_pipe_ends_the_run_quietly_with_0() {
    // `pgnkit fen big.pgn | head -1`: the reader must not wait forever on a writer that
    // stopped (a regression: the parallel pipeline used to hang here).
    use std::io::Read;
    let game = std::fs::read(testdata("convert/philidor.pgn")).unwrap();
    let big: Vec<u8> = std::iter::repeat_n(game, 300).flatten().collect();
    let (_dir, path) = temp_file("big.pgn", &big);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("pgnkit"))
        .args([
            "--threads",
            "2",
            "fen",
            "--every-ply",
            path.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: the next writes fail with a broken pipe.
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert_eq!(status.code(), Some(0));
            break;
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("pgnkit kept running after its output pipe closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn jsonl_has_the_csv_keys_typed() {
    let pgn = "[Event \"e\"]\n\n1. e4 e5 2. Nf3 *\n";
    let (code, csv_text, _) = run(&["fen", "--every-ply", "--format", "csv"], pgn);
    assert_eq!(code, 0);
    let (code, jsonl, _) = run(&["fen", "--every-ply", "--format", "jsonl"], pgn);
    assert_eq!(code, 0);
    let lines: Vec<&str> = jsonl.lines().collect();
    assert_eq!(lines.len(), csv_text.lines().count() - 1);
    assert_eq!(
        lines[0],
        "{\"file\":\"-\",\"game\":1,\"line\":1,\"ply\":0,\"san\":null,\
         \"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"}"
    );
    let last: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
    assert_eq!(last["ply"], 3);
    assert_eq!(last["san"], "Nf3");
    let csv_last = csv_text.lines().last().unwrap();
    assert!(csv_last.ends_with(last["fen"].as_str().unwrap()));
}

/// An illegal move and a syntax error, in two games.
const TWO_ERRORS: &str = "1. e4 e5 2. Ke3 Nc6 *\n\n1. d4 d5 2. Zz9 *\n";

#[test]
fn ignore_leaves_an_error_unreported_and_it_does_not_make_exit_1() {
    let (code, stdout, stderr) = run(&["fen", "--ignore", "move."], TWO_ERRORS);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("error["), "{stderr}");
    // The positions are those of the run without the flag.
    let (code, without, _) = run(&["fen"], TWO_ERRORS);
    assert_eq!(code, 1);
    assert_eq!(stdout, without);
}

#[test]
fn ignore_of_one_code_still_reports_the_others_with_exit_1() {
    let (code, _, stderr) = run(&["fen", "--ignore", "move.illegal"], TWO_ERRORS);
    assert_eq!(code, 1);
    assert!(!stderr.contains("move.illegal"), "{stderr}");
    assert!(
        stderr.contains("game 2, 2. Zz9: error[move.syntax]"),
        "{stderr}"
    );
}

#[test]
fn select_reports_only_the_codes_it_names() {
    let (code, _, stderr) = run(&["fen", "--select", "move.ill"], TWO_ERRORS);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("game 1, 2. Ke3: error[move.illegal]"),
        "{stderr}"
    );
    assert!(!stderr.contains("move.syntax"), "{stderr}");
    let (code, _, stderr) = run(&["fen", "--select", "setup."], TWO_ERRORS);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn select_of_a_code_that_does_not_exist_is_refused_before_any_output() {
    let (code, stdout, stderr) = run(&["fen", "--select", "mvoe."], TWO_ERRORS);
    assert_eq!(code, 2);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("--select mvoe.: no finding code starts so"),
        "{stderr}"
    );
}
