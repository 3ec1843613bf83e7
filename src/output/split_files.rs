//! The files `select` writes besides its output: `--split-by`/`--split-every` (one file
//! per value or per N games, in a folder, named at the end without overwriting any), and
//! the games `--dedupe` dropped (`--duplicates-out`, `--duplicates-csv`).

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::Output;
use super::pgn::write_original;
use super::records::RecordWriter;
use super::sink::Format;
use crate::pgn::RawGame;
use crate::record::{CellSink, Column, Record};

/// The first game of a kind, which a game `--dedupe` dropped repeats.
#[derive(Debug, Clone, Copy)]
pub struct FirstGame<'a> {
    pub file: &'a str,
    pub game: u64,
    pub line: u64,
}

/// The files of the games `--dedupe` dropped, those asked for.
#[derive(Debug, Clone, Copy)]
pub struct DuplicateFiles<'a> {
    /// `--duplicates-out`: their text.
    pub games: Option<&'a Path>,
    /// `--duplicates-csv`: a row each, with the first game of its kind.
    pub csv: Option<&'a Path>,
}

/// A row of `--duplicates-csv`: a game `--dedupe` dropped, and the first game of its kind.
struct Duplicate<'a> {
    raw: &'a RawGame,
    first: FirstGame<'a>,
}

impl Record for Duplicate<'_> {
    const COLUMNS: &'static [Column] = &[
        Column::string("file"),
        Column::number("game"),
        Column::number("line"),
        Column::string("first_file"),
        Column::number("first_game"),
        Column::number("first_line"),
    ];
    const EMPTY_STRING_IS_NULL: bool = false;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        cells.text(&self.raw.file);
        cells.number(self.raw.index);
        cells.number(self.raw.line);
        cells.text(self.first.file);
        cells.number(self.first.game);
        cells.number(self.first.line);
    }
}

/// Where the games `--dedupe` dropped go: `--duplicates-out` (their text) and
/// `--duplicates-csv` (a `Duplicate` row each).
pub struct Duplicates {
    games: Option<Output>,
    rows: Option<RecordWriter<Output>>,
}

impl Duplicates {
    /// Opens the files asked for (the CSV with its header).
    pub fn create(files: DuplicateFiles) -> anyhow::Result<Duplicates> {
        let games = files
            .games
            .map(|path| Output::create(Some(path)))
            .transpose()?;
        let rows = files
            .csv
            .map(|path| {
                Output::create(Some(path))
                    .and_then(|out| RecordWriter::new::<Duplicate>(out, Format::Csv, &[]))
            })
            .transpose()?;
        Ok(Duplicates { games, rows })
    }

    /// One dropped game, with the first game of its kind (known when the CSV is asked for).
    pub fn write(&mut self, raw: &RawGame, first: Option<FirstGame>) -> anyhow::Result<()> {
        if let Some(out) = &mut self.games {
            write_original(out, &raw.bytes)?;
        }
        if let (Some(rows), Some(first)) = (&mut self.rows, first) {
            rows.write(&Duplicate { raw, first })?;
        }
        Ok(())
    }

    pub fn finish(self) -> anyhow::Result<()> {
        if let Some(out) = self.games {
            out.finish()?;
        }
        if let Some(rows) = self.rows {
            rows.finish()?.finish()?;
        }
        Ok(())
    }
}

/// `--split-by` / `--split-every`: each output file is written under a temporary name in
/// DIR and renamed at the end, when no final name clashes with an existing file.
pub struct SplitWriter {
    dir: PathBuf,
    every: Option<u64>,
    /// Files in creation order, each with its --split-by name (none for --split-every).
    files: Vec<SplitFile>,
    by_name: HashMap<String, usize>,
    /// Games in the last --split-every file.
    in_last: u64,
    /// Files currently open (kept few, so that thousands of values need no thousand
    /// descriptors).
    open: Vec<usize>,
}

struct SplitFile {
    name: String,
    temp: tempfile::TempPath,
    writer: Option<BufWriter<File>>,
}

/// The most split files kept open at once.
const MAX_OPEN: usize = 64;

impl SplitWriter {
    /// Files in `dir`: one per `--split-by` value, or `every` games each.
    pub fn new(dir: &Path, every: Option<u64>) -> anyhow::Result<SplitWriter> {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        if every.is_some() && dir.join("00001.pgn").exists() {
            anyhow::bail!(
                "{} exists: --split-every never overwrites a file (give another --out-dir)",
                dir.join("00001.pgn").display()
            );
        }
        Ok(SplitWriter {
            dir: dir.to_path_buf(),
            every,
            files: Vec::new(),
            by_name: HashMap::new(),
            in_last: 0,
            open: Vec::new(),
        })
    }

