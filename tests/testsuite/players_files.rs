//! A resolve run and the demo beside a player's own files and processes:
//! nothing of theirs is overwritten or wiped, nothing is recorded that did
//! not happen, and a run that cannot go on says why, naming what is in the
//! way.

use crate::game_test::{GameTest, Run};
use std::process::{Command, Stdio};

/// The bundled game on `main`, checked out, with proposal #1 (branch `p1`,
/// which adds a rule file) holding enough FOR votes to be enacted at noon.
fn game_to_enact() -> GameTest {
    let game = GameTest::committed();
    game.commit_on(
        "p1",
        &[(
            "rules/dynastic/r1.md",
            "+++\nid = \"r1\"\ntitle = \"Clockwork\"\norder = 50\n+++\nEvery gear turns.\n",
        )],
        "a new rule",
    );
    let run = game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "proposal",
        "Clockwork",
        Some("p1"),
    );
    assert!(run.stdout.contains("opened Proposal #1"), "{}", run.stdout);
    for (at, login) in [
        ("2030-01-01T01:00:00Z", "boris-b"),
        ("2030-01-01T02:00:00Z", "dmitri-d"),
    ] {
        game.at(at, &["play", "comment", "1", "FOR", "--as", login]);
    }
    game
}

const NOON: &str = "2030-01-01T12:00:00Z";

fn resolve(game: &GameTest, now: &str) -> Run {
    game.run(&["--now", now, "resolve"])
}

fn enacted(game: &GameTest) -> bool {
    game.read_at("main", "content/matters/00001.md")
        .is_some_and(|r| r.contains("outcome = \"enacted\""))
}

#[test]
fn a_draft_where_a_merge_or_a_record_would_write_is_never_overwritten() {
    for draft in ["rules/dynastic/r1.md", "content/matters/00001.md"] {
        let game = game_to_enact();
        game.write(draft, "my own draft\n");
        let commits = game.main_commits();
        let run = resolve(&game, NOON);
        assert_eq!(run.code, 2, "{draft}: {}\n{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains(draft),
            "the error names the file: {}",
            run.stderr
        );
        assert_eq!(game.read(draft), "my own draft\n", "the draft is kept");
        assert_eq!(game.main_commits(), commits, "{draft}: nothing merged");
        assert!(
            !game.forge_comments(1).contains("Enacted"),
            "{draft}: nothing said"
        );
        // Moved out of the way, the next run does it all.
        std::fs::remove_file(game.path(draft)).unwrap();
        let run = resolve(&game, "2030-01-01T12:01:00Z");
        assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
        assert!(enacted(&game), "{draft}");
        assert!(game.path("rules/dynastic/r1.md").is_file());
    }
}

