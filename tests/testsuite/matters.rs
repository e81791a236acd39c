//! `check --pr`, action pull requests and Declarations of Victory on the
//! local forge.

use crate::game_test::GameTest;

#[test]
fn check_pr_accepts_a_proposal_and_names_its_rule_changes() {
    let game = GameTest::committed();
    let rule = game
        .read("rules/dynastic/springs.md")
        .replace("starts with three Springs", "starts with four Springs");
    game.commit_on(
        "p1",
        &[("rules/dynastic/springs.md", &rule)],
        "four springs",
    );
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "A matter",
        Some("p1"),
    );
    let run = game.run(&["--now", "2030-01-01T00:01:00Z", "check", "--pr", "1"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("amends 2.1 Springs"), "{}", run.stdout);
    let statuses = game.path(".git/gitnomic-forge/statuses");
    let status = std::fs::read_dir(statuses)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(
        std::fs::read_to_string(status)
            .unwrap()
            .contains("state = \"success\"")
    );
}

#[test]
fn check_pr_refuses_what_a_proposal_may_not_touch_and_broken_state() {
    let game = GameTest::committed();
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 60");
    game.commit_on(
        "p1",
        &[
            ("src/lib.rs", "// not the game\n"),
            ("state/variables.toml", &vars),
        ],
        "sneaky",
    );
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "A matter",
        Some("p1"),
    );
    let run = game.run(&["--now", "2030-01-01T00:01:00Z", "check", "--pr", "1"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("it changes src/lib.rs, but a Proposal may change only"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("60 is over its cap of 10"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("not ok: it cannot stand as a Proposal"),
        "a proposal may not change src/: {}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("closed"),
        "check only asks: {}",
        run.stdout
    );
}

#[test]
fn check_pr_asks_and_closes_a_proposal_over_the_pending_limit_only_when_told() {
    let game = GameTest::committed();
    for (n, branch) in ["p1", "p2", "p3"].iter().enumerate() {
        let page = format!("+++\ntitle = \"Page {n}\"\n+++\nText.\n");
        game.commit_on(
            branch,
            &[(&format!("content/pages/p{n}.md"), &page)],
            "a page",
        );
        game.open(
            &format!("2030-01-01T0{n}:00:00Z"),
            "boris-b",
            "proposal",
            "A matter",
            Some(branch),
        );
    }
    let run = game.run(&["--now", "2030-01-01T03:00:00Z", "check", "--pr", "2"]);
    assert_eq!(
        run.code, 0,
        "the second is within the limit: {}",
        run.stdout
    );
    // Asking acts on nothing: #3 stays open, and `play list` says what
    // the next run does with it.
    let run = game.run(&["--now", "2030-01-01T03:00:00Z", "check", "--pr", "3"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("already has 2 pending proposals")
            && run.stdout.contains("not ok: it cannot stand as a Proposal")
            && !run.stdout.contains("closed"),
        "{}",
        run.stdout
    );
    let list = game.at("2030-01-01T03:01:00Z", &["play", "list"]);
    assert!(
        list.stdout.contains(
            "#3 Proposal: not a matter, closed when the resolver next runs: it cannot be a proposal: the author already has 2 pending proposals"
        ),
        "{}",
        list.stdout
    );
    // Closing is asked for explicitly; the status says why.
    let run = game.run(&[
        "--now",
        "2030-01-01T03:02:00Z",
        "check",
        "--pr",
        "3",
        "--close",
    ]);
    assert!(run.stdout.contains("closed"), "{}", run.stdout);
    let shown = game
        .at("2030-01-01T03:03:00Z", &["play", "show", "3"])
        .stdout;
    assert!(
        shown.contains("; closed.") && shown.contains("already has 2 pending proposals"),
        "{shown}"
    );
    // The next run finishes it: its record, its labels.
    game.at("2030-01-01T03:04:00Z", &["resolve"]);
    let record = game.read_at("main", "content/matters/00003.md").unwrap();
    assert!(record.contains("outcome = \"not-a-matter\""), "{record}");
    let shown = game
        .at("2030-01-01T03:05:00Z", &["play", "show", "3"])
        .stdout;
    assert!(
        shown.contains("Labels: Proposal, not-a-matter") && shown.contains("Closed: not a matter"),
        "{shown}"
    );
}

/// A proposal opened while a DoV is pending waits out the hiatus, but only
/// a valid DoV makes one: the emperor's is closed as no valid DoV by the
/// resolver, so check must not refuse a proposal on its account.
#[test]
fn check_pr_refuses_a_proposal_in_a_hiatus_only_after_a_valid_dov() {
    for (declarer, hiatus) in [("ada-tinkers", true), ("wren-w", false)] {
        let game = GameTest::committed();
        game.open("2030-01-01T00:00:00Z", declarer, "dov", "A matter", None);
        let page = "+++\ntitle = \"Page\"\n+++\nText.\n";
        game.commit_on("p2", &[("content/pages/p.md", page)], "a page");
        game.open(
            "2030-01-01T01:00:00Z",
            "boris-b",
            "proposal",
            "A matter",
            Some("p2"),
        );
        let run = game.run(&["--now", "2030-01-01T01:01:00Z", "check", "--pr", "2"]);
        let refused = run.stdout.contains("hiatus");
        assert_eq!(refused, hiatus, "a DoV by {declarer}: {}", run.stdout);
        assert_eq!(run.code, if hiatus { 1 } else { 0 }, "{}", run.stdout);
    }
}

#[test]
fn an_action_that_checks_is_merged_without_a_vote_and_one_that_does_not_is_not() {
    let game = GameTest::committed();
    let vars = game
        .read("state/variables.toml")
        .replace("cogs = 5", "cogs = 7");
    game.commit_on(
        "tinker",
        &[("state/variables.toml", &vars)],
        "Boris tinkers",
    );
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "action",
        "A matter",
        Some("tinker"),
    );
    let roster = game
        .read("state/roster.toml")
        .replace("login = \"boris-b\"", "login = \"boris-b\"\nadmin = true");
    game.commit_on(
        "grab",
        &[("state/roster.toml", &roster)],
        "Boris makes himself admin",
    );
    game.open(
        "2030-01-01T00:05:00Z",
        "boris-b",
        "action",
        "A matter",
        Some("grab"),
    );
    let run = game.at("2030-01-01T00:10:00Z", &["resolve"]);
    assert!(run.stdout.contains("Action #1: merged"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Action #2: not-a-matter — closed: it changes state/roster.toml"),
        "{}",
        run.stdout
    );
    assert!(
        game.read_at("main", "state/variables.toml")
            .unwrap()
            .contains("cogs = 7")
    );
    assert_eq!(
        game.read_at("main", "state/roster.toml").unwrap(),
        game.read("state/roster.toml")
    );
}

#[test]
fn an_enacted_dov_crowns_its_author_and_awaits_the_ascension() {
    let game = GameTest::committed();
    game.open("2030-01-01T00:00:00Z", "boris-b", "dov", "A matter", None);
    for (at, login) in [
        ("2030-01-01T01:00:00Z", "ada-tinkers"),
        ("2030-01-01T02:00:00Z", "dmitri-d"),
    ] {
        game.at(at, &["play", "comment", "1", "FOR", "--as", login]);
    }
    let run = game.at("2030-01-01T11:00:00Z", &["resolve"]);
    assert!(run.stdout.contains("DoV #1: wait"), "{}", run.stdout);
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #1: enact — enacted"),
        "{}",
        run.stdout
    );
    let state = game.read_at("main", "state/game.toml").unwrap();
    assert!(state.contains("emperor = \"Boris\""), "{state}");
    assert!(state.contains("phase = \"awaiting-ascension\""), "{state}");
    assert!(
        state.contains("# The game, its terms and the current dynasty."),
        "comments kept: {state}"
    );
    assert!(
        game.read_at("main", "content/matters/00001.md")
            .unwrap()
            .contains("kind = \"dov\"")
    );
    let run = game.run(&["check", "--rev", "main"]);
    assert_eq!(run.code, 0, "the crowned game still checks: {}", run.stderr);
}

#[test]
fn an_ascension_address_begins_the_next_dynasty() {
    let game = GameTest::committed();
    game.open("2030-01-01T00:00:00Z", "boris-b", "dov", "A matter", None);
    for (at, login) in [
        ("2030-01-01T01:00:00Z", "ada-tinkers"),
        ("2030-01-01T02:00:00Z", "dmitri-d"),
    ] {
        game.at(at, &["play", "comment", "1", "FOR", "--as", login]);
    }
    game.at("2030-01-01T12:00:00Z", &["resolve"]);
    let crowned = game.read_at("main", "state/game.toml").unwrap();
    assert!(
        crowned.contains("phase = \"awaiting-ascension\""),
        "{crowned}"
    );
    let renamed = crowned
        .replace("players = \"Tinkerers\"", "players = \"Artisans\"")
        .replace("player = \"Tinkerer\"", "player = \"Artisan\"");
    // One branch per pull request: each Address pushes its own.
    for branch in ["aa", "aa-ada", "aa-again"] {
        game.commit_on(branch, &[("state/game.toml", &renamed)], "new terms");
    }
    let address = |at: &str, login: &str, branch: &str, body: &str| {
        let args = [
            "play",
            "open",
            "--as",
            login,
            "--kind",
            "ascension",
            "--title",
            "Ascension Address: Guilds",
            "--branch",
            branch,
            "--body",
            body,
        ];
        game.at(at, &args);
    };
    // #2 keeps clockwork-victory without listing it; #3 is not by the emperor.
    address(
        "2030-01-01T13:00:00Z",
        "boris-b",
        "aa",
        "Guilds!\n\nKeep: springs, cogs-and-gadgets, gadget-powers",
    );
    address(
        "2030-01-01T13:01:00Z",
        "ada-tinkers",
        "aa-ada",
        "Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory",
    );
    let check = game.run(&[
        "--now",
        "2030-01-01T13:05:00Z",
        "check",
        "--pr",
        "2",
        "--dry-run",
    ]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check.stdout.contains("without listing it"),
        "{}",
        check.stdout
    );
    let run = game.at("2030-01-01T13:10:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Ascension Address #2: not merged")
            && run.stdout.contains("`clockwork-victory`"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Ascension Address #3: not-a-matter — closed")
            && run.stdout.contains("only the new Clockmaker"),
        "{}",
        run.stdout
    );
    assert!(
        game.read_at("main", "state/game.toml")
            .unwrap()
            .contains("awaiting-ascension"),
        "nothing merged yet"
    );

    address(
        "2030-01-01T14:00:00Z",
        "boris-b",
        "aa-again",
        "Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory",
    );
    let run = game.at("2030-01-01T14:10:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Ascension Address #4: merged"),
        "{}",
        run.stdout
    );
    let state = game.read_at("main", "state/game.toml").unwrap();
    assert!(
        state.contains("number = 2") && state.contains("phase = \"playing\""),
        "{state}"
    );
    assert!(
        state.contains("started = 2030-01-01T14:10:00Z") && state.contains("emperor = \"Boris\""),
        "{state}"
    );
    assert!(
        state.contains("players = \"Artisans\""),
        "the Address's new terms: {state}"
    );
    let list = game.run(&["check", "--rev", "main", "--list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(
        list.stdout.contains("\tcore\tArtisans\n"),
        "{}",
        list.stdout
    );
    // Once the dynasty has begun no Address is awaited: #2 is no matter.
    let run = game.at("2030-01-01T15:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains(
            "Ascension Address #2: not-a-matter — closed: it cannot be an Ascension Address: no Ascension Address is awaited"
        ),
        "{}",
        run.stdout
    );
}
