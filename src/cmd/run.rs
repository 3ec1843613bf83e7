//! One run over games, as every game-reading command makes it: built once from the
//! parsed flags, it lists the sources, makes the pipeline, runs the games through the
//! command's work and sink through the game filters (src/filter/: `--where`, `--reaches`,
//! `--material`, `--dedupe`), and ends the run: the "no game"
//! warning, the summary line and the exit status. A command writes only what is its own:
//! what it computes per game and where it writes it.

use std::cell::RefCell;
use std::path::Path;
use std::time::Instant;

use crate::cmd::args::{GlobalArgs, InputArgs};
use crate::cmd::context::Context;
use crate::exit::ExitStatus;
use crate::filter::dedupe::{KindsSeen, Origin};
use crate::filter::{GameFilter, Judged};
use crate::input::{Limits, Listing, Source, expand_inputs};
use crate::output::SinkFormat;
use crate::output::findings::{CodeFilter, FindingWriter, TextDetail};
use crate::output::summary::{RunFigures, Selection, selection_line, summary_line};
use crate::pgn::RawGame;
use crate::pipeline::{Pipeline, Totals};
use crate::record::Cells;
use crate::rules::tags::Tags;
use crate::rules::{GameReport, PlyVisitor, ReplayOptions, Severity};

/// How a run ends, as the command sees it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ending {
    /// The figures of the summary line (files and games are filled in from the run), or
    /// `None` for commands that print none (their stdout is data a reader waits for).
    pub figures: Option<RunFigures>,
    /// `select`'s line instead (the games selected of those read), or `None`.
    pub selection: Option<Selection>,
    /// Error findings that make the exit code 1 (0 where broken games are data).
    pub failing_errors: u64,
}

/// The figures of a run with the games the filters kept and `--dedupe` dropped.
#[derive(Debug, Clone, Copy)]
pub struct Kept {
    pub totals: Totals,
    pub kept: u64,
    pub dropped: u64,
}

/// What a command reads of each game. The run settles the replay from it and from the
/// filters in one place (`replay_options`), so that no command sets a replay switch by
/// hand, nor forgets what a `--where` on a column needs.
#[derive(Debug, Clone, Copy)]
pub struct Reads {
    /// The game's report: its findings, termination and result checks. Only `select`
    /// reads verdicts alone (and the report only to split by a column).
    pub report: bool,
    /// The figures of a stats row: the opening, the move counts, the clocks and
    /// evaluations, who cannot mate.
    pub figures: bool,
    /// The info-level tag findings (`--level info`; every finding of the `stats` summary).
    pub info_findings: bool,
    /// Every variation replayed and checked too (`validate --variations`).
    pub variations: bool,
    /// The move numbers as written: `convert`'s rest of a line after an illegal move, a
    /// report card's moves before an error. The splitter keeps them as tokens only then
    /// (`Limits::move_numbers`).
    pub move_numbers: bool,
}

impl Reads {
    /// The report with its error and warning findings, and nothing more.
    pub const REPORT: Reads = Reads {
        report: true,
        figures: false,
        info_findings: false,
        variations: false,
        move_numbers: false,
    };
}

/// A game the filters selected, as the run hands it to the command's work.
pub struct Game<'g> {
    /// The replay's report: there for every game when the run reads reports
    /// ([`Reads::report`]); in a verdict-only run, only where the filters had the game
    /// replayed.
    pub report: Option<Box<GameReport>>,
    /// The game's stats cells (without `--tags` columns) when a `--where` made them, so
    /// that `stats` does not make them again; empty otherwise.
    pub columns: &'g Cells,
    /// The tags a tag-only `--where` decoded where no report holds them.
    decoded_tags: Option<Tags>,
    options: &'g ReplayOptions,
}

impl Game<'_> {
    /// The game's tags, decoded once: the report's, those the filters decoded, or
    /// decoded now (a command that reads tags only, such as `standings`).
    pub fn into_tags(self, raw: &RawGame) -> Tags {
        match (self.report, self.decoded_tags) {
            (Some(report), _) => report.tags,
            (None, Some(tags)) => tags,
            (None, None) => Tags::decode(raw, &self.options.decoder),
        }
    }
}

