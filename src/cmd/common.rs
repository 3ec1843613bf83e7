//! Set-up shared by the commands that read games: the source list and the pipeline.

use std::io::IsTerminal;

use crate::cli::{Context, InputArgs};
use crate::input::{Limits, Source, TextDecoder, expand_inputs};
use crate::pipeline::{Pipeline, Totals};
use crate::rules::ReplayOptions;

/// The sources the INPUT arguments name; problems listing folders are printed here and
/// counted (they make the exit code 2).
pub fn sources(input: &InputArgs) -> (Vec<Source>, u64) {
    let (sources, errors) = expand_inputs(&input.inputs);
    for error in &errors {
        eprintln!("pgnkit: cannot open {}: {}", error.name, error.reason);
    }
    if sources.contains(&Source::Stdin) && std::io::stdin().is_terminal() {
        eprintln!(
            "pgnkit: reading PGN from stdin (give a file or folder, or pipe games in; Ctrl-D ends)"
        );
    }
    (sources, errors.len() as u64)
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

/// A warning on stderr when a run read no game at all, or picked none: an empty file or a
/// wrong `--game` is easy to miss when the output is just empty. Shown with --quiet too.
pub fn warn_if_no_game(input: &InputArgs, totals: &Totals) {
    if totals.games > 0 || totals.input_errors > 0 {
        return;
    }
    if totals.games_found == 0 {
        eprintln!("pgnkit: warning: the input holds no game");
    } else {
        let mut filters = Vec::new();
        if input.game_range().is_some() {
            filters.push("--game/--games");
        }
        if input.shard.is_some() {
            filters.push("--shard");
        }
        eprintln!(
            "pgnkit: warning: {} picked no game ({} read)",
            filters.join(" and "),
            totals.games_found
        );
    }
}
