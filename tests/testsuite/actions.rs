//! Actions by comment on the local forge: commands on an action issue are
//! carried out once each, in comment order, as one commit to
//! state/variables.toml, checked against the schema and answered.

use crate::game_test::GameTest;

/// The bundled game on `main` with action issue #1 opened by Boris.
fn game_with_action() -> GameTest {
    let game = GameTest::committed();
    let run = game.open("2030-01-01T00:00:00Z", "boris-b", "action", "Winding", None);
    assert!(run.stdout.contains("opened Action #1"), "{}", run.stdout);
    game
}

fn comment(game: &GameTest, at: &str, login: &str, body: &str) {
    game.at(at, &["play", "comment", "1", body, "--as", login]);
}

/// The bot's status comment on #1 (the forge's file holds every comment).
fn status(game: &GameTest) -> String {
    let all = game.forge_comments(1);
    all.split("<!-- gitnomic:status -->")
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

fn variables(game: &GameTest) -> String {
    game.read_at("main", "state/variables.toml").unwrap()
}

#[test]
fn commands_are_applied_once_in_order_as_one_commit() {
    let game = game_with_action();
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        "boris-b",
        "SET springs 5\nADD cogs -2\n\n> ADD cogs 100",
    );
    comment(
        &game,
        "2030-01-01T01:10:00Z",
        "ada-tinkers",
        "SET globals.round 2\nADD springs DICE6 to wind up",
    );
    comment(
        &game,
        "2030-01-01T01:20:00Z",
        "dmitri-d",
        "ADD cogs -5\nSET Boris.springs 0\nSET gears 1",
    );
    comment(&game, "2030-01-01T01:30:00Z", "cleo-c", "SET springs 99");
    let before = game.main_commits();
    let run = game.at("2030-01-01T02:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("#1 commit state/variables.toml"),
        "{}",
        run.stdout
    );
    let vars = variables(&game);
    assert!(
        vars.contains("[players.Boris]\nsprings = 5\ncogs = 3"),
        "{vars}"
    );
    assert!(vars.contains("[globals]\nround = 2"), "{vars}");
    assert!(
        vars.contains("[players.Dmitri]\nsprings = 6\ncogs = 1"),
        "refused: {vars}"
    );
    // A dice log for the roll, and one commit for every change.
    assert_eq!(
        game.main_commits(),
        before + 2,
        "the dice log and one state commit"
    );
    let log = game.read_at("main", "content/rolls/00001.toml").unwrap();
    assert!(log.contains("dice = \"DICE6\""), "{log}");
    let status = status(&game);
    assert!(
        status.contains("`SET springs 5`: players.Boris.springs: 3 → 5"),
        "{status}"
    );
    assert!(
        status.contains("`ADD cogs -5`: not done: illegal: -4 is below the minimum of 0"),
        "{status}"
    );
    assert!(
        status.contains("Dmitri may change only their own `springs`, not Boris&#39;s")
            || status.contains("Dmitri may change only their own `springs`, not Boris's"),
        "{status}"
    );
    assert!(status.contains("there is no variable `gears`"), "{status}");
    assert!(
        status.contains(
            "`SET springs 99`: players.Cleo.springs: 1 → 10 (99 asked for; it stops at its bound)"
        ),
        "a clamped value says so: {status}"
    );
    assert!(status.contains("rolled DICE6 = "), "{status}");
    assert!(!status.contains("ADD cogs 100"), "quoted: {status}");
    let verify = game.at("2030-01-01T02:00:00Z", &["roll", "verify"]);
    assert!(verify.stdout.contains("All 1 rolls"), "{}", verify.stdout);

    // The log shows who changed what, with the roll.
    let log = game.at(
        "2030-01-01T02:00:00Z",
        &["log", "Boris", "--var", "springs"],
    );
    assert!(
        log.stdout
            .contains("#1 players.Boris.springs: 3 → 5 (by @boris-b, comment 1)"),
        "{}",
        log.stdout
    );
    assert!(!log.stdout.contains("cogs"), "{}", log.stdout);
    let all = game.at("2030-01-01T02:00:00Z", &["log", "--var", "springs"]);
    assert!(
        all.stdout.contains("players.Ada.springs: 4 → "),
        "{}",
        all.stdout
    );
    assert!(
        all.stdout
            .contains("by @ada-tinkers, comment 2, rolled DICE6 = "),
        "{}",
        all.stdout
    );

    // The site's tracker and Boris's page show the log, from git history.
    let build = game.run(&["build", "--check-links"]);
    assert_eq!(build.code, 0, "{}{}", build.stdout, build.stderr);
    let tracker = game.read("public/tracker/index.html");
    assert!(
        tracker.contains(
            "role=\"rowheader\">\u{2068}Boris\u{2069}&#39;s springs</th><td role=\"cell\" class=\"was\" data-label=\"Was\">3</td><td role=\"cell\" class=\"now\" data-label=\"Now\">5</td><td role=\"cell\" data-label=\"From\">#1, comment 1</td>"
        ),
        "{tracker}"
    );
    assert!(
        tracker.contains(
            "role=\"rowheader\">\u{2068}Ada\u{2069}&#39;s springs</th><td role=\"cell\" class=\"was\" data-label=\"Was\">4</td>"
        ) && tracker.contains(", comment 2, rolled DICE6 = "),
        "{tracker}"
    );
    let boris = game.read("public/players/boris.html");
    assert!(
        boris.contains("role=\"rowheader\">\u{2068}Boris\u{2069}&#39;s cogs</th><td role=\"cell\" class=\"was\" data-label=\"Was\">5</td><td role=\"cell\" class=\"now\" data-label=\"Now\">3</td>"),
        "{boris}"
    );
    assert!(!boris.contains("rowheader\">round</th>"), "{boris}");
    std::fs::remove_dir_all(game.path("public")).unwrap();

    // A second run, and an edit of a handled comment, change nothing.
    let commits = game.main_commits();
    game.at("2030-01-01T03:00:00Z", &["resolve"]);
    assert_eq!(game.main_commits(), commits);
    assert_eq!(variables(&game), vars);
}

