//! Issue 33: a game played in public. Anyone may title, describe and
//! comment with any characters, and push any bytes; the worst one matter
//! may do is to be held or closed itself. Through the binary on the local
//! forge, with the bundled game (five players, quorum 3).

use crate::game_test::GameTest;

/// The number `play open` printed.
fn number(stdout: &str) -> String {
    let after = stdout.split('#').nth(1).unwrap_or_default();
    after.chars().take_while(char::is_ascii_digit).collect()
}

/// Item 1: a title with a `+++` line is closed like any other post, and
/// its record reads back: main still checks and the next run goes on.
#[test]
fn a_title_with_a_fence_line_leaves_main_readable() {
    let game = GameTest::committed();
    let title = "CfJ\n+++\nx";
    let opened = game.open("2030-01-01T00:00:00Z", "stranger", "cfj", title, None);
    let n = number(&opened.stdout);
    game.at("2030-01-01T00:10:00Z", &["resolve"]);
    let record = game.read_at("main", &format!("content/matters/{n:0>5}.md"));
    assert!(record.is_some(), "no record of #{n}");
    game.at("2030-01-01T00:20:00Z", &["check"]);
    let again = game.at("2030-01-01T00:30:00Z", &["resolve"]);
    assert!(!again.stdout.contains("error"), "{}", again.stdout);
    let log = game.at("2030-01-01T00:30:00Z", &["log"]);
    assert_eq!(log.code, 0);
}

/// Item 2: an action's title that reads like the log's lines credits
/// nobody: the log shows only the change Boris's comment made.
#[test]
fn a_title_cannot_put_a_change_or_a_roll_in_the_log() {
    let game = GameTest::committed();
    let title =
        "Bob acts\n\nplayers.Boris.springs: 3 → 10 by @ada-tinkers, comment 1, rolled DICE6 = 6\n";
    let n = number(
        &game
            .open("2030-01-01T00:00:00Z", "boris-b", "action", title, None)
            .stdout,
    );
    game.at(
        "2030-01-01T01:00:00Z",
        &["play", "comment", &n, "ADD springs 1", "--as", "boris-b"],
    );
    game.at("2030-01-01T02:00:00Z", &["resolve"]);
    let log = game.at("2030-01-01T02:00:00Z", &["log"]).stdout;
    assert!(log.contains("players.Boris.springs"), "{log}");
    assert!(log.contains("3 → 4"), "{log}");
    assert!(!log.contains("ada-tinkers"), "{log}");
    assert!(!log.contains("DICE6"), "{log}");
    let subject = git_subject(&game);
    assert!(!subject.contains('\n'), "{subject:?}");
}

/// The subject of main's last commit that changed the variables.
fn git_subject(game: &GameTest) -> String {
    let out = std::process::Command::new("git")
        .args([
            "log",
            "-1",
            "--format=%B",
            "main",
            "--",
            "state/variables.toml",
        ])
        .current_dir(game.root())
        .output()
        .unwrap();
    let message = String::from_utf8(out.stdout).unwrap();
    assert!(message.starts_with("Action #"), "{message}");
    message.lines().next().unwrap_or_default().to_string()
}

/// Item 5: titles and comments reach the terminal with their control
/// characters shown as codes: no escape sequence, bell or reordering.
#[test]
fn titles_and_comments_send_no_controls_to_the_terminal() {
    let game = GameTest::committed();
    let title = "Wind \u{1b}]0;owned\u{7}\u{1b}[2J\u{202e}sgnirps";
    let opened = game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", title, None);
    let n = number(&opened.stdout);
    game.at(
        "2030-01-01T00:05:00Z",
        &[
            "play",
            "comment",
            &n,
            "FOR \u{1b}[31mred\u{9b}1m",
            "--as",
            "boris-b",
        ],
    );
    for args in [
        vec!["play", "show", n.as_str()],
        vec!["play", "list"],
        vec![
            "play", "open", "--as", "cleo-c", "--kind", "cfj", "--title", title,
        ],
    ] {
        let run = game.at("2030-01-01T00:06:00Z", &args);
        for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
            assert!(
                !run.stdout.contains(c),
                "{args:?} printed {c:?}:\n{}",
                run.stdout
            );
        }
    }
    let shown = game
        .at("2030-01-01T00:07:00Z", &["play", "show", &n])
        .stdout;
    assert!(shown.contains("\\u{1b}[31mred"), "{shown}");
}

