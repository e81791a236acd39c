//! The Forgejo adapter (Codeberg, a self-hosted Forgejo or Gitea): one
//! repository over the REST API under `/api/v1`, held to Forgejo's
//! published description (`swagger.v1.json`) as the GitHub adapter is to
//! GitHub's.
//!
//! It reads and writes what the GitHub adapter does, through the same
//! HTTP client (in Forgejo's `Flavor` of it),
//! the same thread cache and the same reading of votes
//! (`forge::votes`); what differs is in Forgejo's shapes:
//!
//! - lists page by `page`/`limit`, the server caps `limit` (50 by
//!   default), and say their length in `X-Total-Count` beside `Link`: a
//!   list is read page by page until neither says there is more (see
//!   `ForgejoForge::list`); an issue's comments come unpaged, and a
//!   thread too long for one reply is read in windows of time (`windows`);
//! - a review's state is `APPROVED`, `REQUEST_CHANGES` or `COMMENT`
//!   (`PENDING` and `REQUEST_REVIEW` are no vote); a dismissal is a flag
//!   beside it; `stale` (made on an older head) is not read: votes are
//!   voided by when a push happened, as on GitHub, from the journal;
//!   comments on lines of the diff are listed review by review;
//! - a deleted account is the user `Ghost`, not `null`;
//! - a pull request's pushes are in its timeline (`pull_push`), with the
//!   time Forgejo saw each: [`Forge::pushes`] reads them there, so a push
//!   is dated by the forge even when no `check` ran for it;
//! - a merge is `POST …/merge` with `Do` and `head_commit_id`, answered
//!   with no body (the merge commit is read back from the pull request); a
//!   moved head is a 409, as is a conflict, told apart by reading the head;
//! - no git reference can be made through the API, so an old head cannot
//!   be pinned: its files are read through the API while Forgejo keeps its
//!   objects;
//! - Forgejo describes no rate-limit headers: a 429 is waited out by the
//!   generic rule (`retry-after`, else a minute, then longer).

mod admin;
mod dto;
mod timeline;
mod windows;
mod writes;

use std::cell::RefCell;
use std::collections::HashMap;

use self::dto::{ChangedFile, Comment, Issue, Pull, Review, ReviewComment, TimelineEntry};
use super::rest::codec::encode;
use super::rest::http::{Flavor, Reply, expect_ok, parse};
use super::rest::{Configure, Rest, Settings, Sleeper};
use super::status_comment::{self, StatusPort};
use super::votes::{self, Reviewed};
use super::{Forge, ForgeComment, ForgeError, HeadSha, Login, MatterInfo};
use crate::matter::{KindEvent, MatterNumber, ReviewState};
use crate::time::Timestamp;

/// Forgejo's REST API.
const FORGEJO: Flavor = Flavor {
    name: "Forgejo",
    scheme: "token",
    accept: "application/json",
    api_version: None,
    page_size: "limit",
    default_page: PAGE,
    token_var: "FORGEJO_TOKEN",
};

/// The page size asked for: Forgejo's default cap on `limit`
/// (`MAX_RESPONSE_ITEMS`); a server that caps lower answers fewer, and the
/// pages go on by `Link` and `X-Total-Count`.
const PAGE: usize = 50;

/// At most this many closed matters are read for a run (as on GitHub).
const CLOSED_WANTED: usize = 100;

/// A repository on Forgejo or Gitea.
pub struct ForgejoForge {
    rest: Rest,
    /// The id of each label of the repository seen this run, by name.
    label_ids: RefCell<HashMap<String, i64>>,
    /// Each pull request's opening, for its timeline's first push.
    opened: RefCell<HashMap<MatterNumber, Timestamp>>,
    /// Each pull request's timeline as read this run.
    timelines: RefCell<HashMap<MatterNumber, Vec<TimelineEntry>>>,
}

impl ForgejoForge {
    /// A forge for `settings`, waiting between retries with `sleep`.
    pub fn new(settings: &Settings, sleep: Sleeper) -> Self {
        ForgejoForge {
            rest: Rest::new(settings, sleep, FORGEJO),
            label_ids: RefCell::default(),
            opened: RefCell::default(),
            timelines: RefCell::default(),
        }
    }

    /// A GET of `rest` about matter `number`: a 404 is that matter not found.
    fn get_json<T: for<'de> serde::Deserialize<'de>>(
        &self,
        rest: &str,
        number: MatterNumber,
    ) -> Result<T, ForgeError> {
        let path = self.rest.path(rest);
        let reply = self.rest.client.get(&path)?;
        if reply.status == 404 {
            return Err(ForgeError::NotFound(number));
        }
        expect_ok(&reply, &path)?;
        parse(&reply.body, &path)
    }

