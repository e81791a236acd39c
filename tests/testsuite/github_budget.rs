//! What a resolve run costs in requests, counted by the fake GitHub, with
//! ETags kept between runs (GITNOMIC_HTTP_CACHE): an idle run must spend
//! no more rate limit than open matters + 2 requests (a reply of 304 Not
//! Modified spends none; every request is still counted and shown). The table the README
//! shows is printed by `cargo test --test testsuite github_budget -- --nocapture`.

use crate::fake_github::{FakeGitHub, Item, REPO};
use crate::game_test::{GameTest, Run};
use crate::github::setup;

fn run(game: &GameTest, fake: &FakeGitHub, now: &str) -> Run {
    let cache = game.path("../etags.json");
    let cache = format!(
        "{}-{}",
        cache.display(),
        game.root().file_name().unwrap().to_string_lossy()
    );
    let run = game.run_with_env(
        &["--forge", "github", "--now", now, "resolve"],
        &[
            ("GITHUB_API_URL", fake.url.as_str()),
            ("GITHUB_REPOSITORY", REPO),
            ("GITHUB_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
            ("GITNOMIC_HTTP_CACHE", cache.as_str()),
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

/// A game with `n` open proposals (all of one head), nobody voting yet.
fn game_with(n: u64) -> (GameTest, FakeGitHub) {
    let (game, fake, head) = setup();
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
        assert!(
            idle_all <= 2 * n_usize + 3,
            "{n} open matters: an idle run sent {idle_all} requests (three lists, then a thread and its reviews a matter)"
        );
        assert!(
            idle_rate <= n_usize + 2,
            "{n} open matters: an idle run spent {idle_rate} requests of rate limit"
        );
        let vote = if n == 0 {
            (0, 0)
        } else {
            fake.world()
                .add_comment(1, "boris-b", "2030-01-01T01:10:00Z", "FOR");
            cost(&fake, || {
                run(&game, &fake, "2030-01-01T01:00:00Z");
            })
        };
        table.push((n, idle, vote));
    }
    println!("| open matters | idle: requests (spending rate limit) | after one new vote |");
    println!("|---|---|---|");
    for (n, idle, vote) in table {
        let vote = if n == 0 {
            "—".to_string()
        } else {
            format!("{} ({})", vote.0, vote.1)
        };
        println!("| {n} | {} ({}) | {vote} |", idle.0, idle.1);
    }
}
