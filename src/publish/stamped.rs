//! EDGE: the game read for a build with the help of the records an
//! earlier build parsed (see [`crate::record::cache`]): each file listed
//! and stamped, and a record whose stamp, or whose text as git's index
//! knows it, is unchanged taken from the cache instead of parsed again.
//! `serve`'s watcher lists the same way to see that something changed.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rayon::prelude::*;

use crate::game::is_game_file;
use crate::git::{self, Indexed, Repo};
use crate::load::{LoadError, io_error, is_game_core, list_dir, read_text};
use crate::record::cache::{Content, Hit, RecordCache, Seen, Stamp};
use crate::record::{Record, is_record_path};
use crate::source::SourceFile;

/// A game read from a directory with the help of the records a previous
/// build parsed (see [`crate::record::cache`]).
#[derive(Debug)]
pub struct CachedRead {
    /// The files read: every game file but the records the cache had.
    pub files: Vec<SourceFile>,
    /// The records the cache had, from files that have not changed.
    pub records: Vec<Record>,
    /// Each record file's path, stamp (or [`Stamp::NONE`], see
    /// [`Seen`]) and digest: what the next cache keeps.
    pub seen: Vec<Seen>,
    /// Whether the next cache would differ from this one: a record file
    /// was added, changed or removed.
    pub changed: bool,
}

/// What reading one file gave.
enum Got {
    /// A file to parse; for a record, the stamp to keep (see
    /// [`kept_stamp`]) and its digest.
    Read(SourceFile, Option<(Stamp, Content)>),
    /// A record the cache had, its file's name and, if it was found by its
    /// text, the stamp to keep.
    Cached(Hit, String, Option<Stamp>),
}

/// [`crate::load::read`] of a directory, taking from `cache` (made while the directory
/// is listed and its records stamped; `None`: there is none) the records
/// of files that have not changed since it was made: same stamp, or same
/// text, which git's index may know without the file being read (see
/// [`INDEX_WORTH`]). The directory is listed here unless `listed` gives
/// its files already (see [`list_stamped`]). A stamp is trusted only when
/// the file was last changed before `trusted_before` (a moment a little
/// before the files were stamped): a file changed again within the
/// clock's resolution of the last read could otherwise keep its stamp
/// with new text; an untrusted file's record is kept to be found by its
/// text.
pub fn read_dir_cached(
    root: &Path,
    dirs: &[&str],
    listed: Option<Vec<Listed>>,
    cache: Option<impl FnOnce() -> RecordCache + Send>,
    trusted_before: SystemTime,
) -> Result<CachedRead, LoadError> {
    let before = nanos(trusted_before);
    let stamped = if cache.is_some() {
        Stamped::Records
    } else {
        Stamped::None
    };
    // The records are stamped while the cache is decoded: neither waits
    // for the other.
    let (listed, cache) = rayon::join(
        || listed.map_or_else(|| list_stamped(root, dirs, stamped), Ok),
        || cache.map(|cache| cache()).unwrap_or_default(),
    );
    let first: Vec<First> = listed?
        .into_par_iter()
        .map(|file| by_stamp(file, &cache, before))
        .collect();
    let unread = first
        .iter()
        .filter(|f| matches!(f, First::Unread(file) if is_record_path(&file.name)))
        .count();
    let indexed = (unread >= INDEX_WORTH && !cache.is_empty())
        .then(|| Repo::open(root).ok()?.indexed("content/").ok())
        .flatten();
    let got: Vec<Got> = first
        .into_par_iter()
        .map(|first| match first {
            First::Found(got) => Ok(got),
            First::Unread(file) => read_cached(file, &cache, indexed.as_ref(), before),
        })
        .collect::<Result<_, _>>()?;
    gathered(got, cache, || root.display().to_string())
}

/// [`crate::load::read_revision`] of the repository at `root`, taking from `cache`
/// (`None`: there is none) the records whose text it has: a revision
/// names each file's [`git::blob_id`], so such a record's blob is not even
/// read. A record's stamp stays the one the cache had (a later build of
/// the work tree may still use it); one parsed here is kept with
/// [`Stamp::NONE`].
pub fn read_revision_cached(
    root: &Path,
    rev: &str,
    dirs: &[&str],
    cache: Option<impl FnOnce() -> RecordCache + Send>,
) -> Result<CachedRead, LoadError> {
    let repo = Repo::open(root)?;
    // The tree is listed while the cache is decoded.
    let (ids, cache) = std::thread::scope(|scope| {
        let cache = scope.spawn(|| cache.map(|cache| cache()).unwrap_or_default());
        let ids = repo.ids_at(rev, dirs);
        let cache = cache
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (ids, cache)
    });
    let got: Vec<Got> = ids?
        .into_iter()
        .filter(|(name, _)| is_game_file(name))
        .map(|(name, id)| {
            let hit = is_record_path(&name)
                .then(|| cache.by_content(&name, &id))
                .flatten();
            if let Some(hit) = hit {
                return Ok(Got::Cached(hit, name, None));
            }
            let text = String::from_utf8(repo.blob_of(&name, id)?)
                .map_err(|_| LoadError::NotText(name.clone()))?;
            let seen = is_record_path(&name).then_some((Stamp::NONE, id));
            Ok(Got::Read(SourceFile::new(name, text), seen))
        })
        .collect::<Result<_, LoadError>>()?;
    gathered(got, cache, || format!("{rev} of {}", root.display()))
}

