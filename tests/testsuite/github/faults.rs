//! Faults on the fake GitHub: a 502 or a dropped connection on every write
//! a resolve run makes, before or after the write took effect, and rate
//! limits. A write is never repeated blindly: the run re-reads and ends in
//! the state an uninterrupted run reaches.

use crate::fake::github::{FakeGitHub, When, World};
use crate::game_test::{GameTest, Run};
use crate::github::sweep::{EndState, end_state};
use crate::github::{github, setup, votes};

const NOW: &str = "2030-01-01T12:00:00Z";

/// How many matters were merged.
fn merges(state: &EndState) -> usize {
    state.items.iter().filter(|i| i.3.is_some()).count()
}

/// A resolve run with `fault` set up first; the run and the end state.
fn resolve_with(fault: impl FnOnce(&mut World)) -> (Run, EndState, FakeGitHub, GameTest) {
    let (game, fake, _) = setup();
    votes(&fake);
    fault(&mut fake.world());
    let run = github(&game, &fake, NOW, &["resolve"]);
    let state = end_state(&fake.world(), &fake.url);
    (run, state, fake, game)
}

#[test]
fn a_write_that_happened_but_was_not_answered_is_not_repeated() {
    let (run, clean, _, _) = resolve_with(|_| {});
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(merges(&clean), 1);
    assert_eq!(clean.bot_comments[&1].len(), 1);
    let cases = [
        ("PUT", "/pulls/1/merge"),
        ("POST", "/issues/1/comments"),
        ("PATCH", "/issues/comments/"),
        ("PUT", "/contents/"),
        ("POST", "/issues/1/labels"),
        ("DELETE", "/issues/1/labels/"),
    ];
    for (method, path) in cases {
        for when in [When::After, When::HangUpAfter] {
            let (run, state, fake, _) =
                resolve_with(|w| w.fail(method, path, 502, "Bad Gateway", when, &[]));
            let what = format!("{method} {path} {when:?}");
            assert_eq!(run.code, 0, "{what}: {}{}", run.stdout, run.stderr);
            assert!(
                fake.world().faults.is_empty(),
                "{what}: the fault was never hit"
            );
            assert_eq!(state, clean, "{what}: {}", run.stdout);
            if method == "PUT" && path.ends_with("merge") {
                assert_eq!(fake.world().requests("PUT", "/pulls/1/merge"), 1, "{what}");
            }
            if method == "POST" && path.ends_with("comments") {
                assert_eq!(
                    fake.world().requests("POST", "/issues/1/comments"),
                    1,
                    "{what}: posted once"
                );
            }
        }
    }
}

#[test]
fn a_merge_that_did_not_happen_is_reported_not_retried_and_the_next_run_finishes() {
    for when in [When::Before, When::HangUpBefore] {
        let (run, _, fake, game) =
            resolve_with(|w| w.fail("PUT", "/pulls/1/merge", 502, "Bad Gateway", when, &[]));
        let w = fake.world();
        assert_eq!(
            w.requests("PUT", "/pulls/1/merge"),
            1,
            "{when:?}: not retried"
        );
        assert!(w.merges().is_empty(), "{when:?}");
        assert!(w.contents.is_empty(), "{when:?}: no record: {}", run.stdout);
        drop(w);
        let run = github(&game, &fake, "2030-01-01T12:30:00Z", &["resolve"]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let w = fake.world();
        assert_eq!(w.merges().len(), 1, "{when:?}: {}", run.stdout);
        assert!(w.contents.contains_key("content/matters/00001.md"));
        assert_eq!(w.bot_comments(1).len(), 1);
    }
}

fn unix(at: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(at)
        .unwrap()
        .timestamp()
}

#[test]
fn a_primary_rate_limit_is_never_retried_before_its_reset() {
    let reset = (unix(NOW) + 3600).to_string();
    let headers = [
        ("x-ratelimit-remaining", "0"),
        ("x-ratelimit-reset", reset.as_str()),
    ];
    let (run, _, fake, _) = resolve_with(|w| {
        w.fail(
            "GET",
            "/pulls?",
            403,
            "API rate limit exceeded",
            When::Before,
            &headers,
        );
    });
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("2030-01-01T13:00:00Z") && run.stderr.contains("next run"),
        "says when the next run continues: {}",
        run.stderr
    );
    let w = fake.world();
    assert_eq!(
        w.requests("GET", "/pulls?"),
        1,
        "not retried before the reset"
    );
    assert!(w.merges().is_empty() && w.contents.is_empty());
}

#[test]
fn a_short_primary_limit_is_waited_out() {
    let reset = (unix(NOW) + 40).to_string();
    let headers = [
        ("x-ratelimit-remaining", "0"),
        ("x-ratelimit-reset", reset.as_str()),
    ];
    let (run, state, fake, _) = resolve_with(|w| {
        w.fail(
            "GET",
            "/pulls?",
            429,
            "API rate limit exceeded",
            When::Before,
            &headers,
        );
    });
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(fake.world().requests("GET", "/pulls?"), 2);
    assert_eq!(merges(&state), 1);
}

