//! EDGE: a player's checkout of the default branch, brought forward after
//! the branch moved.
//!
//! The resolver commits to the branch without touching the index or the
//! work tree ([`super::commit`]). A checkout that held the branch's tip
//! before then holds an *earlier* state of it; bringing it forward writes
//! the files the branch changed since, each through a temporary file
//! renamed into place, and then the index. A process killed half-way
//! leaves every file either as the earlier state had it or as the tip has
//! it, with the index still at the earlier state: the same situation as
//! before, so the next run brings it forward again.
//!
//! What is the player's own is never overwritten: a change to a tracked
//! file that no state of the branch had, staged or not, and an untracked
//! (or ignored) file where the branch now has one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{GitError, Repo, read_err, write_err};

/// Where a checkout stands against its branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkTree {
    /// No checkout of the branch here (a bare repository, or another
    /// branch checked out): nothing to bring forward.
    Elsewhere,
    /// It holds the branch's tip (untracked files aside).
    Current,
    /// It holds an earlier state of the branch (or is part-way from one to
    /// the tip): bringing it forward loses nothing, unless files of the
    /// player's stand where the tip has files.
    Behind {
        /// The commit of the branch whose tree the index holds.
        from: String,
        /// The paths the tip changes since then.
        paths: Vec<String>,
        /// Files of the player's (untracked, ignored, or edited) at paths
        /// the tip changes: bringing the checkout forward would overwrite
        /// them.
        in_the_way: Vec<String>,
    },
    /// It holds changes of the player's that no state of the branch had.
    Edited {
        /// The files changed.
        paths: Vec<String>,
        /// Whether some are staged in the index (not only in files).
        staged: bool,
    },
}

/// What [`Repo::bring_forward`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forward {
    /// Nothing to do (not checked out here, or already current).
    Nothing,
    /// Brought forward from commit `from`, writing `files` files.
    Moved {
        /// The commit whose state the checkout held.
        from: String,
        /// How many files were written or removed.
        files: usize,
    },
    /// Left as it is: files of the player's are in the way (see
    /// [`WorkTree::Behind`]), or it holds edits of theirs.
    Refused(WorkTree),
}

/// A file as a tree holds it: its blob and whether it is executable.
type Entry = (git2::Oid, bool);

/// The files that differ between two trees: path → (in the old, in the new).
type Changes = BTreeMap<String, (Option<Entry>, Option<Entry>)>;

impl Repo {
    /// Where the checkout stands against `branch`.
    pub fn work_tree(&self, branch: &str) -> Result<WorkTree, GitError> {
        let Some(root) = self.checkout_of(branch)? else {
            return Ok(WorkTree::Elsewhere);
        };
        let mut index = self.inner.index().map_err(read_err("the index"))?;
        index.read(true).map_err(read_err("the index"))?;
        let tip = self.commit_id(branch)?;
        let tip_tree = self.tree_of_commit(tip)?;
        let changed = self.changed_in_files()?;
        if index.has_conflicts() {
            return Ok(WorkTree::Edited {
                paths: super::commit::conflicted(&index, "the index")?,
                staged: true,
            });
        }
        let held = index
            .write_tree_to(&self.inner)
            .map_err(write_err("the index's tree"))?;
        if held == tip_tree {
            return Ok(if changed.is_empty() {
                WorkTree::Current
            } else {
                WorkTree::Edited {
                    paths: changed,
                    staged: false,
                }
            });
        }
        let Some(from) = self.first_parent_with_tree(tip, held)? else {
            let staged = self.paths_between(held, tip_tree)?.into_keys().collect();
            return Ok(WorkTree::Edited {
                paths: staged,
                staged: true,
            });
        };
        let paths = self.paths_between(held, tip_tree)?;
        let mut edited = Vec::new();
        let mut in_the_way = Vec::new();
        for path in &changed {
            if !paths.contains_key(path) {
                edited.push(path.clone());
            }
        }
        for (path, (old, new)) in &paths {
            let on_disk = read_file(&root.join(path));
            let is = |entry: &Option<Entry>| match (entry, &on_disk) {
                (None, None) => true,
                (Some((id, _)), Some(bytes)) => super::blob_id(bytes) == id_bytes(*id),
                _ => false,
            };
            if is(new) {
                continue;
            }
            if !is(old) {
                // Not the earlier state's file, not the tip's: the player's.
                if old.is_some() {
                    edited.push(path.clone());
                } else {
                    in_the_way.push(path.clone());
                }
            }
        }
        if !edited.is_empty() {
            edited.sort();
            return Ok(WorkTree::Edited {
                paths: edited,
                staged: false,
            });
        }
        Ok(WorkTree::Behind {
            from: from.to_string(),
            paths: paths.into_keys().collect(),
            in_the_way,
        })
    }

