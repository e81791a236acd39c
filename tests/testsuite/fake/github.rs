//! A small stateful fake of the GitHub REST endpoints gitnomic uses, on
//! loopback. It keeps pull requests, issues, comments, reviews, labels,
//! statuses and file contents; merges for real (state changes, so a second
//! merge is refused); pages lists two items at a time with `Link` headers;
//! answers `If-None-Match` with 304; sends rate-limit headers; and can be
//! told to fail a request once (the next one to a path, or the n-th of the
//! run): before acting, or after acting (the write happened, the answer
//! says it did not), or by hanging up (a timeout).
//!
//! Held to GitHub's own description (see `openapi`): every request must be
//! an operation GitHub has, with parameters and body fields it accepts, and
//! every reply is built from that operation's response schema (all required
//! fields, GitHub's nulls included) and validated. A request or reply that
//! does not conform is recorded, and the fake panics when it is dropped, so
//! every test that uses it checks conformance.
//!
//! Started as a fake Forgejo ([`FakeGitHub::start_forgejo`]), the same
//! world is served under `/api/v1` in Forgejo's shapes (see
//! `fake::forgejo`), held to Forgejo's description (`swagger`) instead, so
//! one scenario can be played on both forges (see `forges::scenarios`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::{Value, json};

use crate::fake::openapi;

pub(crate) const REPO: &str = "clockwork/game";
pub(crate) const BOT: &str = "github-actions[bot]";
/// The account Forgejo Actions' token acts as.
pub(crate) const FORGEJO_BOT: &str = "forgejo-actions";

/// A pull request or an issue.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub(crate) number: u64,
    pub(crate) title: String,
    /// `None`: the account was deleted (GitHub sends `null`).
    pub(crate) user: Option<String>,
    pub(crate) created_at: String,
    /// When it last changed, if not when it was made.
    pub(crate) updated_at: Option<String>,
    pub(crate) labels: Vec<String>,
    /// `Some(head sha)` for a pull request.
    pub(crate) head: Option<String>,
    pub(crate) files: Vec<String>,
    pub(crate) state: &'static str,
    pub(crate) merge_commit: Option<String>,
    pub(crate) draft: bool,
    /// The branch a pull request asks to be merged into (`base.ref`).
    pub(crate) base: String,
}

impl Item {
    /// An open pull request with no labels or files.
    pub(crate) fn pull(number: u64, title: &str, user: &str, at: &str, head: &str) -> Self {
        Item {
            number,
            title: title.into(),
            user: Some(user.into()),
            created_at: at.into(),
            updated_at: None,
            labels: Vec::new(),
            head: Some(head.into()),
            files: Vec::new(),
            state: "open",
            merge_commit: None,
            draft: false,
            base: "main".into(),
        }
    }

    /// An open issue with no labels.
    pub(crate) fn issue(number: u64, title: &str, user: &str, at: &str) -> Self {
        Item {
            head: None,
            ..Item::pull(number, title, user, at, "")
        }
    }
}

/// An issue comment or a review.
#[derive(Debug, Clone)]
pub(crate) struct Comment {
    pub(crate) number: u64,
    pub(crate) id: u64,
    /// `None`: the account was deleted.
    pub(crate) user: Option<String>,
    pub(crate) created_at: String,
    /// When it was last edited, if it was.
    pub(crate) edited_at: Option<String>,
    pub(crate) body: String,
    /// Reviews only: APPROVED, CHANGES_REQUESTED, COMMENTED, DISMISSED, PENDING.
    pub(crate) state: &'static str,
    /// Comments on lines of the diff only: the review they were made in.
    pub(crate) review: Option<u64>,
}

/// A commit status set on a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CommitStatus {
    pub(crate) sha: String,
    pub(crate) state: String,
    pub(crate) description: String,
    pub(crate) context: String,
}

/// GitHub keeps at most this many statuses per commit and context; the
/// next one is refused as a validation error (its description of
/// `repos/create-commit-status` says so).
pub(crate) const MAX_STATUSES: usize = 1000;

