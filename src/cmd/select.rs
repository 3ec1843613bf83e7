//! `pgnkit select`: the games that pass the game filters, as their original text.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cli::{Context, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::run::{Ending, GameRun};
use crate::exit::ExitStatus;
use crate::filter::Judged;
use crate::filter::dedupe::Origin;
use crate::filter::expr::{self, Field};
use crate::output::Format;
use crate::output::Output;
use crate::output::pgn::write_original;
use crate::output::records::RecordWriter;
use crate::output::summary::Selection;
use crate::pgn::RawGame;
use crate::record::{Cells, Column, Record};
use crate::rules::GameReport;
use crate::rules::tags::Tags;
use crate::stats::StatsRow;

/// Write the games that pass the game filters, as their original text.
///
/// Each selected game is written exactly as it stands in the (decompressed) input, from
/// its first byte through the line break that ends its last non-blank line, then one empty
/// line in the game's own line ending: comments, variations, spellings and encoding are
/// kept (CR-only line ends too). Escape lines (`%`), lines between games and a file's
/// byte-order mark are not part of a game. Games come in
/// input order whatever --threads. The filters (--where, --reaches, --material, --dedupe)
/// judge the games that --games/--shard pick. Exit 0 when the run completes, 2 on I/O
/// errors (broken games are data here).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Write the games that --where, --reaches and --material reject instead (--games and
    /// --shard still pick first; --dedupe applies to the inverted selection).
    #[arg(long, help_heading = "Game filters")]
    pub invert: bool,

    /// Print only the number of selected games on stdout.
    #[arg(long, help_heading = "Output", conflicts_with_all = ["out_dir", "output"])]
    pub count: bool,

    /// Write the games that --dedupe dropped to FILE (same format).
    #[arg(
        long,
        value_name = "FILE",
        requires = "dedupe",
        help_heading = "Output"
    )]
    pub duplicates_out: Option<PathBuf>,

    /// Write one CSV row per game --dedupe dropped to FILE:
    /// file,game,line,first_file,first_game,first_line (the game it duplicates).
    #[arg(
        long,
        value_name = "FILE",
        requires = "dedupe",
        help_heading = "Output"
    )]
    pub duplicates_csv: Option<PathBuf>,

    /// Write one file per distinct value of FIELD (any field of --where) into --out-dir:
    /// DIR/VALUE.pgn, VALUE made of ASCII letters, digits, `-`, `_` and `.` (any other
    /// byte becomes `_`, and each dot of a leading run of dots too, so that no file is
    /// hidden; at most 100 bytes; `_empty` when empty).
    #[arg(
        long,
        value_name = "FIELD",
        value_parser = parse_split_field,
        requires = "out_dir",
        conflicts_with = "split_every",
        help_heading = "Output"
    )]
    pub split_by: Option<Field>,

    /// Write N games per file into --out-dir: DIR/00001.pgn, DIR/00002.pgn, ... (more
    /// digits when needed).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u64).range(1..),
        requires = "out_dir",
        help_heading = "Output"
    )]
    pub split_every: Option<u64>,

    /// The folder for --split-by / --split-every (made when missing). Existing files are
    /// never overwritten: a clash is an error (exit 2) and no file is written.
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with = "output",
        help_heading = "Output"
    )]
    pub out_dir: Option<PathBuf>,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit select games.pgn --where 'WhiteElo >= 2500 && BlackElo >= 2500' -o strong.pgn
  pgnkit select games.pgn --where 'termination == \"stalemate\"' --count
  pgnkit select archive/ --dedupe --duplicates-csv dups.csv -o unique.pgn
  pgnkit select games.pgn --material KRPPvKR -o rook-endings.pgn
  pgnkit select games.pgn --reaches 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
  pgnkit select games.pgn --split-by Event --out-dir by-event/
  pgnkit select big.pgn --split-every 1000 --out-dir parts/

The guide: docs/GUIDE.md, \"Picking games\" (every command, filter, code and column).";