#[test]
fn a_proposal_whose_branch_is_gone_is_held_never_recorded() {
    let game = game_to_enact();
    let repo = git2::Repository::open(game.root()).unwrap();
    repo.find_reference("refs/heads/p1")
        .unwrap()
        .delete()
        .unwrap();
    let run = resolve(&game, NOON);
    assert_eq!(
        run.code, 1,
        "held is not done: {}\n{}",
        run.stdout, run.stderr
    );
    assert!(run.stdout.contains("Held: #1"), "{}", run.stdout);
    assert!(
        !enacted(&game),
        "no record of an enactment that did not happen"
    );
    assert!(game.read_at("main", "rules/dynastic/r1.md").is_none());
    let status = game.forge_comments(1);
    assert!(status.contains("Proposal #1: Held"), "{status}");
    assert!(!status.contains("Enacted"), "{status}");
    let run = game.run(&["--now", "2030-01-01T12:05:00Z", "audit"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}

#[test]
fn output_to_a_closed_pipe_ends_quietly_and_the_run_is_whole() {
    let game = game_to_enact();
    // A pipe whose reader is gone before the run prints a word, as when
    // `gitnomic resolve | head -1` has read its line: every write fails.
    // The pipe is one into `true`, which has exited.
    let mut reader = Command::new("true").stdin(Stdio::piped()).spawn().unwrap();
    let writer = reader.stdin.take().unwrap();
    reader.wait().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .arg("--root")
        .arg(game.root())
        .args(["--now", NOON, "resolve"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(enacted(&game), "the effects are all carried out");
    assert!(game.forge_comments(1).contains("### Proposal #1: Enacted"));
}

#[test]
fn a_git_lock_no_killed_run_left_is_named_and_kept() {
    let game = game_to_enact();
    let lock = game.path(".git/refs/heads/main.lock");
    std::fs::write(&lock, "").unwrap();
    let run = resolve(&game, NOON);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("main.lock") && run.stderr.contains("remove"),
        "names the lock and the way out: {}",
        run.stderr
    );
    // A dry run plans as ever, and says what a real run would meet.
    let run = game.run(&["--now", NOON, "resolve", "--dry-run"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains("main.lock"),
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    assert!(
        lock.exists(),
        "a lock gitnomic did not make is never removed"
    );
    assert!(!enacted(&game));
    std::fs::remove_file(&lock).unwrap();
    assert_eq!(resolve(&game, NOON).code, 0);
    assert!(enacted(&game));
}

#[test]
fn what_a_killed_run_left_is_cleared_and_a_live_run_is_waited_for() {
    let game = game_to_enact();
    let git = game.path(".git");
    // A live gitnomic process (waiting for a comment on its input) named
    // by the run lock: the run is refused, and nothing is touched.
    let mut live = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .arg("--root")
        .arg(game.root())
        .args(["play", "comment", "1", "-", "--as", "boris-b"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::fs::write(git.join("gitnomic-run.lock"), format!("{}\n", live.id())).unwrap();
    let run = resolve(&game, NOON);
    // Killed and, for now, not reaped: a zombie under its name, as a run
    // killed in a container whose first process reaps nothing stays.
    live.kill().unwrap();
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains(&format!("another gitnomic run (process {})", live.id())),
        "{}",
        run.stderr
    );
    assert!(!enacted(&game));

    // The same lock once its process is gone, with the ref lock it held
    // when it was killed: both are cleared and named, and the run goes on.
    std::fs::write(git.join("refs/heads/main.lock"), "").unwrap();
    let run = resolve(&game, NOON);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("main.lock"), "{}", run.stdout);
    assert!(enacted(&game));
    assert!(!git.join("refs/heads/main.lock").exists());
    assert!(!git.join("gitnomic-run.lock").exists());
    live.wait().unwrap();
}

#[test]
fn demo_replaces_only_a_demo_game_it_made_holding_nothing_of_the_players() {
    let dir = tempfile::Builder::new().prefix("demo-").tempdir().unwrap();
    let demo = |target: &std::path::Path| crate::demo::demo_from(dir.path(), target);
    // A game made by `new`, with the group's plans beside it.
    let game = dir.path().join("ours");
    let out = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .current_dir(dir.path())
        .args(["new"])
        .arg(&game)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    std::fs::write(game.join("PLANS.md"), "our plans\n").unwrap();
    let head = std::fs::read_to_string(game.join(".git/HEAD")).unwrap();
    let out = demo(&game);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("PLANS.md") && stderr.contains("did not make"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(game.join("PLANS.md")).unwrap(),
        "our plans\n"
    );
    assert_eq!(
        std::fs::read_to_string(game.join(".git/HEAD")).unwrap(),
        head
    );

    // A demo the player has written into is refused too, naming the file.
    let played = dir.path().join("demo");
    assert!(demo(&played).status.success());
    std::fs::write(played.join("notes.md"), "mine\n").unwrap();
    let out = demo(&played);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("notes.md"), "{stderr}");
    assert!(played.join("notes.md").is_file());
    // Without it, the demo starts afresh.
    std::fs::remove_file(played.join("notes.md")).unwrap();
    assert!(demo(&played).status.success());
    // From inside, it cannot be replaced whole: refused, saying from where.
    let out = crate::demo::demo_from(&played, std::path::Path::new("."));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cd .. && gitnomic demo demo"), "{stderr}");
    assert!(played.join(".git/gitnomic-demo").is_file());
}

/// `demo` killed (a real SIGKILL) while it writes a fresh game, or while
/// it removes an earlier one: what is left is no game or a whole one, and
/// the next `demo` plays to the end and leaves nothing beside its game.
/// (Written in place, half a game without the demo's marker was refused
/// by every later `demo` as "files the demo did not make".)
#[test]
fn a_demo_killed_while_writing_leaves_nothing_the_next_one_refuses() {
    if !crate::kill_sweep::strace() {
        return;
    }
    let dir = tempfile::Builder::new().prefix("demo-").tempdir().unwrap();
    let target = dir.path().join("game");
    let plays = |after: &str| {
        let out = crate::demo::demo_from(dir.path(), &target);
        assert!(
            out.status.success(),
            "{after}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Kills a demo at the `k`-th call of `kind`; what is left must be no
    // game or a whole one, which the next demo plays over.
    let killed_then_replayed = |kind: &str, k: usize| {
        let out = Command::new("strace")
            .current_dir(dir.path())
            .args(["-f", "-qq", "-o", "/dev/null"])
            .arg(format!("-etrace={kind}"))
            .arg(format!("-einject={kind}:signal=SIGKILL:when={k}"))
            .arg(env!("CARGO_BIN_EXE_gitnomic"))
            .arg("demo")
            .arg(&target)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(!out.success(), "{kind} #{k}: the demo was not killed");
        assert!(
            !target.exists() || target.join(".git/gitnomic-demo").is_file(),
            "{kind} #{k}: a game without the demo's marker was left in place"
        );
        plays(&format!("after a kill at {kind} #{k}"));
    };
    for (k, u) in [1, 30, 90, 150, 210, 270, 330]
        .into_iter()
        .zip([2, 60, 120, 180, 240, 300, 360])
    {
        // A fresh game: the demo writes its ~40 files and a repository in
        // about 340 openat calls before it renames the game into place.
        killed_then_replayed("openat", k);
        // An earlier demo, killed while it is removed (set aside, then
        // deleted file by file, about 530 unlinks, the ignored site's
        // first).
        killed_then_replayed("unlink,unlinkat", u);
        std::fs::remove_dir_all(&target).unwrap();
    }
    // The next demo, and the next that replaces it, remove what the
    // killed ones set aside or half-wrote.
    plays("a demo after the kills");
    plays("a demo replacing it");
    let beside: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(beside, ["game"], "what killed runs left beside the game");
}
