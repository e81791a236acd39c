//! `gitnomic serve`: build the site, serve it on localhost, rebuild when a
//! game or theme file, the commit built or the local forge's matters
//! change. For previewing; not a production server.

use std::io::Write;
use std::net::TcpListener;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::{EXIT_OK, GlobalArgs, build};
use crate::publish::watch::Fingerprint;

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
