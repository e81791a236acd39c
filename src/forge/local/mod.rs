//! The local forge: a game's matters and comments kept as files inside its
//! git directory (`.git/gitnomic-forge/`), outside the tracked tree, with
//! proposals as branches of the game's own repository and merges done by
//! git2. It serves offline play, the demo and the tests, and behaves like
//! the GitHub adapter where it matters: a merge happens only at the head
//! that was tallied, and a conflicting merge changes nothing.
//!
//! It refuses what no real forge could hold (a comment before its matter,
//! a matter opened before an older one, an empty login or title, two open
//! pull requests from one branch), so a scripted game is always a history
//! that could have happened. Matters are numbered 1, 2, 3, ... and
//! comments have their own ids, as on GitHub. Like GitHub it knows when
//! each head of a pull request was pushed (see `Push`).
//!
//! Every write goes to a temporary file that is then renamed over the old
//! one, so an interrupted command leaves each file either old or new.

mod error;
mod pushes;
mod store;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Forge, ForgeComment, ForgeError, HeadSha, Kind, Login, MatterInfo};
use crate::git::{MergeOutcome, Repo, Signature};
use crate::matter::MatterNumber;
use crate::matter::journal::is_status;
use crate::time::Timestamp;
pub use error::LocalError;
pub use pushes::SeenHead;
use store::read_toml;

/// The login the bot acts as on the local forge.
pub const BOT: &str = "gitnomic-bot";

/// Where the local forge of the repository at `root` keeps its matters:
/// inside the git directory, outside the tracked tree.
pub fn dir_of(root: &Path) -> PathBuf {
    root.join(".git").join("gitnomic-forge")
}

/// Open, merged or closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Open.
    Open,
    /// Merged (pull requests only).
    Merged,
    /// Closed without merging.
    Closed,
}

/// A pull request or issue as the local forge stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalMatter {
    /// Its number.
    pub number: MatterNumber,
    /// Its title.
    pub title: String,
    /// Its description.
    #[serde(default)]
    pub body: String,
    /// Who opened it.
    pub author: String,
    /// When.
    pub opened: Timestamp,
    /// Its labels.
    #[serde(default)]
    pub labels: Vec<String>,
    /// The branch of a pull request; `None` for an issue.
    pub branch: Option<String>,
    /// The branch a pull request asks to be merged into; `None`: the
    /// default branch (`play open` bases every pull request there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<String>,
    /// Open, merged or closed.
    pub state: State,
    /// When it was merged or closed.
    pub closed: Option<Timestamp>,
    /// The merge commit.
    pub merge_commit: Option<String>,
    /// The heads of a pull request, each with when the forge first saw it,
    /// oldest first (last, as TOML wants tables after plain values).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pushes: Vec<SeenHead>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredComment {
    id: u64,
    author: String,
    created: Timestamp,
    edited: Option<Timestamp>,
    body: String,
}

/// The check result recorded for a commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitStatus {
    /// `success` or `failure`.
    pub state: String,
    /// One line saying why.
    pub description: String,
}

/// A forge kept in files beside a git repository.
pub struct LocalForge {
    repo: Repo,
    dir: PathBuf,
    base: String,
    now: Timestamp,
}

/// A new matter to open on the local forge.
#[derive(Debug, Clone)]
pub struct NewMatter<'a> {
    /// The kind (its label); `None` names none, as a pull request from
    /// the forge's editor ("Update voting.md"), which is then a proposal
    /// by default if it changes only what a proposal may.
    pub kind: Option<Kind>,
    /// The title.
    pub title: &'a str,
    /// The description.
    pub body: &'a str,
    /// The author's login.
    pub author: &'a str,
    /// The branch of a pull request; `None` opens an issue.
    pub branch: Option<&'a str>,
}

#[expect(
    clippy::needless_pass_by_value,
    reason = "used as map_err(git_error), which passes the error by value"
)]
fn git_error(e: crate::git::GitError) -> ForgeError {
    ForgeError::Other(e.to_string())
}

