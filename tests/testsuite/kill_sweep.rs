//! A resolve run killed at every write it makes, and finished by one more
//! run, ends exactly where the uninterrupted run ends.
//!
//! The kill is a real SIGKILL, delivered by `strace` at the k-th call of
//! one kind of write (`rename`, `unlink` and their `*at` forms: how git
//! publishes every object, reference, reflog and index, and how the local
//! forge and the checkout publish their files; `unlink` covers lock and
//! temporary files given back). strace is a process outside ours, so the
//! kill lands inside libgit2's writes too (between a lock taken and its
//! rename), where no hook of the project's own could reach. The sweep
//! counts each kind's calls in an uninterrupted run, then kills a copy of
//! the game at each of them.
//!
//! After the finishing run, against the uninterrupted twin: the same
//! commit on main (so the same tree, and never a second merge of a pull
//! request), every file of the forge the same, no lock file left, and a
//! checkout as clean as the twin's. `check`, `audit` and `roll verify`
//! pass on the twin, so they pass on an identical game.
//!
//! Needs strace (Debian's package); without it the sweep is skipped with a
//! message, unless `GITNOMIC_REQUIRE_STRACE` is set (as `.ci/run` sets it).
//! `GITNOMIC_SWEEP_BIN` runs another binary (an older build, to measure
//! it), and then the divergent points are counted, not asserted.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::game_test::GameTest;
use crate::histories_checks::assert_same_state;

/// The kinds of write a kill lands on, each counted on its own.
const KINDS: [&str; 2] = ["rename,renameat,renameat2", "unlink,unlinkat"];

const PLAYERS: [(&str, &str); 5] = [
    ("Ada", "ada-tinkers"),
    ("Boris", "boris-b"),
    ("Cleo", "cleo-c"),
    ("Dmitri", "dmitri-d"),
    ("Wren", "wren-w"),
];

/// Whether strace is here to kill with (said once when it is not).
pub(crate) fn strace() -> bool {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FOUND.get_or_init(|| {
        let found = Command::new("strace").arg("-V").output().is_ok();
        if !found {
            assert!(
                std::env::var_os("GITNOMIC_REQUIRE_STRACE").is_none(),
                "strace is required (GITNOMIC_REQUIRE_STRACE is set) but not installed"
            );
            eprintln!(
                "kills inside writes skipped: strace is not installed (Debian: apt-get install strace)"
            );
        }
        found
    })
}

/// Runs `resolve` at `now` on `root`, killed by SIGKILL at the `k`-th
/// call of the writes `kind` names (`None` as the code: it was killed).
pub(crate) fn run_killed(root: &Path, now: &str, kind: &str, k: usize) -> (Option<i32>, String) {
    run_killed_with(root, now, &["resolve"], kind, k)
}

/// Runs the command `args` at `now` on `root`, killed by SIGKILL at the
/// `k`-th call of the writes `kind` names (`None` as the code: killed).
fn run_killed_with(
    root: &Path,
    now: &str,
    args: &[&str],
    kind: &str,
    k: usize,
) -> (Option<i32>, String) {
    let trace = [
        "-f".to_string(),
        "-qq".to_string(),
        "-o".to_string(),
        "/dev/null".to_string(),
        "-e".to_string(),
        format!("trace={kind}"),
        "-e".to_string(),
        format!("inject={kind}:signal=SIGKILL:when={k}"),
    ];
    run(root, now, args, Some(&trace))
}

fn bin() -> String {
    std::env::var("GITNOMIC_SWEEP_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_gitnomic").into())
}

/// Runs the binary at `now` on `root`, under strace when `trace` gives
/// the strace arguments. Returns the exit code (`None`: killed) and output.
fn run(root: &Path, now: &str, args: &[&str], trace: Option<&[String]>) -> (Option<i32>, String) {
    let bin = bin();
    let mut command = match trace {
        Some(strace_args) => {
            let mut c = Command::new("strace");
            c.args(strace_args).arg("--").arg(&bin);
            c
        }
        None => Command::new(&bin),
    };
    let output = command
        .arg("--root")
        .arg(root)
        .args(["--now", now])
        .args(args)
        .env_remove("GITNOMIC_LOG")
        .output()
        .expect("run gitnomic");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    // strace exits with the signal's number plus 128 when its tracee is killed.
    let code = output.status.code().filter(|c| *c < 128);
    (code, text)
}