/// An issue event (`GET /issues/N/events`): `ready_for_review`,
/// `labeled` or `renamed`.
#[derive(Debug, Clone)]
pub(crate) struct Event {
    pub(crate) number: u64,
    pub(crate) id: u64,
    pub(crate) actor: String,
    pub(crate) event: &'static str,
    pub(crate) at: String,
    pub(crate) label: Option<String>,
    pub(crate) rename: Option<(String, String)>,
}

/// A push to a pull request as Forgejo records it in the timeline
/// (`pull_push`): the commits it brought, or the heads before and after a
/// force push.
#[derive(Debug, Clone)]
pub(crate) struct PushEntry {
    pub(crate) number: u64,
    pub(crate) id: u64,
    pub(crate) at: String,
    pub(crate) force: bool,
    pub(crate) commit_ids: Vec<String>,
}

/// One logged request.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) body: String,
    pub(crate) status: u16,
}

/// How a faulty request goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum When {
    /// Answer the fault without doing anything.
    Before,
    /// Do what was asked, then answer the fault: the write happened.
    After,
    /// Do what was asked, then hang up without answering (a timeout).
    HangUpAfter,
    /// Hang up without doing anything.
    HangUpBefore,
}

/// A request to fail once.
#[derive(Debug, Clone)]
pub(crate) struct Fault {
    /// Fail only the request with this index in the log (the first is 0),
    /// whatever its method and path.
    pub(crate) at: Option<usize>,
    pub(crate) method: String,
    /// The path prefix after `/repos/{REPO}`.
    pub(crate) prefix: String,
    pub(crate) status: u16,
    pub(crate) body: String,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) when: When,
}

#[derive(Debug, Default)]
pub(crate) struct World {
    pub(crate) items: BTreeMap<u64, Item>,
    pub(crate) comments: Vec<Comment>,
    pub(crate) reviews: Vec<Comment>,
    /// Comments on lines of pull requests' diffs.
    pub(crate) line_comments: Vec<Comment>,
    /// Issue events (leaving draft, labels, titles).
    pub(crate) events: Vec<Event>,
    /// File contents on the default branch: path → (blob sha, base64).
    pub(crate) contents: BTreeMap<String, (String, String)>,
    /// Commit statuses as they were set, oldest first.
    pub(crate) statuses: Vec<CommitStatus>,
    /// Commits made through the contents API: (path, commit sha).
    pub(crate) commits: Vec<(String, String)>,
    pub(crate) log: Vec<Request>,
    pub(crate) faults: Vec<Fault>,
    /// GitHub's clock for the writes it stamps (the bot's comments and
    /// edits), when a test sets it: an edit then moves the comment's and
    /// the matter's `updated_at` to it, as GitHub's do.
    pub(crate) clock: Option<String>,
    /// Items a page of a list (default: `routes::PAGE`, to exercise paging).
    pub(crate) page_size: Option<usize>,
    /// Serve issue labels as bare strings (GitHub's description allows both).
    pub(crate) labels_as_strings: bool,
    /// Requests GitHub would refuse or replies it would never send.
    pub(crate) violations: Vec<String>,
    /// A git repository whose `main` is the default branch, if the test
    /// wants one: merges and file commits are then made there for real
    /// (see `fake_git`), so the next run's checkout sees them.
    pub(crate) main: Option<std::path::PathBuf>,
    /// A git repository holding every commit GitHub has, force-pushed away
    /// or not (its git data API serves trees and blobs from it), if the
    /// test wants one.
    pub(crate) objects: Option<std::path::PathBuf>,
    /// Every merge refused with 405 and this message, as branch
    /// protection or a merge queue refuses the workflow's token.
    pub(crate) refuse_merges: Option<String>,
    /// References made through the git refs API: name → commit.
    pub(crate) refs: BTreeMap<String, String>,
    /// From this request on (its index in the log), every request fails
    /// with 502, the first one as the fault says: GitHub is down.
    pub(crate) outage: Option<(usize, When)>,
    /// The repository's settings, labels and the accounts GitHub knows
    /// (see `fake_settings`).
    pub(crate) settings: crate::fake::settings::Settings,
    /// Another run's write landing while a run works: done just before
    /// the fake answers the request it names.
    pub(crate) concurrent: Option<ConcurrentEdit>,
    /// Served as Forgejo (under `/api/v1`, in its shapes), not as GitHub.
    pub(crate) forgejo: bool,
    /// The account the Actions token acts as, if not the forge's usual one
    /// (Gitea's is `gitea-actions`).
    pub(crate) bot_login: Option<&'static str>,
    /// Pushes as Forgejo's timeline records them.
    pub(crate) pushes: Vec<PushEntry>,
    /// A force push to this head, at this time, that lands just before the
    /// next merge request is answered (as if pushed while the run worked).
    pub(crate) push_at_merge: Option<(String, String)>,
    next_id: u64,
}

