//! The fake GitHub's world served as Forgejo serves it: under `/api/v1`,
//! in Forgejo's shapes, paged by `page`/`limit` with a server cap (two
//! items a page unless the test says otherwise, whatever `limit` asks),
//! `Link` and `X-Total-Count`, no rate-limit headers. Every request is
//! checked against Forgejo's description and every reply built from and
//! validated against it (`swagger`); what does not conform is recorded and
//! fails the test when the fake is dropped, as with the fake GitHub.
//!
//! Forgejo's ways the world is shown in: a deleted account is the user
//! `Ghost` (id -1); a review's states are `REQUEST_CHANGES` and `COMMENT`,
//! its dismissal a flag; every comment on a line of the diff belongs to a
//! review (a lone one to a review of its own, with an empty body); pushes
//! are `pull_push` entries of the timeline; a merge takes `Do` and
//! `head_commit_id` and answers with no body; an issue edited answers 201.

use std::io::Write;
use std::net::TcpStream;
use std::sync::MutexGuard;

use serde_json::{Value, json};

use crate::fake::github::{Answer, Comment, CommitStatus, Incoming, Item, REPO, When, World};
use crate::fake::routes::{error, ok, query_value};

/// Where Forgejo's web pages are (`html_url`).
const WEB: &str = "https://codeberg.org";

/// The server's cap on a page, unless the test sets `page_size`.
pub(crate) const CAP: usize = 2;

/// Ids of the review a lone line comment makes, apart from real ones.
const LONE_REVIEW: u64 = 900_000;

/// Answers one request (its target already under the base path).
pub(crate) fn serve(
    stream: TcpStream,
    mut w: MutexGuard<'_, World>,
    request: &Incoming,
    base: &str,
) {
    let spec = crate::fake::swagger::spec();
    let op = match spec.map(|s| s.check_request(&request.method, &request.target, &request.body)) {
        Some(Err(e)) => {
            w.violations.push(format!("request: {e}"));
            None
        }
        Some(Ok(op)) => Some(op),
        None => None,
    };
    crate::fake::github::land_concurrent_edit(&mut w, request);
    let fault = crate::fake::github::take_fault(&mut w, request);
    let answer = match &fault {
        Some(f) if matches!(f.when, When::Before | When::HangUpBefore) => None,
        _ => Some(respond(
            &mut w,
            &request.method,
            &request.target,
            &request.body,
            base,
        )),
    };
    let mut headers: Vec<(String, String)> = Vec::new();
    let (status, text) = match (fault, answer) {
        (Some(f), _) if matches!(f.when, When::HangUpBefore | When::HangUpAfter) => {
            w.log.push(crate::fake::github::log(request, 0));
            return;
        }
        (Some(f), _) => {
            headers = f.headers;
            (f.status, f.body)
        }
        (None, Some(a)) => {
            let fill = a.json.clone().unwrap_or(Value::Null);
            let built = match (spec, &op) {
                (Some(spec), Some(op)) => match spec.reply(op, a.status, &fill) {
                    Ok(v) => v,
                    Err(e) => {
                        w.violations.push(format!("reply: {e}"));
                        fill
                    }
                },
                _ => fill,
            };
            if let Some(next) = &a.next {
                headers.push(("Link".into(), format!("<{next}>; rel=\"next\"")));
            }
            if let Some(total) = a.total {
                let declared = match (spec, &op) {
                    (Some(spec), Some(op)) => spec.declares_header(op, a.status, "X-Total-Count"),
                    _ => true,
                };
                if declared {
                    headers.push(("X-Total-Count".into(), total.to_string()));
                } else {
                    w.violations.push(format!(
                        "reply: {} {} sends X-Total-Count, which Forgejo does not describe there",
                        request.method, request.target
                    ));
                }
            }
            let text = if built.is_null() {
                String::new()
            } else {
                built.to_string()
            };
            (a.status, text)
        }
        (None, None) => unreachable!(),
    };
    w.log.push(crate::fake::github::log(request, status));
    drop(w);
    let mut head = format!(
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        text.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let mut stream = stream;
    let _ = stream.write_all(format!("{head}\r\n{text}").as_bytes());
}

/// An account, or Forgejo's ghost for a deleted one.
fn user(login: Option<&str>) -> Value {
    match login {
        Some(login) => json!({ "login": login, "id": 100 + login.len() }),
        None => json!({ "login": "Ghost", "id": -1 }),
    }
}

fn updated(item: &Item) -> &str {
    item.updated_at.as_deref().unwrap_or(&item.created_at)
}

/// A label's id in the repository: the same for its name wherever shown.
fn label_id(name: &str) -> u64 {
    name.bytes()
        .fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)))
        % 1_000_000
}

