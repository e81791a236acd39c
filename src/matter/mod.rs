//! The matters of a game as a forge reports them: pull requests and
//! issues, their comments, and what kind of matter each is. Pure data:
//! the [`crate::forge`] adapters fill these in, the resolver reads them.

pub mod admission;
pub mod audit;
pub mod collected;
pub mod journal;
pub mod labels;
pub mod status;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::engine::MatterNumber;
use crate::time::Timestamp;

/// A forge account name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Login(pub String);

/// A commit id (a full hex SHA).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HeadSha(pub String);

impl fmt::Display for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for HeadSha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What kind of matter a pull request or issue is, from its labels or title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A proposal: its diff changes rules/, state/ or content/ pages.
    Proposal,
    /// A Call for Judgement.
    Cfj,
    /// A Declaration of Victory.
    Dov,
    /// An action: changes state/ only, merged without a vote when it checks.
    Action,
    /// The new emperor's Ascension Address: merged without a vote when it
    /// checks, and it begins the next dynasty.
    Ascension,
}

impl Kind {
    /// Every kind, with the label that marks it and the title prefix that may
    /// stand for the label.
    pub const ALL: [(Kind, &'static str); 5] = [
        (Kind::Proposal, "Proposal"),
        (Kind::Cfj, "CfJ"),
        (Kind::Dov, "DoV"),
        (Kind::Action, "Action"),
        (Kind::Ascension, "Ascension Address"),
    ];

    /// The kind named by labels (first) or by a title such as `Proposal: Faster springs`.
    pub fn detect(labels: &[String], title: &str) -> Option<Kind> {
        let by_label = Self::ALL
            .iter()
            .find(|(_, name)| labels.iter().any(|l| l.eq_ignore_ascii_case(name)))
            .map(|(k, _)| *k);
        by_label.or_else(|| {
            let (prefix, _) = title.split_once(':')?;
            Self::ALL
                .iter()
                .find(|(_, name)| prefix.trim().eq_ignore_ascii_case(name))
                .map(|(k, _)| *k)
        })
    }

    /// Every kind the labels name (more than one is a mistake to refuse).
    pub fn named_by(labels: &[String]) -> Vec<Kind> {
        Self::ALL
            .iter()
            .filter(|(_, name)| labels.iter().any(|l| l.eq_ignore_ascii_case(name)))
            .map(|(k, _)| *k)
            .collect()
    }

    /// The label that marks this kind.
    pub fn label(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |(_, l)| l)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// An open pull request or issue, as the forge reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatterInfo {
    /// Its number.
    pub number: MatterNumber,
    /// Its title.
    pub title: String,
    /// Its description (Markdown).
    pub body: String,
    /// Who opened it.
    pub author: Login,
    /// When it was opened (or left draft).
    pub opened: Timestamp,
    /// Its labels.
    pub labels: Vec<String>,
    /// Whether it is a pull request (else an issue).
    pub pull: bool,
    /// For an open pull request: its current head commit (`None` when its
    /// branch is gone).
    pub head: Option<HeadSha>,
    /// For a merged pull request: its merge commit.
    pub merge_commit: Option<HeadSha>,
    /// For a pull request: the branch it asks to be merged into, when the
    /// forge says (GitHub's `base.ref`); a matter is merged into the
    /// default branch or not at all, so one based elsewhere is no matter.
    pub base: Option<String>,
    /// For a pull request: still a draft.
    pub draft: bool,
    /// A link to it, for records and reports.
    pub link: Option<String>,
    /// When the forge last saw it change (GitHub's `updated_at`), if it
    /// says: no earlier than its last push, so a head no event noted is
    /// noted then rather than when the resolver happened to look.
    pub updated: Option<Timestamp>,
}

impl MatterInfo {
    /// Its title as one line of a commit subject: a title's line breaks
    /// must never become lines of the message, where the gamestate's log
    /// reads who changed what.
    pub fn subject_title(&self) -> String {
        crate::text::one_line(&self.title, crate::bounds::SUBJECT_CHARS)
    }

    /// The kind its labels or title give it.
    pub fn kind(&self) -> Option<Kind> {
        Kind::detect(&self.labels, &self.title)
    }

    /// Why this pull request has nothing to merge, if its branch is gone:
    /// the words `resolve` holds it with and `check` refuses it with.
    pub fn branch_gone(&self) -> Option<&'static str> {
        (self.pull && self.head.is_none())
            .then_some("its branch is gone, so there is nothing to merge")
    }
}

/// A comment, or the body of a review, on a matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgeComment {
    /// The forge's id for it (unique per forge).
    pub id: u64,
    /// Who wrote it.
    pub author: Login,
    /// When it was made.
    pub created: Timestamp,
    /// When it was last edited, if it was.
    pub edited: Option<Timestamp>,
    /// Its Markdown body.
    pub body: String,
    /// A link to it.
    pub link: Option<String>,
    /// Where it was made: a comment in the conversation, on a line of the
    /// diff, or a review (whose state may vote, see `review_states_vote`).
    pub via: Via,
}

/// Where on the forge a comment was made, as the status says where a vote
/// came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Via {
    /// A comment in the conversation.
    #[default]
    Comment,
    /// A comment on a line of a pull request's diff.
    LineComment,
    /// A submitted review, in its state.
    Review(ReviewState),
}

/// The state a review was submitted in (a dismissed or pending review is
/// never a vote, and never reaches the tally).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewState {
    /// Approved.
    Approved,
    /// Changes requested.
    ChangesRequested,
    /// Comments only.
    Commented,
}

impl Via {
    /// `a comment`, `a review (approved)`, … for the status and the site.
    pub fn describe(self) -> &'static str {
        match self {
            Via::Comment => "a comment",
            Via::LineComment => "a comment on a line of the diff",
            Via::Review(ReviewState::Approved) => "a review (approved)",
            Via::Review(ReviewState::ChangesRequested) => "a review (changes requested)",
            Via::Review(ReviewState::Commented) => "a review",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_comes_from_labels_then_title() {
        let labels = vec!["enhancement".to_string(), "cfj".to_string()];
        assert_eq!(Kind::detect(&labels, "Proposal: x"), Some(Kind::Cfj));
        assert_eq!(
            Kind::detect(&[], "Proposal: Faster springs"),
            Some(Kind::Proposal)
        );
        assert_eq!(
            Kind::detect(&[], "DoV: I have three gadgets"),
            Some(Kind::Dov)
        );
        assert_eq!(Kind::detect(&[], "A proposal without a prefix"), None);
        assert_eq!(Kind::detect(&[], "Note: Proposal later"), None);
    }
}
