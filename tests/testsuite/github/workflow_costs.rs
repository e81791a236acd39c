//! What whole workflow runs cost: the jobs of `resolve.yml` run step by
//! step as a runner runs them (see `workflow_run`), against the fake
//! GitHub, with 0, 10 and 50 open proposals. Every request is counted,
//! each job is a new token (so no ETag of an earlier job is honoured),
//! and every job started is billed at least a minute, as GitHub bills.
//! `scripts/costs` prints the table docs/costs.md shows; any other
//! workflow directory can be measured the same way
//! (`GITNOMIC_TEST_WORKFLOWS=DIR`, for the figures before a change).

use crate::fake::github::{FakeGitHub, Item};
use crate::game_test::GameTest;
use crate::workflow_run::{Ran, Runner};

/// A checkout of the bundled game, its remote (the fake's `main`, which a
/// merge moves) and `n` open proposals of one head, nobody voting yet.
fn game_with(n: u64) -> (GameTest, GameTest, FakeGitHub) {
    let game = GameTest::bundled();
    crate::github::budget::room_for_many_proposals(&game);
    let hub = game.duplicate();
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 7");
    let head = hub.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let remote = git2::Repository::open(hub.root()).unwrap();
    let checkout = git2::Repository::open(game.root()).unwrap();
    checkout
        .remote("origin", &hub.root().to_string_lossy())
        .unwrap();
    let fake = FakeGitHub::start();
    {
        let mut w = fake.world();
        w.page_size = Some(100);
        w.objects = Some(hub.root().to_path_buf());
        for number in 1..=n {
            let mut pull = Item::pull(
                number,
                &format!("Proposal: springs {number}"),
                "ada-tinkers",
                "2030-01-01T00:00:00Z",
                &head,
            );
            pull.files = vec!["state/variables.toml".into()];
            w.items.insert(number, pull);
            remote
                .reference(
                    &format!("refs/pull/{number}/head"),
                    git2::Oid::from_str(&head).unwrap(),
                    true,
                    "a pull request's head",
                )
                .unwrap();
        }
    }
    (game, hub, fake)
}

/// The statuses set on commits in a run.
fn statuses_set(fake: &FakeGitHub, from: usize) -> usize {
    fake.world().log[from..]
        .iter()
        .filter(|r| r.method == "POST" && r.path.contains("/statuses/"))
        .count()
}

/// One row of the table: requests (all, spending rate limit), jobs billed.
struct Row {
    open: u64,
    idle: Ran,
    idle_statuses: usize,
    vote: Option<Ran>,
    enact: Option<Ran>,
}

fn measure(n: u64) -> Row {
    let (game, _hub, fake) = game_with(n);
    let mut runner = Runner::new(&game, &fake);
    // The first run posts the status comments and builds the site; the
    // second reads the statuses back once; then nothing is new.
    runner.run("resolve.yml", "schedule", "github", "2030-01-01T01:00:00Z");
    runner.run("resolve.yml", "schedule", "github", "2030-01-01T01:30:00Z");
    let from = fake.world().log.len();
    let idle = runner.run("resolve.yml", "schedule", "github", "2030-01-01T02:00:00Z");
    let idle_statuses = statuses_set(&fake, from);
    if n == 0 {
        return Row {
            open: n,
            idle,
            idle_statuses,
            vote: None,
            enact: None,
        };
    }
    fake.world()
        .add_comment(1, "boris-b", "2030-01-01T02:10:00Z", "FOR");
    let vote = runner.run(
        "resolve.yml",
        "issue_comment",
        "boris-b",
        "2030-01-01T02:20:00Z",
    );
    runner.run("resolve.yml", "schedule", "github", "2030-01-01T02:30:00Z");
    fake.world()
        .add_comment(1, "dmitri-d", "2030-01-01T02:40:00Z", "FOR");
    let from = fake.world().log.len();
    let enact = runner.run(
        "resolve.yml",
        "issue_comment",
        "dmitri-d",
        "2030-01-01T13:00:00Z",
    );
    let kinds = crate::github::budget::breakdown(&fake, from);
    if std::env::var_os("GITNOMIC_TEST_SHOW_STEPS").is_some() {
        println!("{n}: an enactment: {kinds:?}");
    }
    let files = kinds
        .iter()
        .filter(|(k, _)| k.ends_with("/pulls/N/files"))
        .map(|(_, count)| count)
        .sum::<usize>();
    assert!(
        files <= usize::try_from(n).unwrap(),
        "{n} open: the re-check read {files} lists of a pull request's files (once each is enough)"
    );
    assert_eq!(fake.world().merges().len(), 1, "#1 is enacted: {enact:#?}");
    Row {
        open: n,
        idle,
        idle_statuses,
        vote: Some(vote),
        enact: Some(enact),
    }
}

fn cell(ran: Option<&Ran>) -> String {
    ran.map_or("—".into(), |r| {
        format!("{} ({}), {} jobs", r.requests.0, r.requests.1, r.jobs.len())
    })
}

#[test]
fn whole_resolve_workflow_runs_cost_what_docs_costs_says() {
    let rows: Vec<Row> = [0, 10, 50].into_iter().map(measure).collect();
    println!(
        "| open matters | idle run: requests (spending rate limit), jobs | a new vote | an enactment |"
    );
    println!("|---|---|---|---|");
    for row in &rows {
        println!(
            "| {} | {} | {} | {} |",
            row.open,
            cell(Some(&row.idle)),
            cell(row.vote.as_ref()),
            cell(row.enact.as_ref())
        );
    }
    for row in &rows {
        println!("{}: idle steps {:#?}", row.open, row.idle.steps);
    }
    for row in &rows {
        let n = usize::try_from(row.open).unwrap();
        assert!(
            row.idle.requests.1 <= n + 5,
            "{n} open matters: an idle workflow run spent {} requests of rate limit",
            row.idle.requests.1
        );
        assert_eq!(
            row.idle_statuses, 0,
            "{n}: an idle run sets no commit status"
        );
        assert_eq!(
            row.idle.jobs.len(),
            1,
            "{n}: an idle run is one job: {:?}",
            row.idle.jobs
        );
        assert!(!row.idle.deployed, "{n}: nothing changed, nothing deployed");
        if let Some(vote) = &row.vote {
            assert!(
                vote.jobs.len() <= 2,
                "{n}: a vote is billed {:?}",
                vote.jobs
            );
            assert!(vote.deployed, "{n}: a vote shows on the site");
        }
    }
}
