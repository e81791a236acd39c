//! What the local forge refuses, as types: each refusal says what was
//! asked and why no forge would do it.

use crate::forge::ForgeError;
use crate::matter::MatterNumber;
use crate::time::Timestamp;

/// What a player asked of the local forge that no forge would do, or a
/// failure of the forge itself.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// A login that is empty (or only blanks).
    #[error("the login is empty: say who acts with --as LOGIN")]
    EmptyLogin,
    /// A matter with an empty title.
    #[error("the title is empty: a matter needs a title")]
    EmptyTitle,
    /// A pull request from a branch that does not exist.
    #[error("there is no branch `{0}` to open a pull request from")]
    NoBranch(String),
    /// A second open pull request from one branch.
    #[error("#{open} is already open from branch `{branch}`: one branch, one pull request")]
    BranchTaken {
        /// The branch.
        branch: String,
        /// The open matter using it.
        open: MatterNumber,
    },
    /// A matter timed before the newest one.
    #[error("#{newest} was opened at {opened}: a new matter cannot be opened before it, at {at}")]
    BeforeNewest {
        /// The newest matter.
        newest: MatterNumber,
        /// When it was opened.
        opened: Timestamp,
        /// The time asked for.
        at: Timestamp,
    },
    /// Something done to a matter (a comment, a push, closing it) timed
    /// before the matter was opened.
    #[error("#{number} was opened at {opened}: {what} cannot come before that, at {at}")]
    BeforeOpened {
        /// The matter.
        number: MatterNumber,
        /// What was asked.
        what: &'static str,
        /// When it was opened.
        opened: Timestamp,
        /// The time asked for.
        at: Timestamp,
    },
    /// Editing or deleting someone else's comment.
    #[error("comment {id} is {author}'s: only they may edit or delete it, not {login}")]
    NotYourComment {
        /// The comment.
        id: u64,
        /// Who wrote it.
        author: String,
        /// Who asked.
        login: String,
    },
    /// A comment with nothing in it.
    #[error("the comment is empty")]
    EmptyComment,
    /// Closing or pushing to someone else's matter.
    #[error("#{number} is {author}'s: only its author or an admin may {what}, not {login}")]
    NotYours {
        /// The matter.
        number: MatterNumber,
        /// Who opened it.
        author: String,
        /// Who asked.
        login: String,
        /// What they asked to do.
        what: &'static str,
    },
    /// A push to an issue.
    #[error("#{0} is an issue, not a pull request: it has no branch to push to")]
    NotAPull(MatterNumber),
    /// A push while the branch is where it was.
    #[error("#{number}: branch `{branch}` is still at {sha}, seen at {at}: nothing new was pushed")]
    NothingPushed {
        /// The matter.
        number: MatterNumber,
        /// Its branch.
        branch: String,
        /// The head.
        sha: String,
        /// When that head was first seen.
        at: Timestamp,
    },
    /// A push timed before the last push seen.
    #[error("#{number}: a push was seen at {last}: another cannot come before it, at {at}")]
    PushBeforeLast {
        /// The matter.
        number: MatterNumber,
        /// When the last push was seen.
        last: Timestamp,
        /// The time asked for.
        at: Timestamp,
    },
    /// Closing a matter the resolver has begun to carry out.
    #[error("#{0} is being resolved: it can no longer be withdrawn")]
    BeingResolved(MatterNumber),
    /// The forge could not do it.
    #[error(transparent)]
    Forge(#[from] ForgeError),
}
