//! The resolver's plan: everything one `resolve` run will do, decided
//! before anything is done. Pure: the collected matters, the game on the
//! default branch and *now* go in (with a [`Trial`] for merging trees in
//! memory); an ordered list of effects with a line of explanation per
//! matter comes out. `gitnomic resolve` carries the effects out, and
//! `--dry-run` prints the same plan, so the two cannot disagree.
//!
//! The plan is made against the default branch *as it will be*: each pull
//! request it would merge is first merged onto the prospect in memory and
//! the merged game checked ([`prospect`]). A proposal whose result would
//! not check, or that conflicts with an earlier enactment, fails with that
//! reason instead of blocking the queue; one that touches files its kind
//! may not change is no matter at all and is closed. After each enactment
//! that changes the game the engine decides again on the new game, so the
//! next proposal is judged by the roster and rules it will really meet.
//!
//! Dynasty changes are effects like any other: an enacted DoV crowns its
//! author and fails every other pending DoV; a merged Ascension Address
//! begins the next dynasty.

mod comment_actions;
mod decide;
mod decided;
mod dice;
mod direct_merges;
mod dovs;
pub(crate) mod effect;
mod finish;
mod ground;
mod passes;
mod pending;
pub(crate) mod prospect;
mod record;
mod render;
pub(crate) mod standing;
mod written;

pub(crate) use effect::{Effect, Step};
pub(crate) use passes::plan;
pub(crate) use prospect::Prospect;

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::{self, Decision, MatterDecision};
use crate::matter::collected::Collected;
use crate::matter::{HeadSha, Kind, MatterNumber};
use crate::source::SourceFile;
use crate::time::Timestamp;

/// A tree of the repository (a git tree id).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TreeId(pub String);

/// The result of merging a head onto a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Merged {
    /// The merged tree.
    Clean(TreeId),
    /// The paths in conflict.
    Conflict(Vec<String>),
}

/// What a pull request's head changes since it forked from the default
/// branch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ForkChanges {
    /// The paths it changes (old and new names of a rename both).
    pub paths: Vec<String>,
    /// Why files it adds or changes cannot be read as the game's, one
    /// reason a file.
    pub unfit: Vec<String>,
}

/// Why the repository could not answer the plan: a caller can tell a head
/// that was never fetched or shares no history with the branch from the
/// repository's own trouble. The words are those a person saw before.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TrialError {
    /// The text is not a commit id at all.
    #[error("{sha} is not a commit id: {why}")]
    NotACommitId {
        /// The text given as a commit.
        sha: HeadSha,
        /// What git said.
        why: String,
    },
    /// A commit the repository does not hold (not fetched yet).
    #[error("commit {sha} is not in the repository (was it fetched?): {why}")]
    Missing {
        /// The commit.
        sha: HeadSha,
        /// What git said.
        why: String,
    },
    /// A head that shares no history with the base branch.
    #[error("{head} has no common history with the base branch: {why}")]
    Unrelated {
        /// The head's commit id.
        head: String,
        /// What git said.
        why: String,
    },
    /// A merge commit without a first parent.
    #[error("{merge} has no parent: {why}")]
    NoParent {
        /// The merge commit.
        merge: HeadSha,
        /// What git said.
        why: String,
    },
    /// Any other trouble of the repository's, as git or the reader said it.
    #[error("{0}")]
    Repository(String),
}

/// What the plan asks of the repository: reading trees and merging them in
/// memory, never touching a branch, the index or the work tree. Errors are
/// the repository's own trouble (a head that was never fetched, say).
pub(crate) trait Trial {
    /// Merges commit `head` onto `onto` as the forge would merge it into the
    /// default branch (three-way, from their merge base).
    fn merge(&mut self, onto: &TreeId, head: &HeadSha) -> Result<Merged, TrialError>;
    /// `onto` with the file at `path` set to `text`.
    fn write(&mut self, onto: &TreeId, path: &str, text: &str) -> Result<TreeId, TrialError>;
    /// The game files (rules/, state/, content/) of a tree.
    fn files(&mut self, tree: &TreeId) -> Result<Vec<SourceFile>, TrialError>;
    /// The paths `head` changes since it forked from the default branch,
    /// and why the files it adds or changes cannot be read as the game's
    /// (a link, a file over its size, a game file that is not UTF-8), one
    /// reason a file: a matter with any cannot stand.
    fn changes(&mut self, head: &HeadSha) -> Result<ForkChanges, TrialError>;
    /// The tree of commit `commit`.
    fn tree_of(&mut self, commit: &HeadSha) -> Result<TreeId, TrialError>;
    /// The tree where `head` forked from the default branch.
    fn fork_of(&mut self, head: &HeadSha) -> Result<TreeId, TrialError>;
    /// The tree where `head` forked from the default branch as it was just
    /// before merge commit `merge` (for a pull request already merged, whose
    /// head the default branch now contains).
    fn fork_before(&mut self, head: &HeadSha, merge: &HeadSha) -> Result<TreeId, TrialError>;
    /// The tree just before merge commit `merge` (its first parent).
    fn before(&mut self, merge: &HeadSha) -> Result<TreeId, TrialError>;
    /// Whether the repository holds commit `head`.
    fn has(&mut self, head: &HeadSha) -> bool;
    /// Notes that the plan merges `head`: later matters fork from the
    /// branch as that merge leaves it (a head the merged one holds now
    /// shares more history with the branch), as the forge will merge them.
    fn merges(&mut self, head: &HeadSha) -> Result<(), TrialError>;
    /// Matter `number`'s merge of `head` on the default branch, if the
    /// branch holds it (merged by a run stopped before the forge said so).
    /// Not any commit that brought `head` in: two matters may share a head.
    fn brought_in(
        &mut self,
        head: &HeadSha,
        number: MatterNumber,
    ) -> Result<Option<HeadSha>, TrialError>;
}

