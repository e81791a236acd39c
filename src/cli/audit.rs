//! `gitnomic audit`: walk the default branch's history and check the game
//! was played by its own rules (see [`crate::load::audit`] and
//! [`crate::matter::audit`]):
//!
//! - every record of the game's own matters decides as the engine does on
//!   its recorded votes, under the rules in force when it was decided;
//! - every closed votable matter on the forge has its record (unless its
//!   author withdrew it);
//! - every enacted record's change is still on the default branch, or a
//!   later matter (or the resolver, or an admin's typo fix) changed it;
//! - every record's outcome is what the forge says (merged or not, its
//!   label);
//! - the dice log verifies, and holds every roll the history credits.
//!
//! Exit 0 when everything agrees, 1 when something does not, 2 when the
//! history or the forge cannot be read.

use std::process::ExitCode;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs, open_forge_to_read};
use crate::git::Repo;
use crate::load::audit::audit;

/// Arguments of `gitnomic audit`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `gitnomic audit` on `--base` of the repository at `--root`, and
/// the matters of `--forge`.
pub(crate) fn run(_: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let repo = Repo::open(&global.root)?;
    let found = audit(
        &repo,
        &global.base,
        &|| open_forge_to_read(global),
        &mut |problem| say!("{problem}"),
    )?;
    if found.problems == 0 {
        say!(
            "{} records audited on {}: every one agrees with the rules in force when it was decided and with the forge, every closed matter has its record, every enactment stands, and every roll is logged and verifies.",
            found.records,
            global.base
        );
    } else {
        say!(
            "{} records audited on {}: {} of them with a problem; {} problems in all.",
            found.records,
            global.base,
            found.wrong_records.len(),
            found.problems
        );
    }
    Ok(ExitCode::from(if found.problems == 0 {
        EXIT_OK
    } else {
        EXIT_PROBLEMS
    }))
}
