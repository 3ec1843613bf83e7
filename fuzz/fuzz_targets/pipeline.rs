//! The threaded pipeline on any bytes: the file is cut into chunks, split and replayed by
//! two and by three workers, and must give what one thread gives, game for game (index,
//! line, bytes, findings), in the same order. It must never panic.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use pgnkit::input::{CHUNK_BYTES, Limits, Source};
use pgnkit::pipeline::Pipeline;
use pgnkit::rules::{ReplayOptions, replay};

/// The games of `source` as `threads` workers report them, in output order.
fn run(source: &Source, threads: usize) -> Vec<String> {
    let pipeline = Pipeline {
        threads,
        limits: Limits::default(),
        shard: None,
        games: None,
        show_progress: false,
    };
    let options = ReplayOptions::default();
    let mut games = Vec::new();
    let totals = pipeline
        .run(
            std::slice::from_ref(source),
            |raw| format!("{:?}", replay(raw, &options, &mut ()).findings),
            |raw, findings| {
                games.push(format!(
                    "{} {} {} {} {:?} {findings}",
                    raw.index,
                    raw.global_index,
                    raw.line,
                    raw.bytes.len(),
                    raw.problems
                ));
                Ok(())
            },
        )
        .map(|totals| (totals.games, totals.games_found));
    games.push(format!("{totals:?}"));
    games
}

fuzz_target!(|data: &[u8]| {
    // A short input with an odd first byte is repeated past three chunks, so that small
    // inputs also reach the cuts between chunks and several workers.
    let mut bytes = data.to_vec();
    if data.first().is_some_and(|b| b % 2 == 1) {
        while bytes.len() <= 3 * CHUNK_BYTES {
            bytes.extend_from_slice(data);
        }
    }
    let dir = std::env::temp_dir().join(format!("pgnkit-fuzz-pipeline-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("input.pgn");
    let Ok(mut file) = std::fs::File::create(&path) else {
        return;
    };
    if file.write_all(&bytes).is_err() {
        return;
    }
    drop(file);
    let source = Source::File {
        name: "fuzz".to_string(),
        path: path.clone(),
    };
    let one = run(&source, 1);
    for threads in [2, 3] {
        assert_eq!(run(&source, threads), one, "--threads {threads}");
    }
});
