//! A crowd cannot halt a game on GitHub: a thread of hundreds of votes by
//! someone who is no player, a head checked on every scheduled run, a pull
//! request of more files than GitHub lists, and a secondary rate limit
//! answered without `retry-after` each leave the run going (or stopped
//! cleanly, to be continued), never failing with exit 2 run after run.

use serde_json::Value;

use crate::fake::github::{CommitStatus, Item, MAX_STATUSES, REPO, When};
use crate::game_test::{GameTest, Run};
use crate::github::{github, setup, votes};

/// How many comments the crowd makes.
const CROWD: u64 = 1_100;

/// GitHub refuses a comment body of 65,536 characters or more.
const GITHUB_MAX_COMMENT: usize = 65_535;

/// The journal a status comment carries, as JSON.
fn journal_of(status: &str) -> Value {
    let open = "<!-- gitnomic:journal ";
    let start = status.find(open).expect("a journal") + open.len();
    let end = status[start..].find(" -->").expect("the journal's end") + start;
    serde_json::from_str(&status[start..end]).expect("the journal is JSON")
}

/// The comment ids a journal's map `field` holds.
fn ids(journal: &Value, field: &str) -> Vec<u64> {
    journal[field]
        .as_object()
        .map(|o| o.keys().map(|k| k.parse().unwrap()).collect())
        .unwrap_or_default()
}

#[test]
fn a_crowd_of_votes_by_a_non_player_keeps_the_status_within_githubs_limit() {
    let (game, fake, _) = setup();
    votes(&fake);
    // 1,100: the fake's comment ids have 4 digits, GitHub's 10, so it
    // takes more comments here than on GitHub (900) to pass the limit.
    let crowd: Vec<u64> = {
        let mut w = fake.world();
        w.page_size = Some(100);
        (0..CROWD)
            .map(|i| {
                let at = format!("2030-01-01T03:{:02}:{:02}Z", i / 60, i % 60);
                w.add_comment(1, "lurker", &at, "FOR")
            })
            .collect()
    };
    let run = github(&game, &fake, "2030-01-01T04:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let status = fake.world().bot_comments(1).remove(0);
    let size = status.chars().count();
    eprintln!("the status comment with {CROWD} votes by a non-player: {size} characters");
    assert!(size <= GITHUB_MAX_COMMENT, "{size} characters");
    let journal = journal_of(&status);
    for field in ["first_seen", "voters"] {
        let kept = ids(&journal, field);
        assert!(
            kept.iter().all(|id| !crowd.contains(id)),
            "{field} keeps no comment by a non-player: {kept:?}"
        );
    }
    assert_eq!(
        ids(&journal, "voters").len(),
        2,
        "the votes of the two players (a comment, a review) are kept: {journal}"
    );
    assert!(
        status.contains(&format!("{} comments not counted", CROWD + 1)),
        "the status says how many were not counted: {status}"
    );
    // The next run decides as ever, from the status it wrote.
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    assert_eq!(fake.world().bot_comments(1).len(), 1);
}

#[test]
fn a_page_of_the_longest_comments_github_takes_is_read() {
    let (game, fake, _) = setup();
    votes(&fake);
    {
        let mut w = fake.world();
        w.page_size = Some(100);
        // 100 comments of 65,535 three-byte characters: a page of about
        // 20 MB, twice what an HTTP client reads by default.
        let longest = "€".repeat(GITHUB_MAX_COMMENT);
        for i in 0..100 {
            let at = format!("2030-01-01T03:{:02}:{:02}Z", i / 60, i % 60);
            w.add_comment(1, "lurker", &at, &longest);
        }
    }
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
}

/// `gitnomic check --open` at `now`.
fn check_open(game: &GameTest, fake: &crate::fake::github::FakeGitHub, now: &str) -> Run {
    github(game, fake, now, &["check", "--open"])
}

#[test]
fn check_open_sets_a_commit_status_only_when_it_changed() {
    let (game, fake, head) = setup();
    for now in [
        "2030-01-01T02:00:00Z",
        "2030-01-01T02:30:00Z",
        "2030-01-01T03:00:00Z",
    ] {
        let from = fake.world().log.len();
        let run = check_open(&game, &fake, now);
        assert_eq!(run.code, 0, "{now}: {}{}", run.stdout, run.stderr);
        let w = fake.world();
        let writes = w.log[from..].iter().filter(|r| r.method != "GET").count();
        println!(
            "check --open at {now}: {} requests, {writes} writes",
            w.log.len() - from
        );
    }
    let w = fake.world();
    assert_eq!(
        w.status_states(),
        [(head.clone(), "success".to_string())],
        "set once, by the first run: nothing changed since"
    );
    assert_eq!(w.requests("POST", "/statuses/"), 1);
    drop(w);
    // A verdict that changes is set again: the head breaks a limit now.
    game.replace(
        "rules/core/proposals.md",
        "max_pending = 2",
        "max_pending = 0",
    );
    game.commit_all("no proposals may be pending");
    let run = check_open(&game, &fake, "2030-01-01T03:30:00Z");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        fake.world().status_states(),
        [(head.clone(), "success".into()), (head, "failure".into())]
    );
}

