//! `gitnomic doctor --forge github` against the fake GitHub, whose
//! requests and replies are held to GitHub's description: every finding,
//! each from a repository where all else is well, and the all-well case.

use crate::fake::github::{FakeGitHub, When, base64};
use crate::fake::settings::Settings;
use crate::game_test::{GameTest, Run};
use crate::github::github;

/// The labels the game uses, as docs/github.md lists them.
const LABELS: &[&str] = &[
    "Proposal",
    "CfJ",
    "DoV",
    "Action",
    "Ascension Address",
    "enacted",
    "failed",
    "resolving",
    "merged",
    "not-a-matter",
    "held",
];

const ROSTER: &str = "[[players]]\nname = \"Ada\"\nlogin = \"ada-tinkers\"\n\n[[players]]\nname = \"Boris\"\nlogin = \"boris-b\"\n";

/// A fake GitHub where all is well: every label, the roster on `main`,
/// its logins real accounts.
fn healthy() -> FakeGitHub {
    let fake = FakeGitHub::start();
    {
        let mut w = fake.world();
        w.settings = Settings::default();
        for name in LABELS {
            w.settings
                .labels
                .insert((*name).to_string(), ("ededed".into(), String::new()));
        }
        for login in ["ada-tinkers", "boris-b"] {
            w.settings.accounts.insert(login.into(), "User");
        }
        w.contents
            .insert("state/roster.toml".into(), ("r0".into(), base64(ROSTER)));
    }
    fake
}

fn doctor(fake: &FakeGitHub, args: &[&str]) -> Run {
    let game = GameTest::empty();
    let mut all = vec!["doctor"];
    all.extend_from_slice(args);
    github(&game, fake, "2030-01-01T00:00:00Z", &all)
}

fn todos(run: &Run) -> Vec<&str> {
    run.stdout
        .lines()
        .filter(|l| l.starts_with("TODO"))
        .collect()
}

#[test]
fn all_is_well_exits_0_and_changes_nothing() {
    let fake = healthy();
    let run = doctor(&fake, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("All is well"), "{}", run.stdout);
    assert!(todos(&run).is_empty(), "{}", run.stdout);
    for line in [
        "ok    Issues are on",
        "ok    merge commits are allowed",
        "ok    Actions is on",
        "ok    the workflows .github/workflows/check.yml, .github/workflows/pages.yml, .github/workflows/resolve.yml, .github/workflows/review-ping.yml are active",
        "ok    workflows get a read-only token by default",
        "ok    Pages is published by GitHub Actions",
        "ok    the roster's logins are GitHub accounts: ada-tinkers, boris-b",
    ] {
        assert!(
            run.stdout.contains(line),
            "missing `{line}`:\n{}",
            run.stdout
        );
    }
    assert_eq!(fake.world().requests("POST", "/labels"), 0);
}

/// One setting changed from a healthy repository, and the line doctor must
/// print for it.
type Change = fn(&mut crate::fake::github::World);

