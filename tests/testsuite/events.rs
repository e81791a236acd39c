//! Every event the workflows subscribe to, from GitHub's real webhook
//! payloads (`@octokit/webhooks-examples`, installed by `.ci/run`), fed to
//! the binary as GitHub Actions feeds it: `check --event` for pull request
//! and issue events (check.yml), `resolve` for comments, reviews (through
//! review-ping's workflow_run) and workflow runs (resolve.yml).
//!
//! Where the examples have no payload for an action we subscribe to, one
//! of the same event is used with its `action` changed, and the test says
//! so: the fields gitnomic reads do not depend on the action.

use serde_json::Value;

use crate::fake::github::{BOT, Item, REPO};
use crate::fake::openapi::modules;
use crate::github::{setup, votes};

const PACKAGE: &str = "@octokit/webhooks-examples@7.6.1";

/// The examples, by event name; `None` (after saying so) when not installed.
pub(crate) fn examples() -> Option<Vec<(String, Vec<Value>)>> {
    let path = modules().join("webhooks-examples/api.github.com/index.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("GITNOMIC_REQUIRE_GITHUB_API").is_none(),
            "GITNOMIC_REQUIRE_GITHUB_API is set but {} is missing",
            path.display()
        );
        eprintln!(
            "SKIPPED: {} not found (`.ci/run` installs {PACKAGE})",
            path.display()
        );
        return None;
    };
    let all: Vec<Value> = serde_json::from_str(&text).expect("the examples are JSON");
    Some(
        all.into_iter()
            .map(|e| {
                let name = e["name"].as_str().unwrap_or_default().to_string();
                let list = e["examples"].as_array().cloned().unwrap_or_default();
                (name, list)
            })
            .collect(),
    )
}

/// A real payload of `event` with `action`; for `issue_comment`, on a pull
/// request or on an issue as `on_pull` says.
pub(crate) fn payload(
    all: &[(String, Vec<Value>)],
    event: &str,
    action: &str,
    on_pull: Option<bool>,
) -> Value {
    let list = &all.iter().find(|(n, _)| n == event).expect(event).1;
    let fits =
        |p: &&Value| on_pull.is_none_or(|pull| p["issue"].get("pull_request").is_some() == pull);
    if let Some(p) = list.iter().filter(fits).find(|p| p["action"] == action) {
        return p.clone();
    }
    let mut p = list
        .iter()
        .find(|p| p["action"] == action)
        .or_else(|| list.first())
        .expect("an example")
        .clone();
    eprintln!(
        "note: no example of {event}.{action} (on_pull {on_pull:?}); derived from {}",
        p["action"]
    );
    p["action"] = Value::from(action);
    match on_pull {
        Some(true) => {
            p["issue"]["pull_request"] =
                serde_json::json!({ "url": "https://api.github.com/pulls/1" });
        }
        Some(false) => {
            if let Some(issue) = p["issue"].as_object_mut() {
                issue.remove("pull_request");
            }
        }
        None => {}
    }
    p
}

fn number_of(p: &Value) -> Option<u64> {
    p["pull_request"]["number"]
        .as_u64()
        .or_else(|| p["issue"]["number"].as_u64())
}

