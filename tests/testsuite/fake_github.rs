//! A small stateful fake of the GitHub REST endpoints gitnomic uses, on
//! loopback. It keeps pull requests, issues, comments, reviews, labels,
//! statuses and file contents; merges for real (state changes, so a second
//! merge is refused); pages lists two items at a time with `Link` headers;
//! answers `If-None-Match` with 304; and can be told to fail a request
//! once (502, 403 rate limit, 405, 409, 401). Every request is logged so
//! tests can assert what was asked, not only what came out.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use serde_json::{Value, json};

pub(crate) const REPO: &str = "clockwork/game";
pub(crate) const BOT: &str = "github-actions[bot]";

/// A pull request or an issue.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub(crate) number: u64,
    pub(crate) title: String,
    pub(crate) user: String,
    pub(crate) created_at: String,
    pub(crate) labels: Vec<String>,
    /// `Some(head sha)` for a pull request.
    pub(crate) head: Option<String>,
    pub(crate) files: Vec<String>,
    pub(crate) state: &'static str,
    pub(crate) merge_commit: Option<String>,
    pub(crate) draft: bool,
}

/// One logged request.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) body: String,
    pub(crate) status: u16,
}

#[derive(Debug, Default)]
pub(crate) struct World {
    pub(crate) items: BTreeMap<u64, Item>,
    /// Comments: (number, id, user, created_at, body).
    pub(crate) comments: Vec<(u64, u64, String, String, String)>,
    /// Reviews: (number, id, user, submitted_at, body).
    pub(crate) reviews: Vec<(u64, u64, String, String, String)>,
    pub(crate) contents: BTreeMap<String, (String, String)>,
    pub(crate) statuses: Vec<(String, String)>,
    pub(crate) log: Vec<Request>,
    /// Fail the next request whose method and path start match: (method, path prefix, status, body).
    pub(crate) faults: Vec<(String, String, u16, String)>,
    /// When comments were last edited, by id.
    pub(crate) edited: BTreeMap<u64, String>,
    next_id: u64,
}

impl World {
    pub(crate) fn add_comment(&mut self, number: u64, user: &str, at: &str, body: &str) {
        self.next_id += 1;
        let id = 1000 + self.next_id;
        self.comments
            .push((number, id, user.into(), at.into(), body.into()));
    }

    /// Edits the first comment by `user` on `number`, at `at`.
    pub(crate) fn edit_comment(&mut self, number: u64, user: &str, at: &str, body: &str) {
        let c = self
            .comments
            .iter_mut()
            .find(|c| c.0 == number && c.2 == user)
            .unwrap();
        c.4 = body.into();
        let id = c.1;
        self.edited.insert(id, at.into());
    }

    pub(crate) fn fail_next(&mut self, method: &str, path: &str, status: u16, message: &str) {
        let body = json!({ "message": message }).to_string();
        self.faults
            .push((method.into(), format!("/repos/{REPO}{path}"), status, body));
    }

    pub(crate) fn merges(&self) -> Vec<&Request> {
        self.log
            .iter()
            .filter(|r| r.method == "PUT" && r.path.ends_with("/merge") && r.status == 200)
            .collect()
    }

    pub(crate) fn requests(&self, method: &str, prefix: &str) -> usize {
        let prefix = format!("/repos/{REPO}{prefix}");
        self.log
            .iter()
            .filter(|r| r.method == method && r.path.starts_with(&prefix))
            .count()
    }

    pub(crate) fn bot_comments(&self, number: u64) -> Vec<String> {
        self.comments
            .iter()
            .filter(|c| c.0 == number && c.2 == BOT)
            .map(|c| c.4.clone())
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
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let world = Arc::new(Mutex::new(World::default()));
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
        self.world.lock().unwrap()
    }
}

impl Drop for FakeGitHub {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.url.trim_start_matches("http://"));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(stream: TcpStream, world: &Mutex<World>, base: &str) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return;
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let mut length = 0;
    let mut if_none_match = None;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).unwrap();
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':').unwrap_or((header, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "if-none-match" => if_none_match = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let body = String::from_utf8_lossy(&body).into_owned();
    let mut w = world.lock().unwrap();
    let (status, reply, link) = respond(&mut w, &method, &target, &body, base);
    let etag = format!(
        "\"{:x}\"",
        reply.len() * 31 + reply.bytes().map(usize::from).sum::<usize>()
    );
    let (status, reply) =
        if method == "GET" && status == 200 && if_none_match.as_deref() == Some(etag.as_str()) {
            (304, String::new())
        } else {
            (status, reply)
        };
    w.log.push(Request {
        method,
        path: target,
        body,
        status,
    });
    drop(w);
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\nETag: {etag}\r\n",
        reply.len()
    );
    if let Some(link) = link {
        head.push_str(&format!("Link: <{link}>; rel=\"next\"\r\n"));
    }
    let mut stream = stream;
    let _ = stream.write_all(format!("{head}\r\n{reply}").as_bytes());
}

