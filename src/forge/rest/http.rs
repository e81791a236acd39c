//! The HTTP side of the GitHub adapter: authentication, the API's headers,
//! pagination by the `Link` header, conditional GETs (`If-None-Match`) so
//! a page read twice costs no rate limit the second time, and GitHub's
//! rules for failures:
//!
//! - reads (GET, and DELETE, which is idempotent) are retried with backoff
//!   after a 5xx or a dropped connection;
//! - writes (POST, PUT, PATCH) are never repeated blindly: after a 5xx or a
//!   dropped connection the write may or may not have happened, so the
//!   caller gets [`Sent::Unknown`] and re-reads to decide;
//! - rate limits are read from the status and headers, and from the error's
//!   `message` where only it tells a limit from a refusal (a 403 with quota
//!   left and no `retry-after`): on a primary limit
//!   (`x-ratelimit-remaining: 0`) nothing is sent before
//!   `x-ratelimit-reset`; on a secondary limit `retry-after` is honoured, or
//!   at least a minute passes; a wait that would outlast the run's budget
//!   stops the run with [`ForgeError::RateLimited`] saying when to resume.
//!
//! The Forgejo adapter speaks through the same client in its own
//! [`Flavor`]: its token scheme, its page-size parameter (`limit`), no
//! GitHub headers; its lists say their total (`X-Total-Count`), kept in
//! [`Reply::total`]. Forgejo describes no rate-limit headers, so a 429 from
//! it (or a proxy before it) is waited out by the generic rule: honour
//! `retry-after`, else a minute, then longer.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::time::Duration;

use super::super::ForgeError;
use crate::bounds;
use crate::time::Timestamp;

/// How a request went: status, body, the next page, and the rate-limit
/// headers.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: String,
    pub(crate) next: Option<String>,
    /// `x-ratelimit-remaining`.
    pub(crate) remaining: Option<u64>,
    /// `x-ratelimit-reset`, seconds since the epoch.
    pub(crate) reset: Option<i64>,
    /// `retry-after`, seconds.
    pub(crate) retry_after: Option<u64>,
    /// `x-total-count`: how many items the whole list holds (Forgejo).
    #[serde(default)]
    pub(crate) total: Option<u64>,
}

/// How one forge's API is spoken: who it is (for messages), how the token
/// is sent, the headers it wants, how a list's page size is asked for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flavor {
    /// `GitHub`, `Forgejo`.
    pub(crate) name: &'static str,
    /// The `Authorization` scheme: `Bearer`, `token`.
    pub(crate) scheme: &'static str,
    /// The `Accept` header.
    pub(crate) accept: &'static str,
    /// GitHub's `X-GitHub-Api-Version`, if the forge wants it.
    pub(crate) api_version: Option<&'static str>,
    /// The query parameter of a list's page size: `per_page`, `limit`.
    pub(crate) page_size: &'static str,
    /// A list's page size when the request names none.
    pub(crate) default_page: usize,
    /// The environment variable that holds the token, for messages.
    pub(crate) token_var: &'static str,
}

/// GitHub's REST API.
pub(crate) const GITHUB: Flavor = Flavor {
    name: "GitHub",
    scheme: "Bearer",
    accept: "application/vnd.github+json",
    api_version: Some("2022-11-28"),
    page_size: "per_page",
    default_page: 30,
    token_var: "GITHUB_TOKEN",
};

/// What became of a write.
#[derive(Debug)]
pub(crate) enum Sent {
    /// GitHub answered (any status but a 5xx).
    Done(Reply),
    /// A 5xx or no answer: the write may or may not have happened.
    Unknown(String),
}

/// Waits between retries. Injected so tests never sleep.
pub(crate) type Sleeper = Box<dyn Fn(Duration)>;

