//! Live tallies: the open matters of a forge collected and planned at
//! *now*, with the votes each push voided set aside. `resolve` carries the
//! plan out; `play list` and the site's pending page show its tallies, so
//! all of them say the same thing about every matter.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;

use crate::collected::{Collected, engine_kind};
use crate::forge::collect::{self, TypoJudge};
use crate::forge::{Forge, HeadSha};
use crate::game::Game;
use crate::git::Repo;
use crate::git::trial::GitTrial;
use crate::load::{self, GAME_DIRS};
use crate::matter::HeadSha as Sha;
use crate::plan::{self, Inputs, Merged, Plan, Prospect, TreeId, Trial};
use crate::ruleset::diff::typo_fix_size;
use crate::source::SourceFile;
use crate::time::Timestamp;

/// A plan, with the matters it was made from.
pub(crate) struct Planned {
    /// What the run will do.
    pub(crate) plan: Plan,
    /// Every matter collected (open and unfinished), by number.
    pub(crate) matters: BTreeMap<u64, Collected>,
}

/// Collects the matters of `forge` and plans a resolve run at `now` for
/// `game`, the game on branch `base` of the repository at `root` (which
/// holds the pull requests' commits, to merge them in memory and to judge
/// their pushes).
pub(crate) fn plan(
    forge: &dyn Forge,
    game: &Game,
    root: &Path,
    base: &str,
    now: Timestamp,
) -> anyhow::Result<Planned> {
    let params = game
        .params
        .as_ref()
        .context("the game's parameters are not valid")?;
    let repo = Repo::open(root)?;
    let judge = |old: &HeadSha, new: &HeadSha| typo_judge(&repo, old, new);
    let mut open = Vec::new();
    let mut unvoted = Vec::new();
    for info in forge.open_matters()? {
        match info.kind() {
            _ if info.draft => {}
            Some(kind) if engine_kind(kind).is_some() => {
                open.push(collect::collect_one(forge, info, params, &judge, now)?);
            }
            Some(_) => unvoted.push(collect::collect_one(forge, info, params, &judge, now)?),
            None => {}
        }
    }
    let unfinished = unfinished(forge, params, &judge, now)?;
    let mut trial = InMemory(GitTrial::open(root, base)?);
    let inputs = Inputs {
        base: Prospect {
            tree: TreeId(trial.0.base_tree()?),
            game: game.clone(),
        },
        open: &open,
        unfinished: &unfinished,
        unvoted: &unvoted,
        now,
    };
    let plan = plan::plan(inputs, &mut trial)?;
    let matters = open
        .into_iter()
        .chain(unfinished)
        .chain(unvoted)
        .map(|m| (m.info.number, m))
        .collect();
    Ok(Planned { plan, matters })
}

/// Closed matters still labelled `resolving` whose journal holds a
/// decision: what a run that stopped half-way left to finish.
fn unfinished(
    forge: &dyn Forge,
    params: &crate::engine::Params,
    judge: &TypoJudge<'_>,
    now: Timestamp,
) -> anyhow::Result<Vec<Collected>> {
    let mut found = Vec::new();
    for info in forge.closed_matters(Some(plan::effect::RESOLVING), None)? {
        if info.kind().is_none() {
            continue;
        }
        let matter = collect::collect_one(forge, info, params, judge, now)?;
        if matter.journal.resolution.is_some() {
            found.push(matter);
        }
    }
    Ok(found)
}

/// How many characters a push changed, if it was only a typo fix.
fn typo_judge(repo: &Repo, old: &HeadSha, new: &HeadSha) -> Option<usize> {
    let read = |sha: &HeadSha| load::read_revision(repo, &sha.0, GAME_DIRS).ok();
    typo_fix_size(&read(old)?, &read(new)?)
}

/// The plan's trial merges, made by git in memory.
struct InMemory(GitTrial);

impl Trial for InMemory {
    fn merge(&mut self, onto: &TreeId, head: &Sha) -> Result<Merged, String> {
        Ok(match self.0.merge(&onto.0, head)? {
            Ok(tree) => Merged::Clean(TreeId(tree)),
            Err(paths) => Merged::Conflict(paths),
        })
    }

    fn write(&mut self, onto: &TreeId, path: &str, text: &str) -> Result<TreeId, String> {
        self.0.write(&onto.0, path, text).map(TreeId)
    }

    fn files(&mut self, tree: &TreeId) -> Result<Vec<SourceFile>, String> {
        load::read_revision(self.0.repo(), &tree.0, GAME_DIRS).map_err(|e| e.to_string())
    }

    fn changed(&mut self, head: &Sha) -> Result<Vec<String>, String> {
        self.0.changed(head)
    }

    fn tree_of(&mut self, commit: &Sha) -> Result<TreeId, String> {
        self.0.tree_of(commit).map(TreeId)
    }

    fn fork_of(&mut self, head: &Sha) -> Result<TreeId, String> {
        self.0.fork_of(head, None).map(TreeId)
    }

    fn fork_before(&mut self, head: &Sha, merge: &Sha) -> Result<TreeId, String> {
        self.0.fork_of(head, Some(merge)).map(TreeId)
    }

    fn before(&mut self, merge: &Sha) -> Result<TreeId, String> {
        self.0.before(merge).map(TreeId)
    }
}
