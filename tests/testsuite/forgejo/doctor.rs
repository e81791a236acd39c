//! `gitnomic new --forge forgejo`, then `gitnomic doctor --forge forgejo`
//! against the fake Forgejo (held to Forgejo's description): the new game
//! carries Forgejo's workflows and not GitHub's, and doctor on its
//! repository creates the labels, finds the roster's accounts and says
//! what is left to do.

use std::process::Command;

use crate::fake::github::{FakeGitHub, REPO, base64};
use crate::fake::settings::Settings;
use crate::game_test::Run;

fn gitnomic(args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .args(args)
        .env_remove("GITNOMIC_LOG")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A new game for Forgejo, and a fake Forgejo holding its files on `main`
/// with the roster's logins as accounts and no labels yet.
fn new_game_on_forgejo() -> (tempfile::TempDir, FakeGitHub) {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("our-game");
    let game = game.to_str().unwrap();
    let run = gitnomic(
        &[
            "--forge",
            "forgejo",
            "new",
            game,
            "--player",
            "ada-tinkers",
            "--player",
            "boris-b",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("gitnomic doctor --forge forgejo") && run.stdout.contains("Codeberg"),
        "{}",
        run.stdout
    );
    let root = dir.path().join("our-game");
    assert!(root.join(".forgejo/workflows/resolve.yml").is_file());
    assert!(root.join(".forgejo/workflows/check.yml").is_file());
    assert!(!root.join(".github").exists(), "no GitHub workflows");
    for script in [
        "scripts/fetch-pulls",
        "scripts/push-pages",
        "scripts/build-on-forgejo",
    ] {
        assert!(root.join(script).is_file(), "{script}");
    }
    let fake = FakeGitHub::start_forgejo();
    {
        let mut w = fake.world();
        w.settings = Settings::default();
        w.settings.pages = None;
        for login in ["ada-tinkers", "boris-b"] {
            w.settings.accounts.insert(login.into(), "User");
        }
        for path in ["state/roster.toml", ".forgejo/workflows/resolve.yml"] {
            let text = std::fs::read_to_string(root.join(path)).unwrap();
            w.contents
                .insert(path.into(), ("f".repeat(40), base64(&text)));
        }
    }
    (dir, fake)
}

fn doctor(dir: &tempfile::TempDir, fake: &FakeGitHub) -> Run {
    let root = dir.path().join("our-game");
    gitnomic(
        &[
            "--root",
            root.to_str().unwrap(),
            "--forge",
            "forgejo",
            "doctor",
        ],
        &[
            ("GITHUB_SERVER_URL", fake.url.as_str()),
            ("GITHUB_REPOSITORY", REPO),
            ("FORGEJO_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
        ],
    )
}

#[test]
fn doctor_creates_the_labels_of_a_new_game_and_finds_all_else_well() {
    let (dir, fake) = new_game_on_forgejo();
    let run = doctor(&dir, &fake);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for line in [
        "ok    Actions is on",
        "ok    merge commits are allowed",
        "ok    the game's workflows are on the default branch",
        "created the label `Proposal`",
        "the roster's logins are accounts on this forge: ada-tinkers, boris-b",
        "note  there is no `pages` branch yet",
    ] {
        assert!(run.stdout.contains(line), "{line}:\n{}", run.stdout);
    }
    let created = fake.world().requests("POST", "/labels");
    assert_eq!(created, fake.world().settings.labels.len());
    assert!(created >= 10, "{created}");
    // Run again: every label is there now; nothing is created.
    let again = doctor(&dir, &fake);
    assert_eq!(again.code, 0, "{}", again.stdout);
    assert!(
        again.stdout.contains("ok    the labels Proposal,"),
        "{}",
        again.stdout
    );
    assert_eq!(fake.world().requests("POST", "/labels"), created);
}

#[test]
fn doctor_says_what_to_do_when_actions_is_off_or_a_login_is_no_one() {
    let (dir, fake) = new_game_on_forgejo();
    {
        let mut w = fake.world();
        w.settings.actions_enabled = false;
        w.settings.accounts.remove("boris-b");
    }
    let run = doctor(&dir, &fake);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("TODO  Actions is off"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("`boris-b` in state/roster.toml is no account on this forge"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("2 things to do"), "{}", run.stdout);
}
