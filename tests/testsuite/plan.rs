//! The resolver's plan through the binary: one test per defect it fixes
//! (matters valid alone but not together, what cannot be carried out, the
//! dry run, a revived DoV, a dirty work tree, rule changes named from the
//! fork point, an Ascension Address's kept list, two kind labels).

use crate::game_test::{GameTest, open_matter};

fn vote(game: &GameTest, at: &str, number: u64, login: &str, body: &str) {
    game.at(
        at,
        &["play", "comment", &number.to_string(), body, "--as", login],
    );
}

/// Two FOR besides the author's own, from players other than `author`.
fn two_for(game: &GameTest, number: u64, author: &str) {
    let voters = ["ada-tinkers", "boris-b", "dmitri-d"];
    for login in voters.iter().filter(|l| **l != author).take(2) {
        vote(game, "2030-01-01T01:00:00Z", number, login, "FOR");
    }
}

/// A proposal opened by `login` at `at`: Dmitri's springs from 6 to 7.
fn more_springs(game: &GameTest, at: &str, login: &str) {
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 7");
    game.commit_on(
        "more",
        &[("state/variables.toml", &vars)],
        "Dmitri winds up",
    );
    open_matter(game, at, login, "proposal", Some("more"), "");
}

/// Three AGAINST on matter `number`, an hour in.
fn three_against(game: &GameTest, number: u64) {
    for login in ["ada-tinkers", "dmitri-d", "cleo-c"] {
        vote(game, "2030-01-01T01:00:00Z", number, login, "AGAINST");
    }
}

#[test]
fn two_proposals_valid_alone_but_not_together_leave_main_valid() {
    let game = GameTest::committed();
    let schema = game
        .read("state/schema.toml")
        .replacen("max = 10", "max = 7", 1);
    game.commit_on("cap", &[("state/schema.toml", &schema)], "cap springs at 7");
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 4", "springs = 8");
    game.commit_on("ada8", &[("state/variables.toml", &vars)], "Ada winds up");
    open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("cap"),
        "",
    );
    open_matter(
        &game,
        "2030-01-01T00:01:00Z",
        "boris-b",
        "proposal",
        Some("ada8"),
        "",
    );
    two_for(&game, 1, "ada-tinkers");
    two_for(&game, 2, "boris-b");
    // Each checks alone.
    for n in ["1", "2"] {
        let check = game.run(&[
            "--now",
            "2030-01-01T02:00:00Z",
            "check",
            "--pr",
            n,
            "--dry-run",
        ]);
        assert_eq!(check.code, 0, "#{n} alone: {}", check.stdout);
    }
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Proposal #2: fail — failed"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("over its cap of 7"),
        "the reason is given: {}",
        run.stdout
    );
    let check = game.run(&["check", "--rev", "main"]);
    assert_eq!(check.code, 0, "main still checks: {}", check.stdout);
    let record = game.read_at("main", "content/matters/00002.md").unwrap();
    assert!(record.contains("failure = \"illegal\""), "{record}");
}

#[test]
fn what_cannot_be_carried_out_is_closed_and_the_queue_moves_on_as_the_dry_run_said() {
    let game = GameTest::committed();
    let workflow = "name: x\non: push\njobs: {}\n";
    game.commit_on("wf", &[(".github/workflows/x.yml", workflow)], "a workflow");
    open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("wf"),
        "",
    );
    more_springs(&game, "2030-01-01T00:01:00Z", "boris-b");
    two_for(&game, 1, "ada-tinkers");
    two_for(&game, 2, "boris-b");
    let dry = game.at("2030-01-01T13:00:00Z", &["resolve", "--dry-run"]);
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        run.stdout
            .contains("Proposal #1: not-a-matter — closed: it changes .github/workflows/x.yml"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Proposal #2: enact — enacted"),
        "{}",
        run.stdout
    );
    let planned = dry.effects("Would do");
    assert!(planned.iter().any(|e| e == "#1 close"), "{planned:?}");
    assert_eq!(
        planned,
        run.effects("Done:"),
        "the dry run said what the run did"
    );
    assert!(game.read_at("main", ".github/workflows/x.yml").is_none());
    assert!(
        game.read_at("main", "content/matters/00001.md")
            .is_some_and(|r| r.contains("outcome = \"not-a-matter\"")),
        "its record says it was no matter"
    );
    let again = game.at("2030-01-01T13:30:00Z", &["resolve"]);
    assert!(
        !again.stdout.contains("#1"),
        "closed for good: {}",
        again.stdout
    );
}

