//! Issue 27 on the fake GitHub: a deleted vote counts as first seen and an
//! edited one says so, a status mentions nobody, a rival DoV created
//! before the enacting run decided fails by the enactment, and `check`
//! closes only when told, leaving the record to the next run.

use crate::fake::github::{FakeGitHub, Item, base64, unbase64};
use crate::game_test::GameTest;
use crate::github::{github, setup};

fn resolve(game: &GameTest, fake: &FakeGitHub, now: &str) -> String {
    let run = github(game, fake, now, &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run.stdout
}

/// What the bot committed on GitHub's default branch, brought into the
/// checkout, as the next workflow run's checkout would have it.
fn check_out(game: &GameTest, fake: &FakeGitHub) {
    let files: Vec<(String, String)> = fake
        .world()
        .contents
        .iter()
        .map(|(path, (_, text))| (path.clone(), unbase64(text)))
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    game.commit_on("main", &files, "what the bot committed");
}

#[test]
fn a_deleted_vote_counts_as_first_seen_an_edited_one_says_so_and_nobody_is_mentioned() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
        w.add_comment(1, "cleo-c", "2030-01-01T01:10:00Z", "FOR");
        w.add_comment(1, "lurker-l", "2030-01-01T01:20:00Z", "AGAINST");
    }
    resolve(&game, &fake, "2030-01-01T02:00:00Z");
    let status = fake.world().bot_comments(1).remove(0);
    assert!(status.contains("**3 FOR, 0 AGAINST**"), "{status}");
    {
        let mut w = fake.world();
        let boris = w
            .comments
            .iter()
            .find(|c| c.user.as_deref() == Some("boris-b"))
            .map(|c| c.id)
            .unwrap();
        w.comments.retain(|c| c.id != boris);
        w.touch(1, "2030-01-01T03:00:00Z");
        w.edit_comment(1, "cleo-c", "2030-01-01T03:10:00Z", "AGAINST");
    }
    resolve(&game, &fake, "2030-01-01T04:00:00Z");
    let status = fake.world().bot_comments(1).remove(0);
    assert!(status.contains("**3 FOR, 0 AGAINST**"), "{status}");
    let row = |who: &str| {
        status
            .lines()
            .find(|l| l.starts_with(&format!("| {who} |")))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        row("Boris").contains("| FOR |")
            && row("Boris").contains("(deleted since; it counts as first seen)"),
        "{status}"
    );
    assert!(
        row("Cleo").contains("| FOR |")
            && row("Cleo").contains("(edited since; it counts as first seen)"),
        "{status}"
    );
    let text = gitnomic::matter::journal::text_of(&status);
    assert!(text.contains("`@lurker-l`"), "{status}");
    assert!(
        !text.replace("`@lurker-l`", "").contains('@'),
        "a status mentions nobody: {status}"
    );
}

#[test]
fn a_rival_dov_created_before_the_enacting_run_decided_fails_by_it_with_its_record() {
    let (game, fake, _) = setup();
    {
        let mut w = fake.world();
        let game_toml = game.read("state/game.toml");
        w.contents
            .insert("state/game.toml".into(), ("abc".into(), base64(&game_toml)));
        w.items.insert(
            2,
            Item::issue(2, "DoV: three gadgets", "boris-b", "2030-01-01T00:00:00Z"),
        );
        w.add_comment(2, "ada-tinkers", "2030-01-01T01:00:00Z", "FOR");
        w.add_comment(2, "dmitri-d", "2030-01-01T02:00:00Z", "FOR");
    }
    let run = resolve(&game, &fake, "2030-01-01T12:00:00Z");
    assert!(run.contains("DoV #2: enact — enacted"), "{run}");
    check_out(&game, &fake);
    // Created a minute before the run decided, after it listed the issues.
    fake.world().items.insert(
        3,
        Item::issue(3, "DoV: me too", "cleo-c", "2030-01-01T11:59:00Z"),
    );
    let run = resolve(&game, &fake, "2030-01-01T12:05:00Z");
    assert!(
        run.contains("DoV #3: fail — failed")
            && run.contains("DoV #2 was enacted, which fails every other DoV"),
        "{run}"
    );
    let w = fake.world();
    let record = unbase64(&w.contents["content/matters/00003.md"].1);
    assert!(record.contains("outcome = \"failed\""), "{record}");
    assert_eq!(w.items[&3].state, "closed");
}

