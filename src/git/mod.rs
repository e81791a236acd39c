//! EDGE: reading a game from a git repository without a checkout.
//!
//! A thin wrapper over git2 with the few operations gitnomic needs, so the
//! rest of the crate never sees a `git2` type.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::bounds::FILE_BYTES;
use crate::game::is_game_file;
use crate::source::SourceFile;
use crate::time::Timestamp;

mod commit;
mod durable;
mod propose;
pub mod trial;
mod worktree;

pub(crate) use worktree::TMP as TMP_DIR;
pub use worktree::{Forward, WorkTree};

pub use durable::make_durable;
pub use propose::Moved;

/// Who a commit made by gitnomic is by, and when: its signature, as git
/// calls the name, email and time it gives author and committer alike.
#[derive(Debug, Clone)]
pub struct Signature<'a> {
    /// The name on the commit.
    pub name: &'a str,
    /// The email on the commit.
    pub email: &'a str,
    /// The commit time.
    pub at: Timestamp,
}

impl Signature<'_> {
    /// As libgit2 signs a commit, in UTC.
    fn to_git(&self) -> Result<git2::Signature<'static>, GitError> {
        git2::Signature::new(self.name, self.email, &git2::Time::new(self.at.unix(), 0))
            .map_err(read_err("the commit signature"))
    }
}

/// How a merge went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeOutcome {
    /// Merged: the new commit of the target branch.
    Merged(String),
    /// The two sides conflict in these paths; nothing was changed.
    Conflict(Vec<String>),
    /// The head is on the target branch already (a run that merged it was
    /// stopped before it could say so): the commit that brought it in.
    AlreadyIn(String),
}

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

/// One version of a file in a branch's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileVersion {
    /// The commit that made it.
    pub commit: String,
    /// Committer time, seconds since the Unix epoch.
    pub time: i64,
    /// The commit's whole message.
    pub message: String,
    /// The commit's author.
    pub author: String,
    /// The file's text (`None` if the commit removed it).
    pub text: Option<String>,
}

/// A git repository on disk.
pub struct Repo {
    inner: git2::Repository,
}

/// Something git could not do, with what was being attempted.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The repository could not be opened.
    #[error("cannot open a git repository at {path}: {}", reason(.git))]
    Open {
        /// Where we looked.
        path: String,
        /// What git said (in the message, not as a source, so that an
        /// error's chain does not say it twice).
        git: git2::Error,
    },
    /// The revision does not name a commit.
    #[error("`{rev}` does not name a commit: {}", reason(.git))]
    Revision {
        /// The revision asked for.
        rev: String,
        /// What git said.
        git: git2::Error,
    },
    /// Reading objects failed.
    #[error("reading {what}: {}", reason(.git))]
    Read {
        /// What was being read.
        what: String,
        /// What git said.
        git: git2::Error,
    },
    /// Writing objects, a reference, the index or the work tree failed.
    #[error("writing {what}: {}", reason(.git))]
    Write {
        /// What was being written.
        what: String,
        /// What git said.
        git: git2::Error,
    },
    /// A lock file of git's is in the way: another git process is writing
    /// there, or one was killed while it did.
    #[error(
        "{path} exists: another git process is writing to the repository, or one was killed while it did; if no git command is running, remove the file and run again"
    )]
    Locked {
        /// The lock file.
        path: String,
    },
    /// The branch moved while a commit was being made on it (another
    /// writer): the commit was not put on the branch.
    #[error("{branch} moved while a commit was being made on it; nothing was changed")]
    Moved {
        /// The branch.
        branch: String,
    },
    /// The work tree does not have the branch checked out.
    #[error("the work tree is not on {branch}: check it out first (`git switch {branch}`)")]
    NotOn {
        /// The branch it should be on.
        branch: String,
    },
    /// A file of the work tree could not be written or removed.
    #[error("writing {what}: {message}")]
    WriteFile {
        /// The file.
        what: String,
        /// What the system said.
        message: String,
    },
    /// A game file at a revision is not UTF-8 text.
    #[error("{0} is not UTF-8 text")]
    NotText(String),
    /// A changed path of the work tree is not a plain file (a symbolic
    /// link, say): a proposal may add or change only plain files, and a
    /// link's target, read as the file, may be one from outside the game.
    #[error(
        "{0} is not a plain file (a symbolic link, say): a proposal may add or change only plain files; nothing was proposed"
    )]
    NotPlain(String),
}

