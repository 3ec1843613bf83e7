//! Decisions about the terminal and the machine, taken once at start-up from the global
//! flags and passed down to a command's parts.

use std::io::IsTerminal;

use super::args::{ColorChoice, GlobalArgs};

/// The most worker threads per core `--threads` gets. The work is CPU-bound, so threads
/// beyond the cores only take turns; each holds up to two pieces of input in flight, so
/// memory grows with their number, and an unbounded count (`--threads 100000`) failed to
/// start. Four per core leaves room for a container that reports fewer cores than it uses.
pub const THREADS_PER_CORE: usize = 4;

/// Decisions about the terminal and the machine, taken once at start-up and passed down.
#[derive(Debug, Clone)]
pub struct Context {
    pub threads: usize,
    pub quiet: bool,
    /// Whether stderr is a terminal (progress bar).
    pub stderr_is_terminal: bool,
    /// Whether stdin is a terminal (a hint that input is awaited).
    pub stdin_is_terminal: bool,
    /// Whether the command's data goes to stdout and stdout is a terminal (findings get
    /// their context; an HTML page is refused).
    pub data_on_terminal: bool,
    /// Whether text written to stdout gets colour.
    pub color: bool,
}

impl Context {
    pub fn new(global: &GlobalArgs, writes_to_stdout: bool) -> Context {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let most = cores.saturating_mul(THREADS_PER_CORE);
        let threads = match global.threads.filter(|&n| n > 0) {
            Some(asked) if asked > most => {
                crate::stderr::say!(
                    "pgnkit: warning: --threads {asked} is more than {THREADS_PER_CORE} per core; using {most} ({cores} cores)"
                );
                most
            }
            Some(asked) => asked,
            None => cores,
        };
        let data_on_terminal = writes_to_stdout && std::io::stdout().is_terminal();
        let color = match global.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                data_on_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        };
        Context {
            threads,
            quiet: global.quiet,
            stderr_is_terminal: std::io::stderr().is_terminal(),
            stdin_is_terminal: std::io::stdin().is_terminal(),
            data_on_terminal,
            color,
        }
    }
}