/// A run over the games the INPUT arguments name.
pub struct GameRun {
    pub ctx: Context,
    reads: Reads,
    /// How games are replayed: settled once, by [`replay_options`].
    options: ReplayOptions,
    input: InputArgs,
    sources: Vec<Source>,
    /// Folders that could not be listed (they make the exit code 2).
    listing_errors: u64,
    pipeline: Pipeline,
    /// The game filters of the INPUT flags: the run's hook on every game, entered only
    /// through [`GameRun::judge`].
    filter: GameFilter,
    started: Instant,
}

impl GameRun {
    /// Checks the sources before any output is created: problems listing folders are
    /// printed and counted; an output (flag, path) that is also an input or another
    /// output is refused; and when not one input can be opened, each is named and the run
    /// ends here (exit 2) with no output file created or replaced and no summary.
    /// `outputs` are the command's outputs, `-o` first; data on stdout when `-o` is none.
    /// `reads` says what the command reads of each game.
    pub fn new(
        global: &GlobalArgs,
        input: &InputArgs,
        outputs: &[(&str, Option<&Path>)],
        reads: Reads,
    ) -> anyhow::Result<GameRun> {
        GameRun::with_context(data_context(global, outputs), input, outputs, reads)
    }

    /// As [`GameRun::new`], with the context the command has already made (to refuse
    /// something before the sources are looked at).
    pub fn with_context(
        ctx: Context,
        input: &InputArgs,
        outputs: &[(&str, Option<&Path>)],
        reads: Reads,
    ) -> anyhow::Result<GameRun> {
        let started = Instant::now();
        let filter = GameFilter::new(&input.filters.filters())?;
        let options = replay_options(input, reads, &filter);
        let (sources, listing_errors) = sources(&ctx, input, outputs)?;
        let pipeline = Pipeline {
            threads: ctx.threads,
            limits: Limits {
                move_numbers: reads.move_numbers,
                ..Limits::default()
            },
            shard: input.shard,
            games: input.game_range(),
            show_progress: ctx.stderr_is_terminal && !ctx.quiet,
        };
        Ok(GameRun {
            ctx,
            reads,
            options,
            input: input.clone(),
            sources,
            listing_errors,
            pipeline,
            filter,
            started,
        })
    }

