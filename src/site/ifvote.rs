//! What a player's vote would do now: for each pending matter and each
//! active player who has not voted on it, the engine's decision if they
//! voted FOR, and if they voted AGAINST, at the moment the site is built.
//! Computed here, at build time, so the page needs no server: its small
//! script only picks out the reader's row. Pure.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::{self, Comment, Matter, PlayerName, Snapshot};
use crate::matter::{MatterNumber, status};
use crate::time::Timestamp;

/// One player's two choices on one matter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IfVote {
    /// The player.
    pub player: String,
    /// `would be enacted now: enacts when the resolver next runs`.
    #[serde(rename = "for")]
    pub for_: String,
    /// The same, voting AGAINST.
    pub against: String,
}

/// For each matter of `snapshot` (by id), what each of `voters(id)` would
/// make of it by voting FOR or AGAINST at `now`, as the engine decides it
/// with every other matter as it stands.
pub fn if_votes(
    snapshot: &Snapshot,
    now: Timestamp,
    voters: &dyn Fn(MatterNumber) -> Vec<String>,
) -> BTreeMap<MatterNumber, Vec<IfVote>> {
    let mut out = BTreeMap::new();
    for (i, matter) in snapshot.matters.iter().enumerate() {
        let rows: Vec<IfVote> = voters(matter.id)
            .into_iter()
            .map(|player| IfVote {
                for_: outcome(snapshot, i, &player, "FOR", now),
                against: outcome(snapshot, i, &player, "AGAINST", now),
                player,
            })
            .collect();
        if !rows.is_empty() {
            out.insert(matter.id, rows);
        }
    }
    out
}

/// The standing of matter `i` of `snapshot` had `player` commented `vote`
/// on it at `now`, in the words of the pending card.
fn outcome(snapshot: &Snapshot, i: usize, player: &str, vote: &str, now: Timestamp) -> String {
    let mut what_if = snapshot.clone();
    let matter: &mut Matter = &mut what_if.matters[i];
    let order = matter.comments.iter().map(|c| c.order).max().unwrap_or(0) + 1;
    matter.comments.push(Comment {
        order,
        by: PlayerName(player.to_string()),
        at: now,
        body: vote.to_string(),
    });
    let id = matter.id;
    let run = engine::look_ahead(&what_if, now);
    match run.get(id) {
        Some(d) => {
            let s = status::standing(d);
            format!("{}: {}", s.headline, s.next)
        }
        None => "no change the engine can tell".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::if_votes;
    use crate::engine::scenario;
    use crate::matter::MatterNumber;

    /// A CfJ by A among three players: A's own FOR stands, the quorum is
    /// two. B's FOR would carry it now; B's AGAINST would not.
    #[test]
    fn each_voter_sees_what_their_for_and_against_would_do() {
        let text = r#"
title = "what if"
preset = "blognomic-113"
now = "2030-03-01T02:00:00Z"

[game]
emperor = "C"

[[players]]
name = "A"

[[players]]
name = "B"

[[players]]
name = "C"

[[matters]]
id = 1
kind = "cfj"
author = "A"
opened = "2030-03-01T00:00:00Z"
"#;
        let s = scenario::parse(text).expect("the scenario parses");
        let now = s.now.expect("a moment");
        let rows = if_votes(&s.snapshot, now, &|_| vec!["B".into()]);
        let b = &rows[&MatterNumber(1)][0];
        assert_eq!(b.player, "B");
        assert!(b.for_.starts_with("would be enacted now"), "{b:?}");
        assert!(!b.against.starts_with("would be enacted now"), "{b:?}");
        assert!(if_votes(&s.snapshot, now, &|_| Vec::new()).is_empty());
    }
}
