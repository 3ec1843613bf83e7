//! `pgnkit select`: the games that pass the game filters, as their original text.

use std::io::Write;
use std::path::PathBuf;

use crate::cmd::args::{GlobalArgs, InputArgs, OutputArg};
use crate::cmd::context::Context;
use crate::cmd::run::{Ending, GameRun, Reads};
use crate::exit::ExitStatus;
use crate::filter::dedupe::Origin;
use crate::filter::expr::{self, Field};
use crate::output::Output;
use crate::output::pgn::write_original;
use crate::output::split_files::{DuplicateFiles, Duplicates, FirstGame, SplitWriter};
use crate::output::summary::Selection;
use crate::pgn::RawGame;
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
    let split_by = args.split_by.clone();
    // Verdicts only, unless the games are split by a stats column (as `stats` writes it):
    // select shows no finding or figure.
    let by_column = matches!(split_by, Some(Field::Column(_)));
    let mut run = GameRun::with_context(
        ctx,
        &args.input,
        &[
            ("-o", args.output.output.as_deref()),
            ("--duplicates-out", args.duplicates_out.as_deref()),
            ("--duplicates-csv", args.duplicates_csv.as_deref()),
        ],
        Reads {
            report: by_column,
            figures: by_column,
            ..Reads::REPORT
        },
    )?;
    if args.invert {
        run.invert_selection();
    }

    let mut games_out = match (&args.out_dir, args.count) {
        (Some(dir), _) => Games::Split(SplitWriter::new(dir, args.split_every)?),
        (None, true) => Games::Count,
        (None, false) => Games::One(Output::create(args.output.output.as_deref())?),
    };
    let mut duplicates = Duplicates::create(DuplicateFiles {
        games: args.duplicates_out.as_deref(),
        csv: args.duplicates_csv.as_deref(),
    })?;
    let kept = run.run_with_duplicates(
        args.duplicates_csv.is_some(),
        |raw| {
            // The replay is skipped when tags alone decide and no report is needed.
            run.judge(raw, &mut (), |game| {
                Some(
                    split_by.as_ref().map(|field| {
                        split_value(field, raw, game.report.as_deref(), run.options())
                    }),
                )
            })
        },
        |raw, split_value| match &mut games_out {
            Games::One(out) => Ok(write_original(out, &raw.bytes)?),
            Games::Count => Ok(()),
            Games::Split(split) => split.write(split_value.as_deref().unwrap_or(""), &raw.bytes),
        },
        |raw, first| duplicates.write(raw, first.map(first_game)),
    )?;

    games_out.finish(kept.kept)?;
    duplicates.finish()?;
    // Broken games are data here: only input and output errors change the exit code.
    let selection = Selection {
        kept: kept.kept,
        dropped: run.dedupes().then_some(kept.dropped),
    };
    Ok(run.finish(
        &kept.totals,
        Ending {
            selection: Some(selection),
            ..Ending::default()
        },
    ))
}

/// The first game of a kind, as the duplicates' files name it.
fn first_game(origin: &Origin) -> FirstGame<'_> {
    FirstGame {
        file: &origin.file,
        game: origin.game,
        line: origin.line,
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