/// A login that is not blank.
fn login(text: &str) -> Result<&str, LocalError> {
    let text = text.trim();
    if text.is_empty() {
        Err(LocalError::EmptyLogin)
    } else {
        Ok(text)
    }
}

/// Whether `login` may act on `matter` as its author: it is theirs, or
/// they are an admin.
fn may_act(
    matter: &LocalMatter,
    login: &str,
    admin: bool,
    what: &'static str,
) -> Result<(), LocalError> {
    let login = self::login(login)?;
    if admin || matter.author.eq_ignore_ascii_case(login) {
        return Ok(());
    }
    Err(LocalError::NotYours {
        number: matter.number,
        author: matter.author.clone(),
        login: login.to_string(),
        what,
    })
}

impl LocalForge {
    /// Opens the local forge of the repository at `root`, whose default
    /// branch is `base`, acting at moment `now`; a pull request whose
    /// branch moved since it was last looked at is noted as pushed now.
    pub fn open(root: &Path, base: &str, now: Timestamp) -> Result<Self, ForgeError> {
        let repo = Repo::open(root).map_err(git_error)?;
        let dir = dir_of(root);
        if !root.join(".git").is_dir() {
            return Err(ForgeError::Other(format!(
                "{} has no .git directory",
                root.display()
            )));
        }
        let forge = LocalForge {
            repo,
            dir,
            base: base.to_string(),
            now,
        };
        forge.observe()?;
        Ok(forge)
    }

    /// Opens the local forge of the repository at `root` to read only
    /// (`gitnomic audit`): a branch that moved is not noted as a push.
    pub fn open_to_read(root: &Path, base: &str) -> Result<Self, ForgeError> {
        let repo = Repo::open(root).map_err(git_error)?;
        Ok(LocalForge {
            repo,
            dir: dir_of(root),
            base: base.to_string(),
            now: Timestamp::from_unix(0),
        })
    }

    /// Opens a pull request (with a branch) or an issue; returns its number.
    pub fn open_matter(&self, new: &NewMatter<'_>) -> Result<MatterNumber, LocalError> {
        let author = login(new.author)?;
        if new.title.trim().is_empty() {
            return Err(LocalError::EmptyTitle);
        }
        let matters = self.all_matters()?;
        if let Some(newest) = matters.iter().max_by_key(|m| (m.opened, m.number))
            && self.now < newest.opened
        {
            return Err(LocalError::BeforeNewest {
                newest: newest.number,
                opened: newest.opened,
                at: self.now,
            });
        }
        if let Some(branch) = new.branch {
            if self.repo.branch_head(branch).map_err(git_error)?.is_none() {
                return Err(LocalError::NoBranch(branch.to_string()));
            }
            let taken = matters
                .iter()
                .find(|m| m.state == State::Open && m.branch.as_deref() == Some(branch));
            if let Some(open) = taken {
                return Err(LocalError::BranchTaken {
                    branch: branch.to_string(),
                    open: open.number,
                });
            }
        }
        let number = self.next_number()?;
        let mut matter = LocalMatter {
            number,
            title: new.title.to_string(),
            body: new.body.to_string(),
            author: author.to_string(),
            opened: self.now,
            labels: new
                .kind
                .map(|k| k.label().to_string())
                .into_iter()
                .collect(),
            branch: new.branch.map(str::to_string),
            base: None,
            state: State::Open,
            closed: None,
            merge_commit: None,
            pushes: Vec::new(),
        };
        if let Some(branch) = new.branch
            && let Some(head) = self.repo.branch_head(branch).map_err(git_error)?
        {
            self.note_push(&mut matter, &head)?;
        }
        self.save_matter(&matter)?;
        Ok(number)
    }

