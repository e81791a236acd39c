//! `gitnomic resolve`: plan the run (see [`crate::plan`]) and carry out
//! its effects in order. `--dry-run` prints the same plan and does nothing.
//!
//! Every effect is carried out so that doing it again changes nothing (a
//! merge already made, a record already committed, a label already set),
//! and the plan announces each decision before acting on it. A run stopped
//! after any effect is finished by the next, which makes the same plan.

use std::collections::BTreeMap;
use std::process::ExitCode;

use anyhow::{Context as _, bail};

use super::{EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS, GlobalArgs, open_forge};
use crate::forge::{Forge, ForgeError, HeadSha};
use crate::game::Game;
use crate::git::Repo;
use crate::journal::Journal;
use crate::load::{self, GAME_DIRS, Origin};
use crate::plan::effect::{GAME_FILE, RESOLVING};
use crate::plan::prospect::edit_dynasty_text;
use crate::plan::{Effect, Outcome, Plan, Step};

/// Arguments of `gitnomic resolve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Say what would be done, and do nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Stop after carrying out this many effects, as if the run were
    /// killed there (for tests of what the next run finishes).
    #[arg(long, hide = true, value_name = "N")]
    pub halt_after: Option<usize>,
}

/// Runs `gitnomic resolve`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let now = global.now();
    let forge = open_forge(global, now)?;
    let origin = Origin::Revision {
        repo: global.root.clone(),
        rev: global.base.clone(),
    };
    let files = load::read(&origin, GAME_DIRS).context("cannot read the game")?;
    let game = Game::check(&files);
    if !game.problems.is_empty() {
        bail!(
            "the game on {} has problems; fix them before resolving:\n{}",
            global.base,
            game.problems
        );
    }
    let repo = Repo::open(&global.root)?;
    if !args.dry_run && repo.dirty_on(&global.base) {
        eprintln!(
            "error: the work tree has {} checked out with uncommitted changes; commit or stash them first (resolve commits to {} and would leave them looking like a revert)",
            global.base, global.base
        );
        return Ok(ExitCode::from(EXIT_ERROR));
    }
    let planned = super::live::plan(forge.as_ref(), &game, &global.root, &global.base, now)?;
    let plan = &planned.plan;
    report(plan, args.dry_run);
    if args.dry_run {
        println!("Would do (dry run: nothing done):");
        for step in &plan.steps {
            println!("  {step}");
        }
        return Ok(ExitCode::from(EXIT_OK));
    }
    // Heads force-pushed away stay fetchable for the judging of later
    // pushes; a failure here costs no decision, so it only warns.
    match super::live::pin_missing_heads(forge.as_ref(), &repo, planned.matters.values()) {
        Ok(pinned) => {
            for (number, sha) in pinned {
                println!("Kept #{number}'s earlier head {sha} (refs/gitnomic/pull/{number}/)");
            }
        }
        Err(e) => eprintln!("warning: could not keep the earlier heads of pull requests: {e}"),
    }
    let statuses = planned
        .matters
        .iter()
        .map(|(n, m)| (*n, m.status_body.clone()))
        .collect();
    let mut carrier = Carrier {
        forge: forge.as_ref(),
        statuses,
        merges: BTreeMap::new(),
    };
    if !plan.steps.is_empty() {
        println!("Done:");
    }
    for (i, step) in plan.steps.iter().enumerate() {
        if args.halt_after == Some(i) {
            println!("Halted after {i} effects, as asked.");
            return Ok(ExitCode::from(EXIT_OK));
        }
        match carrier.carry(step) {
            Ok(true) => println!("  {step}"),
            Ok(false) => println!("  {step} (already done)"),
            Err(Carried::Refused(why)) => {
                println!("  {step}: refused: {why}");
                carrier.unannounce(step.number, &why)?;
                println!(
                    "Stopped: #{} could not be carried out; the next run decides it again.",
                    step.number
                );
                return Ok(ExitCode::from(EXIT_PROBLEMS));
            }
            Err(Carried::Overtaken) => {
                println!(
                    "  {step}: not done: another run wrote #{}'s status since this one read it",
                    step.number
                );
                println!("Stopped: the next run plans again from what is there now.");
                return Ok(ExitCode::from(EXIT_OK));
            }
            Err(Carried::Failed(e)) => {
                return Err(e).with_context(|| format!("carrying out: {step}"));
            }
        }
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Prints the plan's line for each matter, with its reasons.
fn report(plan: &Plan, dry_run: bool) {
    println!(
        "At {}: {} active, quorum {}.",
        plan.now, plan.active, plan.quorum
    );
    for line in &plan.lines {
        match (dry_run, &line.outcome) {
            (true, Outcome::Enacted | Outcome::Failed | Outcome::Merged | Outcome::Closed(_)) => {
                println!("{line} (would be, in a real run)");
            }
            _ => println!("{line}"),
        }
        for reason in &line.reasons {
            println!("    {reason}");
        }
    }
}

/// Why an effect was not carried out.
enum Carried {
    /// The forge refused in a way a later run may get past (the head moved).
    Refused(String),
    /// Another run wrote the matter's status journal since this run read
    /// it: this run's plan is stale, so it stops, and the next plans again.
    Overtaken,
    /// The forge failed: the run stops, and the next finishes it.
    Failed(anyhow::Error),
}

impl From<ForgeError> for Carried {
    fn from(e: ForgeError) -> Self {
        Carried::Failed(e.into())
    }
}

/// Carries out effects, each so that doing it twice is doing it once.
struct Carrier<'a> {
    forge: &'a dyn Forge,
    /// Each matter's status comment as it now is.
    statuses: BTreeMap<u64, Option<String>>,
    /// Merge commits made in this run.
    merges: BTreeMap<u64, HeadSha>,
}

