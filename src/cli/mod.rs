//! The command line: argument types and dispatch. Orchestration only:
//! each subcommand gathers its inputs at the edge (files, git, the clock),
//! calls the pure core and reports. One file per subcommand.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};

use crate::cli::logging::Verbosity;
use crate::time::Timestamp;

/// Prints a line of a report on stdout, like `println!`, but a closed
/// pipe does not stop the command (see [`out`]).
macro_rules! say {
    () => { $crate::cli::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// Prints a report on stdout, like `print!` (see [`say!`]).
macro_rules! say_more {
    ($($arg:tt)*) => { $crate::cli::out::write(format_args!($($arg)*)) };
}

mod audit;
mod build;
mod check;
mod demo;
mod doctor;
mod import;
mod import_history;
mod log;
pub mod logging;
mod new;
mod out;
mod play;
mod propose;
mod resolve;
mod roll;
mod serve;
mod tally;
mod timings;

/// Exit code: the command ran and found nothing wrong.
pub const EXIT_OK: u8 = 0;
/// Exit code: the command ran and found problems (a verdict, not a crash).
pub const EXIT_PROBLEMS: u8 = 1;
/// Exit code: the command could not run.
pub const EXIT_ERROR: u8 = 2;

/// Run a nomic game on a git forge.
#[derive(Debug, Parser)]
#[command(name = "gitnomic", version, about, long_about = None)]
pub struct Cli {
    /// Options shared by every subcommand.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every subcommand accepts.
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// The game's root directory (holding rules/ and state/).
    #[arg(long, global = true, default_value = ".")]
    pub root: PathBuf,
    /// Evaluate as if it were this moment, instead of the clock: an RFC
    /// 3339 time (`2031-01-01T09:30:00Z`) or a date (`2031-01-01`, its
    /// first second in UTC).
    #[arg(long, global = true, value_name = "TIME", value_parser = Timestamp::parse_moment)]
    pub now: Option<Timestamp>,
    /// The game's default branch, where enacted proposals are merged.
    #[arg(long, global = true, default_value = "main")]
    pub base: String,
    /// The forge holding the matters: `local` (files beside the repository,
    /// for offline play), `github` (the REST API; needs GITHUB_TOKEN) or
    /// `forgejo` (Codeberg, Forgejo or Gitea; needs FORGEJO_TOKEN).
    #[arg(long, global = true, value_enum, default_value_t = ForgeKind::Local)]
    pub forge: ForgeKind,
    /// Log more (debug).
    #[arg(short, long, global = true, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Log errors only.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

impl GlobalArgs {
    /// The log level the flags ask for.
    pub fn verbosity(&self) -> Verbosity {
        match (self.quiet, self.verbose) {
            (true, _) => Verbosity::Quiet,
            (_, true) => Verbosity::Verbose,
            _ => Verbosity::Normal,
        }
    }

    /// The moment to evaluate at: `--now`, else the system clock. This is
    /// the only place gitnomic reads the clock.
    pub fn now(&self) -> Timestamp {
        self.now
            .unwrap_or_else(|| Timestamp::from_datetime(chrono::Utc::now()))
    }
}

/// Which forge to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ForgeKind {
    /// Matters kept as files under .git/gitnomic-forge/.
    Local,
    /// GitHub's REST API.
    Github,
    /// Forgejo's REST API (Codeberg, a self-hosted Forgejo).
    Forgejo,
    /// Gitea's: Forgejo's API, with Gitea's Actions bot (`gitea-actions`)
    /// and its workflows in `.gitea/workflows/`.
    Gitea,
}

impl ForgeKind {
    /// What `new` writes for this forge's Actions, if it has them.
    pub(crate) fn actions(self) -> Option<crate::setup::new_game::Actions> {
        use crate::setup::new_game::Actions;
        match self {
            ForgeKind::Local => None,
            ForgeKind::Github => Some(Actions::GitHub),
            ForgeKind::Forgejo => Some(Actions::Forgejo),
            ForgeKind::Gitea => Some(Actions::Gitea),
        }
    }
}

/// Opens the forge the global options name, acting at `now`.
///
/// GitHub is configured from the environment CI provides: `GITHUB_TOKEN`,
/// `GITHUB_REPOSITORY` (`owner/name`), `GITHUB_API_URL`, and optionally
/// `GITNOMIC_BOT_LOGIN` (the account the token acts as, by default
/// `github-actions[bot]`). `GITNOMIC_NO_RETRY_WAIT=1` retries without
/// waiting (for tests against a local fake); `GITNOMIC_MAX_WAIT` is the
/// most a run waits out rate limits, in seconds (300 by default);
/// `GITNOMIC_HTTP_CACHE` names a file that keeps ETags between runs.
fn open_forge(global: &GlobalArgs, now: Timestamp) -> anyhow::Result<Box<dyn crate::forge::Forge>> {
    match global.forge {
        ForgeKind::Local => Ok(Box::new(crate::forge::local::LocalForge::open(
            &global.root,
            &global.base,
            now,
        )?)),
        ForgeKind::Github => Ok(Box::new(open_github(global, now)?)),
        ForgeKind::Forgejo | ForgeKind::Gitea => Ok(Box::new(open_forgejo(global, now)?)),
    }
}

/// The forge the global options name, to read only: the local forge
/// notes no push, and GitHub is only read from.
fn open_forge_to_read(global: &GlobalArgs) -> anyhow::Result<Box<dyn crate::forge::Forge>> {
    match global.forge {
        ForgeKind::Local => Ok(Box::new(crate::forge::local::LocalForge::open_to_read(
            &global.root,
            &global.base,
        )?)),
        ForgeKind::Github => Ok(Box::new(open_github(global, global.now())?)),
        ForgeKind::Forgejo | ForgeKind::Gitea => Ok(Box::new(open_forgejo(global, global.now())?)),
    }
}

/// The GitHub forge, configured from the environment as [`open_forge`] says.
fn open_github(
    global: &GlobalArgs,
    now: Timestamp,
) -> anyhow::Result<crate::forge::github::GitHubForge> {
    use crate::forge::github::GitHubForge;
    use crate::forge::rest::{Configure as _, Settings};
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let settings = Settings {
        api: var("GITHUB_API_URL").unwrap_or_else(|| "https://api.github.com".into()),
        repo: var("GITHUB_REPOSITORY")
            .ok_or_else(|| anyhow::anyhow!("GITHUB_REPOSITORY (owner/name) is not set"))?,
        token: var("GITHUB_TOKEN").ok_or_else(|| {
            anyhow::anyhow!("GITHUB_TOKEN is not set: the GitHub forge needs a token")
        })?,
        base: global.base.clone(),
        bot: var("GITNOMIC_BOT_LOGIN").unwrap_or_else(|| "github-actions[bot]".into()),
    };
    if settings.repo.split('/').filter(|p| !p.is_empty()).count() != 2 {
        anyhow::bail!("GITHUB_REPOSITORY={}: expected owner/name", settings.repo);
    }
    let http = http_settings()?;
    let mut forge = GitHubForge::new(&settings, http.sleep)
        .with_clock(now, std::time::Duration::from_secs(http.max_wait))
        .with_max_reply(http.max_reply);
    if let Some(hours) = http.max_age {
        forge = forge.with_thread_max_age(i64::from(hours));
    }
    if let Some(path) = var("GITNOMIC_HTTP_CACHE") {
        forge = forge.with_cache_file(PathBuf::from(path));
    }
    Ok(forge)
}

/// How an API client waits and how much it reads, as the environment says.
struct HttpSettings {
    /// Waits for real, unless `GITNOMIC_NO_RETRY_WAIT` is set.
    sleep: crate::forge::rest::Sleeper,
    /// `GITNOMIC_MAX_WAIT`: the most seconds a run waits out rate limits.
    max_wait: u64,
    /// `GITNOMIC_THREAD_MAX_AGE`: hours a kept thread is trusted.
    max_age: Option<u32>,
    /// `GITNOMIC_MAX_REPLY`: the longest reply read, in bytes.
    max_reply: u64,
}

/// The client's settings from the environment: `GITNOMIC_NO_RETRY_WAIT`,
/// `GITNOMIC_MAX_WAIT` (seconds), `GITNOMIC_THREAD_MAX_AGE` (hours) and
/// `GITNOMIC_MAX_REPLY` (bytes).
fn http_settings() -> anyhow::Result<HttpSettings> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let wait = var("GITNOMIC_NO_RETRY_WAIT").is_none();
    let sleep: crate::forge::rest::Sleeper = Box::new(move |d| {
        if wait {
            std::thread::sleep(d);
        }
    });
    // How long a run may wait out rate limits before it stops and
    // leaves the rest to the next run.
    let max_wait = var("GITNOMIC_MAX_WAIT")
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| anyhow::anyhow!("GITNOMIC_MAX_WAIT={v}: expected a number of seconds"))
        })
        .transpose()?
        .unwrap_or(300);
    // How old a thread kept between runs may grow before it is read again
    // whatever its matter's `updated_at` says (see forge::rest::threads).
    let max_age = var("GITNOMIC_THREAD_MAX_AGE")
        .map(|v| {
            v.parse::<u32>().map_err(|_| {
                anyhow::anyhow!("GITNOMIC_THREAD_MAX_AGE={v}: expected a number of hours")
            })
        })
        .transpose()?;
    // The longest reply read: a thread longer than that is not read this
    // run (Forgejo's is read in windows of time that fit).
    let max_reply = var("GITNOMIC_MAX_REPLY")
        .map(|v| {
            v.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                anyhow::anyhow!("GITNOMIC_MAX_REPLY={v}: expected a number of bytes")
            })
        })
        .transpose()?
        .unwrap_or(crate::bounds::REPLY_BYTES);
    Ok(HttpSettings {
        sleep,
        max_wait,
        max_age,
        max_reply,
    })
}