/// A client for one GitHub API base URL with one token.
pub(crate) struct Client {
    agent: ureq::Agent,
    flavor: Flavor,
    base: String,
    token: String,
    /// ETag and body of every GET answered 200, by URL.
    cache: RefCell<HashMap<String, (String, Reply)>>,
    sleep: Sleeper,
    retries: u32,
    /// Requests sent, and those answered 304 (which cost no rate limit).
    sent: Cell<u64>,
    not_modified: Cell<u64>,
    /// The moment the run started, plus every wait since.
    clock: Cell<i64>,
    /// Seconds waited so far, and the most the run may wait in all.
    waited: Cell<u64>,
    max_wait: Cell<u64>,
    /// Secondary limits met so far: each one without `retry-after` waits
    /// twice as long as the one before, as GitHub asks.
    slowdowns: Cell<u32>,
    /// The longest reply read, in bytes ([`bounds::REPLY_BYTES`]).
    max_reply: Cell<u64>,
}

/// A rate limit GitHub reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Limit {
    /// The hourly quota is spent: nothing before this moment.
    Primary { reset: i64 },
    /// Too much too fast: wait this long.
    Secondary { after: u64 },
}

impl Client {
    /// A client for a forge's API at `base`, spoken as `flavor` says.
    pub(crate) fn new(base: &str, token: &str, sleep: Sleeper, flavor: Flavor) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .user_agent("gitnomic")
            .build()
            .into();
        Client {
            agent,
            flavor,
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            cache: RefCell::new(HashMap::new()),
            sleep,
            retries: 4,
            sent: Cell::new(0),
            not_modified: Cell::new(0),
            clock: Cell::new(0),
            waited: Cell::new(0),
            max_wait: Cell::new(300),
            slowdowns: Cell::new(0),
            max_reply: Cell::new(bounds::REPLY_BYTES),
        }
    }

    /// The run's moment, plus every wait so far.
    pub(crate) fn now(&self) -> Timestamp {
        Timestamp::from_unix(self.clock.get())
    }

    /// The forge's name, for messages: `GitHub`, `Forgejo`.
    pub(crate) fn forge_name(&self) -> &'static str {
        self.flavor.name
    }

    /// Sets the longest reply a request reads, in bytes.
    pub(crate) fn set_max_reply(&self, bytes: u64) {
        self.max_reply.set(bytes);
    }

    /// Sets the moment the run reckons from and the most it may wait.
    pub(crate) fn set_clock(&self, now: Timestamp, max_wait: Duration) {
        self.clock.set(now.unix());
        self.max_wait.set(max_wait.as_secs());
    }

    /// ETags and replies kept from an earlier run.
    pub(crate) fn set_etags(&self, kept: HashMap<String, (String, Reply)>) {
        *self.cache.borrow_mut() = kept;
    }

    /// The ETags and replies to keep for the next run.
    pub(crate) fn etags(&self) -> HashMap<String, (String, Reply)> {
        self.cache.borrow().clone()
    }

    /// Requests sent so far, and how many of them were answered 304.
    pub(crate) fn counts(&self) -> (u64, u64) {
        (self.sent.get(), self.not_modified.get())
    }

    /// The absolute URL of an API path (`/repos/o/r/pulls`), or `path` itself
    /// if it is already absolute (a `Link` header's next page).
    pub(crate) fn url(&self, path: &str) -> String {
        if path.starts_with("http://") || path.starts_with("https://") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// A GET, answered from the cache on 304.
    pub(crate) fn get(&self, path: &str) -> Result<Reply, ForgeError> {
        let url = self.url(path);
        let etag = self.cache.borrow().get(&url).map(|(etag, _)| etag.clone());
        let (reply, new_etag) = self.read("GET", &url, etag.as_deref())?;
        if reply.status == 304 {
            self.not_modified.set(self.not_modified.get() + 1);
            let cached = self.cache.borrow().get(&url).map(|(_, r)| r.clone());
            match cached {
                // A full last page may have grown a next page while its own
                // items stayed the same: read it afresh to be sure.
                Some(cached)
                    if cached.next.is_none() && full_page(&url, &cached.body, self.flavor) =>
                {
                    self.cache.borrow_mut().remove(&url);
                    return self.get(path);
                }
                Some(cached) => return Ok(cached),
                None => {}
            }
        }
        if let (200, Some(tag)) = (reply.status, new_etag) {
            self.cache.borrow_mut().insert(url, (tag, reply.clone()));
        }
        Ok(reply)
    }

    /// Every page of a list endpoint, as JSON arrays concatenated.
    pub(crate) fn get_all(&self, path: &str) -> Result<Vec<serde_json::Value>, ForgeError> {
        let mut items = Vec::new();
        let mut next = Some(path.to_string());
        while let Some(page) = next {
            let reply = self.get(&page)?;
            expect_ok(&reply, &page)?;
            let list: Vec<serde_json::Value> = parse(&reply.body, &page)?;
            items.extend(list);
            next = reply.next;
        }
        Ok(items)
    }

    /// A DELETE: idempotent, so retried like a read.
    pub(crate) fn delete(&self, path: &str) -> Result<Reply, ForgeError> {
        Ok(self.read("DELETE", &self.url(path), None)?.0)
    }

    /// A write with a JSON body (POST, PATCH, PUT): sent once, waiting out
    /// rate limits (a limited request did nothing), never repeated after a
    /// 5xx or a lost connection. The cache stays: every cached reply is
    /// revalidated by its ETag before it is used, so none is served stale.
    pub(crate) fn write(
        &self,
        method: &str,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<Sent, ForgeError> {
        let url = self.url(path);
        let text = body.to_string();
        loop {
            let reply = match self.send_once(method, &url, Some(&text), None) {
                Ok((reply, _)) => reply,
                Err(e) => return Ok(Sent::Unknown(e.to_string())),
            };
            if let Some(limit) = limit(&reply) {
                self.wait_out(limit, &reply)?;
                continue;
            }
            if reply.status >= 500 {
                return Ok(Sent::Unknown(format!(
                    "{method} {path}: HTTP {}: {}",
                    reply.status,
                    message(&reply.body)
                )));
            }
            check_auth(&reply, self.flavor)?;
            return Ok(Sent::Done(reply));
        }
    }

    /// Sends an idempotent request with retries; returns the reply and its ETag.
    fn read(
        &self,
        method: &str,
        url: &str,
        etag: Option<&str>,
    ) -> Result<(Reply, Option<String>), ForgeError> {
        let mut attempt = 0;
        loop {
            let result = self.send_once(method, url, None, etag);
            if let Ok((reply, _)) = &result {
                if let Some(limit) = limit(reply) {
                    self.wait_out(limit, reply)?;
                    continue;
                }
            }
            let failed = match &result {
                Ok((reply, _)) => reply.status >= 500,
                // Just as long the next time: not read again.
                Err(ForgeError::TooLarge { .. }) => false,
                Err(_) => true,
            };
            if failed && attempt < self.retries {
                self.pause(1 << attempt);
                attempt += 1;
                continue;
            }
            let (reply, tag) = result?;
            check_auth(&reply, self.flavor)?;
            return Ok((reply, tag));
        }
    }

    /// Waits out a rate limit, or stops if the wait would outlast the run.
    fn wait_out(&self, limit: Limit, reply: &Reply) -> Result<(), ForgeError> {
        let now = self.clock.get();
        let (wait, until) = match limit {
            Limit::Primary { reset } => {
                let wait = u64::try_from(reset.saturating_sub(now)).unwrap_or(0) + 1;
                (wait, reset)
            }
            Limit::Secondary { after } => {
                let after = match reply.retry_after {
                    Some(_) => after,
                    None => after.saturating_mul(1 << self.slowdowns.get().min(10)),
                };
                self.slowdowns.set(self.slowdowns.get() + 1);
                (
                    after,
                    now.saturating_add(i64::try_from(after).unwrap_or(i64::MAX)),
                )
            }
        };
        if self.waited.get() + wait > self.max_wait.get() {
            let kind = match limit {
                Limit::Primary { .. } => "the hourly request quota is spent".to_string(),
                Limit::Secondary { .. } => format!("{} asked us to slow down", self.flavor.name),
            };
            return Err(ForgeError::RateLimited(format!(
                "{kind} (HTTP {}); waiting until {} would outlast this run's budget of {} s \
                 (GITNOMIC_MAX_WAIT): stopped here; the next run after {} will continue",
                reply.status,
                Timestamp::from_unix(until),
                self.max_wait.get(),
                Timestamp::from_unix(until),
            )));
        }
        self.waited.set(self.waited.get() + wait);
        self.pause(wait);
        Ok(())
    }

    fn pause(&self, secs: u64) {
        self.clock.set(
            self.clock
                .get()
                .saturating_add(i64::try_from(secs).unwrap_or(i64::MAX)),
        );
        (self.sleep)(Duration::from_secs(secs));
    }

    fn send_once(
        &self,
        method: &str,
        url: &str,
        body: Option<&str>,
        etag: Option<&str>,
    ) -> Result<(Reply, Option<String>), ForgeError> {
        self.sent.set(self.sent.get() + 1);
        let request = ureq::http::Request::builder()
            .method(method)
            .uri(url)
            .header("Accept", self.flavor.accept)
            .header(
                "Authorization",
                format!("{} {}", self.flavor.scheme, self.token),
            );
        let request = match self.flavor.api_version {
            Some(version) => request.header("X-GitHub-Api-Version", version),
            None => request,
        };
        let request = match etag {
            Some(tag) => request.header("If-None-Match", tag),
            None => request,
        };
        let sent = match body {
            Some(text) => {
                let request = request.header("Content-Type", "application/json");
                let request = request
                    .body(text.to_string())
                    .map_err(|e| ForgeError::Other(e.to_string()))?;
                self.agent.run(request)
            }
            None => {
                let request = request
                    .body(())
                    .map_err(|e| ForgeError::Other(e.to_string()))?;
                self.agent.run(request)
            }
        };
        let mut response = sent.map_err(|e| ForgeError::Other(format!("{method} {url}: {e}")))?;
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(|s| s.trim().to_string())
        };
        let next = header("link").and_then(|link| next_link(&link));
        let tag = header("etag");
        let remaining = header("x-ratelimit-remaining").and_then(|s| s.parse().ok());
        let reset = header("x-ratelimit-reset").and_then(|s| s.parse().ok());
        let retry_after = header("retry-after").and_then(|s| s.parse().ok());
        let total = header("x-total-count").and_then(|s| s.parse().ok());
        let status = response.status().as_u16();
        let limit = self.max_reply.get();
        let body = response
            .body_mut()
            .with_config()
            .limit(limit)
            .lossy_utf8(true)
            .read_to_string()
            .map_err(|e| match e {
                ureq::Error::BodyExceedsLimit(_) => ForgeError::TooLarge {
                    request: format!("{method} {url}"),
                    limit,
                },
                e => ForgeError::Other(format!("{method} {url}: {e}")),
            })?;
        let reply = Reply {
            status,
            body,
            next,
            remaining,
            reset,
            retry_after,
            total,
        };
        Ok((reply, tag))
    }
}