    /// Adds a comment (or review body) by `author`; returns its id.
    pub fn add_comment(
        &self,
        number: MatterNumber,
        author: &str,
        body: &str,
    ) -> Result<u64, LocalError> {
        let author = login(author)?;
        if body.trim().is_empty() {
            return Err(LocalError::EmptyComment);
        }
        self.open_since(number, "a comment on it")?;
        let id = self.next_comment_id()?;
        let mut thread = self.load_thread(number)?;
        thread.comments.push(StoredComment {
            id,
            author: author.to_string(),
            created: self.now,
            edited: None,
            body: body.to_string(),
        });
        self.save_thread(number, &thread)?;
        Ok(id)
    }

    /// Edits comment `id` on matter `number`, as its author: the forge
    /// notes when. `None` as the body deletes it. Players may do both on
    /// any forge; what was counted or rolled stays as first seen.
    pub fn edit_comment(
        &self,
        number: MatterNumber,
        id: u64,
        author: &str,
        body: Option<&str>,
    ) -> Result<(), LocalError> {
        let author = login(author)?;
        if body.is_some_and(|b| b.trim().is_empty()) {
            return Err(LocalError::EmptyComment);
        }
        let mut thread = self.load_thread(number)?;
        let at = thread
            .comments
            .iter()
            .position(|c| c.id == id)
            .ok_or(ForgeError::NoComment(id))?;
        if !thread.comments[at].author.eq_ignore_ascii_case(author) {
            return Err(LocalError::NotYourComment {
                id,
                author: thread.comments[at].author.clone(),
                login: author.to_string(),
            });
        }
        match body {
            Some(body) => {
                thread.comments[at].body = body.to_string();
                thread.comments[at].edited = Some(self.now);
            }
            None => {
                self.retire_comment_id(id)?;
                thread.comments.remove(at);
            }
        }
        self.save_thread(number, &thread)?;
        Ok(())
    }

    /// Closes matter `number` without a decision, at the request of
    /// `login`: its author, or anyone if `admin` (an admin on the roster).
    /// It is labelled `withdrawn`, and no record is written: the resolver
    /// only ever looks at open matters and at those it left `resolving`.
    pub fn withdraw(
        &self,
        number: MatterNumber,
        login: &str,
        admin: bool,
    ) -> Result<(), LocalError> {
        let mut matter = self.open_since(number, "closing it")?;
        may_act(&matter, login, admin, "close it")?;
        if matter
            .labels
            .iter()
            .any(|l| l == crate::matter::labels::RESOLVING)
        {
            return Err(LocalError::BeingResolved(number));
        }
        matter.state = State::Closed;
        matter.closed = Some(self.now);
        matter
            .labels
            .push(crate::matter::labels::WITHDRAWN.to_string());
        self.save_matter(&matter)?;
        Ok(())
    }

    /// Matter `number`, if it is open and was opened by now; `what` says
    /// what is being done to it, for the error.
    fn open_since(
        &self,
        number: MatterNumber,
        what: &'static str,
    ) -> Result<LocalMatter, LocalError> {
        let matter = self.load_matter(number)?;
        if matter.state != State::Open {
            return Err(ForgeError::NotOpen(number).into());
        }
        if self.now < matter.opened {
            return Err(LocalError::BeforeOpened {
                number,
                what,
                opened: matter.opened,
                at: self.now,
            });
        }
        Ok(matter)
    }

    /// The check result recorded for a commit, if any.
    pub fn commit_status(&self, sha: &HeadSha) -> Result<Option<CommitStatus>, ForgeError> {
        read_toml(&self.dir.join("statuses").join(format!("{}.toml", sha.0)))
    }

    /// Every matter ever opened, by number.
    pub fn all_matters(&self) -> Result<Vec<LocalMatter>, ForgeError> {
        self.numbers()?
            .into_iter()
            .map(|n| self.load_matter(n))
            .collect()
    }

