//! EDGE: the site built into a directory, rendering only what changed.
//!
//! The site is rendered in memory by the rest of [`crate::site`]; this is
//! the build around it: the game read (with the records earlier builds
//! parsed), the git history, the theme, the digests of the pages the last
//! build wrote (so an unchanged page is neither rendered nor written
//! again), and the files written through [`super::publish`], each as
//! soon as it is rendered, while the rest renders. `gitnomic build`,
//! `serve` and `demo` all build through here.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;

use super::publish;
use super::{ForgeWeb, Pending, RenderCache, Rendered, Site, SiteInput, ThemeFile};
use crate::game::timeline::Timeline;
use crate::game::{GAME_DIRS, Game};
use crate::load::timeline;
use crate::load::{self, Listed};
use crate::record::{self, cache::RecordCache};

/// What to build, and where.
#[derive(Debug, Clone)]
pub struct Options {
    /// The game's directory.
    pub root: PathBuf,
    /// Where to write the site (a relative path is under `root`).
    pub out: PathBuf,
    /// A git revision of `root` to build instead of the files on disk.
    pub rev: Option<String>,
    /// The theme under themes/ whose files override the built-in ones.
    pub theme: String,
    /// The address the site is served from, for the feed's absolute links.
    pub base_url: Option<String>,
    /// Skip reading the git history.
    pub no_history: bool,
    /// Check every internal link and anchor.
    pub check_links: bool,
    /// Where the digests of the pages are kept (see `cache_path`).
    pub cache: Option<PathBuf>,
    /// Render every page and parse every record again.
    pub full: bool,
    /// Report no stage on stderr.
    pub quiet: bool,
    /// The game's default branch, for links to its files on the forge.
    pub branch: String,
    /// The repository's server and name when the build runs in GitHub
    /// Actions (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`).
    pub actions: Option<(String, String)>,
}

/// The live tallies of the open matters, for the pending page, given the
/// game and a way to report a stage.
pub type Live<'a> = dyn Fn(&Game, &dyn Fn(&str)) -> anyhow::Result<Pending> + 'a;

/// What a build did.
pub struct Built {
    /// Where it went.
    pub out: PathBuf,
    /// Broken links, when checked.
    pub broken: usize,
    /// How many files it rendered (the others stood as they were).
    pub rendered: usize,
    /// How many files of the output it wrote or removed: none when the
    /// site reads as it read before (nothing to publish again).
    pub changed: usize,
}

/// What a build leaves in memory for the next build in the same process
/// (`serve`'s, with the same arguments): the digests of the pages it
/// made, the records it parsed and the theme it loaded. The next build
/// then reads neither cache file back and parses no template again.
/// The default holds nothing: its build reads both cache files.
#[derive(Default)]
pub struct Kept {
    /// The digests it wrote, as in the cache file.
    cache: RenderCache,
    /// The records parsed, with their files' stamps and text ids, indexed
    /// on a thread of their own once the build is done: the next build,
    /// half a second away at least, finds them ready.
    records: Option<std::thread::JoinHandle<RecordCache>>,
    /// The theme's files and the theme loaded from them.
    theme: Option<(Vec<ThemeFile>, super::Theme)>,
    /// The game's files, every one stamped, as serve's watcher listed
    /// them a moment ago to see that something changed: not listed and
    /// stamped again. A file changed since then changes the watcher's
    /// next listing, and the build after it reads it.
    listed: Option<Vec<Listed>>,
}

impl Kept {
    /// Gives the next build the game's files as just listed (see
    /// [`load::list_stamped`]).
    pub fn listed(&mut self, files: Vec<Listed>) {
        self.listed = Some(files);
    }
}