fn labels(item: &Item) -> Value {
    item.labels
        .iter()
        .map(|l| json!({ "id": label_id(l), "name": l, "color": "ededed" }))
        .collect()
}

fn pull_json(item: &Item) -> Value {
    let merged = item.merge_commit.is_some();
    let mut v = json!({
        "number": item.number, "title": item.title, "body": "",
        "user": user(item.user.as_deref()), "created_at": item.created_at, "updated_at": updated(item),
        "labels": labels(item), "state": item.state, "draft": item.draft,
        "html_url": format!("{WEB}/{REPO}/pulls/{}", item.number),
        "head": { "sha": item.head, "ref": format!("branch-{}", item.number), "label": format!("branch-{}", item.number) },
        "base": { "sha": "0".repeat(40), "ref": item.base, "label": item.base },
        "merged": merged,
    });
    if let Some(sha) = &item.merge_commit {
        v["merged_at"] = json!("2030-01-01T00:00:00Z");
        v["merge_commit_sha"] = json!(sha);
    }
    v
}

fn issue_json(item: &Item) -> Value {
    let kind = if item.head.is_some() {
        "pulls"
    } else {
        "issues"
    };
    let mut v = json!({
        "number": item.number, "title": item.title, "body": "",
        "user": user(item.user.as_deref()), "created_at": item.created_at, "updated_at": updated(item),
        "labels": labels(item), "state": item.state,
        "html_url": format!("{WEB}/{REPO}/{kind}/{}", item.number),
    });
    if item.head.is_some() {
        v["pull_request"] = json!({
            "merged": item.merge_commit.is_some(), "draft": item.draft,
            "html_url": format!("{WEB}/{REPO}/pulls/{}", item.number),
        });
    }
    v
}

fn comment_json(c: &Comment) -> Value {
    json!({
        "id": c.id, "user": user(c.user.as_deref()), "created_at": c.created_at,
        "updated_at": c.edited_at.as_deref().unwrap_or(&c.created_at), "body": c.body,
        "html_url": format!("{WEB}/{REPO}/issues/{}#issuecomment-{}", c.number, c.id),
    })
}

/// The reviews of pull request `number` as Forgejo lists them: the real
/// ones, then one for each lone line comment.
fn reviews(w: &World, number: u64) -> Vec<Value> {
    let mut out: Vec<Value> = w
        .reviews
        .iter()
        .filter(|r| r.number == number)
        .map(|r| {
            let (state, dismissed) = match r.state {
                "CHANGES_REQUESTED" => ("REQUEST_CHANGES", false),
                "COMMENTED" => ("COMMENT", false),
                // Forgejo keeps the state a dismissed review had.
                "DISMISSED" => ("APPROVED", true),
                other => (other, false),
            };
            let lines = w
                .line_comments
                .iter()
                .filter(|c| c.review == Some(r.id))
                .count();
            let mut v = json!({
                "id": r.id, "user": user(r.user.as_deref()), "body": r.body, "state": state,
                "dismissed": dismissed, "stale": false, "official": false,
                "comments_count": lines, "commit_id": "0".repeat(40),
                "html_url": format!("{WEB}/{REPO}/pulls/{}#issuecomment-{}", r.number, r.id),
            });
            if r.state != "PENDING" {
                v["submitted_at"] = json!(r.created_at);
                v["updated_at"] = json!(r.created_at);
            }
            v
        })
        .collect();
    for c in w
        .line_comments
        .iter()
        .filter(|c| c.number == number && c.review.is_none())
    {
        out.push(json!({
            "id": LONE_REVIEW + c.id, "user": user(c.user.as_deref()), "body": "", "state": "COMMENT",
            "dismissed": false, "stale": false, "official": false, "comments_count": 1,
            "commit_id": "0".repeat(40), "submitted_at": c.created_at, "updated_at": c.created_at,
            "html_url": format!("{WEB}/{REPO}/pulls/{}#issuecomment-{}", c.number, LONE_REVIEW + c.id),
        }));
    }
    out
}

fn line_comment_json(c: &Comment, review: u64) -> Value {
    json!({
        "id": c.id, "user": user(c.user.as_deref()), "created_at": c.created_at,
        "updated_at": c.edited_at.as_deref().unwrap_or(&c.created_at), "body": c.body,
        "html_url": format!("{WEB}/{REPO}/pulls/{}/files#issuecomment-{}", c.number, c.id),
        "pull_request_review_id": review, "path": "state/variables.toml",
        "commit_id": "0".repeat(40), "original_commit_id": "0".repeat(40),
    })
}

