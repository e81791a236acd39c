//! A crowd cannot halt a game on GitHub: a thread of hundreds of votes by
//! someone who is no player, a head checked on every scheduled run, a pull
//! request of more files than GitHub lists, and a secondary rate limit
//! answered without `retry-after` each leave the run going (or stopped
//! cleanly, to be continued), never failing with exit 2 run after run.

use crate::fake_github::{REPO, When};
use crate::github::{github, setup, votes};

/// GitHub's answer to a request over a secondary rate limit.
const SECONDARY: &str =
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.";

#[test]
fn a_secondary_limit_without_retry_after_is_waited_out() {
    let (game, fake, _) = setup();
    votes(&fake);
    // A 403 with quota left and no `retry-after`: only its message says
    // it is a rate limit.
    fake.world()
        .fail("GET", "/pulls?", 403, SECONDARY, When::Before, &[]);
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(fake.world().requests("GET", "/pulls?"), 2, "asked again");
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_secondary_limit_beyond_the_budget_stops_cleanly_without_retry_after() {
    let (game, fake, _) = setup();
    votes(&fake);
    fake.world()
        .fail("GET", "/pulls?", 403, SECONDARY, When::Before, &[]);
    let run = game.run_with_env(
        &["--forge", "github", "--now", "2030-01-01T12:00:00Z", "resolve"],
        &[
            ("GITHUB_API_URL", fake.url.as_str()),
            ("GITHUB_REPOSITORY", REPO),
            ("GITHUB_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
            ("GITNOMIC_MAX_WAIT", "30"),
        ],
    );
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("slow down") && run.stderr.contains("2030-01-01T12:01:00Z"),
        "a rate limit, and when the next run continues: {}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("permissions"),
        "not blamed on the token: {}",
        run.stderr
    );
    assert_eq!(fake.world().requests("GET", "/pulls?"), 1);
}

#[test]
fn a_403_that_is_no_rate_limit_is_still_a_refusal() {
    let (game, fake, _) = setup();
    fake.world().fail(
        "GET",
        "/pulls?",
        403,
        "Resource not accessible by integration",
        When::Before,
        &[],
    );
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("permissions"), "{}", run.stderr);
    assert_eq!(fake.world().requests("GET", "/pulls?"), 1, "not retried");
}
