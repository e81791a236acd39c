//! EDGE: the site built into a directory, rendering only what changed.
//!
//! The site is rendered in memory by [`crate::site`]; a `Build` is the
//! build around it, in stages, each named for what it does: read (the
//! game, with the records earlier builds parsed; the previous build's
//! digests; the theme; the git history), pending, render (each file written as
//! soon as it is rendered, while the rest renders), check links, write
//! (the stale files removed, the digests kept)
//! and keep (what the next build in this process can use). `gitnomic
//! build`, `serve` and `demo` all build through here.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context as _;

use super::caches::{self, write_atomically};
use super::read;
use super::stamped::Listed;
use super::write::{self as publish, WriteStats};
use crate::game::Game;
use crate::game::timeline::Timeline;
use crate::load::timeline::Walk;
use crate::record::{self, cache::RecordCache, cache::Seen};
use crate::site::{Pending, RenderCache, Rendered, Site, SiteInput, Theme, ThemeFile};

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
    theme: Option<(Vec<ThemeFile>, Theme)>,
    /// The game's files, every one stamped, as serve's watcher listed
    /// them a moment ago to see that something changed: not listed and
    /// stamped again. A file changed since then changes the watcher's
    /// next listing, and the build after it reads it.
    listed: Option<Vec<Listed>>,
    /// The history read, and whether the kept history's file holds it:
    /// the next build reads only the commits since, without reading the
    /// file back, and writes the file if it does not hold it.
    walk: Option<(Walk, bool)>,
}

impl Kept {
    /// Gives the next build the game's files as just listed (see
    /// [`super::stamped::list_stamped`]).
    pub fn listed(&mut self, files: Vec<Listed>) {
        self.listed = Some(files);
    }
}

/// Builds the site once, reporting each stage on stderr unless
/// `quiet`, taking what the previous build in this process left in `kept`
/// and leaving there what the next one can use. Without `kept` (a build
/// the process ends after) nothing is gathered to keep: the records'
/// index alone would cost a tenth of a rebuild; and what the build read
/// is not freed but left to the process's end. `live` gives the live
/// tallies of the open matters for the pending page.
pub fn build(
    args: &Options,
    mut kept: Option<&mut Kept>,
    live: &Live<'_>,
) -> anyhow::Result<Built> {
    let build = Build::new(args);
    let earlier = kept.as_deref_mut().map(std::mem::take).unwrap_or_default();
    let (mut read, timeline) = build.read(earlier)?;
    let pending = live(&read.game, &|message| build.say(message))?;
    let made = build.render(&read, &timeline, &pending)?;
    let broken = build.check_links(&made.rendered)?;
    let Made {
        mut rendered,
        writer,
        walk_kept,
    } = made;
    let stats = build.write(&read, &mut rendered, writer)?;
    let built = Built {
        out: build.out.clone(),
        broken,
        rendered: rendered.rendered,
        changed: stats.written + stats.removed,
    };
    if let Some(kept) = kept {
        *kept = Kept {
            cache: rendered.cache,
            records: Some({
                let (seen, records) = (read.seen, std::mem::take(&mut read.game.records));
                std::thread::spawn(move || record::cache::kept(seen, records))
            }),
            theme: Some((read.overrides, read.theme)),
            listed: None,
            walk: Some((read.walk, walk_kept)),
        };
    } else {
        // The process ends after this build: the system takes back its
        // memory at once, where freeing the game's records, the digests
        // and the history one allocation at a time took a twentieth of a
        // rebuild of a twenty-year game.
        std::mem::forget((read, rendered, timeline));
    }
    Ok(built)
}

/// One build: what it was asked, where its output and caches are, and
/// when it started (each stage reports the time since).
struct Build<'a> {
    args: &'a Options,
    /// The output directory, absolute or as given under the root.
    out: PathBuf,
    /// The digests of the pages the build writes (see [`caches::cache_path`]).
    cache_file: PathBuf,
    /// The records it parsed, beside `cache_file`.
    records_file: PathBuf,
    /// The history it read, beside `cache_file`.
    history_file: PathBuf,
    /// This program, as the caches name their maker.
    program: String,
    started: Instant,
}

