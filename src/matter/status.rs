//! What the bot tells players on a matter: the status comment, rendered
//! once from the engine's decision so the comment, the CLI output and the
//! record can never disagree. Pure.

use std::fmt::Write;

use crate::engine::ballot::Vote;
use crate::engine::tally::Source;
use crate::engine::{Decision, Grounds, MatterDecision, MatterKind, Run};
use crate::matter::MatterNumber;
use crate::matter::collected::Collected;
use crate::ruleset::diff::RuleChange;
use crate::time::Timestamp;

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

/// The status comment's text for people (the journal is added by the
/// caller): the tally with a row for every player in `active` (roster
/// order), as `play list` and the site show it.
pub fn status_text(
    decision: &MatterDecision,
    matter: &Collected,
    active: &[String],
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
    let _ = writeln!(
        out,
        "### {} #{}: {headline}\n",
        matter.kind, decision.number
    );
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
    // A push after the first vote that kept the votes, named so that
    // voters can read what changed under them.
    for head in matter.journal.heads.iter().skip(1).filter(|h| !h.voids) {
        let sha = head.sha.0.get(..7).unwrap_or(&head.sha.0);
        let _ = writeln!(
            out,
            "\nPushed at {} (`{sha}`), taken as a typo fix: any votes cast before it stand.",
            when(head.at)
        );
    }
    let rows = ballot(decision, active, Some(matter));
    if !rows.is_empty() {
        out.push_str("\n| player | vote | from |\n|---|---|---|\n");
    }
    for row in rows {
        let note = row.note.map(|n| format!(" ({n})")).unwrap_or_default();
        let from = match (row.via, row.at) {
            (Some(via), Some(at)) => {
                linked(format!("{via} at {}", when(at)), row.link.as_deref()) + &note
            }
            _ => String::new(),
        };
        let _ = writeln!(out, "| {} | {} | {from} |", row.player, row.shown());
    }
    let uncounted: Vec<String> = t
        .uncounted
        .iter()
        .map(|u| {
            format!(
                "- {} ({}): {}",
                u.by,
                linked(
                    when(u.at),
                    matter
                        .comments
                        .get(&u.order)
                        .and_then(|c| c.link.as_deref())
                ),
                u.why
            )
        })
        .chain(matter.voided.iter().map(|c| {
            let at = linked(when(c.created), c.link.as_deref());
            format!(
                "- `{}` ({at}): {}",
                c.author,
                crate::matter::collected::VOIDED
            )
        }))
        .collect();
    out.push_str(&not_counted(&uncounted));
    if let Progress::Pending = progress {
        let _ = writeln!(out, "\n**{}.**", capitalised(&standing(decision).next));
    }
    if !decision.reasons.is_empty() {
        out.push_str("\nBy the rules:\n");
        for reason in &decision.reasons {
            let _ = writeln!(out, "- {reason}");
        }
    }
    out
}

/// The most comments a status lists as not counted, one line each: a
/// crowd of comments by people who may not vote must not push a status
/// past the forge's limit on a comment, nor bury the tally.
pub const MAX_NOT_COUNTED_SHOWN: usize = 20;

/// The status's list of comments not counted (`lines`, one each): all of
/// them, or the first [`MAX_NOT_COUNTED_SHOWN`] and how many more.
fn not_counted(lines: &[String]) -> String {
    match lines.len() {
        0 => String::new(),
        n if n <= MAX_NOT_COUNTED_SHOWN => format!("\nNot counted:\n{}\n", lines.join("\n")),
        n => format!(
            "\n{n} comments not counted; the first {MAX_NOT_COUNTED_SHOWN}:\n{}\n- … and {} \
             more (`gitnomic play list` lists them all)\n",
            lines[..MAX_NOT_COUNTED_SHOWN].join("\n"),
            n - MAX_NOT_COUNTED_SHOWN
        ),
    }
}

/// `text` as a Markdown link to `url`, or plain without one.
fn linked(text: String, url: Option<&str>) -> String {
    match url {
        Some(url) => format!("[{text}]({url})"),
        None => text,
    }
}

/// `1 vote`, `2 votes`: a count with its noun.
pub fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A moment as people read it: `00:40 UTC on 4 Mar 2030`, with the
/// seconds when there are any (`09:00:01 UTC`: a limit of "more than 48
/// hours" passes one second after the hour, not at it).
pub fn when(t: Timestamp) -> String {
    t.in_words()
}

