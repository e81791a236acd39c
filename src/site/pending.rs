//! Pending matters as the site shows them: the engine's decision for each,
//! turned into a view for the templates. Pure.

use super::{PendingView, PendingVote};
use crate::collected::Collected;
use crate::engine::report::describe_next;
use crate::engine::{Decision, MatterDecision, Run};
use crate::time::Timestamp;

/// The views of every pending matter of a run, oldest first. `matter`
/// finds the forge's side of a matter (title, author) by number, and
/// `author` names a forge login as a player.
pub fn views(
    run: &Run,
    matter: &dyn Fn(u64) -> Option<Collected>,
    author: &dyn Fn(&str) -> String,
) -> Vec<PendingView> {
    let mut views: Vec<(Timestamp, PendingView)> = run
        .decisions
        .iter()
        .filter_map(|d| matter(d.id).map(|m| (d.opened, view(run, d, &m, author))))
        .collect();
    views.sort_by_key(|(opened, v)| (*opened, v.number));
    views.into_iter().map(|(_, v)| v).collect()
}

fn view(
    run: &Run,
    d: &MatterDecision,
    m: &Collected,
    author: &dyn Fn(&str) -> String,
) -> PendingView {
    let count = |n: i64| u32::try_from(n).unwrap_or(0);
    let (decision, class) = match d.decision {
        Decision::Enact => ("would be enacted now", "enacts"),
        Decision::Fail => ("would fail now", "fails"),
        Decision::Wait => ("pending", "open"),
    };
    PendingView {
        number: d.id,
        kind: d.kind.as_str().to_string(),
        title: m.info.title.clone(),
        author: author(&m.info.author.0),
        opened: m.info.opened.to_string(),
        votes: d
            .tally
            .votes
            .iter()
            .map(|(name, v)| PendingVote {
                player: name.0.clone(),
                vote: v.cast.as_str().to_string(),
            })
            .collect(),
        for_: count(d.tally.for_votes),
        against: count(d.tally.against_votes),
        quorum: count(run.quorum),
        decision: decision.to_string(),
        decision_class: class.to_string(),
        reasons: d.reasons.clone(),
        next_change: d.next_change.as_ref().map(describe_next),
    }
}
