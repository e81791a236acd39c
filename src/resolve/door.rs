//! The door a matter passes before it is counted: one matter judged by the
//! rules on the default branch ([`crate::matter::admission::judge`], the
//! judgement the plan also asks), its finding put on its head as a commit
//! status, and, when asked, a matter that may not stand closed as the
//! resolver begins to close it. `gitnomic check --pr`, `--event` and
//! `--open` come through here; `cli` prints what it finds.

use std::collections::BTreeMap;

use anyhow::Context as _;

use crate::forge::{Forge, ForgeError, HeadSha, Kind, MatterInfo, Push};
use crate::game::{GAME_DIRS, Game};
use crate::load;
use crate::matter::admission::{self, Facts, Ledger, Posting, describe_changes};
use crate::matter::journal::Journal;
use crate::matter::labels::{HELD, RESOLVING, carries};
use crate::matter::{MatterNumber, kind_changed};
use crate::plan::standing::{closing_journal, closing_text};
use crate::plan::{TreeId, Trial as _, TrialError};
use crate::resolve::Context;
use crate::resolve::collect;
use crate::resolve::driver::typo_judge;
use crate::ruleset::diff::diff;
use crate::time::{Span, Timestamp};

/// What matters are judged with: the game on the default branch, and the
/// matters open on the forge (the limits and the hiatus read them).
pub(crate) struct Door<'a> {
    forge: &'a dyn Forge,
    now: Timestamp,
    /// The command's context: the repository and its trial merges, opened
    /// once for every matter judged, and the game on the default branch.
    cx: Context,
    /// How long after a matter opens a change of its kind needs its
    /// thread read (the base game's `kind_window_minutes`).
    window: Span,
    open: Vec<MatterInfo>,
}

/// What the door finds of one matter (the engine's `Verdict` is a
/// decision with its reasons; this is whether a matter may stand).
pub(crate) struct Finding {
    /// What its head changes in the rules, in words (empty for an issue).
    pub(crate) changes: String,
    /// Why it may not stand as it is, if it may not.
    pub(crate) problems: Vec<String>,
    /// Why it cannot stand as a matter of its kind at all, if it cannot.
    pub(crate) not_a_matter: Option<String>,
}

impl Finding {
    /// Whether nothing is wrong with it.
    pub(crate) fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

impl<'a> Door<'a> {
    /// The door of the game of the context `cx`.
    pub(crate) fn open(forge: &'a dyn Forge, cx: Context, now: Timestamp) -> anyhow::Result<Self> {
        let (Some(_), Some(params)) = (cx.state(), cx.params()) else {
            anyhow::bail!(
                "the game on {} cannot be read: {}",
                cx.branch,
                cx.game.problems
            );
        };
        let window = admission::kind_window(params);
        Ok(Door {
            forge,
            now,
            window,
            cx,
            open: forge.open_matters()?,
        })
    }

    /// The matters open on the forge, as listed when the door opened.
    pub(crate) fn open_matters(&self) -> &[MatterInfo] {
        &self.open
    }

