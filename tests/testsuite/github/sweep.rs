//! A fault at every request of a busy resolve run on the fake GitHub.
//!
//! Two games, each resolved in one run that does a lot: in play, a
//! proposal enacted (merge, record), a CfJ failed (close, record), an
//! action merged without a vote, a young proposal's status posted; in
//! victory, a DoV enacted (record, crown in state/game.toml), another DoV
//! failed by it, a CfJ failed, a proposal held by the hiatus.
//!
//! Each is run once without faults. Then, for request after request of
//! that run, a fresh fake with the same matters fails that one request,
//! and a second run at the same moment follows with no fault; it must end
//! where the uninterrupted run ended: the same merges (each sent once,
//! unless the first never took effect), records, commits, labels and
//! status comments, none twice. The faulty run may fail, but only as the
//! binary fails on purpose (exit 0, 1 or 2, with its reason).
//!
//! Which failures each request gets: every write (POST, PUT, PATCH,
//! DELETE) gets one that did nothing (502, dropped connection or secondary
//! rate limit, in turn) and one that was done but reported failed (502 or
//! dropped, in turn); every read gets one of the three in turn. That keeps
//! the sweep near 60 s in a debug build; set `GITNOMIC_SWEEP_ALL=1` to give
//! every request every failure that can befall it (about three times as
//! many runs).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::fake::github::{FakeGitHub, Item, When, World, base64, unbase64};
use crate::game_test::{GameTest, Run};
use crate::github::github;

const NOW: &str = "2030-01-01T12:00:00Z";

/// The bundled game with the branches of the pull requests, and the
/// text of state/game.toml. Every run of a sweep shares it: resolve on
/// GitHub reads the repository and writes nothing to it.
pub(crate) struct Repo {
    pub(crate) game: GameTest,
    game_toml: String,
    heads: BTreeMap<&'static str, String>,
}

