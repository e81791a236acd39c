//! One scenario suite, written once and played on both forges: the fake
//! GitHub and the fake Forgejo hold the same world (see `fake::github`,
//! `fake::forgejo`), each held to its own forge's description, and the
//! real binary plays each scenario through `--forge github` and `--forge
//! forgejo`. Each scenario asserts what it is about on both, then that
//! both forges came to the same decisions and records: the resolver's
//! lines about the matters, the records written, the merges made at which
//! head, each matter's labels and state, and the status comments (links,
//! which name each forge's own pages, aside).
//!
//! Where the forges differ in how a thing reaches gitnomic, the scenario
//! says it once and [`Game`] does it each forge's way: a push is announced
//! to GitHub's `check --event` by a `synchronize` payload, and recorded in
//! Forgejo's timeline (which the resolver reads).

use std::collections::BTreeMap;

use serde_json::json;

use crate::fake::github::{FakeGitHub, Item, REPO, When};
use crate::game_test::{GameTest, Run};

/// Which forge a scenario is played on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ForgeKind {
    GitHub,
    Forgejo,
}

/// A game on a forge: the checkout the runs see, and the fake forge.
pub(crate) struct Game {
    pub(crate) forge: ForgeKind,
    pub(crate) game: GameTest,
    pub(crate) fake: FakeGitHub,
    /// The head of proposal #1.
    pub(crate) head: String,
}

/// What a forge ended with, to compare across forges.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// The resolver's lines about matters, run by run.
    pub(crate) decisions: Vec<String>,
    /// The records written, by path.
    pub(crate) records: BTreeMap<String, String>,
    /// The heads merged, in order.
    pub(crate) merged: Vec<String>,
    /// Each matter's state and labels.
    pub(crate) matters: Vec<(u64, &'static str, Vec<String>)>,
    /// The bot's comments on each matter.
    pub(crate) statuses: Vec<(u64, Vec<String>)>,
    /// The commit statuses set, oldest first: (commit, state).
    pub(crate) checks: Vec<(String, String)>,
}

