//! `pgnkit moves`: one record per main-line move (SPEC.md "moves").

use crate::cmd::args::{
    FenStyleArgs, GlobalArgs, InputArgs, OutputArg, RecordsOnly, check_tag_columns, format_values,
};
use crate::cmd::run::{Ending, GameRun, Reads};
use crate::exit::ExitStatus;
use crate::output::records::{encode, encode_rows, json_array};
use crate::output::{Format, Output, SinkFormat};
use crate::pgn::RawGame;
use crate::record::{CellSink, Cells, Column, Decimal, Json, Record};
use crate::rules::moves::{MoveFacts, MoveLog, role_letter, square_name};
use crate::rules::replay::annotations::Eval;

/// One record per move of each game's main line: SAN, UCI, piece, squares, capture,
/// promotion, castling, check, mate, the PolyGlot key and halfmove clock of the position
/// after it, how often that position has occurred, the clock, move time, evaluation and
/// NAGs read from the comments after it.
///
/// Columns: file, game, line, ply, move_number, color, san, uci, piece, from, to,
/// captured, promotion, castling, en_passant, check, mate, key (unsigned 64-bit),
/// halfmove_clock, repetition, clock, move_time (seconds), eval_cp, eval_mate, nags. A
/// game that stops at an error gives its moves up to the error; variations give none.
/// Records come in input order whatever --threads is; broken games are data here (exit 0).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// CSV with a header, JSON lines (numbers as numbers, booleans as booleans, empty
    /// cells as null), or one Parquet file typed as JSON types it (key UINT64; needs -o
    /// FILE or a pipe).
    #[arg(
        long,
        value_parser = format_values::<RecordsOnly>(),
        default_value_t = Format::Csv,
        help_heading = "Output"
    )]
    pub format: Format,

    /// Add a `fen` column after `key`: the position after the move as `pgnkit fen`
    /// writes it (--ep and --castling apply).
    #[arg(long, help_heading = "Output")]
    pub fen: bool,

    /// Add a `comment` column at the end: the move's comments without their `[%...]`
    /// commands, joined by one space.
    #[arg(long, help_heading = "Output")]
    pub comments: bool,

    /// Append one column per named tag, as `stats --tags` does.
    #[arg(
        long,
        value_name = "TAG,...",
        value_delimiter = ',',
        help_heading = "Output"
    )]
    pub tags: Vec<String>,

    /// One record per game instead (jsonl and parquet only): file, game, line, plies,
    /// then each column from `san` on as a list in ply order (Parquet LIST columns, a
    /// null element where the cell is empty); --tags columns stay single values.
    #[arg(long, help_heading = "Output")]
    pub per_game: bool,

    /// The style of the `fen` column (--fen).
    #[command(flatten)]
    pub fen_style: FenStyleArgs,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit moves games.pgn -o moves.csv                 one row per move
  pgnkit moves lichess.pgn.zst --format parquet -o moves.parquet  typed, for DuckDB
  pgnkit moves games.pgn --fen --comments --tags White,Black --format jsonl

The guide: docs/GUIDE.md, \"moves\" (every command, filter, code and column).";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    match (args.fen, args.comments) {
        (false, false) => write::<false, false>(&args, global),
        (true, false) => write::<true, false>(&args, global),
        (false, true) => write::<false, true>(&args, global),
        (true, true) => write::<true, true>(&args, global),
    }
}

