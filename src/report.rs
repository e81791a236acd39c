//! What the bot tells players on a matter: the status comment, rendered
//! once from the engine's decision so the comment, the CLI output and the
//! record can never disagree. Pure.

use std::fmt::Write;

use crate::collected::Collected;
use crate::engine::report::describe_next;
use crate::engine::tally::Source;
use crate::engine::{Decision, MatterDecision};
use crate::ruleset::diff::RuleChange;

/// What the run is doing about the matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Still pending.
    Pending,
    /// Decided; being carried out (shown if a run stops half-way).
    Carrying(Decision),
    /// Enacted and recorded.
    Enacted,
    /// Failed and recorded.
    Failed,
    /// Decided, but the forge refused; the next run will try again.
    Blocked(String),
}

/// The status comment's text for people (the journal is added by the caller).
pub fn status_text(
    decision: &MatterDecision,
    matter: &Collected,
    changes: &[RuleChange],
    progress: &Progress,
) -> String {
    let mut out = String::new();
    let t = &decision.tally;
    let headline = match progress {
        Progress::Pending => "Pending".to_string(),
        Progress::Carrying(d) => format!("Decided: {} (being carried out)", d.as_str()),
        Progress::Enacted => "Enacted".to_string(),
        Progress::Failed => "Failed".to_string(),
        Progress::Blocked(why) => format!(
            "Decided: {}, but not done: {why}",
            decision.decision.as_str()
        ),
    };
    let _ = writeln!(out, "### {} #{}: {headline}\n", matter.kind, decision.id);
    let _ = writeln!(out, "**{} FOR, {} AGAINST**", t.for_votes, t.against_votes);
    if t.vetoed {
        out.push_str("\n**Vetoed.**\n");
    }
    if t.self_killed {
        out.push_str("\n**Self-killed.**\n");
    }
    if !changes.is_empty() {
        let list: Vec<String> = changes.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "\nThis proposal {}.", list.join(", "));
    }
    if !t.votes.is_empty() {
        out.push_str("\n| player | vote | from |\n|---|---|---|\n");
        for (name, v) in &t.votes {
            let shown = if v.vote == v.cast {
                v.vote.as_str().to_string()
            } else {
                format!(
                    "{} (follows the emperor: {})",
                    v.cast.as_str(),
                    v.vote.as_str()
                )
            };
            let from = match v.source {
                Source::Implicit => "the author's own proposal".to_string(),
                Source::Comment { order, at } => link(matter, order, &at.to_string()),
            };
            let _ = writeln!(out, "| {name} | {shown} | {from} |");
        }
    }
    let uncounted: Vec<String> = t
        .uncounted
        .iter()
        .map(|u| {
            format!(
                "- {} ({}): {}",
                u.by,
                link(matter, u.order, &u.at.to_string()),
                u.why
            )
        })
        .chain(matter.voided.iter().map(|c| {
            format!(
                "- @{} ({}): {}",
                c.author,
                c.created,
                crate::collected::VOIDED
            )
        }))
        .collect();
    if !uncounted.is_empty() {
        let _ = writeln!(out, "\nNot counted:\n{}", uncounted.join("\n"));
    }
    if !decision.reasons.is_empty() {
        let _ = writeln!(out, "\nBecause: {}.", decision.reasons.join("; "));
    }
    if let (Progress::Pending, Some(next)) = (progress, &decision.next_change) {
        let _ = writeln!(out, "\nNext: {}.", describe_next(next));
    }
    out
}

fn link(matter: &Collected, order: u64, text: &str) -> String {
    match matter.comments.get(&order).and_then(|c| c.link.as_deref()) {
        Some(url) => format!("[{text}]({url})"),
        None => text.to_string(),
    }
}
