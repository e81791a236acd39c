//! `gitnomic new`: a fresh game from the binary alone, which checks at
//! once and plays on the local forge; refusals leave nothing behind.

use std::path::Path;
use std::process::Command;

use crate::game_test::{GameTest, Run};

/// Runs the binary with `args` from `cwd` (no --root).
fn gitnomic_in(cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .current_dir(cwd)
        .args(args)
        .env_remove("GITNOMIC_LOG")
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_new_game_checks_at_once_and_plays_on_the_local_forge() {
    // Made from outside the repository, into an empty directory.
    let elsewhere = tempfile::tempdir().unwrap();
    let game = GameTest::empty();
    let root = game.root().to_str().unwrap();
    let run = gitnomic_in(
        elsewhere.path(),
        &[
            "--now",
            "2030-01-01T00:00:00Z",
            "new",
            root,
            "--player",
            "Ann=ann-a",
            "--player",
            "bob",
            "--player",
            "cy",
            "--name",
            "Gear Works",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("The players: Ann (ann-a), bob (bob), cy (cy); Ann is the admin"),
        "{}",
        run.stdout
    );
    for path in [
        "README.md",
        ".gitignore",
        ".github/workflows/resolve.yml",
        "themes/default/static/style.css",
        "content/pages/how-to-play.md",
        "Cargo.lock",
        "src/main.rs",
    ] {
        assert!(game.path(path).is_file(), "{path} missing");
    }
    assert!(!game.path("content/matters").exists());
    assert!(game.read("README.md").starts_with("# Gear Works\n"));
    let roster = game.read("state/roster.toml");
    assert!(
        !roster.contains("ada-tinkers") && roster.contains("login = \"ann-a\"\nadmin = true"),
        "{roster}"
    );
    // A git repository whose first commit holds every file, scripts runnable.
    let repo = git2::Repository::open(game.root()).unwrap();
    assert_eq!(repo.head().unwrap().name().ok(), Some("refs/heads/main"));
    assert!(repo.statuses(None).unwrap().is_empty(), "all committed");
    let tree = repo.head().unwrap().peel_to_tree().unwrap();
    let script = tree.get_path(Path::new("scripts/fetch-pulls")).unwrap();
    assert_eq!(script.filemode(), 0o100_755);

    let check = game.run(&["check"]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("3 players"), "{}", check.stdout);

    // A proposal by Ann with everyone's FOR is enacted by the resolver.
    let page = "+++\ntitle = \"Tips\"\n+++\nRead the rules.\n";
    game.commit_on("tips", &[("content/pages/tips.md", page)], "tips");
    game.at(
        "2030-01-02T00:00:00Z",
        &[
            "play", "open", "--as", "ann-a", "--kind", "proposal", "--title", "Tips", "--branch",
            "tips",
        ],
    );
    for login in ["bob", "cy"] {
        game.at(
            "2030-01-02T01:00:00Z",
            &["play", "comment", "1", "FOR", "--as", login],
        );
    }
    let resolved = game.at("2030-01-02T13:00:00Z", &["resolve"]);
    assert!(
        resolved.stdout.contains("Proposal #1: enact — enacted"),
        "{}",
        resolved.stdout
    );
    assert_eq!(
        game.read_at("main", "content/pages/tips.md").as_deref(),
        Some(page)
    );
}

#[test]
fn a_new_game_on_another_branch_names_it_in_its_workflows() {
    // `new .` from inside an empty directory: the directory itself stays.
    let game = GameTest::empty();
    let run = gitnomic_in(game.root(), &["new", ".", "--branch", "trunk"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let staged = format!(".{}.", game.root().file_name().unwrap().to_string_lossy());
    let parent = game.root().parent().unwrap();
    assert!(
        entries(parent).iter().all(|e| !e.starts_with(&staged)),
        "the staging directory is gone"
    );
    assert!(
        run.stdout
            .contains("The players are the bundled game's examples"),
        "says it kept the bundled roster: {}",
        run.stdout
    );
    let repo = git2::Repository::open(game.root()).unwrap();
    assert_eq!(repo.head().unwrap().name().ok(), Some("refs/heads/trunk"));
    // The resolve workflow re-checks the open matters on a push to it.
    let resolve = game.read(".github/workflows/resolve.yml");
    assert!(
        resolve.contains("branches: [trunk]") && !resolve.contains("branches: [main]"),
        "{resolve}"
    );
    let run = game.run(&["--base", "trunk", "check", "--rev", "trunk"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn new_refuses_a_directory_in_use_and_bad_input_leaving_nothing() {
    let parent = tempfile::tempdir().unwrap();
    let taken = parent.path().join("taken");
    std::fs::create_dir(&taken).unwrap();
    std::fs::write(taken.join("notes.txt"), "mine").unwrap();
    let run = gitnomic_in(parent.path(), &["new", "taken"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains("taken already exists and is not empty"),
        "{}",
        run.stderr
    );
    assert_eq!(entries(&taken), ["notes.txt"]);

    for (args, why) in [
        (
            vec!["new", "fresh", "--player=-ann"],
            "`-ann` is not a GitHub login",
        ),
        (
            vec!["new", "fresh", "--player", "ann", "--player", "ANN"],
            "the player `ANN` is given twice",
        ),
        (
            vec!["new", "fresh", "--branch", "my branch"],
            "`my branch` cannot be the default branch",
        ),
    ] {
        let run = gitnomic_in(parent.path(), &args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stdout);
        assert!(run.stderr.contains(why), "{args:?}: {}", run.stderr);
    }
    assert_eq!(
        entries(parent.path()),
        ["taken"],
        "no game and no half-written directory left"
    );
}

/// A player named `index`, and a theme whose static files lie where the
/// site makes pages: the players' list, the pending page and the live
/// status stay the site's own, and the build's report adds up.
#[test]
fn no_name_or_theme_file_takes_the_place_of_a_page_the_site_makes() {
    let elsewhere = tempfile::tempdir().unwrap();
    let game = GameTest::empty();
    let root = game.root().to_str().unwrap();
    let run = gitnomic_in(
        elsewhere.path(),
        &[
            "--now",
            "2030-01-01T00:00:00Z",
            "new",
            root,
            "--player",
            "alice",
            "--player",
            "index",
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for path in ["status.js", "pending/index.html", "players/index.html"] {
        game.write(&format!("themes/default/static/{path}"), "FAKE");
    }
    // Two pages whose names slug alike.
    game.write(
        "content/pages/Notes.md",
        "+++\ntitle = \"First notes\"\n+++\nOne.\n",
    );
    game.write(
        "content/pages/a/notes.md",
        "+++\ntitle = \"Second notes\"\n+++\nTwo.\n",
    );
    let built = game.run(&["--now", "2030-01-01T00:00:00Z", "build", "--out", "public"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    for path in ["status.js", "pending/index.html", "players/index.html"] {
        assert_ne!(game.read(&format!("public/{path}")), "FAKE", "{path}");
        assert!(
            built.stderr.contains(&format!(
                "the theme's static/{path} is left out: the site makes a page there"
            )),
            "{}",
            built.stderr
        );
    }
    let list = game.read("public/players/index.html");
    assert!(
        list.contains("href=\"../players/alice.html\"")
            && list.contains("href=\"../players/index-2.html\""),
        "{list}"
    );
    assert!(
        game.read("public/players/index-2.html")
            .contains("<bdi>index</bdi>")
    );
    let notes = [
        game.read("public/pages/notes.html"),
        game.read("public/pages/notes-2.html"),
    ];
    assert!(
        notes.iter().any(|p| p.contains("First notes"))
            && notes.iter().any(|p| p.contains("Second notes")),
        "each page has its own"
    );
    let files = walkdir::WalkDir::new(game.path("public"))
        .into_iter()
        .filter(|e| e.as_ref().unwrap().file_type().is_file())
        .count();
    assert!(
        built
            .stderr
            .contains(&format!("{files} changed, 0 unchanged")),
        "{}",
        built.stderr
    );
}
