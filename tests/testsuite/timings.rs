//! `gitnomic timings --forge github` against the fake GitHub (requests and
//! replies held to GitHub's description): the runs of `resolve.yml`, from
//! their event to the status update, kept apart when a run compiled.

use crate::fake::github::FakeGitHub;
use crate::fake::settings::WorkflowRun;
use crate::game_test::{GameTest, Run};
use crate::github::github;

/// A completed run created at `created` (seconds into 1 Mar 2030 12:00),
/// taken by a runner 6 s later, its resolve step done `status` seconds
/// after creation (`None`: the step failed), built or not.
fn run(
    id: u64,
    event: &'static str,
    created: u64,
    status: Option<u64>,
    built: bool,
) -> WorkflowRun {
    let at = |s: u64| format!("2030-03-01T12:{:02}:{:02}Z", s / 60, s % 60);
    let done = status.unwrap_or(20);
    WorkflowRun {
        id,
        number: id + 100,
        event,
        created_at: at(created),
        updated_at: at(created + done + 40),
        job_started_at: at(created + 6),
        deployed: event != "schedule",
        steps: vec![
            ("Run actions/checkout", "success", at(created + 9)),
            (
                "Build gitnomic from the default branch (only when its sources changed)",
                if built { "success" } else { "skipped" },
                at(created + 9),
            ),
            (
                "Resolve",
                if status.is_some() {
                    "success"
                } else {
                    "failure"
                },
                at(created + done),
            ),
        ],
    }
}

fn timings(fake: &FakeGitHub, args: &[&str]) -> Run {
    let game = GameTest::empty();
    let mut all = vec!["timings"];
    all.extend_from_slice(args);
    github(&game, fake, "2030-03-02T00:00:00Z", &all)
}

#[test]
fn comment_to_status_is_read_from_the_runs_and_builds_are_kept_apart() {
    let fake = FakeGitHub::start();
    fake.world().settings.runs = vec![
        run(1, "issue_comment", 0, Some(250), true),
        run(2, "issue_comment", 300, Some(25), false),
        run(3, "schedule", 600, Some(12), false),
        run(4, "issue_comment", 900, Some(40), false),
        run(5, "workflow_run", 1200, Some(33), false),
        run(6, "issue_comment", 1500, None, false),
        run(7, "issue_comment", 1800, Some(31), false),
    ];
    let before = fake.world().log.len();
    let out = timings(&fake, &[]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains(
            "From a comment to its status update: median 31 s (fastest 25 s, slowest 40 s; 3 runs)."
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("The same, when the run compiled gitnomic: median 4 min 10 s"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Waiting for a runner: median 6 s"),
        "{}",
        out.stdout
    );
    let rows: Vec<&str> = out.stdout.lines().filter(|l| l.contains("  #10")).collect();
    assert_eq!(rows.len(), 7, "one row a run: {}", out.stdout);
    assert!(rows[0].contains("#107"), "newest first: {}", rows[0]);
    assert!(rows[2].contains("review"), "{}", rows[2]);
    assert!(
        rows[1].contains('—'),
        "a failed resolve step has no status time: {}",
        rows[1]
    );
    assert!(
        rows[6].trim_end().ends_with("yes"),
        "run 1 built: {}",
        rows[6]
    );
    // Each job rounded up: the usual run a minute, and its deployment one
    // more; a scheduled run deployed nothing; the one that built, 5 + 1;
    // the review's, 1 + 1.
    assert!(
        out.stdout.contains(
            "Billed minutes (a private repository's; each job rounded up): a scheduled run 1, a comment's run 2 (medians); 17 over these 7 runs."
        ),
        "{}",
        out.stdout
    );
    let requests = fake.world().log.len() - before;
    assert_eq!(requests, 1 + 7, "the list, then one request a run");
}

#[test]
fn only_as_many_runs_as_asked_for_are_read() {
    let fake = FakeGitHub::start();
    fake.world().settings.runs = (1..=5)
        .map(|i| run(i, "issue_comment", i * 100, Some(20 + i), false))
        .collect();
    let before = fake.world().log.len();
    let out = timings(&fake, &["--runs", "2"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("slowest 25 s; 2 runs"),
        "{}",
        out.stdout
    );
    assert_eq!(fake.world().log.len() - before, 3);
}

#[test]
fn no_run_yet_or_no_github_is_said_plainly() {
    let fake = FakeGitHub::start();
    let none = timings(&fake, &[]);
    assert_eq!(none.code, 0, "{}", none.stderr);
    assert!(none.stdout.contains("No completed run of resolve.yml yet."));
    let local = GameTest::empty().run(&["timings"]);
    assert_eq!(local.code, 2);
    assert!(local.stderr.contains("--forge github"), "{}", local.stderr);
}
