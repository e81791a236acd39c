//! EDGE: the build's read stage: the game (its records from those earlier
//! builds parsed where their files are unchanged), its git history and
//! the theme's files.

use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::Context as _;

use super::stamped::{self, Listed};
use crate::game::timeline::Timeline;
use crate::game::{GAME_DIRS, Game};
use crate::load::kept_timeline;
use crate::load::timeline::{self, Walk};
use crate::record::{self, cache::RecordCache};
use crate::site::ThemeFile;

/// The game in the work tree at `root` (its files as `listed`, else
/// listed now), or at revision `rev` of its repository, taking the
/// records of unchanged files from those parsed by earlier builds:
/// `kept` in memory, else those `program` kept in `records_file`
/// (`None`: not taken, as if there were none). Gives back each record
/// file's stamp and digest, and whether the records to keep for the next
/// build differ from those kept.
pub(super) fn read_game(
    root: &Path,
    rev: Option<&str>,
    listed: Option<Vec<Listed>>,
    records_file: &Path,
    program: &str,
    kept: Option<RecordCache>,
    say: &dyn Fn(&str),
) -> anyhow::Result<(Game, Vec<record::cache::Seen>, bool)> {
    // A file changed in the last two seconds may change again with the
    // same stamp: its record is parsed again until it is older.
    let trusted_before = SystemTime::now() - Duration::from_secs(2);
    let from_file = || {
        std::fs::read(records_file)
            .map(|bytes| RecordCache::from_bytes(&bytes, program))
            .unwrap_or_default()
    };
    // With no cache file nor records in memory, no record is stamped to
    // be looked up in a cache that cannot have it.
    type Source<'s> = Box<dyn FnOnce() -> RecordCache + Send + 's>;
    let cache: Option<Source> = match kept {
        Some(kept) if !kept.is_empty() => Some(Box::new(move || kept)),
        Some(_) if records_file.exists() => Some(Box::new(from_file)),
        _ => None,
    };
    let read = match rev {
        Some(rev) => stamped::read_revision_cached(root, rev, GAME_DIRS, cache),
        None => stamped::read_dir_cached(root, GAME_DIRS, listed, cache, trusted_before),
    }
    .context("cannot read the game")?;
    let cached = read.records.len();
    let game = Game::check_with(&read.files, read.records);
    say(&format!(
        "read {} files: {} rules, {} records ({cached} parsed by an earlier build)",
        read.files.len() + cached,
        game.ruleset.rules.len(),
        game.records.len()
    ));
    warn_of_problems(&game);
    Ok((game, read.seen, read.changed))
}

/// A warning when the game has problems: the site shows what could be read.
fn warn_of_problems(game: &Game) {
    if !game.problems.is_empty() {
        tracing::warn!(
            "the game has {} problems (see `gitnomic check`); building what could be read",
            game.problems.len()
        );
    }
}

/// The git history of `rev` at `root`, or none (with a note) when there
/// is no repository or it cannot be read. The history an earlier build
/// read is taken from `in_memory` (an earlier build in this process, and
/// whether the file holds its walk), else from the file `kept` (unless
/// `again`), and only the commits since are read. Gives the walk, to keep
/// for the next build, and whether the file must be written (see
/// [`keep_walk`]): the walk went further, or the file does not hold the
/// one it went on from.
pub(super) fn history(
    root: &Path,
    rev: &str,
    (kept, again): (&Path, bool),
    in_memory: Option<(Walk, bool)>,
    program: &str,
    say: &dyn Fn(&str),
) -> (Timeline, Walk, bool) {
    let (earlier, in_file) = match in_memory {
        _ if again => (Walk::default(), true),
        Some(kept) => kept,
        None => {
            let walk = std::fs::read(kept)
                .map(|bytes| kept_timeline::from_bytes(&bytes, program))
                .unwrap_or_default();
            (walk, true)
        }
    };
    let tip = earlier.tip().map(str::to_string);
    match timeline::read_after(root, rev, earlier) {
        Ok((timeline, walk, stats)) => {
            let earlier = match stats.earlier {
                0 => String::new(),
                n => format!(" ({n} read by an earlier build)"),
            };
            say(&format!(
                "read the history: {} commits{earlier}, {} distinct states parsed from {} blobs: {} ruleset revisions",
                stats.commits + stats.earlier,
                stats.parsed,
                stats.blobs,
                timeline.revisions.len()
            ));
            for (path, commit) in &stats.not_text {
                let commit = commit.get(..12).unwrap_or(commit);
                tracing::warn!(
                    "{path} at commit {commit} is not UTF-8 text: its history shows it with the bad bytes replaced"
                );
            }
            let changed = walk.tip() != tip.as_deref() || !in_file;
            (timeline, walk, changed)
        }
        Err(timeline::TimelineError::Git(crate::git::GitError::Open { .. })) => {
            say("no git repository: building without history");
            Default::default()
        }
        Err(e) => {
            tracing::warn!("cannot read the git history, building without it: {e}");
            Default::default()
        }
    }
}

/// Keeps `walk` in the file `kept` for the next build; false if it could
/// not. A walk that cannot be kept costs the next build time, not its
/// history: a note, no error.
pub(super) fn keep_walk(kept: &Path, walk: &Walk, program: &str) -> bool {
    let Some(bytes) = kept_timeline::to_bytes(walk, program) else {
        tracing::warn!("cannot keep the history read for the next build");
        return false;
    };
    match super::caches::write_atomically(kept, bytes) {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!("cannot keep the history read for the next build: {e:#}");
            false
        }
    }
}

/// The theme's files, then the game's own, as overrides.
pub(super) fn overrides(root: &Path, theme: &str) -> anyhow::Result<Vec<ThemeFile>> {
    let mut files = Vec::new();
    let theme_dir = root.join("themes").join(theme);
    for (base, kind) in [
        (theme_dir.join("templates"), "templates"),
        (theme_dir.join("static"), "static"),
        (root.join("templates"), "templates"),
        (root.join("static"), "static"),
    ] {
        if !base.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(&base).sort_by_file_name() {
            let entry = entry.with_context(|| format!("cannot read {}", base.display()))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let relative = entry.path().strip_prefix(&base).unwrap_or(entry.path());
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let text = std::fs::read_to_string(entry.path())
                .with_context(|| format!("cannot read {}", entry.path().display()))?;
            files.push(ThemeFile {
                name: format!("{kind}/{}", parts.join("/")),
                text,
            });
        }
    }
    Ok(files)
}
