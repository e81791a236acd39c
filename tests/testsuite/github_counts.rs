//! Issue 34 on the fake GitHub: what GitHub says a matter is. A pull
//! request based on another branch than the default one, and a proposal
//! opened as an issue, are no matter at every door: closed with their
//! record, never merged.

use crate::fake_github::{FakeGitHub, Item, unbase64};
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
