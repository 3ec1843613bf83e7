//! `pgnkit perft`: node counts, --divide, suites in both formats, mismatches, variant
//! suites skipped.

use crate::util::*;

/// `perft --quiet --suite PATH --max-depth N`: (exit code, stdout).
fn suite(path: &std::path::Path, max_depth: &str) -> (i32, String) {
    let (code, stdout, _) = run_args(&[
        "perft",
        "--quiet",
        "--suite",
        path.to_str().unwrap(),
        "--max-depth",
        max_depth,
    ]);
    (code, stdout)
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";

#[test]
fn counts_nodes_of_a_position() {
    let (code, stdout, _) = run_args(&["perft", KIWIPETE, "2"]);
    assert_eq!((code, stdout.as_str()), (0, "2039\n"));
    let (_, stdout, _) = run_args(&[
        "perft",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "3",
    ]);
    assert_eq!(stdout, "8902\n");
}

#[test]
fn divide_lists_each_move_and_the_total() {
    let (code, stdout, _) = run_args(&[
        "perft",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "2",
        "--divide",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 22, "20 moves, a blank line, the total");
    assert!(lines.contains(&"e2e4: 20"), "{stdout}");
    assert!(lines.contains(&"g1f3: 20"), "{stdout}");
    assert_eq!(lines.last(), Some(&"total: 400"));
}

#[test]
fn tricky_suite_passes() {
    // shakmaty's tricky positions, impossible checks and 218-move positions included.
    let (code, stdout) = suite(&testdata("perft/tricky.perft"), "3");
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(stdout.lines().count(), 26);
    assert!(stdout.lines().all(|l| l.starts_with("ok ")), "{stdout}");
    assert!(
        stdout.contains("ok max-legals-too-much-material (depths 1,2)"),
        "{stdout}"
    );
}

#[test]
fn epd_suites_standard_and_chess960() {
    for name in ["perft/perftsuite_head.epd", "perft/frc_head.epd"] {
        let (code, stdout) = suite(&testdata(name), "3");
        assert_eq!(code, 0, "{name}: {stdout}");
        assert!(
            stdout.starts_with("ok line 1 (depths 1,2,3)\n"),
            "{name}: {stdout}"
        );
    }
}

#[test]
fn a_wrong_count_is_a_mismatch_and_exit_1() {
    let suite = "id kiwipete\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n\
                 perft 1 48\nperft 2 2040\n\n\
                 4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n";
    let (_dir, path) = temp_file("wrong.perft", suite.as_bytes());
    let (code, stdout, stderr) = run_args(&["perft", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "MISMATCH kiwipete depth 2: expected 2040, counted 2039\nok line 6 (depths 1,2)\n"
    );
    assert!(stderr.contains("2 positions, 1 mismatches"), "{stderr}");
}

#[test]
fn max_depth_skips_deeper_expectations() {
    // The count at depth 3 is wrong, but --max-depth 2 never looks at it.
    let text = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1\n";
    let (_dir, path) = temp_file("deep.epd", text.as_bytes());
    let (code, stdout) = suite(&path, "2");
    assert_eq!((code, stdout.as_str()), (0, "ok line 1 (depths 1,2)\n"));
}

#[test]
fn variant_suites_are_skipped_with_a_message() {
    let (_dir, path) = temp_file(
        "shakmaty_atomic.perft",
        b"id x\nepd 8/8/8/8/8/8/8/8 w - -\nperft 1 0\n",
    );
    let (code, stdout, stderr) = run_args(&["perft", "--suite", path.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert!(
        stderr.contains("skipped: a suite of atomic positions"),
        "{stderr}"
    );
}

#[test]
fn an_illegal_suite_position_is_reported() {
    let (_dir, path) = temp_file("bad.epd", b"8/8/8/8/8/8/8/4K3 w - - ;D1 5\n");
    let (code, stdout, _) = run_args(&["perft", "-q", "--suite", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stdout.starts_with("MISMATCH line 1: "), "{stdout}");
    assert!(stdout.contains("a king is missing"), "{stdout}");
}

#[test]
fn an_illegal_position_exits_1_as_check_fen_does() {
    // A bad FEN is a finding about the data (exit 1), not a usage or I/O error (exit 2).
    for fen in ["8/8/8/8/8/8/8/4K3 w - - 0 1", "not a fen"] {
        let (check_code, _, _) = run_args(&["check-fen", fen]);
        let (code, stdout, stderr) = run_args(&["perft", fen, "1"]);
        assert_eq!((code, check_code), (1, 1), "{fen}: {stderr}");
        assert_eq!(stdout, "", "{fen}");
        assert!(stderr.starts_with("pgnkit: `"), "{fen}: {stderr}");
    }
    let (code, _, stderr) = run_args(&["perft", "8/8/8/8/8/8/8/4K3 w - - 0 1", "1", "--divide"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("a king is missing"), "{stderr}");
}
