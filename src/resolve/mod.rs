//! EDGE: one resolve run, from the forge to the forge: collect the matters
//! and plan ([`live`]), then carry the plan's effects out ([`carry`]).
//!
//! The run is built so that a process killed at any instant leaves a state
//! the next run reads and finishes, and so that nothing of the player's is
//! lost:
//!
//! - one writing run at a time, and what a killed one left (git's lock
//!   files, temporary files) removed and named before anything is read
//!   ([`guard`]);
//! - the default branch moves only by a compare-and-swap of its reference,
//!   from commits built in the object database ([`crate::git`]); a merge
//!   already on the branch is taken as made;
//! - the checkout is not the game's state: a clean one is brought forward
//!   after the branch moves (also at the start, for a run killed before it
//!   could), one holding the player's own edits is refused before anything
//!   is done, and no file of the player's is overwritten;
//! - the plan is reported before any effect, so a reader that goes away
//!   cannot stop the run half-way.

mod carry;
pub(crate) mod collect;
pub(crate) mod context;
pub(crate) mod door;
pub(crate) mod driver;
pub(crate) mod guard;
pub(crate) mod propose;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

pub(crate) use context::{Context, ContextError};
pub(crate) use guard::Busy;

use crate::forge::{Forge, HeadSha};
use crate::git::{Forward, Repo, WorkTree};
use crate::matter::MatterNumber;
use crate::plan::{Effect, Fate, Plan, Step};
use crate::time::Timestamp;
use carry::{Carried, Carrier};

/// What a run is asked to do.
#[derive(Debug, Clone)]
pub(crate) struct Request<'a> {
    /// The game's repository (its work tree or its git directory).
    pub root: &'a Path,
    /// The default branch.
    pub base: &'a str,
    /// The moment the run acts at.
    pub now: Timestamp,
    /// Plan, report, and do nothing.
    pub dry_run: bool,
    /// Stop after this many effects, as if killed there (for tests).
    pub halt_after: Option<usize>,
}

