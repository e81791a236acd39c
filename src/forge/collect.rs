//! The one bridge from a forge to the engine: a matter and its comments
//! in, a [`Collected`] matter out (see `Collected::engine_matter`), with
//! what the engine must not see (the bot's own comments, votes voided by a
//! push) set aside and explained.
//!
//! Votes are bound to the head they were cast on. The bot notes every new
//! head in its status journal when it first sees it; a push that is more
//! than a typo fix (see `ruleset::diff::typo_fix_size`) voids the comments
//! made before it.

use super::{Forge, ForgeComment, ForgeError, HeadSha, MatterInfo};
use crate::collected::Collected;
use crate::engine;
use crate::journal::{Journal, SeenHead};
use crate::time::Timestamp;

/// Says whether a push from one head to another is a typo fix, and how
/// large: `Some(chars)` if it is, `None` if it is a change of substance.
pub type TypoJudge<'a> = dyn Fn(&HeadSha, &HeadSha) -> Option<usize> + 'a;

/// Collects one votable matter: its thread read once, the status journal
/// brought up to date (a new head noted, comments first seen), and the
/// comments a push voided set aside.
pub fn collect_one(
    forge: &dyn Forge,
    info: MatterInfo,
    params: &engine::Params,
    judge: &TypoJudge<'_>,
    now: Timestamp,
) -> Result<Collected, ForgeError> {
    let kind = info.kind().ok_or(ForgeError::NotFound(info.number))?;
    let (status, comments) = thread(forge, info.number)?;
    let mut journal = status
        .as_ref()
        .map(|s| Journal::read(&s.body))
        .unwrap_or_default();
    // A matter already decided is not bound to heads pushed since.
    if let (Some(head), None) = (&info.head, &journal.resolution) {
        note_head(&mut journal, head, params, judge, now);
    }
    let voids_before = journal.heads.iter().rev().find(|h| h.voids).map(|h| h.at);
    let comments: Vec<ForgeComment> = comments
        .into_iter()
        .map(|c| as_first_seen(&mut journal, c, params))
        .collect();
    let voided: Vec<ForgeComment> = comments
        .iter()
        .filter(|c| voids_before.is_some_and(|at| c.created < at))
        .cloned()
        .collect();
    Ok(Collected {
        info,
        kind,
        journal,
        status_body: status.map(|s| s.body),
        comments: comments.into_iter().map(|c| (c.id, c)).collect(),
        voided,
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
