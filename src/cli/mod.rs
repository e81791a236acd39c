//! The command line: argument types and dispatch. Orchestration only:
//! each subcommand gathers its inputs at the edge (files, git, the clock),
//! calls the pure core and reports. One file per subcommand.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::logging::Verbosity;
use crate::time::Timestamp;

mod build;
mod check;
mod import_history;
mod serve;

/// Exit code: the command ran and found nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit code: the command ran and found problems (a verdict, not a crash).
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit code: the command could not run.
pub const EXIT_ERROR: u8 = 2;

/// Run a nomic game on a git forge.
#[derive(Debug, Parser)]
#[command(name = "gitnomic", version, about, long_about = None)]
pub struct Cli {
    /// Options shared by every subcommand.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand accepts.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// The game's root directory (holding rules/ and state/).
    #[arg(long, global = true, default_value = ".")]
    pub root: PathBuf,
    /// Evaluate as if it were this moment (RFC 3339), instead of the clock.
    #[arg(long, global = true, value_name = "TIME")]
    pub now: Option<Timestamp>,
    /// Log more (debug).
    #[arg(short, long, global = true, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Log errors only.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

impl GlobalArgs {
    /// The log level the flags ask for.
    pub fn verbosity(&self) -> Verbosity {
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (_, true) => Verbosity::Verbose,
            _ => Verbosity::Normal,
        }
    }

    /// The moment to evaluate at: `--now`, else the system clock. This is
    /// the only place gitnomic reads the clock.
    pub fn now(&self) -> Timestamp {
        self.now
            .unwrap_or_else(|| Timestamp::from_datetime(chrono::Utc::now()))
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate the game's rules/ and state/ (exit 0 ok, 1 problems, 2 error).
    Check(check::Args),
    /// Build the static site: ruleset, tracker, archive and history.
    Build(build::Args),
    /// Build the site, serve it on localhost and rebuild on change.
    Serve(serve::Args),
    /// Import BlogNomic's proposal history (a CSV table) as archive records
    /// under content/matters/<source>/; odd rows are reported and skipped.
    ImportHistory(import_history::Args),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::run(&args, &cli.global),
        Command::Build(args) => build::run(&args, &cli.global),
        Command::Serve(args) => serve::run(&args, &cli.global),
        Command::ImportHistory(args) => import_history::run(&args, &cli.global),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }
}
