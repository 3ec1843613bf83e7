//! The Parquet reader on any bytes (seeded with testdata/parquet/): a file that is not
//! Parquet, or a damaged one, is an error and never a panic, and every row read is a game
//! that replays.
#![no_main]

use std::io::{Seek, SeekFrom, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{Limits, TableGames};
use pgnkit::rules::{ReplayOptions, replay};

fuzz_target!(|data: &[u8]| {
    let Ok(mut file) = tempfile::tempfile() else {
        return;
    };
    if file.write_all(data).is_err() || file.seek(SeekFrom::Start(0)).is_err() {
        return;
    }
    let counter = Arc::new(AtomicU64::new(0));
    let Ok(mut table) = TableGames::open(file, Arc::from("fuzz"), Limits::default(), counter)
    else {
        return;
    };
    let options = ReplayOptions::default();
    // A few thousand rows are enough to walk every batch and row group boundary.
    for row in 1..=5_000u64 {
        match table.next_game() {
            Ok(Some(game)) => {
                assert_eq!(game.index, row);
                assert_eq!(game.line, row);
                let _ = replay(&game, &options, &mut ());
            }
            Ok(None) | Err(_) => break,
        }
    }
});
