//! Votes as GitHub users cast them (issue 12): comments on lines of the
//! diff, review bodies and review states, each counted by time with the
//! rest, and named with its link in the status comment and `play list`'s
//! words.

use crate::fake::github::FakeGitHub;
use crate::game_test::GameTest;
use crate::github::{github, setup};

fn resolve(game: &GameTest, fake: &FakeGitHub, now: &str) -> String {
    let run = github(game, fake, now, &["resolve", "--dry-run"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let run = github(game, fake, now, &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    fake.world().bot_comments(1).join("\n")
}

#[test]
fn a_comment_on_a_line_of_the_diff_votes_and_is_linked() {
    let (game, fake, _) = setup();
    let id = fake.world().add_line_comment(
        1,
        "boris-b",
        "2030-01-01T01:00:00Z",
        "Typo here, but FOR",
        None,
    );
    let status = resolve(&game, &fake, "2030-01-01T02:00:00Z");
    let row = status
        .lines()
        .find(|l| l.starts_with("| Boris |"))
        .unwrap_or_else(|| panic!("Boris has a row: {status}"));
    assert!(row.contains("| FOR |"), "{row}");
    assert!(
        row.contains("a comment on a line of the diff")
            && row.contains(&format!("#discussion_r{id})")),
        "{row}"
    );
}

#[test]
fn review_states_vote_when_the_body_has_no_voting_word() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        w.add_review(1, Some("boris-b"), "2030-01-01T01:00:00Z", "", "APPROVED");
        w.add_review(
            1,
            Some("dmitri-d"),
            "2030-01-01T01:10:00Z",
            "Not like this.",
            "CHANGES_REQUESTED",
        );
        // Words win over the state.
        w.add_review(
            1,
            Some("cleo-c"),
            "2030-01-01T01:20:00Z",
            "AGAINST",
            "APPROVED",
        );
        // A review that only comments, without words, is no vote.
        w.add_review(
            1,
            Some("wren-w"),
            "2030-01-01T01:30:00Z",
            "Hmm.",
            "COMMENTED",
        );
    }
    let status = resolve(&game, &fake, "2030-01-01T02:00:00Z");
    let row = |who: &str| {
        status
            .lines()
            .find(|l| l.starts_with(&format!("| {who} |")))
            .unwrap_or("")
            .to_string()
    };
    assert!(
        row("Boris").contains("| FOR | [a review (approved)"),
        "{status}"
    );
    assert!(
        row("Dmitri").contains("| AGAINST | [a review (changes requested)"),
        "{status}"
    );
    assert!(row("Cleo").contains("| AGAINST |"), "{status}");
    assert!(row("Wren").contains("| — |"), "{status}");
}

#[test]
fn the_last_vote_by_time_counts_across_comments_reviews_and_line_comments() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
        w.add_review(
            1,
            Some("boris-b"),
            "2030-01-01T01:10:00Z",
            "",
            "CHANGES_REQUESTED",
        );
        w.add_review(1, Some("dmitri-d"), "2030-01-01T01:00:00Z", "", "APPROVED");
        w.add_line_comment(1, "dmitri-d", "2030-01-01T01:20:00Z", "AGAINST", None);
        w.add_line_comment(1, "cleo-c", "2030-01-01T01:00:00Z", "AGAINST", None);
        w.add_comment(1, "cleo-c", "2030-01-01T01:30:00Z", "On reflection, FOR");
    }
    let status = resolve(&game, &fake, "2030-01-01T02:00:00Z");
    assert!(status.contains("| Boris | AGAINST |"), "{status}");
    assert!(status.contains("| Dmitri | AGAINST |"), "{status}");
    assert!(
        status.contains("| Cleo | FOR | [a comment at 01:30 UTC on 1 Jan 2030]("),
        "{status}"
    );
}

