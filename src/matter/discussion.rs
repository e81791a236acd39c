//! A matter's discussion as its record keeps it and its card shows it:
//! every comment and review body but the resolver's status, oldest first,
//! the vote the tally counted from each marked, an edit, a deletion or a
//! push's voiding said as the status comment says it. Pure.
//!
//! BlogNomic's players argue in a post's comments, and the post keeps
//! them: a player reading an old proposal reads why it passed or failed.
//! A record keeps them the same way, so the argument outlives the forge's
//! thread (a repository moved, a forge left) and reads from a clone. What
//! anyone may post is bounded, so that no crowd of comments makes a record
//! (read by every build) large: each comment is cut at [`COMMENT_CHARS`],
//! and a record keeps at most [`COMMENTS`] comments and [`CHARS`]
//! characters of them, the comments that carried a counted vote first,
//! then the others oldest first. The record's `comments` says how many
//! there were, so the site says how many it leaves out, and links to the
//! thread for them.

use std::collections::BTreeMap;

use super::ForgeComment;
use super::collected::Collected;
use crate::engine::tally::{Source, Tally};
use crate::record::RecordedComment;

/// The most characters of one comment a record keeps: BlogNomic's
/// comments run to a few hundred; the forge allows 65,536.
pub const COMMENT_CHARS: usize = 4_000;

/// The most comments a record keeps.
pub const COMMENTS: usize = 200;

/// The most characters of comments a record keeps in all.
pub const CHARS: usize = 100_000;

/// What became of a comment a push voided, in records and on cards.
pub const VOIDED_NOTE: &str = "voided by a later push: its vote no longer counts";

/// A matter's discussion, within the bounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discussion {
    /// The comments kept, oldest first.
    pub comments: Vec<RecordedComment>,
    /// How many there were in all, those left out included.
    pub total: u32,
}

/// The discussion of `matter`, each vote that `tally` counts marked (no
/// tally: none marked), each author named by `name` (a login to a
/// player's name, or `@login`).
pub fn of(matter: &Collected, tally: Option<&Tally>, name: &dyn Fn(&str) -> String) -> Discussion {
    let counted: BTreeMap<u64, String> = tally
        .into_iter()
        .flat_map(|t| t.votes.values())
        .filter_map(|v| match v.source {
            Source::Comment { order, .. } => Some((
                order,
                if v.vote == v.cast {
                    v.cast.as_str().to_string()
                } else {
                    format!("{} (as {})", v.cast.as_str(), v.vote.as_str())
                },
            )),
            Source::Implicit => None,
        })
        .collect();
    let mut all: Vec<&ForgeComment> = matter
        .comments
        .values()
        .filter(|c| !crate::matter::journal::is_status(&c.body))
        .collect();
    all.sort_by_key(|c| (c.created, c.id));
    let total = u32::try_from(all.len()).unwrap_or(u32::MAX);
    // The comments that carried a counted vote first, then the rest
    // oldest first, while the bounds allow.
    let (votes, rest): (Vec<&ForgeComment>, Vec<&ForgeComment>) =
        all.into_iter().partition(|c| counted.contains_key(&c.id));
    let mut kept: Vec<RecordedComment> = Vec::new();
    let mut chars = 0;
    for c in votes.into_iter().chain(rest) {
        if kept.len() == COMMENTS {
            break;
        }
        let (body, cut) = cut(&c.body, COMMENT_CHARS.min(CHARS - chars));
        if cut > 0 && body.is_empty() && !c.body.is_empty() {
            continue; // no room left for any of it
        }
        chars += body.chars().count();
        kept.push(RecordedComment {
            id: c.id,
            by: name(&c.author.0),
            at: c.created,
            via: c.via.describe().to_string(),
            vote: counted.get(&c.id).cloned(),
            note: if matter.voided.iter().any(|v| v.id == c.id) {
                Some(VOIDED_NOTE.to_string())
            } else {
                matter.changed_since(c.id).map(str::to_string)
            },
            link: c.link.clone(),
            cut: (cut > 0).then(|| u32::try_from(cut).unwrap_or(u32::MAX)),
            body,
        });
    }
    kept.sort_by_key(|c| (c.at, c.id));
    Discussion {
        comments: kept,
        total,
    }
}

