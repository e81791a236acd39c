//! Dice on the local forge: rolls in comments are logged under
//! content/rolls/ at first sight, answered in the status comment, and
//! `gitnomic roll verify` recomputes them.

use crate::game_test::GameTest;

/// The bundled game on `main`, with CfJ #1 (an issue: a proposal must be a pull request) by Ada.
fn game_with_matter() -> GameTest {
    let game = GameTest::committed();
    game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", "Luck", None);
    game
}

fn comment(game: &GameTest, at: &str, login: &str, body: &str) -> u64 {
    let run = game.at(at, &["play", "comment", "1", body, "--as", login]);
    run.stdout
        .split_whitespace()
        .nth(1)
        .and_then(|id| id.parse().ok())
        .expect("a comment id")
}

#[test]
fn rolls_are_logged_answered_and_verified() {
    let game = game_with_matter();
    let id = comment(
        &game,
        "2030-01-01T01:00:00Z",
        "boris-b",
        "FOR\n\nROLL 2DICE6+1 for the ambush\n\n> ROLL DICE100\n\nROLL lots",
    );
    let run = game.at("2030-01-01T02:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("#1 commit content/rolls/00001.toml"),
        "{}",
        run.stdout
    );
    let log = game
        .read_at("main", "content/rolls/00001.toml")
        .expect("a dice log on main");
    assert!(log.contains(&format!("comment = {id}")), "{log}");
    assert!(log.contains("dice = \"2DICE6+1\""), "{log}");
    assert!(!log.contains("DICE100"), "a quoted roll is no roll: {log}");
    let status = game.forge_comments(1);
    assert!(status.contains("#### Dice"), "{status}");
    assert!(
        status.contains("rolled 2DICE6+1 for the ambush"),
        "{status}"
    );
    assert!(status.contains("`ROLL lots` is not a roll"), "{status}");

    let verify = game.at("2030-01-01T02:00:00Z", &["roll", "verify"]);
    assert!(
        verify.stdout.contains("All 1 rolls in 1 logs verify."),
        "{}",
        verify.stdout
    );

    let commits = game.main_commits();
    let run = game.at("2030-01-01T03:00:00Z", &["resolve"]);
    assert!(!run.stdout.contains("content/rolls"), "{}", run.stdout);
    assert_eq!(game.main_commits(), commits, "a roll is logged once");

    // Re-rolling by editing shows: the first roll stands, marked.
    let edited = game.at(
        "2030-01-01T04:00:00Z",
        &[
            "play",
            "edit",
            "1",
            &id.to_string(),
            "FOR\n\nROLL 2DICE6+5",
            "--as",
            "boris-b",
        ],
    );
    assert!(edited.stdout.contains("edited"), "{}", edited.stdout);
    game.at("2030-01-01T05:00:00Z", &["resolve"]);
    let after = game.read_at("main", "content/rolls/00001.toml").unwrap();
    assert!(after.contains("afterwards = \"edited\""), "{after}");
    assert!(after.contains("dice = \"2DICE6+1\""), "{after}");
    assert!(
        !after.contains("2DICE6+5"),
        "no second roll at the same place: {after}"
    );
    assert!(game.forge_comments(1).contains("was edited since"));
}

