//! The local forge: a game's matters and comments kept as files inside its
//! git directory (`.git/gitnomic-forge/`), outside the tracked tree, with
//! proposals as branches of the game's own repository and merges done by
//! git2. It serves offline play, the demo and the tests, and behaves like
//! the GitHub adapter where it matters: a merge happens only at the head
//! that was tallied, and a conflicting merge changes nothing.
//!
//! Every write goes to a temporary file that is then renamed over the old
//! one, so an interrupted command leaves each file either old or new.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Forge, ForgeComment, ForgeError, HeadSha, Kind, Login, MatterInfo};
use crate::git::{MergeOutcome, Repo, Stamp};
use crate::journal::is_status;
use crate::time::Timestamp;

/// The login the bot acts as on the local forge.
pub const BOT: &str = "gitnomic-bot";

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
    pub number: u64,
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
    /// Open, merged or closed.
    pub state: State,
    /// When it was merged or closed.
    pub closed: Option<Timestamp>,
    /// The merge commit.
    pub merge_commit: Option<String>,
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

#[derive(Debug, Default, Serialize, Deserialize)]
struct Thread {
    #[serde(default)]
    comments: Vec<StoredComment>,
}

/// The check result recorded for a commit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommitStatus {
    /// `success` or `failure`.
    pub state: String,
    /// One line saying why.
    pub description: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Counter {
    next: u64,
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
    /// The kind (its label).
    pub kind: Kind,
    /// The title.
    pub title: &'a str,
    /// The description.
    pub body: &'a str,
    /// The author's login.
    pub author: &'a str,
    /// The branch of a pull request; `None` opens an issue.
    pub branch: Option<&'a str>,
}

fn other(what: &str) -> impl Fn(std::io::Error) -> ForgeError + '_ {
    move |e| ForgeError::Other(format!("local forge: {what}: {e}"))
}

/// Reads a TOML file of the forge; `None` if it does not exist.
fn read_toml<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, ForgeError> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map(Some).map_err(|e| {
            ForgeError::Other(format!("local forge: {} is damaged: {e}", path.display()))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(other("reading")(e)),
    }
}

impl LocalForge {
    /// Opens the local forge of the repository at `root`, whose default
    /// branch is `base`, acting at moment `now`.
    pub fn open(root: &Path, base: &str, now: Timestamp) -> Result<Self, ForgeError> {
        let repo = Repo::open(root).map_err(|e| ForgeError::Other(e.to_string()))?;
        let dir = root.join(".git").join("gitnomic-forge");
        if !root.join(".git").is_dir() {
            return Err(ForgeError::Other(format!(
                "{} has no .git directory",
                root.display()
            )));
        }
        Ok(LocalForge {
            repo,
            dir,
            base: base.to_string(),
            now,
        })
    }

    /// Opens a pull request (with a branch) or an issue; returns its number.
    pub fn open_matter(&self, new: &NewMatter<'_>) -> Result<u64, ForgeError> {
        if let Some(branch) = new.branch {
            let exists = self
                .repo
                .branch_head(branch)
                .map_err(|e| ForgeError::Other(e.to_string()))?;
            if exists.is_none() {
                return Err(ForgeError::Other(format!(
                    "there is no branch `{branch}` to open a pull request from"
                )));
            }
        }
        let number = self.next_id()?;
        let matter = LocalMatter {
            number,
            title: new.title.to_string(),
            body: new.body.to_string(),
            author: new.author.to_string(),
            opened: self.now,
            labels: vec![new.kind.label().to_string()],
            branch: new.branch.map(str::to_string),
            state: State::Open,
            closed: None,
            merge_commit: None,
        };
        self.save_matter(&matter)?;
        Ok(number)
    }

    /// Adds a comment (or review body) by `author`; returns its id.
    pub fn add_comment(&self, number: u64, author: &str, body: &str) -> Result<u64, ForgeError> {
        let matter = self.load_matter(number)?;
        if matter.state != State::Open {
            return Err(ForgeError::NotOpen(number));
        }
        let id = self.next_id()?;
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

    /// The check result recorded for a commit, if any.
    pub fn commit_status(&self, sha: &HeadSha) -> Result<Option<CommitStatus>, ForgeError> {
        read_toml(&self.dir.join("statuses").join(format!("{}.toml", sha.0)))
    }

    /// Every matter ever opened, by number.
    pub fn all_matters(&self) -> Result<Vec<LocalMatter>, ForgeError> {
        let dir = self.dir.join("matters");
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(other("reading matters"))? {
            let path = entry.map_err(other("reading matters"))?.path();
            let number = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse().ok());
            if let Some(number) = number {
                out.push(self.load_matter(number)?);
            }
        }
        out.sort_by_key(|m| m.number);
        Ok(out)
    }

