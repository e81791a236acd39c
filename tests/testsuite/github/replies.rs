//! Replies as GitHub's description says they may come, through the binary:
//! deleted accounts (`user: null`), labels as bare strings, dismissed
//! reviews, and a pull request with more files than GitHub lists.

use crate::fake::github::Item;
use crate::github::{github, setup, votes};

#[test]
fn a_deleted_accounts_comment_counts_for_nothing_and_breaks_nothing() {
    let (game, fake, _) = setup();
    votes(&fake);
    fake.world()
        .add_comment_by(1, None, "2030-01-01T01:45:00Z", "AGAINST");
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    let status = fake.world().bot_comments(1).remove(0);
    assert!(!status.contains("ghost"), "{status}");
}

#[test]
fn a_matter_by_a_deleted_account_is_read_not_refused() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        let mut dov = Item::issue(2, "DoV: three gadgets", "x", "2030-01-01T00:00:00Z");
        dov.user = None;
        w.items.insert(2, dov);
    }
    let run = github(
        &game,
        &fake,
        "2030-01-01T00:30:00Z",
        &["resolve", "--dry-run"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("DoV #2"), "{}", run.stdout);
}

#[test]
fn issue_labels_given_as_bare_names_are_read() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        w.labels_as_strings = true;
        let mut cfj = Item::issue(
            2,
            "Who owns the springs?",
            "boris-b",
            "2030-01-01T00:00:00Z",
        );
        cfj.labels = vec!["CfJ".into()];
        w.items.insert(2, cfj);
    }
    let run = github(
        &game,
        &fake,
        "2030-01-01T00:30:00Z",
        &["resolve", "--dry-run"],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("CfJ #2"), "{}", run.stdout);
}

#[test]
fn a_dismissed_review_is_no_vote() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        w.add_review(
            1,
            Some("dmitri-d"),
            "2030-01-01T01:00:00Z",
            "FOR",
            "DISMISSED",
        );
        w.add_review(
            1,
            Some("boris-b"),
            "2030-01-01T01:10:00Z",
            "FOR",
            "APPROVED",
        );
        w.add_review(
            1,
            None,
            "2030-01-01T01:20:00Z",
            "AGAINST",
            "CHANGES_REQUESTED",
        );
    }
    let run = github(&game, &fake, "2030-01-01T02:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let status = fake.world().bot_comments(1).remove(0);
    assert!(status.contains("| Boris | FOR |"), "{status}");
    assert!(!status.contains("| Dmitri | FOR |"), "{status}");
}

/// GitHub lists 3,000 files of a pull request at most: one of more is
/// judged from the git diff of its fetched head, which sees them all,
/// the last as much as the first.
#[test]
fn more_files_than_github_lists_are_judged_from_the_fetched_head() {
    let (game, fake, _) = setup();
    let head = game.commit_on(
        "p2",
        &[(".github/workflows/extra.yml", "on: push\n")],
        "a workflow too",
    );
    {
        let mut w = fake.world();
        let pull = w.items.get_mut(&1).unwrap();
        pull.head = Some(head.clone());
        pull.files = (0..3001).map(|i| format!("state/f{i}.toml")).collect();
    }
    let run = github(
        &game,
        &fake,
        "2030-01-01T00:05:00Z",
        &["check", "--pr", "1"],
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(".github/workflows/extra.yml"),
        "{}",
        run.stdout
    );
    assert_eq!(
        fake.world().status_states(),
        [(head, "failure".to_string())],
        "no success is claimed"
    );
}

#[test]
fn a_status_of_a_crowded_thread_fits_github_and_is_still_read_back() {
    let (game, fake, _) = setup();
    votes(&fake);
    {
        let mut w = fake.world();
        w.page_size = Some(100);
        for i in 0..800 {
            w.add_comment(1, &format!("onlooker-{i}"), "2030-01-01T03:00:00Z", "FOR");
        }
    }
    let run = github(&game, &fake, "2030-01-01T04:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let status = fake.world().bot_comments(1);
    assert_eq!(status.len(), 1);
    let body = &status[0];
    assert!(
        body.chars().count() < 65_536,
        "{} characters",
        body.chars().count()
    );
    assert!(body.starts_with("<!-- gitnomic:status -->\n"));
    assert!(
        body.contains("801 comments not counted") && body.trim_end().ends_with("-->"),
        "the status lists the first few and says how many: {body}"
    );
    assert!(
        body.contains("<!-- gitnomic:journal "),
        "the journal is kept"
    );
    // The next run reads the shortened status back as its own.
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    assert_eq!(fake.world().bot_comments(1).len(), 1);
}
