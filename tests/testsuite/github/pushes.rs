//! Pushes to a proposal on GitHub, noted when GitHub saw them (issue 9,
//! defect 6): `check --event` on `pull_request_target` synchronize notes
//! the new head in the status journal at `pull_request.updated_at`, so
//! votes are voided by when the push happened, not by when a resolve run
//! happened to look. Old heads force-pushed away are judged through the
//! git data API and pinned by the next resolve run.
//!
//! Every push here is a force push (a new commit on main's tip): the
//! checkout the runs see is `game`, which has each new head (CI fetches
//! `refs/pull/N/head`) but never the first one, which only GitHub holds.

use serde_json::{Value, json};

use crate::fake::github::{FakeGitHub, Item, REPO};
use crate::game_test::{GameTest, Run};
use crate::github::github;

/// A proposal on GitHub and the checkout of a run.
struct Case {
    /// The checkout the runs see.
    game: GameTest,
    /// Every commit GitHub holds.
    hub: GameTest,
    fake: FakeGitHub,
    /// The first head, which only GitHub holds.
    first: String,
    /// The rule every typo fix edits, as on main.
    rule: String,
}

const RULE: &str = "rules/dynastic/springs.md";

fn more_springs(game: &GameTest, to: &str) -> String {
    game.read("state/variables.toml")
        .replacen("springs = 6", &format!("springs = {to}"), 1)
}

/// Proposal #1 by Ada (opened at midnight) gives Dmitri a spring.
fn case() -> Case {
    let game = GameTest::committed();
    let hub = game.duplicate();
    let vars = more_springs(&game, "7");
    let first = hub.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let fake = FakeGitHub::start();
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
    let rule = game.read(RULE);
    Case {
        game,
        hub,
        fake,
        first,
        rule,
    }
}

impl Case {
    /// A new head on branch `branch` (from main), with the proposal's
    /// springs at `springs` and the rule edited `from` → `to` (typo fixes),
    /// in the checkout and on GitHub alike, pushed at `at`: GitHub's pull
    /// request moves to it, and its `updated_at` with it.
    fn head(&self, branch: &str, springs: &str, edits: &[(&str, &str)], at: &str) -> String {
        let mut rule = self.rule.clone();
        for (from, to) in edits {
            assert!(rule.contains(from), "`{from}` is in the rule");
            rule = rule.replacen(from, to, 1);
        }
        let vars = more_springs(&self.game, springs);
        let files = [
            ("state/variables.toml", vars.as_str()),
            (RULE, rule.as_str()),
        ];
        let sha = self.game.commit_on(branch, &files, "pushed");
        assert_eq!(self.hub.commit_on(branch, &files, "pushed"), sha);
        let mut w = self.fake.world();
        let pull = w.items.get_mut(&1).unwrap();
        pull.head = Some(sha.clone());
        pull.updated_at = Some(at.to_string());
        pull.files = vec!["state/variables.toml".into(), RULE.into()];
        sha
    }

    /// `check --event` on the synchronize event of a push `before` →
    /// `after` that GitHub saw at `at`, run a minute later.
    fn synchronize(&self, before: &str, after: &str, at: &str) -> Run {
        let mut p = synchronize_payload();
        p["action"] = json!("synchronize");
        p["number"] = json!(1);
        p["before"] = json!(before);
        p["after"] = json!(after);
        p["pull_request"]["number"] = json!(1);
        p["pull_request"]["head"]["sha"] = json!(after);
        p["pull_request"]["updated_at"] = json!(at);
        p["sender"]["login"] = json!("ada-tinkers");
        let path = self.game.path("../event.json");
        let path = format!(
            "{}-{}",
            path.display(),
            self.game.root().file_name().unwrap().to_string_lossy()
        );
        std::fs::write(&path, p.to_string()).unwrap();
        let now = minute_after(at);
        let run = self.game.run_with_env(
            &["--forge", "github", "--now", &now, "check", "--event"],
            &[
                ("GITHUB_API_URL", self.fake.url.as_str()),
                ("GITHUB_REPOSITORY", REPO),
                ("GITHUB_TOKEN", "t0ken"),
                ("GITNOMIC_NO_RETRY_WAIT", "1"),
                ("GITHUB_EVENT_NAME", "pull_request_target"),
                ("GITHUB_EVENT_PATH", &path),
            ],
        );
        let _ = std::fs::remove_file(&path);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        run
    }

