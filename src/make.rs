//! EDGE: whole games made on disk through a staging directory
//! ([`crate::staging`]), so a failure never leaves half of one: a new
//! game's repository (`new`), the demo's (`demo`, which replaces only an
//! earlier one it made) with its proposals' branches, and an imported
//! ruleset's files (`import ruleset`). The commands parse their arguments
//! and print; this writes. It stands above `git`, `load` and `staging`,
//! which it uses, and below `cli` alone.

use std::path::Path;

use anyhow::{Context as _, bail};

use crate::game::{GAME_DIRS, Game};
use crate::git::{Repo, Signature, configured_identity};
use crate::import::{Imported, files};
use crate::load::{self, Origin};
use crate::matter::MatterNumber;
use crate::setup::demo::Edit;
use crate::setup::new_game::OutFile;
use crate::source::SourceFile;
use crate::staging::Staging;
use crate::time::Timestamp;

/// Refuses a `dir` for a new game that exists and holds anything.
pub(crate) fn refuse_nonempty(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .with_context(|| format!("{} exists and cannot be read", dir.display()))?
            .next()
            .is_none();
        if !empty {
            bail!(
                "{} already exists and is not empty: give `gitnomic new` a new or empty directory",
                dir.display()
            );
        }
    }
    Ok(())
}

/// Writes a new game's `files` into `dir` as a git repository with one
/// commit on `branch` at `now`: built beside `dir` and put in place only
/// once it is whole and passes `check`. The game, as checked.
pub(crate) fn new_game(
    dir: &Path,
    files: &[OutFile],
    branch: &str,
    now: Timestamp,
) -> anyhow::Result<Game> {
    let staging = Staging::beside(dir, "new")?;
    for file in files {
        staging.write(&file.path, &file.bytes, file.executable)?;
    }
    let game = checked(staging.path())?;
    let (name, email) = configured_identity()
        .unwrap_or_else(|| ("gitnomic new".into(), "gitnomic@localhost".into()));
    let signature = Signature {
        name: &name,
        email: &email,
        at: now,
    };
    let state = game.state.as_ref().context("the new game has no state")?;
    Repo::init_with_work_tree(
        staging.path(),
        branch,
        &format!("A new game of {}", state.name),
        &signature,
    )?;
    staging.into_place(dir)?;
    Ok(game)
}

/// The written game, checked as `gitnomic check` would: a new game that
/// would not check is never put in place.
fn checked(root: &Path) -> anyhow::Result<Game> {
    let files = load::read(&Origin::Dir(root.to_path_buf()), GAME_DIRS)?;
    let game = Game::check(&files);
    if !game.problems.is_empty() {
        let problems: Vec<String> = game.problems.iter().map(ToString::to_string).collect();
        bail!(
            "the new game would not pass `gitnomic check`:\n{}",
            problems.join("\n")
        );
    }
    Ok(game)
}

/// The file in a demo game's git directory that says the demo made it:
/// only such a directory is ever replaced.
const MARKER: &str = "gitnomic-demo";

/// Writes the game bundled in the binary into `dir` and makes it a
/// repository (`--root` plays no part: the script fits the bundled game).
/// It is made beside `dir` and put in place whole, marker and all, so a
/// demo killed half-way never leaves a game the next one would refuse.
pub(crate) fn demo_game(dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && std::fs::read_dir(dir)?.next().is_some() {
        replace_earlier_demo(dir)?;
    }
    let staging = Staging::beside(dir, "demo")?;
    for file in &crate::game::bundle::game_files() {
        staging.write(&file.path, file.text.as_bytes(), false)?;
    }
    // The site is built into public/: ignored, as in a new game, so a
    // player's `git add -A` never commits it.
    staging.write(
        ".gitignore",
        crate::setup::new_game::GITIGNORE.as_bytes(),
        false,
    )?;
    let signature = Signature {
        name: "gitnomic demo",
        email: "demo@localhost",
        at: Timestamp::parse("2030-03-01T00:00:00Z")?,
    };
    Repo::init_with_work_tree(staging.path(), "main", "The bundled game", &signature)?;
    staging.write(&format!(".git/{MARKER}"), b"made by gitnomic demo\n", false)?;
    staging.into_place(dir)
}

