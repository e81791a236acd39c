//! EDGE: what `serve`'s watcher compares between looks to know that the
//! site must be built again: the game's files, the theme's, the commit
//! built and the local forge's files, each listed and marked (path, size,
//! modification time). A build started from a change then takes the
//! game's files as the watcher listed them.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::stamped::{Listed, Stamped, list_stamped};
use crate::game::GAME_DIRS;
use crate::git::Repo;

/// What a build reads, as the watcher compares it between looks.
#[derive(PartialEq)]
pub struct Fingerprint {
    /// The game's files, each stamped (`None`: they could not be listed;
    /// the build lists them itself and says why not).
    pub game: Option<Vec<Listed>>,
    /// The path, size and modification time of every theme file.
    theme: Vec<Mark>,
    /// The commit `--rev` (else HEAD) names: a new commit changes the
    /// ruleset's history, and with `--rev` the whole game, though no file
    /// of the work tree changed.
    commit: Option<String>,
    /// The local forge's files: a matter opened or a vote cast there
    /// changes the pending page.
    forge: Vec<Mark>,
}

/// A file's path, size and modification time.
type Mark = (PathBuf, u64, Option<SystemTime>);

impl Fingerprint {
    /// What a build of the game at `root` (of `rev`, else HEAD) reads, now.
    pub fn of(root: &Path, rev: Option<&str>) -> Fingerprint {
        let game = list_stamped(root, GAME_DIRS, Stamped::All).ok();
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

/// Every file and directory under `dir`, marked.
fn stamps(dir: &Path) -> Vec<Mark> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let meta = entry.metadata().ok()?;
            Some((entry.path().to_path_buf(), meta.len(), meta.modified().ok()))
        })
        .collect()
}