#[test]
fn a_dismissed_review_and_its_line_comments_never_count() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        let dismissed = w.add_review(1, Some("boris-b"), "2030-01-01T01:00:00Z", "", "DISMISSED");
        w.add_line_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR", Some(dismissed));
        w.add_review(1, Some("dmitri-d"), "2030-01-01T01:00:00Z", "", "APPROVED");
        w.add_review(1, Some("dmitri-d"), "2030-01-01T01:30:00Z", "", "DISMISSED");
    }
    let status = resolve(&game, &fake, "2030-01-01T02:00:00Z");
    assert!(status.contains("| Boris | — |"), "{status}");
    assert!(
        status.contains("| Dmitri | FOR |"),
        "a dismissed later review leaves the earlier vote: {status}"
    );
}

#[test]
fn with_review_states_vote_off_an_approval_is_no_vote() {
    let (game, fake, _) = setup();
    let rule = "rules/core/votable-matters.md";
    game.replace(
        rule,
        "review_states_vote = true",
        "review_states_vote = false",
    );
    game.commit_all("review states do not vote");
    let check = game.run(&["check"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    {
        let mut w = fake.world();
        w.add_review(1, Some("boris-b"), "2030-01-01T01:00:00Z", "", "APPROVED");
        w.add_review(
            1,
            Some("dmitri-d"),
            "2030-01-01T01:00:00Z",
            "FOR",
            "APPROVED",
        );
    }
    let status = resolve(&game, &fake, "2030-01-01T02:00:00Z");
    assert!(status.contains("| Boris | — |"), "{status}");
    assert!(status.contains("| Dmitri | FOR |"), "{status}");
}

#[test]
fn the_pending_page_links_each_vote_to_its_review_or_comment() {
    let (game, fake, _) = setup();
    let review =
        fake.world()
            .add_review(1, Some("boris-b"), "2030-01-01T01:00:00Z", "", "APPROVED");
    let out = game.path("../site-votes");
    let out = format!(
        "{}-{}",
        out.display(),
        game.root().file_name().unwrap().to_string_lossy()
    );
    let run = github(
        &game,
        &fake,
        "2030-01-01T02:00:00Z",
        &["build", "--out", &out],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let page = std::fs::read_to_string(format!("{out}/pending/index.html")).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        page.contains(&format!(
            "#pullrequestreview-{review}\">a review (approved)</a>"
        )),
        "{page}"
    );
}

#[test]
fn an_edited_review_counts_as_it_was_first_seen() {
    let (game, fake, _) = setup();
    fake.world().add_review(
        1,
        Some("boris-b"),
        "2030-01-01T01:00:00Z",
        "FOR",
        "COMMENTED",
    );
    resolve(&game, &fake, "2030-01-01T02:00:00Z");
    // GitHub gives a review no edit time: the words themselves changed.
    fake.world().reviews[0].body = "AGAINST".into();
    let status = resolve(&game, &fake, "2030-01-01T03:00:00Z");
    let row = status
        .lines()
        .find(|l| l.starts_with("| Boris |"))
        .unwrap_or_default();
    assert!(row.contains("| FOR |"), "{status}");
    assert!(
        row.contains("(edited since; it counts as first seen)"),
        "the tally says the review was edited: {status}"
    );
}

/// GitHub's "dismiss stale approvals on push" dismisses every approval
/// at the next push: an approval counted at 06:00 and dismissed before
/// 13:00 is no vote at 13:00, and without it the proposal has no quorum.
#[test]
fn a_review_dismissed_after_it_was_counted_is_no_vote() {
    let (game, fake, _) = setup();
    let approval = {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
        w.add_review(1, Some("cleo-c"), "2030-01-01T06:00:00Z", "", "APPROVED")
    };
    let status = resolve(&game, &fake, "2030-01-01T07:00:00Z");
    assert!(status.contains("| Cleo | FOR |"), "{status}");
    fake.world()
        .reviews
        .iter_mut()
        .find(|r| r.id == approval)
        .unwrap()
        .state = "DISMISSED";
    let run = github(&game, &fake, "2030-01-01T13:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let status = fake.world().bot_comments(1).join("\n");
    assert!(status.contains("| Cleo | — |"), "{status}");
    assert!(!status.contains("deleted since"), "{status}");
    assert!(fake.world().merges().is_empty(), "{}", run.stdout);
}
