//! `gitnomic check`: validate the rules and the gamestate of a game, or,
//! with `--pr N`, whether pull request N may stand as the matter it claims
//! to be, judged by the base branch's rules.

use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs, open_forge};
use crate::forge::Push;
use crate::forge::github::event::{self, Event};
use crate::forge::{Forge, HeadSha, Kind, MatterInfo};
use crate::game::GAME_DIRS;
use crate::game::Game;
use crate::git::Repo;
use crate::git::trial::GitTrial;
use crate::load::{self, Origin};
use crate::matter::admission::{self, Facts, Ledger, Posting, describe_changes};
use crate::matter::journal::Journal;
use crate::matter::labels::RESOLVING;
use crate::plan::standing::{closing_journal, closing_text};
use crate::resolve::collect;
use crate::ruleset::diff::diff;

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
    pub pr: Option<u64>,
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
        if let (Some(push), false) = (&event.push, args.dry_run) {
            note_push(forge.as_ref(), &info, push, global)?;
        }
        let checker = Checker::new(forge.as_ref(), args, global)?;
        return checker.check(&info);
    }
    if args.open {
        let forge = open_forge(global, global.now())?;
        let checker = Checker::new(forge.as_ref(), args, global)?;
        let mut worst = EXIT_OK;
        for matter in &checker.open {
            // As listed: no need to read each one again.
            let code = checker.check(matter)?;
            if code != ExitCode::from(EXIT_OK) {
                worst = EXIT_PROBLEMS;
            }
        }
        return Ok(ExitCode::from(worst));
    }
    if let Some(number) = args.pr {
        let forge = open_forge(global, global.now())?;
        let info = forge.matter(number)?;
        let checker = Checker::new(forge.as_ref(), args, global)?;
        return checker.check(&info);
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
    for problem in &game.problems {
        eprintln!("{problem}");
    }
    if game.problems.is_empty() {
        if !args.list {
            say!("{}", summary(&game));
        }
        Ok(ExitCode::from(EXIT_OK))
    } else {
        eprintln!(
            "{} problem{} found",
            game.problems.len(),
            if game.problems.len() == 1 { "" } else { "s" }
        );
        Ok(ExitCode::from(EXIT_PROBLEMS))
    }
}

/// The event in `$GITHUB_EVENT_PATH`. The file is read as data; nothing
/// in it is run.
fn read_event() -> anyhow::Result<Event> {
    let path = std::env::var("GITHUB_EVENT_PATH")
        .context("--event needs GITHUB_EVENT_PATH (set by GitHub Actions)")?;
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading the event {path}"))?;
    event::parse(&text).with_context(|| format!("{path} names no pull request or issue"))
}

/// Notes the push an event announces in the matter's status journal, as
/// it happens, so votes are voided by when the push was made and not by
/// when a resolve run next looks (see `collect::note_push`).
fn note_push(
    forge: &dyn Forge,
    info: &MatterInfo,
    push: &Push,
    global: &GlobalArgs,
) -> anyhow::Result<()> {
    let base_origin = Origin::Revision {
        repo: global.root.clone(),
        rev: global.base.clone(),
    };
    let base = Game::check(&load::read(&base_origin, GAME_DIRS)?);
    let params = base
        .params
        .as_ref()
        .with_context(|| format!("the game's parameters on {} are not valid", global.base))?;
    if info.kind().is_none() || info.head.is_none() {
        return Ok(());
    }
    let number = info.number;
    let repo = Repo::open(&global.root)?;
    let judge =
        |old: &HeadSha, new: &HeadSha| crate::resolve::driver::typo_judge(&repo, forge, old, new);
    if collect::note_push(forge, info, push, params, &judge)? {
        say!(
            "noted the head {} of #{number}, pushed at {}",
            push.after,
            push.at
        );
    }
    Ok(())
}

fn summary(game: &Game) -> String {
    let players = game.state.as_ref().map_or(0, |s| s.players.len());
    format!(
        "ok: {} rules in {} sections, {} parameters, {} players",
        game.ruleset.rules.len(),
        game.ruleset.sections.len(),
        game.ruleset.params.len(),
        players
    )
}

/// What `check` judges pull requests with: the game on `--base`, and the
/// matters open on the forge (the limits and the hiatus read them).
struct Checker<'a> {
    forge: &'a dyn Forge,
    global: &'a GlobalArgs,
    base: Game,
    open: Vec<MatterInfo>,
    dry_run: bool,
    close: bool,
}

