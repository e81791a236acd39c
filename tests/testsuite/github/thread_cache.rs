//! The thread cache (issue 12, "Rate limits and writes"): a matter whose
//! `updated_at` has not moved is not read again, with a new token every
//! run; what moves `updated_at` on GitHub is seen by the next run; what
//! may not is seen once the copy is too old; and no decision is taken
//! from a copy.

use crate::fake::github::{FakeGitHub, Item};
use crate::game_test::GameTest;
use crate::github::budget::{cache_file, run, run_aged};
use crate::github::setup;

/// The threads read by a run: requests for comments and reviews.
fn thread_reads(fake: &FakeGitHub, f: impl FnOnce()) -> usize {
    let before = fake.world().log.len();
    f();
    let w = fake.world();
    w.log[before..]
        .iter()
        .filter(|r| {
            // The status read by its id just before it is edited is one
            // comment, not the thread.
            let one_comment = r.path.contains("/issues/comments/");
            r.method == "GET"
                && !one_comment
                && (r.path.contains("/comments") || r.path.contains("/reviews"))
        })
        .count()
}

/// The vote the status shows for `player`'s row.
fn row(fake: &FakeGitHub, player: &str) -> String {
    let status = fake.world().bot_comments(1).join("\n");
    status
        .lines()
        .find(|l| l.starts_with(&format!("| {player} |")))
        .unwrap_or_default()
        .to_string()
}

/// A game whose status is posted and read back once: from then on the
/// thread of #1 is kept.
fn settled() -> (GameTest, FakeGitHub) {
    let (game, fake, _) = setup();
    run(&game, &fake, "2030-01-01T01:00:00Z");
    run(&game, &fake, "2030-01-01T01:00:00Z");
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T01:00:00Z");
    });
    assert_eq!(reads, 0, "an unchanged thread is kept");
    (game, fake)
}

#[test]
fn a_comment_a_review_and_a_line_comment_in_a_review_are_seen_by_the_next_run() {
    let (game, fake) = settled();
    fake.world()
        .add_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR");
    run(&game, &fake, "2030-01-01T01:15:00Z");
    assert!(
        row(&fake, "Boris").contains("| FOR |"),
        "{}",
        row(&fake, "Boris")
    );
    fake.world().add_review(
        1,
        Some("cleo-c"),
        "2030-01-01T01:20:00Z",
        "AGAINST",
        "COMMENTED",
    );
    run(&game, &fake, "2030-01-01T01:25:00Z");
    assert!(
        row(&fake, "Cleo").contains("| AGAINST |"),
        "{}",
        row(&fake, "Cleo")
    );
    fake.world()
        .add_review(1, Some("dmitri-d"), "2030-01-01T01:30:00Z", "", "COMMENTED");
    let last = fake.world().reviews.last().unwrap().id;
    fake.world()
        .add_line_comment(1, "dmitri-d", "2030-01-01T01:30:00Z", "AGAINST", Some(last));
    run(&game, &fake, "2030-01-01T01:35:00Z");
    assert!(
        row(&fake, "Dmitri").contains("| AGAINST |"),
        "{}",
        row(&fake, "Dmitri")
    );
    // An edit moves `updated_at` too.
    fake.world()
        .edit_comment(1, "boris-b", "2030-01-01T01:40:00Z", "FOR, and more");
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T01:45:00Z");
    });
    assert!(reads > 0, "an edited thread is read again");
}

#[test]
fn the_bots_own_write_costs_one_read_of_the_thread_next_run() {
    let (game, fake) = settled();
    {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR");
        // GitHub stamps the bot's edit with its own clock, and moves
        // the matter's updated_at with it.
        w.clock = Some("2030-01-01T01:16:00Z".into());
    }
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T01:15:00Z");
    });
    assert_eq!(reads, 3, "the thread that moved is read");
    assert_eq!(
        fake.world().items[&1].updated_at.as_deref(),
        Some("2030-01-01T01:16:00Z"),
        "the premise: the bot's edit moved updated_at"
    );
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T01:15:00Z");
    });
    assert_eq!(reads, 3, "read once more after the bot's write");
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T01:15:00Z");
    });
    assert_eq!(reads, 0, "then kept");
}

#[test]
fn a_cache_from_another_repository_or_version_is_ignored() {
    let (game, fake) = settled();
    let cache = cache_file(&game);
    let text = std::fs::read_to_string(&cache).unwrap();
    for (what, bad) in [
        (
            "another repository",
            text.replace("clockwork/game", "someone/else"),
        ),
        (
            "another version",
            text.replacen("\"version\":3", "\"version\":2", 1),
        ),
        ("corrupt", text[..text.len() / 2].to_string()),
    ] {
        assert_ne!(bad, text, "{what}: the file was changed");
        std::fs::write(&cache, bad).unwrap();
        let reads = thread_reads(&fake, || {
            run(&game, &fake, "2030-01-01T01:00:00Z");
        });
        assert_eq!(reads, 3, "{what}: the thread is read, not trusted");
    }
    std::fs::remove_file(&cache).unwrap();
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T01:00:00Z");
    });
    assert_eq!(reads, 3, "missing: the thread is read");
}

