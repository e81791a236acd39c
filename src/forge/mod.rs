//! ADAPTERS: where matters and comments come from, and where outcomes go.
//!
//! A [`Forge`] is one repository on some forge: GitHub over its REST API,
//! or the [`local`] forge kept beside a git repository for offline play,
//! the demo and the tests. It is synchronous and speaks in outcomes (merge
//! this head, close that matter, post this status), so the resolver reads
//! the same on both. Nothing here decides anything: `collect` turns what a
//! forge holds into the engine's snapshot, and the engine decides.

pub mod forgejo;
pub mod github;
pub mod local;
pub(crate) mod rest;
mod status_comment;
mod votes;

pub use crate::matter::{ForgeComment, HeadSha, Kind, KindEvent, Login, MatterInfo, MatterNumber};
use crate::time::Timestamp;

/// Something the forge could not do. Callers branch on these.
#[derive(Debug, thiserror::Error)]
pub enum ForgeError {
    /// The matter does not exist.
    #[error("#{0} does not exist on the forge")]
    NotFound(MatterNumber),
    /// The comment does not exist (or no longer does).
    #[error("comment {0} does not exist on the forge")]
    NoComment(u64),
    /// The pull request's head moved since it was tallied: nothing was merged.
    #[error("#{number}: the head is now {actual}, not {expected}: not merged")]
    StaleHead {
        /// The matter.
        number: MatterNumber,
        /// The head that was tallied.
        expected: HeadSha,
        /// The head found.
        actual: HeadSha,
    },
    /// The pull request cannot be merged (a conflict with an earlier enactment, say).
    #[error("#{number} cannot be merged: {reason}")]
    NotMergeable {
        /// The matter.
        number: MatterNumber,
        /// Why, as the forge put it.
        reason: String,
    },
    /// The matter is already closed or merged.
    #[error("#{0} is no longer open")]
    NotOpen(MatterNumber),
    /// The credentials were refused (401).
    #[error("the forge refused our credentials: {0}")]
    Unauthorized(String),
    /// The token may not do this (403 other than a rate limit): a setting
    /// or a permission, which `doctor` reports as one.
    #[error("the forge refused our credentials: {0}")]
    Forbidden(String),
    /// Rate limited; retrying later will do.
    #[error("rate limited by the forge: {0}")]
    RateLimited(String),
    /// A pull request changes more files than the forge lists (GitHub
    /// stops at 3,000): its scope cannot be checked from the list, so
    /// callers read it from the git diff of the fetched head instead.
    #[error(
        "#{number} changes {listed} files or more, more than the forge lists: its scope cannot be checked"
    )]
    TooManyFiles {
        /// The matter.
        number: MatterNumber,
        /// How many files the forge listed.
        listed: usize,
    },
    /// The forge's reply to `request` is longer than a run reads
    /// ([`crate::bounds::REPLY_BYTES`], or `GITNOMIC_MAX_REPLY`): what it
    /// was about is not read this run, and the rest of the run goes on.
    #[error("{request}: the forge's reply is longer than {limit} bytes, the most a run reads")]
    TooLarge {
        /// The request, as `GET` and the address.
        request: String,
        /// The bound it went over.
        limit: u64,
    },
    /// Any other failure of the forge or of its storage.
    #[error("{0}")]
    Other(String),
}

/// A push as the forge announced it when it happened (GitHub's
/// `pull_request` event): the head before it, if the event says, the head
/// after it, and when the forge saw it (a time the forge assigns, never a
/// commit's date, which the pusher chooses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Push {
    /// The head before the push (`before`), when the event names it.
    pub before: Option<HeadSha>,
    /// The head after it.
    pub after: HeadSha,
    /// When the forge saw it (`pull_request.updated_at`).
    pub at: Timestamp,
}

