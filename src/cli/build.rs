//! `gitnomic build`: the static site, from the game and its git history.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::game::GAME_DIRS;
use crate::game::Game;
use crate::load::timeline;
use crate::load::{self, Listed};
use crate::record::{self, cache::RecordCache};
use crate::site::publish;
use crate::site::{self, RenderCache, Rendered, SiteInput, ThemeFile, Timeline};

/// The list of files that builds before this version left in the output
/// directory (and published with the site); read once to remove what they
/// wrote, then deleted.
const OLD_MANIFEST: &str = ".gitnomic-site";

/// Arguments of `gitnomic build`.
#[derive(Debug, Clone, clap::Args)]
#[group(id = "build_args")]
pub struct Args {
    /// Where to write the site (relative paths are under --root).
    #[arg(long, default_value = "public")]
    pub out: PathBuf,
    /// Build this git revision of --root (branch, tag, SHA) instead of
    /// the files on disk.
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,
    /// The theme under themes/ whose templates/ and static/ override the
    /// built-in ones (the game's own templates/ and static/ win over both).
    #[arg(long, default_value = "default")]
    pub theme: String,
    /// The address the site is served from, for the feed's absolute links.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Skip reading the git history (no ruleset revisions, no charts).
    #[arg(long)]
    pub no_history: bool,
    /// Check every internal link and anchor; broken ones fail the build
    /// (exit 1) after it is written.
    #[arg(long)]
    pub check_links: bool,
    /// Where the build keeps the digest of every page it made, so that the
    /// next build renders only what changed [default:
    /// .git/gitnomic-site-cache when --root is a git repository, else
    /// .<out>.gitnomic-cache beside the output]. The records it parsed
    /// are kept beside it, in FILE.records. Never inside the output.
    #[arg(long, value_name = "FILE")]
    pub cache: Option<PathBuf>,
    /// Render every page and parse every record, as if nothing had been
    /// built before.
    #[arg(long)]
    pub full: bool,
}

/// What a build did.
pub(crate) struct Built {
    /// Where it went.
    pub(crate) out: PathBuf,
    /// Broken links, when checked.
    pub(crate) broken: usize,
    /// How many files it rendered (the others stood as they were).
    pub(crate) rendered: usize,
}

