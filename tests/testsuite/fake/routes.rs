//! The fake GitHub's endpoints: what each one does to the world and the
//! fields it fills in. The rest of every reply (the many required fields
//! gitnomic never reads) comes from GitHub's description, in `fake::github`.

use serde_json::{Value, json};

use crate::fake::github::{Answer, Comment, CommitStatus, Item, MAX_STATUSES, REPO, World};

/// Where GitHub's web pages are (`html_url`): not the API's address, so
/// links written into records are the same whichever port the fake has.
const WEB: &str = "https://github.com";

/// Lists are served this many items a page unless the test says otherwise,
/// so paging is exercised everywhere.
pub(crate) const PAGE: usize = 2;

pub(crate) fn user(login: Option<&str>) -> Value {
    match login {
        Some(login) => {
            json!({ "login": login, "type": if login.ends_with("[bot]") { "Bot" } else { "User" } })
        }
        None => Value::Null,
    }
}

fn updated(item: &Item) -> &str {
    item.updated_at.as_deref().unwrap_or(&item.created_at)
}

fn labels(item: &Item, as_strings: bool) -> Value {
    item.labels
        .iter()
        .map(|l| {
            if as_strings {
                json!(l)
            } else {
                json!({ "name": l, "color": "ededed", "default": false })
            }
        })
        .collect()
}

fn pull_json(item: &Item) -> Value {
    let merged = item.merge_commit.is_some();
    json!({
        "number": item.number, "title": item.title, "body": Value::Null,
        "user": user(item.user.as_deref()), "created_at": item.created_at, "updated_at": updated(item),
        "labels": labels(item, false), "state": item.state, "draft": item.draft,
        "html_url": format!("{WEB}/{REPO}/pull/{}", item.number),
        "head": { "sha": item.head, "ref": format!("branch-{}", item.number), "label": format!("player:branch-{}", item.number) },
        "base": { "sha": "0".repeat(40), "ref": item.base, "label": format!("clockwork:{}", item.base) },
        "merged": merged,
        "merged_at": if merged { json!("2030-01-01T00:00:00Z") } else { Value::Null },
        "merge_commit_sha": item.merge_commit,
        "changed_files": item.files.len(),
    })
}

