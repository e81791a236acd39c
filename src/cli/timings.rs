//! `gitnomic timings --forge github`: how long the game's resolve runs
//! took on GitHub's runners, run by run, and from a comment to the status
//! update under it (the wait a player sees), read from the times GitHub
//! keeps of every run, job and step.

use std::process::ExitCode;

use anyhow::bail;

use super::{EXIT_OK, ForgeKind, GlobalArgs, open_github};
use crate::setup::timings::{self, RunTimes, span_text, spread_text};

/// Arguments of `gitnomic timings`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// How many of the last completed runs to read (at most 100; one
    /// request each, and one for the list).
    #[arg(long, default_value_t = 30)]
    pub runs: usize,
    /// The resolve workflow's file name.
    #[arg(long, default_value = "resolve.yml")]
    pub workflow: String,
}

/// Runs `gitnomic timings`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    if global.forge != ForgeKind::Github {
        bail!(
            "timings reads a game's runs on GitHub: run `gitnomic timings --forge github` with \
             GITHUB_TOKEN and GITHUB_REPOSITORY (owner/name) set"
        );
    }
    let forge = open_github(global, global.now())?;
    let runs = forge.workflow_run_times(&args.workflow, args.runs)?;
    if runs.is_empty() {
        say!("No completed run of {} yet.", args.workflow);
        return Ok(ExitCode::from(EXIT_OK));
    }
    print_runs(&runs);
    let summary = timings::summary(&runs);
    say!();
    let lines = [
        (
            "From a comment to its status update",
            summary.comment_to_status,
        ),
        (
            "The same, when the run compiled gitnomic",
            summary.comment_to_status_built,
        ),
        ("Waiting for a runner", summary.wait),
        ("Whole runs (the site included)", summary.whole),
    ];
    for (what, spread) in lines {
        match spread {
            Some(spread) => say!("{what}: {}.", spread_text(&spread)),
            None => say!("{what}: no such run among these."),
        }
    }
    let m = summary.minutes;
    let median = |m: Option<u32>| m.map_or_else(|| "no such run".into(), |m| format!("{m}"));
    say!(
        "Billed minutes (a private repository's; each job rounded up): a scheduled run {}, a \
         comment's run {} (medians); {} over these {} runs{}.",
        median(m.schedule),
        median(m.comment),
        m.total,
        runs.len(),
        m.a_day()
            .map_or_else(String::new, |d| format!(", about {d} a day"))
    );
    Ok(ExitCode::from(EXIT_OK))
}

/// One line a run, newest first.
fn print_runs(runs: &[RunTimes]) {
    let or_dash = |span: Option<crate::time::Span>| span.map_or_else(|| "—".into(), span_text);
    say!(
        "{:>7}  {:<20}  {:<9}  {:>12}  {:>12}  {:>12}  {:>7}  built",
        "run",
        "created",
        "woken by",
        "runner after",
        "status after",
        "run took",
        "minutes"
    );
    for run in runs {
        say!(
            "{:>7}  {:<20}  {:<9}  {:>12}  {:>12}  {:>12}  {:>7}  {}",
            format!("#{}", run.number),
            run.created.to_string(),
            run.woken.to_string(),
            or_dash(run.wait()),
            or_dash(run.to_status()),
            span_text(run.whole()),
            run.billed,
            if run.built() { "yes" } else { "no" }
        );
    }
}