/// How a matter stands, in words: the one wording the status comment,
/// `play list` and the site's pending page share, so they cannot say
/// different things about the same tally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// `pending`, `would be enacted now` or `would fail now`.
    pub headline: &'static str,
    /// A CSS-friendly word for the headline: open, enacts or fails.
    pub class: &'static str,
    /// What happens next, as a sentence without its full stop: "needs 1
    /// more FOR; enacts at 00:40 UTC on 4 Mar 2030 if nothing changes".
    pub next: String,
}

/// The matter's [`Standing`].
pub fn standing(d: &MatterDecision) -> Standing {
    let t = &d.tally;
    let vetoer = t
        .votes
        .iter()
        .find(|(_, v)| v.cast == Vote::Veto)
        .map(|(name, _)| name.0.clone());
    let (headline, class) = match d.decision {
        Decision::Enact => ("would be enacted now", "enacts"),
        Decision::Fail => ("would fail now", "fails"),
        Decision::Wait => ("pending", "open"),
    };
    let blocked = match vetoer {
        Some(who) if t.vetoed => Some(format!("vetoed by {who}")),
        _ if t.vetoed => Some("vetoed".to_string()),
        _ if t.self_killed => Some("self-killed by its author".to_string()),
        _ => None,
    };
    let then = match d.decision {
        Decision::Enact => "enacts when the resolver next runs".to_string(),
        Decision::Fail => "fails when the resolver next runs".to_string(),
        Decision::Wait => waiting(d),
    };
    // A vetoed or self-killed matter waiting its turn says why it will fail.
    let next = match blocked {
        Some(why) => format!("{why}; {then}"),
        None => then,
    };
    Standing {
        headline,
        class,
        next,
    }
}

/// What a waiting matter needs, or why it waits.
fn waiting(d: &MatterDecision) -> String {
    let mut parts = Vec::new();
    if let Some(n) = &d.next_change {
        if let Some(k) = n.more_for {
            parts.push(format!("needs {k} more FOR"));
        }
        if let Some(k) = n.more_against {
            parts.push(format!("{k} more AGAINST would fail it"));
        }
        if let (Some(at), Some(becomes)) = (n.at, n.becomes) {
            let verb = match becomes {
                Decision::Enact => "enacts",
                Decision::Fail => "fails",
                Decision::Wait => "waits again",
            };
            parts.push(format!("{verb} at {} if nothing changes", when(at)));
        }
    }
    // The engine's own words when they are about the queue, the calendar
    // or the matter's validity; its condition arithmetic is for "why", not
    // "next".
    if parts.is_empty() && d.grounds != Grounds::Conditions {
        parts.extend(d.reasons.iter().cloned());
    }
    if parts.is_empty() {
        "waits for more votes".to_string()
    } else {
        parts.join("; ")
    }
}

/// One player's line in a matter's tally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BallotRow {
    /// The player.
    pub player: String,
    /// Their vote as cast, `None` for no vote yet.
    pub cast: Option<Vote>,
    /// What it counts as, when that differs from what was cast (a
    /// DEFERENTIAL following the emperor).
    pub counts_as: Option<Vote>,
    /// The author's implicit FOR rather than a comment.
    pub implicit: bool,
    /// When the vote was cast, if by a comment.
    pub at: Option<Timestamp>,
    /// What the vote came from (`a review (approved)`), if by a comment.
    pub via: Option<&'static str>,
    /// A link to that comment or review, if the forge gives one.
    pub link: Option<String>,
    /// What became of that comment since it was cast (edited, deleted):
    /// the vote counts as it was first seen.
    pub note: Option<&'static str>,
}

impl BallotRow {
    /// `FOR`, `—`, `DEFERENTIAL (counts as FOR)`, `FOR (the author's own)`.
    pub fn shown(&self) -> String {
        let Some(cast) = self.cast else {
            return "—".to_string();
        };
        let mut out = cast.as_str().to_string();
        match self.counts_as {
            Some(v) => {
                let _ = write!(out, " (counts as {})", v.as_str());
            }
            None if cast == Vote::Deferential => out.push_str(" (counts as no vote)"),
            None => {}
        }
        if self.implicit {
            out.push_str(" (the author's own)");
        }
        out
    }
}

