//! EDGE: the game's history read from git once, for the site.
//!
//! Walks the first-parent history of a revision and keeps one
//! [`Revision`] per distinct ruleset and one [`Sample`] per change to
//! `state/`. Everything is content-addressed: a commit whose `rules/` and
//! `state/` trees are those of the commit before costs nothing, every blob
//! is read once however many commits share it, and each distinct pair of
//! trees is parsed once.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::is_game_file;
use crate::game::timeline::{Revision, Sample, Timeline};
use crate::game::{CheckMemo, Game};
use crate::gamestate::set_value::{COLLECTIONS_FILE, VARIABLES_FILE};
use crate::git::{GitError, Repo};
use crate::record::changelog::{self, Change, Version};
use crate::source::SourceFile;
use crate::time::Timestamp;

/// The history could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TimelineError {
    /// git could not read it.
    #[error(transparent)]
    Git(#[from] GitError),
}

/// What was read, for the build's report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TimelineStats {
    /// Commits walked by this read (those an earlier one walked are not).
    pub commits: usize,
    /// Commits an earlier read had walked, not walked again.
    pub earlier: usize,
    /// Distinct (rules, state) pairs parsed.
    pub parsed: usize,
    /// Distinct blobs read.
    pub blobs: usize,
    /// Game files met by this read that are not UTF-8 text, each once:
    /// the path and the first commit that holds it. Such a file is read
    /// with its bad bytes replaced (as a forge shows it), so that one
    /// file pushed to main cannot take the whole history from the site.
    pub not_text: Vec<(String, String)>,
}

/// Reads the history of `rev` in the repository at `repo`.
pub fn read(repo: &Path, rev: &str) -> Result<(Timeline, TimelineStats), TimelineError> {
    let (timeline, _, stats) = read_after(repo, rev, Walk::default())?;
    Ok((timeline, stats))
}

/// Reads the history of `rev` in the repository at `repo`, going on from
/// `walked`, a read of an earlier commit on it (an earlier build's): only
/// the commits after that one are read. A walk of a commit that is not on
/// the history (another branch, a history rewritten) is set aside and the
/// whole history read. Gives the timeline, the walk to go on from next
/// time, and what was read.
pub fn read_after(
    repo: &Path,
    rev: &str,
    walked: Walk,
) -> Result<(Timeline, Walk, TimelineStats), TimelineError> {
    let repo = Repo::open(repo)?;
    // A shallow clone's history starts where the clone cut it, and a walk
    // of it would miss what a later fetch puts before: such a walk is
    // neither gone on from nor made to go on from.
    let shallow = repo.is_shallow();
    let after = (!shallow && !walked.shallow)
        .then_some(walked.tip.as_deref())
        .flatten();
    let (commits, on_it) = repo.first_parent_history_after(rev, &["rules", "state"], after)?;
    let mut walk = if on_it { walked } else { Walk::default() };
    walk.shallow = shallow;
    let mut reader = Reader {
        repo: &repo,
        blobs: HashMap::new(),
        not_text: Vec::new(),
    };
    let mut stats = TimelineStats {
        commits: commits.len(),
        ..TimelineStats::default()
    };
    // Each state's rules are mostly the state before's: each rule file is
    // parsed, and each text rendered, once.
    let memo = CheckMemo::default();
    let earlier = walk.walked;
    for commit in &commits {
        walk.tip = Some(commit.id.clone());
        walk.walked += 1;
        let Some(rules) = commit.trees.get("rules") else {
            continue;
        };
        let state = commit.trees.get("state");
        let key = (rules.clone(), state.cloned());
        if walk.last.as_ref() == Some(&key) {
            continue;
        }
        let state_changed = walk.last.as_ref().is_none_or(|(_, s)| s.as_ref() != state);
        walk.last = Some(key);
        let mut files = reader.files(rules, "rules/", &commit.id)?;
        if let Some(state) = state {
            files.extend(reader.files(state, "state/", &commit.id)?);
        }
        stats.parsed += 1;
        let game = Game::check_remembering(&files, &memo);
        let time = Timestamp::from_unix(commit.time);
        let changed = walk
            .revisions
            .last()
            .is_none_or(|r| *r.ruleset != game.ruleset);
        if changed {
            walk.revisions.push(Revision::new(
                walk.revisions.len() + 1,
                commit.id.clone(),
                time,
                commit.summary.clone(),
                game.ruleset.clone(),
            ));
        }
        if state_changed {
            walk.log.note(&repo, commit, time, &files)?;
        }
        if state_changed && let Some(sample) = sample(&game, time) {
            walk.samples.push(sample);
        }
    }
    stats.blobs = reader.blobs.len();
    stats.not_text = reader.not_text;
    stats.earlier = earlier;
    Ok((walk.timeline(), walk, stats))
}

