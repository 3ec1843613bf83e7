//! Set-up shared by the commands that read games: the source list and the pipeline.

use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::cli::{Context, InputArgs};
use crate::exit::ExitStatus;
use crate::filter::dedupe::Seen;
use crate::filter::{GameFilter, Judged};
use crate::input::{Limits, Listing, Source, expand_inputs};
use crate::output::findings::{FindingFormat, FindingWriter, TextDetail};
use crate::pgn::TextDecoder;
use crate::pipeline::{Pipeline, Totals};
use crate::rules::{GameReport, ReplayOptions, Severity};

/// The sources the INPUT arguments name, checked before any output is created: problems
/// listing folders are printed here and counted (they make the exit code 2); an output
/// (flag, path) that is also an input or another output is refused; and when not one
/// input can be opened, each is named and the run ends here (exit 2) with no output file
/// created or replaced and no summary.
/// `--game FILE:N`: the one source findings name FILE, so N counts within it.
fn only_the_picked_file(sources: Vec<Source>, file: Option<&str>) -> anyhow::Result<Vec<Source>> {
    let Some(file) = file else {
        return Ok(sources);
    };
    let picked: Vec<Source> = sources
        .into_iter()
        .filter(|source| source.name() == file)
        .collect();
    if picked.is_empty() {
        anyhow::bail!(
            "--game {}:N: no input file is named so (name it as the findings do)",
            crate::output::terminal::visible(file)
        );
    }
    Ok(picked)
}

pub fn sources(
    input: &InputArgs,
    outputs: &[(&str, Option<&Path>)],
) -> anyhow::Result<(Vec<Source>, u64)> {
    let Listing {
        sources,
        errors,
        warnings,
    } = expand_inputs(&input.inputs);
    let sources = only_the_picked_file(sources, input.game_file())?;
    for warning in &warnings {
        crate::say!(
            "pgnkit: warning: {}",
            crate::output::terminal::visible(warning)
        );
    }
    for error in &errors {
        let message = format!("cannot open {}: {}", error.name, error.reason);
        crate::say!("pgnkit: {}", crate::output::terminal::visible(&message));
    }
    let files = sources.iter().filter_map(|source| match source {
        Source::File { name, path } => Some((name.as_str(), path.as_path())),
        Source::Stdin => None,
    });
    crate::output::refuse_shared_paths(files, outputs)?;
    if !errors.is_empty() || !sources.is_empty() {
        let unopened: Vec<String> = sources.iter().filter_map(cannot_open).collect();
        if unopened.len() == sources.len() {
            for reason in &unopened {
                crate::say!("pgnkit: {}", crate::output::terminal::visible(reason));
            }
            anyhow::bail!("no input could be opened: nothing written");
        }
    }
    if sources.contains(&Source::Stdin) && std::io::stdin().is_terminal() {
        crate::say!(
            "pgnkit: reading PGN from stdin (give a file or folder, or pipe games in; Ctrl-D ends)"
        );
    }
    Ok((sources, errors.len() as u64))
}

/// `cannot open NAME: ERROR` for a source that cannot be opened. A regular file is opened
/// and closed; a pipe or a device is not (opening a named pipe can block, or take the
/// bytes from the reading that follows), so it counts as openable when it exists.
fn cannot_open(source: &Source) -> Option<String> {
    let Source::File { name, path } = source else {
        return None;
    };
    let outcome = std::fs::metadata(path).and_then(|meta| {
        if meta.is_file() {
            std::fs::File::open(path).map(drop)
        } else {
            Ok(())
        }
    });
    outcome
        .err()
        .map(|err| format!("cannot open {name}: {err}"))
}

/// How games are replayed, as `--encoding` asks.
pub fn replay_options(input: &InputArgs) -> anyhow::Result<ReplayOptions> {
    let decoder = TextDecoder::from_label(&input.encoding).map_err(|e| anyhow::anyhow!(e))?;
    Ok(ReplayOptions {
        decoder,
        ..ReplayOptions::default()
    })
}