    fn info(&self, m: &LocalMatter) -> Result<MatterInfo, ForgeError> {
        let head = match &m.branch {
            Some(branch) if m.state == State::Open => self
                .repo
                .branch_head(branch)
                .map_err(|e| ForgeError::Other(e.to_string()))?
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
            head,
            merge_commit: m.merge_commit.clone().map(HeadSha),
            draft: false,
            link: None,
        })
    }

    fn next_id(&self) -> Result<u64, ForgeError> {
        let path = self.dir.join("counter.toml");
        let mut counter: Counter = read_toml(&path)?.unwrap_or(Counter { next: 1 });
        let id = counter.next.max(1);
        counter.next = id + 1;
        self.write_toml(&path, &counter)?;
        Ok(id)
    }

    fn matter_path(&self, number: u64) -> PathBuf {
        self.dir.join("matters").join(format!("{number}.toml"))
    }

    fn thread_path(&self, number: u64) -> PathBuf {
        self.dir.join("comments").join(format!("{number}.toml"))
    }

    fn load_matter(&self, number: u64) -> Result<LocalMatter, ForgeError> {
        read_toml(&self.matter_path(number))?.ok_or(ForgeError::NotFound(number))
    }

    fn save_matter(&self, matter: &LocalMatter) -> Result<(), ForgeError> {
        self.write_toml(&self.matter_path(matter.number), matter)
    }

    fn load_thread(&self, number: u64) -> Result<Thread, ForgeError> {
        Ok(read_toml(&self.thread_path(number))?.unwrap_or_default())
    }

    fn save_thread(&self, number: u64, thread: &Thread) -> Result<(), ForgeError> {
        self.write_toml(&self.thread_path(number), thread)
    }

    fn write_toml<T: Serialize>(&self, path: &Path, value: &T) -> Result<(), ForgeError> {
        let text =
            toml::to_string(value).map_err(|e| ForgeError::Other(format!("local forge: {e}")))?;
        let dir = path.parent().unwrap_or(&self.dir);
        std::fs::create_dir_all(dir).map_err(other("creating its directory"))?;
        let tmp = path.with_extension("toml.tmp");
        std::fs::write(&tmp, text).map_err(other("writing"))?;
        std::fs::rename(&tmp, path).map_err(other("writing"))
    }

    fn stamp(&self) -> Stamp<'static> {
        Stamp {
            name: "gitnomic",
            email: "gitnomic@localhost",
            at: self.now,
        }
    }

    fn open_pull(&self, number: u64) -> Result<(LocalMatter, String), ForgeError> {
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

    fn matter(&self, number: u64) -> Result<MatterInfo, ForgeError> {
        self.info(&self.load_matter(number)?)
    }

    fn comments(&self, number: u64) -> Result<Vec<ForgeComment>, ForgeError> {
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
            })
            .collect())
    }

    fn changed_files(&self, number: u64) -> Result<Vec<String>, ForgeError> {
        let matter = self.load_matter(number)?;
        let Some(branch) = matter.branch else {
            return Ok(Vec::new());
        };
        let head = matter.merge_commit.unwrap_or(branch);
        self.repo
            .changed_paths(&self.base, &head)
            .map_err(|e| ForgeError::Other(e.to_string()))
    }

    fn bot(&self) -> &str {
        BOT
    }

    fn put_status(&self, number: u64, body: &str) -> Result<(), ForgeError> {
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
                let id = self.next_id()?;
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

    fn set_labels(&self, number: u64, add: &[&str], remove: &[&str]) -> Result<(), ForgeError> {
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

    fn merge(&self, number: u64, expected: &HeadSha, message: &str) -> Result<HeadSha, ForgeError> {
        let (mut matter, branch) = self.open_pull(number)?;
        let actual = self
            .repo
            .branch_head(&branch)
            .map_err(|e| ForgeError::Other(e.to_string()))?;
        let actual = HeadSha(actual.unwrap_or_default());
        if &actual != expected {
            return Err(ForgeError::StaleHead {
                number,
                expected: expected.clone(),
                actual,
            });
        }
        match self
            .repo
            .merge_into(&self.base, &actual.0, message, &self.stamp())
        {
            Ok(MergeOutcome::Merged(id)) => {
                matter.state = State::Merged;
                matter.closed = Some(self.now);
                matter.merge_commit = Some(id.clone());
                self.save_matter(&matter)?;
                Ok(HeadSha(id))
            }
            Ok(MergeOutcome::Conflict(paths)) => Err(ForgeError::NotMergeable {
                number,
                reason: format!("it conflicts with {} in {}", self.base, paths.join(", ")),
            }),
            Err(e) => Err(ForgeError::Other(e.to_string())),
        }
    }

    fn close(&self, number: u64) -> Result<(), ForgeError> {
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
        let files = self
            .repo
            .files_at(&self.base, &[top])
            .map_err(|e| ForgeError::Other(e.to_string()))?;
        Ok(files
            .into_iter()
            .find(|(p, _)| p == path)
            .map(|(_, bytes)| String::from_utf8_lossy(&bytes).into_owned()))
    }

    fn commit_file(&self, path: &str, text: &str, message: &str) -> Result<HeadSha, ForgeError> {
        self.repo
            .commit_file(&self.base, path, text, message, &self.stamp())
            .map(HeadSha)
            .map_err(|e| ForgeError::Other(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository with `main` holding `a.txt`, and a branch `p1` that edits it.
    struct Fixture {
        dir: tempfile::TempDir,
    }

    fn t(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    impl Fixture {
        fn new() -> Self {
            let dir = tempfile::tempdir().unwrap();
            let repo = git2::Repository::init(dir.path()).unwrap();
            repo.set_head("refs/heads/main").unwrap();
            let fx = Fixture { dir };
            fx.commit("main", &[("a.txt", "one\ntwo\n")], "start");
            let main = repo
                .find_branch("main", git2::BranchType::Local)
                .unwrap()
                .get()
                .peel_to_commit()
                .unwrap();
            repo.branch("p1", &main, false).unwrap();
            fx.commit("p1", &[("a.txt", "one\nTWO\n")], "shout");
            fx
        }

        fn commit(&self, branch: &str, files: &[(&str, &str)], message: &str) -> String {
            let repo = git2::Repository::open(self.dir.path()).unwrap();
            let refname = format!("refs/heads/{branch}");
            let parent = repo
                .find_reference(&refname)
                .ok()
                .and_then(|r| r.peel_to_commit().ok());
            let mut builder = repo
                .treebuilder(parent.as_ref().map(|p| p.tree().unwrap()).as_ref())
                .unwrap();
            for (path, text) in files {
                let blob = repo.blob(text.as_bytes()).unwrap();
                builder.insert(path, blob, 0o100_644).unwrap();
            }
            let tree = repo.find_tree(builder.write().unwrap()).unwrap();
            let who =
                git2::Signature::new("T", "t@example.invalid", &git2::Time::new(1_900_000_000, 0))
                    .unwrap();
            let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
            repo.commit(Some(&refname), &who, &who, message, &tree, &parents)
                .unwrap()
                .to_string()
        }

        fn forge(&self, now: &str) -> LocalForge {
            LocalForge::open(self.dir.path(), "main", t(now)).unwrap()
        }

        fn file_on_main(&self) -> String {
            let git = git2::Repository::open(self.dir.path()).unwrap();
            let tree = git.revparse_single("main").unwrap().peel_to_tree().unwrap();
            let blob = git.find_blob(tree.get_name("a.txt").unwrap().id()).unwrap();
            String::from_utf8(blob.content().to_vec()).unwrap()
        }
    }

    fn open_p1(forge: &LocalForge) -> u64 {
        let new = NewMatter {
            kind: Kind::Proposal,
            title: "Shout",
            body: "Make two loud.",
            author: "ada",
            branch: Some("p1"),
        };
        forge.open_matter(&new).unwrap()
    }

    #[test]
    fn opens_lists_and_comments() {
        let fx = Fixture::new();
        let forge = fx.forge("2030-01-01T00:00:00Z");
        let n = open_p1(&forge);
        let id = forge.add_comment(n, "boris", "FOR").unwrap();
        assert!(id > n, "comments and matters share one counter");
        let open = forge.open_matters().unwrap();
        assert_eq!(open.len(), 1);
        assert_eq!(open[0].kind(), Some(Kind::Proposal));
        assert_eq!(open[0].opened, t("2030-01-01T00:00:00Z"));
        assert!(open[0].head.is_some());
        assert_eq!(forge.comments(n).unwrap()[0].body, "FOR");
        assert_eq!(forge.changed_files(n).unwrap(), ["a.txt"]);
        assert!(matches!(forge.comments(99), Err(ForgeError::NotFound(99))));
    }

    #[test]
    fn merges_only_the_expected_head() {
        let fx = Fixture::new();
        let forge = fx.forge("2030-01-02T00:00:00Z");
        let n = open_p1(&forge);
        let head = forge.matter(n).unwrap().head.unwrap();
        let stale = HeadSha("0".repeat(40));
        assert!(matches!(
            forge.merge(n, &stale, "m"),
            Err(ForgeError::StaleHead { .. })
        ));
        assert_eq!(fx.file_on_main(), "one\ntwo\n", "nothing merged");
        let merge = forge.merge(n, &head, "Enact #1").unwrap();
        assert_eq!(fx.file_on_main(), "one\nTWO\n");
        assert!(forge.open_matters().unwrap().is_empty());
        assert!(
            matches!(forge.merge(n, &head, "again"), Err(ForgeError::NotOpen(_))),
            "never merged twice"
        );
        let repo = git2::Repository::open(fx.dir.path()).unwrap();
        let commit = repo
            .revparse_single("main")
            .unwrap()
            .peel_to_commit()
            .unwrap();
        assert_eq!(commit.id().to_string(), merge.0);
        assert_eq!(commit.parent_count(), 2);
    }

    #[test]
    fn a_conflicting_merge_changes_nothing() {
        let fx = Fixture::new();
        fx.commit("main", &[("a.txt", "one\nzwei\n")], "translate");
        let forge = fx.forge("2030-01-02T00:00:00Z");
        let n = open_p1(&forge);
        let head = forge.matter(n).unwrap().head.unwrap();
        let err = forge.merge(n, &head, "m").unwrap_err();
        assert!(matches!(err, ForgeError::NotMergeable { .. }), "{err}");
        assert!(err.to_string().contains("a.txt"), "{err}");
        assert_eq!(fx.file_on_main(), "one\nzwei\n");
        assert_eq!(forge.open_matters().unwrap().len(), 1, "still open");
    }

    #[test]
    fn one_status_comment_edited_in_place() {
        let fx = Fixture::new();
        let forge = fx.forge("2030-01-01T00:00:00Z");
        let n = open_p1(&forge);
        forge
            .put_status(n, "<!-- gitnomic:status -->\nwaiting")
            .unwrap();
        forge.add_comment(n, "boris", "FOR").unwrap();
        forge
            .put_status(n, "<!-- gitnomic:status -->\nenacting")
            .unwrap();
        let comments = forge.comments(n).unwrap();
        assert_eq!(comments.len(), 2);
        assert_eq!(
            forge.status_comment(n).unwrap().unwrap().body,
            "<!-- gitnomic:status -->\nenacting"
        );
        // A player cannot forge the bot's status by writing the marker.
        let m = open_p1(&forge);
        forge
            .add_comment(m, "mallory", "<!-- gitnomic:status -->\nenacted!")
            .unwrap();
        assert!(forge.status_comment(m).unwrap().is_none());
    }

    #[test]
    fn commits_a_file_and_closes() {
        let fx = Fixture::new();
        let forge = fx.forge("2030-01-03T00:00:00Z");
        let n = open_p1(&forge);
        forge.close(n).unwrap();
        assert!(matches!(forge.close(n), Err(ForgeError::NotOpen(_))));
        assert!(matches!(
            forge.add_comment(n, "x", "FOR"),
            Err(ForgeError::NotOpen(_))
        ));
        forge
            .commit_file("content/matters/00001.md", "record\n", "Record #1")
            .unwrap();
        let repo = Repo::open(fx.dir.path()).unwrap();
        let files = repo.files_at("main", &["content"]).unwrap();
        assert_eq!(
            files,
            [("content/matters/00001.md".to_string(), b"record\n".to_vec())]
        );
    }
}