/// Where a read of the history stopped, with all it found: what a read of
/// a later commit goes on from (see [`read_after`]), and what a build
/// keeps for the next (see [`crate::load::kept_timeline`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Walk {
    /// The last commit read.
    pub(crate) tip: Option<String>,
    /// How many commits were read, up to it.
    pub(crate) walked: usize,
    /// Whether it was read from a shallow clone (see [`read_after`]).
    pub(crate) shallow: bool,
    /// The `rules/` and `state/` trees of the last commit that had rules.
    pub(crate) last: Option<(String, Option<String>)>,
    /// Every distinct ruleset so far.
    pub(crate) revisions: Vec<Revision>,
    /// The numeric variables at every change to `state/` so far.
    pub(crate) samples: Vec<Sample>,
    /// The changes to variables and collections so far.
    pub(crate) log: StateLog,
}

impl Walk {
    /// The commit the walk has read up to, if any.
    pub fn tip(&self) -> Option<&str> {
        self.tip.as_deref()
    }

    /// The timeline the walk has found.
    pub fn timeline(&self) -> Timeline {
        Timeline {
            revisions: self.revisions.clone(),
            samples: self.samples.clone(),
            changes: changelog::merge(
                self.log.variables.changes.clone(),
                self.log.collections.changes.clone(),
            ),
        }
    }
}

/// The changes to state/variables.toml and state/collections.toml, for
/// the gamestate log, each file's found as its versions are met.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct StateLog {
    variables: FileLog,
    collections: FileLog,
}

/// One state file's changes so far, and its last version, which the next
/// is compared with.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct FileLog {
    last: Option<Noted>,
    changes: Vec<Change>,
}

/// A version of a state file: its commit, time, message, author and text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Noted {
    commit: String,
    at: Timestamp,
    message: String,
    author: String,
    text: String,
}

impl Noted {
    fn version(&self) -> Version<'_> {
        Version {
            commit: &self.commit,
            at: self.at,
            message: &self.message,
            author: &self.author,
            text: &self.text,
        }
    }
}

impl StateLog {
    /// Logs the changes of commit `commit` to each file whose text differs
    /// from its last version.
    fn note(
        &mut self,
        repo: &Repo,
        commit: &crate::git::CommitTrees,
        time: Timestamp,
        files: &[SourceFile],
    ) -> Result<(), TimelineError> {
        let text = |path: &str| {
            files
                .iter()
                .find(|f| f.path == path)
                .map_or_else(String::new, |f| f.text.clone())
        };
        let mut message = None;
        for (path, log, changes) in [
            (
                VARIABLES_FILE,
                &mut self.variables,
                changelog::changes_after as Found,
            ),
            (
                COLLECTIONS_FILE,
                &mut self.collections,
                changelog::collection_changes_after,
            ),
        ] {
            let now = text(path);
            if log.last.as_ref().map_or(now.is_empty(), |v| v.text == now) {
                continue;
            }
            if message.is_none() {
                message = Some(repo.message_of(&commit.id)?);
            }
            let (message, author) = message.clone().unwrap_or_default();
            let noted = Noted {
                commit: commit.id.clone(),
                at: time,
                message,
                author,
                text: now,
            };
            let before = log.last.as_ref().map(Noted::version);
            log.changes
                .extend(changes(before.as_ref(), &noted.version()));
            log.last = Some(noted);
        }
        Ok(())
    }
}

/// The changes a version makes to a state file after the version before
/// (none: the file is new).
type Found = fn(Option<&Version<'_>>, &Version<'_>) -> Vec<Change>;

/// Reads trees, remembering every blob by id.
struct Reader<'r> {
    repo: &'r Repo,
    blobs: HashMap<String, String>,
    /// The files whose blob was not UTF-8, with the commit that held it.
    not_text: Vec<(String, String)>,
}

impl Reader<'_> {
    /// The game files of `tree`, with `prefix` before their paths.
    fn files(
        &mut self,
        tree: &str,
        prefix: &str,
        commit: &str,
    ) -> Result<Vec<SourceFile>, TimelineError> {
        let mut files = Vec::new();
        for (path, blob) in self.repo.tree_blobs(tree)? {
            let path = format!("{prefix}{path}");
            if !is_game_file(&path) {
                continue;
            }
            if !self.blobs.contains_key(&blob) {
                let bytes = self.repo.blob(&blob)?;
                let text = String::from_utf8(bytes).unwrap_or_else(|e| {
                    self.not_text.push((path.clone(), commit.to_string()));
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                });
                self.blobs.insert(blob.clone(), text);
            }
            let text = self.blobs.get(&blob).cloned().unwrap_or_default();
            files.push(SourceFile::new(path, text));
        }
        Ok(files)
    }
}

/// The integer variables of a game, if its state could be read.
fn sample(game: &Game, time: Timestamp) -> Option<Sample> {
    let state = game.state.as_ref()?;
    let globals = state
        .globals
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), v.as_integer()?)))
        .collect();
    let mut players: BTreeMap<String, BTreeMap<String, i64>> = BTreeMap::new();
    for (player, values) in &state.values {
        for (var, value) in values {
            if let Some(n) = value.as_integer() {
                players
                    .entry(var.clone())
                    .or_default()
                    .insert(player.clone(), n);
            }
        }
    }
    Some(Sample {
        time,
        globals,
        players,
    })
}