/// The timeline of `number`: its comments, its pushes and its events, by time.
fn timeline(w: &World, number: u64) -> Vec<Value> {
    let mut entries: Vec<(String, u64, Value)> = Vec::new();
    for c in w.comments.iter().filter(|c| c.number == number) {
        let mut v = comment_json(c);
        v["type"] = json!("comment");
        entries.push((c.created_at.clone(), c.id, v));
    }
    for p in w.pushes.iter().filter(|p| p.number == number) {
        let body = json!({ "is_force_push": p.force, "commit_ids": p.commit_ids }).to_string();
        let v = json!({
            "id": p.id, "type": "pull_push", "body": body, "user": user(Some("pusher")),
            "created_at": p.at, "updated_at": p.at,
        });
        entries.push((p.at.clone(), p.id, v));
    }
    for e in w.events.iter().filter(|e| e.number == number) {
        let mut v = json!({
            "id": e.id, "user": user(Some(&e.actor)), "created_at": e.at, "updated_at": e.at,
        });
        match (e.event, &e.label, &e.rename) {
            ("labeled", Some(l), _) => {
                v["type"] = json!("label");
                v["body"] = json!("1");
                v["label"] = json!({ "name": l, "color": "1d76db" });
            }
            ("renamed", _, Some((from, to))) => {
                v["type"] = json!("change_title");
                v["old_title"] = json!(from);
                v["new_title"] = json!(to);
            }
            ("ready_for_review", ..) => {
                let title = &w.items[&number].title;
                v["type"] = json!("change_title");
                v["old_title"] = json!(format!("WIP: {title}"));
                v["new_title"] = json!(title);
            }
            _ => continue,
        }
        entries.push((e.at.clone(), e.id, v));
    }
    entries.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    entries.into_iter().map(|(_, _, v)| v).collect()
}

