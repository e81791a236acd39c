use super::*;
use crate::matter::{Kind, MatterNumber};
use crate::source::SourceFile;
use crate::time::Timestamp;

fn at(t: &str) -> Timestamp {
    Timestamp::parse(t).unwrap()
}

fn game_with(dynasty: &str, records: &[String]) -> Game {
    let mut files = vec![
        SourceFile::new(
            "state/game.toml",
            format!(
                "[game]\nname = \"G\"\n[terms]\nplayer = \"Tinkerer\"\nplayers = \"Tinkerers\"\nemperor = \"E\"\nemperors = \"Es\"\n[dynasty]\nnumber = 1\n{dynasty}"
            ),
        ),
        SourceFile::new(
            "state/roster.toml",
            "[[players]]\nname = \"Ada\"\nlogin = \"ada\"\n\n[[players]]\nname = \"Bo\"\nlogin = \"bo\"\nidle = [{ from = 2030-01-01T00:00:00Z }]\n\n[[players]]\nname = \"Cy\"\nlogin = \"cy\"\njoined = 2030-01-03T00:00:00Z\n\n[[players]]\nname = \"Di\"\nlogin = \"di\"\n",
        ),
    ];
    for (i, text) in records.iter().enumerate() {
        let number = 100 + i;
        files.push(SourceFile::new(
            format!("content/matters/{number:05}.md"),
            text.replace("NUMBER", &number.to_string()),
        ));
    }
    let game = Game::check(&files);
    assert!(game.problems.is_empty(), "{}", game.problems);
    game
}

fn game() -> Game {
    game_with("", &[])
}

/// A record of matter NUMBER: `kind` by `author`, opened and resolved.
fn record(
    kind: &str,
    author: &str,
    opened: &str,
    resolved: &str,
    outcome: &str,
    against: u32,
) -> String {
    format!(
        "+++\nnumber = NUMBER\nkind = \"{kind}\"\ntitle = \"T\"\nauthor = \"{author}\"\ndynasty = 1\nopened = {opened}\nresolved = {resolved}\noutcome = \"{outcome}\"\nresolved_by = \"gitnomic resolve\"\n[tally]\nfor = 1\nagainst = {against}\nactive = 5\nquorum = 3\n+++\n"
    )
}

struct Post {
    number: MatterNumber,
    kind: Kind,
    author: &'static str,
    opened: &'static str,
}

/// Matter `number` of `kind` by `author`, opened at `opened`.
fn post(number: u64, kind: Kind, author: &'static str, opened: &'static str) -> Post {
    Post {
        number: MatterNumber(number),
        kind,
        author,
        opened,
    }
}

/// The judgement on the last of `posts`, all open, by `game`'s rules.
fn judged_among(game: &Game, posts: &[Post], changed: &[&str]) -> Judgement {
    let labels: Vec<Vec<String>> = posts
        .iter()
        .map(|p| vec![p.kind.label().to_string()])
        .collect();
    let changed: Vec<String> = changed.iter().map(|s| (*s).to_string()).collect();
    let last = posts.last().map(|p| p.number);
    let postings: Vec<Posting<'_>> = posts
        .iter()
        .zip(&labels)
        .map(|(p, labels)| Posting {
            number: p.number,
            kind: Some(p.kind),
            labels,
            author: p.author,
            opened: at(p.opened),
            pull: true,
            base: Some("main"),
            changed: Some(if Some(p.number) == last {
                &changed
            } else {
                &[]
            }),
            unfit: &[],
            kind_changed: None,
            first_comment: None,
        })
        .collect();
    let ledger = Ledger::new(game, "main", &postings);
    judge(
        &ledger,
        &Facts {
            posting: *postings.last().unwrap(),
            description: "",
            head: None,
            fork: None,
        },
    )
}

fn judged(kind: Kind, author: &'static str, changed: &[&str]) -> Judgement {
    judged_among(
        &game(),
        &[post(9, kind, author, "2030-01-05T10:00:00Z")],
        changed,
    )
}

#[test]
fn a_proposal_by_an_active_player_touching_rules_and_state_stands() {
    let v = judged(
        Kind::Proposal,
        "ada",
        &["rules/core/x.md", "state/variables.toml"],
    );
    assert_eq!(v, Judgement::default());
}

