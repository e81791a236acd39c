//! Issue 27: the rules judged the same at every door (`check`, `resolve`,
//! `play list`, `tally`, `audit`), one test per defect, through the
//! binary on the local forge. The bundled game: five players, Wren the
//! Clockmaker, quorum 3.

use crate::game_test::{GameTest, copy_tree, open_matter};
use crate::histories_checks::assert_same_state;

/// Comments `body` on `number` as `login` at `at`; returns the comment's id.
fn comment(game: &GameTest, at: &str, number: &str, login: &str, body: &str) -> String {
    let run = game.at(at, &["play", "comment", number, body, "--as", login]);
    run.stdout
        .strip_prefix("comment ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_default()
        .to_string()
}

/// A proposal branch `name` that adds `sentence` to the Springs rule.
fn rule_branch(game: &GameTest, name: &str, sentence: &str) -> String {
    let rule = game.read("rules/dynastic/springs.md") + "\n" + sentence + "\n";
    game.commit_on(name, &[("rules/dynastic/springs.md", &rule)], "a sentence");
    rule
}

/// A branch `name` that sets `player`'s `springs` to `value`.
fn springs_branch(game: &GameTest, name: &str, player: &str, value: i64) {
    let text = game.read_at("main", "state/variables.toml").unwrap();
    let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
    doc["players"][player]["springs"] = toml_edit::value(value);
    game.commit_on(
        name,
        &[("state/variables.toml", &doc.to_string())],
        "springs",
    );
}

fn record(game: &GameTest, number: u64) -> Option<String> {
    game.read_at("main", &format!("content/matters/{number:05}.md"))
}

/// Item 1: a DoV within its author's cooldown is closed as no matter by
/// the resolver (not only by `check`), with its record; it starts no
/// hiatus and is never enacted.
#[test]
fn a_dov_within_its_authors_cooldown_is_refused_by_every_door() {
    let game = GameTest::committed();
    let first = open_matter(&game, "2030-01-01T00:00:00Z", "dmitri-d", "dov", None, "");
    for login in ["ada-tinkers", "boris-b", "cleo-c", "wren-w"] {
        comment(&game, "2030-01-01T01:00:00Z", &first, login, "AGAINST");
    }
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #1: fail — failed"),
        "{}",
        run.stdout
    );
    assert!(record(&game, 1).unwrap().contains("against = 4"));
    let second = open_matter(&game, "2030-01-02T09:00:00Z", "dmitri-d", "dov", None, "");
    for login in ["ada-tinkers", "boris-b", "cleo-c"] {
        comment(&game, "2030-01-02T09:30:00Z", &second, login, "FOR");
    }
    let check = game.run(&[
        "--now",
        "2030-01-02T10:00:00Z",
        "check",
        "--pr",
        &second,
        "--dry-run",
    ]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check
            .stdout
            .contains("they may declare again after 2030-01-06T12:00:00Z"),
        "{}",
        check.stdout
    );
    let list = game.at("2030-01-02T10:00:00Z", &["play", "list"]);
    assert!(
        list.stdout
            .contains("#2 DoV: not a matter, closed when the resolver next runs"),
        "{}",
        list.stdout
    );
    // The site says so too, from the same plan.
    game.at("2030-01-02T10:00:00Z", &["build"]);
    let pending = game.read("public/pending/index.html");
    assert!(
        pending.contains("<h2>Not matters</h2>")
            && pending.contains(
                "DoV #2 “<bdi>A matter</bdi>”: it cannot be a DoV: Dmitri&#39;s last DoV failed"
            ),
        "{pending}"
    );
    let run = game.at("2030-01-02T22:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains(
            "DoV #2: not-a-matter — closed: it cannot be a DoV: Dmitri's last DoV failed"
        ),
        "{}",
        run.stdout
    );
    assert!(
        record(&game, 2)
            .unwrap()
            .contains("outcome = \"not-a-matter\"")
    );
    let state = game.read_at("main", "state/game.toml").unwrap();
    assert!(
        state.contains("emperor = \"Wren\"") && state.contains("phase = \"playing\""),
        "{state}"
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}", audit.stdout);
}

