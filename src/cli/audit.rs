//! `gitnomic audit`: walk the default branch's history and, for every
//! record of the game's own matters, run the engine again on its recorded
//! votes under the rules in force when it was decided (see
//! [`crate::audit`]). Exit 0 when every record agrees, 1 when one does
//! not, 2 when the history cannot be read.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::audit::disagreement;
use crate::game::Game;
use crate::git::Repo;
use crate::load::{self, GAME_DIRS};
use crate::record::Record;

/// Arguments of `gitnomic audit`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `gitnomic audit` on `--base` of the repository at `--root`.
pub(crate) fn run(_: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let repo = Repo::open(&global.root)?;
    let before = first_appearances(&repo, &global.base)?;
    let (mut audited, mut wrong) = (0, 0);
    for file in load::read_revision(&repo, &global.base, &["content"])? {
        if !is_own_record(&file.path) {
            continue;
        }
        let record = Record::parse(&file).map_err(|d| anyhow::anyhow!("{d}"))?;
        audited += 1;
        // The rules in force when it was decided: before the merge it
        // records, or before the record was first committed.
        let base = match &record.merge_commit {
            Some(merge) => repo.first_parent(merge)?,
            None => before.get(&file.path).cloned().flatten(),
        };
        let Some(base) = base else {
            wrong += 1;
            say!(
                "#{} ({}): no commit before it to judge it by",
                record.number,
                file.path
            );
            continue;
        };
        let game = Game::check(&load::read_revision(&repo, &base, GAME_DIRS)?);
        if let Some(why) = disagreement(&record, &game) {
            wrong += 1;
            say!("#{} ({}): {why}", record.number, file.path);
        }
    }
    say!(
        "{audited} records audited on {}: {}.",
        global.base,
        if wrong == 0 {
            "every one agrees with the rules in force when it was decided".to_string()
        } else {
            format!("{wrong} disagree")
        }
    );
    Ok(ExitCode::from(if wrong == 0 {
        EXIT_OK
    } else {
        EXIT_PROBLEMS
    }))
}

/// Whether `path` is a record of the game's own matters (not imported).
fn is_own_record(path: &str) -> bool {
    path.strip_prefix("content/matters/")
        .is_some_and(|rest| !rest.contains('/'))
}

/// For each record path: the commit before the one that first added it to
/// the first-parent history of `rev` (`None` if it was in the first).
fn first_appearances(repo: &Repo, rev: &str) -> anyhow::Result<BTreeMap<String, Option<String>>> {
    let history = repo
        .first_parent_history(rev, &["content"])
        .with_context(|| format!("reading the history of {rev}"))?;
    let mut before = BTreeMap::new();
    let mut previous: Option<&str> = None;
    let mut content = None;
    for commit in &history {
        let tree = commit.trees.get("content");
        if tree != content {
            for (path, _) in tree
                .map(|t| repo.tree_blobs(t))
                .transpose()?
                .unwrap_or_default()
            {
                let path = format!("content/{path}");
                if is_own_record(&path) {
                    before
                        .entry(path)
                        .or_insert_with(|| previous.map(str::to_string));
                }
            }
            content = tree;
        }
        previous = Some(&commit.id);
    }
    Ok(before)
}