impl Repo {
    /// The bundled game with a branch per `(title, from, to)`: one edit of
    /// state/variables.toml each, named after the pull request's title.
    pub(crate) fn new(branches: &[(&'static str, &str, &str)]) -> Self {
        let game = GameTest::committed();
        let vars = game.read("state/variables.toml");
        let mut heads = BTreeMap::new();
        for (name, from, to) in branches {
            assert!(vars.contains(from), "{from}");
            let text = vars.replace(from, to);
            let branch = name.to_lowercase().replace(' ', "-");
            let head = game.commit_on(&branch, &[("state/variables.toml", &text)], name);
            heads.insert(*name, head);
        }
        // The checkout is of main's commit, not on main: the fake moves
        // main as GitHub would, and the work tree is not the user's edit.
        let git = git2::Repository::open(game.root()).unwrap();
        let tip = git.refname_to_id("refs/heads/main").unwrap();
        git.set_head_detached(tip).unwrap();
        let game_toml = game.read("state/game.toml");
        Repo {
            game,
            game_toml,
            heads,
        }
    }
}

/// Puts a game's matters on a fresh fake.
pub(crate) type Seed = fn(&mut World, &Repo);

pub(crate) const AT: &str = "2030-01-01T00:00:00Z";
const YOUNG: &str = "2030-01-01T11:00:00Z";

fn pull(w: &mut World, repo: &Repo, number: u64, title: &str, by: &str, at: &str, kind: &str) {
    let mut item = Item::pull(number, title, by, at, &repo.heads[title]);
    item.labels = vec![kind.into()];
    item.files = vec!["state/variables.toml".into()];
    w.items.insert(number, item);
}

fn issue(w: &mut World, number: u64, title: &str, by: &str, at: &str, votes: &[(&str, &str)]) {
    w.items.insert(number, Item::issue(number, title, by, at));
    for (hour, (who, vote)) in votes.iter().enumerate() {
        w.add_comment(
            number,
            who,
            &format!("2030-01-01T0{}:00:00Z", hour + 1),
            vote,
        );
    }
}

/// The branches of the play game.
const PLAY: [(&str, &str, &str); 3] = [
    (
        "More springs",
        "[players.Dmitri]\nsprings = 6",
        "[players.Dmitri]\nsprings = 7",
    ),
    (
        "A spring for Cleo",
        "[players.Cleo]\nsprings = 1",
        "[players.Cleo]\nsprings = 2",
    ),
    (
        "Boris winds",
        "[players.Boris]\nsprings = 3",
        "[players.Boris]\nsprings = 4",
    ),
];

/// #1 a proposal with enough votes, #2 a CfJ voted down, #3 a young
/// proposal with one vote, #4 an action.
fn play(w: &mut World, repo: &Repo) {
    pull(w, repo, 1, "More springs", "ada-tinkers", AT, "Proposal");
    w.add_comment(1, "boris-b", "2030-01-01T01:00:00Z", "FOR");
    w.add_review(
        1,
        Some("dmitri-d"),
        "2030-01-01T02:00:00Z",
        "Looks right. FOR",
        "COMMENTED",
    );
    let against = [
        ("ada-tinkers", "AGAINST"),
        ("dmitri-d", "AGAINST"),
        ("wren-w", "AGAINST"),
    ];
    issue(w, 2, "CfJ: Cleo's springs", "boris-b", AT, &against);
    pull(
        w,
        repo,
        3,
        "A spring for Cleo",
        "dmitri-d",
        YOUNG,
        "Proposal",
    );
    w.add_comment(3, "wren-w", "2030-01-01T11:30:00Z", "FOR");
    let morning = "2030-01-01T10:00:00Z";
    pull(w, repo, 4, "Boris winds", "boris-b", morning, "Action");
}

/// #1 a DoV with enough votes, #3 a CfJ voted down, #4 a proposal opened
/// before the hiatus, which holds it, and (with `rival`) #2 a younger DoV
/// that #1 fails, on a fake that has the default
/// branch's state/game.toml.
fn victory(w: &mut World, repo: &Repo) {
    victory_with(w, repo, false);
}

/// The victory game with a rival DoV.
fn victory_and_rival(w: &mut World, repo: &Repo) {
    victory_with(w, repo, true);
}

fn victory_with(w: &mut World, repo: &Repo, rival: bool) {
    w.contents.insert(
        "state/game.toml".into(),
        ("b10b".into(), base64(&repo.game_toml)),
    );
    let two = [("ada-tinkers", "FOR"), ("dmitri-d", "FOR")];
    issue(w, 1, "DoV: three gadgets", "boris-b", AT, &two);
    if rival {
        issue(
            w,
            2,
            "DoV: a full set",
            "dmitri-d",
            "2030-01-01T06:00:00Z",
            &[],
        );
    }
    let against = [
        ("boris-b", "AGAINST"),
        ("dmitri-d", "AGAINST"),
        ("wren-w", "AGAINST"),
    ];
    issue(w, 3, "CfJ: Cleo's springs", "ada-tinkers", AT, &against);
    let before = "2029-12-31T23:00:00Z";
    pull(
        w,
        repo,
        4,
        "More springs",
        "ada-tinkers",
        before,
        "Proposal",
    );
    w.add_comment(4, "boris-b", "2030-01-01T01:00:00Z", "FOR");
}

/// A fake holding a game's matters, with its own copy of the repository
/// as its default branch (and the runs' checkout).
pub(crate) fn fresh(repo: &Repo, seed: Seed) -> (FakeGitHub, GameTest) {
    let copy = repo.game.duplicate();
    let fake = FakeGitHub::start();
    seed(&mut fake.world(), repo);
    fake.world().main = Some(copy.root().to_path_buf());
    (fake, copy)
}

/// What a run leaves behind: each matter's state, labels and merge, the
/// bot's comments on it, the files committed through the contents API and
/// their order, and the default branch's tree.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct EndState {
    pub(crate) items: Vec<(u64, &'static str, Vec<String>, Option<String>)>,
    pub(crate) bot_comments: BTreeMap<u64, Vec<String>>,
    pub(crate) files: BTreeMap<String, String>,
    pub(crate) commits: Vec<String>,
    /// The tree of the default branch.
    main: String,
}

/// The end state, with the fake's address (a new port each time) elided.
pub(crate) fn end_state(w: &World, url: &str) -> EndState {
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
        main: w.main.as_ref().map_or(String::new(), |path| {
            let git = git2::Repository::open(path).unwrap();
            let main = git.find_reference("refs/heads/main").unwrap();
            main.peel_to_tree().unwrap().id().to_string()
        }),
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
    /// GitHub goes down: this request and every later one answer 502,
    /// so the run stops here (as if it were killed).
    Outage,
    /// The write is done, then answered 502.
    DoneThenBadGateway,
    /// The write is done, then the connection drops.
    DoneThenDropped,
    /// The write is done, then GitHub goes down.
    DoneThenOutage,
}

/// Failures that leave the request undone.
const NOT_DONE: [Failure; 4] = [
    Failure::BadGateway,
    Failure::Dropped,
    Failure::SlowDown,
    Failure::Outage,
];
/// Failures after the write was done.
const DONE: [Failure; 3] = [
    Failure::DoneThenBadGateway,
    Failure::DoneThenDropped,
    Failure::DoneThenOutage,
];

impl Failure {
    /// Whether the failed request was carried out.
    fn done(self) -> bool {
        DONE.contains(&self)
    }

    fn inject(self, w: &mut World, at: usize) {
        let limited = "You have exceeded a secondary rate limit";
        match self {
            Failure::BadGateway => w.fail_request(at, 502, "Bad Gateway", When::Before, &[]),
            Failure::Dropped => w.fail_request(at, 0, "", When::HangUpBefore, &[]),
            Failure::SlowDown => {
                w.fail_request(at, 403, limited, When::Before, &[("retry-after", "30")]);
            }
            Failure::Outage => w.fail_from(at, When::Before),
            Failure::DoneThenBadGateway => {
                w.fail_request(at, 502, "Bad Gateway", When::After, &[]);
            }
            Failure::DoneThenDropped => w.fail_request(at, 0, "", When::HangUpAfter, &[]),
            Failure::DoneThenOutage => w.fail_from(at, When::After),
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
                if heads(&g) == heads(w) {
                    " (bodies differ)"
                } else {
                    ""
                }
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
    if got.main != want.main {
        out.push("main has another tree".into());
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

/// One faulty run and the clean run after it, on a fresh fake: an error
/// unless the two end where the uninterrupted run ended.
fn fault_then_finish(
    repo: &Repo,
    seed: Seed,
    clean: &Clean,
    at: usize,
    failure: Failure,
) -> Result<i32, String> {
    let (method, path) = &clean.log[at];
    let (fake, game) = fresh(repo, seed);
    failure.inject(&mut fake.world(), at);
    let first = github(&game, &fake, NOW, &["resolve"]);
    orderly(&first).map_err(|e| format!("the faulty run: {e}"))?;
    {
        let w = fake.world();
        let hit = w.log.get(at).map(|r| (&r.method, &r.path));
        if !w.faults.is_empty() || hit != Some((method, path)) {
            return Err(format!(
                "the run went another way: request {at} was {hit:?}"
            ));
        }
    }
    fake.world().outage = None;
    let second = github(&game, &fake, NOW, &["resolve"]);
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
    Ok(first.code)
}

/// Every request of the uninterrupted run fails in turn, in each way
/// that can befall it (three for a read, five for a write), and the next
/// run finishes. The runs share one repository (resolve on GitHub never
/// writes to it) and each gets its own fake.
/// The uninterrupted run: its requests (method, path) and its end.
pub(crate) struct Clean {
    pub(crate) log: Vec<(String, String)>,
    pub(crate) end: EndState,
}

/// Runs resolve once without faults, and again to see it does nothing
/// more; the run must write at least `busy` times.
pub(crate) fn clean_run(repo: &Repo, seed: Seed, busy: usize) -> (Clean, Run) {
    let (fake, game) = fresh(repo, seed);
    let run = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let (log, end) = {
        let w = fake.world();
        let log: Vec<(String, String)> = w
            .log
            .iter()
            .map(|r| (r.method.clone(), r.path.clone()))
            .collect();
        (log, end_state(&w, &fake.url))
    };
    let again = github(&game, &fake, NOW, &["resolve"]);
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    let w = fake.world();
    let writes: Vec<_> = w.log[log.len()..]
        .iter()
        .filter(|r| r.method != "GET")
        .map(|r| format!("{} {} {}", r.method, r.path, r.body))
        .collect();
    assert!(
        writes.is_empty(),
        "a finished run leaves nothing to do: {writes:#?}\n{}",
        again.stdout
    );
    assert!(
        end.bot_comments.values().all(|c| c.len() == 1),
        "one status each: {:?}",
        end.bot_comments
    );
    let writes = log.iter().filter(|(m, _)| m != "GET").count();
    assert!(writes >= busy, "a busy run: {log:?}");
    (Clean { log, end }, run)
}

/// The failures request `at` of `clean` gets (see the module's note).
fn failures(clean: &Clean, at: usize, all: bool) -> Vec<Failure> {
    let read = clean.log[at].0 == "GET";
    if all {
        return match read {
            true => NOT_DONE.to_vec(),
            false => NOT_DONE.iter().chain(&DONE).copied().collect(),
        };
    }
    // Turn by turn among the requests of the same sort, so each failure
    // falls on every kind of request somewhere.
    let turn = clean.log[..at]
        .iter()
        .filter(|(m, _)| (m == "GET") == read)
        .count();
    if read {
        // A single failure of a read is retried by the same code for
        // every read: an outage, where the run stops, every other time.
        match turn % 2 {
            0 => vec![Failure::Outage],
            _ => vec![NOT_DONE[(turn / 2) % 3]],
        }
    } else {
        vec![NOT_DONE[turn % 4], DONE[turn % 3]]
    }
}

/// Fails each request of the clean run in turn (two at a time, each with
/// its own fake) and panics with every case whose next run did not end
/// where the clean run ended. Returns how many binary runs it made.
pub(crate) fn sweep(repo: &Repo, seed: Seed, clean: &Clean) -> usize {
    let all = std::env::var_os("GITNOMIC_SWEEP_ALL").is_some();
    let cases: Vec<(usize, Failure)> = (0..clean.log.len())
        .flat_map(|at| failures(clean, at, all).into_iter().map(move |f| (at, f)))
        .collect();
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(Vec::new());
    let stopped = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(&(at, failure)) = cases.get(next.fetch_add(1, Ordering::SeqCst)) {
                    match fault_then_finish(repo, seed, clean, at, failure) {
                        Ok(0) => {}
                        Ok(_) => {
                            stopped.fetch_add(1, Ordering::SeqCst);
                        }
                        Err(e) => {
                            let (method, path) = &clean.log[at];
                            let case = format!("request {at} ({method} {path}) {failure:?}: {e}");
                            failed.lock().unwrap().push(case);
                        }
                    }
                }
            });
        }
    });
    let mut failed = failed.into_inner().unwrap();
    failed.sort();
    assert!(
        failed.is_empty(),
        "{} of {} faults were not finished as the uninterrupted run ends:\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
    println!(
        "{} faulty runs, {} of them stopped early",
        cases.len(),
        stopped.into_inner()
    );
    2 * cases.len()
}

#[test]
fn a_fault_anywhere_in_play_is_finished_by_the_next_run() {
    let repo = Repo::new(&PLAY);
    let (clean, run) = clean_run(&repo, play, 10);
    let item = |n: usize| &clean.end.items[n - 1];
    assert!(item(1).3.is_some(), "#1 enacted: {}", run.stdout);
    assert_eq!(item(2).2, ["failed"], "#2 failed: {}", run.stdout);
    assert_eq!(item(3).1, "open", "#3 pending: {}", run.stdout);
    assert!(item(4).3.is_some(), "#4 merged: {}", run.stdout);
    assert_eq!(clean.end.commits.len(), 2, "two records");
    let runs = sweep(&repo, play, &clean);
    println!("play: {} requests, {runs} runs", clean.log.len());
}

#[test]
fn a_fault_anywhere_in_a_victory_is_finished_by_the_next_run() {
    let repo = Repo::new(&PLAY[..1]);
    let (clean, run) = clean_run(&repo, victory, 10);
    let items: BTreeMap<u64, _> = clean.end.items.iter().map(|i| (i.0, i)).collect();
    assert_eq!(items[&1].2, ["enacted"], "DoV #1 enacted: {}", run.stdout);
    assert_eq!(items[&3].2, ["failed"], "CfJ #3 failed: {}", run.stdout);
    assert_eq!(items[&4].1, "open", "#4 held: {}", run.stdout);
    let crowned = &clean.end.files["state/game.toml"];
    assert!(crowned.contains("emperor = \"Boris\""), "{crowned}");
    assert_eq!(clean.end.commits.len(), 3, "two records and the crown");
    let runs = sweep(&repo, victory, &clean);
    println!("victory: {} requests, {runs} runs", clean.log.len());
}

/// A run stopped once DoV #1's enactment is announced leaves DoV #2
/// open; the run that finishes #1 must fail #2 as the uninterrupted run
/// does ("DoV #1 was enacted, which fails every other DoV", with a
/// record), not judge #2 on the crowned game and close it as "posted while
/// an Ascension Address is awaited" with no record (which it once did).
#[test]
fn a_rival_dov_fails_even_when_the_enactment_is_finished_by_the_next_run() {
    let repo = Repo::new(&PLAY[..1]);
    let (clean, _) = clean_run(&repo, victory_and_rival, 10);
    assert_eq!(clean.end.items[1].2, ["failed"], "DoV #2 failed");
    let at = clean
        .log
        .iter()
        .position(|(m, p)| m == "POST" && p.ends_with("/issues/1/comments"))
        .expect("#1's status is posted");
    fault_then_finish(
        &repo,
        victory_and_rival,
        &clean,
        at,
        Failure::DoneThenOutage,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}