/// The bundled game with DoV #1 by Boris (FOR from Ada and Dmitri: it
/// enacts at 12:00).
fn a_dov_that_enacts_at_noon() -> GameTest {
    let game = GameTest::committed();
    let dov = open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "dov", None, "");
    for login in ["ada-tinkers", "dmitri-d"] {
        comment(&game, "2030-01-01T01:00:00Z", &dov, login, "FOR");
    }
    game
}

/// Item 2: a rival DoV posted before an enactment, but seen only by a
/// later run, fails by the enactment with its record; it is not closed as
/// no DoV.
#[test]
fn a_rival_dov_posted_before_an_enactment_and_seen_after_it_fails_with_its_record() {
    let game = a_dov_that_enacts_at_noon();
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #1: enact — enacted"),
        "{}",
        run.stdout
    );
    // Posted a minute before the run decided, after it read the lists.
    let rival = open_matter(&game, "2030-01-01T11:59:00Z", "cleo-c", "dov", None, "");
    let check = game.run(&[
        "--now",
        "2030-01-01T12:01:00Z",
        "check",
        "--pr",
        &rival,
        "--dry-run",
    ]);
    assert_eq!(
        check.code, 0,
        "it was a valid DoV when posted: {}",
        check.stdout
    );
    let run = game.at("2030-01-01T12:05:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #2: fail — failed")
            && run
                .stdout
                .contains("DoV #1 was enacted, which fails every other DoV"),
        "{}",
        run.stdout
    );
    let failed = record(&game, 2).unwrap();
    assert!(failed.contains("outcome = \"failed\""), "{failed}");
    // One posted after the enactment is no DoV.
    let late = open_matter(&game, "2030-01-01T12:10:00Z", "cleo-c", "dov", None, "");
    let run = game.at("2030-01-01T12:15:00Z", &["resolve"]);
    assert!(
        run.stdout.contains(&format!("DoV #{late}: not-a-matter — closed: it cannot be a DoV: the new Clockmaker's Ascension Address is awaited")),
        "{}",
        run.stdout
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}", audit.stdout);
}

/// Item 2, killed: a run that enacts DoV #1 and fails the rival #2, killed
/// after any of its effects and finished by the next, ends exactly as the
/// run that was not killed.
#[test]
fn a_rival_dov_fails_the_same_whichever_effect_a_run_is_killed_after() {
    let game = a_dov_that_enacts_at_noon();
    open_matter(&game, "2030-01-01T11:59:00Z", "cleo-c", "dov", None, "");
    let now = "2030-01-01T12:00:00Z";
    let twin = GameTest::empty();
    copy_tree(game.root(), twin.root());
    let whole = twin.at(now, &["resolve"]);
    assert!(
        whole.stdout.contains("DoV #2: fail — failed"),
        "{}",
        whole.stdout
    );
    let effects = whole.effects("Done:").len();
    assert!(effects > 10, "{}", whole.stdout);
    for k in 0..effects {
        let killed = GameTest::empty();
        copy_tree(game.root(), killed.root());
        killed.at(now, &["resolve", "--halt-after", &k.to_string()]);
        let rest = killed.at(now, &["resolve"]);
        assert_same_state(
            killed.root(),
            twin.root(),
            &format!("killed after {k}: {}", rest.stdout),
        );
    }
}

