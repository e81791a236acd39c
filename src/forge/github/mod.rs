//! The GitHub adapter: one repository over the REST API.
//!
//! Matters are open pull requests (and issues, for CfJs and DoVs) whose
//! labels or titles name their kind; votes are issue comments, review
//! bodies and states, and comments on lines of the diff. Merges send the tallied head SHA, so GitHub refuses (409) if a
//! push slipped in after the tally; the bot's status comment is found by
//! its marker *and* its author, so a player cannot forge it.
//!
//! Replies are read as GitHub's published description says they may come:
//! a deleted account is `null` (its comments do not count), issue labels
//! may be bare strings, a dismissed review is no vote, and a pull request's
//! file list stops at 3,000 (more is an error the caller answers from
//! git, never a guess from a partial list). Writes that GitHub may or may
//! not have carried out are settled by re-reading (see `writes`), never
//! by sending them again blindly. A matter's thread is read only when its
//! `updated_at` has moved since a copy was kept between runs, or the copy
//! is old (see `threads`).

mod admin;
mod dto;
pub mod event;
mod heads;
mod runs;
pub(crate) mod writes;

use self::dto::{Issue, IssueComment, IssueEvent, LineComment, Pull, PullFile, Review};
use super::rest::codec::encode;
use super::rest::http::{GITHUB, expect_ok, parse};
use super::rest::{Configure, Rest, Settings, Sleeper};
use super::status_comment::{self, StatusPort};
use super::votes::{self, Reviewed};
use super::{Forge, ForgeComment, ForgeError, HeadSha, Login, MatterInfo};
use crate::matter::{Change, KindEvent, MatterNumber, ReviewState};
use crate::time::Timestamp;

/// GitHub lists at most this many files of a pull request.
const MAX_LISTED_FILES: usize = 3000;

/// Who GitHub shows for a deleted account.
const GHOST: &str = "ghost";

/// A repository on GitHub.
pub struct GitHubForge {
    rest: Rest,
}

impl GitHubForge {
    /// A forge for `settings`, waiting between retries with `sleep`.
    pub fn new(settings: &Settings, sleep: Sleeper) -> Self {
        GitHubForge {
            rest: Rest::new(settings, sleep, GITHUB),
        }
    }

    /// A GET of `rest` about matter `number`: a 404 is that matter not
    /// found.
    fn get_json<T: for<'de> serde::Deserialize<'de>>(
        &self,
        rest: &str,
        number: MatterNumber,
    ) -> Result<T, ForgeError> {
        self.get_json_or(rest, || ForgeError::NotFound(number))
    }

    /// A GET of `rest`; a 404 is the error `absent` gives.
    fn get_json_or<T: for<'de> serde::Deserialize<'de>>(
        &self,
        rest: &str,
        absent: impl FnOnce() -> ForgeError,
    ) -> Result<T, ForgeError> {
        let path = self.rest.path(rest);
        let reply = self.rest.client.get(&path)?;
        if reply.status == 404 {
            return Err(absent());
        }
        expect_ok(&reply, &path)?;
        parse(&reply.body, &path)
    }

    fn list<T: for<'de> serde::Deserialize<'de>>(&self, rest: &str) -> Result<Vec<T>, ForgeError> {
        let path = self.rest.path(rest);
        self.rest
            .client
            .get_all(&path)?
            .into_iter()
            .map(|v| {
                serde_json::from_value(v)
                    .map_err(|e| ForgeError::Other(format!("{path}: unexpected reply: {e}")))
            })
            .collect()
    }