/// The text with its web addresses left out: they name each forge's own
/// pages (`/pull/1#discussion_r7` on GitHub, `/pulls/1/files#issuecomment-7`
/// on Forgejo).
fn unlinked(text: &str) -> String {
    let re = regex::Regex::new(r#"https?://[^\s"')\]]+"#).unwrap();
    re.replace_all(text, "URL").into_owned()
}

/// A proposal #1 by Ada (opened at midnight) giving Dmitri a spring, on
/// `forge`.
pub(crate) fn game(forge: ForgeKind) -> Game {
    let game = GameTest::committed();
    let vars = game
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 7");
    let head = game.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let fake = match forge {
        ForgeKind::GitHub => FakeGitHub::start(),
        ForgeKind::Forgejo => FakeGitHub::start_forgejo(),
    };
    let mut pull = Item::pull(
        1,
        "More springs",
        "ada-tinkers",
        "2030-01-01T00:00:00Z",
        &head,
    );
    pull.labels = vec!["Proposal".into()];
    pull.files = vec!["state/variables.toml".into()];
    fake.world().items.insert(1, pull);
    Game {
        forge,
        game,
        fake,
        head,
    }
}

impl Game {
    /// The environment each forge's runner gives a run.
    fn env(&self) -> Vec<(&'static str, String)> {
        let mut env = vec![
            ("GITHUB_REPOSITORY", REPO.to_string()),
            ("GITNOMIC_NO_RETRY_WAIT", "1".to_string()),
        ];
        match self.forge {
            ForgeKind::GitHub => {
                env.push(("GITHUB_API_URL", self.fake.url.clone()));
                env.push(("GITHUB_TOKEN", "t0ken".into()));
            }
            // Forgejo Actions: the server's URL, and the token as FORGEJO_TOKEN.
            ForgeKind::Forgejo => {
                env.push(("GITHUB_SERVER_URL", self.fake.url.clone()));
                env.push(("FORGEJO_TOKEN", "t0ken".into()));
            }
        }
        env
    }

    /// `gitnomic --forge <forge> --now NOW ARGS`, with `extra` environment.
    pub(crate) fn run_with(&self, now: &str, args: &[&str], extra: &[(&str, &str)]) -> Run {
        let name = match self.forge {
            ForgeKind::GitHub => "github",
            ForgeKind::Forgejo => "forgejo",
        };
        let mut all = vec!["--forge", name, "--now", now];
        all.extend_from_slice(args);
        let env = self.env();
        let mut env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        env.extend_from_slice(extra);
        self.game.run_with_env(&all, &env)
    }

    /// A resolve run at `now` that must succeed.
    pub(crate) fn resolve(&self, now: &str) -> Run {
        let run = self.run_with(now, &["resolve"], &[]);
        assert_eq!(
            run.code, 0,
            "{:?}: {}{}",
            self.forge, run.stdout, run.stderr
        );
        run
    }

    pub(crate) fn comment(&self, who: &str, at: &str, body: &str) -> u64 {
        self.fake.world().add_comment(1, who, at, body)
    }

    /// A new head of proposal #1 (a force push: a new commit on main's
    /// tip), in the checkout, pushed at `at`: GitHub hears of it from a
    /// `synchronize` event that `check --event` reads a minute later;
    /// Forgejo records it in the timeline, and its `check --event` of
    /// the `synchronized` event reads it there.
    pub(crate) fn force_push(&self, springs: &str, at: &str, now: &str) -> String {
        let vars = self
            .game
            .read("state/variables.toml")
            .replace("springs = 6", &format!("springs = {springs}"));
        let sha = self.game.commit_on(
            &format!("p-{springs}"),
            &[("state/variables.toml", &vars)],
            "pushed",
        );
        self.announce_push(&sha, at, now);
        sha
    }

    /// Proposal #1 is force-pushed to `sha` at `at`, each forge's way (see
    /// [`Game::force_push`]), and `check --event` runs at `now`.
    pub(crate) fn announce_push(&self, sha: &str, at: &str, now: &str) {
        let before = {
            let mut w = self.fake.world();
            let before = w.items[&1].head.clone().unwrap_or_default();
            w.push(1, sha, at, true);
            before
        };
        let payload = match self.forge {
            ForgeKind::GitHub => json!({
                "action": "synchronize", "number": 1, "before": before, "after": sha,
                "pull_request": { "number": 1, "head": { "sha": sha }, "updated_at": at },
                "sender": { "login": "ada-tinkers" },
            }),
            // Gitea's payload: no `before`, the action spelt `synchronized`.
            ForgeKind::Forgejo => json!({
                "action": "synchronized", "number": 1,
                "pull_request": { "number": 1, "head": { "sha": sha }, "updated_at": at },
                "sender": { "login": "ada-tinkers" },
            }),
        };
        let path = self.game.path("../event.json");
        let path = format!(
            "{}-{}",
            path.display(),
            self.game.root().file_name().unwrap().to_string_lossy()
        );
        std::fs::write(&path, payload.to_string()).unwrap();
        let run = self.run_with(
            now,
            &["check", "--event"],
            &[
                ("GITHUB_EVENT_NAME", "pull_request_target"),
                ("GITHUB_EVENT_PATH", &path),
            ],
        );
        let _ = std::fs::remove_file(&path);
        assert_eq!(
            run.code, 0,
            "{:?}: {}{}",
            self.forge, run.stdout, run.stderr
        );
    }

    /// The records the forge holds, in the checkout the next run sees (as
    /// CI checks out the default branch they were committed to).
    pub(crate) fn check_out_records(&self) {
        let records: Vec<(String, String)> = self
            .fake
            .world()
            .contents
            .iter()
            .map(|(path, (_, text))| (path.clone(), crate::fake::github::unbase64(text)))
            .collect();
        for (path, text) in &records {
            self.game.write(path, text);
        }
        self.game.commit_all("the records");
    }

    /// What the forge ended with, after `runs`.
    pub(crate) fn outcome(&self, runs: &[&Run]) -> Outcome {
        let w = self.fake.world();
        let decisions = runs
            .iter()
            .flat_map(|r| r.stdout.lines())
            .filter(|l| l.contains(" #") && l.contains(':'))
            .map(unlinked)
            .collect();
        let records = w
            .contents
            .iter()
            .map(|(path, (_, text))| (path.clone(), unlinked(&crate::fake::github::unbase64(text))))
            .collect();
        let merged = w
            .merges()
            .iter()
            .map(|r| {
                let body: serde_json::Value = serde_json::from_str(&r.body).unwrap_or_default();
                body["sha"]
                    .as_str()
                    .or(body["head_commit_id"].as_str())
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        let matters = w
            .items
            .values()
            .map(|i| {
                let mut labels = i.labels.clone();
                labels.sort();
                (i.number, i.state, labels)
            })
            .collect();
        let statuses = w
            .items
            .keys()
            .map(|n| (*n, w.bot_comments(*n).iter().map(|b| unlinked(b)).collect()))
            .collect();
        Outcome {
            decisions,
            records,
            merged,
            matters,
            statuses,
            checks: w.status_states(),
        }
    }
}

/// Plays `scenario` on both forges; asserts they agree, and gives the
/// outcome (GitHub's) for the scenario's own assertions.
pub(crate) fn on_both(scenario: impl Fn(&Game) -> Vec<Run>) -> Outcome {
    on_both_with(|forge| (game(forge), ()), |(g, ())| scenario(g))
}

/// [`on_both`], on the games `setup` makes (a game and what goes with it).
fn on_both_with<T>(
    setup: impl Fn(ForgeKind) -> (Game, T),
    mut scenario: impl FnMut(&(Game, T)) -> Vec<Run>,
) -> Outcome {
    let mut outcomes = Vec::new();
    for forge in [ForgeKind::GitHub, ForgeKind::Forgejo] {
        let both = setup(forge);
        let runs = scenario(&both);
        let runs: Vec<&Run> = runs.iter().collect();
        outcomes.push(both.0.outcome(&runs));
    }
    let forgejo = outcomes.pop().unwrap();
    let github = outcomes.pop().unwrap();
    assert_eq!(github, forgejo, "GitHub and Forgejo came to different ends");
    github
}

pub(crate) fn decided(outcome: &Outcome, line: &str) -> bool {
    outcome.decisions.iter().any(|d| d.contains(line))
}

pub(crate) const ENACTED: &str = "Proposal #1: enact — enacted";

#[test]
fn a_vote() {
    let outcome = on_both(|g| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("stranger", "2030-01-01T01:30:00Z", "AGAINST");
        g.comment("dmitri-d", "2030-01-01T02:00:00Z", "FOR");
        let run = g.resolve("2030-01-01T12:00:00Z");
        if g.forge == ForgeKind::Forgejo {
            // Labels are removed by id, which every Forgejo and Gitea takes.
            let w = g.fake.world();
            let removed: Vec<&str> = w
                .log
                .iter()
                .filter(|r| r.method == "DELETE")
                .filter_map(|r| r.path.rsplit_once("/labels/").map(|(_, l)| l))
                .collect();
            assert!(!removed.is_empty());
            assert!(
                removed.iter().all(|l| l.parse::<u64>().is_ok()),
                "{removed:?}"
            );
        }
        vec![run]
    });
    assert!(decided(&outcome, ENACTED), "{outcome:#?}");
    assert_eq!(outcome.merged.len(), 1);
    let record = &outcome.records["content/matters/00001.md"];
    assert!(record.contains("for = 3"), "{record}");
}

#[test]
fn an_edit_after_the_vote_was_seen_changes_nothing() {
    let outcome = on_both(|g| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("dmitri-d", "2030-01-01T01:10:00Z", "FOR");
        let first = g.resolve("2030-01-01T01:30:00Z");
        g.fake
            .world()
            .edit_comment(1, "boris-b", "2030-01-01T02:00:00Z", "AGAINST");
        vec![first, g.resolve("2030-01-01T12:00:00Z")]
    });
    assert!(decided(&outcome, ENACTED), "{outcome:#?}");
    let record = &outcome.records["content/matters/00001.md"];
    assert!(
        record.contains("for = 3") && record.contains("against = 0"),
        "{record}"
    );
    assert!(
        outcome.statuses[0].1.iter().any(|s| s.contains("edited")),
        "{:#?}",
        outcome.statuses
    );
}

#[test]
fn a_deleted_vote_still_counts_as_it_was_seen() {
    let outcome = on_both(|g| {
        let boris = g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("dmitri-d", "2030-01-01T01:10:00Z", "FOR");
        let first = g.resolve("2030-01-01T01:30:00Z");
        g.fake.world().delete_comment(boris);
        vec![first, g.resolve("2030-01-01T12:00:00Z")]
    });
    assert!(decided(&outcome, ENACTED), "{outcome:#?}");
    let record = &outcome.records["content/matters/00001.md"];
    assert!(record.contains("for = 3"), "{record}");
}

#[test]
fn a_review_votes_by_its_state_and_a_dismissed_one_does_not() {
    let outcome = on_both(|g| {
        let dismissed = {
            let mut w = g.fake.world();
            w.add_review(1, Some("boris-b"), "2030-01-01T01:00:00Z", "", "APPROVED");
            w.add_review(
                1,
                Some("dmitri-d"),
                "2030-01-01T01:10:00Z",
                "Not like this.",
                "CHANGES_REQUESTED",
            );
            let cleo = w.add_review(
                1,
                Some("cleo-c"),
                "2030-01-01T01:20:00Z",
                "FOR",
                "COMMENTED",
            );
            // A line comment alone, and a review by a deleted account.
            w.add_line_comment(1, "wren-w", "2030-01-01T01:30:00Z", "Typo, but FOR", None);
            w.add_review(1, None, "2030-01-01T01:40:00Z", "FOR", "APPROVED");
            cleo
        };
        g.fake.world().dismiss_review(dismissed);
        vec![g.resolve("2030-01-01T12:00:00Z")]
    });
    let status = outcome.statuses[0].1.join("\n");
    for row in ["| Boris | FOR |", "| Dmitri | AGAINST |", "| Wren | FOR |"] {
        assert!(status.contains(row), "{row}: {status}");
    }
    assert!(!status.contains("| Cleo | FOR |"), "dismissed: {status}");
}

#[test]
fn a_force_push_voids_the_votes_cast_before_it() {
    let outcome = on_both(|g| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("dmitri-d", "2030-01-01T01:10:00Z", "FOR");
        let first = g.resolve("2030-01-01T01:30:00Z");
        let second = g.force_push("9", "2030-01-01T02:00:00Z", "2030-01-01T02:01:00Z");
        g.comment("cleo-c", "2030-01-01T03:00:00Z", "FOR");
        let last = g.resolve("2030-01-01T12:00:00Z");
        assert!(
            g.fake
                .world()
                .merges()
                .iter()
                .all(|m| m.body.contains(&second)),
            "{:?}: only the new head may be merged",
            g.forge
        );
        vec![first, last]
    });
    let status = outcome.statuses[0].1.join("\n");
    assert!(status.contains("cast on an earlier version"), "{status}");
    assert!(
        !outcome.checks.is_empty(),
        "the check of the push set a status"
    );
    assert!(!decided(&outcome, ENACTED), "{outcome:#?}");
}

