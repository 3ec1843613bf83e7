//! The whole validate path on any bytes: split into games, replay each one with every
//! diagnosis, draw rule and result check. It must never panic.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{Limits, Splitter};
use pgnkit::rules::{ReplayOptions, replay};

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions::default();
    let mut splitter = Splitter::new(data, Arc::from("fuzz"), Limits::default());
    while let Ok(Some(game)) = splitter.next_game() {
        let report = replay(&game, &options, &mut ());
        for finding in &report.findings {
            let _ = finding.severity();
        }
    }
});
