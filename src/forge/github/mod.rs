//! The GitHub adapter: one repository over the REST API.
//!
//! Matters are open pull requests (and issues, for CfJs and DoVs) whose
//! labels or titles name their kind; votes are issue comments and review
//! bodies. Merges send the tallied head SHA, so GitHub refuses (409) if a
//! push slipped in after the tally; the bot's status comment is found by
//! its marker *and* its author, so a player cannot forge it.

mod dto;
pub(crate) mod http;

use serde_json::json;

use self::dto::{ContentFile, ContentPut, Issue, IssueComment, MergeReply, Pull, PullFile, Review};
pub use self::http::Sleeper;
use self::http::{Client, Reply, expect_ok, message, parse};
use super::{Forge, ForgeComment, ForgeError, HeadSha, Login, MatterInfo};
use crate::time::Timestamp;

/// Review ids are offset by this so they never collide with comment ids
/// (both are ordered by time first; the id only breaks ties).
const REVIEW_ID_OFFSET: u64 = 1 << 50;

/// A repository on GitHub.
pub struct GitHubForge {
    client: Client,
    repo: String,
    base: String,
    bot: String,
}

/// Where and as whom to reach GitHub.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The API's base URL (`GITHUB_API_URL`, `https://api.github.com`).
    pub api: String,
    /// `owner/name` (`GITHUB_REPOSITORY`).
    pub repo: String,
    /// The token (`GITHUB_TOKEN`).
    pub token: String,
    /// The default branch.
    pub base: String,
    /// The login the token acts as (`github-actions[bot]` for GITHUB_TOKEN).
    pub bot: String,
}

impl GitHubForge {
    /// A forge for `settings`, waiting between retries with `sleep`.
    pub fn new(settings: &Settings, sleep: Sleeper) -> Self {
        GitHubForge {
            client: Client::new(&settings.api, &settings.token, sleep),
            repo: settings.repo.clone(),
            base: settings.base.clone(),
            bot: settings.bot.clone(),
        }
    }

    fn path(&self, rest: &str) -> String {
        format!("/repos/{}{rest}", self.repo)
    }

    fn get_json<T: for<'de> serde::Deserialize<'de>>(
        &self,
        rest: &str,
        number: u64,
    ) -> Result<T, ForgeError> {
        let path = self.path(rest);
        let reply = self.client.get(&path)?;
        if reply.status == 404 {
            return Err(ForgeError::NotFound(number));
        }
        expect_ok(&reply, &path)?;
        parse(&reply.body, &path)
    }

    fn list<T: for<'de> serde::Deserialize<'de>>(&self, rest: &str) -> Result<Vec<T>, ForgeError> {
        let path = self.path(rest);
        self.client
            .get_all(&path)?
            .into_iter()
            .map(|v| {
                serde_json::from_value(v)
                    .map_err(|e| ForgeError::Other(format!("{path}: unexpected reply: {e}")))
            })
            .collect()
    }

    fn send(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Reply, ForgeError> {
        self.client.send_json(method, &self.path(rest), body)
    }

    fn pull_info(pull: Pull) -> Result<MatterInfo, ForgeError> {
        Ok(MatterInfo {
            number: pull.number,
            title: pull.title,
            body: pull.body.unwrap_or_default(),
            author: Login(pull.user.login),
            opened: dto::time(&pull.created_at)?,
            labels: pull.labels.into_iter().map(|l| l.name).collect(),
            head: (pull.state == "open").then_some(HeadSha(pull.head.sha)),
            merge_commit: pull.merged_at.and(pull.merge_commit_sha).map(HeadSha),
            draft: pull.draft.unwrap_or(false),
            link: pull.html_url,
        })
    }

    fn issue_info(issue: Issue) -> Result<MatterInfo, ForgeError> {
        Ok(MatterInfo {
            number: issue.number,
            title: issue.title,
            body: issue.body.unwrap_or_default(),
            author: Login(issue.user.login),
            opened: dto::time(&issue.created_at)?,
            labels: issue.labels.into_iter().map(|l| l.name).collect(),
            head: None,
            merge_commit: None,
            draft: false,
            link: issue.html_url,
        })
    }

    fn is_pull(&self, number: u64) -> Result<bool, ForgeError> {
        let issue: Issue = self.get_json(&format!("/issues/{number}"), number)?;
        Ok(issue.pull_request.is_some())
    }
}

impl Forge for GitHubForge {
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        let mut out = Vec::new();
        for pull in self.list::<Pull>("/pulls?state=open&per_page=100")? {
            out.push(Self::pull_info(pull)?);
        }
        for issue in self.list::<Issue>("/issues?state=open&per_page=100")? {
            if issue.pull_request.is_none() {
                out.push(Self::issue_info(issue)?);
            }
        }
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
        let reply = self.client.get(&self.path(&path))?;
        expect_ok(&reply, &path)?;
        for issue in parse::<Vec<Issue>>(&reply.body, &path)? {
            if issue.pull_request.is_some() {
                out.push(self.matter(issue.number)?);
            } else {
                out.push(Self::issue_info(issue)?);
            }
        }
        Ok(out)
    }

