//! Why an action on the gamestate (a `SET`, `ADD` or `REMOVE` by comment,
//! or a change an action pull request makes) is not carried out: one
//! type for variables and collections alike, so a caller can tell a
//! permission from a bad value or an unknown name by its variant. The
//! text is what the player reads in the matter's status.

use super::schema::{Illegal, VarType};

/// Why an action on the gamestate is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The schema declares no such variable.
    #[error("there is no variable `{name}` (players have: {players}; globals: {globals})")]
    UnknownVariable {
        /// The name given.
        name: String,
        /// The player variables there are, comma-separated.
        players: String,
        /// The globals there are, comma-separated.
        globals: String,
    },
    /// The name is no player on the roster.
    #[error("`{name}` is not a {player} on the roster")]
    NotOnRoster {
        /// The name given.
        name: String,
        /// What the game calls a player.
        player: String,
    },
    /// A player variable is its owner's to change (`by = "own"`).
    #[error("{actor} may change only their own `{name}`, not {owner}'s")]
    NotTheirs {
        /// Who acted.
        actor: String,
        /// The variable.
        name: String,
        /// Whose it is.
        owner: String,
    },
    /// The item belongs to someone else (`by = "own"`).
    #[error("{actor} may act only on their own items of `{collection}`")]
    NotTheirItem {
        /// Who acted.
        actor: String,
        /// The collection.
        collection: String,
    },
    /// Only an admin may change this (`by = "admin"`); its name as written
    /// (`globals.round`, `gadgets`).
    #[error("only an admin may change `{0}`")]
    AdminOnly(String),
    /// The player acted on is idle.
    #[error("{player} is idle, and idle {players} are not acted on")]
    Idle {
        /// The idle player.
        player: String,
        /// What the game calls players.
        players: String,
    },
    /// A player an item names is idle.
    #[error("{0} is idle, and idle players' items are not acted on")]
    IdleOwner(String),
    /// The command's dice have no logged roll.
    #[error("its dice could not be rolled")]
    NotRolled,
    /// A whole number would pass a bound declared illegal.
    #[error("illegal: {0}")]
    Illegal(Illegal),
    /// Only whole numbers can be added to.
    #[error("`{name}` is a {ty}: only whole numbers can be added to")]
    NotANumber {
        /// The variable or field.
        name: String,
        /// Its type.
        ty: VarType,
    },
    /// The value does not fit the declaration.
    #[error("`{name}` cannot be {value}: {problem}")]
    BadValue {
        /// The variable or field.
        name: String,
        /// The value, as TOML writes it.
        value: String,
        /// What the declaration says against it.
        problem: String,
    },
    /// `ADD` of an item to a variable.
    #[error(
        "`{0}` is not a collection: ADD to it a whole number or dice, such as `ADD {0} 2` or `ADD {0} DICE6`"
    )]
    NotACollection(String),
    /// A variable's command on a collection.
    #[error(
        "`{0}` is a collection: `ADD {0} ID field=value …` adds an item, `REMOVE {0} ID` removes one, `SET {0}.ID.FIELD value` changes one"
    )]
    IsACollection(String),
    /// The schema declares no such collection.
    #[error("there is no collection `{name}`{}", listed("collections", known))]
    UnknownCollection {
        /// The name given.
        name: String,
        /// The collections there are, comma-separated, when said.
        known: Option<String>,
    },
    /// The collection declares no such field.
    #[error("`{collection}` has no field `{field}`{}", listed("fields", known))]
    UnknownField {
        /// The collection.
        collection: String,
        /// The field given.
        field: String,
        /// The fields there are, comma-separated, when said.
        known: Option<String>,
    },
    /// The collection has an item of that id already.
    #[error("`{collection}` already has an item `{id}`")]
    ItemExists {
        /// The collection.
        collection: String,
        /// The id.
        id: String,
    },
    /// The collection has no item of that id.
    #[error("`{collection}` has no item `{id}`")]
    NoItem {
        /// The collection.
        collection: String,
        /// The id.
        id: String,
    },
    /// A field's value written as dice or an item.
    #[error("a field's value is a number, true, false or text")]
    NotAFieldValue,
    /// A command or change that names neither a variable nor a
    /// collection's item as this side expects (a caller's mistake).
    #[error("not a {0}")]
    Misdirected(&'static str),
}

/// By hand, not `#[from]`: the message already prints the bound, and a
/// source would print it a second time under `{:#}`.
impl From<Illegal> for Refusal {
    fn from(illegal: Illegal) -> Refusal {
        Refusal::Illegal(illegal)
    }
}

/// ` (collections: a, b)`, or nothing when the list is not given.
fn listed(what: &str, known: &Option<String>) -> String {
    known
        .as_ref()
        .map(|k| format!(" ({what}: {k})"))
        .unwrap_or_default()
}
