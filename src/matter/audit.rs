//! Auditing a record: the engine run again on the votes a record keeps,
//! under the rules in force when the matter was decided, must decide the
//! same. Pure: `gitnomic audit` finds each record and the game at its base
//! in the history, and this module judges them, so a game can prove it was
//! played by its own rules.

use crate::engine::{self, Comment, Decision, Matter, MatterKind, PlayerName};
use crate::game::Game;
use crate::matter::MatterInfo;
use crate::matter::collected::snapshot;
use crate::matter::labels::{ENACTED, FAILED, NOT_A_MATTER, RESOLVING};
use crate::record::{Failure, Outcome, Record};

/// Why a record's outcome disagrees with what the forge says became of
/// its matter, if it does: an enacted pull request is merged and one that
/// failed or was no matter is not, and a matter the resolver finished
/// carries the label of its outcome and of no other. A matter still
/// labelled `resolving` is being finished, and its labels are not judged.
pub fn forge_disagreement(record: &Record, forge: &MatterInfo) -> Option<String> {
    let has = |label: &str| forge.labels.iter().any(|l| l.eq_ignore_ascii_case(label));
    let said = outcome_label(record.outcome);
    if forge.pull && forge.merged != (record.outcome == Outcome::Enacted) {
        let merged = if forge.merged { "merged" } else { "not merged" };
        return Some(format!(
            "the record says {said}, but the forge says its pull request was {merged}"
        ));
    }
    if has(RESOLVING) {
        return None;
    }
    let others: Vec<&str> = [Outcome::Enacted, Outcome::Failed, Outcome::NotAMatter]
        .into_iter()
        .map(outcome_label)
        .filter(|l| *l != said && has(l))
        .collect();
    (!others.is_empty()).then(|| {
        format!(
            "the record says {said}, but the forge labels it {}",
            others.join(" and ")
        )
    })
}

/// The label the resolver gives a matter of `outcome`.
fn outcome_label(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Enacted => ENACTED,
        Outcome::Failed => FAILED,
        Outcome::NotAMatter => NOT_A_MATTER,
    }
}

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

/// A version of a file after an enactment, as [`undone`] reads it.
#[derive(Debug, Clone)]
pub struct Later<'a> {
    /// The commit.
    pub commit: &'a str,
    /// Its message.
    pub message: &'a str,
    /// The file's text then (`None`: gone).
    pub text: Option<&'a str>,
    /// Whether the rules allow this commit to change what an enactment
    /// made: another matter's enactment, the resolver's own commits
    /// (actions, the dynasty, records), an admin's typo fix.
    pub allowed: bool,
}

/// The lines an enactment added to a file (`after` where `before` was)
/// that the file's later versions (oldest first, the last being the
/// default branch's) no longer hold, each with the version that took it
/// away, when that version was not allowed to: an enactment reverted by
/// hand. Blank lines are not counted.
pub fn undone<'v>(
    before: &str,
    after: &str,
    later: &'v [Later<'v>],
) -> Vec<(String, &'v Later<'v>)> {
    let lines = |text: Option<&str>| -> Vec<String> {
        text.unwrap_or_default()
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut added = lines(Some(after));
    for line in lines(Some(before)) {
        if let Some(i) = added.iter().position(|a| *a == line) {
            added.remove(i);
        }
    }
    let Some(last) = later.last() else {
        return Vec::new();
    };
    let now = lines(last.text);
    let mut out = Vec::new();
    for line in added.into_iter().filter(|l| !now.contains(l)) {
        // The last version that took it away.
        let mut held = true;
        let mut remover = None;
        for v in later {
            let has = lines(v.text).contains(&line);
            if held && !has {
                remover = Some(v);
            }
            held = has;
        }
        if let Some(v) = remover.filter(|v| !v.allowed) {
            out.push((line, v));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_an_enactment_added_and_a_hand_took_away_is_undone() {
        let v = |commit, text, allowed| Later {
            commit,
            message: "m",
            text: Some(text),
            allowed,
        };
        let before = "a = 1\nb = 2\n";
        let after = "a = 5\nb = 2\n";
        let reverted = [
            v("c1", "a = 5\nb = 3\n", true),
            v("c2", "a = 1\nb = 3\n", false),
        ];
        let found = undone(before, after, &reverted);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].0.as_str(), found[0].1.commit), ("a = 5", "c2"));
        let changed_by_a_matter = [v("c1", "a = 6\nb = 2\n", true)];
        assert!(undone(before, after, &changed_by_a_matter).is_empty());
        let kept = [v("c1", "a = 5\nb = 9\n", false)];
        assert!(undone(before, after, &kept).is_empty());
    }
}
