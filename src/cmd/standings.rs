//! `pgnkit standings`: each event's final standings (SPEC.md "standings").

use std::io::Write;
use std::path::PathBuf;

use crate::cmd::args::{CodeArgs, GlobalArgs, InputArgs, OutputArg, TextOrRecords, format_values};
use crate::cmd::run::{Ending, GameRun, Reads};
use crate::cmd::validate::Level;
use crate::exit::ExitStatus;
use crate::output::findings::{CodeFilter, FindingWriter, GameAt, TextDetail};
use crate::output::standings::records::{StandingRecord, value_columns};
use crate::output::standings::text::event_text;
use crate::output::standings::trf::trf_text;
use crate::output::standings::{EventTable, ValueColumn, record_columns};
use crate::output::summary::RunFigures;
use crate::output::{Format, Output, Sink, SinkFormat};
use crate::rules::{Code, Finding};
use crate::standings::System;
use crate::standings::event::{Event, EventBook, EventBy, EventFinding, GameTags};
use crate::standings::ranked::{Ranked, Ranking};
use crate::standings::table::Options;
use crate::standings::tiebreak::{TieBreak, parse_list};

/// Each event's final standings: points, rank, FIDE tie-breaks and the crosstable.
///
/// Games with the same Event, Site (a URL counts as empty) and EventDate are one event
/// (--event-by picks other tags); events come in the order of their first game. Players
/// are named by White/Black, or by WhiteFideId/BlackFideId where given; a player named BYE
/// gives the other side a bye worth its result. Rounds are Round's first part (7.3 is round
/// 7); a round a player has no game in counts 0, as a round the player chose not to play.
/// A game whose Termination says forfeit, unplayed, walkover, no show or not played
/// counts its points but is no game for the tie-breaks. The event is a round robin when
/// every two players met equally often, else a Swiss (--system decides instead).
///
/// Tie-breaks follow FIDE's regulations (Handbook C.07, 2026). The default is C.07's
/// recommendation: for a round robin DE, SB, WIN; for a Swiss BH/C1, BH, DE.
///
/// The findings (event.player-twice-in-round, event.result-conflict, event.duplicate-game,
/// event.repeated-pairing, event.unfinished, event.round-missing) go to stderr as
/// `validate` writes them; exit code 1 when an error is shown.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    #[command(flatten)]
    pub input: InputArgs,

    #[command(flatten)]
    pub output: OutputArg,

    /// Text (a heading, the standings and the crosstable per event), or one record per
    /// player per event: CSV with a header, JSON lines, or Parquet (needs -o FILE or a
    /// pipe).
    #[arg(
        long,
        value_parser = format_values::<TextOrRecords>(),
        default_value_t = Format::Text,
        help_heading = "Output"
    )]
    pub format: Format,

    /// Group games into events by these tags' values instead of Event, Site and
    /// EventDate (comma-separated: `--event-by Event` or `--event-by Event,Section`).
    #[arg(
        long,
        value_name = "TAG,...",
        value_delimiter = ',',
        help_heading = "Standings"
    )]
    pub event_by: Vec<String>,

    /// How the events were paired, instead of telling it from the games.
    #[arg(long, value_enum, help_heading = "Standings")]
    pub system: Option<SystemArg>,

    /// The tie-breaks in order, in FIDE's notation (DE, WIN, WON, BPG, BWG, REP, PS, BH,
    /// AOB, FB, SB, KS, ARO, TPR, PTP, APRO, APPO; /C1, /C2 cut the lowest values, /M1,
    /// /M2 the highest and lowest): `--tiebreaks BH/C1,BH,SB`.
    #[arg(long, value_name = "LIST", value_parser = tiebreak_list, help_heading = "Standings")]
    pub tiebreaks: Option<TieBreakList>,

    /// The rating given to an opponent without one in ARO, TPR, PTP, APRO and APPO (by
    /// default such opponents are left out of them).
    #[arg(long, value_name = "R", help_heading = "Standings")]
    pub unrated: Option<u32>,

    /// Also write the event as a FIDE TRF-16 file (the input must hold exactly one event
    /// after the filters).
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    pub trf: Option<PathBuf>,

    /// The least severe findings shown: error, warning (default) or info.
    #[arg(long, value_enum, default_value_t = Level::Warning, help_heading = "Output")]
    pub level: Level,

    /// Under each finding, the game and what the code means.
    #[arg(short, long, help_heading = "Output")]
    pub verbose: bool,

    #[command(flatten)]
    pub codes: CodeArgs,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit standings games.pgn                      standings and crosstable of each event
  pgnkit standings games.pgn --where 'Event ~ \"Masters\"' --tiebreaks BH/C1,BH,SB
  pgnkit standings event.pgn --system swiss --unrated 1000 --trf event.trf
  pgnkit standings archive/ --format csv -o standings.csv
  pgnkit standings games.pgn --event-by Event --format parquet -o standings.parquet

