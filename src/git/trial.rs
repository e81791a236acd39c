//! EDGE: trees merged and written in memory: the plan's `Trial`, for
//! the resolver's trial merges.
//!
//! The repository is opened a second time with an in-memory object store
//! in front of the one on disk: every tree and blob a trial writes lands in
//! memory and is gone when the run ends, so planning (and `--dry-run`)
//! never touches `.git/objects`, a branch, the index or the work tree.

use std::path::Path;

use super::{GitError, Repo, read_err};
use crate::game::GAME_DIRS;
use crate::matter::{HeadSha, MatterNumber};
use crate::plan::{ForkChanges, Merged, TreeId, Trial, TrialError};
use crate::source::SourceFile;

/// Trial merges against the tip of one branch.
pub struct GitTrial {
    repo: Repo,
    /// The branch's name.
    branch: String,
    /// Where pull requests fork from: the branch's tip, or a merge of it
    /// the plan made in memory (see [`Trial::merges`]).
    base: git2::Oid,
    /// The branch's tip when opened.
    tip: git2::Oid,
}

impl GitTrial {
    /// Opens the repository at `path` for trials against `branch`.
    pub fn open(path: &Path, branch: &str) -> Result<Self, GitError> {
        let repo = Repo::open(path)?;
        {
            let odb = repo.inner.odb().map_err(read_err("the object database"))?;
            // The backend belongs to the repository's object database from
            // here on; the handle returned is not needed.
            odb.add_new_mempack_backend(1000)
                .map_err(read_err("an in-memory object store"))?;
        }
        let base = repo.commit_id(branch)?;
        Ok(GitTrial {
            repo,
            branch: branch.to_string(),
            base,
            tip: base,
        })
    }

    /// Forgets the merges an earlier plan made in memory: pull requests
    /// fork from the branch's tip again, as a new plan starts.
    pub fn restart(&mut self) {
        self.base = self.tip;
    }

    /// The branch's name.
    pub fn branch(&self) -> &str {
        &self.branch
    }

    /// The tree of the branch's tip, where the plan starts.
    pub fn base_tree(&self) -> Result<TreeId, GitError> {
        let commit = self
            .repo
            .inner
            .find_commit(self.base)
            .map_err(read_err("the base branch"))?;
        Ok(TreeId(commit.tree_id().to_string()))
    }

    /// The repository, with the trees written in memory readable from it.
    pub fn repo(&self) -> &Repo {
        &self.repo
    }

    /// The tree where `head` forked from the branch, or from the branch
    /// as it was before merge commit `merged`.
    pub(crate) fn fork_tree(
        &self,
        head: &HeadSha,
        merged: Option<&HeadSha>,
    ) -> Result<TreeId, TrialError> {
        Ok(TreeId(self.fork_from(head, merged)?.tree_id().to_string()))
    }

    fn commit(&self, sha: &HeadSha) -> Result<git2::Commit<'_>, TrialError> {
        let oid = git2::Oid::from_str(&sha.0).map_err(|e| TrialError::NotACommitId {
            sha: sha.clone(),
            why: e.to_string(),
        })?;
        self.repo
            .inner
            .find_commit(oid)
            .map_err(|e| TrialError::Missing {
                sha: sha.clone(),
                why: e.message().to_string(),
            })
    }

    fn tree(&self, id: &str) -> Result<git2::Tree<'_>, TrialError> {
        git2::Oid::from_str(id)
            .and_then(|oid| self.repo.inner.find_tree(oid))
            .map_err(|e| TrialError::Repository(format!("tree {id}: {}", e.message())))
    }

    /// The merge base of `head` with the branch's tip, or with the branch
    /// as it was before merge commit `merged`.
    fn fork_from(
        &self,
        head: &HeadSha,
        merged: Option<&HeadSha>,
    ) -> Result<git2::Commit<'_>, TrialError> {
        let tip = match merged {
            Some(merge) => self
                .commit(merge)?
                .parent_id(0)
                .map_err(|e| TrialError::NoParent {
                    merge: merge.clone(),
                    why: e.message().to_string(),
                })?,
            None => self.base,
        };
        let head = self.commit(head)?;
        // Git says "not found" when the two share no commit; anything else
        // is the repository's own trouble, not the head's.
        let fork = self
            .repo
            .inner
            .merge_base(tip, head.id())
            .map_err(|e| match e.code() {
                git2::ErrorCode::NotFound => TrialError::Unrelated {
                    head: head.id().to_string(),
                    why: e.message().to_string(),
                },
                _ => git_err(&e),
            })?;
        self.repo.inner.find_commit(fork).map_err(|e| git_err(&e))
    }
}