/// What the read stage gives: the game, what the previous build left, the
/// theme.
struct Read {
    game: Game,
    /// Each record file's stamp and digest, for the records' cache.
    seen: Vec<Seen>,
    /// Whether the records' cache would change.
    records_changed: bool,
    /// The history read, for the next build.
    walk: Walk,
    /// Whether the kept history's file must be written again: the walk
    /// went further than the one it went on from, or the file does not
    /// hold that one.
    walk_changed: bool,
    /// The digests of the previous build's files still in the output
    /// (none for a full build).
    previous: RenderCache,
    /// Every file the previous build listed: those this build no longer
    /// makes are removed.
    written: Vec<String>,
    theme: Theme,
    overrides: Vec<ThemeFile>,
}

/// What the render stage gives: what was rendered (the digests; the
/// texts went to the writer), and the writer that wrote them while the
/// rest rendered.
struct Made<'w> {
    rendered: Rendered,
    writer: publish::Writer<'w>,
    /// Whether the kept history's file holds the walk read.
    walk_kept: bool,
}

impl<'a> Build<'a> {
    fn new(args: &'a Options) -> Build<'a> {
        let out = if args.out.is_absolute() {
            args.out.clone()
        } else {
            args.root.join(&args.out)
        };
        let cache_file = caches::cache_path(&args.root, &out, args.cache.as_deref());
        Build {
            records_file: caches::records_path(&cache_file),
            history_file: caches::history_path(&cache_file),
            cache_file,
            out,
            args,
            program: caches::program(),
            started: Instant::now(),
        }
    }

    /// Reports a stage on stderr, unless quiet, with the seconds since the
    /// build began to the millisecond: a rebuild takes a tenth of a
    /// second, and its stages' lines say where that goes.
    fn say(&self, message: &str) {
        if !self.args.quiet {
            eprintln!("[{:>7.3}s] {message}", self.started.elapsed().as_secs_f64());
        }
    }

    /// Reads the game, the previous build's digests (checked against the
    /// output), the theme and the git history at once: none needs the
    /// others. What an earlier build in this process kept spares reading
    /// its caches and parsing the templates again.
    fn read(&self, earlier: Kept) -> anyhow::Result<(Read, Timeline)> {
        let Kept {
            cache: kept_cache,
            records: kept_records,
            theme: kept_theme,
            listed,
            walk: kept_walk,
        } = earlier;
        let (args, out) = (self.args, &self.out);
        let ((game, seen, records_changed), (previous, written), (theme, overrides), history) =
            std::thread::scope(|scope| {
                let history = scope.spawn(move || self.history(kept_walk));
                let previous = scope.spawn(|| {
                    let identity = caches::identity(&self.program, out);
                    if kept_cache.identity == identity {
                        caches::on_disk(kept_cache, out)
                    } else {
                        caches::previous_build(&self.cache_file, out, &identity)
                    }
                });
                let theme = scope.spawn(|| theme(&args.root, &args.theme, kept_theme));
                let records = (!args.full).then(|| {
                    kept_records.map_or_else(RecordCache::default, |records| {
                        records
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    })
                });
                let game = read::read_game(
                    &args.root,
                    args.rev.as_deref(),
                    listed,
                    &self.records_file,
                    &self.program,
                    records,
                    &|message| self.say(message),
                );
                // Every thread joined before an error is told: a game that
                // cannot be read is what its player must see, not a panic
                // beside it (which stderr has shown already).
                let (previous, theme, history) = (previous.join(), theme.join(), history.join());
                let game = game?;
                anyhow::Ok((game, resumed(previous), resumed(theme)?, resumed(history)))
            })?;
        let mut previous = previous;
        if args.full {
            previous.files.clear();
        }
        let (timeline, walk, walk_changed) = history;
        let read = Read {
            walk,
            walk_changed,
            game,
            seen,
            records_changed,
            previous,
            written,
            theme,
            overrides,
        };
        Ok((read, timeline))
    }

    /// The git history of the revision built, unless told to skip it,
    /// going on from `earlier`'s walk if there is one (see
    /// [`read::history`]).
    fn history(&self, earlier: Option<(Walk, bool)>) -> (Timeline, Walk, bool) {
        if self.args.no_history {
            return Default::default();
        }
        let rev = self.args.rev.as_deref().unwrap_or("HEAD");
        read::history(
            &self.args.root,
            rev,
            (&self.history_file, self.args.full),
            earlier,
            &self.program,
            &|message| self.say(message),
        )
    }

    /// Renders the pages whose inputs changed, handing each to a writer
    /// as soon as it is made, while the records parsed are kept for the
    /// next build: neither waits for the rendering to end.
    fn render<'r>(
        &'r self,
        read: &Read,
        timeline: &Timeline,
        pending: &Pending,
    ) -> anyhow::Result<Made<'r>> {
        let args = self.args;
        let input = SiteInput {
            game: &read.game,
            timeline,
            pending,
            overrides: &read.overrides,
            commit: args.rev.clone(),
            base_url: args.base_url.clone(),
            forge: crate::site::forge_web(&read.game, &args.branch, args.actions.as_ref()),
        };
        let (rendered, records_kept, written, walk_kept) = std::thread::scope(|scope| {
            let keeping = read.records_changed.then(|| {
                scope.spawn(|| {
                    let records =
                        record::cache::keep(&self.program, &read.seen, &read.game.records);
                    write_atomically(&self.records_file, records)
                })
            });
            let keeping_walk = read.walk_changed.then(|| {
                scope.spawn(|| read::keep_walk(&self.history_file, &read.walk, &self.program))
            });
            let (files, arrive) = std::sync::mpsc::channel::<(String, String)>();
            let writer = scope.spawn(|| write_as_rendered(&self.out, &self.cache_file, arrive));
            // The writer takes each text: the build holds no copy of the
            // site. One that stopped on an error says why when joined, and
            // the build stops there.
            let emit = |path: &str, text: String| {
                let _ = files.send((path.to_string(), text));
                None
            };
            let say = |message: &str| self.say(message);
            let rendered =
                crate::site::render_emitting(&input, &read.theme, &read.previous, &say, &emit);
            drop(files);
            let walk_kept = keeping_walk.is_none_or(joined);
            (rendered, keeping.map(joined), joined(writer), walk_kept)
        });
        let rendered = rendered.context("cannot render the site")?;
        records_kept.transpose()?;
        let writer =
            written.with_context(|| format!("cannot write the site to {}", self.out.display()))?;
        self.say(&format!(
            "rendered {} files, kept {} unchanged",
            rendered.rendered,
            rendered.cache.files.len().saturating_sub(rendered.rendered)
        ));
        Ok(Made {
            rendered,
            writer,
            walk_kept,
        })
    }

    /// Checks every internal link and anchor of the whole site, if asked:
    /// how many are broken, each named on stderr.
    fn check_links(&self, rendered: &Rendered) -> anyhow::Result<usize> {
        if !self.args.check_links {
            return Ok(0);
        }
        let report = crate::site::links::check(&whole_site(&self.out, &rendered.cache)?);
        for link in &report.broken {
            eprintln!("broken link: {link}");
        }
        let broken = report.broken.len();
        self.say(&format!(
            "checked {} links: {broken} broken",
            report.checked
        ));
        Ok(broken)
    }

    /// Removes the previous build's files this one no longer makes (the
    /// render stage wrote the rest), and keeps the digests of every file
    /// for the next build, unless the output reads as it read.
    fn write(
        &self,
        read: &Read,
        rendered: &mut Rendered,
        writer: publish::Writer<'_>,
    ) -> anyhow::Result<WriteStats> {
        let stale: Vec<&str> = read
            .written
            .iter()
            .map(String::as_str)
            .filter(|p| !rendered.cache.files.contains_key(*p))
            .collect();
        let stats = writer
            .finish(&stale)
            .with_context(|| format!("cannot write the site to {}", self.out.display()))?;
        // Made again now that the output exists: its canonical path may
        // differ from the one a missing directory gave before it was written.
        rendered.cache.identity = caches::identity(&self.program, &self.out);
        // Unchanged (every file it listed still there, as the same build
        // made them): not written again.
        let unchanged = rendered.cache == read.previous
            && read.written.len() == read.previous.files.len()
            && stats.written + stats.removed == 0;
        if !unchanged {
            write_atomically(&self.cache_file, rendered.cache.to_text())?;
        }
        self.say(&format!(
            "wrote {}: {} changed, {} unchanged, {} removed",
            self.out.display(),
            stats.written,
            stats.unchanged + rendered.cache.files.len().saturating_sub(rendered.rendered),
            stats.removed
        ));
        Ok(stats)
    }
}

