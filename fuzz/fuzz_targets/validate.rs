//! The whole validate path on any bytes: split into games, replay each one with every
//! diagnosis, draw rule and result check. It must never panic, and a game's report must
//! not depend on whether its move numbers are tokens (`convert`, `report`) or said by the
//! token before them (every other command).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{Limits, Splitter};
use pgnkit::rules::{ReplayOptions, replay};

fuzz_target!(|data: &[u8]| {
    let options = ReplayOptions {
        variations: true,
        ..ReplayOptions::default()
    };
    let keeping = Limits {
        move_numbers: true,
        ..Limits::default()
    };
    let mut splitter = Splitter::new(data, Arc::from("fuzz"), Limits::default());
    let mut numbered = Splitter::new(data, Arc::from("fuzz"), keeping);
    while let Ok(Some(game)) = splitter.next_game() {
        let report = replay(&game, &options, &mut ());
        for finding in &report.findings {
            let _ = finding.severity();
        }
        let Ok(Some(with_numbers)) = numbered.next_game() else {
            panic!("game {} is missing where move numbers are kept", game.index);
        };
        assert_eq!(
            format!("{report:?}"),
            format!("{:?}", replay(&with_numbers, &options, &mut ())),
            "game {}",
            game.index
        );
    }
});
