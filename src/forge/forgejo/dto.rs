//! The shapes of Forgejo's JSON that gitnomic reads (Forgejo's and Gitea's
//! `swagger.v1.json`): only the fields it uses, each optional where the
//! description names none required and Go sends `null` for a nil pointer.
//! Where they differ from GitHub's: a deleted account is the user `Ghost`
//! (id -1), not `null`; a review's state is `REQUEST_CHANGES`/`COMMENT`
//! and its dismissal a flag beside it; a commit status's state is
//! `status`; a merge answers with no body.

use serde::Deserialize;

use crate::matter::MatterNumber;

/// Who Forgejo shows for a deleted account (its id is -1).
pub(crate) const GHOST: &str = "Ghost";

#[derive(Debug, Deserialize)]
pub(crate) struct User {
    pub(crate) login: String,
    #[serde(default)]
    pub(crate) id: i64,
}

/// The login of an account that still exists: `None` for Forgejo's ghost.
pub(crate) fn login(user: Option<User>) -> Option<String> {
    user.filter(|u| !(u.id == -1 && u.login == GHOST))
        .map(|u| u.login)
}

#[derive(Debug, Deserialize)]
pub(crate) struct Label {
    pub(crate) name: String,
    /// Its id: a label is removed by id, which every Forgejo and Gitea
    /// takes (by name only Forgejo's newer ones).
    #[serde(default)]
    pub(crate) id: Option<i64>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Branch {
    pub(crate) sha: Option<String>,
    #[serde(rename = "ref")]
    pub(crate) branch: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Pull {
    pub(crate) number: MatterNumber,
    pub(crate) title: String,
    pub(crate) body: Option<String>,
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: Option<String>,
    #[serde(default)]
    pub(crate) labels: Option<Vec<Label>>,
    pub(crate) head: Option<Branch>,
    pub(crate) base: Option<Branch>,
    pub(crate) draft: Option<bool>,
    pub(crate) html_url: Option<String>,
    pub(crate) state: String,
    pub(crate) merged: Option<bool>,
    pub(crate) merge_commit_sha: Option<String>,
}

/// What an issue of the list says of the pull request it is, if it is one.
#[derive(Debug, Deserialize)]
pub(crate) struct PullMeta {
    pub(crate) merged: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Issue {
    pub(crate) number: MatterNumber,
    pub(crate) title: String,
    pub(crate) body: Option<String>,
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: Option<String>,
    #[serde(default)]
    pub(crate) labels: Option<Vec<Label>>,
    pub(crate) html_url: Option<String>,
    pub(crate) pull_request: Option<PullMeta>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Comment {
    pub(crate) id: u64,
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) body: Option<String>,
    pub(crate) html_url: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Review {
    pub(crate) id: u64,
    pub(crate) user: Option<User>,
    pub(crate) body: Option<String>,
    pub(crate) submitted_at: Option<String>,
    pub(crate) html_url: Option<String>,
    /// APPROVED, REQUEST_CHANGES, COMMENT, PENDING or REQUEST_REVIEW.
    pub(crate) state: Option<String>,
    #[serde(default)]
    pub(crate) dismissed: bool,
    /// How many comments on lines of the diff it holds.
    #[serde(default)]
    pub(crate) comments_count: u64,
}

/// A comment on a line of the diff, as a review lists it.
#[derive(Debug, Deserialize)]
pub(crate) struct ReviewComment {
    pub(crate) id: u64,
    pub(crate) user: Option<User>,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) body: Option<String>,
    pub(crate) html_url: Option<String>,
}

/// One entry of an issue's timeline: comments and events of every type.
#[derive(Debug, Deserialize)]
pub(crate) struct TimelineEntry {
    /// `comment`, `pull_push`, `label`, `change_title`, ...
    #[serde(rename = "type")]
    pub(crate) kind: Option<String>,
    pub(crate) body: Option<String>,
    pub(crate) created_at: String,
    pub(crate) label: Option<Label>,
    pub(crate) old_title: Option<String>,
    pub(crate) new_title: Option<String>,
}

/// The body of a `pull_push` entry: the commits a push brought, oldest
/// first, or the heads before and after a force push.
#[derive(Debug, Deserialize)]
pub(crate) struct PushContent {
    #[serde(default)]
    pub(crate) is_force_push: bool,
    #[serde(default)]
    pub(crate) commit_ids: Vec<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct ChangedFile {
    pub(crate) filename: String,
    pub(crate) previous_filename: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Contents {
    pub(crate) sha: String,
    /// `file`, `dir`, `symlink` or `submodule`.
    #[serde(rename = "type")]
    pub(crate) kind: Option<String>,
    pub(crate) content: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Sha {
    pub(crate) sha: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct FileWritten {
    pub(crate) commit: Option<Sha>,
    pub(crate) content: Option<Sha>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct Tree {
    #[serde(default)]
    pub(crate) truncated: bool,
    #[serde(default)]
    pub(crate) tree: Option<Vec<TreeEntry>>,
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
    pub(crate) content: Option<String>,
    pub(crate) encoding: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct CombinedStatus {
    #[serde(default)]
    pub(crate) statuses: Option<Vec<Status>>,
}

/// One status of a commit (Forgejo names its state `status`).
#[derive(Debug, Deserialize)]
pub(crate) struct Status {
    pub(crate) status: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) context: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ghost_is_no_one() {
        let ghost = User {
            login: GHOST.into(),
            id: -1,
        };
        assert_eq!(login(Some(ghost)), None);
        // A player who named themselves so is still a player.
        let named = User {
            login: GHOST.into(),
            id: 12,
        };
        assert_eq!(login(Some(named)).as_deref(), Some(GHOST));
        assert_eq!(login(None), None);
    }

    #[test]
    fn reads_a_push_of_the_timeline() {
        let push: PushContent =
            serde_json::from_str(r#"{"is_force_push":true,"commit_ids":["a","b"]}"#).unwrap();
        assert!(push.is_force_push);
        assert_eq!(push.commit_ids, ["a", "b"]);
    }
}