    fn pull_info(&self, pull: Pull) -> Result<MatterInfo, ForgeError> {
        self.rest.pulls.borrow_mut().insert(pull.number, true);
        let merged = pull.merged_at.is_some();
        let info = MatterInfo {
            number: pull.number,
            title: pull.title,
            body: pull.body.unwrap_or_default(),
            author: Login(pull.user.map_or_else(|| GHOST.into(), |u| u.login)),
            opened: dto::time(&pull.created_at)?,
            labels: pull.labels.into_iter().map(dto::Label::name).collect(),
            pull: true,
            head: (pull.state == "open").then_some(HeadSha(pull.head.sha)),
            merge_commit: pull.merged_at.and(pull.merge_commit_sha).map(HeadSha),
            base: pull.base.map(|b| b.branch),
            draft: pull.draft.unwrap_or(false),
            merged,
            kind_changed: None,
            link: pull.html_url,
            updated: pull.updated_at.as_deref().map(dto::time).transpose()?,
            paths: None,
        };
        let mut info = info;
        // One that names no kind is a proposal by default if its files
        // are a proposal's: listed (one request) while it is open, or
        // once closed if the resolver's labels say it was a matter.
        let resolver_labelled = info.labels.iter().any(|l| {
            use crate::matter::labels::{ENACTED, FAILED, MERGED, NOT_A_MATTER, RESOLVING};
            [RESOLVING, ENACTED, FAILED, MERGED, NOT_A_MATTER]
                .iter()
                .any(|r| l.eq_ignore_ascii_case(r))
        });
        if info.names_no_kind() && !info.draft && (info.head.is_some() || resolver_labelled) {
            info.paths = match self.changed_files(info.number) {
                Ok(paths) => Some(paths),
                // Not all listed: the resolver reads them from git.
                Err(ForgeError::TooManyFiles { .. } | ForgeError::TooLarge { .. }) => None,
                Err(e) => return Err(e),
            };
        }
        self.rest
            .threads
            .borrow_mut()
            .listed(info.number, info.updated);
        self.rest
            .labels
            .borrow_mut()
            .insert(info.number, info.labels.clone());
        let head = info.head.as_ref().map(|h| h.0.clone());
        self.rest.heads.borrow_mut().insert(info.number, head);
        Ok(info)
    }

    fn issue_info(&self, issue: Issue) -> Result<MatterInfo, ForgeError> {
        self.rest.pulls.borrow_mut().insert(issue.number, false);
        let updated = issue.updated_at.as_deref().map(dto::time).transpose()?;
        self.rest.threads.borrow_mut().listed(issue.number, updated);
        let info = issue_matter(issue)?;
        self.rest
            .labels
            .borrow_mut()
            .insert(info.number, info.labels.clone());
        Ok(info)
    }

    fn is_pull(&self, number: MatterNumber) -> Result<bool, ForgeError> {
        if let Some(known) = self.rest.pulls.borrow().get(&number) {
            return Ok(*known);
        }
        let issue: Issue = self.get_json(&format!("/issues/{number}"), number)?;
        Ok(issue.pull_request.is_some())
    }

    /// The comments in a matter's conversation, oldest first, but those of
    /// deleted accounts (which count for nothing).
    fn conversation(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        let path = format!("/issues/{number}/comments?per_page=100");
        let mut out = Vec::new();
        for c in self.list::<IssueComment>(&path)? {
            out.extend(issue_comment(c)?);
        }
        Ok(out)
    }

    /// The submitted reviews of a pull request by accounts that still
    /// exist (an approval or a request for changes may vote by its state
    /// alone), then its comments on lines of the diff. A dismissed review,
    /// and a line comment made in one, is reported as [`Via::Dismissed`]:
    /// never a vote, but known, so a vote first seen in it is not taken
    /// for one deleted since.
    fn review_votes(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        let mut out = Vec::new();
        let mut dismissed = Vec::new();
        for r in self.list::<Review>(&format!("/pulls/{number}/reviews?per_page=100"))? {
            let state = match r.state.as_deref() {
                Some("APPROVED") => Reviewed::Submitted(ReviewState::Approved),
                Some("CHANGES_REQUESTED") => Reviewed::Submitted(ReviewState::ChangesRequested),
                Some("COMMENTED") => Reviewed::Submitted(ReviewState::Commented),
                Some("DISMISSED") => {
                    dismissed.push(r.id);
                    Reviewed::Dismissed
                }
                _ => Reviewed::NotSubmitted, // pending: not submitted
            };
            out.extend(votes::review(votes::Review {
                id: r.id,
                login: r.user.map(|u| u.login),
                submitted: r.submitted_at,
                body: r.body,
                link: r.html_url,
                state,
            })?);
        }
        let path = format!("/pulls/{number}/comments?per_page=100");
        for c in self.list::<LineComment>(&path)? {
            let in_dismissed = c
                .pull_request_review_id
                .is_some_and(|id| dismissed.contains(&id));
            let written = votes::Written {
                id: c.id,
                login: c.user.map(|u| u.login),
                created: &c.created_at,
                updated: &c.updated_at,
                body: c.body,
                link: c.html_url,
            };
            out.extend(votes::line_comment(written, in_dismissed)?);
        }
        Ok(out)
    }
}

/// A conversation comment as the tally reads it; `None` for a deleted account's.
pub(crate) fn issue_comment(c: IssueComment) -> Result<Option<ForgeComment>, ForgeError> {
    votes::conversation(votes::Written {
        id: c.id,
        login: c.user.map(|u| u.login),
        created: &c.created_at,
        updated: &c.updated_at,
        body: c.body,
        link: c.html_url,
    })
}

