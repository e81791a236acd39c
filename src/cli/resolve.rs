//! `gitnomic resolve`: a run of [`crate::resolve`], printed. `--dry-run`
//! prints the same plan and does nothing.

use std::process::ExitCode;

use super::{EXIT_ERROR, EXIT_OK, EXIT_PROBLEMS, GlobalArgs, open_forge};
use crate::plan::{Fate, Plan};
use crate::resolve::{self, Ended, Request, ResolveError, RunNotice};

/// Arguments of `gitnomic resolve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Say what would be done, and do nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Stop after carrying out this many effects, as if the run were
    /// killed there (for tests of what the next run finishes).
    #[arg(long, hide = true, value_name = "N")]
    pub halt_after: Option<usize>,
}

/// Runs `gitnomic resolve`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let now = global.now();
    if !args.dry_run {
        // Before any handle reads an object: libgit2 reads the setting then.
        crate::git::make_durable(&global.root)?;
    }
    let forge = open_forge(global, now)?;
    let request = Request {
        root: &global.root,
        base: &global.base,
        now,
        dry_run: args.dry_run,
        halt_after: args.halt_after,
    };
    let mut carried_any = false;
    let mut moved = false;
    let ended = resolve::run(forge.as_ref(), &request, &mut |notice| {
        if let RunNotice::Carried(step, _) = &notice {
            moved |= step.effect.moves_base();
        }
        print(&notice, args.dry_run, &mut carried_any);
    });
    // The workflow re-checks the open matters and brings its checkout
    // forward only when the default branch moved.
    super::step_output("moved", moved)?;
    let code = match ended {
        Ok(Ended::Done { held }) if held.is_empty() => EXIT_OK,
        Ok(Ended::Done { held }) => {
            let held: Vec<String> = held.iter().map(|n| format!("#{n}")).collect();
            say!(
                "Held: {} (see the status); the next run carries it out once it can.",
                held.join(", ")
            );
            EXIT_PROBLEMS
        }
        Ok(Ended::Refused(number)) => {
            say!("Stopped: #{number} could not be carried out; the next run decides it again.");
            EXIT_PROBLEMS
        }
        Ok(Ended::Held(number)) => {
            say!(
                "Stopped: the forge refuses to merge #{number}; it is held (see its status) until an admin lets the resolver merge and removes the `{}` label.",
                crate::matter::labels::HELD
            );
            EXIT_PROBLEMS
        }
        Ok(Ended::Overtaken) => {
            say!("Stopped: the next run plans again from what is there now.");
            EXIT_OK
        }
        Ok(Ended::Halted) => EXIT_OK,
        Err(ResolveError::Other(e)) => return Err(e),
        Err(e) => {
            let said = e.to_string();
            eprintln!("gitnomic: error: {}", crate::text::for_terminal(&said));
            EXIT_ERROR
        }
    };
    Ok(ExitCode::from(code))
}

/// Prints one notice of the run.
fn print(notice: &RunNotice<'_>, dry_run: bool, carried_any: &mut bool) {
    match notice {
        RunNotice::Cleared { pid, files } => {
            let who = match pid {
                0 => "A gitnomic run".to_string(),
                pid => format!("A gitnomic run (process {pid})"),
            };
            say!("{who} was killed here; removed what it left:");
            for file in *files {
                say!("  {}", file.display());
            }
            if files.is_empty() {
                say!("  (only its lock)");
            }
        }
        RunNotice::Found(what) => say!("Note: {what}."),
        RunNotice::BroughtForward { from, files } => say!(
            "Brought the checkout forward from {} to the branch ({files} files): a run stopped before it could.",
            crate::matter::thread::short(from)
        ),
        RunNotice::WouldBringForward { from } => say!(
            "Note: the checkout holds {}, behind the branch; a real run brings it forward.",
            crate::matter::thread::short(from)
        ),
        RunNotice::Planned(plan) => report(plan, dry_run),
        RunNotice::Kept(number, sha) => {
            say!("Kept #{number}'s earlier head {sha} (refs/gitnomic/pull/{number}/)");
        }
        RunNotice::NotKept(why) => {
            eprintln!("warning: could not keep the earlier heads of pull requests: {why}");
        }
        RunNotice::Carried(step, now) => {
            if !std::mem::replace(carried_any, true) {
                say!("Done:");
            }
            if *now {
                say!("  {step}");
            } else {
                say!("  {step} (already done)");
            }
        }
        RunNotice::Refused(step, why) => say!("  {step}: refused: {why}"),
        RunNotice::Overtaken(step) => say!(
            "  {step}: not done: another run wrote #{}'s status since this one read it",
            step.number
        ),
        RunNotice::Halted(i) => say!("Halted after {i} effects, as asked."),
    }
}

/// Prints the plan's line for each matter, with its reasons; a dry run
/// also lists the effects.
fn report(plan: &Plan, dry_run: bool) {
    say!(
        "At {}: {} active, quorum {}.",
        plan.now,
        plan.turnout.active,
        plan.turnout.quorum
    );
    for line in &plan.lines {
        match (dry_run, &line.fate) {
            (
                true,
                Fate::Enacted | Fate::Failed | Fate::Refused(_) | Fate::Merged | Fate::Closed(_),
            ) => {
                say!("{line} (would be, in a real run)");
            }
            _ => say!("{line}"),
        }
        for reason in &line.reasons {
            say!("    {reason}");
        }
    }
    if dry_run {
        say!("Would do (dry run: nothing done):");
        for step in &plan.steps {
            say!("  {step}");
        }
    }
}
