//! A run, printed: as JSON for machines (the shape MECHANICS.md fixes for
//! `gitnomic tally --json`) and as text for people, one matter per
//! paragraph. Both are pure functions of a [`Run`]; the same text can be
//! posted as a pull request comment.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::ballot::Vote;
use super::decide::Decision;
use super::next::NextChange;
use super::snapshot::MatterKind;
use super::tally::Source;
use super::{MatterDecision, Run};
use crate::time::Timestamp;

#[derive(Serialize)]
struct RunView<'a> {
    now: Timestamp,
    active: i64,
    quorum: i64,
    decisions: Vec<DecisionView<'a>>,
}

#[derive(Serialize)]
struct DecisionView<'a> {
    id: super::MatterNumber,
    kind: MatterKind,
    decision: Decision,
    #[serde(rename = "for")]
    for_votes: i64,
    against: i64,
    votes: BTreeMap<&'a str, Vote>,
    uncounted: Vec<UncountedView<'a>>,
    reasons: &'a [String],
    next_change: Option<NextChange>,
}

#[derive(Serialize)]
struct UncountedView<'a> {
    by: &'a str,
    at: Timestamp,
    why: String,
}

fn view(d: &MatterDecision) -> DecisionView<'_> {
    DecisionView {
        id: d.number,
        kind: d.kind,
        decision: d.decision,
        for_votes: d.tally.for_votes,
        against: d.tally.against_votes,
        votes: d
            .tally
            .votes
            .iter()
            .map(|(name, v)| (name.0.as_str(), v.vote))
            .collect(),
        uncounted: d
            .tally
            .uncounted
            .iter()
            .map(|u| UncountedView {
                by: &u.by.0,
                at: u.at,
                why: u.why.to_string(),
            })
            .collect(),
        reasons: &d.reasons,
        next_change: d.next_change,
    }
}

/// The run as one JSON object.
pub fn json(run: &Run) -> Result<String, serde_json::Error> {
    let view = RunView {
        now: run.now,
        active: run.turnout.active,
        quorum: run.turnout.quorum,
        decisions: run.decisions.iter().map(view).collect(),
    };
    serde_json::to_string_pretty(&view)
}

/// The run as text for people.
pub fn text(run: &Run) -> String {
    let mut out = format!(
        "At {}: {} active players, quorum {}.\n",
        run.now, run.turnout.active, run.turnout.quorum
    );
    for d in &run.decisions {
        out.push('\n');
        paragraph(&mut out, d);
    }
    out
}

fn paragraph(out: &mut String, d: &MatterDecision) {
    let kind = match d.kind {
        MatterKind::Proposal => "Proposal",
        MatterKind::Cfj => "CfJ",
        MatterKind::Dov => "DoV",
    };
    let t = &d.tally;
    let _ = writeln!(
        out,
        "{kind} #{}: {} ({} FOR, {} AGAINST)",
        d.number,
        d.decision.as_str().to_uppercase(),
        t.for_votes,
        t.against_votes
    );
    let flags = [(t.vetoed, "vetoed"), (t.self_killed, "self-killed")];
    for (_, flag) in flags.iter().filter(|f| f.0) {
        let _ = writeln!(out, "  {flag}");
    }
    for (name, v) in &t.votes {
        let shown = if v.vote == v.cast {
            v.vote.as_str().to_owned()
        } else {
            format!(
                "{} (follows the emperor's {})",
                v.cast.as_str(),
                v.vote.as_str()
            )
        };
        let from = match v.source {
            Source::Implicit => "the author's implicit vote".to_owned(),
            Source::Comment { at, .. } => format!("comment at {at}"),
        };
        let _ = writeln!(out, "  {name}: {shown}, from {from}");
    }
    for u in &t.uncounted {
        let _ = writeln!(out, "  not counted: {} at {}: {}", u.by, u.at, u.why);
    }
    for r in &d.reasons {
        let _ = writeln!(out, "  because {r}");
    }
    if let Some(next) = &d.next_change {
        let _ = writeln!(out, "  next: {}", describe_next(next));
    }
}

/// A look-ahead in words: "needs 1 more FOR; without new votes it becomes
/// enact at 2030-03-03T00:00:00Z".
pub fn describe_next(n: &NextChange) -> String {
    let mut parts = Vec::new();
    if let Some(k) = n.more_for {
        parts.push(format!("needs {k} more FOR to enact now"));
    }
    if let Some(k) = n.more_against {
        parts.push(format!("{k} more AGAINST would fail it now"));
    }
    if let (Some(at), Some(d)) = (n.at, n.becomes) {
        parts.push(format!(
            "without new votes it becomes {} at {at}",
            d.as_str()
        ));
    }
    parts.join("; ")
}
