//! Bundles the ready game of this repository into the binary, so `gitnomic
//! demo` and `gitnomic new` work from any directory with the binary alone.
//!
//! The bundle is made from the very files in the repository (one copy):
//! this script lists them and writes `$OUT_DIR/bundle.rs`, an array of
//! `include_bytes!` of each, which `src/bundle.rs` includes. A generated
//! list rather than the `include_dir` crate: it needs no dependency, keeps
//! the executable bit of `scripts/fetch-pulls`, and leaves out what a new
//! game must not inherit (a played game's records under `content/matters/`
//! and `content/rolls/`), which a whole-directory macro cannot.
//!
//! What is bundled: the game (`rules/`, `state/`, `content/pages/`), its
//! look (`themes/`), what runs it on GitHub (`.github/workflows/`,
//! `scripts/fetch-pulls`) or on Forgejo Actions (`.forgejo/workflows/`,
//! `scripts/build-on-forgejo`, `scripts/push-pages`; `gitnomic new
//! --forge forgejo` takes these instead of GitHub's) and the tool's own sources (`Cargo.toml`,
//! `Cargo.lock`, `build.rs`, `src/`, `engine/`), which the workflows of a new game
//! build once and cache, as they do in this repository.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Files and directories bundled, relative to the repository's root.
const ROOTS: &[&str] = &[
    "rules",
    "state",
    "content/pages",
    "themes",
    ".github/workflows",
    ".forgejo/workflows",
    "scripts/fetch-pulls",
    "scripts/build-on-forgejo",
    "scripts/push-pages",
    "Cargo.toml",
    "Cargo.lock",
    "build.rs",
    "src",
    "engine/Cargo.toml",
    "engine/src",
];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut files = Vec::new();
    for name in ROOTS {
        let path = root.join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        collect(&root, &path, &mut files);
    }
    files.sort();
    let mut out = String::from("&[\n");
    for (relative, absolute, executable) in &files {
        writeln!(
            out,
            "    BundledFile {{ path: {relative:?}, bytes: include_bytes!({:?}), executable: {executable} }},",
            absolute.display().to_string()
        )
        .expect("writing to a string");
    }
    out.push(']');
    let dest = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("bundle.rs");
    std::fs::write(&dest, out).expect("writing the bundle's list");
}

/// Every file under `path` (or `path` itself), skipping hidden files such
/// as editors' swap files, as (path with `/`, absolute path, executable).
fn collect(root: &Path, path: &Path, files: &mut Vec<(String, PathBuf, bool)>) {
    let Ok(meta) = std::fs::metadata(path) else {
        return; // absent in this checkout: nothing to bundle
    };
    if meta.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for entry in entries {
            let hidden = entry
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if !hidden {
                collect(root, &entry, files);
            }
        }
        return;
    }
    let relative: Vec<String> = path
        .strip_prefix(root)
        .expect("under the root")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let relative = relative.join("/");
    // Scripts stay runnable even when built from a checkout that lost the bit.
    let executable = executable(&meta) || relative.starts_with("scripts/");
    files.push((relative, path.to_path_buf(), executable));
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    false
}