/// Comment `comment`'s body becomes `body` just before the fake answers
/// the `nth` (from 1) request of `method` on a path (after
/// `/repos/{REPO}`, query left out) equal to `path`: as if another run
/// edited it between two requests of this one.
#[derive(Debug, Clone)]
pub(crate) struct ConcurrentEdit {
    pub(crate) method: &'static str,
    pub(crate) path: String,
    pub(crate) nth: usize,
    pub(crate) comment: u64,
    pub(crate) body: String,
}

/// Lands the concurrent edit if `request` is the one it waits for.
pub(crate) fn land_concurrent_edit(w: &mut World, request: &Incoming) {
    let Some(edit) = w.concurrent.as_mut() else {
        return;
    };
    let path = request.target.split('?').next().unwrap_or("");
    if request.method != edit.method || path != format!("/repos/{REPO}{}", edit.path) {
        return;
    }
    edit.nth -= 1;
    if edit.nth > 0 {
        return;
    }
    let edit = w.concurrent.take().expect("just seen");
    if let Some(c) = w.comments.iter_mut().find(|c| c.id == edit.comment) {
        c.body = edit.body;
    }
}

impl World {
    /// GitHub moves a matter's `updated_at` with every comment and review.
    pub(crate) fn touch(&mut self, number: u64, at: &str) {
        if let Some(item) = self.items.get_mut(&number) {
            if item.updated_at.as_deref().is_none_or(|u| u < at) && item.created_at.as_str() < at {
                item.updated_at = Some(at.to_string());
            }
        }
    }

    /// The bot's comment `body` posted on `number` at the fake's clock,
    /// as a forge's comment route takes it.
    pub(crate) fn post_as_bot(&mut self, number: u64, body: &str) -> &Comment {
        let at = self.clock.clone();
        let bot = self.bot();
        let at = at.as_deref().unwrap_or("2030-01-01T00:00:00Z");
        let id = self.add_comment(number, bot, at, body);
        self.comments.iter().find(|c| c.id == id).unwrap()
    }

    /// Comment `id` edited to `body` at the fake's clock (its matter's
    /// `updated_at` moved), as a forge's edit route takes it; `None` when
    /// there is no such comment.
    pub(crate) fn edit_at_clock(&mut self, id: u64, body: &str) -> Option<Comment> {
        let clock = self.clock.clone();
        let c = self.comments.iter_mut().find(|c| c.id == id)?;
        c.body = body.to_string();
        if let Some(at) = &clock {
            c.edited_at = Some(at.clone());
        }
        let edited = c.clone();
        if let Some(at) = &clock {
            self.touch(edited.number, at);
        }
        Some(edited)
    }

