//! Issue 34: every rule that counts across matters counts each matter once,
//! as what stands: a matter a run is finishing as its record says, a
//! matter that is no matter (by its files, its form or its base branch)
//! for nothing. Through the binary on the local forge, every door asked
//! (`check --pr`, `play list`, `resolve`). The bundled game: five players,
//! quorum 3, at most 2 pending proposals each.

use crate::game_test::{GameTest, Run};
use crate::histories_checks::assert_same_state;

/// A branch `name` adding `sentence` to the Springs rule.
fn rule_branch(game: &GameTest, name: &str, sentence: &str) {
    let rule = game.read("rules/dynastic/springs.md") + "\n" + sentence + "\n";
    game.commit_on(name, &[("rules/dynastic/springs.md", &rule)], sentence);
}

/// A branch `name` adding a page of its own.
fn page_branch(game: &GameTest, name: &str) {
    let page = format!("+++\ntitle = \"{name}\"\n+++\nText.\n");
    game.commit_on(
        name,
        &[(&format!("content/pages/{name}.md"), &page)],
        "a page",
    );
}

/// A branch `name` that changes README.md, which no matter may change.
fn readme_branch(game: &GameTest, name: &str) {
    game.commit_on(name, &[("README.md", &format!("{name}\n"))], "readme");
}

/// FOR from Boris, Cleo and Dmitri on `number` at `at`.
fn three_for(game: &GameTest, at: &str, number: u64) {
    for login in ["boris-b", "cleo-c", "dmitri-d"] {
        game.at(
            at,
            &["play", "comment", &number.to_string(), "FOR", "--as", login],
        );
    }
}

/// `check --pr number` at `at`, asking only.
fn check(game: &GameTest, at: &str, number: u64) -> Run {
    game.run(&[
        "--now",
        at,
        "check",
        "--pr",
        &number.to_string(),
        "--dry-run",
    ])
}

fn record(game: &GameTest, number: u64) -> String {
    game.read_at("main", &format!("content/matters/{number:05}.md"))
        .unwrap_or_else(|| panic!("no record of #{number} on main"))
}

/// Asserts that `check --pr`, `play list` and `resolve --dry-run` all say
/// matter `number` stands at `at`.
fn every_door_says_it_stands(game: &GameTest, at: &str, number: u64) {
    let checked = check(game, at, number);
    assert_eq!(
        checked.code, 0,
        "check: {}{}",
        checked.stdout, checked.stderr
    );
    let list = game.at(at, &["play", "list"]);
    let closing = format!("#{number} Proposal: not a matter");
    assert!(
        !list.stdout.contains(&closing),
        "play list: {}",
        list.stdout
    );
    let dry = game.at(at, &["resolve", "--dry-run"]);
    let closed = format!("Proposal #{number}: not-a-matter");
    assert!(!dry.stdout.contains(&closed), "resolve: {}", dry.stdout);
}

/// Asserts that `check --pr`, `play list` and `resolve --dry-run` all say
/// matter `number` (a `kind`) is no matter at `at`, for `why`.
fn every_door_says_no_matter(game: &GameTest, at: &str, number: u64, kind: &str, why: &str) {
    let checked = check(game, at, number);
    assert_eq!(checked.code, 1, "check: {}", checked.stdout);
    assert!(
        checked.stdout.contains(why)
            && checked
                .stdout
                .contains(&format!("not ok: it cannot stand as a {kind}")),
        "check: {}",
        checked.stdout
    );
    let list = game.at(at, &["play", "list"]);
    let closing = format!("#{number} {kind}: not a matter, closed when the resolver next runs");
    assert!(
        list.stdout.contains(&closing) && list.stdout.contains(why),
        "play list: {}",
        list.stdout
    );
    let dry = game.at(at, &["resolve", "--dry-run"]);
    let closed = format!("{kind} #{number}: not-a-matter — closed: ");
    assert!(
        dry.stdout.contains(&closed) && dry.stdout.contains(why),
        "resolve: {}",
        dry.stdout
    );
}

/// Item 1: a run stopped after matter #1's record but before its last
/// label leaves #1 `resolving`; the next run counts #1 once, from its
/// record, and decides Ada's proposal #2 on its votes, as a run that was
/// never stopped does.
#[test]
fn a_matter_being_finished_is_counted_once_as_its_record_says() {
    let game = GameTest::committed();
    rule_branch(&game, "p1", "One sentence.");
    page_branch(&game, "p2");
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "One",
        Some("p1"),
    );
    game.open(
        "2030-01-01T01:00:00Z",
        "ada-tinkers",
        "proposal",
        "Two",
        Some("p2"),
    );
    three_for(&game, "2030-01-01T01:30:00Z", 1);
    three_for(&game, "2030-01-01T01:30:00Z", 2);
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    let uninterrupted = game.duplicate();
    // As a run stopped before its last effect leaves it: recorded and
    // merged, still labelled `resolving`.
    game.replace(
        ".git/gitnomic-forge/matters/1.toml",
        r#"labels = ["Proposal", "enacted"]"#,
        r#"labels = ["Proposal", "resolving"]"#,
    );
    every_door_says_it_stands(&game, "2030-01-01T12:00:00Z", 2);
    // Finished at the moment it was stopped, as a run after a kill is.
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout
            .contains("Proposal #1: enact — finishing what an earlier run started")
            && run.stdout.contains("Proposal #2: wait — pending"),
        "{}",
        run.stdout
    );
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #2: enact — enacted"),
        "{}",
        run.stdout
    );
    uninterrupted.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert_same_state(game.root(), uninterrupted.root(), "finishing #1");
    assert!(record(&game, 2).contains("outcome = \"enacted\""));
}