/// Item 3: an action pull request goes through the schema's `by` as an
/// action by comment does, and the log credits its author.
#[test]
fn an_action_pull_request_needs_the_schemas_by_and_the_log_credits_its_author() {
    let game = GameTest::committed();
    springs_branch(&game, "theirs", "Ada", 9);
    let theirs = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "dmitri-d",
        "action",
        Some("theirs"),
        "",
    );
    let check = game.run(&[
        "--now",
        "2030-01-01T00:01:00Z",
        "check",
        "--pr",
        &theirs,
        "--dry-run",
    ]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    assert!(
        check.stdout.contains(
            "players.Ada.springs: 4 → 9: Dmitri may change only their own `springs`, not Ada's"
        ),
        "{}",
        check.stdout
    );
    let run = game.at("2030-01-01T00:10:00Z", &["resolve"]);
    assert!(
        run.stdout
            .contains("Action #1: not merged: players.Ada.springs"),
        "{}",
        run.stdout
    );
    assert!(
        game.read_at("main", "state/variables.toml")
            .unwrap()
            .contains("springs = 4")
    );
    game.at(
        "2030-01-01T00:11:00Z",
        &["play", "close", &theirs, "--as", "dmitri-d"],
    );
    springs_branch(&game, "mine", "Dmitri", 8);
    open_matter(
        &game,
        "2030-01-01T00:20:00Z",
        "dmitri-d",
        "action",
        Some("mine"),
        "",
    );
    let run = game.at("2030-01-01T00:30:00Z", &["resolve"]);
    assert!(run.stdout.contains("Action #2: merged"), "{}", run.stdout);
    let log = game.run(&["log", "Dmitri", "--var", "springs"]);
    assert!(
        log.stdout
            .contains("#2 players.Dmitri.springs: 6 → 8 (by @dmitri-d)"),
        "{}",
        log.stdout
    );
}

/// Item 4: a vote counted by a run still counts once its comment is
/// deleted, and the status says the comment was deleted since.
#[test]
fn a_counted_vote_still_counts_when_its_comment_is_deleted() {
    let game = GameTest::committed();
    rule_branch(&game, "p", "Springs are oiled weekly.");
    let n = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    comment(&game, "2030-01-01T01:00:00Z", &n, "cleo-c", "FOR");
    let dave = comment(&game, "2030-01-01T01:00:00Z", &n, "dmitri-d", "FOR");
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    assert!(
        game.forge_comments(1).contains("**3 FOR, 0 AGAINST**"),
        "{}",
        game.forge_comments(1)
    );
    game.at(
        "2030-01-01T03:00:00Z",
        &["play", "delete", &n, &dave, "--as", "dmitri-d"],
    );
    let list = game.at("2030-01-01T04:00:00Z", &["play", "list"]);
    assert!(
        list.stdout.contains("(3 FOR, 0 AGAINST")
            && list.stdout.contains("Dmitri: FOR, by a comment at 01:00 UTC on 1 Jan 2030 (deleted since; it counts as first seen)"),
        "{}",
        list.stdout
    );
    game.at("2030-01-01T04:00:00Z", &["resolve"]);
    let status = game.forge_comments(1);
    assert!(
        status.contains("**3 FOR, 0 AGAINST**")
            && status.contains("(deleted since; it counts as first seen)"),
        "{status}"
    );
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}", audit.stdout);
}

/// Item 5: comments dated after the run's moment are neither counted nor
/// acted on, nor are their rolls logged.
#[test]
fn comments_after_the_runs_moment_neither_vote_nor_act() {
    let game = GameTest::committed();
    let action = open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "action", None, "");
    comment(
        &game,
        "2030-01-01T10:00:00Z",
        &action,
        "boris-b",
        "ADD springs DICE6",
    );
    let early = game.at("2030-01-01T09:00:00Z", &["resolve", "--dry-run"]);
    let planned = early.effects("Would do");
    assert!(
        !planned
            .iter()
            .any(|e| e.contains("commit state/") || e.contains("commit content/rolls/")),
        "{planned:?}"
    );
    game.at("2030-01-01T09:00:00Z", &["resolve"]);
    assert!(game.read_at("main", "content/rolls/00001.toml").is_none());
    let run = game.at("2030-01-01T10:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("commit state/variables.toml"),
        "{}",
        run.stdout
    );
    assert!(game.read_at("main", "content/rolls/00001.toml").is_some());
}

