//! Actions and dice by comment on the fake GitHub, through the binary:
//! players comment `SET`/`ADD` commands and rolls on an issue labelled
//! Action; the resolver logs the rolls, commits the changes to
//! state/variables.toml through the contents API and answers each command.
//! A fault at any request of that run is finished by the next run with
//! nothing applied twice and no roll lost; a roll whose comment is edited
//! or deleted later stays in the log, marked; `roll verify` passes on the
//! default branch and fails once a logged result is changed.

use crate::fake::github::{Item, World, base64};
use crate::github::github;
use crate::github::sweep::{AT, Repo, clean_run, fresh, sweep};

const NOW: &str = "2030-01-01T12:00:00Z";

/// Issue #1, an action by Boris, with three players' commands and rolls
/// (on variables and on the gadgets collection); the fake serves main's
/// state/variables.toml and state/collections.toml.
fn acting(w: &mut World, repo: &Repo) {
    for (path, sha) in [
        ("state/variables.toml", "7a125"),
        ("state/collections.toml", "c0113c7"),
    ] {
        let text = repo.game.read(path);
        w.contents.insert(path.into(), (sha.into(), base64(&text)));
    }
    let mut issue = Item::issue(1, "Winding", "boris-b", AT);
    issue.labels = vec!["Action".into()];
    w.items.insert(1, issue);
    w.add_comment(
        1,
        "boris-b",
        "2030-01-01T01:00:00Z",
        "SET springs 5\nADD cogs -2\nROLL DICE20 for luck\nADD gadgets.pocket-orrery.cogs 1\n\n> ADD cogs 100",
    );
    w.add_comment(
        1,
        "ada-tinkers",
        "2030-01-01T01:10:00Z",
        "SET globals.round 2\nADD springs DICE6 to wind up",
    );
    w.add_comment(
        1,
        "dmitri-d",
        "2030-01-01T01:20:00Z",
        "ADD cogs -5\nSET Boris.springs 0\nADD gadgets spare name=\"Cog Press\" cogs=2",
    );
}

/// The first `total = N` of a dice log.
fn first_total(log: &str) -> i64 {
    log.lines()
        .find_map(|l| l.strip_prefix("total = "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {log}"))
}

#[test]
fn commands_and_rolls_by_comment_survive_a_fault_at_any_request() {
    let repo = Repo::new(&[]);
    let (clean, run) = clean_run(&repo, acting, 4);
    let vars = &clean.end.files["state/variables.toml"];
    assert!(
        vars.contains("[globals]\nround = 2"),
        "{vars}\n{}",
        run.stdout
    );
    assert!(
        vars.contains("[players.Boris]\nsprings = 5\ncogs = 3"),
        "{vars}"
    );
    assert!(
        vars.contains("[players.Dmitri]\nsprings = 6\ncogs = 1"),
        "Dmitri's commands were refused: {vars}"
    );
    let log = &clean.end.files["content/rolls/00001.toml"];
    assert_eq!(log.matches("[[rolls]]").count(), 2, "{log}");
    assert!(
        log.contains("dice = \"DICE20\"") && log.contains("dice = \"DICE6\""),
        "{log}"
    );
    let items = &clean.end.files["state/collections.toml"];
    assert!(
        items.contains(
            "id = \"pocket-orrery\"\nname = \"Pocket Orrery\"\nowner = \"Boris\"\ncogs = 5"
        ) && items.ends_with(
            "[[gadgets]]\nid = \"spare\"\ncogs = 2\nname = \"Cog Press\"\nowner = \"Dmitri\"\n"
        ),
        "{items}"
    );
    assert_eq!(
        clean.end.commits,
        [
            "content/rolls/00001.toml",
            "state/variables.toml",
            "state/collections.toml"
        ],
        "the rolls, then one commit for every change of each file"
    );
    let status = &clean.end.bot_comments[&1];
    assert_eq!(status.len(), 1, "one status comment");
    let status = &status[0];
    for answer in [
        "`SET springs 5`: players.Boris.springs: 3 → 5",
        "`ADD cogs -2`: players.Boris.cogs: 5 → 3",
        "`SET globals.round 2`: globals.round: 1 → 2",
        "`ADD springs DICE6 to wind up`, rolled DICE6 = ",
        "`ADD cogs -5`: not done: illegal: -4 is below the minimum of 0",
        "only their own `springs`, not Boris",
        "`@boris-b` rolled DICE20 for luck: **",
    ] {
        assert!(status.contains(answer), "{answer}:\n{status}");
    }
    assert!(!status.contains("ADD cogs 100"), "quoted: {status}");
    let runs = sweep(&repo, acting, &clean);
    println!("acting: {} requests, {runs} runs", clean.log.len());
}

#[test]
fn an_edited_or_deleted_roll_stays_logged_and_verify_catches_a_changed_result() {
    let repo = Repo::new(&[]);
    let (fake, game) = fresh(&repo, acting);
    let run = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let vars = game.read_at("main", "state/variables.toml").unwrap();
    let first_log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    {
        let mut w = fake.world();
        // Boris re-rolls by editing, and adds a command to a handled comment.
        w.edit_comment(
            1,
            "boris-b",
            "2030-01-01T12:10:00Z",
            "SET springs 9\nROLL DICE100 for luck",
        );
        w.comments
            .retain(|c| c.user.as_deref() != Some("ada-tinkers"));
    }
    let later = github(&game, &fake, "2030-01-01T13:00:00Z", &["resolve"]);
    assert_eq!(later.code, 0, "{}{}", later.stdout, later.stderr);
    assert_eq!(
        game.read_at("main", "state/variables.toml").unwrap(),
        vars,
        "a handled comment is never acted on again"
    );
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    assert_eq!(log.matches("[[rolls]]").count(), 2, "no new roll: {log}");
    assert_eq!(
        first_total(&log),
        first_total(&first_log),
        "the first result stands"
    );
    assert!(
        log.contains("afterwards = \"edited\"") && log.contains("afterwards = \"deleted\""),
        "{log}"
    );
    let status = fake.world().bot_comments(1).join("\n");
    assert!(
        status.contains("its comment was edited since; the roll stands as first seen")
            && status.contains("its comment was deleted; the roll stands"),
        "{status}"
    );

    let verify = game.run(&["roll", "verify"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
    assert!(
        verify.stdout.contains("All 2 rolls in 1 logs verify"),
        "{}",
        verify.stdout
    );
    let history = game.run(&["log", "Boris", "--var", "springs"]);
    assert!(
        history
            .stdout
            .contains("#1 players.Boris.springs: 3 → 5 (by @boris-b, comment "),
        "{}",
        history.stdout
    );

    let total = first_total(&log);
    let tampered = log.replacen(
        &format!("total = {total}\n"),
        &format!("total = {}\n", total + 1),
        1,
    );
    game.commit_on(
        "main",
        &[("content/rolls/00001.toml", &tampered)],
        "a better roll",
    );
    let verify = game.run(&["roll", "verify"]);
    assert_eq!(verify.code, 1, "{}{}", verify.stdout, verify.stderr);
    assert!(
        verify
            .stdout
            .contains("content/rolls/00001.toml: #1 comment ")
            && verify
                .stdout
                .contains("1 of 2 rolls in 1 logs do not verify"),
        "{}",
        verify.stdout
    );
}
