//! EDGE: writing rendered files to a directory.
//!
//! Renderers return `BTreeMap<relative path, text>`; this is the one place
//! such a map meets the disk. A file whose bytes are already there is not
//! rewritten, so a rebuild touches only what changed (and servers, rsync or
//! a browser cache see unchanged modification times). Writes run in
//! parallel: at twenty years of history there are tens of thousands.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

/// What a write did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriteStats {
    /// Files created or changed.
    pub written: usize,
    /// Files already holding the same bytes.
    pub unchanged: usize,
    /// Files of an earlier build that this build no longer makes.
    pub removed: usize,
}

/// A file that could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// A path that would leave the output directory.
    #[error("refusing to write outside the output directory: {0}")]
    Escapes(String),
    /// The disk said no.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Writes every file of `files` under `root`, leaving files with the same
/// bytes untouched. With `manifest` (a file name under `root`), also
/// removes files that the previous write listed there and this one does
/// not make, then records this write's list: files nobody wrote are never
/// removed.
pub fn write(
    root: &Path,
    files: &BTreeMap<String, String>,
    manifest: Option<&str>,
) -> Result<WriteStats, PublishError> {
    if let Some(bad) = files.keys().find(|p| !is_safe(p)) {
        return Err(PublishError::Escapes(bad.clone()));
    }
    // Directories first, once each: a clean write of tens of thousands of
    // files then costs one create per file and nothing more.
    let dirs: BTreeSet<&str> = files
        .keys()
        .filter_map(|p| p.rsplit_once('/').map(|(dir, _)| dir))
        .collect();
    for dir in dirs {
        let dir = root.join(dir);
        std::fs::create_dir_all(&dir).map_err(|source| PublishError::Io { path: dir, source })?;
    }
    std::fs::create_dir_all(root).map_err(|source| PublishError::Io {
        path: root.to_path_buf(),
        source,
    })?;
    let outcomes: Vec<bool> = files
        .par_iter()
        .map(|(path, text)| write_one(&root.join(path), text.as_bytes()))
        .collect::<Result<_, _>>()?;
    let written = outcomes.iter().filter(|w| **w).count();
    let mut stats = WriteStats {
        written,
        unchanged: outcomes.len() - written,
        removed: 0,
    };
    if let Some(name) = manifest {
        stats.removed = prune(root, name, files)?;
    }
    Ok(stats)
}

/// A relative path with no `..`, no root and no empty parts.
fn is_safe(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'))
}

/// Writes one file (its directory exists) unless it already holds
/// `bytes`; true if it wrote.
fn write_one(path: &Path, bytes: &[u8]) -> Result<bool, PublishError> {
    let io = |source| PublishError::Io {
        path: path.to_path_buf(),
        source,
    };
    let same_length = std::fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64);
    if same_length && std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    std::fs::write(path, bytes).map_err(io)?;
    Ok(true)
}

/// Removes files listed in the old manifest but not made now, then writes
/// the new manifest. Returns how many were removed.
fn prune(root: &Path, name: &str, files: &BTreeMap<String, String>) -> Result<usize, PublishError> {
    let path = root.join(name);
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let now: BTreeSet<&str> = files.keys().map(String::as_str).collect();
    let mut removed = 0;
    for stale in old.lines().filter(|p| is_safe(p) && !now.contains(p)) {
        match std::fs::remove_file(root.join(stale)) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(PublishError::Io {
                    path: root.join(stale),
                    source,
                });
            }
        }
    }
    let mut list = String::new();
    for p in now {
        list.push_str(p);
        list.push('\n');
    }
    write_one(&path, list.as_bytes())?;
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn writes_changes_only_and_prunes_what_it_wrote_before() {
        let dir = tempfile::tempdir().unwrap();
        let first = map(&[("a/index.html", "A"), ("b.css", "B")]);
        let stats = write(dir.path(), &first, Some(".manifest")).unwrap();
        assert_eq!((stats.written, stats.unchanged), (2, 0));
        std::fs::write(dir.path().join("mine.txt"), "not ours").unwrap();
        let second = map(&[("a/index.html", "A2"), ("c.js", "C")]);
        let stats = write(dir.path(), &second, Some(".manifest")).unwrap();
        assert_eq!(
            stats,
            WriteStats {
                written: 2,
                unchanged: 0,
                removed: 1
            }
        );
        assert!(!dir.path().join("b.css").exists());
        assert!(dir.path().join("mine.txt").exists());
        let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
        assert_eq!(read("a/index.html"), "A2");
        let stats = write(dir.path(), &second, Some(".manifest")).unwrap();
        assert_eq!((stats.written, stats.unchanged), (0, 2));
    }

    #[test]
    fn refuses_paths_that_escape() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x", "/etc/x", "a//b", "a/./b"] {
            let err = write(dir.path(), &map(&[(bad, "x")]), None).unwrap_err();
            assert!(matches!(err, PublishError::Escapes(_)), "{bad}");
        }
    }
}