/// How many calls of each kind of write an uninterrupted run makes.
fn count_writes(game: &GameTest, now: &str) -> Vec<usize> {
    count_writes_of(game, now, &["resolve"], &KINDS)
}

/// How many calls of each of `kinds` an uninterrupted run of `args` makes.
fn count_writes_of(game: &GameTest, now: &str, args: &[&str], kinds: &[&str]) -> Vec<usize> {
    let twin = game.duplicate();
    let log = twin.path("strace.log");
    let calls: String = kinds.join(",");
    let trace = [
        "-f".to_string(),
        "-qq".to_string(),
        "-o".to_string(),
        log.display().to_string(),
        "-e".to_string(),
        format!("trace={calls}"),
    ];
    let (code, out) = run(twin.root(), now, args, Some(&trace));
    assert_eq!(code, Some(0), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    kinds
        .iter()
        .map(|kind| {
            let names: Vec<&str> = kind.split(',').collect();
            text.lines()
                .filter(|line| {
                    let call = line
                        .split_whitespace()
                        .nth(1)
                        .and_then(|c| c.split('(').next())
                        .unwrap_or_default();
                    names.contains(&call)
                })
                .count()
        })
        .collect()
}

/// What is left of a run: git's lock files and temporary files.
fn leftovers(root: &Path) -> Vec<String> {
    walkdir::WalkDir::new(root.join(".git"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.path().strip_prefix(root).unwrap().display().to_string())
        .filter(|p| {
            p.ends_with(".lock")
                || p.ends_with(".tmp")
                || p.contains("gitnomic-tmp")
                || p.contains("gitnomic-run")
        })
        .collect()
}

/// The checkout's status: path → flags, untracked files included.
fn status(root: &Path) -> BTreeMap<String, u32> {
    let repo = git2::Repository::open(root).unwrap();
    let mut options = git2::StatusOptions::new();
    options.include_untracked(true).recurse_untracked_dirs(true);
    let statuses = repo.statuses(Some(&mut options)).unwrap();
    statuses
        .iter()
        .map(|s| (s.path().unwrap().to_string(), s.status().bits()))
        .collect()
}

fn main_commit(root: &Path) -> String {
    let repo = git2::Repository::open(root).unwrap();
    repo.revparse_single("main").unwrap().id().to_string()
}

/// Kills a copy of `game`'s run at `now` at every write; returns the
/// kill points tried and those that ended unlike the uninterrupted run,
/// each with why.
fn sweep(game: &GameTest, now: &str) -> (usize, Vec<String>) {
    let twin = game.duplicate();
    let (code, out) = run(twin.root(), now, &["resolve"], None);
    assert_eq!(code, Some(0), "the uninterrupted run: {out}");
    for check in [
        &["check", "--rev", "main"][..],
        &["audit"],
        &["roll", "verify"],
    ] {
        let (code, out) = run(twin.root(), now, check, None);
        assert_eq!(code, Some(0), "{check:?} on the uninterrupted run: {out}");
    }
    let counts = count_writes(game, now);
    let mut tried = 0;
    let mut divergent = Vec::new();
    for (kind, count) in KINDS.iter().zip(counts) {
        for k in 1..=count {
            tried += 1;
            let copy = game.duplicate();
            let (killed, out) = run_killed(copy.root(), now, kind, k);
            if killed.is_some() {
                divergent.push(format!("{kind} #{k}: the run was not killed: {out}"));
                continue;
            }
            let (code, out) = run(copy.root(), now, &["resolve"], None);
            let at = format!("killed at {kind} #{k}");
            if code != Some(0) {
                divergent.push(format!("{at}: the finishing run exited {code:?}: {out}"));
                continue;
            }
            if let Err(why) = same(copy.root(), twin.root(), &at) {
                divergent.push(format!("{why}\nthe finishing run: {out}"));
            }
        }
    }
    (tried, divergent)
}

/// Whether two games ended alike, as the sweep compares them.
fn same(a: &Path, b: &Path, at: &str) -> Result<(), String> {
    let (ca, cb) = (main_commit(a), main_commit(b));
    if ca != cb {
        return Err(format!("{at}: main is {ca}, the twin's {cb}"));
    }
    let left = leftovers(a);
    if !left.is_empty() {
        return Err(format!("{at}: left {left:?}"));
    }
    let (sa, sb) = (status(a), status(b));
    if sa != sb {
        return Err(format!(
            "{at}: the checkout's status {sa:?}, the twin's {sb:?}"
        ));
    }
    std::panic::catch_unwind(|| assert_same_state(a, b, at)).map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| format!("{at}: the forge files differ"))
    })
}

