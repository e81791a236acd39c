//! EDGE: the dice log checked against itself and against the history.
//! Every roll in `content/rolls/` is recomputed from its public inputs
//! ([`rolls::verify`]), and every roll the default branch's history
//! credits to a change (what `gitnomic log` shows) must be in the log with
//! that result ([`rolls::unlogged`]): a log deleted or a roll dropped from
//! it can no longer pass for "nothing was rolled". `roll verify` and
//! `audit` both check through here.

use crate::gamestate::set_value::{COLLECTIONS_FILE, VARIABLES_FILE};
use crate::git::{FileVersion, GitError, Repo};
use crate::record::changelog::{self, Version};
use crate::record::rolls::{self, Credited, RollLog};
use crate::source::SourceFile;
use crate::time::Timestamp;

/// What the dice log holds, and what is wrong with it.
#[derive(Debug, Default)]
pub(crate) struct DiceCheck {
    /// Logs read.
    pub(crate) logs: usize,
    /// Rolls they hold.
    pub(crate) rolls: usize,
    /// Each logged roll that does not verify (or a log misplaced), in words.
    pub(crate) mismatches: Vec<String>,
    /// Each roll the history credits that the log does not hold, in words.
    pub(crate) unlogged: Vec<String>,
    /// The logs as read.
    pub(crate) read: Vec<RollLog>,
}

impl DiceCheck {
    /// Every problem found.
    pub(crate) fn problems(&self) -> impl Iterator<Item = &String> {
        self.mismatches.iter().chain(&self.unlogged)
    }
}

/// Why the dice log could not be checked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DiceError {
    /// A log file is not a dice log.
    #[error("{path} cannot be read: {why}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why not.
        why: String,
    },
    /// The history of the state files could not be read.
    #[error("reading the history of {base}: {source}")]
    History {
        /// The branch.
        base: String,
        /// What git said.
        source: GitError,
    },
}

/// Checks the dice logs among `files` (the game's content, from `base`
/// or a work tree) against themselves and against the rolls the history
/// of `base` credits.
pub(crate) fn check_dice(
    repo: &Repo,
    base: &str,
    files: &[SourceFile],
) -> Result<DiceCheck, DiceError> {
    let mut found = DiceCheck::default();
    let mut logs = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.path.starts_with("content/rolls/"))
    {
        let log = RollLog::parse(&file.text).map_err(|why| DiceError::Unreadable {
            path: file.path.clone(),
            why: why.to_string(),
        })?;
        if file.path != rolls::path(log.matter) {
            found.mismatches.push(format!(
                "{}: the log of #{} belongs at {}",
                file.path,
                log.matter,
                rolls::path(log.matter)
            ));
        }
        found.rolls += log.rolls.len();
        found
            .mismatches
            .extend(rolls::verify(&log).iter().map(ToString::to_string));
        logs.push(log);
    }
    found.logs = logs.len();
    let history = |path: &str| {
        repo.file_history(base, path)
            .map_err(|source| DiceError::History {
                base: base.to_string(),
                source,
            })
    };
    let (variables, collections) = (history(VARIABLES_FILE)?, history(COLLECTIONS_FILE)?);
    let changes = changelog::merge(
        changelog::changes(&versions(&variables)),
        changelog::collection_changes(&versions(&collections)),
    );
    let credited: Vec<Credited<'_>> = changes
        .iter()
        .filter_map(|c| {
            Some(Credited {
                matter: c.matter?,
                comment: c.comment?,
                roll: c.roll.as_deref()?,
                from: format!("commit {}", c.commit),
            })
        })
        .collect();
    found.unlogged = rolls::unlogged(&logs, &credited);
    found.read = logs;
    Ok(found)
}

/// The versions of a state file, as the gamestate's log reads them.
pub(crate) fn versions(history: &[FileVersion]) -> Vec<Version<'_>> {
    history
        .iter()
        .map(|v| Version {
            commit: &v.commit,
            at: Timestamp::from_unix(v.time),
            message: &v.message,
            author: &v.author,
            text: v.text.as_deref().unwrap_or_default(),
        })
        .collect()
}