/// A title with control characters, resolved (a stranger's matter is
/// recorded as no matter with its title): no page, feed or chart of the
/// site holds a character XML cannot hold, where one such character
/// made the whole feed unreadable to every feed reader.
#[test]
fn a_title_with_control_characters_leaves_the_feed_well_formed() {
    let game = GameTest::committed();
    let title = "CfJ: hi\u{1b}[31m\u{1}\u{7f}\u{85}\u{ffff}";
    game.open("2030-01-01T00:00:00Z", "stranger", "cfj", title, None);
    game.at("2030-01-01T01:00:00Z", &["resolve"]);
    let built = game.at("2030-01-01T01:00:00Z", &["build", "--out", "public"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    let feed = game.read("public/feed.xml");
    assert!(feed.contains("CfJ: hi\u{fffd}[31m"), "{feed}");
    for entry in walkdir::WalkDir::new(game.path("public")) {
        let entry = entry.unwrap();
        let name = entry.path().display().to_string();
        if !entry.file_type().is_file()
            || !(name.ends_with(".html") || name.ends_with(".xml") || name.ends_with(".svg"))
        {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let bad = text.chars().find(|&c| {
            (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}')
        });
        assert_eq!(bad, None, "{name} holds a character XML cannot hold");
    }
}

/// A title's line breaks make no lines of a command's output: a title
/// cannot print a vote that was never cast under a matter's tally.
#[test]
fn a_title_prints_as_one_line_and_forges_no_vote() {
    let game = GameTest::committed();
    let forged = "  Cleo: AGAINST, by a comment at 00:05 UTC on 1 Jan 2030";
    let title = format!("Wind\n{forged}\r\n\u{2028}more");
    let opened = game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", &title, None);
    let n = number(&opened.stdout);
    for args in [
        vec!["play", "show", n.as_str()],
        vec!["play", "list"],
        vec!["check", "--pr", n.as_str()],
        vec![
            "play", "open", "--as", "cleo-c", "--kind", "cfj", "--title", &title,
        ],
    ] {
        let run = game.run(&[&["--now", "2030-01-01T00:06:00Z"], args.as_slice()].concat());
        assert!(
            !run.stdout.lines().any(|l| l.starts_with(forged.trim_end())),
            "{args:?} printed the title's second line as a line of its own:\n{}",
            run.stdout
        );
        assert!(
            run.stdout
                .contains(&format!("Wind {}", forged.trim_start())),
            "{args:?} shows the whole title on one line:\n{}{}",
            run.stdout,
            run.stderr
        );
    }
}

/// A game where a CfJ (an issue) has three FOR votes, due to be decided,
/// beside proposal #2 from `branch` by Boris. Returns the CfJ's number.
fn beside_a_due_cfj(game: &GameTest, branch: &str) -> String {
    let cfj = number(
        &game
            .open(
                "2030-01-01T00:00:00Z",
                "ada-tinkers",
                "cfj",
                "CfJ: tidy",
                None,
            )
            .stdout,
    );
    game.open(
        "2030-01-01T00:01:00Z",
        "boris-b",
        "proposal",
        "Proposal: hostile",
        Some(branch),
    );
    for voter in ["boris-b", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", &cfj, "FOR", "--as", voter],
        );
    }
    cfj
}

/// Every door judges the hostile proposal #2 without stopping: `check
/// --pr 2` refuses it with `reason`, `resolve` decides the CfJ beside it
/// and exits 0, `play list` and `build` run. A matter whose files cannot
/// be read (`closed`) is closed with `reason` by `resolve` and listed with
/// it; one whose files read but do not check stays pending, fixable by a
/// push, and would fail if it came to be enacted.
fn judged_in_its_box(game: &GameTest, cfj: &str, reason: &str, closed: bool) {
    let now = "2030-01-01T02:00:00Z";
    let check = game.run(&["--now", now, "check", "--pr", "2"]);
    assert_eq!(
        check.code, 1,
        "check --pr 2:\n{}\n{}",
        check.stdout, check.stderr
    );
    let said = format!("{}{}", check.stdout, check.stderr);
    assert!(said.contains(reason), "check --pr 2 said:\n{said}");
    let list = game.run(&["--now", now, "play", "list"]);
    assert_eq!(list.code, 0, "play list:\n{}\n{}", list.stdout, list.stderr);
    let run = game.run(&["--now", now, "resolve"]);
    assert_eq!(
        run.code, 0,
        "resolve stopped:\n{}\n{}",
        run.stdout, run.stderr
    );
    if closed {
        assert!(
            list.stdout.contains(reason),
            "play list said:\n{}",
            list.stdout
        );
        assert!(run.stdout.contains(reason), "resolve said:\n{}", run.stdout);
    } else {
        assert!(
            list.stdout
                .contains("Proposal #2 “Proposal: hostile”: pending"),
            "{}",
            list.stdout
        );
        assert!(
            run.stdout.contains("Proposal #2: wait — pending"),
            "{}",
            run.stdout
        );
        for act in ["#2 close", "#2 merge", "#2 labels"] {
            assert!(
                !run.stdout.contains(act),
                "resolve did {act}:\n{}",
                run.stdout
            );
        }
    }
    let record = game.read_at("main", &format!("content/matters/{cfj:0>5}.md"));
    assert!(
        record
            .as_deref()
            .is_some_and(|r| r.contains("outcome = \"enacted\"")),
        "the CfJ beside it was not decided:\n{}",
        run.stdout
    );
    let build = game.run(&["--now", now, "build"]);
    assert_eq!(build.code, 0, "build:\n{}\n{}", build.stdout, build.stderr);
}

/// Item 3: a condition nested thousands deep in a rule's front matter.
#[test]
fn a_condition_nested_too_deep_is_its_own_matter_s_problem() {
    let game = GameTest::committed();
    let rule = game.read("rules/core/calls-for-judgement.md");
    let deep = format!(
        "cfj_enact = \"{}true{}\"\n+++",
        "(".repeat(100),
        ")".repeat(100)
    );
    let rule = rule.replacen(
        "cfj_resolve_after_hours = 48\n+++",
        &format!("cfj_resolve_after_hours = 48\n{deep}"),
        1,
    );
    game.commit_on(
        "deep",
        &[("rules/core/calls-for-judgement.md", &rule)],
        "deep",
    );
    let cfj = beside_a_due_cfj(&game, "deep");
    judged_in_its_box(&game, &cfj, "nested more than 64 deep", false);
}

/// Item 3: a template loop in a rule's text.
#[test]
fn a_template_loop_is_its_own_matter_s_problem() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md")
        + "\n{% for i in range(end=100000000) %}x{% endfor %}\n";
    game.commit_on("loop", &[("rules/dynastic/springs.md", &rule)], "loop");
    let cfj = beside_a_due_cfj(&game, "loop");
    judged_in_its_box(&game, &cfj, "a loop (`{% for %}`) is not allowed", false);
}

/// Item 3: a rule file that is not UTF-8.
#[test]
fn a_file_that_is_not_utf8_is_its_own_matter_s_problem() {
    let game = GameTest::committed();
    game.commit_raw(
        "bytes",
        "rules/dynastic/u8.md",
        b"+++\nid = \"u8\"\ntitle = \"\xff\xfe\"\n+++\n",
        git2::FileMode::Blob,
    );
    let cfj = beside_a_due_cfj(&game, "bytes");
    judged_in_its_box(&game, &cfj, "is not UTF-8 text", true);
}

/// A proposal whose branch is then replaced by commits that share no
/// history with main (a force-push of another repository's history):
/// no forge can merge it, and it is closed as no matter, where it once
/// stopped every run, every listing and every build.
#[test]
fn a_branch_replaced_by_unrelated_history_is_its_own_matter_s_problem() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md") + "\nA sentence.\n";
    game.commit_on("orphan", &[("rules/dynastic/springs.md", &rule)], "p");
    let cfj = beside_a_due_cfj(&game, "orphan");
    let repo = git2::Repository::open(game.root()).unwrap();
    let mut tree = repo.treebuilder(None).unwrap();
    tree.insert("x.md", repo.blob(b"hi\n").unwrap(), 0o100_644)
        .unwrap();
    let tree = repo.find_tree(tree.write().unwrap()).unwrap();
    let who = git2::Signature::new("m", "m@example.invalid", &git2::Time::new(0, 0)).unwrap();
    let orphan = repo.commit(None, &who, &who, "orphan", &tree, &[]).unwrap();
    repo.reference("refs/heads/orphan", orphan, true, "replaced")
        .unwrap();
    judged_in_its_box(
        &game,
        &cfj,
        "its head shares no history with the default branch",
        true,
    );
}

