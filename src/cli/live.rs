//! Live tallies: the open matters of a forge, tallied by the engine at
//! *now*, without acting on them (`play list`, the site's pending page).

use std::path::Path;

use anyhow::Context as _;

use super::resolve::typo_judge;
use crate::engine::{self, Run};
use crate::forge::collect::{self, Collection};
use crate::forge::{Forge, HeadSha};
use crate::game::Game;
use crate::git::Repo;
use crate::time::Timestamp;

/// Collects and tallies the open matters of `forge` for `game` at `now`.
pub(crate) fn tallies(
    forge: &dyn Forge,
    game: &Game,
    root: &Path,
    now: Timestamp,
) -> anyhow::Result<(Collection, Run)> {
    let state = game
        .state
        .as_ref()
        .context("the game's state/ cannot be read")?;
    let params = game
        .params
        .as_ref()
        .context("the game's parameters are not valid")?;
    let repo = Repo::open(root)?;
    let judge = |old: &HeadSha, new: &HeadSha| typo_judge(&repo, old, new);
    let collection = collect::collect(forge, state, params, &judge, now)?;
    let run = engine::resolve(&collection.snapshot, now);
    Ok((collection, run))
}
