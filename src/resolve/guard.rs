//! One writing run at a time, and what a killed one left behind.
//!
//! A resolve run that writes holds `.git/gitnomic-run.lock`, naming its
//! process. A run that finds the file names a run still going (and stops),
//! or one whose process is gone: that run was killed, and the lock files
//! git was holding for it when it died (`refs/heads/main.lock`,
//! `index.lock`, ...) and the temporary files of the local forge are its
//! leftovers, made while it ran. They are removed, and named, before
//! anything else is done. A lock file no gitnomic run can account for is
//! never removed: it is named, with the safe way out.

use std::path::{Path, PathBuf};

/// The file a writing run holds.
const RUN_LOCK: &str = "gitnomic-run.lock";

/// The run lock, held until dropped.
#[derive(Debug)]
pub(crate) struct Guard {
    path: PathBuf,
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Why a run may not write now.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Busy {
    /// Another gitnomic run is writing to the repository.
    #[error(
        "another gitnomic run (process {pid}) is writing to this repository; wait for it to end (if no gitnomic is running, remove {})",
        .lock.display()
    )]
    Running { pid: u32, lock: PathBuf },
    /// Lock files of git's that no killed gitnomic run left.
    #[error(
        "{}: another git process is writing to the repository, or one was killed while it did; if no git command is running, remove {} and run again",
        names(.0),
        if .0.len() == 1 { "it" } else { "them" }
    )]
    Locked(Vec<PathBuf>),
    /// Something not gitnomic's where it keeps its run lock or its
    /// temporary files.
    #[error(
        "{} is in the way: gitnomic keeps its run lock and its temporary files under names of its own; move it away and run again",
        .0.display()
    )]
    InTheWay(PathBuf),
    /// The lock could not be made or read.
    #[error("the run lock {}: {why}", .path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        why: String,
    },
}

fn names(paths: &[PathBuf]) -> String {
    format!(
        "{} {}",
        listed(paths),
        if paths.len() == 1 { "exists" } else { "exist" }
    )
}

fn listed(paths: &[PathBuf]) -> String {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    names.join(", ")
}

/// A writing run's lock, and what it cleared to take it.
#[derive(Debug)]
pub(crate) struct Taken {
    /// Held until the run ends.
    pub(crate) guard: Guard,
    /// The process of a killed run found holding the lock, and the files it
    /// left, now removed.
    pub(crate) cleared: Option<(u32, Vec<PathBuf>)>,
}

/// Takes the run lock of the git directory `git_dir`, clearing what a
/// killed run left. Fails if a run is going, or if lock files of git's
/// that no killed run accounts for are in the way.
pub(crate) fn take(git_dir: &Path) -> Result<Taken, Busy> {
    let lock = git_dir.join(RUN_LOCK);
    let io = |e: std::io::Error| Busy::Io {
        path: lock.clone(),
        why: e.to_string(),
    };
    // What is in the way is named before anything is cleared or done (a
    // killed run's leftovers are looked for in the temporary directory;
    // found when the checkout is brought forward, a file there stopped a
    // run whose matters were already merged).
    if let Some(way) = in_the_way(git_dir) {
        return Err(Busy::InTheWay(way));
    }
    let pid = std::process::id();
    let mine = git_dir.join(format!("{RUN_LOCK}.{pid}"));
    crate::staging::write_synced(&mine, format!("{pid}\n").as_bytes()).map_err(io)?;
    let mut cleared = None;
    let taken = loop {
        match std::fs::hard_link(&mine, &lock) {
            Ok(()) => break crate::staging::sync_dir_of(&lock).map_err(io),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => break Err(io(e)),
        }
        if let Some(way) = in_the_way(git_dir) {
            break Err(Busy::InTheWay(way));
        }
        match holder(&lock) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {} // gone: again
            Err(e) => break Err(io(e)),
            Ok(Holder::Alive(pid)) => {
                break Err(Busy::Running {
                    pid,
                    lock: lock.clone(),
                });
            }
            Ok(Holder::Gone(dead)) => match take_killed(git_dir, &mine, dead) {
                Ok(Some(left)) => {
                    cleared = Some((dead, left));
                    break Ok(());
                }
                Ok(None) => {}
                Err(e) => break Err(io(e)),
            },
        }
    };
    let _ = std::fs::remove_file(&mine);
    taken?;
    let guard = Guard { path: lock };
    // A run killed while it wrote its own file never held the lock: the
    // file is all it left.
    for (dead, path) in unheld(git_dir) {
        match &mut cleared {
            Some((_, files)) => files.push(path),
            None => cleared = Some((dead, vec![path])),
        }
    }
    let foreign = git_locks(git_dir);
    if !foreign.is_empty() {
        return Err(Busy::Locked(foreign));
    }
    Ok(Taken { guard, cleared })
}

