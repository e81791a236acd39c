//! What a resolve run costs in requests, counted by the fake GitHub, with
//! the cache kept between runs (GITNOMIC_HTTP_CACHE) and a new token every
//! run, as the workflows' GITHUB_TOKEN is: GitHub ties ETags to the token,
//! so none is answered 304, and only the thread cache spares requests. An
//! idle run must spend no more than open matters + 2 requests (every
//! request is counted and shown). The table docs/costs.md shows is printed by
//! `cargo test --test testsuite github::budget -- --nocapture`.

use crate::fake::github::{FakeGitHub, Item, REPO};
use crate::game_test::{GameTest, Run};
use crate::github::setup;

pub(crate) fn run(game: &GameTest, fake: &FakeGitHub, now: &str) -> Run {
    run_aged(game, fake, now, "6")
}

/// The cache file the runs of `game` keep between them (one per game).
pub(crate) fn cache_file(game: &GameTest) -> String {
    format!(
        "{}-{}",
        game.path("../etags.json").display(),
        game.root().file_name().unwrap().to_string_lossy()
    )
}

/// A run whose kept threads may be `hours` old ("0": none is used).
pub(crate) fn run_aged(game: &GameTest, fake: &FakeGitHub, now: &str, hours: &str) -> Run {
    let cache = cache_file(game);
    // A new token every run, as GITHUB_TOKEN is in the workflows.
    let token = format!("t0ken-{}", fake.world().log.len());
    let run = game.run_with_env(
        &["--forge", "github", "--now", now, "resolve"],
        &[
            ("GITHUB_API_URL", fake.url.as_str()),
            ("GITHUB_REPOSITORY", REPO),
            ("GITHUB_TOKEN", token.as_str()),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
            ("GITNOMIC_HTTP_CACHE", cache.as_str()),
            ("GITNOMIC_THREAD_MAX_AGE", hours),
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

/// Requests of one run: (all, those not answered 304, i.e. spending rate limit).
fn cost(fake: &FakeGitHub, f: impl FnOnce()) -> (usize, usize) {
    let before = fake.world().log.len();
    f();
    let w = fake.world();
    let new = &w.log[before..];
    (new.len(), new.iter().filter(|r| r.status != 304).count())
}

/// Raises the limits on proposals an author may have pending or open in
/// a day, so that many open proposals of one author each stand as a
/// matter, and commits that.
pub(crate) fn room_for_many_proposals(game: &GameTest) {
    let rule = "rules/core/proposals.md";
    game.replace(rule, "max_pending = 2", "max_pending = 100");
    game.replace(rule, "max_per_day = 3", "max_per_day = 100");
    game.commit_all("room for many proposals");
}

/// A game with `n` open proposals (all of one head), nobody voting yet.
/// The limits on proposals an author may have pending or open in a day
/// are raised so that every one of them stands as a matter.
fn game_with(n: u64) -> (GameTest, FakeGitHub) {
    let (game, fake, head) = setup();
    room_for_many_proposals(&game);
    let mut w = fake.world();
    w.page_size = Some(100);
    if n == 0 {
        w.items.clear();
    }
    for number in 2..=n {
        let mut pull = Item::pull(
            number,
            &format!("Proposal: springs {number}"),
            "ada-tinkers",
            "2030-01-01T00:00:00Z",
            &head,
        );
        pull.files = vec!["state/variables.toml".into()];
        w.items.insert(number, pull);
    }
    drop(w);
    (game, fake)
}

#[test]
fn an_idle_run_spends_at_most_open_matters_plus_two_requests() {
    let mut table = Vec::new();
    for n in [0u64, 10, 50] {
        let (game, fake) = game_with(n);
        // The first run posts the status comments; the second reads them
        // back once (the threads changed); from then on nothing is new.
        run(&game, &fake, "2030-01-01T01:00:00Z");
        run(&game, &fake, "2030-01-01T01:00:00Z");
        let idle = cost(&fake, || {
            run(&game, &fake, "2030-01-01T01:00:00Z");
        });
        let (idle_all, idle_rate) = idle;
        let n_usize = usize::try_from(n).unwrap();
        // The open issues (which name the open pull requests), the open
        // pull requests when there are any, and the closed matters still
        // labelled `resolving`.
        let lists = if n == 0 { 2 } else { 3 };
        assert_eq!(
            idle_all, lists,
            "{n} open matters: an idle run reads {lists} lists and no thread"
        );
        assert_eq!(idle_rate, lists, "no ETag is honoured with a new token");
        assert!(
            idle_rate <= n_usize + 2,
            "{n} open matters: an idle run spent {idle_rate} requests of rate limit"
        );
        let open = fake
            .world()
            .items
            .values()
            .filter(|i| i.state == "open")
            .count();
        assert_eq!(open, n_usize, "every proposal is still open");
        let (vote, after) = if n == 0 {
            ((0, 0), (0, 0))
        } else {
            fake.world()
                .add_comment(1, "boris-b", "2030-01-01T00:50:00Z", "FOR");
            let vote = cost(&fake, || {
                run(&game, &fake, "2030-01-01T01:00:00Z");
            });
            // The bot's write dropped the copy of #1's thread: read once
            // more, with its events, since the vote at 00:50 changed #1
            // after its first fifteen minutes (a late label or title, or
            // leaving draft then, would make it no matter).
            let after = cost(&fake, || {
                run(&game, &fake, "2030-01-01T01:00:00Z");
            });
            assert_eq!(
                after,
                (7, 7),
                "{n} open matters: the lists, one thread and its events"
            );
            (vote, after)
        };
        // The peer: the same idle run with no thread kept (as before the
        // thread cache), every thread read.
        let uncached = cost(&fake, || {
            run_aged(&game, &fake, "2030-01-01T01:00:00Z", "0");
        });
        // #1 alone changed after its first fifteen minutes: its events.
        let events = usize::from(n > 0);
        assert_eq!(
            uncached.0,
            lists + 3 * n_usize + events,
            "{n}: the lists, three a pull request, and #1's events"
        );
        table.push((n, idle, vote, after, uncached));
    }
    println!(
        "| open matters | idle: requests (spending rate limit) | after one new vote | the run after | idle, no thread kept |"
    );
    println!("|---|---|---|---|---|");
    for (n, idle, vote, after, uncached) in table {
        let [vote, after] = [vote, after].map(|(all, rate)| {
            if n == 0 {
                "—".to_string()
            } else {
                format!("{all} ({rate})")
            }
        });
        println!(
            "| {n} | {} ({}) | {vote} | {after} | {} ({}) |",
            idle.0, idle.1, uncached.0, uncached.1
        );
    }
}

/// What one run asked for, by method and path with numbers blanked, for
/// finding requests that can be spared (`-- --nocapture` prints it).
pub(crate) fn breakdown(fake: &FakeGitHub, from: usize) -> Vec<(String, usize)> {
    let w = fake.world();
    let mut kinds: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for r in &w.log[from..] {
        let path: String = r
            .path
            .split('?')
            .next()
            .unwrap_or("")
            .split('/')
            .map(|s| {
                if s.bytes().all(|b| b.is_ascii_digit()) && !s.is_empty() {
                    "N"
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        *kinds.entry(format!("{} {path}", r.method)).or_default() += 1;
    }
    kinds.into_iter().collect()
}

#[test]
fn what_a_vote_and_an_enactment_cost() {
    let (game, fake) = game_with(3);
    run(&game, &fake, "2030-01-01T01:00:00Z");
    run(&game, &fake, "2030-01-01T01:00:00Z");
    fake.world()
        .add_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR");
    let from = fake.world().log.len();
    run(&game, &fake, "2030-01-01T01:20:00Z");
    let vote = breakdown(&fake, from);
    println!("after one new vote: {vote:#?}");
    fake.world()
        .add_comment(1, "dmitri-d", "2030-01-01T01:30:00Z", "FOR");
    let from = fake.world().log.len();
    run(&game, &fake, "2030-01-01T13:00:00Z");
    assert_eq!(fake.world().merges().len(), 1, "#1 is enacted");
    let enactment = breakdown(&fake, from);
    println!("an enactment: {enactment:#?}");
    let total = |kinds: &[(String, usize)]| kinds.iter().map(|(_, n)| n).sum::<usize>();
    let count = |kinds: &[(String, usize)], kind: &str| {
        kinds.iter().find(|(k, _)| k == kind).map_or(0, |(_, n)| *n)
    };
    println!(
        "three open proposals: a new vote {} requests, enacting one {} requests",
        total(&vote),
        total(&enactment)
    );
    let prefix = format!("/repos/{REPO}");
    for kinds in [&vote, &enactment] {
        let thread = format!("GET {prefix}/issues/N/comments");
        assert!(
            count(kinds, &thread) <= 3,
            "each thread read at most once (a kept one not at all): {kinds:#?}"
        );
        let record = format!("GET {prefix}/contents/content/matters/00001.md");
        assert!(
            count(kinds, &record) <= 1,
            "a record is read once: {kinds:#?}"
        );
        let pull = format!("GET {prefix}/pulls/N");
        assert_eq!(count(kinds, &pull), 0, "no read before a merge: {kinds:#?}");
    }
}
