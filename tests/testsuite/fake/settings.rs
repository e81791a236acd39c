//! The fake GitHub's repository settings and accounts, for `doctor`: the
//! repository, Actions and its workflows, the workflows' default token,
//! Pages, labels and users. Like every endpoint of the fake, requests and
//! replies are held to GitHub's description (see `fake::github`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::fake::github::{Answer, World};
use crate::fake::routes::{PAGE, error, ok, page};

/// The settings of the fake's repository. The default is a repository
/// where all is well, but for its labels and accounts, which tests add.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    pub(crate) has_issues: bool,
    /// `None`: GitHub leaves the field out (a token without admin rights).
    pub(crate) allow_merge_commit: Option<bool>,
    pub(crate) default_branch: String,
    pub(crate) private: bool,
    pub(crate) actions_enabled: bool,
    pub(crate) allowed_actions: &'static str,
    /// `read` or `write`.
    pub(crate) workflow_permissions: &'static str,
    /// (path, state) of each workflow GitHub knows.
    pub(crate) workflows: Vec<(String, &'static str)>,
    /// The Pages site's build type, `None` for no site.
    pub(crate) pages: Option<&'static str>,
    /// name → (colour, description).
    pub(crate) labels: BTreeMap<String, (String, String)>,
    /// login → `User`, `Bot` or `Organization`.
    pub(crate) accounts: BTreeMap<String, &'static str>,
    /// Completed runs of the resolve workflow, oldest first.
    pub(crate) runs: Vec<WorkflowRun>,
}

/// A completed run of `resolve.yml`: its job `resolve` (the steps given)
/// and its job `site` (no step of interest).
#[derive(Debug, Clone)]
pub(crate) struct WorkflowRun {
    pub(crate) id: u64,
    pub(crate) number: u64,
    pub(crate) event: &'static str,
    pub(crate) created_at: String,
    pub(crate) updated_at: String,
    pub(crate) job_started_at: String,
    /// (name, conclusion, completed_at) of each step of job `resolve`.
    pub(crate) steps: Vec<(&'static str, &'static str, String)>,
    /// Whether its `deploy` job ran (the last 20 s of the run), or was
    /// skipped (nothing on the site changed).
    pub(crate) deployed: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            has_issues: true,
            allow_merge_commit: Some(true),
            default_branch: "main".into(),
            private: false,
            actions_enabled: true,
            allowed_actions: "all",
            workflow_permissions: "read",
            workflows: ["check", "pages", "resolve", "review-ping"]
                .iter()
                .map(|w| (format!(".github/workflows/{w}.yml"), "active"))
                .collect(),
            pages: Some("workflow"),
            labels: BTreeMap::new(),
            accounts: BTreeMap::new(),
            runs: Vec::new(),
        }
    }
}

/// Answers the settings endpoints; `None` for any other request.
pub(crate) fn respond(
    w: &mut World,
    method: &str,
    target: &str,
    body: &str,
    base: &str,
) -> Option<Answer> {
    if let Some(login) = target.strip_prefix("/users/") {
        return Some(match w.settings.accounts.get(login) {
            Some(kind) => ok(200, json!({ "login": login, "type": kind })),
            None => error(404, "Not Found"),
        });
    }
    let repo = format!("/repos/{}", crate::fake::github::REPO);
    let rest = target.strip_prefix(&repo)?;
    let path = rest.split_once('?').map_or(rest, |(p, _)| p);
    let s = &w.settings;
    Some(match (method, path) {
        ("GET", "") => {
            let mut repo = json!({
                "name": "game", "full_name": crate::fake::github::REPO,
                "has_issues": s.has_issues, "default_branch": s.default_branch,
                "private": s.private, "fork": true,
            });
            if let Some(allowed) = s.allow_merge_commit {
                repo["allow_merge_commit"] = json!(allowed);
            }
            ok(200, repo)
        }
        ("GET", "/actions/permissions") => ok(
            200,
            json!({ "enabled": s.actions_enabled, "allowed_actions": s.allowed_actions }),
        ),
        ("GET", "/actions/permissions/workflow") => ok(
            200,
            json!({ "default_workflow_permissions": s.workflow_permissions, "can_approve_pull_request_reviews": false }),
        ),
        ("GET", "/actions/workflows") => {
            let list: Vec<Value> = s
                .workflows
                .iter()
                .enumerate()
                .map(|(i, (path, state))| json!({ "id": i + 1, "path": path, "state": state, "name": path }))
                .collect();
            ok(200, json!({ "total_count": list.len(), "workflows": list }))
        }
        ("GET", "/pages") => match s.pages {
            Some(build_type) => ok(200, json!({ "build_type": build_type, "status": "built" })),
            None => error(404, "Not Found"),
        },
        ("GET", "/labels") => {
            let list: Vec<Value> = s
                .labels
                .iter()
                .map(|(name, (color, description))| json!({ "name": name, "color": color, "description": description, "default": false }))
                .collect();
            page(&list, target, base, w.page_size.unwrap_or(PAGE))
        }
        ("POST", "/labels") => create_label(w, body),
        ("GET", "/actions/workflows/resolve.yml/runs") => runs(s, target),
        ("GET", p) if p.starts_with("/actions/runs/") && p.ends_with("/jobs") => {
            let id = p
                .trim_start_matches("/actions/runs/")
                .trim_end_matches("/jobs");
            match s.runs.iter().find(|r| r.id.to_string() == id) {
                Some(run) => jobs(run),
                None => error(404, "Not Found"),
            }
        }
        _ => return None,
    })
}