/// A roll is drawn with the moment the resolver first saw its comment,
/// which its roller cannot know when posting it: every other input is
/// public once the comment is, so without it a roll could be worked out,
/// and the comment deleted before any run saw it. The log says the way
/// (`draw = 2`) and the moment (`seen`), and `roll verify` recomputes with
/// both: another moment, or the first way, gives another result.
#[test]
fn a_roll_is_drawn_with_the_moment_a_run_first_saw_it() {
    let game = game_with_matter();
    let id = comment(
        &game,
        "2030-01-01T01:00:00Z",
        "boris-b",
        "ROLL 3DICE1000000000",
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    assert!(log.contains("draw = 2"), "{log}");
    assert!(log.contains("seen = \"2030-01-01T02:00:00Z\""), "{log}");
    std::fs::create_dir_all(game.path("content/rolls")).unwrap();
    let verify = |text: &str| {
        game.write("content/rolls/00001.toml", text);
        game.run(&["roll", "verify", "--work-tree"])
    };
    let run = verify(&log);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let wrong = format!("content/rolls/00001.toml: #1 comment {id} roll 0: logged");
    for (changed, what) in [
        (
            log.replace(
                "seen = \"2030-01-01T02:00:00Z\"",
                "seen = \"2030-01-01T02:00:01Z\"",
            ),
            "another moment",
        ),
        (log.replace("draw = 2\n", ""), "the first way"),
    ] {
        assert_ne!(changed, log, "{what}");
        let run = verify(&changed);
        assert_eq!(run.code, 1, "{what}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stdout.contains(&wrong), "{what}: {}", run.stdout);
    }
    let run = verify(&log.replace("draw = 2", "draw = 3"));
    assert_ne!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        format!("{}{}", run.stdout, run.stderr)
            .contains("draw = 3 is not a way this program draws rolls"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn a_deleted_roll_stays_and_a_changed_result_fails_verify() {
    let game = game_with_matter();
    let id = comment(&game, "2030-01-01T01:00:00Z", "boris-b", "ROLL D20");
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    game.at(
        "2030-01-01T03:00:00Z",
        &["play", "delete", "1", &id.to_string(), "--as", "boris-b"],
    );
    game.at("2030-01-01T04:00:00Z", &["resolve"]);
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    assert!(log.contains("afterwards = \"deleted\""), "{log}");

    // Tamper with the logged total in the work tree: verify names it.
    let total = log
        .lines()
        .find_map(|l| l.strip_prefix("total = "))
        .and_then(|t| t.parse::<i64>().ok())
        .expect("a total");
    let forged = log.replace(
        &format!("total = {total}"),
        &format!("total = {}", total % 20 + 1),
    );
    std::fs::create_dir_all(game.path("content/rolls")).unwrap();
    game.write("content/rolls/00001.toml", &forged);
    let run = game.run(&["roll", "verify", "--work-tree"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(&format!(
            "content/rolls/00001.toml: #1 comment {id} roll 0: logged"
        )),
        "{}",
        run.stdout
    );
}

#[test]
fn a_game_without_a_seed_says_so() {
    let game = GameTest::bundled();
    game.replace("state/game.toml", "seed = ", "# seed = ");
    game.commit_all("no seed");
    game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", "Luck", None);
    comment(&game, "2030-01-01T01:00:00Z", "boris-b", "ROLL D6");
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    assert!(game.read_at("main", "content/rolls/00001.toml").is_none());
    assert!(game.forge_comments(1).contains("This game has no `seed`"));
}

/// A dice log an admin broke on the default branch holds its own matter
/// alone: the run decides the others, `play list` and `build` run, and
/// `check` names the file.
#[test]
fn an_unreadable_dice_log_holds_its_own_matter_alone() {
    let game = game_with_matter();
    comment(&game, "2030-01-01T01:00:00Z", "boris-b", "ROLL D6");
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    game.commit_on(
        "main",
        &[(
            "content/rolls/00001.toml",
            &log.replace("draw = 2", "draw = 99"),
        )],
        "oops",
    );
    let cfj = game.open(
        "2030-01-01T02:10:00Z",
        "ada-tinkers",
        "cfj",
        "CfJ: tidy",
        None,
    );
    assert_eq!(cfj.code, 0, "{}", cfj.stderr);
    for voter in ["boris-b", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T02:20:00Z",
            &["play", "comment", "2", "FOR", "--as", voter],
        );
    }
    let why = "CfJ #1: wait — not read this run: its dice log content/rolls/00001.toml cannot be read (draw = 99 is not a way this program draws rolls (1 or 2)); an admin must mend it";
    let list = game.at("2030-01-01T03:00:00Z", &["play", "list"]);
    assert_eq!(list.code, 0, "{}{}", list.stdout, list.stderr);
    let run = game.at("2030-01-01T03:00:00Z", &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(why), "{}", run.stdout);
    assert!(run.stdout.contains("CfJ #2: enact"), "{}", run.stdout);
    let built = game.at("2030-01-01T03:00:00Z", &["build", "--out", "public"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    let check = game.run(&["--now", "2030-01-01T03:00:00Z", "check"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(
        check.stderr.contains(
            "content/rolls/00001.toml: the dice log cannot be read (draw = 99 is not a way"
        ),
        "{}",
        check.stderr
    );
}

/// A matter that waits on its broken dice log is still open: it counts
/// towards its author's pending proposals as at every door, so a third
/// proposal beside it and another is no matter.
#[test]
fn a_matter_waiting_on_its_dice_log_still_counts_as_pending() {
    let game = crate::game_test::GameTest::committed();
    let open = |at: &str, title: &str, branch: &str| {
        game.commit_on(
            branch,
            &[(
                &format!("rules/dynastic/{branch}.md"),
                &format!("+++\nid = \"{branch}\"\ntitle = \"Tea {branch}\"\n+++\nTea.\n"),
            )],
            "tea",
        );
        let run = game.open(at, "boris-b", "proposal", title, Some(branch));
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    open("2030-01-01T00:00:00Z", "Proposal: one", "one");
    comment(&game, "2030-01-01T00:10:00Z", "boris-b", "ROLL D6");
    game.at("2030-01-01T00:20:00Z", &["resolve"]);
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    game.commit_on(
        "main",
        &[(
            "content/rolls/00001.toml",
            &log.replace("draw = 2", "draw = 99"),
        )],
        "oops",
    );
    open("2030-01-01T00:30:00Z", "Proposal: two", "two");
    open("2030-01-01T00:40:00Z", "Proposal: three", "three");
    let run = game.at("2030-01-01T00:50:00Z", &["resolve"]);
    assert!(
        run.stdout
            .contains("Proposal #1: wait — not read this run: its dice log"),
        "{}",
        run.stdout
    );
    let closed = "it cannot be a proposal: the author already has 2 pending proposals";
    assert!(
        run.stdout
            .contains(&format!("Proposal #3: not-a-matter — closed: {closed}")),
        "{}",
        run.stdout
    );
    let check = game.run(&["--now", "2030-01-01T00:50:00Z", "check", "--pr", "3"]);
    assert!(check.stdout.contains(closed), "{}", check.stdout);
}