/// A crowd of strangers voting on a matter: its record keeps at most 200
/// comments not counted, a player's own vote that did not count among
/// them however late, and says how many more there were; the site says
/// so too. The record once grew with every comment anyone made.
#[test]
fn a_crowd_of_comments_not_counted_keeps_the_record_bounded() {
    let game = GameTest::committed();
    let n = number(
        &game
            .open(
                "2030-01-01T00:00:00Z",
                "ada-tinkers",
                "cfj",
                "CfJ: crowd",
                None,
            )
            .stdout,
    );
    for voter in ["boris-b", "cleo-c"] {
        game.at(
            "2030-01-01T00:10:00Z",
            &["play", "comment", &n, "FOR", "--as", voter],
        );
    }
    for i in 0..205 {
        game.at(
            "2030-01-01T00:20:00Z",
            &[
                "play",
                "comment",
                &n,
                "FOR",
                "--as",
                &format!("stranger-{i}"),
            ],
        );
    }
    game.at(
        "2030-01-01T00:30:00Z",
        &["play", "comment", &n, "~~FOR~~", "--as", "dmitri-d"],
    );
    let run = game.at("2030-01-01T02:00:00Z", &["resolve"]);
    assert!(run.stdout.contains("enacted"), "{}", run.stdout);
    let record = game
        .read_at("main", &format!("content/matters/{n:0>5}.md"))
        .unwrap();
    assert_eq!(record.matches("[[uncounted]]").count(), 200, "{record}");
    assert!(record.contains("uncounted_more = 6\n"), "{record}");
    assert!(
        record.contains("why = \"voting words only in quotes, code or struck through\""),
        "the player's own vote is kept: {record}"
    );
    game.at("2030-01-01T02:00:00Z", &["build", "--out", "public"]);
    let page = game.read(&format!("public/matters/{n}.html"));
    assert!(
        page.contains("6 more comments not counted, not kept in the record"),
        "{page}"
    );
}