/// The bundled game with `proposals` proposals (at most eight), a CfJ and
/// an action by comment with dice, all due at 2030-01-02T00:00Z.
fn busy_game(proposals: usize) -> GameTest {
    let game = GameTest::committed();
    let files = [
        "rules/dynastic/springs.md",
        "rules/dynastic/cogs-and-gadgets.md",
        "rules/dynastic/gadget-powers.md",
        "rules/dynastic/clockwork-victory.md",
        "rules/appendix/time.md",
        "rules/appendix/keywords.md",
        "rules/appendix/clarifications.md",
        "content/pages/how-to-play.md",
    ];
    let minute = |m: usize| format!("2030-01-01T00:{m:02}:00Z");
    for (i, path) in files.iter().enumerate().take(proposals) {
        let text = game.read_at("main", path).unwrap() + &format!("\nA line of proposal {i}.\n");
        let branch = format!("p{i}");
        game.commit_on(&branch, &[(path, &text)], "a change");
        let author = PLAYERS[i % 5].1;
        game.open(&minute(i), author, "proposal", "A change", Some(&branch));
    }
    let (cfj, action) = (proposals + 1, proposals + 2);
    game.open(&minute(10), "cleo-c", "cfj", "A judgement", None);
    game.open(&minute(11), "boris-b", "action", "Winding", None);
    game.at(
        &minute(12),
        &[
            "play",
            "comment",
            &action.to_string(),
            "ROLL DICE6 for luck\nADD springs DICE6\nADD cogs 1",
            "--as",
            "boris-b",
        ],
    );
    for n in 1..=cfj {
        for (voter, login) in PLAYERS.iter().map(|p| p.1).enumerate().take(4) {
            if voter != (n - 1) % 5 {
                game.at(
                    &minute(20 + voter),
                    &["play", "comment", &n.to_string(), "FOR", "--as", login],
                );
            }
        }
    }
    game
}

