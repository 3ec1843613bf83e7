//! Reads the versions of the crates that decide pgnkit's answers from Cargo.lock, for
//! `pgnkit --version`. Without a Cargo.lock (a crate built from a registry), says so.

use std::fs;

/// shakmaty judges every position and move; clap reads the command line; rayon runs the
/// workers. (pgn-reader is only the benchmark's yardstick: a dev-dependency.)
const CRATES: [&str; 3] = ["shakmaty", "clap", "rayon"];

fn main() {
    println!("cargo::rerun-if-changed=Cargo.lock");
    let lock = fs::read_to_string("Cargo.lock").unwrap_or_default();
    let mut named = Vec::new();
    for krate in CRATES {
        let version = version_in_lock(&lock, krate).unwrap_or_else(|| "(version unknown)".into());
        named.push(format!("{krate} {version}"));
    }
    println!(
        "cargo::rustc-env=PGNKIT_DEPENDENCY_VERSIONS={}",
        named.join(", ")
    );
}

/// The version line that follows `name = "<krate>"` in a Cargo.lock.
fn version_in_lock(lock: &str, krate: &str) -> Option<String> {
    let wanted = format!("name = \"{krate}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let version = lines.next()?.trim();
            return version
                .strip_prefix("version = \"")?
                .strip_suffix('"')
                .map(str::to_string);
        }
    }
    None
}
