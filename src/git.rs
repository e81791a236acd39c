//! EDGE: reading a game from a git repository without a checkout.
//!
//! A thin wrapper over git2 with the few operations gitnomic needs, so the
//! rest of the crate never sees a `git2` type.

use std::path::Path;

/// A git repository on disk.
pub struct Repo {
    inner: git2::Repository,
}

/// Something git could not do, with what was being attempted.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The repository could not be opened.
    #[error("cannot open a git repository at {path}: {source}")]
    Open {
        /// Where we looked.
        path: String,
        /// What git said.
        source: git2::Error,
    },
    /// The revision does not name a commit.
    #[error("`{rev}` does not name a commit: {source}")]
    Revision {
        /// The revision asked for.
        rev: String,
        /// What git said.
        source: git2::Error,
    },
    /// Reading objects failed.
    #[error("reading {what}: {source}")]
    Read {
        /// What was being read.
        what: String,
        /// What git said.
        source: git2::Error,
    },
}

impl Repo {
    /// Opens the repository at `path` (its work tree or its `.git`).
    pub fn open(path: &Path) -> Result<Self, GitError> {
        git2::Repository::open(path)
            .map(|inner| Repo { inner })
            .map_err(|source| GitError::Open {
                path: path.display().to_string(),
                source,
            })
    }

    /// Every file (path, bytes) under the top-level directories `dirs` in
    /// the tree of revision `rev` (a branch, tag, SHA or `HEAD~2`), read
    /// from the object database, sorted by path.
    pub fn files_at(&self, rev: &str, dirs: &[&str]) -> Result<Vec<(String, Vec<u8>)>, GitError> {
        let tree = self
            .inner
            .revparse_single(rev)
            .and_then(|object| object.peel_to_tree())
            .map_err(|source| GitError::Revision {
                rev: rev.to_string(),
                source,
            })?;
        let mut files = Vec::new();
        let mut failure = None;
        tree.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
            let top = parent.split('/').next().unwrap_or_default();
            if parent.is_empty() {
                let name = entry.name().unwrap_or_default();
                return if dirs.contains(&name) {
                    git2::TreeWalkResult::Ok
                } else {
                    git2::TreeWalkResult::Skip
                };
            }
            if !dirs.contains(&top) || entry.kind() != Some(git2::ObjectType::Blob) {
                return git2::TreeWalkResult::Ok;
            }
            let path = format!("{parent}{}", entry.name().unwrap_or_default());
            match self.inner.find_blob(entry.id()) {
                Ok(blob) => files.push((path, blob.content().to_vec())),
                Err(source) => {
                    failure = Some(GitError::Read { what: path, source });
                    return git2::TreeWalkResult::Abort;
                }
            }
            git2::TreeWalkResult::Ok
        })
        .map_err(|source| GitError::Read {
            what: format!("the tree of {rev}"),
            source,
        })?;
        match failure {
            Some(e) => Err(e),
            None => {
                files.sort();
                Ok(files)
            }
        }
    }
}