#[test]
fn each_finding_says_what_to_do_and_exits_1() {
    let cases: &[(&str, Change, &str)] = &[
        (
            "issues off",
            |w| w.settings.has_issues = false,
            "Settings → General → Features → tick Issues",
        ),
        (
            "no merge commits",
            |w| w.settings.allow_merge_commit = Some(false),
            "tick \"Allow merge commits\"",
        ),
        (
            "merge setting hidden",
            |w| w.settings.allow_merge_commit = None,
            "could not check whether merge commits are allowed: GitHub shows it only to a token with admin rights",
        ),
        (
            "actions off",
            |w| w.settings.actions_enabled = false,
            "Actions is off: Settings → Actions → General",
        ),
        (
            "local actions only",
            |w| w.settings.allowed_actions = "local_only",
            "the workflows use actions/checkout",
        ),
        (
            "fork's workflows off",
            |w| w.settings.workflows[0].1 = "disabled_fork",
            "the workflow .github/workflows/check.yml is off, as GitHub leaves a fork's workflows: open the Actions tab and click \"I understand my workflows, go ahead and enable them\"",
        ),
        (
            "workflow disabled",
            |w| w.settings.workflows[2].1 = "disabled_manually",
            "the workflow .github/workflows/resolve.yml is disabled manually: Actions tab",
        ),
        (
            "workflow missing",
            |w| {
                w.settings.workflows.remove(1);
            },
            "GitHub knows no workflow .github/workflows/pages.yml: push the game's .github/workflows/",
        ),
        (
            "token may write",
            |w| w.settings.workflow_permissions = "write",
            "Workflow permissions → \"Read repository contents and packages permissions\"",
        ),
        (
            "no pages",
            |w| w.settings.pages = None,
            "Pages is not set up, so the site is not published: Settings → Pages → Build and deployment → Source: GitHub Actions",
        ),
        (
            "private, no pages",
            |w| {
                w.settings.pages = None;
                w.settings.private = true;
            },
            "(Pages for a private repository needs a paid plan)",
        ),
        (
            "pages from a branch",
            |w| w.settings.pages = Some("legacy"),
            "Pages is published from a branch",
        ),
        (
            "unknown login",
            |w| {
                w.settings.accounts.remove("boris-b");
            },
            "Boris's login `boris-b` in state/roster.toml is no GitHub account",
        ),
        (
            "organization",
            |w| {
                w.settings.accounts.insert("boris-b".into(), "Organization");
            },
            "`boris-b` in state/roster.toml is an organization",
        ),
        (
            "no roster",
            |w| {
                w.contents.remove("state/roster.toml");
            },
            "state/roster.toml is not on `main`: push the game there",
        ),
        (
            "other default branch",
            |w| w.settings.default_branch = "trunk".into(),
            "the default branch is `trunk`, not `main`: run doctor with --base trunk",
        ),
        (
            "actions refused",
            |w| {
                w.fail(
                    "GET",
                    "/actions/permissions",
                    403,
                    "Resource not accessible by personal access token",
                    When::Before,
                    &[],
                );
            },
            "could not check Actions: GitHub answered 403 (Resource not accessible by personal access token); the token needs admin rights",
        ),
        (
            "workflows refused",
            |w| {
                w.fail(
                    "GET",
                    "/actions/workflows",
                    403,
                    "Forbidden",
                    When::Before,
                    &[],
                );
            },
            "could not check the workflows: GitHub answered 403",
        ),
        (
            "permissions hidden",
            |w| {
                w.fail(
                    "GET",
                    "/actions/permissions/workflow",
                    404,
                    "Not Found",
                    When::Before,
                    &[],
                );
            },
            "could not check the workflows' default permissions: GitHub answered 404 (Not Found)",
        ),
        (
            "pages refused",
            |w| w.fail("GET", "/pages", 403, "Forbidden", When::Before, &[]),
            "could not check Pages: GitHub answered 403",
        ),
        (
            "labels refused",
            |w| w.fail("GET", "/labels", 403, "Forbidden", When::Before, &[]),
            "could not check the labels: GitHub answered 403",
        ),
        (
            "label creation refused",
            |w| {
                w.settings.labels.remove("DoV");
                w.fail(
                    "POST",
                    "/labels",
                    403,
                    "Resource not accessible by integration",
                    When::Before,
                    &[],
                );
            },
            "the label `DoV` is missing and could not be created",
        ),
    ];
    for (what, change, expected) in cases {
        let fake = healthy();
        change(&mut fake.world());
        let run = doctor(&fake, &[]);
        assert_eq!(run.code, 1, "{what}: {}{}", run.stdout, run.stderr);
        let todo = todos(&run);
        assert_eq!(todo.len(), 1, "{what}: one thing to do, not {todo:#?}");
        assert!(
            todo[0].contains(expected),
            "{what}: expected `{expected}` in:\n{}",
            run.stdout
        );
        assert!(
            run.stdout.contains("1 thing to do"),
            "{what}: {}",
            run.stdout
        );
    }
}