/// Whether a list reply holds as many items as its page size asked for
/// (the forge's default if it did not say).
fn full_page(url: &str, body: &str, flavor: Flavor) -> bool {
    let per_page = url
        .split_once('?')
        .map_or("", |(_, q)| q)
        .split('&')
        .find_map(|kv| kv.strip_prefix(flavor.page_size)?.strip_prefix('='))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(flavor.default_page);
    serde_json::from_str::<Vec<serde_json::Value>>(body).is_ok_and(|items| items.len() >= per_page)
}

/// The rate limit a reply reports, judged as GitHub documents it: a 403 or
/// 429 with `retry-after` is a secondary limit; one with
/// `x-ratelimit-remaining: 0` is the primary limit (until
/// `x-ratelimit-reset`); a 429 with neither, or a 403 whose message says it
/// is a secondary rate limit, is a secondary limit (wait a minute, then
/// longer). Any other 403 is a refusal, not a limit.
fn limit(reply: &Reply) -> Option<Limit> {
    if !matches!(reply.status, 403 | 429) {
        return None;
    }
    if let Some(after) = reply.retry_after {
        return Some(Limit::Secondary { after });
    }
    match (reply.remaining, reply.reset) {
        (Some(0), Some(reset)) => Some(Limit::Primary { reset }),
        (Some(0), None) => Some(Limit::Secondary { after: 60 }),
        _ if reply.status == 429 || says_secondary_limit(&reply.body) => {
            Some(Limit::Secondary { after: 60 })
        }
        _ => None,
    }
}