#[test]
fn a_run_killed_after_announcing_is_finished_once() {
    let game = game_with_action();
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        "boris-b",
        "ADD springs 2\nADD cogs 1",
    );
    let plan = game.at("2030-01-01T02:00:00Z", &["resolve", "--dry-run"]);
    assert!(plan.stdout.contains("#1 commit state/variables.toml: players.Boris.springs: 3 → 5, players.Boris.cogs: 5 → 6"), "{}", plan.stdout);
    // Killed after the announcement, before the commit.
    game.at("2030-01-01T02:00:00Z", &["resolve", "--halt-after", "1"]);
    assert!(variables(&game).contains("[players.Boris]\nsprings = 3\ncogs = 5"));
    game.at("2030-01-01T02:05:00Z", &["resolve"]);
    let vars = variables(&game);
    assert!(
        vars.contains("[players.Boris]\nsprings = 5\ncogs = 6"),
        "{vars}"
    );
    // Killed after the commit, before the final status: nothing twice.
    comment(&game, "2030-01-01T03:00:00Z", "boris-b", "ADD springs 1");
    game.at("2030-01-01T04:00:00Z", &["resolve", "--halt-after", "2"]);
    game.at("2030-01-01T04:05:00Z", &["resolve"]);
    game.at("2030-01-01T04:10:00Z", &["resolve"]);
    let vars = variables(&game);
    assert!(
        vars.contains("[players.Boris]\nsprings = 6\ncogs = 6"),
        "{vars}"
    );
    assert!(
        !game.forge_comments(1).contains("acting"),
        "the journal is settled"
    );
}

#[test]
fn idle_players_and_a_hiatus_stop_actions() {
    let game = GameTest::bundled();
    game.replace(
        "state/roster.toml",
        "login = \"dmitri-d\"\n",
        "login = \"dmitri-d\"\nidle = [{ from = 2029-01-01T00:00:00Z }]\n",
    );
    game.commit_all("Dmitri idles");
    game.open("2030-01-01T00:00:00Z", "boris-b", "action", "Winding", None);
    comment(&game, "2030-01-01T01:00:00Z", "dmitri-d", "ADD springs 1");
    game.at("2030-01-01T01:10:00Z", &["resolve"]);
    game.open("2030-01-01T01:30:00Z", "ada-tinkers", "dov", "I win", None);
    comment(&game, "2030-01-01T02:00:00Z", "boris-b", "ADD springs 1");
    game.at("2030-01-01T03:00:00Z", &["resolve"]);
    let status = status(&game);
    assert!(status.contains("not done: Dmitri was idle"), "{status}");
    assert!(
        status.contains("a Declaration of Victory was pending"),
        "{status}"
    );
    assert!(variables(&game).contains("[players.Boris]\nsprings = 3"));
}

