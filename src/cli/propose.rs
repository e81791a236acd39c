//! `gitnomic play propose`: the work tree's uncommitted changes to the
//! game, turned into a branch of their own and opened as a matter, so a
//! player who does not use git can propose by editing files. The base
//! branch's work tree is clean again after; the player's files are on the
//! new branch, and nothing is lost on any failure: the branch is made
//! before the matter is opened and the work tree restored last.

use anyhow::{Context as _, bail};

use super::GlobalArgs;
use crate::forge::Kind;
use crate::forge::local::{LocalError, LocalForge, NewMatter};
use crate::git::{Repo, Stamp, configured_identity};
use crate::matter::MatterNumber;

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

/// Where a proposal being made is written down before anything a player
/// sees changes: in the git directory, beside the run lock.
const JOURNAL: &str = "gitnomic-propose.toml";

/// A proposal part-way made: what a run killed after writing it left, and
/// what the next `play propose` finishes before anything else.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Journal {
    /// The branch it goes on.
    branch: String,
    /// The commit holding the player's changes.
    commit: String,
    /// The paths the commit changes, to restore in the work tree.
    paths: Vec<String>,
    /// The matter's kind: `Proposal` or `Action`.
    action: bool,
    /// Its title.
    title: String,
    /// Its description.
    body: String,
    /// Its author.
    author: String,
}

/// Runs `play propose`: prints the matter opened.
///
/// It holds the run lock, as `resolve` does, so a killed one's leftovers
/// (git's lock files) are cleared by the next run of either. It writes
/// down what it is about to do (the branch, its commit, the matter) before
/// it makes the branch; a run killed after that is finished by the next
/// `play propose`, which opens the same matter from the same branch
/// instead of a second one. Killed before it, nothing was changed.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<()> {
    if args.title.trim().is_empty() {
        bail!("give the proposal a title: --title \"What it does\"");
    }
    if !crate::setup::new_game::valid_login(&args.author) {
        bail!(
            "`{}` is not a forge login: give yours with --as (letters, digits and single hyphens)",
            args.author
        );
    }
    // Before any handle reads an object: libgit2 reads the setting then.
    crate::git::make_durable(&global.root)?;
    let repo = Repo::open(&global.root)?;
    let taken = crate::resolve::guard::take(repo.git_dir())?;
    if let Some((pid, files)) = &taken.cleared {
        say!("A gitnomic run (process {pid}) was killed here; removed what it left:");
        for file in files {
            say!("  {}", file.display());
        }
    }
    let forge = LocalForge::open(&global.root, &global.base, global.now())?;
    let journal_path = repo.git_dir().join(JOURNAL);
    // What a killed run began is finished, and nothing more is done: what
    // is left in the work tree (a file edited again since) is for the
    // player to propose, or not, with the next `play propose`.
    if let Some(journal) = read_journal(&journal_path)? {
        let number = finish(&repo, &forge, &journal, &journal_path, true)?;
        say!(
            "finished what a killed `play propose` began: #{number} from branch {}",
            journal.branch
        );
        return Ok(());
    }
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
    // The title is the commit's subject: one line, whatever was typed.
    let subject = crate::text::one_line(&args.title, crate::bounds::SUBJECT_CHARS);
    let message = format!("{subject}\n\n{}", args.body.trim());
    let Some(moved) = repo.commit_changes(base, PROPOSED, message.trim_end(), &stamp)? else {
        bail!(
            "nothing to propose: the work tree has no changes under {} against {base}; \
             edit a rule or the gamestate first",
            PROPOSED.join("/, ") + "/"
        );
    };
    let journal = Journal {
        branch,
        commit: moved.commit.clone(),
        paths: moved.paths.clone(),
        action: matches!(kind, Kind::Action),
        title: args.title.trim().to_string(),
        body: args.body.clone(),
        author: args.author.clone(),
    };
    let text = toml::to_string(&journal).context("writing down the proposal")?;
    let tmp = repo.git_dir().join("gitnomic-tmp");
    std::fs::create_dir_all(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    crate::staging::write_durably(&tmp.join(JOURNAL), &journal_path, text.as_bytes())
        .with_context(|| format!("writing {}", journal_path.display()))?;
    let number = finish(&repo, &forge, &journal, &journal_path, false)?;
    say!(
        "opened {kind} #{number}: {subject} from branch {} ({}: {})",
        journal.branch,
        crate::matter::status::plural(
            i64::try_from(moved.paths.len()).unwrap_or(i64::MAX),
            "file",
            "files"
        ),
        moved.paths.join(", ")
    );
    say!(
        "the work tree is back to {base}; your changes are on {}",
        journal.branch
    );
    drop(taken);
    Ok(())
}

fn read_journal(path: &std::path::Path) -> anyhow::Result<Option<Journal>> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map(Some).with_context(|| {
            format!(
                "{} is damaged: it is what a killed `play propose` left; remove it, and \
                 check the work tree and the branches",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Carries out `journal` from wherever a run left it: the branch made at
/// its commit, the matter opened from it (once), the work tree restored,
/// and the journal removed. When the forge refuses the matter, all is
/// undone: no branch, no journal, the changes still in the work tree.
fn finish(
    repo: &Repo,
    forge: &LocalForge,
    journal: &Journal,
    path: &std::path::Path,
    resumed: bool,
) -> anyhow::Result<MatterNumber> {
    let branch = &journal.branch;
    match repo.branch_head(branch)? {
        None => repo.create_branch(branch, &journal.commit)?,
        Some(at) if at == journal.commit => {}
        Some(at) => bail!(
            "branch {branch} is at {at}, not at {} as {} says: remove that file, and \
             check the branch and the work tree",
            journal.commit,
            path.display()
        ),
    }
    let new = NewMatter {
        kind: Some(if journal.action {
            Kind::Action
        } else {
            Kind::Proposal
        }),
        title: &journal.title,
        body: &journal.body,
        author: &journal.author,
        branch: Some(branch),
    };
    let number = match forge.open_matter(&new) {
        Ok(number) => number,
        // Opened by the run that was killed.
        Err(LocalError::BranchTaken { open, .. }) if resumed => open,
        Err(e) => {
            // Nothing opened: the branch goes, the work tree stays as it was.
            let _ = repo.delete_branch(branch);
            let _ = std::fs::remove_file(path);
            return Err(anyhow::Error::new(e)
                .context("could not open the matter; your changes are still in the work tree"));
        }
    };
    let left = repo
        .restore_paths(&journal.paths, &journal.commit)
        .with_context(|| {
            format!(
                "opened #{number}, but could not restore the work tree: your changes are \
                 safe on branch {branch}; run `gitnomic play propose` again to finish"
            )
        })?;
    for file in &left {
        say!(
            "{file} changed since it was proposed: left as it is (propose it, or put it back, yourself)"
        );
    }
    std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
    crate::staging::sync_dir_of(path).with_context(|| format!("removing {}", path.display()))?;
    Ok(number)
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