fn item_json(item: &Item, base: &str) -> Value {
    let labels: Vec<Value> = item.labels.iter().map(|l| json!({ "name": l })).collect();
    let mut v = json!({
        "number": item.number, "title": item.title, "body": "", "user": { "login": item.user },
        "created_at": item.created_at, "labels": labels, "state": item.state,
        "html_url": format!("{base}/{REPO}/pull/{}", item.number),
    });
    if let Some(head) = &item.head {
        v["head"] = json!({ "sha": head });
        v["draft"] = json!(item.draft);
        v["merged_at"] = if item.merge_commit.is_some() {
            json!("2030-01-01T00:00:00Z")
        } else {
            Value::Null
        };
        v["merge_commit_sha"] = json!(item.merge_commit);
        v["pull_request"] = json!({});
    }
    v
}

/// Two items a page, with a `Link` to the next.
fn page(list: &[Value], target: &str, base: &str) -> (u16, String, Option<String>) {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let n: usize = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("page=")?.parse().ok())
        .unwrap_or(1);
    let chunk: Vec<Value> = list.iter().skip((n - 1) * 2).take(2).cloned().collect();
    let next = (list.len() > n * 2).then(|| {
        let stem = target.split("&page=").next().unwrap_or(target);
        format!("{base}{stem}&page={}", n + 1)
    });
    (200, Value::Array(chunk).to_string(), next)
}

