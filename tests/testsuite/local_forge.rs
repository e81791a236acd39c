//! The local forge through `gitnomic play`: what it refuses, how it
//! numbers matters and comments, and how it records pushes.

use crate::game_test::{GameTest, Run};

fn committed() -> GameTest {
    let game = GameTest::bundled();
    game.commit_all("the bundled game");
    game
}

/// Runs `gitnomic --now NOW ARGS`, asserting it is refused (exit 2) with
/// an error that says `why`.
fn refused(game: &GameTest, now: &str, args: &[&str], why: &str) -> Run {
    let mut all = vec!["--now", now];
    all.extend_from_slice(args);
    let run = game.run(&all);
    assert_eq!(run.code, 2, "{args:?} should be refused:\n{}", run.stdout);
    assert!(run.stderr.contains(why), "{args:?}: {}", run.stderr);
    run
}

/// `play open` of a proposal from `branch`, or without one of a CfJ.
fn open_args<'a>(login: &'a str, title: &'a str, branch: Option<&'a str>) -> Vec<&'a str> {
    let kind = if branch.is_some() { "proposal" } else { "cfj" };
    let mut args = vec![
        "play", "open", "--as", login, "--kind", kind, "--title", title,
    ];
    if let Some(branch) = branch {
        args.extend(["--branch", branch]);
    }
    args
}

/// A branch `name` that adds a page, so it proposes something.
fn branch(game: &GameTest, name: &str) {
    let page = format!("+++\ntitle = \"{name}\"\n+++\nText.\n");
    game.commit_on(name, &[(&format!("content/pages/{name}.md"), &page)], name);
}

#[test]
fn matters_and_comments_are_numbered_apart() {
    let game = committed();
    branch(&game, "p1");
    let run = game.at(
        "2030-01-01T00:00:00Z",
        &open_args("ada-tinkers", "One", Some("p1")),
    );
    assert!(run.stdout.contains("Proposal #1"), "{}", run.stdout);
    let first = game.at(
        "2030-01-01T01:00:00Z",
        &["play", "comment", "1", "FOR", "--as", "boris-b"],
    );
    assert!(first.stdout.contains("comment 1 on #1"), "{}", first.stdout);
    let run = game.at("2030-01-01T02:00:00Z", &open_args("boris-b", "Two", None));
    assert!(
        run.stdout.contains("CfJ #2"),
        "the next matter is #2, not #3: {}",
        run.stdout
    );
    let second = game.at(
        "2030-01-01T03:00:00Z",
        &["play", "comment", "2", "AGAINST", "--as", "ada-tinkers"],
    );
    assert!(
        second.stdout.contains("comment 2 on #2"),
        "comment ids are unique across matters: {}",
        second.stdout
    );
}

#[test]
fn a_comment_before_its_matter_is_refused() {
    let game = committed();
    branch(&game, "p1");
    game.at(
        "2030-01-01T12:00:00Z",
        &open_args("ada-tinkers", "One", Some("p1")),
    );
    let args = ["play", "comment", "1", "FOR", "--as", "boris-b"];
    refused(
        &game,
        "2030-01-01T11:59:59Z",
        &args,
        "#1 was opened at 2030-01-01T12:00:00Z",
    );
    assert!(game.forge_comments(1).is_empty(), "nothing was written");
    game.at("2030-01-01T12:00:00Z", &args);
}

#[test]
fn a_matter_opened_before_an_older_one_is_refused() {
    let game = committed();
    branch(&game, "p1");
    branch(&game, "p2");
    game.at(
        "2030-01-02T00:00:00Z",
        &open_args("ada-tinkers", "One", Some("p1")),
    );
    refused(
        &game,
        "2030-01-01T00:00:00Z",
        &open_args("boris-b", "Two", Some("p2")),
        "#1 was opened at 2030-01-02T00:00:00Z: a new matter cannot be opened before it",
    );
    let list = game.at("2030-01-02T00:00:00Z", &["play", "list"]);
    assert!(!list.stdout.contains("#2"), "{}", list.stdout);
}

#[test]
fn an_empty_login_or_title_is_refused() {
    let game = committed();
    branch(&game, "p1");
    let now = "2030-01-01T00:00:00Z";
    refused(
        &game,
        now,
        &open_args(" ", "One", Some("p1")),
        "the login is empty",
    );
    refused(
        &game,
        now,
        &open_args("ada-tinkers", "", Some("p1")),
        "the title is empty",
    );
    game.at(now, &open_args("ada-tinkers", "One", Some("p1")));
    let args = ["play", "comment", "1", "FOR", "--as", ""];
    refused(&game, now, &args, "the login is empty");
}

#[test]
fn two_open_matters_from_one_branch_are_refused() {
    let game = committed();
    branch(&game, "p1");
    game.at(
        "2030-01-01T00:00:00Z",
        &open_args("ada-tinkers", "One", Some("p1")),
    );
    refused(
        &game,
        "2030-01-01T01:00:00Z",
        &open_args("boris-b", "Again", Some("p1")),
        "#1 is already open from branch `p1`",
    );
}
