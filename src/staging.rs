//! A directory of new files built beside where it goes and renamed into
//! place once whole: what `new`, `import ruleset` and `demo` write. A
//! failure, or a kill, never leaves half a game among the player's files:
//! at worst a hidden `.NAME.gitnomic-WHAT-PID` directory beside it, which
//! the command's next run removes.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

/// A directory beside the target, removed unless it is put in place.
#[derive(Debug)]
pub(crate) struct Staging {
    dir: PathBuf,
}

impl Staging {
    /// A fresh directory in `target`'s parent, so that every rename into
    /// place stays on one file system. `what` names the command in the
    /// directory's name. An existing `target` (`.`, say) is resolved first,
    /// so the staging directory is beside it, never inside.
    pub(crate) fn beside(target: &Path, what: &str) -> anyhow::Result<Staging> {
        let dir = name_beside(target, what)?;
        std::fs::create_dir(&dir).with_context(|| format!("creating {}", dir.display()))?;
        Ok(Staging { dir })
    }

    /// The staging directory, for what writes more than files into it (a
    /// git repository).
    pub(crate) fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes one file at `path` (relative, `/`-separated), runnable if
    /// `executable`.
    pub(crate) fn write(&self, path: &str, bytes: &[u8], executable: bool) -> anyhow::Result<()> {
        let file = self.dir.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&file, bytes).with_context(|| format!("writing {}", file.display()))?;
        #[cfg(unix)]
        if executable {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755))
                .with_context(|| format!("making {} runnable", file.display()))?;
        }
        #[cfg(not(unix))]
        let _ = executable;
        Ok(())
    }

    /// Renames the staging directory to `target`; into an existing, empty
    /// `target` (which may be the current directory) its entries are
    /// renamed one by one, so the directory itself stays.
    pub(crate) fn into_place(self, target: &Path) -> anyhow::Result<()> {
        if !target.exists() {
            return rename(&self.dir, target);
        }
        if std::fs::read_dir(target)?.next().is_some() {
            bail!("{} is no longer empty: left it alone", target.display());
        }
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            rename(&entry.path(), &target.join(entry.file_name()))?;
        }
        Ok(())
    }

    /// Puts the staged `path` (a file or a directory) at `target/path`,
    /// in place of one already there, which is then removed with the
    /// staging directory. On Linux the two are exchanged in one step, so a
    /// kill leaves the old one or the new one in place, never neither.
    pub(crate) fn replace(&self, path: &str, target: &Path) -> anyhow::Result<()> {
        let to = target.join(path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let from = self.dir.join(path);
        if !to.exists() {
            return rename(&from, &to);
        }
        exchange(&from, &to)
    }
}

/// Swaps `a` and `b` in one step (both must exist).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> anyhow::Result<()> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)
        .with_context(|| format!("exchanging {} with {}", a.display(), b.display()))
}

/// Swaps `a` and `b` where no one-step exchange is at hand: `b` set aside
/// beside `a` first, put back if `a` cannot take its place. A kill between
/// the two renames leaves `b` in the staging directory, which only Linux
/// removes when abandoned: it stays there to be recovered by hand.
#[cfg(not(target_os = "linux"))]
fn exchange(a: &Path, b: &Path) -> anyhow::Result<()> {
    let mut aside = a.as_os_str().to_owned();
    aside.push(".replaced");
    let aside = PathBuf::from(aside);
    rename(b, &aside)?;
    if let Err(e) = rename(a, b) {
        rename(&aside, b)?;
        return Err(e);
    }
    rename(&aside, a)
}

/// Removes the temporary files beside `file` that processes killed
/// while writing it left behind (`FILE.PID.tmp`).
pub(crate) fn remove_abandoned_beside(file: &Path) {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    for path in abandoned(dir, &format!("{name}."), ".tmp") {
        let _ = std::fs::remove_file(path);
    }
}