#[test]
fn a_line_comment_that_does_not_move_updated_at_is_seen_once_the_copy_is_old() {
    let (game, fake) = settled();
    fake.world()
        .add_line_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR", None);
    // A run at a moment the status does not change (a status to write
    // reads the thread afresh first).
    run(&game, &fake, "2030-01-01T01:00:00Z");
    assert!(
        !row(&fake, "Boris").contains("| FOR |"),
        "the premise: GitHub's updated_at did not move, so the copy stands"
    );
    // The copy was read at 01:00; by default it may be six hours old.
    run(&game, &fake, "2030-01-01T07:00:00Z");
    assert!(
        row(&fake, "Boris").contains("| FOR |"),
        "{}",
        row(&fake, "Boris")
    );
}

#[test]
fn no_decision_is_taken_from_a_kept_thread() {
    let (game, fake) = settled();
    {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR");
        w.add_comment(1, "dmitri-d", "2030-01-01T01:20:00Z", "FOR");
    }
    run(&game, &fake, "2030-01-01T02:00:00Z");
    run(&game, &fake, "2030-01-01T02:00:00Z");
    // Both change their votes where GitHub's updated_at does not show it.
    {
        let mut w = fake.world();
        w.add_line_comment(1, "boris-b", "2030-01-01T03:00:00Z", "AGAINST", None);
        w.add_line_comment(1, "dmitri-d", "2030-01-01T03:00:00Z", "AGAINST", None);
    }
    let reads = thread_reads(&fake, || {
        run(&game, &fake, "2030-01-01T02:00:00Z");
    });
    assert_eq!(
        reads, 0,
        "the premise: the copy is used while nothing changes"
    );
    // At 13:00 the copy (young enough: copies may be 48 hours old here)
    // would enact #1 (12 hours, Quorum FOR): the run reads the thread
    // afresh first, and does not.
    let run13 = run_aged(&game, &fake, "2030-01-01T13:00:00Z", "48");
    assert!(
        fake.world().merges().is_empty(),
        "not enacted on a stale copy: {}",
        run13.stdout
    );
    assert!(
        row(&fake, "Boris").contains("| AGAINST |"),
        "{}",
        row(&fake, "Boris")
    );
}

/// The evidence the cache rests on, from GitHub's real webhook payloads
/// (kept outside the project; skipped when absent): a comment made, a
/// comment edited and a review submitted each set the matter's
/// `updated_at` to their own time.
#[test]
fn evidence() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/github");
    if !dir.is_dir() {
        println!("skipped: {} is absent", dir.display());
        return;
    }
    let read = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(path)).unwrap()).unwrap()
    };
    let made = read("octokit-webhooks/issue_comment/created.payload.json");
    assert_eq!(made["issue"]["updated_at"], made["comment"]["created_at"]);
    let edited = read("octocrab/issue_comment_edited_webhook_event.json");
    assert_ne!(
        edited["comment"]["updated_at"],
        edited["comment"]["created_at"]
    );
    assert_eq!(
        edited["issue"]["updated_at"],
        edited["comment"]["updated_at"]
    );
    let review = read("octokit-webhooks/pull_request_review/submitted.payload.json");
    assert_eq!(
        review["pull_request"]["updated_at"],
        review["review"]["submitted_at"]
    );
    // A pull request read after one of its comments was edited carries
    // the edit's time.
    let pull = read("danger-js/github_pr.json");
    let comments = read("danger-js/github_comments.json");
    let last_edit = comments
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["updated_at"].as_str())
        .max()
        .unwrap();
    assert_eq!(pull["updated_at"].as_str(), Some(last_edit));
}

/// A plan made again after a kept thread is read afresh starts from the
/// default branch as it is: the first plan's merge, made in memory, is not
/// where the proposal forked from, so what it amends is still said (it
/// once was not: the second plan read the proposal against itself).
#[test]
fn a_plan_made_again_after_a_fresh_read_says_what_the_proposal_amends() {
    let game = GameTest::committed();
    let rule = game
        .read("rules/dynastic/springs.md")
        .replace("starts with three Springs", "starts with four Springs");
    let head = game.commit_on("p1", &[("rules/dynastic/springs.md", &rule)], "four");
    let fake = FakeGitHub::start();
    let mut pull = Item::pull(
        1,
        "Four springs",
        "ada-tinkers",
        "2030-01-01T00:00:00Z",
        &head,
    );
    pull.labels = vec!["Proposal".into()];
    pull.files = vec!["rules/dynastic/springs.md".into()];
    fake.world().items.insert(1, pull);
    {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR");
        w.add_comment(1, "dmitri-d", "2030-01-01T01:20:00Z", "FOR");
    }
    run(&game, &fake, "2030-01-01T02:00:00Z");
    run(&game, &fake, "2030-01-01T02:00:00Z");
    // A remark the copy misses: the run about to enact #1 reads it afresh
    // and plans again.
    fake.world()
        .add_line_comment(1, "boris-b", "2030-01-01T03:00:00Z", "Nice.", None);
    run_aged(&game, &fake, "2030-01-01T13:00:00Z", "48");
    let w = fake.world();
    assert_eq!(w.merges().len(), 1, "enacted");
    let status = w.bot_comments(1).join("\n");
    assert!(status.contains("Enacted"), "{status}");
    assert!(
        status.contains("This proposal amends 2.1 Springs."),
        "{status}"
    );
}
