//! The speed work must not change a single answer: repetition counts from incremental
//! keys equal counts over full hashes, and the thread count never changes the output.

use std::io::Cursor;
use std::sync::Arc;

use pgnkit::input::{Limits, Splitter};
use pgnkit::pgn::TextDecoder;
use pgnkit::pgn::{RawGame, TokenKind};
use pgnkit::rules::draw::{DrawTracker, position_key};
use pgnkit::rules::fen::setup;
use pgnkit::rules::tags::Tags;
use shakmaty::Position;
use shakmaty::san::SanPlus;

use crate::util::*;

fn games_of(bytes: &[u8]) -> Vec<RawGame> {
    let mut splitter = Splitter::new(Cursor::new(bytes), Arc::from("t"), Limits::default());
    let mut games = Vec::new();
    while let Some(game) = splitter.next_game().unwrap() {
        games.push(game);
    }
    games
}

/// Every main-line move of every game: the tracker's repetition count (incremental keys
/// where shakmaty offers them) must equal a count over keys hashed from scratch, castling,
/// en passant and Chess960 included. Returns (positions seen again, moves).
fn check_repetition_counts(bytes: &[u8]) -> (usize, usize) {
    let (mut repeats, mut moves) = (0, 0);
    for game in games_of(bytes) {
        let tags = Tags::decode(&game, &TextDecoder::Auto);
        let Ok((mut pos, _)) = setup::start_position(&tags) else {
            continue;
        };
        let mut draws = DrawTracker::default();
        draws.start(&pos);
        let mut keys = vec![position_key(&pos)];
        let mut depth = 0u32;
        for token in &game.tokens {
            match token.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth -= 1,
                TokenKind::Word if depth == 0 => {
                    let Ok(san) = SanPlus::from_ascii(game.token_text(token)) else {
                        break;
                    };
                    let Ok(m) = san.san.to_move(&pos) else { break };
                    if pos.is_irreversible(m) {
                        keys.clear();
                    }
                    pos.play_unchecked(m);
                    moves += 1;
                    draws.after_move(moves as u32, m, &pos, false);
                    let key = position_key(&pos);
                    let expected = 1 + keys.iter().filter(|&&k| k == key).count() as u32;
                    keys.push(key);
                    repeats += usize::from(expected > 1);
                    assert_eq!(
                        draws.current_count, expected,
                        "game {} after {m}",
                        game.index
                    );
                }
                _ => {}
            }
        }
    }
    (repeats, moves)
}

#[test]
fn repetition_counts_equal_counts_over_full_hashes() {
    let bytes = std::fs::read(testdata("bench/lichess_manwithavan.pgn")).unwrap();
    let (repeats, moves) = check_repetition_counts(&bytes);
    assert!(moves > 20_000, "{moves} moves replayed");
    assert!(
        repeats > 0,
        "no position recurred: the test would show nothing"
    );
}

#[test]
fn repetition_counts_hold_for_castling_en_passant_and_chess960() {
    let pgn = "[Event \"ep\"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 Nc6 4. Nf3 e5 5. Bc4 Be7 6. O-O O-O \
               7. Re1 Re8 8. Kh1 Kh8 9. Rg1 Rg8 *\n\n\
               [Event \"960\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
               [FEN \"nrqbbnkr/pppppppp/8/8/8/8/PPPPPPPP/NRQBBNKR w KQkq - 0 1\"]\n\n\
               a4 Nb6 d3 Na8 h3 e5 Nb3 b5 d4 c5 Bd2 Bg5 Ra1 Ne6 g3 O-O Nh2 Kh8 O-O f6 Be3 Nb6 \
               axb5 Qd8 c4 Bh6 Bxh6 Rg8 Bg5 Rf8 Ra4 Nxg5 d5 g6 Ra6 Nf7 Kg2 Nxd5 Qc2 Nc7 *\n";
    let (_, moves) = check_repetition_counts(pgn.as_bytes());
    assert_eq!(moves, 58, "every move replayed");
}

#[test]
fn fivefold_by_quiet_moves_is_found() {
    // Knight moves only: every key after the first cycle comes from the incremental path.
    let cycle = "Nf3 Nf6 Ng1 Ng8 ";
    let pgn = format!("[Event \"5\"]\n\n{} e4 *\n", cycle.repeat(4));
    let findings = findings_of(&pgn, &[]);
    assert_eq!(
        codes_of(&findings),
        vec![("result.after-automatic-draw".to_string(), 17)]
    );
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        message.contains("ply 16") && message.contains("fivefold"),
        "{message}"
    );
}

