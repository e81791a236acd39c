//! A matter as collected for a tally, and the engine's view of it. Pure.
//!
//! The forge adapters report matters ([`crate::matter`]); the bot's status
//! comment carries a journal ([`crate::matter::journal`]); this module joins the
//! two into a [`Collected`] matter and turns it, with the gamestate, into
//! the engine's [`Snapshot`]. It sits above both so neither depends on the
//! other.

use std::collections::BTreeMap;

use crate::engine::{self, MatterKind, PlayerName, Snapshot};
use crate::gamestate::{GameState, Phase};
use crate::matter::journal::Journal;
use crate::matter::{ForgeComment, Kind, Login, MatterInfo};
use crate::time::Timestamp;

/// Why a comment voided by a push does not count, in records and reports.
pub const VOIDED: &str = "cast on an earlier version, before a push that changed more than a typo";

/// A matter as collected for a tally: the forge's view, its journal, and
/// the comments a push voided.
#[derive(Debug, Clone)]
pub struct Collected {
    /// What the forge says.
    pub info: MatterInfo,
    /// Its kind.
    pub kind: Kind,
    /// The journal from the status comment, with any new head noted.
    pub journal: Journal,
    /// The status comment's body as it is on the forge, if there is one.
    pub status_body: Option<String>,
    /// Comments by id (voided ones included), for links and times in records.
    pub comments: BTreeMap<u64, ForgeComment>,
    /// Comments not given to the engine because a push voided them.
    pub voided: Vec<ForgeComment>,
    /// Comments the forge no longer has, counted as the bot first saw
    /// them (their ids, among `comments`).
    pub deleted: Vec<u64>,
    /// When its first comment other than the bot's was made (a dismissed
    /// review included), if it has one: after it, a pull request may no
    /// longer become a matter or change kind.
    pub first_comment: Option<Timestamp>,
}

impl Collected {
    /// What to say beside a vote that came from comment `id`, when it is
    /// not as it was cast: `deleted since; it counts as first seen`.
    pub fn changed_since(&self, id: u64) -> Option<&'static str> {
        if self.deleted.contains(&id) {
            Some("deleted since; it counts as first seen")
        } else if self.comments.get(&id).is_some_and(|c| c.edited.is_some()) {
            Some("edited since; it counts as first seen")
        } else {
            None
        }
    }

    /// The engine's view of this matter: the comments that count, each
    /// as it was first seen. `None` for what is merged without a vote.
    pub fn engine_matter(&self, state: &GameState) -> Option<engine::Matter> {
        let kind = engine_kind(self.kind)?;
        let voided = |id: u64| self.voided.iter().any(|c| c.id == id);
        let comments: Vec<&ForgeComment> =
            self.comments.values().filter(|c| !voided(c.id)).collect();
        Some(engine_matter(state, &self.info, kind, comments))
    }
}

/// The player a login acts as, or `@login` for someone not on the roster.
pub fn player_name(state: &GameState, login: &Login) -> PlayerName {
    match state.player_by_login(&login.0) {
        Some(p) => PlayerName(p.name.clone()),
        None => PlayerName(format!("@{}", login.0)),
    }
}

/// The engine's view of a matter and the comments to count on it.
pub fn engine_matter<'a>(
    state: &GameState,
    info: &MatterInfo,
    kind: MatterKind,
    comments: impl IntoIterator<Item = &'a ForgeComment>,
) -> engine::Matter {
    engine::Matter {
        id: info.number,
        kind,
        author: player_name(state, &info.author),
        opened: info.opened,
        comments: comments
            .into_iter()
            .map(|c| engine::Comment {
                order: c.id,
                by: player_name(state, &c.author),
                at: c.created,
                body: c.body.clone(),
            })
            .collect(),
    }
}

/// The engine's kind of a votable matter; `None` for what is merged
/// without a vote (actions, Ascension Addresses).
pub fn engine_kind(kind: Kind) -> Option<MatterKind> {
    match kind {
        Kind::Proposal => Some(MatterKind::Proposal),
        Kind::Cfj => Some(MatterKind::Cfj),
        Kind::Dov => Some(MatterKind::Dov),
        Kind::Action | Kind::Ascension => None,
    }
}

/// The engine's view of the roster and the dynasty, with `matters`.
pub fn snapshot(
    state: &GameState,
    params: &engine::Params,
    matters: Vec<engine::Matter>,
) -> Snapshot {
    Snapshot {
        params: params.clone(),
        players: state
            .players
            .iter()
            .map(|p| engine::Player {
                name: PlayerName(p.name.clone()),
                // Before they joined, a player is no player: to the engine,
                // idle, as `report::active_players` leaves them out.
                idle: p
                    .joined
                    .map(|joined| engine::IdleSpell {
                        from: None,
                        until: Some(joined),
                    })
                    .into_iter()
                    .chain(p.idle.iter().map(|i| engine::IdleSpell {
                        from: Some(i.from),
                        until: i.until,
                    }))
                    .collect(),
            })
            .collect(),
        emperor: state.dynasty.emperor.as_deref().map(PlayerName::from),
        // A hiatus is derived by the engine from the pending DoVs.
        phase: match state.dynasty.phase {
            Phase::AwaitingAscension => engine::Phase::AwaitingAscension,
            Phase::Playing | Phase::Hiatus => engine::Phase::Playing,
        },
        // Which DoV the game awaits the Address of is the records' to
        // say (see `admission::crowning`); the caller sets it.
        crowned: None,
        matters,
    }
}