/// Item 6: the run that merges an Ascension Address decides what the
/// hiatus froze, so it leaves nothing to do at its moment.
#[test]
fn the_run_that_merges_an_address_enacts_the_proposal_its_hiatus_froze() {
    let game = GameTest::committed();
    rule_branch(&game, "p", "Springs are oiled weekly.");
    let p = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    for login in ["cleo-c", "dmitri-d"] {
        comment(&game, "2030-01-01T00:10:00Z", &p, login, "FOR");
    }
    let dov = open_matter(&game, "2030-01-01T00:20:00Z", "boris-b", "dov", None, "");
    for login in ["ada-tinkers", "dmitri-d"] {
        comment(&game, "2030-01-01T00:30:00Z", &dov, login, "FOR");
    }
    let run = game.at("2030-01-01T12:30:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #2: enact — enacted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Proposal #1: wait — pending"),
        "{}",
        run.stdout
    );
    let state = game.read_at("main", "state/game.toml").unwrap();
    game.commit_on("aa", &[("state/game.toml", &state)], "no new terms");
    let keep = "Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory";
    open_matter(
        &game,
        "2030-01-01T13:00:00Z",
        "boris-b",
        "ascension",
        Some("aa"),
        keep,
    );
    let run = game.at("2030-01-01T13:10:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Ascension Address #3: merged"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    let again = game.at("2030-01-01T13:10:00Z", &["resolve", "--dry-run"]);
    assert!(again.effects("Would do").is_empty(), "{}", again.stdout);
}

/// Item 7: audit names a record deleted from main, and an enactment
/// reverted by hand.
#[test]
fn audit_names_a_deleted_record_and_a_reverted_enactment() {
    let game = GameTest::committed();
    springs_branch(&game, "p", "Cleo", 9);
    let n = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    for login in ["boris-b", "dmitri-d"] {
        comment(&game, "2030-01-01T01:00:00Z", &n, login, "FOR");
    }
    game.at("2030-01-01T12:00:00Z", &["resolve"]);
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}", audit.stdout);
    let record = record(&game, 1).unwrap();
    game.commit_removing("main", "content/matters/00001.md", "tidy up");
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}", audit.stdout);
    assert!(
        audit
            .stdout
            .contains("#1: closed on the forge, but main has no record of it"),
        "{}",
        audit.stdout
    );
    game.commit_on(
        "main",
        &[("content/matters/00001.md", &record)],
        "put it back",
    );
    let vars = game.read_at("main", "state/variables.toml").unwrap();
    let reverted = vars.replacen("springs = 9", "springs = 1", 1);
    game.commit_on("main", &[("state/variables.toml", &reverted)], "undo that");
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 1, "{}", audit.stdout);
    assert!(
        audit
            .stdout
            .contains("#1: its change to state/variables.toml (`springs = 9`) is gone from main")
            && audit.stdout.contains("(\"undo that\")"),
        "{}",
        audit.stdout
    );
}