    fn vote(&self, who: &str, at: &str) {
        self.fake.world().add_comment(1, who, at, "FOR");
    }

    fn resolve(&self, now: &str) -> Run {
        let run = github(&self.game, &self.fake, now, &["resolve"]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        run
    }

    /// A resolve run while the first head was still the pull request's
    /// head: its checkout fetched it, unlike the later runs'.
    fn resolve_on_first_head(&self, now: &str) -> Run {
        let early = self.game.duplicate();
        let vars = more_springs(&early, "7");
        let first = early.commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
        assert_eq!(first, self.first);
        let run = github(&early, &self.fake, now, &["resolve"]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        run
    }

    /// Boris votes and a resolve run on the first head writes the status:
    /// its comment id and body.
    fn first_status(&self) -> (u64, String) {
        self.vote("boris-b", "2030-01-01T01:00:00Z");
        self.resolve_on_first_head("2030-01-01T01:30:00Z");
        let w = self.fake.world();
        let status = w
            .comments
            .iter()
            .find(|c| c.number == 1 && c.body.contains("gitnomic:status"))
            .expect("the first resolve run wrote the status");
        (status.id, status.body.clone())
    }

    fn status(&self) -> String {
        self.fake.world().bot_comments(1).join("\n")
    }
}

/// GitHub's own synchronize payload when `.ci/run` installed the
/// examples, else one with just the fields gitnomic reads.
fn synchronize_payload() -> Value {
    crate::events::examples()
        .map(|all| crate::events::payload(&all, "pull_request", "synchronize", None))
        .unwrap_or_else(
            || json!({ "action": "synchronize", "pull_request": { "head": {} }, "sender": {} }),
        )
}

/// `at` plus one minute (times here are whole minutes of 2030-01-01).
fn minute_after(at: &str) -> String {
    let (h, m) = (&at[11..13], &at[14..16]);
    let minutes = h.parse::<u32>().unwrap() * 60 + m.parse::<u32>().unwrap() + 1;
    format!("2030-01-01T{:02}:{:02}:00Z", minutes / 60, minutes % 60)
}

const ENACTED: &str = "Proposal #1: enact — enacted";
const VOIDED: &str = "cast on an earlier version";

#[test]
fn a_vote_after_a_push_counts_though_no_resolve_ran_between() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.resolve_on_first_head("2030-01-01T01:30:00Z"); // notes the first head
    let second = c.head("p2", "8", &[], "2030-01-01T02:00:00Z");
    c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    c.vote("dmitri-d", "2030-01-01T03:00:00Z");
    c.vote("boris-b", "2030-01-01T03:30:00Z");
    let run = c.resolve("2030-01-01T15:00:00Z");
    assert!(run.stdout.contains(ENACTED), "{}{}", run.stdout, c.status());
    let merges = c.fake.world().merges().len();
    assert_eq!(merges, 1);
    assert!(c.fake.world().merges()[0].body.contains(&second));
}

#[test]
fn votes_before_a_push_are_void_though_no_resolve_ran_between() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.vote("dmitri-d", "2030-01-01T01:30:00Z");
    let second = c.head("p2", "8", &[], "2030-01-01T02:00:00Z");
    let run = c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    assert!(run.stdout.contains("noted the head"), "{}", run.stdout);
    let run = c.resolve("2030-01-01T15:00:00Z");
    assert!(!run.stdout.contains(ENACTED), "{}", run.stdout);
    assert!(c.status().contains(VOIDED), "{}", c.status());
    assert!(c.fake.world().merges().is_empty());
}

