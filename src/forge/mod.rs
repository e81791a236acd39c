//! ADAPTERS: where matters and comments come from, and where outcomes go.
//!
//! A [`Forge`] is one repository on some forge: GitHub over its REST API,
//! or the [`local`] forge kept beside a git repository for offline play,
//! the demo and the tests. It is synchronous and speaks in outcomes (merge
//! this head, close that matter, post this status), so the resolver reads
//! the same on both. Nothing here decides anything: `collect` turns what a
//! forge holds into the engine's snapshot, and the engine decides.

pub mod local;
pub mod status;

use std::fmt;

use serde::{Deserialize, Serialize};

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

impl HeadSha {
    /// The first seven characters, as people quote commits.
    pub fn short(&self) -> &str {
        self.0.get(..7).unwrap_or(&self.0)
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
}

impl Kind {
    /// Every kind, with the label that marks it and the title prefix that may
    /// stand for the label.
    pub const ALL: [(Kind, &'static str); 4] = [
        (Kind::Proposal, "Proposal"),
        (Kind::Cfj, "CfJ"),
        (Kind::Dov, "DoV"),
        (Kind::Action, "Action"),
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
    pub number: u64,
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
    /// For a pull request: its current head commit.
    pub head: Option<HeadSha>,
    /// For a pull request: still a draft.
    pub draft: bool,
    /// A link to it, for records and reports.
    pub link: Option<String>,
}

impl MatterInfo {
    /// The kind its labels or title give it.
    pub fn kind(&self) -> Option<Kind> {
        Kind::detect(&self.labels, &self.title)
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
}

/// Something the forge could not do. Callers branch on these.
#[derive(Debug, thiserror::Error)]
pub enum ForgeError {
    /// The matter (or comment) does not exist.
    #[error("#{0} does not exist on the forge")]
    NotFound(u64),
    /// The pull request's head moved since it was tallied: nothing was merged.
    #[error("#{number}: the head is now {actual}, not {expected}: not merged")]
    StaleHead {
        /// The matter.
        number: u64,
        /// The head that was tallied.
        expected: HeadSha,
        /// The head found.
        actual: HeadSha,
    },
    /// The pull request cannot be merged (a conflict with an earlier enactment, say).
    #[error("#{number} cannot be merged: {reason}")]
    NotMergeable {
        /// The matter.
        number: u64,
        /// Why, as the forge put it.
        reason: String,
    },
    /// The matter is already closed or merged.
    #[error("#{0} is no longer open")]
    NotOpen(u64),
    /// The credentials were refused (401/403 other than rate limits).
    #[error("the forge refused our credentials: {0}")]
    Unauthorized(String),
    /// Rate limited; retrying later will do.
    #[error("rate limited by the forge: {0}")]
    RateLimited(String),
    /// Any other failure of the forge or of its storage.
    #[error("{0}")]
    Other(String),
}

/// One repository on a forge. Synchronous: gitnomic is a CLI run by CI.
pub trait Forge {
    /// Every open pull request and issue that is a matter of some kind.
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError>;
    /// One matter, open or not.
    fn matter(&self, number: u64) -> Result<MatterInfo, ForgeError>;
    /// The comments and review bodies of a matter, oldest first.
    fn comments(&self, number: u64) -> Result<Vec<ForgeComment>, ForgeError>;
    /// The paths a pull request changes, relative to the repository root.
    fn changed_files(&self, number: u64) -> Result<Vec<String>, ForgeError>;
    /// The bot's status comment on a matter (found by its hidden marker).
    fn status_comment(&self, number: u64) -> Result<Option<ForgeComment>, ForgeError>;
    /// Posts the status comment, or edits it in place if there is one.
    fn put_status(&self, number: u64, body: &str) -> Result<(), ForgeError>;
    /// Adds these labels and removes those.
    fn set_labels(&self, number: u64, add: &[&str], remove: &[&str]) -> Result<(), ForgeError>;
    /// Merges a pull request if, and only if, its head is still `expected`;
    /// returns the merge commit.
    fn merge(&self, number: u64, expected: &HeadSha, message: &str) -> Result<HeadSha, ForgeError>;
    /// Closes a matter without merging.
    fn close(&self, number: u64) -> Result<(), ForgeError>;
    /// Commits a file to the default branch (a record under content/).
    fn commit_file(&self, path: &str, text: &str, message: &str) -> Result<HeadSha, ForgeError>;
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