/// A file where gitnomic keeps its temporary files (`.git/gitnomic-tmp`)
/// is named before any effect: nothing is merged, and the work tree is as
/// it was. Found once the matters were merged, it left every new record
/// staged as deleted. Once it is moved away, the run does its work.
#[test]
fn a_file_where_gitnomic_writes_its_temporary_files_stops_the_run_before_any_effect() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md") + "\nA sentence.\n";
    game.commit_on("p", &[("rules/dynastic/springs.md", &rule)], "p");
    let cfj = beside_a_due_cfj(&game, "p");
    std::fs::write(game.path(".git/gitnomic-tmp"), "mine").unwrap();
    let commits = game.main_commits();
    let run = game.run(&["--now", "2030-01-01T02:00:00Z", "resolve"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stderr.contains(".git/gitnomic-tmp is in the way"),
        "{}",
        run.stderr
    );
    assert_eq!(game.main_commits(), commits, "nothing was committed");
    let status = std::process::Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(game.root())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&status.stdout),
        "",
        "the work tree is as it was"
    );
    std::fs::remove_file(game.path(".git/gitnomic-tmp")).unwrap();
    // A directory where the run lock goes: named, and left where it is.
    std::fs::create_dir(game.path(".git/gitnomic-run.lock")).unwrap();
    let run = game.run(&["--now", "2030-01-01T02:00:00Z", "resolve"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains(".git/gitnomic-run.lock is in the way"),
        "{}",
        run.stderr
    );
    let left: Vec<String> = std::fs::read_dir(game.path(".git"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("gitnomic-run.lock"))
        .collect();
    assert_eq!(left, ["gitnomic-run.lock"]);
    assert!(game.path(".git/gitnomic-run.lock").is_dir());
    std::fs::remove_dir(game.path(".git/gitnomic-run.lock")).unwrap();
    let run = game.run(&["--now", "2030-01-01T02:00:00Z", "resolve"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        game.read_at("main", &format!("content/matters/{cfj:0>5}.md"))
            .is_some()
    );
}

/// Runs started together where a killed run left its lock: one alone
/// takes the lock and clears what the killed run left; the others find it
/// taken. Each once removed the lock by name, and so at times the lock
/// another had just taken: two runs then wrote at once.
#[test]
fn runs_that_find_a_killed_runs_lock_at_once_take_it_one_at_a_time() {
    for round in 0..2 {
        let game = GameTest::committed();
        let rule = game.read("rules/dynastic/springs.md") + "\nA sentence.\n";
        game.commit_on("p", &[("rules/dynastic/springs.md", &rule)], "p");
        let cfj = beside_a_due_cfj(&game, "p");
        std::fs::write(game.path(".git/gitnomic-run.lock"), "4000000000\n").unwrap();
        // Files the killed run's leftovers are looked for among: the time
        // a run takes to clear them is the time the others have to meet.
        let pad = game.path(".git/gitnomic-forge/pad");
        std::fs::create_dir_all(&pad).unwrap();
        for i in 0..5000 {
            std::fs::write(pad.join(i.to_string()), "").unwrap();
        }
        let runs: Vec<std::process::Child> = (0..4)
            .map(|_| {
                std::process::Command::new(env!("CARGO_BIN_EXE_gitnomic"))
                    .args(["--root", game.root().to_str().unwrap()])
                    .args(["--now", "2030-01-01T02:00:00Z", "resolve"])
                    .env_remove("GITNOMIC_LOG")
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let said: Vec<String> = runs
            .into_iter()
            .map(|run| {
                let out = run.wait_with_output().unwrap();
                String::from_utf8_lossy(&out.stdout).into_owned()
                    + &String::from_utf8_lossy(&out.stderr)
            })
            .collect();
        assert!(
            !said.iter().any(|s| s.contains("gitnomic-fsync.config")),
            "round {round}: first runs at once each write the setting: {said:#?}"
        );
        let clearers = said
            .iter()
            .filter(|s| s.contains("was killed here"))
            .count();
        assert_eq!(clearers, 1, "round {round}: {said:#?}");
        assert!(
            !game.path(".git/gitnomic-run.lock").exists(),
            "round {round}"
        );
        let record = game.read_at("main", &format!("content/matters/{cfj:0>5}.md"));
        assert!(record.is_some(), "round {round}: {said:#?}");
    }
}

/// A shallow clone whose history is cut off before a pull request forked
/// finds no merge base either: that is the clone's lack, reported as an
/// error, never a head taken for unrelated history and closed.
#[test]
fn a_shallow_clone_does_not_take_a_head_for_unrelated_history() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md") + "\nA sentence.\n";
    let head = game.commit_on("p", &[("rules/dynastic/springs.md", &rule)], "p");
    game.commit_on(
        "main",
        &[("content/pages/a.md", "+++\ntitle = \"A\"\n+++\nA.\n")],
        "a",
    );
    game.commit_on(
        "main",
        &[("content/pages/b.md", "+++\ntitle = \"B\"\n+++\nB.\n")],
        "b",
    );
    let clones = tempfile::tempdir().unwrap();
    let clone = clones.path().join("clone");
    let source = format!("file://{}", game.root().display());
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&[
        "clone",
        "-q",
        "--depth",
        "1",
        "--branch",
        "main",
        &source,
        clone.to_str().unwrap(),
    ]);
    git(&[
        "-C",
        clone.to_str().unwrap(),
        "fetch",
        "-q",
        "--depth",
        "1",
        "origin",
        &head,
    ]);
    let repo = gitnomic::git::Repo::open(&clone).unwrap();
    assert!(repo.is_shallow());
    let found = repo.fork_changes("HEAD", &head);
    assert!(found.is_err(), "{found:?}");
    let whole = gitnomic::git::Repo::open(game.root()).unwrap();
    let (paths, unfit) = whole.fork_changes("main", &head).unwrap();
    assert_eq!(paths, ["rules/dynastic/springs.md"]);
    assert!(unfit.is_empty(), "{unfit:?}");
}

/// Item 3: a symlink in a pull request.
#[test]
fn a_symlink_is_its_own_matter_s_problem() {
    let game = GameTest::committed();
    game.commit_raw(
        "link",
        "rules/dynastic/coredup",
        b"../core",
        git2::FileMode::Link,
    );
    let cfj = beside_a_due_cfj(&game, "link");
    judged_in_its_box(&game, &cfj, "is a symbolic link", true);
}

/// A matter closed for its unreadable files counts for nothing: Boris's
/// symbolic link does not use up one of his two pending proposals, at
/// `check --pr`, `play list` and `resolve` alike.
#[test]
fn a_matter_with_unreadable_files_counts_towards_no_limit() {
    let game = GameTest::committed();
    game.commit_raw(
        "link",
        "rules/dynastic/coredup",
        b"../core",
        git2::FileMode::Link,
    );
    game.commit_on(
        "a",
        &[(
            "rules/dynastic/springs.md",
            &(game.read("rules/dynastic/springs.md") + "\nA.\n"),
        )],
        "a",
    );
    game.commit_on(
        "b",
        &[(
            "rules/dynastic/gadget-powers.md",
            &(game.read("rules/dynastic/gadget-powers.md") + "\nB.\n"),
        )],
        "b",
    );
    for (minute, branch) in [("00", "link"), ("01", "a"), ("02", "b")] {
        let at = format!("2030-01-01T00:{minute}:00Z");
        game.open(&at, "boris-b", "proposal", "Proposal: x", Some(branch));
    }
    let now = "2030-01-01T01:00:00Z";
    let check = game.run(&["--now", now, "check", "--pr", "3"]);
    assert_eq!(
        check.code, 0,
        "check --pr 3:\n{}{}",
        check.stdout, check.stderr
    );
    let list = game.at(now, &["play", "list"]).stdout;
    assert!(list.contains("Proposal #3"), "{list}");
    assert!(!list.contains("already has"), "{list}");
    let run = game.at(now, &["resolve"]).stdout;
    assert!(run.contains("#1"), "{run}");
    assert!(!run.contains("already has"), "{run}");
}

/// A proposal its votes enact but whose files leave the game with
/// problems fails, and every door says so beforehand with the reason:
/// `play list` and the pending page as `resolve` then does it.
#[test]
fn a_proposal_enacted_by_votes_but_broken_says_why_it_will_fail() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md") + "\n{% for i in [1] %}x{% endfor %}\n";
    game.commit_on("loop", &[("rules/dynastic/springs.md", &rule)], "loop");
    let opened = game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "proposal",
        "Proposal: loop",
        Some("loop"),
    );
    let n = number(&opened.stdout);
    for voter in ["ada-tinkers", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", &n, "FOR", "--as", voter],
        );
    }
    let now = "2030-01-01T13:00:00Z";
    let said = "fails when the resolver next runs, though its votes enact it: enacting #1 now would leave the game with problems";
    let list = game.at(now, &["play", "list"]).stdout;
    assert!(list.contains(said), "{list}");
    game.at(now, &["build"]);
    let page = std::fs::read_to_string(game.path("public/pending/index.html")).unwrap();
    assert!(
        page.contains("Fails when the resolver next runs, though its votes enact it"),
        "the pending page does not say why"
    );
    let run = game.at(now, &["resolve"]).stdout;
    assert!(run.contains("Proposal #1: fail — failed"), "{run}");
    assert!(run.contains("a loop (`{% for %}`) is not allowed"), "{run}");
}

