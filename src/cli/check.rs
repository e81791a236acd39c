//! `gitnomic check`: validate the rules and the gamestate of a game.

use std::process::ExitCode;

use super::GlobalArgs;

/// Arguments of `gitnomic check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print `number<TAB>section<TAB>title` for every rule.
    #[arg(long)]
    pub list: bool,
}

/// Runs `gitnomic check`.
pub(crate) fn run(_args: &Args, _global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not yet implemented")
}