/// A page of `list` as Forgejo serves it: `limit` items (the server's cap
/// at most), page `page`, with a `Link` to the next and the total.
fn page(w: &World, list: &[Value], target: &str, base: &str) -> Answer {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let cap = w.page_size.unwrap_or(CAP);
    let size = query_value(query, "limit")
        .and_then(|p| p.parse().ok())
        .filter(|l: &usize| *l > 0)
        .unwrap_or(cap)
        .min(cap);
    let n: usize = query_value(query, "page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1)
        .max(1);
    let chunk: Vec<Value> = list
        .iter()
        .skip((n - 1) * size)
        .take(size)
        .cloned()
        .collect();
    let next = (list.len() > n * size).then(|| {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let kept: Vec<&str> = query
            .split('&')
            .filter(|kv| !kv.is_empty() && !kv.starts_with("page="))
            .collect();
        let mut query = kept.join("&");
        if !query.is_empty() {
            query.push('&');
        }
        format!(
            "{base}{}{path}?{query}page={}",
            crate::fake::swagger::BASE_PATH,
            n + 1
        )
    });
    Answer {
        status: 200,
        json: Some(Value::Array(chunk)),
        next,
        total: Some(list.len()),
    }
}

/// Forgejo's error body.
fn refuse(status: u16, message: &str) -> Answer {
    ok(
        status,
        json!({ "message": message, "url": "https://codeberg.org/api/swagger" }),
    )
}

/// A reply with no body (Forgejo's `empty` responses).
fn empty(status: u16) -> Answer {
    Answer {
        status,
        json: None,
        next: None,
        total: None,
    }
}

/// Does what the request asks to the world and says what to answer.
pub(crate) fn respond(w: &mut World, method: &str, target: &str, body: &str, base: &str) -> Answer {
    if let Some(answer) = settings(w, method, target, body, base) {
        return answer;
    }
    let Some(rest) = target.strip_prefix(&format!("/repos/{REPO}")) else {
        return refuse(404, "Not Found");
    };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let input: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let number = |s: &str| s.parse::<u64>().unwrap_or(0);
    match (method, segs.as_slice()) {
        ("GET", ["pulls"]) => {
            let state = query_value(query, "state").unwrap_or("open");
            let list: Vec<Value> = w
                .items
                .values()
                .filter(|i| i.head.is_some() && (state == "all" || i.state == state))
                .map(pull_json)
                .collect();
            page(w, &list, target, base)
        }
        ("GET", ["issues"]) => {
            let state = query_value(query, "state").unwrap_or("open");
            let wanted: Vec<String> = query_value(query, "labels")
                .map(|l| l.split("%2C").map(|s| s.replace("%20", " ")).collect())
                .unwrap_or_default();
            let mut items: Vec<&Item> = w
                .items
                .values()
                .filter(|i| state == "all" || i.state == state)
                .filter(|i| wanted.is_empty() || wanted.iter().any(|l| i.labels.contains(l)))
                .collect();
            if query_value(query, "sort") == Some("recentupdate") {
                items.sort_by(|a, b| updated(b).cmp(updated(a)));
            }
            let list: Vec<Value> = items.into_iter().map(issue_json).collect();
            page(w, &list, target, base)
        }
        ("GET", ["issues", n]) => match w.items.get(&number(n)) {
            Some(item) => ok(200, issue_json(item)),
            None => refuse(404, "issue does not exist"),
        },
        ("GET", ["pulls", n]) => match w.items.get(&number(n)).filter(|i| i.head.is_some()) {
            Some(item) => ok(200, pull_json(item)),
            None => refuse(404, "pull request does not exist"),
        },
        // Not paged: every comment in one reply, those last updated within
        // `since` and `before` (RFC 3339, both ends included) if given.
        ("GET", ["issues", n, "comments"]) => {
            let bound = |name: &str| query_value(query, name).map(|v| v.replace("%3A", ":"));
            let (since, before) = (bound("since"), bound("before"));
            let list: Vec<Value> = w
                .comments
                .iter()
                .filter(|c| c.number == number(n))
                .filter(|c| {
                    let updated = c.edited_at.as_deref().unwrap_or(&c.created_at);
                    since.as_deref().is_none_or(|s| updated >= s)
                        && before.as_deref().is_none_or(|b| updated <= b)
                })
                .map(comment_json)
                .collect();
            ok(200, Value::Array(list))
        }
        ("GET", ["issues", "comments", id]) => match w.comments.iter().find(|c| c.id == number(id))
        {
            Some(c) => ok(200, comment_json(c)),
            None => refuse(404, "comment does not exist"),
        },
        ("GET", ["issues", n, "timeline"]) => {
            let list = timeline(w, number(n));
            page(w, &list, target, base)
        }
        ("GET", ["pulls", n, "reviews"]) => {
            let list = reviews(w, number(n));
            page(w, &list, target, base)
        }
        ("GET", ["pulls", n, "reviews", id, "comments"]) => {
            let id = number(id);
            let list: Vec<Value> = w
                .line_comments
                .iter()
                .filter(|c| c.number == number(n))
                .filter(|c| {
                    c.review == Some(id) || (c.review.is_none() && LONE_REVIEW + c.id == id)
                })
                .map(|c| line_comment_json(c, id))
                .collect();
            ok(200, Value::Array(list))
        }
        ("GET", ["pulls", n, "files"]) => match w.items.get(&number(n)) {
            Some(item) => {
                let files: Vec<Value> = item
                    .files
                    .iter()
                    .map(|f| json!({ "filename": f, "status": "changed" }))
                    .collect();
                page(w, &files, target, base)
            }
            None => refuse(404, "pull request does not exist"),
        },
        ("POST", ["issues", n, "comments"]) => {
            if !w.items.contains_key(&number(n)) {
                return refuse(404, "issue does not exist");
            }
            ok(
                201,
                comment_json(w.post_as_bot(number(n), input["body"].as_str().unwrap_or(""))),
            )
        }
        ("PATCH", ["issues", "comments", id]) => {
            match w.edit_at_clock(number(id), input["body"].as_str().unwrap_or("")) {
                Some(c) => ok(200, comment_json(&c)),
                None => refuse(404, "comment does not exist"),
            }
        }
        ("PATCH", ["issues", n]) => match w.items.get_mut(&number(n)) {
            Some(item) => {
                if input["state"] == "closed" {
                    item.state = "closed";
                }
                let item = item.clone();
                ok(201, issue_json(&item))
            }
            None => refuse(404, "issue does not exist"),
        },
        ("POST", ["issues", n, "labels"]) => {
            let names = input["labels"].as_array().into_iter().flatten();
            match w.add_labels(number(n), names.filter_map(Value::as_str)) {
                Some(item) => ok(200, labels(item)),
                None => refuse(404, "issue does not exist"),
            }
        }
        ("DELETE", ["issues", n, "labels", name]) => {
            let name = percent_encoding::percent_decode_str(name)
                .decode_utf8_lossy()
                .into_owned();
            // By name or by id, as Forgejo takes either.
            let name = match name.parse::<u64>() {
                Ok(id) => w
                    .items
                    .get(&number(n))
                    .and_then(|i| i.labels.iter().find(|l| label_id(l) == id).cloned())
                    .unwrap_or(name),
                Err(_) => name,
            };
            match w.items.get_mut(&number(n)) {
                Some(item) if item.labels.contains(&name) => {
                    item.labels.retain(|l| *l != name);
                    empty(204)
                }
                _ => refuse(404, "label does not exist"),
            }
        }
        ("POST", ["statuses", sha]) => {
            let text = |field: &str| input[field].as_str().unwrap_or("").to_string();
            let status = CommitStatus {
                sha: (*sha).to_string(),
                state: text("state"),
                description: text("description"),
                context: text("context"),
            };
            let reply = json!({
                "status": status.state, "context": status.context, "description": status.description,
            });
            w.statuses.push(status);
            ok(201, reply)
        }
        ("GET", ["commits", sha, "status"]) => {
            let mut latest: Vec<&CommitStatus> = Vec::new();
            for s in w.statuses.iter().rev().filter(|s| s.sha == *sha) {
                if !latest.iter().any(|l| l.context == s.context) {
                    latest.push(s);
                }
            }
            let statuses: Vec<Value> = latest
                .iter()
                .map(|s| json!({ "status": s.state, "description": s.description, "context": s.context }))
                .collect();
            let state = if latest.iter().any(|s| s.state == "failure") {
                "failure"
            } else if latest.is_empty() {
                "pending"
            } else {
                "success"
            };
            ok(
                200,
                json!({ "state": state, "sha": sha, "total_count": statuses.len(), "statuses": statuses }),
            )
        }
        ("POST", ["pulls", n, "merge"]) => merge(w, number(n), &input),
        ("GET", ["contents", ..]) => match w.contents.get(&segs[1..].join("/")) {
            Some((sha, content)) => {
                let name = segs.last().unwrap_or(&"");
                ok(
                    200,
                    json!({ "type": "file", "sha": sha, "content": content, "encoding": "base64", "name": name, "path": segs[1..].join("/"), "size": content.len() }),
                )
            }
            None => refuse(404, "file does not exist"),
        },
        ("POST" | "PUT", ["contents", ..]) => put_contents(w, method, &segs[1..].join("/"), &input),
        ("GET", ["commits"]) => {
            let path = query_value(query, "path").unwrap_or("").replace("%2F", "/");
            let list: Vec<Value> = w
                .commits
                .iter()
                .rev()
                .filter(|(p, _)| *p == path)
                .map(|(_, sha)| json!({ "sha": sha }))
                .collect();
            page(w, &list, target, base)
        }
        ("GET", ["git", "trees", sha]) => match crate::fake::git::tree(w.objects.as_deref(), sha) {
            Some(tree) => {
                let all = tree["tree"].as_array().cloned().unwrap_or_default();
                let per = query_value(query, "per_page")
                    .and_then(|p| p.parse().ok())
                    .unwrap_or(1000usize)
                    .clamp(1, 1000);
                let n: usize = query_value(query, "page")
                    .and_then(|p| p.parse().ok())
                    .unwrap_or(1)
                    .max(1);
                let chunk: Vec<Value> = all.iter().skip((n - 1) * per).take(per).cloned().collect();
                ok(
                    200,
                    json!({ "sha": sha, "tree": chunk, "truncated": all.len() > n * per, "page": n, "total_count": all.len() }),
                )
            }
            None => refuse(404, "sha not found"),
        },
        ("GET", ["git", "blobs", sha]) => crate::fake::git::blob(w.objects.as_deref(), sha)
            .map_or_else(|| refuse(404, "sha not found"), |b| ok(200, b)),
        _ => error(404, "Not Found"),
    }
}

/// Merges at the head named, or refuses as Forgejo does: a closed pull
/// request is not found, a moved head is a conflict ("head out of date").
fn merge(w: &mut World, number: u64, input: &Value) -> Answer {
    if w.items.contains_key(&number) {
        w.land_push_at_merge(number);
    }
    let Some(item) = w.items.get(&number) else {
        return refuse(404, "pull request does not exist");
    };
    if item.state != "open" {
        return refuse(404, "pull request is closed");
    }
    if w.refuse_merges.is_some() {
        return empty(405);
    }
    if input["Do"] != "merge" {
        return empty(405);
    }
    let head = item.head.clone().unwrap_or_default();
    if let Some(named) = input["head_commit_id"].as_str() {
        if named != head {
            return refuse(409, "head out of date");
        }
    }
    let sha = match &w.main {
        Some(repo) => match crate::fake::git::merge(repo, &head) {
            Ok(sha) => sha,
            Err(_) => return refuse(409, "Merge Conflicts"),
        },
        None => format!("{:040x}", number * 7919),
    };
    let item = w.items.get_mut(&number).expect("looked up above");
    item.state = "closed";
    item.merge_commit = Some(sha);
    empty(200)
}

/// Creates (POST) or updates (PUT, naming the blob it replaces) a file.
fn put_contents(w: &mut World, method: &str, path: &str, input: &Value) -> Answer {
    let existing = w.contents.get(path).map(|(sha, _)| sha.clone());
    match (method, &existing, input["sha"].as_str()) {
        ("POST", Some(_), _) => return refuse(422, "repository file already exists"),
        ("PUT", None, _) => return refuse(404, "file does not exist"),
        ("PUT", Some(old), Some(given)) if old != given => {
            return refuse(422, "sha does not match");
        }
        _ => {}
    }
    let sha = format!("{:040x}", w.log.len() + 1);
    let content = input["content"].as_str().unwrap_or("").to_string();
    w.contents
        .insert(path.to_string(), (sha.clone(), content.clone()));
    let commit = match &w.main {
        Some(repo) => {
            let message = input["message"].as_str().unwrap_or("Update a file");
            crate::fake::git::commit_file(
                repo,
                path,
                &crate::fake::github::unbase64(&content),
                message,
            )
        }
        None => format!("{:040x}", 0xc0_0000 + w.log.len()),
    };
    w.commits.push((path.to_string(), commit.clone()));
    let status = if existing.is_some() { 200 } else { 201 };
    ok(
        status,
        json!({ "content": { "path": path, "sha": sha }, "commit": { "sha": commit } }),
    )
}

/// What `doctor --forge forgejo` reads and writes: the repository (its
/// units, merge styles and the token's permissions), its labels, the
/// `pages` branch (there when the settings name a Pages site), accounts.
fn settings(w: &mut World, method: &str, target: &str, body: &str, base: &str) -> Option<Answer> {
    if let Some(login) = target.strip_prefix("/users/") {
        return Some(if w.settings.accounts.contains_key(login) {
            ok(200, user(Some(login)))
        } else {
            refuse(404, "user does not exist")
        });
    }
    let rest = target.strip_prefix(&format!("/repos/{REPO}"))?;
    let path = rest.split_once('?').map_or(rest, |(p, _)| p);
    let s = &w.settings;
    Some(match (method, path) {
        ("GET", "") => {
            let mut repo = json!({
                "name": "game", "full_name": REPO, "has_issues": s.has_issues,
                "has_pull_requests": true, "has_actions": s.actions_enabled,
                "default_branch": s.default_branch, "private": s.private,
                "permissions": { "admin": true, "push": true, "pull": true },
            });
            if let Some(allowed) = s.allow_merge_commit {
                repo["allow_merge_commits"] = json!(allowed);
            }
            ok(200, repo)
        }
        ("GET", "/labels") => {
            let list: Vec<Value> = s
                .labels
                .iter()
                .enumerate()
                .map(|(i, (name, (color, description)))| {
                    json!({ "id": i + 1, "name": name, "color": color, "description": description })
                })
                .collect();
            page(w, &list, target, base)
        }
        ("POST", "/labels") => {
            let input: Value = serde_json::from_str(body).unwrap_or(Value::Null);
            let name = input["name"].as_str().unwrap_or("").to_string();
            if s.labels.contains_key(&name) {
                return Some(refuse(422, "label already exists"));
            }
            let color = input["color"].as_str().unwrap_or("#ededed").to_string();
            let description = input["description"].as_str().unwrap_or("").to_string();
            let id = s.labels.len() + 1;
            w.settings
                .labels
                .insert(name.clone(), (color.clone(), description.clone()));
            ok(
                201,
                json!({ "id": id, "name": name, "color": color, "description": description }),
            )
        }
        ("GET", "/branches/pages") => match s.pages {
            Some(_) => ok(
                200,
                json!({ "name": "pages", "commit": { "id": "0".repeat(40) } }),
            ),
            None => refuse(404, "branch does not exist"),
        },
        _ => return None,
    })
}
