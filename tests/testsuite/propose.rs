//! `play propose`: a player's uncommitted changes to the game become a
//! branch of their own and a matter on the local forge; the work tree is
//! clean on the base branch after, and a refusal loses nothing.

use crate::game_test::GameTest;

/// The work tree's changed paths (tracked and new), as `git status` lists them.
fn changed(game: &GameTest) -> Vec<String> {
    let repo = git2::Repository::open(game.root()).unwrap();
    let mut options = git2::StatusOptions::new();
    options.include_untracked(true).recurse_untracked_dirs(true);
    let statuses = repo.statuses(Some(&mut options)).unwrap();
    let mut paths: Vec<String> = statuses
        .iter()
        .filter_map(|e| e.path().ok().map(str::to_string))
        .collect();
    paths.sort();
    paths
}

const RULE: &str = "rules/dynastic/clockwork-victory.md";
const NEW: &str = "rules/dynastic/tea.md";

#[test]
fn the_changes_move_to_a_branch_and_the_matter_opens() {
    let game = GameTest::committed();
    let nothing = game.run(&[
        "--now",
        "2030-01-01T00:00:00Z",
        "play",
        "propose",
        "--as",
        "ada-tinkers",
        "--title",
        "Tea",
    ]);
    assert_ne!(nothing.code, 0);
    assert!(
        nothing.stderr.contains("nothing to propose"),
        "{}",
        nothing.stderr
    );
    assert!(game.replace(RULE, "three", "four") >= 1);
    game.write(
        NEW,
        "+++\nid = \"tea\"\ntitle = \"Tea\"\n+++\nTea for all.\n",
    );
    let done = game.at(
        "2030-01-01T00:00:00Z",
        &[
            "play",
            "propose",
            "--as",
            "ada-tinkers",
            "--title",
            "Four, and tea!",
            "--body",
            "Slower, calmer.",
        ],
    );
    assert!(
        done.stdout
            .contains("opened Proposal #1: Four, and tea! from branch proposal/four-and-tea"),
        "{}",
        done.stdout
    );
    assert!(changed(&game).is_empty(), "clean: {:?}", changed(&game));
    assert!(!game.read(RULE).contains("four"), "main's text is back");
    assert!(!game.path(NEW).exists(), "the new rule left the work tree");
    let branch = "proposal/four-and-tea";
    assert!(game.read_at(branch, RULE).unwrap().contains("four"));
    assert_eq!(
        game.read_at(branch, NEW).as_deref(),
        Some("+++\nid = \"tea\"\ntitle = \"Tea\"\n+++\nTea for all.\n")
    );
    let shown = game.at("2030-01-01T00:01:00Z", &["play", "show", "1"]);
    assert!(shown.stdout.contains("Four, and tea!"), "{}", shown.stdout);
    assert!(shown.stdout.contains("Slower, calmer."), "{}", shown.stdout);
}

#[test]
fn a_refusal_leaves_the_work_tree_and_no_branch() {
    let game = GameTest::committed();
    game.at(
        "2030-01-02T00:00:00Z",
        &[
            "play",
            "open",
            "--as",
            "boris-b",
            "--kind",
            "cfj",
            "--title",
            "A question",
        ],
    );
    game.replace(RULE, "three", "four");
    game.write(NEW, "Tea.\n");
    let before = changed(&game);
    // Earlier than the newest matter: the forge refuses to open it.
    let early = game.run(&[
        "--now",
        "2030-01-01T00:00:00Z",
        "play",
        "propose",
        "--as",
        "ada-tinkers",
        "--title",
        "Four",
    ]);
    assert_ne!(early.code, 0);
    assert!(
        early
            .stderr
            .contains("your changes are still in the work tree"),
        "{}",
        early.stderr
    );
    assert_eq!(changed(&game), before);
    assert!(game.read(RULE).contains("four"));
    let repo = git2::Repository::open(game.root()).unwrap();
    assert!(
        repo.find_branch("proposal/four", git2::BranchType::Local)
            .is_err()
    );
    for (args, says) in [
        (
            vec!["--title", " ", "--as", "ada-tinkers"],
            "give the proposal a title",
        ),
        (
            vec!["--title", "Four", "--as", "not a login"],
            "is not a forge login",
        ),
    ] {
        let mut all = vec!["--now", "2030-01-03T00:00:00Z", "play", "propose"];
        all.extend(args);
        let run = game.run(&all);
        assert_ne!(run.code, 0);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert_eq!(changed(&game), before);
    }
}

/// A symbolic link among the changes is refused, not read through: its
/// target, which may be any file of the player's machine, would otherwise
/// be proposed (and pushed) as the rule's text. Nothing is moved.
#[cfg(unix)]
#[test]
fn a_symbolic_link_is_refused_not_read_through() {
    let game = GameTest::committed();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, "a secret of the player's\n").unwrap();
    assert!(game.replace(RULE, "three", "four") >= 1);
    std::os::unix::fs::symlink(&secret, game.path(NEW)).unwrap();
    let before = changed(&game);
    let refused = game.run(&[
        "--now",
        "2030-01-01T00:00:00Z",
        "play",
        "propose",
        "--as",
        "ada-tinkers",
        "--title",
        "Tea",
    ]);
    assert_ne!(refused.code, 0, "{}", refused.stdout);
    assert!(
        refused
            .stderr
            .contains("rules/dynastic/tea.md is not a plain file (a symbolic link, say)"),
        "{}",
        refused.stderr
    );
    assert_eq!(changed(&game), before, "the work tree is as it was");
    assert!(
        game.path(NEW)
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let repo = git2::Repository::open(game.root()).unwrap();
    let branches = repo
        .branches(Some(git2::BranchType::Local))
        .unwrap()
        .count();
    assert_eq!(branches, 1, "no branch but main");
}
