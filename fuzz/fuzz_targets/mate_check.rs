//! Who can still mate, on any FEN: every position pgnkit accepts (legal, not more material
//! than a game can have) goes through the analysis as a game's final position would, and
//! must never panic (a position the `chess` crate rejects is undecided). The first byte
//! picks the level (`f`: full, `m`: material, anything else: fast) and a Chess960 reading
//! (`9`: fast, in Chess960); the rest is the FEN. Full searches are bounded by the crate's
//! own node limit: a slow input is a finding too (FUZZ_TIMEOUT).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::rules::fen::check;
use pgnkit::rules::mate_check::{MateCheck, analyse};
use shakmaty::Position;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(fen) = std::str::from_utf8(rest) else {
        return;
    };
    let level = match first {
        b'f' => MateCheck::Full,
        b'm' => MateCheck::Material,
        _ => MateCheck::Fast,
    };
    let Ok((pos, mode)) = check::position(fen, first == b'9') else {
        return;
    };
    if pos.is_checkmate() || pos.is_stalemate() {
        return;
    }
    let verdict = analyse(&pos, mode, level);
    // What is proved by material alone holds at every level.
    assert!(!pos.has_insufficient_material(shakmaty::Color::White) || verdict.white_cannot);
    assert!(!pos.has_insufficient_material(shakmaty::Color::Black) || verdict.black_cannot);
});