/// A theme's file that is not UTF-8 (`build` reads every theme file as
/// text) is as unreadable as a rule's: no matter, at `check --pr`.
#[test]
fn a_theme_file_that_is_not_utf8_is_no_matter() {
    let game = GameTest::committed();
    game.commit_raw(
        "theme",
        "themes/default/templates/page.html",
        b"\xff\xfe<p>",
        git2::FileMode::Blob,
    );
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "proposal",
        "Proposal: theme",
        Some("theme"),
    );
    let check = game.run(&["--now", "2030-01-01T00:10:00Z", "check", "--pr", "1"]);
    assert_eq!(check.code, 1, "{}{}", check.stdout, check.stderr);
    assert!(
        check
            .stdout
            .contains("themes/default/templates/page.html is not UTF-8 text"),
        "{}",
        check.stdout
    );
}

/// A theme's template that does not parse would stop every build of the
/// site once enacted: the pull request that brings it is no matter, at
/// every door, and the CfJ beside it is decided. One that parses stands.
#[test]
fn a_theme_template_that_does_not_parse_is_no_matter() {
    let game = GameTest::committed();
    game.commit_on(
        "theme",
        &[("themes/default/templates/page.html", "{% if %}<p>")],
        "broken theme",
    );
    let cfj = beside_a_due_cfj(&game, "theme");
    judged_in_its_box(
        &game,
        &cfj,
        "themes/default/templates/page.html is not a template the site can load",
        true,
    );
    // Each file parses, but one extends a template that is not there.
    let missing = theme_checked("{% extends \"nope.html\" %}{% block main %}x{% endblock %}");
    assert_eq!(missing.code, 1, "{}{}", missing.stdout, missing.stderr);
    assert!(
        missing
            .stdout
            .contains("the site cannot load the theme `default` as it would be"),
        "{}",
        missing.stdout
    );
    // Each parses and loads, but it includes itself: a page made with it
    // would never end (Tera overflows its stack and aborts the build).
    let looping = theme_checked(
        "{% extends \"base.html\" %}{% block main %}{% include \"page.html\" %}{% endblock %}",
    );
    assert_eq!(looping.code, 1, "{}{}", looping.stdout, looping.stderr);
    assert!(
        looping
            .stdout
            .contains("it calls itself (page.html → page.html)"),
        "{}",
        looping.stdout
    );
    let fine = theme_checked(
        "{% extends \"base.html\" %}{% block main %}<p>{{ html | safe }}</p>{% endblock %}",
    );
    assert_eq!(fine.code, 0, "{}{}", fine.stdout, fine.stderr);
}

/// `check --pr 1` of Boris's proposal whose theme's `page.html` is `page`.
fn theme_checked(page: &str) -> crate::game_test::Run {
    let game = GameTest::committed();
    game.commit_on(
        "theme",
        &[("themes/default/templates/page.html", page)],
        "a theme",
    );
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "proposal",
        "Proposal: theme",
        Some("theme"),
    );
    game.run(&["--now", "2030-01-01T00:10:00Z", "check", "--pr", "1"])
}

/// Opens Boris's proposal #1 from a branch whose `path` is `text`, with no
/// vote on it, and runs `resolve` (which leaves it pending). Returns
/// `play list`'s text, the status comment and the pending page at a
/// moment it is still pending.
fn pending_with(path: &str, text: &str) -> (String, String, String) {
    let game = GameTest::committed();
    game.commit_on("b", &[(path, text)], "a change");
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "proposal",
        "Proposal: b",
        Some("b"),
    );
    let now = "2030-01-01T01:00:00Z";
    let run = game.at(now, &["resolve"]);
    assert!(
        run.stdout.contains("Proposal #1: wait — pending"),
        "{}",
        run.stdout
    );
    let list = game.at(now, &["play", "list"]).stdout;
    let status = game.forge_comments(1);
    game.at(now, &["build"]);
    let page = std::fs::read_to_string(game.path("public/pending/index.html")).unwrap();
    (list, status, page)
}

/// A pending proposal whose files would leave the game with problems says
/// so before anyone votes, at `play list`, in its status comment and on
/// its pending card: not only when its votes come to enact it.
fn says_its_problem_while_pending(path: &str, text: &str, problem: &str) {
    let (list, status, page) = pending_with(path, text);
    let said = "if its votes enact it: enacting #1 now would leave the game with problems";
    assert!(
        list.contains(&format!("#1 Proposal: pending, but fails {said}")) && list.contains(problem),
        "play list does not say #1's problem:\n{list}"
    );
    assert!(
        status.contains(said) && status.contains(problem),
        "#1's status does not say its problem:\n{status}"
    );
    assert!(
        page.contains("Fails if its votes enact it")
            && page.contains("would leave the game with problems"),
        "the pending page does not say #1's problem"
    );
}