#[test]
fn thread_count_never_changes_the_output() {
    let path = testdata("bench/lichess_manwithavan.pgn");
    let path = path.to_str().unwrap();
    let (code1, one, _) = run_args(&["--threads", "1", "validate", "--level", "info", path]);
    let (code2, two, _) = run_args(&["--threads", "2", "validate", "--level", "info", path]);
    let (code3, three, _) = run_args(&["--threads", "3", "validate", "--level", "info", path]);
    assert!(one.lines().count() > 10, "{one}");
    assert_eq!((code1, &one), (code2, &two));
    assert_eq!((code1, &one), (code3, &three));
}

/// Joins that put a safe cut in doubt: a comment holding a blank line and a tag pair, an
/// escape line, tag pairs after tag pairs, a game without tags after a finished one.
const TRICKY_JOINS: &str = concat!(
    "[Event \"j1\"]\n\n1. e4 {a\n\n[Event \"in a comment\"]\nb} e5 *\n\n",
    "% escape\n\n[Event \"j2\"]\n\n[Site \"more tags\"]\n\n1. d4 d5 1-0\n1. c4 c5 *\n\n",
);

/// Runs `args` on `path` at 1, 2 and 3 threads: the outputs and exit codes must be equal.
fn same_at_every_thread_count(args: &[&str], path: &str) -> String {
    let run_at = |threads: &str| {
        let mut all = vec!["--threads", threads];
        all.extend_from_slice(args);
        all.push(path);
        run_args(&all)
    };
    let (code, one, _) = run_at("1");
    for threads in ["2", "3"] {
        let (other_code, other, _) = run_at(threads);
        assert_eq!(code, other_code, "{args:?} at {threads} threads");
        assert!(
            one == other,
            "{args:?}: the output at {threads} threads differs"
        );
    }
    one
}

/// About 1 MB: more than the reader's chunks, which workers split on their own. Every
/// finding, game number and line, and every stats row, is as one thread reads them.
#[test]
fn chunks_give_the_output_of_one_thread() {
    let parts = [
        "bench/lichess_manwithavan.pgn",
        "sample/problems.pgn",
        "sample/twic1599-excerpt.pgn",
    ];
    let mut pgn = Vec::new();
    for _ in 0..3 {
        for part in parts {
            pgn.extend(std::fs::read(testdata(part)).unwrap());
            pgn.extend_from_slice(b"\n");
            pgn.extend_from_slice(TRICKY_JOINS.as_bytes());
        }
    }
    assert!(pgn.len() > 900_000);
    let (_dir, path) = temp_file("chunks.pgn", &pgn);
    let path = path.to_str().unwrap();
    let findings = same_at_every_thread_count(&["validate", "--level", "info", "-q"], path);
    assert!(findings.lines().count() > 100, "{findings}");
    let rows = same_at_every_thread_count(&["stats", "-q"], path);
    let games = rows.lines().count() - 1;
    assert!(games > 1_000, "{games} games");
    // The last row is numbered after every game before it.
    let last_index = rows.lines().last().unwrap().split(',').nth(1).unwrap();
    assert_eq!(last_index, games.to_string());
}

/// A game longer than the largest chunk (no safe cut in 16 MiB): the rest of the file is
/// split by the reader, with the same games, numbers and lines.
#[test]
fn a_file_without_safe_cuts_gives_the_output_of_one_thread() {
    let body = format!("{}\n", "x".repeat(79)).repeat(220_000);
    let pgn = format!(
        "[Event \"A\"]\n\n1. e4 {{{body}}} e5 *\n\n1. d4 d5 *\n\n{TRICKY_JOINS}[Event \"B\"]\n\n1. e4 e4 *\n"
    );
    assert!(pgn.len() > 17_000_000);
    let (_dir, path) = temp_file("long.pgn", pgn.as_bytes());
    let path = path.to_str().unwrap();
    let findings = same_at_every_thread_count(
        &["validate", "--level", "info", "--format", "jsonl", "-q"],
        path,
    );
    let codes: Vec<(String, u64, u64)> = findings
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["game"].as_u64().unwrap(),
                f["line"].as_u64().unwrap(),
            )
        })
        .filter(|(code, _, _)| code.starts_with("input.") || code.starts_with("move."))
        .collect();
    // The last game's illegal move is found in that game, at its number and first line.
    let tag_line = pgn[..pgn.find("[Event \"B\"]").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert!(tag_line > 220_000);
    assert_eq!(
        codes.first().unwrap(),
        &("input.limit-exceeded".to_string(), 1, 1)
    );
    assert_eq!(
        codes.last().unwrap(),
        &("move.illegal".to_string(), 7, tag_line as u64)
    );
}
