//! Guards the architecture: the pure core never touches the filesystem,
//! the clock, git, the network, the process environment or the edges.
//! A failure names the file, the line and what it used.

use std::path::Path;

/// The pure core, as folders or files under src/: the tally and the plan,
/// the game's files, matters and records, and what renders the site to
/// memory.
const PURE: &[&str] = &[
    "engine",
    "plan",
    "ruleset",
    "gamestate",
    "game",
    "matter",
    "record",
    "import",
    "setup",
    "site",
    "error.rs",
    "source.rs",
    "time.rs",
    "markdown.rs",
];

/// Files inside a pure folder that are its edge: the site's writer of
/// rendered files to a directory, and the build around it.
const EDGES_INSIDE: &[&str] = &["site/incremental.rs", "site/publish.rs"];

/// What the pure core may not mention.
const FORBIDDEN: &[&str] = &[
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "SystemTime",
    "Instant::now",
    "Utc::now",
    "Local::now",
    "git2",
    "walkdir",
    "ureq",
    "crate::cli",
    "crate::load",
    "crate::git",
    "crate::forge",
    "crate::resolve",
    "crate::site",
];

/// Every forbidden use in `text`, as (line, what).
fn violations(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        for word in FORBIDDEN {
            if code.contains(word) {
                found.push((n + 1, *word));
            }
        }
    }
    found
}

#[test]
fn the_guard_catches_what_it_should() {
    assert_eq!(
        violations(
            "use std::fs::read;\n// std::fs in a comment is fine\nlet t = chrono::Utc::now();"
        ),
        [(1, "std::fs"), (3, "Utc::now")]
    );
}

#[test]
fn the_pure_core_touches_no_io_clock_or_edges() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    let mut scanned = 0;
    for name in PURE {
        let path = src.join(name);
        assert!(
            path.exists(),
            "src/{name} is listed as pure but is not there"
        );
        for entry in walkdir::WalkDir::new(&path) {
            let entry = entry.unwrap();
            if entry.path().extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = entry.path().strip_prefix(&src).unwrap();
            if EDGES_INSIDE.iter().any(|e| relative == Path::new(e)) {
                continue;
            }
            scanned += 1;
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for (line, what) in violations(&text) {
                problems.push(format!("{}:{line}: uses {what}", entry.path().display()));
            }
        }
    }
    assert!(
        scanned >= 10,
        "the guard scanned only {scanned} files: is the list of pure modules stale?"
    );
    assert!(
        problems.is_empty(),
        "the pure core reaches outside:\n{}",
        problems.join("\n")
    );
}
