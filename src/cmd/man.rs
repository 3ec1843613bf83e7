//! `pgnkit man`: the manual page, generated from the CLI definition.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use crate::cmd::args::GlobalArgs;
use crate::exit::ExitStatus;

/// Print the pgnkit(1) manual page (roff) on stdout, or write one page per command.
///
/// The page is generated from the same definition as --help: the commands, every global
/// flag, and the examples. `--dir DIR` writes pgnkit.1 and pgnkit-validate.1,
/// pgnkit-stats.1, ... there, one page per command with all its flags.
#[derive(Debug, clap::Args)]
#[command(after_help = EXAMPLES)]
pub struct Args {
    /// Write pgnkit.1 and one page per command (pgnkit-validate.1, ...) into DIR instead
    /// of printing pgnkit.1.
    #[arg(long, value_name = "DIR", help_heading = "Output")]
    pub dir: Option<PathBuf>,
}

const EXAMPLES: &str = "\
Examples:
  pgnkit man > pgnkit.1                          the top page only
  mkdir -p ~/.local/share/man/man1
  pgnkit man --dir ~/.local/share/man/man1       every page: pgnkit(1), pgnkit-validate(1), ...

The guide: docs/GUIDE.md (every command, filter, code and column).";

/// `command` is the whole command line's definition (`cli::Cli`), handed down as to
/// `completions`.
pub fn run(args: Args, _global: &GlobalArgs, command: clap::Command) -> anyhow::Result<ExitStatus> {
    if let Some(dir) = args.dir {
        clap_mangen::generate_to(command, &dir)
            .with_context(|| format!("cannot write the man pages in {}", dir.display()))?;
        return Ok(ExitStatus::Success);
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&page)?;
    stdout.flush()?;
    Ok(ExitStatus::Success)
}
