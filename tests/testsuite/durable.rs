//! Git's own writes reach the disk: a resolve that merges flushes every
//! object it writes before the object's name is given to it, and the
//! branch's directory after the branch moves. Seen from outside, by
//! strace (skipped with a message without it, as the kill sweep is).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use crate::game_test::GameTest;
use crate::kill_sweep::strace;

/// A line of `strace -f` without the pid it starts with.
fn call(line: &str) -> &str {
    line.split_once(' ').map_or(line, |(_, c)| c).trim_start()
}

/// The objects a traced run wrote whose temporary file was named (linked
/// or renamed into place) before it was flushed, how many it wrote in all, and whether the
/// directory of `refs/heads` was flushed after `main` moved.
fn unflushed(log: &str) -> (Vec<String>, usize, bool) {
    let quoted = |text: &str| text.split('"').nth(1).unwrap_or_default().to_string();
    let mut open: BTreeMap<String, String> = BTreeMap::new(); // fd -> temp path
    let mut flushed: BTreeSet<String> = BTreeSet::new();
    let mut written = 0;
    let mut late = Vec::new();
    let mut branch_moved = false;
    let mut heads_fd = None;
    let mut branch_flushed = false;
    for line in log.lines().map(call) {
        let fd = line
            .rsplit("= ")
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        if line.starts_with("openat(") && line.contains("/objects/tmp_object") {
            open.insert(fd, quoted(line));
        } else if line.starts_with("openat(") && line.contains("/refs/heads\"") {
            heads_fd = Some(fd);
        } else if let Some(rest) = line.strip_prefix("fsync(") {
            let fd = rest.split(')').next().unwrap_or_default().to_string();
            if let Some(path) = open.get(&fd) {
                flushed.insert(path.clone());
            }
            branch_flushed |= branch_moved && heads_fd.as_deref() == Some(fd.as_str());
        } else if (line.starts_with("rename(") || line.starts_with("link("))
            && line.contains("/objects/tmp_object")
        {
            // libgit2 names a loose object by a hard link to its temporary file.
            written += 1;
            let from = quoted(line);
            if !flushed.contains(&from) {
                late.push(from);
            }
        } else if line.starts_with("rename(") && line.contains("/refs/heads/main.lock") {
            branch_moved = true;
        }
    }
    (late, written, branch_moved && branch_flushed)
}

#[test]
fn a_merge_flushes_its_objects_before_naming_them_and_its_branch_after() {
    if !strace() {
        return;
    }
    let game = GameTest::committed();
    game.replace("state/variables.toml", "springs = 6", "springs = 7");
    let now = "2030-01-01T00:00:00Z";
    game.at(
        now,
        &[
            "play",
            "propose",
            "--as",
            "ada-tinkers",
            "--title",
            "More springs",
        ],
    );
    for login in ["boris-b", "cleo-c", "dmitri-d"] {
        game.at(
            "2030-01-01T01:00:00Z",
            &["play", "comment", "1", "FOR", "--as", login],
        );
    }
    // `play propose` turned flushing on; `resolve` must do so itself.
    let setting = game.path(".git/gitnomic-fsync.config");
    std::fs::remove_file(&setting).expect("play propose turned flushing on");
    let log = game.path("strace.log");
    let out = Command::new("strace")
        .args([
            "-f",
            "-qq",
            "-e",
            "trace=openat,fsync,fdatasync,rename,link",
            "-o",
        ])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_gitnomic"))
        .arg("--root")
        .arg(game.root())
        .args(["--now", "2030-01-02T12:00:00Z", "resolve"])
        .output()
        .expect("run strace");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("enacted"), "{stdout}");
    let (late, written, branch) = unflushed(&std::fs::read_to_string(&log).unwrap());
    assert!(
        written >= 2,
        "a merge and a record write objects: {written}"
    );
    assert!(
        late.is_empty(),
        "named before they reached the disk: {late:?}"
    );
    assert!(branch, "the branch's directory is flushed after main moves");
    assert!(setting.is_file(), "resolve turned flushing on");
    let git = Command::new("git")
        .args(["config", "--local", "--get", "core.fsyncObjectFiles"])
        .current_dir(game.root())
        .output()
        .unwrap();
    assert!(
        git.stdout.is_empty() && !git.status.success(),
        "the repository's own configuration is left alone, so git does not warn"
    );
}
