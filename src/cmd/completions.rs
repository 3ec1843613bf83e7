//! `pgnkit completions SHELL`: a completion script generated from the CLI definition.

use std::io::Write;

use clap_complete::Shell;

use crate::cmd::args::GlobalArgs;
use crate::exit::ExitStatus;

/// Print a shell completion script for pgnkit on stdout.
///
/// The script completes commands, flags and their values (formats, shells, colour
/// choices). It is generated from the same definition as --help, so it never lags behind.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

const EXAMPLES: &str = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions
  pgnkit completions bash > ~/.local/share/bash-completion/completions/pgnkit
  mkdir -p ~/.zfunc && pgnkit completions zsh > ~/.zfunc/_pgnkit   (fpath+=~/.zfunc in .zshrc)
  mkdir -p ~/.config/fish/completions
  pgnkit completions fish > ~/.config/fish/completions/pgnkit.fish
  mkdir -p ~/.config/elvish/lib && pgnkit completions elvish > ~/.config/elvish/lib/pgnkit.elv
  pgnkit completions powershell >> $PROFILE

The guide: docs/GUIDE.md (every command, filter, code and column).";

/// `command` is the whole command line's definition (`cli::Cli`), which the caller hands
/// down: a command does not name the command line that names it.
pub fn run(
    args: Args,
    _global: &GlobalArgs,
    mut command: clap::Command,
) -> anyhow::Result<ExitStatus> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "pgnkit", &mut script);
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&script)?;
    stdout.flush()?;
    Ok(ExitStatus::Success)
}
