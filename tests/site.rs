//! The site rendered from a small fixture game: snapshots of the main
//! content of key pages, and a link check over every page. Library-level
//! (`site::render` to memory), so no disk and no binary are involved.

use gitnomic::engine::ballot::Vote;
use gitnomic::engine::tally::{CountedVote, Source};
use gitnomic::engine::{Decision, Grounds, MatterDecision, NextChange, PlayerName, Run, Tally};
use gitnomic::engine::{MatterKind, MatterNumber};
use gitnomic::game::Game;
use gitnomic::game::timeline::{Revision, Sample, Timeline};
use gitnomic::matter::collected::Collected;
use gitnomic::matter::journal::Journal;
use gitnomic::matter::{Kind, Login, MatterInfo};
use gitnomic::record::{FinalTally, Outcome, Record, RecordedComment, RecordedVote};
use gitnomic::site::{self, Pending, RenderCache, Rendered, Site, SiteInput, ThemeFile};
use gitnomic::source::SourceFile;
use gitnomic::time::Timestamp;

fn file(path: &str, text: &str) -> SourceFile {
    SourceFile::new(path, text)
}

fn at(text: &str) -> Timestamp {
    Timestamp::parse(text).expect("fixture time")
}

/// A two-section game; `amended` changes one rule's text and adds one.
fn game_files(amended: bool) -> Vec<SourceFile> {
    let mut files = vec![
        file(
            "rules/core/_section.md",
            "+++\ntitle = \"Core Rules\"\norder = 1\n+++\nHow the game runs.\n",
        ),
        file(
            "rules/core/voting.md",
            "+++\nid = \"voting\"\ntitle = \"Voting\"\norder = 10\n\n[params]\nenact_quorum_hours = 12\n+++\nEach {{ player }} may vote on a matter. See Rule 1.2 and the rule entitled \"Raids\".\n",
        ),
        file(
            "rules/core/quorum.md",
            &format!(
                "+++\nid = \"quorum\"\ntitle = \"Quorum\"\norder = 20\n+++\nA quorum of {{{{ players }}}} may enact after {{{{ enact_quorum_hours }}}} hours{}.\n",
                if amended {
                    ", rounded up as “Ties” says"
                } else {
                    ""
                }
            ),
        ),
        file(
            "rules/core/quorum-ties.md",
            "+++\nid = \"quorum-ties\"\ntitle = \"Ties\"\nparent = \"quorum\"\n+++\nA tie fails. <script>alert(1)</script>\n",
        ),
        file(
            "rules/dynastic/_section.md",
            "+++\ntitle = \"Dynastic Rules\"\norder = 2\n+++\n",
        ),
        file(
            "rules/dynastic/raids.md",
            "+++\nid = \"raids\"\ntitle = \"Raids\"\n+++\nA raid costs one Spring, as Rule 1.1 allows.\n",
        ),
        file(
            "rules/appendix/keywords.md",
            "+++\nid = \"keywords\"\ntitle = \"Keywords\"\n\n[[terms]]\nterm = \"Quorum\"\ndefinition = \"Half the active {{ players }}.\"\n\n[[terms]]\nterm = \"Spring\"\ndefinition = \"A unit of effort.\"\n+++\nWords with special meanings.\n",
        ),
        file(
            "state/game.toml",
            "[game]\nname = \"Fixture\"\n\n[terms]\nplayer = \"Tinkerer\"\nplayers = \"Tinkerers\"\nemperor = \"Clockmaker\"\nemperors = \"Clockmakers\"\n\n[dynasty]\nnumber = 2\nemperor = \"Ada\"\nphase = \"playing\"\nstarted = 2030-01-01T00:00:00Z\n",
        ),
        file(
            "state/roster.toml",
            "[[players]]\nname = \"Ada\"\nlogin = \"ada\"\nadmin = true\njoined = 2030-01-01T00:00:00Z\n\n[[players]]\nname = \"Boris\"\nlogin = \"boris\"\njoined = 2030-01-02T00:00:00Z\nidle = [{ from = 2030-01-05T00:00:00Z }]\n",
        ),
        file(
            "state/schema.toml",
            "[players.springs]\ntype = \"int\"\ndefault = 3\nmax = 10\nrule = \"raids\"\ndescription = \"Wound springs.\"\n\n[globals.round]\ntype = \"int\"\ndefault = 1\nrule = \"raids\"\n\n[collections.gadgets]\nrule = \"raids\"\nfields.owner = { type = \"player\" }\nfields.cogs = { type = \"int\" }\n",
        ),
        file(
            "state/variables.toml",
            "[globals]\nround = 2\n\n[players.Ada]\nsprings = 5\n",
        ),
        file(
            "state/collections.toml",
            "[[gadgets]]\nid = \"orrery\"\nowner = \"Ada\"\ncogs = 3\n",
        ),
        file(
            "content/pages/how-to-play.md",
            "+++\ntitle = \"How to play\"\n+++\nRead Rule 1.1 first.\n",
        ),
    ];
    if amended {
        files.push(file(
            "rules/core/proposals.md",
            "+++\nid = \"proposals\"\ntitle = \"Proposals\"\norder = 5\n+++\nA proposal is a pull request.\n",
        ));
    }
    files
}

