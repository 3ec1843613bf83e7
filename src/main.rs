//! The `pgnkit` binary: parse the command line, run, map the outcome to an exit code.

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser;
use pgnkit::cli::Cli;
use pgnkit::exit::ExitStatus;

fn main() -> ExitCode {
    // Read while this is the only thread (reading the umask sets it for a moment).
    #[cfg(unix)]
    pgnkit::output::umask();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return ExitCode::from(clap_exit(&err)),
    };
    pgnkit::interrupt::install();
    let status = pgnkit::run(cli);
    ExitCode::from(status.code())
}

/// Prints what clap has to say (help, version, a usage error) and returns its exit code;
/// help or a version that could not be written (`--help >/dev/full`) is exit 2.
fn clap_exit(err: &clap::Error) -> u8 {
    let printed = err.print().and_then(|()| std::io::stdout().flush());
    let code = u8::try_from(err.exit_code()).unwrap_or(ExitStatus::Error.code());
    if printed.is_err() && code == ExitStatus::Success.code() {
        return ExitStatus::Error.code();
    }
    code
}
