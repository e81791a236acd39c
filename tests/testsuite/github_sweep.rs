//! A fault at every request of a busy resolve run on the fake GitHub.
//!
//! One run enacts a proposal (merge, record), fails a CfJ (close, record),
//! merges an action without a vote and posts a pending proposal's status.
//! It is run once without faults; then, for every request index of that
//! run, on a fresh fake with the same matters, that one request fails and
//! a second run at the same moment follows with no fault. The second run
//! must end where the uninterrupted run ended: the same merges (one per
//! pull request), records, labels and status comments, none twice.

use std::collections::BTreeMap;

use crate::fake_github::{FakeGitHub, Item, When, World, unbase64};
use crate::game_test::{GameTest, Run};
use crate::github::github;

const NOW: &str = "2030-01-01T12:00:00Z";

/// The heads of the pull requests, committed in the shared repository.
struct Heads {
    enacted: String,
    pending: String,
    action: String,
}

/// The bundled game with a branch per pull request. Every run shares it:
/// resolve on GitHub reads the repository and writes nothing to it.
fn game() -> (GameTest, Heads) {
    let game = GameTest::bundled();
    game.commit_all("the bundled game");
    let vars = game.read("state/variables.toml");
    let set = |from: &str, to: &str| {
        assert!(vars.contains(from), "{from}");
        vars.replace(from, to)
    };
    let enacted = game.commit_on(
        "p1",
        &[(
            "state/variables.toml",
            &set("[players.Dmitri]\nsprings = 6", "[players.Dmitri]\nsprings = 7"),
        )],
        "more springs for Dmitri",
    );
    let pending = game.commit_on(
        "p3",
        &[(
            "state/variables.toml",
            &set("[players.Cleo]\nsprings = 1", "[players.Cleo]\nsprings = 2"),
        )],
        "a spring for Cleo",
    );
    let action = game.commit_on(
        "a4",
        &[(
            "state/variables.toml",
            &set("[players.Boris]\nsprings = 3", "[players.Boris]\nsprings = 4"),
        )],
        "Boris winds",
    );
    let heads = Heads {
        enacted,
        pending,
        action,
    };
    (game, heads)
}

/// The matters on a fresh fake: #1 a proposal with enough votes, #2 a CfJ
/// voted down, #3 a young proposal with one vote, #4 an action.
fn seed(w: &mut World, heads: &Heads) {
    let at = "2030-01-01T00:00:00Z";
    let mut p1 = Item::pull(1, "More springs", "ada-tinkers", at, &heads.enacted);
    p1.labels = vec!["Proposal".into()];
    p1.files = vec!["state/variables.toml".into()];
    w.items.insert(1, p1);
    w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
    w.add_review(
        1,
        Some("dmitri-d"),
        "2030-01-01T02:00:00Z",
        "Looks right. FOR",
        "COMMENTED",
    );
    let mut cfj = Item::issue(2, "CfJ: Cleo's springs", "boris-b", at);
    cfj.labels = vec!["CfJ".into()];
    w.items.insert(2, cfj);
    for (who, when) in [
        ("ada-tinkers", "2030-01-01T01:00:00Z"),
        ("dmitri-d", "2030-01-01T02:00:00Z"),
        ("wren-w", "2030-01-01T03:00:00Z"),
    ] {
        w.add_comment(2, who, when, "AGAINST");
    }
    let young = "2030-01-01T11:00:00Z";
    let mut p3 = Item::pull(3, "A spring for Cleo", "dmitri-d", young, &heads.pending);
    p3.labels = vec!["Proposal".into()];
    p3.files = vec!["state/variables.toml".into()];
    w.items.insert(3, p3);
    w.add_comment(3, "wren-w", "2030-01-01T11:30:00Z", "FOR");
    let mut a4 = Item::pull(
        4,
        "Boris winds",
        "boris-b",
        "2030-01-01T10:00:00Z",
        &heads.action,
    );
    a4.labels = vec!["Action".into()];
    a4.files = vec!["state/variables.toml".into()];
    w.items.insert(4, a4);
}

/// A fake holding the seeded matters.
fn fresh(heads: &Heads) -> FakeGitHub {
    let fake = FakeGitHub::start();
    seed(&mut fake.world(), heads);
    fake
}

