//! Issue 34 on the fake GitHub: what GitHub says a matter is. A pull
//! request based on another branch than the default one, and a proposal
//! opened as an issue, are no matter at every door: closed with their
//! record, never merged.

use crate::fake::github::{FakeGitHub, Item, unbase64};
use crate::game_test::GameTest;
use crate::github::{github, setup};

/// FOR from Boris, Cleo and Dmitri on `number`.
fn three_for(fake: &FakeGitHub, number: u64) {
    let mut w = fake.world();
    for login in ["boris-b", "cleo-c", "dmitri-d"] {
        w.add_comment(number, login, "2030-01-01T01:00:00Z", "FOR");
    }
}

/// Asserts that `check --pr`, `resolve --dry-run` and `resolve` all close matter
/// `number` as no proposal, for `why`, and that it was never merged.
fn closed_as_no_proposal_at_every_door(game: &GameTest, fake: &FakeGitHub, number: u64, why: &str) {
    let n = number.to_string();
    let checked = github(
        game,
        fake,
        "2030-01-01T02:00:00Z",
        &["check", "--pr", &n, "--dry-run"],
    );
    assert_eq!(checked.code, 1, "{}{}", checked.stdout, checked.stderr);
    assert!(
        checked.stdout.contains(why)
            && checked
                .stdout
                .contains("not ok: it cannot stand as a Proposal"),
        "check: {}",
        checked.stdout
    );
    // `play` is the local forge's; on GitHub the plan is read by a dry run.
    let dry = github(
        game,
        fake,
        "2030-01-01T02:00:00Z",
        &["resolve", "--dry-run"],
    );
    let closing = format!("Proposal #{number}: not-a-matter — closed: ");
    assert!(
        dry.stdout.contains(&closing) && dry.stdout.contains(why),
        "resolve --dry-run: {}{}",
        dry.stdout,
        dry.stderr
    );
    let run = github(game, fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains(&format!("Proposal #{number}: not-a-matter — closed: "))
            && run.stdout.contains(why),
        "resolve: {}",
        run.stdout
    );
    let w = fake.world();
    assert_eq!(w.items[&number].state, "closed");
    assert_eq!(w.items[&number].merge_commit, None, "never merged");
    let record = unbase64(&w.contents[&format!("content/matters/{number:05}.md")].1);
    assert!(record.contains("outcome = \"not-a-matter\""), "{record}");
}

/// Item 4: a pull request whose `base.ref` is not the default branch is
/// no matter: never merged into its base, and main never told otherwise.
#[test]
fn a_pull_request_based_on_another_branch_is_closed_and_never_merged() {
    let (game, fake, _) = setup();
    fake.world().items.get_mut(&1).unwrap().base = "release".into();
    three_for(&fake, 1);
    let why = "it asks to be merged into release, but a matter is merged into main";
    closed_as_no_proposal_at_every_door(&game, &fake, 1, why);
}

/// Item 3: an issue titled `Proposal: …` has no diff to enact: it is no
/// proposal, closed with its record, never "enacted" with nothing merged.
#[test]
fn an_issue_titled_as_a_proposal_is_no_proposal() {
    let (game, fake, _) = setup();
    fake.world().items.insert(
        2,
        Item::issue(2, "Proposal: more words", "boris-b", "2030-01-01T00:00:00Z"),
    );
    three_for(&fake, 2);
    closed_as_no_proposal_at_every_door(&game, &fake, 2, "a proposal must be a pull request");
}