    /// Every item of a paged list: `rest` with `limit` and `page` added,
    /// page after page while the reply says there is more (its `Link`
    /// names a next page, or `X-Total-Count` more items than read so far;
    /// with neither, while pages come back full), at most `most` items.
    fn list_up_to<T: for<'de> serde::Deserialize<'de>>(
        &self,
        rest: &str,
        most: usize,
    ) -> Result<Vec<T>, ForgeError> {
        let sep = if rest.contains('?') { '&' } else { '?' };
        let mut out = Vec::new();
        let mut page = 1;
        loop {
            let path = self
                .rest
                .path(&format!("{rest}{sep}limit={PAGE}&page={page}"));
            let reply = self.rest.client.get(&path)?;
            expect_ok(&reply, &path)?;
            let items: Vec<serde_json::Value> = parse(&reply.body, &path)?;
            let got = items.len();
            for item in items {
                out.push(serde_json::from_value(item).map_err(|e| {
                    ForgeError::Other(format!("{path}: unexpected reply from Forgejo: {e}"))
                })?);
            }
            if got == 0 || out.len() >= most || !more(&reply, out.len(), got) {
                out.truncate(most);
                return Ok(out);
            }
            page += 1;
        }
    }

    fn list<T: for<'de> serde::Deserialize<'de>>(&self, rest: &str) -> Result<Vec<T>, ForgeError> {
        self.list_up_to(rest, usize::MAX)
    }

    /// Notes the ids of labels as a reply gave them.
    fn note_label_ids(&self, labels: Option<&Vec<dto::Label>>) {
        let mut ids = self.label_ids.borrow_mut();
        for label in labels.into_iter().flatten() {
            if let Some(id) = label.id {
                ids.insert(label.name.clone(), id);
            }
        }
    }