/// Runs `gitnomic build`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let built = build(args, global)?;
    if built.broken > 0 {
        eprintln!("{} broken links in {}", built.broken, built.out.display());
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// What a build leaves in memory for the next build in the same process
/// (`serve`'s, with the same arguments): the digests of the pages it
/// made, the records it parsed and the theme it loaded. The next build
/// then reads neither cache file back and parses no template again.
/// The default holds nothing: its build reads both cache files.
#[derive(Default)]
pub(crate) struct Kept {
    /// The digests it wrote, as in the cache file.
    cache: RenderCache,
    /// The records parsed, with their files' stamps and text ids, indexed
    /// on a thread of their own once the build is done: the next build,
    /// half a second away at least, finds them ready.
    records: Option<std::thread::JoinHandle<RecordCache>>,
    /// The theme's files and the theme loaded from them.
    theme: Option<(Vec<ThemeFile>, site::Theme)>,
    /// The game's files, every one stamped, as serve's watcher listed
    /// them a moment ago to see that something changed: not listed and
    /// stamped again. A file changed since then changes the watcher's
    /// next listing, and the build after it reads it.
    listed: Option<Vec<Listed>>,
}

impl Kept {
    /// Gives the next build the game's files as just listed (see
    /// [`load::list_stamped`]).
    pub(crate) fn listed(&mut self, files: Vec<Listed>) {
        self.listed = Some(files);
    }
}

/// Builds the site once, reporting each stage on stderr unless --quiet.
pub(crate) fn build(args: &Args, global: &GlobalArgs) -> anyhow::Result<Built> {
    build_keeping(args, global, None)
}

/// [`build`], taking what the previous build in this process left in
/// `kept` and leaving there what the next one can use. Without `kept`
/// (a build the process ends after) nothing is gathered to keep: the
/// records' index alone would cost a tenth of a rebuild.
pub(crate) fn build_keeping(
    args: &Args,
    global: &GlobalArgs,
    mut kept: Option<&mut Kept>,
) -> anyhow::Result<Built> {
    let started = Instant::now();
    let quiet = global.quiet;
    let say = |message: &str| {
        if !quiet {
            eprintln!("[{:>6.2}s] {message}", started.elapsed().as_secs_f64());
        }
    };
    let root = &global.root;
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
            let theme = site::Theme::load(&overrides).context("cannot render the site")?;
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
    let pending = pending(&game, global, &say)?;
    let input = SiteInput {
        game: &game,
        timeline: &timeline,
        pending: &pending,
        overrides: &overrides,
        commit: args.rev.clone(),
        base_url: args.base_url.clone(),
        forge: forge_web(&game, &global.base),
    };
    if args.full {
        previous.files.clear();
    }
    // The records parsed are kept for the next build while this one
    // renders: neither needs the other.
    let (rendered, records_kept) = std::thread::scope(|scope| {
        let keeping = changed.then(|| {
            scope.spawn(|| {
                let records = record::cache::keep(&program, &seen, &game.records);
                write_atomically(&records_file, records)
            })
        });
        let rendered = site::render_with(&input, &theme, &previous, &|stage| say(stage));
        (rendered, keeping.map(joined))
    });
    let mut rendered = rendered.context("cannot render the site")?;
    records_kept.transpose()?;
    say(&format!(
        "rendered {} files, kept {} unchanged",
        rendered.files.len(),
        rendered.cache.files.len() - rendered.files.len()
    ));
    let mut broken = 0;
    if args.check_links {
        let report = site::links::check(&whole_site(&out, &rendered)?);
        for link in &report.broken {
            eprintln!("broken link: {link}");
        }
        broken = report.broken.len();
        say(&format!(
            "checked {} links: {broken} broken",
            report.checked
        ));
    }
    let old_manifest = std::fs::read_to_string(out.join(OLD_MANIFEST)).unwrap_or_default();
    let stale: Vec<&str> = written
        .iter()
        .map(String::as_str)
        .chain(old_manifest.lines())
        .filter(|p| !rendered.cache.files.contains_key(*p))
        .collect();
    let stats = publish::write(&out, &rendered.files, &stale)
        .with_context(|| format!("cannot write the site to {}", out.display()))?;
    let _ = std::fs::remove_file(out.join(OLD_MANIFEST));
    // Made again now that `out` exists: its canonical path may differ
    // from the one a missing directory gave before it was written.
    rendered.cache.identity = identity(&program, &out);
    // Unchanged (every file it listed still there, as the same build
    // made them): not written again.
    let unchanged = rendered.cache == previous && written.len() == previous.files.len();
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

/// What a thread gave, or its panic, passed on.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Where the cache of the build writing to `out` lives.
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
#[cfg(target_os = "linux")]
fn remove_abandoned(file: &Path) {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name().and_then(|n| n.to_str())) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let other = entry.file_name();
        let pid = other
            .to_str()
            .and_then(|o| {
                o.strip_prefix(name)?
                    .strip_prefix('.')?
                    .strip_suffix(".tmp")
            })
            .filter(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        if pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Elsewhere no process can be told running or not: a killed build's
/// temporary file stays until removed by hand.
#[cfg(not(target_os = "linux"))]
fn remove_abandoned(_: &Path) {}

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
fn whole_site(out: &Path, rendered: &Rendered) -> anyhow::Result<site::Site> {
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

/// Live tallies of the open matters, when the game has a forge: GitHub with
/// `--forge github`, or the local forge if the repository has one.
fn pending(game: &Game, global: &GlobalArgs, say: &dyn Fn(&str)) -> anyhow::Result<site::Pending> {
    let local = crate::forge::local::dir_of(&global.root).is_dir();
    if global.forge == super::ForgeKind::Local && !local {
        say("no forge: the pending page lists no matters");
        return Ok(site::Pending::default());
    }
    let now = global.now();
    let forge = super::open_forge(global, now)?;
    let planned =
        crate::resolve::driver::plan(forge.as_ref(), game, &global.root, &global.base, now)?;
    let run = planned.plan.tallies();
    let state = game
        .state
        .as_ref()
        .context("the game's state/ cannot be read")?;
    let author = |login: &str| {
        crate::matter::collected::player_name(state, &crate::forge::Login(login.to_string())).0
    };
    let active = crate::matter::status::active_players(state, now);
    let trial = crate::git::trial::GitTrial::open(&global.root, &global.base).ok();
    let change = |m: &crate::matter::collected::Collected| {
        trial
            .as_ref()
            .and_then(|t| proposed_change(t, m.info.head.as_ref()?))
            .unwrap_or_default()
    };
    let views = site::pending::views(
        &run,
        &|n| planned.matters.get(&n).cloned(),
        &author,
        &active,
        &change,
    );
    let mut views = views;
    views.actions = site::pending::actions(planned.matters.values(), &author);
    if let Some(params) = &game.params {
        let matters = run
            .decisions
            .iter()
            .filter_map(|d| planned.matters.get(&d.id)?.engine_matter(state))
            .collect();
        let snapshot = crate::matter::collected::snapshot(state, params, matters);
        let voters = |id: u64| {
            views
                .matters
                .iter()
                .find(|m| m.number == id)
                .map(|m| m.not_voted.clone())
                .unwrap_or_default()
        };
        let mut what_if = site::ifvote::if_votes(&snapshot, now, &voters);
        for m in &mut views.matters {
            m.if_votes = what_if.remove(&m.number).unwrap_or_default();
        }
    }
    views.closing = planned
        .plan
        .lines
        .iter()
        .filter_map(|line| match &line.fate {
            crate::plan::Fate::Closed(why) => Some(site::ClosingView {
                number: line.number,
                kind: line.kind.to_string(),
                title: planned
                    .matters
                    .get(&line.number)
                    .map(|m| m.info.title.clone())
                    .unwrap_or_default(),
                why: why.clone(),
            }),
            _ => None,
        })
        .collect();
    let count = i64::try_from(views.matters.len()).unwrap_or(i64::MAX);
    say(&format!(
        "tallied {} at {now}",
        crate::matter::status::plural(count, "pending matter", "pending matters")
    ));
    Ok(views)
}

/// The game's repository on its forge: in GitHub Actions, where the
/// workflow runs (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`); elsewhere
/// the game's `[game] repo` setting. `None` when neither says (a game
/// played on the local forge alone).
fn forge_web(game: &Game, branch: &str) -> Option<site::ForgeWeb> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    if let (Some(server), Some(repo)) = (env("GITHUB_SERVER_URL"), env("GITHUB_REPOSITORY")) {
        if let Some(web) = site::ForgeWeb::new(&server, &repo, branch) {
            return Some(web);
        }
        tracing::warn!("GITHUB_SERVER_URL or GITHUB_REPOSITORY is not an address: {server}/{repo}");
    }
    let setting = game.state.as_ref()?.repo.as_deref()?;
    let web = site::ForgeWeb::from_setting(setting, branch);
    if web.is_none() {
        tracing::warn!(
            "[game] repo in state/game.toml is not OWNER/NAME nor an address: {setting}"
        );
    }
    web
}

/// What the branch at `head` changes since it forked from the base
/// branch, as a pull request's diff shows it; `None` when the checkout
/// lacks the head (a forge's branch not fetched: the card then shows no
/// change rather than a wrong one).
fn proposed_change(
    trial: &crate::git::trial::GitTrial,
    head: &crate::matter::HeadSha,
) -> Option<site::pending::ProposedChange> {
    const DIRS: &[&str] = &["rules", "state"];
    let fork = trial.fork_of(head, None).ok()?;
    let before = load::read_revision(trial.repo(), &fork, DIRS).ok()?;
    let after = load::read_revision(trial.repo(), &head.0, DIRS).ok()?;
    Some(site::pending::proposed_change(&before, &after))
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
    fn game() -> (tempfile::TempDir, GlobalArgs) {
        let dir = tempfile::tempdir().expect("a temporary directory");
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
        let global = GlobalArgs {
            root: dir.path().to_path_buf(),
            now: None,
            base: "main".into(),
            forge: super::super::ForgeKind::Local,
            verbose: false,
            quiet: true,
        };
        (dir, global)
    }

    fn args(out: &str) -> Args {
        Args {
            out: out.into(),
            rev: None,
            theme: "default".into(),
            base_url: None,
            no_history: true,
            check_links: false,
            cache: None,
            full: false,
        }
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
    fn a_build_from_what_the_last_one_kept_equals_a_full_build() {
        let (dir, global) = game();
        let mut kept = Kept::default();
        let first = build_keeping(&args("public"), &global, Some(&mut kept)).expect("it builds");
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
        let again = build_keeping(&args("public"), &global, Some(&mut kept)).expect("it builds");
        assert!(
            again.rendered > 0 && again.rendered < first.rendered / 2,
            "{} of {} files rendered again",
            again.rendered,
            first.rendered
        );
        let mut full = args("full");
        full.full = true;
        build(&full, &global).expect("it builds");
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
