//! The one bridge from a forge to the engine: open matters and their
//! comments in, an engine [`Snapshot`] out, with what the engine must not
//! see (the bot's own comments, votes voided by a push) set aside and
//! explained.
//!
//! Votes are bound to the head they were cast on. The bot notes every new
//! head in its status journal when it first sees it; a push that is more
//! than a typo fix (see `ruleset::diff::typo_fix_size`) voids the comments
//! made before it.

use std::collections::BTreeMap;

use super::{Forge, ForgeComment, ForgeError, HeadSha, Kind, Login, MatterInfo};
use crate::engine::{self, MatterKind, PlayerName, Snapshot};
use crate::gamestate::{GameState, Phase};
use crate::journal::{Journal, SeenHead};
use crate::matter::Collected;
use crate::time::Timestamp;

/// Everything one resolve run works from.
#[derive(Debug, Clone)]
pub struct Collection {
    /// The engine's input.
    pub snapshot: Snapshot,
    /// Votable matters (proposals, CfJs, DoVs), by number.
    pub matters: BTreeMap<u64, Collected>,
    /// Open pull requests merged without a vote when they check: actions
    /// and Ascension Addresses.
    pub actions: Vec<MatterInfo>,
}

/// Says whether a push from one head to another is a typo fix, and how
/// large: `Some(chars)` if it is, `None` if it is a change of substance.
pub type TypoJudge<'a> = dyn Fn(&HeadSha, &HeadSha) -> Option<usize> + 'a;

/// Collects the open matters of `forge` for a tally at `now`.
pub fn collect(
    forge: &dyn Forge,
    state: &GameState,
    params: &engine::Params,
    judge: &TypoJudge<'_>,
    now: Timestamp,
) -> Result<Collection, ForgeError> {
    let mut matters = BTreeMap::new();
    let mut actions = Vec::new();
    let mut engine_matters = Vec::new();
    for info in forge.open_matters()? {
        if info.draft {
            continue;
        }
        let Some(kind) = info.kind() else { continue };
        let Some(engine_kind) = engine_kind(kind) else {
            actions.push(info);
            continue;
        };
        // One read of the thread: the bot's status comment and the rest.
        let (status, comments): (Vec<ForgeComment>, Vec<ForgeComment>) = forge
            .comments(info.number)?
            .into_iter()
            .partition(|c| forge.is_status(c));
        let status = status.into_iter().next();
        let mut journal = status
            .as_ref()
            .map(|s| Journal::read(&s.body))
            .unwrap_or_default();
        if let Some(head) = &info.head {
            note_head(&mut journal, head, params, judge, now);
        }
        let voids_before = journal.heads.iter().rev().find(|h| h.voids).map(|h| h.at);
        let comments: Vec<ForgeComment> = comments
            .into_iter()
            .map(|c| as_first_seen(&mut journal, c, params))
            .collect();
        let (kept, voided): (Vec<ForgeComment>, Vec<ForgeComment>) = comments
            .into_iter()
            .partition(|c| voids_before.is_none_or(|at| c.created >= at));
        engine_matters.push(engine_matter(state, &info, engine_kind, &kept));
        let comments = kept
            .into_iter()
            .chain(voided.iter().cloned())
            .map(|c| (c.id, c))
            .collect();
        let status_body = status.map(|s| s.body);
        matters.insert(
            info.number,
            Collected {
                info,
                kind,
                journal,
                status_body,
                comments,
                voided,
            },
        );
    }
    Ok(Collection {
        snapshot: snapshot(state, params, engine_matters),
        matters,
        actions,
    })
}

/// A matter's comments in one read: the bot's status comment, and the rest.
pub fn thread(
    forge: &dyn Forge,
    number: u64,
) -> Result<(Option<ForgeComment>, Vec<ForgeComment>), ForgeError> {
    let (status, rest): (Vec<ForgeComment>, Vec<ForgeComment>) = forge
        .comments(number)?
        .into_iter()
        .partition(|c| forge.is_status(c));
    Ok((status.into_iter().next(), rest))
}

/// Notes the voting words of a comment seen for the first time; a comment
/// edited since then is read as it was first seen (its body replaced by
/// the words it carried then), so editing a vote after the fact changes
/// nothing. Rule "Votable Matters" says so.
fn as_first_seen(
    journal: &mut Journal,
    mut comment: ForgeComment,
    params: &engine::Params,
) -> ForgeComment {
    let words = |body: &str| -> String {
        let ballot = engine::ballot::read(body, params);
        let word = |vote: engine::ballot::Vote| {
            let list = match vote {
                engine::ballot::Vote::For => &params.words_for,
                engine::ballot::Vote::Against => &params.words_against,
                engine::ballot::Vote::Deferential => &params.words_deferential,
                engine::ballot::Vote::Veto => &params.words_veto,
            };
            list.first()
                .cloned()
                .unwrap_or_else(|| vote.as_str().to_string())
        };
        ballot
            .words
            .into_iter()
            .map(word)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match journal.first_seen.get(&comment.id) {
        Some(first) if comment.edited.is_some() && *first != words(&comment.body) => {
            comment.body = format!(
                "{first}\n\n(edited after the resolver first saw it; the first version counts)"
            );
        }
        Some(_) => {}
        None => {
            journal.first_seen.insert(comment.id, words(&comment.body));
        }
    }
    comment
}

/// Notes a head not seen before; a push that is more than a typo fix voids
/// the votes before it.
fn note_head(
    journal: &mut Journal,
    head: &HeadSha,
    params: &engine::Params,
    judge: &TypoJudge<'_>,
    now: Timestamp,
) {
    let previous = journal.heads.last().map(|h| h.sha.clone());
    if previous.as_ref() == Some(head) {
        return;
    }
    let limit = usize::try_from(params.typo_fix_max_chars).unwrap_or(0);
    let voids = previous.is_some_and(|old| judge(&old, head).is_none_or(|size| size > limit));
    journal.heads.push(SeenHead {
        sha: head.clone(),
        at: now,
        voids,
    });
}

/// The player a login acts as, or `@login` for someone not on the roster.
pub fn player_name(state: &GameState, login: &Login) -> PlayerName {
    match state.player_by_login(&login.0) {
        Some(p) => PlayerName(p.name.clone()),
        None => PlayerName(format!("@{}", login.0)),
    }
}

/// The engine's view of a matter and the comments to count on it.
pub fn engine_matter(
    state: &GameState,
    info: &MatterInfo,
    kind: MatterKind,
    comments: &[ForgeComment],
) -> engine::Matter {
    engine::Matter {
        id: info.number,
        kind,
        author: player_name(state, &info.author),
        opened: info.opened,
        comments: comments
            .iter()
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

/// The engine's view of the roster and the dynasty.
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
                idle: p
                    .idle
                    .iter()
                    .map(|i| engine::IdleSpell {
                        from: Some(i.from),
                        until: i.until,
                    })
                    .collect(),
            })
            .collect(),
        emperor: state.dynasty.emperor.as_deref().map(PlayerName::from),
        // A hiatus is derived by the engine from the pending DoVs.
        phase: match state.dynasty.phase {
            Phase::AwaitingAscension => engine::Phase::AwaitingAscension,
            Phase::Playing | Phase::Hiatus => engine::Phase::Playing,
        },
        matters,
    }
}
