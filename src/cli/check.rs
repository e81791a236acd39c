//! `gitnomic check`: validate the rules and the gamestate of a game.

use std::process::ExitCode;

use anyhow::Context as _;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::game::Game;
use crate::load::{self, GAME_DIRS, Origin};

/// Arguments of `gitnomic check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print `number<TAB>section<TAB>title` for every rule.
    #[arg(long)]
    pub list: bool,
    /// Check this git revision of the repository at --root (a branch, tag or
    /// SHA) instead of the files on disk; nothing is checked out.
    #[arg(long, value_name = "REV")]
    pub rev: Option<String>,
}

/// Runs `gitnomic check`: problems go to stderr as `path:line: [rule] message`,
/// the list (with `--list`) and a summary to stdout.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
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
            println!("{}\t{}\t{}", rule.number, rule.section, rule.title);
        }
    }
    for problem in &game.problems {
        eprintln!("{problem}");
    }
    if game.problems.is_empty() {
        if !args.list {
            println!("{}", summary(&game));
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