/// The theme under themes/`name` of `root` with the game's own templates
/// and static files over it: `kept` when an earlier build loaded it from
/// the same files, else parsed now.
fn theme(
    root: &Path,
    name: &str,
    kept: Option<(Vec<ThemeFile>, Theme)>,
) -> anyhow::Result<(Theme, Vec<ThemeFile>)> {
    let overrides = read::overrides(root, name)?;
    if let Some((files, theme)) = kept.filter(|(files, _)| *files == overrides) {
        return Ok((theme, files));
    }
    let theme = Theme::load_or_builtin(&overrides);
    Ok((theme, overrides))
}

/// Writes each file that arrives under `out` (see [`publish::Writer`]),
/// removing the cache of the previous build before the first write: a
/// build that fails or is killed from then on leaves no cache that
/// vouches for files it changed, and the next build renders them all.
/// Gives back the writer, to finish.
fn write_as_rendered<'w>(
    out: &'w Path,
    cache_file: &'w Path,
    arrive: std::sync::mpsc::Receiver<(String, String)>,
) -> Result<publish::Writer<'w>, publish::PublishError> {
    let mut writer = publish::Writer::new(out, move || match std::fs::remove_file(cache_file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(publish::PublishError::Io {
            path: cache_file.to_path_buf(),
            source: e,
        }),
        _ => Ok(()),
    });
    for (path, text) in arrive {
        writer.file(&path, &text)?;
    }
    Ok(writer)
}

