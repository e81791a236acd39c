//! The thread cache: what each matter's thread read gave, kept between
//! runs with the matter's `updated_at`, so a thread that has not changed
//! is not read again.
//!
//! ETags alone cannot spare those reads in CI: GitHub ties an ETag to the
//! token that read it, and the workflows' `GITHUB_TOKEN` is new every run,
//! so every conditional request of a new run is answered 200 and spends
//! rate limit. The lists of open pull requests and issues, read every run
//! anyway, carry each matter's `updated_at`; when it has not moved since
//! the thread was read, the thread is taken from here with no request.
//!
//! What moves `updated_at`, from GitHub's own webhook payloads (real ones,
//! kept as test fixtures outside this project and checked by the test
//! `github::thread_cache::evidence`): a conversation comment created (the
//! issue's `updated_at` is the comment's `created_at`), a conversation
//! comment edited (the issue's `updated_at` is the comment's new
//! `updated_at`; and a pull request read from `GET /pulls/N` carries the
//! `updated_at` of the last edit of one of its comments), and a review
//! submitted (the pull request's `updated_at` is the review's
//! `submitted_at`). What is not shown, or reported not to: a comment on a
//! line of the diff made outside a review (users of the API have reported
//! that `updated_at` of the issue lists misses these), a comment deleted, a
//! review edited or dismissed. So nothing is trusted for ever:
//!
//! - a thread is read again once its copy is older than the most a copy
//!   may age (`GITNOMIC_THREAD_MAX_AGE`, hours, 6 by default), whatever
//!   `updated_at` says;
//! - a matter the run is about to decide or act on (any effect in its
//!   plan) whose thread came from here is read again and planned afresh
//!   (see `resolve::driver::plan`), so no decision rests on a copy;
//! - the bot's own status comment moves `updated_at` too, to the time
//!   GitHub answers the write with; but a vote cast between the run's
//!   read and its write would hide behind that time, so a write drops the
//!   copy and the next run reads the thread once more.
//!
//! A pull request's events that may change its kind of matter (see
//! `GitHubForge::kind_events`) are kept with its thread and stand or fall
//! with it: leaving draft, a label and a title each move `updated_at`.
//!
//! The cache lives in the same file as the ETags (`GITNOMIC_HTTP_CACHE`),
//! stamped with its format's version, the API and the repository: a file
//! that is missing, unreadable, of another version or of another
//! repository is ignored whole (it only saves requests, it is never
//! trusted for anything else).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::http::Reply;
use crate::forge::{ForgeComment, HeadSha, Login};
use crate::matter::{Change, KindEvent, MatterNumber, ReviewState, Via};
use crate::time::Timestamp;

/// The version of the cache file's format; any other is ignored.
const VERSION: u32 = 3;

/// How old a copy may grow, by default, before it is read again however
/// still the matter's `updated_at` stands.
pub(crate) const DEFAULT_MAX_AGE_HOURS: i64 = 6;

/// The cache file: ETags of the HTTP client and the threads.
#[derive(Serialize, Deserialize)]
pub(crate) struct CacheFile {
    version: u32,
    api: String,
    repo: String,
    pub(crate) etags: HashMap<String, (String, Reply)>,
    threads: BTreeMap<MatterNumber, Thread>,
}

/// One matter's thread as last read.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Thread {
    /// The matter's `updated_at` (seconds) when it was read.
    updated: i64,
    /// When it was read (the run's moment, seconds).
    read_at: i64,
    comments: Vec<Kept>,
    /// The events that may change its kind of matter, once read for this
    /// `updated_at` (see `GitHubForge::kind_events`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    events: Option<Vec<KeptEvent>>,
    /// A pull request's pushes, `(head, seconds)`, once read for this
    /// `updated_at`, where the forge gives them with the thread (Forgejo's
    /// timeline; a push moves `updated_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pushes: Option<Vec<(String, i64)>>,
}

