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
    /// On an action issue whose handled comments would not fit in the
    /// journal: every comment numbered up to this one was handled, and its
    /// answers are no longer kept (the changes are in the log). Comments
    /// are numbered in the order they are made, and every run handles all
    /// it finds, so the oldest handled fold into this mark; a comment this
    /// old that appears only now (its author joined since) is not acted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acted_through: Option<u64>,
    /// The rolls made in each comment, as `DICE6 = 4`, as the dice log
    /// held them when the status was written: an audit finds a roll the
    /// log has lost since (a log deleted or edited on the default branch,
    /// its history rewritten) by what the forge still shows.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rolled: BTreeMap<u64, Vec<String>>,
    /// The values a run announced it is setting and may not have committed
    /// yet: the next run sets them again (a no-op if they were).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acting: Vec<crate::gamestate::set_value::SetValue>,
    /// The lines of the commit message of `acting` (each value, who set it
    /// and with which comment): a run that finishes the commit writes the
    /// very commit an uninterrupted run writes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub acting_lines: Vec<String>,
    /// The merge the forge refused (405: branch protection, a merge
    /// queue): while the matter carries the `held` label at that head, no
    /// run announces it or asks for the merge again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<Refusal>,
}

/// A merge the forge refused, and at which head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Refusal {
    /// The head whose merge was refused.
    pub head: String,
    /// Why, as the forge put it.
    pub reason: String,
}

impl Journal {
    /// The reason the forge gave for refusing to merge the matter, while
    /// that refusal still stands: `head` is the one refused, and the
    /// matter carries the `held` label (an admin takes it off to have the
    /// merge asked for again).
    pub fn refusal_standing(&self, labels: &[String], head: Option<&str>) -> Option<&str> {
        let refusal = self.refused.as_ref()?;
        let held = crate::matter::labels::carries(labels, crate::matter::labels::HELD);
        (held && head == Some(refusal.head.as_str())).then_some(refusal.reason.as_str())
    }

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
    /// @-mentions quieted, see [`quiet_mentions`]), then the journal,
    /// within [`MAX_JOURNAL_CHARS`] (see [`Journal::bounded`]; the text
    /// says so when sightings had to be left out).
    pub fn render(&self, text: &str) -> String {
        let (journal, left_out) = self.bounded();
        let mut text = quiet_mentions(text.trim_end());
        if left_out > 0 {
            text.push_str(&format!(
                "\n\n_The first sightings of {left_out} comments are not kept: the journal would \
                 not fit in one comment. An edit or deletion of one of them counts as it now \
                 reads._"
            ));
        }
        format!(
            "{MARKER}\n{text}\n\n{JOURNAL_OPEN}{}{JOURNAL_CLOSE}\n",
            journal.json()
        )
    }

