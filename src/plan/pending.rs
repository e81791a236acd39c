//! The last pass before the statuses are written: what stays pending is
//! told where it stands, judged against the game as the run leaves it —
//! an action or Address that was not merged says why, and a pending
//! votable matter shows its tally, what could change it and when, and
//! why it would fail if its votes enacted it now.

use super::decide::decide;
use super::dovs::Dovs;
use super::ground::Ground;
use super::prospect::Attempt;
use super::written::{Says, Tally, Written};
use super::{Fate, PlanError, direct_merges};
use crate::engine::MatterDecision;
use crate::matter::collected::Collected;
use crate::matter::status::Progress;

/// Says why each of `not_merged` was not merged, and where each of
/// `pending` stands.
pub(super) fn stays(
    ground: &mut Ground,
    dovs: &Dovs,
    not_merged: &[&Collected],
    pending: &[&Collected],
) -> Result<Written, PlanError> {
    let mut out = Written::default();
    for m in not_merged {
        direct_merges::not_merged(ground, &mut out, m)?;
    }
    let last = decide(ground, dovs, pending, true)?;
    for m in pending {
        if let Some(d) = last.get(m.info.number) {
            still_pending(ground, &mut out, m, d)?;
        }
    }
    Ok(out)
}

/// Plans a pending matter's status comment, saying why it would fail
/// if its votes enacted it now, when that is known before the vote.
fn still_pending(
    ground: &mut Ground,
    out: &mut Written,
    m: &Collected,
    d: &MatterDecision,
) -> Result<(), PlanError> {
    let changes = ground.rule_changes(m)?;
    let flaw = flaw(ground, m)?;
    let tally = Tally {
        decision: d.clone(),
        players: ground.active_players(),
        changes,
        progress: Progress::Pending,
        flaw: flaw.clone(),
        address: None,
    };
    out.status_unless_posted(
        m.info.number,
        m.journal.clone(),
        Says::Tally(Box::new(tally)),
    );
    out.decided(m, d, flaw.map_or(Fate::Pending, Fate::Flawed));
    Ok(())
}

/// Why a pending pull request would fail if its votes enacted it now:
/// merged onto the game as it will be, its files leave the game with
/// problems, or it conflicts. `None` when it would not, or when this
/// run cannot try (an issue, a head it does not hold).
fn flaw(ground: &mut Ground, m: &Collected) -> Result<Option<String>, PlanError> {
    if !m.info.pull || ground.missing_head(&m.info).is_some() {
        return Ok(None);
    }
    Ok(match ground.attempt(&m.info, m.kind)? {
        Some(Attempt::Refused(why)) => Some(why),
        _ => None,
    })
}