/// What git said, never empty: libgit2 ends some messages with a colon and
/// the operating system's reason, which is blank when there was none.
fn reason(git: &git2::Error) -> String {
    let message = git.message().trim_end();
    let message = message.strip_suffix(':').unwrap_or(message).trim_end();
    if message.is_empty() {
        format!("{:?} error ({:?})", git.class(), git.code())
    } else {
        message.to_string()
    }
}

/// Why a pull request whose head shares no history with the default
/// branch cannot stand: the same words at every door.
pub(crate) const UNRELATED: &str = "its head shares no history with the default branch (its branch was replaced by unrelated commits): no forge can merge it";

/// Why a pull request whose head the default branch already holds (a
/// merge of another brought it in) without the change it makes cannot
/// stand: merging it would change nothing, whatever its diff showed when
/// it was voted on.
pub(crate) const MERGED: &str = "its head is already part of the default branch (another merge brought it in) and its change is no longer there: merging it would change nothing, whatever its diff showed";

/// Where a pull request's head stands against the default branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fork {
    /// It forked from the branch, as a head to merge does.
    Forked,
    /// The branch holds it already (it is the branch's tip or an ancestor).
    Within,
    /// It shares no history with the branch.
    Unrelated,
}

/// How many commits of the default branch, by first parents, are walked
/// back to find the one that brought a merged head in.
const MERGED_WALK: usize = 10_000;

fn read_err(what: impl Into<String>) -> impl FnOnce(git2::Error) -> GitError {
    let what = what.into();
    move |source| GitError::Read { what, git: source }
}

/// The error of a failed write of `what`: a lock in the way is named as
/// such, wherever libgit2 met it.
fn write_err(what: impl Into<String>) -> impl FnOnce(git2::Error) -> GitError {
    let what = what.into();
    move |git| match locked_path(&git) {
        Some(path) => GitError::Locked { path },
        None => GitError::Write { what, git },
    }
}

/// The lock file a "failed to lock" error of libgit2's names.
fn locked_path(git: &git2::Error) -> Option<String> {
    if git.code() != git2::ErrorCode::Locked && !git.message().contains("failed to lock") {
        return None;
    }
    let (_, rest) = git.message().split_once('\'')?;
    let (path, _) = rest.split_once('\'')?;
    Some(path.to_string())
}

/// The name and email git is configured to commit as (`user.name`,
/// `user.email` of the user's git configuration), if both are set.
pub fn configured_identity() -> Option<(String, String)> {
    let config = git2::Config::open_default().ok()?.snapshot().ok()?;
    let name = config.get_string("user.name").ok()?;
    let email = config.get_string("user.email").ok()?;
    Some((name, email))
}

impl Repo {
    /// Opens the repository at `path` (its work tree or its `.git`).
    pub fn open(path: &Path) -> Result<Self, GitError> {
        let inner = git2::Repository::open(path).map_err(|source| GitError::Open {
            path: path.display().to_string(),
            git: source,
        })?;
        durable::read_setting(&inner)?;
        Ok(Repo { inner })
    }

    /// The git directory (`.git` of a work tree).
    pub fn git_dir(&self) -> &Path {
        self.inner.path()
    }

    /// The game files (Markdown and TOML) under the top-level directories
    /// `dirs` at revision `rev`, as text.
    pub fn game_files(&self, rev: &str, dirs: &[&str]) -> Result<Vec<SourceFile>, GitError> {
        self.files_at(rev, dirs)?
            .into_iter()
            .filter(|(path, _)| is_game_file(path))
            .map(|(path, bytes)| {
                String::from_utf8(bytes)
                    .map(|text| SourceFile::new(&path, text))
                    .map_err(|_| GitError::NotText(path))
            })
            .collect()
    }

    /// Every file (path, bytes) under the top-level directories `dirs` in
    /// the tree of revision `rev` (a branch, tag, SHA or `HEAD~2`), read
    /// from the object database, sorted by path.
    pub fn files_at(&self, rev: &str, dirs: &[&str]) -> Result<Vec<(String, Vec<u8>)>, GitError> {
        self.ids_at(rev, dirs)?
            .into_iter()
            .map(|(path, id)| {
                let bytes = self.blob_of(&path, id)?;
                Ok((path, bytes))
            })
            .collect()
    }

