//! The gamestate: players, the dynasty, game variables and collections,
//! read from `state/`. Pure.
//!
//! [`parse`](mod@parse) reads and validates the files together (a value can only be
//! checked against its declaration and the roster), [`schema`] holds the
//! variable declarations and the clamp-or-illegal arithmetic, and [`edit`]
//! writes changes back without disturbing anything else in a file.

pub mod collections;
pub mod commands;
pub mod dice;
pub mod edit;
pub mod parse;
pub mod refusal;
pub mod schema;
pub mod set_value;
pub mod variables;

/// The bundled game's gamestate, every file of it, for unit tests.
#[cfg(test)]
pub(crate) fn bundled_for_tests() -> GameState {
    use crate::source::SourceFile;
    let files = [
        SourceFile::new("state/game.toml", include_str!("../../state/game.toml")),
        SourceFile::new("state/roster.toml", include_str!("../../state/roster.toml")),
        SourceFile::new("state/schema.toml", include_str!("../../state/schema.toml")),
        SourceFile::new(
            "state/variables.toml",
            include_str!("../../state/variables.toml"),
        ),
        SourceFile::new(
            set_value::COLLECTIONS_FILE,
            include_str!("../../state/collections.toml"),
        ),
    ];
    parse(&files, &|_| true)
        .0
        .expect("the bundled gamestate parses")
}

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use parse::parse;
pub use schema::{Schema, VarDecl, VarType};

use crate::time::Timestamp;

/// The words the rules use for players and the emperor-role. Rule text
/// refers to them as `{{ player }}` and so on; an Ascension Address that
/// renames them edits only `state/game.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Terms {
    /// One player: `Tinkerer`.
    pub player: String,
    /// Several players: `Tinkerers`.
    pub players: String,
    /// The head of the dynasty: `Clockmaker`.
    pub emperor: String,
    /// Plural of the emperor term.
    pub emperors: String,
}

impl Terms {
    /// The terms as template variables.
    pub fn as_map(&self) -> BTreeMap<String, String> {
        [
            ("player", &self.player),
            ("players", &self.players),
            ("emperor", &self.emperor),
            ("emperors", &self.emperors),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
    }
}

/// What the game is doing, as far as proposals are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// Normal play.
    #[default]
    Playing,
    /// A Declaration of Victory is pending: proposals are frozen.
    Hiatus,
    /// A DoV was enacted; the new emperor's Ascension Address is awaited.
    AwaitingAscension,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Playing => "playing",
            Phase::Hiatus => "hiatus",
            Phase::AwaitingAscension => "awaiting-ascension",
        })
    }
}

/// The current dynasty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dynasty {
    /// 1 for the first dynasty of the game.
    pub number: u32,
    /// The player heading it; `None` in a metadynasty.
    pub emperor: Option<String>,
    /// Playing, hiatus or awaiting an ascension.
    pub phase: Phase,
    /// When it began.
    pub started: Option<Timestamp>,
}

/// A stretch of time a player was idle; `until` is `None` while it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct IdlePeriod {
    /// When the player went idle.
    pub from: Timestamp,
    /// When they came back, if they have.
    pub until: Option<Timestamp>,
}

/// A player on the roster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The name the rules and the tracker use.
    pub name: String,
    /// The forge account that acts as this player.
    pub login: String,
    /// Whether they are an admin.
    pub admin: bool,
    /// When they joined.
    pub joined: Option<Timestamp>,
    /// Their idle history, oldest first.
    pub idle: Vec<IdlePeriod>,
}

impl Player {
    /// Whether the player is idle at `t` (periods include `from`, exclude `until`).
    pub fn is_idle_at(&self, t: Timestamp) -> bool {
        self.idle
            .iter()
            .any(|p| p.from <= t && p.until.is_none_or(|u| t < u))
    }

    /// Whether the player is active at `t`: joined by then, and not idle.
    pub fn is_active_at(&self, t: Timestamp) -> bool {
        self.joined.is_none_or(|j| j <= t) && !self.is_idle_at(t)
    }
}

/// One item of a named collection.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Its id, unique in the collection.
    pub id: String,
    /// Its fields (defaults filled in).
    pub fields: BTreeMap<String, toml::Value>,
}

/// The whole gamestate.
#[derive(Debug, Clone, PartialEq)]
pub struct GameState {
    /// The game's name.
    pub name: String,
    /// The game's public dice seed (`[game] seed`): one of the inputs every
    /// roll is drawn from (see [`dice`]). A game without one cannot roll.
    pub seed: Option<String>,
    /// Where the game is played (`[game] repo`): `OWNER/NAME` on GitHub,
    /// or a repository's whole web address on another forge. The site
    /// links to it to vote and propose.
    pub repo: Option<String>,
    /// The player and emperor terms.
    pub terms: Terms,
    /// The current dynasty.
    pub dynasty: Dynasty,
    /// Players in roster order.
    pub players: Vec<Player>,
    /// Declarations of variables and collections.
    pub schema: Schema,
    /// Global variables (defaults filled in).
    pub globals: BTreeMap<String, toml::Value>,
    /// Per-player variables by player name (defaults filled in).
    pub values: BTreeMap<String, BTreeMap<String, toml::Value>>,
    /// Collections by name.
    pub collections: BTreeMap<String, Vec<Item>>,
}

impl GameState {
    /// The player with this name.
    pub fn player(&self, name: &str) -> Option<&Player> {
        self.players.iter().find(|p| p.name == name)
    }

    /// The player acting through this forge login.
    pub fn player_by_login(&self, login: &str) -> Option<&Player> {
        self.players
            .iter()
            .find(|p| p.login.eq_ignore_ascii_case(login))
    }
}