impl Trial for GitTrial {
    /// Merges commit `head` onto tree `onto`, three-way from the merge base
    /// of `head` and the branch's tip, as the forge would merge it.
    fn merge(&mut self, onto: &TreeId, head: &HeadSha) -> Result<Merged, TrialError> {
        let ancestor = self
            .fork_from(head, None)?
            .tree()
            .map_err(|e| git_err(&e))?;
        let theirs = self.commit(head)?.tree().map_err(|e| git_err(&e))?;
        let ours = self.tree(&onto.0)?;
        let repo = &self.repo.inner;
        let mut index = repo
            .merge_trees(&ancestor, &ours, &theirs, None)
            .map_err(|e| TrialError::Repository(format!("merging {head}: {}", e.message())))?;
        if index.has_conflicts() {
            let conflicts = index.conflicts().map_err(|e| git_err(&e))?;
            let mut paths: Vec<String> = conflicts
                .flatten()
                .filter_map(|c| c.our.or(c.their).or(c.ancestor))
                .map(|e| String::from_utf8_lossy(&e.path).into_owned())
                .collect();
            paths.sort();
            paths.dedup();
            return Ok(Merged::Conflict(paths));
        }
        let tree = index.write_tree_to(repo).map_err(|e| git_err(&e))?;
        Ok(Merged::Clean(TreeId(tree.to_string())))
    }

    /// Tree `onto` with the file at `path` set to `text`.
    fn write(&mut self, onto: &TreeId, path: &str, text: &str) -> Result<TreeId, TrialError> {
        let repo = &self.repo.inner;
        let base = self.tree(&onto.0)?;
        let blob = repo.blob(text.as_bytes()).map_err(|e| git_err(&e))?;
        let mut update = git2::build::TreeUpdateBuilder::new();
        update.upsert(path, blob, git2::FileMode::Blob);
        let tree = update
            .create_updated(repo, &base)
            .map_err(|e| TrialError::Repository(format!("writing {path}: {}", e.message())))?;
        Ok(TreeId(tree.to_string()))
    }

    /// The game files of a tree.
    fn files(&mut self, tree: &TreeId) -> Result<Vec<SourceFile>, TrialError> {
        self.repo
            .game_files(&tree.0, GAME_DIRS)
            .map_err(|e| TrialError::Repository(e.to_string()))
    }

    /// What `head` changes since it forked from the branch.
    fn changes(&mut self, head: &HeadSha) -> Result<ForkChanges, TrialError> {
        let head = self.commit(head)?.id().to_string();
        let (paths, unfit) = self
            .repo
            .fork_changes(&self.base.to_string(), &head)
            .map_err(|e| TrialError::Repository(e.to_string()))?;
        Ok(ForkChanges { paths, unfit })
    }

    /// The tree of a commit.
    fn tree_of(&mut self, commit: &HeadSha) -> Result<TreeId, TrialError> {
        Ok(TreeId(self.commit(commit)?.tree_id().to_string()))
    }

    /// The tree where `head` forked from the branch.
    fn fork_of(&mut self, head: &HeadSha) -> Result<TreeId, TrialError> {
        self.fork_tree(head, None)
    }

    /// The tree where `head` forked from the branch as it was before merge
    /// commit `merge`.
    fn fork_before(&mut self, head: &HeadSha, merge: &HeadSha) -> Result<TreeId, TrialError> {
        self.fork_tree(head, Some(merge))
    }