/// The pipeline as the flags and the terminal ask for it.
pub fn pipeline(ctx: &Context, input: &InputArgs) -> Pipeline {
    Pipeline {
        threads: ctx.threads,
        limits: Limits::default(),
        shard: input.shard,
        games: input.game_range(),
        show_progress: ctx.stderr_is_terminal && !ctx.quiet,
    }
}

/// Runs `pipeline` over `sources` (see [`Pipeline::run`]) and warns when it read or
/// picked no game: the one way every command that reads games runs them, so that none
/// forgets the warning. `process` judges each game with `filter` (usually through
/// [`GameFilter::replay`]); `sink` sees, in input order, the games it selected that
/// `--dedupe` keeps.
pub fn run_games<T, P, S>(
    pipeline: &Pipeline,
    input: &InputArgs,
    sources: &[Source],
    filter: &GameFilter,
    process: P,
    mut sink: S,
) -> anyhow::Result<Totals>
where
    T: Send,
    P: Fn(&crate::pgn::RawGame) -> Judged<T> + Sync,
    S: FnMut(&crate::pgn::RawGame, &T) -> anyhow::Result<()> + Send,
{
    let mut seen = filter.dedupe.map(|_| Seen::new(false));
    let mut kept = 0u64;
    let totals = pipeline.run(sources, process, |raw, judged| {
        let Some(value) = &judged.value else {
            return Ok(());
        };
        if let (Some(seen), Some(key)) = (&mut seen, judged.verdict.key)
            && seen.first(key, raw).is_err()
        {
            return Ok(());
        }
        kept += 1;
        sink(raw, value)
    })?;
    warn_if_no_game(input, &totals);
    warn_if_filtered_out(filter, &totals, kept);
    Ok(totals)
}

/// A warning when the game filters kept none of the games read (shown with --quiet too).
pub fn warn_if_filtered_out(filter: &GameFilter, totals: &Totals, kept: u64) {
    if filter.is_active() && kept == 0 && totals.games > 0 {
        crate::say!(
            "pgnkit: warning: the game filters kept none of the {} games picked",
            totals.games
        );
    }
}

/// The game filters as the flags ask for them.
pub fn filter(input: &InputArgs) -> anyhow::Result<GameFilter> {
    GameFilter::new(&input.filters)
}

/// A warning on stderr when a run read no game at all, or picked none: an empty file or a
/// wrong `--game` is easy to miss when the output is just empty. Shown with --quiet too.
pub fn warn_if_no_game(input: &InputArgs, totals: &Totals) {
    if totals.games > 0 || totals.input_errors > 0 {
        return;
    }
    if totals.games_found == 0 {
        crate::say!("pgnkit: warning: the input holds no game");
    } else {
        let mut filters = Vec::new();
        if input.game_range().is_some() {
            filters.push("--game/--games");
        }
        if input.shard.is_some() {
            filters.push("--shard");
        }
        crate::say!(
            "pgnkit: warning: {} picked no game ({} read)",
            filters.join(" and "),
            totals.games_found
        );
    }
}

/// The exit status of a run over games: 1 when error findings were reported, 2 when an
/// input could not be opened or read (2 wins).
pub fn exit_status(error_findings: u64, input_errors: u64) -> ExitStatus {
    let mut status = ExitStatus::Success;
    if error_findings > 0 {
        status = status.max(ExitStatus::Failure);
    }
    if input_errors > 0 {
        status = status.max(ExitStatus::Error);
    }
    status
}

/// Error findings of commands whose stdout carries data (fen, convert): written to stderr
/// as `validate` writes them, and counted for the exit code.
pub struct StderrErrors {
    /// Lossy: a finding that cannot be written to stderr never stops the data output.
    writer: FindingWriter<crate::stderr::LossyStderr>,
    pub count: u64,
}

impl StderrErrors {
    pub fn new() -> StderrErrors {
        StderrErrors {
            writer: FindingWriter::new(
                crate::stderr::LossyStderr,
                FindingFormat::Text,
                false,
                TextDetail::default(),
            ),
            count: 0,
        }
    }

    /// Writes the error findings of one game.
    pub fn report(&mut self, report: &GameReport) -> anyhow::Result<()> {
        for finding in report
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error)
        {
            self.count += 1;
            self.writer.write(report, finding)?;
        }
        Ok(())
    }

    pub fn finish(self) -> anyhow::Result<()> {
        self.writer.finish().map(drop)
    }
}

