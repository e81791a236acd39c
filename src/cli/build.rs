//! `gitnomic build`: the static site, from the game and its git history.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context as _;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::game::Game;
use crate::load::{self, GAME_DIRS, Origin};
use crate::site::{self, SiteInput, ThemeFile, Timeline};
use crate::{publish, timeline};

/// The file in the output directory listing what the last build wrote.
const MANIFEST: &str = ".gitnomic-site";

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
}

/// What a build did.
pub(crate) struct Built {
    /// Where it went.
    pub(crate) out: PathBuf,
    /// Broken links, when checked.
    pub(crate) broken: usize,
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

/// Builds the site once, reporting each stage on stderr unless --quiet.
pub(crate) fn build(args: &Args, global: &GlobalArgs) -> anyhow::Result<Built> {
    let started = Instant::now();
    let quiet = global.quiet;
    let say = |message: &str| {
        if !quiet {
            eprintln!("[{:>6.2}s] {message}", started.elapsed().as_secs_f64());
        }
    };
    let root = &global.root;
    let game = read_game(root, args.rev.as_deref(), &say)?;
    let timeline = if args.no_history {
        Timeline::default()
    } else {
        history(root, args.rev.as_deref().unwrap_or("HEAD"), &say)
    };
    let overrides = overrides(root, &args.theme)?;
    let pending = pending(&game, global, &say)?;
    let input = SiteInput {
        game: &game,
        timeline: &timeline,
        pending: &pending,
        overrides: &overrides,
        commit: args.rev.clone(),
        base_url: args.base_url.clone(),
    };
    let rendered = site::render(&input, &|stage| say(stage)).context("cannot render the site")?;
    say(&format!("rendered {} files", rendered.len()));
    let mut broken = 0;
    if args.check_links {
        let report = site::links::check(&rendered);
        for link in &report.broken {
            eprintln!("broken link: {link}");
        }
        broken = report.broken.len();
        say(&format!(
            "checked {} links: {broken} broken",
            report.checked
        ));
    }
    let out = if args.out.is_absolute() {
        args.out.clone()
    } else {
        root.join(&args.out)
    };
    let stats = publish::write(&out, &rendered, Some(MANIFEST))
        .with_context(|| format!("cannot write the site to {}", out.display()))?;
    say(&format!(
        "wrote {}: {} changed, {} unchanged, {} removed",
        out.display(),
        stats.written,
        stats.unchanged,
        stats.removed
    ));
    Ok(Built { out, broken })
}

/// Live tallies of the open matters, when the game has a forge: GitHub with
/// `--forge github`, or the local forge if the repository has one.
fn pending(game: &Game, global: &GlobalArgs, say: &dyn Fn(&str)) -> anyhow::Result<site::Pending> {
    let local = global.root.join(".git").join("gitnomic-forge").is_dir();
    if global.forge == super::ForgeKind::Local && !local {
        say("no forge: the pending page lists no matters");
        return Ok(site::Pending::default());
    }
    let now = global.now();
    let forge = super::open_forge(global, now)?;
    let planned = super::live::plan(forge.as_ref(), game, &global.root, &global.base, now)?;
    let run = planned.plan.tallies();
    let state = game
        .state
        .as_ref()
        .context("the game's state/ cannot be read")?;
    let author = |login: &str| {
        crate::collected::player_name(state, &crate::forge::Login(login.to_string())).0
    };
    let active = crate::report::active_players(state, now);
    let views = site::pending::views(
        &run,
        &|n| planned.matters.get(&n).cloned(),
        &author,
        &active,
    );
    say(&format!(
        "tallied {} pending matters at {now}",
        views.matters.len()
    ));
    Ok(views)
}

/// The game in the work tree at `root`, or at revision `rev` of it.
fn read_game(root: &Path, rev: Option<&str>, say: &dyn Fn(&str)) -> anyhow::Result<Game> {
    let origin = match rev {
        Some(rev) => Origin::Revision {
            repo: root.to_path_buf(),
            rev: rev.to_string(),
        },
        None => Origin::Dir(root.to_path_buf()),
    };
    let files = load::read(&origin, GAME_DIRS).context("cannot read the game")?;
    let game = Game::check(&files);
    say(&format!(
        "read {} files: {} rules, {} records",
        files.len(),
        game.ruleset.rules.len(),
        game.records.len()
    ));
    if !game.problems.is_empty() {
        tracing::warn!(
            "the game has {} problems (see `gitnomic check`); building what could be read",
            game.problems.len()
        );
    }
    Ok(game)
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