/// An event as kept: `ready`, `draft`, `labeled:NAME`, `unlabeled:NAME`,
/// or `renamed` with the titles.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct KeptEvent {
    at: i64,
    what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<String>,
}

impl KeptEvent {
    fn of(e: &KindEvent) -> Self {
        let (what, from, to) = match &e.change {
            Change::ReadyForReview => ("ready".to_string(), None, None),
            Change::ConvertToDraft => ("draft".to_string(), None, None),
            Change::Labeled(l) => (format!("labeled:{l}"), None, None),
            Change::Unlabeled(l) => (format!("unlabeled:{l}"), None, None),
            Change::Renamed { from, to } => {
                ("renamed".to_string(), Some(from.clone()), Some(to.clone()))
            }
        };
        KeptEvent {
            at: e.at.unix(),
            what,
            from,
            to,
        }
    }

    fn event(&self) -> Option<KindEvent> {
        let change = match (self.what.as_str(), &self.from, &self.to) {
            ("ready", ..) => Change::ReadyForReview,
            ("draft", ..) => Change::ConvertToDraft,
            ("renamed", Some(from), Some(to)) => Change::Renamed {
                from: from.clone(),
                to: to.clone(),
            },
            (what, ..) => match what.split_once(':')? {
                ("labeled", l) => Change::Labeled(l.to_string()),
                ("unlabeled", l) => Change::Unlabeled(l.to_string()),
                _ => return None,
            },
        };
        Some(KindEvent {
            at: Timestamp::from_unix(self.at),
            change,
        })
    }
}

/// A comment as kept.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Kept {
    id: u64,
    author: String,
    created: i64,
    edited: Option<i64>,
    body: String,
    link: Option<String>,
    /// `comment`, `line`, `review:approved|changes|commented` or `dismissed`.
    via: String,
}

impl Kept {
    fn of(c: &ForgeComment) -> Self {
        let via = match c.via {
            Via::Comment => "comment",
            Via::LineComment => "line",
            Via::Review(ReviewState::Approved) => "review:approved",
            Via::Review(ReviewState::ChangesRequested) => "review:changes",
            Via::Review(ReviewState::Commented) => "review:commented",
            Via::Dismissed => "dismissed",
        };
        Kept {
            id: c.id,
            author: c.author.0.clone(),
            created: c.created.unix(),
            edited: c.edited.map(Timestamp::unix),
            body: c.body.clone(),
            link: c.link.clone(),
            via: via.to_string(),
        }
    }

    fn comment(&self) -> Option<ForgeComment> {
        let via = match self.via.as_str() {
            "comment" => Via::Comment,
            "line" => Via::LineComment,
            "review:approved" => Via::Review(ReviewState::Approved),
            "review:changes" => Via::Review(ReviewState::ChangesRequested),
            "review:commented" => Via::Review(ReviewState::Commented),
            "dismissed" => Via::Dismissed,
            _ => return None,
        };
        Some(ForgeComment {
            id: self.id,
            author: Login(self.author.clone()),
            created: Timestamp::from_unix(self.created),
            edited: self.edited.map(Timestamp::from_unix),
            body: self.body.clone(),
            link: self.link.clone(),
            via,
        })
    }
}

/// The threads kept, and what this run learnt of them.
#[derive(Debug, Default)]
pub(crate) struct Threads {
    kept: BTreeMap<MatterNumber, Thread>,
    /// Each matter's `updated_at` as this run's listings gave it.
    listed: HashMap<MatterNumber, i64>,
    /// Whether the open matters were listed (else nothing is pruned).
    listed_open: bool,
    /// Threads this run took from the cache.
    served: HashSet<MatterNumber>,
    /// Threads this run must read afresh.
    forced: HashSet<MatterNumber>,
    /// The run's moment and the most a copy may age, in seconds.
    now: i64,
    max_age: i64,
}

