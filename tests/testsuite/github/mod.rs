//! The GitHub adapter, through the real binary, against the fake GitHub;
//! the modules below each take one side of it (the fake's conformance to
//! GitHub's description, crowds, faults, pushes, budgets...).

mod actions;
mod budget;
mod conformance;
mod counts;
mod crowds;
mod doors;
mod faults;
mod pushes;
mod replies;
mod sweep;
mod thread_cache;
mod votes;
mod workflow_costs;

use crate::fake::github::{BOT, FakeGitHub, Item, REPO, When, base64, unbase64};
use crate::game_test::{GameTest, Run};

/// The bundled game on `main` with branch `p1` (Dmitri gets a spring), and
/// a fake GitHub holding it as pull request #1 by Ada, opened at midnight.
pub(crate) fn setup() -> (GameTest, FakeGitHub, String) {
    let game = GameTest::committed();
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 7");
    let head = game.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let fake = FakeGitHub::start();
    let mut pull = Item::pull(
        1,
        "More springs",
        "ada-tinkers",
        "2030-01-01T00:00:00Z",
        &head,
    );
    pull.labels = vec!["Proposal".into()];
    pull.files = vec!["state/variables.toml".into()];
    fake.world().items.insert(1, pull);
    (game, fake, head)
}

pub(crate) fn github(game: &GameTest, fake: &FakeGitHub, now: &str, args: &[&str]) -> Run {
    let mut all = vec!["--forge", "github", "--now", now];
    all.extend_from_slice(args);
    game.run_with_env(
        &all,
        &[
            ("GITHUB_API_URL", fake.url.as_str()),
            ("GITHUB_REPOSITORY", REPO),
            ("GITHUB_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
        ],
    )
}

pub(crate) fn votes(fake: &FakeGitHub) {
    let mut w = fake.world();
    w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
    w.add_comment(1, "stranger", "2030-01-01T01:30:00Z", "AGAINST");
    w.add_review(
        1,
        Some("dmitri-d"),
        "2030-01-01T02:00:00Z",
        "Looks right. FOR",
        "COMMENTED",
    );
}

#[test]
fn enacts_over_the_api_records_it_and_never_merges_twice() {
    let (game, fake, head) = setup();
    votes(&fake);
    // A third comment: the thread is two pages long.
    fake.world()
        .add_comment(1, "cleo-c", "2030-01-01T02:30:00Z", "Nice idea.");
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    {
        let w = fake.world();
        let merges = w.merges();
        assert_eq!(merges.len(), 1);
        assert!(
            merges[0].body.contains(&head),
            "merged at the tallied head: {}",
            merges[0].body
        );
        let (_, record) = &w.contents["content/matters/00001.md"];
        let record = unbase64(record);
        assert!(
            record.contains("outcome = \"enacted\"") && record.contains("player = \"Dmitri\""),
            "{record}"
        );
        assert!(record.contains("why = \"not a player\""), "{record}");
        let status = w.bot_comments(1);
        assert_eq!(status.len(), 1, "one status comment, edited in place");
        assert!(
            status[0].contains("### Proposal #1: Enacted"),
            "{}",
            status[0]
        );
        assert!(w.items[&1].labels.contains(&"enacted".to_string()));
        assert!(!w.items[&1].labels.contains(&"resolving".to_string()));
        let thread = format!("/repos/{REPO}/issues/1/comments?per_page=100");
        assert_eq!(
            w.log
                .iter()
                .filter(|r| r.method == "GET" && r.path == thread)
                .count(),
            2,
            "the thread is read once, and once more just before the first status is posted \
             (a check may have posted one meanwhile), not before each status write"
        );
        let status_reads = w
            .log
            .iter()
            .filter(|r| r.method == "GET" && r.path.contains("/issues/comments/"))
            .count();
        let edits = w
            .log
            .iter()
            .filter(|r| r.method == "PATCH" && r.path.contains("/issues/comments/"))
            .count();
        assert!(edits > 0, "the status was edited after it was posted");
        assert_eq!(
            status_reads, edits,
            "each edit reads the status alone, by its id, just before"
        );
        assert!(
            w.log.iter().any(|r| r.path.contains("page=2")),
            "comments were paged"
        );
    }
    let run = github(&game, &fake, "2030-01-01T12:10:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        fake.world().merges().len(),
        1,
        "the second run merges nothing"
    );
    assert_eq!(
        fake.world().requests("PUT", "/contents/"),
        1,
        "and records nothing"
    );
}

#[test]
fn a_stale_head_is_never_merged_and_the_rerun_completes() {
    let (game, fake, _) = setup();
    votes(&fake);
    fake.world().fail_next(
        "PUT",
        "/pulls/1/merge",
        409,
        "Head branch was modified. Review and try the merge again.",
    );
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(
        run.code, 1,
        "refused effects make the run fail: {}",
        run.stderr
    );
    assert!(run.stdout.contains("refused"), "{}", run.stdout);
    {
        let w = fake.world();
        assert!(w.merges().is_empty());
        assert!(w.contents.is_empty(), "no record for an unmerged proposal");
        assert!(
            w.bot_comments(1)[0].contains("not done"),
            "{}",
            w.bot_comments(1)[0]
        );
        assert!(!w.items[&1].labels.contains(&"resolving".to_string()));
    }
    let run = github(&game, &fake, "2030-01-01T12:30:00Z", &["resolve"]);
    assert!(run.stdout.contains("enacted"), "{}", run.stdout);
    assert_eq!(fake.world().merges().len(), 1);
}

#[test]
fn a_pull_request_github_will_not_merge_is_reported() {
    let (game, fake, _) = setup();
    votes(&fake);
    fake.world().fail_next(
        "PUT",
        "/pulls/1/merge",
        405,
        "Pull Request is not mergeable",
    );
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout
            .contains("cannot be merged: Pull Request is not mergeable"),
        "{}",
        run.stdout
    );
    assert!(fake.world().merges().is_empty());
}

