//! The bot's status comment on a matter, and the journal hidden in it.
//!
//! There is one status comment per matter, found by a hidden marker and
//! edited in place, never duplicated. Besides the tally for people it
//! carries a small journal as an HTML comment: the heads the bot has seen
//! (so votes can be bound to the commit they were cast on) and the decision
//! it is carrying out (so a run that dies between merging and recording
//! can be finished by the next one). The journal is data the bot wrote; it
//! is read back only from the bot's own comment.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::matter::HeadSha;
use crate::record::Outcome;
use crate::time::Timestamp;

/// The first line of every status comment.
pub const MARKER: &str = "<!-- gitnomic:status -->";
const JOURNAL_OPEN: &str = "<!-- gitnomic:journal ";
const JOURNAL_CLOSE: &str = " -->";

/// A head the bot saw, and when it first saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenHead {
    /// The commit.
    pub sha: HeadSha,
    /// When it was first seen (the push time, as near as the bot knows).
    pub at: Timestamp,
    /// Whether this push voided the votes cast before it (more than a typo fix).
    #[serde(default)]
    pub voids: bool,
}

/// A decision taken at a moment, on a head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// Enacted or failed (merged, for what needs no vote).
    pub outcome: Outcome,
    /// The moment the tally was taken.
    pub at: Timestamp,
    /// The head the votes were counted on (pull requests).
    pub head: Option<HeadSha>,
    /// Why, as decided: a run that finishes an interrupted one records the
    /// same reasons, even those the votes alone do not give (another DoV
    /// enacted, a merge that could not be carried out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// Enacted by vote but impossible to carry out, so failed as illegal.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub illegal: bool,
}

/// Who made a comment that carried voting words when the bot first saw
/// it, and when: what a deleted comment's first-seen vote needs to count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Voter {
    /// The comment's author.
    pub by: crate::matter::Login,
    /// When it was made.
    pub at: Timestamp,
}

/// The journal kept in a status comment.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Journal {
    /// Heads seen, oldest first.
    #[serde(default)]
    pub heads: Vec<SeenHead>,
    /// The decision being carried out, once there is one.
    #[serde(default)]
    pub resolution: Option<Resolution>,
    /// The voting words of each comment when the bot first saw it, by
    /// comment id: an edited comment counts as it was first seen.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub first_seen: BTreeMap<u64, String>,
    /// Who made each comment of `first_seen` that carried voting words, and
    /// when: a comment deleted since counts as it was first seen, as an
    /// edited one does.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub voters: BTreeMap<u64, Voter>,
    /// On an action issue: every comment the resolver has handled, by id,
    /// with its answer to each command. A comment is handled once, so a
    /// command is never carried out twice, whatever becomes of the comment.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub acted: BTreeMap<u64, Vec<String>>,
    /// The values a run announced it is setting and may not have committed
    /// yet: the next run sets them again (a no-op if they were).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acting: Vec<crate::gamestate::set_value::SetValue>,
    /// The lines of the commit message of `acting` (each value, who set it
    /// and with which comment): a run that finishes the commit writes the
    /// very commit an uninterrupted run writes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acting_lines: Vec<String>,
}

impl Journal {
    /// Reads the journal from a status comment's body (empty if absent or garbled).
    pub fn read(body: &str) -> Journal {
        body.find(JOURNAL_OPEN)
            .and_then(|start| {
                let rest = &body[start + JOURNAL_OPEN.len()..];
                let end = rest.find(JOURNAL_CLOSE)?;
                serde_json::from_str(&rest[..end]).ok()
            })
            .unwrap_or_default()
    }

    /// Renders a status comment: marker, `text` for people (its
    /// @-mentions quieted, see [`quiet_mentions`]), then the journal.
    pub fn render(&self, text: &str) -> String {
        // Serialising this plain struct cannot fail.
        let json = serde_json::to_string(self).unwrap_or_default();
        format!(
            "{MARKER}\n{}\n\n{JOURNAL_OPEN}{json}{JOURNAL_CLOSE}\n",
            quiet_mentions(text.trim_end())
        )
    }
}

/// The part of a status comment written for people: what lies between the
/// marker and the journal (so the journal can be rewritten and the text
/// kept), as the forge shows it rendered.
pub fn text_of(body: &str) -> &str {
    let body = body.strip_prefix(MARKER).unwrap_or(body);
    body.rfind(JOURNAL_OPEN)
        .map_or(body, |end| &body[..end])
        .trim()
}

/// `text` with every `@login` outside code put in a code span, where a
/// forge neither links nor notifies it: a status comment, edited by every
/// run, never @-mentions anyone (a login in it is shown, not called).
pub fn quiet_mentions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut in_code = false;
        let mut prev: Option<char> = None;
        let mut chars = line.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let starts_login = |rest: &str| {
                rest.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric())
            };
            if c == '`' {
                in_code = !in_code;
            } else if c == '@'
                && !in_code
                && prev.is_none_or(|p| !(p.is_alphanumeric() || p == '`'))
                && starts_login(&line[at + 1..])
            {
                let len = line[at + 1..]
                    .find(|c: char| {
                        !(c.is_ascii_alphanumeric() || c == '-' || c == '[' || c == ']')
                    })
                    .unwrap_or(line.len() - at - 1);
                let login = line[at + 1..at + 1 + len].trim_end_matches('-');
                out.push_str(&format!("`@{login}`"));
                for _ in 0..login.chars().count() {
                    chars.next();
                }
                prev = Some('`');
                continue;
            }
            out.push(c);
            prev = Some(c);
        }
    }
    out
}

/// Whether a comment body is a status comment.
pub fn is_status(body: &str) -> bool {
    body.starts_with(MARKER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_of_a_status_comment_leaves_out_marker_and_journal() {
        let body = Journal::default().render("### Proposal #1: Pending\n\n**1 FOR**");
        assert_eq!(text_of(&body), "### Proposal #1: Pending\n\n**1 FOR**");
        assert_eq!(text_of("plain words"), "plain words");
    }

    #[test]
    fn a_status_mentions_nobody() {
        assert_eq!(
            quiet_mentions(
                "- @lurker-l (12:00): not a player\ncomment 4 by @dave-d: `@x` done; mail a@b.c"
            ),
            "- `@lurker-l` (12:00): not a player\ncomment 4 by `@dave-d`: `@x` done; mail a@b.c"
        );
        assert_eq!(
            quiet_mentions("by @github-actions[bot]."),
            "by `@github-actions[bot]`."
        );
    }

    #[test]
    fn a_journal_round_trips_through_its_comment() {
        let mut journal = Journal::default();
        let t = Timestamp::parse("2030-01-01T00:00:00Z").unwrap();
        journal.heads.push(SeenHead {
            sha: HeadSha("aaa".into()),
            at: t,
            voids: false,
        });
        journal.first_seen.insert(7, "FOR".into());
        journal.resolution = Some(Resolution {
            outcome: Outcome::Enacted,
            at: t,
            head: Some(HeadSha("aaa".into())),
            reasons: vec!["3 FOR".into()],
            illegal: false,
        });
        let body = journal.render("**Enacting** with 3 FOR.");
        assert!(is_status(&body));
        assert!(body.contains("**Enacting** with 3 FOR."));
        assert_eq!(text_of(&body), "**Enacting** with 3 FOR.");
        assert_eq!(Journal::read(&body), journal);
    }

    #[test]
    fn a_missing_or_garbled_journal_reads_as_empty() {
        assert_eq!(Journal::read("no journal"), Journal::default());
        assert_eq!(
            Journal::read("<!-- gitnomic:journal {not json -->"),
            Journal::default()
        );
    }
}
