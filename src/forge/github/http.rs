//! The HTTP side of the GitHub adapter: authentication, the API's headers,
//! retries with backoff on 5xx and secondary rate limits, pagination by the
//! `Link` header, and conditional GETs (`If-None-Match`) so that a page read
//! twice in a run costs no rate limit the second time.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::Duration;

use super::super::ForgeError;

/// How a request went: status, body, and the next page if any.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) body: String,
    pub(crate) next: Option<String>,
}

/// Waits between retries. Injected so tests never sleep.
pub type Sleeper = Box<dyn Fn(Duration)>;

/// A client for one GitHub API base URL with one token.
pub(crate) struct Client {
    agent: ureq::Agent,
    base: String,
    token: String,
    /// ETag and body of every GET answered 200, by URL.
    cache: RefCell<HashMap<String, (String, Reply)>>,
    sleep: Sleeper,
    retries: u32,
}

impl Client {
    pub(crate) fn new(base: &str, token: &str, sleep: Sleeper) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .user_agent("gitnomic")
            .build()
            .into();
        Client {
            agent,
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            cache: RefCell::new(HashMap::new()),
            sleep,
            retries: 4,
        }
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
        let (reply, new_etag) = self.send("GET", &url, None, etag.as_deref())?;
        if reply.status == 304 {
            if let Some((_, cached)) = self.cache.borrow().get(&url) {
                return Ok(cached.clone());
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

    /// A request with a JSON body (POST, PATCH, PUT, DELETE); the cache is
    /// dropped since the state it held may have changed.
    pub(crate) fn send_json(
        &self,
        method: &str,
        path: &str,
        body: &serde_json::Value,
    ) -> Result<Reply, ForgeError> {
        self.cache.borrow_mut().clear();
        let text = body.to_string();
        Ok(self.send(method, &self.url(path), Some(&text), None)?.0)
    }

    /// Sends with retries; returns the reply and its ETag.
    fn send(
        &self,
        method: &str,
        url: &str,
        body: Option<&str>,
        etag: Option<&str>,
    ) -> Result<(Reply, Option<String>), ForgeError> {
        let mut attempt = 0;
        loop {
            let result = self.send_once(method, url, body, etag);
            let retry_after = match &result {
                Ok((reply, _, retry_after)) if reply.status >= 500 => {
                    Some(retry_after.unwrap_or(0))
                }
                Ok((reply, _, retry_after)) if is_rate_limited(reply) => {
                    Some(retry_after.unwrap_or(0))
                }
                Err(_) => Some(0),
                Ok(_) => None,
            };
            match (retry_after, attempt < self.retries) {
                (Some(after), true) => {
                    let backoff = 1u64 << attempt;
                    (self.sleep)(Duration::from_secs(after.max(backoff).min(60)));
                    attempt += 1;
                }
                _ => {
                    let (reply, tag, _) = result?;
                    check_auth(&reply)?;
                    return Ok((reply, tag));
                }
            }
        }
    }

    fn send_once(
        &self,
        method: &str,
        url: &str,
        body: Option<&str>,
        etag: Option<&str>,
    ) -> Result<(Reply, Option<String>, Option<u64>), ForgeError> {
        let request = ureq::http::Request::builder()
            .method(method)
            .uri(url)
            .header("Accept", "application/vnd.github+json")
            .header("X-GitHub-Api-Version", "2022-11-28")
            .header("Authorization", format!("Bearer {}", self.token));
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
                .map(str::to_string)
        };
        let next = header("link").and_then(|link| next_link(&link));
        let tag = header("etag");
        let retry_after = header("retry-after").and_then(|s| s.parse().ok());
        let status = response.status().as_u16();
        let body = response
            .body_mut()
            .read_to_string()
            .map_err(|e| ForgeError::Other(format!("{method} {url}: {e}")))?;
        Ok((Reply { status, body, next }, tag, retry_after))
    }
}

/// GitHub's secondary rate limits answer 403 or 429 with a message saying so.
fn is_rate_limited(reply: &Reply) -> bool {
    reply.status == 429
        || (reply.status == 403 && reply.body.to_ascii_lowercase().contains("rate limit"))
}

fn check_auth(reply: &Reply) -> Result<(), ForgeError> {
    match reply.status {
        401 => Err(ForgeError::Unauthorized(format!(
            "401: the token is missing or invalid (set GITHUB_TOKEN): {}",
            message(&reply.body)
        ))),
        403 if is_rate_limited(reply) => Err(ForgeError::RateLimited(message(&reply.body))),
        403 => Err(ForgeError::Unauthorized(format!(
            "403: the token may not do this (check the workflow's permissions): {}",
            message(&reply.body)
        ))),
        429 => Err(ForgeError::RateLimited(message(&reply.body))),
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
        .map_err(|e| ForgeError::Other(format!("{what}: unexpected reply from GitHub: {e}")))
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

    #[test]
    fn reads_github_error_messages() {
        assert_eq!(
            message(r#"{"message":"Head branch was modified"}"#),
            "Head branch was modified"
        );
        assert_eq!(message("plain"), "plain");
        let limited = Reply {
            status: 403,
            body: r#"{"message":"You have exceeded a secondary rate limit"}"#.into(),
            next: None,
        };
        assert!(is_rate_limited(&limited));
        assert!(matches!(
            check_auth(&limited),
            Err(ForgeError::RateLimited(_))
        ));
        let denied = Reply {
            status: 403,
            body: r#"{"message":"Resource not accessible by integration"}"#.into(),
            next: None,
        };
        assert!(matches!(
            check_auth(&denied),
            Err(ForgeError::Unauthorized(_))
        ));
    }
}
