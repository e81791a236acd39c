//! The game over time, as the site shows it: every distinct ruleset, the
//! numeric variables at every change to `state/`, and every change to a
//! variable or a collection's item. Pure data: [`crate::load::timeline`]
//! reads it from git.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::record::changelog::Change;
use crate::ruleset::Ruleset;
use crate::time::Timestamp;

/// The game's history as read from git, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    /// Every distinct ruleset, one per change to `rules/`.
    pub revisions: Vec<Revision>,
    /// The numeric variables at every change to `state/`.
    pub samples: Vec<Sample>,
    /// Every change to a variable or a collection's item, oldest first
    /// (see [`crate::record::changelog`]).
    pub changes: Vec<Change>,
}

/// One revision of the ruleset: "Ruleset N".
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    /// 1 for the first.
    pub number: usize,
    /// The commit that made it.
    pub commit: String,
    /// When it was committed.
    pub time: Timestamp,
    /// The commit's first line.
    pub summary: String,
    /// The ruleset it made, rendered with the terms of its time. Shared:
    /// several commits can make the same ruleset.
    pub ruleset: Arc<Ruleset>,
    /// Its [`Ruleset::content_digest`], made once when the revision is
    /// made (and kept with it): a build knows a revision's pages
    /// unchanged by it.
    pub(crate) digest: u64,
}

impl Revision {
    /// Revision `number`, made by `commit` at `time` (its first line
    /// `summary`), of `ruleset`.
    pub fn new(
        number: usize,
        commit: String,
        time: Timestamp,
        summary: String,
        ruleset: Ruleset,
    ) -> Self {
        Revision {
            number,
            commit,
            time,
            summary,
            digest: ruleset.content_digest(),
            ruleset: Arc::new(ruleset),
        }
    }
}

/// The numeric variables at one point of the history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sample {
    /// When the commit was made.
    pub time: Timestamp,
    /// Integer globals by name.
    pub globals: BTreeMap<String, i64>,
    /// Integer player variables: variable → player → value.
    pub players: BTreeMap<String, BTreeMap<String, i64>>,
}