/// A template loop in a rule: known as soon as the proposal is opened.
#[test]
fn a_pending_proposal_with_a_template_loop_says_so_before_the_vote() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md") + "\n{% for i in [1] %}x{% endfor %}\n";
    says_its_problem_while_pending(
        "rules/dynastic/springs.md",
        &rule,
        "a loop (`{% for %}`) is not allowed",
    );
}

/// A condition nested too deep in a rule's front matter.
#[test]
fn a_pending_proposal_with_a_condition_nested_too_deep_says_so_before_the_vote() {
    let game = GameTest::committed();
    let rule = game.read("rules/core/calls-for-judgement.md").replacen(
        "cfj_resolve_after_hours = 48\n+++",
        &format!(
            "cfj_resolve_after_hours = 48\ncfj_enact = \"{}true{}\"\n+++",
            "(".repeat(100),
            ")".repeat(100)
        ),
        1,
    );
    says_its_problem_while_pending(
        "rules/core/calls-for-judgement.md",
        &rule,
        "nested more than 64 deep",
    );
}

/// A proposal whose files check says nothing of problems while pending.
#[test]
fn a_pending_proposal_that_checks_says_no_problem() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md") + "\nA note.\n";
    let (list, status, page) = pending_with("rules/dynastic/springs.md", &rule);
    for (door, text) in [("play list", &list), ("status", &status), ("page", &page)] {
        assert!(
            !text.contains("fails if its votes enact it"),
            "{door}:\n{text}"
        );
        assert!(
            !text.contains("Fails if its votes enact it"),
            "{door}:\n{text}"
        );
    }
}

/// A pending proposal that conflicts with main (main changed the line it
/// changes after it forked) says so before the vote, and so does its
/// status: a run that enacted it would fail it.
#[test]
fn a_pending_proposal_that_conflicts_with_main_says_so_before_the_vote() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md");
    let ours = rule.clone() + "\nOurs.\n";
    game.commit_on("b", &[("rules/dynastic/springs.md", &ours)], "ours");
    let theirs = rule + "\nTheirs.\n";
    game.commit_on("main", &[("rules/dynastic/springs.md", &theirs)], "theirs");
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "proposal",
        "Proposal: b",
        Some("b"),
    );
    let now = "2030-01-01T01:00:00Z";
    let said = "fails if its votes enact it: it cannot be merged: it conflicts with what was enacted before it, in rules/dynastic/springs.md";
    let list = game.at(now, &["play", "list"]).stdout;
    assert!(
        list.contains(&format!("#1 Proposal: pending, but {said}")),
        "{list}"
    );
    let run = game.at(now, &["resolve"]);
    assert!(
        run.stdout
            .contains(&format!("Proposal #1: wait — pending, but {said}")),
        "{}",
        run.stdout
    );
    let status = game.forge_comments(1);
    assert!(
        status.contains("Fails if its votes enact it: it cannot be merged: it conflicts"),
        "{status}"
    );
}

/// The pages in `public` where `mark` (a reordering character in a title
/// or a name) is in text not isolated from what follows it: every such
/// text is in a link or a `<bdi>` (links isolate their text, see
/// `a_link_isolates_its_text`), or after a U+2068 not yet closed (the
/// page's `<title>` and the charts write it as a reference, sentences that
/// name a player as the character). Marks inside a tag (an attribute) are
/// left out.
fn unisolated(public: &std::path::Path, mark: char) -> Vec<String> {
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(public) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "html") {
            continue;
        }
        let html = std::fs::read_to_string(entry.path()).unwrap();
        for (at, _) in html.match_indices(mark) {
            let before = &html[..at];
            let (open, close) = (before.rfind('<'), before.rfind('>'));
            let Some(open) = open.filter(|&o| close.is_some_and(|c| c > o)) else {
                continue;
            };
            let end = close.unwrap_or_default();
            let tag = &html[open..=end];
            // Since the tag: a U+2068 not yet closed, as charts, the
            // page's title (as a reference) and sentences naming a player
            // write it.
            let since = &html[end + 1..at];
            let opened = since.rfind("&#x2068;").max(since.rfind('\u{2068}'));
            let fsi = opened.is_some_and(|f| {
                !since[f..].contains("&#x2069;") && !since[f..].contains('\u{2069}')
            });
            let isolated = tag.starts_with("<a ") || tag == "<bdi>" || fsi;
            if !isolated {
                let page = entry.path().strip_prefix(public).unwrap().display();
                let from = before.char_indices().rev().nth(80).map_or(0, |(i, _)| i);
                found.push(format!("{page}: …{}", &html[from..at + 12]));
            }
        }
    }
    found
}