/// What a run leaves behind: each matter's state, labels and merge, the
/// bot's comments on it, the files on the default branch and the order in
/// which they were committed.
#[derive(Debug, PartialEq, Eq)]
struct EndState {
    items: Vec<(u64, &'static str, Vec<String>, Option<String>)>,
    bot_comments: BTreeMap<u64, Vec<String>>,
    files: BTreeMap<String, String>,
    commits: Vec<String>,
}

/// The end state, with the fake's address (a new port each time) elided.
fn end_state(w: &World, url: &str) -> EndState {
    let elide = |text: &str| text.replace(url, "FAKE");
    EndState {
        items: w
            .items
            .values()
            .map(|i| {
                let mut labels = i.labels.clone();
                labels.sort();
                (i.number, i.state, labels, i.merge_commit.clone())
            })
            .collect(),
        bot_comments: w
            .items
            .keys()
            .map(|n| (*n, w.bot_comments(*n).iter().map(|c| elide(c)).collect()))
            .collect(),
        files: w
            .contents
            .iter()
            .map(|(p, (_, c))| (p.clone(), elide(&unbase64(c))))
            .collect(),
        commits: w.commits.iter().map(|(p, _)| p.clone()).collect(),
    }
}

/// How the chosen request goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// 502 before anything was done.
    BadGateway,
    /// The connection drops before anything was done (a timeout).
    Dropped,
    /// A secondary rate limit, with `retry-after`.
    SlowDown,
    /// The write is done, then answered 502.
    DoneThenBadGateway,
    /// The write is done, then the connection drops.
    DoneThenDropped,
}

impl Failure {
    /// The failures tried on a request: all five on a write, the three
    /// that can befall any request on a read.
    fn for_method(method: &str) -> &'static [Failure] {
        use Failure::*;
        if method == "GET" {
            &[BadGateway, Dropped, SlowDown]
        } else {
            &[
                BadGateway,
                Dropped,
                SlowDown,
                DoneThenBadGateway,
                DoneThenDropped,
            ]
        }
    }

    /// Whether the failed request was carried out.
    fn done(self) -> bool {
        matches!(self, Failure::DoneThenBadGateway | Failure::DoneThenDropped)
    }

    fn inject(self, w: &mut World, at: usize) {
        let limited = "You have exceeded a secondary rate limit";
        match self {
            Failure::BadGateway => w.fail_request(at, 502, "Bad Gateway", When::Before, &[]),
            Failure::Dropped => w.fail_request(at, 0, "", When::HangUpBefore, &[]),
            Failure::SlowDown => {
                w.fail_request(at, 403, limited, When::Before, &[("retry-after", "30")]);
            }
            Failure::DoneThenBadGateway => {
                w.fail_request(at, 502, "Bad Gateway", When::After, &[]);
            }
            Failure::DoneThenDropped => w.fail_request(at, 0, "", When::HangUpAfter, &[]),
        }
    }
}

/// A run may fail after a fault, but only as the binary fails on purpose:
/// exit 0, 1 or 2, no panic, and a reason when it is not 0.
fn orderly(run: &Run) -> Result<(), String> {
    let said = format!("exit {}: {}{}", run.code, run.stdout, run.stderr);
    if !matches!(run.code, 0..=2) || run.stderr.contains("panicked") {
        return Err(format!("not an orderly failure: {said}"));
    }
    if run.code == 2 && !run.stderr.contains("gitnomic: error: ") {
        return Err(format!("no reason given: {said}"));
    }
    if run.code == 1 && !run.stdout.contains("refused") {
        return Err(format!("exit 1 without saying what was refused: {said}"));
    }
    Ok(())
}

/// Where two end states differ, one line each.
fn differences(got: &EndState, want: &EndState) -> Vec<String> {
    let mut out = Vec::new();
    for (g, w) in got.items.iter().zip(&want.items) {
        if g != w {
            out.push(format!("matter {g:?}, not {w:?}"));
        }
    }
    for (n, w) in &want.bot_comments {
        let g = got.bot_comments.get(n).cloned().unwrap_or_default();
        if g != *w {
            let heads = |c: &[String]| -> Vec<String> {
                c.iter()
                    .map(|b| b.lines().nth(1).unwrap_or("").to_string())
                    .collect()
            };
            out.push(format!(
                "#{n}: bot comments {:?}, not {:?}{}",
                heads(&g),
                heads(w),
                if heads(&g) == heads(w) { " (bodies differ)" } else { "" }
            ));
        }
    }
    if got.files != want.files {
        out.push(format!(
            "files {:?}, not {:?}",
            got.files.keys().collect::<Vec<_>>(),
            want.files.keys().collect::<Vec<_>>()
        ));
    }
    if got.commits != want.commits {
        out.push(format!("commits {:?}, not {:?}", got.commits, want.commits));
    }
    out
}