    /// The one game step of every command: judges a game by the filters (a tag-only
    /// `--where` decides before the replay, and a game it rejects is not replayed; the
    /// others on the replay, which `visitor` sees too) and, when they select it, hands it
    /// to `make`, whose value goes on to the sink (`None`: nothing for the sink, as for a
    /// report a verdict-only run did not make).
    pub fn judge<V: PlyVisitor, T>(
        &self,
        raw: &RawGame,
        visitor: &mut V,
        make: impl FnOnce(Game<'_>) -> Option<T>,
    ) -> Judged<T> {
        thread_local! {
            // The cells a `--where` makes, kept per thread so that no game allocates them.
            static COLUMNS: RefCell<Cells> = RefCell::new(Cells::default());
        }
        let judge = |columns: &mut Cells| {
            let (verdict, report, decoded_tags) =
                self.filter
                    .judge(raw, &self.options, visitor, self.reads.report, columns);
            let value = if verdict.selected {
                make(Game {
                    report,
                    columns,
                    decoded_tags,
                    options: &self.options,
                })
            } else {
                None
            };
            Judged { verdict, value }
        };
        if !self.filter.reads_columns() {
            // No column to read: no buffer (empty cells do not allocate).
            return judge(&mut Cells::default());
        }
        COLUMNS.with_borrow_mut(|columns| {
            columns.clear();
            judge(columns)
        })
    }

    /// How the run replays its games (the decoder for a command's own reading of text).
    pub fn options(&self) -> &ReplayOptions {
        &self.options
    }

    /// Whether `--dedupe` is asked for.
    pub fn dedupes(&self) -> bool {
        self.filter.dedupe.is_some()
    }

    /// `select --invert`: the games the filters reject are the ones selected.
    pub fn invert_selection(&mut self) {
        self.filter.invert = true;
    }

    /// Runs every game through `process` (worker threads; it judges the game, usually
    /// through [`GameRun::judge`]) and `sink` (in input order) the games the filters
    /// select and `--dedupe` keeps, as [`Pipeline::run`]; warns when it read, picked or
    /// kept no game. The totals count the games `--shard`/`--games` picked, kept by the
    /// filters or not.
    pub fn run<T, P, S>(&self, process: P, sink: S) -> anyhow::Result<Totals>
    where
        T: Send,
        P: Fn(&RawGame) -> Judged<T> + Sync,
        S: FnMut(&RawGame, &T) -> anyhow::Result<()> + Send,
    {
        let totals = self.run_with_duplicates(false, process, sink, |_, _| Ok(()))?;
        if self.filter.is_active() && totals.totals.games > 0 && totals.kept == 0 {
            crate::stderr::say!(
                "pgnkit: warning: the game filters kept none of the {} games picked",
                totals.totals.games
            );
        }
        Ok(totals.totals)
    }

    /// As [`GameRun::run`], and `duplicate` sees each selected game `--dedupe` drops,
    /// with the first game of its kind when `with_origins`. Whether a game is the first
    /// of its kind is decided here, in input order, so the first occurrence wins
    /// whatever `--threads`.
    pub fn run_with_duplicates<T, P, S, D>(
        &self,
        with_origins: bool,
        process: P,
        mut sink: S,
        mut duplicate: D,
    ) -> anyhow::Result<Kept>
    where
        T: Send,
        P: Fn(&RawGame) -> Judged<T> + Sync,
        S: FnMut(&RawGame, &T) -> anyhow::Result<()> + Send,
        D: FnMut(&RawGame, Option<&Origin>) -> anyhow::Result<()> + Send,
    {
        let mut seen = self.filter.dedupe.map(|_| KindsSeen::new(with_origins));
        let (mut kept, mut dropped) = (0u64, 0u64);
        let totals = self.pipeline.run(&self.sources, process, |raw, judged| {
            let Some(value) = &judged.value else {
                return Ok(());
            };
            if let (Some(seen), Some(key)) = (&mut seen, judged.verdict.key)
                && let Err(first) = seen.first(key, raw)
            {
                dropped += 1;
                return duplicate(raw, first);
            }
            kept += 1;
            sink(raw, value)
        })?;
        warn_if_no_game(&self.input, &totals);
        Ok(Kept {
            totals,
            kept,
            dropped,
        })
    }

    /// The time since the run was made.
    pub fn elapsed(&self) -> std::time::Duration {
        self.started.elapsed()
    }

    /// Ends the run: the summary line (unless --quiet) and the exit status: 1 when error
    /// findings count, 2 when an input could not be listed, opened or read (2 wins).
    pub fn finish(&self, totals: &Totals, ending: Ending) -> ExitStatus {
        if let Some(mut figures) = ending.figures {
            figures.files = totals.files;
            figures.games = totals.games;
            if !self.ctx.quiet {
                crate::stderr::say!("{}", summary_line(&figures, self.started.elapsed()));
            }
        }
        if let Some(selection) = ending.selection
            && !self.ctx.quiet
        {
            let line = selection_line(&selection, totals.games, self.started.elapsed());
            crate::stderr::say!("{line}");
        }
        let mut status = ExitStatus::Success;
        if ending.failing_errors > 0 {
            status = status.max(ExitStatus::Failure);
        }
        if totals.input_errors + self.listing_errors > 0 {
            status = status.max(ExitStatus::Error);
        }
        status
    }
}

/// The replay of a run's games, settled once from what the command reads and what the
/// filters need: a `--where` on a column reads the figures and the judgement as `stats`
/// writes them, whatever the command shows.
fn replay_options(input: &InputArgs, reads: Reads, filter: &GameFilter) -> ReplayOptions {
    let columns = filter.reads_columns();
    ReplayOptions {
        decoder: input.encoding,
        mate_check: input.mate_check.into(),
        variations: reads.variations,
        piece_letters: input.piece_letters(),
        tag_infos: reads.info_findings,
        figures: reads.figures || columns,
        judgement: reads.report || columns,
    }
}

/// The context of a command whose data goes to `-o`, or stdout when it is not given.
pub fn data_context(global: &GlobalArgs, outputs: &[(&str, Option<&Path>)]) -> Context {
    let to_stdout = outputs
        .iter()
        .find(|(flag, _)| *flag == "-o")
        .is_none_or(|(_, path)| path.is_none());
    Context::new(global, to_stdout)
}

/// The sources the INPUT arguments name, and the number of folders that could not be
/// listed (see [`GameRun::new`]).
fn sources(
    ctx: &Context,
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
        crate::stderr::say!("pgnkit: warning: {}", crate::terminal::visible(warning));
    }
    for error in &errors {
        let message = format!("cannot open {}: {}", error.name, error.reason);
        crate::stderr::say!("pgnkit: {}", crate::terminal::visible(&message));
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
                crate::stderr::say!("pgnkit: {}", crate::terminal::visible(reason));
            }
            anyhow::bail!("no input could be opened: nothing written");
        }
    }
    if sources.contains(&Source::Stdin) && ctx.stdin_is_terminal {
        crate::stderr::say!(
            "pgnkit: reading PGN from stdin (give a file or folder, or pipe games in; Ctrl-D ends)"
        );
    }
    Ok((sources, errors.len() as u64))
}

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
            crate::terminal::visible(file)
        );
    }
    Ok(picked)
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