/// Removes the directory `dir` whole: renamed aside first, then deleted,
/// so a run killed while deleting leaves `dir` gone, not half of it (and
/// what it set aside is removed by the next run).
pub(crate) fn remove_whole(dir: &Path) -> anyhow::Result<()> {
    let aside = name_beside(dir, "removed")?;
    rename(dir, &aside)?;
    std::fs::remove_dir_all(&aside).with_context(|| format!("removing {}", aside.display()))
}

/// The path `.NAME.gitnomic-WHAT-PID` beside `target` (resolved first if
/// it exists), having removed those that killed runs left there.
fn name_beside(target: &Path, what: &str) -> anyhow::Result<PathBuf> {
    let target = if target.exists() {
        target
            .canonicalize()
            .with_context(|| format!("resolving {}", target.display()))?
    } else {
        target.to_path_buf()
    };
    let name = target
        .file_name()
        .with_context(|| format!("{} names no directory", target.display()))?;
    let parent = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).with_context(|| format!("creating {}", parent.display()))?;
    let prefix = format!(".{}.gitnomic-{what}-", name.to_string_lossy());
    // The staging directories killed runs left.
    for dir in abandoned(&parent, &prefix, "") {
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(parent.join(format!("{prefix}{}", std::process::id())))
}

impl Drop for Staging {
    /// Removes what is left of the staging directory: all of it after a
    /// failure, nothing (it was renamed) or an empty directory after success.
    fn drop(&mut self) {
        if self.dir.exists() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// What killed runs left in `parent`: the entries named `prefix`, the id
/// of a process that runs no more, and `suffix`.
fn abandoned(parent: &Path, prefix: &str, suffix: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            name.to_str()
                .and_then(|n| n.strip_prefix(prefix)?.strip_suffix(suffix))
                .is_some_and(process_gone)
        })
        .map(|entry| entry.path())
        .collect()
}

/// Whether `pid`, a process id a run wrote into a file's name, names no
/// running process, so that what the run left is abandoned. Only Linux can
/// tell (through /proc); elsewhere nothing is called abandoned, and what a
/// killed run left stays until removed by hand.
#[cfg(target_os = "linux")]
pub(crate) fn process_gone(pid: &str) -> bool {
    !pid.is_empty()
        && pid.bytes().all(|b| b.is_ascii_digit())
        && !Path::new("/proc").join(pid).exists()
}

/// Elsewhere no process can be told running or not.
#[cfg(not(target_os = "linux"))]
pub(crate) fn process_gone(_: &str) -> bool {
    false
}

/// Writes `bytes` to `path` through the temporary file `tmp` (on the same
/// file system), so that a kill or a power cut leaves the old file or the
/// new one, whole: the new file reaches the disk before it is renamed into
/// place, and the directory's entry after. `docs/recovering.md` says what
/// survives a machine switched off.
pub(crate) fn write_durably(tmp: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_synced(tmp, bytes)?;
    std::fs::rename(tmp, path)?;
    sync_dir_of(path)
}

/// Writes `bytes` to a new file `path` and flushes it to the disk.
pub(crate) fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Flushes the directory holding `path` to the disk, so that an entry
/// made or renamed in it survives a power cut.
pub(crate) fn sync_dir_of(path: &Path) -> std::io::Result<()> {
    match path.parent() {
        // A directory can be opened and synced on Unix; elsewhere the
        // rename's own guarantees are all there is.
        Some(dir) if cfg!(unix) => {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            std::fs::File::open(dir)?.sync_all()
        }
        _ => Ok(()),
    }
}

fn rename(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::rename(from, to)
        .with_context(|| format!("moving {} to {}", from.display(), to.display()))
}

#[cfg(test)]
mod tests {
    use super::Staging;

