//! The shapes of GitHub's JSON that gitnomic reads: only the fields it
//! uses, so new fields in GitHub's replies never break it.

use serde::Deserialize;

use super::super::ForgeError;
use crate::matter::MatterNumber;
use crate::time::Timestamp;

#[derive(Debug, Deserialize)]
pub(crate) struct User {
    pub(crate) login: String,
}

/// An issue's label: GitHub's description allows a bare name or an object.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Label {
    Name(String),
    Object { name: String },
}

impl Label {
    pub(crate) fn name(self) -> String {
        match self {
            Label::Name(name) | Label::Object { name } => name,
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Head {
    pub(crate) sha: String,
}

/// The branch a pull request asks to be merged into.
#[derive(Debug, Deserialize)]
pub(crate) struct Base {
    #[serde(rename = "ref")]
    pub(crate) branch: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Pull {
    pub(crate) number: MatterNumber,
    pub(crate) title: String,
    pub(crate) body: Option<String>,
    /// `None`: the account was deleted.
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: Option<String>,
    #[serde(default)]
    pub(crate) labels: Vec<Label>,
    pub(crate) head: Head,
    pub(crate) base: Option<Base>,
    pub(crate) draft: Option<bool>,
    pub(crate) html_url: Option<String>,
    pub(crate) state: String,
    pub(crate) merged_at: Option<String>,
    pub(crate) merge_commit_sha: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Issue {
    pub(crate) number: MatterNumber,
    pub(crate) title: String,
    pub(crate) body: Option<String>,
    /// `None`: the account was deleted.
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    /// When it last changed (a comment made or edited moves it).
    pub(crate) updated_at: Option<String>,
    #[serde(default)]
    pub(crate) labels: Vec<Label>,
    pub(crate) html_url: Option<String>,
    pub(crate) pull_request: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct IssueComment {
    pub(crate) id: u64,
    /// `None`: the account was deleted; such a comment counts for nothing.
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) body: Option<String>,
    pub(crate) html_url: Option<String>,
}

/// A comment on a line of a pull request's diff.
#[derive(Debug, Deserialize)]
pub(crate) struct LineComment {
    pub(crate) id: u64,
    /// `None`: the account was deleted.
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) body: Option<String>,
    pub(crate) html_url: Option<String>,
    /// The review it was made in, if any.
    pub(crate) pull_request_review_id: Option<u64>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Review {
    pub(crate) id: u64,
    pub(crate) user: Option<User>,
    pub(crate) body: Option<String>,
    /// Absent while the review is pending.
    pub(crate) submitted_at: Option<String>,
    pub(crate) html_url: Option<String>,
    /// APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED or PENDING.
    pub(crate) state: Option<String>,
}

/// One of an issue's or pull request's events (`GET /issues/N/events`):
/// only what may change its kind of matter is read.
#[derive(Debug, Deserialize)]
pub(crate) struct IssueEvent {
    /// `labeled`, `renamed`, `ready_for_review`, ...
    pub(crate) event: String,
    pub(crate) created_at: String,
    /// For `labeled` and `unlabeled`.
    pub(crate) label: Option<EventLabel>,
    /// For `renamed`.
    pub(crate) rename: Option<Rename>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct EventLabel {
    pub(crate) name: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Rename {
    pub(crate) from: String,
    pub(crate) to: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct PullFile {
    pub(crate) filename: String,
    pub(crate) previous_filename: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct MergeReply {
    pub(crate) sha: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ContentFile {
    pub(crate) sha: String,
    /// The file's bytes, base64 with line breaks.
    pub(crate) content: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Commit {
    pub(crate) sha: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ContentPut {
    pub(crate) commit: Commit,
    /// The file as written (`null` when a file was deleted).
    pub(crate) content: Option<ContentSha>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ContentSha {
    pub(crate) sha: Option<String>,
}

/// A git tree, listed recursively (`truncated` past GitHub's limits).
#[derive(Debug, Deserialize)]
pub(crate) struct Tree {
    pub(crate) truncated: bool,
    pub(crate) tree: Vec<TreeEntry>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct TreeEntry {
    pub(crate) path: Option<String>,
    #[serde(rename = "type")]
    pub(crate) kind: Option<String>,
    pub(crate) sha: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Blob {
    pub(crate) content: String,
    pub(crate) encoding: String,
}

/// A GitHub timestamp.
pub(crate) fn time(text: &str) -> Result<Timestamp, ForgeError> {
    Timestamp::parse(text).map_err(|e| ForgeError::Other(format!("GitHub sent a bad time: {e}")))
}

#[cfg(test)]
mod tests {
    //! Decoding real payloads, read from ../shared/fixtures at test time
    //! (they are other people's text and are not copied into the project).
    use super::*;
    use std::path::PathBuf;

    fn fixture(path: &str) -> Option<String> {
        let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/fixtures/github")
            .join(path);
        match std::fs::read_to_string(&full) {
            Ok(text) => Some(text),
            Err(_) => {
                eprintln!("skipped: {} not found", full.display());
                None
            }
        }
    }

    #[test]
    fn decodes_a_real_pull_request() {
        let Some(text) = fixture("danger-js/github_pr.json") else {
            return;
        };
        let pull: Pull = serde_json::from_str(&text).unwrap();
        assert!(pull.number > MatterNumber(0));
        assert!(!pull.user.unwrap().login.is_empty());
        assert_eq!(pull.head.sha.len(), 40);
        time(&pull.created_at).unwrap();
    }

    #[test]
    fn decodes_real_comments_and_reviews() {
        let Some(comments) = fixture("danger-js/github_comments.json") else {
            return;
        };
        let comments: Vec<IssueComment> = serde_json::from_str(&comments).unwrap();
        assert!(!comments.is_empty());
        for c in &comments {
            time(&c.created_at).unwrap();
        }
        let Some(reviews) = fixture("danger-js/reviews.json") else {
            return;
        };
        let reviews: Vec<Review> = serde_json::from_str(&reviews).unwrap();
        assert!(reviews.iter().all(|r| r.id > 0));
    }

    #[test]
    fn decodes_the_pull_request_inside_a_webhook_event() {
        let Some(text) = fixture("octokit-webhooks/pull_request/opened.payload.json") else {
            return;
        };
        let event: serde_json::Value = serde_json::from_str(&text).unwrap();
        let pull: Pull = serde_json::from_value(event["pull_request"].clone()).unwrap();
        assert_eq!(pull.state, "open");
    }
}

/// The payload of the event a workflow runs for (`$GITHUB_EVENT_PATH`):
/// only what `check --event` reads. Every field may be absent, as events
/// of other kinds lack them; none is required for the payload to read.
#[derive(Debug, Deserialize)]
pub(crate) struct EventPayload {
    pub(crate) action: Option<String>,
    /// The head before a `synchronize` push.
    pub(crate) before: Option<String>,
    pub(crate) pull_request: Option<EventPull>,
    pub(crate) issue: Option<EventIssue>,
    pub(crate) sender: Option<EventSender>,
}

/// A pull request as an event carries it.
#[derive(Debug, Deserialize)]
pub(crate) struct EventPull {
    pub(crate) number: Option<MatterNumber>,
    pub(crate) head: Option<Head>,
    pub(crate) updated_at: Option<String>,
}

/// An issue (or a pull request's conversation) as an event carries it.
#[derive(Debug, Deserialize)]
pub(crate) struct EventIssue {
    pub(crate) number: Option<MatterNumber>,
}

/// Who caused an event.
#[derive(Debug, Deserialize)]
pub(crate) struct EventSender {
    pub(crate) login: Option<String>,
}

/// A commit's combined status: the latest status of each context.
#[derive(Debug, Deserialize)]
pub(crate) struct CombinedStatus {
    pub(crate) statuses: Vec<SimpleStatus>,
}

/// One context's latest status on a commit.
#[derive(Debug, Deserialize)]
pub(crate) struct SimpleStatus {
    pub(crate) state: String,
    pub(crate) description: Option<String>,
    pub(crate) context: String,
}

/// The body of a 422: GitHub's validation error, only its messages.
#[derive(Debug, Deserialize)]
pub(crate) struct ValidationError {
    pub(crate) message: Option<String>,
    #[serde(default)]
    pub(crate) errors: Vec<ValidationDetail>,
}

/// One reason of a validation error.
#[derive(Debug, Deserialize)]
pub(crate) struct ValidationDetail {
    pub(crate) message: Option<String>,
}
