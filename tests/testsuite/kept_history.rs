//! The history a build keeps for the next: a history read on from what an
//! earlier read kept, at any commit, is the history read whole; a kept
//! read of another line of history, or a damaged one, is set aside.

use gitnomic::load::kept_timeline;
use gitnomic::load::timeline::{self, Walk};
use proptest::prelude::*;

use crate::game_test::{GameTest, run_at};
use crate::site::{Served, assert_as_a_full_build};

/// The program that kept a walk, as a build names itself.
const PROGRAM: &str = "gitnomic test";

/// A game whose history has every kind of commit the timeline reads:
/// rules amended, added and repealed, variables and collections changed
/// (by an action's message that credits a player, and by hand), commits
/// that touch neither, and a rule amended back to an earlier text.
/// Gives the game and its commits on main, oldest first.
fn played() -> (GameTest, Vec<String>) {
    let game = GameTest::bundled();
    let mut commits = vec![game.commit_all("the bundled game")];
    let amend = |game: &GameTest, path: &str, line: &str, message: &str| {
        let text = format!("{}\n{line}\n", game.read_at("main", path).unwrap());
        game.commit_on("main", &[(path, &text)], message)
    };
    commits.push(amend(
        &game,
        "rules/core/players.md",
        "A sentence the first amendment adds.",
        "Enact proposal #1",
    ));
    let variables = game.read_at("main", "state/variables.toml").unwrap();
    commits.push(game.commit_on(
        "main",
        &[(
            "state/variables.toml",
            &variables.replace("springs = 4", "springs = 6"),
        )],
        "Action #2: wind\n\nplayers.Ada.springs: 4 → 6 by @ada, comment 7",
    ));
    commits.push(game.commit_on(
        "main",
        &[(
            "content/pages/notes.md",
            "+++\ntitle = \"Notes\"\n+++\nA note.\n",
        )],
        "Record #3",
    ));
    commits.push(game.commit_on(
        "main",
        &[(
            "rules/dynastic/oil.md",
            "+++\nid = \"oil\"\ntitle = \"Oil\"\norder = 40\n+++\nEach {{ player }} may oil a gear once.\n",
        )],
        "Enact proposal #4",
    ));
    let collections = game.read_at("main", "state/collections.toml").unwrap();
    let variables = game.read_at("main", "state/variables.toml").unwrap();
    commits.push(game.commit_on(
        "main",
        &[
            (
                "state/collections.toml",
                &collections.replace("cogs = 4", "cogs = 5"),
            ),
            (
                "state/variables.toml",
                &variables.replace("round = 1", "round = 2"),
            ),
        ],
        "A new round",
    ));
    commits.push(game.commit_removing("main", "rules/dynastic/oil.md", "Enact proposal #5"));
    // A state file gone, then back.
    let variables = game.read_at("main", "state/variables.toml").unwrap();
    commits.push(game.commit_removing("main", "state/variables.toml", "No variables"));
    commits.push(game.commit_on(
        "main",
        &[("state/variables.toml", &variables)],
        "The variables again",
    ));
    let players = game.read_at("main", "rules/core/players.md").unwrap();
    commits.push(amend(
        &game,
        "rules/core/players.md",
        "A sentence the second amendment adds.",
        "Enact proposal #6",
    ));
    // Back to the text of two commits before: a ruleset seen before.
    commits.push(game.commit_on(
        "main",
        &[("rules/core/players.md", &players)],
        "Enact proposal #7",
    ));
    (game, commits)
}

/// The walk of `rev` read whole.
fn whole(game: &GameTest, rev: &str) -> (timeline::Walk, gitnomic::game::timeline::Timeline) {
    let (timeline, walk, _) = timeline::read_after(game.root(), rev, Walk::default()).unwrap();
    (walk, timeline)
}