/// Item 5: a draft opened at 00:00 collects FOR votes, is marked ready at
/// 12:30, and is no matter: a pull request may become one (by leaving
/// draft) only in its first 15 minutes (`kind_window_minutes`) and before
/// any comment. The
/// votes cast on the draft never enact it.
#[test]
fn a_draft_marked_ready_late_is_no_matter_and_never_enacted() {
    let (game, fake, _) = setup();
    fake.world().items.get_mut(&1).unwrap().draft = true;
    three_for(&fake, 1);
    fake.world()
        .mark_ready(1, "ada-tinkers", "2030-01-01T12:30:00Z");
    let checked = github(
        &game,
        &fake,
        "2030-01-01T12:45:00Z",
        &["check", "--pr", "1", "--dry-run"],
    );
    assert_eq!(checked.code, 1, "{}{}", checked.stdout, checked.stderr);
    let why = "it left draft at 2030-01-01T12:30:00Z, more than 15 minutes after it was opened";
    assert!(checked.stdout.contains(why), "check: {}", checked.stdout);
    let run = github(&game, &fake, "2030-01-01T13:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: not-a-matter — closed: ") && run.stdout.contains(why),
        "{}",
        run.stdout
    );
    let w = fake.world();
    assert!(w.merges().is_empty(), "never merged");
    let record = unbase64(&w.contents["content/matters/00001.md"].1);
    assert!(record.contains("outcome = \"not-a-matter\""), "{record}");
}

/// Item 5: a draft marked ready within its first fifteen minutes, before
/// anyone commented, is a proposal like any other.
#[test]
fn a_draft_marked_ready_early_is_a_proposal() {
    let (game, fake, _) = setup();
    fake.world().items.get_mut(&1).unwrap().draft = true;
    fake.world()
        .mark_ready(1, "ada-tinkers", "2030-01-01T00:10:00Z");
    three_for(&fake, 1);
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
}

/// Item 5: a label that makes a pull request a proposal, added after its
/// first fifteen minutes, makes no proposal at any door.
#[test]
fn a_kind_label_added_late_makes_no_matter() {
    let (game, fake, _) = setup();
    fake.world().items.get_mut(&1).unwrap().labels.clear();
    fake.world()
        .add_label_at(1, "ada-tinkers", "2030-01-01T00:40:00Z", "Proposal");
    three_for(&fake, 1);
    let why = "the label Proposal was added at 2030-01-01T00:40:00Z, more than 15 minutes after it was opened";
    closed_as_no_proposal_at_every_door(&game, &fake, 1, why);
}

/// The window is the rules' own: a game whose rule "Changes to Pending
/// Proposals" gives an hour takes the same late label as a proposal.
#[test]
fn a_kind_label_within_a_longer_window_of_the_rules_makes_a_proposal() {
    let (game, fake, _) = setup();
    let rule = "rules/core/changes-to-pending-proposals.md";
    let set = "kind_window_minutes = ";
    game.replace(rule, &format!("{set}15"), &format!("{set}60"));
    game.commit_all("an hour to become a matter");
    fake.world().items.get_mut(&1).unwrap().labels.clear();
    fake.world()
        .add_label_at(1, "ada-tinkers", "2030-01-01T00:40:00Z", "Proposal");
    three_for(&fake, 1);
    let checked = github(
        &game,
        &fake,
        "2030-01-01T11:00:00Z",
        &["check", "--pr", "1", "--dry-run"],
    );
    assert_eq!(checked.code, 0, "{}{}", checked.stdout, checked.stderr);
    let run = github(&game, &fake, "2030-01-01T12:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
}

/// Item 5: a title that makes a pull request a proposal, given within its
/// first fifteen minutes but after a comment, makes no proposal either.
#[test]
fn a_kind_title_given_after_a_comment_makes_no_matter() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        w.items.get_mut(&1).unwrap().labels.clear();
        w.add_comment(1, "boris-b", "2030-01-01T00:05:00Z", "What is this for?");
        w.rename(
            1,
            "ada-tinkers",
            "2030-01-01T00:10:00Z",
            "Proposal: More springs",
        );
    }
    three_for(&fake, 1);
    let why =
        "its title became `Proposal: More springs` at 2030-01-01T00:10:00Z, after it had comments";
    closed_as_no_proposal_at_every_door(&game, &fake, 1, why);
}