impl Default for StderrErrors {
    fn default() -> StderrErrors {
        StderrErrors::new()
    }
}

/// Positions given as arguments, or one per line from a file or stdin (check-fen, pgn).
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Positions (FEN, or EPD with opcodes).
    #[arg(value_name = "FEN")]
    pub fens: Vec<String>,

    /// Read positions from FILE, one per line (`-`: stdin, the default when no FEN is
    /// given); blank lines and `#` lines are skipped.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "fens",
        help_heading = "Input"
    )]
    pub input: Option<PathBuf>,
}

/// A position line and where it came from.
pub struct PositionLine {
    /// The argument's 1-based index, or the line number in the file.
    pub input: u64,
    /// `argument N` or `FILE:LINE`, for messages.
    pub source: String,
    pub text: String,
}

/// The longest position line read from a file or stdin: a FEN is under 100 bytes, an EPD
/// line with opcodes a few hundred. A longer line is reported and skipped, so that a file
/// without line ends (`/dev/zero`) is read in bounded memory.
pub const MAX_POSITION_LINE: usize = 64 * 1024;

impl PositionArgs {
    /// Refuses an `-o` that is the `--input` file, before either is opened.
    pub fn refuse_as_output(&self, output: Option<&Path>) -> anyhow::Result<()> {
        let name = self.input.as_ref().map(|p| p.display().to_string());
        let input = name.as_deref().zip(self.input.as_deref());
        crate::output::refuse_shared_paths(input, &[("-o", output)])
    }

    /// Hands every position line to `each` in order, reading a file or stdin line by line;
    /// a line longer than `MAX_POSITION_LINE` comes as `Err(FILE:LINE)`, and the reading
    /// goes on after it.
    pub fn each_line(
        &self,
        mut each: impl FnMut(Result<PositionLine, String>) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        if !self.fens.is_empty() {
            for (i, fen) in self.fens.iter().enumerate() {
                each(Ok(PositionLine {
                    input: i as u64 + 1,
                    source: format!("argument {}", i + 1),
                    text: fen.trim().to_string(),
                }))?;
            }
            return Ok(());
        }
        let (name, mut reader): (String, Box<dyn BufRead>) = match &self.input {
            Some(p) if p.as_os_str() != "-" => {
                let file = std::fs::File::open(p)
                    .with_context(|| format!("cannot open {}", p.display()))?;
                (
                    p.display().to_string(),
                    Box::new(std::io::BufReader::new(file)),
                )
            }
            _ => ("-".to_string(), Box::new(std::io::stdin().lock())),
        };
        let mut bytes = Vec::new();
        let mut number = 0u64;
        while let Some(fits) = read_bounded_line(&mut reader, &mut bytes, MAX_POSITION_LINE)
            .with_context(|| format!("cannot read {name}"))?
        {
            number += 1;
            if !fits {
                each(Err(format!("{name}:{number}")))?;
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            each(Ok(PositionLine {
                input: number,
                source: format!("{name}:{number}"),
                text: text.to_string(),
            }))?;
        }
        Ok(())
    }
}

/// `FILE:LINE: the line is longer than N bytes; skipped`.
pub fn too_long(source: &str) -> String {
    format!("{source}: the line is longer than {MAX_POSITION_LINE} bytes; skipped")
}

/// Reads the next line into `line` (without its `\n`); `None` at the end of the input,
/// `Some(false)` when the line was longer than `max` bytes (it is read to its end but not
/// kept).
pub fn read_bounded_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut fits = true;
    let mut read_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            return Ok(read_any.then_some(fits));
        }
        read_any = true;
        let newline = memchr::memchr(b'\n', available);
        let piece = available
            .get(..newline.unwrap_or(available.len()))
            .unwrap_or_default();
        if fits && line.len() + piece.len() <= max {
            line.extend_from_slice(piece);
        } else {
            fits = false;
            line.clear();
        }
        let used = piece.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            return Ok(Some(fits));
        }
    }
}