#[test]
fn a_head_moved_at_the_merge_is_not_merged() {
    let outcome = on_both(|g| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("dmitri-d", "2030-01-01T01:10:00Z", "FOR");
        // A push lands while the run works: just before its merge arrives.
        g.fake.world().push_at_merge = Some(("b".repeat(40), "2030-01-01T11:59:00Z".to_string()));
        let run = g.run_with("2030-01-01T12:00:00Z", &["resolve"], &[]);
        assert_eq!(run.code, 1, "{:?}: {}{}", g.forge, run.stdout, run.stderr);
        assert_eq!(g.fake.world().merges().len(), 0, "{:?}", g.forge);
        vec![run]
    });
    assert!(
        decided(&outcome, &format!("the head is now {}", "b".repeat(40))),
        "{outcome:#?}"
    );
    assert!(!outcome.records.contains_key("content/matters/00001.md"));
    assert_eq!(outcome.matters[0].1, "open");
}

#[test]
fn a_dov_within_its_authors_cooldown_is_closed_as_no_matter() {
    let outcome = on_both(|g| {
        {
            let mut w = g.fake.world();
            w.items.clear();
            let mut dov = Item::issue(2, "DoV: I won", "dmitri-d", "2030-01-01T00:00:00Z");
            dov.labels = vec!["DoV".into()];
            w.items.insert(2, dov);
            for who in ["ada-tinkers", "boris-b", "cleo-c", "wren-w"] {
                w.add_comment(2, who, "2030-01-01T01:00:00Z", "AGAINST");
            }
        }
        let first = g.resolve("2030-01-01T12:00:00Z");
        g.check_out_records();
        {
            let mut w = g.fake.world();
            let mut again = Item::issue(3, "DoV: I won again", "dmitri-d", "2030-01-02T09:00:00Z");
            again.labels = vec!["DoV".into()];
            w.items.insert(3, again);
            for who in ["ada-tinkers", "boris-b", "cleo-c"] {
                w.add_comment(3, who, "2030-01-02T09:30:00Z", "FOR");
            }
        }
        vec![first, g.resolve("2030-01-02T22:00:00Z")]
    });
    assert!(decided(&outcome, "DoV #2: fail — failed"), "{outcome:#?}");
    assert!(
        decided(&outcome, "DoV #3: not-a-matter — closed"),
        "{outcome:#?}"
    );
    assert!(
        outcome.records["content/matters/00003.md"].contains("outcome = \"not-a-matter\""),
        "{outcome:#?}"
    );
}

