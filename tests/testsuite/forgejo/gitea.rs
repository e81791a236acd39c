//! A game on Gitea: `gitnomic --forge gitea` speaks Forgejo's API (Gitea's
//! is the same), but Gitea's runner reads workflows from
//! `.gitea/workflows/` only and its Actions token acts as `gitea-actions`.

use crate::fake::github::{REPO, base64};
use crate::forges::scenarios::{ForgeKind, game};
use crate::game_test::{GameTest, Run};

/// `gitnomic ARGS` with `env`, outside any game.
fn gitnomic(args: &[&str], env: &[(&str, &str)]) -> Run {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gitnomic"))
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

#[test]
fn a_game_made_for_gitea_has_its_workflows_where_gitea_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("our-game");
    let run = gitnomic(
        &[
            "--forge",
            "gitea",
            "new",
            root.to_str().unwrap(),
            "--player",
            "ada_t",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("gitnomic doctor --forge gitea")
            && run.stdout.contains("your Gitea server"),
        "{}",
        run.stdout
    );
    for file in ["check.yml", "resolve.yml"] {
        let text = std::fs::read_to_string(root.join(".gitea/workflows").join(file)).unwrap();
        assert!(text.contains("--forge gitea"), "{file}: {text}");
        assert!(!text.contains("--forge forgejo"), "{file}: {text}");
    }
    assert!(!root.join(".forgejo").exists() && !root.join(".github").exists());
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.contains("`.gitea/workflows/`"), "{readme}");

    // doctor finds the workflows where Gitea reads them, and only there.
    let fake = crate::fake::github::FakeGitHub::start_forgejo();
    {
        let mut w = fake.world();
        w.settings.accounts.insert("ada_t".into(), "User");
        for path in ["state/roster.toml", ".gitea/workflows/resolve.yml"] {
            let text = std::fs::read_to_string(root.join(path)).unwrap();
            w.contents
                .insert(path.into(), ("f".repeat(40), base64(&text)));
        }
    }
    let env = [
        ("GITHUB_SERVER_URL", fake.url.as_str()),
        ("GITHUB_REPOSITORY", REPO),
        ("FORGEJO_TOKEN", "t0ken"),
        ("GITNOMIC_NO_RETRY_WAIT", "1"),
    ];
    let doctor = |forge: &str| {
        gitnomic(
            &[
                "--root",
                root.to_str().unwrap(),
                "--forge",
                forge,
                "doctor",
                "--dry-run",
            ],
            &env,
        )
    };
    let gitea = doctor("gitea");
    assert!(
        gitea
            .stdout
            .contains("ok    the game's workflows are on the default branch (.gitea/workflows/)"),
        "{}{}",
        gitea.stdout,
        gitea.stderr
    );
    let forgejo = doctor("forgejo");
    assert!(
        forgejo.stdout.contains("no .forgejo/workflows/resolve.yml"),
        "{}{}",
        forgejo.stdout,
        forgejo.stderr
    );
}

/// `gitnomic --forge FORGE --now NOW resolve` on `game`, served by `url`.
fn resolve(game: &GameTest, url: &str, forge: &str, now: &str) -> Run {
    let run = game.run_with_env(
        &["--forge", forge, "--now", now, "resolve"],
        &[
            ("GITHUB_SERVER_URL", url),
            ("GITHUB_REPOSITORY", REPO),
            ("FORGEJO_TOKEN", "t0ken"),
            ("GITNOMIC_NO_RETRY_WAIT", "1"),
        ],
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    run
}

#[test]
fn on_gitea_the_status_is_the_gitea_bots_and_is_edited_not_posted_again() {
    for (forge, statuses) in [("gitea", 1), ("forgejo", 2)] {
        let g = game(ForgeKind::Forgejo);
        g.fake.world().bot_login = Some("gitea-actions");
        g.comment("boris-b", "2030-01-01T01:00:00Z", "FOR");
        resolve(&g.game, &g.fake.url, forge, "2030-01-01T01:30:00Z");
        g.comment("cleo-c", "2030-01-01T01:35:00Z", "FOR");
        resolve(&g.game, &g.fake.url, forge, "2030-01-01T01:40:00Z");
        // With Forgejo's bot assumed, the status Gitea's bot wrote is not
        // known as the status, and a second one is posted.
        assert_eq!(
            g.fake.world().bot_comments(1).len(),
            statuses,
            "--forge {forge}"
        );
    }
}