/// Removes an earlier demo game from `dir`: one the demo made (its marker
/// is there) holding nothing of the player's (no file git does not ignore
/// that is not committed). Anything else is refused, naming what is there.
fn replace_earlier_demo(dir: &Path) -> anyhow::Result<()> {
    let shown = dir.display();
    if !dir.join(".git").join(MARKER).is_file() {
        let mut names: Vec<String> = std::fs::read_dir(dir)?
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let what = if names.iter().any(|n| n == ".git") {
            "a git repository the demo did not make"
        } else {
            "files the demo did not make"
        };
        bail!(
            "{shown} holds {what} ({}): the demo replaces only a game it made itself; give it a new directory",
            names.join(", ")
        );
    }
    let own = Repo::open(dir)?.uncommitted_files()?;
    if !own.is_empty() {
        bail!(
            "{shown} is an earlier demo game, but it holds files of yours that are not committed ({}): move them away, or give the demo a new directory",
            own.join(", ")
        );
    }
    let whole = dir.canonicalize()?;
    if std::env::current_dir()
        .and_then(|d| d.canonicalize())
        .is_ok_and(|here| here == whole)
    {
        bail!(
            "{shown} is an earlier demo game, and the directory you are in: the demo replaces it whole, which it cannot do from inside; run it from the parent directory (`cd .. && gitnomic demo {}`)",
            whole.file_name().unwrap_or_default().to_string_lossy()
        );
    }
    crate::staging::remove_whole(dir)
        .with_context(|| format!("removing the earlier demo in {shown}"))
}

/// Makes branch `proposal-N` from main with one edit; returns its name.
pub(crate) fn demo_branch(
    repo: &Repo,
    dir: &Path,
    n: MatterNumber,
    edit: &Edit,
    at: &str,
) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(dir.join(edit.path))?;
    if !text.contains(edit.from) {
        bail!(
            "the demo script no longer fits the bundled game: `{}` is not in {}",
            edit.from,
            edit.path
        );
    }
    let branch = format!("proposal-{n}");
    repo.create_branch(&branch, "main")?;
    let signature = Signature {
        name: "gitnomic demo",
        email: "demo@localhost",
        at: Timestamp::parse(at)?,
    };
    repo.commit_file(
        &branch,
        edit.path,
        &text.replacen(edit.from, edit.to, 1),
        "Proposed change",
        &signature,
    )?;
    Ok(branch)
}

/// Writes the rules (and missing state files) under `out` through a
/// directory beside it: the whole game when `out` does not exist, else
/// `rules/` (exchanged with the old one, which goes with the staging
/// directory) and each new state file.
pub(crate) fn imported_rules(
    out: &Path,
    imported: &Imported,
    rules: &[SourceFile],
    force: bool,
) -> anyhow::Result<()> {
    let rules_dir = out.join("rules");
    if holds_files(&rules_dir) && !force {
        bail!(
            "{} already holds rules: use --force to replace them",
            rules_dir.display()
        );
    }
    let state: Vec<SourceFile> = files::state_files(imported)
        .into_iter()
        .filter(|f| !out.join(&f.path).exists())
        .collect();
    let staging = Staging::beside(out, "import")?;
    for file in rules.iter().chain(&state) {
        staging.write(&file.path, file.text.as_bytes(), false)?;
    }
    if !out.exists() {
        return staging.into_place(out);
    }
    staging.replace("rules", out)?;
    for file in &state {
        staging.replace(&file.path, out)?;
    }
    Ok(())
}

fn holds_files(dir: &Path) -> bool {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .any(|e| e.file_type().is_file())
}