#[test]
fn an_enacted_dov_fails_every_other_one_never_valid_is_closed_and_none_comes_back() {
    let game = GameTest::committed();
    open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "dov", None, "");
    open_matter(&game, "2030-01-01T00:01:00Z", "wren-w", "dov", None, "");
    open_matter(
        &game,
        "2030-01-01T00:02:00Z",
        "ada-tinkers",
        "dov",
        None,
        "",
    );
    two_for(&game, 1, "boris-b");
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #1: enact — enacted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "DoV #2: not-a-matter — closed: it cannot be a DoV: the Clockmaker may not declare victory"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("DoV #3: fail — failed") && run.stdout.contains("DoV #1 was enacted"),
        "{}",
        run.stdout
    );
    // The Address begins the next dynasty; #2 is closed for good.
    let state = game.read_at("main", "state/game.toml").unwrap();
    let kept = "Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory";
    game.commit_on("aa", &[("state/game.toml", &state)], "no new terms");
    let address = open_matter(
        &game,
        "2030-01-01T13:00:00Z",
        "boris-b",
        "ascension",
        Some("aa"),
        kept,
    );
    let run = game.at("2030-01-01T13:10:00Z", &["resolve"]);
    assert!(
        run.stdout
            .contains(&format!("Ascension Address #{address}: merged")),
        "{}",
        run.stdout
    );
    let late = game.run(&[
        "--now",
        "2030-01-01T14:00:00Z",
        "play",
        "comment",
        "2",
        "FOR",
        "--as",
        "ada-tinkers",
    ]);
    assert!(late.stderr.contains("no longer open"), "{}", late.stderr);
    let run = game.at("2030-01-02T14:00:00Z", &["resolve"]);
    assert!(!run.stdout.contains("DoV #2"), "{}", run.stdout);
    let state = game.read_at("main", "state/game.toml").unwrap();
    assert!(
        state.contains("phase = \"playing\"") && state.contains("emperor = \"Boris\""),
        "{state}"
    );
}

/// A run killed after deciding to enact a proposal that adds a player is
/// finished by the next run with the status an uninterrupted run posts:
/// the tally's rows are the players the decision counted, not the roster
/// the merge makes.
#[test]
fn a_finished_enactment_that_adds_a_player_keeps_the_rows_it_counted() {
    for halt in [None, Some("1")] {
        let game = GameTest::committed();
        let roster =
            game.read("state/roster.toml") + "\n[[players]]\nname = \"Fern\"\nlogin = \"fern-f\"\n";
        game.commit_on("join", &[("state/roster.toml", &roster)], "Fern joins");
        open_matter(
            &game,
            "2030-01-01T00:00:00Z",
            "ada-tinkers",
            "proposal",
            Some("join"),
            "",
        );
        two_for(&game, 1, "ada-tinkers");
        let now = "2030-01-01T13:00:00Z";
        if let Some(k) = halt {
            let halted = game.at(now, &["resolve", "--halt-after", k]);
            assert!(!halted.stdout.contains("Merged"), "{}", halted.stdout);
        }
        game.at(now, &["resolve"]);
        assert!(game.read("state/roster.toml").contains("Fern"), "enacted");
        let thread = game.at(now, &["play", "show", "1"]).stdout;
        let status = thread.rsplit("Tinkerer |").next().unwrap_or_default();
        assert!(
            status.contains("| Cleo | — |"),
            "halted after {halt:?}:\n{thread}"
        );
        assert!(!status.contains("Fern"), "halted after {halt:?}:\n{thread}");
    }
}

#[test]
fn a_dirty_work_tree_is_refused_and_left_as_it_was() {
    let game = GameTest::committed();
    more_springs(&game, "2030-01-01T00:00:00Z", "ada-tinkers");
    two_for(&game, 1, "ada-tinkers");
    let edited = game.read("rules/core/fair-play.md") + "\nAn uncommitted thought.\n";
    game.write("rules/core/fair-play.md", &edited);
    let before = game.main_commits();
    let run = game.run(&["--now", "2030-01-01T13:00:00Z", "resolve"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("changes of your own")
            && run.stderr.contains("rules/core/fair-play.md")
            && run.stderr.contains("nothing was done"),
        "names the file and that nothing was done: {}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("commit them"),
        "never advised into a commit that reverts: {}",
        run.stderr
    );
    assert_eq!(game.main_commits(), before, "nothing merged");
    assert_eq!(
        game.read("rules/core/fair-play.md"),
        edited,
        "the edit is kept"
    );
    let dry = game.run(&["--now", "2030-01-01T13:00:00Z", "resolve", "--dry-run"]);
    assert_eq!(
        dry.code, 0,
        "a dry run touches nothing, so it may: {}",
        dry.stderr
    );
    assert!(
        dry.stdout.contains("Proposal #1: enact")
            && dry.stdout.contains("a real run stops here")
            && dry.stdout.contains("rules/core/fair-play.md"),
        "it plans, and says what a real run would meet: {}",
        dry.stdout
    );
}

#[test]
fn rule_changes_are_named_from_where_a_proposal_forked() {
    let game = GameTest::committed();
    let rule = game
        .read("rules/dynastic/springs.md")
        .replace("starts with three Springs", "starts with four Springs");
    game.commit_on(
        "four",
        &[("rules/dynastic/springs.md", &rule)],
        "four springs",
    );
    open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("four"),
        "",
    );
    more_springs(&game, "2030-01-01T00:01:00Z", "boris-b");
    two_for(&game, 1, "ada-tinkers");
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    game.at("2030-01-01T14:00:00Z", &["resolve"]);
    let status = game.forge_comments(2);
    assert!(status.contains("Proposal #2: Pending"), "{status}");
    assert!(!status.contains("amends"), "#2 changes no rule: {status}");
    assert!(game.forge_comments(1).contains("amends 2.1 Springs"));
}

