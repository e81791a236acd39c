//! EDGE: the audit's walk of the default branch's history and of the
//! forge's closed matters (the judgements are [`crate::matter::audit`]'s):
//!
//! - every record of the game's own matters decides as the engine does on
//!   its recorded votes, under the rules in force when it was decided;
//! - every closed votable matter on the forge has its record (unless its
//!   author withdrew it);
//! - every enacted record's change is still on the default branch, or a
//!   later matter (or the resolver, or an admin's typo fix) changed it;
//! - every record's outcome is what the forge says became of its matter
//!   (merged or not, its label);
//! - the dice log verifies, and holds every roll the history credits and
//!   every roll a matter's status comment on the forge says was made.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Context as _;

use crate::forge::Forge;
use crate::game::{GAME_DIRS, Game};
use crate::git::{FileVersion, Repo};
use crate::load;
use crate::load::dice::check_dice;
use crate::matter::MatterNumber;
use crate::matter::audit::{Later, disagreement, forge_disagreement, undone};
use crate::matter::collected::engine_kind;
use crate::matter::labels::{RESOLVING, WITHDRAWN};
use crate::plan::effect::by_the_resolver;
use crate::record::{Outcome, Record};

/// What an audit found.
#[derive(Debug, Default)]
pub(crate) struct Audited {
    /// Records audited.
    pub(crate) records: usize,
    /// The records (by number) some problem was found with.
    pub(crate) wrong_records: BTreeSet<MatterNumber>,
    /// Problems found, each said as it was found (a record may have
    /// several; a dice log's, or an unrecorded matter's, is no record's).
    pub(crate) problems: usize,
}

impl Audited {
    /// Says `problem`, found with record `number` if it is one's.
    fn found(&mut self, number: Option<MatterNumber>, problem: &str, say: &mut dyn FnMut(&str)) {
        self.problems += 1;
        if let Some(n) = number {
            self.wrong_records.insert(n);
        }
        say(problem);
    }
}

/// Audits `base` of `repo` and the closed matters of the forge `forge`
/// opens (asked for once the records are read), saying each disagreement
/// to `say` as it is found.
pub(crate) fn audit(
    repo: &Repo,
    base: &str,
    forge: &dyn Fn() -> anyhow::Result<Box<dyn Forge>>,
    say: &mut dyn FnMut(&str),
) -> anyhow::Result<Audited> {
    let before = first_appearances(repo, base)?;
    let mut records = Vec::new();
    let mut found = Audited::default();
    let content = load::read_revision(repo, base, &["content"])?;
    for file in &content {
        if !is_own_record(&file.path) {
            continue;
        }
        let record = Record::parse(file).map_err(|d| anyhow::anyhow!("{d}"))?;
        found.records += 1;
        // The rules in force when it was decided: before the merge it
        // records, or before the record was first committed.
        let commit = match &record.merge_commit {
            Some(merge) => repo.first_parent(merge)?,
            None => before.get(&file.path).cloned().flatten(),
        };
        let Some(commit) = commit else {
            let problem = format!(
                "#{} ({}): no commit before it to judge it by",
                record.number, file.path
            );
            found.found(Some(record.number), &problem, say);
            records.push(record);
            continue;
        };
        let game = Game::check(&load::read_revision(repo, &commit, GAME_DIRS)?);
        if let Some(why) = disagreement(&record, &game) {
            let problem = format!("#{} ({}): {why}", record.number, file.path);
            found.found(Some(record.number), &problem, say);
        }
        records.push(record);
    }
    let forge = forge()?;
    for (number, problem) in against_forge(forge.as_ref(), base, &records)? {
        found.found(number, &problem, say);
    }
    for (number, problem) in reverted(repo, base, &records)? {
        found.found(Some(number), &problem, say);
    }
    let dice = check_dice(repo, base, &content)?;
    for problem in dice.problems() {
        found.found(None, problem, say);
    }
    for problem in rolls_the_forge_shows(forge.as_ref(), &dice.read)? {
        found.found(None, &problem, say);
    }
    Ok(found)
}

/// Each roll a matter's status comment says was made (the journal keeps
/// every roll of the matter's log when it is written) that the dice log on
/// the default branch does not hold: a log deleted or cut, even with the
/// history rewritten so that no commit credits the roll, is found by what
/// the forge still shows. One read of a status a matter.
fn rolls_the_forge_shows(
    forge: &dyn Forge,
    logs: &[crate::record::rolls::RollLog],
) -> anyhow::Result<Vec<String>> {
    use crate::record::rolls::{Credited, unlogged};
    let mut matters = forge
        .open_matters()
        .context("listing the forge's open matters")?;
    matters.extend(
        forge
            .every_closed_matter()
            .context("listing the forge's closed matters")?,
    );
    matters.sort_by_key(|m| m.number);
    matters.dedup_by_key(|m| m.number);
    let mut shown = Vec::new();
    for m in &matters {
        let Some(status) = forge
            .status_comment(m.number)
            .with_context(|| format!("reading #{}'s status comment", m.number))?
        else {
            continue;
        };
        let journal = crate::matter::journal::Journal::read(&status.body);
        for (comment, said) in journal.rolled {
            shown.extend(said.into_iter().map(|roll| (m.number, comment, roll)));
        }
    }
    let credited: Vec<Credited<'_>> = shown
        .iter()
        .map(|(matter, comment, roll)| Credited {
            matter: *matter,
            comment: *comment,
            roll,
            from: format!("#{matter}'s status comment"),
        })
        .collect();
    Ok(unlogged(logs, &credited))
}

