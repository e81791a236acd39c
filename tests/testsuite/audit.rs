//! Issue 34, item 7: `audit` and `roll verify` cannot be fooled by an edit
//! of the default branch. A record's outcome is checked against what the
//! forge says became of its matter, every roll the history credits must
//! be in the dice log, and the figures count records and problems apart.
//! Through the binary on the local forge.

use crate::game_test::GameTest;

/// Proposal #1 by Ada, adding a sentence to the Springs rule, enacted by
/// three FOR at 13:00.
fn enacted_proposal(game: &GameTest) -> String {
    let rule = game.read("rules/dynastic/springs.md");
    let changed = format!("{rule}\nSprings never rust.\n");
    game.commit_on(
        "p1",
        &[("rules/dynastic/springs.md", &changed)],
        "springs never rust",
    );
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "Rust-free",
        Some("p1"),
    );
    for login in ["boris-b", "cleo-c"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", "1", "FOR", "--as", login],
        );
    }
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(run.stdout.contains("enacted"), "{}", run.stdout);
    rule
}

#[test]
fn a_record_rewritten_against_the_forge_is_named() {
    let game = GameTest::committed();
    let rule = enacted_proposal(&game);
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}{}", audit.stdout, audit.stderr);

    // The record made to say no matter, and the enacted sentence taken
    // away with it, as if nothing had been enacted.
    let record = game.read_at("main", "content/matters/00001.md").unwrap();
    let forged = record.replace("outcome = \"enacted\"", "outcome = \"not-a-matter\"");
    assert_ne!(forged, record);
    game.commit_on(
        "main",
        &[
            ("content/matters/00001.md", &forged),
            ("rules/dynastic/springs.md", &rule),
        ],
        "tidy",
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit.stdout.contains(
            "#1: the record says not-a-matter, but the forge says its pull request was merged"
        ),
        "{}",
        audit.stdout
    );
    assert!(
        audit
            .stdout
            .contains("1 records audited on main: 1 of them with a problem; 1 problems in all."),
        "records and problems counted apart: {}",
        audit.stdout
    );
}

#[test]
fn a_record_whose_label_disagrees_is_named_and_problems_are_counted_apart() {
    let game = GameTest::committed();
    enacted_proposal(&game);
    // The record says failed (its votes then say otherwise, too) while
    // the forge merged it and labels it enacted: two problems, one record.
    let record = game.read_at("main", "content/matters/00001.md").unwrap();
    let forged = record.replace("outcome = \"enacted\"", "outcome = \"failed\"");
    game.commit_on("main", &[("content/matters/00001.md", &forged)], "tidy");
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit
            .stdout
            .contains("the record says failed, but the forge says its pull request was merged"),
        "{}",
        audit.stdout
    );
    assert!(
        audit
            .stdout
            .contains("1 records audited on main: 1 of them with a problem; 2 problems in all."),
        "{}",
        audit.stdout
    );
}

/// Action issue #1 by Ada, whose comment adds a roll of DICE6 to her
/// springs: the roll is logged and credited in the action's commit.
fn rolled(game: &GameTest) {
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "action",
        "Winding",
        None,
    );
    game.at(
        "2030-01-01T01:00:00Z",
        &[
            "play",
            "comment",
            "1",
            "ADD springs DICE6",
            "--as",
            "ada-tinkers",
        ],
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let log = game.at("2030-01-01T02:00:00Z", &["log", "--var", "springs"]);
    assert!(log.stdout.contains("rolled DICE6 = "), "{}", log.stdout);
    let verify = game.at("2030-01-01T02:00:00Z", &["roll", "verify"]);
    assert!(
        verify.stdout.contains("All 1 rolls in 1 logs verify."),
        "{}",
        verify.stdout
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}{}", audit.stdout, audit.stderr);
}

fn assert_roll_missed(game: &GameTest) {
    let verify = game.run(&["roll", "verify"]);
    assert_eq!(verify.code, 1, "{}{}", verify.stdout, verify.stderr);
    assert!(
        verify
            .stdout
            .contains("content/rolls/00001.toml: #1 comment ")
            && verify.stdout.contains("credits the roll `DICE6 = ")
            && verify
                .stdout
                .contains("1 rolls the history of main credits are not in the dice log."),
        "{}",
        verify.stdout
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}{}", audit.stdout, audit.stderr);
    // The history's credit, and the action's status comment, which the
    // forge still shows.
    assert!(
        audit.stdout.contains("credits the roll `DICE6 = ")
            && audit
                .stdout
                .contains("#1's status comment credits the roll `DICE6 = ")
            && audit.stdout.contains(
                "0 records audited on main: 0 of them with a problem; 2 problems in all."
            ),
        "{}",
        audit.stdout
    );
}

#[test]
fn a_deleted_dice_log_is_caught_by_verify_and_audit() {
    let game = GameTest::committed();
    rolled(&game);
    game.commit_removing("main", "content/rolls/00001.toml", "tidy");
    assert_roll_missed(&game);
}

#[test]
fn a_roll_dropped_from_the_dice_log_is_caught_by_verify_and_audit() {
    let game = GameTest::committed();
    rolled(&game);
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    let start = log.find("[[rolls]]").expect("a roll");
    game.commit_on(
        "main",
        &[("content/rolls/00001.toml", &log[..start])],
        "tidy",
    );
    assert_roll_missed(&game);
}

/// A roll with no change of the gamestate (`ROLL D20` on a CfJ) is in no
/// commit's credit; only the dice log and the matter's status comment hold
/// it. A log deleted from main is found by what the status still shows.
#[test]
fn a_roll_only_the_status_shows_is_missed_by_audit_when_its_log_goes() {
    let game = GameTest::committed();
    game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", "Luck", None);
    game.at(
        "2030-01-01T01:00:00Z",
        &["play", "comment", "1", "ROLL D20", "--as", "boris-b"],
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}{}", audit.stdout, audit.stderr);
    game.commit_removing("main", "content/rolls/00001.toml", "tidy");
    // No commit credits the roll: the history alone cannot tell.
    let verify = game.run(&["roll", "verify"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit.stdout.contains(
            "content/rolls/00001.toml: #1 comment 1: #1's status comment credits the roll `DICE20 = "
        ) && audit.stdout.contains("1 problems in all."),
        "{}",
        audit.stdout
    );
}
