//! The local forge through `gitnomic play`: what it refuses, how it
//! numbers matters and comments, and how it records pushes.

use crate::game_test::{GameTest, Run};

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
    let game = GameTest::committed();
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
    let game = GameTest::committed();
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
    let game = GameTest::committed();
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
    let game = GameTest::committed();
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
    let game = GameTest::committed();
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

#[test]
fn a_long_comment_is_read_from_stdin() {
    use std::io::Write as _;
    let game = GameTest::committed();
    branch(&game, "p1");
    game.at(
        "2030-01-01T00:00:00Z",
        &open_args("ada-tinkers", "One", Some("p1")),
    );
    let reasons: String = (1..=300)
        .map(|n| format!("Reason {n}: the springs are wound too tight.\n"))
        .collect();
    let body = format!("FOR\n\n{reasons}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .args(["--root", game.root().to_str().unwrap()])
        .args(["--now", "2030-01-01T01:00:00Z"])
        .args(["play", "comment", "1", "-", "--as", "boris-b"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(body.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let stored = game.forge_comments(1);
    assert!(
        stored.contains("Reason 300: the springs are wound too tight."),
        "{stored}"
    );
    assert!(!stored.contains("body = \"-\""), "{stored}");
    let list = game.at("2030-01-01T02:00:00Z", &["play", "list"]);
    assert!(
        list.stdout.contains("Boris: FOR, by a comment at "),
        "the vote counts, and says what it came from: {}",
        list.stdout
    );
}

#[test]
fn an_author_or_an_admin_may_withdraw_a_matter_and_no_one_else() {
    let game = GameTest::committed();
    branch(&game, "p1");
    branch(&game, "p2");
    game.at(
        "2030-01-01T00:00:00Z",
        &open_args("boris-b", "Mine", Some("p1")),
    );
    game.at(
        "2030-01-01T00:10:00Z",
        &open_args("cleo-c", "Hers", Some("p2")),
    );
    refused(
        &game,
        "2030-01-01T01:00:00Z",
        &["play", "close", "1", "--as", "cleo-c"],
        "only its author or an admin may close it, not cleo-c",
    );
    let run = game.at(
        "2030-01-01T01:00:00Z",
        &["play", "close", "1", "--as", "boris-b"],
    );
    assert!(run.stdout.contains("closed #1"), "{}", run.stdout);
    let stored = game.read(".git/gitnomic-forge/matters/1.toml");
    assert!(
        stored.contains("\"withdrawn\"") && stored.contains("state = \"closed\""),
        "{stored}"
    );
    refused(
        &game,
        "2030-01-01T01:05:00Z",
        &["play", "close", "1", "--as", "boris-b"],
        "#1 is no longer open",
    );
    // wren-w is an admin on the bundled roster.
    game.at(
        "2030-01-01T01:10:00Z",
        &["play", "close", "2", "--as", "wren-w"],
    );
    let list = game.at("2030-01-01T02:00:00Z", &["play", "list"]);
    assert!(
        !list.stdout.contains("#1 ") && !list.stdout.contains("#2 "),
        "{}",
        list.stdout
    );
    let before = game.main_commits();
    game.at("2030-01-03T00:00:00Z", &["resolve"]);
    assert_eq!(
        game.main_commits(),
        before,
        "no record of a withdrawn matter"
    );
    assert!(game.read_at("main", "content/matters/00001.md").is_none());
}

/// The bundled game with proposal #1 by Ada from branch `p1`, which gives
/// players four Springs to start with, opened at midnight; Boris votes FOR
/// at 01:00. Returns the game and the rule's text on `p1`.
fn proposal_with_a_vote() -> (GameTest, String) {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md").replacen(
        "starts with three Springs",
        "starts with four Springs",
        1,
    );
    game.commit_on("p1", &[("rules/dynastic/springs.md", &rule)], "four");
    game.at(
        "2030-01-01T00:00:00Z",
        &open_args("ada-tinkers", "Four springs", Some("p1")),
    );
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    (game, rule)
}

fn vote(game: &GameTest, at: &str, login: &str, body: &str) {
    game.at(at, &["play", "comment", "1", body, "--as", login]);
}

/// A push of substance to `p1`: it changes state/ too.
fn push_substance(game: &GameTest) {
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 9");
    game.commit_on("p1", &[("state/variables.toml", &vars)], "and more springs");
}

/// Edits the rule on `p1` from `from` to `to` (a typo fix, say).
fn push_rule(game: &GameTest, rule: &str, from: &str, to: &str) -> String {
    let edited = rule.replacen(from, to, 1);
    assert_ne!(edited, rule, "`{from}` is in the rule");
    game.commit_on("p1", &[("rules/dynastic/springs.md", &edited)], "typo");
    edited
}

/// The status comment's verdict on Boris's and Dmitri's votes, as
/// (Boris counted, Dmitri counted, some vote voided by a push).
fn counted(game: &GameTest) -> (bool, bool, bool) {
    let status = game.forge_comments(1);
    (
        status.contains("| Boris | FOR |"),
        status.contains("| Dmitri | FOR |"),
        status.contains("cast on an earlier version"),
    )
}

#[test]
fn a_vote_after_a_push_survives_though_no_resolve_ran_between() {
    let (game, _) = proposal_with_a_vote();
    game.at("2030-01-01T01:30:00Z", &["resolve"]); // the bot sees the first head
    push_substance(&game);
    let run = game.at(
        "2030-01-01T02:00:00Z",
        &["play", "push", "1", "--as", "ada-tinkers"],
    );
    assert!(
        run.stdout.contains("at 2030-01-01T02:00:00Z"),
        "{}",
        run.stdout
    );
    vote(&game, "2030-01-01T03:00:00Z", "dmitri-d", "FOR");
    game.at("2030-01-01T04:00:00Z", &["resolve"]);
    assert_eq!(
        counted(&game),
        (false, true, true),
        "Boris voted before the push, Dmitri after: {}",
        game.forge_comments(1)
    );
}

#[test]
fn a_vote_before_a_push_is_voided_though_no_resolve_ran_between() {
    let (game, _) = proposal_with_a_vote();
    push_substance(&game);
    game.at(
        "2030-01-01T02:00:00Z",
        &["play", "push", "1", "--as", "ada-tinkers"],
    );
    vote(&game, "2030-01-01T03:00:00Z", "dmitri-d", "FOR");
    game.at("2030-01-01T04:00:00Z", &["resolve"]);
    assert_eq!(
        counted(&game),
        (false, true, true),
        "{}",
        game.forge_comments(1)
    );
}

#[test]
fn any_command_notices_a_push_at_its_own_time() {
    let (game, _) = proposal_with_a_vote();
    push_substance(&game);
    game.at("2030-01-01T02:00:00Z", &["play", "list"]);
    vote(&game, "2030-01-01T03:00:00Z", "dmitri-d", "FOR");
    game.at("2030-01-01T04:00:00Z", &["resolve"]);
    assert_eq!(
        counted(&game),
        (false, true, true),
        "{}",
        game.forge_comments(1)
    );
    // "I pushed now" when nothing was pushed since is refused.
    refused(
        &game,
        "2030-01-01T05:00:00Z",
        &["play", "push", "1", "--as", "ada-tinkers"],
        "nothing new was pushed",
    );
    refused(
        &game,
        "2030-01-01T05:00:00Z",
        &["play", "push", "1", "--as", "boris-b"],
        "only its author or an admin may push to it",
    );
}

#[test]
fn typo_fixes_add_up_and_past_the_allowance_void_the_votes() {
    let (game, rule) = proposal_with_a_vote();
    game.at("2030-01-01T01:30:00Z", &["resolve"]);
    // Six characters: a typo fix (the allowance is 12).
    let rule = push_rule(&game, &rule, "four Springs", "four SPRINGS");
    game.at(
        "2030-01-01T02:00:00Z",
        &["play", "push", "1", "--as", "ada-tinkers"],
    );
    game.at("2030-01-01T02:30:00Z", &["resolve"]);
    assert_eq!(
        counted(&game),
        (true, false, false),
        "{}",
        game.forge_comments(1)
    );
    // Nine more: a typo fix alone, 15 in all.
    push_rule(&game, &rule, "Daily Action", "DAILY ACTION");
    game.at(
        "2030-01-01T03:00:00Z",
        &["play", "push", "1", "--as", "ada-tinkers"],
    );
    game.at("2030-01-01T03:30:00Z", &["resolve"]);
    assert_eq!(
        counted(&game),
        (false, false, true),
        "{}",
        game.forge_comments(1)
    );
}

#[test]
fn a_force_pushed_typo_fix_is_judged_against_the_old_head() {
    let (game, rule) = proposal_with_a_vote();
    game.at("2030-01-01T01:30:00Z", &["resolve"]);
    let repo = git2::Repository::open(game.root()).unwrap();
    let old = repo.revparse_single("p1").unwrap().id();
    // The typo fixed in a new commit on main's tip, not on top of the old head.
    let fixed = rule.replacen("can hold", "can hlod", 1);
    let new = game.commit_on("rewrite", &[("rules/dynastic/springs.md", &fixed)], "four");
    let new = git2::Oid::from_str(&new).unwrap();
    repo.reference("refs/heads/p1", new, true, "force push")
        .unwrap();
    game.at(
        "2030-01-01T02:00:00Z",
        &["play", "push", "1", "--as", "ada-tinkers"],
    );
    let pinned = repo
        .find_reference(&format!("refs/gitnomic/pull/1/{old}"))
        .expect("the old head is pinned");
    assert_eq!(pinned.target(), Some(old));
    game.at("2030-01-01T02:30:00Z", &["resolve"]);
    assert_eq!(
        counted(&game),
        (true, false, false),
        "{}",
        game.forge_comments(1)
    );
}

#[test]
fn show_prints_the_thread_with_the_status_as_text() {
    let game = GameTest::committed();
    branch(&game, "p1");
    game.at(
        "2030-01-01T00:00:00Z",
        &open_args("ada-tinkers", "One", Some("p1")),
    );
    game.at(
        "2030-01-01T01:00:00Z",
        &["play", "comment", "1", "FOR, gladly", "--as", "boris-b"],
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let run = game.at("2030-01-01T03:00:00Z", &["play", "show", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.starts_with("Proposal #1 “One” by @ada-tinkers"),
        "{out}"
    );
    assert!(out.contains("; open."), "{out}");
    assert!(
        out.contains("by @boris-b at 01:00 UTC on 1 Jan 2030\nFOR, gladly"),
        "{out}"
    );
    assert!(out.contains("the resolver's status"), "{out}");
    assert!(out.contains("### Proposal #1: Pending"), "{out}");
    // The status's tally is `play list`'s: every active player has a row,
    // and times read as words.
    assert!(
        out.contains("| Boris | FOR | a comment at 01:00 UTC on 1 Jan 2030 |"),
        "{out}"
    );
    assert!(out.contains("| Cleo | — |  |"), "{out}");
    assert!(
        out.contains("- not enacted yet: 2 FOR, under the quorum of"),
        "{out}"
    );
    assert!(
        !out.contains("gitnomic:journal"),
        "the journal is for the resolver: {out}"
    );
    refused(&game, "2030-01-01T03:00:00Z", &["play", "show", "9"], "#9");
}

/// Before a player's `joined` moment they are no player: the engine's count
/// of active players and the tally's rows both leave them out. (Dmitri
/// joins the bundled game at 18:00 on 3 Nov 2026.)
#[test]
fn a_player_who_has_not_joined_yet_is_neither_counted_nor_listed() {
    for (now, active) in [("2026-11-03T12:00:00Z", 4), ("2026-11-03T19:00:00Z", 5)] {
        let game = GameTest::committed();
        game.at("2026-11-03T10:00:00Z", &open_args("ada-tinkers", "T", None));
        let list = game.at(now, &["play", "list"]).stdout;
        assert!(
            list.contains(&format!(": {active} active players, quorum")),
            "{list}"
        );
        let names = ["Ada", "Boris", "Cleo", "Dmitri", "Wren"];
        let rows = list
            .lines()
            .filter(|l| names.iter().any(|n| l.starts_with(&format!("  {n}: "))))
            .count();
        assert_eq!(rows, active, "a row per active player:\n{list}");
        assert_eq!(list.contains("Dmitri"), active == 5, "{list}");
    }
}
