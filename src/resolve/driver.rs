//! The plan's driver: the open matters of a forge collected and planned
//! at *now* (their live tallies), with the votes each push voided set
//! aside. `resolve` carries the plan out; `play list` and the site's
//! pending page show its tallies, so all of them say the same thing about
//! every matter.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Context as _;

use crate::forge::{Forge, ForgeError, HeadSha, MatterInfo};
use crate::game::GAME_DIRS;
use crate::game::Game;
use crate::git::Repo;
use crate::git::trial::GitTrial;
use crate::load;
use crate::matter::collected::{Collected, engine_kind};
use crate::matter::{Kind, Login, MatterNumber};
use crate::plan::{self, Inputs, Plan, Prospect};
use crate::resolve::collect::{self, OnRoster, TypoJudge};
use crate::ruleset::diff::typo_fix_size;
use crate::site;
use crate::source::SourceFile;
use crate::time::Timestamp;

/// A plan, with the matters it was made from.
pub(crate) struct Planned {
    /// What the run will do.
    pub(crate) plan: Plan,
    /// Every matter collected (open and unfinished), by number.
    pub(crate) matters: BTreeMap<MatterNumber, Collected>,
}

/// Collects the matters of `forge` and plans a resolve run at `now` for
/// `game`, the game on branch `base` of the repository at `root` (which
/// holds the pull requests' commits, to merge them in memory and to judge
/// their pushes).
///
/// A thread the forge took from a copy kept between runs (GitHub's thread
/// cache, which trusts `updated_at` only so far) may be stale: a matter
/// the plan decides or acts on whose thread was such a copy is read afresh
/// and everything planned again, until every matter acted on was read
/// from the forge itself. So no decision rests on a copy; at worst a
/// change the copy missed shows a run or a few hours late on a matter
/// nothing happens to.
///
/// `repo` is the game's repository, `trial` the in-memory handle on it
/// that trial merges write to (against its default branch).
pub(crate) fn plan(
    forge: &dyn Forge,
    game: &Game,
    repo: &Repo,
    trial: &mut GitTrial,
    now: Timestamp,
) -> anyhow::Result<Planned> {
    let open = forge.open_matters()?;
    let mut closed = None;
    loop {
        let planned = plan_once(forge, game, (repo, &mut *trial), now, (&open, &mut closed))?;
        let mut stale: Vec<MatterNumber> = planned
            .plan
            .steps
            .iter()
            .map(|s| s.number)
            .filter(|n| forge.thread_was_kept(*n))
            .collect();
        stale.sort_unstable();
        stale.dedup();
        if stale.is_empty() {
            return Ok(planned);
        }
        for number in stale {
            tracing::info!("#{number}: about to act on a kept thread; reading it afresh");
            forge.read_thread_afresh(number);
        }
    }
}

