//! The decide pass: the engine decides the pending votable matters against
//! the game as it will be, and what it decides is carried out in order.
//! After each enactment that changes the game the engine decides again on
//! the new game, so the next matter is judged by the roster and rules it
//! will really meet. A matter whose merge cannot be carried out fails with
//! that reason instead of blocking the queue; one the run cannot carry
//! out at all (its head is gone) is held.

use super::decided::{self, Decided};
use super::dovs::Dovs;
use super::ground::Ground;
use super::prospect::Attempt;
use super::written::{Says, Written};
use super::{Fate, PlanError, TreeId, standing};
use crate::engine::{self, Crowned, Decision, Grounds, MatterDecision, Run, Turnout};
use crate::game::Game;
use crate::matter::collected::{Collected, snapshot};
use crate::matter::journal::Resolution;
use crate::matter::status::{merge_refused, refused_merge};
use crate::matter::{Kind, MatterNumber};
use crate::record::Outcome;

/// Decides `pending` and carries out what is decided, again and again
/// until the game stops changing; what is carried out (or closed) is
/// taken out of `pending`.
pub(super) fn round(
    ground: &mut Ground,
    dovs: &mut Dovs,
    pending: &mut Vec<&Collected>,
) -> Result<Written, PlanError> {
    let mut out = Written::default();
    let mut run = decide(ground, dovs, pending, false)?;
    if close_invalid(ground, dovs, &mut out, &run, pending)? {
        run = decide(ground, dovs, pending, false)?;
    }
    loop {
        let (decided, changed) = carry_run(ground, dovs, &mut out, &run, pending)?;
        pending.retain(|m| !decided.contains(&m.info.number));
        if !changed {
            return Ok(out);
        }
        run = decide(ground, dovs, pending, false)?;
    }
}

/// The engine's decisions on `matters` against the game `ground` stands
/// on; with `look_ahead`, what could change each one and when.
pub(super) fn decide(
    ground: &Ground,
    dovs: &Dovs,
    matters: &[&Collected],
    look_ahead: bool,
) -> Result<Run, PlanError> {
    let snap = snapshot_of(ground, dovs, matters)?;
    Ok(if look_ahead {
        engine::look_ahead(&snap, ground.now)
    } else {
        engine::decide(&snap, ground.now)
    })
}

/// What the engine decides `matters` on: the game as it will be, with
/// the DoV whose Ascension Address it awaits, if known.
fn snapshot_of(
    ground: &Ground,
    dovs: &Dovs,
    matters: &[&Collected],
) -> Result<engine::Snapshot, PlanError> {
    let game = &ground.prospect.game;
    snapshot_on(game, dovs.awaited_by(game), matters)
}

/// The engine's input for `matters` against `game`, with the DoV
/// `crowned` whose Ascension Address the game awaits, if known.
pub(super) fn snapshot_on(
    game: &Game,
    crowned: Option<Crowned>,
    matters: &[&Collected],
) -> Result<engine::Snapshot, PlanError> {
    let state = game.state.as_ref().ok_or_else(PlanError::no_state)?;
    let params = game
        .params
        .as_ref()
        .ok_or_else(|| PlanError::Game("the rules' parameters are not valid".into()))?;
    let engine_matters: Vec<engine::Matter> = matters
        .iter()
        .filter_map(|m| m.engine_matter(state))
        .collect();
    let mut snap = snapshot(state, params, engine_matters);
    snap.crowned = crowned;
    Ok(snap)
}

/// What the engine says was no valid matter when it was opened never
/// becomes one: it is closed, and taken out of `pending` so later
/// decisions of the run do not see it at all. The standing pass closes
/// all of these first; this is for what a game changed by the run's own
/// enactments makes invalid.
/// Returns whether it closed any (the run must then be decided again).
fn close_invalid(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    run: &Run,
    pending: &mut Vec<&Collected>,
) -> Result<bool, PlanError> {
    // The run judged each opened matter's validity: an invalid one waits
    // on those grounds, with why as its reason.
    let mut closed = Vec::new();
    for d in &run.decisions {
        let matter = pending.iter().find(|m| m.info.number == d.number);
        let why = (d.grounds == Grounds::Invalid)
            .then(|| d.reasons.first())
            .flatten();
        if let (Decision::Wait, Some(why), Some(m)) = (d.decision, why, matter) {
            standing::close(ground, dovs, out, m, why)?;
            closed.push(d.number);
        }
    }
    pending.retain(|m| !closed.contains(&m.info.number));
    Ok(!closed.is_empty())
}