#[test]
fn non_players_idle_and_unjoined_players_make_it_no_matter() {
    let v = judged(Kind::Proposal, "mallory", &[]);
    assert_eq!(
        v.not_a_matter().as_deref(),
        Some("`mallory` is not a Tinkerer on the roster")
    );
    assert_eq!(
        judged(Kind::Cfj, "bo", &[]).not_a_matter().as_deref(),
        Some("Bo was idle when it was opened")
    );
    let early = judged_among(
        &game(),
        &[post(9, Kind::Dov, "cy", "2030-01-02T10:00:00Z")],
        &[],
    );
    assert_eq!(
        early.not_a_matter().as_deref(),
        Some("Cy had not joined yet when it was opened")
    );
}

#[test]
fn the_limits_count_the_authors_open_and_resolved_proposals_then() {
    let p = |n, t| post(n, Kind::Proposal, "ada", t);
    // Two pending: the third is none.
    let v = judged_among(
        &game(),
        &[
            p(1, "2030-01-05T01:00:00Z"),
            p(2, "2030-01-05T02:00:00Z"),
            p(3, "2030-01-05T03:00:00Z"),
        ],
        &[],
    );
    assert!(v.not_a_matter().unwrap().contains("2 pending"), "{v:?}");
    // One resolved after the third was opened was pending then.
    let resolved_later = game_with(
        "",
        &[record(
            "proposal",
            "Ada",
            "2030-01-05T01:00:00Z",
            "2030-01-05T04:00:00Z",
            "enacted",
            0,
        )],
    );
    let v = judged_among(
        &resolved_later,
        &[p(2, "2030-01-05T02:00:00Z"), p(3, "2030-01-05T03:00:00Z")],
        &[],
    );
    assert!(v.not_a_matter().unwrap().contains("2 pending"), "{v:?}");
    // Two resolved earlier that day count towards the three a day.
    let busy_day = game_with(
        "",
        &[
            record(
                "proposal",
                "Ada",
                "2030-01-05T00:10:00Z",
                "2030-01-05T00:20:00Z",
                "failed",
                3,
            ),
            record(
                "proposal",
                "Ada",
                "2030-01-05T00:30:00Z",
                "2030-01-05T00:40:00Z",
                "failed",
                3,
            ),
        ],
    );
    let v = judged_among(
        &busy_day,
        &[p(2, "2030-01-05T02:00:00Z"), p(3, "2030-01-05T03:00:00Z")],
        &[],
    );
    assert!(v.not_a_matter().unwrap().contains("this UTC day"), "{v:?}");
    // A proposal that is no matter counts towards nothing.
    let v = judged_among(
        &game(),
        &[
            post(1, Kind::Proposal, "bo", "2030-01-05T01:00:00Z"),
            p(2, "2030-01-05T02:00:00Z"),
        ],
        &[],
    );
    assert_eq!(v, Judgement::default());
}

#[test]
fn a_valid_dov_pending_then_freezes_proposals_and_an_invalid_one_does_not() {
    let v = judged_among(
        &game(),
        &[
            post(1, Kind::Dov, "di", "2030-01-05T01:00:00Z"),
            post(2, Kind::Proposal, "ada", "2030-01-05T02:00:00Z"),
        ],
        &[],
    );
    assert!(v.not_a_matter().unwrap().contains("hiatus"), "{v:?}");
    let v = judged_among(
        &game(),
        &[
            post(1, Kind::Dov, "bo", "2030-01-05T01:00:00Z"),
            post(2, Kind::Proposal, "ada", "2030-01-05T02:00:00Z"),
        ],
        &[],
    );
    assert_eq!(v, Judgement::default(), "an idle player's DoV is none");
    assert!(
        judged_among(
            &game(),
            &[
                post(1, Kind::Dov, "di", "2030-01-05T01:00:00Z"),
                post(2, Kind::Cfj, "ada", "2030-01-05T02:00:00Z")
            ],
            &[],
        )
        .problems
        .is_empty(),
        "CfJs are allowed in hiatus"
    );
    // A DoV resolved since was pending when the proposal was opened.
    let failed_since = game_with(
        "",
        &[record(
            "dov",
            "Di",
            "2030-01-05T01:00:00Z",
            "2030-01-05T05:00:00Z",
            "failed",
            3,
        )],
    );
    let v = judged_among(
        &failed_since,
        &[post(2, Kind::Proposal, "ada", "2030-01-05T02:00:00Z")],
        &[],
    );
    assert!(v.not_a_matter().unwrap().contains("hiatus"), "{v:?}");
}