    #[test]
    fn a_new_directory_appears_whole_and_nothing_is_left_beside_it() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        let staging = Staging::beside(&target, "test").unwrap();
        staging.write("rules/one.md", b"one", false).unwrap();
        assert!(!target.exists(), "nothing is in place before it is whole");
        staging.into_place(&target).unwrap();
        assert_eq!(std::fs::read(target.join("rules/one.md")).unwrap(), b"one");
        let left: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "only the game is left: {left:?}");
    }

    #[test]
    fn a_failure_leaves_no_trace() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        {
            let staging = Staging::beside(&target, "test").unwrap();
            staging.write("a.txt", b"a", false).unwrap();
            // Dropped without being put in place, as after an error.
        }
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn what_a_killed_run_left_is_removed_and_a_running_ones_kept() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        // No process has an id this high (the kernel's limit is 2^22).
        let dead = root.path().join(".game.gitnomic-test-99999999");
        // Process 1 always runs.
        let running = root.path().join(".game.gitnomic-test-1");
        let other = root.path().join(".game.gitnomic-other-99999999");
        for dir in [&dead, &running, &other] {
            std::fs::create_dir_all(dir.join("rules")).unwrap();
        }
        let staging = Staging::beside(&target, "test").unwrap();
        assert!(!dead.exists(), "a dead run's directory is removed");
        assert!(running.exists(), "a running one's is left to it");
        assert!(
            other.exists(),
            "another command's is not this one's to remove"
        );
        assert!(staging.path().exists());
    }

    #[test]
    fn removing_leaves_nothing_beside() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        std::fs::create_dir_all(target.join("rules")).unwrap();
        std::fs::write(target.join("rules/a.md"), b"a").unwrap();
        super::remove_whole(&target).unwrap();
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }

    #[test]
    fn an_existing_empty_directory_is_filled_and_kept() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        std::fs::create_dir(&target).unwrap();
        let staging = Staging::beside(&target, "test").unwrap();
        assert_eq!(
            staging.path().parent(),
            Some(root.path().canonicalize().unwrap().as_path())
        );
        staging.write("a.txt", b"a", false).unwrap();
        staging.into_place(&target).unwrap();
        assert_eq!(std::fs::read(target.join("a.txt")).unwrap(), b"a");
    }

    #[test]
    fn a_directory_filled_meanwhile_is_left_alone() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        std::fs::create_dir(&target).unwrap();
        let staging = Staging::beside(&target, "test").unwrap();
        staging.write("a.txt", b"new", false).unwrap();
        std::fs::write(target.join("a.txt"), b"theirs").unwrap();
        assert!(staging.into_place(&target).is_err());
        assert_eq!(std::fs::read(target.join("a.txt")).unwrap(), b"theirs");
    }

    #[test]
    fn replacing_swaps_one_entry_and_keeps_the_rest() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        std::fs::create_dir_all(target.join("rules")).unwrap();
        std::fs::write(target.join("rules/old.md"), b"old").unwrap();
        std::fs::write(target.join("mine.txt"), b"mine").unwrap();
        let staging = Staging::beside(&target, "test").unwrap();
        staging.write("rules/new.md", b"new", false).unwrap();
        staging.write("state/game.toml", b"g", false).unwrap();
        staging.replace("rules", &target).unwrap();
        staging.replace("state/game.toml", &target).unwrap();
        assert!(!target.join("rules/old.md").exists());
        assert_eq!(std::fs::read(target.join("rules/new.md")).unwrap(), b"new");
        assert_eq!(std::fs::read(target.join("state/game.toml")).unwrap(), b"g");
        assert_eq!(std::fs::read(target.join("mine.txt")).unwrap(), b"mine");
    }

    #[test]
    fn a_replacement_that_cannot_go_in_puts_the_old_one_back() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("game");
        std::fs::create_dir_all(target.join("rules")).unwrap();
        std::fs::write(target.join("rules/old.md"), b"old").unwrap();
        let staging = Staging::beside(&target, "test").unwrap();
        // Nothing staged under `rules`: the rename in fails.
        assert!(staging.replace("rules", &target).is_err());
        assert_eq!(std::fs::read(target.join("rules/old.md")).unwrap(), b"old");
    }
}
