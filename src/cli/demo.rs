//! `gitnomic demo [DIR]`: a fresh game repository made from the bundled
//! game, and a scripted offline game played on it through the same code
//! paths players and CI use (`play`, `resolve`), with time moved forward
//! by `--now`. At the end the demo checks that every matter ended as the
//! script says, and fails loudly if one did not.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};

use super::play::{CommentArgs, KindArg, OpenArgs, Play};
use super::{EXIT_OK, EXIT_PROBLEMS, ForgeKind, GlobalArgs};
use crate::game::GAME_DIRS;
use crate::git::{Repo, Stamp};
use crate::load::{self, Origin};
use crate::matter::{Kind, MatterNumber};
use crate::setup::demo::{self, Edit, SCRIPT, Step};
use crate::staging::Staging;
use crate::time::Timestamp;

/// Arguments of `gitnomic demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where to create the demo game: a new or empty directory, or an
    /// earlier demo game, which is replaced.
    #[arg(default_value = "demo-game")]
    pub dir: PathBuf,
}

/// Runs `gitnomic demo`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let dir = &args.dir;
    create_game(dir)?;
    say!(
        "A new game repository in {}, from the game bundled in gitnomic.\n",
        dir.display()
    );
    let repo = Repo::open(dir)?;
    let mut opened = 0;
    for step in SCRIPT {
        match step {
            Step::Open {
                at,
                login,
                kind,
                title,
                edit,
            } => {
                opened += 1;
                let branch = edit
                    .as_ref()
                    .map(|e| make_branch(&repo, dir, MatterNumber(opened), e, at))
                    .transpose()?;
                let open = OpenArgs {
                    author: (*login).into(),
                    kind: Some(kind_arg(*kind)),
                    title: (*title).into(),
                    body: String::new(),
                    branch,
                };
                say_more!("{at}  {login}: ");
                super::play::run(&Play::Open(open), &at_time(global, dir, at)?)?;
            }
            Step::Comment {
                at,
                number,
                login,
                body,
            } => {
                say!("{at}  {login} on #{number}: {}", body.replace('\n', " / "));
                let comment = CommentArgs {
                    number: *number,
                    author: (*login).into(),
                    body: (*body).into(),
                };
                super::play::run(&Play::Comment(comment), &at_time(global, dir, at)?)?;
            }
            Step::Resolve { at } => {
                say!("\n{at}  the resolver runs:");
                super::resolve::run(
                    &super::resolve::Args {
                        dry_run: false,
                        halt_after: None,
                    },
                    &at_time(global, dir, at)?,
                )?;
                say!();
            }
        }
    }
    say!("Open matters and their live tallies now:\n");
    super::play::run(&Play::List, &at_time(global, dir, "2030-03-02T13:00:00Z")?)?;
    let failures = verify(dir)?;
    let site = build_site(global, dir)?;
    for failure in &failures {
        eprintln!("demo: not as scripted: {failure}");
    }
    say!(
        "\n{}\nThe game is in {dir}: `git -C {dir} log --oneline` shows the enactments and records;\n`gitnomic --root {dir} --now 2030-03-04T01:00:00Z resolve` lets the 48-hour branch decide #5.\nThe site is in {site}: open {site}/index.html, or `gitnomic --root {dir} --now 2030-03-02T13:00:00Z serve`\n(the game's matters are in 2030: without --now, the pending page is built at today's clock).",
        if failures.is_empty() {
            "Every matter ended as scripted."
        } else {
            "Some matters did not end as scripted."
        },
        dir = dir.display(),
        site = site.display()
    );
    Ok(ExitCode::from(if failures.is_empty() {
        EXIT_OK
    } else {
        EXIT_PROBLEMS
    }))
}

/// Builds the demo game's site (with the live tallies of what is pending)
/// into `DIR/public`, checking every link.
fn build_site(global: &GlobalArgs, dir: &Path) -> anyhow::Result<PathBuf> {
    say!("\nBuilding the site:");
    let args = super::build::Args {
        out: PathBuf::from("public"),
        rev: None,
        theme: "default".into(),
        base_url: None,
        no_history: false,
        check_links: true,
        cache: None,
        full: false,
    };
    let mut quiet = at_time(global, dir, "2030-03-02T13:00:00Z")?;
    quiet.quiet = true;
    let built = super::build::build(&args, &quiet)?;
    if built.broken > 0 {
        bail!("the demo site has {} broken links", built.broken);
    }
    Ok(built.out)
}

/// Global options for a step: the demo's repository, the local forge, `at`.
fn at_time(global: &GlobalArgs, dir: &Path, at: &str) -> anyhow::Result<GlobalArgs> {
    Ok(GlobalArgs {
        root: dir.to_path_buf(),
        now: Some(Timestamp::parse(at)?),
        base: global.base.clone(),
        forge: ForgeKind::Local,
        verbose: global.verbose,
        quiet: global.quiet,
    })
}

/// The file in a demo game's git directory that says the demo made it:
/// only such a directory is ever replaced.
const MARKER: &str = "gitnomic-demo";

/// Writes the game bundled in the binary into `dir` and makes it a
/// repository (`--root` plays no part: the script fits the bundled game).
/// It is made beside `dir` and put in place whole, marker and all, so a
/// demo killed half-way never leaves a game the next one would refuse.
fn create_game(dir: &Path) -> anyhow::Result<()> {
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
    let stamp = Stamp {
        name: "gitnomic demo",
        email: "demo@localhost",
        at: Timestamp::parse("2030-03-01T00:00:00Z")?,
    };
    Repo::init_with_work_tree(staging.path(), "main", "The bundled game", &stamp)?;
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
fn make_branch(
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
    let stamp = Stamp {
        name: "gitnomic demo",
        email: "demo@localhost",
        at: Timestamp::parse(at)?,
    };
    repo.commit_file(
        &branch,
        edit.path,
        &text.replacen(edit.from, edit.to, 1),
        "Proposed change",
        &stamp,
    )?;
    Ok(branch)
}

/// Compares the records on main with the script's.
fn verify(dir: &Path) -> anyhow::Result<Vec<String>> {
    let files = load::read(
        &Origin::Revision {
            repo: dir.to_path_buf(),
            rev: "main".into(),
        },
        GAME_DIRS,
    )?;
    Ok(demo::verify(&files))
}

/// A kind of matter as `play open` takes it.
fn kind_arg(kind: Kind) -> KindArg {
    match kind {
        Kind::Proposal => KindArg::Proposal,
        Kind::Cfj => KindArg::Cfj,
        Kind::Dov => KindArg::Dov,
        Kind::Action => KindArg::Action,
        Kind::Ascension => KindArg::Ascension,
    }
}