/// Builds the site once, reporting each stage on stderr unless
/// `quiet`, taking what the previous build in this process left in `kept`
/// and leaving there what the next one can use. Without `kept` (a build
/// the process ends after) nothing is gathered to keep: the records'
/// index alone would cost a tenth of a rebuild. `live` gives the live
/// tallies of the open matters for the pending page.
pub fn build(
    args: &Options,
    mut kept: Option<&mut Kept>,
    live: &Live<'_>,
) -> anyhow::Result<Built> {
    let started = Instant::now();
    let quiet = args.quiet;
    let say = |message: &str| {
        if !quiet {
            eprintln!("[{:>6.2}s] {message}", started.elapsed().as_secs_f64());
        }
    };
    let root = &args.root;
    let out = if args.out.is_absolute() {
        args.out.clone()
    } else {
        root.join(&args.out)
    };
    let cache_file = cache_path(root, &out, args.cache.as_deref());
    let records_file = records_path(&cache_file);
    let program = program();
    let Kept {
        cache: kept_cache,
        records: kept_records,
        theme: kept_theme,
        listed,
    } = kept.as_deref_mut().map(std::mem::take).unwrap_or_default();
    // The previous build's files are checked on disk, and the theme
    // parsed, while the game is read: none needs the others.
    let (read, (previous, written), (theme, overrides)) = std::thread::scope(|scope| {
        let previous = scope.spawn(|| {
            let identity = identity(&program, &out);
            if kept_cache.identity == identity {
                on_disk(kept_cache, &out)
            } else {
                previous_build(&cache_file, &out, &identity)
            }
        });
        let theme = scope.spawn(|| -> anyhow::Result<_> {
            let overrides = overrides(root, &args.theme)?;
            if let Some((files, theme)) = kept_theme.filter(|(files, _)| *files == overrides) {
                return Ok((theme, files));
            }
            let theme = super::Theme::load(&overrides).context("cannot render the site")?;
            Ok((theme, overrides))
        });
        let records = (!args.full).then(|| {
            kept_records.map_or_else(RecordCache::default, |records| {
                records
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
        });
        let read = read_game(
            root,
            args.rev.as_deref(),
            listed,
            &records_file,
            &program,
            records,
            &say,
        );
        let (previous, theme) = (joined(previous), joined(theme));
        anyhow::Ok((read?, previous, theme?))
    })?;
    let (mut game, seen, changed) = read;
    let mut previous = previous;
    let timeline = if args.no_history {
        Timeline::default()
    } else {
        history(root, args.rev.as_deref().unwrap_or("HEAD"), &say)
    };
    let pending = live(&game, &say)?;
    let input = SiteInput {
        game: &game,
        timeline: &timeline,
        pending: &pending,
        overrides: &overrides,
        commit: args.rev.clone(),
        base_url: args.base_url.clone(),
        forge: forge_web(&game, &args.branch, args.actions.as_ref()),
    };
    if args.full {
        previous.files.clear();
    }
    // The records parsed are kept for the next build, and each file is
    // written as soon as it is rendered, while the rest renders: neither
    // waits for the rendering to end.
    let (rendered, records_kept, written_out) = std::thread::scope(|scope| {
        let keeping = changed.then(|| {
            scope.spawn(|| {
                let records = record::cache::keep(&program, &seen, &game.records);
                write_atomically(&records_file, records)
            })
        });
        let (files, arrive) = std::sync::mpsc::channel::<(String, String)>();
        let writer = scope.spawn(|| write_as_rendered(&out, &cache_file, arrive));
        let emit = |path: &str, text: &str| {
            // A writer that stopped on an error says so when joined.
            let _ = files.send((path.to_string(), text.to_string()));
        };
        let rendered = super::render_emitting(&input, &theme, &previous, &|s| say(s), &emit);
        drop(files);
        (rendered, keeping.map(joined), joined(writer))
    });
    let mut rendered = rendered.context("cannot render the site")?;
    records_kept.transpose()?;
    let (mut writer, sent) =
        written_out.with_context(|| format!("cannot write the site to {}", out.display()))?;
    say(&format!(
        "rendered {} files, kept {} unchanged",
        rendered.files.len(),
        rendered.cache.files.len() - rendered.files.len()
    ));
    let mut broken = 0;
    if args.check_links {
        let report = super::links::check(&whole_site(&out, &rendered)?);
        for link in &report.broken {
            eprintln!("broken link: {link}");
        }
        broken = report.broken.len();
        say(&format!(
            "checked {} links: {broken} broken",
            report.checked
        ));
    }
    let stale: Vec<&str> = written
        .iter()
        .map(String::as_str)
        .filter(|p| !rendered.cache.files.contains_key(*p))
        .collect();
    let stats = rendered
        .files
        .iter()
        .filter(|(path, _)| !sent.contains(path.as_str()))
        .try_for_each(|(path, text)| writer.file(path, text))
        .and_then(|()| writer.finish(&stale))
        .with_context(|| format!("cannot write the site to {}", out.display()))?;
    // Made again now that `out` exists: its canonical path may differ
    // from the one a missing directory gave before it was written.
    rendered.cache.identity = identity(&program, &out);
    // Unchanged (every file it listed still there, as the same build
    // made them): not written again.
    let unchanged = rendered.cache == previous
        && written.len() == previous.files.len()
        && stats.written + stats.removed == 0;
    if !unchanged {
        write_atomically(&cache_file, rendered.cache.to_text())?;
    }
    say(&format!(
        "wrote {}: {} changed, {} unchanged, {} removed",
        out.display(),
        stats.written,
        stats.unchanged + rendered.cache.files.len() - rendered.files.len(),
        stats.removed
    ));
    let built = Built {
        out,
        broken,
        rendered: rendered.files.len(),
        changed: stats.written + stats.removed,
    };
    if let Some(kept) = kept {
        *kept = Kept {
            cache: rendered.cache,
            records: Some({
                let records = std::mem::take(&mut game.records);
                std::thread::spawn(move || record::cache::kept(seen, records))
            }),
            theme: Some((overrides, theme)),
            listed: None,
        };
    }
    Ok(built)
}

/// Writes each file that arrives under `out` (see [`publish::Writer`]),
/// removing the cache of the previous build before the first write: a
/// build that fails or is killed from then on leaves no cache that
/// vouches for files it changed, and the next build renders them all.
/// Gives back the writer, to write what did not arrive and finish, and
/// the paths that did.
fn write_as_rendered<'w>(
    out: &'w Path,
    cache_file: &'w Path,
    arrive: std::sync::mpsc::Receiver<(String, String)>,
) -> Result<(publish::Writer<'w>, std::collections::HashSet<String>), publish::PublishError> {
    let mut writer = publish::Writer::new(out, move || match std::fs::remove_file(cache_file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(publish::PublishError::Io {
            path: cache_file.to_path_buf(),
            source: e,
        }),
        _ => Ok(()),
    });
    let mut sent = std::collections::HashSet::new();
    for (path, text) in arrive {
        writer.file(&path, &text)?;
        sent.insert(path);
    }
    Ok((writer, sent))
}

/// What a thread gave, or its panic, passed on.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Where the cache of the build writing to `out` lives: `given`, else
/// .git/gitnomic-site-cache when `root` is a git repository, else
/// .<out>.gitnomic-cache beside the output.
fn cache_path(root: &Path, out: &Path, given: Option<&Path>) -> PathBuf {
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
fn records_path(cache_file: &Path) -> PathBuf {
    let mut name = cache_file.as_os_str().to_owned();
    name.push(".records");
    PathBuf::from(name)
}

/// Writes `text` to `file` through a temporary file beside it, renamed
/// over it: a build killed while writing leaves the old file or the new
/// one, never half of one.
fn write_atomically(file: &Path, text: impl AsRef<[u8]>) -> anyhow::Result<()> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut temporary = file.as_os_str().to_owned();
    temporary.push(format!(".{}.tmp", std::process::id()));
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, file))
        .with_context(|| format!("cannot write {}", file.display()))?;
    remove_abandoned(file);
    Ok(())
}