/// A DoV enacted, so an Ascension Address by Boris is awaited.
fn awaiting_address() -> GameTest {
    let game = GameTest::committed();
    open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "dov", None, "");
    two_for(&game, 1, "boris-b");
    game.at("2030-01-01T12:00:00Z", &["resolve"]);
    game
}

#[test]
fn an_address_that_keeps_a_rule_it_deletes_or_one_that_does_not_exist_is_refused() {
    let game = awaiting_address();
    // Delete gadget-powers but list it, and list an id that is not there.
    game.commit_removing(
        "aa",
        "rules/dynastic/gadget-powers.md",
        "repeal gadget powers",
    );
    let body = "Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory, `no-such-rule`";
    let number = open_matter(
        &game,
        "2030-01-01T13:00:00Z",
        "boris-b",
        "ascension",
        Some("aa"),
        body,
    );
    let check = game.run(&[
        "--now",
        "2030-01-01T13:05:00Z",
        "check",
        "--pr",
        &number,
        "--dry-run",
    ]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(
        check
            .stdout
            .contains("lists `gadget-powers` to keep, but its diff deletes it"),
        "{}",
        check.stdout
    );
    assert!(check.stdout.contains("`no-such-rule`"), "{}", check.stdout);
}

#[test]
fn a_pull_request_labelled_as_two_kinds_is_no_matter() {
    use gitnomic::forge::Forge as _;
    use gitnomic::forge::local::LocalForge;
    use gitnomic::matter::MatterNumber;
    use gitnomic::time::Timestamp;

    let game = GameTest::committed();
    more_springs(&game, "2030-01-01T00:00:00Z", "ada-tinkers");
    let at = Timestamp::parse("2030-01-01T00:01:00Z").unwrap();
    let forge = LocalForge::open(game.root(), "main", at).unwrap();
    forge.set_labels(MatterNumber(1), &["CfJ"], &[]).unwrap();
    let check = game.run(&[
        "--now",
        "2030-01-01T00:02:00Z",
        "check",
        "--pr",
        "1",
        "--dry-run",
    ]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check
            .stdout
            .contains("labelled as 2 kinds of matter (Proposal, CfJ)"),
        "{}",
        check.stdout
    );
}

#[test]
fn audit_replays_every_record_and_names_one_that_disagrees() {
    let game = GameTest::committed();
    more_springs(&game, "2030-01-01T00:00:00Z", "ada-tinkers");
    open_matter(&game, "2030-01-01T00:01:00Z", "boris-b", "cfj", None, "");
    two_for(&game, 1, "ada-tinkers");
    three_against(&game, 2);
    game.at("2030-01-01T13:00:00Z", &["resolve"]);
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit.stdout.contains("2 records audited"),
        "{}",
        audit.stdout
    );
    assert!(
        audit.stdout.contains("every one agrees"),
        "{}",
        audit.stdout
    );

    // A record edited by hand to say the CfJ passed is caught.
    let record = game.read_at("main", "content/matters/00002.md").unwrap();
    assert!(record.contains("outcome = \"failed\""), "{record}");
    let forged = record.replace("outcome = \"failed\"", "outcome = \"enacted\"");
    game.commit_on("main", &[("content/matters/00002.md", &forged)], "tidy");
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit.stdout.contains("#2 (content/matters/00002.md): recorded enacted, but its votes under the rules then fail it"),
        "{}",
        audit.stdout
    );

    // A record whose votes do not give its outcome, committed as written.
    let game = GameTest::committed();
    open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "cfj", None, "");
    three_against(&game, 1);
    let dry = game.at("2030-01-01T13:00:00Z", &["resolve", "--dry-run"]);
    assert!(dry.stdout.contains("CfJ #1: fail"), "{}", dry.stdout);
    game.at("2030-01-01T13:00:00Z", &["resolve"]);
    let record = game.read_at("main", "content/matters/00001.md").unwrap();
    let forged = record
        .replace("outcome = \"failed\"", "outcome = \"enacted\"")
        .replace("number = 1", "number = 7");
    game.commit_on(
        "main",
        &[("content/matters/00007.md", &forged)],
        "a forged record",
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}{}", audit.stdout, audit.stderr);
    assert!(
        audit.stdout.contains("#7 (content/matters/00007.md): recorded enacted, but its votes under the rules then fail it"),
        "{}",
        audit.stdout
    );
}