    /// Labels `names` added to item `number` (those it has kept once);
    /// `None` when there is no such item.
    pub(crate) fn add_labels<'n>(
        &mut self,
        number: u64,
        names: impl IntoIterator<Item = &'n str>,
    ) -> Option<&Item> {
        let item = self.items.get_mut(&number)?;
        for name in names {
            if !item.labels.iter().any(|x| x == name) {
                item.labels.push(name.to_string());
            }
        }
        Some(item)
    }

    pub(crate) fn add_comment(&mut self, number: u64, user: &str, at: &str, body: &str) -> u64 {
        self.add_comment_by(number, Some(user), at, body)
    }

    /// A comment by `user`, or by a deleted account (`None`).
    pub(crate) fn add_comment_by(
        &mut self,
        number: u64,
        user: Option<&str>,
        at: &str,
        body: &str,
    ) -> u64 {
        self.next_id += 1;
        self.touch(number, at);
        let id = 1000 + self.next_id;
        self.comments.push(Comment {
            number,
            id,
            user: user.map(str::to_string),
            created_at: at.into(),
            edited_at: None,
            body: body.into(),
            state: "COMMENTED",
            review: None,
        });
        id
    }

    /// A submitted review (`state` as the REST API spells it).
    pub(crate) fn add_review(
        &mut self,
        number: u64,
        user: Option<&str>,
        at: &str,
        body: &str,
        state: &'static str,
    ) -> u64 {
        self.next_id += 1;
        self.touch(number, at);
        let id = 1000 + self.next_id;
        self.reviews.push(Comment {
            number,
            id,
            user: user.map(str::to_string),
            created_at: at.into(),
            edited_at: None,
            body: body.into(),
            state,
            review: None,
        });
        id
    }

    /// A comment on a line of the diff of pull request `number`, made in
    /// review `review` if given.
    pub(crate) fn add_line_comment(
        &mut self,
        number: u64,
        user: &str,
        at: &str,
        body: &str,
        review: Option<u64>,
    ) -> u64 {
        self.next_id += 1;
        // Made in a review, the review's submission moves the matter's
        // `updated_at`; alone, it is not shown to (and reported not to).
        if review.is_some() {
            self.touch(number, at);
        }
        let id = 1000 + self.next_id;
        self.line_comments.push(Comment {
            number,
            id,
            user: Some(user.into()),
            created_at: at.into(),
            edited_at: None,
            body: body.into(),
            state: "COMMENTED",
            review,
        });
        id
    }

    /// Records issue event `event` on `number` at `at` by `actor`; GitHub
    /// moves the matter's `updated_at` with it.
    fn add_event(&mut self, number: u64, actor: &str, at: &str, event: &'static str) -> &mut Event {
        self.next_id += 1;
        self.touch(number, at);
        self.events.push(Event {
            number,
            id: 5000 + self.next_id,
            actor: actor.into(),
            event,
            at: at.into(),
            label: None,
            rename: None,
        });
        self.events.last_mut().expect("just pushed")
    }

    /// Draft pull request `number` is marked ready for review at `at`.
    pub(crate) fn mark_ready(&mut self, number: u64, actor: &str, at: &str) {
        self.items.get_mut(&number).unwrap().draft = false;
        self.add_event(number, actor, at, "ready_for_review");
    }

    /// `label` is added to `number` at `at`.
    pub(crate) fn add_label_at(&mut self, number: u64, actor: &str, at: &str, label: &str) {
        self.items
            .get_mut(&number)
            .unwrap()
            .labels
            .push(label.into());
        self.add_event(number, actor, at, "labeled").label = Some(label.into());
    }

    /// `number` is retitled `title` at `at`.
    pub(crate) fn rename(&mut self, number: u64, actor: &str, at: &str, title: &str) {
        let item = self.items.get_mut(&number).unwrap();
        let from = std::mem::replace(&mut item.title, title.into());
        self.add_event(number, actor, at, "renamed").rename = Some((from, title.into()));
    }

    /// Pull request `number` is pushed to `sha` at `at` (a force push from
    /// its old head when `force`): its head and `updated_at` move, and the
    /// push is recorded as Forgejo's timeline records it.
    pub(crate) fn push(&mut self, number: u64, sha: &str, at: &str, force: bool) {
        let item = self.items.get_mut(&number).expect("a pull request");
        let before = item.head.replace(sha.to_string()).unwrap_or_default();
        item.updated_at = Some(at.to_string());
        self.next_id += 1;
        let commit_ids = if force {
            vec![before, sha.to_string()]
        } else {
            vec![sha.to_string()]
        };
        self.pushes.push(PushEntry {
            number,
            id: 1000 + self.next_id,
            at: at.to_string(),
            force,
            commit_ids,
        });
    }

    /// Lands the push waiting for a merge of `number`, if one is.
    pub(crate) fn land_push_at_merge(&mut self, number: u64) {
        if let Some((sha, at)) = self.push_at_merge.take() {
            self.push(number, &sha, &at, true);
        }
    }

    /// Comment `id` is deleted.
    pub(crate) fn delete_comment(&mut self, id: u64) {
        self.comments.retain(|c| c.id != id);
    }

    /// Review `id` is dismissed.
    pub(crate) fn dismiss_review(&mut self, id: u64) {
        if let Some(r) = self.reviews.iter_mut().find(|r| r.id == id) {
            r.state = "DISMISSED";
        }
    }

    /// Edits the first comment by `user` on `number`, at `at`.
    pub(crate) fn edit_comment(&mut self, number: u64, user: &str, at: &str, body: &str) {
        let c = self
            .comments
            .iter_mut()
            .find(|c| c.number == number && c.user.as_deref() == Some(user))
            .unwrap();
        c.body = body.into();
        c.edited_at = Some(at.into());
        // An edit moves the matter's `updated_at` (GitHub's `edited` payload).
        self.touch(number, at);
    }

    pub(crate) fn fail_next(&mut self, method: &str, path: &str, status: u16, message: &str) {
        self.fail(method, path, status, message, When::Before, &[]);
    }

    /// Fails the next `method` request whose path starts with `path`.
    pub(crate) fn fail(
        &mut self,
        method: &str,
        path: &str,
        status: u16,
        message: &str,
        when: When,
        headers: &[(&str, &str)],
    ) {
        self.faults.push(Fault {
            at: None,
            method: method.into(),
            prefix: path.into(),
            status,
            body:
                json!({ "message": message, "documentation_url": "https://docs.github.com/rest" })
                    .to_string(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            when,
        });
    }

    /// Fails the request with index `at` in the log (the first is 0),
    /// whatever it asks: a sweep can fail each request of a run in turn.
    pub(crate) fn fail_request(
        &mut self,
        at: usize,
        status: u16,
        message: &str,
        when: When,
        headers: &[(&str, &str)],
    ) {
        self.fail("", "", status, message, when, headers);
        if let Some(fault) = self.faults.last_mut() {
            fault.at = Some(at);
        }
    }

    /// GitHub goes down at request `at`: it and every request after it
    /// fail with 502 (`at` itself as `when` says, the rest before acting).
    pub(crate) fn fail_from(&mut self, at: usize, when: When) {
        self.outage = Some((at, when));
    }

    pub(crate) fn merges(&self) -> Vec<&Request> {
        self.log
            .iter()
            .filter(|r| {
                matches!(r.method.as_str(), "PUT" | "POST")
                    && r.path.ends_with("/merge")
                    && r.status == 200
            })
            .collect()
    }

    pub(crate) fn requests(&self, method: &str, prefix: &str) -> usize {
        let prefix = format!("/repos/{REPO}{prefix}");
        self.log
            .iter()
            .filter(|r| r.method == method && r.path.starts_with(&prefix))
            .count()
    }

    /// The states of the commit statuses set, oldest first, with their commits.
    pub(crate) fn status_states(&self) -> Vec<(String, String)> {
        self.statuses
            .iter()
            .map(|s| (s.sha.clone(), s.state.clone()))
            .collect()
    }

    /// The login the adapter's token acts as on this forge.
    pub(crate) fn bot(&self) -> &'static str {
        let usual = if self.forgejo { FORGEJO_BOT } else { BOT };
        self.bot_login.unwrap_or(usual)
    }

    pub(crate) fn bot_comments(&self, number: u64) -> Vec<String> {
        self.comments
            .iter()
            .filter(|c| c.number == number && c.user.as_deref() == Some(self.bot()))
            .map(|c| c.body.clone())
            .collect()
    }
}