/// The files and records that reading gave (`got`), with what the next
/// cache keeps of them and whether it differs from `cache`; an error
/// naming `place` when they hold no game.
fn gathered(
    got: Vec<Got>,
    mut cache: RecordCache,
    place: impl FnOnce() -> String,
) -> Result<CachedRead, LoadError> {
    let mut out = CachedRead {
        files: Vec::new(),
        // Room for every record, those parsed later too: a vector of tens
        // of thousands of records is costly to move.
        records: Vec::with_capacity(got.len()),
        seen: Vec::with_capacity(cache.len()),
        changed: false,
    };
    let mut taken = 0;
    for got in got {
        match got {
            Got::Read(file, stamp) => {
                if let Some((stamp, content)) = stamp {
                    out.seen.push((file.path.clone(), stamp, content));
                    out.changed = true;
                }
                out.files.push(file);
            }
            Got::Cached(hit, name, new_stamp) => {
                let Some(entry) = cache.take(hit) else {
                    continue;
                };
                taken += 1;
                let stamp = new_stamp.unwrap_or(entry.stamp);
                out.changed |= stamp != entry.stamp;
                out.seen.push((name, stamp, entry.content));
                out.records.push(entry.record);
            }
        }
    }
    out.changed |= taken != cache.len();
    if !out.files.iter().any(|f| is_game_core(&f.path)) {
        return Err(LoadError::NotAGame(place()));
    }
    Ok(out)
}

/// A game file as [`list_stamped`] found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Its name in the game (`content/matters/00012.md`).
    pub name: String,
    /// Where it is.
    pub path: PathBuf,
    /// Its stamp, if it was taken and the file was still there.
    pub stamp: Option<Stamp>,
}

/// Which files [`list_stamped`] stamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamped {
    /// None.
    None,
    /// The records, to be looked up in a cache of parsed records.
    Records,
    /// Every file, to tell when any changes.
    All,
}

/// Every game file under `dirs` of `root`, in the order of their names
/// within each directory, each stamped as `which` says.
pub fn list_stamped(root: &Path, dirs: &[&str], which: Stamped) -> Result<Vec<Listed>, LoadError> {
    Ok(list_dir(root, dirs)?
        .into_par_iter()
        .map(|(name, path)| {
            let wanted = match which {
                Stamped::None => false,
                Stamped::Records => is_record_path(&name),
                Stamped::All => true,
            };
            let stamp = wanted
                .then(|| std::fs::metadata(&path).ok().as_ref().map(stamp))
                .flatten();
            Listed { name, path, stamp }
        })
        .collect())
}

/// How many records must be left unread, once their stamps are looked up,
/// for git's index to be asked what it knows of them. After a fresh
/// checkout every stamp is new, and the index spares reading them all;
/// otherwise a few are left and reading them is cheaper. (The index of
/// a game of 15,800 records took 25–30 ms to read, about what reading a
/// few thousand of its records takes.)
pub const INDEX_WORTH: usize = 1000;

/// A file of [`read_dir_cached`] after its stamp was looked up.
enum First {
    /// A record the cache had by its stamp.
    Found(Got),
    /// Any other file.
    Unread(Listed),
}

/// A record the cache has by the stamp taken when it was listed (a
/// trusted one), else the file, to be read.
fn by_stamp(file: Listed, cache: &RecordCache, before: i64) -> First {
    let hit = file
        .stamp
        .filter(|s| is_record_path(&file.name) && trusted(s, before))
        .and_then(|s| cache.by_stamp(&file.name, &s));
    match hit {
        Some(hit) => First::Found(Got::Cached(hit, file.name, None)),
        None => First::Unread(file),
    }
}

/// Whether a file's stamp can be trusted to tell it unchanged: it was last
/// changed before `before`.
fn trusted(stamp: &Stamp, before: i64) -> bool {
    stamp.modified < before && stamp.changed < before
}