#[test]
fn collections_change_by_comment_and_a_killed_run_is_finished_once() {
    let game = game_with_action();
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        "ada-tinkers",
        "ADD gadgets spare-key name=\"Winding Key\" cogs=4\nREMOVE gadgets pocket-orrery",
    );
    comment(
        &game,
        "2030-01-01T01:10:00Z",
        "boris-b",
        "ADD gadgets.pocket-orrery.cogs -1\nSET gadgets.pocket-orrery.cogs 1\nREMOVE gadgets pocket-orrery\nADD gadgets.spare-key.cogs 1",
    );
    let plan = game.at("2030-01-01T02:00:00Z", &["resolve", "--dry-run"]);
    assert!(
        plan.stdout
            .contains("#1 commit state/collections.toml: collections.gadgets: added spare-key"),
        "{}",
        plan.stdout
    );
    let twin = game.duplicate();
    twin.at("2030-01-01T02:00:00Z", &["resolve"]);
    // Killed after the commit, before the final status: nothing twice.
    game.at("2030-01-01T02:00:00Z", &["resolve", "--halt-after", "2"]);
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let items = game.read_at("main", "state/collections.toml").unwrap();
    assert_eq!(
        items,
        twin.read_at("main", "state/collections.toml").unwrap()
    );
    assert_eq!(
        items,
        "# Items of the named collections declared in schema.toml.\n\n[[gadgets]]\nid = \"spare-key\"\ncogs = 4\nname = \"Winding Key\"\nowner = \"Ada\"\n"
    );
    let status = status(&game);
    for answer in [
        "`REMOVE gadgets pocket-orrery`: not done: Ada may act only on their own items of `gadgets`",
        "`ADD gadgets.pocket-orrery.cogs -1`: collections.gadgets.pocket-orrery.cogs: 4 → 3",
        "`REMOVE gadgets pocket-orrery`: collections.gadgets: removed pocket-orrery",
        "`ADD gadgets.spare-key.cogs 1`: not done: Boris may act only on their own items",
    ] {
        assert!(status.contains(answer), "{answer}:\n{status}");
    }
    let check = game.run(&["check", "--rev", "main"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let log = game.at("2030-01-01T03:00:00Z", &["log", "--var", "cogs"]);
    assert!(
        log.stdout
            .contains("#1 collections.gadgets.pocket-orrery.cogs: 4 → -"),
        "{}",
        log.stdout
    );
    // A player's log is what concerns them: the item Ada added is hers,
    // though it is not one of her variables; Boris's changes are not.
    let ada = game.at("2030-01-01T03:00:00Z", &["log", "Ada"]);
    assert!(
        ada.stdout
            .contains("collections.gadgets.spare-key.name: - → \"Winding Key\" (by @ada-tinkers"),
        "{}",
        ada.stdout
    );
    assert!(!ada.stdout.contains("by @boris-b"), "{}", ada.stdout);
}

#[test]
fn seasonal_downtime_stops_actions_by_comment_and_by_pull_request() {
    let game = GameTest::committed();
    let at = "2030-12-24T09:00:00Z";
    game.at(
        at,
        &[
            "play", "open", "--as", "boris-b", "--kind", "action", "--title", "Winding",
        ],
    );
    comment(&game, "2030-12-24T10:00:00Z", "boris-b", "ADD springs 1");
    let vars = variables(&game).replace("springs = 6", "springs = 7");
    game.commit_on("more", &[("state/variables.toml", &vars)], "more springs");
    game.at(
        at,
        &[
            "play", "open", "--as", "dmitri-d", "--kind", "action", "--title", "More", "--branch",
            "more",
        ],
    );
    let run = game.at("2030-12-24T11:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Action #2: not merged")
            && run.stdout.contains("it is Seasonal Downtime"),
        "{}",
        run.stdout
    );
    assert!(
        status(&game).contains("not done: it was made during Seasonal Downtime"),
        "{}",
        status(&game)
    );
    assert!(variables(&game).contains("[players.Boris]\nsprings = 3"));
    let run = game.at("2030-12-27T00:00:00Z", &["resolve"]);
    assert!(run.stdout.contains("Action #2: merged"), "{}", run.stdout);
    assert!(variables(&game).contains("[players.Dmitri]\nsprings = 7"));
    assert!(
        variables(&game).contains("[players.Boris]\nsprings = 3"),
        "the comment made in the downtime stays refused"
    );
}

