//! The site in a real browser: headless Chromium opens the ruleset,
//! follows a permalink and a cross-reference, opens the tracker and the
//! archive (browser/driver.html does the clicking), and a screenshot
//! of the ruleset is saved. Both the bundled game and, when the shared
//! data is here, the bundled game with BlogNomic's imported history.
//! Then the demo game's key pages, at a phone's 390 px and a desktop's
//! 1280 px, in the light and the dark scheme: nothing scrolls sideways,
//! the page nor any box in it (the tracker's roster, the dynasties: every
//! column is on the screen), a chart's bars are as tall as drawn, and
//! axe-core (from npm, pinned; `.ci/run` installs it under target/axe)
//! finds no serious or critical violation (browser/layout.html).
//!
//! Needs Chromium (Debian's `chromium`; `.ci/run` installs it), so it is
//! not part of the default `cargo test`:
//! `cargo test --test testsuite -- --ignored browser::`.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use crate::game_test::GameTest;

const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
];

fn gitnomic(root: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gitnomic"));
    command.arg("--root").arg(root).arg("-q");
    command
}

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium".into())
}

/// `gitnomic serve` on a free port, and its address.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(root: &Path) -> Server {
        Server::start_at(root, &[])
    }

    /// Serves with extra global options first (`--now` for a game whose
    /// matters are timed).
    fn start_at(root: &Path, global: &[&str]) -> Server {
        let mut child = gitnomic(root)
            .args(global)
            .args(["serve", "--port", "0", "--check-links"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("start gitnomic serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in `{line}`"))
            .to_string();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run_chromium(args: &[&str]) -> String {
    let output = Command::new(chromium())
        .args(FLAGS)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} (install Debian's chromium): {e}", chromium()));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Builds and serves the game at `root`, drives it and takes a screenshot.
fn drive(root: &Path, name: &str) {
    let driver = include_str!("browser/driver.html");
    let server = Server::start(root);
    // The driver goes into the served site only, after the build.
    std::fs::create_dir_all(root.join("public/__test")).unwrap();
    std::fs::write(root.join("public/__test/driver.html"), driver).unwrap();
    let dom = run_chromium(&[
        "--virtual-time-budget=30000",
        "--dump-dom",
        &format!("{}__test/driver.html", server.url),
    ]);
    let result = dom
        .split("<pre id=\"result\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("no result in the page:\n{dom}"));
    assert!(result.starts_with("PASS"), "{name}: {result}");
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join(format!("{name}-ruleset.png"));
    run_chromium(&[
        "--window-size=1280,1600",
        &format!("--screenshot={}", shot.display()),
        &format!("{}ruleset/index.html", server.url),
    ]);
    let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 10_000,
        "the screenshot {} is {size} bytes",
        shot.display()
    );
    println!("{name}: {result}\nscreenshot: {}", shot.display());
}

#[test]
#[ignore = "needs chromium: cargo test --test testsuite -- --ignored browser::"]
fn the_site_works_in_a_browser() {
    let game = GameTest::bundled();
    drive(game.root(), "bundled");

    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/blognomic-history/proposals.csv");
    if !data.exists() {
        println!("skipped: ../shared/data/blognomic-history/proposals.csv not found");
        return;
    }
    let game = GameTest::bundled();
    let import = gitnomic(game.root())
        .args(["import", "history"])
        .arg(&data)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(import.success());
    drive(game.root(), "history");
}

/// The moment the demo game's site is built at: its matters are in 2030.
const DEMO_NOW: &str = "2030-03-02T13:00:00Z";

/// The pages a player uses, found in the built site at `public`.
fn key_pages(public: &Path) -> Vec<String> {
    let first = |dir: &str, pick: &dyn Fn(&str) -> bool| -> Option<String> {
        let mut names: Vec<String> = std::fs::read_dir(public.join(dir))
            .ok()?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".html") && n != "index.html")
            .filter(|n| {
                pick(&std::fs::read_to_string(public.join(dir).join(n)).unwrap_or_default())
            })
            .collect();
        names.sort();
        names.pop().map(|n| format!("{dir}/{n}"))
    };
    let mut pages: Vec<String> = [
        "index.html",
        "ruleset/index.html",
        "tracker/index.html",
        "pending/index.html",
        "archive/index.html",
        "rulesets/index.html",
        "players/index.html",
        "dynasties/index.html",
        "stats/index.html",
    ]
    .map(String::from)
    .into();
    pages.extend(first("rules", &|_| true));
    pages.extend(first("matters", &|html| html.contains("What it changed")));
    pages.extend(first("rulesets", &|_| true));
    pages.extend(first("players", &|_| true));
    pages.extend(first("dynasties", &|_| true));
    pages
}

#[test]
#[ignore = "needs chromium: cargo test --test testsuite -- --ignored browser::"]
fn key_pages_fit_a_phone_and_a_desktop_and_pass_axe_in_both_schemes() {
    let axe =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/axe/node_modules/axe-core/axe.min.js");
    if !axe.exists() {
        assert!(
            std::env::var_os("GITNOMIC_REQUIRE_AXE").is_none(),
            "{} is missing: .ci/run installs it",
            axe.display()
        );
        println!(
            "skipped: {} not found (.ci/run installs axe-core)",
            axe.display()
        );
        return;
    }
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let game = dir.path().join("game");
    let demo = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .args(["--root", env!("CARGO_MANIFEST_DIR"), "demo"])
        .arg(&game)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(demo.success(), "the demo game is made");
    let server = Server::start_at(&game, &["--now", DEMO_NOW]);
    let test_dir = game.join("public/__test");
    std::fs::create_dir_all(&test_dir).unwrap();
    std::fs::write(
        test_dir.join("layout.html"),
        include_str!("browser/layout.html"),
    )
    .unwrap();
    std::fs::copy(&axe, test_dir.join("axe.min.js")).unwrap();
    let pages = key_pages(&game.join("public"));
    assert!(
        pages.iter().any(|p| p.starts_with("matters/")),
        "an enacted matter with its diff is among {pages:?}"
    );
    for (scheme, blink) in [("light", 1), ("dark", 0)] {
        for width in [390, 1280] {
            let dom = run_chromium(&[
                &format!("--blink-settings=preferredColorScheme={blink}"),
                "--window-size=1400,900",
                "--virtual-time-budget=120000",
                "--dump-dom",
                &format!(
                    "{}__test/layout.html?width={width}&pages={}",
                    server.url,
                    pages.join(",")
                ),
            ]);
            let result = dom
                .split("<pre id=\"result\">")
                .nth(1)
                .and_then(|rest| rest.split("</pre>").next())
                .unwrap_or_else(|| panic!("no result in the page:\n{dom}"));
            println!("{result}");
            assert!(
                result.contains(&format!("scheme {scheme} width {width}")),
                "the page saw another scheme or width: {result}"
            );
            assert!(result.starts_with("PASS"), "{scheme}, {width} px: {result}");
            assert_eq!(result.matches("\nok ").count(), pages.len(), "{result}");
        }
    }
}

/// The result `chromium --dump-dom` left in a test page's `#result`.
fn result_of(dom: &str) -> &str {
    dom.split("<pre id=\"result\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("no result in the page:\n{dom}"))
}

/// A player's loop on the demo game's site (browser/play.html):
/// opened from disk, every link of the navigation opens a page and the
/// search says how to serve the site; served, `?q=` finds a rule by its
/// text and a pending matter by its number, and a player who picks
/// their name sees the matter that waits for their vote marked, with
/// what their vote would do, on the pending page, the strip and the
/// tracker. A card's next moment is counted down within a week and read
/// as a date beyond it: the demo's matters are dated 2030, and opened
/// today its card gives their date, not "in 1192 d".
#[test]
#[ignore = "needs chromium: cargo test --test testsuite -- --ignored browser::"]
fn a_player_finds_votes_and_searches_from_disk_and_served() {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let game = dir.path().join("game");
    let demo = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .args(["--root", env!("CARGO_MANIFEST_DIR"), "demo"])
        .arg(&game)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(demo.success(), "the demo game is made");
    let server = Server::start_at(&game, &["--now", DEMO_NOW]);
    let test_dir = game.join("public/__test");
    std::fs::create_dir_all(&test_dir).unwrap();
    std::fs::write(
        test_dir.join("play.html"),
        include_str!("browser/play.html"),
    )
    .unwrap();
    let disk = format!("file://{}?disk", test_dir.join("play.html").display());
    let served = format!("{}__test/play.html", server.url);
    for (how, url) in [("from disk", disk), ("served", served)] {
        let dom = run_chromium(&[
            "--allow-file-access-from-files",
            "--virtual-time-budget=60000",
            "--dump-dom",
            &url,
        ]);
        let result = result_of(&dom);
        println!("{how}: {result}");
        assert!(result.starts_with("PASS"), "{how}: {result}");
    }
}