#[test]
fn a_force_pushed_typo_fix_keeps_the_votes_and_its_old_head_is_pinned() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.vote("dmitri-d", "2030-01-01T01:30:00Z");
    // Six characters in a rule's body: a typo fix (the allowance is 12).
    let fixed = c.head(
        "p2",
        "7",
        &[("three Springs", "three SPRINGS")],
        "2030-01-01T02:00:00Z",
    );
    c.synchronize(&c.first, &fixed, "2030-01-01T02:00:00Z");
    assert!(
        c.fake.world().requests("GET", "/git/trees/") > 0,
        "the old head, not in the checkout, was read from GitHub"
    );
    assert!(
        c.fake.world().requests("POST", "/git/refs") == 0,
        "the check run writes no contents"
    );
    let run = c.resolve("2030-01-01T15:00:00Z");
    assert!(run.stdout.contains(ENACTED), "{}{}", run.stdout, c.status());
    assert!(!c.status().contains(VOIDED), "{}", c.status());
    let pin = format!("refs/gitnomic/pull/1/{}", c.first);
    assert_eq!(
        c.fake.world().refs.get(&pin),
        Some(&c.first),
        "the resolve run keeps the old head: {:?}",
        c.fake.world().refs
    );
}

#[test]
fn a_force_pushed_change_of_substance_voids_the_votes() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.vote("dmitri-d", "2030-01-01T01:30:00Z");
    let other = c.head("p2", "9", &[], "2030-01-01T02:00:00Z");
    c.synchronize(&c.first, &other, "2030-01-01T02:00:00Z");
    let run = c.resolve("2030-01-01T15:00:00Z");
    assert!(!run.stdout.contains(ENACTED), "{}", run.stdout);
    assert!(c.status().contains(VOIDED), "{}", c.status());
}

#[test]
fn an_event_for_a_head_already_noted_changes_nothing() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    let second = c.head("p2", "8", &[], "2030-01-01T02:00:00Z");
    c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    let noted = c.status();
    let writes = |c: &Case| {
        let w = c.fake.world();
        w.requests("POST", "/issues/1/comments") + w.requests("PATCH", "/issues/comments/")
    };
    let before = writes(&c);
    // Delivered again (a re-run of the workflow), and after a resolve run.
    let run = c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    assert!(!run.stdout.contains("noted the head"), "{}", run.stdout);
    assert_eq!(writes(&c), before, "nothing written");
    assert_eq!(c.status(), noted);
    c.resolve("2030-01-01T02:30:00Z");
    let resolved = c.status();
    let before = writes(&c);
    c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    assert_eq!(
        writes(&c),
        before,
        "nothing written after the resolve run either"
    );
    assert_eq!(c.status(), resolved);
}

#[test]
fn a_push_whose_event_was_skipped_still_adds_up_typo_fixes() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.resolve_on_first_head("2030-01-01T01:30:00Z"); // notes the first head, Boris on it
    // Two pushes: six characters, then nine more; only the second's check
    // run ran (the first was cancelled), and it names the second head as
    // `before`. Nine alone would be a typo fix; fifteen from the head
    // Boris voted on are not.
    let second = c.head(
        "p2",
        "7",
        &[("three Springs", "three SPRINGS")],
        "2030-01-01T02:00:00Z",
    );
    let third = c.head(
        "p3",
        "7",
        &[
            ("three Springs", "three SPRINGS"),
            ("Daily Action", "DAILY ACTION"),
        ],
        "2030-01-01T02:05:00Z",
    );
    c.synchronize(&second, &third, "2030-01-01T02:05:00Z");
    c.vote("dmitri-d", "2030-01-01T03:00:00Z");
    let run = c.resolve("2030-01-01T15:00:00Z");
    assert!(!run.stdout.contains(ENACTED), "{}", run.stdout);
    let status = c.status();
    assert!(status.contains(VOIDED), "Boris's vote is void: {status}");
    assert!(status.contains("| Dmitri | FOR |"), "{status}");
}