/// One repository on a forge. Synchronous: gitnomic is a CLI run by CI.
pub trait Forge {
    /// Every open pull request and issue that is a matter of some kind.
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError>;
    /// Closed or merged matters, most recently updated first (at most 100):
    /// those carrying `label`, if given, and updated at or after `since`,
    /// if given. The resolver labels a matter `resolving` before it acts and
    /// removes the label once the record is written, so the closed ones
    /// still labelled are what a run that stopped half-way left to finish.
    fn closed_matters(
        &self,
        label: Option<&str>,
        since: Option<Timestamp>,
    ) -> Result<Vec<MatterInfo>, ForgeError>;
    /// Every closed or merged matter, for an audit: all of them, not the
    /// most recent hundred. Heads and merge commits may be left out.
    fn every_closed_matter(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        self.closed_matters(None, None)
    }
    /// One matter, open or not.
    fn matter(&self, number: MatterNumber) -> Result<MatterInfo, ForgeError>;
    /// The comments and review bodies of a matter, oldest first.
    fn comments(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError>;
    /// What happened to pull request `info` after it was opened that may
    /// have changed its kind of matter (it left draft, a label or its
    /// title changed), each with the forge's time, so a pull request that
    /// became a matter late is known (rule "Changes to Pending
    /// Proposals"). Only a change later than `window` after it was opened
    /// can make it late, so a forge may skip the read when nothing changed
    /// after that. Read after its thread. A forge that cannot say, or
    /// where none of these can happen, returns nothing.
    fn kind_events(
        &self,
        info: &MatterInfo,
        window: crate::time::Span,
    ) -> Result<Vec<KindEvent>, ForgeError> {
        let _ = (info, window);
        Ok(Vec::new())
    }
    /// The heads a pull request has had, each with the time the forge saw
    /// it pushed, oldest first. Votes are voided by when a push happened,
    /// not by when the resolver happened to look; a forge that cannot say
    /// returns nothing, and the resolver notes a new head when it sees it.
    fn pushes(&self, number: MatterNumber) -> Result<Vec<(HeadSha, Timestamp)>, ForgeError> {
        let _ = number;
        Ok(Vec::new())
    }
    /// The files of commit `sha` as (path, blob id), sorted by path, if the
    /// forge still has the commit: how a head force-pushed away, and never
    /// fetched into the checkout, can still be judged. `None` when the
    /// forge cannot say (the local forge keeps every head itself).
    fn files_of_commit(&self, sha: &HeadSha) -> Result<Option<Vec<(String, String)>>, ForgeError> {
        let _ = sha;
        Ok(None)
    }
    /// The bytes of blob `id`, if the forge has it.
    fn blob(&self, id: &str) -> Result<Option<Vec<u8>>, ForgeError> {
        let _ = id;
        Ok(None)
    }
    /// Keeps head `sha` of matter `number` reachable however the branch
    /// moves, so later runs can fetch it (GitHub: a reference under
    /// `refs/gitnomic/`). Doing it twice changes nothing. Returns whether
    /// the forge still had the commit to keep.
    fn pin_head(&self, number: MatterNumber, sha: &HeadSha) -> Result<bool, ForgeError> {
        let _ = (number, sha);
        Ok(true)
    }
    /// The paths a pull request changes, relative to the repository root.
    fn changed_files(&self, number: MatterNumber) -> Result<Vec<String>, ForgeError>;
    /// The login the bot acts as: only its comments can be status comments.
    fn bot(&self) -> &str;
    /// Whether this run took `number`'s thread from a copy kept between
    /// runs rather than from the forge (GitHub's thread cache): a matter
    /// about to be decided or acted on is then read afresh first.
    fn thread_was_kept(&self, number: MatterNumber) -> bool {
        let _ = number;
        false
    }
    /// Reads `number`'s thread from the forge, not a kept copy, for the
    /// rest of this run.
    fn read_thread_afresh(&self, number: MatterNumber) {
        let _ = number;
    }
    /// Whether a comment is the bot's status comment: the bot's own, and
    /// marked as one, so a player who copies the marker forges nothing.
    fn is_status(&self, comment: &ForgeComment) -> bool {
        comment.author.0 == self.bot() && crate::matter::journal::is_status(&comment.body)
    }
    /// The bot's status comment on a matter.
    fn status_comment(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
        Ok(self
            .comments(number)?
            .into_iter()
            .find(|c| self.is_status(c)))
    }
    /// Posts the status comment, or edits it in place if there is one.
    fn put_status(&self, number: MatterNumber, body: &str) -> Result<(), ForgeError>;
    /// The status comment as the forge has it now, not as this run read
    /// it; the next `put_status` edits this one.
    fn status_now(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
        self.read_thread_afresh(number);
        self.status_comment(number)
    }
    /// Marks a commit as passing or failing `gitnomic check`.
    fn set_commit_status(
        &self,
        sha: &HeadSha,
        ok: bool,
        description: &str,
    ) -> Result<(), ForgeError>;
    /// Adds these labels and removes those.
    fn set_labels(
        &self,
        number: MatterNumber,
        add: &[&str],
        remove: &[&str],
    ) -> Result<(), ForgeError>;
    /// Merges a pull request if, and only if, its head is still `expected`;
    /// returns the merge commit.
    fn merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        message: &str,
    ) -> Result<HeadSha, ForgeError>;
    /// Closes a matter without merging.
    fn close(&self, number: MatterNumber) -> Result<(), ForgeError>;
    /// A file as it is now on the default branch, if it exists there.
    fn read_file(&self, path: &str) -> Result<Option<String>, ForgeError>;
    /// Commits a file to the default branch (a record under content/).
    fn commit_file(&self, path: &str, text: &str, message: &str) -> Result<HeadSha, ForgeError>;
}
