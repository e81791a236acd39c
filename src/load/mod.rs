//! EDGE: reading a game's files from a directory or a git revision.
//!
//! Everything after this point works on [`SourceFile`]s, so `check` reads a
//! pull request's head commit exactly as it reads a work tree.

pub(crate) mod audit;
pub(crate) mod dice;
pub mod kept_timeline;
pub mod timeline;

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::game::is_game_file;
use crate::git::{GitError, Repo};
use crate::source::SourceFile;

/// Where a game's files come from.
#[derive(Debug, Clone)]
pub enum Origin {
    /// A directory on disk (a work tree).
    Dir(PathBuf),
    /// A revision of the git repository at `repo`, read without a checkout.
    Revision {
        /// The repository.
        repo: PathBuf,
        /// The revision (branch, tag, SHA…).
        rev: String,
    },
}

/// A game that could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A directory or file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// What we tried to read.
        path: String,
        /// Why not.
        source: std::io::Error,
    },
    /// git could not provide the files.
    #[error(transparent)]
    Git(#[from] GitError),
    /// A game file is not UTF-8 text.
    #[error("{0} is not UTF-8 text")]
    NotText(String),
    /// Neither rules/ nor state/ is there.
    #[error("{0} holds no rules/ or state/ directory: is it a gitnomic game?")]
    NotAGame(String),
}

/// Whether `path` is under rules/ or state/, which every game has.
pub(crate) fn is_game_core(path: &str) -> bool {
    path.starts_with("rules/") || path.starts_with("state/")
}

/// Reads every game file under the directories `dirs` of `origin`.
pub fn read(origin: &Origin, dirs: &[&str]) -> Result<Vec<SourceFile>, LoadError> {
    match origin {
        Origin::Dir(root) => a_game(read_dir(root, dirs)?, || root.display().to_string()),
        Origin::Revision { repo, rev } => read_game_at(&Repo::open(repo)?, repo, rev, dirs),
    }
}

/// Reads every game file under the directories `dirs` at revision `rev`
/// of `repo`, a repository already open (its work tree at `root`, for
/// the error naming it).
pub fn read_game_at(
    repo: &Repo,
    root: &Path,
    rev: &str,
    dirs: &[&str],
) -> Result<Vec<SourceFile>, LoadError> {
    a_game(read_revision(repo, rev, dirs)?, || {
        format!("{rev} of {}", root.display())
    })
}

/// `files`, if they hold a game: rules/ or state/.
fn a_game(
    files: Vec<SourceFile>,
    origin: impl FnOnce() -> String,
) -> Result<Vec<SourceFile>, LoadError> {
    if files.iter().any(|f| is_game_core(&f.path)) {
        Ok(files)
    } else {
        Err(LoadError::NotAGame(origin()))
    }
}

/// Reads every game file under `dirs` at revision `rev` of an open
/// repository (a pull request's head, say), without a checkout.
pub fn read_revision(repo: &Repo, rev: &str, dirs: &[&str]) -> Result<Vec<SourceFile>, LoadError> {
    Ok(repo.game_files(rev, dirs)?)
}

fn read_dir(root: &Path, dirs: &[&str]) -> Result<Vec<SourceFile>, LoadError> {
    // Tens of thousands of records are read faster in parallel.
    list_dir(root, dirs)?
        .into_par_iter()
        .map(|(name, path)| read_text(name, &path))
        .collect()
}

/// Every game file under `dirs` of `root`: its name in the game and its
/// path, in the order of their names within each directory.
pub(crate) fn list_dir(root: &Path, dirs: &[&str]) -> Result<Vec<(String, PathBuf)>, LoadError> {
    let mut found = Vec::new();
    for dir in dirs {
        let top = root.join(dir);
        if top.is_dir() {
            list_into(&top, dir, &mut found)?;
        }
    }
    Ok(found)
}

/// Adds the game files under `dir` (named `name` in the game) to `found`.
/// By hand rather than with a generic walker: a directory of tens of
/// thousands of records is sorted by names made once, not compared path
/// by path.
fn list_into(dir: &Path, name: &str, found: &mut Vec<(String, PathBuf)>) -> Result<(), LoadError> {
    let io = |source| LoadError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let entry = entry.map_err(io)?;
        let kind = entry.file_type().map_err(io)?;
        let file_name = entry
            .file_name()
            .into_string()
            .unwrap_or_else(|name| name.to_string_lossy().into_owned());
        entries.push((file_name, kind, entry));
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (file_name, kind, entry) in entries {
        let child = format!("{name}/{file_name}");
        if kind.is_dir() {
            list_into(&entry.path(), &child, found)?;
        } else if kind.is_file() && is_game_file(&file_name) {
            found.push((child, entry.path()));
        }
    }
    Ok(())
}

/// The file at `path`, named `name` in the game.
pub(crate) fn read_text(name: String, path: &Path) -> Result<SourceFile, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|source| io_error(&name, path, source))?;
    Ok(SourceFile::new(name, text))
}

pub(crate) fn io_error(name: &str, path: &Path, source: std::io::Error) -> LoadError {
    match source.kind() {
        std::io::ErrorKind::InvalidData => LoadError::NotText(name.to_string()),
        _ => LoadError::Io {
            path: path.display().to_string(),
            source,
        },
    }
}
