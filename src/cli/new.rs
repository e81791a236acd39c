//! `gitnomic new DIR`: a fresh game made from the bundled one, as a git
//! repository with a first commit, ready to push to a forge. Written into
//! a directory beside DIR and renamed into place only once it is whole and
//! passes `check`, so a failure never leaves half a game
//! ([`crate::make::new_game`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{EXIT_OK, GlobalArgs};
use crate::game::Game;
use crate::make;
use crate::setup::new_game::{self, Actions, NewGame};

/// Arguments of `gitnomic new`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The directory to create (it may exist if it is empty).
    pub dir: PathBuf,
    /// A player's login on the forge, or NAME=LOGIN; repeat for each player. The
    /// first is the admin and the emperor of the first dynasty. Without
    /// any, the bundled game's example roster is kept.
    #[arg(long = "player", value_name = "LOGIN")]
    pub players: Vec<String>,
    /// The game's name (the bundled game's, "Clockwork", if not given).
    #[arg(long)]
    pub name: Option<String>,
    /// The default branch, where enacted proposals are merged (--base, by
    /// default `main`).
    #[arg(long, value_name = "NAME")]
    pub branch: Option<String>,
    /// Where the game will be played: OWNER/NAME on GitHub (or the
    /// repository's https:// address on another forge). Written to
    /// `[game] repo`; the site then links each rule to the forge's editor
    /// and each matter to where players vote.
    #[arg(long, value_name = "OWNER/NAME")]
    pub repo: Option<String>,
}

/// Runs `gitnomic new`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let dir = &args.dir;
    make::refuse_nonempty(dir)?;
    // A game is played on GitHub unless another forge is named.
    let actions = global.forge.actions().unwrap_or(Actions::GitHub);
    let players = args
        .players
        .iter()
        .map(|p| new_game::parse_player_on(p, actions.forgejo_like()))
        .collect::<Result<Vec<_>, _>>()?;
    let branch = args.branch.clone().unwrap_or_else(|| global.base.clone());
    let spec = NewGame {
        name: args.name.clone(),
        players,
        branch: branch.clone(),
        now: global.now(),
        repo: args.repo.clone(),
        actions,
    };
    let bundle: Vec<(&str, &[u8], bool)> = crate::game::bundle::FILES
        .iter()
        .map(|f| (f.path, f.bytes, f.executable))
        .collect();
    let files = new_game::files(&bundle, &spec)?;
    let game = make::new_game(dir, &files, &branch, spec.now)?;
    report(dir, &game, &branch, args.players.is_empty(), spec.actions);
    Ok(ExitCode::from(EXIT_OK))
}

/// Says what was made and what the admin does next.
fn report(dir: &Path, game: &Game, branch: &str, bundled_roster: bool, actions: Actions) {
    let Some(state) = &game.state else { return };
    let players: Vec<String> = state
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.login))
        .collect();
    say!(
        "A new game of {} in {}: a git repository with one commit on `{branch}`.",
        state.name,
        dir.display()
    );
    if bundled_roster {
        say!(
            "The players are the bundled game's examples: {}.\n\
             Put your own in state/roster.toml (or run `gitnomic new DIR --player LOGIN ...`).",
            players.join(", ")
        );
    } else {
        say!(
            "The players: {}; {} is the admin and the {}.",
            players.join(", "),
            state.players.first().map_or("", |p| p.name.as_str()),
            state.terms.emperor
        );
    }
    if actions.forgejo_like() {
        let (server, url) = match actions {
            Actions::Gitea => ("your Gitea server", "https://gitea.example.org"),
            _ => ("Codeberg (or your Forgejo server)", "https://codeberg.org"),
        };
        say!(
            "\nNext:\n  \
             1. Create an empty repository on {server}, enable\n     \
             Actions in its settings, and push this one to it:\n     \
             git -C {dir} remote add origin {url}/OWNER/NAME.git\n     \
             git -C {dir} push -u origin {branch}\n  \
             2. Check its settings, creating the labels the game uses:\n     \
             FORGEJO_TOKEN=... GITHUB_SERVER_URL={url} GITHUB_REPOSITORY=OWNER/NAME \\\n       \
             gitnomic doctor --forge {forge}",
            dir = dir.display(),
            forge = actions.name(),
        );
        return;
    }
    say!(
        "\nNext:\n  \
         1. Create an empty repository on GitHub and push this one to it:\n     \
         git -C {dir} remote add origin https://github.com/OWNER/NAME.git\n     \
         git -C {dir} push -u origin {branch}\n  \
         2. Check its settings, creating the labels the game uses:\n     \
         GITHUB_TOKEN=... GITHUB_REPOSITORY=OWNER/NAME gitnomic doctor --forge github",
        dir = dir.display()
    );
}