/// A file [`by_stamp`] left, read unless it is a record that `indexed`
/// knows unchanged since git wrote it, found in `cache` by the contents
/// git recorded. A record's stamp is taken before its text is read, so a
/// change while it is read makes a new stamp, never an old stamp on new
/// text.
fn read_cached(
    file: Listed,
    cache: &RecordCache,
    indexed: Option<&Indexed>,
    before: i64,
) -> Result<Got, LoadError> {
    let Listed {
        name,
        path,
        stamp: listed,
    } = file;
    if !is_record_path(&name) {
        return Ok(Got::Read(read_text(name, &path)?, None));
    }
    // Git's index says when a file is as git wrote it, whatever its age.
    if let Some(stamp) = listed {
        let blob = indexed.and_then(|i| indexed_blob(i, &name, &stamp));
        if let Some(hit) = blob.and_then(|blob| cache.by_content(&name, &blob)) {
            return Ok(Got::Cached(hit, name, Some(kept_stamp(stamp, before))));
        }
    }
    // Stamped through the open file, before it is read.
    let path = path.as_path();
    let mut file = std::fs::File::open(path).map_err(|e| io_error(&name, path, e))?;
    let meta = file.metadata().map_err(|e| io_error(&name, path, e))?;
    let stamp = kept_stamp(stamp(&meta), before);
    let mut text = String::with_capacity(usize::try_from(meta.len()).unwrap_or_default());
    file.read_to_string(&mut text)
        .map_err(|e| io_error(&name, path, e))?;
    let Some(content) = git::blob_id(text.as_bytes()) else {
        return Ok(Got::Read(SourceFile::new(name, text), None));
    };
    if let Some(hit) = cache.by_content(&name, &content) {
        return Ok(Got::Cached(hit, name, Some(stamp)));
    }
    Ok(Got::Read(
        SourceFile::new(name, text),
        Some((stamp, content)),
    ))
}

/// The stamp a cache keeps of a file stamped `stamp`: itself when it is
/// old enough to trust, else [`Stamp::NONE`] (the record is then kept to
/// be found by its text).
fn kept_stamp(stamp: Stamp, before: i64) -> Stamp {
    if trusted(&stamp, before) {
        stamp
    } else {
        Stamp::NONE
    }
}

/// The contents `indexed` records of the file `name` stamped `stamp`, if
/// its status is still the one git recorded and it was last modified
/// before the index was written: a file modified in the instant git
/// looked at it could have changed after (git's own rule). Where the
/// index has no nanoseconds, seconds are compared.
fn indexed_blob(indexed: &Indexed, name: &str, stamp: &Stamp) -> Option<Content> {
    let file = indexed.files.get(name)?;
    let split = |ns: i64| {
        let nanos = u32::try_from(ns.rem_euclid(1_000_000_000)).unwrap_or_default();
        (ns.div_euclid(1_000_000_000), nanos)
    };
    let same_time = |ns: i64, (seconds, nanos): (i64, u32)| {
        let ours = split(ns);
        ours.0 == seconds && (nanos == 0 || ours.1 == nanos)
    };
    let modified = split(stamp.modified);
    let before_written = if file.modified.1 == 0 {
        modified.0 < indexed.written.0
    } else {
        modified < indexed.written
    };
    let low = |n: u64| n & u64::from(u32::MAX);
    let same = low(stamp.len) == u64::from(file.len)
        && low(stamp.inode) == u64::from(file.inode)
        && same_time(stamp.modified, file.modified)
        && same_time(stamp.changed, file.changed);
    (same && before_written).then_some(file.blob)
}

/// A file's [`Stamp`].
#[cfg(unix)]
fn stamp(meta: &std::fs::Metadata) -> Stamp {
    use std::os::unix::fs::MetadataExt;
    let ns = |s: i64, n: i64| s.saturating_mul(1_000_000_000).saturating_add(n);
    Stamp {
        len: meta.len(),
        modified: ns(meta.mtime(), meta.mtime_nsec()),
        changed: ns(meta.ctime(), meta.ctime_nsec()),
        inode: meta.ino(),
    }
}

/// A file's [`Stamp`] without a change time or inode: enough to tell a
/// change, never trusted to tell a file unchanged (its change time is
/// the latest there is), so every record is read and found in the cache
/// by its text.
#[cfg(not(unix))]
fn stamp(meta: &std::fs::Metadata) -> Stamp {
    Stamp {
        len: meta.len(),
        modified: meta.modified().map_or(0, nanos),
        changed: i64::MAX,
        inode: 0,
    }
}

/// `t` in nanoseconds since 1970.
fn nanos(t: SystemTime) -> i64 {
    match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(e) => i64::try_from(e.duration().as_nanos()).map_or(i64::MIN, |n| -n),
    }
}
