//! Which sources an INPUT list names: files, folders walked in byte-wise path order, stdin.

use std::fs;
use std::path::{Path, PathBuf};

/// One stream of PGN to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File {
        /// The path as the user gave it, or the folder joined with the path inside it.
        name: String,
        path: PathBuf,
    },
}

impl Source {
    /// The name findings use for this source (`-` for stdin).
    pub fn name(&self) -> &str {
        match self {
            Source::Stdin => "-",
            Source::File { name, .. } => name,
        }
    }

    /// Size on disk, for the progress bar (0 when unknown).
    pub fn size(&self) -> u64 {
        match self {
            Source::Stdin => 0,
            Source::File { path, .. } => fs::metadata(path).map_or(0, |m| m.len()),
        }
    }
}

/// A problem found while listing the inputs: reported, and the other inputs still run.
#[derive(Debug)]
pub struct SourceError {
    pub name: String,
    pub reason: String,
}

const GAME_FILE_SUFFIXES: [&str; 4] = [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2"];

/// Expands the INPUT arguments into sources: `-` or nothing is stdin, a folder contributes
/// every game file below it (hidden entries skipped, byte-wise path order), anything else
/// is a file (opened later, so a missing one is reported by the reader in its turn).
pub fn expand_inputs(inputs: &[String]) -> (Vec<Source>, Vec<SourceError>) {
    let mut sources = Vec::new();
    let mut errors = Vec::new();
    if inputs.is_empty() {
        sources.push(Source::Stdin);
    }
    for input in inputs {
        if input == "-" {
            sources.push(Source::Stdin);
            continue;
        }
        let path = PathBuf::from(input);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(&path, &mut found, &mut errors);
            found.sort_by(|a, b| {
                a.as_os_str()
                    .as_encoded_bytes()
                    .cmp(b.as_os_str().as_encoded_bytes())
            });
            sources.extend(found.into_iter().map(|path| Source::File {
                name: path.to_string_lossy().into_owned(),
                path,
            }));
        } else {
            sources.push(Source::File {
                name: input.clone(),
                path,
            });
        }
    }
    (sources, errors)
}

fn is_game_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    GAME_FILE_SUFFIXES
        .iter()
        .any(|suffix| lower.ends_with(suffix))
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, errors: &mut Vec<SourceError>) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            errors.push(SourceError {
                name: dir.to_string_lossy().into_owned(),
                reason: err.to_string(),
            });
            return;
        }
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        // Follow symlinks to learn what they point at; a dangling one is reported.
        match fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, found, errors),
            Ok(_) if is_game_file(&name) => found.push(path),
            Ok(_) => {}
            Err(err) if is_game_file(&name) => errors.push(SourceError {
                name: path.to_string_lossy().into_owned(),
                reason: err.to_string(),
            }),
            Err(_) => {}
        }
    }
}