#[test]
fn a_secondary_limit_beyond_the_budget_stops_the_run() {
    let (game, fake, _) = setup();
    votes(&fake);
    fake.world().fail(
        "GET",
        "/pulls?",
        403,
        "You have exceeded a secondary rate limit",
        When::Before,
        &[("retry-after", "600")],
    );
    let run = game.run_with_env(
        &["--forge", "github", "--now", NOW, "resolve"],
        &[
            ("GITHUB_API_URL", fake.url.as_str()),
            ("GITHUB_REPOSITORY", crate::fake::github::REPO),
            ("GITHUB_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
            ("GITNOMIC_MAX_WAIT", "120"),
        ],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("2030-01-01T12:10:00Z") && run.stderr.contains("120 s"),
        "{}",
        run.stderr
    );
    assert_eq!(fake.world().requests("GET", "/pulls?"), 1);
}

#[test]
fn a_status_post_that_never_arrived_is_posted_once_and_then_edited() {
    let (_, clean, _, _) = resolve_with(|_| {});
    for when in [When::Before, When::HangUpBefore] {
        let (run, state, fake, _) =
            resolve_with(|w| w.fail("POST", "/issues/1/comments", 502, "Bad Gateway", when, &[]));
        assert_eq!(run.code, 0, "{when:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(
            fake.world().requests("POST", "/issues/1/comments"),
            2,
            "{when:?}: posted again once, after looking"
        );
        assert_eq!(state, clean, "{when:?}: one status, edited in place");
    }
}

/// The plan reads a pull request's changed files and merged result from
/// git: a matter whose head the checkout never fetched is held (exit 1),
/// its line naming the head, and nothing is merged or recorded on a
/// guess (fail closed).
#[test]
fn a_head_that_was_never_fetched_is_held_not_merged() {
    let (game, fake, _) = setup();
    votes(&fake);
    let unknown = "0123456789abcdef0123456789abcdef01234567";
    fake.world().items.get_mut(&1).unwrap().head = Some(unknown.into());
    let run = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — held")
            && run.stdout.contains(unknown)
            && run.stdout.contains("Held: #1"),
        "names the matter and the head: {}",
        run.stdout
    );
    let w = fake.world();
    assert!(w.merges().is_empty(), "nothing merged");
    assert_eq!(w.requests("PUT", "/pulls/1/merge"), 0, "no merge asked for");
    assert!(w.contents.is_empty(), "no record");
}

/// A merge GitHub keeps refusing (405: branch protection, a merge
/// queue) is held once, with the reason and the way out; later runs
/// neither announce it again nor ask for the merge again, and once an
/// admin lets the resolver merge and removes the `held` label, the next
/// run merges and records it.
#[test]
fn a_merge_github_keeps_refusing_is_held_once_with_the_way_out() {
    let (game, fake, _) = setup();
    votes(&fake);
    let why = "Changes must be made through the merge queue";
    fake.world().refuse_merges = Some(why.to_string());
    let run = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let status = |fake: &FakeGitHub| fake.world().bot_comments(1).join("\n");
    let held = status(&fake);
    assert!(
        held.contains("Held: the forge refuses to merge it") && held.contains(why),
        "the status says why: {held}"
    );
    assert!(
        held.contains("remove the `held` label"),
        "and the way out: {held}"
    );
    assert!(
        fake.world().items[&1].labels.iter().any(|l| l == "held"),
        "labelled held"
    );
    let writes = |fake: &FakeGitHub| {
        let w = fake.world();
        w.log
            .iter()
            .filter(|r| r.method != "GET" && !r.path.contains("/statuses/"))
            .count()
    };
    let after_first = writes(&fake);
    for at in ["2030-01-01T12:30:00Z", "2030-01-02T12:00:00Z"] {
        let run = github(&game, &fake, at, &["resolve"]);
        assert_eq!(run.code, 1, "{at}: held: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("held") && run.stdout.contains(why),
            "{at}: the plan says it is held and why: {}",
            run.stdout
        );
        assert_eq!(
            fake.world().requests("PUT", "/pulls/1/merge"),
            1,
            "{at}: the merge is not asked for again"
        );
        assert_eq!(status(&fake), held, "{at}: not announced again");
        assert_eq!(writes(&fake), after_first, "{at}: nothing written");
    }
    let dry = github(
        &game,
        &fake,
        "2030-01-02T12:00:00Z",
        &["resolve", "--dry-run"],
    );
    assert!(
        dry.stdout.contains("Proposal #1: enact — held") && dry.stdout.contains(why),
        "a dry run says it is held and why: {}",
        dry.stdout
    );
    // The admin lets the resolver merge, and takes the label off.
    {
        let mut w = fake.world();
        w.refuse_merges = None;
        w.items.get_mut(&1).unwrap().labels.retain(|l| l != "held");
    }
    let run = github(&game, &fake, "2030-01-02T13:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let w = fake.world();
    assert_eq!(w.merges().len(), 1, "merged: {}", run.stdout);
    assert!(w.contents.contains_key("content/matters/00001.md"));
}

/// A held matter that later fails loses its `held` label: the label says
/// only that a decision to enact waits for the forge. While it is held,
/// `check --pr` says so, as `resolve` and `play list` do.
#[test]
fn a_held_matter_that_later_fails_is_no_longer_labelled_held() {
    let (game, fake, _) = setup();
    votes(&fake);
    let why = "Changes must be made through the merge queue";
    fake.world().refuse_merges = Some(why.to_string());
    let run = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let check = github(
        &game,
        &fake,
        "2030-01-01T12:10:00Z",
        &["check", "--pr", "1"],
    );
    assert!(
        check.stdout.contains("held: ") && check.stdout.contains(why),
        "check --pr says it is held and why: {}{}",
        check.stdout,
        check.stderr
    );
    // Its author takes it back: it fails.
    fake.world()
        .add_comment(1, "ada-tinkers", "2030-01-01T12:20:00Z", "AGAINST");
    let run = github(&game, &fake, "2030-01-01T12:30:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("Proposal #1: fail"), "{}", run.stdout);
    let labels = fake.world().items[&1].labels.clone();
    assert!(labels.iter().any(|l| l == "failed"), "{labels:?}");
    assert!(!labels.iter().any(|l| l == "held"), "{labels:?}");
}
