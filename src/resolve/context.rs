//! EDGE: what one command works from, opened once: the game's repository,
//! the game on the default branch read and checked, and (when first asked
//! for: `log` and `play close` never merge) the trial merges against it. `resolve`, `check --pr` (the [`Door`]), `play`
//! and `log` each open one and hand it on, so the game on the default
//! branch is read once a command however many parts look at it.
//!
//! [`Door`]: super::door::Door

use std::path::{Path, PathBuf};

use crate::engine::Params;
use crate::game::{GAME_DIRS, Game};
use crate::gamestate::GameState;
use crate::git::trial::GitTrial;
use crate::git::{GitError, Repo};
use crate::load::{self, LoadError};

/// The game on the default branch as one command sees it.
pub(crate) struct Context {
    /// The repository's work tree (or git directory).
    root: PathBuf,
    /// The default branch.
    pub(crate) branch: String,
    /// The repository, opened once.
    pub(crate) repo: Repo,
    /// Trial merges against the branch's tip, in memory (see [`GitTrial`]),
    /// once asked for.
    trial: Option<GitTrial>,
    /// The game on the branch, checked (its problems are for the caller
    /// to weigh: `resolve` refuses any, `play` reads what it can).
    pub(crate) game: Game,
}

/// Why no context could be opened: callers word the two differently.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ContextError {
    /// The repository cannot be opened.
    #[error(transparent)]
    Repository(#[from] GitError),
    /// The game on the branch cannot be read at all.
    #[error(transparent)]
    Read(#[from] LoadError),
}

impl Context {
    /// Opens the repository at `root` and reads the game on `branch`.
    pub(crate) fn open(root: &Path, branch: &str) -> Result<Context, ContextError> {
        Context::on(Repo::open(root)?, root, branch)
    }

    /// Reads the game on `branch` of `repo`, already open at `root` (as
    /// `resolve` opens it first, to take its lock before reading).
    pub(crate) fn on(repo: Repo, root: &Path, branch: &str) -> Result<Context, ContextError> {
        let game = Game::check(&load::read_game_at(&repo, root, branch, GAME_DIRS)?);
        Ok(Context {
            root: root.to_path_buf(),
            branch: branch.to_string(),
            repo,
            trial: None,
            game,
        })
    }

    /// The trial merges against the branch, opened the first time.
    pub(crate) fn trial(&mut self) -> Result<&mut GitTrial, GitError> {
        if self.trial.is_none() {
            self.trial = Some(GitTrial::open(&self.root, &self.branch)?);
        }
        Ok(self.trial.as_mut().expect("opened above"))
    }

    /// What a plan is made from: the game, the repository and the trial
    /// merges (opened the first time).
    pub(crate) fn planning(&mut self) -> Result<(&Game, &Repo, &mut GitTrial), GitError> {
        self.trial()?;
        let trial = self.trial.as_mut().expect("opened above");
        Ok((&self.game, &self.repo, trial))
    }

    /// The game's state, if `state/` reads.
    pub(crate) fn state(&self) -> Option<&GameState> {
        self.game.state.as_ref()
    }

    /// The rules' parameters, if they read.
    pub(crate) fn params(&self) -> Option<&Params> {
        self.game.params.as_ref()
    }
}