    /// Every file under the top-level directories `dirs` in the tree of
    /// revision `rev`, as (path, [`blob_id`] of its contents), sorted by
    /// path: what the revision holds, no file read.
    pub fn ids_at(&self, rev: &str, dirs: &[&str]) -> Result<Vec<(String, [u8; 20])>, GitError> {
        let tree = self
            .inner
            .revparse_single(rev)
            .and_then(|object| object.peel_to_tree())
            .map_err(|source| GitError::Revision {
                rev: rev.to_string(),
                git: source,
            })?;
        let mut files = Vec::new();
        let mut failure = None;
        let walked = tree.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
            let top = parent.split('/').next().unwrap_or_default();
            if parent.is_empty() {
                let name = entry.name().unwrap_or_default();
                return if dirs.contains(&name) {
                    git2::TreeWalkResult::Ok
                } else {
                    git2::TreeWalkResult::Skip
                };
            }
            if dirs.contains(&top) && entry.kind() == Some(git2::ObjectType::Blob) {
                let path = format!("{parent}{}", entry.name().unwrap_or_default());
                // Never a file left out: an id of another length (a
                // repository of another hash) is an error.
                match entry.id().as_bytes().try_into() {
                    Ok(id) => files.push((path, id)),
                    Err(_) => {
                        let git = git2::Error::from_str("not a 20-byte SHA-1 object id");
                        failure = Some(GitError::Read { what: path, git });
                        return git2::TreeWalkResult::Abort;
                    }
                }
            }
            git2::TreeWalkResult::Ok
        });
        if let Some(e) = failure {
            return Err(e);
        }
        walked.map_err(|source| GitError::Read {
            what: format!("the tree of {rev}"),
            git: source,
        })?;
        files.sort_unstable();
        Ok(files)
    }

    /// The bytes of the blob `id`, the file at `path` (for the error).
    pub fn blob_of(&self, path: &str, id: [u8; 20]) -> Result<Vec<u8>, GitError> {
        let oid = git2::Oid::from_bytes(&id).map_err(read_err(path))?;
        self.blob_bytes(oid, path)
    }

    /// The bytes of the blob `oid`; `what` names it in an error.
    fn blob_bytes(&self, oid: git2::Oid, what: &str) -> Result<Vec<u8>, GitError> {
        let blob = self.inner.find_blob(oid).map_err(read_err(what))?;
        Ok(blob.content().to_vec())
    }

    /// The commit a branch points at, if the branch exists.
    pub fn branch_head(&self, branch: &str) -> Result<Option<String>, GitError> {
        match self.inner.find_branch(branch, git2::BranchType::Local) {
            Ok(b) => Ok(b.get().target().map(|oid| oid.to_string())),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(source) => Err(GitError::Read {
                what: format!("branch {branch}"),
                git: source,
            }),
        }
    }

    /// The paths `head` changes relative to where it forked from `base`.
    pub fn changed_paths(&self, base: &str, head: &str) -> Result<Vec<String>, GitError> {
        Ok(paths_of(&self.fork_diff(base, head)?.0))
    }

    /// The paths `head` changes since it forked from `base` (as
    /// [`Self::changed_paths`]), and why the files it adds or changes
    /// cannot stand (as [`Self::unfit_changes`]), from one diff.
    pub fn fork_changes(
        &self,
        base: &str,
        head: &str,
    ) -> Result<(Vec<String>, Vec<String>), GitError> {
        let (diff, fork) = self.fork_diff(base, head)?;
        let mut unfit = self.unfit_of(&diff)?;
        unfit.extend(self.case_collisions(&diff, head)?);
        let paths = paths_of(&diff);
        if fork == Fork::Unrelated {
            unfit.insert(0, UNRELATED.to_string());
        } else if fork == Fork::Within && self.undone(base, head)? {
            unfit.insert(0, MERGED.to_string());
        } else if unfit.is_empty() {
            unfit.extend(self.theme_problems(&paths, head)?);
        }
        Ok((paths, unfit))
    }

    /// Whether `head`, already part of `base` ([`Fork::Within`]: another
    /// merge brought it in, so that merging it changes nothing), made a
    /// change `base` no longer holds. A twin's head, merged by its twin
    /// with the change still there, is not undone: its enactment stands
    /// as its diff showed.
    fn undone(&self, base: &str, head: &str) -> Result<bool, GitError> {
        let (base_id, head_id) = (self.commit_id(base)?, self.commit_id(head)?);
        let history = || read_err(format!("the history of {base}"));
        let within = |id: git2::Oid| -> Result<bool, GitError> {
            Ok(id == head_id
                || self
                    .inner
                    .graph_descendant_of(id, head_id)
                    .map_err(history())?)
        };
        // The commit that brought `head` in, by the first parents: the
        // fork the head was voted on is where it forked from the one before.
        let mut brought = self.inner.find_commit(base_id).map_err(history())?;
        for _ in 0..MERGED_WALK {
            match brought.parent(0) {
                Ok(parent) if within(parent.id())? => brought = parent,
                _ => break,
            }
        }
        let Ok(before) = brought.parent(0) else {
            return Ok(false);
        };
        let fork = self
            .inner
            .merge_base(before.id(), head_id)
            .map_err(history())?;
        let tree = |id: git2::Oid| {
            (self.inner.find_commit(id))
                .and_then(|c| c.tree())
                .map_err(history())
        };
        let (fork, head_tree, base_tree) = (tree(fork)?, tree(head_id)?, tree(base_id)?);
        let diff = (self.inner)
            .diff_tree_to_tree(Some(&fork), Some(&head_tree), None)
            .map_err(history())?;
        // Undone when the change would apply to `base` afresh and could
        // not be taken out of it: `base` reads as before the change at
        // every place it touches. A change that is there (a twin's; an
        // appended line applies twice, yet comes out), or there in part,
        // stands.
        let back = (self.inner)
            .diff_tree_to_tree(Some(&head_tree), Some(&fork), None)
            .map_err(history())?;
        let applies =
            |diff: &git2::Diff<'_>| self.inner.apply_to_tree(&base_tree, diff, None).is_ok();
        Ok(diff.deltas().len() > 0 && applies(&diff) && !applies(&back))
    }

    /// Why the site could not load a theme whose templates `paths` change,
    /// with all its templates as `head` leaves them: each parses alone (see
    /// [`Self::unfit_changes`]), yet one may extend or import a template
    /// that is not there.
    fn theme_problems(&self, paths: &[String], head: &str) -> Result<Vec<String>, GitError> {
        let mut themes: Vec<&str> = paths
            .iter()
            .filter_map(|p| crate::site::theme::theme_template(p))
            .map(|(theme, _)| theme)
            .collect();
        themes.dedup();
        if themes.is_empty() {
            return Ok(Vec::new());
        }
        let files = self.files_at(head, &["themes"])?;
        Ok(themes
            .into_iter()
            .filter_map(|theme| {
                let prefix = format!("themes/{theme}/");
                let overrides: Vec<crate::site::ThemeFile> = files
                    .iter()
                    .filter_map(|(path, bytes)| {
                        let name = path.strip_prefix(&prefix)?;
                        name.starts_with("templates/")
                            .then(|| crate::site::ThemeFile {
                                name: name.to_string(),
                                text: String::from_utf8_lossy(bytes).into_owned(),
                            })
                    })
                    .collect();
                crate::site::theme::theme_problem(theme, &overrides)
            })
            .collect())
    }

    /// Why the files `head` adds or changes since it forked from `base`
    /// cannot stand, one reason a file: a symbolic link or a submodule (the
    /// game is plain files, and a link written out by the resolver would
    /// become one), a file over [`FILE_BYTES`], or a game file that is not
    /// UTF-8 text. Empty when every file is fit to be read.
    /// A head that shares no history with `base` (a branch replaced by
    /// unrelated history) cannot stand either: no forge merges it.
    pub fn unfit_changes(&self, base: &str, head: &str) -> Result<Vec<String>, GitError> {
        Ok(self.fork_changes(base, head)?.1)
    }

    /// Why the files `diff` adds or changes cannot stand.
    fn unfit_of(&self, diff: &git2::Diff<'_>) -> Result<Vec<String>, GitError> {
        let mut out = Vec::new();
        for delta in diff.deltas() {
            let file = delta.new_file();
            let (Some(path), true) = (file.path(), file.exists()) else {
                continue;
            };
            // Git's paths are `/`-separated everywhere; a `\` is part of
            // a name, one no checkout on Windows can hold.
            let path = path.to_string_lossy().into_owned();
            if path.contains(|c: char| c == '\\' || c.is_control()) {
                out.push(format!(
                    "{} has a backslash or a control character in its name: a file name may hold neither",
                    path.escape_debug()
                ));
                continue;
            }
            let why = match file.mode() {
                git2::FileMode::Link => Some(format!(
                    "{path} is a symbolic link: a pull request may add or change only plain files"
                )),
                git2::FileMode::Commit => Some(format!(
                    "{path} is a submodule: a pull request may add or change only plain files"
                )),
                _ => self.unfit_blob(&path, file.id())?,
            };
            out.extend(why);
        }
        Ok(out)
    }

    /// Why the files `diff` adds cannot stand beside the others of `head`:
    /// a name that differs from a neighbour's in case alone (`Springs.md`
    /// beside `springs.md`, or a folder so) is two files on Linux and one
    /// on the file systems of macOS and Windows, where a player's clone of
    /// the game would hold only one of them and show the other as changed.
    fn case_collisions(&self, diff: &git2::Diff<'_>, head: &str) -> Result<Vec<String>, GitError> {
        let added = |d: &git2::DiffDelta<'_>| {
            matches!(
                d.status(),
                git2::Delta::Added | git2::Delta::Renamed | git2::Delta::Copied
            )
        };
        if !diff.deltas().any(|d| added(&d)) {
            return Ok(Vec::new());
        }
        let commit = self.inner.find_commit(self.commit_id(head)?);
        let root = commit.and_then(|c| c.tree()).map_err(read_err(head))?;
        let mut out = Vec::new();
        for delta in diff.deltas().filter(added) {
            let Some(path) = delta.new_file().path() else {
                continue;
            };
            let path = path.to_string_lossy().into_owned();
            let mut dir = root.clone();
            let mut walked = String::new();
            for part in path.split('/') {
                let lower = part.to_lowercase();
                let twin = dir.iter().find_map(|e| {
                    let name = e.name().ok()?;
                    (name != part && name.to_lowercase() == lower).then(|| name.to_string())
                });
                if let Some(twin) = twin {
                    out.push(format!(
                        "{path} differs from {walked}{twin} only in case: on macOS and Windows they are one file, so a name may not differ from another's by case alone"
                    ));
                    break;
                }
                walked.push_str(part);
                walked.push('/');
                let next = dir.get_name(part).map(|e| e.id());
                match next.and_then(|id| self.inner.find_tree(id).ok()) {
                    Some(tree) => dir = tree,
                    None => break,
                }
            }
        }
        Ok(out)
    }

    /// Why blob `id` at `path` cannot be read as a file of the game (the
    /// site's theme, read as text by `build`, included).
    fn unfit_blob(&self, path: &str, id: git2::Oid) -> Result<Option<String>, GitError> {
        let blob = self.inner.find_blob(id).map_err(read_err(path))?;
        let bytes = blob.content();
        Ok(if bytes.len() > FILE_BYTES {
            Some(format!(
                "{path} is {} bytes: a file may be at most {FILE_BYTES} bytes",
                bytes.len()
            ))
        } else if !read_as_text(path) {
            None
        } else {
            match std::str::from_utf8(bytes) {
                Err(_) => Some(format!("{path} is not UTF-8 text")),
                Ok(text) => crate::site::theme::template_problem(path, text),
            }
        })
    }

    /// The diff of `head` from where it forked from `base`, and where the
    /// head stands against it ([`Fork`]): a head that shares no history with `base` is
    /// diffed from `base` itself, so that what it would change is still
    /// told (and a run is not stopped by it).
    fn fork_diff(&self, base: &str, head: &str) -> Result<(git2::Diff<'_>, Fork), GitError> {
        let base_id = self.commit_id(base)?;
        let head_id = self.commit_id(head)?;
        let (fork, related) = match self.inner.merge_base(base_id, head_id) {
            Ok(fork) if fork == head_id => (fork, Fork::Within),
            Ok(fork) => (fork, Fork::Forked),
            // A shallow clone finds no merge base when its history is cut
            // off before the fork: that is the clone's lack, not the head's.
            Err(e) if e.code() == git2::ErrorCode::NotFound && !self.inner.is_shallow() => {
                (base_id, Fork::Unrelated)
            }
            Err(e) => return Err(read_err(format!("the merge base of {base} and {head}"))(e)),
        };
        let tree = |id| self.inner.find_commit(id).and_then(|c| c.tree());
        let (old, new) = (
            tree(fork).map_err(read_err(base))?,
            tree(head_id).map_err(read_err(head))?,
        );
        let diff = self
            .inner
            .diff_tree_to_tree(Some(&old), Some(&new), None)
            .map_err(read_err("a diff"))?;
        Ok((diff, related))
    }

    pub(crate) fn commit_id(&self, rev: &str) -> Result<git2::Oid, GitError> {
        self.inner
            .revparse_single(rev)
            .and_then(|o| o.peel_to_commit())
            .map(|c| c.id())
            .map_err(|source| GitError::Revision {
                rev: rev.to_string(),
                git: source,
            })
    }

    /// When commit `rev` was made (its committer time).
    pub fn commit_time(&self, rev: &str) -> Result<Timestamp, GitError> {
        let commit = self
            .inner
            .find_commit(self.commit_id(rev)?)
            .map_err(read_err(rev))?;
        Ok(Timestamp::from_unix(commit.time().seconds()))
    }

    /// The first parent of commit `rev`, if it has one.
    pub fn first_parent(&self, rev: &str) -> Result<Option<String>, GitError> {
        let commit = self
            .inner
            .find_commit(self.commit_id(rev)?)
            .map_err(read_err(rev))?;
        Ok(commit.parent_ids().next().map(|id| id.to_string()))
    }

    /// Whether the repository is a shallow clone: its history is cut off
    /// at commits whose parents it does not have.
    pub fn is_shallow(&self) -> bool {
        self.inner.is_shallow()
    }

    /// The first-parent history of `rev`, oldest first, with the tree ids
    /// of the top-level directories `dirs` at each commit.
    pub fn first_parent_history(
        &self,
        rev: &str,
        dirs: &[&str],
    ) -> Result<Vec<CommitTrees>, GitError> {
        Ok(self.first_parent_history_after(rev, dirs, None)?.0)
    }

    /// [`Repo::first_parent_history`] of `rev` after the commit `after`,
    /// when that commit is on it: the commits that came after it, oldest
    /// first, and true. When it is not (another branch, a history
    /// rewritten, `None`), the whole history and false. The walk stops at
    /// `after`: a history read before is not walked again.
    pub fn first_parent_history_after(
        &self,
        rev: &str,
        dirs: &[&str],
        after: Option<&str>,
    ) -> Result<(Vec<CommitTrees>, bool), GitError> {
        let read = |what: &str| {
            let what = what.to_string();
            move |source| GitError::Read { what, git: source }
        };
        let start = self
            .inner
            .revparse_single(rev)
            .and_then(|o| o.peel_to_commit())
            .map_err(|source| GitError::Revision {
                rev: rev.to_string(),
                git: source,
            })?;
        let after = after.and_then(|id| git2::Oid::from_str(id).ok());
        let mut walk = self.inner.revwalk().map_err(read("the history"))?;
        walk.push(start.id()).map_err(read("the history"))?;
        // One parent followed at each step: the walk is a single chain,
        // newest first, whatever the commits' times say.
        walk.simplify_first_parent().map_err(read("the history"))?;
        let mut out = Vec::new();
        let mut found = false;
        for id in walk {
            let id = id.map_err(read("the history"))?;
            if Some(id) == after {
                found = true;
                break;
            }
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
        out.reverse();
        Ok((out, found))
    }

    /// The whole message and the author's name of commit `id`.
    pub fn message_of(&self, id: &str) -> Result<(String, String), GitError> {
        let oid = git2::Oid::from_str(id).map_err(read_err("a commit"))?;
        let commit = self.inner.find_commit(oid).map_err(read_err("a commit"))?;
        Ok((
            commit.message().unwrap_or_default().to_string(),
            commit.author().name().unwrap_or_default().to_string(),
        ))
    }

    /// The versions of file `path` along the first-parent history of
    /// `rev`, oldest first: each commit where its text changed (or where
    /// it appeared), with the commit's time and whole message.
    pub fn file_history(&self, rev: &str, path: &str) -> Result<Vec<FileVersion>, GitError> {
        let mut out: Vec<FileVersion> = Vec::new();
        for c in self.first_parent_history(rev, &[])? {
            let oid = git2::Oid::from_str(&c.id).map_err(read_err("a commit"))?;
            let commit = self.inner.find_commit(oid).map_err(read_err("a commit"))?;
            let tree = commit.tree().map_err(read_err("a commit's tree"))?;
            let text = match tree.get_path(Path::new(path)) {
                Ok(entry) => {
                    let blob = self.inner.find_blob(entry.id()).map_err(read_err(path))?;
                    Some(String::from_utf8_lossy(blob.content()).into_owned())
                }
                Err(_) => None,
            };
            if out.last().map(|v| &v.text) == Some(&text) || (out.is_empty() && text.is_none()) {
                continue;
            }
            out.push(FileVersion {
                commit: c.id,
                time: c.time,
                message: commit.message().unwrap_or_default().to_string(),
                author: commit.author().name().unwrap_or_default().to_string(),
                text,
            });
        }
        Ok(out)
    }

    /// Every blob under the tree `tree` (an id from [`CommitTrees`]) as
    /// (path inside the tree, blob id), sorted by path.
    pub fn tree_blobs(&self, tree: &str) -> Result<Vec<(String, String)>, GitError> {
        let read = |source| GitError::Read {
            what: format!("tree {tree}"),
            git: source,
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
        let what = format!("blob {id}");
        let oid = git2::Oid::from_str(id).map_err(read_err(&what))?;
        self.blob_bytes(oid, &what)
    }

    /// The files under `dir` (`content/`) as the work tree's index last
    /// saw them: what git knows of a file's contents without reading it.
    pub fn indexed(&self, dir: &str) -> Result<Indexed, GitError> {
        let index = self.inner.index().map_err(read_err("the index"))?;
        let written = index
            .path()
            .and_then(|path| std::fs::metadata(path).ok())
            .and_then(|meta| meta.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| {
                (
                    i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                    d.subsec_nanos(),
                )
            });
        let Some(written) = written else {
            return Ok(Indexed::default());
        };
        let files = index
            .iter()
            .filter(|entry| entry.path.starts_with(dir.as_bytes()))
            .filter_map(|entry| {
                let path = String::from_utf8(entry.path).ok()?;
                let time = |t: git2::IndexTime| (i64::from(t.seconds()), t.nanoseconds());
                let blob = entry.id.as_bytes().try_into().ok()?;
                let file = IndexedFile {
                    len: entry.file_size,
                    modified: time(entry.mtime),
                    changed: time(entry.ctime),
                    inode: entry.ino,
                    blob,
                };
                Some((path, file))
            })
            .collect();
        Ok(Indexed { files, written })
    }
}

/// The id git gives a file of `bytes` (a blob's SHA-1): equal ids, equal
/// contents. `None` if it cannot be made (it always can).
pub fn blob_id(bytes: &[u8]) -> Option<[u8; 20]> {
    let id = git2::Oid::hash_object(git2::ObjectType::Blob, bytes).ok()?;
    id.as_bytes().try_into().ok()
}

/// Files of a work tree as its index last saw them (see [`Repo::indexed`]).
#[derive(Debug, Clone, Default)]
pub struct Indexed {
    /// Each file by its path in the repository.
    pub files: HashMap<String, IndexedFile>,
    /// When the index was written, in seconds and nanoseconds since 1970.
    pub written: (i64, u32),
}

/// A file as the index recorded it: the parts of its status git keeps
/// (sizes and inodes cut to 32 bits, as git writes them), and the
/// [`blob_id`] of its contents then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexedFile {
    /// Its length in bytes, cut to 32 bits.
    pub len: u32,
    /// Its modification time, in seconds and nanoseconds.
    pub modified: (i64, u32),
    /// Its status change time, in seconds and nanoseconds.
    pub changed: (i64, u32),
    /// Its inode number, cut to 32 bits.
    pub inode: u32,
    /// The id of its contents.
    pub blob: [u8; 20],
}

/// Whether the game reads the file at `path` as text: its Markdown and
/// TOML, and every file of a theme (templates and static files alike).
fn read_as_text(path: &str) -> bool {
    is_game_file(path) || path.starts_with("themes/")
}

/// The paths `diff` touches, old and new, sorted, once each.
fn paths_of(diff: &git2::Diff<'_>) -> Vec<String> {
    let mut paths: Vec<String> = diff
        .deltas()
        .flat_map(|d| [d.old_file().path(), d.new_file().path()])
        .flatten()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    paths.sort();
    paths.dedup();
    paths
}
