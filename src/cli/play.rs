//! `gitnomic play`: offline play on the local forge. Open a matter from a
//! branch (or as an issue), comment as a player, withdraw your own matter,
//! and list the open matters with their live tallies. Time comes from
//! `--now`, so a scripted game can step through days in seconds.

use std::io::Read as _;
use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_OK, GlobalArgs};
use crate::forge::local::{LocalForge, NewMatter};
use crate::forge::{Forge as _, Kind};
use crate::matter::MatterNumber;
use crate::resolve::Context;

/// The `play` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Play {
    /// Open a pull request from a branch (or, without --branch, an issue).
    Open(OpenArgs),
    /// Propose the work tree's uncommitted changes to rules/, state/ and
    /// content/: they move to a new branch, a pull request is opened from
    /// it, and the work tree is left clean on the base branch.
    Propose(super::propose::Args),
    /// Comment on a matter (a vote is a comment with a voting word).
    Comment(CommentArgs),
    /// Edit your own comment (the forge notes when; votes and rolls stay
    /// as the resolver first saw them).
    Edit(EditArgs),
    /// Delete your own comment (rolls it made stay in the dice log, marked).
    Delete(DeleteArgs),
    /// Close your own open matter without a decision (labelled `withdrawn`,
    /// no record); an admin on the roster may close anyone's.
    Close(AuthorArgs),
    /// Say you pushed to your pull request's branch now, so votes are
    /// judged by when the push happened (any play command or resolve also
    /// notices a moved branch, at its own --now).
    Push(AuthorArgs),
    /// List the open matters with their live tallies.
    List,
    /// Show one matter's thread: its description, every comment, and the
    /// resolver's status comment as the forge would show it.
    Show(ShowArgs),
}

/// Arguments of `play show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The matter's number.
    pub number: MatterNumber,
}

/// Arguments of `play close` and `play push`.
#[derive(Debug, clap::Args)]
pub struct AuthorArgs {
    /// The matter's number.
    pub number: MatterNumber,
    /// The forge login acting: its author, or an admin.
    #[arg(long = "as", value_name = "LOGIN")]
    pub author: String,
}

/// Arguments of `play edit`.
#[derive(Debug, clap::Args)]
pub struct EditArgs {
    /// The matter's number.
    pub number: MatterNumber,
    /// The comment's id (as `play comment` printed it).
    pub comment: u64,
    /// The new body.
    pub body: String,
    /// The comment's author.
    #[arg(long = "as", value_name = "LOGIN")]
    pub author: String,
}

/// Arguments of `play delete`.
#[derive(Debug, clap::Args)]
pub struct DeleteArgs {
    /// The matter's number.
    pub number: MatterNumber,
    /// The comment's id.
    pub comment: u64,
    /// The comment's author.
    #[arg(long = "as", value_name = "LOGIN")]
    pub author: String,
}

/// Arguments of `play open`.
#[derive(Debug, clap::Args)]
pub struct OpenArgs {
    /// The forge login opening it.
    #[arg(long = "as", value_name = "LOGIN")]
    pub author: String,
    /// What kind of matter; without it, it names none (as a pull request
    /// from the forge's editor), and a pull request is then a proposal
    /// if it changes only what a proposal may.
    #[arg(long, value_enum)]
    pub kind: Option<KindArg>,
    /// Its title.
    #[arg(long)]
    pub title: String,
    /// Its description.
    #[arg(long, default_value = "")]
    pub body: String,
    /// The branch whose changes it proposes.
    #[arg(long)]
    pub branch: Option<String>,
}

/// Arguments of `play comment`.
#[derive(Debug, clap::Args)]
pub struct CommentArgs {
    /// The matter's number.
    pub number: MatterNumber,
    /// The comment (Markdown), or `-` to read it from standard input (for
    /// a long body: `gitnomic play comment 3 - --as ada < comment.md`).
    pub body: String,
    /// The forge login commenting.
    #[arg(long = "as", value_name = "LOGIN")]
    pub author: String,
}

/// Matter kinds on the command line.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum KindArg {
    /// A proposal.
    Proposal,
    /// A Call for Judgement.
    Cfj,
    /// A Declaration of Victory.
    Dov,
    /// An action (state/ only).
    Action,
    /// The new emperor's Ascension Address.
    Ascension,
}

