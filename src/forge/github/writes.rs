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

use super::dto::{
    CombinedStatus, Commit, ContentFile, ContentPut, MergeReply, Pull, ValidationError,
};
use super::{ForgeError, GitHubForge, HeadSha};
use crate::forge::rest::codec::{base64, encode, unbase64};
use crate::forge::rest::http::{Reply, expect_ok, message, parse};

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

impl GitHubForge {
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
        let reply = self
            .rest
            .send_settable("POST", &format!("/statuses/{}", sha.0), &body)?;
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
        let path = self
            .rest
            .path(&format!("/commits/{}/status?per_page=100", sha.0));
        let reply = self.rest.client.get(&path)?;
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
        let known = self.rest.labels.borrow().get(&number).cloned();
        if !add.is_empty() {
            // Adding a label the issue has changes nothing: safe to repeat.
            let reply = self.rest.send_settable(
                "POST",
                &format!("/issues/{number}/labels"),
                &json!({ "labels": add }),
            )?;
            expect_ok(&reply, "adding labels")?;
            if let Some(labels) = self.rest.labels.borrow_mut().get_mut(&number) {
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
            let reply = self.rest.client.delete(
                &self
                    .rest
                    .path(&format!("/issues/{number}/labels/{}", encode(label))),
            )?;
            if reply.status != 404 {
                expect_ok(&reply, "removing a label")?;
            }
            if let Some(labels) = self.rest.labels.borrow_mut().get_mut(&number) {
                labels.retain(|l| l != label);
            }
        }
        Ok(())
    }

    pub(super) fn write_close(&self, number: MatterNumber) -> Result<(), ForgeError> {
        let reply = self.rest.send_settable(
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
        let known = self.rest.heads.borrow().get(&number).cloned();
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
        let reply = match self
            .rest
            .send("PUT", &format!("/pulls/{number}/merge"), &body)?
        {
            Ok(reply) => reply,
            Err(why) => return self.settle_merge(number, expected, &why),
        };
        match reply.status {
            200 => {
                // The default branch moved: files read before are stale.
                self.rest.files.borrow_mut().clear();
                self.rest.heads.borrow_mut().insert(number, None);
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
        self.rest.files.borrow_mut().clear();
        self.rest.heads.borrow_mut().remove(&number);
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
        if let Some(known) = self.rest.files.borrow().get(path) {
            return Ok(known.clone());
        }
        let read = self.read_contents(path)?;
        self.rest
            .files
            .borrow_mut()
            .insert(path.to_string(), read.clone());
        Ok(read)
    }

    fn read_contents(&self, path: &str) -> Result<Option<(String, String)>, ForgeError> {
        let contents = format!("/contents/{path}?ref={}", encode(&self.rest.base));
        let reply = self.rest.client.get(&self.rest.path(&contents))?;
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
            let mut body = json!({ "message": title, "content": base64(text.as_bytes()), "branch": self.rest.base });
            if let Some(sha) = sha {
                body["sha"] = json!(sha);
            }
            self.rest.send("PUT", &format!("/contents/{path}"), &body)
        };
        let first = put(self.file(path)?.map(|(sha, _)| sha))?;
        // Whatever happens, what this run read of the file is stale now.
        self.rest.files.borrow_mut().remove(path);
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
        self.rest.files.borrow_mut().remove(path);
        expect_ok(&reply, path)?;
        let put: ContentPut = parse(&reply.body, path)?;
        if let Some(blob) = put.content.and_then(|c| c.sha) {
            self.rest
                .files
                .borrow_mut()
                .insert(path.to_string(), Some((blob, text.to_string())));
        }
        Ok(HeadSha(put.commit.sha))
    }

    /// The last commit on the default branch that touched `path`.
    fn last_commit(&self, path: &str) -> Result<HeadSha, ForgeError> {
        let rest = format!(
            "/commits?sha={}&path={}&per_page=1",
            encode(&self.rest.base),
            encode(path)
        );
        let commits: Vec<Commit> = self.get_json_or(&rest, || {
            ForgeError::Other(format!(
                "{path}: the forge found no branch {} to list its commits (404)",
                self.rest.base
            ))
        })?;
        commits
            .into_iter()
            .next()
            .map(|c| HeadSha(c.sha))
            .ok_or_else(|| {
                ForgeError::Other(format!(
                    "{path}: no commit on {} touches it",
                    self.rest.base
                ))
            })
    }
}