    fn json(&self) -> String {
        // Serialising this plain struct cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// This journal within [`MAX_JOURNAL_CHARS`], and how many comments'
    /// sightings it leaves out for that: those that carried no vote first,
    /// then votes, oldest (lowest id) first; then the answers to the
    /// oldest commands handled, folded into [`Journal::acted_through`].
    /// Heads and the decision are never left out, nor is a handled
    /// command forgotten: a run needs them to judge pushes, to finish a
    /// decision and to carry out no command twice.
    /// Collection keeps only players' comments (see `resolve::collect`),
    /// so this takes hundreds of comments by players on one matter.
    pub fn bounded(&self) -> (Journal, usize) {
        let mut journal = self.clone();
        let mut left_out = 0;
        loop {
            let over = journal
                .json()
                .chars()
                .count()
                .saturating_sub(MAX_JOURNAL_CHARS);
            if over == 0 {
                return (journal, left_out);
            }
            // Enough sightings to save `over` characters, by their size.
            let mut saved = 0;
            while saved < over {
                let Some(id) = journal.least_needed() else {
                    if journal.fold_oldest_acted(over - saved) {
                        break;
                    }
                    // Last, the oldest rolls kept for an audit: the dice
                    // log holds them all the same.
                    if journal.rolled.pop_first().is_some() {
                        break;
                    }
                    return (journal, left_out);
                };
                saved += journal.sighting_chars(id);
                journal.first_seen.remove(&id);
                journal.voters.remove(&id);
                left_out += 1;
            }
        }
    }

    /// Whether comment `id` of an action issue was handled already.
    pub fn handled(&self, id: u64) -> bool {
        self.acted.contains_key(&id) || self.acted_through.is_some_and(|t| id <= t)
    }

    /// Folds the oldest handled comments into [`Journal::acted_through`]
    /// until about `chars` characters are saved; `false` when none is left
    /// to fold.
    fn fold_oldest_acted(&mut self, chars: usize) -> bool {
        let mut saved = 0;
        let mut folded = false;
        while saved < chars {
            let Some((id, answers)) = self.acted.pop_first() else {
                break;
            };
            saved += id.to_string().len()
                + 5
                + answers.iter().map(|a| a.chars().count() + 3).sum::<usize>();
            self.acted_through = Some(self.acted_through.map_or(id, |t| t.max(id)));
            folded = true;
        }
        folded
    }

    /// The sighting a later run misses least: the oldest comment seen
    /// without a vote, else the oldest vote.
    fn least_needed(&self) -> Option<u64> {
        self.first_seen
            .keys()
            .find(|id| !self.voters.contains_key(id))
            .or_else(|| self.voters.keys().next())
            .or_else(|| self.first_seen.keys().next())
            .copied()
    }

    /// About the characters comment `id`'s sighting takes in the JSON.
    fn sighting_chars(&self, id: u64) -> usize {
        let key = id.to_string().len() + 4;
        let words = self.first_seen.get(&id).map_or(0, |w| key + w.len() + 2);
        let voter = self.voters.get(&id).map_or(0, |v| {
            key + serde_json::to_string(v).map_or(0, |json| json.chars().count())
        });
        words + voter
    }
}

/// The most characters a status comment's journal takes: with the marker
/// and the text for people (at least 17,000 characters of it) a status
/// comment fits GitHub's limit of 65,536 characters a comment.
pub const MAX_JOURNAL_CHARS: usize = 48_000;

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
    fn a_journal_too_long_for_a_comment_leaves_out_the_oldest_sightings_and_says_so() {
        let mut journal = Journal::default();
        let t = Timestamp::parse("2030-01-01T00:00:00Z").unwrap();
        journal.heads.push(SeenHead {
            sha: HeadSha("aaa".into()),
            at: t,
            voids: false,
        });
        // Sightings of 1,200 comments: the odd ones voted, the even ones
        // not; the votes alone fit.
        for id in 1_000_000_000..1_000_001_200u64 {
            let voted = id % 2 == 1;
            let words = if voted { "FOR" } else { "" };
            journal.first_seen.insert(id, words.into());
            if voted {
                journal.voters.insert(
                    id,
                    Voter {
                        by: crate::matter::Login("boris-b".into()),
                        at: t,
                    },
                );
            }
        }
        let body = journal.render("**1 FOR**");
        let kept = Journal::read(&body);
        assert!(serde_json::to_string(&kept).unwrap().len() <= MAX_JOURNAL_CHARS);
        assert_eq!(kept.heads, journal.heads, "heads are never left out");
        assert_eq!(
            kept.voters.len(),
            600,
            "every vote is kept while sightings without one can go"
        );
        let left_out = journal.first_seen.len() - kept.first_seen.len();
        assert!(left_out > 0);
        assert!(
            kept.first_seen.keys().next() > journal.first_seen.keys().next(),
            "the oldest go first"
        );
        assert!(
            text_of(&body).contains(&format!("first sightings of {left_out} comments")),
            "{}",
            text_of(&body)
        );
        // A journal within the bound is written whole, with no note.
        let small = Journal::default().render("ok");
        assert_eq!(text_of(&small), "ok");
    }

    #[test]
    fn an_action_crowd_folds_its_oldest_answers_and_forgets_no_command() {
        let mut journal = Journal::default();
        let answer = |id: u64| {
            vec![format!(
                "comment {id} by @boris-b: `ADD springs 1`: players.Boris.springs: 6 → 7"
            )]
        };
        for id in 1_000_000_000..1_000_001_000u64 {
            journal.acted.insert(id, answer(id));
        }
        let body = journal.render("### Action #3: open for actions");
        assert!(body.chars().count() < 65_536, "one comment holds it");
        let kept = Journal::read(&body);
        let json = serde_json::to_string(&kept).unwrap();
        assert!(json.chars().count() <= MAX_JOURNAL_CHARS, "{}", json.len());
        let through = kept.acted_through.expect("the oldest folded");
        assert!(kept.acted.len() < 1000 && !kept.acted.is_empty());
        assert!(
            kept.acted.keys().all(|id| *id > through),
            "only the oldest fold"
        );
        for id in 1_000_000_000..1_000_001_000u64 {
            assert!(kept.handled(id), "comment {id} would be acted on twice");
        }
        assert!(!kept.handled(1_000_001_000), "a new comment is not handled");
        // A journal that fits keeps every answer.
        let small = Journal {
            acted: [(7, answer(7))].into(),
            ..Journal::default()
        };
        assert_eq!(Journal::read(&small.render("ok")).acted_through, None);
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
