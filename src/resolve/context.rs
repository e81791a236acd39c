//! EDGE: what one command works from, opened once: the game's repository,
//! the trial merges against the default branch, and the game on that
//! branch read and checked. `resolve`, `check --pr` (the [`Door`]), `play`
//! and `log` each open one and hand it on, so the game on the default
//! branch is read once a command however many parts look at it.
//!
//! [`Door`]: super::door::Door

use std::path::Path;

use crate::engine::Params;
use crate::game::{GAME_DIRS, Game};
use crate::gamestate::GameState;
use crate::git::trial::GitTrial;
use crate::git::{GitError, Repo};
use crate::load::{self, LoadError};

/// The game on the default branch as one command sees it.
pub(crate) struct Context {
    /// The default branch.
    pub(crate) branch: String,
    /// The repository, opened once.
    pub(crate) repo: Repo,
    /// Trial merges against the branch's tip, in memory (see [`GitTrial`]).
    pub(crate) trial: GitTrial,
    /// The game on the branch, checked (its problems are for the caller
    /// to weigh: `resolve` refuses any, `play` reads what it can).
    pub(crate) game: Game,
}

/// Why no context could be opened: callers word the two differently.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ContextError {
    /// The repository (or its trial-merge handle) cannot be opened.
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
        let trial = GitTrial::open(root, branch)?;
        Ok(Context {
            branch: branch.to_string(),
            repo,
            trial,
            game,
        })
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
