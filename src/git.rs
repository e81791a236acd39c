//! EDGE: reading a game from a git repository without a checkout.
//!
//! A thin wrapper over git2 with the few operations gitnomic needs, so the
//! rest of the crate never sees a `git2` type.

use std::collections::BTreeMap;
use std::path::Path;

/// A commit of the first-parent history with the trees of the top-level
/// directories asked for: equal tree ids mean equal contents, so a caller
/// reads and parses each distinct tree once, however many commits share it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitTrees {
    /// The commit's id (hex).
    pub id: String,
    /// Committer time, seconds since the Unix epoch.
    pub time: i64,
    /// The first line of the message.
    pub summary: String,
    /// Directory name → tree id (hex), for those of the directories present.
    pub trees: BTreeMap<String, String>,
}

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

    /// The first-parent history of `rev`, oldest first, with the tree ids
    /// of the top-level directories `dirs` at each commit.
    pub fn first_parent_history(
        &self,
        rev: &str,
        dirs: &[&str],
    ) -> Result<Vec<CommitTrees>, GitError> {
        let read = |what: &str| {
            let what = what.to_string();
            move |source| GitError::Read { what, source }
        };
        let start = self
            .inner
            .revparse_single(rev)
            .and_then(|o| o.peel_to_commit())
            .map_err(|source| GitError::Revision {
                rev: rev.to_string(),
                source,
            })?;
        let mut walk = self.inner.revwalk().map_err(read("the history"))?;
        walk.push(start.id()).map_err(read("the history"))?;
        walk.simplify_first_parent().map_err(read("the history"))?;
        walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
            .map_err(read("the history"))?;
        let mut out = Vec::new();
        for id in walk {
            let id = id.map_err(read("the history"))?;
            let commit = self.inner.find_commit(id).map_err(read("a commit"))?;
            let tree = commit.tree().map_err(read("a commit's tree"))?;
            let trees = dirs
                .iter()
                .filter_map(|dir| {
                    let entry = tree.get_name(dir)?;
                    (entry.kind() == Some(git2::ObjectType::Tree))
                        .then(|| (dir.to_string(), entry.id().to_string()))
                })
                .collect();
            out.push(CommitTrees {
                id: id.to_string(),
                time: commit.time().seconds(),
                summary: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default())
                    .into_owned(),
                trees,
            });
        }
        Ok(out)
    }

    /// Every blob under the tree `tree` (an id from [`CommitTrees`]) as
    /// (path inside the tree, blob id), sorted by path.
    pub fn tree_blobs(&self, tree: &str) -> Result<Vec<(String, String)>, GitError> {
        let read = |source| GitError::Read {
            what: format!("tree {tree}"),
            source,
        };
        let oid = git2::Oid::from_str(tree).map_err(read)?;
        let tree = self.inner.find_tree(oid).map_err(read)?;
        let mut blobs = Vec::new();
        tree.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
            if entry.kind() == Some(git2::ObjectType::Blob) {
                let name = entry.name().unwrap_or_default();
                blobs.push((format!("{parent}{name}"), entry.id().to_string()));
            }
            git2::TreeWalkResult::Ok
        })
        .map_err(read)?;
        blobs.sort();
        Ok(blobs)
    }

    /// The bytes of the blob `id`.
    pub fn blob(&self, id: &str) -> Result<Vec<u8>, GitError> {
        let read = |source| GitError::Read {
            what: format!("blob {id}"),
            source,
        };
        let oid = git2::Oid::from_str(id).map_err(read)?;
        Ok(self.inner.find_blob(oid).map_err(read)?.content().to_vec())
    }
}