#[test]
fn a_run_killed_at_any_write_is_finished_by_the_next_as_if_never_killed() {
    if !strace() {
        return;
    }
    let measuring = std::env::var_os("GITNOMIC_SWEEP_BIN").is_some();
    // Four proposals cover every kind of write; more only repeat them
    // (`GITNOMIC_SWEEP_PROPOSALS=8` for the sweep the issue measured).
    let proposals = std::env::var("GITNOMIC_SWEEP_PROPOSALS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4);
    let game = busy_game(proposals);
    let mut report = Vec::new();
    let mut all = Vec::new();
    // The first run: merges, a CfJ, an action with dice.
    let first = "2030-01-02T00:00:00Z";
    let (tried, divergent) = sweep(&game, first);
    report.push(format!(
        "merges, a CfJ and dice: {} of {tried} kill points diverge",
        divergent.len()
    ));
    all.extend(divergent);
    // The second: a DoV enacted, crowning its author.
    let (code, out) = run(game.root(), first, &["resolve"], None);
    assert_eq!(code, Some(0), "{out}");
    game.at(
        "2030-01-02T01:00:00Z",
        &[
            "play", "open", "--as", "dmitri-d", "--kind", "dov", "--title", "I win",
        ],
    );
    let dov = (proposals + 3).to_string();
    for login in ["ada-tinkers", "boris-b", "cleo-c", "wren-w"] {
        game.at(
            "2030-01-02T02:00:00Z",
            &["play", "comment", &dov, "FOR", "--as", login],
        );
    }
    let (tried, divergent) = sweep(&game, "2030-01-03T02:00:00Z");
    report.push(format!(
        "a DoV enacted: {} of {tried} kill points diverge",
        divergent.len()
    ));
    all.extend(divergent);
    eprintln!("kill sweep: {}", report.join("; "));
    if measuring {
        for d in all.iter().take(20) {
            eprintln!("---\n{d}");
        }
        return;
    }
    assert!(
        all.is_empty(),
        "{}\n{}",
        report.join("\n"),
        all.join("\n---\n")
    );
}

/// A game where the limits bite, all due at 2030-01-02T00:00Z: Ada at
/// the pending limit (her first two proposals pending, the first enacted,
/// her third closed as no matter for the limit), Boris's pull request
/// touching README.md (no matter), a DoV by Cleo pending beside the
/// proposals, a DoV by Wren touching README.md (no matter, never a
/// hiatus), and Dmitri's proposal opened after Cleo's DoV (in its hiatus).
fn limits_game() -> GameTest {
    let game = GameTest::committed();
    let minute = |m: usize| format!("2030-01-01T00:{m:02}:00Z");
    let change = |branch: &str, path: &str, i: usize| {
        let text =
            game.read_at("main", path).unwrap_or_default() + &format!("\nA line of change {i}.\n");
        game.commit_on(branch, &[(path, &text)], "a change");
    };
    change("a0", "rules/dynastic/springs.md", 0);
    change("a1", "rules/dynastic/cogs-and-gadgets.md", 1);
    change("a2", "rules/appendix/time.md", 2);
    change("b0", "README.md", 3);
    change("w0", "README.md", 4);
    change("d0", "rules/appendix/keywords.md", 5);
    game.open(&minute(0), "ada-tinkers", "proposal", "First", Some("a0"));
    game.open(&minute(1), "ada-tinkers", "proposal", "Second", Some("a1"));
    game.open(&minute(2), "ada-tinkers", "proposal", "Third", Some("a2"));
    game.open(&minute(3), "boris-b", "proposal", "Readme", Some("b0"));
    game.open(
        &minute(4),
        "wren-w",
        "dov",
        "I win, by the readme",
        Some("w0"),
    );
    game.open(&minute(5), "cleo-c", "dov", "I win", None);
    game.open(&minute(6), "dmitri-d", "proposal", "Late", Some("d0"));
    // #1 enacts; #2 has one FOR, pending; the DoV #6 has one FOR, pending.
    for (n, voters) in [
        ("1", &["boris-b", "cleo-c", "dmitri-d"][..]),
        ("2", &["boris-b"][..]),
        ("6", &["ada-tinkers"][..]),
    ] {
        for (i, login) in voters.iter().enumerate() {
            game.at(
                &minute(20 + i),
                &["play", "comment", n, "FOR", "--as", login],
            );
        }
    }
    game
}

/// The kill sweep where the limits bite: every open matter judged alike at
/// every door first, then a resolve killed at every write, finished by the
/// next run into the uninterrupted run's state; then, a day later, the
/// DoV enacted beside the pending proposals, swept the same way.
#[test]
fn a_run_killed_where_the_limits_bite_is_finished_as_if_never_killed() {
    if !strace() {
        return;
    }
    let game = limits_game();
    let first = "2030-01-01T13:00:00Z";
    crate::histories_checks::doors_agree(&game, first, "the limits game");
    let mut report = Vec::new();
    let mut all = Vec::new();
    let (tried, divergent) = sweep(&game, first);
    report.push(format!(
        "limits, no matters and a pending DoV: {} of {tried} kill points diverge",
        divergent.len()
    ));
    all.extend(divergent);
    let (code, out) = run(game.root(), first, &["resolve"], None);
    assert_eq!(code, Some(0), "{out}");
    for line in [
        "Proposal #3: not-a-matter — closed: it cannot be a proposal: the author already has 2 pending proposals",
        "Proposal #4: not-a-matter — closed: it changes README.md",
        "DoV #5: not-a-matter — closed: it changes README.md",
        "Proposal #7: not-a-matter — closed: it cannot be a proposal: the game is in hiatus",
        "hiatus: DoV #6 is pending",
    ] {
        assert!(out.contains(line), "the limits bite: `{line}` in {out}");
    }
    for login in ["boris-b", "dmitri-d", "wren-w"] {
        game.at(
            "2030-01-01T14:00:00Z",
            &["play", "comment", "6", "FOR", "--as", login],
        );
    }
    let second = "2030-01-02T14:00:00Z";
    crate::histories_checks::doors_agree(&game, second, "the limits game, a day on");
    let (_, out) = run(game.root(), second, &["resolve", "--dry-run"], None);
    assert!(out.contains("DoV #6: enact — enacted"), "{out}");
    let (tried, divergent) = sweep(&game, second);
    report.push(format!(
        "the DoV enacted beside pending proposals: {} of {tried} kill points diverge",
        divergent.len()
    ));
    all.extend(divergent);
    eprintln!("limits kill sweep: {}", report.join("; "));
    assert!(
        all.is_empty(),
        "{}\n{}",
        report.join("\n"),
        all.join("\n---\n")
    );
}

/// The branches of a repository and the commits they point at.
fn branches(root: &Path) -> BTreeMap<String, String> {
    let repo = git2::Repository::open(root).unwrap();
    let mut out = BTreeMap::new();
    for branch in repo.branches(Some(git2::BranchType::Local)).unwrap() {
        let (branch, _) = branch.unwrap();
        let name = branch.name().unwrap().unwrap().to_string();
        let id = branch.get().peel_to_commit().unwrap().id().to_string();
        out.insert(name, id);
    }
    out
}

/// The files of the work tree outside `.git`, with their bytes.
fn work_files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.file_name() != ".git")
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let path = e.path().strip_prefix(root).unwrap().display().to_string();
            (path, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// The kinds of call a `play propose` is killed at: every rename and
/// unlink, and every write (a file half written, as a checkout leaves
/// one it was killed in).
const PROPOSE_KINDS: [&str; 3] = [
    "rename,renameat,renameat2",
    "unlink,unlinkat",
    "write,pwrite64,writev",
];

#[test]
fn a_proposal_killed_at_any_write_is_finished_by_trying_again() {
    if !strace() {
        return;
    }
    let game = GameTest::committed();
    let rule = "rules/dynastic/clockwork-victory.md";
    assert!(game.replace(rule, "three", "four") >= 1);
    game.write(
        "rules/dynastic/tea.md",
        "+++\nid = \"tea\"\ntitle = \"Tea\"\n+++\nTea for all.\n",
    );
    std::fs::remove_file(game.path("content/pages/how-to-play.md")).unwrap();
    let now = "2030-01-01T00:00:00Z";
    let propose = [
        "play",
        "propose",
        "--as",
        "ada-tinkers",
        "--title",
        "Four, and tea",
    ];
    let twin = game.duplicate();
    let (code, out) = run(twin.root(), now, &propose, None);
    assert_eq!(code, Some(0), "the uninterrupted proposal: {out}");
    let counts = count_writes_of(&game, now, &propose, &PROPOSE_KINDS);
    let mut tried = 0;
    let mut divergent = Vec::new();
    for (kind, count) in PROPOSE_KINDS.iter().zip(&counts) {
        for k in 1..=*count {
            tried += 1;
            let copy = game.duplicate();
            let at = format!("killed at {kind} #{k}");
            let (killed, out) = run_killed_with(copy.root(), now, &propose, kind, k);
            if killed.is_some() {
                divergent.push(format!("{at}: the run was not killed: {out}"));
                continue;
            }
            // The player tries again, as they would.
            let (code, again) = run(copy.root(), now, &propose, None);
            if code != Some(0) && !again.contains("nothing to propose") {
                divergent.push(format!("{at}: trying again exited {code:?}: {again}"));
                continue;
            }
            let why = if branches(copy.root()) != branches(twin.root()) {
                Some(format!(
                    "branches {:?}, the twin's {:?}",
                    branches(copy.root()),
                    branches(twin.root())
                ))
            } else if work_files(copy.root()) != work_files(twin.root()) {
                let (a, b) = (work_files(copy.root()), work_files(twin.root()));
                let differ: Vec<&String> = a
                    .keys()
                    .chain(b.keys())
                    .filter(|p| a.get(*p) != b.get(*p))
                    .collect();
                Some(format!("the work tree differs at {differ:?}"))
            } else if copy.path(".git/gitnomic-propose.toml").exists() {
                Some("its journal is left".to_string())
            } else {
                same(copy.root(), twin.root(), &at).err()
            };
            if let Some(why) = why {
                divergent.push(format!("{at}: {why}\ntrying again: {again}"));
                continue;
            }
            let (code, out) = run(copy.root(), now, &["resolve", "--dry-run"], None);
            if code != Some(0) || out.contains("lock") {
                divergent.push(format!("{at}: resolve after it: {out}"));
            }
        }
    }
    let report = format!(
        "propose kill sweep: {} of {tried} kill points diverge ({counts:?} calls of {PROPOSE_KINDS:?})",
        divergent.len()
    );
    eprintln!("{report}");
    assert!(
        divergent.is_empty(),
        "{report}\n{}",
        divergent.join("\n---\n")
    );
}

/// A `play propose` killed after it opened its matter and before it put
/// the work tree back, and a file the player edits again meanwhile: trying
/// again finishes the proposal (one matter) and leaves that file as the
/// player has it, naming it; the others are put back.
#[test]
fn a_file_edited_after_a_killed_proposal_is_left_as_the_player_has_it() {
    if !strace() {
        return;
    }
    let game = GameTest::committed();
    let rule = "rules/dynastic/clockwork-victory.md";
    assert!(game.replace(rule, "three", "four") >= 1);
    game.write(
        "rules/dynastic/tea.md",
        "+++\nid = \"tea\"\ntitle = \"Tea\"\n+++\nTea.\n",
    );
    let now = "2030-01-01T00:00:00Z";
    let propose = ["play", "propose", "--as", "ada-tinkers", "--title", "Tea"];
    let kind = "rename,renameat,renameat2";
    // The first kill point after which the matter is open and the rule
    // still as the player wrote it.
    let copy = (1..=20)
        .find_map(|k| {
            let copy = game.duplicate();
            let (killed, _) = run_killed_with(copy.root(), now, &propose, kind, k);
            let opened = copy.path(".git/gitnomic-forge/matters/1.toml").exists();
            (killed.is_none() && opened && copy.read(rule).contains("four")).then_some(copy)
        })
        .expect("a kill point between opening the matter and restoring the work tree");
    copy.replace(rule, "four", "five");
    let (code, out) = run(copy.root(), now, &propose, None);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("finished what a killed `play propose` began: #1"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{rule} changed since it was proposed: left as it is"
        )),
        "{out}"
    );
    assert!(
        copy.read(rule).contains("five"),
        "the player's edit stays: {}",
        copy.read(rule)
    );
    assert!(
        !copy.path("rules/dynastic/tea.md").exists(),
        "the new rule is put back"
    );
    assert!(
        !copy.path(".git/gitnomic-forge/matters/2.toml").exists(),
        "one matter"
    );
    assert!(copy.read_at("proposal/tea", rule).unwrap().contains("four"));
}