/// Takes the lock of the killed run `dead` over, with `mine` (this run's
/// lock file), clearing what that run left, one run at a time: under an
/// advisory lock on the git directory, which the system lets go when its
/// holder ends however it ends, the lock is read again and taken only
/// if it is still that run's. Runs that found it at once each removed it
/// by name without this, and so at times the lock another run had just
/// taken: two runs then wrote together. What the killed run left is
/// cleared while its lock still stands, so no run can be writing, and
/// `mine` replaces it in one step. Gives the files removed, or `None` when
/// the lock changed meanwhile (taken over, or taken).
fn take_killed(git_dir: &Path, mine: &Path, dead: u32) -> std::io::Result<Option<Vec<PathBuf>>> {
    let lock = &git_dir.join(RUN_LOCK);
    let _breaking = hold_exclusive(git_dir)?;
    match holder(lock) {
        Ok(Holder::Gone(pid)) if pid == dead => {}
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        _ => return Ok(None),
    }
    let left = leftovers(git_dir, modified(lock));
    for path in &left {
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::remove_file(git_dir.join(format!("{RUN_LOCK}.{dead}")));
    std::fs::rename(mine, lock)?;
    crate::staging::sync_dir_of(lock)?;
    Ok(Some(left))
}

/// The directory `dir`, held under an exclusive advisory lock until the
/// handle returned is dropped, or the process ends. A directory, not a
/// file of its own: it is there already and never removed (a lock file
/// removed while another process waits for its lock would let a third
/// take a new one beside it), and it leaves nothing behind. Where the
/// system has no such locks, it is only opened.
fn hold_exclusive(dir: &Path) -> std::io::Result<std::fs::File> {
    let handle = std::fs::File::open(dir)?;
    #[cfg(unix)]
    rustix::fs::flock(&handle, rustix::fs::FlockOperation::LockExclusive)?;
    Ok(handle)
}

/// What is in the way of a run where gitnomic keeps its files: anything
/// but a plain file where the run lock goes, or anything but a directory
/// where its temporary files go. Found before a run clears or writes
/// anything.
fn in_the_way(git_dir: &Path) -> Option<PathBuf> {
    let lock = git_dir.join(RUN_LOCK);
    let tmp = git_dir.join(crate::git::TMP_DIR);
    if lock.symlink_metadata().is_ok_and(|m| !m.is_file()) {
        Some(lock)
    } else if tmp.symlink_metadata().is_ok_and(|m| !m.is_dir()) {
        Some(tmp)
    } else {
        None
    }
}

/// The files `gitnomic-run.lock.PID` of runs no longer running, which a
/// run killed before it took the lock leaves (removed here).
fn unheld(git_dir: &Path) -> Vec<(u32, PathBuf)> {
    let prefix = format!("{RUN_LOCK}.");
    let mut out: Vec<(u32, PathBuf)> = std::fs::read_dir(git_dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let pid: u32 = name.strip_prefix(&prefix)?.parse().ok()?;
            (pid != std::process::id() && !running(pid)).then(|| (pid, e.path()))
        })
        .filter(|(_, path)| std::fs::remove_file(path).is_ok())
        .collect();
    out.sort();
    out
}

