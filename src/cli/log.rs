//! `gitnomic log [PLAYER] [--var NAME]`: every change to the variables and
//! collections on the default branch, oldest first (see [`crate::record::changelog`]).

use std::process::ExitCode;

use super::{EXIT_OK, GlobalArgs};
use crate::gamestate::set_value::{COLLECTIONS_FILE, VARIABLES_FILE};
use crate::git::Repo;
use crate::load::dice::versions;
use crate::record::changelog;
use crate::resolve::Context;

/// Arguments of `gitnomic log`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only the changes that concern this player (by name, as on the
    /// roster): to their values, or made by them.
    pub player: Option<String>,
    /// Only this variable (`springs`, `round`).
    #[arg(long = "var", value_name = "NAME")]
    pub var: Option<String>,
}

/// Runs `gitnomic log`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let repo = Repo::open(&global.root)?;
    let variables = repo.file_history(&global.base, VARIABLES_FILE)?;
    let collections = repo.file_history(&global.base, COLLECTIONS_FILE)?;
    let vars = versions(&variables);
    let items = versions(&collections);
    let cx = Context::on(repo, &global.root, &global.base)?;
    let state = cx.state();
    let wanted = |c: &changelog::Change| {
        let player_ok = args
            .player
            .as_deref()
            .is_none_or(|p| c.concerns(state).iter().any(|name| name == p));
        let var_ok = args
            .var
            .as_deref()
            .is_none_or(|v| c.path.rsplit('.').next() == Some(v));
        player_ok && var_ok
    };
    let all = changelog::merge(
        changelog::changes(&vars),
        changelog::collection_changes(&items),
    );
    let found: Vec<changelog::Change> = all.into_iter().filter(wanted).collect();
    for c in &found {
        let matter = c.matter.map(|n| format!(" #{n}")).unwrap_or_default();
        say!(
            "{} {}{matter} {}: {} → {} ({})",
            c.at,
            c.commit,
            c.path,
            c.from,
            c.to,
            c.by
        );
    }
    if found.is_empty() {
        say!("No changes.");
    }
    Ok(ExitCode::from(EXIT_OK))
}