/// Found by the random histories: a DoV that fails in the same run as an
/// action comment made while it was pending. The hiatus is judged at the
/// comment's time, from the DoV's opening and resolution, so a run killed
/// after the DoV's record and finished by the next answers the comment as
/// an uninterrupted run does; a comment made before the DoV was opened is
/// carried out though the DoV is pending when the resolver runs.
#[test]
fn a_hiatus_is_judged_at_the_comments_time_in_any_run() {
    let game = game_with_action();
    game.commit_on(
        "b1",
        &[("content/pages/b1.md", "+++\ntitle = \"b1\"\n+++\nText.\n")],
        "b1",
    );
    comment(&game, "2030-01-01T00:00:30Z", "cleo-c", "ADD springs 1");
    game.open("2030-01-01T00:01:00Z", "cleo-c", "dov", "T", Some("b1"));
    comment(
        &game,
        "2030-01-03T05:01:00Z",
        "dmitri-d",
        "ADD springs DICE6",
    );
    let twin = game.duplicate();
    twin.at("2030-01-03T05:01:00Z", &["resolve"]);
    // Killed after the DoV's record, before the action's answer.
    let killed = game.at("2030-01-03T05:01:00Z", &["resolve", "--halt-after", "5"]);
    assert!(
        killed.stdout.contains("Halted after 5"),
        "{}",
        killed.stdout
    );
    game.at("2030-01-03T05:01:00Z", &["resolve"]);
    assert_eq!(
        game.read_at("main", "state/variables.toml"),
        twin.read_at("main", "state/variables.toml"),
        "the killed run, finished, leaves what the uninterrupted one does"
    );
    let status = status(&twin);
    assert!(
        status.contains("comment 1 by @cleo-c: `ADD springs 1`: players.Cleo.springs: 1 → 2"),
        "made before the DoV: carried out: {status}"
    );
    assert!(
        status.contains(
            "comment 2 by @dmitri-d: `ADD springs DICE6`: not done: it was made while a Declaration of Victory was pending"
        ),
        "made during it: refused, in both runs: {status}"
    );
}

/// An action pull request may add and remove its author's own items of a
/// collection whose `by` is `own`, as `ADD`/`REMOVE` by comment may; not
/// another player's.
#[test]
fn an_action_pull_request_adds_and_removes_its_authors_own_items() {
    let game = GameTest::committed();
    let items = game.read_at("main", "state/collections.toml").unwrap();
    let mine = items.replace(
        "[[gadgets]]\nid = \"pocket-orrery\"\nname = \"Pocket Orrery\"\nowner = \"Boris\"\ncogs = 4\n",
        "[[gadgets]]\nid = \"spare-key\"\nname = \"Spare Key\"\nowner = \"Boris\"\ncogs = 1\n",
    );
    assert_ne!(mine, items, "the bundled game has Boris's orrery");
    game.commit_on("swap", &[("state/collections.toml", &mine)], "a new gadget");
    let at = "2030-01-01T00:00:00Z";
    game.at(
        at,
        &[
            "play", "open", "--as", "boris-b", "--kind", "action", "--title", "Swap", "--branch",
            "swap",
        ],
    );
    let theirs = items.replace("owner = \"Boris\"\ncogs = 4", "owner = \"Boris\"\ncogs = 0");
    game.commit_on("raid", &[("state/collections.toml", &theirs)], "no cogs");
    let removed = items.replace(
        "[[gadgets]]\nid = \"pocket-orrery\"\nname = \"Pocket Orrery\"\nowner = \"Boris\"\ncogs = 4\n",
        "",
    );
    game.commit_on("gone", &[("state/collections.toml", &removed)], "no orrery");
    for (branch, title) in [("raid", "Raid"), ("gone", "Gone")] {
        game.at(
            at,
            &[
                "play",
                "open",
                "--as",
                "ada-tinkers",
                "--kind",
                "action",
                "--title",
                title,
                "--branch",
                branch,
            ],
        );
    }
    let check = game.at("2030-01-01T00:10:00Z", &["check", "--pr", "1", "--dry-run"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let run = game.at("2030-01-01T00:10:00Z", &["resolve"]);
    assert!(run.stdout.contains("Action #1: merged"), "{}", run.stdout);
    for n in [2, 3] {
        assert!(
            run.stdout
                .contains("Ada may act only on their own items of `gadgets`")
                && !run.stdout.contains(&format!("Action #{n}: merged")),
            "#{n}: {}",
            run.stdout
        );
    }
    let now = game.read_at("main", "state/collections.toml").unwrap();
    assert!(
        now.contains("spare-key") && !now.contains("pocket-orrery"),
        "{now}"
    );
}
