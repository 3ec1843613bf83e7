//! Two things made at build time:
//! - the versions of the crates that decide pgnkit's answers, read from Cargo.lock, for
//!   `pgnkit --version` (without a Cargo.lock, a crate built from a registry, it says so);
//! - the openings table (`src/rules/openings.rs`): every line of the lichess data set in
//!   `data/chess-openings/` played by shakmaty, and the key of the position after it, so
//!   that a run does not read and play the 3,807 lines again (12 ms, 38 M instructions,
//!   at the first game that is named: four times a small file's `validate`).

use std::collections::HashMap;
use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

/// shakmaty judges every position and move; clap reads the command line; rayon runs the
/// workers. (pgn-reader is only the benchmark's yardstick: a dev-dependency.)
const CRATES: [&str; 3] = ["shakmaty", "clap", "rayon"];

/// The data set's five volumes (ECO A to E), as the lichess repository ships them.
const VOLUMES: [&str; 5] = ["a", "b", "c", "d", "e"];

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=Cargo.lock");
    println!("cargo::rerun-if-changed=data/chess-openings");
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
    let table = openings_table(Path::new("data/chess-openings"))?;
    let out = Path::new(&env::var("OUT_DIR")?).join("openings_table.rs");
    fs::write(out, table)?;
    Ok(())
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

/// One line of the data set, played.
struct Line {
    eco: String,
    name: String,
    pgn: String,
    plies: u32,
    key: u64,
}

/// The Rust source of the table `src/rules/openings.rs` includes: `LINES` (every line, in
/// the data set's order), `BY_POSITION` (each position after a line, by its key in
/// ascending order, and the line that names it: the shortest, and of lines as short the
/// first, as lichess's own classifier keeps the shortest line per position) and
/// `DEEPEST`. A row that is not three columns, or whose moves do not play, fails the build.
fn openings_table(folder: &Path) -> Result<String, Box<dyn Error>> {
    let mut lines: Vec<Line> = Vec::with_capacity(4096);
    let mut prefixes = Prefixes::default();
    for volume in VOLUMES {
        let path = folder.join(format!("{volume}.tsv"));
        let text = fs::read_to_string(&path)?;
        // The first line is the header `eco	name	pgn`.
        for (number, row) in text.lines().enumerate().skip(1) {
            if row.is_empty() {
                continue;
            }
            let at = || format!("{}:{}", path.display(), number + 1);
            let mut columns = row.split('\t');
            let (Some(eco), Some(name), Some(pgn), None) = (
                columns.next(),
                columns.next(),
                columns.next(),
                columns.next(),
            ) else {
                return Err(format!("{}: not three columns", at()).into());
            };
            let (pos, plies) = prefixes
                .play(pgn)
                .ok_or_else(|| format!("{}: `{pgn}` does not play", at()))?;
            let hash: Zobrist64 = pos.zobrist_hash(EnPassantMode::Legal);
            lines.push(Line {
                eco: eco.to_string(),
                name: name.to_string(),
                pgn: pgn.to_string(),
                plies,
                key: hash.0,
            });
        }
    }
    let mut by_position: HashMap<u64, usize> = HashMap::new();
    for (index, line) in lines.iter().enumerate() {
        let kept = by_position.entry(line.key).or_insert(index);
        if lines.get(*kept).is_some_and(|kept| line.plies < kept.plies) {
            *kept = index;
        }
    }
    let mut by_position: Vec<(u64, usize)> = by_position.into_iter().collect();
    by_position.sort_unstable();

    // The lines' text in one string, each line as `ECO Name` then its moves, and the
    // lines as offsets into it: a table of `&str`s would be relocated when the binary
    // is loaded (every page of it written, 0.7 MiB more in every run), offsets are not.
    let mut text = String::new();
    let mut rows = String::new();
    for (index, line) in lines.iter().enumerate() {
        let start = text.len();
        text.push_str(&line.eco);
        text.push(' ');
        text.push_str(&line.name);
        let key_end = text.len();
        text.push_str(&line.pgn);
        writeln!(
            rows,
            "    Opening {{ text: ({start}, {key_end}, {}), eco_len: {}, plies: {}, index: {index} }},",
            text.len(),
            line.eco.len(),
            line.plies,
        )?;
    }
    let mut out = String::new();
    writeln!(
        out,
        "// Made by build.rs from data/chess-openings: do not edit."
    )?;
    writeln!(out, "const TEXT: &str = {text:?};")?;
    writeln!(out, "static LINES: [Opening; {}] = [", lines.len())?;
    out.push_str(&rows);
    writeln!(out, "];")?;
    writeln!(
        out,
        "static BY_POSITION: [(u64, u32); {}] = [",
        by_position.len()
    )?;
    for (key, index) in &by_position {
        writeln!(out, "    ({key:#018x}, {index}),")?;
    }
    writeln!(out, "];")?;
    let deepest = lines.iter().map(|line| line.plies).max().unwrap_or(0);
    writeln!(out, "const DEEPEST: u32 = {deepest};")?;
    Ok(out)
}

/// The positions after the prefixes of the lines played so far: most lines extend
/// another line, so each is played from its longest known prefix (a few thousand moves
/// in all instead of tens of thousands).
#[derive(Default)]
struct Prefixes {
    after: HashMap<String, Chess>,
}

impl Prefixes {
    /// The position after `pgn` (`1. e4 c5 2. Nf3`) and its plies; `None` if a move
    /// cannot be played.
    fn play(&mut self, pgn: &str) -> Option<(Chess, u32)> {
        let mut pos = Chess::default();
        let mut plies = 0;
        let mut known = true;
        for (end, word) in move_ends(pgn) {
            plies += 1;
            let prefix = pgn.get(..end)?;
            if known && let Some(after) = self.after.get(prefix) {
                pos = after.clone();
                continue;
            }
            known = false;
            let m = San::from_ascii(word.as_bytes()).ok()?.to_move(&pos).ok()?;
            pos.play_unchecked(m);
            self.after.insert(prefix.to_string(), pos.clone());
        }
        Some((pos, plies))
    }
}

/// The moves of a line (`1. e4 c5`: `e4`, `c5`) with the byte offset where each ends.
fn move_ends(pgn: &str) -> impl Iterator<Item = (usize, &str)> {
    pgn.split(' ')
        .scan(0usize, |offset, word| {
            let start = *offset;
            *offset += word.len() + 1;
            Some((start + word.len(), word))
        })
        .filter(|(_, word)| !word.is_empty() && !word.ends_with('.'))
}