fn records() -> Vec<SourceFile> {
    let enacted = Record {
        number: MatterNumber(3),
        source: None,
        kind: MatterKind::Proposal,
        title: "Round up the quorum".into(),
        author: "Ada".into(),
        dynasty: 2,
        opened: at("2030-01-03T10:00:00Z"),
        resolved: at("2030-01-04T10:00:00Z"),
        outcome: Outcome::Enacted,
        failure: None,
        resolved_by: "gitnomic resolve".into(),
        reasons: vec!["neither vetoed nor self-killed; 2 FOR, at least the quorum of 1; open 24 h, at least 12 h".into()],
        head: Some("aaa".into()),
        merge_commit: Some("c0ffee0000000000000000000000000000000002".into()),
        link: Some("https://forge.invalid/pr/3".into()),
        // Four comments, of which the record kept two (the bound left
        // the others out), Cleo's cut.
        comments: Some(4),
        tally: Some(FinalTally {
            for_: 2,
            against: 0,
            active: 2,
            quorum: 1,
        }),
        votes: vec![
            RecordedVote {
                counts_as: None,
                player: "Ada".into(),
                vote: "FOR".into(),
                at: None,
                link: None,
            },
            RecordedVote {
                counts_as: None,
                player: "Boris".into(),
                vote: "FOR".into(),
                at: Some(at("2030-01-03T12:00:00Z")),
                link: Some("https://forge.invalid/pr/3#c1".into()),
            },
        ],
        uncounted: vec![],
        uncounted_more: 0,
        sticky: vec![],
        discussion: vec![
            RecordedComment {
                id: 1,
                by: "Boris".into(),
                at: at("2030-01-03T12:00:00Z"),
                via: "a comment".into(),
                vote: Some("FOR".into()),
                note: None,
                link: Some("https://forge.invalid/pr/3#c1".into()),
                cut: None,
                body: "FOR, as #2 meant and Rule 1.2 says.".into(),
            },
            RecordedComment {
                id: 2,
                by: "@cleo-c".into(),
                at: at("2030-01-03T13:00:00Z"),
                via: "a review".into(),
                vote: None,
                note: Some("edited since; it counts as first seen".into()),
                link: None,
                cut: Some(1_234),
                body: "Why round <script>alert(1)</script>up?".into(),
            },
        ],
        body: "Amend Rule 1.2 to round up.\n".into(),
    };
    let imported = Record {
        number: MatterNumber(1),
        source: Some("blognomic".into()),
        title: "Tidy the glossary.".into(),
        author: "Quillon".into(),
        dynasty: 1,
        opened: at("2005-08-03T05:42:56Z"),
        resolved: at("2005-08-04T04:16:57Z"),
        outcome: Outcome::Failed,
        failure: Some(gitnomic::record::Failure::Vetoed),
        resolved_by: "unknown".into(),
        reasons: vec![],
        head: None,
        merge_commit: None,
        link: None,
        comments: Some(8),
        tally: None,
        votes: vec![],
        sticky: vec![RecordedVote {
            counts_as: None,
            player: "Marrow".into(),
            vote: "VETO".into(),
            at: Some(at("2005-08-04T04:00:00Z")),
            link: None,
        }],
        discussion: vec![],
        body: String::new(),
        ..enacted.clone()
    };
    [enacted, imported]
        .iter()
        .map(|r| SourceFile::new(r.path(), r.render()))
        .collect()
}

fn revision(number: usize, commit: &str, time: &str, summary: &str, amended: bool) -> Revision {
    Revision::new(
        number,
        commit.into(),
        at(time),
        summary.into(),
        Game::check(&game_files(amended)).ruleset,
    )
}

fn sample(time: &str, round: i64, ada: i64) -> Sample {
    Sample {
        time: at(time),
        globals: [("round".to_string(), round)].into(),
        players: [(
            "springs".to_string(),
            [("Ada".to_string(), ada), ("Boris".to_string(), 3)].into(),
        )]
        .into(),
    }
}

/// The gamestate log of the fixture: the game set up, Ada's springs
/// raised by an action with a roll, the round moved by proposal #3.
fn changes() -> Vec<gitnomic::record::changelog::Change> {
    let v = |commit: &'static str, at: &'static str, message: &'static str, text: &'static str| {
        (commit, at, message, text)
    };
    let versions = [
        v(
            "c0ffee01",
            "2030-01-01T00:00:00Z",
            "Start the game",
            "[globals]\nround = 1\n[players.Ada]\nsprings = 3\n",
        ),
        v(
            "c0ffee02",
            "2030-01-02T09:00:00Z",
            "Action #2: Winding by comment\n\nplayers.Ada.springs: 3 → 5 by @ada, comment 41, rolled DICE6 = 2\n",
            "[globals]\nround = 1\n[players.Ada]\nsprings = 5\n",
        ),
        v(
            "c0ffee03",
            "2030-01-04T10:00:00Z",
            "Enact Proposal #3: Round up the quorum",
            "[globals]\nround = 2\n[players.Ada]\nsprings = 5\n",
        ),
    ];
    let versions: Vec<gitnomic::record::changelog::Version<'_>> = versions
        .iter()
        .map(
            |(commit, time, message, text)| gitnomic::record::changelog::Version {
                commit,
                at: at(time),
                message,
                author: "gitnomic",
                text,
            },
        )
        .collect();
    gitnomic::record::changelog::changes(&versions)
}

fn render(pending: &Pending) -> Site {
    render_with(pending, changes())
}

fn render_with(pending: &Pending, changes: Vec<gitnomic::record::changelog::Change>) -> Site {
    let mut files = game_files(true);
    files.extend(records());
    rebuild_with(&files, pending, &[], &RenderCache::default(), changes).files
}

/// The fixture's site from `files`, rendering only what changed since the
/// build that left `previous`.
fn rebuild(
    files: &[SourceFile],
    pending: &Pending,
    overrides: &[ThemeFile],
    previous: &RenderCache,
) -> Rendered {
    rebuild_with(files, pending, overrides, previous, changes())
}

/// [`rebuild`] with the gamestate log `changes`.
fn rebuild_with(
    files: &[SourceFile],
    pending: &Pending,
    overrides: &[ThemeFile],
    previous: &RenderCache,
    changes: Vec<gitnomic::record::changelog::Change>,
) -> Rendered {
    let game = Game::check(files);
    assert!(game.problems.is_empty(), "{}", game.problems);
    let timeline = Timeline {
        revisions: vec![
            revision(
                1,
                "c0ffee0000000000000000000000000000000001",
                "2030-01-01T00:00:00Z",
                "Start the game",
                false,
            ),
            revision(
                2,
                "c0ffee0000000000000000000000000000000002",
                "2030-01-04T10:00:00Z",
                "Round up the quorum (#3)",
                true,
            ),
        ],
        samples: vec![
            sample("2030-01-01T00:00:00Z", 1, 3),
            sample("2030-01-04T10:00:00Z", 2, 5),
        ],
        changes,
    };
    let input = SiteInput {
        game: &game,
        timeline: &timeline,
        pending,
        overrides,
        commit: None,
        base_url: Some("https://fixture.invalid/site".into()),
        forge: site::ForgeWeb::new("https://forge.invalid", "ada/fixture", "main"),
    };
    site::render_since(&input, previous, &|_| {}).expect("the fixture renders")
}

/// The `<main>` element of a page, the part that is about the page.
fn main_of(site: &Site, path: &str) -> String {
    let html = site.get(path).unwrap_or_else(|| panic!("no page {path}"));
    let start = html.find("<main").expect("a <main>");
    let end = html.find("</main>").expect("a </main>") + "</main>".len();
    html[start..end].to_string()
}