    /// Judges one matter by the rules on the default branch.
    pub(crate) fn judge(&mut self, info: &MatterInfo) -> anyhow::Result<Finding> {
        let (info, first_comment) = &self.with_kind_change(info)?;
        let number = info.number;
        let branch = self.cx.branch.clone();
        let branch = branch.as_str();
        let repo = &self.cx.repo;
        let fetch_first = |sha: &HeadSha| {
            format!(
                "the head {sha} of #{number} is not in the local repository: fetch refs/pull/{number}/head first"
            )
        };
        // Files that cannot be read as the game's make it no matter, and
        // its head is not read.
        let unfit = match &info.head {
            Some(sha) => repo
                .unfit_changes(branch, &sha.0)
                .with_context(|| fetch_first(sha))?,
            None => Vec::new(),
        };
        let readable = info.head.as_ref().filter(|_| unfit.is_empty());
        let read = |sha: &HeadSha| -> anyhow::Result<Game> {
            Ok(Game::check(
                &load::read_revision(repo, &sha.0, GAME_DIRS).with_context(|| fetch_first(sha))?,
            ))
        };
        let head = readable.map(read).transpose()?;
        // What a pull request changes is the difference from where it
        // forked (as the plan and the site read it): a rule enacted since
        // is not one it repeals.
        // An action's values are judged from there too, so it must have
        // one; another pull request without one is read against the base.
        let action = info.kind() == Some(Kind::Action);
        let fork = match readable {
            Some(sha) => {
                let found = self.cx.trial()?.fork_tree(sha, None);
                match fork_of(found, action) {
                    Ok(Some(tree)) => Some(Game::check(&load::read_revision(
                        &self.cx.repo,
                        &tree.0,
                        GAME_DIRS,
                    )?)),
                    Ok(None) => None,
                    Err(why) => anyhow::bail!("#{number}: {why}"),
                }
            }
            None => None,
        };
        let changed = self.changed_files(info)?;
        let repo = &self.cx.repo;
        // The earlier matters' unreadable files too, where their heads are
        // here (as the plan judges them): such a matter counts for nothing.
        let earlier_unfit: BTreeMap<MatterNumber, Vec<String>> = self
            .open
            .iter()
            .filter(|m| m.number != number && changed.contains_key(&m.number))
            .filter_map(|m| {
                let sha = m.head.as_ref()?;
                Some((m.number, repo.unfit_changes(branch, &sha.0).ok()?))
            })
            .collect();
        let mut postings: Vec<Posting<'_>> = self
            .open
            .iter()
            .filter(|m| m.number != number)
            .map(|m| {
                let unfit = earlier_unfit.get(&m.number).map_or(&[][..], Vec::as_slice);
                Posting::of(m).changing(changed.get(&m.number)).unfit(unfit)
            })
            .collect();
        let posting = Posting::of(info)
            .changing(changed.get(&number))
            .unfit(&unfit)
            .commented(*first_comment);
        postings.push(posting);
        let ledger = Ledger::new(&self.cx.game, branch, &postings);
        let judgement = admission::judge(
            &ledger,
            &Facts {
                posting,
                description: &info.body,
                head: head.as_ref(),
                fork: fork.as_ref().filter(|_| action),
            },
        );
        let mut changes = head
            .as_ref()
            .map(|h| {
                let from = fork.as_ref().map_or(&self.cx.game.ruleset, |f| &f.ruleset);
                describe_changes(&diff(from, &h.ruleset))
            })
            .unwrap_or_default();
        // A proposal by default says so, and how to name another kind.
        if info.proposal_by_default() {
            changes = format!("{}: {changes}", admission::BY_DEFAULT);
        }
        let not_a_matter = judgement.not_a_matter();
        let mut problems = judgement.problems;
        problems.extend(info.branch_gone().map(String::from));
        Ok(Finding {
            changes,
            not_a_matter,
            problems,
        })
    }

    /// `info` with the last change of its kind of matter the forge knows
    /// of, and when its first comment (other than the bot's) was made if
    /// that can matter: only a change within its first
    /// `kind_window_minutes` needs its thread read, to know whether anyone
    /// had commented.
    fn with_kind_change(
        &self,
        info: &MatterInfo,
    ) -> anyhow::Result<(MatterInfo, Option<Timestamp>)> {
        let mut info = info.clone();
        let window = self.window;
        info.kind_changed = kind_changed(&info, &self.forge.kind_events(&info, window)?);
        let early = info
            .kind_changed
            .as_ref()
            .is_some_and(|c| c.at <= info.opened.plus(window));
        let first_comment = if early {
            let (_, comments) = collect::thread(self.forge, info.number)?;
            comments
                .iter()
                .map(|c| c.created)
                .filter(|at| *at <= self.now)
                .min()
        } else {
            None
        };
        Ok((info, first_comment))
    }

    /// The paths changed by `info` and, for a proposal or DoV, by each
    /// open pull request that can bear on its judgement: a proposal or DoV
    /// opened before it (the limits and the hiatus count those that stand,
    /// and one changing what its kind may not is no matter, counting
    /// towards nothing).
    fn changed_files(
        &mut self,
        info: &MatterInfo,
    ) -> anyhow::Result<BTreeMap<MatterNumber, Vec<String>>> {
        let counted = |m: &MatterInfo| matches!(m.kind(), Some(Kind::Proposal | Kind::Dov));
        let counts = |m: &MatterInfo| {
            counted(info) && counted(m) && (m.opened, m.number) < (info.opened, info.number)
        };
        let mut changed = BTreeMap::new();
        let earlier: Vec<MatterInfo> = self.open.iter().filter(|m| counts(m)).cloned().collect();
        for m in std::iter::once(info).chain(&earlier) {
            if let Some(head) = &m.head {
                changed.insert(m.number, self.files_of(m.number, head)?);
            }
        }
        Ok(changed)
    }

    /// The files pull request `number` changes, as the forge lists them;
    /// for one of more files than the forge lists (GitHub stops at 3,000),
    /// or whose list is longer than a reply may be (GitHub's carries each
    /// file's diff), from the git diff of its fetched head `head` since it
    /// forked, which sees every file, as the planner reads them.
    fn files_of(&mut self, number: MatterNumber, head: &HeadSha) -> anyhow::Result<Vec<String>> {
        match self.forge.changed_files(number) {
            Err(e @ (ForgeError::TooManyFiles { .. } | ForgeError::TooLarge { .. })) => {
                tracing::info!("#{number}: {e}: its files are read from git");
                self.cx
                    .trial()?
                    .changes(head)
                    .map(|c| c.paths)
                    .map_err(|why| anyhow::anyhow!("the files #{number} changes: {why}"))
            }
            listed => Ok(listed?),
        }
    }

