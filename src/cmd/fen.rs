//! `pgnkit fen`: PGN to FEN, the final position of each game, every ply, or ply N.

use std::io::Write;

use shakmaty::Chess;

use crate::cmd::args::CodeArgs;
use crate::cmd::args::{FenStyleArgs, GlobalArgs, InputArgs, OutputArg};
use crate::cmd::args::{TextOrRecords, format_values};
use crate::cmd::run::{Ending, GameRun, Reads, StderrErrors};
use crate::exit::ExitStatus;
use crate::output::{Format, Output, Sink, SinkFormat};
use crate::pgn::RawGame;
use crate::record::{CellSink, Column, Record};
use crate::rules::fen::style::{FenStyle, RankCache};
use crate::rules::{PlyMove, PlyVisitor};

/// PGN to FEN: the final position of each game, every ply, or ply N.
///
/// A game that stops at an illegal move gives its FENs up to that point; games with an
/// unsupported variant or an invalid [FEN] tag give none. Their error findings go to
/// stderr (as `validate` writes them) and the exit code is 1; --select and --ignore pick
/// the errors reported, as in `validate` (one left out does not make the exit code 1).
#[allow(
    rustdoc::broken_intra_doc_links,
    reason = "this is --help text: [FEN] is the PGN tag, not a link"
)]
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    #[command(flatten)]
    pub codes: CodeArgs,

    /// Every position: the start position as ply 0, then one FEN per ply.
    #[arg(long, conflicts_with = "ply", help_heading = "Output")]
    pub every_ply: bool,

    /// Only the position after ply N (0: the start position); games shorter than N give
    /// no line.
    #[arg(long, value_name = "N", help_heading = "Output")]
    pub ply: Option<u32>,

    /// text: one FEN per line; csv: `file,game,line,ply,san,fen` with a header (`san`: the
    /// move in standard SAN however the file wrote it, empty at ply 0); jsonl: one object
    /// per position with the same keys (`san` null at ply 0); parquet: one Parquet file
    /// with the same columns, typed (needs -o FILE or a pipe).
    #[arg(
        long,
        value_parser = format_values::<TextOrRecords>(),
        default_value_t = Format::Text,
        help_heading = "Output"
    )]
    pub format: Format,

    #[command(flatten)]
    pub fen_style: FenStyleArgs,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit fen games.pgn                           the final position of each game
  pgnkit fen games.pgn --game 3 --every-ply      every position of game 3
  pgnkit fen --every-ply --format csv games.pgn  with game, line, ply and move
  pgnkit fen --format jsonl games.pgn            one JSON object per position
  pgnkit fen --ply 20 --ep legal archive/        ply 20, en passant as python-chess
  pgnkit fen games.pgn --material KRPPvKR        games that reach this ending
  pgnkit fen archive/ --ignore move. -o fens.txt  move errors not reported (exit 0)

The guide: docs/GUIDE.md, \"Converting\" (every command, filter, code and column).";

/// Which positions of a game are written.
#[derive(Debug, Clone, Copy)]
enum Want {
    Final,
    Every,
    Ply(u32),
}

/// A byte range of `FenCollector::text`.
type TextRange = (usize, usize);

/// Collects the FENs a game contributes, as the replay reaches each position. All text
/// goes into one buffer per game, so a ply costs no allocation.
struct FenCollector {
    style: FenStyle,
    want: Want,
    /// Text output: `text` holds the finished lines (one FEN and a newline each), so the
    /// writer copies one block per game; CSV keeps the SANs and FENs as spans.
    lines_only: bool,
    /// The SANs and FENs, back to back (or the lines, with `lines_only`): UTF-8, as the
    /// SANs are pushed as text and the FENs are ASCII.
    text: Vec<u8>,
    /// (ply, san span, fen span) in `text`.
    rows: Vec<(u32, TextRange, TextRange)>,
    /// The text of the ranks of the position before (one FEN per ply; none when one FEN
    /// is written).
    ranks: Option<RankCache>,
    /// The last ply reached and its SAN span (for the final position).
    last: Option<(u32, TextRange)>,
}

/// Bytes of `fen --every-ply` text per movetext token, to size a game's buffer once: a
/// FEN line is about 60 bytes, and a ply takes one token or more (a comment; move numbers
/// are no tokens in this run).
const BYTES_PER_TOKEN: usize = 72;

impl FenCollector {
    fn new(style: FenStyle, want: Want, lines_only: bool, raw: &RawGame) -> FenCollector {
        let capacity = match want {
            Want::Every => BYTES_PER_TOKEN * (raw.tokens.len() + 1),
            Want::Final | Want::Ply(_) => 0,
        };
        FenCollector {
            style,
            want,
            lines_only,
            text: Vec::with_capacity(capacity),
            rows: Vec::new(),
            ranks: matches!(want, Want::Every).then(RankCache::default),
            last: None,
        }
    }