impl Carrier<'_> {
    /// Carries out one effect: `Ok(false)` when it had already been done.
    fn carry(&mut self, step: &Step) -> Result<bool, Carried> {
        let n = step.number;
        match &step.effect {
            Effect::Status { body } => return self.status(n, body),
            Effect::Labels { add, remove } => self.forge.set_labels(n, add, remove)?,
            Effect::Merge { head, message } => {
                let (merged, now) = self.merge(n, head, message)?;
                self.merges.insert(n, merged);
                return Ok(now);
            }
            Effect::Close => match self.forge.close(n) {
                Ok(()) => {}
                Err(ForgeError::NotOpen(_)) => return Ok(false),
                Err(e) => return Err(e.into()),
            },
            Effect::Dynasty { edits, message } => {
                let text = self
                    .forge
                    .read_file(GAME_FILE)?
                    .ok_or_else(|| Carried::Failed(anyhow::anyhow!("{GAME_FILE} is missing")))?;
                let edited = edit_dynasty_text(&text, edits)
                    .map_err(|why| Carried::Failed(anyhow::anyhow!(why)))?;
                if edited == text {
                    return Ok(false);
                }
                self.forge.commit_file(GAME_FILE, &edited, message)?;
            }
            Effect::State { sets, message } => {
                use crate::gamestate::{act::apply_to, sets::files_of};
                for path in files_of(sets) {
                    let text = self.forge.read_file(path)?.unwrap_or_default();
                    let edited = apply_to(path, &text, sets)
                        .map_err(|why| Carried::Failed(anyhow::anyhow!(why)))?;
                    if edited != text {
                        self.forge.commit_file(path, &edited, message)?;
                    }
                }
            }
            Effect::Content {
                path,
                text,
                message,
            } => {
                if self.forge.read_file(path)?.as_deref() != Some(text.as_str()) {
                    self.forge.commit_file(path, text, message)?;
                }
            }
            Effect::Record(record) => {
                let path = record.path();
                // A record is written once: one already there is this one,
                // written by a run that stopped before labelling.
                if self.forge.read_file(&path)?.is_some() {
                    return Ok(false);
                }
                let mut record = record.as_ref().clone();
                record.merge_commit = self.merge_commit(n, record.head.is_some())?;
                let message = format!("Record #{n}: {}", record.status());
                self.forge.commit_file(&path, &record.render(), &message)?;
            }
        }
        Ok(true)
    }

    /// Posts a status comment unless it already reads so (then `false`),
    /// and only over the journal this run planned from: one another run
    /// wrote since (a push a check noted, a decision of another resolve
    /// run) is not this run's to overwrite, and stops it.
    fn status(&mut self, n: u64, body: &str) -> Result<bool, Carried> {
        let current = self.statuses.entry(n).or_default();
        if current.as_deref() == Some(body) {
            return Ok(false);
        }
        if !self.forge.put_status_over(n, current.as_deref(), body)? {
            return Err(Carried::Overtaken);
        }
        *current = Some(body.to_string());
        Ok(true)
    }

    /// Merges at `head`; a pull request already merged (by a run that
    /// stopped before recording it) counts as merged.
    fn merge(&self, n: u64, head: &HeadSha, message: &str) -> Result<(HeadSha, bool), Carried> {
        match self.forge.merge(n, head, message) {
            Ok(commit) => Ok((commit, true)),
            Err(ForgeError::NotOpen(_)) => match self.forge.matter(n)?.merge_commit {
                Some(commit) => Ok((commit, false)),
                None => Err(Carried::Refused(format!(
                    "#{n} was closed without being merged"
                ))),
            },
            Err(e @ (ForgeError::StaleHead { .. } | ForgeError::NotMergeable { .. })) => {
                Err(Carried::Refused(e.to_string()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The merge commit of `n`: made in this run, or found on the forge.
    fn merge_commit(&self, n: u64, pull: bool) -> Result<Option<String>, ForgeError> {
        if let Some(commit) = self.merges.get(&n) {
            return Ok(Some(commit.0.clone()));
        }
        if !pull {
            return Ok(None);
        }
        Ok(self.forge.matter(n)?.merge_commit.map(|c| c.0))
    }

    /// Takes back the announcement of a decision the forge refused: the
    /// status says why, and the next run decides the matter again.
    fn unannounce(&mut self, n: u64, why: &str) -> anyhow::Result<()> {
        let mut journal = self
            .statuses
            .get(&n)
            .cloned()
            .flatten()
            .map(|body| Journal::read(&body))
            .unwrap_or_default();
        journal.resolution = None;
        let text = format!(
            "### #{n}: decided, but not done\n\n{why}\n\nThe next run will decide it again."
        );
        match self.status(n, &journal.render(&text)) {
            Ok(_) => {}
            // Another run wrote the status since: what it wrote stands.
            Err(Carried::Overtaken) => return Ok(()),
            Err(Carried::Failed(e)) => return Err(e),
            Err(Carried::Refused(why)) => bail!(why),
        }
        self.forge.set_labels(n, &[], &[RESOLVING])?;
        Ok(())
    }
}
