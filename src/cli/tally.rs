//! `gitnomic tally FILE [--now T] [--json]`: read a scenario file, run the
//! engine at the moment asked for, print the decisions, and check the
//! file's `[[expect]]` entries (exit 1 if one is not met).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::{EXIT_OK, EXIT_PROBLEMS, GlobalArgs};
use crate::engine::{self, report, scenario};

/// Arguments of `gitnomic tally`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario file (TOML).
    pub file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs `gitnomic tally`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let path = args.file.display();
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("reading {path}"))?;
    let scenario = scenario::parse(&text).with_context(|| format!("{path}"))?;
    let now = global.now.or(scenario.now).with_context(|| {
        format!("{path}: no moment to evaluate: give `now` in the file or --now")
    })?;
    let run = engine::look_ahead(&scenario.snapshot, now);
    if args.json {
        say!("{}", report::json(&run)?);
    } else {
        if !scenario.title.is_empty() {
            say!("{}\n", scenario.title);
        }
        say_more!("{}", report::text(&run));
    }
    let checked = scenario.check(now);
    let unmet: Vec<_> = checked.iter().filter(|c| !c.met()).collect();
    for c in &unmet {
        let got = c.got.map_or("nothing", |d| d.as_str());
        eprintln!(
            "{path}:{}: expected #{} to {} at {}, but the engine decided {got}",
            c.expect.line,
            c.expect.id,
            c.expect.decision.as_str(),
            c.now
        );
    }
    if !args.json && !checked.is_empty() && unmet.is_empty() {
        say!("\nAll {} expectations met.", checked.len());
    }
    Ok(ExitCode::from(if unmet.is_empty() {
        EXIT_OK
    } else {
        EXIT_PROBLEMS
    }))
}