    fn push_san(&mut self, san: &[u8]) -> TextRange {
        if self.lines_only {
            return (0, 0);
        }
        let start = self.text.len();
        self.text
            .extend_from_slice(String::from_utf8_lossy(san).as_bytes());
        (start, self.text.len())
    }

    fn push_row(&mut self, ply: u32, san: TextRange, pos: &Chess) {
        let start = self.text.len();
        match &mut self.ranks {
            Some(ranks) => self.style.write_bytes(pos, ranks, &mut self.text),
            None => self.style.write_one(pos, &mut self.text),
        }
        if self.lines_only {
            self.text.push(b'\n');
        } else {
            self.rows.push((ply, san, (start, self.text.len())));
        }
    }

    /// The rows as (ply, san, fen).
    fn rows(&self) -> impl Iterator<Item = (u32, &str, &str)> {
        let text = |(start, end): TextRange| {
            let bytes = self.text.get(start..end).unwrap_or_default();
            std::str::from_utf8(bytes).unwrap_or_default()
        };
        self.rows
            .iter()
            .map(move |&(ply, san, fen)| (ply, text(san), text(fen)))
    }
}

impl PlyVisitor for FenCollector {
    fn position(&mut self, ply: u32, step: Option<PlyMove<'_>>, pos: &Chess) {
        let san = step.map_or(&b""[..], |step| step.san);
        match self.want {
            Want::Final => {
                // Only the last SAN is kept; the final position comes from the report.
                self.text.clear();
                let span = self.push_san(san);
                self.last = Some((ply, span));
            }
            Want::Every => {
                let span = self.push_san(san);
                self.push_row(ply, span, pos);
            }
            Want::Ply(n) if n == ply => {
                let span = self.push_san(san);
                self.push_row(ply, span, pos);
            }
            Want::Ply(_) => {}
        }
    }
}

/// One position of the csv and jsonl formats.
struct FenRecord<'a> {
    raw: &'a RawGame,
    ply: u32,
    san: &'a str,
    fen: &'a str,
}

impl Record for FenRecord<'_> {
    const COLUMNS: &'static [Column] = &[
        Column::string("file"),
        Column::number("game"),
        Column::number("line"),
        Column::number("ply"),
        Column::string("san"),
        Column::string("fen"),
    ];
    const EMPTY_STRING_IS_NULL: bool = true;

    fn cells<S: CellSink>(&self, cells: &mut S) {
        cells.text(&self.raw.file);
        cells.number(self.raw.index);
        cells.number(self.raw.line);
        cells.number(self.ply);
        cells.text(self.san);
        cells.text(self.fen);
    }
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let want = match (args.every_ply, args.ply) {
        (true, _) => Want::Every,
        (false, Some(n)) => Want::Ply(n),
        (false, None) => Want::Final,
    };
    let style = args.fen_style.style();
    let codes = args.codes.filter()?;
    // Positions and their error findings only.
    let run = GameRun::new(
        global,
        &args.input,
        &[("-o", args.output.output.as_deref())],
        Reads::REPORT,
    )?;

    let format = SinkFormat::new(args.format, run.ctx.data_on_terminal, run.ctx.threads)?;
    let output = Output::create(args.output.output.as_deref())?;
    let lines_only = args.format == Format::Text;
    let mut sink = format.open::<FenRecord, _>(output, &[])?;
    let mut errors = StderrErrors::new(codes)?;
    let totals = run.run(
        |raw| {
            let mut collector = FenCollector::new(style, want, lines_only, raw);
            let judged = run.judge(raw, &mut collector, |game| game.report);
            judged.map(|report| {
                if let (Some((ply, san)), Some(pos)) = (collector.last.take(), &report.final_pos) {
                    collector.push_row(ply, san, pos);
                }
                (report, collector)
            })
        },
        |raw, (report, rows)| {
            errors.report(report)?;
            match &mut sink {
                Sink::Records(records) => {
                    for (ply, san, fen) in rows.rows() {
                        records.write(&FenRecord { raw, ply, san, fen })?;
                    }
                }
                Sink::Text(output) => output.write_all(&rows.text)?,
            }
            Ok(())
        },
    )?;
    sink.finish()?.finish()?;
    let failing_errors = errors.finish()?;
    Ok(run.finish(
        &totals,
        Ending {
            figures: None,
            failing_errors,
            selection: None,
        },
    ))
}