/// A title or a name may carry U+202E, which shows what follows it
/// backwards to the end of its paragraph: in an archive's row, the
/// matter's status and author; on the pending page, why it cannot stand.
/// Each is shown isolated, on every page, open and resolved.
#[test]
fn a_title_that_reorders_text_reorders_only_itself() {
    let game = GameTest::committed();
    // A player's name holds one too (Wren votes on nothing here: the
    // pending page lists them as not voted yet).
    let name = "Wren \u{202e}nerW";
    for (file, from, to) in [
        ("state/game.toml", "\"Wren\"", format!("\"{name}\"")),
        ("state/roster.toml", "\"Wren\"", format!("\"{name}\"")),
        ("state/collections.toml", "\"Wren\"", format!("\"{name}\"")),
        (
            "state/variables.toml",
            "[players.Wren]",
            format!("[players.\"{name}\"]"),
        ),
    ] {
        let text = game.read(file).replace(from, &to);
        game.write(file, &text);
    }
    game.commit_all("Wren's name reads both ways");
    // A title's own U+2069 would close the isolate around it early.
    let title = "Fair \u{2069}\u{202e}sdrawkcab <b>x</b>";
    let opened = game.open("2030-01-01T00:00:00Z", "ada-tinkers", "cfj", title, None);
    let n = number(&opened.stdout);
    game.open("2030-01-01T00:00:00Z", "stranger", "cfj", title, None);
    for voter in ["boris-b", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T00:05:00Z",
            &["play", "comment", &n, "FOR", "--as", voter],
        );
    }
    let public = game.path("public");
    game.at("2030-01-01T00:06:00Z", &["build"]);
    let pending = std::fs::read_to_string(public.join("pending/index.html")).unwrap();
    assert!(pending.matches('\u{202e}').count() >= 2, "{pending}");
    assert_eq!(unisolated(&public, '\u{202e}'), Vec::<String>::new());
    game.at("2030-01-01T13:00:00Z", &["resolve"]);
    game.at("2030-01-01T13:01:00Z", &["build"]);
    let matter = std::fs::read_to_string(public.join(format!("matters/{n}.html"))).unwrap();
    assert!(matter.contains("sdrawkcab"), "no page of #{n}");
    assert_eq!(unisolated(&public, '\u{202e}'), Vec::<String>::new());
    // The title's own U+2069, which closed nothing it opened, is gone.
    assert!(matter.contains("Fair \u{202e}sdrawkcab"), "{matter}");
    for page in walkdir::WalkDir::new(&public) {
        let page = page.unwrap();
        if page.file_type().is_file() && page.path().extension().is_some_and(|e| e == "html") {
            let html = std::fs::read_to_string(page.path()).unwrap();
            assert!(!html.contains("Fair \u{2069}"), "{}", page.path().display());
        }
    }
}

/// The theme's style sheet isolates a link's text, which is how most
/// titles and names are shown.
#[test]
fn a_link_isolates_its_text() {
    let css = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/default/static/style.css"),
    )
    .unwrap();
    let rule = css
        .lines()
        .find(|l| l.starts_with("a {"))
        .expect("a rule for links");
    assert!(rule.contains("unicode-bidi: isolate"), "{rule}");
}

