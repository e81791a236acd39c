//! `gitnomic play propose`: the work tree's uncommitted changes to the
//! game proposed as a matter from a branch of their own (the transaction
//! is [`crate::resolve::propose`]'s); this parses and prints.

use super::GlobalArgs;
use crate::forge::Kind;
use crate::resolve::propose::{self, Proposal, ProposeNotice, Proposed};

/// Arguments of `play propose`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The forge login proposing.
    #[arg(long = "as", value_name = "LOGIN")]
    pub author: String,
    /// Its title.
    #[arg(long)]
    pub title: String,
    /// Its description.
    #[arg(long, default_value = "")]
    pub body: String,
    /// What kind of matter: a proposal, or an action (state/ only).
    #[arg(long, value_enum, default_value = "proposal")]
    pub kind: ProposeKind,
    /// The new branch's name [default: proposal/TITLE-IN-WORDS].
    #[arg(long)]
    pub branch: Option<String>,
}

/// The kinds of matter a branch of changes can be.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ProposeKind {
    /// A proposal, voted on.
    Proposal,
    /// An action: changes state/ only, merged when it checks.
    Action,
}

/// Runs `play propose`: prints the matter opened.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<()> {
    let asked = Proposal {
        author: &args.author,
        title: &args.title,
        body: &args.body,
        kind: match args.kind {
            ProposeKind::Proposal => Kind::Proposal,
            ProposeKind::Action => Kind::Action,
        },
        branch: args.branch.as_deref(),
    };
    let proposed = propose::propose(&global.root, &global.base, global.now(), &asked, &mut |e| {
        match e {
            ProposeNotice::Cleared { pid, files } => {
                say!("A gitnomic run (process {pid}) was killed here; removed what it left:");
                for file in files {
                    say!("  {}", file.display());
                }
            }
            ProposeNotice::LeftAsIs(file) => say!(
                "{file} changed since it was proposed: left as it is (propose it, or put it back, yourself)"
            ),
        }
    })?;
    match proposed {
        Proposed::Finished { number, branch } => {
            say!("finished what a killed `play propose` began: #{number} from branch {branch}");
        }
        Proposed::Opened {
            number,
            kind,
            subject,
            branch,
            paths,
        } => {
            say!(
                "opened {kind} #{number}: {subject} from branch {branch} ({}: {})",
                crate::matter::status::plural(
                    i64::try_from(paths.len()).unwrap_or(i64::MAX),
                    "file",
                    "files"
                ),
                paths.join(", ")
            );
            say!(
                "the work tree is back to {}; your changes are on {branch}",
                global.base
            );
        }
    }
    Ok(())
}
