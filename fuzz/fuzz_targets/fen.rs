//! FEN checking on any text: shakmaty's parser, pgnkit's start-position set-up (variant,
//! castling mode, the plain-words list of position defects), and a replay from it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgnkit::rules::setup::start_position;
use pgnkit::rules::tags::Tags;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the FEN, an optional second line the variant.
    let mut lines = text.splitn(2, '\n');
    let fen = lines.next().unwrap_or_default();
    let mut pairs = vec![
        ("SetUp".to_string(), "1".to_string()),
        ("FEN".to_string(), fen.to_string()),
    ];
    if let Some(variant) = lines.next() {
        pairs.push(("Variant".to_string(), variant.to_string()));
    }
    let _ = start_position(&Tags { pairs });
});