/// One row per player in `active` (roster order) with their vote or none,
/// then anyone else whose vote counted; `matter`, when known, says which
/// comment or review each vote came from.
pub fn ballot(d: &MatterDecision, active: &[String], matter: Option<&Collected>) -> Vec<BallotRow> {
    let row = |player: &str| {
        let counted = d.tally.votes.iter().find(|(name, _)| name.0 == player);
        let comment = counted
            .and_then(|(_, v)| match v.source {
                Source::Comment { order, .. } => Some(order),
                Source::Implicit => None,
            })
            .and_then(|order| matter?.comments.get(&order));
        BallotRow {
            player: player.to_string(),
            cast: counted.map(|(_, v)| v.cast),
            counts_as: counted
                .filter(|(_, v)| v.vote != v.cast)
                .map(|(_, v)| v.vote),
            implicit: counted.is_some_and(|(_, v)| v.source == Source::Implicit),
            at: counted.and_then(|(_, v)| match v.source {
                Source::Comment { at, .. } => Some(at),
                Source::Implicit => None,
            }),
            via: comment.map(|c| c.via.describe()),
            link: comment.and_then(|c| c.link.clone()),
            note: comment.and_then(|c| matter?.changed_since(c.id)),
        }
    };
    let mut rows: Vec<BallotRow> = active.iter().map(|p| row(p)).collect();
    for name in d.tally.votes.keys() {
        if !active.contains(&name.0) {
            rows.push(row(&name.0));
        }
    }
    rows
}

/// The open matters of a run as `play list` prints them: one paragraph
/// each, with every active player's vote and what happens next.
pub fn run_text<'m>(
    run: &Run,
    active: &[String],
    matter: &dyn Fn(MatterNumber) -> Option<&'m Collected>,
) -> String {
    let mut out = format!(
        "As of {}: {}, quorum {}.\n",
        when(run.now),
        plural(run.turnout.active, "active player", "active players"),
        run.turnout.quorum
    );
    for d in &run.decisions {
        let s = standing(d);
        let name = matter(d.number)
            .map(|m| format!(" “{}”", m.info.subject_title()))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "\n{} #{}{name}: {} ({} FOR, {} AGAINST; quorum {})\n  {}.",
            kind_name(d.kind),
            d.number,
            s.headline,
            d.tally.for_votes,
            d.tally.against_votes,
            run.turnout.quorum,
            capitalised(&s.next)
        );
        for row in ballot(d, active, matter(d.number)) {
            let via = row.via.map(|v| format!(", by {v}")).unwrap_or_default();
            let at = row
                .at
                .map(|t| format!(" at {}", when(t)))
                .unwrap_or_default();
            let link = row
                .link
                .as_ref()
                .map(|l| format!(" <{l}>"))
                .unwrap_or_default();
            let note = row.note.map(|n| format!(" ({n})")).unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}: {}{via}{at}{note}{link}",
                row.player,
                row.shown()
            );
        }
        for u in &d.tally.uncounted {
            let _ = writeln!(out, "  not counted: {} at {}: {}", u.by, when(u.at), u.why);
        }
        for c in matter(d.number).into_iter().flat_map(|m| &m.voided) {
            let _ = writeln!(
                out,
                "  not counted: {} at {}: {}",
                c.author,
                when(c.created),
                crate::matter::collected::VOIDED
            );
        }
    }
    out
}

/// Proposal, CfJ, DoV.
pub fn kind_name(kind: MatterKind) -> &'static str {
    match kind {
        MatterKind::Proposal => "Proposal",
        MatterKind::Cfj => "CfJ",
        MatterKind::Dov => "DoV",
    }
}

/// What the next run does with a matter the rules decide but it cannot
/// carry out (a pull request whose branch is gone), as `play list` and the
/// pending page say it and `resolve` does it.
pub fn held(why: &str) -> String {
    format!("held when the resolver next runs: {why}")
}

/// The status of a matter the rules enact but whose merge the forge
/// refuses (405: branch protection, a merge queue), with the way out: what
/// the resolver posts once, and what each later run finds unchanged.
pub fn refused_merge(n: crate::matter::MatterNumber, reason: &str) -> String {
    format!(
        "### #{n}: Held: the forge refuses to merge it\n\n\
         The rules enact it, but the merge was refused: {reason}\n\n\
         Nothing is merged or recorded, and no run asks again, while it carries the \
         `{held}` label. The way out, for an admin: let the resolver merge into the \
         default branch (on GitHub, in the branch protection rule or ruleset of the \
         default branch, let GitHub Actions bypass required reviews and checks, or take \
         the branch out of the merge queue), then remove the `{held}` label; the next \
         run decides it again and merges it. A push to the pull request has it decided \
         again too.",
        reason = reason.trim().trim_end_matches('.'),
        held = crate::matter::labels::HELD,
    )
}

/// Why a run holds a matter whose merge the forge refused, as `resolve`,
/// `check` and `play list` say it.
pub fn merge_refused(reason: &str) -> String {
    format!(
        "the forge refuses to merge it ({}); an admin who lets the resolver merge removes the `{}` label",
        reason.trim().trim_end_matches('.'),
        crate::matter::labels::HELD
    )
}

