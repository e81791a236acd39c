//! `gitnomic serve`: build the site, serve it on localhost, rebuild when a
//! game or theme file, the commit built or the local forge's matters
//! change. For previewing; not a production server.

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;

use super::{EXIT_OK, GlobalArgs, build};
use crate::game::GAME_DIRS;
use crate::git::Repo;
use crate::publish::stamped;

/// How often the game's files are looked at for changes.
const POLL: Duration = Duration::from_millis(500);

/// Arguments of `gitnomic serve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The build's options.
    #[command(flatten)]
    pub build: build::Args,
    /// The port on 127.0.0.1 (0 picks a free one; the address is printed).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
}

/// Runs `gitnomic serve` until interrupted.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    // Looked at before the first build, so that a file changed while it
    // runs is built again after it.
    let rev = args.build.rev.as_deref();
    let seen = Fingerprint::of(&global.root, rev);
    let mut kept = crate::publish::build::Kept::default();
    if let Some(files) = &seen.game {
        kept.listed(files.clone());
    }
    let built = build::build_keeping(&args.build, global, Some(&mut kept))?;
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", args.port))?;
    let address = listener.local_addr().context("no local address")?;
    say!("serving {} on http://{address}/", built.out.display());
    std::io::stdout().flush().ok();
    let (build_args, watch_global) = (args.build.clone(), global.clone());
    std::thread::spawn(move || watch(&build_args, &watch_global, kept, seen));
    for stream in listener.incoming().flatten() {
        let out = built.out.clone();
        std::thread::spawn(move || {
            if let Err(e) = crate::publish::serve::respond(stream, &out) {
                tracing::debug!("a request failed: {e}");
            }
        });
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Rebuilds whenever what the build reads differs from what was `seen`,
/// each build starting from what the one before it kept in memory, and
/// from the game's files as the watcher just listed and stamped them.
fn watch(
    args: &build::Args,
    global: &GlobalArgs,
    mut kept: crate::publish::build::Kept,
    mut seen: Fingerprint,
) {
    loop {
        std::thread::sleep(POLL);
        let now = Fingerprint::of(&global.root, args.rev.as_deref());
        if now != seen {
            if let Some(files) = &now.game {
                kept.listed(files.clone());
            }
            seen = now;
            eprintln!("the game changed: rebuilding");
            let started = Instant::now();
            match build::build_keeping(args, global, Some(&mut kept)) {
                Ok(built) => eprintln!(
                    "rebuilt in {:.3} s: {} rendered again",
                    started.elapsed().as_secs_f64(),
                    match built.rendered {
                        1 => "1 file".to_string(),
                        n => format!("{n} files"),
                    }
                ),
                Err(e) => eprintln!("gitnomic: error: {e:#}"),
            }
        }
    }
}

/// What a build reads, as the watcher compares it between looks.
#[derive(PartialEq)]
struct Fingerprint {
    /// The game's files, each stamped (`None`: they could not be listed;
    /// the build lists them itself and says why not).
    game: Option<Vec<crate::publish::stamped::Listed>>,
    /// The path, size and modification time of every theme file.
    theme: Vec<Stamp>,
    /// The commit `--rev` (else HEAD) names: a new commit changes the
    /// ruleset's history, and with `--rev` the whole game, though no file
    /// of the work tree changed.
    commit: Option<String>,
    /// The local forge's files: a matter opened or a vote cast there
    /// changes the pending page.
    forge: Vec<Stamp>,
}

/// A file's path, size and modification time.
type Stamp = (PathBuf, u64, Option<SystemTime>);

impl Fingerprint {
    fn of(root: &Path, rev: Option<&str>) -> Fingerprint {
        let game = stamped::list_stamped(root, GAME_DIRS, stamped::Stamped::All).ok();
        let theme = ["templates", "static", "themes"]
            .iter()
            .flat_map(|dir| stamps(&root.join(dir)))
            .collect();
        let commit = Repo::open(root)
            .and_then(|repo| repo.commit_id(rev.unwrap_or("HEAD")))
            .map(|id| id.to_string())
            .ok();
        let forge = stamps(&crate::forge::local::dir_of(root));
        Fingerprint {
            game,
            theme,
            commit,
            forge,
        }
    }
}

/// Every file and directory under `dir`, stamped.
fn stamps(dir: &Path) -> Vec<Stamp> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let meta = entry.metadata().ok()?;
            Some((entry.path().to_path_buf(), meta.len(), meta.modified().ok()))
        })
        .collect()
}