    fn matter(&self, number: u64) -> Result<MatterInfo, ForgeError> {
        let issue: Issue = self.get_json(&format!("/issues/{number}"), number)?;
        if issue.pull_request.is_some() {
            Self::pull_info(self.get_json(&format!("/pulls/{number}"), number)?)
        } else {
            Self::issue_info(issue)
        }
    }

    fn comments(&self, number: u64) -> Result<Vec<ForgeComment>, ForgeError> {
        let mut out = Vec::new();
        for c in self.list::<IssueComment>(&format!("/issues/{number}/comments?per_page=100"))? {
            let created = dto::time(&c.created_at)?;
            let updated = dto::time(&c.updated_at)?;
            out.push(ForgeComment {
                id: c.id,
                author: Login(c.user.login),
                created,
                edited: (updated > created).then_some(updated),
                body: c.body.unwrap_or_default(),
                link: c.html_url,
            });
        }
        if self.is_pull(number)? {
            for r in self.list::<Review>(&format!("/pulls/{number}/reviews?per_page=100"))? {
                let (Some(user), Some(at)) = (r.user, r.submitted_at) else {
                    continue;
                };
                let body = r.body.unwrap_or_default();
                if body.trim().is_empty() {
                    continue; // an approval without words is not a vote
                }
                out.push(ForgeComment {
                    id: r.id + REVIEW_ID_OFFSET,
                    author: Login(user.login),
                    created: dto::time(&at)?,
                    edited: None,
                    body,
                    link: r.html_url,
                });
            }
        }
        out.sort_by_key(|c| (c.created, c.id));
        Ok(out)
    }

    fn changed_files(&self, number: u64) -> Result<Vec<String>, ForgeError> {
        let mut paths: Vec<String> = self
            .list::<PullFile>(&format!("/pulls/{number}/files?per_page=100"))?
            .into_iter()
            .flat_map(|f| std::iter::once(f.filename).chain(f.previous_filename))
            .collect();
        paths.sort();
        paths.dedup();
        Ok(paths)
    }

    fn bot(&self) -> &str {
        &self.bot
    }

    fn put_status(&self, number: u64, body: &str) -> Result<(), ForgeError> {
        let reply = match self.status_comment(number)? {
            Some(c) if c.body == body => return Ok(()),
            Some(c) => self.send(
                "PATCH",
                &format!("/issues/comments/{}", c.id),
                &json!({ "body": body }),
            )?,
            None => self.send(
                "POST",
                &format!("/issues/{number}/comments"),
                &json!({ "body": body }),
            )?,
        };
        expect_ok(&reply, "posting the status comment")
    }

    fn set_commit_status(
        &self,
        sha: &HeadSha,
        ok: bool,
        description: &str,
    ) -> Result<(), ForgeError> {
        let description: String = description.chars().take(140).collect();
        let state = if ok { "success" } else { "failure" };
        let body =
            json!({ "state": state, "description": description, "context": "gitnomic/check" });
        expect_ok(
            &self.send("POST", &format!("/statuses/{}", sha.0), &body)?,
            "setting the commit status",
        )
    }