/// The newest runs first, as many as `per_page` asks for.
fn runs(s: &Settings, target: &str) -> Answer {
    let query = target.split_once('?').map_or("", |(_, q)| q);
    let per_page = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("per_page="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(30);
    let list: Vec<Value> = s
        .runs
        .iter()
        .rev()
        .take(per_page)
        .map(|r| {
            json!({
                "id": r.id, "run_number": r.number, "event": r.event,
                "status": "completed", "conclusion": "success", "path": ".github/workflows/resolve.yml",
                "name": "resolve", "created_at": r.created_at, "updated_at": r.updated_at,
                "run_started_at": r.created_at, "pull_requests": [],
            })
        })
        .collect();
    ok(
        200,
        json!({ "total_count": s.runs.len(), "workflow_runs": list }),
    )
}

/// The run's two jobs: `resolve` with its steps, then `deploy`, which ran
/// or was skipped (started and completed at once, as GitHub says of one).
fn jobs(run: &WorkflowRun) -> Answer {
    let steps: Vec<Value> = run
        .steps
        .iter()
        .enumerate()
        .map(|(i, (name, conclusion, done))| {
            json!({ "name": name, "status": "completed", "conclusion": conclusion, "number": i + 1,
                    "started_at": run.job_started_at, "completed_at": done })
        })
        .collect();
    let job = |id: u64,
               name: &str,
               (started, done, conclusion): (&str, &str, &str),
               steps: Vec<Value>| {
        json!({ "id": id, "run_id": run.id, "name": name, "status": "completed", "conclusion": conclusion,
                "created_at": run.created_at, "started_at": started,
                "completed_at": done, "steps": steps, "labels": ["ubuntu-latest"] })
    };
    let ended = shift(&run.updated_at, -20);
    let resolve_done = if run.deployed {
        &ended
    } else {
        &run.updated_at
    };
    let resolve = job(
        run.id * 10,
        "resolve",
        (&run.job_started_at, resolve_done, "success"),
        steps,
    );
    let deploy = if run.deployed {
        job(
            run.id * 10 + 1,
            "deploy",
            (&ended, &run.updated_at, "success"),
            Vec::new(),
        )
    } else {
        job(
            run.id * 10 + 1,
            "deploy",
            (&ended, &ended, "skipped"),
            Vec::new(),
        )
    };
    ok(200, json!({ "total_count": 2, "jobs": [resolve, deploy] }))
}

/// Creates a label; a name taken (without regard to case) is refused, as
/// GitHub does.
fn create_label(w: &mut World, body: &str) -> Answer {
    let input: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let name = input["name"].as_str().unwrap_or("").to_string();
    if w.settings
        .labels
        .keys()
        .any(|l| l.eq_ignore_ascii_case(&name))
    {
        return error(422, "Validation Failed: already_exists");
    }
    let color = input["color"].as_str().unwrap_or("ededed").to_string();
    let description = input["description"].as_str().unwrap_or("").to_string();
    w.settings
        .labels
        .insert(name.clone(), (color.clone(), description.clone()));
    ok(
        201,
        json!({ "name": name, "color": color, "description": description, "default": false }),
    )
}

/// The RFC 3339 time `at` moved by `seconds`.
fn shift(at: &str, seconds: i64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339(at).expect("an RFC 3339 time");
    (t + chrono::TimeDelta::seconds(seconds))
        .with_timezone(&chrono::Utc)
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}
