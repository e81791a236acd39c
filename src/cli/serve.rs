//! `gitnomic serve`: build the site, serve it on localhost, rebuild when a
//! game or theme file, the commit built or the local forge's matters
//! change. For previewing; not a production server.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime};

use anyhow::Context as _;

use super::{EXIT_OK, GlobalArgs, build};
use crate::game::GAME_DIRS;
use crate::git::Repo;
use crate::load::{self};

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
    let mut kept = crate::site::incremental::Kept::default();
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
            if let Err(e) = respond(stream, &out) {
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
    mut kept: crate::site::incremental::Kept,
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
    game: Option<Vec<load::Listed>>,
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
        let game = load::list_stamped(root, GAME_DIRS, load::Stamped::All).ok();
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

/// Answers one GET or HEAD request with a file of `out`.
fn respond(mut stream: TcpStream, out: &Path) -> std::io::Result<()> {
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line)?;
    let mut words = line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or("/"));
    let file = resolve(out, target);
    let (status, body, kind) = match (
        method,
        file.and_then(|f| std::fs::read(&f).ok().map(|b| (f, b))),
    ) {
        ("GET" | "HEAD", Some((path, bytes))) => ("200 OK", bytes, content_type(&path)),
        ("GET" | "HEAD", None) => ("404 Not Found", b"not found\n".to_vec(), "text/plain"),
        _ => ("405 Method Not Allowed", Vec::new(), "text/plain"),
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    stream.flush()
}

/// The file a request target names under `out`; never outside it.
fn resolve(out: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    // A `%` not followed by two hex digits stands for itself.
    let path = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let mut file = out.to_path_buf();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            p if p.contains('\\') => return None,
            p => file.push(p),
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("xml") => "application/atom+xml",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_requests_inside_the_site_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("ruleset")).unwrap();
        std::fs::write(dir.path().join("ruleset/index.html"), "x").unwrap();
        std::fs::write(dir.path().join("a b.css"), "x").unwrap();
        let found = |t: &str| {
            resolve(dir.path(), t).map(|p| p.strip_prefix(dir.path()).unwrap().to_path_buf())
        };
        assert_eq!(
            found("/ruleset/#x"),
            Some(PathBuf::from("ruleset/index.html"))
        );
        assert_eq!(found("/a%20b.css?v=1"), Some(PathBuf::from("a b.css")));
        assert_eq!(found("/../etc/passwd"), None);
        assert_eq!(found("/%2e%2e/x"), None);
        assert_eq!(found("/ruleset%2F..%2F..%2Fetc"), None);
        std::fs::write(dir.path().join("100%.txt"), "x").unwrap();
        assert_eq!(found("/100%25.txt"), Some(PathBuf::from("100%.txt")));
        assert_eq!(found("/100%.txt"), Some(PathBuf::from("100%.txt")));
        assert_eq!(found("/%ff"), None, "not UTF-8");
        assert_eq!(found("/nothing"), None);
    }
}
