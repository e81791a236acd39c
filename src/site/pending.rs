//! Pending matters as the site shows them: the plan's tally view of each,
//! turned into a view for the templates, worded by
//! [`crate::report::standing`] so the page, the status comment and `play
//! list` say the same. Pure.

use super::{Pending, PendingView, PendingVote};
use crate::collected::Collected;
use crate::engine::ballot::Vote;
use crate::engine::{MatterDecision, Run};
use crate::report::{self, BallotRow};
use crate::time::Timestamp;

/// What the pending page shows of a run: every matter the forge knows,
/// oldest first. `matter` finds the forge's side of a matter (title,
/// author) by number, `author` names a forge login as a player, and
/// `active` lists the players active now in roster order.
pub fn views(
    run: &Run,
    matter: &dyn Fn(u64) -> Option<Collected>,
    author: &dyn Fn(&str) -> String,
    active: &[String],
) -> Pending {
    let mut views: Vec<(Timestamp, PendingView)> = run
        .decisions
        .iter()
        .filter_map(|d| matter(d.id).map(|m| (d.opened, view(run, d, &m, author, active))))
        .collect();
    views.sort_by_key(|(opened, v)| (*opened, v.number));
    Pending {
        as_of: Some(report::when(run.now)),
        as_of_iso: Some(run.now.to_string()),
        matters: views.into_iter().map(|(_, v)| v).collect(),
    }
}

fn view(
    run: &Run,
    d: &MatterDecision,
    m: &Collected,
    author: &dyn Fn(&str) -> String,
    active: &[String],
) -> PendingView {
    let count = |n: i64| u32::try_from(n).unwrap_or(0);
    let standing = report::standing(d);
    let for_ = count(d.tally.for_votes);
    let quorum = count(run.quorum);
    PendingView {
        number: d.id,
        kind: report::kind_name(d.kind).to_string(),
        title: m.info.title.clone(),
        author: author(&m.info.author.0),
        author_url: None,
        link: m.info.link.clone(),
        opened: report::when(m.info.opened),
        votes: report::ballot(d, active, Some(m)).iter().map(row).collect(),
        votes_label: report::plural(d.tally.votes_cast, "vote", "votes"),
        for_,
        against: count(d.tally.against_votes),
        quorum,
        for_percent: bar(for_, quorum),
        decision: standing.headline.to_string(),
        decision_class: standing.class.to_string(),
        next: report::capitalised(&standing.next),
        reasons: d.reasons.clone(),
    }
}

/// FOR as a share of the quorum, 0 to 100.
pub fn bar(for_: u32, quorum: u32) -> u32 {
    (for_.min(quorum) * 100).checked_div(quorum).unwrap_or(100)
}

fn row(r: &BallotRow) -> PendingVote {
    let class = match r.counts_as.or(r.cast) {
        None => "none",
        Some(Vote::For) => "for",
        Some(Vote::Against | Vote::Veto) => "against",
        Some(Vote::Deferential) => "other",
    };
    PendingVote {
        player: r.player.clone(),
        url: None,
        vote: r.shown(),
        class: class.to_string(),
        at: r.at.map(report::when),
        via: r.via.map(str::to_string),
        link: r.link.clone(),
    }
}

/// The pending matters with their players' pages filled in (the page
/// names are the site's business, not the tally's).
pub(crate) fn linked(cx: &super::context::Context) -> Pending {
    let url = |name: &str| cx.slugs.contains_key(name).then(|| cx.player_url(name));
    let mut pending = cx.input.pending.clone();
    for m in &mut pending.matters {
        m.author_url = url(&m.author);
        for v in &mut m.votes {
            v.url = url(&v.player);
        }
    }
    pending
}

#[cfg(test)]
mod tests {
    use super::bar;

    #[test]
    fn the_bar_is_a_share_of_the_quorum_and_never_overflows() {
        assert_eq!(bar(0, 3), 0);
        assert_eq!(bar(2, 3), 66);
        assert_eq!(bar(5, 3), 100);
        assert_eq!(bar(0, 0), 100);
    }
}