/// The running fake.
pub(crate) struct FakeGitHub {
    pub(crate) world: Arc<Mutex<World>>,
    pub(crate) url: String,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FakeGitHub {
    pub(crate) fn start() -> Self {
        Self::start_as(false)
    }

    /// A fake Forgejo: the same world, served as Forgejo serves it.
    pub(crate) fn start_forgejo() -> Self {
        Self::start_as(true)
    }

    fn start_as(forgejo: bool) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let world = Arc::new(Mutex::new(World {
            forgejo,
            ..World::default()
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (w, s, base) = (world.clone(), stop.clone(), url.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = stream {
                    serve(stream, &w, &base);
                }
            }
        });
        FakeGitHub {
            world,
            url,
            stop,
            thread: Some(thread),
        }
    }

    pub(crate) fn world(&self) -> std::sync::MutexGuard<'_, World> {
        self.world
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for FakeGitHub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let violations = std::mem::take(&mut self.world().violations);
        if !violations.is_empty() && !std::thread::panicking() {
            let whose = if self.world().forgejo {
                "Forgejo's"
            } else {
                "GitHub's"
            };
            panic!(
                "the adapter and the fake strayed from {whose} description:\n{}",
                violations.join("\n")
            );
        }
    }
}

/// A parsed HTTP request.
pub(crate) struct Incoming {
    pub(crate) method: String,
    pub(crate) target: String,
    pub(crate) body: String,
    pub(crate) if_none_match: Option<String>,
    /// The `Authorization` header: GitHub ties ETags to the token.
    pub(crate) token: String,
}

