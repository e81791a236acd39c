//! The record of a decided matter, from the engine's decision and the
//! matter as collected. Pure; the run commits it under content/matters/.

use crate::engine::ballot::Vote;
use crate::engine::tally::{Source, Tally, Why};
use crate::engine::{Decision, MatterDecision};
use crate::matter::collected::Collected;
use crate::matter::discussion;
use crate::record::{Failure, FinalTally, Outcome, Record, RecordedUncounted, RecordedVote};
use crate::time::Timestamp;

/// What a record is made from besides the engine's decision.
#[derive(Debug, Clone)]
pub(super) struct Resolved<'a> {
    /// The matter as collected from the forge.
    pub matter: &'a Collected,
    /// The author's player name.
    pub author: String,
    /// The dynasty it was resolved in.
    pub dynasty: u32,
    /// When the tally was taken.
    pub at: Timestamp,
    /// Active players and quorum at that moment.
    pub turnout: crate::engine::Turnout,
    /// Who or what resolved it.
    pub resolved_by: String,
    /// What the players said, as the record keeps it.
    pub discussion: crate::matter::discussion::Discussion,
}

/// The record of a decided matter. Its merge commit is filled in when the
/// run carries the record out, right after the merge.
pub(super) fn record_of(decision: &MatterDecision, r: &Resolved<'_>) -> Record {
    let matter = r.matter;
    let count = |n: i64| u32::try_from(n).unwrap_or(0);
    let t = &decision.tally;
    let (uncounted, uncounted_more) = uncounted(matter, t);
    Record {
        number: decision.number,
        kind: decision.kind,
        title: matter.info.title.clone(),
        author: r.author.clone(),
        dynasty: r.dynasty,
        opened: matter.info.opened,
        resolved: r.at,
        outcome: if decision.decision == Decision::Enact {
            Outcome::Enacted
        } else {
            Outcome::Failed
        },
        resolved_by: r.resolved_by.clone(),
        reasons: decision.reasons.clone(),
        head: matter.info.head.as_ref().map(|h| h.0.clone()),
        merge_commit: None,
        link: matter.info.link.clone(),
        tally: Some(FinalTally {
            for_: count(t.for_votes),
            against: count(t.against_votes),
            active: count(r.turnout.active),
            quorum: count(r.turnout.quorum),
        }),
        source: None,
        comments: Some(r.discussion.total),
        failure: match (decision.decision, t.vetoed, t.self_killed) {
            (Decision::Enact, _, _) => None,
            (_, true, _) => Some(Failure::Vetoed),
            (_, _, true) => Some(Failure::SelfKilled),
            _ => None,
        },
        votes: votes(matter, t),
        uncounted,
        uncounted_more,
        sticky: t
            .sticky
            .iter()
            .map(|s| RecordedVote {
                counts_as: None,
                player: s.by.0.clone(),
                vote: s.vote.as_str().to_string(),
                at: Some(s.at),
                link: link(matter, s.order),
            })
            .collect(),
        discussion: r.discussion.comments.clone(),
        body: matter.info.body.clone(),
    }
}

/// The link to the comment of `matter` at `order`, if the forge gave one.
fn link(matter: &Collected, order: u64) -> Option<String> {
    matter.comments.get(&order).and_then(|c| c.link.clone())
}

/// The votes counted, each as cast and, where the rules read it otherwise,
/// as what it counts as.
fn votes(matter: &Collected, t: &Tally) -> Vec<RecordedVote> {
    t.votes
        .iter()
        .map(|(name, v)| {
            let (at, link) = match v.source {
                Source::Implicit => (None, None),
                Source::Comment { order, at } => (Some(at), link(matter, order)),
            };
            let deferential = v.cast == Vote::Deferential;
            RecordedVote {
                counts_as: match (v.vote != v.cast, deferential) {
                    (true, _) => Some(v.vote.as_str().to_string()),
                    (false, true) => Some("none".to_string()),
                    (false, false) => None,
                },
                player: name.0.clone(),
                vote: v.cast.as_str().to_string(),
                at,
                link,
            }
        })
        .collect()
}

/// The comments not counted, those a push voided last, in their order:
/// all of them, or [`discussion::COMMENTS`] of them (anyone may comment,
/// and a record is bounded): first the players' votes that did not count,
/// then the comments a push voided, then the players' comments with no
/// voting word, then those of anyone not a player. And how many were left
/// out.
fn uncounted(matter: &Collected, t: &Tally) -> (Vec<RecordedUncounted>, u32) {
    let voided = matter.voided.iter().map(|c| {
        let recorded = RecordedUncounted {
            by: format!("@{}", c.author),
            at: c.created,
            why: crate::matter::collected::VOIDED.into(),
            link: c.link.clone(),
        };
        (1, recorded)
    });
    let all: Vec<(u8, RecordedUncounted)> = t
        .uncounted
        .iter()
        .map(|u| {
            let recorded = RecordedUncounted {
                by: u.by.0.clone(),
                at: u.at,
                why: u.why.to_string(),
                link: link(matter, u.order),
            };
            let rank = match u.why {
                Why::NoVotingWord => 2,
                Why::NotAPlayer => 3,
                _ => 0,
            };
            (rank, recorded)
        })
        .chain(voided)
        .collect();
    // The first COMMENTS by rank (a stable sort: by time within one) are
    // kept, in their order.
    let mut by_rank: Vec<usize> = (0..all.len()).collect();
    by_rank.sort_by_key(|&i| all[i].0);
    let mut keep = vec![false; all.len()];
    for &i in by_rank.iter().take(discussion::COMMENTS) {
        keep[i] = true;
    }
    let more = all.len().saturating_sub(discussion::COMMENTS);
    let kept = all
        .into_iter()
        .zip(keep)
        .filter_map(|((_, u), keep)| keep.then_some(u))
        .collect();
    (kept, u32::try_from(more).unwrap_or(u32::MAX))
}