#[test]
fn check_closes_only_when_told_and_the_next_run_records_it() {
    let (game, fake, head) = setup();
    {
        let mut w = fake.world();
        let mut pull = Item::pull(
            2,
            "Proposal: mine",
            "mallory-m",
            "2030-01-01T00:10:00Z",
            &head,
        );
        pull.files = vec!["state/variables.toml".into()];
        w.items.insert(2, pull);
    }
    let asked = github(
        &game,
        &fake,
        "2030-01-01T00:20:00Z",
        &["check", "--pr", "2"],
    );
    assert_eq!(asked.code, 1, "{}{}", asked.stdout, asked.stderr);
    assert!(
        asked
            .stdout
            .contains("`mallory-m` is not a Tinkerer on the roster")
            && asked
                .stdout
                .contains("not ok: it cannot stand as a Proposal"),
        "{}",
        asked.stdout
    );
    assert_eq!(
        fake.world().items[&2].state,
        "open",
        "asking acts on nothing"
    );
    let closed = github(
        &game,
        &fake,
        "2030-01-01T00:21:00Z",
        &["check", "--pr", "2", "--close"],
    );
    assert!(
        closed.stdout.contains("closed"),
        "{}{}",
        closed.stdout,
        closed.stderr
    );
    {
        let w = fake.world();
        assert_eq!(w.items[&2].state, "closed");
        let status = w.bot_comments(2).join("\n");
        assert!(
            status.contains("Closing: not a matter")
                && status.contains("is not a Tinkerer on the roster"),
            "{status}"
        );
    }
    resolve(&game, &fake, "2030-01-01T00:30:00Z");
    let w = fake.world();
    let record = unbase64(&w.contents["content/matters/00002.md"].1);
    assert!(record.contains("outcome = \"not-a-matter\""), "{record}");
    assert!(
        w.items[&2].labels.iter().any(|l| l == "not-a-matter")
            && !w.items[&2].labels.iter().any(|l| l == "resolving"),
        "{:?}",
        w.items[&2].labels
    );
    assert!(
        w.bot_comments(2)
            .join("\n")
            .contains("Closed: not a matter")
    );
}

/// Issue 36, item 2, on the fake GitHub: the pull request GitHub's editor
/// opens ("Update variables.toml", no label) is a proposal by default:
/// `check` passes it saying so, `resolve` enacts it; one that changes the
/// tool's code too is no matter, neither closed nor counted.
#[test]
fn a_pull_request_titled_as_githubs_editor_titles_it_is_a_proposal_by_default() {
    let (game, fake, head) = setup();
    {
        let mut w = fake.world();
        let pull = w.items.get_mut(&1).unwrap();
        pull.labels.clear();
        pull.title = "Update variables.toml".into();
        let mut code = Item::pull(
            2,
            "Update main.rs",
            "boris-b",
            "2030-01-01T00:05:00Z",
            &head,
        );
        code.files = vec!["src/main.rs".into(), "state/variables.toml".into()];
        w.items.insert(2, code);
    }
    let check = github(
        &game,
        &fake,
        "2030-01-01T00:10:00Z",
        &["check", "--pr", "1"],
    );
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(
        check.stdout.contains("Proposal #1")
            && check.stdout.contains("a Proposal, as it names no kind"),
        "{}",
        check.stdout
    );
    let status = fake.world().statuses.last().cloned().unwrap();
    assert_eq!(status.state, "success", "{status:?}");
    assert!(
        status
            .description
            .contains("a Proposal, as it names no kind"),
        "{status:?}"
    );
    let check = github(
        &game,
        &fake,
        "2030-01-01T00:10:00Z",
        &["check", "--pr", "2"],
    );
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(
        check
            .stdout
            .contains("it changes src/main.rs, which no proposal may"),
        "{}",
        check.stdout
    );
    {
        let mut w = fake.world();
        w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
        w.add_comment(1, "cleo-c", "2030-01-01T01:00:00Z", "FOR");
    }
    let run = resolve(&game, &fake, "2030-01-01T13:00:00Z");
    assert!(run.contains("Proposal #1: enact"), "{run}");
    assert!(!run.contains("#2"), "{run}");
    let w = fake.world();
    assert_eq!(w.items[&2].state, "open", "no matter, left alone");
    assert!(w.bot_comments(2).is_empty(), "no status on it");
}
