//! Writes to GitHub, each settled after an uncertain answer.
//!
//! A POST, PUT or PATCH answered with a 5xx, or not answered at all, may
//! have happened. Repeating it blindly can merge twice (a 405 then reads as
//! "not mergeable" and the merged pull request is left with no record) or
//! post a second status comment. So each write here re-reads what it meant
//! to change and decides: done already (carry on as if GitHub had said so),
//! not done (send it once more where that is safe, else report it), or
//! unknowable (report it; the next run re-reads and finishes).

use serde_json::json;

use super::codec::{base64, encode, unbase64};
use super::dto::{
    CombinedStatus, Commit, ContentFile, ContentPut, IssueComment, MergeReply, Pull,
    ValidationError,
};
use super::http::{Reply, Sent, expect_ok, message, parse};
use super::{Forge, ForgeComment, ForgeError, GitHubForge, HeadSha};

use crate::matter::MatterNumber;

/// The context of the commit status `check` sets.
const CHECK_CONTEXT: &str = "gitnomic/check";

/// A validation error's messages, its reasons after its headline
/// (`Validation Failed: This SHA and context has reached ...`).
fn validation_message(body: &str) -> String {
    let Ok(error) = serde_json::from_str::<ValidationError>(body) else {
        return message(body);
    };
    std::iter::once(error.message)
        .chain(error.errors.into_iter().map(|e| e.message))
        .flatten()
        .collect::<Vec<_>>()
        .join(": ")
}

/// GitHub refuses comments of 65,536 characters or more.
pub(crate) const MAX_COMMENT_CHARS: usize = 65_535;

