//! Set-up shared by the commands that read games: the source list and the pipeline.

use std::io::IsTerminal;

use crate::cli::{Context, InputArgs};
use crate::input::{Limits, Source, TextDecoder, expand_inputs};
use crate::pipeline::Pipeline;
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
    Ok(ReplayOptions { decoder })
}

/// The pipeline as the flags and the terminal ask for it.
pub fn pipeline(ctx: &Context, input: &InputArgs) -> Pipeline {
    Pipeline {
        threads: ctx.threads,
        limits: Limits::default(),
        shard: input.shard,
        show_progress: ctx.stderr_is_terminal && !ctx.quiet,
    }
}