    fn info(&self, m: &LocalMatter) -> Result<MatterInfo, ForgeError> {
        let head = match &m.branch {
            Some(branch) if m.state == State::Open => self
                .repo
                .branch_head(branch)
                .map_err(git_error)?
                .map(HeadSha),
            _ => None,
        };
        Ok(MatterInfo {
            number: m.number,
            title: m.title.clone(),
            body: m.body.clone(),
            author: Login(m.author.clone()),
            opened: m.opened,
            labels: m.labels.clone(),
            pull: m.branch.is_some(),
            head,
            merge_commit: m.merge_commit.clone().map(HeadSha),
            base: m.branch.as_ref().map(|_| self.base_of(m).to_string()),
            draft: false,
            merged: m.state == State::Merged,
            // Players cannot make a draft, nor relabel or retitle a
            // matter, on the local forge: its kind is the one it was
            // opened with.
            kind_changed: None,
            link: None,
            updated: None,
            paths: None,
        })
        .and_then(|mut info| {
            // A pull request that names no kind is a proposal by default
            // when its files are a proposal's: listed as a forge lists them.
            if info.pull && info.names_no_kind() {
                info.paths = Some(self.changed_files(m.number)?);
            }
            Ok(info)
        })
    }

    /// The branch pull request `m` is merged into, as a forge would merge it.
    fn base_of<'m>(&'m self, m: &'m LocalMatter) -> &'m str {
        m.base.as_deref().unwrap_or(&self.base)
    }

    fn signature(&self) -> Signature<'static> {
        Signature {
            name: "gitnomic",
            email: "gitnomic@localhost",
            at: self.now,
        }
    }

    fn open_pull(&self, number: MatterNumber) -> Result<(LocalMatter, String), ForgeError> {
        let matter = self.load_matter(number)?;
        if matter.state != State::Open {
            return Err(ForgeError::NotOpen(number));
        }
        let branch = matter.branch.clone().ok_or_else(|| {
            ForgeError::Other(format!("#{number} is an issue, not a pull request"))
        })?;
        Ok((matter, branch))
    }
}

