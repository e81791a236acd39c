//! The effects a resolve run carries out, one forge write each.
//!
//! Every effect is stated so that carrying it out twice is the same as
//! carrying it out once (a label set, a status put, a merge at a head, a
//! record written once), which is what lets a run killed after any effect
//! be finished by the next run replaying the same plan.

use std::fmt;

use crate::matter::{HeadSha, MatterNumber};
use crate::record::Record;
use crate::time::Timestamp;

/// How the resolver's own commits begin: merges of what it decided or
/// merged unvoted, values set by actions, records, dice logs, dynasty
/// edits. `gitnomic audit` allows these to change what an enactment made.
const RESOLVER_MESSAGES: &[&str] = &[
    "Enact ",
    "Action #",
    "Ascension Address #",
    "Record #",
    "Rolls on #",
    "Dynasty ",
    "DoV #",
];

/// Whether a commit message is one of the resolver's own.
pub(crate) fn by_the_resolver(message: &str) -> bool {
    RESOLVER_MESSAGES.iter().any(|m| message.starts_with(m))
}

/// The file that holds the dynasty.
pub(crate) const GAME_FILE: &str = "state/game.toml";

/// A value written to the `[dynasty]` table of state/game.toml.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DynastyValue {
    /// A string (the emperor's name, the phase).
    Text(String),
    /// A number (the dynasty's).
    Number(i64),
    /// A moment (when the dynasty started).
    Time(Timestamp),
}

impl fmt::Display for DynastyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynastyValue::Text(s) => write!(f, "\"{s}\""),
            DynastyValue::Number(n) => write!(f, "{n}"),
            DynastyValue::Time(t) => write!(f, "{t}"),
        }
    }
}

/// One write to the forge.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// Post the matter's status comment, or edit it in place.
    Status {
        /// The whole body, journal included.
        body: String,
    },
    /// Add and remove labels.
    Labels {
        /// Labels to add.
        add: Vec<&'static str>,
        /// Labels to remove.
        remove: Vec<&'static str>,
    },
    /// Merge the pull request if its head is still `head`.
    Merge {
        /// The head the votes were counted on.
        head: HeadSha,
        /// The merge commit's message: its first line names the matter as
        /// `#N:` after its kind (see [`merges_matter`]).
        message: String,
    },
    /// Close the matter without merging.
    Close,
    /// Set keys of the `[dynasty]` table of state/game.toml in one commit.
    Dynasty {
        /// The keys and their new values.
        edits: Vec<(&'static str, DynastyValue)>,
        message: String,
    },
    /// Commit the matter's record under content/matters/ (once: a record
    /// is never rewritten). The merge commit is filled in when the run
    /// carries it out, from the merge just made.
    Record(Box<Record>),
    /// Set values in state/variables.toml, in one commit (see
    /// [`crate::gamestate::variables::apply_sets`]: a value already set is left).
    State {
        sets: Vec<crate::gamestate::set_value::SetValue>,
        message: String,
    },
    /// Write a file under content/ (the matter's dice log) as `text`,
    /// committed only if it is absent or reads otherwise.
    Content {
        path: String,
        text: String,
        message: String,
    },
}

/// Whether a merge commit's message `message` is the one the resolver
/// gives matter `number`'s merge: its first line names `#N:` at its first
/// `#` ("Enact cfj #4: ...", "Action #4: ..."). Two matters may share a
/// head, so the head alone does not say whose merge brought it in.
pub(crate) fn merges_matter(message: &str, number: MatterNumber) -> bool {
    let first = message.lines().next().unwrap_or_default();
    first
        .split_once('#')
        .and_then(|(_, rest)| rest.split_once(':'))
        .is_some_and(|(digits, _)| digits == number.0.to_string())
}

impl Effect {
    /// Whether carrying it out moves the default branch (a merge or a
    /// commit), so what was checked against the branch before is stale.
    pub(crate) fn moves_base(&self) -> bool {
        match self {
            Effect::Merge { .. }
            | Effect::Dynasty { .. }
            | Effect::Record(_)
            | Effect::State { .. }
            | Effect::Content { .. } => true,
            Effect::Status { .. } | Effect::Labels { .. } | Effect::Close => false,
        }
    }
}

/// An effect on one matter.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Step {
    /// The matter it is about.
    pub number: MatterNumber,
    /// What to do.
    pub effect: Effect,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.number;
        match &self.effect {
            Effect::Status { body } => {
                let headline = body
                    .lines()
                    .find(|l| l.starts_with("### "))
                    .map_or("", |l| l.trim_start_matches("### "));
                write!(f, "#{n} status: {headline}")
            }
            Effect::Labels { add, remove } => {
                let mut parts: Vec<String> = add.iter().map(|l| format!("+{l}")).collect();
                parts.extend(remove.iter().map(|l| format!("-{l}")));
                write!(f, "#{n} labels: {}", parts.join(" "))
            }
            Effect::Merge { head, .. } => write!(f, "#{n} merge at {head}"),
            Effect::Close => write!(f, "#{n} close"),
            Effect::Dynasty { edits, .. } => {
                let parts: Vec<String> = edits.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                write!(f, "#{n} commit {GAME_FILE}: {}", parts.join(", "))
            }
            Effect::Record(record) => write!(f, "#{n} commit {}", record.path()),
            Effect::Content { path, .. } => write!(f, "#{n} commit {path}"),
            Effect::State { sets, .. } => {
                let parts: Vec<String> = sets
                    .iter()
                    .map(crate::gamestate::set_value::SetValue::describe)
                    .collect();
                write!(
                    f,
                    "#{n} commit {}: {}",
                    crate::gamestate::set_value::files_of(sets).join(" and "),
                    parts.join(", ")
                )
            }
        }
    }
}
