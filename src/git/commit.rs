//! EDGE: commits made in the object database, and a branch moved only by a
//! compare-and-swap of its reference.
//!
//! No commit here touches the index or the work tree: the game's state is
//! the branch, and a player's checkout is theirs (see [`super::worktree`],
//! which brings a clean one forward afterwards). A branch moves from the
//! tip the commit was made on, or not at all, so a second writer, or a run
//! finishing what a killed one began, can never stack a commit on a tip it
//! did not see. Objects are written before the reference moves: a process
//! killed anywhere leaves either the old tip or the new one, never a branch
//! pointing at something missing.

use super::{GitError, MergeOutcome, Repo, Signature, read_err, write_err};
use crate::matter::MatterNumber;
use crate::plan::effect::merges_matter;

impl Repo {
    /// Makes a new repository at `path` whose first commit, on `branch`,
    /// holds every file now in the directory.
    pub fn init_with_work_tree(
        path: &Path,
        branch: &str,
        message: &str,
        signature: &Signature<'_>,
    ) -> Result<Self, GitError> {
        let open_err = |source| GitError::Open {
            path: path.display().to_string(),
            git: source,
        };
        let inner = git2::Repository::init(path).map_err(open_err)?;
        inner
            .set_head(&format!("refs/heads/{branch}"))
            .map_err(open_err)?;
        let repo = Repo { inner };
        let mut index = repo.inner.index().map_err(read_err("the index"))?;
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .map_err(read_err("the work tree"))?;
        index.write().map_err(write_err("the index"))?;
        let tree_id = index.write_tree().map_err(write_err("the index's tree"))?;
        repo.commit_on(branch, None, tree_id, &[], message, signature)?;
        Ok(repo)
    }

    /// Creates `branch` at the commit `from` names (a branch or SHA).
    pub fn create_branch(&self, branch: &str, from: &str) -> Result<(), GitError> {
        let commit = self
            .inner
            .find_commit(self.commit_id(from)?)
            .map_err(read_err(from))?;
        self.inner
            .branch(branch, &commit, false)
            .map_err(write_err(format!("branch {branch}")))?;
        Ok(())
    }

    /// Points the reference `name` (a full name, `refs/...`) at commit
    /// `sha`, so the commit stays reachable, and survives garbage
    /// collection, whatever later becomes of the branch it was on.
    pub fn pin(&self, name: &str, sha: &str) -> Result<(), GitError> {
        let oid = self.commit_id(sha)?;
        self.inner
            .reference(name, oid, true, "gitnomic: keep a pushed head")
            .map_err(write_err(format!("the reference {name}")))?;
        Ok(())
    }

    /// Merges commit `head`, the head of matter `number`, into `branch`
    /// with a merge commit, unless the two conflict, or that matter's merge
    /// is on the branch already (then that commit: merging twice is merging
    /// once). A head the branch holds otherwise (another matter with the
    /// same head was merged) is merged all the same: the merge changes no
    /// file, but it is this matter's.
    pub fn merge_into(
        &self,
        branch: &str,
        head: &str,
        number: MatterNumber,
        message: &str,
        signature: &Signature<'_>,
    ) -> Result<MergeOutcome, GitError> {
        let tip = self.commit_id(branch)?;
        let head_id = self.commit_id(head)?;
        if let Some(commit) = self.merge_of(tip, head_id, number)? {
            return Ok(MergeOutcome::AlreadyIn(commit.to_string()));
        }
        let ours = self.inner.find_commit(tip).map_err(read_err(branch))?;
        let theirs = self.inner.find_commit(head_id).map_err(read_err(head))?;
        let mut index = self
            .inner
            .merge_commits(&ours, &theirs, None)
            .map_err(read_err("a merge"))?;
        if index.has_conflicts() {
            return Ok(MergeOutcome::Conflict(conflicted(
                &index,
                "merge conflicts",
            )?));
        }
        let tree_id = index
            .write_tree_to(&self.inner)
            .map_err(write_err("the merged tree"))?;
        let id = self.commit_on(
            branch,
            Some(tip),
            tree_id,
            &[&ours, &theirs],
            message,
            signature,
        )?;
        Ok(MergeOutcome::Merged(id))
    }