/// Carries out the decided matters of `run` in order, until one changes
/// the game (the rest must then be decided again on the new game). An
/// enacted DoV fails every other in the same run, so the run's other
/// DoVs are carried out before it is decided again.
/// Returns the matters decided, and whether the game changed.
fn carry_run(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    run: &Run,
    pending: &[&Collected],
) -> Result<(Vec<MatterNumber>, bool), PlanError> {
    let find = |id: MatterNumber| pending.iter().copied().find(|m| m.info.number == id);
    let mut decided = Vec::new();
    let mut crowned = false;
    let to_carry = run
        .decisions
        .iter()
        .filter(|d| d.decision != Decision::Wait);
    for d in to_carry {
        let Some(m) = find(d.number) else { continue };
        if crowned && m.kind != Kind::Dov {
            break;
        }
        decided.push(d.number);
        let (enacted, changed) = carry(ground, dovs, out, m, d.clone(), run.turnout)?;
        if enacted && m.kind == Kind::Dov {
            crowned = true;
        } else if changed && !crowned {
            return Ok((decided, true));
        }
    }
    Ok((decided, crowned))
}

/// Plans an enact or fail decision. The merge is tried first, so what
/// cannot be carried out fails (or is closed) instead of blocking.
/// Returns (enacted, changed the game).
fn carry(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    m: &Collected,
    mut d: MatterDecision,
    turnout: Turnout,
) -> Result<(bool, bool), PlanError> {
    let n = m.info.number;
    let mut adopt = None;
    let mut refused = None;
    if d.decision == Decision::Enact {
        match try_enact(ground, dovs, out, m, &d)? {
            Enacting::Stopped => return Ok((false, false)),
            Enacting::Clean(tree, game) => adopt = Some((tree, game)),
            Enacting::Refused(why) => {
                d.decision = Decision::Fail;
                d.reasons.push(why.clone());
                refused = Some(why);
            }
            Enacting::Unmerged => {}
        }
    }
    let enacted = d.decision == Decision::Enact;
    let resolution = Resolution {
        outcome: if enacted {
            Outcome::Enacted
        } else {
            Outcome::Failed
        },
        at: ground.now,
        head: m.info.head.clone(),
        reasons: d.reasons.clone(),
        illegal: refused.is_some(),
    };
    let decided = Decided {
        matter: m,
        decision: &d,
        turnout,
        players: ground.active_players(),
        resolution,
    };
    let crown = decided::carry_out(ground, dovs, out, decided)?;
    let fate = match (enacted, refused) {
        (true, _) => Fate::Enacted,
        (false, Some(why)) => Fate::Refused(why),
        (false, None) => Fate::Failed,
    };
    out.decided(m, &d, fate);
    let mut changed = false;
    if let Some((tree, game)) = adopt {
        ground.prospect.adopt(tree, *game);
        changed = true;
    }
    if let Some(edits) = crown {
        ground.edit_dynasty(n, &edits)?;
        changed = true;
    }
    Ok((enacted, changed))
}

/// How a decision to enact meets the game as it will be.
enum Enacting {
    /// Held or closed: nothing more is done this run.
    Stopped,
    /// It merges cleanly into this game.
    Clean(TreeId, Box<Game>),
    /// It cannot be carried out: it fails, for this reason.
    Refused(String),
    /// Nothing to merge (an issue).
    Unmerged,
}

/// Tries to enact `m`: held if the forge refused its merge before and
/// nothing has changed since, or its head is gone; closed if its files
/// are no matter of its kind; else merged on the prospect in memory.
fn try_enact(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    m: &Collected,
    d: &MatterDecision,
) -> Result<Enacting, PlanError> {
    let n = m.info.number;
    let head = m.info.head.as_ref().map(|h| h.0.as_str());
    if let Some(reason) = m.journal.refusal_standing(&m.info.labels, head) {
        let text = refused_merge(n, reason);
        hold_with(out, m, d, &merge_refused(reason), text);
        return Ok(Enacting::Stopped);
    }
    if let Some(why) = ground.missing_head(&m.info) {
        hold(out, m, d, &why);
        return Ok(Enacting::Stopped);
    }
    Ok(match ground.attempt(&m.info, m.kind)? {
        Some(Attempt::Clean(tree, game)) => Enacting::Clean(tree, game),
        Some(Attempt::NotAMatter(why)) => {
            standing::close(ground, dovs, out, m, &why)?;
            Enacting::Stopped
        }
        Some(Attempt::Refused(why)) => Enacting::Refused(why),
        None => Enacting::Unmerged,
    })
}

/// Holds a matter the rules would enact but this run cannot: nothing
/// is merged, closed or recorded, and its status says why, so the run
/// that can carry it out decides it again.
fn hold(out: &mut Written, m: &Collected, d: &MatterDecision, why: &str) {
    let n = m.info.number;
    let text = format!(
        "### {} #{n}: Held\n\nThe rules would enact it now, but {why}. Nothing is merged or recorded until it can be: restore the branch (or fetch its head), and the next run carries it out.",
        m.kind
    );
    hold_with(out, m, d, why, text);
}

/// Holds a matter with the status text `text`, posted only if the
/// status does not read so already.
fn hold_with(out: &mut Written, m: &Collected, d: &MatterDecision, why: &str, text: String) {
    out.status_unless_posted(m.info.number, m.journal.clone(), Says::Text(text));
    out.decided(m, d, Fate::Held(why.to_string()));
}
