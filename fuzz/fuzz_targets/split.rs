//! The game splitter and tokeniser on any bytes, with small limits so that the limit paths
//! run too: it must never panic, and every token and tag must lie inside its game's bytes.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{Limits, Splitter};

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_game_bytes: 4096,
        max_depth: 8,
    };
    let mut splitter = Splitter::new(data, Arc::from("fuzz"), limits);
    let mut last_index = 0;
    while let Ok(Some(game)) = splitter.next_game() {
        assert!(game.index > last_index, "games are numbered in order");
        last_index = game.index;
        let len = game.bytes.len();
        for token in &game.tokens {
            assert!(token.start <= token.end && token.end as usize <= len);
        }
        for tag in &game.tags {
            assert!(tag.name.1 as usize <= len && tag.value.1 as usize <= len);
        }
    }
    assert!(splitter.bytes_read() <= data.len() as u64);
});