/// A warning on stderr when a run read no game at all, or picked none: an empty file or a
/// wrong `--game` is easy to miss when the output is just empty. Shown with --quiet too.
fn warn_if_no_game(input: &InputArgs, totals: &Totals) {
    if totals.games > 0 || totals.input_errors > 0 {
        return;
    }
    if totals.games_found == 0 {
        crate::stderr::say!("pgnkit: warning: the input holds no game");
    } else {
        let mut filters = Vec::new();
        if input.game_range().is_some() {
            filters.push("--game/--games");
        }
        if input.shard.is_some() {
            filters.push("--shard");
        }
        crate::stderr::say!(
            "pgnkit: warning: {} picked no game ({} read)",
            filters.join(" and "),
            totals.games_found
        );
    }
}

/// Error findings of commands whose stdout carries data (fen, convert): written to stderr
/// as `validate` writes them, and counted for the exit code; those `--select`/`--ignore`
/// leave out are neither, as in `validate`.
pub struct StderrErrors {
    /// Lossy: a finding that cannot be written to stderr never stops the data output.
    writer: FindingWriter<crate::stderr::LossyStderr>,
    codes: CodeFilter,
    pub count: u64,
}

impl StderrErrors {
    pub fn new(codes: CodeFilter) -> anyhow::Result<StderrErrors> {
        Ok(StderrErrors {
            codes,
            writer: FindingWriter::new(
                crate::stderr::LossyStderr,
                SinkFormat::TEXT,
                false,
                TextDetail::default(),
            )?,
            count: 0,
        })
    }

    /// Writes the error findings of one game.
    pub fn report(&mut self, report: &GameReport) -> anyhow::Result<()> {
        for finding in report
            .findings
            .iter()
            .filter(|f| f.severity() == Severity::Error && self.codes.allows(f.code))
        {
            self.count += 1;
            self.writer.write(report, finding)?;
        }
        Ok(())
    }

    /// Ends the output; the error findings written, for the exit status.
    pub fn finish(self) -> anyhow::Result<u64> {
        self.writer.finish()?;
        Ok(self.count)
    }
}

/// What a column `--where` reads (`filter::ColumnPicker`) against what `stats` writes.
#[cfg(test)]
mod where_columns {
    #![allow(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        reason = "a test fails loudly"
    )]

    use crate::filter::ColumnPicker;
    use crate::input::{Limits, Splitter};
    use crate::output::Format;
    use crate::output::records::encode;
    use crate::record::Record;
    use crate::rules::{ReplayOptions, replay};
    use crate::stats::StatsRow;

    /// Every column picked reads exactly as the CSV cell `stats` writes.
    #[test]
    fn picked_columns_equal_the_csv_cells() {
        let pgn: &[u8] =
            b"[White \"A, B\"]\n[WhiteElo \"2500\"]\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let mut splitter = Splitter::new(pgn, "-".into(), Limits::default());
        let raw = splitter.next_game().unwrap().unwrap();
        let report = replay(&raw, &ReplayOptions::default(), &mut ());
        let row = StatsRow::new(&report, &[]);
        let encoded = encode(&row, Format::Csv, &[]).unwrap();
        let line = encoded.as_bytes().unwrap();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line);
        let record = reader.records().next().unwrap().unwrap();
        let columns = StatsRow::COLUMNS;
        let picker = ColumnPicker {
            wanted: (0..columns.len()).map(|i| (i, i)).collect(),
        };
        let mut values = vec![String::new(); columns.len()];
        picker.pick(&row, &mut values);
        for (i, column) in columns.iter().enumerate() {
            assert_eq!(values[i], record[i], "column {}", column.name);
        }
        assert_eq!(values[9], "2500");
    }
}