#[test]
fn a_history_read_on_from_any_commit_is_the_history_read_whole() {
    let (game, commits) = played();
    let (walk, timeline) = whole(&game, "main");
    assert!(
        timeline.revisions.len() >= 5 && !timeline.changes.is_empty(),
        "the history has revisions and changes to compare: {} revisions, {} changes",
        timeline.revisions.len(),
        timeline.changes.len()
    );
    // After the first commit's values, each change once, as made: the
    // variables file gone takes every value away, and back gives it back.
    let later: Vec<(&str, &str, &str, &str)> = timeline
        .changes
        .iter()
        .filter(|c| !commits[0].starts_with(&c.commit))
        .map(|c| {
            (
                c.path.as_str(),
                c.from.as_str(),
                c.to.as_str(),
                c.who.as_str(),
            )
        })
        .collect();
    let values = [
        ("globals.round", "2"),
        ("players.Ada.cogs", "2"),
        ("players.Ada.springs", "6"),
        ("players.Boris.cogs", "5"),
        ("players.Boris.springs", "3"),
        ("players.Cleo.springs", "1"),
        ("players.Dmitri.cogs", "1"),
        ("players.Dmitri.springs", "6"),
        ("players.Wren.springs", "3"),
    ];
    let mut expected = vec![
        ("players.Ada.springs", "4", "6", "ada"),
        ("globals.round", "1", "2", "Test"),
    ];
    expected.extend(
        values
            .iter()
            .map(|&(path, value)| (path, value, "-", "Test")),
    );
    expected.extend(
        values
            .iter()
            .map(|&(path, value)| (path, "-", value, "Test")),
    );
    expected.push(("collections.gadgets.pocket-orrery.cogs", "4", "5", "Test"));
    assert_eq!(later, expected);
    for (i, commit) in commits.iter().enumerate() {
        let (earlier, _) = whole(&game, commit);
        // Kept as a build keeps it, and read back.
        let bytes = kept_timeline::to_bytes(&earlier, PROGRAM).expect("a walk can be kept");
        let kept = kept_timeline::from_bytes(&bytes, PROGRAM);
        assert_eq!(kept, earlier, "the walk to commit {i} reads back as it was");
        let (on, walk_on, stats) = timeline::read_after(game.root(), "main", kept).unwrap();
        assert_eq!(
            on, timeline,
            "read on from commit {i}, the timeline is the whole read's"
        );
        assert_eq!(
            walk_on, walk,
            "read on from commit {i}, the walk is the whole read's"
        );
        assert_eq!(stats.earlier, i + 1, "commits up to {i} are not read again");
        assert_eq!(stats.commits, commits.len() - i - 1);
    }
}

#[test]
fn a_kept_read_of_another_line_of_history_or_a_damaged_one_is_set_aside() {
    let (game, _) = played();
    let (walk, timeline) = whole(&game, "main");
    // A branch off main's tip, then a read kept of its tip: a commit that
    // is not on main.
    let side = game.commit_on(
        "side",
        &[(
            "rules/core/players.md",
            "+++\ntitle = \"Players\"\n+++\nOnly this.\n",
        )],
        "Another line",
    );
    let (elsewhere, _) = whole(&game, &side);
    let (on, walk_on, stats) = timeline::read_after(game.root(), "main", elsewhere).unwrap();
    assert_eq!(on, timeline, "a walk of another branch is not gone on from");
    assert_eq!(walk_on, walk);
    assert_eq!(stats.earlier, 0);

    let bytes = kept_timeline::to_bytes(&walk, PROGRAM).unwrap();
    assert_eq!(
        kept_timeline::from_bytes(&bytes, "another program"),
        Walk::default()
    );
    let mut damaged = bytes.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    assert_eq!(
        kept_timeline::from_bytes(&damaged, PROGRAM),
        Walk::default()
    );
    assert_eq!(
        kept_timeline::from_bytes(&bytes[..bytes.len() - 1], PROGRAM),
        Walk::default()
    );
    assert_ne!(kept_timeline::from_bytes(&bytes, PROGRAM), Walk::default());
}