impl Forge for GitHubForge {
    /// The open issues list names the open pull requests too (without
    /// their heads): the pull requests are listed only when it names one,
    /// so a game with nothing open costs one list here, not two.
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        let issues = self.list::<Issue>("/issues?state=open&per_page=100")?;
        let mut out = Vec::new();
        if issues.iter().any(|i| i.pull_request.is_some()) {
            for pull in self.list::<Pull>("/pulls?state=open&per_page=100")? {
                out.push(self.pull_info(pull)?);
            }
        }
        for issue in issues {
            if issue.pull_request.is_none() {
                out.push(self.issue_info(issue)?);
            }
        }
        self.rest.threads.borrow_mut().listed_all_open();
        out.retain(|m| m.kind().is_some());
        out.sort_by_key(|m| m.number);
        Ok(out)
    }

    fn closed_matters(
        &self,
        label: Option<&str>,
        since: Option<Timestamp>,
    ) -> Result<Vec<MatterInfo>, ForgeError> {
        let mut path = "/issues?state=closed&sort=updated&direction=desc&per_page=100".to_string();
        if let Some(label) = label {
            path.push_str(&format!("&labels={}", encode(label)));
        }
        if let Some(since) = since {
            path.push_str(&format!("&since={}", encode(&since.to_string())));
        }
        let mut out = Vec::new();
        // One page: the most recent hundred are all a run ever needs.
        let reply = self.rest.client.get(&self.rest.path(&path))?;
        expect_ok(&reply, &path)?;
        for issue in parse::<Vec<Issue>>(&reply.body, &path)? {
            if issue.pull_request.is_some() {
                out.push(self.matter(issue.number)?);
            } else {
                out.push(self.issue_info(issue)?);
            }
        }
        Ok(out)
    }

    fn every_closed_matter(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        let mut out = Vec::new();
        for issue in self.list::<Issue>("/issues?state=closed&per_page=100")? {
            out.push(issue_matter(issue)?);
        }
        Ok(out)
    }

    fn matter(&self, number: MatterNumber) -> Result<MatterInfo, ForgeError> {
        let issue: Issue = self.get_json(&format!("/issues/{number}"), number)?;
        if issue.pull_request.is_some() {
            self.pull_info(self.get_json(&format!("/pulls/{number}"), number)?)
        } else {
            self.issue_info(issue)
        }
    }

    fn comments(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        let kept = self.rest.threads.borrow_mut().get(number);
        let out = match kept {
            Some(kept) => kept,
            None => {
                let mut out = Vec::new();
                out.extend(self.conversation(number)?);
                if self.is_pull(number)? {
                    out.extend(self.review_votes(number)?);
                }
                out.sort_by_key(|c| (c.created, c.id));
                self.rest.threads.borrow_mut().put(number, &out);
                out
            }
        };
        let status = out.iter().find(|c| self.is_status(c)).cloned();
        self.rest.statuses.borrow_mut().insert(number, status);
        Ok(out)
    }

    /// Read only for a pull request that changed after its first `window`
    /// (its `updated_at` says), and kept with its thread between runs: an
    /// idle run reads no events.
    fn kind_events(
        &self,
        info: &MatterInfo,
        window: crate::time::Span,
    ) -> Result<Vec<KindEvent>, ForgeError> {
        // Nothing after the window, when a change could count, happened
        // to a pull request whose `updated_at` is within it.
        let window = info.opened.plus(window);
        if !info.pull || info.updated.is_some_and(|u| u <= window) {
            return Ok(Vec::new());
        }
        if let Some(kept) = self.rest.threads.borrow().events(info.number) {
            return Ok(kept);
        }
        let path = format!("/issues/{}/events?per_page=100", info.number);
        let mut out = Vec::new();
        for e in self.list::<IssueEvent>(&path)? {
            out.extend(kind_event(e)?);
        }
        self.rest.threads.borrow_mut().put_events(info.number, &out);
        Ok(out)
    }

    fn files_of_commit(&self, sha: &HeadSha) -> Result<Option<Vec<(String, String)>>, ForgeError> {
        self.commit_files(sha)
    }

    fn blob(&self, id: &str) -> Result<Option<Vec<u8>>, ForgeError> {
        self.read_blob(id)
    }

    fn pin_head(&self, number: MatterNumber, sha: &HeadSha) -> Result<bool, ForgeError> {
        self.write_pin(number, sha)
    }

    fn changed_files(&self, number: MatterNumber) -> Result<Vec<String>, ForgeError> {
        if let Some(paths) = self.rest.changed.borrow().get(&number) {
            return Ok(paths.clone());
        }
        let files = self.list::<PullFile>(&format!("/pulls/{number}/files?per_page=100"))?;
        if files.len() >= MAX_LISTED_FILES {
            return Err(ForgeError::TooManyFiles {
                number,
                listed: files.len(),
            });
        }
        let mut paths: Vec<String> = files
            .into_iter()
            .flat_map(|f| std::iter::once(f.filename).chain(f.previous_filename))
            .collect();
        paths.sort();
        paths.dedup();
        self.rest.changed.borrow_mut().insert(number, paths.clone());
        Ok(paths)
    }

    fn bot(&self) -> &str {
        &self.rest.bot
    }

    fn thread_was_kept(&self, number: MatterNumber) -> bool {
        self.rest.threads.borrow().served(number)
    }

    fn read_thread_afresh(&self, number: MatterNumber) {
        self.rest.threads.borrow_mut().forget(number);
        self.rest.statuses.borrow_mut().remove(&number);
    }

    fn status_comment(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
        status_comment::cached(self, number)
    }

    fn status_now(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
        status_comment::now(self, number)
    }

    fn put_status(&self, number: MatterNumber, body: &str) -> Result<(), ForgeError> {
        status_comment::put(self, number, body)
    }

    fn set_commit_status(
        &self,
        sha: &HeadSha,
        ok: bool,
        description: &str,
    ) -> Result<(), ForgeError> {
        self.write_commit_status(sha, ok, description)
    }

    fn set_labels(
        &self,
        number: MatterNumber,
        add: &[&str],
        remove: &[&str],
    ) -> Result<(), ForgeError> {
        self.write_labels(number, add, remove)
    }

    fn merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        message_text: &str,
    ) -> Result<HeadSha, ForgeError> {
        self.write_merge(number, expected, message_text)
    }

    fn close(&self, number: MatterNumber) -> Result<(), ForgeError> {
        self.write_close(number)
    }

    fn read_file(&self, path: &str) -> Result<Option<String>, ForgeError> {
        Ok(self.file(path)?.map(|(_, text)| text))
    }

    fn commit_file(
        &self,
        path: &str,
        text: &str,
        message_text: &str,
    ) -> Result<HeadSha, ForgeError> {
        self.write_file(path, text, message_text)
    }
}