/// What a run that is not to write (a dry run) should say about the
/// repository: a run going, a killed one's leftovers, or foreign locks.
pub(crate) fn inspect(git_dir: &Path) -> Option<String> {
    if let Some(way) = in_the_way(git_dir) {
        return Some(Busy::InTheWay(way).to_string());
    }
    let lock = git_dir.join(RUN_LOCK);
    if lock.exists() {
        return Some(match holder(&lock) {
            Err(e) => Busy::Io {
                path: lock.clone(),
                why: e.to_string(),
            }
            .to_string(),
            Ok(Holder::Alive(pid)) => format!("another gitnomic run (process {pid}) is writing"),
            Ok(Holder::Gone(pid)) => {
                let left = leftovers(git_dir, modified(&lock));
                format!(
                    "a gitnomic run (process {pid}) was killed here; a real run first removes {}",
                    if left.is_empty() {
                        "its lock".to_string()
                    } else {
                        listed(&left)
                    }
                )
            }
        });
    }
    let foreign = git_locks(git_dir);
    (!foreign.is_empty()).then(|| Busy::Locked(foreign).to_string())
}

enum Holder {
    Alive(u32),
    Gone(u32),
}

/// Who holds the lock: a process still running, or one gone. A lock that
/// names no process was made by a run killed before it could write it.
/// A lock that cannot be read (gone meanwhile, or not readable by this
/// user) is not taken for a killed run's.
fn holder(lock: &Path) -> std::io::Result<Holder> {
    let bytes = std::fs::read(lock)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(match text.trim().parse::<u32>() {
        Ok(pid) if running(pid) => Holder::Alive(pid),
        Ok(pid) => Holder::Gone(pid),
        Err(_) => Holder::Gone(0),
    })
}

/// Whether process `pid` is a gitnomic still running. Where the system
/// cannot say (no `/proc`), it is taken to be running: a lock is never
/// broken on a guess.
fn running(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return true;
    }
    match std::fs::read_to_string(proc.join(pid.to_string()).join("stat")) {
        Ok(stat) => alive_gitnomic(&stat),
        Err(_) => false,
    }
}

/// Whether a `/proc/PID/stat` line is a gitnomic that is not dead. A
/// killed process whose parent has not reaped it (in a container whose
/// first process reaps nothing, say) stays a zombie, `Z`, under its
/// name: it runs no more.
fn alive_gitnomic(stat: &str) -> bool {
    let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
        return false;
    };
    let name = &stat[open + 1..close];
    let state = stat[close + 1..].trim_start().chars().next();
    name == "gitnomic" && !matches!(state, Some('Z' | 'X' | 'x'))
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// What a run killed after `since` (its lock's time) left: git's lock
/// files made since, and the local forge's and the work tree's temporary
/// files.
fn leftovers(git_dir: &Path, since: Option<std::time::SystemTime>) -> Vec<PathBuf> {
    let made_since = |path: &Path| match (since, modified(path)) {
        (Some(since), Some(at)) => at >= since,
        _ => false,
    };
    let mut left: Vec<PathBuf> = git_locks(git_dir)
        .into_iter()
        .filter(|p| made_since(p))
        .collect();
    for dir in ["gitnomic-forge", crate::git::TMP_DIR] {
        left.extend(
            walkdir::WalkDir::new(git_dir.join(dir))
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file())
                .map(walkdir::DirEntry::into_path)
                .filter(|p| {
                    dir == crate::git::TMP_DIR || p.extension().is_some_and(|e| e == "tmp")
                }),
        );
    }
    left.sort();
    left
}

