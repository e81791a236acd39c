//! EDGE: git's own writes made durable. libgit2 flushes a loose object to
//! the disk before naming it, and a moved reference's directory after the
//! move, only when the configuration says `core.fsyncObjectFiles` (git2
//! has no safe call for the process-wide option, and this crate forbids
//! `unsafe`). A command that writes a branch first puts that setting in a
//! file of its own in the git directory, and every handle gitnomic opens
//! reads it at the highest level: so a power cut after a run told the
//! forge what it merged cannot leave the branch pointing at an object the
//! disk never got. The player's `.git/config` is not touched, and git
//! itself never reads the file (a git that did would warn that the setting
//! is deprecated). `docs/recovering.md` says what survives.

use std::path::{Path, PathBuf};

use super::{GitError, read_err};

/// The file, in the git directory, holding the setting.
const FILE: &str = "gitnomic-fsync.config";

/// What the file says.
const SETTING: &str = "[core]\n\tfsyncObjectFiles = true\n";

/// Writes the setting's file into the repository at `path` if it is not
/// there as written. Call before a write's handles are opened; returns
/// whether the file was written now.
pub fn make_durable(path: &Path) -> Result<bool, GitError> {
    let repo = git2::Repository::open(path).map_err(|source| GitError::Open {
        path: path.display().to_string(),
        git: source,
    })?;
    let file = file_in(repo.path());
    if std::fs::read(&file).is_ok_and(|bytes| bytes == SETTING.as_bytes()) {
        return Ok(false);
    }
    // A temporary file of this process's own: two first runs at once each
    // write and rename theirs (one wrote over the other's, half-written).
    let pid = std::process::id();
    let tmp = file.with_extension(format!("config.{pid}.tmp"));
    crate::staging::write_durably(&tmp, &file, SETTING.as_bytes()).map_err(|e| {
        GitError::WriteFile {
            what: file.display().to_string(),
            message: e.to_string(),
        }
    })?;
    crate::staging::remove_abandoned_beside(&file);
    Ok(true)
}

/// Has `repo` read the setting's file, if it is there, above every other
/// level of its configuration. Done when a handle is opened, before it
/// reads an object: libgit2 reads the setting then.
pub(super) fn read_setting(repo: &git2::Repository) -> Result<(), GitError> {
    let file = file_in(repo.path());
    if !file.is_file() {
        return Ok(());
    }
    let what = || format!("the configuration {}", file.display());
    let mut config = repo.config().map_err(read_err(what()))?;
    config
        .add_file(&file, git2::ConfigLevel::App, true)
        .map_err(read_err(what()))?;
    // Setting it again empties the handle's cache of settings.
    repo.set_config(&config).map_err(read_err(what()))
}

fn file_in(git_dir: &Path) -> PathBuf {
    git_dir.join(FILE)
}

#[cfg(test)]
mod tests {
    use super::{make_durable, read_setting};

    #[test]
    fn a_handle_reads_the_setting_once_the_file_is_written() {
        let dir = tempfile::tempdir().unwrap();
        git2::Repository::init(dir.path()).unwrap();
        let on = || {
            let repo = git2::Repository::open(dir.path()).unwrap();
            read_setting(&repo).unwrap();
            let config = repo.config().unwrap().snapshot().unwrap();
            config.get_bool("core.fsyncObjectFiles").unwrap_or(false)
        };
        assert!(!on(), "off until a write asks for it");
        assert!(make_durable(dir.path()).unwrap(), "written");
        assert!(!make_durable(dir.path()).unwrap(), "written once");
        assert!(on());
        let own = git2::Config::open(&dir.path().join(".git/config")).unwrap();
        assert!(
            own.get_entry("core.fsyncObjectFiles").is_err(),
            "the repository's own configuration is left alone"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_killed_runs_temporary_setting_is_removed_and_a_live_ones_kept() {
        let dir = tempfile::tempdir().unwrap();
        git2::Repository::init(dir.path()).unwrap();
        let git = dir.path().join(".git");
        // Above any process id Linux gives; and process 1, always running.
        let killed = git.join("gitnomic-fsync.config.4000000000.tmp");
        let live = git.join("gitnomic-fsync.config.1.tmp");
        std::fs::write(&killed, "half").unwrap();
        std::fs::write(&live, "half").unwrap();
        assert!(make_durable(dir.path()).unwrap());
        assert!(!killed.exists());
        assert!(live.exists());
        let own = git.join(format!("gitnomic-fsync.config.{}.tmp", std::process::id()));
        assert!(!own.exists(), "its own is renamed into place");
    }
}