/// Removes the temporary files beside `file` that builds killed while
/// writing it left behind: those of processes no longer running.
fn remove_abandoned(file: &Path) {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let other = entry.file_name();
        let pid = other.to_str().and_then(|o| {
            o.strip_prefix(name)?
                .strip_prefix('.')?
                .strip_suffix(".tmp")
        });
        if pid.is_some_and(crate::staging::process_gone) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// What made a cache: this program and the output directory. Pages a
/// different program rendered may differ, so its cache is not used.
fn identity(program: &str, out: &Path) -> String {
    format!("{program} {}", out_name(out))
}

/// This program: its version, size and modification time, which any
/// rebuild of it changes.
fn program() -> String {
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
fn previous_build(cache_file: &Path, out: &Path, identity: &str) -> (RenderCache, Vec<String>) {
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
fn on_disk(mut cache: RenderCache, out: &Path) -> (RenderCache, Vec<String>) {
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

/// Every file of the site: those rendered now and, read from `out`, those
/// the previous build wrote and this one kept. For the link check.
fn whole_site(out: &Path, rendered: &Rendered) -> anyhow::Result<Site> {
    let mut all = rendered.files.clone();
    for path in rendered.cache.files.keys() {
        if !all.contains_key(path) {
            let file = out.join(path);
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            all.insert(path.clone(), text);
        }
    }
    Ok(all)
}

/// The game's repository on its forge: in GitHub Actions, where the
/// workflow runs (`actions`: `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`);
/// elsewhere the game's `[game] repo` setting. `None` when neither says (a
/// game played on the local forge alone).
fn forge_web(game: &Game, branch: &str, actions: Option<&(String, String)>) -> Option<ForgeWeb> {
    if let Some((server, repo)) = actions {
        if let Some(web) = ForgeWeb::new(server, repo, branch) {
            return Some(web);
        }
        tracing::warn!("GITHUB_SERVER_URL or GITHUB_REPOSITORY is not an address: {server}/{repo}");
    }
    let setting = game.state.as_ref()?.repo.as_deref()?;
    let web = ForgeWeb::from_setting(setting, branch);
    if web.is_none() {
        tracing::warn!(
            "[game] repo in state/game.toml is not OWNER/NAME nor an address: {setting}"
        );
    }
    web
}

/// The game in the work tree at `root` (its files as `listed`, else
/// listed now), or at revision `rev` of its repository, taking the
/// records of unchanged files from those parsed by earlier builds:
/// `kept` in memory, else those `program` kept in `records_file`
/// (`None`: not taken, as if there were none). Gives back each record
/// file's stamp and digest, and whether the records to keep for the next
/// build differ from those kept.
fn read_game(
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
        Some(rev) => load::read_revision_cached(root, rev, GAME_DIRS, cache),
        None => load::read_dir_cached(root, GAME_DIRS, listed, cache, trusted_before),
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
/// is no repository or it cannot be read.
fn history(root: &Path, rev: &str, say: &dyn Fn(&str)) -> Timeline {
    match timeline::read(root, rev) {
        Ok((timeline, stats)) => {
            say(&format!(
                "read the history: {} commits, {} distinct states parsed from {} blobs: {} ruleset revisions",
                stats.commits,
                stats.parsed,
                stats.blobs,
                timeline.revisions.len()
            ));
            timeline
        }
        Err(timeline::TimelineError::Git(crate::git::GitError::Open { .. })) => {
            say("no git repository: building without history");
            Timeline::default()
        }
        Err(e) => {
            tracing::warn!("cannot read the git history, building without it: {e}");
            Timeline::default()
        }
    }
}

/// The theme's files, then the game's own, as overrides.
fn overrides(root: &Path, theme: &str) -> anyhow::Result<Vec<ThemeFile>> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the bundled game, and the arguments to build it.
    fn game() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path().to_path_buf();
        let bundled = Path::new(env!("CARGO_MANIFEST_DIR"));
        for top in GAME_DIRS {
            for entry in walkdir::WalkDir::new(bundled.join(top)) {
                let entry = entry.expect("the bundled game is readable");
                let to = dir.path().join(entry.path().strip_prefix(bundled).unwrap());
                if entry.file_type().is_dir() {
                    std::fs::create_dir_all(&to).unwrap();
                } else {
                    std::fs::copy(entry.path(), &to).unwrap();
                }
            }
        }
        (dir, root)
    }

    fn args(root: &Path, out: &str) -> Options {
        Options {
            root: root.to_path_buf(),
            out: out.into(),
            rev: None,
            theme: "default".into(),
            base_url: None,
            no_history: true,
            check_links: false,
            cache: None,
            full: false,
            quiet: true,
            branch: "main".into(),
            actions: None,
        }
    }

    /// No forge: the pending page lists no matters.
    fn no_forge(_: &Game, _: &dyn Fn(&str)) -> anyhow::Result<Pending> {
        Ok(Pending::default())
    }

    const RECORD: &str = "+++\nnumber = 7\nkind = \"proposal\"\ntitle = \"Wind faster\"\nauthor = \"Ada\"\ndynasty = 1\nopened = \"2030-03-01T10:00:00Z\"\nresolved = \"2030-03-02T10:00:00Z\"\noutcome = \"failed\"\nresolved_by = \"gitnomic resolve\"\nreasons = []\nvotes = []\nuncounted = []\n+++\nWind the springs faster.\n";

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

    #[test]
    fn the_cache_goes_before_the_first_file_changes_and_stays_if_none_does() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let (out, cache) = (dir.path().join("public"), dir.path().join("cache"));
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("a.html"), "A").unwrap();
        std::fs::write(&cache, "the last build's").unwrap();
        let send = |files: &[(&str, &str)]| {
            let (tx, rx) = std::sync::mpsc::channel();
            for (path, text) in files {
                tx.send((path.to_string(), text.to_string())).unwrap();
            }
            drop(tx);
            write_as_rendered(&out, &cache, rx).expect("it writes")
        };
        let (_, sent) = send(&[("a.html", "A")]);
        assert!(sent.contains("a.html"));
        assert!(cache.exists(), "nothing changed: the cache still stands");
        // A build killed after this write must not find a cache that
        // vouches for the old a.html.
        let (writer, _) = send(&[("a.html", "A2")]);
        assert!(!cache.exists(), "a file changed while the cache stood");
        assert_eq!(writer.finish(&[]).unwrap().written, 1);
    }

    #[test]
    fn every_file_rendered_is_emitted_once() {
        let (_dir, root) = game();
        let read = load::read_dir_cached(
            &root,
            GAME_DIRS,
            None,
            None::<fn() -> RecordCache>,
            SystemTime::now(),
        )
        .expect("the game reads");
        let game = Game::check_with(&read.files, read.records);
        let (timeline, pending) = (Timeline::default(), Pending::default());
        let input = SiteInput {
            game: &game,
            timeline: &timeline,
            pending: &pending,
            overrides: &[],
            commit: None,
            base_url: None,
            forge: None,
        };
        let theme = super::super::Theme::load(&[]).expect("the theme loads");
        let emitted = std::sync::Mutex::new(Vec::new());
        let rendered = super::super::render_emitting(
            &input,
            &theme,
            &super::super::RenderCache::default(),
            &|_| {},
            &|path, text| {
                emitted
                    .lock()
                    .unwrap()
                    .push((path.to_string(), text.to_string()));
            },
        )
        .expect("it renders");
        let mut emitted = emitted.into_inner().unwrap();
        emitted.sort();
        let files: Vec<(String, String)> = rendered.files.into_iter().collect();
        assert!(files.len() > 20, "{} files", files.len());
        assert!(
            emitted == files,
            "the files emitted are not the files rendered"
        );
    }

    #[test]
    fn a_build_from_what_the_last_one_kept_equals_a_full_build() {
        let (dir, root) = game();
        let mut kept = Kept::default();
        let first = build(&args(&root, "public"), Some(&mut kept), &no_forge).expect("it builds");
        assert!(!kept.cache.files.is_empty(), "the build keeps what it made");
        // Without the cache on disk, only what was kept can spare the
        // next build from rendering everything again.
        std::fs::remove_file(cache_path(dir.path(), &first.out, None)).unwrap();
        let matters = dir.path().join("content/matters");
        std::fs::create_dir_all(&matters).unwrap();
        std::fs::write(matters.join("00007.md"), RECORD).unwrap();
        // As serve's watcher gives them, the files listed and stamped.
        let listed = load::list_stamped(dir.path(), GAME_DIRS, load::Stamped::All);
        kept.listed(listed.expect("the game lists"));
        let again = build(&args(&root, "public"), Some(&mut kept), &no_forge).expect("it builds");
        assert!(
            again.rendered > 0 && again.rendered < first.rendered / 2,
            "{} of {} files rendered again",
            again.rendered,
            first.rendered
        );
        let mut full = args(&root, "full");
        full.full = true;
        build(&full, None, &no_forge).expect("it builds");
        let files = |out: &str| -> Vec<(PathBuf, Vec<u8>)> {
            let root = dir.path().join(out);
            walkdir::WalkDir::new(&root)
                .sort_by_file_name()
                .into_iter()
                .map(|e| e.expect("readable"))
                .filter(|e| e.file_type().is_file())
                .map(|e| {
                    let bytes = std::fs::read(e.path()).unwrap();
                    (e.path().strip_prefix(&root).unwrap().to_path_buf(), bytes)
                })
                .collect()
        };
        assert!(files("public") == files("full"), "the two builds differ");
    }
}
