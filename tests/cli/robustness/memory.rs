//! See the parent module.

use super::*;
use crate::util::*;

// ---- size limits and pathological games -------------------------------------------------

/// 10 MB of comment text: on one line, or in 80-byte lines.
fn ten_megabytes(one_line: bool) -> String {
    if one_line {
        "x".repeat(10_000_000)
    } else {
        format!("{}\n", "x".repeat(79)).repeat(125_000)
    }
}

#[test]
fn ten_megabyte_comment_hits_the_game_limit_and_the_next_game_is_read() {
    for one_line in [true, false] {
        let body = ten_megabytes(one_line);
        let pgn = format!("[Event \"A\"]\n\n1. e4 {{{body}}} e5 *\n\n{GAME_B}");
        let (_dir, path) = temp_file("comment.pgn", pgn.as_bytes());
        let run = validate_path(&path);
        // 1. e4 before the comment is kept, the moves after the limit are not.
        run.assert_counts(1, 2, 3);
        run.assert_only("input.limit-exceeded", 1, 1, "longer than 8 MiB");
    }
}

#[test]
fn oversized_game_does_not_swallow_the_next_game_without_tags() {
    // SPEC: movetext after a finished game (its termination marker read) is a new game.
    for one_line in [true, false] {
        let body = ten_megabytes(one_line);
        let pgn = format!("[Event \"A\"]\n\n1. e4 {{{body}}} e5 *\n\n1. d4 d5 *\n");
        let (_dir, path) = temp_file("oversized.pgn", pgn.as_bytes());
        let run = validate_path(&path);
        // Game 1 keeps 1. e4; game 2 is read whole.
        run.assert_counts(1, 2, 3);
        run.assert_only("input.limit-exceeded", 1, 1, "longer than 8 MiB");
    }
}

#[test]
fn fifty_thousand_nested_variations_hit_the_depth_limit() {
    let pgn = format!(
        "[Event \"A\"]\n\n1. e4 {}{} e5 *\n\n{GAME_B}",
        "( 1. d4 ".repeat(50_000),
        ")".repeat(50_000)
    );
    let run = validate_bytes(pgn.as_bytes());
    run.assert_counts(1, 2, 3);
    run.assert_only("input.limit-exceeded", 1, 1, "deeper than 256");
}

#[test]
fn one_megabyte_tag_value_is_within_the_limits() {
    let white = "W".repeat(1_000_000);
    let run = validate_bytes(&game_with_white(white.as_bytes()));
    assert_eq!(run.code, 1);
    assert_eq!(run.summary("games"), 1);
    assert_eq!(run.codes(), vec![("move.illegal".to_string(), 1, 3)]);
    assert_eq!(run.findings[0]["white"].as_str().unwrap().len(), 1_000_000);
}

#[test]
fn hundred_thousand_move_game_replays_in_linear_time() {
    // Knights shuffling: no pawn move, no capture, so every position stays in the
    // repetition window (a scan of it per ply made this quadratic).
    let mut pgn = String::from("[Event \"A\"]\n\n");
    for n in (1..=100_000).step_by(2) {
        pgn.push_str(&format!("{n}. Nf3 Nf6 {}. Ng1 Ng8\n", n + 1));
    }
    pgn.push_str("1/2-1/2\n\n");
    pgn.push_str(GAME_B);
    let (_dir, path) = temp_file("long.pgn", pgn.as_bytes());
    let started = Instant::now();
    let run = validate_path(&path);
    assert!(started.elapsed() < Duration::from_secs(30));
    run.assert_counts(0, 2, 200_002);
    // The fivefold repetition ended the game at ply 16 (FIDE 9.6.1): a game-level warning
    // at the last ply replayed, naming the ply where the game ended.
    run.assert_only("result.after-automatic-draw", 1, 200_000, "fivefold");
}