#[test]
fn server_errors_and_secondary_rate_limits_are_retried() {
    let (game, fake, _) = setup();
    votes(&fake);
    fake.world().fail_next("GET", "/pulls?", 502, "Bad Gateway");
    fake.world().fail(
        "GET",
        "/issues?",
        403,
        "You have exceeded a secondary rate limit",
        When::Before,
        &[("retry-after", "30")],
    );
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("enacted"), "{}", run.stdout);
    let w = fake.world();
    assert!(w.log.iter().any(|r| r.status == 502) && w.log.iter().any(|r| r.status == 403));
}

#[test]
fn a_refused_token_stops_the_run_with_a_clear_error() {
    let (game, fake, _) = setup();
    fake.world()
        .fail_next("GET", "/pulls?", 401, "Bad credentials");
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("401") && run.stderr.contains("GITHUB_TOKEN"),
        "{}",
        run.stderr
    );
    assert!(fake.world().merges().is_empty());
}

#[test]
fn check_pr_over_the_api_sets_a_commit_status() {
    let (game, fake, head) = setup();
    let run = github(
        &game,
        &fake,
        "2030-01-01T00:05:00Z",
        &["check", "--pr", "1"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fake.world().status_states(),
        [(head, "success".to_string())]
    );
    let run = github(
        &game,
        &fake,
        "2030-01-01T00:05:00Z",
        &["check", "--pr", "9"],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("#9 does not exist"), "{}", run.stderr);
}

#[test]
fn a_player_cannot_forge_the_bots_status() {
    let (game, fake, _) = setup();
    votes(&fake);
    let forged = "<!-- gitnomic:status -->\nEnacted <!-- gitnomic:journal {\"heads\":[],\"resolution\":{\"verdict\":\"enact\",\"at\":\"2030-01-01T00:00:00Z\",\"head\":null}} -->";
    fake.world()
        .add_comment(1, "mallory", "2030-01-01T03:00:00Z", forged);
    github(&game, &fake, "2030-01-01T04:00:00Z", &["resolve"]);
    let w = fake.world();
    assert!(w.merges().is_empty());
    assert_eq!(w.bot_comments(1).len(), 1, "the bot posts its own status");
    assert!(w.comments.iter().any(|c| c.user.as_deref() == Some(BOT)));
}

#[test]
fn an_edited_vote_counts_as_it_was_first_seen() {
    let (game, fake, _) = setup();
    fake.world()
        .add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
    github(&game, &fake, "2030-01-01T02:00:00Z", &["resolve"]);
    fake.world()
        .edit_comment(1, "boris-b", "2030-01-01T02:30:00Z", "AGAINST");
    github(&game, &fake, "2030-01-01T03:00:00Z", &["resolve"]);
    let status = fake.world().bot_comments(1).remove(0);
    assert!(status.contains("| Boris | FOR |"), "{status}");
    assert!(!status.contains("| Boris | AGAINST |"), "{status}");
    // A comment first seen after its edit counts as it reads.
    fake.world()
        .add_comment(1, "dmitri-d", "2030-01-01T03:10:00Z", "AGAINST");
    fake.world()
        .edit_comment(1, "dmitri-d", "2030-01-01T03:20:00Z", "FOR");
    github(&game, &fake, "2030-01-01T04:00:00Z", &["resolve"]);
    let status = fake.world().bot_comments(1).remove(0);
    assert!(status.contains("| Dmitri | FOR |"), "{status}");
}

#[test]
fn an_enacted_dov_crowns_its_author_in_the_current_game_toml() {
    let (game, fake, _) = setup();
    // The default branch's game.toml as GitHub has it now, newer than the checkout.
    let current = game
        .read("state/game.toml")
        .replace("name = \"Clockwork\"", "name = \"Clockwork II\"");
    {
        let mut w = fake.world();
        w.contents
            .insert("state/game.toml".into(), ("abc".into(), base64(&current)));
        w.items.insert(
            2,
            Item::issue(2, "DoV: three gadgets", "boris-b", "2030-01-01T00:00:00Z"),
        );
        w.add_comment(2, "ada-tinkers", "2030-01-01T01:00:00Z", "FOR");
        w.add_comment(2, "dmitri-d", "2030-01-01T02:00:00Z", "FOR");
    }
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #2: enact — enacted"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    let w = fake.world();
    let state = unbase64(&w.contents["state/game.toml"].1);
    assert!(
        state.contains("emperor = \"Boris\"") && state.contains("phase = \"awaiting-ascension\""),
        "{state}"
    );
    assert!(
        state.contains("name = \"Clockwork II\""),
        "the current file was edited, not the checkout's: {state}"
    );
    assert_eq!(w.items[&2].state, "closed");
}

#[test]
fn a_draft_is_no_matter_until_it_is_ready() {
    let (game, fake, head) = setup();
    {
        let mut w = fake.world();
        let pull = w.items.get_mut(&1).unwrap();
        pull.labels = vec!["Action".into()];
        // An action changes its author's own springs.
        pull.user = Some("dmitri-d".into());
        pull.draft = true;
    }
    let run = github(&game, &fake, "2030-01-01T00:10:00Z", &["resolve"]);
    assert!(!run.stdout.contains("#1"), "{}", run.stdout);
    assert!(
        fake.world().merges().is_empty(),
        "a draft action is not merged"
    );
    fake.world().items.get_mut(&1).unwrap().draft = false;
    let run = github(&game, &fake, "2030-01-01T00:20:00Z", &["resolve"]);
    assert!(run.stdout.contains("Action #1: merged"), "{}", run.stdout);
    assert!(fake.world().merges()[0].body.contains(&head));
}
