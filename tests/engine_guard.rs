//! The engine is pure: no clock, files, git, templates, network or edge
//! modules inside src/engine/** (ARCHITECTURE.md §9.3). A text scan makes
//! the rule executable.

use std::path::Path;

const FORBIDDEN: [&str; 9] = [
    "std::fs",
    "SystemTime",
    "Utc::now",
    "chrono::Local",
    "git2",
    "tera",
    "ureq",
    "crate::cli",
    "crate::forge",
];

#[test]
fn engine_uses_no_clock_files_git_or_network() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut found = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        files += 1;
        for word in FORBIDDEN {
            if text.contains(word) {
                found.push(format!("{}: {word}", path.display()));
            }
        }
    }
    assert!(files >= 5, "src/engine has only {files} files");
    assert!(found.is_empty(), "{}", found.join("\n"));
}
