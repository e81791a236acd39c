//! EDGE: `play propose`'s transaction: the work tree's uncommitted changes
//! to the game, turned into a branch of their own and opened as a matter
//! on the local forge, so a player who does not use git can propose by
//! editing files. The base branch's work tree is clean again after; the
//! player's files are on the new branch, and nothing is lost on any
//! failure: the branch is made before the matter is opened and the work
//! tree restored last. `cli` parses the arguments and prints what this
//! reports.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::forge::Kind;
use crate::forge::local::{LocalError, LocalForge, NewMatter};
use crate::game::GAME_DIRS;
use crate::git::{Repo, Signature, configured_identity};
use crate::matter::MatterNumber;
use crate::time::Timestamp;

/// What a player asks to propose.
#[derive(Debug, Clone)]
pub(crate) struct Proposal<'a> {
    /// The forge login proposing.
    pub author: &'a str,
    /// Its title.
    pub title: &'a str,
    /// Its description.
    pub body: &'a str,
    /// A proposal or an action.
    pub kind: Kind,
    /// The new branch's name, if the player chose one.
    pub branch: Option<&'a str>,
}

/// What `propose` reports as it goes (the CLI prints these).
#[derive(Debug)]
pub(crate) enum ProposeNotice<'a> {
    /// A killed run's process, and the files it left, removed first.
    Cleared {
        /// The killed run's process id.
        pid: u32,
        /// The files removed.
        files: &'a [PathBuf],
    },
    /// A file changed since it was proposed, left as it is in the work tree.
    LeftAsIs(&'a str),
}

/// How `propose` ended.
#[derive(Debug)]
pub(crate) enum Proposed {
    /// What a killed run began was finished, and nothing more done.
    Finished {
        /// The matter opened.
        number: MatterNumber,
        /// Its branch.
        branch: String,
    },
    /// The matter was opened from a new branch.
    Opened {
        /// The matter opened.
        number: MatterNumber,
        /// Its kind.
        kind: Kind,
        /// Its title as the commit's subject.
        subject: String,
        /// Its branch.
        branch: String,
        /// The paths it changes.
        paths: Vec<String>,
    },
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

/// Proposes the work tree's changes under `root` against branch `base`,
/// at `now`.
///
/// It holds the run lock, as `resolve` does, so a killed one's leftovers
/// (git's lock files) are cleared by the next run of either. It writes
/// down what it is about to do (the branch, its commit, the matter) before
/// it makes the branch; a run killed after that is finished by the next
/// `play propose`, which opens the same matter from the same branch
/// instead of a second one. Killed before it, nothing was changed.
pub(crate) fn propose(
    root: &Path,
    base: &str,
    now: Timestamp,
    asked: &Proposal<'_>,
    report: &mut dyn FnMut(ProposeNotice<'_>),
) -> anyhow::Result<Proposed> {
    if asked.title.trim().is_empty() {
        bail!("give the proposal a title: --title \"What it does\"");
    }
    if !crate::setup::new_game::valid_login(asked.author) {
        bail!(
            "`{}` is not a forge login: give yours with --as (letters, digits and single hyphens)",
            asked.author
        );
    }
    // Before any handle reads an object: libgit2 reads the setting then.
    crate::git::make_durable(root)?;
    let repo = Repo::open(root)?;
    let taken = super::guard::take(repo.git_dir())?;
    if let Some((pid, files)) = &taken.cleared {
        report(ProposeNotice::Cleared { pid: *pid, files });
    }
    let forge = LocalForge::open(root, base, now)?;
    let journal_path = repo.git_dir().join(JOURNAL);
    // What a killed run began is finished, and nothing more is done: what
    // is left in the work tree (a file edited again since) is for the
    // player to propose, or not, with the next `play propose`.
    if let Some(journal) = read_journal(&journal_path)? {
        let number = finish(&repo, &forge, &journal, &journal_path, true, report)?;
        return Ok(Proposed::Finished {
            number,
            branch: journal.branch,
        });
    }
    let kind = asked.kind;
    let branch = match asked.branch {
        Some(b) if !crate::game::valid_branch(b) => {
            bail!("`{b}` cannot be a branch name: use letters, digits, `-`, `_`, `.` and `/`")
        }
        Some(b) if repo.branch_head(b)?.is_some() => {
            bail!("the branch {b} exists already: name another with --branch")
        }
        Some(b) => b.to_string(),
        None => free_branch(
            &repo,
            &format!("{}/{}", kind_word(kind), words(asked.title)),
        )?,
    };
    let (name, email) = configured_identity().unwrap_or_else(|| {
        (
            asked.author.to_string(),
            format!("{}@localhost", asked.author),
        )
    });
    let signature = Signature {
        name: &name,
        email: &email,
        at: now,
    };
    // The title is the commit's subject: one line, whatever was typed.
    let subject = crate::text::one_line(asked.title, crate::bounds::SUBJECT_CHARS);
    let message = format!("{subject}\n\n{}", asked.body.trim());
    let Some(moved) = repo.commit_changes(base, GAME_DIRS, message.trim_end(), &signature)? else {
        bail!(
            "nothing to propose: the work tree has no changes under {} against {base}; \
             edit a rule or the gamestate first",
            GAME_DIRS.join("/, ") + "/"
        );
    };
    let journal = Journal {
        branch,
        commit: moved.commit.clone(),
        paths: moved.paths.clone(),
        action: matches!(kind, Kind::Action),
        title: asked.title.trim().to_string(),
        body: asked.body.to_string(),
        author: asked.author.to_string(),
    };
    let text = toml::to_string(&journal).context("writing down the proposal")?;
    let tmp = repo.git_dir().join(crate::git::TMP_DIR);
    std::fs::create_dir_all(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    crate::staging::write_durably(&tmp.join(JOURNAL), &journal_path, text.as_bytes())
        .with_context(|| format!("writing {}", journal_path.display()))?;
    let number = finish(&repo, &forge, &journal, &journal_path, false, report)?;
    drop(taken);
    Ok(Proposed::Opened {
        number,
        kind,
        subject,
        branch: journal.branch,
        paths: moved.paths,
    })
}

fn read_journal(path: &Path) -> anyhow::Result<Option<Journal>> {
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
    path: &Path,
    resumed: bool,
    report: &mut dyn FnMut(ProposeNotice<'_>),
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
        report(ProposeNotice::LeftAsIs(file));
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