#[test]
fn a_head_at_githubs_limit_of_statuses_does_not_fail_check_open() {
    let (game, fake, head) = setup();
    {
        let mut w = fake.world();
        for i in 0..MAX_STATUSES {
            w.statuses.push(CommitStatus {
                sha: head.clone(),
                state: "failure".into(),
                description: format!("an older verdict, number {i}"),
                context: "gitnomic/check".into(),
            });
        }
    }
    let run = check_open(&game, &fake, "2030-01-01T02:00:00Z");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("Proposal #1"), "{}", run.stdout);
    assert!(
        run.stderr.contains("maximum number of statuses"),
        "GitHub's refusal is said: {}",
        run.stderr
    );
    let w = fake.world();
    assert_eq!(w.requests("POST", "/statuses/"), 1, "asked once");
    assert_eq!(w.statuses.len(), MAX_STATUSES, "GitHub kept no more");
}

#[test]
fn a_pull_request_of_more_files_than_github_lists_is_judged_from_its_fetched_head() {
    let (game, fake, head) = setup();
    {
        let mut w = fake.world();
        // GitHub lists 3,000 of them; the head itself changes one file.
        w.items.get_mut(&1).unwrap().files =
            (0..3001).map(|i| format!("state/f{i}.toml")).collect();
        let mut cfj = Item::issue(2, "CfJ: whose springs?", "boris-b", "2030-01-01T01:00:00Z");
        cfj.labels = vec!["CfJ".into()];
        w.items.insert(2, cfj);
    }
    let run = check_open(&game, &fake, "2030-01-01T02:00:00Z");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1") && run.stdout.contains("CfJ #2"),
        "every matter is checked: {}",
        run.stdout
    );
    assert_eq!(
        fake.world().status_states(),
        [(head, "success".to_string())],
        "judged from the git diff of the fetched head: {}",
        run.stdout
    );
}

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
        &[
            "--forge",
            "github",
            "--now",
            "2030-01-01T12:00:00Z",
            "resolve",
        ],
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

/// One matter that cannot be checked (its head was never fetched) is said
/// and passed over: `check --open` still checks the others, and exits 1
/// (problems found), which the workflows accept, not 2.
#[test]
fn check_open_passes_over_a_matter_it_cannot_check() {
    let (game, fake, head) = setup();
    let unknown = "0123456789abcdef0123456789abcdef01234567";
    let mut other = crate::fake::github::Item::pull(
        2,
        "Proposal: never fetched",
        "boris-b",
        "2030-01-01T00:05:00Z",
        unknown,
    );
    other.labels = vec!["Proposal".into()];
    other.files = vec!["rules/dynastic/springs.md".into()];
    fake.world().items.insert(2, other);
    let run = check_open(&game, &fake, "2030-01-01T02:00:00Z");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("#2: cannot be checked"),
        "{}",
        run.stderr
    );
    assert_eq!(
        fake.world().status_states(),
        [(head, "success".to_string())],
        "#1 was checked all the same"
    );
}