/// Every closed votable matter on the forge without a record on the
/// default branch, but those their authors withdrew; and every record
/// whose outcome is not what the forge says became of its matter (merged
/// or not, and its labels). Each with the record it is about, if any.
fn against_forge(
    forge: &dyn Forge,
    base: &str,
    records: &[Record],
) -> anyhow::Result<Vec<(Option<MatterNumber>, String)>> {
    let recorded: BTreeMap<MatterNumber, &Record> = records
        .iter()
        .filter(|r| r.source.is_none())
        .map(|r| (r.number, r))
        .collect();
    let mut out = Vec::new();
    let mut closed = forge
        .every_closed_matter()
        .context("listing the forge's closed matters")?;
    closed.sort_by_key(|m| m.number);
    for m in closed {
        if let Some(record) = recorded.get(&m.number) {
            if let Some(why) = forge_disagreement(record, &m) {
                out.push((Some(m.number), format!("#{}: {why}", m.number)));
            }
            continue;
        }
        let labelled = |l: &str| m.labels.iter().any(|x| x.eq_ignore_ascii_case(l));
        let votable = m.kind().and_then(engine_kind).is_some();
        if !votable || labelled(WITHDRAWN) {
            continue;
        }
        let why = if labelled(RESOLVING) {
            "a resolve run stopped before writing it; the next run writes it"
        } else {
            "it was closed without a decision the rules know of (if its author withdrew it, label it `withdrawn`)"
        };
        out.push((
            None,
            format!(
                "#{}: closed on the forge, but {base} has no record of it: {why}",
                m.number
            ),
        ));
    }
    Ok(out)
}

/// Every line an enactment added that the default branch no longer holds,
/// where the commit that took it away was not allowed to: a reverted
/// enactment. Allowed are another matter's enactment, the resolver's own
/// commits, an admin's typo fix, and any change to the roster (admins
/// keep it: joining, leaving, idling).
fn reverted(
    repo: &Repo,
    base: &str,
    records: &[Record],
) -> anyhow::Result<Vec<(MatterNumber, String)>> {
    let merges: BTreeSet<&str> = records
        .iter()
        .filter_map(|r| r.merge_commit.as_deref())
        .collect();
    let history = repo.first_parent_history(base, &[])?;
    let position: BTreeMap<&str, usize> = history
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id.as_str(), i))
        .collect();
    let mut files: BTreeMap<String, Vec<FileVersion>> = BTreeMap::new();
    let mut out = Vec::new();
    let enacted = records
        .iter()
        .filter(|r| r.outcome == Outcome::Enacted && r.source.is_none());
    for r in enacted {
        let Some(merge) = r.merge_commit.as_deref() else {
            continue;
        };
        let (Some(&at), Some(parent)) = (position.get(merge), repo.first_parent(merge)?) else {
            continue;
        };
        for path in repo.changed_paths(&parent, merge)? {
            let top = path.split('/').next().unwrap_or_default();
            if !GAME_DIRS.contains(&top) || path.starts_with("content/matters/") {
                continue;
            }
            if !files.contains_key(&path) {
                files.insert(path.clone(), repo.file_history(base, &path)?);
            }
            let versions = &files[&path];
            let pos = |v: &FileVersion| position.get(v.commit.as_str()).copied().unwrap_or(0);
            let text_at = |limit: usize| {
                versions
                    .iter()
                    .rfind(|v| pos(v) <= limit)
                    .and_then(|v| v.text.as_deref())
                    .unwrap_or_default()
            };
            let (before, after) = (text_at(at.saturating_sub(1)), text_at(at));
            let later: Vec<Later<'_>> = versions
                .iter()
                .filter(|v| pos(v) > at)
                .map(|v| Later {
                    commit: &v.commit,
                    message: &v.message,
                    text: v.text.as_deref(),
                    allowed: path == "state/roster.toml"
                        || merges.contains(v.commit.as_str())
                        || by_the_resolver(&v.message)
                        || v.message.to_lowercase().contains("typo"),
                })
                .collect();
            for (line, v) in undone(before, after, &later) {
                out.push((r.number, format!(
                    "#{}: its change to {path} (`{line}`) is gone from {base}: commit {} (\"{}\") took it away, and no matter decided that",
                    r.number,
                    &v.commit[..v.commit.len().min(8)],
                    v.message.lines().next().unwrap_or_default()
                )));
            }
        }
    }
    Ok(out)
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
