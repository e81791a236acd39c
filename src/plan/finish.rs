//! The finish pass: what an earlier run decided and did not finish (its
//! journal holds the decision) is finished first, in the order it was
//! decided, with the same effects: an effect already carried out is a
//! no-op when carried out again.

use super::decide::snapshot_on;
use super::decided::{self, Decided};
use super::dovs::Dovs;
use super::ground::Ground;
use super::prospect::Attempt;
use super::written::Written;
use super::{Fate, PlanError, direct_merges, standing};
use crate::engine::{self, Decision, MatterDecision};
use crate::game::Game;
use crate::matter::collected::{Collected, engine_kind};
use crate::matter::journal::Resolution;
use crate::matter::status::active_players;
use crate::record::Outcome;

/// Finishes each of `started`, in order.
pub(super) fn finish(
    ground: &mut Ground,
    dovs: &mut Dovs,
    started: &[&Collected],
) -> Result<Written, PlanError> {
    let mut out = Written::default();
    for m in started {
        let Some(resolution) = m.journal.resolution.clone() else {
            continue;
        };
        if resolution.outcome == Outcome::NotAMatter {
            standing::close_steps(ground, &mut out, m, resolution)?;
        } else if engine_kind(m.kind).is_none() {
            direct_merges::finish(ground, dovs, &mut out, m, &resolution)?;
        } else {
            finish_decided(ground, dovs, &mut out, m, resolution)?;
        }
    }
    Ok(out)
}

/// Finishes a votable matter an earlier run decided: the decision in its
/// journal, the votes read at the moment it was taken, on the game as it
/// was then.
fn finish_decided(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    m: &Collected,
    resolution: Resolution,
) -> Result<(), PlanError> {
    let n = m.info.number;
    let m = &as_decided(ground, m, &resolution)?;
    let then = game_then(ground, m)?;
    let run = engine::decide(&snapshot_on(&then, None, &[m])?, resolution.at);
    let Some(d) = run.get(n) else {
        return Ok(());
    };
    let d = as_resolved(d, &resolution);
    // The tally's rows are the players the decision counted, on the
    // game as it was then: not the roster this enactment may change.
    let players = then
        .state
        .as_ref()
        .map(|state| active_players(state, resolution.at))
        .unwrap_or_default();
    if resolution.outcome == Outcome::Enacted && m.info.merge_commit.is_none() {
        if let Some(Attempt::Clean(tree, game)) = ground.attempt(&m.info, m.kind)? {
            ground.prospect.adopt(tree, *game);
        }
    }
    let decided = Decided {
        matter: m,
        decision: &d,
        turnout: run.turnout,
        players,
        resolution,
    };
    if let Some(edits) = decided::carry_out(ground, dovs, out, decided)? {
        ground.edit_dynasty(n, &edits)?;
    }
    out.decided(m, &d, Fate::Finished);
    Ok(())
}

/// `m` as it was decided: on the head the votes were counted on (a
/// merged pull request may no longer report one), and merged if a run
/// killed before the forge said so merged it.
fn as_decided(
    ground: &mut Ground,
    m: &Collected,
    resolution: &Resolution,
) -> Result<Collected, PlanError> {
    let n = m.info.number;
    let mut m = m.clone();
    if resolution.head.is_some() {
        m.info.head.clone_from(&resolution.head);
    }
    if let (None, Some(head)) = (&m.info.merge_commit, &m.info.head) {
        m.info.merge_commit =
            (ground.trial.brought_in(head, n)).map_err(|why| PlanError::repository(n, why))?;
    }
    Ok(m)
}

/// The game `m` was decided on: the default branch just before its
/// merge, or as it is if it was never merged.
fn game_then(ground: &mut Ground, m: &Collected) -> Result<Game, PlanError> {
    let n = m.info.number;
    Ok(match &m.info.merge_commit {
        Some(merge) => {
            let tree = (ground.trial.before(merge)).map_err(|why| PlanError::repository(n, why))?;
            ground.game_of(n, &tree)?.clone()
        }
        None => ground.prospect.game.clone(),
    })
}

/// The engine's decision `d` as the journal's `resolution` took it: the
/// same outcome and reasons, nothing left to change.
fn as_resolved(d: &MatterDecision, resolution: &Resolution) -> MatterDecision {
    let mut d = d.clone();
    d.decision = if resolution.outcome == Outcome::Enacted {
        Decision::Enact
    } else {
        Decision::Fail
    };
    d.reasons.clone_from(&resolution.reasons);
    d.next_change = None;
    d
}