fn issue_json(item: &Item, base: &str, as_strings: bool) -> Value {
    let kind = if item.head.is_some() {
        "pull"
    } else {
        "issues"
    };
    let mut v = json!({
        "number": item.number, "title": item.title, "body": Value::Null,
        "user": user(item.user.as_deref()), "created_at": item.created_at, "updated_at": updated(item),
        "labels": labels(item, as_strings), "state": item.state,
        "html_url": format!("{WEB}/{REPO}/{kind}/{}", item.number),
    });
    if item.head.is_some() {
        // As GitHub's issues list says whether a pull request was merged.
        let merged_at = item.merge_commit.as_ref().map(|_| "2030-01-01T00:00:00Z");
        v["pull_request"] = json!({ "url": format!("{base}/repos/{REPO}/pulls/{}", item.number), "merged_at": merged_at });
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

fn line_comment_json(c: &Comment) -> Value {
    json!({
        "id": c.id, "user": user(c.user.as_deref()), "created_at": c.created_at,
        "updated_at": c.edited_at.as_deref().unwrap_or(&c.created_at), "body": c.body,
        "html_url": format!("{WEB}/{REPO}/pull/{}#discussion_r{}", c.number, c.id),
        "pull_request_review_id": c.review, "path": "state/variables.toml",
        "commit_id": "0".repeat(40), "original_commit_id": "0".repeat(40),
    })
}

fn review_json(r: &Comment) -> Value {
    let mut v = json!({
        "id": r.id, "user": user(r.user.as_deref()), "body": r.body, "state": r.state,
        "html_url": format!("{WEB}/{REPO}/pull/{}#pullrequestreview-{}", r.number, r.id),
        "commit_id": "0".repeat(40),
    });
    if r.state != "PENDING" {
        v["submitted_at"] = json!(r.created_at);
    }
    v
}

/// An issue event as `GET /issues/N/events` lists it.
fn event_json(e: &crate::fake::github::Event) -> Value {
    let mut v = json!({
        "id": e.id, "node_id": format!("E_{}", e.id),
        "url": format!("https://api.github.com/repos/{REPO}/issues/events/{}", e.id),
        "actor": user(Some(&e.actor)), "event": e.event,
        "commit_id": Value::Null, "commit_url": Value::Null,
        "created_at": e.at, "performed_via_github_app": Value::Null,
    });
    if let Some(label) = &e.label {
        v["label"] = json!({ "name": label, "color": "1d76db" });
    }
    if let Some((from, to)) = &e.rename {
        v["rename"] = json!({ "from": from, "to": to });
    }
    v
}

/// GitHub refuses comment bodies of 65,536 characters or more.
fn too_long(input: &Value) -> bool {
    input["body"]
        .as_str()
        .is_some_and(|b| b.chars().count() >= 65_536)
}

pub(crate) fn query_value<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
}

/// A page of `list`, with a `Link` to the next: `size` items, or fewer if
/// `per_page` asks for fewer.
pub(crate) fn page(list: &[Value], target: &str, base: &str, size: usize) -> Answer {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let per_page = query_value(query, "per_page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(30);
    let size = size.min(per_page);
    let n: usize = query_value(query, "page")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1);
    let chunk: Vec<Value> = list
        .iter()
        .skip((n - 1) * size)
        .take(size)
        .cloned()
        .collect();
    let next = (list.len() > n * size).then(|| {
        let stem = target.split("&page=").next().unwrap_or(target);
        format!("{base}{stem}&page={}", n + 1)
    });
    Answer {
        status: 200,
        json: Some(Value::Array(chunk)),
        next,
        total: Some(list.len()),
    }
}

pub(crate) fn ok(status: u16, json: Value) -> Answer {
    Answer {
        status,
        json: Some(json),
        next: None,
        total: None,
    }
}

pub(crate) fn error(status: u16, message: &str) -> Answer {
    ok(
        status,
        json!({ "message": message, "documentation_url": "https://docs.github.com/rest" }),
    )
}

/// Does what the request asks to the world and says what to answer.
pub(crate) fn respond(w: &mut World, method: &str, target: &str, body: &str, base: &str) -> Answer {
    if let Some(answer) = crate::fake::settings::respond(w, method, target, body, base) {
        return answer;
    }
    let Some(rest) = target.strip_prefix(&format!("/repos/{REPO}")) else {
        return error(404, "Not Found");
    };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let input: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let number = |s: &str| s.parse::<u64>().unwrap_or(0);
    match (method, segs.as_slice()) {
        ("GET", ["pulls"]) => {
            let list: Vec<Value> = w
                .items
                .values()
                .filter(|i| i.head.is_some() && i.state == "open")
                .map(pull_json)
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("GET", ["issues"]) => {
            let state = query_value(query, "state").unwrap_or("open");
            let wanted: Vec<String> = query_value(query, "labels")
                .map(|l| l.split("%2C").map(|s| s.replace("%20", " ")).collect())
                .unwrap_or_default();
            let list: Vec<Value> = w
                .items
                .values()
                .filter(|i| i.state == state && wanted.iter().all(|l| i.labels.contains(l)))
                .map(|i| issue_json(i, base, w.labels_as_strings))
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("GET", ["issues", n]) => match w.items.get(&number(n)) {
            Some(item) => ok(200, issue_json(item, base, w.labels_as_strings)),
            None => error(404, "Not Found"),
        },
        ("GET", ["pulls", n]) => match w.items.get(&number(n)).filter(|i| i.head.is_some()) {
            Some(item) => ok(200, pull_json(item)),
            None => error(404, "Not Found"),
        },
        ("GET", ["issues", n, "comments"]) => {
            let list: Vec<Value> = w
                .comments
                .iter()
                .filter(|c| c.number == number(n))
                .map(comment_json)
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("GET", ["issues", "comments", id]) => match w.comments.iter().find(|c| c.id == number(id))
        {
            Some(c) => ok(200, comment_json(c)),
            None => error(404, "Not Found"),
        },
        ("GET", ["issues", n, "events"]) => {
            let list: Vec<Value> = w
                .events
                .iter()
                .filter(|e| e.number == number(n))
                .map(event_json)
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("GET", ["pulls", n, "reviews"]) => {
            let list: Vec<Value> = w
                .reviews
                .iter()
                .filter(|r| r.number == number(n))
                .map(review_json)
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("GET", ["pulls", n, "comments"]) => {
            let list: Vec<Value> = w
                .line_comments
                .iter()
                .filter(|c| c.number == number(n))
                .map(line_comment_json)
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("GET", ["pulls", n, "files"]) => match w.items.get(&number(n)) {
            // GitHub lists at most 3,000 files of a pull request.
            Some(item) => {
                let files: Vec<Value> = item
                    .files
                    .iter()
                    .take(3000)
                    .map(|f| json!({ "filename": f, "status": "modified" }))
                    .collect();
                page(&files, target, base, 100)
            }
            None => error(404, "Not Found"),
        },
        ("POST" | "PATCH", ["issues", ..]) if too_long(&input) => error(
            422,
            "Validation Failed: body is too long (maximum is 65536 characters)",
        ),
        ("POST", ["issues", n, "comments"]) => ok(
            201,
            comment_json(w.post_as_bot(number(n), input["body"].as_str().unwrap_or(""))),
        ),
        ("PATCH", ["issues", "comments", id]) => {
            match w.edit_at_clock(number(id), input["body"].as_str().unwrap_or("")) {
                Some(c) => ok(200, comment_json(&c)),
                None => error(404, "Not Found"),
            }
        }
        ("PATCH", ["issues", n]) => match w.items.get_mut(&number(n)) {
            Some(item) => {
                if input["state"] == "closed" {
                    item.state = "closed";
                }
                let item = item.clone();
                ok(200, issue_json(&item, base, false))
            }
            None => error(404, "Not Found"),
        },
        ("POST", ["issues", n, "labels"]) => {
            let names = input["labels"].as_array().into_iter().flatten();
            match w.add_labels(number(n), names.filter_map(Value::as_str)) {
                Some(item) => ok(200, labels(item, false)),
                None => error(404, "Not Found"),
            }
        }
        ("DELETE", ["issues", n, "labels", name]) => {
            let name = name.replace("%20", " ");
            match w.items.get_mut(&number(n)) {
                Some(item) if item.labels.contains(&name) => {
                    item.labels.retain(|l| *l != name);
                    ok(200, labels(item, false))
                }
                _ => error(404, "Label does not exist"),
            }
        }
        ("POST", ["statuses", sha]) => set_status(w, sha, &input),
        ("GET", ["commits", sha, "status"]) => combined_status(w, sha),
        ("PUT", ["pulls", n, "merge"]) => merge(w, number(n), &input),
        ("GET", ["contents", ..]) => match w.contents.get(&segs[1..].join("/")) {
            Some((sha, content)) => {
                let name = segs.last().unwrap_or(&"");
                ok(
                    200,
                    json!({ "type": "file", "sha": sha, "content": crate::fake::github::served(content), "encoding": "base64", "name": name, "path": segs[1..].join("/"), "size": content.len() }),
                )
            }
            None => error(404, "Not Found"),
        },
        ("GET", ["commits"]) => {
            let path = query_value(query, "path").unwrap_or("").replace("%2F", "/");
            let list: Vec<Value> = w
                .commits
                .iter()
                .rev()
                .filter(|(p, _)| *p == path)
                .map(|(_, sha)| json!({ "sha": sha }))
                .collect();
            page(&list, target, base, 1)
        }
        ("PUT", ["contents", ..]) => put_contents(w, &segs[1..].join("/"), &input),
        ("GET", ["git", "trees", sha]) => crate::fake::git::tree(w.objects.as_deref(), sha)
            .map_or_else(|| error(404, "Not Found"), |t| ok(200, t)),
        ("GET", ["git", "blobs", sha]) => crate::fake::git::blob(w.objects.as_deref(), sha)
            .map_or_else(|| error(404, "Not Found"), |b| ok(200, b)),
        ("GET", ["git", "ref", name @ ..]) => match w.refs.get(&format!("refs/{}", name.join("/")))
        {
            Some(sha) => ok(200, ref_json(&format!("refs/{}", name.join("/")), sha)),
            None => error(404, "Not Found"),
        },
        ("POST", ["git", "refs"]) => create_ref(w, &input),
        _ => error(404, "Not Found"),
    }
}

/// A new commit status on `sha`, or GitHub's validation error once the
/// commit holds [`MAX_STATUSES`] of that context.
fn set_status(w: &mut World, sha: &str, input: &Value) -> Answer {
    let text = |field: &str| input[field].as_str().unwrap_or("").to_string();
    let status = CommitStatus {
        sha: sha.to_string(),
        state: text("state"),
        description: text("description"),
        // GitHub's default context.
        context: input["context"].as_str().unwrap_or("default").to_string(),
    };
    let held = w
        .statuses
        .iter()
        .filter(|s| s.sha == status.sha && s.context == status.context)
        .count();
    if held >= MAX_STATUSES {
        return ok(
            422,
            json!({
                "message": "Validation Failed",
                "errors": [{
                    "resource": "Status",
                    "code": "custom",
                    "message": "This SHA and context has reached the maximum number of statuses."
                }],
                "documentation_url": "https://docs.github.com/rest/commits/statuses#create-a-commit-status"
            }),
        );
    }
    let reply = json!({
        "state": status.state,
        "context": status.context,
        "description": status.description,
    });
    w.statuses.push(status);
    ok(201, reply)
}

/// The combined status of `sha`: the latest status of each context, and
/// their state together (failure over pending over success; pending when
/// there is none), as GitHub sums them.
fn combined_status(w: &World, sha: &str) -> Answer {
    let mut latest: Vec<&CommitStatus> = Vec::new();
    for s in w.statuses.iter().rev().filter(|s| s.sha == sha) {
        if !latest.iter().any(|l| l.context == s.context) {
            latest.push(s);
        }
    }
    let state = if latest
        .iter()
        .any(|s| s.state == "failure" || s.state == "error")
    {
        "failure"
    } else if latest.is_empty() || latest.iter().any(|s| s.state == "pending") {
        "pending"
    } else {
        "success"
    };
    let statuses: Vec<Value> = latest
        .iter()
        .map(|s| json!({ "state": s.state, "description": s.description, "context": s.context }))
        .collect();
    ok(
        200,
        json!({ "state": state, "sha": sha, "total_count": statuses.len(), "statuses": statuses }),
    )
}

fn ref_json(name: &str, sha: &str) -> Value {
    json!({ "ref": name, "object": { "type": "commit", "sha": sha } })
}

/// A new reference, to a commit GitHub holds; 422 if the name is taken or
/// the commit is unknown, as GitHub answers both.
fn create_ref(w: &mut World, input: &Value) -> Answer {
    let (Some(name), Some(sha)) = (input["ref"].as_str(), input["sha"].as_str()) else {
        return error(422, "Invalid request.");
    };
    if w.refs.contains_key(name) {
        return error(422, "Reference already exists");
    }
    if crate::fake::git::tree(w.objects.as_deref(), sha).is_none() {
        return error(422, "Object does not exist");
    }
    w.refs.insert(name.to_string(), sha.to_string());
    ok(201, ref_json(name, sha))
}

fn merge(w: &mut World, number: u64, input: &Value) -> Answer {
    if w.items.contains_key(&number) {
        w.land_push_at_merge(number);
    }
    let Some(item) = w.items.get(&number) else {
        return error(404, "Not Found");
    };
    if item.state != "open" {
        return error(405, "Pull Request is not mergeable");
    }
    if let Some(why) = &w.refuse_merges {
        return error(405, why);
    }
    let head = item.head.clone().unwrap_or_default();
    if input["sha"].as_str() != Some(head.as_str()) {
        return error(
            409,
            "Head branch was modified. Review and try the merge again.",
        );
    }
    let sha = match &w.main {
        Some(repo) => match crate::fake::git::merge(repo, &head) {
            Ok(sha) => sha,
            Err(why) => return error(405, &why),
        },
        None => format!("{:040x}", number * 7919),
    };
    let item = w.items.get_mut(&number).expect("looked up above");
    item.state = "closed";
    item.merge_commit = Some(sha.clone());
    ok(
        200,
        json!({ "sha": sha, "merged": true, "message": "Pull Request successfully merged" }),
    )
}

/// Creates or updates a file: an update must name the blob it replaces.
fn put_contents(w: &mut World, path: &str, input: &Value) -> Answer {
    let existing = w.contents.get(path).map(|(sha, _)| sha.clone());
    match (&existing, input["sha"].as_str()) {
        (Some(_), None) => return error(422, "Invalid request.\n\n\"sha\" wasn't supplied."),
        (Some(old), Some(given)) if old != given => {
            return error(409, &format!("{path} does not match {given}"));
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
