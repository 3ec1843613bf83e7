//! (being written)

use crate::cli::GlobalArgs;
use crate::exit::ExitStatus;

#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args, _global: &GlobalArgs) -> anyhow::Result<ExitStatus> {
    anyhow::bail!("this command is not written yet")
}
