//! `gitnomic resolve` on the local forge, on real temporary repositories.

use crate::game_test::GameTest;

/// The bundled game committed on `main`, with branch `p1` giving Dmitri
/// one more spring, opened as proposal #1 by Ada at 2030-01-01T00:00Z.
fn game_with_proposal() -> GameTest {
    let game = GameTest::committed();
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 7");
    game.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let run = game.at(
        "2030-01-01T00:00:00Z",
        &[
            "play",
            "open",
            "--as",
            "ada-tinkers",
            "--kind",
            "proposal",
            "--title",
            "More springs",
            "--branch",
            "p1",
        ],
    );
    assert!(run.stdout.contains("opened Proposal #1"), "{}", run.stdout);
    game
}

fn vote(game: &GameTest, at: &str, login: &str, body: &str) {
    game.at(at, &["play", "comment", "1", body, "--as", login]);
}

#[test]
fn enacts_at_quorum_after_twelve_hours_and_a_second_run_does_nothing() {
    let game = game_with_proposal();
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    vote(&game, "2030-01-01T02:00:00Z", "dmitri-d", "Nice. FOR");
    let before = game.main_commits();
    let run = game.at("2030-01-01T11:59:59Z", &["resolve"]);
    assert!(run.stdout.contains("Proposal #1: wait"), "{}", run.stdout);
    assert_eq!(game.main_commits(), before, "nothing merged before 12 h");

    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        run.stdout
    );
    assert!(
        game.read_at("main", "state/variables.toml")
            .unwrap()
            .contains("springs = 7")
    );
    let record = game
        .read_at("main", "content/matters/00001.md")
        .expect("a record on main");
    assert!(record.contains("outcome = \"enacted\""), "{record}");
    assert!(
        record.contains("player = \"Boris\"") && record.contains("player = \"Dmitri\""),
        "{record}"
    );
    assert!(game.forge_comments(1).contains("### Proposal #1: Enacted"));
    let after = game.main_commits();
    assert_eq!(after, before + 2, "a merge commit and a record commit");

    let comments = game.forge_comments(1);
    let run = game.at("2030-01-01T12:05:00Z", &["resolve"]);
    assert!(!run.stdout.contains("#1"), "{}", run.stdout);
    assert_eq!(
        game.main_commits(),
        after,
        "the second run merges and records nothing"
    );
    assert_eq!(game.forge_comments(1), comments, "and posts nothing");
}

#[test]
fn an_authors_against_self_kills_and_the_proposal_is_closed() {
    let game = game_with_proposal();
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    vote(
        &game,
        "2030-01-01T02:00:00Z",
        "ada-tinkers",
        "On reflection, AGAINST",
    );
    vote(&game, "2030-01-01T03:00:00Z", "ada-tinkers", "FOR again");
    let run = game.at("2030-01-01T04:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: fail — failed"),
        "{}",
        run.stdout
    );
    assert!(
        game.read_at("main", "state/variables.toml")
            .unwrap()
            .contains("springs = 6"),
        "not merged"
    );
    let record = game.read_at("main", "content/matters/00001.md").unwrap();
    assert!(record.contains("outcome = \"failed\""), "{record}");
    assert!(game.forge_comments(1).contains("**Self-killed.**"));
    let run = game.at("2030-01-01T05:00:00Z", &["play", "list"]);
    assert!(
        !run.stdout.contains("#1 Proposal"),
        "closed: {}",
        run.stdout
    );
}

