//! EDGE: the caches a build keeps beside its output, and how it finds
//! them: the digests of the pages it wrote (so an unchanged page is
//! neither rendered nor written again) and the records it parsed, each
//! written whole or not at all, and made by this program for this output
//! or not used.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::site::RenderCache;

/// Where the cache of the build writing to `out` lives: `given`, else
/// .git/gitnomic-site-cache when `root` is a git repository, else
/// .<out>.gitnomic-cache beside the output.
pub(super) fn cache_path(root: &Path, out: &Path, given: Option<&Path>) -> PathBuf {
    if let Some(given) = given {
        return if given.is_absolute() {
            given.to_path_buf()
        } else {
            root.join(given)
        };
    }
    if root.join(".git").is_dir() {
        return root.join(".git").join("gitnomic-site-cache");
    }
    let name = out
        .file_name()
        .map_or_else(|| "site".to_string(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!(".{name}.gitnomic-cache"))
}

/// Where the records parsed by the build whose cache is `cache_file` are
/// kept: beside it, never in the output.
pub(super) fn records_path(cache_file: &Path) -> PathBuf {
    beside(cache_file, ".records")
}

/// Where the history read by the build whose cache is `cache_file` is
/// kept (see [`crate::load::kept_timeline`]): beside it too.
pub(super) fn history_path(cache_file: &Path) -> PathBuf {
    beside(cache_file, ".history")
}

/// `cache_file`'s path with `suffix` after its name.
fn beside(cache_file: &Path, suffix: &str) -> PathBuf {
    let mut name = cache_file.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Writes `text` to `file` through a temporary file beside it, renamed
/// over it: a build killed while writing leaves the old file or the new
/// one, never half of one.
pub(super) fn write_atomically(file: &Path, text: impl AsRef<[u8]>) -> anyhow::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut temporary = file.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, file))
        .with_context(|| format!("cannot write {}", file.display()))?;
    crate::staging::remove_abandoned_beside(file);
    Ok(())
}

/// What made a cache: this program and the output directory. Pages a
/// different program rendered may differ, so its cache is not used.
pub(super) fn identity(program: &str, out: &Path) -> String {
    format!("{program} {}", out_name(out))
}

/// This program: its version, size and modification time, which any
/// rebuild of it changes.
pub(super) fn program() -> String {
    let program = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} {modified}", m.len())
        })
        .unwrap_or_default();
    format!("gitnomic {} {program}", env!("CARGO_PKG_VERSION"))
}

/// The previous build's cache, if this program made it for `out`, less
/// the files that are no longer there: those are rendered again. And
/// every file it lists (made by any program for `out`), to remove those
/// this build does not make. The files are found by listing `out`, not
/// by a stat of each: the output is the build's own, and a listing of
/// tens of thousands of pages costs a fraction of their stats.
pub(super) fn previous_build(
    cache_file: &Path,
    out: &Path,
    identity: &str,
) -> (RenderCache, Vec<String>) {
    let Ok(text) = std::fs::read_to_string(cache_file) else {
        return Default::default();
    };
    let cache = RenderCache::from_text(&text);
    let same_out = cache.identity.ends_with(&format!(" {}", out_name(out)));
    if !same_out {
        return Default::default();
    }
    if cache.identity != identity {
        return (RenderCache::default(), cache.files.into_keys().collect());
    }
    on_disk(cache, out)
}

/// `cache`, less the files no longer in `out`; and every file it lists.
pub(super) fn on_disk(mut cache: RenderCache, out: &Path) -> (RenderCache, Vec<String>) {
    let written = cache.files.keys().cloned().collect();
    let mut present = std::collections::HashSet::new();
    files_in(out, "", &mut present);
    cache
        .files
        .retain(|path, _| present.contains(path.as_str()));
    (cache, written)
}

/// Adds the path of every file under `dir` (relative to the output
/// directory, `prefix` before it) to `found`.
fn files_in(dir: &Path, prefix: &str, found: &mut std::collections::HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let (Ok(kind), Some(name)) = (
            entry.file_type(),
            entry.file_name().to_str().map(str::to_owned),
        ) else {
            continue;
        };
        let path = format!("{prefix}{name}");
        if kind.is_dir() {
            files_in(&entry.path(), &format!("{path}/"), found);
        } else if kind.is_file() {
            found.insert(path);
        }
    }
}

/// The output directory as a cache's identity ends with it.
fn out_name(out: &Path) -> String {
    std::fs::canonicalize(out)
        .unwrap_or_else(|_| out.to_path_buf())
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_write_removes_the_temporary_files_of_killed_builds_only() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let file = dir.path().join("cache");
        // Above any process id Linux gives: no such process runs.
        let abandoned = dir.path().join("cache.999999999.tmp");
        let kept = [
            "cache.x1.tmp",
            "other.999999999.tmp",
            "cache.999999999.tmp.bak",
        ];
        std::fs::write(&abandoned, "half").unwrap();
        for name in kept {
            std::fs::write(dir.path().join(name), "not ours").unwrap();
        }
        write_atomically(&file, "whole").expect("it writes");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "whole");
        assert!(!abandoned.exists(), "a killed build's temporary file stays");
        for name in kept {
            assert!(dir.path().join(name).exists(), "{name} was removed");
        }
    }
}
