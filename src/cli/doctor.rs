//! `gitnomic doctor --forge github`: checks a game's repository on GitHub
//! the way its admin needs before the first proposal, creating the labels
//! the game uses that are missing, and prints one line per finding, each
//! saying what to click or run. Exit 0 when all is well, 1 when something
//! must be done. `--forge forgejo` checks a repository on Codeberg or a
//! self-hosted Forgejo or Gitea the same way, with what Forgejo has (see
//! `setup::doctor_forgejo`).

use std::process::ExitCode;

use anyhow::bail;

use super::{EXIT_OK, EXIT_PROBLEMS, ForgeKind, GlobalArgs, open_forgejo, open_github};
use crate::forge::Forge as _;
use crate::forge::forgejo::ForgejoForge;
use crate::forge::github::GitHubForge;
use crate::setup::doctor::{self, Finding, LabelOutcome, LabelSpec, Level, Observations, Seen};
use crate::setup::doctor_forgejo::{self, ForgejoObservations};

/// Arguments of `gitnomic doctor`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Report missing labels without creating them.
    #[arg(long)]
    pub dry_run: bool,
}

/// Runs `gitnomic doctor`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let findings = match global.forge {
        ForgeKind::Github => {
            let forge = open_github(global, global.now())?;
            doctor::findings(&observe(&forge, global, args.dry_run)?)
        }
        ForgeKind::Forgejo | ForgeKind::Gitea => {
            let forge = open_forgejo(global, global.now())?;
            doctor_forgejo::findings(&observe_forgejo(&forge, global, args.dry_run)?)
        }
        ForgeKind::Local => bail!(
            "doctor checks a repository on a forge: run `gitnomic doctor --forge github` with \
             GITHUB_TOKEN and GITHUB_REPOSITORY (owner/name) set, or `--forge forgejo` with \
             FORGEJO_TOKEN, GITHUB_SERVER_URL and GITHUB_REPOSITORY"
        ),
    };
    report(&findings)
}

/// Prints the findings; exit 0 when nothing is to do, 1 otherwise.
fn report(findings: &[Finding]) -> anyhow::Result<ExitCode> {
    for finding in findings {
        say!("{finding}");
    }
    let todo = findings.iter().filter(|f| f.level == Level::Todo).count();
    if todo == 0 {
        say!("\nAll is well: the game can be played here.");
        Ok(ExitCode::from(EXIT_OK))
    } else {
        say!(
            "\n{todo} thing{} to do (TODO above); run doctor again when done.",
            if todo == 1 { "" } else { "s" }
        );
        Ok(ExitCode::from(EXIT_PROBLEMS))
    }
}

/// Reads every setting the findings judge, and creates missing labels
/// unless `dry_run`.
fn observe(
    forge: &GitHubForge,
    global: &GlobalArgs,
    dry_run: bool,
) -> anyhow::Result<Observations> {
    let repo = forge.repository_facts()?;
    let wanted_workflows = crate::game::bundle::FILES
        .iter()
        .filter(|f| f.path.starts_with(".github/workflows/"))
        .map(|f| f.path.to_string())
        .collect();
    let labels = match forge.label_names()? {
        Seen::Got(names) => Seen::Got(settle_labels(&names, dry_run, |l| forge.create_label(l))?),
        Seen::Refused { status, message } => Seen::Refused { status, message },
    };
    let roster = match forge.read_file("state/roster.toml")? {
        Some(text) => doctor::roster_logins(&text),
        None => Err(doctor::RosterError::Absent {
            base: global.base.clone(),
            new: "gitnomic new".into(),
        }),
    };
    let mut accounts = Vec::new();
    for (_, login) in roster.as_deref().unwrap_or_default() {
        accounts.push((login.clone(), forge.account(login)?));
    }
    Ok(Observations {
        base: global.base.clone(),
        repo,
        actions: forge.actions_facts()?,
        workflows: forge.workflow_facts()?,
        wanted_workflows,
        workflow_permissions: forge.workflow_permissions()?,
        pages: forge.pages_build_type()?,
        labels,
        roster,
        accounts,
        resolve_workflow: forge.read_file(".github/workflows/resolve.yml")?,
    })
}

/// What `doctor --forge forgejo` judges, read from Forgejo; the missing
/// labels are created unless `dry_run`.
fn observe_forgejo(
    forge: &ForgejoForge,
    global: &GlobalArgs,
    dry_run: bool,
) -> anyhow::Result<ForgejoObservations> {
    let actions = global
        .forge
        .actions()
        .unwrap_or(crate::setup::new_game::Actions::Forgejo);
    let repo = forge.repository_facts()?;
    let labels = match forge.label_names()? {
        Seen::Got(names) => Seen::Got(settle_labels(&names, dry_run, |l| forge.create_label(l))?),
        Seen::Refused { status, message } => Seen::Refused { status, message },
    };
    let roster = match forge.read_file("state/roster.toml")? {
        Some(text) => doctor::roster_logins(&text),
        None => Err(doctor::RosterError::Absent {
            base: global.base.clone(),
            new: format!("gitnomic new --forge {}", actions.name()),
        }),
    };
    let mut accounts = Vec::new();
    for (_, login) in roster.as_deref().unwrap_or_default() {
        accounts.push((login.clone(), forge.account_exists(login)?));
    }
    Ok(ForgejoObservations {
        base: global.base.clone(),
        repo,
        actions,
        workflows: forge
            .read_file(&format!("{}resolve.yml", actions.folder()))?
            .is_some(),
        pages_branch: forge.has_branch("pages")?,
        labels,
        roster,
        accounts,
    })
}

/// A label created, or why the forge would not.
type Created = Result<Result<(), String>, crate::forge::ForgeError>;

/// Each label the game uses: present, created now, or still missing.
fn settle_labels(
    existing: &[String],
    dry_run: bool,
    create: impl Fn(&LabelSpec) -> Created,
) -> anyhow::Result<Vec<LabelOutcome>> {
    let missing = doctor::missing_labels(existing);
    let mut out = Vec::new();
    for label in doctor::labels() {
        if !missing.contains(&label) {
            out.push(LabelOutcome::Present(label.name));
        } else if dry_run {
            out.push(LabelOutcome::Missing(label, None));
        } else {
            out.push(match create(&label)? {
                Ok(()) => LabelOutcome::Created(label),
                Err(why) => LabelOutcome::Missing(label, Some(why)),
            });
        }
    }
    Ok(out)
}