    fn set_labels(&self, number: u64, add: &[&str], remove: &[&str]) -> Result<(), ForgeError> {
        if !add.is_empty() {
            let reply = self.send(
                "POST",
                &format!("/issues/{number}/labels"),
                &json!({ "labels": add }),
            )?;
            expect_ok(&reply, "adding labels")?;
        }
        for label in remove {
            let reply = self.send(
                "DELETE",
                &format!("/issues/{number}/labels/{}", encode(label)),
                &json!({}),
            )?;
            if reply.status != 404 {
                expect_ok(&reply, "removing a label")?;
            }
        }
        Ok(())
    }

    fn merge(
        &self,
        number: u64,
        expected: &HeadSha,
        message_text: &str,
    ) -> Result<HeadSha, ForgeError> {
        let pull: Pull = self.get_json(&format!("/pulls/{number}"), number)?;
        if pull.state != "open" {
            return Err(ForgeError::NotOpen(number));
        }
        if pull.head.sha != expected.0 {
            return Err(ForgeError::StaleHead {
                number,
                expected: expected.clone(),
                actual: HeadSha(pull.head.sha),
            });
        }
        let body =
            json!({ "sha": expected.0, "merge_method": "merge", "commit_title": message_text });
        let reply = self.send("PUT", &format!("/pulls/{number}/merge"), &body)?;
        match reply.status {
            200 => Ok(HeadSha(parse::<MergeReply>(&reply.body, "the merge")?.sha)),
            404 => Err(ForgeError::NotFound(number)),
            405 => Err(ForgeError::NotMergeable {
                number,
                reason: message(&reply.body),
            }),
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

    fn close(&self, number: u64) -> Result<(), ForgeError> {
        let reply = self.send(
            "PATCH",
            &format!("/issues/{number}"),
            &json!({ "state": "closed" }),
        )?;
        if reply.status == 404 {
            return Err(ForgeError::NotFound(number));
        }
        expect_ok(&reply, "closing")
    }

    fn read_file(&self, path: &str) -> Result<Option<String>, ForgeError> {
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
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| ForgeError::Other(format!("{path} is not UTF-8 text")))
    }

    fn commit_file(
        &self,
        path: &str,
        text: &str,
        message_text: &str,
    ) -> Result<HeadSha, ForgeError> {
        let contents = format!("/contents/{path}");
        let existing = self
            .client
            .get(&self.path(&format!("{contents}?ref={}", encode(&self.base))))?;
        let sha = match existing.status {
            404 => None,
            _ => {
                expect_ok(&existing, &contents)?;
                Some(parse::<ContentFile>(&existing.body, &contents)?.sha)
            }
        };
        let mut body = json!({ "message": message_text, "content": base64(text.as_bytes()), "branch": self.base });
        if let Some(sha) = sha {
            body["sha"] = json!(sha);
        }
        let reply = self.send("PUT", &contents, &body)?;
        expect_ok(&reply, &contents)?;
        Ok(HeadSha(
            parse::<ContentPut>(&reply.body, &contents)?.commit.sha,
        ))
    }
}

/// Percent-encodes a path segment or query value.
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Standard base64 with padding, as the contents API wants.
fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(TABLE[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes standard base64, ignoring the line breaks GitHub puts in it;
/// `None` for anything else that is not base64.
fn unbase64(text: &str) -> Option<Vec<u8>> {
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .take_while(|c| *c != b'=')
    {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push(u8::try_from((bits >> count) & 0xff).ok()?);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_what_it_encodes() {
        for text in ["", "f", "fo", "foo", "foobar", "é\n[dynasty]\nnumber = 1\n"] {
            assert_eq!(unbase64(&base64(text.as_bytes())).unwrap(), text.as_bytes());
        }
        assert_eq!(unbase64("Zm9v\nYmFy\n").unwrap(), b"foobar");
        assert_eq!(unbase64("Zm9v!"), None);
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64("é\n".as_bytes()), "w6kK");
    }

    #[test]
    fn encodes_labels_for_urls() {
        assert_eq!(encode("not-a-matter"), "not-a-matter");
        assert_eq!(encode("Ascension Address"), "Ascension%20Address");
        assert_eq!(encode("a/b"), "a%2Fb");
    }
}