    fn pull_info(&self, pull: Pull) -> Result<MatterInfo, ForgeError> {
        self.rest.pulls.borrow_mut().insert(pull.number, true);
        self.note_label_ids(pull.labels.as_ref());
        let merged = pull.merged.unwrap_or(false);
        let open = pull.state == "open";
        let head = pull.head.and_then(|h| h.sha);
        let mut info = MatterInfo {
            number: pull.number,
            title: pull.title,
            body: pull.body.unwrap_or_default(),
            author: Login(dto::login(pull.user).unwrap_or_else(|| dto::GHOST.into())),
            opened: votes::time(&pull.created_at)?,
            labels: label_names(pull.labels),
            pull: true,
            head: head.filter(|_| open).map(HeadSha),
            merge_commit: pull.merge_commit_sha.filter(|_| merged).map(HeadSha),
            base: pull.base.and_then(|b| b.branch),
            draft: pull.draft.unwrap_or(false),
            merged,
            kind_changed: None,
            link: pull.html_url,
            updated: pull.updated_at.as_deref().map(votes::time).transpose()?,
            paths: None,
        };
        let resolver_labelled = info.labels.iter().any(|l| {
            use crate::matter::labels::{ENACTED, FAILED, MERGED, NOT_A_MATTER, RESOLVING};
            [RESOLVING, ENACTED, FAILED, MERGED, NOT_A_MATTER]
                .iter()
                .any(|r| l.eq_ignore_ascii_case(r))
        });
        if info.names_no_kind() && !info.draft && (info.head.is_some() || resolver_labelled) {
            info.paths = Some(self.changed_files(info.number)?);
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
        self.opened.borrow_mut().insert(info.number, info.opened);
        Ok(info)
    }

    fn issue_info(&self, issue: Issue) -> Result<MatterInfo, ForgeError> {
        self.rest.pulls.borrow_mut().insert(issue.number, false);
        self.note_label_ids(issue.labels.as_ref());
        let updated = issue.updated_at.as_deref().map(votes::time).transpose()?;
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

    /// The conversation, oldest first, but deleted accounts' comments.
    /// Forgejo lists an issue's comments in one reply, unpaged.
    fn conversation(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        let read = |since: Option<Timestamp>, before: Option<Timestamp>| {
            let bounds: Vec<String> = [("since", since), ("before", before)]
                .into_iter()
                .filter_map(|(name, at)| Some(format!("{name}={}", at?)))
                .collect();
            let query = if bounds.is_empty() {
                String::new()
            } else {
                format!("?{}", bounds.join("&"))
            };
            self.get_json::<Vec<Comment>>(&format!("/issues/{number}/comments{query}"), number)
        };
        let comments = windows::read_all(&read, self.rest.client.now())?;
        let mut out = Vec::new();
        for c in comments {
            out.extend(issue_comment(c)?);
        }
        Ok(out)
    }

    /// The submitted reviews, then the comments on lines of the diff of
    /// each review that holds some (Forgejo lists them review by review; a
    /// lone line comment is a review of its own, with an empty body).
    fn review_votes(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        let mut out = Vec::new();
        for r in self.list::<Review>(&format!("/pulls/{number}/reviews"))? {
            let state = match (r.dismissed, r.state.as_deref()) {
                (true, _) => Reviewed::Dismissed,
                (_, Some("APPROVED")) => Reviewed::Submitted(ReviewState::Approved),
                (_, Some("REQUEST_CHANGES")) => Reviewed::Submitted(ReviewState::ChangesRequested),
                (_, Some("COMMENT")) => Reviewed::Submitted(ReviewState::Commented),
                // PENDING, REQUEST_REVIEW: nothing submitted.
                _ => Reviewed::NotSubmitted,
            };
            let lines = r.comments_count > 0 && state != Reviewed::NotSubmitted;
            let id = r.id;
            out.extend(votes::review(votes::Review {
                id: r.id,
                login: dto::login(r.user),
                submitted: r.submitted_at,
                body: r.body,
                link: r.html_url,
                state,
            })?);
            if !lines {
                continue;
            }
            let rest = format!("/pulls/{number}/reviews/{id}/comments");
            let comments: Vec<ReviewComment> = self.get_json(&rest, number)?;
            for c in comments {
                let written = votes::Written {
                    id: c.id,
                    login: dto::login(c.user),
                    created: &c.created_at,
                    updated: &c.updated_at,
                    body: c.body,
                    link: c.html_url,
                };
                out.extend(votes::line_comment(written, state == Reviewed::Dismissed)?);
            }
        }
        Ok(out)
    }

    /// A pull request's timeline, read once a run.
    fn timeline(&self, number: MatterNumber) -> Result<(), ForgeError> {
        if self.timelines.borrow().contains_key(&number) {
            return Ok(());
        }
        let entries = self.list::<TimelineEntry>(&format!("/issues/{number}/timeline"))?;
        self.timelines.borrow_mut().insert(number, entries);
        Ok(())
    }
}

/// Whether a list goes on after a page of `got` items, `read` in all.
fn more(reply: &Reply, read: usize, got: usize) -> bool {
    if reply.next.is_some() {
        return true;
    }
    match reply.total {
        Some(total) => usize::try_from(total).is_ok_and(|t| read < t),
        None => got >= PAGE,
    }
}

fn label_names(labels: Option<Vec<dto::Label>>) -> Vec<String> {
    labels.into_iter().flatten().map(|l| l.name).collect()
}

/// A conversation comment as the tally reads it.
fn issue_comment(c: Comment) -> Result<Option<ForgeComment>, ForgeError> {
    votes::conversation(votes::Written {
        id: c.id,
        login: dto::login(c.user),
        created: &c.created_at,
        updated: &c.updated_at,
        body: c.body,
        link: c.html_url,
    })
}

/// A matter as the issues list shows it.
fn issue_matter(issue: Issue) -> Result<MatterInfo, ForgeError> {
    Ok(MatterInfo {
        number: issue.number,
        title: issue.title,
        body: issue.body.unwrap_or_default(),
        author: Login(dto::login(issue.user).unwrap_or_else(|| dto::GHOST.into())),
        opened: votes::time(&issue.created_at)?,
        labels: label_names(issue.labels),
        pull: issue.pull_request.is_some(),
        head: None,
        merge_commit: None,
        base: None,
        draft: false,
        merged: issue
            .pull_request
            .as_ref()
            .is_some_and(|p| p.merged == Some(true)),
        kind_changed: None,
        link: issue.html_url,
        updated: None,
        paths: None,
    })
}

impl Forge for ForgejoForge {
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        let issues = self.list::<Issue>("/issues?state=open")?;
        let mut out = Vec::new();
        if issues.iter().any(|i| i.pull_request.is_some()) {
            // Forgejo lists a pull request it failed to load as `null`:
            // each one the issues list names and this list lacks is read
            // on its own, so none is left out of the run.
            for pull in self
                .list::<Option<Pull>>("/pulls?state=open")?
                .into_iter()
                .flatten()
            {
                out.push(self.pull_info(pull)?);
            }
            for issue in issues.iter().filter(|i| i.pull_request.is_some()) {
                if !out.iter().any(|m| m.number == issue.number) {
                    let pull: Pull =
                        self.get_json(&format!("/pulls/{}", issue.number), issue.number)?;
                    if pull.state == "open" {
                        out.push(self.pull_info(pull)?);
                    }
                }
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
        let mut rest = "/issues?state=closed&sort=recentupdate".to_string();
        if let Some(label) = label {
            rest.push_str(&format!("&labels={}", encode(label)));
        }
        if let Some(since) = since {
            rest.push_str(&format!("&since={}", encode(&since.to_string())));
        }
        let mut out = Vec::new();
        for issue in self.list_up_to::<Issue>(&rest, CLOSED_WANTED)? {
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
        for issue in self.list::<Issue>("/issues?state=closed")? {
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
                let mut out = self.conversation(number)?;
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

    /// From the timeline, read only for a pull request that changed after
    /// the rules' window for a change of kind, as on GitHub.
    fn kind_events(
        &self,
        info: &MatterInfo,
        window: crate::time::Span,
    ) -> Result<Vec<KindEvent>, ForgeError> {
        let window = info.opened.plus(window);
        if !info.pull || info.updated.is_some_and(|u| u <= window) {
            return Ok(Vec::new());
        }
        if let Some(kept) = self.rest.threads.borrow().events(info.number) {
            return Ok(kept);
        }
        self.timeline(info.number)?;
        let events = {
            let timelines = self.timelines.borrow();
            let entries = timelines.get(&info.number).map_or(&[][..], Vec::as_slice);
            timeline::kind_events(entries)?
        };
        self.rest
            .threads
            .borrow_mut()
            .put_events(info.number, &events);
        Ok(events)
    }

    /// From the timeline's `pull_push` entries, each at the time Forgejo
    /// recorded it; read for an open pull request only.
    fn pushes(&self, number: MatterNumber) -> Result<Vec<(HeadSha, Timestamp)>, ForgeError> {
        if !matches!(self.rest.heads.borrow().get(&number), Some(Some(_))) {
            return Ok(Vec::new());
        }
        // A push moves the pull request's `updated_at`: the pushes kept
        // with a thread served unchanged from the cache are all there are.
        if let Some(kept) = self.rest.threads.borrow().pushes(number) {
            return Ok(kept);
        }
        self.timeline(number)?;
        let opened = self.opened.borrow().get(&number).copied();
        let pushes = {
            let timelines = self.timelines.borrow();
            let entries = timelines.get(&number).map_or(&[][..], Vec::as_slice);
            timeline::pushes(entries, opened)?
        };
        self.rest.threads.borrow_mut().put_pushes(number, &pushes);
        Ok(pushes)
    }

    fn files_of_commit(&self, sha: &HeadSha) -> Result<Option<Vec<(String, String)>>, ForgeError> {
        self.commit_files(sha)
    }

    fn blob(&self, id: &str) -> Result<Option<Vec<u8>>, ForgeError> {
        self.read_blob(id)
    }

    /// Forgejo's API makes no git reference: whether the commit is still
    /// there to be read is all that can be said.
    fn pin_head(&self, number: MatterNumber, sha: &HeadSha) -> Result<bool, ForgeError> {
        let _ = number;
        Ok(self.commit_files(sha)?.is_some())
    }

    fn changed_files(&self, number: MatterNumber) -> Result<Vec<String>, ForgeError> {
        if let Some(paths) = self.rest.changed.borrow().get(&number) {
            return Ok(paths.clone());
        }
        let files = self.list::<ChangedFile>(&format!("/pulls/{number}/files"))?;
        let mut paths: Vec<String> = files
            .into_iter()
            .flat_map(|f| std::iter::once(f.filename).chain(f.previous_filename))
            .filter(|p| !p.is_empty())
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
        message: &str,
    ) -> Result<HeadSha, ForgeError> {
        self.write_merge(number, expected, message)
    }

    fn close(&self, number: MatterNumber) -> Result<(), ForgeError> {
        self.write_close(number)
    }

    fn read_file(&self, path: &str) -> Result<Option<String>, ForgeError> {
        Ok(self.file(path)?.map(|(_, text)| text))
    }

    fn commit_file(&self, path: &str, text: &str, message: &str) -> Result<HeadSha, ForgeError> {
        self.write_file(path, text, message)
    }
}

impl StatusPort for ForgejoForge {
    fn rest(&self) -> &Rest {
        &self.rest
    }

    fn conversation(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        ForgejoForge::conversation(self, number)
    }

    fn comment_of(&self, body: &str, what: &str) -> Result<Option<ForgeComment>, ForgeError> {
        issue_comment(parse::<Comment>(body, what)?)
    }
}

impl Configure for ForgejoForge {
    fn rest_mut(&mut self) -> &mut Rest {
        &mut self.rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(next: bool, total: Option<u64>) -> Reply {
        Reply {
            status: 200,
            next: next.then(|| "http://x/?page=2".to_string()),
            total,
            ..Reply::default()
        }
    }

    #[test]
    fn a_list_goes_on_while_link_or_total_says_so() {
        // A server capping pages at 2: the Link says there is more.
        assert!(more(&reply(true, None), 2, 2));
        // No Link, but the total is not reached.
        assert!(more(&reply(false, Some(5)), 4, 2));
        assert!(!more(&reply(false, Some(4)), 4, 2));
        // Neither: only a full page of what was asked for goes on.
        assert!(more(&reply(false, None), PAGE, PAGE));
        assert!(!more(&reply(false, None), 30, 30));
    }
}