/// The Forgejo forge, configured from the environment Forgejo Actions
/// gives a run (where `github.*` is an alias of `forgejo.*`):
///
/// - the API: `FORGEJO_API_URL` or `GITHUB_API_URL`, else
///   `FORGEJO_SERVER_URL` or `GITHUB_SERVER_URL` with `/api/v1`;
/// - the token: `FORGEJO_TOKEN`, else `GITHUB_TOKEN` (its mirror);
/// - the repository: `FORGEJO_REPOSITORY` or `GITHUB_REPOSITORY`;
/// - the bot: `GITNOMIC_BOT_LOGIN`, by default the account of the
///   Actions token: `forgejo-actions`, or with `--forge gitea`
///   `gitea-actions`.
///
/// Waits and the cache are set as for GitHub (see [`open_forge`]).
pub(crate) fn open_forgejo(
    global: &GlobalArgs,
    now: Timestamp,
) -> anyhow::Result<crate::forge::forgejo::ForgejoForge> {
    use crate::forge::forgejo::ForgejoForge;
    use crate::forge::rest::{Configure as _, Settings};
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let either = |a: &str, b: &str| var(a).or_else(|| var(b));
    let api = either("FORGEJO_API_URL", "GITHUB_API_URL")
        .or_else(|| {
            either("FORGEJO_SERVER_URL", "GITHUB_SERVER_URL")
                .map(|s| format!("{}/api/v1", s.trim_end_matches('/')))
        })
        .ok_or_else(|| {
            anyhow::anyhow!(
                "neither FORGEJO_API_URL, GITHUB_API_URL nor a server URL \
                 (FORGEJO_SERVER_URL, GITHUB_SERVER_URL) is set: where is the forge?"
            )
        })?;
    let settings = Settings {
        api,
        repo: either("FORGEJO_REPOSITORY", "GITHUB_REPOSITORY").ok_or_else(|| {
            anyhow::anyhow!("GITHUB_REPOSITORY (or FORGEJO_REPOSITORY, owner/name) is not set")
        })?,
        token: either("FORGEJO_TOKEN", "GITHUB_TOKEN").ok_or_else(|| {
            anyhow::anyhow!(
                "FORGEJO_TOKEN (or GITHUB_TOKEN) is not set: the Forgejo forge needs a token"
            )
        })?,
        base: global.base.clone(),
        bot: var("GITNOMIC_BOT_LOGIN").unwrap_or_else(|| match global.forge {
            ForgeKind::Gitea => "gitea-actions".into(),
            _ => "forgejo-actions".into(),
        }),
    };
    if settings.repo.split('/').filter(|p| !p.is_empty()).count() != 2 {
        anyhow::bail!("GITHUB_REPOSITORY={}: expected owner/name", settings.repo);
    }
    let http = http_settings()?;
    let mut forge = ForgejoForge::new(&settings, http.sleep)
        .with_clock(now, std::time::Duration::from_secs(http.max_wait))
        .with_max_reply(http.max_reply);
    if let Some(hours) = http.max_age {
        forge = forge.with_thread_max_age(i64::from(hours));
    }
    if let Some(path) = var("GITNOMIC_HTTP_CACHE") {
        forge = forge.with_cache_file(PathBuf::from(path));
    }
    Ok(forge)
}