impl StatusPort for GitHubForge {
    fn rest(&self) -> &Rest {
        &self.rest
    }

    fn conversation(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        GitHubForge::conversation(self, number)
    }

    fn comment_of(&self, body: &str, what: &str) -> Result<Option<ForgeComment>, ForgeError> {
        issue_comment(parse::<IssueComment>(body, what)?)
    }
}

impl Configure for GitHubForge {
    fn rest_mut(&mut self) -> &mut Rest {
        &mut self.rest
    }
}

/// An event that may change a pull request's kind of matter; `None` for
/// the others.
fn kind_event(e: IssueEvent) -> Result<Option<KindEvent>, ForgeError> {
    let change = match (e.event.as_str(), e.label, e.rename) {
        ("ready_for_review", ..) => Change::ReadyForReview,
        ("convert_to_draft", ..) => Change::ConvertToDraft,
        ("labeled", Some(l), _) => Change::Labeled(l.name),
        ("unlabeled", Some(l), _) => Change::Unlabeled(l.name),
        ("renamed", _, Some(r)) => Change::Renamed {
            from: r.from,
            to: r.to,
        },
        _ => return Ok(None),
    };
    Ok(Some(KindEvent {
        at: dto::time(&e.created_at)?,
        change,
    }))
}

/// A matter as the issues list shows it (a pull request's head and merge
/// are not there: `pull` says only that it is one).
fn issue_matter(issue: Issue) -> Result<MatterInfo, ForgeError> {
    Ok(MatterInfo {
        number: issue.number,
        title: issue.title,
        body: issue.body.unwrap_or_default(),
        author: Login(issue.user.map_or_else(|| GHOST.into(), |u| u.login)),
        opened: dto::time(&issue.created_at)?,
        labels: issue.labels.into_iter().map(dto::Label::name).collect(),
        pull: issue.pull_request.is_some(),
        head: None,
        merge_commit: None,
        // The issues list does not say where a pull request is based.
        base: None,
        draft: false,
        merged: issue
            .pull_request
            .as_ref()
            .is_some_and(|p| p.get("merged_at").is_some_and(|m| !m.is_null())),
        kind_changed: None,
        link: issue.html_url,
        updated: None,
        // A pull request's files are not in the issues list.
        paths: None,
    })
}