    /// Puts `finding` on the matter's head as its commit status; with
    /// `close`, closes an open matter that cannot stand as a matter of its
    /// kind. Whether it closed it.
    pub(crate) fn settle(
        &self,
        info: &MatterInfo,
        finding: &Finding,
        close: bool,
    ) -> anyhow::Result<bool> {
        if let Some(sha) = &info.head {
            let line = if finding.ok() {
                format!("ok: {}", finding.changes)
            } else {
                finding.problems.join("; ")
            };
            self.forge.set_commit_status(sha, finding.ok(), &line)?;
        }
        let open = self.open.iter().any(|m| m.number == info.number);
        if let (true, true, Some(why), Some(k)) =
            (close, open, finding.not_a_matter.as_deref(), info.kind())
        {
            self.close(info, k, why)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Why the resolver holds `info`, if the forge refused to merge it at
    /// its head and the `held` label is still on: what `resolve` and `play
    /// list` say of it. Its status is read only when the label is on.
    pub(crate) fn held(&self, info: &MatterInfo) -> anyhow::Result<Option<String>> {
        if !carries(&info.labels, HELD) {
            return Ok(None);
        }
        let Some(status) = self.forge.status_comment(info.number)? else {
            return Ok(None);
        };
        let journal = Journal::read(&status.body);
        let head = info.head.as_ref().map(|h| h.0.as_str());
        Ok(journal
            .refusal_standing(&info.labels, head)
            .map(crate::matter::status::merge_refused))
    }

    /// Closes a matter that may not stand, as the resolver begins to: its
    /// status says why (with the decision in its journal), `resolving`,
    /// closed. The next resolve run finishes it: its record, its labels.
    fn close(&self, info: &MatterInfo, kind: Kind, why: &str) -> anyhow::Result<()> {
        let number = info.number;
        let status = self.forge.status_comment(number)?;
        let read = status.as_ref().map(|s| s.body.as_str());
        let journal = read.map(Journal::read).unwrap_or_default();
        let journal = closing_journal(&journal, info.head.clone(), why, self.now);
        let body = journal.render(&closing_text(kind, number, why, false));
        if !collect::put_status_over(self.forge, number, read, &body)? {
            anyhow::bail!("#{number}: another run wrote its status meanwhile; nothing closed");
        }
        self.forge.set_labels(number, &[RESOLVING], &[])?;
        self.forge.close(number)?;
        Ok(())
    }
}

/// Notes the push an event announces in the matter's status journal, as
/// it happens, so votes are voided by when the push was made and not by
/// when a resolve run next looks (see [`collect::note_push`]). Whether it
/// noted it (a matter of no kind, or with no head, is left alone).
pub(crate) fn note_push(
    forge: &dyn Forge,
    info: &MatterInfo,
    push: &Push,
    cx: &Context,
) -> anyhow::Result<bool> {
    let params = cx
        .params()
        .with_context(|| format!("the game's parameters on {} are not valid", cx.branch))?;
    if info.kind().is_none() || info.head.is_none() {
        return Ok(false);
    }
    let judge = |old: &HeadSha, new: &HeadSha| typo_judge(&cx.repo, forge, old, new);
    Ok(collect::note_push(forge, info, push, params, &judge)?)
}

/// The tree where a pull request forked, from what the trial found:
/// an action's values are judged from there, so it must have one; for
/// another pull request, a head sharing no history with the branch has
/// none and is read against the base. Any other failure is the
/// repository's trouble and is reported, not taken for "no fork".
fn fork_of(found: Result<TreeId, TrialError>, action: bool) -> Result<Option<TreeId>, TrialError> {
    match found {
        Ok(tree) => Ok(Some(tree)),
        Err(TrialError::Unrelated { .. }) if !action => Ok(None),
        Err(why) => Err(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unrelated() -> TrialError {
        TrialError::Unrelated {
            head: "abc".into(),
            why: "no merge base".into(),
        }
    }

    #[test]
    fn a_head_with_no_common_history_has_no_fork_but_for_an_action() {
        assert_eq!(fork_of(Err(unrelated()), false), Ok(None));
        assert_eq!(fork_of(Err(unrelated()), true), Err(unrelated()));
        let tree = TreeId("t".into());
        assert_eq!(fork_of(Ok(tree.clone()), false), Ok(Some(tree)));
    }

    /// The repository failing is not "no fork": it is reported, whatever
    /// the kind of matter (it was once taken for "no fork" and the pull
    /// request judged against the base).
    #[test]
    fn a_repository_failure_is_reported_not_taken_for_no_fork() {
        let broken = TrialError::Repository("object file is corrupt".into());
        for action in [false, true] {
            assert_eq!(fork_of(Err(broken.clone()), action), Err(broken.clone()));
        }
        let missing = TrialError::Missing {
            sha: HeadSha("abc".into()),
            why: "not found".into(),
        };
        assert_eq!(fork_of(Err(missing.clone()), false), Err(missing));
    }
}