#[test]
fn a_push_whose_event_never_ran_is_noted_when_github_last_saw_the_pull_request_change() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.resolve_on_first_head("2030-01-01T01:30:00Z");
    let second = c.head("p2", "8", &[], "2030-01-01T02:00:00Z");
    c.resolve("2030-01-01T05:00:00Z");
    let status = c.status();
    let noted = format!(r#"{{"sha":"{second}","at":"2030-01-01T02:00:00Z","voids":true}}"#);
    assert!(
        status.contains(&noted),
        "noted at 02:00, not 05:00: {status}"
    );
}

#[test]
fn a_head_a_resolve_run_saw_first_is_dated_at_githubs_time() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    c.resolve_on_first_head("2030-01-01T01:30:00Z");
    let second = c.head("p2", "8", &[], "2030-01-01T02:00:00Z");
    c.vote("dmitri-d", "2030-01-01T02:15:00Z");
    c.fake
        .world()
        .add_comment(1, "stranger", "2030-01-01T02:20:00Z", "Nice.");
    // A resolve run comes before the push's check run: it notes the new
    // head when GitHub last saw the pull request change, at the stranger's
    // comment, after Dmitri's vote.
    c.resolve("2030-01-01T02:30:00Z");
    assert!(c.status().contains(VOIDED), "{}", c.status());
    // Then the check run: GitHub saw the push at 02:00, before the vote.
    c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    c.vote("boris-b", "2030-01-01T03:00:00Z");
    let run = c.resolve("2030-01-01T15:00:00Z");
    assert!(run.stdout.contains(ENACTED), "{}{}", run.stdout, c.status());
}

/// What noting a force push costs: printed for docs/costs.md with
/// `-- --nocapture`, and bounded here.
#[test]
fn what_a_force_push_costs() {
    let c = case();
    c.vote("boris-b", "2030-01-01T01:00:00Z");
    let fixed = c.head(
        "p2",
        "7",
        &[("three Springs", "three SPRINGS")],
        "2030-01-01T02:00:00Z",
    );
    let from = c.fake.world().log.len();
    c.synchronize(&c.first, &fixed, "2030-01-01T02:00:00Z");
    let check = crate::github::budget::breakdown(&c.fake, from);
    let from = c.fake.world().log.len();
    c.resolve("2030-01-01T02:30:00Z");
    let resolve = crate::github::budget::breakdown(&c.fake, from);
    let total = |kinds: &[(String, usize)], part: &str| -> usize {
        kinds
            .iter()
            .filter(|(k, _)| k.contains(part))
            .map(|(_, n)| n)
            .sum()
    };
    println!(
        "check run: {} requests, {check:#?}\nresolve run: {} requests, {resolve:#?}",
        total(&check, ""),
        total(&resolve, "")
    );
    // The old head's tree, once; its blobs are all in the checkout (a
    // typo fix changes one file, and the old one is on main).
    assert_eq!(total(&check, "/git/trees/"), 1, "{check:#?}");
    assert_eq!(total(&check, "/git/blobs/"), 0, "{check:#?}");
    assert_eq!(
        total(&check, "POST /repos/clockwork/game/issues/N/comments"),
        1,
        "one status written: {check:#?}"
    );
    let exact = |kind: &str| check.iter().find(|(k, _)| k == kind).map_or(0, |(_, n)| *n);
    assert_eq!(
        exact("GET /repos/clockwork/game/issues/N/comments"),
        2,
        "the conversation, then once more just before the status is written: {check:#?}"
    );
    assert_eq!(
        exact("GET /repos/clockwork/game/pulls/N"),
        1,
        "the pull request is read once: {check:#?}"
    );
    assert_eq!(total(&resolve, "POST /repos/clockwork/game/git/refs"), 1);
    // Pinning again before the checkout fetched it changes nothing.
    c.resolve("2030-01-01T02:40:00Z");
    let pin = format!("refs/gitnomic/pull/1/{}", c.first);
    assert_eq!(c.fake.world().refs.get(&pin), Some(&c.first));
    // Once fetched (scripts/fetch-pulls fetches refs/gitnomic/), no more.
    let vars = more_springs(&c.game, "7");
    c.game
        .commit_on("p1", &[("state/variables.toml", &vars)], "more springs");
    let from = c.fake.world().log.len();
    c.resolve("2030-01-01T02:50:00Z");
    let w = c.fake.world();
    assert!(
        !w.log[from..].iter().any(|r| r.path.contains("/git/")),
        "a head in the checkout is not pinned again"
    );
}

