//! EDGE: reading a game's files from a directory or a git revision.
//!
//! Everything after this point works on [`SourceFile`]s, so `check` reads a
//! pull request's head commit exactly as it reads a work tree.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::git::{GitError, Repo};
use crate::source::SourceFile;

/// The top-level directories that make up a game.
pub const GAME_DIRS: &[&str] = &["rules", "state", "content"];

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

/// Whether a path is a game file (Markdown or TOML); others (images…) are skipped.
pub fn is_game_file(path: &str) -> bool {
    path.ends_with(".md") || path.ends_with(".toml")
}

/// Reads every game file under the directories `dirs` of `origin`.
pub fn read(origin: &Origin, dirs: &[&str]) -> Result<Vec<SourceFile>, LoadError> {
    let files = match origin {
        Origin::Dir(root) => read_dir(root, dirs)?,
        Origin::Revision { repo, rev } => read_revision(&Repo::open(repo)?, rev, dirs)?,
    };
    let has_game = files
        .iter()
        .any(|f| f.path.starts_with("rules/") || f.path.starts_with("state/"));
    if has_game {
        Ok(files)
    } else {
        Err(LoadError::NotAGame(match origin {
            Origin::Dir(root) => root.display().to_string(),
            Origin::Revision { repo, rev } => format!("{rev} of {}", repo.display()),
        }))
    }
}

/// Reads every game file under `dirs` at revision `rev` of an open
/// repository (a pull request's head, say), without a checkout.
pub fn read_revision(repo: &Repo, rev: &str, dirs: &[&str]) -> Result<Vec<SourceFile>, LoadError> {
    repo.files_at(rev, dirs)?
        .into_iter()
        .filter(|(path, _)| is_game_file(path))
        .map(|(path, bytes)| {
            String::from_utf8(bytes)
                .map(|text| SourceFile::new(&path, text))
                .map_err(|_| LoadError::NotText(path))
        })
        .collect()
}

fn read_dir(root: &Path, dirs: &[&str]) -> Result<Vec<SourceFile>, LoadError> {
    let mut found = Vec::new();
    for dir in dirs {
        let top = root.join(dir);
        if !top.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&top).sort_by_file_name() {
            let entry = entry.map_err(|e| LoadError::Io {
                path: e.path().unwrap_or(&top).display().to_string(),
                source: e.into(),
            })?;
            let path = entry.path();
            let relative = path.strip_prefix(root).unwrap_or(path);
            let name: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let name = name.join("/");
            if entry.file_type().is_file() && is_game_file(&name) {
                found.push((name, entry.into_path()));
            }
        }
    }
    // Tens of thousands of records are read faster in parallel.
    found
        .into_par_iter()
        .map(|(name, path)| {
            let text = std::fs::read_to_string(&path).map_err(|source| match source.kind() {
                std::io::ErrorKind::InvalidData => LoadError::NotText(name.clone()),
                _ => LoadError::Io {
                    path: path.display().to_string(),
                    source,
                },
            })?;
            Ok(SourceFile::new(name, text))
        })
        .collect()
}
