//! Which sources an INPUT list names: files, folders walked in byte-wise path order, stdin.

use std::collections::HashMap;
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

const GAME_FILE_SUFFIXES: [&str; 5] = [".pgn", ".pgn.gz", ".pgn.zst", ".pgn.bz2", ".parquet"];

/// What the INPUT arguments expand to.
#[derive(Debug, Default)]
pub struct Listing {
    pub sources: Vec<Source>,
    /// Folders or entries that could not be read (exit code 2).
    pub errors: Vec<SourceError>,
    /// Links not followed or read once (a loop, a second path to the same folder or file).
    pub warnings: Vec<String>,
}

/// Expands the INPUT arguments into sources: `-` or nothing is stdin, a folder contributes
/// every game file below it (hidden entries skipped, byte-wise path order), anything else
/// is a file (opened later, so a missing one is reported by the reader in its turn).
///
/// Below a folder, symbolic links are followed but each folder is walked once and each
/// file read once (by device and inode): a link back to a folder being walked (a loop)
/// and a second path to a folder or file already found are skipped with a warning; the
/// path kept is the first in byte-wise order of the names, folder by folder.
pub fn expand_inputs(inputs: &[String]) -> Listing {
    let mut listing = Listing::default();
    if inputs.is_empty() {
        listing.sources.push(Source::Stdin);
    }
    for input in inputs {
        if input == "-" {
            listing.sources.push(Source::Stdin);
            continue;
        }
        let path = PathBuf::from(input);
        if path.is_dir() {
            let mut walk = Walk::default();
            if let Some(id) = file_id(&path) {
                walk.folders.insert(id, path.clone());
                walk.ancestors.push(id);
            }
            walk.folder(&path, &mut listing);
            let mut found = walk.found;
            found.sort_by(|a, b| {
                a.as_os_str()
                    .as_encoded_bytes()
                    .cmp(b.as_os_str().as_encoded_bytes())
            });
            listing
                .sources
                .extend(found.into_iter().map(|path| Source::File {
                    name: path.to_string_lossy().into_owned(),
                    path,
                }));
        } else {
            listing.sources.push(Source::File {
                name: input.clone(),
                path,
            });
        }
    }
    listing
}

fn is_game_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    GAME_FILE_SUFFIXES
        .iter()
        .any(|suffix| lower.ends_with(suffix))
}

/// A file's identity: device and inode.
type FileId = (u64, u64);

/// The device and inode of what a path names, links followed; `None` where there is no
/// inode to tell (not on Unix) or nothing to stat.
fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// One folder argument's walk: what was found, and what was already seen.
#[derive(Default)]
struct Walk {
    found: Vec<PathBuf>,
    /// Every folder walked, and the path it was first reached by.
    folders: HashMap<FileId, PathBuf>,
    /// Every game file found, and its path.
    files: HashMap<FileId, PathBuf>,
    /// The folders from the argument down to the one being walked: a link to one of them
    /// is a loop.
    ancestors: Vec<FileId>,
}

impl Walk {
    fn folder(&mut self, dir: &Path, listing: &mut Listing) {
        let entries = match fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => {
                listing.errors.push(SourceError {
                    name: dir.to_string_lossy().into_owned(),
                    reason: err.to_string(),
                });
                return;
            }
        };
        // Sorted, so that the path kept for a folder or file reached twice is always the same.
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by(|a, b| {
            a.file_name()
                .as_encoded_bytes()
                .cmp(b.file_name().as_encoded_bytes())
        });
        for entry in entries {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            // Follow symlinks to learn what they point at; a dangling one is reported.
            match fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => self.subfolder(path, listing),
                Ok(_) if is_game_file(&name) => self.file(path, listing),
                Ok(_) => {}
                Err(err) if is_game_file(&name) => listing.errors.push(SourceError {
                    name: path.to_string_lossy().into_owned(),
                    reason: err.to_string(),
                }),
                Err(_) => {}
            }
        }
    }

    fn subfolder(&mut self, path: PathBuf, listing: &mut Listing) {
        let Some(id) = file_id(&path) else {
            self.folder(&path, listing);
            return;
        };
        if let Some(first) = self.folders.get(&id) {
            let what = if self.ancestors.contains(&id) {
                "a symbolic link loop: not followed"
            } else {
                "read once"
            };
            listing.warnings.push(format!(
                "{} is the folder {} again ({what})",
                path.display(),
                first.display()
            ));
            return;
        }
        self.folders.insert(id, path.clone());
        self.ancestors.push(id);
        self.folder(&path, listing);
        self.ancestors.pop();
    }

    fn file(&mut self, path: PathBuf, listing: &mut Listing) {
        if let Some(id) = file_id(&path) {
            if let Some(first) = self.files.get(&id) {
                listing.warnings.push(format!(
                    "{} is the file {} again (read once)",
                    path.display(),
                    first.display()
                ));
                return;
            }
            self.files.insert(id, path.clone());
        }
        self.found.push(path);
    }
}