impl Threads {
    /// No threads kept; copies may age `max_age_hours`.
    pub(crate) fn new(now: Timestamp, max_age_hours: i64) -> Self {
        Threads {
            now: now.unix(),
            max_age: max_age_hours.saturating_mul(3600),
            ..Threads::default()
        }
    }

    pub(crate) fn set_clock(&mut self, now: Timestamp) {
        self.now = now.unix();
    }

    pub(crate) fn set_max_age(&mut self, hours: i64) {
        self.max_age = hours.saturating_mul(3600);
    }

    /// Reads the cache file; `None` (and nothing trusted) unless it is of
    /// this version, API and repository.
    pub(crate) fn load(path: &Path, api: &str, repo: &str) -> Option<CacheFile> {
        let text = std::fs::read_to_string(path).ok()?;
        let file: CacheFile = serde_json::from_str(&text).ok()?;
        (file.version == VERSION && file.api == api && file.repo == repo).then_some(file)
    }

    /// Takes the threads of a cache file.
    pub(crate) fn adopt(&mut self, file: &mut CacheFile) {
        self.kept = std::mem::take(&mut file.threads);
    }

    /// The cache file to save: the ETags given, and the threads of the
    /// matters this run listed open (those closed since are dropped).
    pub(crate) fn file(
        &self,
        api: &str,
        repo: &str,
        etags: HashMap<String, (String, Reply)>,
    ) -> CacheFile {
        let threads = self
            .kept
            .iter()
            .filter(|(n, _)| !self.listed_open || self.listed.contains_key(n))
            .map(|(n, t)| (*n, t.clone()))
            .collect();
        CacheFile {
            version: VERSION,
            api: api.to_string(),
            repo: repo.to_string(),
            etags,
            threads,
        }
    }

    /// Notes a matter's `updated_at` as a listing gave it.
    pub(crate) fn listed(&mut self, number: MatterNumber, updated: Option<Timestamp>) {
        match updated {
            Some(at) => self.listed.insert(number, at.unix()),
            None => self.listed.remove(&number),
        };
    }

    /// The open matters were listed: threads of others are not kept.
    pub(crate) fn listed_all_open(&mut self) {
        self.listed_open = true;
    }

    /// The kept thread of `number`, if its `updated_at` has not moved, it
    /// is young enough, and this run was not told to read it afresh.
    pub(crate) fn get(&mut self, number: MatterNumber) -> Option<Vec<ForgeComment>> {
        if self.forced.contains(&number) {
            return None;
        }
        let updated = *self.listed.get(&number)?;
        let thread = self.kept.get(&number)?;
        let young = self.now.saturating_sub(thread.read_at) < self.max_age;
        if thread.updated != updated || !young || thread.read_at > self.now {
            return None;
        }
        let comments: Option<Vec<ForgeComment>> =
            thread.comments.iter().map(Kept::comment).collect();
        let comments = comments?;
        self.served.insert(number);
        Some(comments)
    }

    /// Keeps a thread just read, if the matter's `updated_at` is known.
    pub(crate) fn put(&mut self, number: MatterNumber, comments: &[ForgeComment]) {
        self.served.remove(&number);
        let Some(updated) = self.listed.get(&number) else {
            self.kept.remove(&number);
            return;
        };
        let thread = Thread {
            updated: *updated,
            read_at: self.now,
            comments: comments.iter().map(Kept::of).collect(),
            events: None,
            pushes: None,
        };
        self.kept.insert(number, thread);
    }

    /// The events kept with `number`'s thread, if this run took the thread
    /// from the cache (its `updated_at` has not moved since they were read).
    pub(crate) fn events(&self, number: MatterNumber) -> Option<Vec<KindEvent>> {
        if !self.served.contains(&number) {
            return None;
        }
        let kept = self.kept.get(&number)?.events.as_ref()?;
        kept.iter().map(KeptEvent::event).collect()
    }