/// A theme's template that parses but fails when a page is rendered (a
/// value the page does not have: the doors cannot see that) does not stop
/// the build: that page is made with the built-in templates, the failure
/// is told once, and the other pages keep the theme. A theme whose
/// templates cannot be loaded at all (pushed to the default branch so)
/// gives way to the built-in templates, its static files kept.
#[test]
fn a_theme_that_fails_does_not_stop_the_build() {
    let game = GameTest::committed();
    let plain = game.run(&["--now", "2030-01-01T00:00:00Z", "build", "--out", "plain"]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let rule = "rules/clockwork-victory.html";
    assert!(game.path(&format!("plain/{rule}")).is_file(), "no {rule}");
    game.write(
        "themes/default/templates/rule.html",
        "{% extends \"base.html\" %}{% block main %}{{ no_such_value.at_all }}{% endblock %}",
    );
    game.write(
        "themes/default/templates/page.html",
        "{% extends \"base.html\" %}{% block main %}THEMED {{ html | safe }}{% endblock %}",
    );
    let built = game.run(&["--now", "2030-01-01T00:00:00Z", "build", "--out", "public"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    assert_eq!(
        built.stderr.matches("with rule.html").count(),
        1,
        "told once: {}",
        built.stderr
    );
    assert!(
        built
            .stderr
            .contains("the page is made with the built-in templates"),
        "{}",
        built.stderr
    );
    assert_eq!(
        game.read(&format!("public/{rule}")),
        game.read(&format!("plain/{rule}")),
        "the rule's page is the built-in one"
    );
    assert!(
        game.read("public/pages/how-to-play.html")
            .contains("THEMED")
    );
    // One failure in the template every page extends is told once.
    let base = include_str!("../../themes/default/templates/base.html");
    game.write(
        "themes/default/templates/base.html",
        &base.replace("<body>", "<body>{{ nosuch.at_all }}"),
    );
    let built = game.run(&[
        "--now",
        "2030-01-01T00:00:00Z",
        "build",
        "--full",
        "--out",
        "public",
    ]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    assert_eq!(
        built
            .stderr
            .matches("made with the built-in templates")
            .count(),
        1,
        "{}",
        built.stderr
    );
    std::fs::remove_file(game.path("themes/default/templates/base.html")).unwrap();
    // Templates that do not load: the built-in ones, the theme's CSS kept.
    game.write("themes/default/templates/page.html", "{% if %}");
    game.write("themes/default/static/style.css", "body { color: teal }");
    let built = game.run(&["--now", "2030-01-01T00:00:00Z", "build", "--out", "public"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    assert!(
        built
            .stderr
            .contains("the theme cannot be loaded (template page.html"),
        "{}",
        built.stderr
    );
    assert!(
        !game
            .read("public/pages/how-to-play.html")
            .contains("THEMED")
    );
    assert_eq!(game.read("public/style.css"), "body { color: teal }");
    // A macro that calls itself, templates that import each other (no
    // macro called: Tera gathers their macros without end), and a count
    // without end: each build ends, on the built-in templates.
    let macros = include_str!("../../themes/default/templates/macros.html");
    let cases: [(&[(&str, String)], &str); 3] = [
        (
            &[
                ("rec.html", "{% macro f(n) %}x{{ self::f(n=n+1) }}{% endmacro f %}".to_string()),
                (
                    "page.html",
                    "{% extends \"base.html\" %}{% import \"rec.html\" as r %}{% block main %}{{ r::f(n=0) }}{% endblock %}"
                        .to_string(),
                ),
            ],
            "it calls itself (rec.html::f → rec.html::f)",
        ),
        (
            &[
                ("macros.html", format!("{{% import \"helpers.html\" as helpers %}}{macros}")),
                (
                    "helpers.html",
                    "{% import \"macros.html\" as mm %}{% macro nothing() %}{% endmacro nothing %}"
                        .to_string(),
                ),
            ],
            "helpers.html → macros.html",
        ),
        (
            &[(
                "page.html",
                "{% extends \"base.html\" %}{% block main %}{% for i in range(end=1000000000000) %}AAAA{% endfor %}{% endblock %}"
                    .to_string(),
            )],
            "`range` may give at most 10000 numbers",
        ),
    ];
    for (files, says) in cases {
        for (name, text) in files {
            game.write(&format!("themes/default/templates/{name}"), text);
        }
        let built = game.run(&["--now", "2030-01-01T00:00:00Z", "build", "--out", "public"]);
        assert_eq!(built.code, 0, "{says}: {}", built.stderr);
        assert!(built.stderr.contains(says), "{says}: {}", built.stderr);
        assert!(game.read("public/pages/how-to-play.html").len() < 100_000);
        for (name, _) in files {
            std::fs::remove_file(game.path(&format!("themes/default/templates/{name}"))).unwrap();
        }
    }
}

/// A file named with a backslash (or a control character) is no matter
/// at every door: git's paths are `/`-separated, so a `\` is part of the
/// name, which no checkout on Windows can hold, and which the resolver
/// once took for a separator, leaving every later run stopped on a
/// "change of your own" at a path that does not exist.
#[test]
fn a_file_named_with_a_backslash_is_no_matter() {
    let game = GameTest::committed();
    game.commit_on(
        "odd",
        &[(
            "rules/dynastic/a\\b c.md",
            "+++\nid = \"odd\"\ntitle = \"Odd\"\n+++\nOdd.\n",
        )],
        "odd name",
    );
    let cfj = beside_a_due_cfj(&game, "odd");
    judged_in_its_box(
        &game,
        &cfj,
        "rules/dynastic/a\\\\b c.md has a backslash or a control character in its name",
        true,
    );
}

/// Boris's branch merges Cleo's pending proposal and takes her change out
/// again. Once his is enacted, hers is already part of the default
/// branch: merging it would change nothing, whatever its diff showed when
/// the votes were cast. It is no matter at every door, never recorded as
/// enacted with its change missing.
#[test]
fn a_proposal_another_merge_already_brought_in_is_no_matter() {
    let game = GameTest::committed();
    let cleo = game.commit_on(
        "cleo",
        &[(
            "rules/dynastic/springs.md",
            "+++\nid = \"springs\"\ntitle = \"Springs\"\n+++\nCLEO'S LINE.\n",
        )],
        "Cleo's change",
    );
    let boris = game.commit_on(
        "boris",
        &[(
            "rules/dynastic/tea.md",
            "+++\nid = \"tea\"\ntitle = \"Tea\"\n+++\nTea.\n",
        )],
        "Boris's change",
    );
    // A merge of Cleo's head whose tree is Boris's alone: her change
    // brought in and taken out again in one commit.
    let repo = git2::Repository::open(game.root()).unwrap();
    let (boris, cleo) = (
        repo.find_commit(git2::Oid::from_str(&boris).unwrap())
            .unwrap(),
        repo.find_commit(git2::Oid::from_str(&cleo).unwrap())
            .unwrap(),
    );
    let who = git2::Signature::new(
        "Boris",
        "b@example.invalid",
        &git2::Time::new(1_900_000_000, 0),
    )
    .unwrap();
    repo.commit(
        Some("refs/heads/boris"),
        &who,
        &who,
        "merge Cleo's, then undo it",
        &boris.tree().unwrap(),
        &[&boris, &cleo],
    )
    .unwrap();
    game.open(
        "2030-01-01T00:00:00Z",
        "boris-b",
        "proposal",
        "Proposal: tea",
        Some("boris"),
    );
    game.open(
        "2030-01-01T00:01:00Z",
        "cleo-c",
        "proposal",
        "Proposal: springs",
        Some("cleo"),
    );
    for voter in ["ada-tinkers", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", "1", "FOR", "--as", voter],
        );
    }
    for voter in ["ada-tinkers", "boris-b", "dmitri-d"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", "2", "FOR", "--as", voter],
        );
    }
    // Before Boris's is enacted, Cleo's stands as its diff shows.
    let before = game.run(&["--now", "2030-01-01T12:00:00Z", "check", "--pr", "2"]);
    assert_eq!(before.code, 0, "{}{}", before.stdout, before.stderr);
    let run = game.at("2030-01-01T13:00:00Z", &["resolve"]);
    assert!(run.stdout.contains("Proposal #1: enact"), "{}", run.stdout);
    assert!(
        run.stdout.contains(
            "Proposal #2: not-a-matter — closed: its head is already part of the default branch"
        ),
        "{}",
        run.stdout
    );
    let record = game.read_at("main", "content/matters/00002.md").unwrap();
    assert!(record.contains("outcome = \"not-a-matter\""), "{record}");
}

/// A file whose name differs from a neighbour's in case alone is no
/// matter at every door: on macOS and Windows the two are one file, and a
/// player's clone there would hold one and show the other as changed.
#[test]
fn a_name_that_differs_from_another_in_case_alone_is_no_matter() {
    let game = GameTest::committed();
    game.commit_on(
        "case",
        &[(
            "rules/dynastic/Springs.md",
            "+++\nid = \"more-springs\"\ntitle = \"More Springs\"\n+++\nMore.\n",
        )],
        "a rule beside springs.md",
    );
    let cfj = beside_a_due_cfj(&game, "case");
    judged_in_its_box(
        &game,
        &cfj,
        "rules/dynastic/Springs.md differs from rules/dynastic/springs.md only in case",
        true,
    );
}
