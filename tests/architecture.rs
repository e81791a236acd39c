//! Guards the architecture: the pure core never touches the filesystem,
//! the clock, git, the network, the process environment or the edges,
//! and the engine renders no template and reads no local time. A failure
//! names the file, the line and what it used. And every property test's
//! saved cases are in one place, read back whole.

use std::path::Path;

/// The pure core, as folders or files under src/: the plan, the game's
/// files, matters and records, and what renders the site to memory. The
/// tally engine is a crate of its own (`engine/`), whose dependencies keep
/// it pure and which is scanned as well (below).
const PURE: &[&str] = &[
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
    "text.rs",
    "bounds.rs",
];

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

/// What the engine may not mention besides: it decides, the site renders
/// (no templates), and its moments are UTC (no local time).
const ENGINE_FORBIDDEN: &[&str] = &["tera::", "chrono::Local"];

/// Every use of a word of `forbidden` in `text`, as (line, what): the
/// word standing on its own, not inside a longer name (`git2` is not in
/// `digit2`); a word ending in `::` is a path, and a name follows it.
fn violations(text: &str, forbidden: &[&'static str]) -> Vec<(usize, &'static str)> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or_default();
        for word in forbidden {
            let alone = code.match_indices(word).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = code[at + word.len()..].chars().next();
                let open_end = word.ends_with("::");
                !before.is_some_and(ident) && (open_end || !after.is_some_and(ident))
            });
            if alone {
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
            "use std::fs::read;\n// std::fs in a comment is fine\nlet t = chrono::Utc::now();",
            FORBIDDEN
        ),
        [(1, "std::fs"), (3, "Utc::now")]
    );
    assert_eq!(
        violations(
            "use tera::Tera;\nfn f(m: impl Iterator<Item = u8>) {}",
            ENGINE_FORBIDDEN
        ),
        [(1, "tera::")]
    );
    assert_eq!(
        violations("let digit2 = 2;\nuse git2::Oid;", FORBIDDEN),
        [(2, "git2")]
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
            scanned += 1;
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for (line, what) in violations(&text, FORBIDDEN) {
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

#[test]
fn the_engine_touches_nothing_renders_nothing_and_keeps_to_utc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = root.join("engine/src");
    let mut problems = Vec::new();
    let mut scanned = 0;
    for entry in walkdir::WalkDir::new(&engine) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "rs") {
            continue;
        }
        scanned += 1;
        let text = std::fs::read_to_string(entry.path()).unwrap();
        for forbidden in [FORBIDDEN, ENGINE_FORBIDDEN] {
            for (line, what) in violations(&text, forbidden) {
                problems.push(format!("{}:{line}: uses {what}", entry.path().display()));
            }
        }
    }
    assert!(scanned >= 5, "engine/src has only {scanned} files");
    // What the compiler is asked to keep out: the engine's dependencies.
    let manifest = std::fs::read_to_string(root.join("engine/Cargo.toml")).unwrap();
    for crate_name in ["git2", "ureq", "tera", "walkdir", "tempfile", "rand"] {
        if manifest
            .lines()
            .any(|l| l.trim_start().starts_with(crate_name))
        {
            problems.push(format!("engine/Cargo.toml: depends on {crate_name}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every property test keeps the failures it finds in one folder,
/// `proptest-regressions/`, in a file its source names (so a test moved
/// or renamed keeps its saved cases), and proptest reads back every case
/// saved there: none is left behind where no test looks, none unreadable.
#[test]
fn every_saved_proptest_case_is_in_one_place_and_read_back() {
    use proptest::test_runner::{FailurePersistence, FileFailurePersistence};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = root.join("proptest-regressions");
    // Written in two pieces so this file does not match itself.
    let (block, persisted, named) = (
        concat!("proptest", "! {"),
        concat!("failure_", "persistence:"),
        concat!("/proptest-", "regressions/"),
    );
    let mut problems = Vec::new();
    let mut files_named = std::collections::BTreeSet::new();
    for dir in ["src", "engine", "tests"] {
        for entry in walkdir::WalkDir::new(root.join(dir)) {
            let entry = entry.unwrap();
            let path = entry.path();
            let shown = path.strip_prefix(root).unwrap().display();
            if path
                .file_name()
                .is_some_and(|n| n == "proptest-regressions")
                || path
                    .extension()
                    .is_some_and(|e| e == "proptest-regressions")
            {
                problems.push(format!(
                    "{shown}: saved cases outside proptest-regressions/"
                ));
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(path).unwrap();
            if text.matches(block).count() > text.matches(persisted).count() {
                problems.push(format!(
                    "{shown}: a proptest! block without failure_persistence in proptest-regressions/"
                ));
            }
            for (at, _) in text.match_indices(named) {
                let rest = &text[at + named.len()..];
                files_named.insert(rest[..rest.find('"').unwrap_or(rest.len())].to_string());
            }
        }
    }
    let mut seeds = 0;
    for entry in walkdir::WalkDir::new(&folder) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let name = entry
            .path()
            .strip_prefix(&folder)
            .unwrap()
            .display()
            .to_string();
        if !files_named.contains(&name) {
            problems.push(format!(
                "proptest-regressions/{name}: no test names this file"
            ));
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or_default().trim())
            .filter(|l| !l.is_empty())
            .collect();
        // proptest's own reader, as a test run uses it.
        let path: &'static str = Box::leak(entry.path().display().to_string().into_boxed_str());
        let read: Vec<String> = FileFailurePersistence::Direct(path)
            .load_persisted_failures2(None)
            .iter()
            .map(ToString::to_string)
            .collect();
        if read != lines {
            problems.push(format!(
                "proptest-regressions/{name}: proptest reads {} of its {} saved cases",
                read.len(),
                lines.len()
            ));
        }
        seeds += read.len();
    }
    assert!(seeds >= 20, "only {seeds} saved cases: were some lost?");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