#[test]
fn paging_past_the_servers_cap() {
    let outcome = on_both(|g| {
        {
            let mut w = g.fake.world();
            // Every list comes a page of one at a time, whatever is asked.
            w.page_size = Some(1);
            for (i, who) in ["boris-b", "cleo-c", "dmitri-d", "wren-w"]
                .iter()
                .enumerate()
            {
                w.add_comment(1, who, &format!("2030-01-01T0{}:00:00Z", i + 1), "FOR");
            }
            w.add_review(
                1,
                Some("ada-tinkers"),
                "2030-01-01T05:00:00Z",
                "FOR",
                "COMMENTED",
            );
            for n in 2..6 {
                let mut pull = Item::pull(
                    n,
                    &format!("Idea {n}"),
                    "cleo-c",
                    "2030-01-01T00:00:00Z",
                    &g.head,
                );
                pull.labels = vec!["Proposal".into()];
                pull.files = vec!["state/variables.toml".into()];
                w.items.insert(n, pull);
            }
        }
        vec![g.resolve("2030-01-01T12:00:00Z")]
    });
    assert!(decided(&outcome, ENACTED), "{outcome:#?}");
    let record = &outcome.records["content/matters/00001.md"];
    assert!(
        record.contains("for = 5"),
        "all five votes were read: {record}"
    );
}

