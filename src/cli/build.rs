//! `gitnomic build`: the static site, from the game and its git history.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{EXIT_OK, EXIT_PROBLEMS, ForgeKind, GlobalArgs};
use crate::game::Game;
use crate::publish::build::{self as site_build, Built, Kept, Options};
use crate::site::Pending;

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

/// Runs `gitnomic build`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let built = build(args, global)?;
    // The workflow publishes the site only when a file of it changed.
    super::step_output("changed", built.changed > 0)?;
    if built.broken > 0 {
        eprintln!("{} broken links in {}", built.broken, built.out.display());
        return Ok(ExitCode::from(EXIT_PROBLEMS));
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Builds the site once, as `args` say.
pub(crate) fn build(args: &Args, global: &GlobalArgs) -> anyhow::Result<Built> {
    build_keeping(args, global, None)
}

/// Builds the site, taking and leaving in `kept` what a next build in
/// this process can use (see [`site_build::build`]).
pub(crate) fn build_keeping(
    args: &Args,
    global: &GlobalArgs,
    kept: Option<&mut Kept>,
) -> anyhow::Result<Built> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let options = Options {
        root: global.root.clone(),
        out: args.out.clone(),
        rev: args.rev.clone(),
        theme: args.theme.clone(),
        base_url: args.base_url.clone(),
        no_history: args.no_history,
        check_links: args.check_links,
        cache: args.cache.clone(),
        full: args.full,
        quiet: global.quiet,
        branch: global.base.clone(),
        actions: env("GITHUB_SERVER_URL").zip(env("GITHUB_REPOSITORY")),
    };
    site_build::build(&options, kept, &|game, say| live(game, global, say))
}

/// Live tallies of the open matters, when the game has a forge: GitHub with
/// `--forge github`, or the local forge if the repository has one.
fn live(game: &Game, global: &GlobalArgs, say: &dyn Fn(&str)) -> anyhow::Result<Pending> {
    let local = crate::forge::local::dir_of(&global.root).is_dir();
    if global.forge == ForgeKind::Local && !local {
        say("no forge: the pending page lists no matters");
        return Ok(crate::site::pending::without_forge(game, global.now()));
    }
    let now = global.now();
    let forge = super::open_forge(global, now)?;
    crate::resolve::driver::pending(forge.as_ref(), game, &global.root, &global.base, now, say)
}
