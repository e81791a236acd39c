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
use std::sync::Arc;

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
    /// A game file in the history is not UTF-8.
    #[error("{path} at commit {commit} is not UTF-8 text")]
    NotText {
        /// The file.
        path: String,
        /// The commit.
        commit: String,
    },
}

/// What was read, for the build's report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimelineStats {
    /// Commits walked.
    pub commits: usize,
    /// Distinct (rules, state) pairs parsed.
    pub parsed: usize,
    /// Distinct blobs read.
    pub blobs: usize,
}

/// Reads the history of `rev` in the repository at `repo`.
pub fn read(repo: &Path, rev: &str) -> Result<(Timeline, TimelineStats), TimelineError> {
    let repo = Repo::open(repo)?;
    let commits = repo.first_parent_history(rev, &["rules", "state"])?;
    let mut reader = Reader {
        repo: &repo,
        blobs: HashMap::new(),
    };
    let mut timeline = Timeline::default();
    let mut stats = TimelineStats {
        commits: commits.len(),
        ..TimelineStats::default()
    };
    let mut last: Option<(Option<&String>, Option<&String>)> = None;
    let mut log = StateLog::default();
    // Each state's rules are mostly the state before's: each rule file is
    // parsed, and each text rendered, once.
    let memo = CheckMemo::default();
    for commit in &commits {
        let Some(rules) = commit.trees.get("rules") else {
            continue;
        };
        let state = commit.trees.get("state");
        let key = (Some(rules), state);
        if last == Some(key) {
            continue;
        }
        let state_changed = last.is_none_or(|(_, s)| s != state);
        last = Some(key);
        let mut files = reader.files(rules, "rules/", &commit.id)?;
        if let Some(state) = state {
            files.extend(reader.files(state, "state/", &commit.id)?);
        }
        stats.parsed += 1;
        let game = Game::check_remembering(&files, &memo);
        let time = Timestamp::from_unix(commit.time);
        let changed = timeline
            .revisions
            .last()
            .is_none_or(|r| *r.ruleset != game.ruleset);
        if changed {
            timeline.revisions.push(Revision {
                number: timeline.revisions.len() + 1,
                commit: commit.id.clone(),
                time,
                summary: commit.summary.clone(),
                ruleset: Arc::new(game.ruleset.clone()),
            });
        }
        if state_changed {
            log.note(&repo, commit, time, &files)?;
        }
        if state_changed && let Some(sample) = sample(&game, time) {
            timeline.samples.push(sample);
        }
    }
    timeline.changes = log.changes();
    stats.blobs = reader.blobs.len();
    Ok((timeline, stats))
}

/// The versions of state/variables.toml and state/collections.toml, for
/// the gamestate log: (commit, time, message, author, text) each.
#[derive(Default)]
struct StateLog {
    variables: Vec<(String, Timestamp, String, String, String)>,
    collections: Vec<(String, Timestamp, String, String, String)>,
}

impl StateLog {
    /// Keeps the versions of commit `commit` that differ from the last.
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
        for (path, list) in [
            (VARIABLES_FILE, &mut self.variables),
            (COLLECTIONS_FILE, &mut self.collections),
        ] {
            let now = text(path);
            if list.last().map_or(now.is_empty(), |v| v.4 == now) {
                continue;
            }
            if message.is_none() {
                message = Some(repo.message_of(&commit.id)?);
            }
            let (msg, author) = message.clone().unwrap_or_default();
            list.push((commit.id.clone(), time, msg, author, now));
        }
        Ok(())
    }

    /// Every change, oldest first.
    fn changes(&self) -> Vec<Change> {
        changelog::merge(
            changelog::changes(&versions(&self.variables)),
            changelog::collection_changes(&versions(&self.collections)),
        )
    }
}

/// Noted versions as the changelog reads them.
fn versions(list: &[(String, Timestamp, String, String, String)]) -> Vec<Version<'_>> {
    list.iter()
        .map(|(commit, at, message, author, text)| Version {
            commit,
            at: *at,
            message,
            author,
            text,
        })
        .collect()
}

/// Reads trees, remembering every blob by id.
struct Reader<'r> {
    repo: &'r Repo,
    blobs: HashMap<String, String>,
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
                let text = String::from_utf8(bytes).map_err(|_| TimelineError::NotText {
                    path: path.clone(),
                    commit: commit.to_string(),
                })?;
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