fn write<const FEN: bool, const COMMENTS: bool>(
    args: &Args,
    global: &GlobalArgs,
) -> anyhow::Result<ExitStatus> {
    check_tag_columns(&args.tags)?;
    if args.per_game && args.format == Format::Csv {
        anyhow::bail!("--per-game writes lists: give --format jsonl or --format parquet");
    }
    let output = args.output.output.as_deref();
    let run = GameRun::new(global, &args.input, &[("-o", output)], Reads::REPORT)?;
    let sink = SinkFormat::new(args.format, run.ctx.data_on_terminal, run.ctx.threads)?;
    let (format, tags) = (sink.format(), &args.tags);
    let style = args.fen_style.style();
    let output = Output::create(output)?;
    let mut records = if args.per_game {
        sink.open_records::<GameRecord<FEN, COMMENTS>, _>(output, tags)?
    } else {
        sink.open_records::<MoveRecord<FEN, COMMENTS>, _>(output, tags)?
    };
    let totals = run.run(
        |raw| {
            let mut log = MoveLog::new(FEN.then_some(style));
            let judged = run.judge(raw, &mut log, |game| game.report);
            judged.map(|report| {
                log.annotate(raw, &report, run.options(), COMMENTS);
                let tags: Vec<&str> = tags.iter().map(|t| report.tags.value(t)).collect();
                if args.per_game {
                    // A game without moves gives no record.
                    if log.moves.is_empty() {
                        return Ok(None);
                    }
                    let lists = GameRecord::<FEN, COMMENTS>::lists(raw, &log);
                    let record = GameRecord::<FEN, COMMENTS> {
                        raw,
                        plies: log.moves.len(),
                        lists: &lists,
                        tags: &tags,
                    };
                    return encode(&record, format, &args.tags).map(Some);
                }
                // Encoded on the worker threads, the game's rows in one piece: the writer
                // only copies bytes (or typed cells).
                let rows = log.moves.iter().map(|m| MoveRecord::<FEN, COMMENTS> {
                    raw,
                    log: &log,
                    m,
                    tags: &tags,
                });
                encode_rows(rows, format, &args.tags).map(Some)
            })
        },
        |_raw, rows| {
            let rows = rows.as_ref().map_err(|err| anyhow::anyhow!("{err}"))?;
            rows.iter().try_for_each(|rows| records.write_encoded(rows))
        },
    )?;
    records.finish()?.finish()?;
    Ok(run.finish(&totals, Ending::default()))
}

/// One move of one game, with the columns `--fen` and `--comments` add.
struct MoveRecord<'a, const FEN: bool, const COMMENTS: bool> {
    raw: &'a RawGame,
    log: &'a MoveLog,
    m: &'a MoveFacts,
    tags: &'a [&'a str],
}

/// The columns from `san` on, each made by `$col` (a cell, or a list of them), after the
/// `$head` columns; `fen` after `key` and `comment` last where asked.
macro_rules! move_columns {
    ($col:path, [$($head:expr),*], [$($fen:literal)?], [$($comment:literal)?]) => {
        const {
            &[
                $($head,)*
                $col("san", Json::String),
                $col("uci", Json::String),
                $col("piece", Json::String),
                $col("from", Json::String),
                $col("to", Json::String),
                $col("captured", Json::String),
                $col("promotion", Json::String),
                $col("castling", Json::String),
                $col("en_passant", Json::Bool),
                $col("check", Json::Bool),
                $col("mate", Json::Bool),
                $col("key", Json::Unsigned),
                $($col($fen, Json::String),)?
                $col("halfmove_clock", Json::Number),
                $col("repetition", Json::Number),
                $col("clock", Json::Decimal),
                $col("move_time", Json::Decimal),
                $col("eval_cp", Json::Number),
                $col("eval_mate", Json::Number),
                $col("nags", Json::String),
                $($col($comment, Json::String),)?
            ]
        }
    };
}

/// The four column lists of a record kind, as `--fen` and `--comments` pick them.
macro_rules! column_sets {
    ($col:path, [$($head:expr),*]) => {
        match (FEN, COMMENTS) {
            (false, false) => move_columns!($col, [$($head),*], [], []),
            (true, false) => move_columns!($col, [$($head),*], ["fen"], []),
            (false, true) => move_columns!($col, [$($head),*], [], ["comment"]),
            (true, true) => move_columns!($col, [$($head),*], ["fen"], ["comment"]),
        }
    };
}

/// The columns of a move's record before `san`.
const MOVE_HEAD: usize = 6;

/// `--per-game`: one game, each column from `san` on a list of its moves' cells.
struct GameRecord<'a, const FEN: bool, const COMMENTS: bool> {
    raw: &'a RawGame,
    plies: usize,
    /// The JSON arrays, in column order.
    lists: &'a [String],
    tags: &'a [&'a str],
}

