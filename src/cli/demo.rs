//! `gitnomic demo [DIR]`: a fresh game repository made from the bundled
//! game, and a scripted offline game played on it through the same code
//! paths players and CI use (`play`, `resolve`), with time moved forward
//! by `--now`. At the end the demo checks that every matter ended as the
//! script says, and fails loudly if one did not.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;

use super::play::{CommentArgs, KindArg, OpenArgs, Play};
use super::{EXIT_OK, EXIT_PROBLEMS, ForgeKind, GlobalArgs};
use crate::game::GAME_DIRS;
use crate::git::Repo;
use crate::load::{self, Origin};
use crate::make;
use crate::matter::{Kind, MatterNumber};
use crate::setup::demo::{self, SCRIPT, Step};
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
    make::demo_game(dir)?;
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
                    .map(|e| make::demo_branch(&repo, dir, MatterNumber(opened), e, at))
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