    /// Brings a checkout of `branch` that is [`WorkTree::Behind`] up to the
    /// branch's tip, unless something of the player's is in the way.
    pub fn bring_forward(&self, branch: &str) -> Result<Forward, GitError> {
        let state = self.work_tree(branch)?;
        let (from, paths) = match state {
            WorkTree::Elsewhere | WorkTree::Current => return Ok(Forward::Nothing),
            WorkTree::Behind {
                from,
                paths,
                in_the_way,
            } if in_the_way.is_empty() => (from, paths),
            other => return Ok(Forward::Refused(other)),
        };
        let Some(root) = self.checkout_of(branch)? else {
            return Ok(Forward::Nothing);
        };
        let tip_tree = self.tree_of_commit(self.commit_id(branch)?)?;
        let tip_tree = self.inner.find_tree(tip_tree).map_err(read_err(branch))?;
        let mut index = self.inner.index().map_err(read_err("the index"))?;
        for path in &paths {
            let file = root.join(path);
            match tip_tree.get_path(Path::new(path)) {
                Ok(entry) => {
                    let blob = self.inner.find_blob(entry.id()).map_err(read_err(path))?;
                    let executable = entry.filemode() == i32::from(git2::FileMode::BlobExecutable);
                    write_whole(
                        &self.inner.path().join(TMP),
                        &file,
                        blob.content(),
                        executable,
                    )
                    .map_err(|e| io_err(path, &e))?;
                    index
                        .add_path(Path::new(path))
                        .map_err(write_err(format!("the index entry of {path}")))?;
                }
                Err(_) => {
                    remove_with_empty_parents(&root, &file).map_err(|e| io_err(path, &e))?;
                    index
                        .remove_path(Path::new(path))
                        .map_err(write_err(format!("the index entry of {path}")))?;
                }
            }
        }
        index.write().map_err(write_err("the index"))?;
        Ok(Forward::Moved {
            from,
            files: paths.len(),
        })
    }

    /// Of `paths`, those where a checkout of `branch` has a file git does
    /// not track (untracked or ignored): a player's own, which a change of
    /// the branch writing there would overwrite.
    pub fn untracked_at(&self, branch: &str, paths: &[String]) -> Result<Vec<String>, GitError> {
        let Some(root) = self.checkout_of(branch)? else {
            return Ok(Vec::new());
        };
        let mut index = self.inner.index().map_err(read_err("the index"))?;
        index.read(true).map_err(read_err("the index"))?;
        Ok(paths
            .iter()
            .filter(|p| index.get_path(Path::new(p), 0).is_none())
            .filter(|p| root.join(p).symlink_metadata().is_ok())
            .cloned()
            .collect())
    }

    /// Files of the work tree that are not as last committed, and that git
    /// does not ignore: changed, staged, new or deleted.
    pub fn uncommitted_files(&self) -> Result<Vec<String>, GitError> {
        self.uncommitted_under(&[])
    }

    /// [`Repo::uncommitted_files`] under the top-level directories `dirs`
    /// (all of them when `dirs` is empty).
    pub(super) fn uncommitted_under(&self, dirs: &[&str]) -> Result<Vec<String>, GitError> {
        let mut options = git2::StatusOptions::new();
        options
            .include_untracked(true)
            .recurse_untracked_dirs(true)
            .include_ignored(false)
            .renames_head_to_index(false);
        for dir in dirs {
            options.pathspec(format!("{dir}/"));
        }
        let statuses = self
            .inner
            .statuses(Some(&mut options))
            .map_err(read_err("the work tree's status"))?;
        let within = |path: &str| {
            dirs.is_empty() || dirs.contains(&path.split('/').next().unwrap_or_default())
        };
        Ok(statuses
            .iter()
            .filter(|s| !s.status().is_empty() && !s.status().is_ignored())
            .filter_map(|s| s.path().ok().map(str::to_string))
            .filter(|path| within(path))
            .collect())
    }