#[test]
fn each_kind_touches_only_its_files_or_is_no_matter() {
    let v = judged(
        Kind::Proposal,
        "ada",
        &[
            "src/main.rs",
            ".github/workflows/resolve.yml",
            "content/matters/00001.md",
        ],
    );
    let why = v.not_a_matter().unwrap();
    for path in [
        "it changes src/main.rs",
        "it changes .github/workflows/resolve.yml",
        "it changes content/matters/00001.md",
    ] {
        assert!(why.contains(path), "every path is named: {v:?}");
    }
    let v = judged(
        Kind::Action,
        "ada",
        &["state/variables.toml", "state/roster.toml"],
    );
    assert_eq!(
        v.problems,
        [
            "it changes state/roster.toml, but an action may change only state/variables.toml and state/collections.toml"
        ]
    );
    assert!(v.not_a_matter);
}

#[test]
fn the_emperor_and_a_cooled_down_author_may_not_declare_victory() {
    let emperor = game_with("emperor = \"Ada\"\n", &[]);
    let v = judged_among(
        &emperor,
        &[post(9, Kind::Dov, "ada", "2030-01-10T00:00:00Z")],
        &[],
    );
    assert!(
        v.not_a_matter()
            .unwrap()
            .contains("the E may not declare victory"),
        "{v:?}"
    );
    let heavy = game_with(
        "",
        &[record(
            "dov",
            "Di",
            "2030-01-01T00:00:00Z",
            "2030-01-02T00:00:00Z",
            "failed",
            4,
        )],
    );
    let dov = |t| judged_among(&heavy, &[post(9, Kind::Dov, "di", t)], &[]);
    assert!(
        dov("2030-01-06T23:59:59Z")
            .not_a_matter()
            .unwrap()
            .contains("after 2030-01-07T00:00:00Z")
    );
    assert_eq!(
        dov("2030-01-07T00:00:01Z"),
        Judgement::default(),
        "the cooldown ends"
    );
    let light = game_with(
        "",
        &[record(
            "dov",
            "Di",
            "2030-01-01T00:00:00Z",
            "2030-01-02T00:00:00Z",
            "failed",
            3,
        )],
    );
    assert_eq!(
        judged_among(
            &light,
            &[post(9, Kind::Dov, "di", "2030-01-03T00:00:00Z")],
            &[]
        ),
        Judgement::default(),
        "AGAINST must exceed quorum"
    );
}

#[test]
fn a_dov_posted_before_an_enactment_stands_one_after_it_does_not() {
    let awaiting = game_with(
        "emperor = \"Ada\"\nphase = \"awaiting-ascension\"\n",
        &[record(
            "dov",
            "Ada",
            "2030-01-04T00:00:00Z",
            "2030-01-05T13:00:00Z",
            "enacted",
            0,
        )],
    );
    let dov = |t| judged_among(&awaiting, &[post(9, Kind::Dov, "di", t)], &[]);
    assert_eq!(dov("2030-01-05T12:59:00Z"), Judgement::default());
    assert_eq!(
        dov("2030-01-05T13:00:00Z"),
        Judgement::default(),
        "the same second is before"
    );
    assert!(
        dov("2030-01-05T13:00:01Z")
            .not_a_matter()
            .unwrap()
            .contains("Ascension Address is awaited")
    );
    let proposal = judged_among(
        &awaiting,
        &[post(9, Kind::Proposal, "di", "2030-01-05T12:00:00Z")],
        &[],
    );
    assert!(
        proposal.not_a_matter().unwrap().contains("hiatus"),
        "the enacted DoV was pending then: {proposal:?}"
    );
    assert_eq!(
        crowning(&awaiting),
        Some(crate::engine::Crowned {
            dov: MatterNumber(100),
            at: at("2030-01-05T13:00:00Z")
        })
    );
}