/// Proposal #4 as the plan leaves it: Boris's implicit FOR, Ada's
/// DEFERENTIAL following her own FOR elsewhere, Cleo yet to vote, one
/// more FOR needed, enacted by time at 00:40 on 6 Jan if nothing changes.
fn pending() -> Pending {
    pending_with(&proposed())
}

/// [`pending`] with #4's branch changing `change`.
fn pending_with(change: &site::pending::ProposedChange) -> Pending {
    pending_saying(
        change,
        "Give [Ada](https://forge.invalid/ada) more springs, as Rule 1.2 allows. \
         [Not this](javascript:alert(1)).\n",
    )
}

/// #4's discussion: Ada's DEFERENTIAL (the vote the tally counts, edited
/// since), Cleo's question with a script in it, and the resolver's status.
fn discussion() -> std::collections::BTreeMap<u64, gitnomic::matter::ForgeComment> {
    let comment = |id: u64, who: &str, time: &str, body: &str, edited: Option<&str>| {
        (
            id,
            gitnomic::matter::ForgeComment {
                id,
                author: Login(who.into()),
                created: at(time),
                edited: edited.map(at),
                body: body.into(),
                link: Some(format!("https://forge.invalid/pr/4#c{id}")),
                via: gitnomic::matter::Via::Comment,
            },
        )
    };
    [
        comment(
            1,
            "ada",
            "2030-01-05T11:00:00Z",
            "DEFERENTIAL, as #3 said. <b>Agreed</b>.",
            Some("2030-01-05T11:20:00Z"),
        ),
        comment(
            2,
            "cleo",
            "2030-01-05T11:30:00Z",
            "Why two? <script>alert(1)</script>",
            None,
        ),
        comment(
            3,
            "gitnomic-bot",
            "2030-01-05T11:40:00Z",
            &format!("{}\nPending.", gitnomic::matter::journal::MARKER),
            None,
        ),
    ]
    .into_iter()
    .collect()
}

/// [`pending_with`], #4's body being `body`.
fn pending_saying(change: &site::pending::ProposedChange, body: &str) -> Pending {
    let mut tally = Tally {
        for_votes: 2,
        against_votes: 0,
        votes_cast: 2,
        ..Tally::default()
    };
    tally.votes.insert(
        PlayerName("Boris".into()),
        CountedVote {
            vote: Vote::For,
            cast: Vote::For,
            source: Source::Implicit,
        },
    );
    tally.votes.insert(
        PlayerName("Ada".into()),
        CountedVote {
            vote: Vote::For,
            cast: Vote::Deferential,
            source: Source::Comment {
                order: 1,
                at: at("2030-01-05T11:00:00Z"),
            },
        },
    );
    let decision = MatterDecision {
        number: MatterNumber(4),
        kind: MatterKind::Proposal,
        opened: at("2030-01-05T10:00:00Z"),
        decision: Decision::Wait,
        tally,
        grounds: Grounds::Conditions,
        reasons: vec!["not enacted yet: 2 FOR, under the quorum of 3".into()],
        next_change: Some(NextChange {
            at: Some(at("2030-01-06T00:40:00Z")),
            becomes: Some(Decision::Enact),
            more_for: Some(1),
            more_against: None,
        }),
    };
    let run = Run {
        now: at("2030-01-05T12:00:00Z"),
        turnout: gitnomic::engine::Turnout {
            active: 3,
            quorum: 3,
        },
        decisions: vec![decision],
    };
    let matter = Collected {
        info: MatterInfo {
            number: MatterNumber(4),
            title: "More springs".into(),
            body: body.into(),
            author: Login("boris".into()),
            opened: at("2030-01-05T10:00:00Z"),
            labels: vec![],
            pull: true,
            head: None,
            merge_commit: None,
            base: None,
            draft: false,
            merged: false,
            kind_changed: None,
            link: Some("https://forge.invalid/pr/4".into()),
            updated: None,
            paths: None,
        },
        kind: Kind::Proposal,
        journal: Journal::default(),
        status_body: None,
        comments: discussion(),
        voided: vec![],
        deleted: vec![],
        first_comment: None,
    };
    let active = ["Ada".to_string(), "Boris".into(), "Cleo".into()];
    let mut pending = site::pending::views(
        &run,
        &|n| (n == MatterNumber(4)).then(|| matter.clone()),
        &|login| {
            if login == "boris" {
                "Boris".into()
            } else {
                login.into()
            }
        },
        &active,
        &|_| change.clone(),
    );
    // What the engine would make of Cleo's vote (build.rs asks it).
    pending.matters[0].if_votes = vec![site::ifvote::IfVote {
        player: "Cleo".into(),
        for_: "would be enacted now: enacts when the resolver next runs".into(),
        against: "pending: needs 1 more FOR".into(),
    }];
    pending
}

/// What #4's branch changes: a rule amended, one added, a value raised.
fn proposed() -> site::pending::ProposedChange {
    let before = game_files(true);
    let after = with_text(
        &before,
        "rules/dynastic/raids.md",
        "+++\nid = \"raids\"\ntitle = \"Raids\"\n+++\nA raid costs two Springs, as Rule 1.1 allows.\n",
    );
    let mut after = with_text(
        &after,
        "state/variables.toml",
        "[globals]\nround = 2\n\n[players.Ada]\nsprings = 7\n",
    );
    after.push(file(
        "rules/dynastic/truce.md",
        "+++\nid = \"truce\"\ntitle = \"Truce\"\n+++\nNo raids on Sundays.\n",
    ));
    site::pending::proposed_change(&before, &after)
}

#[test]
fn snapshots_of_key_pages() {
    let site = render(&pending());
    for (name, path) in [
        ("ruleset", "ruleset/index.html"),
        ("rule", "rules/quorum.html"),
        ("tracker", "tracker/index.html"),
        ("pending", "pending/index.html"),
        ("archive", "archive/index.html"),
        ("matter", "matters/3.html"),
        ("imported_matter", "matters/blognomic/1.html"),
        ("revision", "rulesets/2.html"),
        ("player", "players/ada.html"),
        ("dynasties", "dynasties/index.html"),
        ("home", "index.html"),
    ] {
        insta::assert_snapshot!(name, main_of(&site, path));
    }
    let ruleset = main_of(&site, "ruleset/index.html");
    let contents = &ruleset[ruleset.find("<nav class=\"toc\"").expect("contents")..];
    let contents = &contents[..contents.find("</nav>").expect("end of contents") + 6];
    insta::assert_snapshot!("contents", contents);
    let tracker = &site["tracker/index.html"];
    let chart = &tracker[tracker.find("<svg").expect("a chart")..];
    insta::assert_snapshot!(
        "chart",
        &chart[..chart.find("</svg>").expect("its end") + 6]
    );
    insta::assert_snapshot!("feed", site["feed.xml"]);
}

