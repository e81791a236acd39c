//! Looking ahead: for each waiting matter, the next moment its decision
//! changes if nobody votes, and how many more FOR (or AGAINST) votes from
//! players who have not voted would decide it now.
//!
//! Rather than reasoning about the conditions symbolically (they are data
//! and may be amended), the engine re-runs the same resolve at every moment
//! where something could change (a time limit of some matter passing, the
//! downtime starting or ending, a player's idle spell starting or ending),
//! and with hypothetical votes added. So the look-ahead can never disagree
//! with what the engine will actually do.

use std::collections::BTreeMap;

use serde::Serialize;

use super::decide::Decision;
use super::run::decide_all;
use super::snapshot::{Comment, PlayerName, Snapshot};
use super::{MatterDecision, Run, limits};
use crate::time::{Span, Timestamp};

/// What could change a waiting matter's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NextChange {
    /// The first moment the decision changes without new votes.
    pub at: Option<Timestamp>,
    /// What it becomes then.
    pub becomes: Option<Decision>,
    /// How many more FOR from players yet to vote would enact it now.
    pub more_for: Option<u32>,
    /// How many more AGAINST from players yet to vote would fail it now.
    pub more_against: Option<u32>,
}

/// Fills in `next_change` for every waiting matter of `run`.
pub(crate) fn annotate(snapshot: &Snapshot, run: &mut Run) {
    let now = run.now;
    let mut by_time: BTreeMap<u64, (Timestamp, Decision)> = BTreeMap::new();
    let waiting: Vec<u64> = run
        .decisions
        .iter()
        .filter(|d| d.decision == Decision::Wait)
        .map(|d| d.id)
        .collect();
    for t in moments(snapshot, now) {
        if by_time.len() == waiting.len() {
            break;
        }
        let later = decide_all(snapshot, t, now);
        for id in &waiting {
            match later.get(*id) {
                Some(d) if d.decision != Decision::Wait && !by_time.contains_key(id) => {
                    by_time.insert(*id, (t, d.decision));
                }
                _ => {}
            }
        }
    }
    for d in run
        .decisions
        .iter_mut()
        .filter(|d| d.decision == Decision::Wait)
    {
        let timed = by_time.get(&d.id);
        let change = NextChange {
            at: timed.map(|t| t.0),
            becomes: timed.map(|t| t.1),
            more_for: votes_needed(snapshot, now, d, Decision::Enact),
            more_against: votes_needed(snapshot, now, d, Decision::Fail),
        };
        let nothing = change.at.is_none() && change.more_for.is_none();
        d.next_change = (!nothing || change.more_against.is_some()).then_some(change);
    }
}

/// The moments after `now` at which a decision could change by itself.
fn moments(snapshot: &Snapshot, now: Timestamp) -> Vec<Timestamp> {
    let p = &snapshot.params;
    let limits = [
        p.enact_quorum_hours,
        p.resolve_majority_hours,
        p.stale_after_hours,
        p.cfj_resolve_after_hours,
        p.cfj_hiatus_hours,
        p.dov_fast_hours,
        p.dov_middle_hours,
        p.dov_slow_hours,
    ];
    let mut out: Vec<Timestamp> = Vec::new();
    for m in &snapshot.matters {
        out.push(m.opened);
        for h in limits {
            let t = m.opened.plus(Span::hours(h));
            // Both "at least" (t) and "more than" (t + 1 s) limits.
            out.extend([t, t.plus(Span::seconds(1))]);
        }
    }
    out.extend(limits::downtime_edges(p, now));
    for spell in snapshot.players.iter().flat_map(|pl| &pl.idle) {
        out.extend(spell.from.into_iter().chain(spell.until));
    }
    out.retain(|t| *t > now);
    out.sort();
    out.dedup();
    out
}

/// The fewest extra votes (FOR for enact, AGAINST for fail) from active
/// players with no counted vote that would give `target` now.
fn votes_needed(
    snapshot: &Snapshot,
    now: Timestamp,
    d: &MatterDecision,
    target: Decision,
) -> Option<u32> {
    let p = &snapshot.params;
    let word = match target {
        Decision::Enact => p.words_for.first()?,
        _ => p.words_against.first()?,
    };
    let silent: Vec<&PlayerName> = snapshot
        .active_players(now)
        .into_iter()
        .filter(|name| !d.tally.votes.contains_key(*name))
        .collect();
    let mut trial = snapshot.clone();
    let index = trial.matters.iter().position(|m| m.id == d.id)?;
    for (k, name) in (1u32..).zip(silent) {
        trial.matters[index].comments.push(Comment {
            order: u64::MAX - u64::from(k),
            by: name.clone(),
            at: now,
            body: word.clone(),
        });
        if decide_all(&trial, now, now).get(d.id).map(|x| x.decision) == Some(target) {
            return Some(k);
        }
    }
    None
}