/// Runs the binary as the workflow would for `event`, with the payload at
/// GITHUB_EVENT_PATH.
pub(crate) fn run_on_event(
    game: &crate::game_test::GameTest,
    fake_url: &str,
    event: &str,
    p: &Value,
    args: &[&str],
) -> crate::game_test::Run {
    let path = game.path(&format!(
        "../event-{}.json",
        game.root().file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&path, p.to_string()).unwrap();
    let mut all = vec!["--forge", "github", "--now", "2030-01-01T12:00:00Z"];
    all.extend_from_slice(args);
    let run = game.run_with_env(
        &all,
        &[
            ("GITHUB_API_URL", fake_url),
            ("GITHUB_REPOSITORY", REPO),
            ("GITHUB_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
            ("GITHUB_EVENT_NAME", event),
            ("GITHUB_EVENT_PATH", path.to_str().unwrap()),
        ],
    );
    let _ = std::fs::remove_file(&path);
    run
}

#[test]
fn check_event_judges_every_pull_request_event_the_check_workflow_gets() {
    let Some(all) = examples() else { return };
    for action in [
        "opened",
        "synchronize",
        "edited",
        "labeled",
        "unlabeled",
        "reopened",
        "ready_for_review",
    ] {
        let p = payload(&all, "pull_request", action, None);
        let number = number_of(&p).expect("a pull request number");
        let (game, fake, head) = setup();
        {
            let mut w = fake.world();
            let mut pull = w.items.remove(&1).unwrap();
            pull.number = number;
            w.items.insert(number, pull);
        }
        let run = run_on_event(
            &game,
            &fake.url,
            "pull_request_target",
            &p,
            &["check", "--event"],
        );
        assert_eq!(
            run.code, 0,
            "pull_request.{action}: {}{}",
            run.stdout, run.stderr
        );
        assert!(
            run.stdout.contains(&format!("Proposal #{number}")),
            "{action}: {}",
            run.stdout
        );
        assert_eq!(
            fake.world().status_states(),
            [(head, "success".to_string())],
            "{action}"
        );
    }
}

#[test]
fn check_event_judges_issue_cfjs_and_dovs() {
    let Some(all) = examples() else { return };
    for action in ["opened", "edited", "labeled"] {
        let p = payload(&all, "issues", action, None);
        let number = number_of(&p).expect("an issue number");
        let (game, fake, _) = setup();
        let mut cfj = Item::issue(
            number,
            "CfJ: who owns the springs?",
            "boris-b",
            "2030-01-01T01:00:00Z",
        );
        cfj.labels = vec!["CfJ".into()];
        fake.world().items.insert(number, cfj);
        let run = run_on_event(&game, &fake.url, "issues", &p, &["check", "--event"]);
        assert_eq!(run.code, 0, "issues.{action}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains(&format!("CfJ #{number}")),
            "{action}: {}",
            run.stdout
        );
        let w = fake.world();
        assert!(w.statuses.is_empty(), "an issue has no commit to mark");
        assert_eq!(
            w.requests("GET", &format!("/pulls/{number}/files")),
            0,
            "an issue has no files"
        );
    }
}

#[test]
fn check_event_ignores_what_the_bot_itself_did() {
    let Some(all) = examples() else { return };
    let mut p = payload(&all, "pull_request", "labeled", None);
    p["sender"]["login"] = Value::from(BOT);
    let (game, fake, _) = setup();
    let run = run_on_event(
        &game,
        &fake.url,
        "pull_request_target",
        &p,
        &["check", "--event"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("nothing to check"), "{}", run.stdout);
    assert!(fake.world().log.is_empty(), "no request was made");
}

#[test]
fn resolve_runs_on_every_event_that_wakes_it() {
    let Some(all) = examples() else { return };
    let mut cases: Vec<(&str, Value)> = Vec::new();
    for action in ["created", "edited", "deleted"] {
        for on_pull in [true, false] {
            cases.push((
                "issue_comment",
                payload(&all, "issue_comment", action, Some(on_pull)),
            ));
        }
    }
    for action in ["submitted", "edited", "dismissed"] {
        // review-ping runs on these with no token and no binary; its
        // completion wakes resolve, which is fed the workflow_run event.
        let p = payload(&all, "pull_request_review", action, None);
        assert!(
            number_of(&p).is_some(),
            "pull_request_review.{action} names its pull request"
        );
    }
    cases.push((
        "workflow_run",
        payload(&all, "workflow_run", "completed", None),
    ));
    for (event, p) in cases {
        let (game, fake, _) = setup();
        votes(&fake);
        let run = run_on_event(&game, &fake.url, event, &p, &["resolve"]);
        assert_eq!(
            run.code, 0,
            "{event}.{}: {}{}",
            p["action"], run.stdout, run.stderr
        );
        assert!(
            run.stdout.contains("Proposal #1: enact — enacted"),
            "{event}: {}",
            run.stdout
        );
    }
}

#[test]
fn check_open_rechecks_every_open_matter() {
    let (game, fake, head) = setup();
    let mut cfj = Item::issue(
        2,
        "CfJ: who owns the springs?",
        "boris-b",
        "2030-01-01T01:00:00Z",
    );
    cfj.labels = vec!["CfJ".into()];
    fake.world().items.insert(2, cfj);
    let run = crate::github::github(&game, &fake, "2030-01-01T02:00:00Z", &["check", "--open"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1") && run.stdout.contains("CfJ #2"),
        "{}",
        run.stdout
    );
    assert_eq!(
        fake.world().status_states(),
        [(head, "success".to_string())]
    );
}