/// Runs a `play` subcommand.
pub(crate) fn run(play: &Play, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    if let Play::Propose(a) = play {
        // It takes the run lock before it opens the forge.
        super::propose::run(a, global)?;
        return Ok(ExitCode::from(EXIT_OK));
    }
    let now = global.now();
    let forge = LocalForge::open(&global.root, &global.base, now)?;
    match play {
        Play::Open(a) => {
            let kind = a.kind.map(|k| match k {
                KindArg::Proposal => Kind::Proposal,
                KindArg::Cfj => Kind::Cfj,
                KindArg::Dov => Kind::Dov,
                KindArg::Action => Kind::Action,
                KindArg::Ascension => Kind::Ascension,
            });
            let new = NewMatter {
                kind,
                title: &a.title,
                body: &a.body,
                author: &a.author,
                branch: a.branch.as_deref(),
            };
            let number = forge.open_matter(&new)?;
            let info = forge.matter(number)?;
            match info.kind() {
                Some(kind) if info.names_no_kind() => {
                    say!(
                        "opened #{number}: {} (a {kind} by default: it names no kind)",
                        info.subject_title()
                    );
                }
                Some(kind) => say!("opened {kind} #{number}: {}", info.subject_title()),
                None => say!(
                    "opened #{number}: {} (no matter: it names no kind)",
                    info.subject_title()
                ),
            }
        }
        Play::Comment(a) => {
            let body = if a.body == "-" {
                let mut text = String::new();
                std::io::stdin()
                    .read_to_string(&mut text)
                    .context("reading the comment from standard input")?;
                text
            } else {
                a.body.clone()
            };
            let id = forge.add_comment(a.number, &a.author, &body)?;
            say!("comment {id} on #{} by {}", a.number, a.author);
        }
        Play::Edit(a) => {
            forge.edit_comment(a.number, a.comment, &a.author, Some(&a.body))?;
            say!(
                "comment {} on #{} edited by {}",
                a.comment,
                a.number,
                a.author
            );
        }
        Play::Delete(a) => {
            forge.edit_comment(a.number, a.comment, &a.author, None)?;
            say!(
                "comment {} on #{} deleted by {}",
                a.comment,
                a.number,
                a.author
            );
        }
        Play::Close(a) => {
            let admin = is_admin(global, &a.author)?;
            forge.withdraw(a.number, &a.author, admin)?;
            say!("closed #{}: withdrawn by {}", a.number, a.author);
        }
        Play::Push(a) => {
            let admin = is_admin(global, &a.author)?;
            let head = forge.pushed(a.number, &a.author, admin)?;
            say!("#{}: {} pushed {head} at {now}", a.number, a.author);
        }
        Play::Propose(_) => unreachable!("proposed above"),
        Play::List => list(&forge, global, now)?,
        Play::Show(a) => say_more!("{}", thread_text(&forge, a.number)?),
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Whether `login` is an admin on the roster of the game on the base branch.
fn is_admin(global: &GlobalArgs, login: &str) -> anyhow::Result<bool> {
    let cx = Context::open(&global.root, &global.base)?;
    Ok(cx
        .state()
        .and_then(|s| s.player_by_login(login))
        .is_some_and(|p| p.admin))
}

fn list(
    forge: &LocalForge,
    global: &GlobalArgs,
    now: crate::time::Timestamp,
) -> anyhow::Result<()> {
    let mut cx = Context::open(&global.root, &global.base)?;
    let (game, repo, trial) = cx.planning()?;
    let planned = crate::resolve::driver::plan(forge, game, repo, trial, now)?;
    for line in planned
        .plan
        .lines
        .iter()
        .filter_map(crate::plan::Line::listed)
    {
        say!("{line}");
    }
    let active = cx
        .state()
        .map(|s| crate::matter::status::active_players(s, now))
        .unwrap_or_default();
    let matter = |n: MatterNumber| planned.matters.get(&n);
    say_more!(
        "\n{}",
        crate::matter::status::run_text(&planned.plan.tallies(), &active, &matter)
    );
    Ok(())
}

/// A matter's thread as a player reads it on the forge.
fn thread_text(forge: &LocalForge, number: MatterNumber) -> anyhow::Result<String> {
    let info = forge
        .matter(number)
        .with_context(|| format!("no matter #{number} on the local forge"))?;
    let open = forge.open_matters()?.iter().any(|m| m.number == number);
    let comments = forge.comments(number)?;
    Ok(crate::matter::thread::text(&info, open, &comments, &|c| {
        forge.is_status(c)
    }))
}