/// What the plan works from.
#[derive(Debug, Clone)]
pub(crate) struct Inputs<'a> {
    /// The default branch now; its game must check.
    pub base: Prospect,
    /// The default branch's name: a pull request asking to be merged
    /// into another is no matter.
    pub branch: &'a str,
    /// The open votable matters (drafts left out).
    pub open: &'a [Collected],
    /// Closed matters an earlier run decided and did not finish (labelled
    /// `resolving`).
    pub unfinished: &'a [Collected],
    /// Open pull requests merged without a vote when they check: actions
    /// and Ascension Addresses.
    pub unvoted: &'a [Collected],
    /// The moment the run acts at.
    pub now: Timestamp,
}

/// How a matter ends up in this run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Still pending.
    Pending,
    /// Still pending, but its change cannot be carried out as things stand
    /// (its files leave the game with problems, or it conflicts with what
    /// is enacted): the run that enacts it fails it, for this reason. Said
    /// while it is pending, before anyone votes.
    Flawed(String),
    /// Enacted.
    Enacted,
    /// Failed (voted down, vetoed, self-killed or stale).
    Failed,
    /// Enacted by its votes, but failed because its change cannot be
    /// carried out (it would leave the game with problems, or conflicts
    /// with what was enacted before it): why. Shown as `failed`, as it is
    /// recorded.
    Refused(String),
    /// An earlier run decided it; this run finishes what it started.
    Finished,
    /// Merged without a vote (an action or Ascension Address).
    Merged,
    /// Not merged (an action or Ascension Address that does not check).
    NotMerged(String),
    /// Not a matter of its kind: closed without a record.
    Closed(String),
    /// Decided, but not to be carried out by this run (a pull request
    /// whose head is gone): no merge, no record; its status says why.
    Held(String),
    /// Not read this run (its thread is longer than a run reads): nothing
    /// is decided or done about it, and the rest of the run goes on.
    Unread(String),
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fate::Pending => f.write_str("pending"),
            Fate::Flawed(why) => write!(f, "pending, but {}", crate::matter::status::flawed(why)),
            Fate::Enacted => f.write_str("enacted"),
            Fate::Failed | Fate::Refused(_) => f.write_str("failed"),
            Fate::Finished => f.write_str("finishing what an earlier run started"),
            Fate::Merged => f.write_str("merged"),
            Fate::NotMerged(why) => write!(f, "not merged: {why}"),
            Fate::Closed(why) => write!(f, "closed: {why}"),
            Fate::Held(why) => write!(f, "held: {why}"),
            Fate::Unread(why) => write!(f, "not read this run: {why}"),
        }
    }
}

/// What a plan's line says was decided of a matter: by the rules for a
/// votable one, or by the plan for what needs no vote or is no matter.
/// Printed as one word (`enact`, `fail`, `wait`, `merge`, `not-a-matter`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ruling {
    /// The rules' decision on a votable matter.
    Rules(Decision),
    /// Needs no vote: merged when it checks.
    Merge,
    /// No matter of its kind: closed.
    NotAMatter,
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ruling::Rules(decision) => decision.as_str(),
            Ruling::Merge => "merge",
            Ruling::NotAMatter => "not-a-matter",
        })
    }
}

/// One matter's line in the plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub number: MatterNumber,
    pub kind: Kind,
    /// What was decided of it.
    pub decision: Ruling,
    /// What the run does about it.
    pub fate: Fate,
    /// Why.
    pub reasons: Vec<String>,
}