#[test]
fn a_429_is_waited_out_and_one_beyond_the_budget_stops_the_run() {
    let outcome = on_both(|g| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("dmitri-d", "2030-01-01T01:10:00Z", "FOR");
        // No rate-limit headers: the generic rule waits a minute.
        g.fake.world().fail(
            "GET",
            "/issues?",
            429,
            "Too Many Requests",
            When::Before,
            &[],
        );
        let waited = g.resolve("2030-01-01T01:30:00Z");
        g.fake.world().fail(
            "GET",
            "/issues?",
            429,
            "Too Many Requests",
            When::Before,
            &[("retry-after", "600")],
        );
        let stopped = g.run_with(
            "2030-01-01T12:00:00Z",
            &["resolve"],
            &[("GITNOMIC_MAX_WAIT", "60")],
        );
        assert_ne!(stopped.code, 0, "{:?}: {}", g.forge, stopped.stdout);
        assert!(
            stopped.stderr.contains("rate limited"),
            "{:?}: {}",
            g.forge,
            stopped.stderr
        );
        assert_eq!(g.fake.world().merges().len(), 0);
        vec![waited, g.resolve("2030-01-01T12:05:00Z")]
    });
    assert!(decided(&outcome, ENACTED), "{outcome:#?}");
}

#[test]
fn a_thread_unchanged_since_the_last_run_is_not_read_again() {
    let outcome = on_both(|g| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        let cache = g.game.path("../threads.json");
        let cache = format!(
            "{}-{}",
            cache.display(),
            g.game.root().file_name().unwrap().to_string_lossy()
        );
        let env = [("GITNOMIC_HTTP_CACHE", cache.as_str())];
        let mut runs = Vec::new();
        let mut reads = Vec::new();
        let mut timelines = Vec::new();
        for now in [
            "2030-01-01T01:30:00Z",
            "2030-01-01T01:40:00Z",
            "2030-01-01T01:50:00Z",
            "2030-01-01T02:10:00Z",
        ] {
            if now == "2030-01-01T02:10:00Z" {
                // A push moves the pull request's `updated_at`.
                let sha = g.head.clone();
                g.fake.world().push(1, &sha, "2030-01-01T02:00:00Z", false);
            }
            let run = g.run_with(now, &["resolve"], &env);
            assert_eq!(run.code, 0, "{:?}: {}{}", g.forge, run.stdout, run.stderr);
            runs.push(run);
            let w = g.fake.world();
            reads.push(w.requests("GET", "/issues/1/comments"));
            timelines.push(w.requests("GET", "/issues/1/timeline"));
        }
        let _ = std::fs::remove_file(&cache);
        // The first run writes the status, so the second reads the thread
        // once more; the third finds it as the second left it, and the
        // fourth reads it after a push.
        assert_eq!(reads[2], reads[1], "{:?}: {reads:?}", g.forge);
        assert!(reads[1] > reads[0], "{:?}: {reads:?}", g.forge);
        assert!(reads[3] > reads[2], "{:?}: {reads:?}", g.forge);
        if g.forge == ForgeKind::Forgejo {
            // Forgejo's pushes are in the timeline, kept with the thread.
            assert_eq!(timelines[2], timelines[1], "{timelines:?}");
            assert!(timelines[3] > timelines[2], "{timelines:?}");
        }
        runs
    });
    assert!(
        decided(&outcome, "Proposal #1: wait — pending"),
        "{outcome:#?}"
    );
}