/// Merge requests sent for each pull request, in the whole log.
fn merge_requests(w: &World) -> BTreeMap<u64, usize> {
    let mut sent = BTreeMap::new();
    for r in w.log.iter().filter(|r| r.method == "PUT") {
        if let Some(n) = r
            .path
            .strip_suffix("/merge")
            .and_then(|p| p.rsplit('/').next())
            .and_then(|n| n.parse::<u64>().ok())
        {
            *sent.entry(n).or_default() += 1;
        }
    }
    sent
}

/// The uninterrupted run: its requests (method, path) and its end.
struct Clean {
    log: Vec<(String, String)>,
    end: EndState,
}

/// One faulty run and the clean run after it, on a fresh fake: an error
/// unless the two end where the uninterrupted run ended.
fn fault_then_finish(
    game: &GameTest,
    heads: &Heads,
    clean: &Clean,
    at: usize,
    failure: Failure,
) -> Result<(), String> {
    let (method, path) = &clean.log[at];
    let fake = fresh(heads);
    failure.inject(&mut fake.world(), at);
    let first = github(game, &fake, NOW, &["resolve"]);
    orderly(&first).map_err(|e| format!("the faulty run: {e}"))?;
    {
        let w = fake.world();
        let hit = w.log.get(at).map(|r| (&r.method, &r.path));
        if !w.faults.is_empty() || hit != Some((method, path)) {
            return Err(format!("the run went another way: request {at} was {hit:?}"));
        }
    }
    let second = github(game, &fake, NOW, &["resolve"]);
    if second.code != 0 {
        return Err(format!(
            "the next run failed: {}{}\n(after: {}{})",
            second.stdout, second.stderr, first.stdout, first.stderr
        ));
    }
    let w = fake.world();
    let differ = differences(&end_state(&w, &fake.url), &clean.end);
    if !differ.is_empty() {
        return Err(format!(
            "another end:\n    {}\n  first run: {}{}",
            differ.join("\n    "),
            first.stdout,
            first.stderr
        ));
    }
    // A merge is sent again only when the first never took effect; one
    // that happened is never repeated.
    for (n, sent) in merge_requests(&w) {
        let ours = *method == "PUT" && path.ends_with(&format!("/pulls/{n}/merge"));
        let expected = 1 + usize::from(ours && !failure.done());
        if sent != expected {
            return Err(format!("#{n}: merge sent {sent} times, not {expected}"));
        }
    }
    Ok(())
}

/// Every request of the uninterrupted run fails in turn, in each way
/// that can befall it (three for a read, five for a write), and the next
/// run finishes. The runs share one repository (resolve on GitHub never
/// writes to it) and each gets its own fake.
#[test]
fn a_fault_at_any_request_is_finished_by_the_next_run() {
    let (game, heads) = game();
    let fake = fresh(&heads);
    let run = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let clean = {
        let w = fake.world();
        let log = w
            .log
            .iter()
            .map(|r| (r.method.clone(), r.path.clone()))
            .collect();
        Clean {
            log,
            end: end_state(&w, &fake.url),
        }
    };
    drop(fake);
    let end = &clean.end;
    assert_eq!(end.items[0].1, "closed", "#1 enacted: {}", run.stdout);
    assert!(end.items[0].3.is_some(), "#1 merged");
    assert_eq!(end.items[1].2, ["CfJ", "failed"], "#2 failed");
    assert_eq!(end.items[2].1, "open", "#3 pending");
    assert!(end.items[3].3.is_some(), "#4 merged");
    assert_eq!(end.commits.len(), 2, "two records");
    assert!(
        end.bot_comments.values().all(|c| c.len() == 1),
        "one status each"
    );
    let writes = clean.log.iter().filter(|(m, _)| m != "GET").count();
    assert!(writes >= 10, "a busy run: {:?}", clean.log);
    let mut runs = 0;
    let mut failed = Vec::new();
    for (at, (method, path)) in clean.log.iter().enumerate() {
        for failure in Failure::for_method(method) {
            if let Err(e) = fault_then_finish(&game, &heads, &clean, at, *failure) {
                failed.push(format!("request {at} ({method} {path}) {failure:?}: {e}"));
            }
            runs += 2;
        }
    }
    println!("{} requests, {runs} runs", clean.log.len());
    assert!(
        failed.is_empty(),
        "{} of {} faults were not finished as an uninterrupted run ends:\n{}",
        failed.len(),
        runs / 2,
        failed.join("\n")
    );
}
