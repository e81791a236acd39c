//! Two pull requests with the same head commit ("twins"): each is a matter
//! of its own, and each enactment is merged by its own merge commit, even
//! when the other's merge has already brought the head in. A run halted
//! part-way is finished by the next exactly as a run that was not.

use crate::game_test::{GameTest, copy_tree};
use crate::histories_checks::assert_same_state;

/// The bundled game with proposals #1 (Ada, branch `p1`, opened at
/// `first`) and #2 (Cleo, branch `p2`, opened at `second`) at the same
/// commit, which writes `path` as `edit` makes it; each has FORs from
/// Boris, Dmitri and Wren an hour after it opened.
fn twins(path: &str, edit: &dyn Fn(String) -> String, first: &str, second: &str) -> GameTest {
    let game = GameTest::committed();
    let text = edit(game.read(path));
    let head = game.commit_on("p1", &[(path, &text)], "a change");
    let repo = git2::Repository::open(game.root()).unwrap();
    let commit = repo
        .find_commit(git2::Oid::from_str(&head).unwrap())
        .unwrap();
    repo.branch("p2", &commit, false).unwrap();
    for (n, at, login, title, branch) in [
        ("1", first, "ada-tinkers", "A change", "p1"),
        ("2", second, "cleo-c", "The same change", "p2"),
    ] {
        game.open(at, login, "proposal", title, Some(branch));
        let later = format!(
            "{}T{:02}{}",
            &at[..10],
            at[11..13].parse::<u32>().unwrap() + 1,
            &at[13..]
        );
        for voter in ["boris-b", "dmitri-d", "wren-w"] {
            game.at(&later, &["play", "comment", n, "FOR", "--as", voter]);
        }
    }
    game
}

/// Twins giving Dmitri one more spring, both opened at midnight.
fn more_springs() -> GameTest {
    twins(
        "state/variables.toml",
        &|text| text.replace("springs = 6", "springs = 7"),
        "2030-01-01T00:00:00Z",
        "2030-01-01T00:00:00Z",
    )
}

/// Twins adding a player, #2 opened six hours after #1: #1 is enacted at
/// noon, #2 by a run at six in the evening, on a roster #1 changed.
fn a_new_player() -> GameTest {
    let game = twins(
        "state/roster.toml",
        &|text| text + "\n[[players]]\nname = \"Newt\"\nlogin = \"newt-n\"\n",
        "2030-01-01T00:00:00Z",
        "2030-01-01T06:00:00Z",
    );
    let run = game.at("2030-01-01T12:01:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted")
            && run.stdout.contains("Proposal #2: wait"),
        "{}",
        run.stdout
    );
    game
}

/// The merge commit a record on main names.
fn merge_commit(game: &GameTest, number: u64) -> String {
    let record = game
        .read_at("main", &format!("content/matters/{number:05}.md"))
        .unwrap_or_else(|| panic!("no record of #{number} on main"));
    record
        .lines()
        .find_map(|l| l.strip_prefix("merge_commit = "))
        .unwrap_or_else(|| panic!("#{number}'s record names no merge commit:\n{record}"))
        .to_string()
}

#[test]
fn twins_enacted_in_one_run_are_each_merged_by_a_commit_of_their_own() {
    let game = more_springs();
    let now = "2030-01-01T12:01:00Z";
    let dry = game.at(now, &["resolve", "--dry-run"]);
    let run = game.at(now, &["resolve"]);
    for n in [1, 2] {
        assert!(
            run.stdout
                .contains(&format!("Proposal #{n}: enact — enacted")),
            "{}",
            run.stdout
        );
    }
    assert_eq!(
        run.effects("Done:"),
        dry.effects("Would do (dry run: nothing done):"),
        "the run does what its dry run said, none of it already done:\n{}\n{}",
        dry.stdout,
        run.stdout
    );
    assert_ne!(
        merge_commit(&game, 1),
        merge_commit(&game, 2),
        "#2's merge is not #1's"
    );
    let audit = game.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}", audit.stdout);
}

#[test]
fn a_twin_enacted_after_the_other_and_halted_after_any_effect_ends_as_a_run_that_was_not() {
    let game = a_new_player();
    let now = "2030-01-01T18:01:00Z";
    let whole = GameTest::empty();
    copy_tree(game.root(), whole.root());
    let run = whole.at(now, &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #2: enact — enacted")
            && !run.stdout.contains("(already done)"),
        "{}",
        run.stdout
    );
    assert_ne!(merge_commit(&whole, 1), merge_commit(&whole, 2));
    let record = whole.read_at("main", "content/matters/00002.md").unwrap();
    assert!(
        record.contains("active = 6"),
        "#2 was decided on the roster #1 made:\n{record}"
    );
    let effects = run.effects("Done:").len();
    assert!(effects > 4, "{}", run.stdout);
    for k in 0..effects {
        let halted = GameTest::empty();
        copy_tree(game.root(), halted.root());
        halted.at(now, &["resolve", "--halt-after", &k.to_string()]);
        let rest = halted.at(now, &["resolve"]);
        assert_same_state(
            halted.root(),
            whole.root(),
            &format!("halted after {k}: {}", rest.stdout),
        );
    }
}