fn read_request(stream: &TcpStream) -> Option<Incoming> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut length = 0;
    let mut if_none_match = None;
    let mut token = String::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "if-none-match" => if_none_match = Some(value.trim().to_string()),
            "authorization" => token = value.trim().to_string(),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = String::from_utf8_lossy(&body).into_owned();
    Some(Incoming {
        method,
        target,
        body,
        if_none_match,
        token,
    })
}

/// What the fake answers: status, JSON (before it is built out to
/// GitHub's schema), the next page, extra headers.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) json: Option<Value>,
    pub(crate) next: Option<String>,
    /// How many items the whole list holds (Forgejo's `X-Total-Count`).
    pub(crate) total: Option<usize>,
}

fn serve(stream: TcpStream, world: &Mutex<World>, base: &str) {
    let Some(mut request) = read_request(&stream) else {
        return;
    };
    let mut w = world
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if w.forgejo {
        match request.target.strip_prefix(crate::fake::swagger::BASE_PATH) {
            Some(rest) => request.target = rest.to_string(),
            None => w
                .violations
                .push(format!("request: {} is not under /api/v1", request.target)),
        }
        return crate::fake::forgejo::serve(stream, w, &request, base);
    }
    let spec = openapi::spec();
    let op = match spec.map(|s| s.check_request(&request.method, &request.target, &request.body)) {
        Some(Err(e)) => {
            w.violations.push(format!("request: {e}"));
            None
        }
        Some(Ok(op)) => Some(op),
        None => None,
    };
    land_concurrent_edit(&mut w, &request);
    let fault = take_fault(&mut w, &request);
    let answer = match &fault {
        Some(f) if matches!(f.when, When::Before | When::HangUpBefore) => None,
        _ => Some(crate::fake::routes::respond(
            &mut w,
            &request.method,
            &request.target,
            &request.body,
            base,
        )),
    };
    let (status, text, next, headers) = match (fault, answer) {
        (Some(f), _) if matches!(f.when, When::HangUpBefore | When::HangUpAfter) => {
            w.log.push(log(&request, 0));
            return; // the connection closes with no answer
        }
        (Some(f), _) => (f.status, f.body, None, f.headers),
        (None, Some(a)) => {
            let text = reply_text(&mut w, spec, op.as_ref(), &a);
            (a.status, text, a.next, Vec::new())
        }
        (None, None) => unreachable!(),
    };
    // The ETag covers the page and its link to the next, so a first page
    // whose items did not change but whose list grew is not "not modified".
    // It is bound to the token too, as GitHub's are: a new token (the
    // workflows' GITHUB_TOKEN is new every run) gets no 304.
    // A real hash: a sum of bytes gave "t0ken-12" and "t0ken-21" one tag.
    let mut tagged = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(&(&text, &next, &request.token), &mut tagged);
    let etag = format!("\"{:x}\"", std::hash::Hasher::finish(&tagged));
    let not_modified = request.method == "GET"
        && status == 200
        && request.if_none_match.as_deref() == Some(etag.as_str());
    let (status, text) = if not_modified {
        (304, String::new())
    } else {
        (status, text)
    };
    w.log.push(log(&request, status));
    drop(w);
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\nETag: {etag}\r\n",
        text.len()
    );
    if !headers.iter().any(|(k, _)| k == "x-ratelimit-remaining") {
        head.push_str("x-ratelimit-limit: 5000\r\nx-ratelimit-remaining: 4999\r\nx-ratelimit-reset: 1893456000\r\n");
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(next) = next {
        head.push_str(&format!("Link: <{next}>; rel=\"next\"\r\n"));
    }
    let mut stream = stream;
    let _ = stream.write_all(format!("{head}\r\n{text}").as_bytes());
}