/// A proposal #1 whose first head only the forge holds (the checkout of
/// every run here fetched later heads only), as a force push leaves it.
fn game_whose_first_head_only_the_forge_has(forge: ForgeKind) -> (Game, GameTest) {
    let game = GameTest::committed();
    let hub = game.duplicate();
    let vars = hub
        .read("state/variables.toml")
        .replace("springs = 6", "springs = 7");
    let first = hub.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let fake = match forge {
        ForgeKind::GitHub => FakeGitHub::start(),
        ForgeKind::Forgejo => FakeGitHub::start_forgejo(),
    };
    let mut pull = Item::pull(
        1,
        "More springs",
        "ada-tinkers",
        "2030-01-01T00:00:00Z",
        &first,
    );
    pull.labels = vec!["Proposal".into()];
    pull.files = vec!["state/variables.toml".into()];
    {
        let mut w = fake.world();
        w.items.insert(1, pull);
        w.objects = Some(hub.root().to_path_buf());
    }
    (
        Game {
            forge,
            game,
            fake,
            head: first,
        },
        hub,
    )
}

#[test]
fn a_typo_fix_force_pushed_over_a_head_only_the_forge_has_keeps_the_votes() {
    const RULE: &str = "rules/dynastic/springs.md";
    let mut holders = Vec::new();
    let outcome = on_both_with(game_whose_first_head_only_the_forge_has, |(g, hub)| {
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        g.comment("dmitri-d", "2030-01-01T01:30:00Z", "FOR");
        // Six characters of a rule's body: a typo fix (the allowance is 12).
        let rule = g
            .game
            .read(RULE)
            .replacen("three Springs", "three SPRINGS", 1);
        let vars = g
            .game
            .read("state/variables.toml")
            .replace("springs = 6", "springs = 7");
        let files = [
            ("state/variables.toml", vars.as_str()),
            (RULE, rule.as_str()),
        ];
        let fixed = g.game.commit_on("p2", &files, "pushed");
        assert_eq!(hub.commit_on("p2", &files, "pushed"), fixed);
        g.fake.world().items.get_mut(&1).unwrap().files =
            vec!["state/variables.toml".into(), RULE.into()];
        g.announce_push(&fixed, "2030-01-01T02:00:00Z", "2030-01-01T02:01:00Z");
        let run = g.resolve("2030-01-01T15:00:00Z");
        holders.push(g.fake.world().requests("GET", "/git/trees/"));
        vec![run]
    });
    assert!(decided(&outcome, ENACTED), "{outcome:#?}");
    assert!(
        !outcome.statuses[0]
            .1
            .join("\n")
            .contains("cast on an earlier version"),
        "{outcome:#?}"
    );
    assert!(
        holders.iter().all(|reads| *reads > 0),
        "the old head, not in the checkout, was read from each forge: {holders:?}"
    );
}
