//! `gitnomic roll verify`: recompute every roll of the dice log under
//! content/rolls/ from its public inputs, and say whether each result is
//! the one logged and every roll the history credits is logged (exit 0 all are, 1 one is not, 2 the log cannot be read).

use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::git::Repo;
use crate::load::dice::{DiceError, check_dice};
use crate::load::{self, Origin};

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
    let repo = Repo::open(&global.root)?;
    let found = match check_dice(&repo, &global.base, &files) {
        Ok(found) => found,
        Err(e @ DiceError::Unreadable { .. }) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(EXIT_ERROR));
        }
        Err(e) => return Err(e.into()),
    };
    let (checked, logs) = (found.rolls, found.logs);
    for problem in found.problems() {
        say!("{problem}");
    }
    if !found.mismatches.is_empty() {
        say!(
            "{} of {checked} rolls in {logs} logs do not verify.",
            found.mismatches.len()
        );
    }
    if !found.unlogged.is_empty() {
        say!(
            "{} rolls the history of {} credits are not in the dice log.",
            found.unlogged.len(),
            global.base
        );
    }
    if found.problems().next().is_some() {
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    say!("All {checked} rolls in {logs} logs verify.");
    Ok(ExitCode::from(EXIT_OK))
}