pub(crate) fn log(request: &Incoming, status: u16) -> Request {
    Request {
        method: request.method.clone(),
        path: request.target.clone(),
        body: request.body.clone(),
        status,
    }
}

pub(crate) fn take_fault(w: &mut World, request: &Incoming) -> Option<Fault> {
    let index = w.log.len();
    if let Some((from, when)) = w.outage.filter(|(from, _)| index >= *from) {
        let when = if index == from { when } else { When::Before };
        w.fail_request(index, 502, "Bad Gateway", when, &[]);
    }
    let i = w.faults.iter().position(|f| match f.at {
        Some(at) => at == index,
        None => {
            f.method == request.method
                && request
                    .target
                    .starts_with(&format!("/repos/{REPO}{}", f.prefix))
        }
    })?;
    Some(w.faults.remove(i))
}

/// The reply's text: built out to GitHub's schema and validated when the
/// description is installed, the fake's own JSON otherwise.
fn reply_text(
    w: &mut World,
    spec: Option<&openapi::Spec>,
    op: Option<&openapi::Matched>,
    a: &Answer,
) -> String {
    let fill = a.json.clone().unwrap_or(Value::Null);
    let built = match (spec, op) {
        (Some(spec), Some(op)) => match spec.reply(op, a.status, &fill) {
            Ok(v) => v,
            Err(e) => {
                w.violations.push(format!("reply: {e}"));
                fill
            }
        },
        _ => fill,
    };
    if built.is_null() {
        String::new()
    } else {
        built.to_string()
    }
}

/// Standard base64 of `text`, as the contents API receives it.
pub(crate) fn base64(text: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// Base64 as GitHub serves a file's contents: broken into lines of 60
/// characters, each ending with a line break.
pub(crate) fn served(base64: &str) -> String {
    let lines = base64.as_bytes().chunks(60);
    lines
        .map(|line| format!("{}\n", String::from_utf8_lossy(line)))
        .collect()
}

/// Decodes standard base64, line breaks and all.
pub(crate) fn unbase64(text: &str) -> String {
    use base64::Engine as _;
    let joined: String = text.split_whitespace().collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(joined)
        .unwrap();
    String::from_utf8(bytes).unwrap()
}