/// The replay a run settles from what its command reads and its filters need.
#[cfg(test)]
mod settled_options {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use clap::Parser;

    use super::{Reads, replay_options};
    use crate::cmd::args::InputArgs;
    use crate::filter::GameFilter;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        input: InputArgs,
    }

    /// (figures, judgement, info findings) of a run with these flags and reads.
    fn settled(flags: &[&str], reads: Reads) -> (bool, bool, bool) {
        let flags =
            Flags::try_parse_from(std::iter::once("pgnkit").chain(flags.iter().copied())).unwrap();
        let filter = GameFilter::new(&flags.input.filters.filters()).unwrap();
        let options = replay_options(&flags.input, reads, &filter);
        (options.figures, options.judgement, options.tag_infos)
    }

    /// A command that shows no figure still filters a `--where` on a column on the
    /// figures `stats` writes: the run turns them on, not the command.
    #[test]
    fn a_where_on_a_column_turns_on_what_it_reads() {
        let verdicts = Reads {
            report: false,
            ..Reads::REPORT
        };
        assert_eq!(settled(&[], Reads::REPORT), (false, true, false));
        assert_eq!(settled(&[], verdicts), (false, false, false));
        let eco = ["--where", "opening_eco == \"B20\""];
        assert_eq!(settled(&eco, Reads::REPORT), (true, true, false));
        assert_eq!(settled(&eco, verdicts), (true, true, false));
        // A tag is read before the replay: it needs neither.
        let tag = ["--where", "ECO == \"B20\""];
        assert_eq!(settled(&tag, verdicts), (false, false, false));
        let stats = Reads {
            figures: true,
            info_findings: true,
            ..Reads::REPORT
        };
        assert_eq!(settled(&tag, stats), (true, true, true));
    }
}

#[cfg(test)]
mod move_numbers {
    #![allow(clippy::unwrap_used, reason = "a test fails loudly")]

    use crate::input::{Limits, Splitter};
    use crate::rules::{ReplayOptions, replay};

    /// A game's report is the same whether its move numbers are tokens (`convert`,
    /// `report`) or said by the token before them (every other command): a promotion
    /// piece, an en passant mark or a check sign written after a move number is not the
    /// move's, either way; with no number between, it is.
    #[test]
    fn a_report_does_not_depend_on_whether_move_numbers_are_tokens() {
        let promotion = "[FEN \"7k/4P3/8/8/8/8/8/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n";
        // Each pair read with no number before the piece, mark or sign, then with one.
        let pairs = [
            (
                "1. e4 d5 2. e5 f5 3. exf6 e.p. Nf6 *",
                "1. e4 d5 2. e5 f5 3. exf6 4. e.p. Nf6 *",
            ),
            ("1. e8 (Q) Kg7 *", "1. e8 2. (Q) Kg7 *"),
            ("1. f3 e5 2. g4 Qh4 # 0-1", "1. f3 e5 2. g4 Qh4 3. # 0-1"),
            ("1. e4 + e5 *", "1. e4 2. + e5 *"),
        ];
        let others = [
            "1. e4 e5 2. Nf3 (2. f4 exf4 3. Nf3) 2... Nc6 3. Bb5 a6 12.5 4. Ba4 *",
            "1 e4 1... e5 2 . Nf3 ... Nc6 (2... d6 3.) 3.Bb5 1-0",
        ];
        let options = ReplayOptions {
            variations: true,
            ..ReplayOptions::default()
        };
        let report = |movetext: &str, move_numbers| {
            let limits = Limits {
                move_numbers,
                ..Limits::default()
            };
            let head = if movetext.contains("e8") {
                promotion
            } else {
                ""
            };
            let text = format!("{head}{movetext}");
            let mut splitter = Splitter::new(text.as_bytes(), "t".into(), limits);
            let raw = splitter.next_game().unwrap().unwrap();
            assert!(splitter.next_game().unwrap().is_none(), "{text}");
            format!("{:?}", replay(&raw, &options, &mut ()))
        };
        let all = pairs.iter().flat_map(|(a, b)| [*a, *b]).chain(others);
        for movetext in all {
            assert_eq!(
                report(movetext, false),
                report(movetext, true),
                "{movetext}"
            );
        }
        for (apart, numbered) in pairs {
            assert_ne!(report(apart, false), report(numbered, false), "{numbered}");
        }
    }
}