/// One plan from the matters listed open, and those closed still
/// labelled `resolving` (listed once, when first needed).
fn plan_once(
    forge: &dyn Forge,
    game: &Game,
    (repo, trial): (&Repo, &mut GitTrial),
    now: Timestamp,
    (listed, closed): (&[MatterInfo], &mut Option<Vec<MatterInfo>>),
) -> anyhow::Result<Planned> {
    let params = game
        .params
        .as_ref()
        .context("the game's parameters are not valid")?;
    let state = game
        .state
        .as_ref()
        .context("the game's state/ cannot be read")?;
    let on_roster = |login: &Login| state.player_by_login(&login.0).is_some();
    let rules = (params, &on_roster as &OnRoster<'_>);
    let judge = |old: &HeadSha, new: &HeadSha| typo_judge(repo, forge, old, new);
    let mut open = Vec::new();
    let mut unvoted = Vec::new();
    let mut unread = Vec::new();
    for info in listed.iter().cloned() {
        let Some(kind) = info.kind().filter(|_| !info.draft) else {
            continue;
        };
        let number = info.number;
        let matter = match collect::collect_one(forge, info, rules, &judge, now) {
            Ok(matter) => matter,
            // A thread longer than a run reads costs its own matter this
            // run, never the others'.
            Err(e @ ForgeError::TooLarge { limit, .. }) => {
                tracing::warn!("#{number}: not read this run: {e}");
                unread.push(unread_line(number, kind, limit, e.to_string()));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        match engine_kind(kind) {
            Some(_) => open.push(matter),
            None => unvoted.push(matter),
        }
    }
    if closed.is_none() {
        *closed = Some(forge.closed_matters(Some(crate::matter::labels::RESOLVING), None)?);
    }
    let closed = closed.as_deref().unwrap_or_default();
    let unfinished = unfinished(forge, closed, rules, &judge, now)?;
    // A plan made again (a thread read afresh) starts from the branch as
    // it is, not from the merges the first one made in memory.
    trial.restart();
    let branch = trial.branch().to_string();
    let inputs = Inputs {
        base: Prospect {
            tree: trial.base_tree()?,
            game: game.clone(),
        },
        branch: &branch,
        open: &open,
        unfinished: &unfinished,
        unvoted: &unvoted,
        now,
    };
    let mut plan = plan::plan(inputs, trial)?;
    plan.lines.extend(unread);
    let matters = open
        .into_iter()
        .chain(unfinished)
        .chain(unvoted)
        .map(|m| (m.info.number, m))
        .collect();
    Ok(Planned { plan, matters })
}

/// The plan's line for a matter whose thread was not read, because a
/// reply went over `limit` bytes (`error` says which): it waits.
fn unread_line(number: MatterNumber, kind: Kind, limit: u64, error: String) -> crate::plan::Line {
    let size = match limit % (1 << 20) {
        0 => format!("{} MiB", limit >> 20),
        _ => format!("{} KiB", limit.div_ceil(1 << 10)),
    };
    crate::plan::Line {
        number,
        kind,
        decision: crate::plan::Ruling::Rules(crate::engine::Decision::Wait),
        fate: crate::plan::Fate::Unread(format!(
            "its thread is longer than the {size} a run reads in one reply"
        )),
        reasons: vec![error],
    }
}

/// Closed matters still labelled `resolving` whose journal holds a
/// decision: what a run that stopped half-way left to finish.
fn unfinished(
    forge: &dyn Forge,
    closed: &[MatterInfo],
    rules: (&crate::engine::Params, &OnRoster<'_>),
    judge: &TypoJudge<'_>,
    now: Timestamp,
) -> anyhow::Result<Vec<Collected>> {
    let mut found = Vec::new();
    for info in closed.iter().cloned() {
        if info.kind().is_none() {
            continue;
        }
        let matter = collect::collect_one(forge, info, rules, judge, now)?;
        if matter.journal.resolution.is_some() {
            found.push(matter);
        }
    }
    Ok(found)
}

/// The moment of the last change the pending page shows: the newest of
/// the default branch's tip and each open matter's opening, last change
/// on the forge and comments (made or edited).
fn last_change<'a>(
    tip: Option<Timestamp>,
    matters: impl Iterator<Item = &'a crate::matter::collected::Collected>,
) -> Option<Timestamp> {
    let mut last = tip;
    for m in matters {
        let times = [Some(m.info.opened), m.info.updated]
            .into_iter()
            .chain(
                m.comments
                    .values()
                    .flat_map(|c| [Some(c.created), c.edited]),
            )
            .flatten();
        last = last.into_iter().chain(times).max();
    }
    last
}

/// The live tallies of `forge`'s open matters at `now`, as the site's
/// pending page shows them: each matter's card with its tally, the
/// change it proposes, who has not voted and what their vote would do,
/// the open actions, and what will be closed as not a matter.
pub(crate) fn pending(
    forge: &dyn Forge,
    game: &Game,
    root: &Path,
    base: &str,
    now: Timestamp,
    say: &dyn Fn(&str),
) -> anyhow::Result<site::Pending> {
    let repo = Repo::open(root)?;
    let mut trial = GitTrial::open(root, base)?;
    let planned = plan(forge, game, &repo, &mut trial, now)?;
    let run = planned.plan.tallies();
    let state = game
        .state
        .as_ref()
        .context("the game's state/ cannot be read")?;
    let author = |login: &str| {
        crate::matter::collected::player_name(state, &crate::forge::Login(login.to_string())).0
    };
    let active = crate::matter::status::active_players(state, now);
    let change = |m: &crate::matter::collected::Collected| {
        m.info
            .head
            .as_ref()
            .and_then(|head| proposed_change(&trial, head))
            .unwrap_or_default()
    };
    let views = site::pending::views(
        &run,
        &|n| planned.matters.get(&n).cloned(),
        &author,
        &active,
        &change,
    );
    let mut views = views;
    views.actions = site::pending::actions(planned.matters.values(), &author);
    // The page is as of the last change it shows, not of the build: a
    // build that finds nothing new makes the same pages, and the workflow
    // publishes nothing (see docs/costs.md).
    let last = last_change(repo.commit_time(base).ok(), planned.matters.values());
    if let Some(at) = last {
        views.as_of = Some(crate::matter::status::when(at));
        views.as_of_iso = Some(at.to_string());
    }
    if let Some(params) = &game.params {
        let matters = run
            .decisions
            .iter()
            .filter_map(|d| planned.matters.get(&d.number)?.engine_matter(state))
            .collect();
        let snapshot = crate::matter::collected::snapshot(state, params, matters);
        let voters = |id: MatterNumber| {
            views
                .matters
                .iter()
                .find(|m| m.number == id)
                .map(|m| m.not_voted.clone())
                .unwrap_or_default()
        };
        let mut what_if = site::ifvote::if_votes(&snapshot, now, &voters);
        for m in &mut views.matters {
            m.if_votes = what_if.remove(&m.number).unwrap_or_default();
        }
    }
    // What the next run will close, and what it will hold, as `play list`
    // and `resolve` say it.
    for line in &planned.plan.lines {
        match &line.fate {
            crate::plan::Fate::Closed(why) => views.closing.push(site::ClosingView {
                number: line.number,
                kind: line.kind.to_string(),
                title: planned
                    .matters
                    .get(&line.number)
                    .map(|m| m.info.title.clone())
                    .unwrap_or_default(),
                why: why.clone(),
            }),
            crate::plan::Fate::Held(why) => {
                if let Some(m) = views.matters.iter_mut().find(|m| m.number == line.number) {
                    m.next = crate::matter::status::capitalised(&crate::matter::status::held(why));
                }
            }
            crate::plan::Fate::Flawed(why) => {
                if let Some(m) = views.matters.iter_mut().find(|m| m.number == line.number) {
                    let flaw =
                        crate::matter::status::capitalised(&crate::matter::status::flawed(why));
                    m.next = if m.next.is_empty() {
                        flaw
                    } else {
                        format!("{}. {flaw}", m.next.trim_end_matches('.'))
                    };
                }
            }
            crate::plan::Fate::Refused(why) => {
                if let Some(m) = views.matters.iter_mut().find(|m| m.number == line.number) {
                    m.next =
                        crate::matter::status::capitalised(&crate::matter::status::refused(why));
                }
            }
            _ => {}
        }
    }
    let count = i64::try_from(views.matters.len()).unwrap_or(i64::MAX);
    say(&format!(
        "tallied {} at {now}",
        crate::matter::status::plural(count, "pending matter", "pending matters")
    ));
    Ok(views)
}

/// What the branch at `head` changes since it forked from the base
/// branch, as a pull request's diff shows it; `None` when the checkout
/// lacks the head (a forge's branch not fetched: the card then shows no
/// change rather than a wrong one).
fn proposed_change(
    trial: &GitTrial,
    head: &crate::matter::HeadSha,
) -> Option<site::pending::ProposedChange> {
    const DIRS: &[&str] = &["rules", "state"];
    let fork = trial.fork_tree(head, None).ok()?;
    let before = load::read_revision(trial.repo(), &fork.0, DIRS).ok()?;
    let after = load::read_revision(trial.repo(), &head.0, DIRS).ok()?;
    Some(site::pending::proposed_change(&before, &after))
}

/// How many characters a push changed, if it was only a typo fix: each
/// head read from the checkout, or through the forge when the checkout
/// lacks it (a head force-pushed away before a resolve run pinned it). A
/// head found nowhere cannot be shown to be a fix (`None`); a forge that
/// fails is an error, so nothing is judged on a failure.
pub(crate) fn typo_judge(
    repo: &Repo,
    forge: &dyn Forge,
    old: &HeadSha,
    new: &HeadSha,
) -> Result<Option<usize>, ForgeError> {
    let (Some(old), Some(new)) = (head_files(repo, forge, old)?, head_files(repo, forge, new)?)
    else {
        return Ok(None);
    };
    let defined = Game::check(&old).defined_words();
    Ok(typo_fix_size(&old, &new, &defined))
}

/// The game files of a head, from the checkout or else from the forge; a
/// blob the checkout holds (most are: a push changes few files) is read
/// from it, so the forge is asked for the tree and the changed files only.
fn head_files(
    repo: &Repo,
    forge: &dyn Forge,
    sha: &HeadSha,
) -> Result<Option<Vec<SourceFile>>, ForgeError> {
    if let Ok(files) = load::read_revision(repo, &sha.0, GAME_DIRS) {
        return Ok(Some(files));
    }
    let Some(tree) = forge.files_of_commit(sha)? else {
        return Ok(None);
    };
    let mut files = Vec::new();
    for (path, id) in tree {
        let top = path.split('/').next().unwrap_or_default();
        if !GAME_DIRS.contains(&top) || !crate::game::is_game_file(&path) {
            continue;
        }
        let bytes = match repo.blob(&id) {
            Ok(bytes) => bytes,
            Err(_) => match forge.blob(&id)? {
                Some(bytes) => bytes,
                None => return Ok(None),
            },
        };
        let Ok(text) = String::from_utf8(bytes) else {
            return Ok(None);
        };
        files.push(SourceFile::new(path, text));
    }
    Ok(Some(files))
}

/// Pins every head the journals of `matters` name that the checkout at
/// `repo` lacks (force-pushed away: an ordinary push keeps the old head
/// in the new one's history), so the next checkout fetches it and a later
/// push can still be judged against it. Returns the heads pinned.
pub(crate) fn pin_missing_heads<'m>(
    forge: &dyn Forge,
    repo: &Repo,
    matters: impl IntoIterator<Item = &'m Collected>,
) -> Result<Vec<(MatterNumber, HeadSha)>, ForgeError> {
    let mut pinned = Vec::new();
    for matter in matters {
        if matter.info.head.is_none() {
            continue;
        }
        for head in &matter.journal.heads {
            if repo.commit_id(&head.sha.0).is_ok() {
                continue;
            }
            if forge.pin_head(matter.info.number, &head.sha)? {
                pinned.push((matter.info.number, head.sha.clone()));
            } else {
                tracing::warn!(
                    "#{}: the head {} is gone from the forge and cannot be kept",
                    matter.info.number,
                    head.sha
                );
            }
        }
    }
    Ok(pinned)
}
