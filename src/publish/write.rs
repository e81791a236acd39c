//! EDGE: writing rendered files to a directory.
//!
//! Renderers return `BTreeMap<relative path, text>`; this is the one place
//! such a map meets the disk. A file whose bytes are already there is not
//! rewritten, so a rebuild touches only what changed (and servers, rsync or
//! a browser cache see unchanged modification times). Writes run in
//! parallel: at twenty years of history there are tens of thousands.

use std::collections::{BTreeMap, BTreeSet, HashSet};
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
/// bytes untouched, then removes the files of `stale`: what an earlier
/// write made and this one no longer does (the caller keeps that list, so
/// files nobody wrote are never removed).
pub fn write(
    root: &Path,
    files: &BTreeMap<String, String>,
    stale: &[&str],
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
    Ok(WriteStats {
        written,
        unchanged: outcomes.len() - written,
        removed: remove(root, stale)?,
    })
}

/// Writes files one at a time as a build hands them over, while it goes
/// on rendering the rest: at tens of thousands of pages the file system's
/// work (a create per file, one at a time in a directory, whose lock
/// makes parallel creates wait for each other) then overlaps the
/// rendering instead of following it. Directories are made as the first
/// file in each arrives.
pub struct Writer<'w> {
    root: &'w Path,
    /// The directories made (or found) so far, relative to `root`.
    dirs: HashSet<String>,
    stats: WriteStats,
    /// Runs once, before the first file that changes: what the output's
    /// state stands for (a cache of what it holds) stops standing then.
    before_first: Option<Box<dyn FnOnce() -> Result<(), PublishError> + Send + 'w>>,
}

impl<'w> Writer<'w> {
    /// A writer into `root` (made if missing), which runs `before_first`
    /// before its first write, and never if nothing changes.
    pub fn new(
        root: &'w Path,
        before_first: impl FnOnce() -> Result<(), PublishError> + Send + 'w,
    ) -> Writer<'w> {
        Writer {
            root,
            dirs: HashSet::new(),
            stats: WriteStats::default(),
            before_first: Some(Box::new(before_first)),
        }
    }

    /// Writes `text` to `path` under the root unless it already holds it.
    pub fn file(&mut self, path: &str, text: &str) -> Result<(), PublishError> {
        if !is_safe(path) {
            return Err(PublishError::Escapes(path.to_string()));
        }
        let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
        if !self.dirs.contains(dir) {
            let full = self.root.join(dir);
            std::fs::create_dir_all(&full)
                .map_err(|source| PublishError::Io { path: full, source })?;
            self.dirs.insert(dir.to_string());
        }
        let file = self.root.join(path);
        if same_bytes(&file, text.as_bytes()) {
            self.stats.unchanged += 1;
            return Ok(());
        }
        if let Some(before) = self.before_first.take() {
            before()?;
        }
        std::fs::write(&file, text).map_err(|source| PublishError::Io { path: file, source })?;
        self.stats.written += 1;
        Ok(())
    }

    /// Removes the files of `stale` (see [`write()`]), and says what the
    /// writer did.
    pub fn finish(mut self, stale: &[&str]) -> Result<WriteStats, PublishError> {
        if !stale.is_empty() {
            if let Some(before) = self.before_first.take() {
                before()?;
            }
        }
        self.stats.removed = remove(self.root, stale)?;
        Ok(self.stats)
    }
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
    if same_bytes(path, bytes) {
        return Ok(false);
    }
    std::fs::write(path, bytes).map_err(io)?;
    Ok(true)
}

/// Whether the file at `path` holds `bytes` (its length is checked first).
fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    let same_length = std::fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64);
    same_length && std::fs::read(path).is_ok_and(|old| old == bytes)
}

/// Removes the directories of `path` that its removal left empty, up to
/// `root` (a directory still holding anything stays).
fn remove_empty_parents(root: &Path, path: &str) {
    let mut dir = path;
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if std::fs::remove_dir(root.join(parent)).is_err() {
            break;
        }
        dir = parent;
    }
}

/// Removes the files of `stale` (relative paths; unsafe ones are
/// skipped). Returns how many were there to remove.
fn remove(root: &Path, stale: &[&str]) -> Result<usize, PublishError> {
    let mut removed = 0;
    for stale in stale.iter().filter(|p| is_safe(p)) {
        match std::fs::remove_file(root.join(stale)) {
            Ok(()) => {
                removed += 1;
                remove_empty_parents(root, stale);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(PublishError::Io {
                    path: root.join(stale),
                    source,
                });
            }
        }
    }
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
    fn writes_changes_only_and_removes_what_is_stale() {
        let dir = tempfile::tempdir().unwrap();
        let first = map(&[("a/index.html", "A"), ("b.css", "B")]);
        let stats = write(dir.path(), &first, &[]).unwrap();
        assert_eq!((stats.written, stats.unchanged), (2, 0));
        std::fs::write(dir.path().join("mine.txt"), "not ours").unwrap();
        let second = map(&[("a/index.html", "A2"), ("c.js", "C")]);
        let stats = write(dir.path(), &second, &["b.css", "../x", "gone.html"]).unwrap();
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
        let stats = write(dir.path(), &second, &[]).unwrap();
        assert_eq!((stats.written, stats.unchanged), (0, 2));
        let third = map(&[("c.js", "C")]);
        let stats = write(dir.path(), &third, &["a/index.html"]).unwrap();
        assert_eq!(stats.removed, 1);
        assert!(!dir.path().join("a").exists(), "an emptied directory goes");
    }

    #[test]
    fn a_writer_runs_its_first_step_before_the_first_change_only() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), &map(&[("a/x.html", "X")]), &[]).unwrap();
        let runs = std::sync::atomic::AtomicUsize::new(0);
        let first = || {
            runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        };
        let mut writer = Writer::new(dir.path(), first);
        writer.file("a/x.html", "X").unwrap();
        assert_eq!(
            runs.load(std::sync::atomic::Ordering::SeqCst),
            0,
            "nothing changed yet"
        );
        writer.file("b/c/y.html", "Y").unwrap();
        writer.file("a/x.html", "X2").unwrap();
        assert!(matches!(
            writer.file("../z", "Z"),
            Err(PublishError::Escapes(_))
        ));
        let stats = writer.finish(&[]).unwrap();
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert_eq!((stats.written, stats.unchanged), (2, 1));
        let read = |p: &str| std::fs::read_to_string(dir.path().join(p)).unwrap();
        assert_eq!(
            (read("a/x.html"), read("b/c/y.html")),
            ("X2".into(), "Y".into())
        );
        // A removal changes the output too.
        let runs = std::sync::atomic::AtomicUsize::new(0);
        let writer = Writer::new(dir.path(), || {
            runs.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        });
        assert_eq!(writer.finish(&["b/c/y.html"]).unwrap().removed, 1);
        assert_eq!(runs.load(std::sync::atomic::Ordering::SeqCst), 1);
        assert!(!dir.path().join("b").exists());
    }

    #[test]
    fn refuses_paths_that_escape() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x", "/etc/x", "a//b", "a/./b"] {
            let err = write(dir.path(), &map(&[(bad, "x")]), &[]).unwrap_err();
            assert!(matches!(err, PublishError::Escapes(_)), "{bad}");
        }
    }
}