fn parse_split_field(name: &str) -> Result<Field, String> {
    expr::resolve(name).ok_or_else(|| {
        format!("unknown field `{name}` (a stats column such as plies, or a tag such as Event)")
    })
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    if args.out_dir.is_some() && args.split_by.is_none() && args.split_every.is_none() {
        anyhow::bail!("--out-dir needs --split-by FIELD or --split-every N");
    }
    let ctx = Context::new(
        global,
        args.output.output.is_none() && args.out_dir.is_none(),
    );
    let mut run = GameRun::with_context(
        ctx,
        &args.input,
        &[
            ("-o", args.output.output.as_deref()),
            ("--duplicates-out", args.duplicates_out.as_deref()),
            ("--duplicates-csv", args.duplicates_csv.as_deref()),
        ],
    )?;
    run.filter.invert = args.invert;

    let mut games_out = match (&args.out_dir, args.count) {
        (Some(dir), _) => Games::Split(SplitWriter::new(dir, args.split_every)?),
        (None, true) => Games::Count,
        (None, false) => Games::One(Output::create(args.output.output.as_deref())?),
    };
    let mut duplicates = Duplicates::create(&args)?;
    let split_by = args.split_by.clone();
    let needs_report = matches!(split_by, Some(Field::Column(_)));
    // The figures, the draw rules and the game's findings only where a column is read (as
    // `stats` writes it): select shows none of them.
    let columns = needs_report || run.filter.reads_columns();
    run.options.figures = columns;
    run.options.judgement = columns;

    let kept = run.run_with_duplicates(
        args.duplicates_csv.is_some(),
        |raw| {
            // The replay is skipped when tags alone decide and no report is needed.
            let (verdict, report) = run.filter.judge(raw, &run.options, &mut (), needs_report);
            let split_value = verdict.selected.then(|| {
                split_by
                    .as_ref()
                    .map(|field| split_value(field, raw, report.as_ref(), &run.options))
            });
            Judged {
                verdict,
                value: split_value,
            }
        },
        |raw, split_value| match &mut games_out {
            Games::One(out) => Ok(write_original(out, &raw.bytes)?),
            Games::Count => Ok(()),
            Games::Split(split) => split.write(split_value.as_deref().unwrap_or(""), &raw.bytes),
        },
        |raw, first| duplicates.write(raw, first),
    )?;

    games_out.finish(kept.kept)?;
    duplicates.finish()?;
    // Broken games are data here: only input and output errors change the exit code.
    let selection = Selection {
        kept: kept.kept,
        dropped: run.filter.dedupe.map(|_| kept.dropped),
    };
    Ok(run.finish(
        &kept.totals,
        Ending {
            selection: Some(selection),
            ..Ending::default()
        },
    ))
}

/// A row of `--duplicates-csv`: a game `--dedupe` dropped, and the first game of its kind.
struct Duplicate<'a> {
    raw: &'a RawGame,
    first: &'a Origin,
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

    fn cells(&self, cells: &mut Cells) {
        cells.text(&self.raw.file);
        cells.number(self.raw.index);
        cells.number(self.raw.line);
        cells.text(&self.first.file);
        cells.number(self.first.game);
        cells.number(self.first.line);
    }
}

/// The value of the --split-by field for a selected game.
fn split_value(
    field: &Field,
    raw: &RawGame,
    report: Option<&GameReport>,
    options: &crate::rules::ReplayOptions,
) -> String {
    match (field, report) {
        (Field::Tag(name), Some(report)) => report.tags.value(name).to_string(),
        (Field::Tag(name), None) => Tags::decode(raw, &options.decoder).value(name).to_string(),
        (Field::Column(index), Some(report)) => {
            let picker = crate::filter::picker::ColumnPicker {
                wanted: vec![(*index, 0)],
            };
            let mut values = [String::new()];
            picker.pick(&StatsRow::new(report, &[]), &mut values);
            let [value] = values;
            value
        }
        (Field::Column(_), None) => String::new(),
    }
}

/// Where the selected games go.
enum Games {
    One(Output),
    Count,
    Split(SplitWriter),
}

impl Games {
    /// Ends the files, or prints the count of the games kept (`--count`).
    fn finish(self, kept: u64) -> anyhow::Result<()> {
        match self {
            Games::One(out) => out.finish()?,
            Games::Count => {
                let mut out = Output::create(None)?;
                writeln!(out, "{kept}")?;
                out.finish()?;
            }
            Games::Split(split) => split.finish()?,
        }
        Ok(())
    }
}

/// Where the games `--dedupe` dropped go: `--duplicates-out` (their text) and
/// `--duplicates-csv` (a `Duplicate` row each).
struct Duplicates {
    games: Option<Output>,
    rows: Option<RecordWriter<Output>>,
}

impl Duplicates {
    fn create(args: &Args) -> anyhow::Result<Duplicates> {
        let games = args
            .duplicates_out
            .as_deref()
            .map(|path| Output::create(Some(path)))
            .transpose()?;
        let rows = args
            .duplicates_csv
            .as_deref()
            .map(|path| {
                Output::create(Some(path))
                    .and_then(|out| RecordWriter::new::<Duplicate>(out, Format::Csv, &[]))
            })
            .transpose()?;
        Ok(Duplicates { games, rows })
    }

    /// One dropped game, with the first game of its kind (known when the CSV is asked for).
    fn write(&mut self, raw: &RawGame, first: Option<&Origin>) -> anyhow::Result<()> {
        if let Some(out) = &mut self.games {
            write_original(out, &raw.bytes)?;
        }
        if let (Some(rows), Some(first)) = (&mut self.rows, first) {
            rows.write(&Duplicate { raw, first })?;
        }
        Ok(())
    }

    fn finish(self) -> anyhow::Result<()> {
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
struct SplitWriter {
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
    fn new(dir: &Path, every: Option<u64>) -> anyhow::Result<SplitWriter> {
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

    fn write(&mut self, value: &str, bytes: &[u8]) -> anyhow::Result<()> {
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
    fn finish(mut self) -> anyhow::Result<()> {
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
        let mode = 0o666 & !crate::output::umask();
        let _ = fs::set_permissions(path, fs::Permissions::from_mode(mode));
    }
}

/// A --split-by value as a file name: ASCII letters, digits, `-`, `_` and `.` kept, every
/// other byte `_`, each dot of a leading run of dots `_` (a name starting with `.` is a
/// hidden file, which the folder rule skips when the folder is read back), at most 100
/// bytes, `_empty` when empty.
pub fn file_name_of(value: &str) -> String {
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
