//! `pgnkit perft`: the move-generation self-check.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context as _, anyhow, bail};
use rayon::prelude::*;

use crate::cmd::args::{GlobalArgs, OutputArg};
use crate::cmd::context::Context;
use crate::exit::ExitStatus;
use crate::output::Output;
use crate::rules::perft::{self, SuiteEntry};
use crate::terminal::thousands;
use crate::terminal::visible;

/// Move-generation self-check: count the leaf nodes of the move tree.
///
/// `pgnkit perft FEN DEPTH` prints the node count at DEPTH (`--divide`: per legal move,
/// in UCI). `pgnkit perft --suite FILE` checks every expected count of a suite, the
/// positions in parallel: shakmaty `.perft` files (`id`, `epd`, `perft DEPTH COUNT`
/// lines) or EPD lines with `;D1 N ;D2 N` opcodes. One line per position:
/// `ok ID` or `MISMATCH ID depth D: expected E, counted C`; exit 1 on any mismatch, and
/// on a FEN that is not a legal position (as check-fen).
/// Suites of other variants (file names with atomic, crazyhouse, horde, ...) are skipped
/// with a message. Positions with impossible checks or too much material are counted
/// as given (such positions are in the standard suites).
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The position (FEN or EPD, X-FEN or Shredder-FEN castling).
    #[arg(
        value_name = "FEN",
        required_unless_present = "suite",
        requires = "depth"
    )]
    pub fen: Option<String>,

    /// The depth to count to.
    #[arg(value_name = "DEPTH")]
    pub depth: Option<u32>,

    /// A suite file to check.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "fen",
        help_heading = "Input"
    )]
    pub suite: Option<PathBuf>,

    /// Node counts below each legal move.
    #[arg(long, conflicts_with = "suite", help_heading = "Output")]
    pub divide: bool,

    /// Skip expectations deeper than N.
    #[arg(long, value_name = "N", help_heading = "Rules")]
    pub max_depth: Option<u32>,

    #[command(flatten)]
    pub output: OutputArg,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit perft \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" 5
  pgnkit perft \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\" 3 --divide
  pgnkit perft --suite tricky.perft                       every expected count
  pgnkit perft --suite perftsuite.epd --max-depth 4 -j 2  a quicker check

The guide: docs/GUIDE.md, \"Converting\" (every command, filter, code and column).";

pub fn run(args: Args, global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    let ctx = Context::new(global, args.output.output.is_none());
    let suite_name = args.suite.as_ref().map(|p| p.display().to_string());
    crate::output::refuse_shared_paths(
        suite_name.as_deref().zip(args.suite.as_deref()),
        &[("-o", args.output.output.as_deref())],
    )?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(ctx.threads)
        .build()
        .context("cannot start the worker threads")?;
    let mut output = Output::create(args.output.output.as_deref())?;
    let status = match (&args.suite, &args.fen, args.depth) {
        (Some(suite), _, _) => {
            pool.install(|| run_suite(suite, args.max_depth, &ctx, &mut output))?
        }
        (None, Some(fen), Some(depth)) => match perft::position_of(fen) {
            // A bad position is a finding about the data, as in check-fen: exit 1, not 2.
            Err(why) => {
                crate::stderr::say!("pgnkit: {}", visible(&why.to_string()));
                ExitStatus::Failure
            }
            Ok(pos) if args.divide => {
                let rows = pool.install(|| perft::divide(&pos, depth));
                let mut total = 0u64;
                for (uci, nodes) in rows {
                    writeln!(output, "{uci}: {nodes}")?;
                    total += nodes;
                }
                writeln!(output, "\ntotal: {total}")?;
                ExitStatus::Success
            }
            Ok(pos) => {
                let nodes = pool.install(|| perft::perft(&pos, depth));
                writeln!(output, "{nodes}")?;
                ExitStatus::Success
            }
        },
        _ => bail!("give FEN and DEPTH, or --suite FILE"),
    };
    output.finish()?;
    Ok(status)
}

/// What checking one suite position found.
struct Checked {
    line: String,
    mismatches: u64,
    counted: u64,
}

fn run_suite(
    path: &std::path::Path,
    max_depth: Option<u32>,
    ctx: &Context,
    output: &mut Output,
) -> anyhow::Result<ExitStatus> {
    let name = path.display().to_string();
    if let Some(variant) = perft::variant_of_suite(&name) {
        crate::stderr::say!(
            "pgnkit: {}: skipped: a suite of {variant} positions (pgnkit counts standard chess and Chess960 only)",
            visible(&name)
        );
        return Ok(ExitStatus::Success);
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    let entries = perft::parse_suite(&text).map_err(|e| anyhow!("{name}: {e}"))?;
    let started = Instant::now();
    let checked: Vec<Checked> = entries
        .par_iter()
        .map(|entry| check_entry(entry, max_depth))
        .collect();
    let mut mismatches = 0u64;
    let mut nodes = 0u64;
    for result in &checked {
        writeln!(output, "{}", visible(&result.line))?;
        mismatches += result.mismatches;
        nodes += result.counted;
    }
    if !ctx.quiet {
        crate::stderr::say!(
            "pgnkit: {}: {} positions, {} mismatches, {} nodes in {:.2}s",
            visible(&name),
            thousands(checked.len() as u64),
            thousands(mismatches),
            thousands(nodes),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if mismatches > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

fn check_entry(entry: &SuiteEntry, max_depth: Option<u32>) -> Checked {
    let pos = match perft::position_of(&entry.fen) {
        Ok(pos) => pos,
        Err(why) => {
            return Checked {
                line: format!("MISMATCH {}: {why}", entry.id),
                mismatches: 1,
                counted: 0,
            };
        }
    };
    let mut wrong = Vec::new();
    let mut depths = Vec::new();
    let mut counted = 0u64;
    for &(depth, expected) in &entry.expected {
        if max_depth.is_some_and(|max| depth > max) {
            continue;
        }
        let nodes = perft::perft(&pos, depth);
        counted += nodes;
        depths.push(depth.to_string());
        if nodes != expected {
            wrong.push(format!(
                "depth {depth}: expected {expected}, counted {nodes}"
            ));
        }
    }
    let line = if wrong.is_empty() {
        format!("ok {} (depths {})", entry.id, depths.join(","))
    } else {
        format!("MISMATCH {} {}", entry.id, wrong.join("; "))
    };
    Checked {
        line,
        mismatches: u64::from(!wrong.is_empty()),
        counted,
    }
}