/// Git's lock files in the git directory: its own files (`index.lock`,
/// `HEAD.lock`, `packed-refs.lock`, ...) and those of references and
/// their logs.
fn git_locks(git_dir: &Path) -> Vec<PathBuf> {
    let is_lock = |p: &Path| p.extension().is_some_and(|e| e == "lock");
    let mut locks: Vec<PathBuf> = std::fs::read_dir(git_dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_lock(p) && !p.ends_with(RUN_LOCK))
        .collect();
    for dir in ["refs", "logs"] {
        locks.extend(
            walkdir::WalkDir::new(git_dir.join(dir))
                .into_iter()
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_file() && is_lock(e.path()))
                .map(walkdir::DirEntry::into_path),
        );
    }
    locks.sort();
    locks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("refs/heads")).unwrap();
        dir
    }

    #[test]
    fn a_run_takes_the_lock_and_gives_it_back() {
        let dir = git_dir();
        let taken = take(dir.path()).unwrap();
        assert!(taken.cleared.is_none());
        assert!(dir.path().join(RUN_LOCK).exists());
        drop(taken);
        assert!(!dir.path().join(RUN_LOCK).exists());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "only refs/ is left: {names:?}");
    }

    #[test]
    fn a_run_killed_before_it_held_the_lock_leaves_nothing_behind() {
        let dir = git_dir();
        let orphan = dir.path().join(format!("{RUN_LOCK}.4000000000"));
        std::fs::write(&orphan, "4000000000\n").unwrap();
        let taken = take(dir.path()).unwrap();
        assert!(!orphan.exists());
        assert_eq!(
            taken.cleared,
            Some((4_000_000_000, vec![orphan])),
            "named as removed"
        );
    }

    #[test]
    fn a_zombie_gitnomic_is_gone_and_a_sleeping_one_runs() {
        assert!(alive_gitnomic("4242 (gitnomic) S 1 4242 7 0 -1"));
        assert!(alive_gitnomic("4242 (gitnomic) R 1 4242 7 0 -1"));
        // Killed, not yet reaped: the name stays, the process is dead.
        assert!(!alive_gitnomic("4242 (gitnomic) Z 1 4242 7 0 -1"));
        assert!(!alive_gitnomic("4242 (gitnomic) X 1 4242 7 0 -1"));
        // Another program, even one whose name holds a parenthesis.
        assert!(!alive_gitnomic("4242 (git) S 1 4242 7 0 -1"));
        assert!(!alive_gitnomic("4242 (gitnomic) x) S 1 4242 7 0 -1"));
        assert!(!alive_gitnomic(""));
    }

    #[test]
    fn a_lock_naming_a_process_that_is_no_gitnomic_is_a_killed_runs() {
        let dir = git_dir();
        // Process 1 runs, but it is not gitnomic (a pid used again).
        std::fs::write(dir.path().join(RUN_LOCK), "1\n").unwrap();
        let taken = take(dir.path()).unwrap();
        assert_eq!(taken.cleared.as_ref().map(|c| c.0), Some(1));
        // A lock that names no process was made by a run killed at once.
        drop(taken);
        std::fs::write(dir.path().join(RUN_LOCK), "").unwrap();
        let taken = take(dir.path()).unwrap();
        assert_eq!(taken.cleared.as_ref().map(|c| c.0), Some(0));
    }

    #[test]
    fn a_killed_runs_git_locks_are_cleared_and_a_foreign_one_is_named() {
        let dir = git_dir();
        std::fs::write(dir.path().join(RUN_LOCK), "4000000000\n").unwrap();
        let ours = dir.path().join("refs/heads/main.lock");
        std::fs::write(&ours, "").unwrap();
        // A lock an hour older than the killed run's is not its.
        let foreign = dir.path().join("index.lock");
        let before =
            modified(&dir.path().join(RUN_LOCK)).unwrap() - std::time::Duration::from_secs(3600);
        std::fs::File::create(&foreign)
            .unwrap()
            .set_modified(before)
            .unwrap();
        let err = take(dir.path()).unwrap_err();
        assert!(!ours.exists(), "the killed run's lock is removed");
        assert!(foreign.exists(), "a lock no killed run made is kept");
        let text = err.to_string();
        assert!(text.contains("index.lock exists"), "{text}");
        assert!(text.contains("remove it and run again"), "{text}");
        assert!(
            !dir.path().join(RUN_LOCK).exists(),
            "the lock is given back"
        );
    }
}