/// What a thread gave, or its panic, passed on.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    resumed(handle.join())
}

/// What a joined thread gave, or its panic, resumed.
fn resumed<T>(joined: std::thread::Result<T>) -> T {
    joined.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Every file of the site, as `cache` lists them, read back from `out`,
/// where this build wrote them or the previous one did. For the link
/// check.
fn whole_site(out: &Path, cache: &RenderCache) -> anyhow::Result<Site> {
    cache
        .files
        .keys()
        .map(|path| {
            let file = out.join(path);
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            Ok((path.clone(), text))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::super::stamped::{self, Stamped};
    use super::*;
    use crate::game::GAME_DIRS;

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
        let stats = send(&[("a.html", "A")]).finish(&[]).unwrap();
        assert_eq!((stats.written, stats.unchanged), (0, 1));
        assert!(cache.exists(), "nothing changed: the cache still stands");
        // A build killed after this write must not find a cache that
        // vouches for the old a.html.
        let writer = send(&[("a.html", "A2")]);
        assert!(!cache.exists(), "a file changed while the cache stood");
        assert_eq!(writer.finish(&[]).unwrap().written, 1);
    }

    #[test]
    fn every_file_rendered_is_emitted_once_and_taken() {
        let (_dir, root) = game();
        let read = stamped::read_dir_cached(
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
        let theme = Theme::load(&[]).expect("the theme loads");
        let emitted = std::sync::Mutex::new(Vec::new());
        let taken = crate::site::render_emitting(
            &input,
            &theme,
            &RenderCache::default(),
            &|_| {},
            &|path, text| {
                emitted.lock().unwrap().push((path.to_string(), text));
                None
            },
        )
        .expect("it renders");
        let mut emitted = emitted.into_inner().unwrap();
        emitted.sort();
        // What a render that keeps every text returns.
        let kept = crate::site::render_with(&input, &theme, &RenderCache::default(), &|_| {})
            .expect("it renders");
        let files: Vec<(String, String)> = kept.files.into_iter().collect();
        assert!(files.len() > 20, "{} files", files.len());
        assert!(
            emitted == files,
            "the files emitted are not the files rendered"
        );
        assert!(taken.files.is_empty(), "a text the emitter took is kept");
        assert_eq!((taken.rendered, kept.rendered), (files.len(), files.len()));
        assert_eq!(taken.cache, kept.cache);
    }

    #[test]
    fn a_build_from_what_the_last_one_kept_equals_a_full_build() {
        let (dir, root) = game();
        let mut kept = Kept::default();
        let first = build(&args(&root, "public"), Some(&mut kept), &no_forge).expect("it builds");
        assert!(!kept.cache.files.is_empty(), "the build keeps what it made");
        // Without the cache on disk, only what was kept can spare the
        // next build from rendering everything again.
        std::fs::remove_file(caches::cache_path(dir.path(), &first.out, None)).unwrap();
        let matters = dir.path().join("content/matters");
        std::fs::create_dir_all(&matters).unwrap();
        std::fs::write(matters.join("00007.md"), RECORD).unwrap();
        // As serve's watcher gives them, the files listed and stamped.
        let listed = stamped::list_stamped(dir.path(), GAME_DIRS, Stamped::All);
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