    /// Matter `number`'s merge of `head` in the first-parent history of
    /// `tip`, if it is there: a commit merging `head` whose message is the
    /// one the resolver gives that matter's merge. The head alone does not
    /// say: two matters may share one, and the first merged brings it in.
    pub(super) fn merge_of(
        &self,
        tip: git2::Oid,
        head: git2::Oid,
        number: MatterNumber,
    ) -> Result<Option<git2::Oid>, GitError> {
        let holds = |commit: git2::Oid| -> Result<bool, GitError> {
            Ok(commit == head
                || self
                    .inner
                    .graph_descendant_of(commit, head)
                    .map_err(read_err("the branch's history"))?)
        };
        let mut at = tip;
        while at != head && holds(at)? {
            let commit = self.inner.find_commit(at).map_err(read_err("a commit"))?;
            let merges_head = commit.parent_ids().skip(1).any(|p| p == head);
            let message = String::from_utf8_lossy(commit.message_bytes());
            if merges_head && merges_matter(&message, number) {
                return Ok(Some(at));
            }
            match commit.parent_id(0) {
                Ok(first) => at = first,
                Err(_) => break,
            }
        }
        Ok(None)
    }

    /// Commits `text` at `path` on `branch` (creating or replacing the file).
    pub fn commit_file(
        &self,
        branch: &str,
        path: &str,
        text: &str,
        message: &str,
        signature: &Signature<'_>,
    ) -> Result<String, GitError> {
        let tip = self.commit_id(branch)?;
        let parent = self.inner.find_commit(tip).map_err(read_err(branch))?;
        let blob = self.inner.blob(text.as_bytes()).map_err(write_err(path))?;
        let base = parent.tree().map_err(read_err(branch))?;
        let mut update = git2::build::TreeUpdateBuilder::new();
        update.upsert(path, blob, git2::FileMode::Blob);
        let tree_id = update
            .create_updated(&self.inner, &base)
            .map_err(write_err(path))?;
        self.commit_on(branch, Some(tip), tree_id, &[&parent], message, signature)
    }

    /// Makes a commit of `tree_id` and moves `branch` to it from `expected`
    /// (`None`: the branch must not exist yet). The index and the work tree
    /// are not touched.
    fn commit_on(
        &self,
        branch: &str,
        expected: Option<git2::Oid>,
        tree_id: git2::Oid,
        parents: &[&git2::Commit<'_>],
        message: &str,
        signature: &Signature<'_>,
    ) -> Result<String, GitError> {
        let tree = self.inner.find_tree(tree_id).map_err(read_err("a tree"))?;
        let who = signature.to_git()?;
        let id = self
            .inner
            .commit(None, &who, &who, message, &tree, parents)
            .map_err(write_err(format!("a commit for {branch}")))?;
        let refname = format!("refs/heads/{branch}");
        let summary = message.lines().next().unwrap_or_default();
        let log = format!("gitnomic: {summary}");
        let moved = match expected {
            Some(old) => self.inner.reference_matching(&refname, id, true, old, &log),
            None => self.inner.reference(&refname, id, false, &log),
        };
        moved.map_err(|git| match git.code() {
            git2::ErrorCode::Modified | git2::ErrorCode::Exists => GitError::Moved {
                branch: branch.to_string(),
            },
            _ => write_err(format!("the branch {branch}"))(git),
        })?;
        Ok(id.to_string())
    }
}

use std::path::Path;

/// The paths in conflict in `index`, each once, read as `what`.
pub(super) fn conflicted(index: &git2::Index, what: &str) -> Result<Vec<String>, GitError> {
    let conflicts = index.conflicts().map_err(read_err(what))?;
    let mut paths: Vec<String> = conflicts
        .flatten()
        .filter_map(|c| c.our.or(c.their).or(c.ancestor))
        .map(|e| String::from_utf8_lossy(&e.path).into_owned())
        .collect();
    paths.dedup();
    Ok(paths)
}