The guide: docs/GUIDE.md, \"standings\" (every command, filter, code and column).";

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SystemArg {
    RoundRobin,
    Swiss,
}

/// `--tiebreaks`, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieBreakList(pub Vec<TieBreak>);

fn tiebreak_list(text: &str) -> Result<TieBreakList, String> {
    parse_list(text).map(TieBreakList)
}

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let output_path = args.output.output.as_deref();
    let run = GameRun::new(
        global,
        &args.input,
        &[("-o", output_path), ("--trf", args.trf.as_deref())],
        // Tags only: no game is replayed unless a filter needs it.
        Reads {
            report: false,
            figures: false,
            info_findings: false,
            variations: false,
            move_numbers: false,
        },
    )?;
    let sink = SinkFormat::new(args.format, run.ctx.data_on_terminal, run.ctx.threads)?;
    let codes = args.codes.filter()?;
    if args.event_by.iter().any(|t| t.trim().is_empty()) {
        anyhow::bail!(
            "--event-by: a tag name is empty (names are separated by single commas: --event-by Event,Section)"
        );
    }
    let by = if args.event_by.is_empty() {
        EventBy::Default
    } else {
        EventBy::Tags(args.event_by.iter().map(|t| t.trim().to_string()).collect())
    };
    let ranking = Ranking {
        system: args.system.map(|s| match s {
            SystemArg::RoundRobin => System::RoundRobin,
            SystemArg::Swiss => System::Swiss,
        }),
        tiebreaks: args.tiebreaks.clone().map(|l| l.0),
        options: Options {
            unrated: args.unrated,
        },
    };
    let mut book = EventBook::new();
    let totals = run.run(
        |raw| {
            run.judge(raw, &mut (), |game| {
                Some(GameTags::read(raw, &game.into_tags(raw), &by))
            })
        },
        |_raw, tags| {
            book.add(tags);
            Ok(())
        },
    )?;
    if args.trf.is_some() && book.len() != 1 {
        anyhow::bail!(
            "--trf writes one event, and the games make {} (pick one with --where, e.g. --where 'Event == \"...\"')",
            book.len()
        );
    }

    let mut findings = FindingWriter::new(
        crate::stderr::LossyStderr,
        SinkFormat::TEXT,
        run.ctx.color,
        TextDetail {
            context: args.verbose,
            why_every_time: false,
            board: false,
        },
    )?;
    let mut figures = RunFigures::default();
    // Every event ranked first (memory: its field, as the book's games), so that the
    // records' one header has the columns of every event's list; each event's findings
    // are written as it is ranked, and not kept (only the codes shown are made).
    let level = args.level;
    let wanted = |code: Code| code.severity() >= level.least() && codes.allows(code);
    let mut ranked: Vec<Ranked> = Vec::new();
    for mut event in ranking.rank(book, wanted) {
        let found = std::mem::take(&mut event.event.findings);
        show_findings(
            &found,
            &event.event,
            args.level,
            &codes,
            &mut findings,
            &mut figures,
        )?;
        ranked.push(event);
    }
    let values = value_union(&ranked, ranking.tiebreaks.as_deref());
    let output = Output::create(output_path)?;
    let mut sink = sink.open_typed::<StandingRecord, _>(output, &value_columns(&values))?;
    let mut trf = None;
    for ranked in &ranked {
        let table = EventTable::of(ranked, ranking.options.unrated);
        write_event(&mut sink, &table, &values)?;
        if args.trf.is_some() {
            trf = Some(trf_text(&table));
        }
    }
    sink.finish()?.finish()?;
    if let (Some(path), Some(text)) = (&args.trf, trf) {
        let mut file = Output::create(Some(path))?;
        file.write_all(text.as_bytes())?;
        file.finish()?;
    }
    findings.finish()?;
    Ok(run.finish(
        &totals,
        Ending {
            figures: Some(figures),
            failing_errors: figures.errors,
            selection: None,
        },
    ))
}

