//! `gitnomic roll verify`: recompute every roll of the dice log under
//! content/rolls/ from its public inputs, and say whether each result is
//! the one logged (exit 0 all are, 1 one is not, 2 the log cannot be read).

use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::load::{self, Origin};
use crate::record::rolls::{self, RollLog};

/// The `roll` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Roll {
    /// Recompute every logged roll and compare it with its logged result.
    Verify(VerifyArgs),
}

/// Arguments of `roll verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Read the log from the work tree at --root instead of the default
    /// branch (--base).
    #[arg(long)]
    pub work_tree: bool,
}

/// Runs a `roll` subcommand.
pub(crate) fn run(roll: &Roll, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let Roll::Verify(args) = roll;
    let origin = if args.work_tree {
        Origin::Dir(global.root.clone())
    } else {
        Origin::Revision {
            repo: global.root.clone(),
            rev: global.base.clone(),
        }
    };
    let files = load::read(&origin, &["content", "state"]).context("cannot read the dice log")?;
    let (mut logs, mut checked, mut wrong) = (0, 0, 0);
    for file in files
        .iter()
        .filter(|f| f.path.starts_with("content/rolls/"))
    {
        let log = match RollLog::parse(&file.text) {
            Ok(log) => log,
            Err(why) => {
                eprintln!("error: {} cannot be read: {why}", file.path);
                return Ok(ExitCode::from(EXIT_ERROR));
            }
        };
        if file.path != rolls::path(log.matter) {
            say!(
                "{}: the log of #{} belongs at {}",
                file.path,
                log.matter,
                rolls::path(log.matter)
            );
            wrong += 1;
        }
        logs += 1;
        checked += log.rolls.len();
        for mismatch in rolls::verify(&log) {
            say!("{mismatch}");
            wrong += 1;
        }
    }
    if wrong > 0 {
        say!("{wrong} of {checked} rolls in {logs} logs do not verify.");
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    say!("All {checked} rolls in {logs} logs verify.");
    Ok(ExitCode::from(EXIT_OK))
}