    /// Matter `number`'s merge of `head` on the branch, if it is there: a
    /// run that merged it was stopped before the forge said so.
    fn brought_in(
        &mut self,
        head: &HeadSha,
        number: MatterNumber,
    ) -> Result<Option<HeadSha>, TrialError> {
        let head = self.commit(head)?.id();
        self.repo
            .merge_of(self.base, head, number)
            .map(|c| c.map(|c| HeadSha(c.to_string())))
            .map_err(|e| TrialError::Repository(e.to_string()))
    }

    /// The tree just before merge commit `merge` (its first parent).
    fn before(&mut self, merge: &HeadSha) -> Result<TreeId, TrialError> {
        let commit = self.commit(merge)?;
        let parent = commit.parent(0).map_err(|e| TrialError::NoParent {
            merge: merge.clone(),
            why: e.message().to_string(),
        })?;
        Ok(TreeId(parent.tree_id().to_string()))
    }

    /// Whether the repository holds commit `head`.
    fn has(&mut self, head: &HeadSha) -> bool {
        self.commit(head).is_ok()
    }

    /// Moves the tip pull requests fork from to a commit (in memory) of
    /// the tip and `head`, as the merge the plan makes will, holding the
    /// files as that merge leaves them (the tip's, if they conflict), so
    /// that a later head judged against it is judged against what the
    /// merge brings in.
    fn merges(&mut self, head_sha: &HeadSha) -> Result<(), TrialError> {
        let onto = self.tree_of(&HeadSha(self.base.to_string()))?;
        let merged = match self.merge(&onto, head_sha)? {
            Merged::Clean(tree) => Some(tree),
            Merged::Conflict(_) => None,
        };
        let head = self.commit(head_sha)?;
        let tip = self
            .repo
            .inner
            .find_commit(self.base)
            .map_err(|e| git_err(&e))?;
        let tree = match merged {
            Some(tree) => self.tree(&tree.0)?,
            None => tip.tree().map_err(|e| git_err(&e))?,
        };
        let who = git2::Signature::new("gitnomic", "gitnomic@localhost", &git2::Time::new(0, 0))
            .map_err(|e| git_err(&e))?;
        let planned = self
            .repo
            .inner
            .commit(None, &who, &who, "a planned merge", &tree, &[&tip, &head])
            .map_err(|e| git_err(&e))?;
        drop((head, tip, tree));
        self.base = planned;
        Ok(())
    }
}

/// Git's own words for a failure, as the repository's trouble.
fn git_err(e: &git2::Error) -> TrialError {
    TrialError::Repository(e.message().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A commit of one file holding `text`, with `parents`, on no branch (or on `branch`).
    fn commit(
        repo: &git2::Repository,
        branch: Option<&str>,
        text: &str,
        parents: &[&git2::Commit<'_>],
    ) -> git2::Oid {
        let blob = repo.blob(text.as_bytes()).unwrap();
        let mut tree = repo.treebuilder(None).unwrap();
        tree.insert("a.md", blob, 0o100_644).unwrap();
        let tree = repo.find_tree(tree.write().unwrap()).unwrap();
        let who = git2::Signature::new("p", "p@localhost", &git2::Time::new(0, 0)).unwrap();
        let refname = branch.map(|b| format!("refs/heads/{b}"));
        repo.commit(refname.as_deref(), &who, &who, "c", &tree, parents)
            .unwrap()
    }

    /// Git's "no merge base" is a head sharing no history with the branch
    /// (the door reads such a pull request against the base), told apart
    /// from the repository's own trouble.
    #[test]
    fn a_head_sharing_no_history_is_unrelated() {
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        let tip = commit(&repo, Some("main"), "tip", &[]);
        let tip = repo.find_commit(tip).unwrap();
        let child = commit(&repo, None, "child", &[&tip]);
        let orphan = commit(&repo, None, "orphan", &[]);
        let trial = GitTrial::open(dir.path(), "main").unwrap();
        let fork = trial.fork_tree(&HeadSha(child.to_string()), None).unwrap();
        assert_eq!(fork.0, tip.tree_id().to_string());
        let unrelated = trial.fork_tree(&HeadSha(orphan.to_string()), None);
        assert!(
            matches!(unrelated, Err(TrialError::Unrelated { .. })),
            "{unrelated:?}"
        );
    }
}
