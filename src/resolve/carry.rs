//! Carrying out a plan's effects, each so that doing it twice is doing it
//! once: a status posted only where it reads otherwise, labels as sets, a
//! merge answered "not open" taken as done if the pull request was merged,
//! a record never rewritten, a file committed only if it changes.

use std::collections::BTreeMap;

use anyhow::bail;

use crate::forge::{Forge, ForgeError, HeadSha};
use crate::matter::MatterNumber;
use crate::matter::journal::{Journal, Refusal};
use crate::matter::labels::{HELD, RESOLVING};
use crate::plan::effect::GAME_FILE;
use crate::plan::prospect::edit_dynasty_text;
use crate::plan::{Effect, Step};

/// Why an effect was not carried out.
pub(crate) enum Carried {
    /// The forge refused in a way a later run may get past (the head moved).
    Refused(String),
    /// The forge refuses the merge itself (branch protection, a merge
    /// queue): asking again changes nothing until an admin acts.
    Unmergeable(String),
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
pub(crate) struct Carrier<'a> {
    forge: &'a dyn Forge,
    /// Each matter's status comment as it now is.
    statuses: BTreeMap<MatterNumber, Option<String>>,
    /// Merge commits made in this run.
    merges: BTreeMap<MatterNumber, HeadSha>,
}

impl<'a> Carrier<'a> {
    /// A carrier writing to `forge`, which holds the status comments
    /// `statuses` (by matter: as the plan was made from them).
    pub(crate) fn new(
        forge: &'a dyn Forge,
        statuses: BTreeMap<MatterNumber, Option<String>>,
    ) -> Self {
        Carrier {
            forge,
            statuses,
            merges: BTreeMap::new(),
        }
    }

    /// Carries out one effect: `Ok(false)` when it had already been done.
    pub(crate) fn carry(&mut self, step: &Step) -> Result<bool, Carried> {
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
                use crate::gamestate::{set_value::files_of, variables::apply_to};
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
    fn status(&mut self, n: MatterNumber, body: &str) -> Result<bool, Carried> {
        let current = self.statuses.entry(n).or_default();
        if current.as_deref() == Some(body) {
            return Ok(false);
        }
        if !super::collect::put_status_over(self.forge, n, current.as_deref(), body)? {
            return Err(Carried::Overtaken);
        }
        *current = Some(body.to_string());
        Ok(true)
    }

    /// Merges at `head`; a pull request already merged (by a run that
    /// stopped before recording it) counts as merged.
    fn merge(
        &self,
        n: MatterNumber,
        head: &HeadSha,
        message: &str,
    ) -> Result<(HeadSha, bool), Carried> {
        match self.forge.merge(n, head, message) {
            Ok(commit) => Ok((commit, true)),
            Err(ForgeError::NotOpen(_)) => match self.forge.matter(n)?.merge_commit {
                Some(commit) => Ok((commit, false)),
                None => Err(Carried::Refused(format!(
                    "#{n} was closed without being merged"
                ))),
            },
            Err(e @ ForgeError::StaleHead { .. }) => Err(Carried::Refused(e.to_string())),
            Err(ForgeError::NotMergeable { reason, .. }) => Err(Carried::Unmergeable(reason)),
            Err(e) => Err(e.into()),
        }
    }

    /// The merge commit of `n`: made in this run, or found on the forge.
    fn merge_commit(&self, n: MatterNumber, pull: bool) -> Result<Option<String>, ForgeError> {
        if let Some(commit) = self.merges.get(&n) {
            return Ok(Some(commit.0.clone()));
        }
        if !pull {
            return Ok(None);
        }
        Ok(self.forge.matter(n)?.merge_commit.map(|c| c.0))
    }

    /// The journal of `n`'s status as this run last wrote or read it.
    fn journal(&self, n: MatterNumber) -> Journal {
        self.statuses
            .get(&n)
            .cloned()
            .flatten()
            .map(|body| Journal::read(&body))
            .unwrap_or_default()
    }

    /// Takes back the announcement of a decision the forge refused: the
    /// status says why, and the next run decides the matter again.
    pub(crate) fn unannounce(&mut self, n: MatterNumber, why: &str) -> anyhow::Result<()> {
        let mut journal = self.journal(n);
        journal.resolution = None;
        let text = format!(
            "### #{n}: decided, but not done\n\n{why}\n\nThe next run will decide it again."
        );
        match self.status(n, &journal.render(&text)) {
            Ok(_) => {}
            // Another run wrote the status since: what it wrote stands.
            Err(Carried::Overtaken) => return Ok(()),
            Err(Carried::Failed(e)) => return Err(e),
            Err(Carried::Refused(why) | Carried::Unmergeable(why)) => bail!(why),
        }
        self.forge.set_labels(n, &[], &[RESOLVING])?;
        Ok(())
    }

    /// Holds a matter whose merge at `head` the forge refused: its decision
    /// is taken back, the refusal written into its journal and its status
    /// (with the way out), and it is labelled `held`, so later runs hold it
    /// without announcing it or asking for the merge again.
    pub(crate) fn hold_refused(
        &mut self,
        n: MatterNumber,
        head: &HeadSha,
        reason: &str,
    ) -> anyhow::Result<()> {
        let mut journal = self.journal(n);
        journal.resolution = None;
        journal.refused = Some(Refusal {
            head: head.0.clone(),
            reason: reason.to_string(),
        });
        let text = crate::matter::status::refused_merge(n, reason);
        match self.status(n, &journal.render(&text)) {
            Ok(_) => {}
            Err(Carried::Overtaken) => return Ok(()),
            Err(Carried::Failed(e)) => return Err(e),
            Err(Carried::Refused(why) | Carried::Unmergeable(why)) => bail!(why),
        }
        self.forge.set_labels(n, &[HELD], &[RESOLVING])?;
        Ok(())
    }
}
