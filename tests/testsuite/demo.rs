//! `gitnomic demo`: the scripted offline game ends as scripted, played
//! by the binary alone from any directory.

use std::process::Command;

#[test]
fn the_demo_plays_its_script_to_the_end() {
    // Outside the repository (the system's temporary directory, not target/).
    let dir = tempfile::Builder::new().prefix("demo-").tempdir().unwrap();
    let game = dir.path().join("game");
    // The binary alone: run from a directory outside the repository,
    // with no --root, it plays the game built into it.
    let run = |target: &std::path::Path| demo_from(dir.path(), target);
    let out = run(&game);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("Every matter ended as scripted."),
        "{stdout}"
    );
    for line in [
        "CfJ #6: enact — enacted",
        "Proposal #2: fail — failed",
        "Proposal #3: fail — failed",
        "Proposal #5: wait — pending",
    ] {
        assert!(stdout.contains(line), "missing `{line}` in:\n{stdout}");
    }
    // Proposal #4 passed on DEFERENTIAL votes following the emperor's FOR.
    let record = std::fs::read_to_string(game.join("content/matters/00004.md")).unwrap();
    assert!(record.contains("outcome = \"enacted\""), "{record}");
    assert_eq!(
        record.matches("vote = \"DEFERENTIAL\"").count(),
        2,
        "{record}"
    );
    assert_eq!(
        record.matches("counts_as = \"FOR\"").count(),
        2,
        "the record keeps what each DEFERENTIAL counted as: {record}"
    );
    let page = std::fs::read_to_string(game.join("public/matters/4.html")).unwrap();
    assert!(
        page.contains("DEFERENTIAL</span> (counts as FOR)"),
        "{page}"
    );
    // The site was built, with the waiting proposal's live tally.
    let pending = std::fs::read_to_string(game.join("public/pending/index.html")).unwrap();
    assert!(
        pending.contains("Slower victory")
            && pending.contains("<strong>2</strong> FOR, <strong>1</strong> AGAINST"),
        "{pending}"
    );
    assert!(game.join("public/ruleset/index.html").is_file());
    // ... and ignored, so the demo leaves a clean work tree behind.
    let status = Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(&game)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&status.stdout), "", "git status");
    // A second demo into the same directory replaces the first.
    assert!(run(&game).status.success());
    // An unrelated directory is never overwritten.
    std::fs::write(dir.path().join("keep.txt"), "mine").unwrap();
    let out = run(dir.path());
    assert!(!out.status.success());
    assert!(dir.path().join("keep.txt").exists());
}

/// Runs `gitnomic demo TARGET` from directory `cwd`, with no `--root`.
pub(crate) fn demo_from(cwd: &std::path::Path, target: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .current_dir(cwd)
        .arg("demo")
        .arg(target)
        .output()
        .unwrap()
}