    /// The root of the work tree, if it has `branch` checked out.
    fn checkout_of(&self, branch: &str) -> Result<Option<PathBuf>, GitError> {
        if self.inner.is_bare() {
            return Ok(None);
        }
        let head = match self.inner.find_reference("HEAD") {
            Ok(head) => head,
            Err(e) if e.code() == git2::ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(read_err("HEAD")(e)),
        };
        let target = head.symbolic_target().map_err(read_err("HEAD"))?;
        if target != Some(format!("refs/heads/{branch}").as_str()) {
            return Ok(None);
        }
        Ok(self.inner.workdir().map(Path::to_path_buf))
    }

    /// Tracked files whose contents differ from the index's.
    fn changed_in_files(&self) -> Result<Vec<String>, GitError> {
        let mut options = git2::StatusOptions::new();
        options
            .show(git2::StatusShow::Workdir)
            .include_untracked(false)
            .include_ignored(false)
            .exclude_submodules(true);
        let statuses = self
            .inner
            .statuses(Some(&mut options))
            .map_err(read_err("the work tree's status"))?;
        let mut paths: Vec<String> = statuses
            .iter()
            .filter(|s| !s.status().is_empty())
            .filter_map(|s| s.path().ok().map(str::to_string))
            .collect();
        paths.sort();
        Ok(paths)
    }

    fn tree_of_commit(&self, commit: git2::Oid) -> Result<git2::Oid, GitError> {
        let commit = self
            .inner
            .find_commit(commit)
            .map_err(read_err("a commit"))?;
        Ok(commit.tree_id())
    }

    /// The newest commit of `tip`'s first-parent history whose tree is `tree`.
    fn first_parent_with_tree(
        &self,
        tip: git2::Oid,
        tree: git2::Oid,
    ) -> Result<Option<git2::Oid>, GitError> {
        let mut at = Some(tip);
        while let Some(id) = at {
            let commit = self.inner.find_commit(id).map_err(read_err("a commit"))?;
            if commit.tree_id() == tree {
                return Ok(Some(id));
            }
            at = commit.parent_id(0).ok();
        }
        Ok(None)
    }

    /// The files that differ between two trees: path → (in `old`, in `new`).
    fn paths_between(&self, old: git2::Oid, new: git2::Oid) -> Result<Changes, GitError> {
        let old = self.inner.find_tree(old).map_err(read_err("a tree"))?;
        let new = self.inner.find_tree(new).map_err(read_err("a tree"))?;
        let diff = self
            .inner
            .diff_tree_to_tree(Some(&old), Some(&new), None)
            .map_err(read_err("a diff"))?;
        let entry = |file: git2::DiffFile<'_>| {
            (!file.id().is_zero()).then(|| {
                let executable = file.mode() == git2::FileMode::BlobExecutable;
                (file.id(), executable)
            })
        };
        Ok(diff
            .deltas()
            .filter_map(|d| {
                let path = d.new_file().path().or_else(|| d.old_file().path())?;
                let path = path.to_string_lossy().into_owned();
                Some((path, (entry(d.old_file()), entry(d.new_file()))))
            })
            .collect())
    }
}

fn id_bytes(id: git2::Oid) -> Option<[u8; 20]> {
    id.as_bytes().try_into().ok()
}

/// A file's bytes; `None` if there is no file there (a directory counts
/// as no file: it is in the way only if git's write would fail on it).
fn read_file(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

fn io_err(path: &str, e: &std::io::Error) -> GitError {
    GitError::WriteFile {
        what: format!("{path} in the work tree"),
        message: e.to_string(),
    }
}

/// Where files for the work tree are written before they are renamed into
/// place: inside the git directory (the same file system), so one a killed
/// process left is never seen among the player's files.
pub(crate) const TMP: &str = "gitnomic-tmp";

/// Writes `bytes` to `path` through a temporary file in `tmp_dir`, renamed
/// into place: a reader (or a kill) sees the old file or the new one.
pub(super) fn write_whole(
    tmp_dir: &Path,
    path: &Path,
    bytes: &[u8],
    executable: bool,
) -> std::io::Result<()> {
    std::fs::create_dir_all(tmp_dir)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = tmp_dir.join("work-tree-file");
    crate::staging::write_synced(&tmp, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = if executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    std::fs::rename(&tmp, path)?;
    crate::staging::sync_dir_of(path)
}

/// Removes `file`, then each parent directory left empty, up to `root`.
pub(super) fn remove_with_empty_parents(root: &Path, file: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(file) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == root || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(())
}
