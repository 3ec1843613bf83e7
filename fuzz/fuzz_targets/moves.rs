//! SAN and UCI move parsing as `pgn --moves` does it: each word of the input is read as
//! SAN (standard, then pgnkit's readings of non-standard tokens) or UCI, matched against
//! the position, and played when legal. It must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::rules::replay::notation;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Start positions with castling, en passant and promotions close at hand.
const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let Some(start) = STARTS.get(usize::from(selector) % STARTS.len()) else {
        return;
    };
    let mode = if selector & 0x80 != 0 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let Ok(fen) = Fen::from_ascii(start.as_bytes()) else {
        return;
    };
    let Ok(mut pos) = fen.into_position::<Chess>(mode) else {
        return;
    };
    for word in text
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
    {
        let by_san = SanPlus::from_ascii(word)
            .ok()
            .or_else(|| notation::read(&pos, word, None).map(|reading| reading.san_plus))
            .and_then(|san_plus| san_plus.san.to_move(&pos).ok());
        let by_uci = || {
            UciMove::from_ascii(word)
                .ok()
                .and_then(|uci| uci.to_move(&pos).ok())
        };
        match by_san.or_else(by_uci) {
            Some(m) => {
                let _ = SanPlus::from_move(pos.clone(), m).to_string();
                let _ = m.to_uci(mode).to_string();
                pos.play_unchecked(m);
            }
            None => {
                let _ = notation::why_not_a_move(&String::from_utf8_lossy(word));
            }
        }
    }
});