/// Item 8: when a younger DoV is enacted, `tally` fails the older pending
/// one at that moment, as a resolve run does.
#[test]
fn tally_fails_an_older_dov_when_a_younger_one_is_enacted_as_resolve_does() {
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios/d13-an-enacted-dov-fails-older-pending-ones.toml");
    let game = GameTest::empty();
    let run = game.run(&["tally", scenario.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let decision = |id: u64| {
        json["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["id"] == id)
            .map(|d| {
                (
                    d["decision"].as_str().unwrap().to_string(),
                    d["reasons"].to_string(),
                )
            })
            .unwrap()
    };
    assert_eq!(decision(158).0, "enact");
    let (older, why) = decision(156);
    assert_eq!(older, "fail", "{why}");
    assert!(
        why.contains("DoV #158 was enacted, which fails every other DoV"),
        "{why}"
    );
    // The same on the local forge: Cleo's DoV (#1) waits, Boris's (#2)
    // enacts; one run does both.
    let game = GameTest::committed();
    open_matter(&game, "2030-01-01T00:00:00Z", "cleo-c", "dov", None, "");
    comment(&game, "2030-01-01T00:30:00Z", "1", "dmitri-d", "AGAINST");
    let younger = open_matter(&game, "2030-01-01T01:00:00Z", "boris-b", "dov", None, "");
    for login in ["ada-tinkers", "dmitri-d", "wren-w"] {
        comment(&game, "2030-01-01T02:00:00Z", &younger, login, "FOR");
    }
    let tally = game.at("2030-01-01T12:59:59Z", &["play", "list"]);
    assert!(
        tally.stdout.contains("DoV #1 “A matter”: pending"),
        "{}",
        tally.stdout
    );
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("DoV #2: enact — enacted"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("DoV #1: fail — failed"),
        "{}",
        run.stdout
    );
}

/// Item 10: a struck-through vote is withdrawn.
#[test]
fn a_struck_through_voting_word_is_withdrawn() {
    let game = GameTest::committed();
    rule_branch(&game, "p", "Springs are oiled weekly.");
    let n = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        &n,
        "boris-b",
        "~~AGAINST~~ FOR",
    );
    comment(&game, "2030-01-01T01:00:00Z", &n, "cleo-c", "FOR");
    comment(&game, "2030-01-01T02:00:00Z", &n, "cleo-c", "~~FOR~~");
    let list = game.at("2030-01-01T03:00:00Z", &["play", "list"]);
    assert!(list.stdout.contains("Boris: FOR"), "{}", list.stdout);
    assert!(
        list.stdout.contains("(3 FOR, 0 AGAINST"),
        "Cleo's FOR stands: {}",
        list.stdout
    );
    assert!(
        list.stdout.contains("not counted: Cleo at 02:00 UTC on 1 Jan 2030: voting words only in quotes, code or struck through"),
        "{}",
        list.stdout
    );
}

/// Ada's proposal from branch `p`, whose rule says `sentence`, with
/// Boris's FOR at 01:00 and a resolve run after it. Gives the rule's text
/// and the proposal's number.
fn voted_on(game: &GameTest, sentence: &str) -> (String, String) {
    let rule = rule_branch(game, "p", sentence);
    let n = open_matter(
        game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    comment(game, "2030-01-01T01:00:00Z", &n, "boris-b", "FOR");
    game.at("2030-01-01T01:30:00Z", &["resolve"]);
    (rule, n)
}

/// Ada pushes `text` as the rule of proposal `n` at `at`; gives `play
/// list` half an hour later.
fn push_rule(game: &GameTest, n: &str, text: &str, at: &str) -> String {
    game.commit_on("p", &[("rules/dynastic/springs.md", text)], "a push");
    game.at(at, &["play", "push", n, "--as", "ada-tinkers"]);
    let later = at.replace(":00:00Z", ":30:00Z");
    game.at(&later, &["play", "list"]).stdout
}

/// Asserts that the list `list` shows Boris's 01:00 vote voided by a push.
fn boris_voided(list: &str) {
    assert!(list.contains("Boris: —"), "{list}");
    assert!(
        list.contains(
            "not counted: boris-b at 01:00 UTC on 1 Jan 2030: cast on an earlier version"
        ),
        "{list}"
    );
}

/// Item 10: a change of a number is never a typo fix, however short.
#[test]
fn a_push_that_changes_a_number_is_no_typo_fix() {
    let game = GameTest::committed();
    let (rule, n) = voted_on(&game, "Building costs three Cogs and two Springs.");
    let cheaper = rule.replace("three Cogs and two Springs", "two Cogs and one Spring");
    boris_voided(&push_rule(&game, &n, &cheaper, "2030-01-01T02:00:00Z"));
}

/// A push after the votes that adds a word ("may give" made "may never
/// give", within the characters a typo fix may change) voids them; one
/// that only respells words keeps them, and the status names it so the
/// voters can look.
#[test]
fn a_push_that_adds_a_word_is_no_typo_fix_and_a_kept_one_is_named() {
    let game = GameTest::committed();
    let (rule, n) = voted_on(&game, "A Tinkerer may give Springs to anotehr.");
    let respelt = rule.replace("anotehr", "another");
    let list = push_rule(&game, &n, &respelt, "2030-01-01T02:00:00Z");
    assert!(list.contains("Boris: FOR"), "{list}");
    game.at("2030-01-01T02:40:00Z", &["resolve"]);
    let shown = game
        .at("2030-01-01T02:40:00Z", &["play", "show", &n])
        .stdout;
    assert!(
        shown.contains("Pushed at 02:00 UTC on 1 Jan 2030 (`")
            && shown.contains("taken as a typo fix: any votes cast before it stand."),
        "{shown}"
    );
    let never = respelt.replace("may give", "may never give");
    boris_voided(&push_rule(&game, &n, &never, "2030-01-01T03:00:00Z"));
}

/// Item 10: an Ascension Address's kept rules are one `Keep:` line; prose
/// is not read as a list, and an Address whose list cannot be read is not
/// merged.
#[test]
fn an_address_whose_keep_line_cannot_be_read_is_not_merged() {
    let game = a_dov_that_enacts_at_noon();
    game.at("2030-01-01T12:00:00Z", &["resolve"]);
    // The enacted DoV's status shows the new emperor the Address's form,
    // with every dynastic rule on its `Keep:` line.
    let shown = game
        .at("2030-01-01T12:01:00Z", &["play", "show", "1"])
        .stdout;
    assert!(
        shown.contains("Next: the new Clockmaker's Ascension Address.")
            && shown
                .contains("Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory\n"),
        "{shown}"
    );
    game.commit_removing("aa", "rules/dynastic/gadget-powers.md", "repeal");
    let n = open_matter(
        &game,
        "2030-01-01T13:00:00Z",
        "boris-b",
        "ascension",
        Some("aa"),
        "I repeal gadget-powers.",
    );
    let check = game.run(&[
        "--now",
        "2030-01-01T13:01:00Z",
        "check",
        "--pr",
        &n,
        "--dry-run",
    ]);
    assert!(
        check.stdout.contains("does not say which rules it keeps"),
        "{}",
        check.stdout
    );
    let run = game.at("2030-01-01T13:05:00Z", &["resolve"]);
    assert!(
        run.stdout.contains(
            "Ascension Address #2: not merged: its description does not say which rules it keeps"
        ),
        "{}",
        run.stdout
    );
}

/// Item 10: a command on the line right after a quoted one is answered,
/// not swallowed.
#[test]
fn a_command_continuing_a_quote_is_answered() {
    let game = GameTest::committed();
    let action = open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "action", None, "");
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        &action,
        "boris-b",
        "> ADD springs 5\nADD springs 1",
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let shown = game
        .at("2030-01-01T02:00:00Z", &["play", "show", &action])
        .stdout;
    assert!(
        shown.contains("`ADD springs 1`: not a command: it continues the quoted line above it"),
        "{shown}"
    );
    assert!(
        game.read_at("main", "state/variables.toml")
            .unwrap()
            .contains("[players.Boris]\nsprings = 3")
    );
}

/// Item 10: three changes one comment makes to a value are three lines of
/// the log, each with its roll.
#[test]
fn the_log_lists_each_change_of_one_comment() {
    let game = GameTest::committed();
    let action = open_matter(&game, "2030-01-01T00:00:00Z", "boris-b", "action", None, "");
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        &action,
        "boris-b",
        "ADD springs 1\nADD springs DICE2\nADD springs 1",
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let log = game.run(&["log", "Boris", "--var", "springs"]);
    let lines: Vec<&str> = log
        .stdout
        .lines()
        .filter(|l| l.contains("comment "))
        .collect();
    assert_eq!(lines.len(), 3, "{}", log.stdout);
    assert!(
        lines[0].contains("3 → 4") && lines[2].contains("→"),
        "{}",
        log.stdout
    );
    assert!(lines[1].contains("rolled DICE2 = "), "{}", log.stdout);
}

/// Item 10: play list says why a waiting proposal will fail, lists votes
/// a push voided, and gives the second a "more than 48 hours" passes.
#[test]
fn play_list_says_why_and_when_to_the_second() {
    let game = GameTest::committed();
    rule_branch(&game, "p1", "Springs are oiled weekly.");
    open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p1"),
        "",
    );
    springs_branch(&game, "p2", "Cleo", 2);
    let second = open_matter(
        &game,
        "2030-01-01T00:05:00Z",
        "boris-b",
        "proposal",
        Some("p2"),
        "",
    );
    comment(&game, "2030-01-01T00:10:00Z", &second, "wren-w", "VETO");
    let cfj = open_matter(&game, "2030-01-01T09:00:00Z", "cleo-c", "cfj", None, "");
    comment(&game, "2030-01-01T09:30:00Z", &cfj, "dmitri-d", "FOR");
    let list = game.at("2030-01-01T10:00:00Z", &["play", "list"]);
    assert!(
        list.stdout.contains("  Vetoed by Wren; "),
        "{}",
        list.stdout
    );
    assert!(
        list.stdout
            .contains("enacts at 09:00:01 UTC on 3 Jan 2030 if nothing changes"),
        "{}",
        list.stdout
    );
    let bad = game.run(&["--now", "2031-01-01 9am", "play", "list"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("such as `2031-01-01`"),
        "{}",
        bad.stderr
    );
    let dated = game.run(&["--now", "2030-01-02", "play", "list"]);
    assert_eq!(dated.code, 0, "{}", dated.stderr);
    assert!(
        dated.stdout.starts_with("\nAs of 00:00 UTC on 2 Jan 2030"),
        "{}",
        dated.stdout
    );
}

/// A proposal whose branch was deleted has nothing to merge: `resolve`
/// holds it, and `check`, `play list` and the pending page say so in the
/// same words rather than calling it ok, or due to be enacted.
#[test]
fn a_proposal_whose_branch_is_gone_is_held_at_every_door() {
    let game = GameTest::committed();
    rule_branch(&game, "p", "Springs rust in the rain.");
    let n = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    let before = game.at("2030-01-01T00:10:00Z", &["check", "--pr", &n]);
    assert_eq!(before.code, 0, "{}{}", before.stdout, before.stderr);
    let deleted = std::process::Command::new("git")
        .current_dir(game.root())
        .args(["branch", "-q", "-D", "p"])
        .status()
        .unwrap();
    assert!(deleted.success());
    let gone = "its branch is gone, so there is nothing to merge";
    let check = game.run(&["--now", "2030-01-01T00:20:00Z", "check", "--pr", &n]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains(gone), "{}", check.stdout);
    for voter in ["boris-b", "cleo-c"] {
        comment(&game, "2030-01-01T01:00:00Z", &n, voter, "FOR");
    }
    let list = game.at("2030-01-01T13:00:00Z", &["play", "list"]);
    assert!(
        list.stdout.contains(&format!(
            "#{n} Proposal: held when the resolver next runs: {gone}"
        )),
        "{}",
        list.stdout
    );
    game.at("2030-01-01T13:00:00Z", &["build"]);
    let pending = game.read("public/pending/index.html");
    assert!(
        pending.contains(&format!("Held when the resolver next runs: {gone}.<"))
            && !pending.contains("Enacts when the resolver next runs"),
        "{pending}"
    );
    let resolve = game.run(&["--now", "2030-01-01T13:00:00Z", "resolve"]);
    assert_eq!(
        resolve.code, 1,
        "held: {}{}",
        resolve.stdout, resolve.stderr
    );
    assert!(resolve.stdout.contains(gone), "{}", resolve.stdout);
}

/// Issue 34, item 8: `<s>FOR</s>` and `<del>FOR</del>` are struck through
/// as the forge shows them, and withdrawn as `~~FOR~~` is.
#[test]
fn a_vote_struck_through_with_html_is_withdrawn() {
    let game = GameTest::committed();
    rule_branch(&game, "p", "Springs are oiled weekly.");
    let n = open_matter(
        &game,
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        Some("p"),
        "",
    );
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        &n,
        "boris-b",
        "<s>AGAINST</s> FOR",
    );
    comment(
        &game,
        "2030-01-01T01:00:00Z",
        &n,
        "cleo-c",
        "<del>FOR</del>",
    );
    let list = game.at("2030-01-01T03:00:00Z", &["play", "list"]).stdout;
    assert!(list.contains("Boris: FOR"), "{list}");
    assert!(list.contains("(2 FOR, 0 AGAINST"), "{list}");
    assert!(list.contains("not counted: Cleo"), "{list}");
}

/// Issue 36, item 2: a pull request titled and labelled as GitHub's
/// editor makes it ("Update springs.md", no label) is a proposal by
/// default when it changes only what a proposal may, at every door:
/// `check` says so and how to name another kind, `play list` and the
/// site list it, `resolve` enacts it. One that changes the tool's code
/// too names no kind and is no matter, left open.
#[test]
fn a_pull_request_from_the_forges_editor_is_the_proposal_the_rules_say_at_every_door() {
    let game = GameTest::committed();
    rule_branch(&game, "p", "Springs rust in the rain.");
    let opened = game.at(
        "2030-01-01T00:00:00Z",
        &[
            "play",
            "open",
            "--as",
            "ada-tinkers",
            "--title",
            "Update springs.md",
            "--branch",
            "p",
        ],
    );
    assert!(
        opened
            .stdout
            .contains("(a Proposal by default: it names no kind)"),
        "{}",
        opened.stdout
    );
    let n: String = opened
        .stdout
        .split('#')
        .nth(1)
        .unwrap_or_default()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let check = game.run(&["--now", "2030-01-01T00:10:00Z", "check", "--pr", &n]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(
        check
            .stdout
            .contains(&format!("Proposal #{n} by ada-tinkers: Update springs.md"))
            && check
                .stdout
                .contains("a Proposal, as it names no kind (title it “CfJ: …”"),
        "{}",
        check.stdout
    );
    for voter in ["boris-b", "cleo-c"] {
        comment(&game, "2030-01-01T01:00:00Z", &n, voter, "FOR");
    }
    let list = game.at("2030-01-01T13:00:00Z", &["play", "list"]);
    assert!(
        list.stdout.contains(&format!(
            "Proposal #{n} “Update springs.md”: would be enacted now"
        )),
        "{}",
        list.stdout
    );
    game.at("2030-01-01T13:00:00Z", &["build"]);
    let pending = game.read("public/pending/index.html");
    assert!(
        pending.contains(&format!("Proposal #{n}: <bdi>Update springs.md</bdi>")),
        "{pending}"
    );
    let resolve = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(
        resolve.stdout.contains(&format!("Proposal #{n}: enact")),
        "{}",
        resolve.stdout
    );
    assert!(record(&game, n.parse().unwrap()).is_some(), "its record");

    // The tool's code as well: no kind, no matter, left open.
    let rule = game.read_at("main", "rules/dynastic/springs.md").unwrap() + "\nMore.\n";
    game.commit_on(
        "code",
        &[
            ("rules/dynastic/springs.md", rule.as_str()),
            ("src/extra.rs", "// code\n"),
        ],
        "code and a rule",
    );
    let opened = game.at(
        "2030-01-02T00:00:00Z",
        &[
            "play",
            "open",
            "--as",
            "boris-b",
            "--title",
            "Update springs.md",
            "--branch",
            "code",
        ],
    );
    assert!(
        opened.stdout.contains("(no matter: it names no kind)"),
        "{}",
        opened.stdout
    );
    let m: String = opened
        .stdout
        .split('#')
        .nth(1)
        .unwrap_or_default()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let check = game.run(&["--now", "2030-01-02T00:10:00Z", "check", "--pr", &m]);
    assert!(
        check
            .stdout
            .contains("it names no kind, and it changes src/extra.rs, which no proposal may"),
        "{}",
        check.stdout
    );
    let list = game.at("2030-01-02T01:00:00Z", &["play", "list"]);
    assert!(!list.stdout.contains(&format!("#{m} ")), "{}", list.stdout);
    assert!(list.code == 0, "{}{}", list.stdout, list.stderr);
    let resolve = game.at("2030-01-02T13:00:00Z", &["resolve"]);
    assert!(
        !resolve.stdout.contains(&format!("#{m}")),
        "{}",
        resolve.stdout
    );
}