#[test]
fn a_push_of_substance_after_votes_voids_them_and_a_typo_fix_does_not() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md");
    let amended = rule.replacen("starts with three Springs", "starts with four Springs", 1);
    assert_ne!(amended, rule);
    game.commit_on(
        "p1",
        &[("rules/dynastic/springs.md", &amended)],
        "rename a word",
    );
    game.at(
        "2030-01-01T00:00:00Z",
        &[
            "play",
            "open",
            "--as",
            "ada-tinkers",
            "--kind",
            "proposal",
            "--title",
            "T",
            "--branch",
            "p1",
        ],
    );
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    game.at("2030-01-01T01:30:00Z", &["resolve"]); // the bot sees the first head

    // A typo fix (two characters in the body) keeps Boris's vote.
    let typo = amended.replacen("can hold", "can hlod", 1);
    assert_ne!(typo, amended);
    game.commit_on("p1", &[("rules/dynastic/springs.md", &typo)], "typo");
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    assert!(
        game.forge_comments(1).contains("| Boris | FOR |"),
        "{}",
        game.forge_comments(1)
    );

    // A change of substance (state/) voids it.
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 9");
    game.commit_on("p1", &[("state/variables.toml", &vars)], "and more springs");
    game.at("2030-01-01T03:00:00Z", &["resolve"]);
    let status = game.forge_comments(1);
    assert!(!status.contains("| Boris | FOR |"), "{status}");
    assert!(status.contains("cast on an earlier version"), "{status}");
}

#[test]
fn a_conflict_with_an_earlier_enactment_fails_the_proposal_with_the_reason() {
    let game = game_with_proposal();
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    vote(&game, "2030-01-01T02:00:00Z", "dmitri-d", "FOR");
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 2");
    game.commit_on(
        "main",
        &[("state/variables.toml", &vars)],
        "an earlier enactment",
    );
    let before = game.main_commits();
    let run = game.at("2030-01-01T12:00:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: fail — failed"),
        "{}",
        run.stdout
    );
    assert_eq!(
        game.main_commits(),
        before + 1,
        "no merge; the record alone"
    );
    let record = game.read_at("main", "content/matters/00001.md").unwrap();
    assert!(
        record.contains("failure = \"illegal\"") && record.contains("conflicts"),
        "{record}"
    );
    let status = game.forge_comments(1);
    assert!(
        status.contains("cannot be merged") && status.contains("state/variables.toml"),
        "{status}"
    );
    let run = game.at("2030-01-01T12:10:00Z", &["play", "list"]);
    assert!(
        !run.stdout.contains("#1 Proposal"),
        "closed: {}",
        run.stdout
    );
}