impl<const FEN: bool, const COMMENTS: bool> GameRecord<'_, FEN, COMMENTS> {
    /// Each column of the moves' records from `san` on, as a JSON array of their cells.
    fn lists(raw: &RawGame, log: &MoveLog) -> Vec<String> {
        let rows: Vec<Cells> = log
            .moves
            .iter()
            .map(|m| {
                let mut cells = Cells::default();
                let record = MoveRecord::<FEN, COMMENTS> {
                    raw,
                    log,
                    m,
                    tags: &[],
                };
                record.cells(&mut cells);
                cells
            })
            .collect();
        let columns = <MoveRecord<FEN, COMMENTS> as Record>::COLUMNS;
        (MOVE_HEAD..columns.len())
            .zip(columns.iter().skip(MOVE_HEAD))
            .map(|(index, column)| {
                let cells = rows.iter().map(|row| row.get(index).unwrap_or_default());
                json_array(column.json, cells, true)
            })
            .collect()
    }
}

impl<const FEN: bool, const COMMENTS: bool> Record for GameRecord<'_, FEN, COMMENTS> {
    const COLUMNS: &'static [Column] = column_sets!(
        Column::list_of,
        [
            Column::string("file"),
            Column::number("game"),
            Column::number("line"),
            Column::number("plies")
        ]
    );
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        cells.text(&self.raw.file);
        cells.number(self.raw.index);
        cells.number(self.raw.line);
        cells.number(u64::try_from(self.plies).unwrap_or(u64::MAX));
        for list in self.lists {
            cells.list(list);
        }
        for tag in self.tags {
            cells.text(tag);
        }
    }
}

/// Milliseconds as seconds (none below 0).
fn seconds(millis: Option<i64>) -> Option<Decimal> {
    millis.map(|ms| Decimal::millis(u64::try_from(ms).unwrap_or(0)))
}

impl<const FEN: bool, const COMMENTS: bool> Record for MoveRecord<'_, FEN, COMMENTS> {
    const COLUMNS: &'static [Column] = column_sets!(
        Column::of,
        [
            Column::string("file"),
            Column::number("game"),
            Column::number("line"),
            Column::number("ply"),
            Column::number("move_number"),
            Column::string("color")
        ]
    );
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        let (raw, log, m) = (self.raw, self.log, self.m);
        let letter = |role: Option<shakmaty::Role>| role.map_or("", role_letter);
        let square = |sq: Option<shakmaty::Square>| sq.map_or("", square_name);
        cells.text(&raw.file);
        cells.number(raw.index);
        cells.number(raw.line);
        cells.number(m.ply);
        cells.number(m.move_number);
        cells.text(if m.mover.is_white() { "white" } else { "black" });
        cells.text(log.san(m));
        cells.text(log.uci(m));
        cells.text(letter(Some(m.m.role())));
        cells.text(square(m.from));
        cells.text(square(m.to));
        cells.text(letter(m.m.capture()));
        cells.text(letter(m.m.promotion()));
        cells.text(match m.m {
            shakmaty::Move::Castle { king, rook } if rook.file() > king.file() => "O-O",
            shakmaty::Move::Castle { .. } => "O-O-O",
            _ => "",
        });
        cells.bool(m.m.is_en_passant());
        cells.bool(m.check);
        cells.bool(m.mate);
        cells.number(m.key);
        if FEN {
            cells.text(log.fen(m));
        }
        cells.number(m.halfmove_clock);
        cells.number(m.repetition);
        cells.decimal(seconds(m.clock));
        cells.decimal(seconds(m.move_time));
        cells.signed(match m.eval {
            Some(Eval::Centipawns(cp)) => Some(cp),
            _ => None,
        });
        cells.signed(match m.eval {
            Some(Eval::Mate(n)) => Some(n),
            _ => None,
        });
        cells.text(log.nags(m));
        if COMMENTS {
            cells.text(log.comment(m));
        }
        for tag in self.tags {
            cells.text(tag);
        }
    }
}
