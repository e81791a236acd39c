//! `gitnomic check` on the bundled game and on broken copies of it.

use crate::game_test::{GameTest, Run};

/// Asserts a run found problems (exit 1) and reported one starting with
/// `location` (`path:line:`) and containing `words`.
fn assert_problem(run: &Run, location: &str, words: &str) {
    assert_eq!(run.code, 1, "expected exit 1; stderr:\n{}", run.stderr);
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with(location) && l.contains(words)),
        "no problem at `{location}` containing `{words}` in:\n{}",
        run.stderr
    );
}

#[test]
fn the_bundled_game_checks_clean() {
    let game = GameTest::bundled();
    let run = game.run(&["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("ok: "), "{}", run.stdout);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn list_numbers_every_rule_from_its_position() {
    let game = GameTest::bundled();
    let run = game.run(&["check", "--list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .map(|l| l.split('\t').collect())
        .collect();
    let rule_files = walkdir::WalkDir::new(game.path("rules"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.file_name() != "_section.md")
        .count();
    assert_eq!(rows.len(), rule_files, "one row per rule file");
    assert!(rows.iter().all(|r| r.len() == 3), "number, section, title");
    assert_eq!(rows[0], ["1.1", "core", "Ruleset and Gamestate"]);
    // Terms are rendered: the title of the players rule is the player term.
    assert!(
        rows.iter().any(|r| r[1] == "core" && r[2] == "Tinkerers"),
        "{rows:?}"
    );
    assert!(rows.iter().any(|r| r[0] == "2.1" && r[1] == "dynastic"));
    assert!(
        rows.iter()
            .any(|r| r[0].starts_with("3.") && r[1] == "appendix")
    );
    let mut numbers: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    numbers.dedup();
    assert_eq!(numbers.len(), rows.len(), "numbers are unique");
}

#[test]
fn renaming_a_term_is_one_line_in_state() {
    let game = GameTest::bundled();
    game.replace(
        "state/game.toml",
        "players = \"Tinkerers\"",
        "players = \"Artisans\"",
    );
    let run = game.run(&["check", "--list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\tcore\tArtisans\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("Tinkerers"));
}

/// A `[game] repo` the site cannot link to is a problem `check` names,
/// as the build warns of it; a well-formed one is none.
#[test]
fn a_repo_setting_the_site_cannot_link_to() {
    let game = GameTest::bundled();
    let line = game.replace(
        "state/game.toml",
        "seed = \"clockwork-2026-11-01\"",
        "seed = \"clockwork-2026-11-01\"\nrepo = \"javascript:alert(1)//x/y\"",
    ) + 1;
    assert_problem(
        &game.run(&["check"]),
        &format!("state/game.toml:{line}:"),
        "[game] repo is neither OWNER/NAME nor an http(s) address",
    );
    game.replace(
        "state/game.toml",
        "javascript:alert(1)//x/y",
        "https://codeberg.org/gears/clockwork",
    );
    let run = game.run(&["check"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn malformed_toml_in_state() {
    let game = GameTest::bundled();
    let line = game.replace("state/variables.toml", "springs = 4", "springs = = 4");
    assert_problem(
        &game.run(&["check"]),
        &format!("state/variables.toml:{line}:"),
        "",
    );
}

#[test]
fn malformed_toml_in_rule_front_matter() {
    let game = GameTest::bundled();
    let line = game.replace(
        "rules/dynastic/springs.md",
        "title = \"Springs\"",
        "title = \"Springs",
    );
    assert_problem(
        &game.run(&["check"]),
        &format!("rules/dynastic/springs.md:{line}:"),
        "",
    );
}

#[test]
fn a_stat_over_its_cap() {
    let game = GameTest::bundled();
    let line = game.replace("state/variables.toml", "springs = 6", "springs = 12");
    assert_problem(
        &game.run(&["check"]),
        &format!("state/variables.toml:{line}:"),
        "12 is over its cap of 10",
    );
}

#[test]
fn a_negative_value_where_only_non_negative_is_allowed() {
    let game = GameTest::bundled();
    let line = game.replace("state/variables.toml", "cogs = 5", "cogs = -1");
    assert_problem(
        &game.run(&["check"]),
        &format!("state/variables.toml:{line}:"),
        "only non-negative values are allowed",
    );
}

#[test]
fn a_collection_item_naming_a_non_player() {
    let game = GameTest::bundled();
    let line = game.replace(
        "state/collections.toml",
        "owner = \"Boris\"",
        "owner = \"Nobody\"",
    );
    assert_problem(
        &game.run(&["check"]),
        &format!("state/collections.toml:{line}:"),
        "`Nobody` is not a player",
    );
}

#[test]
fn a_duplicate_rule_id() {
    let game = GameTest::bundled();
    let copy = game.read("rules/core/proposals.md");
    game.write("rules/dynastic/proposals-again.md", &copy);
    assert_problem(
        &game.run(&["check"]),
        "rules/dynastic/proposals-again.md:2:",
        "the rule id `proposals` is already used by rules/core/proposals.md",
    );
}

#[test]
fn a_rule_with_no_title() {
    let game = GameTest::bundled();
    game.replace("rules/dynastic/springs.md", "title = \"Springs\"\n", "");
    assert_problem(
        &game.run(&["check"]),
        "rules/dynastic/springs.md:1:",
        "the rule has no `title`",
    );
}

#[test]
fn a_subrule_whose_parent_does_not_exist() {
    let game = GameTest::bundled();
    let line = game.replace(
        "rules/dynastic/gadget-powers.md",
        "parent = \"cogs-and-gadgets\"",
        "parent = \"gears\"",
    );
    assert_problem(
        &game.run(&["check"]),
        &format!("rules/dynastic/gadget-powers.md:{line}:"),
        "the parent rule `gears` does not exist",
    );
}

#[test]
fn unknown_front_matter_keys() {
    let game = GameTest::bundled();
    let line = game.replace(
        "rules/core/fair-play.md",
        "title = ",
        "author = \"me\"\ntitle = ",
    );
    assert_problem(
        &game.run(&["check"]),
        &format!("rules/core/fair-play.md:{line}:"),
        "unknown front-matter key `author`",
    );
}

#[test]
fn an_unknown_name_in_rule_text() {
    let game = GameTest::bundled();
    let text = game.read("rules/dynastic/springs.md");
    game.write(
        "rules/dynastic/springs.md",
        &format!("{text}\nEach {{{{ wizard }}}} may wind.\n"),
    );
    let line = text.lines().count() + 2;
    assert_problem(
        &game.run(&["check"]),
        &format!("rules/dynastic/springs.md:{line}: [2.1 Springs]"),
        "unknown name `wizard`",
    );
}

#[test]
fn a_schema_referring_to_a_missing_rule() {
    let game = GameTest::bundled();
    game.replace(
        "state/schema.toml",
        "rule = \"springs\"",
        "rule = \"unwinding\"",
    );
    // The problem is reported at the declaration's name: `[players.springs]`.
    let line = game
        .read("state/schema.toml")
        .lines()
        .position(|l| l == "[players.springs]")
        .unwrap()
        + 1;
    assert_problem(
        &game.run(&["check"]),
        &format!("state/schema.toml:{line}:"),
        "refers to the rule `unwinding`, which does not exist",
    );
}

#[test]
fn every_problem_is_reported_in_one_run() {
    let game = GameTest::bundled();
    game.replace("state/variables.toml", "springs = 6", "springs = 12");
    game.replace(
        "rules/core/fair-play.md",
        "title = ",
        "author = \"me\"\ntitle = ",
    );
    let run = game.run(&["check"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains("state/variables.toml:")
            && run.stderr.contains("rules/core/fair-play.md:")
    );
    assert!(
        run.stderr.trim_end().ends_with("2 problems found"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_directory_that_is_no_game_cannot_be_checked() {
    let game = GameTest::bundled();
    std::fs::remove_dir_all(game.path("rules")).unwrap();
    std::fs::remove_dir_all(game.path("state")).unwrap();
    let run = game.run(&["check"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("holds no rules/ or state/ directory"),
        "{}",
        run.stderr
    );
}

#[test]
fn checks_a_git_revision_without_a_checkout() {
    let game = GameTest::bundled();
    let good = game.commit_all("the bundled game");
    game.replace("state/variables.toml", "springs = 6", "springs = 12");
    assert_eq!(game.run(&["check"]).code, 1, "the work tree is broken");
    let run = game.run(&["check", "--rev", "HEAD"]);
    assert_eq!(run.code, 0, "HEAD is not: {}", run.stderr);
    game.commit_all("break it");
    assert_problem(
        &game.run(&["check", "--rev", "HEAD"]),
        "state/variables.toml:",
        "over its cap",
    );
    assert_eq!(game.run(&["check", "--rev", &good, "--list"]).code, 0);
    let run = game.run(&["check", "--rev", "no-such-branch"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("`no-such-branch` does not name a commit"),
        "{}",
        run.stderr
    );
    // Git's words once, without its internal class and code.
    assert_eq!(run.stderr.matches("not found").count(), 1, "{}", run.stderr);
    assert!(!run.stderr.contains("class="), "{}", run.stderr);
}

#[test]
fn a_malformed_matter_record() {
    let game = GameTest::bundled();
    game.write(
        "content/matters/00003.md",
        "+++\nnumber = 3\nkind = \"proposal\"\ntitle = \"T\"\nauthor = \"Ada\"\ndynasty = 1\nopened = 2030-01-01T00:00:00Z\nresolved = 2030-01-02T00:00:00Z\noutcome = \"maybe\"\nresolved_by = \"gitnomic resolve\"\n[tally]\nfor = 1\nagainst = 0\nactive = 5\nquorum = 3\n+++\nText\n",
    );
    assert_problem(
        &game.run(&["check"]),
        "content/matters/00003.md:9:",
        "unknown variant `maybe`",
    );
}

#[test]
fn a_bad_engine_parameter_is_reported_at_its_rule() {
    let game = GameTest::bundled();
    let line = game.replace(
        "rules/core/proposals.md",
        "max_pending = 2",
        "max_pending = \"two\"",
    );
    assert_problem(
        &game.run(&["check"]),
        &format!("rules/core/proposals.md:{line}: [1.5 Proposals]"),
        "max_pending",
    );
    let game = GameTest::bundled();
    let line = game.replace(
        "rules/core/proposals.md",
        "max_pending = 2",
        "max_pendng = 2",
    );
    assert_problem(
        &game.run(&["check"]),
        &format!("rules/core/proposals.md:{line}:"),
        "max_pendng",
    );
}

/// `check --pr` on a branch made before a later enactment names only what
/// the branch changes (from where it forked, as the resolver and the site
/// read it), never a repeal of the rule enacted since.
#[test]
fn a_branch_older_than_an_enactment_does_not_repeal_it() {
    let game = GameTest::committed();
    let tea = "+++\nid = \"tea\"\ntitle = \"Tea\"\n+++\nTea for all.\n";
    game.commit_on("tea", &[("rules/dynastic/tea.md", tea)], "tea");
    let springs = "rules/dynastic/springs.md";
    let text = game.read_at("main", springs).unwrap() + "\nA further line.\n";
    game.commit_on("more", &[(springs, &text)], "more");
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "Tea",
        Some("tea"),
    );
    game.open(
        "2030-01-01T00:01:00Z",
        "boris-b",
        "proposal",
        "More",
        Some("more"),
    );
    for login in ["boris-b", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", "1", "FOR", "--as", login],
        );
    }
    let run = game.at("2030-01-02T00:00:00Z", &["resolve"]);
    assert!(
        game.read_at("main", "rules/dynastic/tea.md").is_some(),
        "#1 enacted: {}",
        run.stdout
    );
    let check = game.run(&[
        "--now",
        "2030-01-02T00:10:00Z",
        "check",
        "--pr",
        "2",
        "--dry-run",
    ]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(
        !check.stdout.contains("Tea") && !check.stdout.contains("repeals"),
        "only the branch's own change: {}",
        check.stdout
    );
    assert!(check.stdout.contains("amends"), "{}", check.stdout);
}