/// What the next run does with a matter its votes enact but whose change
/// cannot be carried out (its files leave the game with problems, or it
/// conflicts with what was enacted before it), as `play list` and the
/// pending page say it and `resolve` does it.
pub fn refused(why: &str) -> String {
    format!("fails when the resolver next runs, though its votes enact it: {why}")
}

/// What a pending matter's votes would come to if they enacted it: its
/// change cannot be carried out as things stand (`why`), as `play list`,
/// the status comment and the pending page say it before anyone votes.
pub fn flawed(why: &str) -> String {
    format!("fails if its votes enact it: {why}")
}

/// The sentence with its first letter in capitals.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The names of the players active at `t`, in roster order.
pub fn active_players(state: &crate::gamestate::GameState, t: Timestamp) -> Vec<String> {
    state
        .players
        .iter()
        .filter(|p| p.is_active_at(t))
        .map(|p| p.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tally::{CountedVote, Tally};
    use crate::engine::{NextChange, PlayerName};

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn waiting(next: Option<NextChange>, grounds: Grounds, reasons: &[&str]) -> MatterDecision {
        MatterDecision {
            number: MatterNumber(7),
            kind: MatterKind::Proposal,
            opened: at("2030-03-01T00:00:00Z"),
            decision: Decision::Wait,
            tally: Tally::default(),
            grounds,
            reasons: reasons.iter().map(ToString::to_string).collect(),
            next_change: next,
        }
    }

    #[test]
    fn the_next_step_reads_as_a_sentence() {
        let next = NextChange {
            at: Some(at("2030-03-04T00:40:00Z")),
            becomes: Some(Decision::Enact),
            more_for: Some(1),
            more_against: None,
        };
        assert_eq!(
            standing(&waiting(
                Some(next),
                Grounds::Conditions,
                &["not failed yet: 4 (5 active players minus 1 AGAINST), at least the quorum of 3"]
            ))
            .next,
            "needs 1 more FOR; enacts at 00:40 UTC on 4 Mar 2030 if nothing changes"
        );
        // The engine's arithmetic is not a next step; its queue is.
        assert_eq!(
            standing(&waiting(
                None,
                Grounds::Conditions,
                &["not enacted yet: 1 FOR, under the quorum of 3"]
            ))
            .next,
            "waits for more votes"
        );
        assert_eq!(
            standing(&waiting(
                None,
                Grounds::Queue,
                &["waits for the older proposal #3"]
            ))
            .next,
            "waits for the older proposal #3"
        );
        // By the reasons' kind, not their words: arithmetic is left out
        // whatever it begins with.
        assert_eq!(
            standing(&waiting(
                None,
                Grounds::Conditions,
                &["1 FOR, under the quorum of 3"]
            ))
            .next,
            "waits for more votes"
        );
        assert_eq!(
            standing(&waiting(
                None,
                Grounds::Invalid,
                &["not a valid proposal: its author was not an active player"]
            ))
            .next,
            "not a valid proposal: its author was not an active player"
        );
        assert_eq!(plural(1, "vote", "votes"), "1 vote");
        assert_eq!(plural(2, "vote", "votes"), "2 votes");
    }

    #[test]
    fn every_active_player_has_a_row_and_def_shows_what_it_counts_as() {
        let mut d = waiting(None, Grounds::Conditions, &[]);
        d.decision = Decision::Fail;
        d.tally.vetoed = true;
        d.tally.votes.insert(
            PlayerName("Ada".into()),
            CountedVote {
                vote: Vote::Veto,
                cast: Vote::Veto,
                source: Source::Comment {
                    order: 1,
                    at: at("2030-03-01T01:00:00Z"),
                },
            },
        );
        d.tally.votes.insert(
            PlayerName("Cleo".into()),
            CountedVote {
                vote: Vote::Against,
                cast: Vote::Deferential,
                source: Source::Comment {
                    order: 2,
                    at: at("2030-03-01T02:00:00Z"),
                },
            },
        );
        let rows = ballot(&d, &["Ada".into(), "Boris".into(), "Cleo".into()], None);
        let shown: Vec<String> = rows.iter().map(BallotRow::shown).collect();
        assert_eq!(shown, ["VETO", "—", "DEFERENTIAL (counts as AGAINST)"]);
        assert_eq!(
            standing(&d).next,
            "vetoed by Ada; fails when the resolver next runs"
        );
    }
}
