//! Auditing a record: the engine run again on the votes a record keeps,
//! under the rules in force when the matter was decided, must decide the
//! same. Pure: `gitnomic audit` finds each record and the game at its base
//! in the history, and this module judges them, so a game can prove it was
//! played by its own rules.

use crate::collected::snapshot;
use crate::engine::{self, Comment, Decision, Matter, MatterKind, PlayerName};
use crate::game::Game;
use crate::record::{Failure, Outcome, Record};

/// Why a record disagrees with the engine, if it does.
pub fn disagreement(record: &Record, base: &Game) -> Option<String> {
    let (Some(state), Some(params)) = (&base.state, &base.params) else {
        return Some("the game at its base cannot be read".into());
    };
    let recorded = match record.outcome {
        Outcome::Enacted => Decision::Enact,
        Outcome::Failed => Decision::Fail,
        // Closed unvoted, with its reason: no votes to count again.
        Outcome::NotAMatter => return None,
    };
    let kind = record.kind;
    // Votes cast by comment, and those that made it vetoed or self-killed
    // for good; the author's implicit FOR (no time) is the engine's to add.
    let comments = record
        .sticky
        .iter()
        .chain(&record.votes)
        .filter_map(|v| v.at.map(|at| (v, at)))
        .enumerate()
        .map(|(i, (v, at))| Comment {
            order: u64::try_from(i).unwrap_or(u64::MAX),
            by: PlayerName(v.player.clone()),
            at,
            body: v.vote.clone(),
        })
        .collect();
    let matter = Matter {
        id: record.number,
        kind,
        author: PlayerName(record.author.clone()),
        opened: record.opened,
        comments,
    };
    let snap = snapshot(state, params, vec![matter]);
    let run = engine::decide(&snap, record.resolved);
    let decided = run.get(record.number)?;
    let t = &decided.tally;
    let counts = record
        .tally
        .map(|t| (i64::from(t.for_), i64::from(t.against)));
    if counts.is_some_and(|c| c != (t.for_votes, t.against_votes)) {
        return Some(format!(
            "the record counts {} FOR and {} AGAINST; its votes count {} FOR and {} AGAINST",
            counts.map_or(0, |c| c.0),
            counts.map_or(0, |c| c.1),
            t.for_votes,
            t.against_votes
        ));
    }
    if decided.decision == recorded {
        return None;
    }
    // Failed for a reason the votes alone do not hold: enacted by vote but
    // impossible to carry out, or failed by another DoV's enactment.
    let illegal = record.failure == Some(Failure::Illegal) && decided.decision == Decision::Enact;
    let by_other_dov = recorded == Decision::Fail
        && record.kind == MatterKind::Dov
        && record
            .reasons
            .iter()
            .any(|r| r.contains("was enacted, which fails every other DoV"));
    if illegal || by_other_dov {
        return None;
    }
    Some(format!(
        "recorded {}, but its votes under the rules then {} it at {}: {}",
        record.status(),
        match decided.decision {
            Decision::Enact => "enact",
            Decision::Fail => "fail",
            Decision::Wait => "do not yet decide",
        },
        record.resolved,
        decided.reasons.join("; ")
    ))
}