#[test]
fn a_dry_run_changes_nothing() {
    let game = game_with_proposal();
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    vote(&game, "2030-01-01T02:00:00Z", "dmitri-d", "FOR");
    let before = game.main_commits();
    let run = game.at("2030-01-01T12:00:00Z", &["resolve", "--dry-run"]);
    assert!(
        run.stdout
            .contains("Proposal #1: enact — enacted (would be, in a real run)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("#1 merge at"), "{}", run.stdout);
    assert_eq!(game.main_commits(), before);
    assert!(!game.forge_comments(1).contains("gitnomic:status"));
}

#[test]
fn a_run_that_stopped_after_merging_is_finished_by_the_next() {
    use gitnomic::forge::Forge as _;
    use gitnomic::forge::local::LocalForge;
    use gitnomic::matter::MatterNumber;
    use gitnomic::matter::journal::{Journal, Resolution};
    use gitnomic::record::Outcome;
    use gitnomic::time::Timestamp;

    let game = game_with_proposal();
    vote(&game, "2030-01-01T01:00:00Z", "boris-b", "FOR");
    vote(&game, "2030-01-01T02:00:00Z", "dmitri-d", "FOR");
    // Do what a run does up to the merge, then stop: no record, no final status.
    let at = Timestamp::parse("2030-01-01T12:00:00Z").unwrap();
    let forge = LocalForge::open(game.root(), "main", at).unwrap();
    let head = forge.matter(MatterNumber(1)).unwrap().head.unwrap();
    let journal = Journal {
        resolution: Some(Resolution {
            outcome: Outcome::Enacted,
            at,
            head: Some(head.clone()),
            reasons: vec!["3 FOR".into()],
            illegal: false,
        }),
        ..Journal::default()
    };
    forge
        .put_status(
            MatterNumber(1),
            &journal.render("Decided: enact (being carried out)"),
        )
        .unwrap();
    forge
        .set_labels(MatterNumber(1), &["resolving"], &[])
        .unwrap();
    forge.merge(MatterNumber(1), &head, "Enact").unwrap();
    assert!(game.read_at("main", "content/matters/00001.md").is_none());

    let run = game.at("2030-01-01T12:30:00Z", &["resolve"]);
    assert!(
        run.stdout.contains("finishing what an earlier run started"),
        "{}",
        run.stdout
    );
    let record = game
        .read_at("main", "content/matters/00001.md")
        .expect("the record is written");
    assert!(
        record.contains("outcome = \"enacted\"")
            && record.contains("resolved = \"2030-01-01T12:00:00Z\""),
        "{record}"
    );
    assert!(
        record.contains(&format!("head = \"{}\"", head.0)),
        "{record}"
    );
    let commits = game.main_commits();
    game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert_eq!(game.main_commits(), commits, "and only once");
}

/// Issue 36: a resolved matter keeps its argument. The record holds every
/// comment as data the TOML writer wrote (a comment that looks like the
/// record's own syntax adds no vote and no field), a long one cut at the
/// bound; the matter's page shows the discussion sanitised, each counted
/// vote marked and linked from the votes.
#[test]
fn a_record_keeps_the_discussion_as_data_and_its_page_shows_it() {
    let game = game_with_proposal();
    vote(
        &game,
        "2030-01-01T01:00:00Z",
        "boris-b",
        "FOR: more springs, more **Gadgets**.",
    );
    let forged = "+++\n[[votes]]\nplayer = \"Eve\"\nvote = \"AGAINST\"\n+++\n<script>alert(1)</script><img src=x onerror=alert(2)> Eve says hi";
    vote(&game, "2030-01-01T01:30:00Z", "eve-outsider", forged);
    let long = format!("FOR. {}", "tick ".repeat(1_000));
    vote(&game, "2030-01-01T02:00:00Z", "dmitri-d", &long);
    game.at("2030-01-01T12:00:00Z", &["resolve"]);
    let text = game
        .read_at("main", "content/matters/00001.md")
        .expect("a record on main");
    let file = gitnomic::source::SourceFile::new("content/matters/00001.md", text.clone());
    let record = gitnomic::record::Record::parse(&file).expect("the record reads back");
    let voters: Vec<&str> = record.votes.iter().map(|v| v.player.as_str()).collect();
    assert_eq!(voters, ["Ada", "Boris", "Dmitri"], "{text}");
    assert_eq!(record.comments, Some(3), "{text}");
    let said: Vec<(&str, Option<&str>)> = record
        .discussion
        .iter()
        .map(|c| (c.by.as_str(), c.vote.as_deref()))
        .collect();
    assert_eq!(
        said,
        [
            ("Boris", Some("FOR")),
            ("@eve-outsider", None),
            ("Dmitri", Some("FOR"))
        ]
    );
    assert_eq!(record.discussion[1].body, forged, "kept as written");
    let cut = &record.discussion[2];
    assert_eq!(
        cut.body.chars().count(),
        gitnomic::matter::discussion::COMMENT_CHARS
    );
    assert_eq!(
        cut.cut,
        Some(u32::try_from(long.chars().count() - cut.body.chars().count()).unwrap())
    );
    game.at("2030-01-01T12:10:00Z", &["check"]);

    game.at("2030-01-01T12:10:00Z", &["build"]);
    let page = game.read("public/matters/1.html");
    let discussion = page
        .split("<section class=\"discussion\"")
        .nth(1)
        .expect("a discussion on the matter's page");
    assert!(discussion.contains("(3 comments)"), "{discussion}");
    assert!(
        discussion.contains("FOR: more springs, more <strong>Gadgets</strong>."),
        "{discussion}"
    );
    assert!(discussion.contains("Eve says hi"), "{discussion}");
    for bad in ["<script", "onerror", "alert(1)"] {
        assert!(!discussion.contains(bad), "{bad} in {discussion}");
    }
    assert!(
        discussion.contains("<strong class=\"counted\">counted: FOR</strong>"),
        "{discussion}"
    );
    assert!(discussion.contains("Cut here: "), "{discussion}");
    let boris = &record.discussion[0];
    assert!(
        page.contains(&format!(
            "<a href=\"#_c{}\">01:00 UTC on 1 Jan 2030</a>",
            boris.id
        )),
        "Boris's vote links to his comment: {page}"
    );
}
