//! Repetition counts, which `stats` and `validate` judge draws by, are kept from incremental
//! position keys for speed; they must equal counts over keys hashed from scratch. The first
//! two tests drive the library's splitter and draw tracker directly.

use std::io::Cursor;
use std::sync::Arc;

use pgnkit::input::{Limits, Splitter};
use pgnkit::pgn::{RawGame, TextDecoder, TokenKind};
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