fn respond(
    w: &mut World,
    method: &str,
    target: &str,
    body: &str,
    base: &str,
) -> (u16, String, Option<String>) {
    if let Some(i) = w
        .faults
        .iter()
        .position(|(m, p, _, _)| m == method && target.starts_with(p.as_str()))
    {
        let (_, _, status, reply) = w.faults.remove(i);
        return (status, reply, None);
    }
    let Some(rest) = target.strip_prefix(&format!("/repos/{REPO}")) else {
        return (404, "{}".into(), None);
    };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let input: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let not_found = (404, json!({ "message": "Not Found" }).to_string(), None);
    match (method, segs.as_slice()) {
        ("GET", ["pulls"]) => {
            let list: Vec<Value> = w
                .items
                .values()
                .filter(|i| i.head.is_some() && i.state == "open")
                .map(|i| item_json(i, base))
                .collect();
            page(&list, target, base)
        }
        ("GET", ["issues"]) => {
            let state = if query.contains("state=closed") {
                "closed"
            } else {
                "open"
            };
            let label = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("labels="))
                .map(str::to_string);
            let list: Vec<Value> = w
                .items
                .values()
                .filter(|i| i.state == state && label.as_ref().is_none_or(|l| i.labels.contains(l)))
                .map(|i| item_json(i, base))
                .collect();
            page(&list, target, base)
        }
        ("GET", ["issues" | "pulls", n]) => match w.items.get(&n.parse().unwrap_or(0)) {
            Some(item) => (200, item_json(item, base).to_string(), None),
            None => not_found,
        },
        ("GET", ["issues", n, "comments"]) => {
            let n: u64 = n.parse().unwrap_or(0);
            let list: Vec<Value> = w
                .comments
                .iter()
                .filter(|c| c.0 == n)
                .map(|c| json!({ "id": c.1, "user": { "login": c.2 }, "created_at": c.3, "updated_at": w.edited.get(&c.1).unwrap_or(&c.3), "body": c.4 }))
                .collect();
            page(&list, target, base)
        }
        ("GET", ["pulls", n, "reviews"]) => {
            let n: u64 = n.parse().unwrap_or(0);
            let list: Vec<Value> = w
                .reviews
                .iter()
                .filter(|r| r.0 == n)
                .map(|r| json!({ "id": r.1, "user": { "login": r.2 }, "submitted_at": r.3, "body": r.4, "state": "COMMENTED" }))
                .collect();
            page(&list, target, base)
        }
        ("GET", ["pulls", n, "files"]) => match w.items.get(&n.parse().unwrap_or(0)) {
            Some(item) => page(
                &item
                    .files
                    .iter()
                    .map(|f| json!({ "filename": f }))
                    .collect::<Vec<_>>(),
                target,
                base,
            ),
            None => not_found,
        },
        ("POST", ["issues", n, "comments"]) => {
            let at = "2030-01-01T00:00:00Z";
            w.add_comment(
                n.parse().unwrap_or(0),
                BOT,
                at,
                input["body"].as_str().unwrap_or(""),
            );
            (201, "{}".into(), None)
        }
        ("PATCH", ["issues", "comments", id]) => {
            let id: u64 = id.parse().unwrap_or(0);
            match w.comments.iter_mut().find(|c| c.1 == id) {
                Some(c) => {
                    c.4 = input["body"].as_str().unwrap_or("").to_string();
                    (200, "{}".into(), None)
                }
                None => not_found,
            }
        }
        ("PATCH", ["issues", n]) => match w.items.get_mut(&n.parse().unwrap_or(0)) {
            Some(item) => {
                item.state = "closed";
                (200, "{}".into(), None)
            }
            None => not_found,
        },
        ("POST", ["issues", n, "labels"]) => match w.items.get_mut(&n.parse().unwrap_or(0)) {
            Some(item) => {
                for l in input["labels"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !item.labels.iter().any(|x| x == l) {
                        item.labels.push(l.to_string());
                    }
                }
                (200, "[]".into(), None)
            }
            None => not_found,
        },
        ("DELETE", ["issues", n, "labels", name]) => match w.items.get_mut(&n.parse().unwrap_or(0))
        {
            Some(item) if item.labels.iter().any(|l| l == name) => {
                item.labels.retain(|l| l != name);
                (200, "[]".into(), None)
            }
            _ => not_found,
        },
        ("POST", ["statuses", sha]) => {
            w.statuses.push((
                sha.to_string(),
                input["state"].as_str().unwrap_or("").to_string(),
            ));
            (201, "{}".into(), None)
        }
        ("PUT", ["pulls", n, "merge"]) => {
            let Some(item) = w.items.get_mut(&n.parse().unwrap_or(0)) else {
                return not_found;
            };
            if item.state != "open" {
                return (
                    405,
                    json!({ "message": "Pull Request is not mergeable" }).to_string(),
                    None,
                );
            }
            if input["sha"].as_str() != item.head.as_deref() {
                return (409, json!({ "message": "Head branch was modified. Review and try the merge again." }).to_string(), None);
            }
            let sha = format!("{:040x}", item.number * 7919);
            item.state = "closed";
            item.merge_commit = Some(sha.clone());
            (200, json!({ "sha": sha, "merged": true, "message": "Pull Request successfully merged" }).to_string(), None)
        }
        ("GET", ["contents", ..]) => {
            let path = segs[1..].join("/");
            match w.contents.get(&path) {
                Some((sha, content)) => (
                    200,
                    json!({ "sha": sha, "content": content, "encoding": "base64" }).to_string(),
                    None,
                ),
                None => not_found,
            }
        }
        ("PUT", ["contents", ..]) => {
            let path = segs[1..].join("/");
            let sha = format!("{:040x}", w.contents.len() + 1);
            let content = input["content"].as_str().unwrap_or("").to_string();
            w.contents.insert(path, (sha.clone(), content));
            (201, json!({ "commit": { "sha": sha } }).to_string(), None)
        }
        _ => not_found,
    }
}

/// Decodes standard base64 (what the contents API receives).
pub(crate) fn unbase64(text: &str) -> String {
    const TABLE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.bytes().filter(|c| *c != b'=') {
        let Some(v) = TABLE.iter().position(|t| *t == c) else {
            continue;
        };
        bits = (bits << 6) | u32::try_from(v).unwrap();
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push(u8::try_from((bits >> count) & 0xff).unwrap());
        }
    }
    String::from_utf8(out).unwrap()
}

/// Standard base64, as GitHub serves file contents.
pub(crate) fn base64(text: &str) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            out.push(if i <= chunk.len() {
                char::from(TABLE[((n >> (18 - 6 * i)) & 63) as usize])
            } else {
                '='
            });
        }
    }
    out
}