/// Whether an error's `message` says a secondary rate limit was exceeded:
/// GitHub answers one with 403 and its quota headers untouched, so its
/// words are all that tell it from a token's refusal. Only the `message`
/// field of the JSON error is read, never the text of anything else.
fn says_secondary_limit(body: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v.get("message")?.as_str().map(str::to_ascii_lowercase))
        .is_some_and(|m| m.contains("secondary rate limit"))
}

fn check_auth(reply: &Reply, flavor: Flavor) -> Result<(), ForgeError> {
    match reply.status {
        401 => Err(ForgeError::Unauthorized(format!(
            "401: the token is missing or invalid (set {}): {}",
            flavor.token_var,
            message(&reply.body)
        ))),
        403 => Err(ForgeError::Forbidden(format!(
            "403: the token may not do this (check the workflow's permissions): {}",
            message(&reply.body)
        ))),
        _ => Ok(()),
    }
}

/// Fails unless the reply is a 2xx.
pub(crate) fn expect_ok(reply: &Reply, what: &str) -> Result<(), ForgeError> {
    if (200..300).contains(&reply.status) {
        Ok(())
    } else {
        Err(ForgeError::Other(format!(
            "{what}: HTTP {}: {}",
            reply.status,
            message(&reply.body)
        )))
    }
}