/// What a run reports as it goes, in order (the CLI prints these).
#[derive(Debug)]
pub(crate) enum RunNotice<'a> {
    /// A killed run's process, and the files it left, removed first.
    Cleared {
        /// The killed run's process id (0: it died before writing it).
        pid: u32,
        /// The files removed.
        files: &'a [PathBuf],
    },
    /// For a dry run: what a real run would meet first.
    Found(&'a str),
    /// The checkout of the default branch was brought up to it.
    BroughtForward {
        /// The commit it held.
        from: &'a str,
        /// How many files were written or removed.
        files: usize,
    },
    /// For a dry run: the checkout is behind and a real run brings it forward.
    WouldBringForward {
        /// The commit it holds.
        from: &'a str,
    },
    /// The plan, before anything is done.
    Planned(&'a Plan),
    /// An earlier head of a pull request, kept reachable.
    Kept(MatterNumber, &'a HeadSha),
    /// Earlier heads could not be kept (no decision rests on it).
    NotKept(&'a str),
    /// An effect carried out (`true`), or found done already (`false`).
    Carried(&'a Step, bool),
    /// The forge refused an effect; its decision was taken back.
    Refused(&'a Step, &'a str),
    /// Another run wrote the matter's status since this one read it.
    Overtaken(&'a Step),
    /// Stopped after this many effects, as asked.
    Halted(usize),
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Ended {
    /// All planned was done (a dry run: planned). `held` are matters the
    /// rules decided but the run could not carry out (their status says
    /// why); they wait for a later run.
    Done { held: Vec<MatterNumber> },
    /// The forge refused an effect on this matter; nothing is half-done,
    /// and the next run decides it again.
    Refused(MatterNumber),
    /// The forge refuses to merge this matter: it is held, labelled so,
    /// and later runs hold it without asking again until an admin acts.
    Held(MatterNumber),
    /// Another run wrote a status this run planned from; the next run
    /// plans again from what is there now.
    Overtaken,
    /// Stopped as asked.
    Halted,
}

/// Why a run did not go through.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ResolveError {
    /// The game on the default branch does not check.
    #[error("the game on {base} has problems; fix them before resolving:\n{problems}")]
    Game {
        /// The default branch.
        base: String,
        /// What `check` says.
        problems: String,
    },
    /// Another run is writing, or git's lock files are in the way.
    #[error(transparent)]
    Busy(#[from] Busy),
    /// The checkout of the default branch holds the player's own changes.
    #[error(
        "the checkout of {base} holds changes of your own that no commit of {base} had{}: {}\nresolve moves {base} and brings a clean checkout along; it will not mix your changes into that, and nothing was done.\nPut them on a branch of their own (`git switch -c my-change`, commit, then `gitnomic play open --branch my-change` proposes it), or stash them (`git stash`, resolve, then `git stash pop`).",
        if *.staged { " (staged in the index)" } else { "" },
        .paths.join(", ")
    )]
    Edited {
        /// The default branch.
        base: String,
        /// The files changed.
        paths: Vec<String>,
        /// Whether some changes are staged.
        staged: bool,
    },
    /// Files of the player's stand where the default branch has (or will
    /// have) files.
    #[error(
        "{base} {} files where your work tree has files of your own that git does not track: {}\n{}Move them away and run `gitnomic resolve` again.",
        if *.moved { "now has" } else { "would get" },
        .paths.join(", "),
        if *.moved { "Your checkout stays as it was, so nothing of yours is overwritten; the next run brings it up to the branch. " } else { "Nothing was done. " }
    )]
    InTheWay {
        /// The default branch.
        base: String,
        /// The player's files.
        paths: Vec<String>,
        /// Whether the branch has moved (this run's effects are done).
        moved: bool,
    },
    /// Anything else: the forge, git, the files.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// Runs `resolve` on `forge`, reporting to `report` as it goes.
pub(crate) fn run(
    forge: &dyn Forge,
    request: &Request<'_>,
    report: &mut dyn FnMut(RunNotice<'_>),
) -> Result<Ended, ResolveError> {
    let base = request.base;
    let repo = Repo::open(request.root).context("cannot open the game's repository")?;
    let _guard = if request.dry_run {
        if let Some(found) = guard::inspect(repo.git_dir()) {
            report(RunNotice::Found(&found));
        }
        None
    } else {
        let taken = guard::take(repo.git_dir())?;
        if let Some((pid, files)) = &taken.cleared {
            report(RunNotice::Cleared { pid: *pid, files });
        }
        Some(taken.guard)
    };
    settle_checkout(&repo, request, report)?;
    let mut cx = game_on(repo, request)?;
    let (game, repo, trial) = cx.planning().context("cannot open the game's repository")?;
    let planned = driver::plan(forge, game, repo, trial, request.now)?;
    let plan = &planned.plan;
    report(RunNotice::Planned(plan));
    if request.dry_run {
        return Ok(Ended::Done { held: held(plan) });
    }
    let in_the_way = repo
        .untracked_at(base, &written_paths(repo, base, &plan.steps)?)
        .context("reading the work tree")?;
    if !in_the_way.is_empty() {
        return Err(ResolveError::InTheWay {
            base: base.to_string(),
            paths: in_the_way,
            moved: false,
        });
    }
    // Heads force-pushed away stay fetchable for the judging of later
    // pushes; a failure here costs no decision, so it is only reported.
    match driver::pin_missing_heads(forge, repo, planned.matters.values()) {
        Ok(pinned) => {
            for (number, sha) in &pinned {
                report(RunNotice::Kept(*number, sha));
            }
        }
        Err(e) => report(RunNotice::NotKept(&e.to_string())),
    }
    let statuses = planned
        .matters
        .iter()
        .map(|(n, m)| (*n, m.status_body.clone()))
        .collect();
    let carried = carry_out(Carrier::new(forge, statuses), plan, request, report);
    // The checkout follows what was done, however the run ended.
    let forward = repo
        .bring_forward(base)
        .context("bringing the checkout forward");
    let ended = carried?;
    match forward? {
        Forward::Moved { .. }
        | Forward::Nothing
        | Forward::Refused(WorkTree::Elsewhere | WorkTree::Current) => {}
        Forward::Refused(WorkTree::Behind { in_the_way, .. }) => {
            return Err(ResolveError::InTheWay {
                base: base.to_string(),
                paths: in_the_way,
                moved: true,
            });
        }
        Forward::Refused(WorkTree::Edited { paths, .. }) => {
            return Err(anyhow::anyhow!(
                "the run is done, but the checkout of {base} was edited while it went on ({}), so it was left behind {base} as it is; once those edits are on a branch of their own or undone, the next run brings it forward",
                paths.join(", ")
            )
            .into());
        }
    }
    Ok(ended)
}

/// The run's context: the game on the default branch, checked. Trial
/// merges write to memory through a handle of their own (see `GitTrial`),
/// so nothing planned can reach the repository on disk.
fn game_on(repo: Repo, request: &Request<'_>) -> Result<Context, ResolveError> {
    let cx = Context::on(repo, request.root, request.base).map_err(|e| match e {
        ContextError::Read(e) => anyhow::Error::new(e).context("cannot read the game"),
        ContextError::Repository(e) => {
            anyhow::Error::new(e).context("cannot open the game's repository")
        }
    })?;
    if !cx.game.problems.is_empty() {
        return Err(ResolveError::Game {
            base: request.base.to_string(),
            problems: cx.game.problems.to_string(),
        });
    }
    Ok(cx)
}

/// Refuses a checkout of the default branch holding the player's own
/// changes, and brings one a killed run left behind up to the branch.
fn settle_checkout(
    repo: &Repo,
    request: &Request<'_>,
    report: &mut dyn FnMut(RunNotice<'_>),
) -> Result<(), ResolveError> {
    let base = request.base;
    match repo.work_tree(base).context("reading the work tree")? {
        WorkTree::Elsewhere | WorkTree::Current => Ok(()),
        WorkTree::Edited { paths, staged } => {
            let refusal = ResolveError::Edited {
                base: base.to_string(),
                paths,
                staged,
            };
            if !request.dry_run {
                return Err(refusal);
            }
            // A dry run touches nothing, so it plans; it says what a real
            // run would stop at.
            let refusal = refusal.to_string();
            let first = refusal.lines().next().unwrap_or_default();
            report(RunNotice::Found(&format!("a real run stops here: {first}")));
            Ok(())
        }
        WorkTree::Behind { from, .. } if request.dry_run => {
            report(RunNotice::WouldBringForward { from: &from });
            Ok(())
        }
        WorkTree::Behind { .. } => match repo
            .bring_forward(base)
            .context("bringing the checkout forward")?
        {
            Forward::Moved { from, files } => {
                report(RunNotice::BroughtForward { from: &from, files });
                Ok(())
            }
            Forward::Nothing | Forward::Refused(WorkTree::Elsewhere | WorkTree::Current) => Ok(()),
            Forward::Refused(WorkTree::Behind { in_the_way, .. }) => Err(ResolveError::InTheWay {
                base: base.to_string(),
                paths: in_the_way,
                moved: true,
            }),
            Forward::Refused(WorkTree::Edited { paths, staged }) => Err(ResolveError::Edited {
                base: base.to_string(),
                paths,
                staged,
            }),
        },
    }
}

/// The matters the plan holds (decided, but not to be carried out).
fn held(plan: &Plan) -> Vec<MatterNumber> {
    plan.lines
        .iter()
        .filter(|l| matches!(l.fate, Fate::Held(_)))
        .map(|l| l.number)
        .collect()
}

/// The paths of the default branch the plan's effects write: what a
/// merge brings in, records, dice logs, state files.
fn written_paths(repo: &Repo, base: &str, steps: &[Step]) -> anyhow::Result<Vec<String>> {
    let mut paths = Vec::new();
    for step in steps {
        match &step.effect {
            Effect::Merge { head, .. } => paths.extend(
                repo.changed_paths(base, &head.0)
                    .with_context(|| format!("the files #{} changes", step.number))?,
            ),
            Effect::Record(record) => paths.push(record.path()),
            Effect::Content { path, .. } => paths.push(path.clone()),
            Effect::State { sets, .. } => paths.extend(
                crate::gamestate::set_value::files_of(sets)
                    .into_iter()
                    .map(str::to_string),
            ),
            Effect::Dynasty { .. } => paths.push(crate::plan::effect::GAME_FILE.to_string()),
            Effect::Status { .. } | Effect::Labels { .. } | Effect::Close => {}
        }
    }
    paths.sort();
    paths.dedup();
    Ok(paths)
}

/// Carries out the plan's effects in order, stopping where the forge
/// refuses, another run overtook this one, or the request says to halt.
fn carry_out(
    mut carrier: Carrier<'_>,
    plan: &Plan,
    request: &Request<'_>,
    report: &mut dyn FnMut(RunNotice<'_>),
) -> Result<Ended, ResolveError> {
    for (i, step) in plan.steps.iter().enumerate() {
        if request.halt_after == Some(i) {
            report(RunNotice::Halted(i));
            return Ok(Ended::Halted);
        }
        match carrier.carry(step) {
            Ok(now) => report(RunNotice::Carried(step, now)),
            Err(Carried::Refused(why)) => {
                report(RunNotice::Refused(step, &why));
                carrier.unannounce(step.number, &why)?;
                return Ok(Ended::Refused(step.number));
            }
            Err(Carried::Unmergeable(reason)) => {
                let said = format!("#{} cannot be merged: {reason}", step.number);
                report(RunNotice::Refused(step, &said));
                let Effect::Merge { head, .. } = &step.effect else {
                    return Err(anyhow::anyhow!("{step}: refused: {reason}").into());
                };
                carrier.hold_refused(step.number, head, &reason)?;
                return Ok(Ended::Held(step.number));
            }
            Err(Carried::Overtaken) => {
                report(RunNotice::Overtaken(step));
                return Ok(Ended::Overtaken);
            }
            Err(Carried::Failed(e)) => {
                return Err(e.context(format!("carrying out: {step}")).into());
            }
        }
    }
    Ok(Ended::Done { held: held(plan) })
}

#[cfg(test)]
mod tests;
