//! `gitnomic check`: validate the rules and the gamestate of a game, or,
//! with `--pr N`, whether pull request N may stand as the matter it claims
//! to be, judged by the base branch's rules.

use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs, open_forge};
use crate::forge::github::event::{self, WorkflowEvent};
use crate::forge::{Forge, MatterInfo};
use crate::game::GAME_DIRS;
use crate::game::Game;
use crate::load::{self, Origin};
use crate::matter::MatterNumber;
use crate::resolve::Context;
use crate::resolve::door::{self, Door};

/// Arguments of `gitnomic check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print `number<TAB>section<TAB>title` for every rule.
    #[arg(long)]
    pub list: bool,
    /// Check this git revision of the repository at --root (a branch, tag or
    /// SHA) instead of the files on disk; nothing is checked out.
    #[arg(long, value_name = "REV", conflicts_with = "pr")]
    pub rev: Option<String>,
    /// Check pull request N on the forge against the rules of --base: its
    /// author, limits, the files it touches and the game at its head.
    #[arg(long, value_name = "N")]
    pub pr: Option<MatterNumber>,
    /// Check the pull request named by the GitHub event in
    /// $GITHUB_EVENT_PATH (as --pr does), as the check workflow runs it.
    #[arg(long, conflicts_with_all = ["pr", "rev"])]
    pub event: bool,
    /// Check every open matter on the forge (as --pr does), e.g. after the
    /// default branch changed and their statuses went stale. Exit 1 if any
    /// has problems.
    #[arg(long, conflicts_with_all = ["pr", "rev", "event"])]
    pub open: bool,
    /// With --pr, --event or --open: report only; set no commit status.
    #[arg(long, conflicts_with = "close")]
    pub dry_run: bool,
    /// With --pr or --event: also close a matter that may not stand (over
    /// a limit, in a hiatus, by someone who may not post it), with its
    /// reason in its status; the next `resolve` run writes its record.
    /// Without it, `check` only asks.
    #[arg(long)]
    pub close: bool,
}

/// Runs `gitnomic check`: problems go to stderr as `path:line: [rule] message`,
/// the list (with `--list`) and a summary to stdout.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    if args.event {
        let event = read_event()?;
        let forge = open_forge(global, global.now())?;
        if event.sender.as_deref() == Some(forge.bot()) {
            // The bot's own labels and edits must not wake the bot again.
            say!(
                "the event was made by {} itself: nothing to check",
                forge.bot()
            );
            return Ok(ExitCode::from(EXIT_OK));
        }
        let info = forge.matter(event.number)?;
        let cx = Context::open(&global.root, &global.base)?;
        if let (Some(push), false) = (&event.push, args.dry_run) {
            if door::note_push(forge.as_ref(), &info, push, &cx)? {
                say!(
                    "noted the head {} of #{}, pushed at {}",
                    push.after,
                    info.number,
                    push.at
                );
            }
        }
        let mut door = Door::open(forge.as_ref(), cx, global.now())?;
        return check(&mut door, &info, args);
    }
    if args.open {
        let forge = open_forge(global, global.now())?;
        let mut door = door(forge.as_ref(), global)?;
        let mut worst = EXIT_OK;
        let mut failures = Vec::new();
        let open = door.open_matters().to_vec();
        for matter in &open {
            // As listed: no need to read each one again. One matter that
            // cannot be checked (its head not fetched, the forge failing
            // on it) is said and passed over: the others are still checked.
            match check(&mut door, matter, args) {
                Ok(code) if code == ExitCode::from(EXIT_OK) => {}
                Ok(_) => worst = EXIT_PROBLEMS,
                Err(e) => {
                    let said = format!("#{}: cannot be checked: {e:#}", matter.number);
                    eprintln!("{}", crate::text::for_terminal(&said));
                    failures.push(e);
                    worst = EXIT_PROBLEMS;
                }
            }
        }
        // When none could be checked, the trouble is not one matter's.
        if failures.len() == open.len() {
            if let Some(e) = failures.into_iter().next() {
                return Err(e);
            }
        }
        return Ok(ExitCode::from(worst));
    }
    if let Some(number) = args.pr {
        let forge = open_forge(global, global.now())?;
        let info = forge.matter(number)?;
        let mut door = door(forge.as_ref(), global)?;
        return check(&mut door, &info, args);
    }
    let origin = match &args.rev {
        Some(rev) => Origin::Revision {
            repo: global.root.clone(),
            rev: rev.clone(),
        },
        None => Origin::Dir(global.root.clone()),
    };
    let files = load::read(&origin, GAME_DIRS).context("cannot check the game")?;
    let game = Game::check(&files);
    if args.list {
        for rule in &game.ruleset.rules {
            say!("{}\t{}\t{}", rule.number, rule.section, rule.title);
        }
    }
    // A dice log that cannot be read holds its own matter alone, not the
    // game: named here beside the game's problems.
    let rolls: Vec<_> = files
        .iter()
        .filter_map(crate::record::rolls::problem)
        .collect();
    for problem in game.problems.iter().chain(&rolls) {
        eprintln!("{problem}");
    }
    let found = game.problems.len() + rolls.len();
    if found == 0 {
        if !args.list {
            say!("{}", game.summary());
        }
        Ok(ExitCode::from(EXIT_OK))
    } else {
        eprintln!("{found} problem{} found", if found == 1 { "" } else { "s" });
        Ok(ExitCode::from(EXIT_PROBLEMS))
    }
}

/// The event in `$GITHUB_EVENT_PATH`. The file is read as data; nothing
/// in it is run.
fn read_event() -> anyhow::Result<WorkflowEvent> {
    let path = std::env::var("GITHUB_EVENT_PATH")
        .context("--event needs GITHUB_EVENT_PATH (set by GitHub Actions)")?;
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading the event {path}"))?;
    event::parse(&text).with_context(|| format!("{path} names no pull request or issue"))
}

/// The door of the game on `--base`, with the matters open on the forge.
fn door<'f>(forge: &'f dyn Forge, global: &GlobalArgs) -> anyhow::Result<Door<'f>> {
    Door::open(
        forge,
        Context::open(&global.root, &global.base)?,
        global.now(),
    )
}

/// Checks one matter: prints the finding, sets the commit status (but
/// for a dry run), and with `--close` closes it if it may not stand.
fn check(door: &mut Door<'_>, info: &MatterInfo, args: &Args) -> anyhow::Result<ExitCode> {
    let finding = door.judge(info)?;
    let kind = info
        .kind()
        .map_or("Pull request".to_string(), |k| k.to_string());
    say!(
        "{kind} #{} by {}: {}",
        info.number,
        info.author,
        info.subject_title()
    );
    if !finding.changes.is_empty() {
        say!("  {}", finding.changes);
    }
    for problem in &finding.problems {
        say!("  problem: {problem}");
    }
    if let Some(why) = door.held(info)? {
        say!("  held: {why}");
    }
    let ok = finding.ok();
    // "an Action", "an Ascension Address", "a CfJ".
    let a = if kind.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    match finding.not_a_matter {
        Some(_) => say!("  not ok: it cannot stand as {a} {kind}"),
        None => say!("  {}", if ok { "ok" } else { "not ok" }),
    }
    if !args.dry_run && door.settle(info, &finding, args.close)? {
        say!("  closed: it cannot stand as {a} {kind}; the next resolve run records it");
    }
    Ok(ExitCode::from(if ok { EXIT_OK } else { EXIT_PROBLEMS }))
}
