//! `pgnkit moves`: one record per main-line move (SPEC.md "moves").

use crate::cli::{
    CastlingArg, EpArg, GlobalArgs, InputArgs, OutputArg, RecordsOnly, format_values,
};
use crate::cmd::run::{Ending, GameRun, Reads};
use crate::exit::ExitStatus;
use crate::output::records::encode;
use crate::output::{Format, Output, SinkFormat};
use crate::pgn::RawGame;
use crate::record::{Cells, Column, Record};
use crate::rules::fen::style::FenStyle;
use crate::rules::moves::{MoveFacts, MoveLog};
use crate::rules::replay::annotations::{Clock, Eval};

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

    /// En passant field of --fen: always, pseudo or legal (as `pgnkit fen --ep`).
    #[arg(long, value_enum, default_value_t = EpArg::Always, help_heading = "Rules")]
    pub ep: EpArg,

    /// Castling letters of --fen: xfen or shredder (as `pgnkit fen --castling`).
    #[arg(long, value_enum, default_value_t = CastlingArg::Xfen, help_heading = "Rules")]
    pub castling: CastlingArg,
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
    crate::cmd::stats::check_tag_columns(&args.tags)?;
    let output = args.output.output.as_deref();
    let run = GameRun::new(global, &args.input, &[("-o", output)], Reads::REPORT)?;
    let sink = SinkFormat::new(args.format, run.ctx.data_on_terminal, run.ctx.threads)?;
    let (format, tags) = (sink.format(), &args.tags);
    let style = FenStyle {
        ep: args.ep.into(),
        castling: args.castling.into(),
    };
    let mut records =
        sink.open_records::<MoveRecord<FEN, COMMENTS>, _>(Output::create(output)?, tags)?;
    let totals = run.run(
        |raw| {
            let mut log = MoveLog::new(FEN.then_some(style));
            let judged = run.judge(raw, &mut log, |game| game.report);
            judged.map(|report| {
                log.annotate(raw, &report, run.options(), COMMENTS);
                let tags: Vec<&str> = tags.iter().map(|t| report.tags.value(t)).collect();
                // Encoded on the worker threads: the writer only copies bytes.
                let rows = log.moves.iter().map(|m| {
                    let record = MoveRecord::<FEN, COMMENTS> {
                        raw,
                        log: &log,
                        m,
                        tags: &tags,
                    };
                    encode(&record, format, &args.tags)
                });
                rows.collect::<anyhow::Result<Vec<_>>>()
            })
        },
        |_raw, rows| {
            let rows = rows.as_ref().map_err(|err| anyhow::anyhow!("{err}"))?;
            rows.iter().try_for_each(|row| records.write_encoded(row))
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

/// The columns, with `fen` after `key` and `comment` last where asked.
macro_rules! move_columns {
    ($($fen:expr)?; $($comment:expr)?) => {
        &[
            Column::string("file"),
            Column::number("game"),
            Column::number("line"),
            Column::number("ply"),
            Column::number("move_number"),
            Column::string("color"),
            Column::string("san"),
            Column::string("uci"),
            Column::string("piece"),
            Column::string("from"),
            Column::string("to"),
            Column::string("captured"),
            Column::string("promotion"),
            Column::string("castling"),
            Column::bool("en_passant"),
            Column::bool("check"),
            Column::bool("mate"),
            Column::unsigned("key"),
            $($fen,)?
            Column::number("halfmove_clock"),
            Column::number("repetition"),
            Column::decimal("clock"),
            Column::decimal("move_time"),
            Column::number("eval_cp"),
            Column::number("eval_mate"),
            Column::string("nags"),
            $($comment,)?
        ]
    };
}

const PLAIN: &[Column] = move_columns!(;);
const WITH_FEN: &[Column] = move_columns!(Column::string("fen"););
const WITH_COMMENT: &[Column] = move_columns!(; Column::string("comment"));
const WITH_BOTH: &[Column] = move_columns!(Column::string("fen"); Column::string("comment"));

const fn columns(fen: bool, comments: bool) -> &'static [Column] {
    match (fen, comments) {
        (false, false) => PLAIN,
        (true, false) => WITH_FEN,
        (false, true) => WITH_COMMENT,
        (true, true) => WITH_BOTH,
    }
}

fn seconds(millis: Option<i64>) -> String {
    millis.map_or(String::new(), |ms| Clock::from_millis(ms).to_text())
}

impl<const FEN: bool, const COMMENTS: bool> Record for MoveRecord<'_, FEN, COMMENTS> {
    const COLUMNS: &'static [Column] = columns(FEN, COMMENTS);
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells(&self, cells: &mut Cells) {
        let (raw, log, m) = (self.raw, self.log, self.m);
        let letter = |role: Option<shakmaty::Role>| {
            role.map_or(String::new(), |r| r.upper_char().to_string())
        };
        let square = |sq: Option<shakmaty::Square>| sq.map_or(String::new(), |s| s.to_string());
        cells.text(&raw.file);
        cells.number(raw.index);
        cells.number(raw.line);
        cells.number(m.ply);
        cells.number(m.move_number);
        cells.text(if m.mover.is_white() { "white" } else { "black" });
        cells.text(log.san(m));
        cells.text(log.uci(m));
        cells.text(&letter(Some(m.m.role())));
        cells.text(&square(m.from));
        cells.text(&square(m.to));
        cells.text(&letter(m.m.capture()));
        cells.text(&letter(m.m.promotion()));
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
        cells.text(&seconds(m.clock));
        cells.text(&seconds(m.move_time.map(|t| t.max(0))));
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
