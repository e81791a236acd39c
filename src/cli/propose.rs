//! `gitnomic play propose`: the work tree's uncommitted changes to the
//! game, turned into a branch of their own and opened as a matter, so a
//! player who does not use git can propose by editing files. The base
//! branch's work tree is clean again after; the player's files are on the
//! new branch, and nothing is lost on any failure: the branch is made
//! before the matter is opened and the work tree restored last.

use anyhow::{Context as _, bail};

use super::GlobalArgs;
use crate::forge::Kind;
use crate::forge::local::{LocalForge, NewMatter};
use crate::git::{Repo, Stamp, configured_identity};

/// The directories whose changes a matter proposes.
const PROPOSED: &[&str] = &["rules", "state", "content"];

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
pub(crate) fn run(args: &Args, forge: &LocalForge, global: &GlobalArgs) -> anyhow::Result<()> {
    if args.title.trim().is_empty() {
        bail!("give the proposal a title: --title \"What it does\"");
    }
    if !crate::setup::new_game::valid_login(&args.author) {
        bail!(
            "`{}` is not a forge login: give yours with --as (letters, digits and single hyphens)",
            args.author
        );
    }
    let repo = Repo::open(&global.root)?;
    let base = &global.base;
    let kind = match args.kind {
        ProposeKind::Proposal => Kind::Proposal,
        ProposeKind::Action => Kind::Action,
    };
    let branch = match &args.branch {
        Some(b) if !crate::game::valid_branch(b) => {
            bail!("`{b}` cannot be a branch name: use letters, digits, `-`, `_`, `.` and `/`")
        }
        Some(b) if repo.branch_head(b)?.is_some() => {
            bail!("the branch {b} exists already: name another with --branch")
        }
        Some(b) => b.clone(),
        None => free_branch(
            &repo,
            &format!("{}/{}", kind_word(kind), words(&args.title)),
        )?,
    };
    let (name, email) = configured_identity()
        .unwrap_or_else(|| (args.author.clone(), format!("{}@localhost", args.author)));
    let stamp = Stamp {
        name: &name,
        email: &email,
        at: global.now(),
    };
    let message = format!("{}\n\n{}", args.title.trim(), args.body.trim());
    let moved = repo
        .commit_changes_to_branch(base, &branch, PROPOSED, message.trim_end(), &stamp)?
        .with_context(|| {
            format!(
                "nothing to propose: the work tree has no changes under {} against {base}; \
                 edit a rule or the gamestate first",
                PROPOSED.join("/, ") + "/"
            )
        })?;
    let new = NewMatter {
        kind: Some(kind),
        title: args.title.trim(),
        body: &args.body,
        author: &args.author,
        branch: Some(&branch),
    };
    let number = match forge.open_matter(&new) {
        Ok(number) => number,
        Err(e) => {
            // Nothing opened: the branch goes, the work tree stays as it was.
            let _ = repo.delete_branch(&branch);
            return Err(anyhow::Error::new(e)
                .context("could not open the matter; your changes are still in the work tree"));
        }
    };
    repo.restore_paths(&moved.paths).with_context(|| {
        format!(
            "opened #{number}, but could not restore the work tree: your changes are \
             safe on branch {branch}"
        )
    })?;
    say!(
        "opened {kind} #{number}: {} from branch {branch} ({}: {})",
        args.title.trim(),
        crate::matter::status::plural(
            i64::try_from(moved.paths.len()).unwrap_or(i64::MAX),
            "file",
            "files"
        ),
        moved.paths.join(", ")
    );
    say!("the work tree is back to {base}; your changes are on {branch}");
    Ok(())
}

fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Action => "action",
        _ => "proposal",
    }
}

/// A title as a branch name's words: `More springs!` → `more-springs`.
fn words(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "change".into()
    } else {
        out.into()
    }
}

/// `stem`, or `stem-2`, `stem-3`… : the first that is not a branch yet.
fn free_branch(repo: &Repo, stem: &str) -> anyhow::Result<String> {
    for n in 1.. {
        let name = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        if repo.branch_head(&name)?.is_none() {
            return Ok(name);
        }
    }
    unreachable!("some branch name is free")
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn a_title_becomes_a_branch_name() {
        assert_eq!(words("More springs!"), "more-springs");
        assert_eq!(words("  Slower   victory (v2) "), "slower-victory-v2");
        assert_eq!(words("¡¿"), "change");
    }
}