    /// A game's text into the file of `value` (`--split-by`) or the current one.
    pub fn write(&mut self, value: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let index = match self.every {
            Some(every) => {
                if self.files.is_empty() || self.in_last >= every {
                    self.in_last = 0;
                    self.new_file(String::new())?
                } else {
                    self.files.len() - 1
                }
            }
            None => {
                let name = file_name_of(value);
                match self.by_name.get(&name) {
                    Some(&index) => index,
                    None => {
                        let index = self.new_file(name.clone())?;
                        self.by_name.insert(name, index);
                        index
                    }
                }
            }
        };
        self.in_last += 1;
        let writer = self.writer(index)?;
        write_original(writer, bytes)
            .with_context(|| format!("cannot write into {}", self.dir.display()))
    }

    fn new_file(&mut self, name: String) -> anyhow::Result<usize> {
        let temp = tempfile::Builder::new()
            .prefix(".pgnkit-")
            .tempfile_in(&self.dir)
            .with_context(|| format!("cannot create a file in {}", self.dir.display()))?
            .into_temp_path();
        crate::interrupt::track(&temp);
        self.files.push(SplitFile {
            name,
            temp,
            writer: None,
        });
        Ok(self.files.len() - 1)
    }

    /// The open writer of file `index`, opening it (for appending) when needed.
    fn writer(&mut self, index: usize) -> anyhow::Result<&mut BufWriter<File>> {
        let is_open = self
            .files
            .get(index)
            .is_some_and(|file| file.writer.is_some());
        if !is_open {
            if self.open.len() >= MAX_OPEN {
                for open in std::mem::take(&mut self.open) {
                    if let Some(mut writer) = self.files.get_mut(open).and_then(|f| f.writer.take())
                    {
                        writer.flush()?;
                    }
                }
            }
            let file = self
                .files
                .get_mut(index)
                .context("a split file went missing")?;
            let handle = fs::OpenOptions::new()
                .append(true)
                .open(&file.temp)
                .with_context(|| format!("cannot write into {}", self.dir.display()))?;
            file.writer = Some(BufWriter::with_capacity(64 * 1024, handle));
            self.open.push(index);
        }
        self.files
            .get_mut(index)
            .and_then(|file| file.writer.as_mut())
            .context("a split file went missing")
    }

    /// Names the files, refuses every clash with an existing file (then nothing is
    /// renamed and the temporary files go), and renames them into place.
    pub fn finish(mut self) -> anyhow::Result<()> {
        for file in &mut self.files {
            if let Some(mut writer) = file.writer.take() {
                writer.flush()?;
            }
        }
        let width = self.files.len().to_string().len().max(5);
        let finals: Vec<PathBuf> = self
            .files
            .iter()
            .enumerate()
            .map(|(i, file)| match self.every {
                Some(_) => self.dir.join(format!("{:0width$}.pgn", i + 1)),
                None => self.dir.join(format!("{}.pgn", file.name)),
            })
            .collect();
        if let Some(clash) = finals.iter().find(|path| path.exists()) {
            anyhow::bail!(
                "{} exists: select never overwrites a file, and wrote none (give another --out-dir)",
                clash.display()
            );
        }
        for (file, path) in self.files.into_iter().zip(finals) {
            set_permissions(&file.temp);
            crate::interrupt::untrack(&file.temp);
            file.temp
                .persist_noclobber(&path)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}

/// Split files get the mode a new file gets (tempfile makes them private).
fn set_permissions(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = 0o666 & !super::umask();
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(mode));
    }
}

/// A --split-by value as a file name: ASCII letters, digits, `-`, `_` and `.` kept, every
/// other byte `_`, each dot of a leading run of dots `_` (a name starting with `.` is a
/// hidden file, which the folder rule skips when the folder is read back), at most 100
/// bytes, `_empty` when empty.
fn file_name_of(value: &str) -> String {
    if value.is_empty() {
        return "_empty".to_string();
    }
    let mut leading_dots = true;
    value
        .bytes()
        .take(100)
        .map(|b| {
            leading_dots &= b == b'.';
            if leading_dots {
                '_'
            } else if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.') {
                char::from(b)
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use super::file_name_of;

    #[test]
    fn file_names_keep_safe_bytes_only() {
        assert_eq!(file_name_of(""), "_empty");
        assert_eq!(file_name_of("Wch 2024/25"), "Wch_2024_25");
        assert_eq!(file_name_of("Élo"), "__lo");
        assert_eq!(file_name_of(&"a".repeat(150)).len(), 100);
        assert_eq!(file_name_of("."), "_");
        assert_eq!(file_name_of(".."), "__");
        assert_eq!(file_name_of("../x"), "___x");
        assert_eq!(file_name_of("..a.b"), "__a.b");
        assert_eq!(file_name_of("a..b"), "a..b");
    }
}