    /// Keeps the events just read with `number`'s thread, if it is kept.
    pub(crate) fn put_events(&mut self, number: MatterNumber, events: &[KindEvent]) {
        if let Some(thread) = self.kept.get_mut(&number) {
            thread.events = Some(events.iter().map(KeptEvent::of).collect());
        }
    }

    /// The pushes kept with `number`'s thread, if this run took the thread
    /// from the cache.
    pub(crate) fn pushes(&self, number: MatterNumber) -> Option<Vec<(HeadSha, Timestamp)>> {
        if !self.served.contains(&number) {
            return None;
        }
        let kept = self.kept.get(&number)?.pushes.as_ref()?;
        Some(
            kept.iter()
                .map(|(sha, at)| (HeadSha(sha.clone()), Timestamp::from_unix(*at)))
                .collect(),
        )
    }

    /// Keeps the pushes just read with `number`'s thread, if it is kept.
    pub(crate) fn put_pushes(&mut self, number: MatterNumber, pushes: &[(HeadSha, Timestamp)]) {
        if let Some(thread) = self.kept.get_mut(&number) {
            thread.pushes = Some(
                pushes
                    .iter()
                    .map(|(s, at)| (s.0.clone(), at.unix()))
                    .collect(),
            );
        }
    }

    /// Whether this run took `number`'s thread from the cache.
    pub(crate) fn served(&self, number: MatterNumber) -> bool {
        self.served.contains(&number)
    }

    /// Reads `number`'s thread afresh from now on in this run.
    pub(crate) fn forget(&mut self, number: MatterNumber) {
        self.forced.insert(number);
        self.served.remove(&number);
        self.kept.remove(&number);
    }

    /// The bot wrote its status comment on `number`: the copy is dropped,
    /// and the next run reads the thread once more. The time GitHub
    /// answers the write with is the matter's new `updated_at`, but it
    /// would hide a comment made between this run's read and its write
    /// (a vote cast while the run works), so it is not taken as the copy's.
    pub(crate) fn status_written(&mut self, number: MatterNumber) {
        self.kept.remove(&number);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(id: u64, at: i64) -> ForgeComment {
        ForgeComment {
            id,
            author: Login("ada".into()),
            created: Timestamp::from_unix(at),
            edited: None,
            body: "FOR".into(),
            link: None,
            via: Via::Review(ReviewState::Approved),
        }
    }

    /// The matter every test here reads.
    const SEVEN: MatterNumber = MatterNumber(7);

    #[test]
    fn a_thread_is_reused_only_while_updated_at_stands_and_it_is_young() {
        let mut threads = Threads::new(Timestamp::from_unix(1_000), 1);
        threads.listed(SEVEN, Some(Timestamp::from_unix(900)));
        threads.put(SEVEN, &[comment(1, 800)]);
        let back = threads.get(SEVEN).expect("unchanged: reused");
        assert_eq!(back[0].via, Via::Review(ReviewState::Approved));
        assert!(threads.served(SEVEN));
        threads.listed(SEVEN, Some(Timestamp::from_unix(950)));
        assert!(threads.get(SEVEN).is_none(), "updated_at moved");
        threads.listed(SEVEN, Some(Timestamp::from_unix(900)));
        threads.set_clock(Timestamp::from_unix(1_000 + 3_600));
        assert!(threads.get(SEVEN).is_none(), "too old");
        threads.set_clock(Timestamp::from_unix(1_000));
        threads.forget(SEVEN);
        threads.put(SEVEN, &[comment(1, 800)]);
        assert!(threads.get(SEVEN).is_none(), "forced afresh for the run");
    }

    #[test]
    fn the_bots_write_drops_the_copy() {
        let mut threads = Threads::new(Timestamp::from_unix(1_000), 6);
        threads.listed(SEVEN, Some(Timestamp::from_unix(900)));
        threads.put(SEVEN, &[comment(1, 800)]);
        threads.status_written(SEVEN);
        assert!(threads.get(SEVEN).is_none());
    }
}
