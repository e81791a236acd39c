//! A player's uncommitted changes to the game, moved onto a branch of
//! their own: what `play propose` opens a matter from, so a player who
//! does not use git can propose from their work tree and find the base
//! branch clean again.
//!
//! The commit is made first and the work tree restored only after, so
//! at every moment the player's files are in one place or the other. A
//! file is restored whole (written beside and renamed into place), so a
//! kill leaves it as the player had it or as the base branch has it,
//! never half of either; a file that is neither was changed by the player
//! since, and is never restored over.

use std::path::Path;

use super::{GitError, Repo, Signature, read_err, write_err};

/// What [`Repo::commit_changes`] committed, for a new branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The new commit.
    pub commit: String,
    /// The paths it changed, added or removed, sorted.
    pub paths: Vec<String>,
}

impl Repo {
    /// Commits the work tree's changes under the top-level directories
    /// `dirs` (modified, new and deleted files; ignored ones left out) as
    /// a commit whose parent is `base`'s head, which the work tree must
    /// have checked out. No reference points at it yet; the work tree, the
    /// index and `base` are not touched. `None` when there is nothing to
    /// commit.
    pub fn commit_changes(
        &self,
        base: &str,
        dirs: &[&str],
        message: &str,
        signature: &Signature<'_>,
    ) -> Result<Option<Moved>, GitError> {
        let repo = &self.inner;
        let head = repo.head().map_err(read_err("HEAD"))?;
        if repo.is_bare() || head.shorthand().ok() != Some(base) {
            return Err(GitError::NotOn {
                branch: base.to_string(),
            });
        }
        let parent = head.peel_to_commit().map_err(read_err(base))?;
        let workdir = repo.workdir().ok_or(GitError::NotOn {
            branch: base.to_string(),
        })?;
        let mut update = git2::build::TreeUpdateBuilder::new();
        let mut paths = Vec::new();
        for path in self.uncommitted_under(dirs)? {
            let file = workdir.join(&path).symlink_metadata();
            if file.as_ref().is_ok_and(|m| !m.is_file()) {
                return Err(GitError::NotPlain(path));
            }
            if file.is_err() {
                update.remove(&path);
            } else {
                let file = workdir.join(&path);
                let id = repo.blob_path(&file).map_err(read_err(path.clone()))?;
                update.upsert(&path, id, mode_of(&file));
            }
            paths.push(path);
        }
        if paths.is_empty() {
            return Ok(None);
        }
        paths.sort();
        let base_tree = parent.tree().map_err(read_err(base))?;
        let tree_id = update
            .create_updated(repo, &base_tree)
            .map_err(read_err("the proposed tree"))?;
        let tree = repo.find_tree(tree_id).map_err(read_err("a tree"))?;
        let who = signature.to_git()?;
        let commit = repo
            .commit(None, &who, &who, message, &tree, &[&parent])
            .map_err(write_err("the proposed commit"))?;
        Ok(Some(Moved {
            commit: commit.to_string(),
            paths,
        }))
    }

    /// Deletes the local branch `branch` (one made for the commit of
    /// [`Repo::commit_changes`], when what it was for failed).
    pub fn delete_branch(&self, branch: &str) -> Result<(), GitError> {
        self.inner
            .find_branch(branch, git2::BranchType::Local)
            .and_then(|mut b| b.delete())
            .map_err(write_err(format!("branch {branch}")))
    }

    /// Puts `paths` of the work tree and the index back as the checked-out
    /// head has them, and removes those the head lacks: after their
    /// changes were committed as `commit`. Only a file still as `commit`
    /// has it (or already as the head has it) is touched; the paths of
    /// files changed since are returned, left as they are.
    pub fn restore_paths(&self, paths: &[String], commit: &str) -> Result<Vec<String>, GitError> {
        let repo = &self.inner;
        let workdir = repo
            .workdir()
            .ok_or_else(|| GitError::NotOn {
                branch: "a work tree".into(),
            })?
            .to_path_buf();
        let head_tree = repo
            .head()
            .and_then(|h| h.peel_to_tree())
            .map_err(read_err("HEAD"))?;
        let proposed = repo
            .find_commit(self.commit_id(commit)?)
            .and_then(|c| c.tree())
            .map_err(read_err("the proposed commit"))?;
        let blob_at = |tree: &git2::Tree<'_>, path: &str| -> Result<_, GitError> {
            match tree.get_path(Path::new(path)) {
                Ok(entry) => {
                    let blob = repo.find_blob(entry.id()).map_err(read_err(path))?;
                    let executable = entry.filemode() == i32::from(git2::FileMode::BlobExecutable);
                    Ok(Some((blob.content().to_vec(), executable)))
                }
                Err(_) => Ok(None),
            }
        };
        let mut index = repo.index().map_err(read_err("the index"))?;
        let mut left = Vec::new();
        for path in paths {
            let file = workdir.join(path);
            let now = std::fs::read(&file).ok();
            let head = blob_at(&head_tree, path)?;
            let head_bytes = head.as_ref().map(|(b, _)| b);
            if now.as_ref() != head_bytes {
                let theirs = blob_at(&proposed, path)?;
                if now.as_ref() != theirs.as_ref().map(|(b, _)| b) {
                    left.push(path.clone());
                    continue;
                }
                match &head {
                    Some((bytes, executable)) => super::worktree::write_whole(
                        &repo.path().join(super::worktree::TMP),
                        &file,
                        bytes,
                        *executable,
                    ),
                    None => super::worktree::remove_with_empty_parents(&workdir, &file),
                }
                .map_err(|e| GitError::WriteFile {
                    what: format!("{path} in the work tree"),
                    message: e.to_string(),
                })?;
            }
            if head.is_some() {
                index
                    .add_path(Path::new(path))
                    .map_err(write_err(format!("the index entry of {path}")))?;
            } else if index.get_path(Path::new(path), 0).is_some() {
                index
                    .remove_path(Path::new(path))
                    .map_err(write_err(format!("the index entry of {path}")))?;
            }
        }
        index.write().map_err(write_err("the index"))?;
        Ok(left)
    }
}

/// A file's mode in a tree: executable or not.
fn mode_of(file: &Path) -> git2::FileMode {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if std::fs::metadata(file).is_ok_and(|m| m.permissions().mode() & 0o111 != 0) {
            return git2::FileMode::BlobExecutable;
        }
    }
    git2::FileMode::Blob
}