impl Forge for LocalForge {
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        self.all_matters()?
            .iter()
            .filter(|m| m.state == State::Open)
            .map(|m| self.info(m))
            .collect()
    }

    fn closed_matters(
        &self,
        label: Option<&str>,
        since: Option<Timestamp>,
    ) -> Result<Vec<MatterInfo>, ForgeError> {
        let mut closed: Vec<LocalMatter> = self
            .all_matters()?
            .into_iter()
            .filter(|m| m.state != State::Open)
            .filter(|m| label.is_none_or(|label| m.labels.iter().any(|l| l == label)))
            .filter(|m| since.is_none_or(|since| m.closed.is_some_and(|c| c >= since)))
            .collect();
        closed.sort_by_key(|m| std::cmp::Reverse((m.closed, m.number)));
        closed.iter().take(100).map(|m| self.info(m)).collect()
    }

    fn every_closed_matter(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        self.all_matters()?
            .iter()
            .filter(|m| m.state != State::Open)
            .map(|m| self.info(m))
            .collect()
    }

    fn matter(&self, number: MatterNumber) -> Result<MatterInfo, ForgeError> {
        self.info(&self.load_matter(number)?)
    }

    fn comments(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        self.load_matter(number)?;
        Ok(self
            .load_thread(number)?
            .comments
            .into_iter()
            .map(|c| ForgeComment {
                id: c.id,
                author: Login(c.author),
                created: c.created,
                edited: c.edited,
                body: c.body,
                link: None,
                via: crate::matter::Via::Comment,
            })
            .collect())
    }

    fn pushes(&self, number: MatterNumber) -> Result<Vec<(HeadSha, Timestamp)>, ForgeError> {
        self.pushes_of(number)
    }

    fn changed_files(&self, number: MatterNumber) -> Result<Vec<String>, ForgeError> {
        let matter = self.load_matter(number)?;
        let Some(branch) = matter.branch else {
            return Ok(Vec::new());
        };
        let head = matter.merge_commit.unwrap_or(branch);
        self.repo
            .changed_paths(&self.base, &head)
            .map_err(git_error)
    }

    fn bot(&self) -> &str {
        BOT
    }

    fn put_status(&self, number: MatterNumber, body: &str) -> Result<(), ForgeError> {
        let mut thread = self.load_thread(number)?;
        match thread
            .comments
            .iter_mut()
            .find(|c| c.author == BOT && is_status(&c.body))
        {
            Some(c) if c.body == body => return Ok(()),
            Some(c) => {
                c.body = body.to_string();
                c.edited = Some(self.now);
            }
            None => {
                let id = self.next_comment_id()?;
                let c = StoredComment {
                    id,
                    author: BOT.into(),
                    created: self.now,
                    edited: None,
                    body: body.into(),
                };
                thread.comments.push(c);
            }
        }
        self.save_thread(number, &thread)
    }

    fn set_commit_status(
        &self,
        sha: &HeadSha,
        ok: bool,
        description: &str,
    ) -> Result<(), ForgeError> {
        let status = CommitStatus {
            state: if ok { "success" } else { "failure" }.into(),
            description: description.into(),
        };
        self.write_toml(
            &self.dir.join("statuses").join(format!("{}.toml", sha.0)),
            &status,
        )
    }

    fn set_labels(
        &self,
        number: MatterNumber,
        add: &[&str],
        remove: &[&str],
    ) -> Result<(), ForgeError> {
        let mut matter = self.load_matter(number)?;
        let before = matter.labels.clone();
        matter.labels.retain(|l| !remove.contains(&l.as_str()));
        for label in add {
            if !matter.labels.iter().any(|l| l == label) {
                matter.labels.push((*label).to_string());
            }
        }
        if matter.labels == before {
            Ok(())
        } else {
            self.save_matter(&matter)
        }
    }

    fn merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        message: &str,
    ) -> Result<HeadSha, ForgeError> {
        let (mut matter, branch) = self.open_pull(number)?;
        let actual = self.repo.branch_head(&branch).map_err(git_error)?;
        let actual = HeadSha(actual.unwrap_or_default());
        if &actual != expected {
            return Err(ForgeError::StaleHead {
                number,
                expected: expected.clone(),
                actual,
            });
        }
        let into = self.base_of(&matter).to_string();
        match self
            .repo
            .merge_into(&into, &actual.0, number, message, &self.signature())
        {
            Ok(MergeOutcome::Merged(id)) => {
                matter.state = State::Merged;
                matter.closed = Some(self.now);
                matter.merge_commit = Some(id.clone());
                self.save_matter(&matter)?;
                Ok(HeadSha(id))
            }
            // A run that merged it was killed before it could say so:
            // say so now, as the forge that merged it would have.
            Ok(MergeOutcome::AlreadyIn(id)) => {
                let at = self.repo.commit_time(&id).map_err(git_error)?;
                matter.state = State::Merged;
                matter.closed = Some(at);
                matter.merge_commit = Some(id);
                self.save_matter(&matter)?;
                Err(ForgeError::NotOpen(number))
            }
            Ok(MergeOutcome::Conflict(paths)) => Err(ForgeError::NotMergeable {
                number,
                reason: format!("it conflicts with {into} in {}", paths.join(", ")),
            }),
            Err(e) => Err(ForgeError::Other(e.to_string())),
        }
    }

    fn close(&self, number: MatterNumber) -> Result<(), ForgeError> {
        let mut matter = self.load_matter(number)?;
        if matter.state != State::Open {
            return Err(ForgeError::NotOpen(number));
        }
        matter.state = State::Closed;
        matter.closed = Some(self.now);
        self.save_matter(&matter)
    }

    fn read_file(&self, path: &str) -> Result<Option<String>, ForgeError> {
        let top = path.split('/').next().unwrap_or(path);
        let files = self.repo.files_at(&self.base, &[top]).map_err(git_error)?;
        Ok(files
            .into_iter()
            .find(|(p, _)| p == path)
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn commit_file(&self, path: &str, text: &str, message: &str) -> Result<HeadSha, ForgeError> {
        self.repo
            .commit_file(&self.base, path, text, message, &self.signature())
            .map(HeadSha)
            .map_err(git_error)
    }
}

#[cfg(test)]
mod tests;
