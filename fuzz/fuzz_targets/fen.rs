//! FEN checking on any text: shakmaty's parser, pgnkit's start-position set-up (variant,
//! castling mode, the plain-words list of position defects), and a replay from it.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pgnkit::pgn::{RawGame, RawTag, Span, TextDecoder};
use pgnkit::rules::fen::setup::start_position;
use pgnkit::rules::tags::Tags;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The first line is the FEN, an optional second line the variant.
    let mut lines = text.splitn(2, '\n');
    let fen = lines.next().unwrap_or_default();
    let mut pairs = vec![("SetUp", "1"), ("FEN", fen)];
    if let Some(variant) = lines.next() {
        pairs.push(("Variant", variant));
    }
    // The tags as the splitter would hand them on: names and values side by side in the
    // game's bytes (values are unescaped when decoded, which a FEN never needs).
    let mut raw = RawGame {
        file: Arc::from("fuzz"),
        index: 1,
        global_index: 0,
        line: 1,
        bytes: Vec::new(),
        tags: Vec::new(),
        tokens: Vec::new(),
        problems: Vec::new(),
    };
    for (name, value) in pairs {
        let at = |bytes: &Vec<u8>| u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        let name_start = at(&raw.bytes);
        raw.bytes.extend_from_slice(name.as_bytes());
        let name_end = at(&raw.bytes);
        raw.bytes.extend_from_slice(value.as_bytes());
        let value_end = at(&raw.bytes);
        raw.tags.push(RawTag {
            name: Span {
                start: name_start,
                end: name_end,
            },
            value: Span {
                start: name_end,
                end: value_end,
            },
            line: 0,
        });
    }
    let tags = Tags::decode(&raw, &TextDecoder::Auto);
    let _ = start_position(&tags);
});