/// `text`'s first `most` characters, and how many characters were left
/// out.
fn cut(text: &str, most: usize) -> (String, usize) {
    match text.char_indices().nth(most) {
        None => (text.to_string(), 0),
        Some((at, _)) => (text[..at].to_string(), text[at..].chars().count()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ballot::Vote;
    use crate::engine::tally::CountedVote;
    use crate::engine::{MatterNumber, PlayerName};
    use crate::matter::{Kind, Login, MatterInfo, Via};
    use crate::time::Timestamp;

    fn comment(id: u64, author: &str, body: &str) -> ForgeComment {
        ForgeComment {
            id,
            author: Login(author.into()),
            created: Timestamp::from_unix(1_900_000_000 + i64::try_from(id).unwrap() * 60),
            edited: None,
            body: body.into(),
            link: None,
            via: Via::Comment,
        }
    }

    fn matter(comments: Vec<ForgeComment>) -> Collected {
        Collected {
            info: MatterInfo {
                number: MatterNumber(5),
                title: "Proposal: x".into(),
                body: String::new(),
                author: Login("ada".into()),
                opened: Timestamp::from_unix(1_900_000_000),
                labels: Vec::new(),
                pull: true,
                head: None,
                merge_commit: None,
                base: None,
                draft: false,
                merged: false,
                kind_changed: None,
                link: None,
                updated: None,
                paths: None,
            },
            kind: Kind::Proposal,
            journal: crate::matter::journal::Journal::default(),
            status_body: None,
            comments: comments.into_iter().map(|c| (c.id, c)).collect(),
            voided: Vec::new(),
            deleted: Vec::new(),
            first_comment: None,
        }
    }

    fn name(login: &str) -> String {
        match login {
            "boris-b" => "Boris".into(),
            other => format!("@{other}"),
        }
    }

    #[test]
    fn a_discussion_keeps_every_comment_but_the_status_with_its_counted_vote() {
        let status = crate::matter::journal::Journal::default().render("### Pending");
        let m = matter(vec![
            comment(2, "boris-b", "DEF, as the emperor says"),
            comment(1, "stranger", "<script>x</script> FOR!"),
            comment(3, "gitnomic-bot", &status),
        ]);
        let mut tally = Tally::default();
        tally.votes.insert(
            PlayerName("Boris".into()),
            CountedVote {
                vote: Vote::For,
                cast: Vote::Deferential,
                source: Source::Comment {
                    order: 2,
                    at: Timestamp::from_unix(0),
                },
            },
        );
        let d = of(&m, Some(&tally), &name);
        assert_eq!(d.total, 2);
        let said: Vec<(&str, Option<&str>, &str)> = d
            .comments
            .iter()
            .map(|c| (c.by.as_str(), c.vote.as_deref(), c.body.as_str()))
            .collect();
        assert_eq!(
            said,
            [
                ("@stranger", None, "<script>x</script> FOR!"),
                (
                    "Boris",
                    Some("DEFERENTIAL (as FOR)"),
                    "DEF, as the emperor says"
                ),
            ]
        );
    }

    #[test]
    fn a_crowd_of_comments_is_kept_within_the_bounds_votes_first() {
        let long = "x".repeat(COMMENT_CHARS + 10);
        let mut comments: Vec<ForgeComment> = (1..=COMMENTS as u64 + 50)
            .map(|id| comment(id, "crowd", &long))
            .collect();
        comments.push(comment(10_000, "boris-b", "AGAINST"));
        let mut tally = Tally::default();
        tally.votes.insert(
            PlayerName("Boris".into()),
            CountedVote {
                vote: Vote::Against,
                cast: Vote::Against,
                source: Source::Comment {
                    order: 10_000,
                    at: Timestamp::from_unix(0),
                },
            },
        );
        let d = of(&matter(comments), Some(&tally), &name);
        assert_eq!(d.total, u32::try_from(COMMENTS + 51).unwrap());
        let chars: usize = d.comments.iter().map(|c| c.body.chars().count()).sum();
        assert!(d.comments.len() <= COMMENTS, "{}", d.comments.len());
        assert!(chars <= CHARS, "{chars}");
        assert_eq!(d.comments[0].cut, Some(10), "a long comment is cut");
        let last = d.comments.last().unwrap();
        assert_eq!(
            (last.by.as_str(), last.vote.as_deref()),
            ("Boris", Some("AGAINST")),
            "the counted vote is kept, in its place in time"
        );
        assert!(
            d.comments
                .windows(2)
                .all(|w| (w[0].at, w[0].id) < (w[1].at, w[1].id)),
            "oldest first"
        );
    }

    #[test]
    fn a_cut_falls_between_characters() {
        assert_eq!(cut("héllo", 2), ("hé".to_string(), 3));
        assert_eq!(cut("héllo", 5), ("héllo".to_string(), 0));
        assert_eq!(cut("", 0), (String::new(), 0));
    }
}