impl<'a> Checker<'a> {
    fn new(forge: &'a dyn Forge, args: &Args, global: &'a GlobalArgs) -> anyhow::Result<Self> {
        let base_origin = Origin::Revision {
            repo: global.root.clone(),
            rev: global.base.clone(),
        };
        let base = Game::check(&load::read(&base_origin, GAME_DIRS)?);
        if base.state.is_none() || base.params.is_none() {
            anyhow::bail!(
                "the game on {} cannot be read: {}",
                global.base,
                base.problems
            );
        }
        Ok(Checker {
            forge,
            global,
            base,
            open: forge.open_matters()?,
            dry_run: args.dry_run,
            close: args.close,
        })
    }

    /// Checks one matter: prints the verdict, sets the commit status (but
    /// for a dry run), and with `--close` closes it if it may not stand.
    fn check(&self, info: &MatterInfo) -> anyhow::Result<ExitCode> {
        let forge = self.forge;
        let number = info.number;
        let repo = Repo::open(&self.global.root)?;
        let read = |sha: &HeadSha| -> anyhow::Result<Game> {
            Ok(Game::check(&load::read_revision(&repo, &sha.0, GAME_DIRS).with_context(|| {
                format!("the head {sha} of #{number} is not in the local repository: fetch refs/pull/{number}/head first")
            })?))
        };
        let head = info.head.as_ref().map(read).transpose()?;
        // What an action changes is the difference from where it forked.
        let fork = match (&info.head, info.kind()) {
            (Some(sha), Some(Kind::Action)) => {
                let trial = GitTrial::open(&self.global.root, &self.global.base)?;
                let tree = trial
                    .fork_tree(sha, None)
                    .map_err(|why| anyhow::anyhow!("#{number}: {why}"))?;
                Some(Game::check(&load::read_revision(
                    &repo, &tree.0, GAME_DIRS,
                )?))
            }
            _ => None,
        };
        // An issue (a CfJ or DoV) changes no files.
        let changed = match info.head {
            Some(_) => forge.changed_files(number)?,
            None => Vec::new(),
        };
        let mut postings: Vec<Posting<'_>> = self.open.iter().map(Posting::of).collect();
        if !self.open.iter().any(|m| m.number == number) {
            postings.push(Posting::of(info));
        }
        let ledger = Ledger::new(&self.base, &postings);
        let verdict = admission::judge(
            &ledger,
            &Facts {
                posting: Posting::of(info),
                description: &info.body,
                changed: &changed,
                head: head.as_ref(),
                fork: fork.as_ref(),
            },
        );
        let changes = head
            .as_ref()
            .map(|h| describe_changes(&diff(&self.base.ruleset, &h.ruleset)))
            .unwrap_or_default();
        let kind = info
            .kind()
            .map_or("Pull request".to_string(), |k| k.to_string());
        say!("{kind} #{number} by {}: {}", info.author, info.title);
        if !changes.is_empty() {
            say!("  {changes}");
        }
        for problem in &verdict.problems {
            say!("  problem: {problem}");
        }
        let ok = verdict.problems.is_empty();
        match verdict.not_a_matter() {
            Some(_) => say!("  not ok: it cannot stand as a {kind}"),
            None => say!("  {}", if ok { "ok" } else { "not ok" }),
        }
        if self.dry_run {
            return Ok(ExitCode::from(if ok { EXIT_OK } else { EXIT_PROBLEMS }));
        }
        if let Some(sha) = &info.head {
            let line = if ok {
                format!("ok: {changes}")
            } else {
                verdict.problems.join("; ")
            };
            forge.set_commit_status(sha, ok, &line)?;
        }
        let open = self.open.iter().any(|m| m.number == number);
        if let (true, true, Some(why), Some(k)) =
            (self.close, open, verdict.not_a_matter(), info.kind())
        {
            self.close(info, k, &why)?;
            say!("  closed: it cannot stand as a {kind}; the next resolve run records it");
        }
        Ok(ExitCode::from(if ok { EXIT_OK } else { EXIT_PROBLEMS }))
    }

    /// Closes a matter that may not stand, as the resolver begins to: its
    /// status says why (with the decision in its journal), `resolving`,
    /// closed. The next resolve run finishes it: its record, its labels.
    fn close(&self, info: &MatterInfo, kind: Kind, why: &str) -> anyhow::Result<()> {
        let number = info.number;
        let status = self.forge.status_comment(number)?;
        let read = status.as_ref().map(|s| s.body.as_str());
        let journal = read.map(Journal::read).unwrap_or_default();
        let journal = closing_journal(&journal, info.head.clone(), why, self.global.now());
        let body = journal.render(&closing_text(kind, number, why, false));
        if !self.forge.put_status_over(number, read, &body)? {
            anyhow::bail!("#{number}: another run wrote its status meanwhile; nothing closed");
        }
        self.forge.set_labels(number, &[RESOLVING], &[])?;
        self.forge.close(number)?;
        Ok(())
    }
}
