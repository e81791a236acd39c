//! Live tallies: the open matters of a forge, tallied by the engine at
//! *now*, with the votes each push voided set aside. `resolve` acts on
//! them; `play list` and the site's pending page only show them.

use anyhow::Context as _;

use crate::engine::{self, Run};
use crate::forge::collect::{self, Collection};
use crate::forge::{Forge, HeadSha};
use crate::game::Game;
use crate::git::Repo;
use crate::load::{self, GAME_DIRS};
use crate::ruleset::diff::typo_fix_size;
use crate::time::Timestamp;

/// Collects and tallies the open matters of `forge` for `game` at `now`;
/// `repo` holds the pull requests' commits, to judge their pushes.
pub(crate) fn tallies(
    forge: &dyn Forge,
    game: &Game,
    repo: &Repo,
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
    let judge = |old: &HeadSha, new: &HeadSha| typo_judge(repo, old, new);
    let collection = collect::collect(forge, state, params, &judge, now)?;
    let run = engine::resolve(&collection.snapshot, now);
    Ok((collection, run))
}

/// How many characters a push changed, if it was only a typo fix.
fn typo_judge(repo: &Repo, old: &HeadSha, new: &HeadSha) -> Option<usize> {
    let read = |sha: &HeadSha| load::read_revision(repo, &sha.0, GAME_DIRS).ok();
    typo_fix_size(&read(old)?, &read(new)?)
}