/// A matter's rule diff links the rule titles it quotes, into the
/// revision the text is from, as the ruleset pages do.
#[test]
fn a_rule_diff_links_the_titles_it_quotes() {
    let site = render(&pending());
    let matter = main_of(&site, "matters/3.html");
    let diff = &matter[matter.find("<ul class=\"diff\">").expect("a diff")..];
    let diff = &diff[..diff.find("</ul>\n").expect("its end") + 5];
    insta::assert_snapshot!("matter_diff", diff);
    let link = r##"<a class="xref" href="../rulesets/2.html#quorum-ties"><ins>“Ties”</ins></a>"##;
    assert!(diff.contains(link), "{diff}");
    let revision = main_of(&site, "rulesets/2.html");
    assert!(revision.contains(link), "the revision shows the same diff");
    assert!(
        revision.contains("id=\"quorum-ties\""),
        "its anchor is there"
    );
}

#[test]
fn every_internal_link_and_anchor_resolves() {
    let site = render(&pending());
    let report = site::links::check(&site);
    assert!(
        report.checked > 200,
        "only {} links checked",
        report.checked
    );
    let broken: Vec<String> = report.broken.iter().map(ToString::to_string).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn cross_references_permalinks_and_escaping() {
    let site = render(&Pending::default());
    let ruleset = &site["ruleset/index.html"];
    // Rule 1.2 is "Voting" after a rule was inserted before it: the link
    // goes by number as the text now reads, to the id.
    assert!(
        ruleset.contains(r##"<a class="xref" href="#voting">Rule 1.2</a>"##),
        "{ruleset}"
    );
    assert!(ruleset.contains(r##"<a class="xref" href="#raids">rule entitled “Raids”</a>"##));
    assert!(ruleset.contains(r#"href="../rules/quorum.html""#));
    assert!(ruleset.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!ruleset.contains("<script>alert"));
    assert!(ruleset.contains("<dl class=\"glossary\">"));
    // The glossary once, in its rule; the contents list subrules, numbered once.
    assert_eq!(ruleset.matches(">Spring</dt>").count(), 1, "{ruleset}");
    assert!(ruleset.contains("<span class=\"num\">1.3.1</span> Ties</a>"));
    assert!(!ruleset.contains("<ol>"), "no list numbers besides ours");
    // A rule page has its title as h1 and lists its subrules.
    let quorum = main_of(&site, "rules/quorum.html");
    assert!(quorum.contains("<h1 id=\"quorum-h\">"), "{quorum}");
    assert!(
        quorum.contains("href=\"../rules/quorum-ties.html\""),
        "{quorum}"
    );
    let pending = main_of(&site, "pending/index.html");
    assert!(pending.contains("This build asked no forge"), "{pending}");
}

/// The gamestate log on the tracker and the player pages: who, when,
/// old → new, the matter and the roll; newest first, in pages.
#[test]
fn the_gamestate_log_is_on_the_tracker_and_player_pages_in_pages() {
    let site = render(&Pending::default());
    let tracker = main_of(&site, "tracker/index.html");
    let log = &tracker[tracker.find("id=\"_log-h\"").expect("a log section")..];
    let round = log.find(">round<").expect("the proposal's change");
    let springs = log
        .find("\u{2068}Ada\u{2069}&#39;s springs")
        .expect("the action's change, in words");
    assert!(round < springs, "newest first: {log}");
    assert!(!log.contains("players.Ada.springs"), "no raw keys: {log}");
    assert!(
        log.contains("<td role=\"cell\" data-label=\"Who\"><a href=\"../players/ada.html\">Ada</a></td><th scope=\"row\" role=\"rowheader\">\u{2068}Ada\u{2069}&#39;s springs</th><td role=\"cell\" class=\"was\" data-label=\"Was\">3</td><td role=\"cell\" class=\"now\" data-label=\"Now\">5</td><td role=\"cell\" data-label=\"From\">#2, comment 41, rolled DICE6 = 2</td>"),
        "who, old → new, matter, comment, roll: {log}"
    );
    assert!(
        log.contains("<td role=\"cell\" data-label=\"Who\"><a href=\"../players/ada.html\">Ada</a></td><th scope=\"row\" role=\"rowheader\">round</th><td role=\"cell\" class=\"was\" data-label=\"Was\">1</td><td role=\"cell\" class=\"now\" data-label=\"Now\">2</td><td role=\"cell\" data-label=\"From\"><a href=\"../matters/3.html\">#3</a></td>"),
        "a proposal's change is its author's, and links its record: {log}"
    );
    let ada = main_of(&site, "players/ada.html");
    assert!(ada.contains("\u{2068}Ada\u{2069}&#39;s springs"), "{ada}");

    // 250 changes: three pages on the tracker, the later ones of their own.
    let text = |n: i64| format!("[players.Ada]\nsprings = {}\n", n % 10);
    let texts: Vec<String> = (0..=250).map(text).collect();
    let messages: Vec<String> = (0..=250)
        .map(|n| format!("Action #9: Winding by comment\n\nplayers.Ada.springs: {} → {} by @ada, comment {}\n", (n + 9) % 10, n % 10, 1000 + n))
        .collect();
    let versions: Vec<gitnomic::record::changelog::Version<'_>> = (0..=250)
        .map(|n| gitnomic::record::changelog::Version {
            commit: "c0ffee",
            at: Timestamp::from_unix(1_900_000_000 + n as i64 * 60),
            message: &messages[n],
            author: "gitnomic",
            text: &texts[n],
        })
        .collect();
    let site = render_with(
        &Pending::default(),
        gitnomic::record::changelog::changes(&versions),
    );
    let tracker = main_of(&site, "tracker/index.html");
    assert_eq!(
        tracker.matches(">#9, comment").count(),
        100,
        "a page of 100"
    );
    assert!(
        tracker.contains("href=\"../tracker/log/page-3.html\""),
        "{tracker}"
    );
    assert!(tracker.contains("comment 1250</td>"), "the newest first");
    let last = main_of(&site, "tracker/log/page-3.html");
    assert_eq!(last.matches(">#9, comment").count(), 51, "{last}");
    assert!(last.contains("comment 1000</td>"), "the oldest last");
    let ada_last = main_of(&site, "players/ada/log/page-3.html");
    assert!(ada_last.contains("comment 1000</td>"), "{ada_last}");
    let report = site::links::check(&site);
    let broken: Vec<String> = report.broken.iter().map(ToString::to_string).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A record of a matter resolved after the others: `number`, by `author`.
fn later_record(number: MatterNumber, author: &str) -> SourceFile {
    let record = Record {
        number,
        source: None,
        kind: MatterKind::Cfj,
        title: format!("Later matter {number}"),
        author: author.into(),
        dynasty: 2,
        opened: at("2030-01-05T10:00:00Z"),
        resolved: at("2030-01-06T10:00:00Z"),
        outcome: Outcome::Enacted,
        failure: None,
        resolved_by: "gitnomic resolve".into(),
        reasons: vec![],
        head: None,
        merge_commit: None,
        link: None,
        comments: None,
        tally: None,
        votes: vec![],
        uncounted: vec![],
        uncounted_more: 0,
        sticky: vec![],
        discussion: vec![],
        body: "Nothing changes.\n".into(),
    };
    SourceFile::new(record.path(), record.render())
}

/// Replaces the text of the file at `path`.
fn with_text(files: &[SourceFile], path: &str, text: &str) -> Vec<SourceFile> {
    files
        .iter()
        .map(|f| {
            if f.path == path {
                SourceFile::new(path, text)
            } else {
                f.clone()
            }
        })
        .collect()
}

#[test]
fn a_rebuild_renders_only_what_changed_and_equals_a_full_build() {
    let pending = pending();
    let mut files = game_files(true);
    files.extend(records());
    let first = rebuild(&files, &pending, &[], &RenderCache::default());
    // The output directory as the builds leave it.
    let mut disk: Site = first.files.clone();
    let mut cache = first.cache;
    let unchanged = rebuild(&files, &pending, &[], &cache);
    assert!(
        unchanged.files.is_empty(),
        "nothing changed, yet rendered {:?}",
        unchanged.files.keys().collect::<Vec<_>>()
    );
    assert_eq!(unchanged.cache, cache);

    let mut with_record = files.clone();
    with_record.push(later_record(MatterNumber(9), "Boris"));
    let variables = files
        .iter()
        .find(|f| f.path == "state/variables.toml")
        .expect("variables")
        .text
        .replace("round = 2", "round = 3");
    let css = ThemeFile {
        name: "static/style.css".into(),
        text: "body { color: black; }\n".into(),
    };
    let matter_template = ThemeFile {
        name: "templates/matter.html".into(),
        text: "{% extends \"base.html\" %}{% block main %}<main><h1>{{ m.title }}</h1></main>{% endblock %}".into(),
    };
    let voting = "+++\nid = \"voting\"\ntitle = \"Casting Votes\"\norder = 30\n\n[params]\nenact_quorum_hours = 12\n+++\nEach {{ player }} may vote.\n";
    let text_of = |path: &str| {
        files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("no {path}"))
            .text
            .clone()
    };
    let keywords =
        text_of("rules/appendix/keywords.md").replace("A unit of effort.", "A unit of work.");
    assert_ne!(
        keywords,
        text_of("rules/appendix/keywords.md"),
        "no definition changed"
    );
    let roster = text_of("state/roster.toml")
        + "\n[[players]]\nname = \"Cleo\"\nlogin = \"cleo\"\njoined = 2030-01-06T00:00:00Z\n";
    let steps: Vec<(&str, Vec<SourceFile>, Vec<ThemeFile>)> = vec![
        ("a new record", with_record.clone(), vec![]),
        (
            "a rule renamed and moved",
            with_text(&with_record, "rules/core/voting.md", voting),
            vec![],
        ),
        (
            "a state change",
            with_text(&with_record, "state/variables.toml", &variables),
            vec![],
        ),
        (
            "a definition changed",
            with_text(&with_record, "rules/appendix/keywords.md", &keywords),
            vec![],
        ),
        (
            "a player joined",
            with_text(&with_record, "state/roster.toml", &roster),
            vec![],
        ),
        ("a static file", with_record.clone(), vec![css.clone()]),
        (
            "a template",
            with_record.clone(),
            vec![css, matter_template],
        ),
        ("a record deleted", files.clone(), vec![]),
    ];
    for (what, files, overrides) in steps {
        let full = rebuild(&files, &pending, &overrides, &RenderCache::default());
        let since = rebuild(&files, &pending, &overrides, &cache);
        for gone in since.removed(&cache) {
            disk.remove(gone);
        }
        disk.extend(since.files.clone());
        assert_eq!(since.cache, full.cache, "{what}: the digests");
        assert_eq!(
            disk.keys().collect::<Vec<_>>(),
            full.files.keys().collect::<Vec<_>>(),
            "{what}: the files"
        );
        for (path, text) in &full.files {
            assert!(disk[path] == *text, "{what}: {path} differs");
        }
        assert!(
            since.files.len() < full.files.len(),
            "{what}: rendered all {} files",
            full.files.len()
        );
        cache = since.cache;
    }
}

#[test]
fn a_new_record_renders_its_page_lists_feed_and_search_only() {
    let pending = pending();
    let mut files = game_files(true);
    files.extend(records());
    let first = rebuild(&files, &pending, &[], &RenderCache::default());
    files.push(later_record(MatterNumber(9), "Boris"));
    let since = rebuild(&files, &pending, &[], &first.cache);
    let rendered: Vec<&str> = since.files.keys().map(String::as_str).collect();
    for path in [
        "matters/9.html",
        "archive/2030.html",
        "feed.xml",
        "search/2030.json",
        "players/boris.html",
    ] {
        assert!(rendered.contains(&path), "{path} not in {rendered:?}");
    }
    for path in [
        "matters/3.html",
        "matters/blognomic/1.html",
        "ruleset/index.html",
        "rules/quorum.html",
        "rulesets/2.html",
        "tracker/index.html",
        "players/ada.html",
        "style.css",
        "archive/2005.html",
        "archive/vetoed/2005.html",
        "search/2005.json",
        "search/index.json",
    ] {
        assert!(!rendered.contains(&path), "{path} rendered again");
    }
}

#[test]
fn a_players_years_have_pages_and_a_new_record_changes_its_own_year_only() {
    let pending = pending();
    let mut files = game_files(true);
    files.extend(records());
    // Quillon's first matter was resolved in 2005; this one in 2030.
    files.push(later_record(MatterNumber(9), "Quillon"));
    let first = rebuild(&files, &pending, &[], &RenderCache::default());
    let front = main_of(&first.files, "players/quillon.html");
    assert!(front.contains("Later matter 9"), "{front}");
    assert!(
        front.contains(r#"href="../players/quillon/2005.html">2005</a>"#),
        "the front page links the earlier year: {front}"
    );
    let old = main_of(&first.files, "players/quillon/2005.html");
    assert!(!old.contains("Later matter 9"), "{old}");
    assert!(old.contains("<bdi>Quillon</bdi>, 2005"), "{old}");
    // A player of one year has no pages of years.
    assert!(!first.files.keys().any(|p| p.starts_with("players/ada/20")));
    // Two pagers on one page are two landmarks: each has its own name.
    for (path, text) in &first.files {
        let mut labels: Vec<&str> = text
            .split("<nav ")
            .skip(1)
            .filter_map(|nav| nav.split("aria-label=\"").nth(1)?.split('"').next())
            .collect();
        let all = labels.len();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), all, "{path}: navigation named twice");
    }

    files.push(later_record(MatterNumber(10), "Quillon"));
    let since = rebuild(&files, &pending, &[], &first.cache);
    let rendered: Vec<&str> = since.files.keys().map(String::as_str).collect();
    for path in ["players/quillon.html", "players/quillon/2030.html"] {
        assert!(rendered.contains(&path), "{path} not in {rendered:?}");
    }
    assert!(
        !rendered.contains(&"players/quillon/2005.html"),
        "an earlier year rendered again: {rendered:?}"
    );
}

/// No link or image on any page has a scheme other than http(s) or
/// mailto, wherever the Markdown came from: a rule, a glossary
/// definition, a page, a record's body or a record's links.
#[test]
fn no_unsafe_scheme_survives_rendering() {
    let evil = "[here](javascript:alert(7)) [b](JaVaScRiPt:alert(8)) \
                <vbscript:x> ![i](data:text/html,x) [ok](https://ok.invalid/)";
    let mut files = game_files(true);
    files.extend(records());
    let raids = format!("+++\nid = \"raids\"\ntitle = \"Raids\"\n+++\nA raid. {evil}\n");
    let page = format!("+++\ntitle = \"How to play\"\n+++\n{evil}\n");
    let mut files = with_text(&files, "rules/dynastic/raids.md", &raids);
    files = with_text(&files, "content/pages/how-to-play.md", &page);
    let three = records()
        .into_iter()
        .find(|f| f.path.ends_with("/00003.md"))
        .expect("record 3");
    let mut record = Record::parse(&three).expect("record 3 parses");
    record.body = format!("Amend. {evil}\n");
    record.link = Some("javascript:alert(9)".into());
    record.votes[1].link = Some("javascript:alert(10)".into());
    let path = record.path();
    files = with_text(&files, &path, &record.render());
    let site = rebuild(&files, &pending(), &[], &RenderCache::default()).files;
    let mut seen_ok = 0;
    for (path, html) in &site {
        for attr in [" href=\"", " src=\"", " content=\""] {
            for (at, _) in html.match_indices(attr) {
                let rest = &html[at + attr.len()..];
                let value = &rest[..rest.find('"').unwrap_or(rest.len())];
                let lower = value.to_ascii_lowercase();
                assert!(
                    !["javascript:", "vbscript:", "data:"]
                        .iter()
                        .any(|bad| lower.trim_start().starts_with(bad)),
                    "{path} links to {value}"
                );
            }
        }
        seen_ok += html.matches("href=\"https://ok.invalid/\"").count();
    }
    let matter = main_of(&site, "matters/3.html");
    assert!(
        matter.contains("Amend. here b"),
        "the links' text stays: {matter}"
    );
    assert!(seen_ok >= 3, "the safe link is kept ({seen_ok} seen)");
}

/// #4's card when its branch turns the fixture's rules into `after`
/// (the files of `rules/` only; the gamestate stays).
fn card_changing(rules: &[(&str, Option<&str>)]) -> (String, Site) {
    let before = game_files(true);
    let mut after = before.clone();
    for (path, text) in rules {
        after.retain(|f| f.path != *path);
        if let Some(text) = text {
            after.push(file(path, text));
        }
    }
    let site = render(&pending_with(&site::pending::proposed_change(
        &before, &after,
    )));
    let page = main_of(&site, "pending/index.html");
    let card = &page[page.find("<article class=\"pending\"").expect("a card")..];
    let card = &card[..card.find("</article>").expect("its end") + "</article>".len()];
    (card.to_string(), site)
}

/// The card of a proposal that adds a rule shows the rule's whole text,
/// all of it marked added, with the number it will get; a repeal shows
/// the whole text going; a rename and a move say so; an amendment marks
/// the words it changes. The ruleset and the rule's page say that the
/// proposal would change the rule, linked to its card.
#[test]
fn a_card_shows_the_whole_change_before_the_vote() {
    let (added, _) = card_changing(&[(
        "rules/dynastic/oil.md",
        Some(
            "+++\nid = \"oil\"\ntitle = \"Oil\"\n+++\nEach Tinkerer may oil one Gadget a day.\n\n- Oiled gadgets turn twice.\n",
        ),
    )]);
    insta::assert_snapshot!("card_adds", added);
    assert!(
        added.contains("<li>2.1 Oil: a new rule, all its text added"),
        "the number it will get: {added}"
    );
    assert!(
        added.contains("<ins>Each Tinkerer may oil one Gadget a day.</ins>")
            || added.contains("<ins>Each</ins>"),
        "the whole text, marked added: {added}"
    );
    assert!(added.contains("Oiled gadgets turn twice"), "{added}");
    assert!(
        !added.contains("<ins></ins>"),
        "a blank line has nothing to mark: {added}"
    );
    assert!(
        added.contains("2.2 Raids</a>: renumbered from 2.1"),
        "the renumbering it causes: {added}"
    );
    assert!(!added.contains("class=\"del\""), "nothing removed: {added}");

    let (repealed, site) = card_changing(&[("rules/dynastic/raids.md", None)]);
    insta::assert_snapshot!("card_repeals", repealed);
    assert!(
        repealed.contains("repealed, all its text removed"),
        "{repealed}"
    );
    assert!(
        repealed.contains("A raid costs one Spring"),
        "the text that goes: {repealed}"
    );
    assert!(
        !repealed.contains("class=\"add\""),
        "nothing added: {repealed}"
    );
    let rule_page = main_of(&site, "rules/raids.html");
    assert!(
        rule_page.contains(r#"<a href="../pending/index.html#_pending-4">#4 More springs</a> would repeal this rule"#),
        "{rule_page}"
    );
    let ruleset = main_of(&site, "ruleset/index.html");
    assert!(
        ruleset.contains(r#"<a href="../pending/index.html#_pending-4">#4 More springs</a> would repeal this rule"#),
        "{ruleset}"
    );
    assert_eq!(
        ruleset.matches("would repeal this rule").count(),
        1,
        "on the rule it changes only"
    );

    let (renamed, _) = card_changing(&[(
        "rules/dynastic/raids.md",
        Some(
            "+++\nid = \"raids\"\ntitle = \"Forays\"\n+++\nA raid costs one Spring, as Rule 1.1 allows.\n",
        ),
    )]);
    insta::assert_snapshot!("card_renames", renamed);
    assert!(renamed.contains("renamed from “Raids”"), "{renamed}");

    let (moved, site) = card_changing(&[
        ("rules/dynastic/raids.md", None),
        (
            "rules/core/raids.md",
            Some(
                "+++\nid = \"raids\"\ntitle = \"Raids\"\norder = 30\n+++\nA raid costs one Spring, as Rule 1.1 allows.\n",
            ),
        ),
    ]);
    insta::assert_snapshot!("card_moves", moved);
    assert!(
        moved.contains("moved from 2.1 in “Dynastic Rules”"),
        "{moved}"
    );
    assert!(main_of(&site, "rules/raids.html").contains("would move this rule"));

    let (amended, site) = card_changing(&[(
        "rules/dynastic/raids.md",
        Some(
            "+++\nid = \"raids\"\ntitle = \"Raids\"\n+++\nA raid costs two Springs, as Rule 1.1 allows.\n",
        ),
    )]);
    insta::assert_snapshot!("card_amends", amended);
    assert!(
        amended.contains("<del>one Spring</del>") && amended.contains("<ins>two Springs</ins>"),
        "{amended}"
    );
    assert!(main_of(&site, "rules/raids.html").contains("would amend this rule"));
    assert!(
        !main_of(&site, "rules/voting.html").contains("would"),
        "not on another rule"
    );
}

/// A pending card carries what a player needs to vote: the text, the
/// change (rules diffed, values in words), who has not voted, and where
/// to vote.
#[test]
fn a_pending_card_shows_its_text_its_change_and_where_to_vote() {
    let site = render(&pending());
    let page = main_of(&site, "pending/index.html");
    let card = &page[page.find("<article class=\"pending\"").expect("a card")..];
    let card = &card[..card.find("</article>").expect("its end") + "</article>".len()];
    insta::assert_snapshot!("pending_card", card);
    assert!(
        card.contains(r#"<a class="button" href="https://forge.invalid/pr/4">Vote on this</a>"#),
        "{card}"
    );
    assert!(
        card.contains("<li>\u{2068}Ada\u{2069}&#39;s springs 5 → 7</li>"),
        "{card}"
    );
    assert!(
        card.contains("<del>one Spring</del>") && card.contains("<ins>two Springs</ins>"),
        "{card}"
    );
    assert!(
        card.contains("<strong>Not voted yet:</strong> <bdi>Cleo</bdi>."),
        "{card}"
    );
    assert!(
        card.contains(r#"<a href="https://forge.invalid/ada" rel="noopener noreferrer">Ada</a>"#),
        "{card}"
    );
    assert!(
        card.contains("Not this") && !card.contains("javascript"),
        "{card}"
    );
    // A rule the matter adds has no page yet: its name is not a link.
    assert!(
        card.contains("Truce") && !card.contains("rules/truce.html"),
        "{card}"
    );
    assert!(card.contains(r#"href="../rules/raids.html""#), "{card}");
    // The home page's cards link from the root.
    let home = main_of(&site, "index.html");
    assert!(home.contains(r#"href="rules/raids.html""#), "{home}");
}

/// A body shows its HTML as the forge does (sanitised, not escaped),
/// `#3` links to the forge's thread, a relative link leads to the same
/// file from the pending page and the home page, and `--check-links`
/// reads only real links: an `href` quoted in the text is no link.
#[test]
fn a_body_shows_html_as_the_forge_does_and_its_links_work_on_every_page() {
    let body = "As #3 said: <details><summary>Why</summary>\n\nBecause.\n\n</details>\n\n\
                Quoted: `<a href=\"nowhere.html\">x</a>` and &lt;a href=\"gone.html\"&gt;\n\n\
                <script>alert(1)</script><b onclick=\"x()\">bold</b>\n\n\
                See [the tracker](tracker/index.html).\n";
    let site = render(&pending_saying(&proposed(), body));
    let pending = main_of(&site, "pending/index.html");
    assert!(
        pending.contains("<details><summary>Why</summary>"),
        "{pending}"
    );
    assert!(pending.contains("<b>bold</b>"), "{pending}");
    assert!(
        !pending.contains("<script") && !pending.contains("onclick"),
        "{pending}"
    );
    assert!(
        pending.contains(r#"<a class="matter" href="https://forge.invalid/ada/fixture/issues/3" rel="noopener noreferrer">#3</a>"#),
        "{pending}"
    );
    assert!(
        pending.contains(r#"href="../tracker/index.html""#),
        "{pending}"
    );
    let home = main_of(&site, "index.html");
    assert!(home.contains(r#"href="tracker/index.html""#), "{home}");
    assert!(
        pending.contains("<code>&lt;a href=\"nowhere.html\"&gt;x&lt;/a&gt;</code>"),
        "quoted HTML is text: {pending}"
    );
    let report = site::links::check(&site);
    assert!(report.broken.is_empty(), "{:?}", report.broken);
}

/// With the forge known, a card shows the matter's discussion: comments
/// sanitised, the vote the tally counts marked, an edit said as the
/// status says it, the resolver's status left out.
#[test]
fn a_card_shows_its_discussion_with_the_votes_as_counted() {
    let site = render(&pending());
    let page = main_of(&site, "pending/index.html");
    let start = page
        .find("<details class=\"discussion\">")
        .expect("a discussion");
    let discussion = &page[start..start + page[start..].find("</details>").expect("its end")];
    insta::assert_snapshot!("discussion", discussion);
    assert!(
        discussion.contains("The discussion (2 comments)"),
        "{discussion}"
    );
    assert!(
        discussion.contains("<strong class=\"counted\">counted: DEFERENTIAL (as FOR)</strong>")
            && discussion.contains("edited since; it counts as first seen"),
        "{discussion}"
    );
    assert!(discussion.contains("<b>Agreed</b>"), "{discussion}");
    assert!(
        !discussion.contains("<script") && !discussion.contains("gitnomic:status"),
        "{discussion}"
    );
    assert!(
        discussion.contains(r#"href="https://forge.invalid/ada/fixture/issues/3""#),
        "{discussion}"
    );
}

/// A build that asked no forge still has the quorum (from the roster, as
/// a run counts it) and, with the repository known, links to the
/// forge's open pull requests for the pending matters.
#[test]
fn a_build_without_the_forge_links_to_its_pull_requests_and_knows_the_quorum() {
    let game = Game::check(&game_files(true));
    let pending = site::pending::without_forge(&game, at("2030-01-06T00:00:00Z"));
    assert_eq!(
        (pending.quorum, pending.active),
        (Some(1), Some(1)),
        "{pending:?}"
    );
    assert_eq!(pending.as_of, None, "no tallies");
    let site = render(&pending);
    let page = main_of(&site, "pending/index.html");
    assert!(
        page.contains(r#"<a href="https://forge.invalid/ada/fixture/pulls">the open pull requests on the forge</a>, where a proposal needs 1 FOR (1 active now)"#),
        "{page}"
    );
    let strip = &site["index.html"];
    assert!(strip.contains("Quorum <strong>1</strong>"), "{strip}");
}

/// The glossary is in the search index: each term, leading to its entry.
#[test]
fn the_glossary_is_in_the_search_index() {
    let site = render(&pending());
    let index: serde_json::Value = serde_json::from_str(&site["search/index.json"]).expect("JSON");
    let spring = index["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find(|e| e["k"] == "term" && e["t"] == "Spring")
        .unwrap_or_else(|| panic!("no Spring: {index}"));
    assert_eq!(spring["u"], "ruleset/index.html#_term-keywords-spring");
    assert_eq!(spring["x"], "a unit of effort.");
    let ruleset = &site["ruleset/index.html"];
    assert!(
        ruleset.contains("id=\"_term-keywords-spring\""),
        "the anchor is there"
    );
}

/// Leftovers of the last review: a favicon (no 404 on every page), the
/// copy-link button's accessible name holds its visible words, matter
/// numbers stay on phones, small controls are 24 px targets, and a
/// player's dates say what they are.
#[test]
fn the_favicon_copy_links_numbers_targets_and_dates() {
    let site = render(&pending());
    assert!(
        site["index.html"].contains(r#"<link rel="icon" href="favicon.svg" type="image/svg+xml">"#)
    );
    assert!(site["rules/quorum.html"].contains(r#"<link rel="icon" href="../favicon.svg""#));
    assert!(site["favicon.svg"].starts_with("<svg"));
    let js = &site["site.js"];
    assert!(js.contains(r#"button.textContent = "copy link";"#));
    assert!(js.contains(r#"button.setAttribute("aria-label", "copy link to this rule");"#));
    let css = &site["style.css"];
    assert!(
        !css.contains("table.matters th:nth-child(1)"),
        "the number column stays"
    );
    assert!(css.contains("min-height: 24px"), "24 px targets");
    let ada = main_of(&site, "players/ada.html");
    assert!(ada.contains("<dt>Joined</dt><dd>2030-01-01</dd>"), "{ada}");
    assert!(!ada.contains("<dt>Active</dt>"), "{ada}");
}

/// A card's next moment is machine-readable for the reader's browser to
/// count down to; the sentence before it states it in UTC.
#[test]
fn a_cards_next_moment_is_counted_down_in_the_browser() {
    let site = render(&pending());
    let page = main_of(&site, "pending/index.html");
    assert!(
        page.contains("enacts at 00:40 UTC on 6 Jan 2030 if nothing changes.<span class=\"countdown\" data-at=\"2030-01-06T00:40:00Z\"></span>"),
        "{page}"
    );
    assert!(site["site.js"].contains("function addCountdowns()"));
}

/// A vote changes the strip's live part (how many pending, the next
/// moment, who has not voted), which is `status.js`, one small file every
/// page loads: a rebuild after it rewrites that file and the pages that
/// show the vote, not every page.
#[test]
fn a_vote_rewrites_the_status_file_and_the_pages_that_show_it_only() {
    let mut files = game_files(true);
    files.extend(records());
    let before = pending();
    let full = rebuild(&files, &before, &[], &RenderCache::default());
    let mut after = before.clone();
    after.matters[0].not_voted.clear();
    after.matters[0].for_ = 3;
    after.next = Some("#4 at 12:05 UTC on 5 Jan 2030".into());
    let again = rebuild(&files, &after, &[], &full.cache);
    let rendered: Vec<&str> = again.files.keys().map(String::as_str).collect();
    println!(
        "rendered after a vote: {rendered:?} of {}",
        full.files.len()
    );
    assert!(rendered.contains(&"status.js"), "{rendered:?}");
    assert!(
        again.files["status.js"].contains(r##""next":"#4 at 12:05 UTC on 5 Jan 2030""##),
        "{}",
        again.files["status.js"]
    );
    assert!(
        rendered.len() <= 6,
        "a vote rewrites the status file and the pages showing the vote: {rendered:?} of {}",
        full.files.len()
    );
    assert!(!rendered.contains(&"ruleset/index.html"), "{rendered:?}");
    assert!(!rendered.contains(&"archive/index.html"), "{rendered:?}");
    let page = &full.files["rules/quorum.html"];
    assert!(page.contains(r#"<script src="../status.js" defer></script>"#));
}