/// The records' value columns: the tie-breaks of each event's list by name, in the order
/// they first come, then `aro` and `tpr` unless a list has them unmodified (one list:
/// exactly its columns); without events, those of `--tiebreaks`.
fn value_union(ranked: &[Ranked], given: Option<&[TieBreak]>) -> Vec<(String, ValueColumn)> {
    if ranked.is_empty() {
        return record_columns(given.unwrap_or_default());
    }
    let mut values: Vec<(String, ValueColumn)> = Vec::new();
    // The tie-breaks first, then the rating figures that no list has.
    let all = ranked.iter().flat_map(|event| record_columns(&event.list));
    let (tiebreaks, figures): (Vec<_>, Vec<_>) =
        all.partition(|(_, column)| matches!(column, ValueColumn::TieBreak(_)));
    for (name, column) in tiebreaks.into_iter().chain(figures) {
        if !values.iter().any(|(n, _)| *n == name) {
            values.push((name, column));
        }
    }
    values
}

/// One event's text or records.
fn write_event(
    sink: &mut Sink<Output>,
    table: &EventTable,
    values: &[(String, ValueColumn)],
) -> anyhow::Result<()> {
    match sink {
        Sink::Text(out) => {
            out.write_all(event_text(table).as_bytes())?;
            out.write_all(b"\n")?;
        }
        Sink::Records(records) => {
            // The file's columns are every event's; an event's list may lack some (a
            // Swiss beside a round robin): its values go by name, the others are empty.
            let own = record_columns(table.list);
            let mapped: Vec<Option<ValueColumn>> = values
                .iter()
                .map(|(name, _)| own.iter().find(|(n, _)| n == name).map(|(_, c)| *c))
                .collect();
            for row in table.rows {
                records.write(&StandingRecord {
                    table,
                    row,
                    values: &mapped,
                })?;
            }
        }
    }
    Ok(())
}

/// The event's findings on stderr, as `validate` writes them, at `--level` and after
/// `--select`/`--ignore`.
fn show_findings(
    list: &[EventFinding],
    event: &Event,
    level: Level,
    codes: &CodeFilter,
    writer: &mut FindingWriter<crate::stderr::LossyStderr>,
    figures: &mut RunFigures,
) -> anyhow::Result<()> {
    for found in list {
        let severity = found.code.severity();
        if severity < level.least() || !codes.allows(found.code) {
            continue;
        }
        figures.count_finding(severity);
        let at = GameAt {
            file: &found.file,
            index: found.game,
            line: found.line,
            white: &found.white,
            black: &found.black,
            event: &event.heading.event,
            round: &found.round,
        };
        let finding = Finding {
            code: found.code,
            ply: 0,
            move_text: String::new(),
            san: String::new(),
            message: found.message.clone(),
            fen: String::new(),
            move_line: found.line,
        };
        writer.write_at(&at, &finding)?;
    }
    Ok(())
}
