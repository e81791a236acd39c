//! A player's uncommitted changes to the game, moved onto a branch of
//! their own: what `play propose` opens a matter from, so a player who
//! does not use git can propose from their work tree and find the base
//! branch clean again.
//!
//! The commit is made first and the work tree restored only after, so
//! at every moment the player's files are in one place or the other.

use std::path::Path;

use super::{GitError, Repo, Stamp, read_err, write_err};

/// What [`Repo::commit_changes_to_branch`] put on the new branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The new commit.
    pub commit: String,
    /// The paths it changed, added or removed, sorted.
    pub paths: Vec<String>,
}

impl Repo {
    /// Commits the work tree's changes under the top-level directories
    /// `dirs` (modified, new and deleted files; ignored ones left out)
    /// onto a new branch `branch` whose parent is `base`'s head, which the
    /// work tree must have checked out. The work tree, the index and
    /// `base` are not touched. `None` when there is nothing to commit.
    pub fn commit_changes_to_branch(
        &self,
        base: &str,
        branch: &str,
        dirs: &[&str],
        message: &str,
        stamp: &Stamp<'_>,
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
            if !workdir.join(&path).is_file() {
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
        let who = git2::Signature::new(
            stamp.name,
            stamp.email,
            &git2::Time::new(stamp.at.unix(), 0),
        )
        .map_err(read_err("the commit signature"))?;
        let commit = repo
            .commit(None, &who, &who, message, &tree, &[&parent])
            .map_err(write_err("the proposed commit"))?;
        let found = repo
            .find_commit(commit)
            .map_err(read_err("the proposed commit"))?;
        repo.branch(branch, &found, false)
            .map_err(write_err(format!("branch {branch}")))?;
        Ok(Some(Moved {
            commit: commit.to_string(),
            paths,
        }))
    }

    /// Deletes the local branch `branch` (one [`Repo::commit_changes_to_branch`]
    /// made, when what it was for failed).
    pub fn delete_branch(&self, branch: &str) -> Result<(), GitError> {
        self.inner
            .find_branch(branch, git2::BranchType::Local)
            .and_then(|mut b| b.delete())
            .map_err(write_err(format!("branch {branch}")))
    }

    /// Puts `paths` of the work tree and the index back as the checked-out
    /// head has them, and removes those the head lacks: after their
    /// changes were committed elsewhere.
    pub fn restore_paths(&self, paths: &[String]) -> Result<(), GitError> {
        let repo = &self.inner;
        let workdir = repo.workdir().ok_or_else(|| GitError::NotOn {
            branch: "a work tree".into(),
        })?;
        let head_tree = repo
            .head()
            .and_then(|h| h.peel_to_tree())
            .map_err(read_err("HEAD"))?;
        let mut checkout = git2::build::CheckoutBuilder::new();
        checkout.force();
        let mut any = false;
        for path in paths {
            if head_tree.get_path(Path::new(path)).is_ok() {
                checkout.path(path);
                any = true;
            } else {
                let file = workdir.join(path);
                if file.exists() {
                    std::fs::remove_file(&file).map_err(|e| GitError::WriteFile {
                        what: path.clone(),
                        message: e.to_string(),
                    })?;
                }
                let mut index = repo.index().map_err(read_err("the index"))?;
                if index.get_path(Path::new(path), 0).is_some() {
                    index
                        .remove_path(Path::new(path))
                        .map_err(write_err("the index"))?;
                    index.write().map_err(write_err("the index"))?;
                }
            }
        }
        if any {
            repo.checkout_head(Some(&mut checkout))
                .map_err(write_err("the work tree"))?;
        }
        Ok(())
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