impl Line {
    /// What `play list` says of this line above the tallies: what the next
    /// run closes (as `check` says), holds or refuses (as `resolve` does),
    /// what stays pending flawed or unread, and what needs no vote; a
    /// voted matter's tally says the rest.
    pub(crate) fn listed(&self) -> Option<String> {
        use crate::matter::status::{flawed, held, refused};
        let (number, kind) = (self.number, self.kind);
        Some(match (&self.fate, self.decision) {
            (Fate::Closed(why), _) => {
                format!("#{number} {kind}: not a matter, closed when the resolver next runs: {why}")
            }
            (Fate::Held(why), _) => format!("#{number} {kind}: {}", held(why)),
            (Fate::Flawed(why), _) => format!("#{number} {kind}: pending, but {}", flawed(why)),
            (Fate::Refused(why), _) => format!("#{number} {kind}: {}", refused(why)),
            (Fate::Unread(why), _) => format!("#{number} {kind}: not read this run: {why}"),
            (outcome, Ruling::Merge) => format!("#{number} {kind}: {outcome}"),
            _ => return None,
        })
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.decision {
            // What needs no vote has no decision to show.
            Ruling::Merge => write!(f, "{} #{}: {}", self.kind, self.number, self.fate),
            decision => write!(
                f,
                "{} #{}: {decision} — {}",
                self.kind, self.number, self.fate
            ),
        }
    }
}

/// Everything one run will do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Plan {
    /// The moment it acts at.
    pub now: Timestamp,
    /// Active players and the quorum at the start of the run.
    pub turnout: engine::Turnout,
    /// One line per matter, in the order they are handled.
    pub lines: Vec<Line>,
    /// The effects, in order.
    pub steps: Vec<Step>,
    /// The tally view of every votable matter as this run leaves it: the
    /// decision carried out, or for a pending one what could change it and
    /// when. The status comments, `play list` and the site show these.
    pub decisions: BTreeMap<MatterNumber, MatterDecision>,
}

impl Plan {
    /// The plan's tally view as an engine run: every votable matter's
    /// decision, in the order the plan handles them (what `play list`
    /// prints and the site's pending page shows).
    pub(crate) fn tallies(&self) -> engine::Run {
        let decisions = self
            .lines
            .iter()
            .filter_map(|line| self.decisions.get(&line.number).cloned())
            .collect();
        engine::Run {
            now: self.now,
            turnout: self.turnout,
            decisions,
        }
    }
}

/// Why no plan could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PlanError {
    /// The game on the default branch (or as it would be) cannot be read.
    #[error("the game cannot be read: {0}")]
    Game(String),
    /// The repository could not answer about a matter.
    #[error("#{number}: {why}")]
    Repository {
        number: MatterNumber,
        /// What went wrong.
        why: String,
    },
}

impl PlanError {
    /// The repository could not answer about matter `number`: `why`.
    fn repository(number: MatterNumber, why: impl fmt::Display) -> PlanError {
        PlanError::Repository {
            number,
            why: why.to_string(),
        }
    }

    /// The game's state/ cannot be read.
    fn no_state() -> PlanError {
        PlanError::Game("state/ cannot be read".into())
    }
}

#[cfg(test)]
mod tests {
    use super::{Decision, Fate, Kind, Line, MatterNumber, Ruling};

    /// A line prints its ruling as the one word `resolve` always printed,
    /// and what needs no vote shows none.
    #[test]
    fn a_line_prints_its_ruling_as_one_word() {
        let line = |decision| Line {
            number: MatterNumber(4),
            kind: Kind::Proposal,
            decision,
            fate: Fate::Pending,
            reasons: Vec::new(),
        };
        let printed = [
            (
                Ruling::Rules(Decision::Enact),
                "Proposal #4: enact — pending",
            ),
            (Ruling::Rules(Decision::Fail), "Proposal #4: fail — pending"),
            (Ruling::Rules(Decision::Wait), "Proposal #4: wait — pending"),
            (Ruling::NotAMatter, "Proposal #4: not-a-matter — pending"),
            (Ruling::Merge, "Proposal #4: pending"),
        ];
        for (ruling, words) in printed {
            assert_eq!(line(ruling).to_string(), words);
        }
        assert_eq!(Ruling::Merge.to_string(), "merge");
        assert_eq!(
            line(Ruling::Merge).listed().as_deref(),
            Some("#4 Proposal: pending")
        );
        assert_eq!(line(Ruling::Rules(Decision::Wait)).listed(), None);
    }
}