/// Gives the GitHub Actions step running this command an output `name`
/// (`true` or `false`), appended to the file `GITHUB_OUTPUT` names, so a
/// workflow runs its later steps and jobs only when they have something to
/// do. Outside Actions (no `GITHUB_OUTPUT`) it does nothing.
pub(crate) fn step_output(name: &str, value: bool) -> anyhow::Result<()> {
    let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|p| !p.is_empty()) else {
        return Ok(());
    };
    use std::io::Write as _;
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&path)
        .and_then(|mut file| writeln!(file, "{name}={value}"))
        .with_context(|| {
            format!(
                "cannot write the step's output to {}",
                PathBuf::from(&path).display()
            )
        })
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate the game's rules/ and state/ (exit 0 ok, 1 problems, 2 error).
    Check(check::Args),
    /// Tally a scenario file: what a resolve run at --now would decide
    /// (exit 0 ok, 1 an `[[expect]]` not met, 2 error).
    Tally(tally::Args),
    /// Tally every open matter and carry out what the rules decide: merge
    /// enacted proposals, close failed ones, record both under content/.
    Resolve(resolve::Args),
    /// Re-run the engine on every record in the default branch's history,
    /// under the rules in force when it was decided (exit 0 all agree, 1 one
    /// does not, 2 error).
    Audit(audit::Args),
    /// Make a fresh game from the bundled one and play a scripted game on
    /// the local forge, offline.
    Demo(demo::Args),
    /// Make a fresh game from the bundled one: a git repository with a
    /// first commit, ready to push (exit 2 if DIR is not empty).
    New(new::Args),
    /// Check a game's repository on GitHub (`--forge github`): Actions,
    /// Issues, merge commits, labels (creating the missing ones), Pages,
    /// workflow permissions, the roster's logins; or on Codeberg, Forgejo
    /// or Gitea (`--forge forgejo`): units, merge commits, Actions, the
    /// token's reach, labels, the `pages` branch, the roster's logins
    /// (exit 0 all well, 1 something to do, 2 error).
    Doctor(doctor::Args),
    /// How long the game's resolve runs took on GitHub's runners (`--forge
    /// github`): run by run, and from a comment to its status update.
    Timings(timings::Args),
    /// Play offline on the local forge: open matters, comment, list them.
    #[command(subcommand)]
    Play(play::Play),
    /// Every change to the variables on the default branch: who, when,
    /// old → new, the matter and the roll (optionally one player's, or one
    /// variable's).
    Log(log::Args),
    /// The dice log: `roll verify` recomputes every logged roll.
    #[command(subcommand)]
    Roll(roll::Roll),
    /// Import rules kept elsewhere into a game (a BlogNomic ruleset dump).
    Import(import::Args),
    /// Build the static site: ruleset, tracker, archive and history.
    Build(build::Args),
    /// Build the site, serve it on localhost and rebuild on change.
    Serve(serve::Args),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => check::run(&args, &cli.global),
        Command::Tally(args) => tally::run(&args, &cli.global),
        Command::Resolve(args) => resolve::run(&args, &cli.global),
        Command::Audit(args) => audit::run(&args, &cli.global),
        Command::Play(play) => play::run(&play, &cli.global),
        Command::Log(args) => log::run(&args, &cli.global),
        Command::Roll(roll) => roll::run(&roll, &cli.global),
        Command::Demo(args) => demo::run(&args, &cli.global),
        Command::New(args) => new::run(&args, &cli.global),
        Command::Doctor(args) => doctor::run(&args, &cli.global),
        Command::Timings(args) => timings::run(&args, &cli.global),
        Command::Import(args) => import::run(&args, &cli.global),
        Command::Build(args) => build::run(&args, &cli.global),
        Command::Serve(args) => serve::run(&args, &cli.global),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }
}