/// Item 2: a DoV that is no matter (it changes README.md) begins no
/// hiatus, in the run that closes it or at any door before: a proposal
/// opened after it stands and is enacted on its votes.
#[test]
fn a_dov_that_is_no_matter_begins_no_hiatus() {
    let game = GameTest::committed();
    readme_branch(&game, "dov");
    rule_branch(&game, "p2", "A sentence.");
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "dov",
        "Victory",
        Some("dov"),
    );
    game.open(
        "2030-01-01T01:00:00Z",
        "ada-tinkers",
        "proposal",
        "Two",
        Some("p2"),
    );
    three_for(&game, "2030-01-01T01:30:00Z", 2);
    let why = "it changes README.md, but a DoV may change only";
    every_door_says_no_matter(&game, "2030-01-01T02:00:00Z", 1, "DoV", why);
    every_door_says_it_stands(&game, "2030-01-01T02:00:00Z", 2);
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #1: not-a-matter — closed")
            && run.stdout.contains("Proposal #2: enact — enacted"),
        "{}",
        run.stdout
    );
    assert!(record(&game, 1).contains("outcome = \"not-a-matter\""));
    assert!(record(&game, 2).contains("outcome = \"enacted\""));
}

/// Item 2: proposals that are no matter (they change README.md) count
/// towards nothing, in the same run: Ada's third proposal is within her
/// limit of 2 pending, and is enacted on its votes.
#[test]
fn proposals_that_are_no_matter_count_towards_no_limit() {
    let game = GameTest::committed();
    readme_branch(&game, "r1");
    readme_branch(&game, "r2");
    rule_branch(&game, "p3", "A sentence.");
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "One",
        Some("r1"),
    );
    game.open(
        "2030-01-01T00:10:00Z",
        "ada-tinkers",
        "proposal",
        "Two",
        Some("r2"),
    );
    game.open(
        "2030-01-01T00:20:00Z",
        "ada-tinkers",
        "proposal",
        "Three",
        Some("p3"),
    );
    three_for(&game, "2030-01-01T01:00:00Z", 3);
    let why = "it changes README.md, but a Proposal may change only";
    for number in [1, 2] {
        every_door_says_no_matter(&game, "2030-01-01T02:00:00Z", number, "Proposal", why);
    }
    every_door_says_it_stands(&game, "2030-01-01T02:00:00Z", 3);
    let run = game.at("2030-01-01T12:30:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #3: enact — enacted"),
        "{}",
        run.stdout
    );
    for number in [1, 2] {
        assert!(record(&game, number).contains("outcome = \"not-a-matter\""));
    }
}

/// Item 3: a proposal opened as an issue has no diff to enact; it is no
/// proposal, closed as no matter at every door, never "enacted" with
/// nothing merged.
#[test]
fn a_proposal_opened_as_an_issue_is_no_matter() {
    let game = GameTest::committed();
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "Words",
        None,
    );
    three_for(&game, "2030-01-01T01:00:00Z", 1);
    let why = "a proposal must be a pull request";
    every_door_says_no_matter(&game, "2030-01-01T02:00:00Z", 1, "Proposal", why);
    let commits = game.main_commits();
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: not-a-matter — closed"),
        "{}",
        run.stdout
    );
    let recorded = record(&game, 1);
    assert!(
        recorded.contains("outcome = \"not-a-matter\""),
        "{recorded}"
    );
    assert_eq!(
        game.main_commits(),
        commits + 1,
        "only the record: nothing merged"
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}", audit.stdout);
}

/// Item 4: a pull request asking to be merged into another branch than
/// the default one is no matter, never merged there or anywhere. The
/// local forge's file says where it is based, as GitHub's `base.ref` does.
#[test]
fn a_pull_request_based_on_another_branch_is_no_matter_and_never_merged() {
    let game = GameTest::committed();
    rule_branch(&game, "p1", "A sentence.");
    game.commit_on(
        "release",
        &[("rules/release.txt", "a branch of its own\n")],
        "release",
    );
    let release = game.read_at("release", "rules/release.txt");
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "One",
        Some("p1"),
    );
    game.replace(
        ".git/gitnomic-forge/matters/1.toml",
        "branch = \"p1\"\n",
        "branch = \"p1\"\nbase = \"release\"\n",
    );
    three_for(&game, "2030-01-01T01:00:00Z", 1);
    let why = "it asks to be merged into release, but a matter is merged into main";
    every_door_says_no_matter(&game, "2030-01-01T02:00:00Z", 1, "Proposal", why);
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: not-a-matter — closed"),
        "{}",
        run.stdout
    );
    assert!(record(&game, 1).contains("outcome = \"not-a-matter\""));
    assert!(
        !game
            .read_at("main", "rules/dynastic/springs.md")
            .unwrap()
            .contains("A sentence."),
        "main never gets the change"
    );
    assert_eq!(
        game.read_at("release", "rules/release.txt"),
        release,
        "release untouched"
    );
    let stored = game.read(".git/gitnomic-forge/matters/1.toml");
    assert!(stored.contains("state = \"closed\""), "{stored}");
}
