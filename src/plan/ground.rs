//! What every pass stands on: the default branch as it will be (the
//! [`Prospect`]), the repository that answers for it (the [`Trial`]) and
//! the moment the run acts at. A pass that merges or edits moves the
//! prospect, and the next pass judges against the game it leaves.

use std::collections::BTreeMap;

use super::effect::{DynastyValue, Effect};
use super::prospect::{Attempt, Prospect};
use super::written::Written;
use super::{PlanError, TreeId, Trial};
use crate::game::Game;
use crate::gamestate::GameState;
use crate::matter::collected::Collected;
use crate::matter::status::active_players;
use crate::matter::{HeadSha, Kind, MatterInfo, MatterNumber};
use crate::ruleset::diff::{RuleChange, diff};
use crate::time::Timestamp;

/// The default branch as it will be, and the repository's answers.
pub(super) struct Ground<'t> {
    /// The repository, merging in memory.
    pub trial: &'t mut dyn Trial,
    /// The default branch as the passes so far leave it.
    pub prospect: Prospect,
    /// The moment the run acts at.
    pub now: Timestamp,
    /// Games read from trees, checked once each.
    games: BTreeMap<TreeId, Game>,
}

impl<'t> Ground<'t> {
    /// The ground of a run on `base` at `now`.
    pub(super) fn new(trial: &'t mut dyn Trial, base: Prospect, now: Timestamp) -> Self {
        Ground {
            trial,
            prospect: base,
            now,
            games: BTreeMap::new(),
        }
    }
}

impl Ground<'_> {
    /// The prospect's state.
    pub(super) fn state(&self) -> Result<&GameState, PlanError> {
        self.prospect
            .game
            .state
            .as_ref()
            .ok_or_else(PlanError::no_state)
    }

    /// The players active now, in roster order: the rows of a status
    /// comment's tally.
    pub(super) fn active_players(&self) -> Vec<String> {
        self.prospect
            .game
            .state
            .as_ref()
            .map(|state| active_players(state, self.now))
            .unwrap_or_default()
    }

    /// The game of a tree, read and checked once.
    pub(super) fn game_of(
        &mut self,
        number: MatterNumber,
        tree: &TreeId,
    ) -> Result<&Game, PlanError> {
        if !self.games.contains_key(tree) {
            let files =
                (self.trial.files(tree)).map_err(|why| PlanError::repository(number, why))?;
            self.games.insert(tree.clone(), Game::check(&files));
        }
        Ok(&self.games[tree])
    }

    /// Tries a merge of `m`'s head on the prospect (`None`: it has none).
    pub(super) fn attempt(
        &mut self,
        m: &MatterInfo,
        kind: Kind,
    ) -> Result<Option<Attempt>, PlanError> {
        let Some(head) = &m.head else { return Ok(None) };
        self.prospect
            .attempt(self.trial, kind, m.number, head)
            .map(Some)
            .map_err(|why| PlanError::repository(m.number, why))
    }

    /// Sets keys of the prospect's `[dynasty]` table.
    pub(super) fn edit_dynasty(
        &mut self,
        number: MatterNumber,
        edits: &[(&'static str, DynastyValue)],
    ) -> Result<(), PlanError> {
        self.prospect
            .edit_dynasty(self.trial, edits)
            .map_err(|why| PlanError::repository(number, why))
    }

    /// The rule-level changes a pull request makes, from where it forked
    /// (not from the default branch's tip, which may have moved on).
    pub(super) fn rule_changes(&mut self, m: &Collected) -> Result<Vec<RuleChange>, PlanError> {
        let Some(head) = &m.info.head else {
            return Ok(Vec::new());
        };
        let n = m.info.number;
        let fork = match &m.info.merge_commit {
            Some(merge) => self.trial.fork_before(head, merge),
            None => self.trial.fork_of(head),
        }
        .map_err(|why| PlanError::repository(n, why))?;
        let tip = (self.trial.tree_of(head)).map_err(|why| PlanError::repository(n, why))?;
        let old = self.game_of(n, &fork)?.ruleset.clone();
        Ok(diff(&old, &self.game_of(n, &tip)?.ruleset))
    }

    /// Why a pull request to be merged cannot be: its branch is gone, or
    /// its head is not in the repository (a checkout that never fetched it).
    pub(super) fn missing_head(&mut self, m: &MatterInfo) -> Option<String> {
        if let Some(why) = m.branch_gone() {
            return Some(why.into());
        }
        match &m.head {
            Some(head) if m.pull && !self.trial.has(head) => Some(format!(
                "its head {head} is not in the repository (was it fetched?)"
            )),
            _ => None,
        }
    }

    /// Plans the merge of matter `number`'s `head`: later matters fork
    /// from the branch as this merge leaves it, as the forge merges them.
    pub(super) fn merge(
        &mut self,
        out: &mut Written,
        number: MatterNumber,
        head: &HeadSha,
        message: String,
    ) {
        // A head the repository lacks is held before its merge is planned.
        let _ = self.trial.merges(head);
        let head = head.clone();
        out.step(number, Effect::Merge { head, message });
    }
}