#[test]
fn a_build_reads_only_the_commits_since_the_last_and_its_site_is_a_full_builds() {
    let (game, _) = played();
    let build = |out: &str, extra: &[&str]| {
        let mut args = vec!["build", "--out", out];
        args.extend_from_slice(extra);
        let run = run_at(game.root(), &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stderr
    };
    let first = build("public", &[]);
    assert!(!first.contains("read by an earlier build"), "{first}");
    assert!(
        game.path(".git/gitnomic-site-cache.history").is_file(),
        "the history read is kept beside the site's cache"
    );
    let players = game.read_at("main", "rules/core/players.md").unwrap();
    game.commit_on(
        "main",
        &[(
            "rules/core/players.md",
            &format!("{players}\nA sentence the third amendment adds.\n"),
        )],
        "Enact proposal #8",
    );
    let commits = game.main_commits();
    let second = build("public", &[]);
    assert!(
        second.contains(&format!(
            "read the history: {commits} commits ({} read by an earlier build)",
            commits - 1
        )),
        "{second}"
    );
    build("full", &["--full", "--cache", "full-cache"]);
    let site = |dir: &str| {
        let mut files = std::collections::BTreeMap::new();
        for entry in walkdir::WalkDir::new(game.path(dir)) {
            let entry = entry.unwrap();
            if entry.file_type().is_file() {
                let name = entry
                    .path()
                    .strip_prefix(game.path(dir))
                    .unwrap()
                    .to_owned();
                files.insert(name, std::fs::read(entry.path()).unwrap());
            }
        }
        files
    };
    let (kept, full) = (site("public"), site("full"));
    assert_eq!(
        kept.keys().collect::<Vec<_>>(),
        full.keys().collect::<Vec<_>>()
    );
    for (name, text) in &kept {
        assert!(
            full[name] == *text,
            "{} differs from the full build's",
            name.display()
        );
    }
}

#[test]
fn serve_goes_on_from_the_history_it_read_and_serves_what_a_full_build_makes() {
    let (game, _) = played();
    let serve = Served::start(&game, &["serve", "--port", "0", "--out", "served"]);
    serve.next("serving ", "the first build");
    // The walk the first build kept in memory, not its file, goes on.
    std::fs::remove_file(game.path(".git/gitnomic-site-cache.history")).unwrap();
    let players = game.read_at("main", "rules/core/players.md").unwrap();
    let amended = format!("{players}\nA sentence served at once.\n");
    game.commit_on(
        "main",
        &[("rules/core/players.md", &amended)],
        "Enact proposal #9",
    );
    let commits = game.main_commits();
    // The first build read the whole history: only a later one says so.
    let read = serve.next_holding("read by an earlier build", "the build after a commit");
    assert!(
        read.contains(&format!(
            "{commits} commits ({} read by an earlier build)",
            commits - 1
        )),
        "{read}"
    );
    serve.next("rebuilt in ", "the build after a commit");
    assert!(
        game.read("served/ruleset/index.html")
            .contains("A sentence served at once.")
    );
    assert_as_a_full_build(&game, "served", "a commit while serving");
}

#[test]
fn a_walk_of_a_shallow_clone_is_not_gone_on_from_once_the_clone_is_deepened() {
    let (game, _) = played();
    let (_, whole_timeline) = whole(&game, "main");
    let clones = tempfile::tempdir().unwrap();
    let clone = clones.path().join("clone");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let source = format!("file://{}", game.root().display());
    git(&[
        "clone",
        "-q",
        "--depth",
        "3",
        "--branch",
        "main",
        &source,
        clone.to_str().unwrap(),
    ]);
    let (shallow, walk, _) = timeline::read_after(&clone, "HEAD", Walk::default()).unwrap();
    assert_ne!(shallow, whole_timeline, "the shallow clone sees less");
    let kept =
        kept_timeline::from_bytes(&kept_timeline::to_bytes(&walk, PROGRAM).unwrap(), PROGRAM);
    git(&["-C", clone.to_str().unwrap(), "fetch", "-q", "--unshallow"]);
    let (deepened, _, stats) = timeline::read_after(&clone, "HEAD", kept).unwrap();
    assert_eq!(
        deepened, whole_timeline,
        "the whole history once it is there"
    );
    assert_eq!(stats.earlier, 0);
}

#[test]
fn serve_keeps_the_history_it_could_not_keep_at_its_next_build() {
    let (game, _) = played();
    let kept = game.path(".git/gitnomic-site-cache.history");
    std::fs::create_dir_all(kept.join("in-the-way")).unwrap();
    // The first build cannot write the file (a warning, which -q hides).
    let serve = Served::start(&game, &["-q", "serve", "--port", "0", "--out", "served"]);
    serve.next("serving ", "the first build");
    std::fs::remove_dir_all(&kept).unwrap();
    // A change outside the history: the walk does not move, and is kept
    // now that nothing is in the way.
    game.write(
        "content/pages/notes.md",
        "+++\ntitle = \"Notes\"\n+++\nServed.\n",
    );
    serve.next("rebuilt in ", "the build after a note");
    let bytes = std::fs::read(&kept).expect("the walk kept at last");
    assert!(bytes.starts_with(b"gitnomic-history-cache"));
}

#[test]
fn a_file_on_main_that_is_not_text_does_not_take_the_history_from_the_site() {
    let game = GameTest::bundled();
    game.commit_all("the bundled game");
    // A push straight to main (a pull request cannot bring it: `check`
    // refuses it): a rule whose body holds a byte that is not UTF-8.
    let bad = b"+++\nid = \"zz\"\ntitle = \"Zz\"\norder = 90\n+++\nBroken \xff text.\n";
    game.commit_raw("main", "rules/core/zz.md", bad, git2::FileMode::Blob);
    game.commit_removing("main", "rules/core/zz.md", "Taken away");
    let players = game.read_at("main", "rules/core/players.md").unwrap();
    game.commit_on(
        "main",
        &[("rules/core/players.md", &format!("{players}\nAmended.\n"))],
        "Enact proposal #2",
    );
    let (timeline, walk, stats) =
        timeline::read_after(game.root(), "main", Walk::default()).expect("the history is read");
    assert_eq!(
        timeline.revisions.len(),
        4,
        "every ruleset the history held"
    );
    let broken = timeline.revisions[1]
        .ruleset
        .rules
        .iter()
        .find(|r| r.id.as_str() == "zz")
        .expect("the rule as the forge shows it");
    assert!(
        broken.body.contains("Broken \u{fffd} text."),
        "{}",
        broken.body
    );
    assert_eq!(stats.not_text.len(), 1);
    assert_eq!(stats.not_text[0].0, "rules/core/zz.md");
    assert!(
        kept_timeline::to_bytes(&walk, PROGRAM).is_some(),
        "and the walk can be kept"
    );

    let run = run_at(game.root(), &["build", "--out", "public"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        !run.stderr.contains("building without it"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("4 ruleset revisions"), "{}", run.stderr);
    assert!(
        run.stderr.contains("rules/core/zz.md at commit")
            && run.stderr.contains("is not UTF-8 text"),
        "the build names the file: {}",
        run.stderr
    );
    let again = run_at(game.root(), &["build", "--out", "public"]);
    assert!(
        again.stderr.contains("read by an earlier build"),
        "{}",
        again.stderr
    );
}

/// One commit of a random history: what it does to main's files.
#[derive(Debug, Clone)]
enum Step {
    /// A sentence added to one of the bundled rules.
    Amend(usize),
    /// A rule of its own added (or rewritten), or taken away.
    Extra(u8, bool),
    /// The round set.
    Round(u8),
    /// state/variables.toml taken away, or put back as bundled.
    Variables(bool),
    /// A note under content/: neither rules/ nor state/ changes.
    Note(u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (0usize..3).prop_map(Step::Amend),
        (0u8..2, any::<bool>()).prop_map(|(n, keep)| Step::Extra(n, keep)),
        (2u8..9).prop_map(Step::Round),
        any::<bool>().prop_map(Step::Variables),
        any::<u8>().prop_map(Step::Note),
    ]
}

/// Commits `step` on main; gives the commit.
fn commit_step(game: &GameTest, step: &Step, bundled_variables: &str, i: usize) -> String {
    const RULES: [&str; 3] = [
        "rules/core/players.md",
        "rules/dynastic/springs.md",
        "rules/dynastic/clockwork-victory.md",
    ];
    let at = |path: &str| game.read_at("main", path);
    let message = format!("Step {i}: {step:?}");
    let write = |path: &str, text: &str| game.commit_on("main", &[(path, text)], &message);
    match step {
        Step::Amend(k) => {
            let text = at(RULES[*k]).unwrap_or_default();
            write(RULES[*k], &format!("{text}\nAmended at step {i}.\n"))
        }
        Step::Extra(n, true) => write(
            &format!("rules/dynastic/extra-{n}.md"),
            &format!(
                "+++\nid = \"extra-{n}\"\ntitle = \"Extra {n}\"\norder = {}\n+++\nStep {i} says so.\n",
                50 + n
            ),
        ),
        Step::Extra(n, false) => {
            let path = format!("rules/dynastic/extra-{n}.md");
            match at(&path) {
                Some(_) => game.commit_removing("main", &path, &message),
                None => write(
                    "content/pages/notes.md",
                    &format!("+++\ntitle = \"Notes\"\n+++\n{i}\n"),
                ),
            }
        }
        Step::Round(r) => match at("state/variables.toml") {
            Some(text) => {
                let line = text
                    .lines()
                    .find(|l| l.starts_with("round = "))
                    .unwrap_or("round = 1");
                write(
                    "state/variables.toml",
                    &text.replacen(line, &format!("round = {r}"), 1),
                )
            }
            None => write(
                "content/pages/notes.md",
                &format!("+++\ntitle = \"Notes\"\n+++\n{i}\n"),
            ),
        },
        Step::Variables(false) if at("state/variables.toml").is_some() => {
            game.commit_removing("main", "state/variables.toml", &message)
        }
        Step::Variables(_) => write("state/variables.toml", bundled_variables),
        Step::Note(n) => write(
            "content/pages/notes.md",
            &format!("+++\ntitle = \"Notes\"\n+++\n{n} at {i}\n"),
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(8),
        max_shrink_iters: 20,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
            concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/tests/kept-history.txt"),
        ))),
        ..ProptestConfig::default()
    })]

    /// Any history, read on from any of its commits after that read was
    /// kept, is the history read whole.
    #[test]
    fn any_history_read_on_from_a_kept_walk_is_the_history_read_whole(
        steps in proptest::collection::vec(step(), 2..9),
        splits in proptest::collection::vec(any::<proptest::sample::Index>(), 3),
    ) {
        let game = GameTest::bundled();
        let bundled_variables = game.read("state/variables.toml");
        let mut commits = vec![game.commit_all("the bundled game")];
        for (i, step) in steps.iter().enumerate() {
            commits.push(commit_step(&game, step, &bundled_variables, i));
        }
        let (walk, timeline) = whole(&game, "main");
        for split in &splits {
            let i = split.index(commits.len());
            let (earlier, _) = whole(&game, &commits[i]);
            let bytes = kept_timeline::to_bytes(&earlier, PROGRAM).expect("a walk can be kept");
            let kept = kept_timeline::from_bytes(&bytes, PROGRAM);
            prop_assert_eq!(&kept, &earlier);
            let (on, walk_on, _) = timeline::read_after(game.root(), "main", kept).unwrap();
            prop_assert_eq!(&on, &timeline, "read on from commit {}", i);
            prop_assert_eq!(&walk_on, &walk, "read on from commit {}", i);
        }
    }
}
