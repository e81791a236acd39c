//! The engine's input model: everything a tally needs, and nothing it
//! must fetch. The forge (or a scenario file) builds a [`Snapshot`]; the
//! engine never sees a pull request, a JSON row or a file.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::params::Params;
use crate::time::Timestamp;

/// A player's identity inside the engine: their name on the roster.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct PlayerName(pub String);

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for PlayerName {
    fn from(s: &str) -> Self {
        PlayerName(s.to_owned())
    }
}

/// A spell of idleness: from `from` (inclusive; `None` = always) until
/// `until` (exclusive; `None` = still idle).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleSpell {
    /// When the player went idle.
    pub from: Option<Timestamp>,
    /// When the player came back.
    pub until: Option<Timestamp>,
}

impl IdleSpell {
    /// Whether the spell covers `t`.
    pub fn covers(&self, t: Timestamp) -> bool {
        self.from.is_none_or(|f| f <= t) && self.until.is_none_or(|u| t < u)
    }

    /// Whether the spell overlaps the half-open interval `[a, b)`.
    pub fn overlaps(&self, a: Timestamp, b: Timestamp) -> bool {
        self.from.is_none_or(|f| f < b) && self.until.is_none_or(|u| a < u)
    }
}

/// One player on the roster with their idle history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The player's name.
    pub name: PlayerName,
    /// Every spell of idleness, in any order.
    pub idle: Vec<IdleSpell>,
}

impl Player {
    /// Whether the player is active (not idle) at `t`.
    pub fn active_at(&self, t: Timestamp) -> bool {
        !self.idle.iter().any(|s| s.covers(t))
    }
}

/// Where the dynasty stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phase {
    /// Normal play.
    #[default]
    Playing,
    /// A DoV was enacted and its Ascension Address is not posted yet.
    AwaitingAscension,
}

/// The Declaration of Victory whose enactment made the game await an
/// Ascension Address: its number, and when it was enacted. A DoV opened
/// by that moment (the same second included, as a run then saw it) was a
/// valid DoV, pending when it was enacted, and fails by that enactment;
/// one opened after it is no valid DoV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crowned {
    /// The enacted DoV.
    pub dov: super::MatterNumber,
    /// When it was enacted.
    pub at: Timestamp,
}

/// The kinds of votable matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatterKind {
    /// A proposal to change the rules or gamestate.
    Proposal,
    /// A Call for Judgement.
    Cfj,
    /// A Declaration of Victory.
    Dov,
}

impl MatterKind {
    /// The word used in files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            MatterKind::Proposal => "proposal",
            MatterKind::Cfj => "cfj",
            MatterKind::Dov => "dov",
        }
    }
}

/// A comment or review body on a matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Breaks ties between comments made in the same second.
    pub order: u64,
    /// Who wrote it.
    pub by: PlayerName,
    /// When it was posted.
    pub at: Timestamp,
    /// The Markdown text.
    pub body: String,
}

/// A pending votable matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matter {
    /// The pull request number; breaks ties of `opened`.
    pub id: super::MatterNumber,
    /// What kind of matter it is.
    pub kind: MatterKind,
    /// Who posted it.
    pub author: PlayerName,
    /// When it was opened for voting.
    pub opened: Timestamp,
    /// Its comments, in any order.
    pub comments: Vec<Comment>,
}

/// Everything one resolve run looks at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The ruleset's parameters.
    pub params: Params,
    /// The roster, idle history included.
    pub players: Vec<Player>,
    /// The emperor-role (the Wizard), if there is one.
    pub emperor: Option<PlayerName>,
    /// Where the dynasty stands.
    pub phase: Phase,
    /// While an Ascension Address is awaited: the DoV enacted, if known
    /// (a scenario file does not say; the game's records do).
    pub crowned: Option<Crowned>,
    /// The pending matters.
    pub matters: Vec<Matter>,
}

impl Snapshot {
    /// The roster entry of `name`.
    pub fn player(&self, name: &PlayerName) -> Option<&Player> {
        self.players.iter().find(|p| &p.name == name)
    }

    /// Whether `name` is on the roster and active at `t`.
    pub fn active_at(&self, name: &PlayerName, t: Timestamp) -> bool {
        self.player(name).is_some_and(|p| p.active_at(t))
    }

    /// The players active at `t`.
    pub fn active_players(&self, t: Timestamp) -> Vec<&PlayerName> {
        self.players
            .iter()
            .filter(|p| p.active_at(t))
            .map(|p| &p.name)
            .collect()
    }

    /// Whether `name` is the emperor.
    pub fn is_emperor(&self, name: &PlayerName) -> bool {
        self.emperor.as_ref() == Some(name)
    }
}