/// The `message` field of a GitHub error body, or the body itself.
pub(crate) fn message(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string)
        })
        .unwrap_or_else(|| body.chars().take(200).collect())
}

/// Parses a JSON reply, naming the request on failure.
pub(crate) fn parse<T: for<'de> serde::Deserialize<'de>>(
    body: &str,
    what: &str,
) -> Result<T, ForgeError> {
    serde_json::from_str(body)
        .map_err(|e| ForgeError::Other(format!("{what}: unexpected reply from the forge: {e}")))
}

/// The `rel="next"` URL of a `Link` header.
fn next_link(link: &str) -> Option<String> {
    link.split(',').find_map(|part| {
        let (url, rel) = part.split_once(';')?;
        rel.contains("rel=\"next\"").then(|| {
            url.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_next_page() {
        let link = r#"<https://api.github.com/repositories/1/pulls?page=2>; rel="next", <https://api.github.com/repositories/1/pulls?page=5>; rel="last""#;
        assert_eq!(
            next_link(link).as_deref(),
            Some("https://api.github.com/repositories/1/pulls?page=2")
        );
        assert_eq!(next_link(r#"<https://x/?page=1>; rel="prev""#), None);
    }

    fn reply(status: u16, remaining: Option<u64>, retry_after: Option<u64>) -> Reply {
        Reply {
            status,
            body: r#"{"message":"You have exceeded a secondary rate limit"}"#.into(),
            remaining,
            reset: Some(1_000),
            retry_after,
            ..Reply::default()
        }
    }

    #[test]
    fn rate_limits_are_read_from_status_headers_and_githubs_message() {
        assert_eq!(
            limit(&reply(403, Some(0), None)),
            Some(Limit::Primary { reset: 1_000 })
        );
        assert_eq!(
            limit(&reply(429, Some(0), None)),
            Some(Limit::Primary { reset: 1_000 })
        );
        assert_eq!(
            limit(&reply(403, Some(10), Some(30))),
            Some(Limit::Secondary { after: 30 })
        );
        assert_eq!(
            limit(&reply(429, Some(10), None)),
            Some(Limit::Secondary { after: 60 })
        );
        // A 403 whose message says it is a secondary limit waits, headers
        // or none; any other 403 is a refusal.
        assert_eq!(
            limit(&reply(403, Some(10), None)),
            Some(Limit::Secondary { after: 60 })
        );
        let refused = Reply {
            body: r#"{"message":"Resource not accessible by integration"}"#.into(),
            ..reply(403, Some(10), None)
        };
        assert_eq!(limit(&refused), None);
        assert!(matches!(
            check_auth(&refused, GITHUB),
            Err(ForgeError::Forbidden(_))
        ));
        let not_json = Reply {
            body: "secondary rate limit, said outside a JSON error".into(),
            ..reply(403, Some(10), None)
        };
        assert_eq!(limit(&not_json), None);
        assert_eq!(limit(&reply(502, Some(0), None)), None);
    }

    #[test]
    fn a_wait_longer_than_the_budget_stops_and_says_when_to_resume() {
        let slept = std::rc::Rc::new(Cell::new(0u64));
        let s = slept.clone();
        let client = Client::new(
            "http://127.0.0.1:9",
            "t",
            Box::new(move |d| s.set(s.get() + d.as_secs())),
            GITHUB,
        );
        client.set_clock(Timestamp::from_unix(1_000), Duration::from_secs(120));
        client
            .wait_out(Limit::Primary { reset: 1_059 }, &reply(403, Some(0), None))
            .unwrap();
        assert_eq!(slept.get(), 60, "never before the reset");
        let err = client
            .wait_out(Limit::Primary { reset: 4_600 }, &reply(403, Some(0), None))
            .unwrap_err();
        assert!(
            err.to_string().contains("1970-01-01T01:16:40Z"),
            "says when the next run continues: {err}"
        );
        assert_eq!(slept.get(), 60, "and does not wait for it");
    }

    #[test]
    fn repeated_secondary_limits_wait_longer_each_time() {
        let slept = std::rc::Rc::new(Cell::new(0u64));
        let s = slept.clone();
        let client = Client::new(
            "http://127.0.0.1:9",
            "t",
            Box::new(move |d| s.set(s.get() + d.as_secs())),
            GITHUB,
        );
        client.set_clock(Timestamp::from_unix(0), Duration::from_secs(1_000));
        let limited = reply(429, Some(10), None);
        for expected in [60, 180, 420] {
            client
                .wait_out(Limit::Secondary { after: 60 }, &limited)
                .unwrap();
            assert_eq!(slept.get(), expected);
        }
        let told = reply(429, Some(10), Some(5));
        client
            .wait_out(Limit::Secondary { after: 5 }, &told)
            .unwrap();
        assert_eq!(slept.get(), 425, "retry-after is honoured as given");
    }

    #[test]
    fn knows_a_full_page() {
        assert!(full_page("/x?per_page=2", "[1,2]", GITHUB));
        assert!(!full_page("/x?per_page=3", "[1,2]", GITHUB));
        assert!(!full_page("/x", "[1,2]", GITHUB));
        assert!(!full_page("/x?per_page=1", "{}", GITHUB));
    }

    #[test]
    fn reads_github_error_messages() {
        assert_eq!(
            message(r#"{"message":"Head branch was modified"}"#),
            "Head branch was modified"
        );
        assert_eq!(message("plain"), "plain");
    }
}
