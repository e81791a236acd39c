//! The bundled game: the files of this repository that make a ready game
//! (and the tool's sources its workflows build), built into the binary by
//! `build.rs` from the very files in the repository, so `gitnomic demo`
//! and `gitnomic new` need nothing but the binary.

use crate::game::{GAME_DIRS, is_game_file};
use crate::source::SourceFile;

/// One bundled file.
#[derive(Debug, Clone, Copy)]
pub struct BundledFile {
    /// Its path in a game's repository, with `/` separators.
    pub path: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
    /// Whether it is a script to run (`scripts/fetch-pulls`).
    pub executable: bool,
}

/// Every bundled file, sorted by path.
pub const FILES: &[BundledFile] = include!(concat!(env!("OUT_DIR"), "/bundle.rs"));

/// The bundled file at `path`, if there is one.
pub fn file(path: &str) -> Option<&'static BundledFile> {
    FILES.iter().find(|f| f.path == path)
}

/// The bundled game's files under `rules/`, `state/` and `content/`, as
/// `load` reads a game from a directory.
pub fn game_files() -> Vec<SourceFile> {
    FILES
        .iter()
        .filter(|f| {
            GAME_DIRS
                .iter()
                .any(|d| f.path.strip_prefix(d).is_some_and(|r| r.starts_with('/')))
                && is_game_file(f.path)
        })
        .map(|f| SourceFile::new(f.path, String::from_utf8_lossy(f.bytes).into_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_holds_a_game_its_workflows_and_the_tool() {
        for path in [
            "rules/core/proposals.md",
            "state/roster.toml",
            "content/pages/how-to-play.md",
            "themes/default/templates/base.html",
            ".github/workflows/resolve.yml",
            "Cargo.lock",
            "src/main.rs",
        ] {
            assert!(file(path).is_some(), "{path} is not bundled");
        }
        assert!(file("scripts/fetch-pulls").is_some_and(|f| f.executable));
        assert!(
            FILES
                .iter()
                .all(|f| !f.path.starts_with("content/matters/") && !f.path.starts_with("tests/")),
            "a played game's records and the tests stay out"
        );
        let game = game_files();
        assert!(game.iter().any(|f| f.path == "state/game.toml"));
        assert!(game.iter().all(|f| !f.path.starts_with("themes/")));
    }
}
