//! Writes to Forgejo, each settled after an uncertain answer as the GitHub
//! adapter settles its own (see `github::writes`): a write answered with a
//! 5xx, or not at all, may have happened, so what it meant to change is
//! read back before anything is sent again. Forgejo's shapes differ: a
//! merge is `POST …/merge` with `Do` and `head_commit_id` and answers with
//! no body; an issue edited answers 201; a file is created by POST and
//! updated by PUT; a commit status's state is `status`; old heads are read
//! from the paged tree API.

use serde_json::json;

use super::ForgejoForge;
use super::dto::{Blob, CombinedStatus, Contents, FileWritten, Pull, Tree};
use crate::forge::rest::codec::{base64, encode, unbase64};
use crate::forge::rest::http::{expect_ok, message, parse};
use crate::forge::{ForgeError, HeadSha};
use crate::matter::MatterNumber;

/// The context of the commit status `check` sets.
const CHECK_CONTEXT: &str = "gitnomic/check";

/// Tree entries asked for a page (Forgejo's default and cap).
const TREE_PAGE: usize = 1000;

/// Whether `text` is a full hexadecimal SHA, as a head must be before it
/// goes into a path.
fn is_sha(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

impl ForgejoForge {
    /// Sets the status of `check` on `sha` unless its latest already says
    /// the same (Forgejo adds `warning` and `skipped` to GitHub's states;
    /// gitnomic sets only `success` and `failure`).
    pub(super) fn write_commit_status(
        &self,
        sha: &HeadSha,
        ok: bool,
        description: &str,
    ) -> Result<(), ForgeError> {
        let description: String = description.chars().take(140).collect();
        let state = if ok { "success" } else { "failure" };
        let path = self
            .rest
            .path(&format!("/commits/{}/status?limit=50", encode(&sha.0)));
        let reply = self.rest.client.get(&path)?;
        if reply.status != 404 {
            expect_ok(&reply, &path)?;
            let combined: CombinedStatus = parse(&reply.body, &path)?;
            let same = combined.statuses.into_iter().flatten().any(|s| {
                s.context.as_deref() == Some(CHECK_CONTEXT)
                    && s.status.as_deref() == Some(state)
                    && s.description.as_deref().unwrap_or_default() == description
            });
            if same {
                return Ok(());
            }
        }
        let body = json!({ "state": state, "description": description, "context": CHECK_CONTEXT });
        let reply =
            self.rest
                .send_settable("POST", &format!("/statuses/{}", encode(&sha.0)), &body)?;
        expect_ok(&reply, "setting the commit status")
    }

    /// Labels by name (Forgejo takes names or ids).
    pub(super) fn write_labels(
        &self,
        number: MatterNumber,
        add: &[&str],
        remove: &[&str],
    ) -> Result<(), ForgeError> {
        let known = self.rest.labels.borrow().get(&number).cloned();
        if !add.is_empty() {
            let reply = self.rest.send_settable(
                "POST",
                &format!("/issues/{number}/labels"),
                &json!({ "labels": add }),
            )?;
            expect_ok(&reply, "adding labels")?;
            // The reply lists the labels, with their ids.
            if let Ok(added) = serde_json::from_str::<Vec<super::dto::Label>>(&reply.body) {
                self.note_label_ids(Some(&added));
            }
            if let Some(labels) = self.rest.labels.borrow_mut().get_mut(&number) {
                labels.extend(add.iter().map(|l| (*l).to_string()));
            }
        }
        for label in remove {
            if known
                .as_ref()
                .is_some_and(|k| !k.iter().any(|l| l == label))
                && !add.contains(label)
            {
                continue;
            }
            // By id where known (every Forgejo and Gitea takes it), else by name.
            let id = self.label_ids.borrow().get(*label).copied();
            let identifier = id.map_or_else(|| encode(label), |id| id.to_string());
            let rest = format!("/issues/{number}/labels/{identifier}");
            let reply = self.rest.client.delete(&self.rest.path(&rest))?;
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

    fn read_pull(&self, number: MatterNumber) -> Result<Pull, ForgeError> {
        self.get_json(&format!("/pulls/{number}"), number)
    }

    /// Merges at `expected` only: Forgejo refuses a merge whose
    /// `head_commit_id` is no longer the head (409 "head out of date").
    pub(super) fn write_merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        commit_message: &str,
    ) -> Result<HeadSha, ForgeError> {
        let known = self.rest.heads.borrow().get(&number).cloned();
        let head = match known {
            Some(head) => head,
            None => {
                let pull = self.read_pull(number)?;
                (pull.state == "open")
                    .then(|| pull.head.and_then(|h| h.sha))
                    .flatten()
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
        let (title, rest) = commit_message
            .split_once('\n')
            .unwrap_or((commit_message, ""));
        let rest = match rest.trim() {
            "" => "Merged by gitnomic resolve.",
            rest => rest,
        };
        let body = json!({
            "Do": "merge",
            "head_commit_id": expected.0,
            "MergeTitleField": title,
            "MergeMessageField": rest,
        });
        let reply = match self
            .rest
            .send("POST", &format!("/pulls/{number}/merge"), &body)?
        {
            Ok(reply) => reply,
            Err(why) => return self.settle_merge(number, expected, &why),
        };
        self.rest.files.borrow_mut().clear();
        self.rest.heads.borrow_mut().remove(&number);
        match reply.status {
            200 => {
                // Forgejo answers with no body: the merge commit is read back.
                let pull = self.read_pull(number)?;
                match (pull.merged, pull.merge_commit_sha) {
                    (Some(true), Some(sha)) => Ok(HeadSha(sha)),
                    _ => Err(ForgeError::Other(format!(
                        "merging #{number}: Forgejo answered 200 but shows it not merged"
                    ))),
                }
            }
            // A closed pull request is "not found" to the merge.
            404 | 405 | 409 => {
                let now = self.read_pull(number)?;
                let head = now.head.and_then(|h| h.sha).unwrap_or_default();
                if now.state != "open" {
                    Err(ForgeError::NotOpen(number))
                } else if reply.status == 409 && head != expected.0 {
                    Err(ForgeError::StaleHead {
                        number,
                        expected: expected.clone(),
                        actual: HeadSha(head),
                    })
                } else {
                    Err(ForgeError::NotMergeable {
                        number,
                        reason: message(&reply.body),
                    })
                }
            }
            _ => Err(ForgeError::Other(format!(
                "merging #{number}: HTTP {}: {}",
                reply.status,
                message(&reply.body)
            ))),
        }
    }

    /// After a merge Forgejo did not answer: merged at the tallied head is
    /// a merge; anything else is reported and not retried.
    fn settle_merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        why: &str,
    ) -> Result<HeadSha, ForgeError> {
        self.rest.files.borrow_mut().clear();
        self.rest.heads.borrow_mut().remove(&number);
        let pull = self.read_pull(number)?;
        let head = pull.head.and_then(|h| h.sha);
        match (pull.merged, pull.merge_commit_sha) {
            (Some(true), Some(sha)) if head.as_deref() == Some(expected.0.as_str()) => {
                Ok(HeadSha(sha))
            }
            (Some(true), _) => Err(ForgeError::NotOpen(number)),
            _ => Err(ForgeError::Other(format!(
                "merging #{number}: {why}; Forgejo shows it not merged; not retried in this run"
            ))),
        }
    }

    /// A file on the default branch: its blob SHA and its text.
    pub(super) fn file(&self, path: &str) -> Result<Option<(String, String)>, ForgeError> {
        if let Some(known) = self.rest.files.borrow().get(path) {
            return Ok(known.clone());
        }
        let rest = format!("/contents/{path}?ref={}", encode(&self.rest.base));
        let reply = self.rest.client.get(&self.rest.path(&rest))?;
        let read = if reply.status == 404 {
            None
        } else {
            expect_ok(&reply, &rest)?;
            let file: Contents = parse(&reply.body, &rest)?;
            if file.kind.as_deref().is_some_and(|k| k != "file") {
                return Err(ForgeError::Other(format!(
                    "{path} is not a file on the forge"
                )));
            }
            let bytes = unbase64(file.content.as_deref().unwrap_or_default()).ok_or_else(|| {
                ForgeError::Other(format!("{path}: Forgejo sent contents that are not base64"))
            })?;
            let text = String::from_utf8(bytes)
                .map_err(|_| ForgeError::Other(format!("{path} is not UTF-8 text")))?;
            Some((file.sha, text))
        };
        self.rest
            .files
            .borrow_mut()
            .insert(path.to_string(), read.clone());
        Ok(read)
    }

    /// Creates (POST) or updates (PUT, naming the blob it replaces) a file
    /// on the default branch; settled by reading it when unanswered.
    pub(super) fn write_file(
        &self,
        path: &str,
        text: &str,
        title: &str,
    ) -> Result<HeadSha, ForgeError> {
        let put = |sha: Option<String>| {
            let mut body = json!({ "message": title, "content": base64(text.as_bytes()), "branch": self.rest.base });
            let method = match sha {
                Some(sha) => {
                    body["sha"] = json!(sha);
                    "PUT"
                }
                None => "POST",
            };
            self.rest.send(method, &format!("/contents/{path}"), &body)
        };
        let first = put(self.file(path)?.map(|(sha, _)| sha))?;
        self.rest.files.borrow_mut().remove(path);
        let reply = match first {
            Ok(reply) => reply,
            Err(why) => match self.file(path)? {
                Some((_, now)) if now == text => return self.last_commit(path),
                current => put(current.map(|(sha, _)| sha))?.map_err(|again| {
                    ForgeError::Other(format!("writing {path}: {why}; then {again}"))
                })?,
            },
        };
        self.rest.files.borrow_mut().remove(path);
        expect_ok(&reply, path)?;
        let done: FileWritten = parse(&reply.body, path)?;
        if let Some(blob) = done.content.and_then(|c| c.sha) {
            self.rest
                .files
                .borrow_mut()
                .insert(path.to_string(), Some((blob, text.to_string())));
        }
        done.commit
            .and_then(|c| c.sha)
            .map(HeadSha)
            .ok_or_else(|| ForgeError::Other(format!("writing {path}: Forgejo named no commit")))
    }

    /// The last commit on the default branch that touched `path`.
    fn last_commit(&self, path: &str) -> Result<HeadSha, ForgeError> {
        let rest = format!(
            "/commits?sha={}&path={}&limit=1&stat=false&verification=false&files=false",
            encode(&self.rest.base),
            encode(path)
        );
        let full = self.rest.path(&rest);
        let reply = self.rest.client.get(&full)?;
        expect_ok(&reply, &full)?;
        let commits: Vec<super::dto::Sha> = parse(&reply.body, &full)?;
        commits
            .into_iter()
            .find_map(|c| c.sha)
            .map(HeadSha)
            .ok_or_else(|| {
                ForgeError::Other(format!(
                    "{path}: no commit on {} touches it",
                    self.rest.base
                ))
            })
    }

    /// The files of commit `sha`, read page by page from the tree API
    /// (`truncated` while more pages follow); `None` if Forgejo lacks it.
    pub(super) fn commit_files(
        &self,
        sha: &HeadSha,
    ) -> Result<Option<Vec<(String, String)>>, ForgeError> {
        if !is_sha(&sha.0) {
            return Ok(None);
        }
        let mut files = Vec::new();
        for page in 1.. {
            let rest = format!(
                "/git/trees/{}?recursive=true&per_page={TREE_PAGE}&page={page}",
                sha.0
            );
            let reply = self.rest.client.get(&self.rest.path(&rest))?;
            if matches!(reply.status, 400 | 404 | 409 | 422) {
                return Ok(None);
            }
            expect_ok(&reply, &rest)?;
            let tree: Tree = parse(&reply.body, &rest)?;
            let entries = tree.tree.unwrap_or_default();
            let empty = entries.is_empty();
            files.extend(
                entries
                    .into_iter()
                    .filter(|e| e.kind.as_deref() == Some("blob"))
                    .filter_map(|e| Some((e.path?, e.sha?))),
            );
            if !tree.truncated || empty {
                break;
            }
        }
        files.sort();
        Ok(Some(files))
    }

    pub(super) fn read_blob(&self, id: &str) -> Result<Option<Vec<u8>>, ForgeError> {
        if !is_sha(id) {
            return Ok(None);
        }
        let rest = format!("/git/blobs/{id}");
        let reply = self.rest.client.get(&self.rest.path(&rest))?;
        if matches!(reply.status, 400 | 404 | 409 | 422) {
            return Ok(None);
        }
        expect_ok(&reply, &rest)?;
        let blob: Blob = parse(&reply.body, &rest)?;
        if blob.encoding.as_deref() != Some("base64") {
            return Err(ForgeError::Other(format!(
                "blob {id}: Forgejo sent it as {:?}, not base64",
                blob.encoding
            )));
        }
        unbase64(blob.content.as_deref().unwrap_or_default())
            .map(Some)
            .ok_or_else(|| ForgeError::Other(format!("blob {id}: not base64")))
    }
}