/// A status comment that fits: the first line (the marker) and the
/// trailing journal line kept whole, the text between shortened with a
/// note when the whole would be too long.
pub(crate) fn fit_comment(body: &str) -> Result<String, ForgeError> {
    if body.chars().count() <= MAX_COMMENT_CHARS {
        return Ok(body.to_string());
    }
    let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
    let (text, journal) = match rest.rfind("<!-- gitnomic:journal") {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let note =
        "\n\n… (shortened to fit GitHub's limit on comments; `gitnomic tally` shows it all)\n\n";
    let fixed = first.chars().count() + 1 + note.chars().count() + journal.chars().count();
    let room = MAX_COMMENT_CHARS.checked_sub(fixed).ok_or_else(|| {
        ForgeError::Other(format!(
            "the status comment's journal alone is {} characters, over GitHub's limit of {MAX_COMMENT_CHARS}",
            journal.chars().count()
        ))
    })?;
    let kept: String = text.chars().take(room).collect();
    // Cut at a line's end so no table row or link is left half-way.
    let kept = kept.rfind('\n').map_or(kept.as_str(), |at| &kept[..at]);
    Ok(format!("{first}\n{kept}{note}{journal}"))
}

/// The comment a write answered with, if the answer is one.
fn written(reply: &Reply) -> Option<ForgeComment> {
    let comment: IssueComment = serde_json::from_str(&reply.body).ok()?;
    super::issue_comment(comment).ok().flatten()
}

impl GitHubForge {
    /// Sends a write; an uncertain outcome becomes `Err(why)` for the
    /// caller to settle, a certain one its reply.
    pub(super) fn send(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Result<Reply, String>, ForgeError> {
        Ok(match self.client.write(method, &self.path(rest), body)? {
            Sent::Done(reply) => Ok(reply),
            Sent::Unknown(why) => Err(why),
        })
    }

    /// Sends a write whose repetition is harmless (it sets, not adds):
    /// once more after an uncertain outcome, then reports.
    fn send_settable(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Reply, ForgeError> {
        match self.send(method, rest, body)? {
            Ok(reply) => Ok(reply),
            Err(_) => self.send(method, rest, body)?.map_err(ForgeError::Other),
        }
    }

    /// The status comment as GitHub has it now, not as this run read it.
    fn fresh_status(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
        self.statuses.borrow_mut().remove(&number);
        self.status_comment(number)
    }

    /// The status comment as GitHub has it now, for a write that must not
    /// overwrite what another run wrote since this one read it: read by
    /// its id when this run knows it (one request, however long the
    /// thread, and the thread this run read is kept), else looked for in
    /// the conversation afresh, as it is when it was deleted since.
    pub(super) fn read_status_now(
        &self,
        number: MatterNumber,
    ) -> Result<Option<ForgeComment>, ForgeError> {
        let known = self.statuses.borrow().get(&number).cloned().flatten();
        let Some(known) = known else {
            return self.fresh_status(number);
        };
        let path = self.path(&format!("/issues/comments/{}", known.id));
        let reply = self.client.get(&path)?;
        if reply.status == 404 {
            return self.fresh_status(number);
        }
        expect_ok(&reply, &path)?;
        let now = super::issue_comment(parse::<IssueComment>(&reply.body, &path)?)?
            .filter(|c| self.is_status(c));
        self.statuses.borrow_mut().insert(number, now.clone());
        Ok(now)
    }

    pub(super) fn write_status(&self, number: MatterNumber, body: &str) -> Result<(), ForgeError> {
        let existing = self.status_comment(number)?;
        if existing.as_ref().is_some_and(|c| c.body == body) {
            return Ok(());
        }
        let written = crate::forge::status_comment::post_or_edit(self, number, existing, body);
        // What this run read is stale once it writes. The comment GitHub
        // answered with is the status now, so the next write of this run
        // edits it without reading the thread again; when the answer is
        // not known, the next status is found afresh and edited, never
        // posted twice. The thread kept between runs is read again by the
        // next run (see `threads`).
        self.threads.borrow_mut().status_written(number);
        match &written {
            Ok(Some(comment)) if self.is_status(comment) => {
                self.statuses
                    .borrow_mut()
                    .insert(number, Some(comment.clone()));
            }
            _ => {
                self.statuses.borrow_mut().remove(&number);
            }
        }
        written.map(|_| ())
    }

    /// Sets the commit status of `check` on `sha`, unless the head's latest
    /// status of that context already says the same. GitHub keeps at most
    /// 1,000 statuses per commit and context and refuses the next (422),
    /// and every scheduled `check --open` judges every open head again:
    /// one status per change of verdict keeps a head far from the limit.
    /// A refusal is logged, not failed on: the verdict is in the run's
    /// output, and the other matters are checked all the same.
    pub(super) fn write_commit_status(
        &self,
        sha: &HeadSha,
        ok: bool,
        description: &str,
    ) -> Result<(), ForgeError> {
        let description: String = description.chars().take(140).collect();
        let state = if ok { "success" } else { "failure" };
        let current = self.check_status(sha)?;
        if current.is_some_and(|(s, d)| s == state && d == description) {
            return Ok(());
        }
        let body = json!({ "state": state, "description": description, "context": CHECK_CONTEXT });
        // A commit status with a context replaces the last one of that context.
        let reply = self.send_settable("POST", &format!("/statuses/{}", sha.0), &body)?;
        if reply.status == 422 {
            tracing::warn!(
                "the commit status of {sha} was not set (GitHub refused it, HTTP 422: {}); \
                 the check goes on",
                validation_message(&reply.body)
            );
            return Ok(());
        }
        expect_ok(&reply, "setting the commit status")
    }

    /// The state and description of the latest status of `check` on
    /// `sha`, if it has one (a commit GitHub does not know has none).
    fn check_status(&self, sha: &HeadSha) -> Result<Option<(String, String)>, ForgeError> {
        let path = self.path(&format!("/commits/{}/status?per_page=100", sha.0));
        let reply = self.client.get(&path)?;
        if reply.status == 404 {
            return Ok(None);
        }
        expect_ok(&reply, &path)?;
        let combined: CombinedStatus = parse(&reply.body, &path)?;
        Ok(combined
            .statuses
            .into_iter()
            .find(|s| s.context == CHECK_CONTEXT)
            .map(|s| (s.state, s.description.unwrap_or_default())))
    }

    pub(super) fn write_labels(
        &self,
        number: MatterNumber,
        add: &[&str],
        remove: &[&str],
    ) -> Result<(), ForgeError> {
        let known = self.labels.borrow().get(&number).cloned();
        if !add.is_empty() {
            // Adding a label the issue has changes nothing: safe to repeat.
            let reply = self.send_settable(
                "POST",
                &format!("/issues/{number}/labels"),
                &json!({ "labels": add }),
            )?;
            expect_ok(&reply, "adding labels")?;
            if let Some(labels) = self.labels.borrow_mut().get_mut(&number) {
                labels.extend(add.iter().map(|l| (*l).to_string()));
            }
        }
        for label in remove {
            // A label this run saw the matter without is not there to remove.
            if known
                .as_ref()
                .is_some_and(|k| !k.iter().any(|l| l == label))
                && !add.contains(label)
            {
                continue;
            }
            let reply = self
                .client
                .delete(&self.path(&format!("/issues/{number}/labels/{}", encode(label))))?;
            if reply.status != 404 {
                expect_ok(&reply, "removing a label")?;
            }
            if let Some(labels) = self.labels.borrow_mut().get_mut(&number) {
                labels.retain(|l| l != label);
            }
        }
        Ok(())
    }

    pub(super) fn write_close(&self, number: MatterNumber) -> Result<(), ForgeError> {
        let reply = self.send_settable(
            "PATCH",
            &format!("/issues/{number}"),
            &json!({ "state": "closed" }),
        )?;
        if reply.status == 404 {
            return Err(ForgeError::NotFound(number));
        }
        expect_ok(&reply, "closing")
    }

    pub(super) fn write_merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        commit_message: &str,
    ) -> Result<HeadSha, ForgeError> {
        // A pull request this run read open at the expected head needs no
        // read first: GitHub refuses a merge at a head that moved (409) and
        // one it cannot make (405). One it read closed, or did not read, is
        // read, so a merge is never sent again for what was merged.
        let known = self.heads.borrow().get(&number).cloned();
        let head = match known {
            Some(head) => head,
            None => {
                let pull: Pull = self.get_json(&format!("/pulls/{number}"), number)?;
                (pull.state == "open").then_some(pull.head.sha)
            }
        };
        match head {
            None => return Err(ForgeError::NotOpen(number)),
            Some(actual) if actual != expected.0 => {
                return Err(ForgeError::StaleHead {
                    number,
                    expected: expected.clone(),
                    actual: HeadSha(actual),
                });
            }
            Some(_) => {}
        }
        // The whole message is ours: without `commit_message` GitHub adds
        // its own, which a repository may set to the pull request's
        // description, and the log must read only lines the resolver wrote.
        let (title, rest) = commit_message
            .split_once('\n')
            .unwrap_or((commit_message, ""));
        let rest = match rest.trim() {
            "" => "Merged by gitnomic resolve.",
            rest => rest,
        };
        let body = json!({
            "sha": expected.0,
            "merge_method": "merge",
            "commit_title": title,
            "commit_message": rest,
        });
        let reply = match self.send("PUT", &format!("/pulls/{number}/merge"), &body)? {
            Ok(reply) => reply,
            Err(why) => return self.settle_merge(number, expected, &why),
        };
        match reply.status {
            200 => {
                // The default branch moved: files read before are stale.
                self.files.borrow_mut().clear();
                self.heads.borrow_mut().insert(number, None);
                Ok(HeadSha(parse::<MergeReply>(&reply.body, "the merge")?.sha))
            }
            404 => Err(ForgeError::NotFound(number)),
            405 => {
                let now: Pull = self.get_json(&format!("/pulls/{number}"), number)?;
                if now.state != "open" {
                    return Err(ForgeError::NotOpen(number));
                }
                Err(ForgeError::NotMergeable {
                    number,
                    reason: message(&reply.body),
                })
            }
            409 => {
                let now: Pull = self.get_json(&format!("/pulls/{number}"), number)?;
                Err(ForgeError::StaleHead {
                    number,
                    expected: expected.clone(),
                    actual: HeadSha(now.head.sha),
                })
            }
            _ => Err(ForgeError::Other(format!(
                "merging #{number}: HTTP {}: {}",
                reply.status,
                message(&reply.body)
            ))),
        }
    }

    /// After a merge GitHub did not answer: merged at the tallied head is
    /// a merge (as if it had answered 200); anything else is reported, and
    /// not retried, for the next run to judge afresh.
    fn settle_merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        why: &str,
    ) -> Result<HeadSha, ForgeError> {
        // It may have moved the default branch: files read before are stale.
        self.files.borrow_mut().clear();
        self.heads.borrow_mut().remove(&number);
        let pull: Pull = self.get_json(&format!("/pulls/{number}"), number)?;
        match (pull.merged_at.as_ref(), pull.merge_commit_sha) {
            (Some(_), Some(sha)) if pull.head.sha == expected.0 => Ok(HeadSha(sha)),
            (Some(_), _) => Err(ForgeError::NotOpen(number)),
            (None, _) => Err(ForgeError::Other(format!(
                "merging #{number}: {why}; GitHub shows it not merged; not retried in this run"
            ))),
        }
    }

    /// A file on the default branch: its blob SHA and its text.
    pub(super) fn file(&self, path: &str) -> Result<Option<(String, String)>, ForgeError> {
        if let Some(known) = self.files.borrow().get(path) {
            return Ok(known.clone());
        }
        let read = self.read_contents(path)?;
        self.files
            .borrow_mut()
            .insert(path.to_string(), read.clone());
        Ok(read)
    }

    fn read_contents(&self, path: &str) -> Result<Option<(String, String)>, ForgeError> {
        let contents = format!("/contents/{path}?ref={}", encode(&self.base));
        let reply = self.client.get(&self.path(&contents))?;
        if reply.status == 404 {
            return Ok(None);
        }
        expect_ok(&reply, &contents)?;
        let file: ContentFile = parse(&reply.body, &contents)?;
        let bytes = unbase64(file.content.as_deref().unwrap_or_default()).ok_or_else(|| {
            ForgeError::Other(format!("{path}: GitHub sent contents that are not base64"))
        })?;
        let text = String::from_utf8(bytes)
            .map_err(|_| ForgeError::Other(format!("{path} is not UTF-8 text")))?;
        Ok(Some((file.sha, text)))
    }

    pub(super) fn write_file(
        &self,
        path: &str,
        text: &str,
        title: &str,
    ) -> Result<HeadSha, ForgeError> {
        let put = |sha: Option<String>| {
            let mut body = json!({ "message": title, "content": base64(text.as_bytes()), "branch": self.base });
            if let Some(sha) = sha {
                body["sha"] = json!(sha);
            }
            self.send("PUT", &format!("/contents/{path}"), &body)
        };
        let first = put(self.file(path)?.map(|(sha, _)| sha))?;
        // Whatever happens, what this run read of the file is stale now.
        self.files.borrow_mut().remove(path);
        self.settle_file(path, text, first, &put)
    }

    /// A file write's outcome, settled by reading the file when GitHub did
    /// not answer; the commit that wrote it.
    fn settle_file(
        &self,
        path: &str,
        text: &str,
        first: Result<Reply, String>,
        put: &dyn Fn(Option<String>) -> Result<Result<Reply, String>, ForgeError>,
    ) -> Result<HeadSha, ForgeError> {
        let reply = match first {
            Ok(reply) => reply,
            // Written or not? The file says; write again only if it is not.
            Err(why) => match self.file(path)? {
                Some((_, now)) if now == text => return self.last_commit(path),
                current => put(current.map(|(sha, _)| sha))?.map_err(|again| {
                    ForgeError::Other(format!("writing {path}: {why}; then {again}"))
                })?,
            },
        };
        self.files.borrow_mut().remove(path);
        expect_ok(&reply, path)?;
        let put: ContentPut = parse(&reply.body, path)?;
        if let Some(blob) = put.content.and_then(|c| c.sha) {
            self.files
                .borrow_mut()
                .insert(path.to_string(), Some((blob, text.to_string())));
        }
        Ok(HeadSha(put.commit.sha))
    }

    /// The last commit on the default branch that touched `path`.
    fn last_commit(&self, path: &str) -> Result<HeadSha, ForgeError> {
        let rest = format!(
            "/commits?sha={}&path={}&per_page=1",
            encode(&self.base),
            encode(path)
        );
        let commits: Vec<Commit> = self.get_json_or(&rest, || {
            ForgeError::Other(format!(
                "{path}: the forge found no branch {} to list its commits (404)",
                self.base
            ))
        })?;
        commits
            .into_iter()
            .next()
            .map(|c| HeadSha(c.sha))
            .ok_or_else(|| {
                ForgeError::Other(format!("{path}: no commit on {} touches it", self.base))
            })
    }
}

impl crate::forge::status_comment::StatusPort for GitHubForge {
    fn send(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Result<Reply, String>, ForgeError> {
        GitHubForge::send(self, method, rest, body)
    }

    fn send_settable(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Reply, ForgeError> {
        GitHubForge::send_settable(self, method, rest, body)
    }

    fn fresh_status(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
        GitHubForge::fresh_status(self, number)
    }

    fn written(&self, reply: &Reply) -> Option<ForgeComment> {
        written(reply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_status_keeps_its_marker_and_journal() {
        let journal = "<!-- gitnomic:journal {\"heads\":[]} -->";
        let rows: String = (0..20_000)
            .map(|i| format!("| row {i} | FOR |\n"))
            .collect();
        let body = format!("<!-- gitnomic:status -->\n{rows}\n\n{journal}");
        let fitted = fit_comment(&body).unwrap();
        assert!(fitted.chars().count() <= MAX_COMMENT_CHARS);
        assert!(fitted.starts_with("<!-- gitnomic:status -->\n| row 0 | FOR |\n"));
        assert!(fitted.ends_with(journal), "the journal is whole at the end");
        assert!(fitted.contains("shortened"));
        let short = format!("<!-- gitnomic:status -->\nok\n\n{journal}");
        assert_eq!(fit_comment(&short).unwrap(), short);
    }
}