#[test]
fn missing_labels_are_created_with_the_games_colours_once() {
    let fake = healthy();
    {
        let mut w = fake.world();
        w.settings.labels.retain(|name, _| name == "Proposal");
        // GitHub compares label names without regard to case.
        w.settings
            .labels
            .insert("cfj".into(), ("000000".into(), String::new()));
        w.settings.labels.remove("CfJ");
    }
    let dry = doctor(&fake, &["--dry-run"]);
    assert_eq!(dry.code, 1, "{}", dry.stdout);
    assert!(
        dry.stdout
            .contains("TODO  the label `DoV` is missing: run doctor without --dry-run"),
        "{}",
        dry.stdout
    );
    assert_eq!(
        fake.world().requests("POST", "/labels"),
        0,
        "a dry run creates nothing"
    );

    let run = doctor(&fake, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("ok    the labels Proposal, CfJ exist"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("ok    created the label `Ascension Address` (#5319e7: "),
        "{}",
        run.stdout
    );
    {
        let w = fake.world();
        assert_eq!(w.requests("POST", "/labels"), LABELS.len() - 2);
        for name in LABELS {
            assert!(
                w.settings
                    .labels
                    .keys()
                    .any(|l| l.eq_ignore_ascii_case(name)),
                "{name} missing"
            );
        }
        let (color, description) = &w.settings.labels["not-a-matter"];
        assert!(color.len() == 6 && !description.is_empty());
    }
    let again = doctor(&fake, &[]);
    assert_eq!(again.code, 0, "{}", again.stdout);
    assert_eq!(
        fake.world().requests("POST", "/labels"),
        LABELS.len() - 2,
        "a second run creates nothing"
    );
}

#[test]
fn a_fresh_fork_gets_a_list_of_what_to_do() {
    let fake = healthy();
    {
        let mut w = fake.world();
        w.settings.has_issues = false;
        w.settings.actions_enabled = false;
        w.settings.pages = None;
        w.settings.workflow_permissions = "write";
        for workflow in &mut w.settings.workflows {
            workflow.1 = "disabled_fork";
        }
    }
    let run = doctor(&fake, &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(todos(&run).len(), 5, "{}", run.stdout);
    assert!(run.stdout.contains("5 things to do"), "{}", run.stdout);
    assert!(
        run.stdout.contains("TODO  the workflows .github/workflows/check.yml, .github/workflows/pages.yml, .github/workflows/resolve.yml, .github/workflows/review-ping.yml are off"),
        "one line for all of a fork's workflows: {}",
        run.stdout
    );
}

#[test]
fn doctor_cannot_run_without_github_or_a_readable_repository() {
    let game = GameTest::empty();
    let local = game.run(&["doctor"]);
    assert_eq!(local.code, 2);
    assert!(
        local
            .stderr
            .contains("run `gitnomic doctor --forge github`"),
        "{}",
        local.stderr
    );

    let no_token = game.run_with_env(
        &["--forge", "github", "doctor"],
        &[
            ("GITHUB_TOKEN", ""),
            ("GITHUB_REPOSITORY", "clockwork/game"),
        ],
    );
    assert_eq!(no_token.code, 2);
    assert!(
        no_token.stderr.contains("GITHUB_TOKEN is not set"),
        "{}",
        no_token.stderr
    );

    let fake = healthy();
    fake.world()
        .fail("GET", "", 404, "Not Found", When::Before, &[]);
    let run = doctor(&fake, &[]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "the repository clockwork/game cannot be read (GitHub answered 404: Not Found)"
        ),
        "{}",
        run.stderr
    );

    let fake = healthy();
    fake.world()
        .fail("GET", "", 401, "Bad credentials", When::Before, &[]);
    let run = doctor(&fake, &[]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("Bad credentials"), "{}", run.stderr);
}

/// The bundled resolve workflow on the fake's `main`, its schedule made
/// `cron`.
fn with_schedule(fake: &FakeGitHub, cron: &str, private: bool) {
    let bundled = include_str!("../../.github/workflows/resolve.yml");
    let text = bundled.replace("\"17 * * * *\"", &format!("\"{cron}\""));
    let mut w = fake.world();
    w.settings.private = private;
    w.contents.insert(
        ".github/workflows/resolve.yml".into(),
        ("w0".into(), base64(&text)),
    );
}

#[test]
fn a_private_repository_hears_what_the_schedule_bills() {
    // The bundled hourly schedule: within the Free plan, said as a note.
    let fake = healthy();
    with_schedule(&fake, "17 * * * *", true);
    let run = doctor(&fake, &[]);
    assert!(
        run.stdout.contains(
            "note  the repository is private: the schedule of .github/workflows/resolve.yml alone runs 24 times a day, about 720 billed minutes a month, and each vote adds 2, of the Free plan's 2000"
        ),
        "{}",
        run.stdout
    );
    assert!(todos(&run).is_empty(), "{}", run.stdout);
    // Every ten minutes: past the Free plan, something to do.
    let fake = healthy();
    with_schedule(&fake, "*/10 * * * *", true);
    let run = doctor(&fake, &[]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let todo = todos(&run);
    assert!(
        todo.iter().any(
            |l| l.contains("144 times a day, about 4320 billed minutes a month")
                && l.contains("more than the Free plan's 2000")
        ),
        "{todo:?}"
    );
    // Public: free, whatever the schedule.
    let fake = healthy();
    with_schedule(&fake, "*/10 * * * *", false);
    let run = doctor(&fake, &[]);
    assert!(
        run.stdout.contains(
            "ok    the repository is public: Actions minutes are free (the schedule runs 144 times a day)"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
}