/// A resolve run writes the status (here: a new vote first seen) after
/// `check --event` read it and before it writes the push's note: the
/// check must not overwrite it with what it planned from the older
/// journal, but note the push on the status as it is now.
#[test]
fn a_push_noted_while_another_run_writes_the_status_overwrites_nothing() {
    let c = case();
    let (id, body) = c.first_status();
    let seen = r#""first_seen":{"1001":"FOR"}"#;
    assert!(body.contains(seen), "{body}");
    let tally = r#""first_seen":{"1001":"FOR","1077":"AGAINST"}"#;
    let written = body.replacen(seen, tally, 1);
    let second = c.head("p2", "8", &[], "2030-01-01T02:00:00Z");
    // The other run's write lands after the check read the conversation,
    // before it reads the status again just before it writes.
    c.fake.world().concurrent = Some(crate::fake::github::ConcurrentEdit {
        method: "GET",
        path: format!("/issues/comments/{id}"),
        nth: 1,
        comment: id,
        body: written,
    });
    c.synchronize(&c.first, &second, "2030-01-01T02:00:00Z");
    let status = c.status();
    assert!(c.fake.world().concurrent.is_none(), "the other run wrote");
    assert!(
        status.contains(tally),
        "the other run's status is kept: {status}"
    );
    assert!(status.contains(&second), "the push is noted: {status}");
    assert_eq!(
        c.fake.world().bot_comments(1).len(),
        1,
        "one status comment"
    );
}

/// The mirror of the case above: a check notes a push after a resolve run
/// read the status and before it writes its own (here: a vote first
/// seen). The resolve run must not overwrite the note with what it
/// planned from the older journal: it stops, and the next run plans from
/// the status as the check left it.
#[test]
fn a_push_a_check_noted_while_a_resolve_run_planned_is_kept() {
    use gitnomic::matter::journal::{Journal, SeenHead, text_of};
    let c = case();
    let (id, body) = c.first_status();
    // The status as a check leaves it on noting a push: one head more.
    let pushed = "c".repeat(40);
    let mut journal = Journal::read(&body);
    journal.heads.push(SeenHead {
        sha: gitnomic::matter::HeadSha(pushed.clone()),
        at: gitnomic::time::Timestamp::parse("2030-01-01T02:00:00Z").unwrap(),
        voids: true,
    });
    let noted = journal.render(text_of(&body));
    c.vote("dmitri-d", "2030-01-01T02:10:00Z");
    // The check's write lands after the resolve run read the
    // conversation, before it reads the status again just before it writes.
    c.fake.world().concurrent = Some(crate::fake::github::ConcurrentEdit {
        method: "GET",
        path: format!("/issues/comments/{id}"),
        nth: 1,
        comment: id,
        body: noted.clone(),
    });
    let run = c.resolve_on_first_head("2030-01-01T02:30:00Z");
    assert!(c.fake.world().concurrent.is_none(), "the check wrote");
    assert!(
        run.stdout
            .contains("another run wrote #1's status since this one read it"),
        "{}",
        run.stdout
    );
    assert_eq!(c.status(), noted, "the check's status stands");
    let next = c.resolve_on_first_head("2030-01-01T02:40:00Z");
    let status = c.status();
    assert!(status.contains(&pushed), "the push stays noted: {status}");
    assert!(
        status.contains(r#""1003":"FOR""#),
        "the next run saw the vote: {}{status}",
        next.stdout
    );
    assert_eq!(
        c.fake.world().bot_comments(1).len(),
        1,
        "one status comment"
    );
}
