//! What the run knows of Declarations of Victory, which reaches across the
//! passes: when each was pending (a dynastic action made in such a span
//! was made in a hiatus), and the one enacted whose Ascension Address the
//! game awaits (it failed every DoV then pending).

use super::Inputs;
use crate::engine::{Crowned, MatterKind};
use crate::game::Game;
use crate::gamestate::Phase;
use crate::matter::collected::Collected;
use crate::matter::{Kind, MatterNumber};
use crate::record::Outcome;
use crate::time::Timestamp;

/// The Declarations of Victory of a run.
#[derive(Debug, Clone)]
pub(super) struct Dovs {
    /// When each was pending, by number: from its opening to its
    /// resolution (`None`: still pending as the run begins). One this run
    /// closes as no valid DoV never opened one.
    pending: Vec<(MatterNumber, Timestamp, Option<Timestamp>)>,
    /// The DoV whose Ascension Address the game awaits, once one is
    /// enacted.
    crowned: Option<Crowned>,
}

impl Dovs {
    /// The DoVs of a run with `inputs`.
    pub(super) fn of(inputs: &Inputs<'_>) -> Dovs {
        Dovs {
            pending: pending(inputs),
            crowned: crate::matter::admission::crowning(&inputs.base.game),
        }
    }

    /// Whether a DoV was pending at `at`: an action then was made in a
    /// hiatus.
    pub(super) fn pending_at(&self, at: Timestamp) -> bool {
        self.pending
            .iter()
            .any(|(_, opened, resolved)| *opened <= at && resolved.is_none_or(|r| at <= r))
    }

    /// Matter `number` is closed as no valid DoV: as a later run, which no
    /// longer sees it open, would judge the actions made meanwhile.
    pub(super) fn never_pending(&mut self, number: MatterNumber) {
        self.pending.retain(|(n, ..)| *n != number);
    }

    /// DoV `dov` is enacted at `at`: the game awaits its author's Address.
    pub(super) fn crown(&mut self, dov: MatterNumber, at: Timestamp) {
        self.crowned = Some(Crowned { dov, at });
    }

    /// An Ascension Address began the next dynasty.
    pub(super) fn address_made(&mut self) {
        self.crowned = None;
    }

    /// The DoV whose Address `game` awaits, if it awaits one and the run
    /// knows which.
    pub(super) fn awaited_by(&self, game: &Game) -> Option<Crowned> {
        let awaits = game
            .state
            .as_ref()
            .is_some_and(|s| s.dynasty.phase == Phase::AwaitingAscension);
        self.crowned.filter(|_| awaits)
    }
}

/// When each Declaration of Victory the run knows of was pending: the
/// recorded ones, those a killed run left to finish, and the open ones.
/// Judged from the records, not from what is open as the run begins, so a
/// run that finishes a killed one judges a comment as it would have.
fn pending(inputs: &Inputs<'_>) -> Vec<(MatterNumber, Timestamp, Option<Timestamp>)> {
    let recorded = inputs
        .base
        .game
        .records
        .iter()
        .filter(|r| r.kind == MatterKind::Dov && r.outcome != Outcome::NotAMatter)
        .map(|r| (r.number, r.opened, Some(r.resolved)));
    // One closed, or being closed, as no DoV never began a hiatus.
    let closing = |m: &&Collected| {
        m.journal
            .resolution
            .as_ref()
            .is_some_and(|r| r.outcome == Outcome::NotAMatter)
    };
    let live = inputs
        .unfinished
        .iter()
        .chain(inputs.open)
        .filter(|m| m.kind == Kind::Dov && !closing(m))
        .map(|m| {
            let resolved = m.journal.resolution.as_ref().map(|r| r.at);
            (m.info.number, m.info.opened, resolved)
        });
    recorded.chain(live).collect()
}
