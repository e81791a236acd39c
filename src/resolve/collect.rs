//! The one bridge from a forge to the engine: a matter and its comments
//! in, a [`Collected`] matter out (see `Collected::engine_matter`), with
//! what the engine must not see (the bot's own comments, votes voided by a
//! push) set aside and explained.
//!
//! Votes are bound to the head they were cast on. The bot notes every new
//! head in its status journal, at the time the forge saw it pushed: from
//! `Forge::pushes` (the local forge), or from the forge's own event as the
//! push happens (GitHub's `synchronize`, see [`note_push`]); only a head
//! no one noted is noted when the bot first sees it, at the last change
//! the forge reports for the matter (no earlier than the push) if it can;
//! a push that takes the text more than a typo fix (see
//! `ruleset::diff::typo_fix_size`) away from the head the surviving votes
//! were cast on voids the comments made before it. Typo fixes add up: the
//! allowance is for all of them together, not for each push.

use std::collections::BTreeMap;

use crate::engine;
use crate::forge::{Forge, ForgeComment, ForgeError, HeadSha, MatterInfo, Push};
use crate::matter::collected::Collected;
use crate::matter::journal::{Journal, SeenHead};
use crate::matter::{Login, MatterNumber, ReviewState, Via};
use crate::time::Timestamp;

/// Says whether a push from one head to another is a typo fix, and how
/// large: `Some(chars)` if it is, `None` if it is a change of substance
/// (or a head that can no longer be read anywhere, which cannot be shown
/// to be a fix). An error is a forge that failed to answer: nothing is
/// noted then, so a judgement is never made on a failure.
pub(crate) type TypoJudge<'a> =
    dyn Fn(&HeadSha, &HeadSha) -> Result<Option<usize>, ForgeError> + 'a;

/// Says whether a login is on the game's roster: only their comments can
/// ever count, so only theirs are journaled.
pub(crate) type OnRoster<'a> = dyn Fn(&Login) -> bool + 'a;

/// Collects one votable matter: its thread read once, the status journal
/// brought up to date (a new head noted, comments by people on the roster
/// first seen, what no later run needs left out, see [`keep_needed`]), and
/// the comments a push voided set aside.
pub(crate) fn collect_one(
    forge: &dyn Forge,
    mut info: MatterInfo,
    (params, on_roster): (&engine::Params, &OnRoster<'_>),
    judge: &TypoJudge<'_>,
    now: Timestamp,
) -> Result<Collected, ForgeError> {
    let kind = info.kind().ok_or(ForgeError::NotFound(info.number))?;
    let (status, mut comments) = thread(forge, info.number)?;
    // Every comment the forge has, by author, made before `now` or not.
    let authors: BTreeMap<u64, Login> = comments.iter().map(|c| (c.id, c.author.clone())).collect();
    // A comment dated after the run's moment does not exist yet, for
    // votes, actions and rolls alike.
    comments.retain(|c| c.created <= now);
    let first_comment = comments.iter().map(|c| c.created).min();
    // Read after the thread, so the forge may keep them with it.
    let window = crate::matter::admission::kind_window(params);
    info.kind_changed = crate::matter::kind_changed(&info, &forge.kind_events(&info, window)?);
    let mut journal = status
        .as_ref()
        .map(|s| Journal::read(&s.body))
        .unwrap_or_default();
    // A matter already decided is not bound to heads pushed since.
    if let (Some(head), None) = (&info.head, &journal.resolution) {
        let heads = Heads {
            params,
            judge,
            first_comment,
        };
        for (sha, at) in unseen(&journal, forge.pushes(info.number)?) {
            heads.note(&mut journal, &sha, at)?;
        }
        // The head as it is now, if no one noted it: the forge reported no
        // push for it (its event was lost), or the journal is new. A head
        // noted before and not last is left alone: either the listing is
        // older than a push noted since, or a push back to it whose event
        // was lost; noting it now would misdate it.
        if !journal.heads.iter().any(|h| &h.sha == head) {
            let at = unnoted_push_time(&journal, &info, now);
            heads.note(&mut journal, head, at)?;
        }
    }
    let voids_before = journal.heads.iter().rev().find(|h| h.voids).map(|h| h.at);
    // A dismissed review is never a vote: set aside, yet known, so a vote
    // first seen in it is not counted as one deleted since.
    let (dismissed, comments): (Vec<ForgeComment>, Vec<ForgeComment>) =
        comments.into_iter().partition(|c| c.via == Via::Dismissed);
    let mut comments: Vec<ForgeComment> = comments
        .into_iter()
        .map(|c| by_review_state(c, params))
        .map(|c| match on_roster(&c.author) {
            true => as_first_seen(&mut journal, c, params, now),
            false => c,
        })
        .collect();
    keep_needed(&mut journal, &authors, on_roster);
    let known: Vec<u64> = comments.iter().chain(&dismissed).map(|c| c.id).collect();
    let deleted = first_seen_deleted(&journal, &known, now);
    let deleted_ids: Vec<u64> = deleted.iter().map(|c| c.id).collect();
    comments.extend(deleted);
    comments.sort_by_key(|c| (c.created, c.id));
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
        deleted: deleted_ids,
        first_comment,
    })
}

/// Leaves out of the journal the sightings no later run needs, so that it
/// grows with the players' comments, not with the thread: those of
/// comments by anyone not on the roster (such a comment never counts,
/// however it is edited; journals written before this rule held them),
/// and those of comments deleted since that carried no vote (what counts
/// of a deleted comment is the vote it carried). `authors` holds every
/// comment the forge has, by id.
fn keep_needed(journal: &mut Journal, authors: &BTreeMap<u64, Login>, on_roster: &OnRoster<'_>) {
    journal.voters.retain(|_, v| on_roster(&v.by));
    let voters = &journal.voters;
    journal.first_seen.retain(|id, _| match authors.get(id) {
        Some(author) => on_roster(author),
        None => voters.contains_key(id),
    });
}

/// The comments the bot first saw carrying voting words that the forge no
/// longer has (`known` holds the ids it has: deleted), as first seen: a
/// deleted vote still counts, as an edited one counts as it was first seen
/// (rule "Votable Matters"). A dismissed review is known, so it is not
/// among them.
fn first_seen_deleted(journal: &Journal, known: &[u64], now: Timestamp) -> Vec<ForgeComment> {
    journal
        .voters
        .iter()
        .filter(|(id, v)| v.at <= now && !known.contains(id))
        .filter_map(|(id, v)| {
            let words = journal.first_seen.get(id)?;
            Some(ForgeComment {
                id: *id,
                author: v.by.clone(),
                created: v.at,
                edited: None,
                body: format!(
                    "{words}\n\n(deleted after the resolver first saw it; the first version counts)"
                ),
                link: None,
                via: Via::Comment,
            })
        })
        .collect()
}

/// When a head no one noted was pushed, as near as the forge says: when
/// it last saw the matter change (a push changes it, and so do later
/// comments, so this is an upper bound), if that is no later than now and
/// no earlier than the last head noted; else now.
fn unnoted_push_time(journal: &Journal, info: &MatterInfo, now: Timestamp) -> Timestamp {
    let settled = journal.heads.last().map(|h| h.at);
    info.updated
        .filter(|u| *u <= now && settled.is_none_or(|s| s <= *u))
        .unwrap_or(now)
}

/// Notes `push` in the journal of matter `number` and writes the status
/// comment, judged as a resolve run judges a new head (typo fixes add up
/// from the head the votes were cast on, whatever pushes came between).
/// Returns whether the journal changed: an event for a head already noted,
/// one older than the last head noted (a re-run of an old workflow), or
/// one for a matter already decided changes nothing. A journal that holds
/// no head yet first notes `before`, at the matter's opening (the best the
/// bot knows), so the push is judged against it.
///
/// The status is written only if no other run wrote it since this one
/// read it (a resolve run deciding the matter, another push's check):
/// else the thread is read again and the push noted on what is there now,
/// a few times at most.
pub(crate) fn note_push(
    forge: &dyn Forge,
    info: &MatterInfo,
    push: &Push,
    params: &engine::Params,
    judge: &TypoJudge<'_>,
) -> Result<bool, ForgeError> {
    const TRIES: usize = 3;
    for _ in 0..TRIES {
        if let Some(noted) = note_push_once(forge, info, push, params, judge)? {
            return Ok(noted);
        }
        tracing::info!(
            "#{}: the status changed while this run noted a push; reading it again",
            info.number
        );
    }
    Err(ForgeError::Other(format!(
        "#{}: the status comment changed under this run {TRIES} times; the push is noted by \
         the next run",
        info.number
    )))
}

/// One try of [`note_push`]: whether the journal changed, `None` when
/// the status changed since it was read (nothing written).
fn note_push_once(
    forge: &dyn Forge,
    info: &MatterInfo,
    push: &Push,
    params: &engine::Params,
    judge: &TypoJudge<'_>,
) -> Result<Option<bool>, ForgeError> {
    let (status, comments) = thread(forge, info.number)?;
    let mut journal = status
        .as_ref()
        .map(|s| Journal::read(&s.body))
        .unwrap_or_default();
    if journal.resolution.is_some() || (journal.heads.is_empty() && push.before.is_none()) {
        // Decided; or a pull request just opened: its first head voids
        // nothing, and is noted by the first tally or the first push.
        return Ok(Some(false));
    }
    let heads_before = journal.heads.clone();
    redate(&mut journal, push);
    if unseen(&journal, vec![(push.after.clone(), push.at)]).is_empty() {
        return Ok(Some(false));
    }
    let heads = Heads {
        params,
        judge,
        first_comment: comments.iter().map(|c| c.created).min(),
    };
    if let (true, Some(before)) = (journal.heads.is_empty(), &push.before) {
        heads.note(&mut journal, before, info.opened.min(push.at))?;
    }
    heads.note(&mut journal, &push.after, push.at)?;
    if journal.heads == heads_before {
        return Ok(Some(false));
    }
    let text = match &status {
        Some(s) => crate::matter::journal::text_of(&s.body).to_string(),
        None => "Waiting for the resolver's first tally.".to_string(),
    };
    let read = status.as_ref().map(|s| s.body.as_str());
    let written = put_status_over(forge, info.number, read, &journal.render(&text))?;
    Ok(written.then_some(true))
}

/// A head a resolve run noted when it first saw it, later than GitHub saw
/// it pushed (the run came before the push's own event was handled), is
/// taken back so it is noted again at GitHub's time: the forge's time is
/// the push's, the run's only an upper bound.
fn redate(journal: &mut Journal, push: &Push) {
    let n = journal.heads.len();
    let late = journal
        .heads
        .last()
        .is_some_and(|h| h.sha == push.after && h.at > push.at);
    let after_previous = n < 2 || journal.heads[n - 2].at <= push.at;
    if late && after_previous {
        journal.heads.pop();
    }
}

/// Writes matter `number`'s status comment only if its journal is still
/// as this run read it (`read`: the status's body then, `None`: there was
/// none), so a run that planned from an older journal never overwrites
/// what another run noted since (a resolve run's decision, a push a check
/// noted): a compare-and-swap over the forge's two status calls, not a
/// call of its own. The text above the journal is only a view of it,
/// written anew by every run, and is not compared. Returns whether it
/// wrote; when it did not, the thread is read afresh from then on, for the
/// caller to plan again.
pub(crate) fn put_status_over(
    forge: &dyn Forge,
    number: MatterNumber,
    read: Option<&str>,
    body: &str,
) -> Result<bool, ForgeError> {
    let now = forge.status_now(number)?;
    if now.map(|c| Journal::read(&c.body)) != read.map(Journal::read) {
        forge.read_thread_afresh(number);
        return Ok(false);
    }
    forge.put_status(number, body)?;
    Ok(true)
}

/// A matter's comments in one read: the bot's status comment, and the rest.
pub(crate) fn thread(
    forge: &dyn Forge,
    number: MatterNumber,
) -> Result<(Option<ForgeComment>, Vec<ForgeComment>), ForgeError> {
    let (status, rest): (Vec<ForgeComment>, Vec<ForgeComment>) = forge
        .comments(number)?
        .into_iter()
        .partition(|c| forge.is_status(c));
    Ok((status.into_iter().next(), rest))
}

/// A review whose body has no voting word votes by its state, where the
/// ruleset says so (`review_states_vote`): its body is read as the first
/// FOR word for an approval, the first AGAINST word for a request for
/// changes. The status still says it came from a review, and which.
fn by_review_state(mut comment: ForgeComment, params: &engine::Params) -> ForgeComment {
    let Via::Review(state) = comment.via else {
        return comment;
    };
    if !params.review_states_vote || !engine::ballot::read(&comment.body, params).words.is_empty() {
        return comment;
    }
    let word = match state {
        ReviewState::Approved => params.words_for.first(),
        ReviewState::ChangesRequested => params.words_against.first(),
        ReviewState::Commented => None,
    };
    if let Some(word) = word {
        comment.body.clone_from(word);
    }
    comment
}

/// Notes the voting words of a comment seen for the first time; a comment
/// edited since then is read as it was first seen (its body replaced by
/// the words it carried then), so editing a vote after the fact changes
/// nothing. Rule "Votable Matters" says so. GitHub gives a review no edit
/// time, so a review whose words changed is marked edited at `now`, when
/// the change was seen: the tally then says it was edited since.
fn as_first_seen(
    journal: &mut Journal,
    mut comment: ForgeComment,
    params: &engine::Params,
    now: Timestamp,
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
    // GitHub gives a review no edit time: its words changing is the edit.
    let edited = comment.edited.is_some() || matches!(comment.via, Via::Review(_));
    let seen = journal
        .first_seen
        .get(&comment.id)
        .cloned()
        .unwrap_or_else(|| words(&comment.body));
    if !seen.is_empty() {
        journal
            .voters
            .entry(comment.id)
            .or_insert_with(|| crate::matter::journal::Voter {
                by: comment.author.clone(),
                at: comment.created,
            });
    }
    match journal.first_seen.get(&comment.id) {
        Some(first) if edited && *first != words(&comment.body) => {
            comment.edited.get_or_insert(now);
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

/// The pushes the journal has not yet noted: those the forge saw at or
/// after the last head the journal holds. The journal's history up to its
/// last head is settled; a push the forge dates before it was noted then.
fn unseen(journal: &Journal, pushes: Vec<(HeadSha, Timestamp)>) -> Vec<(HeadSha, Timestamp)> {
    let settled = journal.heads.last().map(|h| h.at);
    let noted =
        |sha: &HeadSha, at: Timestamp| journal.heads.iter().any(|h| &h.sha == sha && h.at == at);
    pushes
        .into_iter()
        .filter(|(sha, at)| settled.is_none_or(|s| *at >= s) && !noted(sha, *at))
        .collect()
}

/// What it takes to judge a new head.
struct Heads<'a, 'j> {
    params: &'a engine::Params,
    judge: &'a TypoJudge<'j>,
    /// When the first comment (other than the bot's) was made, if any.
    first_comment: Option<Timestamp>,
}

impl Heads<'_, '_> {
    /// Notes `head`, seen pushed at `at`, unless it is the last head noted.
    /// It voids the votes before it unless it is a typo fix of the head
    /// those votes were cast on: the last head that voided, or else the
    /// first. A push before anyone commented voids nothing, and starts the
    /// count of typo fixes afresh, as if the matter had been opened with it.
    fn note(&self, journal: &mut Journal, head: &HeadSha, at: Timestamp) -> Result<(), ForgeError> {
        if journal.heads.last().is_some_and(|h| &h.sha == head) {
            return Ok(());
        }
        let voted_on = journal
            .heads
            .iter()
            .rev()
            .find(|h| h.voids)
            .or(journal.heads.first())
            .map(|h| h.sha.clone());
        let unvoted = self.first_comment.is_none_or(|first| at <= first);
        let limit = usize::try_from(self.params.typo_fix_max_chars).unwrap_or(0);
        let voids = match voted_on {
            None => false,
            Some(_) if unvoted => true,
            Some(old) => (self.judge)(&old, head)?.is_none_or(|size| size > limit),
        };
        journal.heads.push(SeenHead {
            sha: head.clone(),
            at,
            voids,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(s: &str) -> HeadSha {
        HeadSha(s.to_string())
    }

    fn at(hour: i64) -> Timestamp {
        Timestamp::from_unix(1_900_000_000 + hour * 3600)
    }

    /// Sizes of typo fixes between heads a, b, c: each push alone is one,
    /// a to c is not (6 + 9 characters > 12).
    fn judge(old: &HeadSha, new: &HeadSha) -> Result<Option<usize>, ForgeError> {
        Ok(match (old.0.as_str(), new.0.as_str()) {
            (x, y) if x == y => Some(0),
            ("a", "b") => Some(6),
            ("b", "c") => Some(9),
            ("a", "c") => Some(15),
            _ => None,
        })
    }

    fn noted(first_comment: Option<i64>, pushes: &[(&str, i64)]) -> Vec<bool> {
        let mut params = engine::Params::preset("blognomic-113").unwrap();
        params.typo_fix_max_chars = 12;
        let heads = Heads {
            params: &params,
            judge: &judge,
            first_comment: first_comment.map(at),
        };
        let mut journal = Journal::default();
        for (s, hour) in pushes {
            heads.note(&mut journal, &sha(s), at(*hour)).unwrap();
        }
        journal.heads.iter().map(|h| h.voids).collect()
    }

    #[test]
    fn pushes_already_in_the_journal_are_not_noted_again() {
        let mut journal = Journal::default();
        for (s, voids) in [("a", false), ("b", true)] {
            journal.heads.push(SeenHead {
                sha: sha(s),
                at: at(1),
                voids,
            });
        }
        let pushes = vec![(sha("a"), at(1)), (sha("b"), at(1)), (sha("a"), at(2))];
        assert_eq!(unseen(&journal, pushes), [(sha("a"), at(2))]);
    }

    #[test]
    fn typo_fixes_add_up_from_the_head_that_was_voted_on() {
        assert_eq!(
            noted(Some(1), &[("a", 0), ("b", 2), ("c", 3)]),
            [false, false, true]
        );
        assert_eq!(
            noted(Some(1), &[("a", 0), ("b", 2)]),
            [false, false],
            "one fix alone is within the allowance"
        );
    }

    #[test]
    fn a_push_before_any_comment_starts_the_count_afresh() {
        assert_eq!(
            noted(Some(3), &[("a", 0), ("b", 2), ("c", 4)]),
            [false, true, false],
            "c is judged against b, which no one had commented on before"
        );
        assert_eq!(noted(None, &[("a", 0), ("a", 1)]), [false], "no move");
    }

    fn push(after: &str, hour: i64) -> Push {
        Push {
            before: None,
            after: sha(after),
            at: at(hour),
        }
    }

    #[test]
    fn a_head_a_run_noted_late_is_dated_again_at_the_forges_time() {
        let mut journal = Journal::default();
        for (s, hour) in [("a", 0), ("b", 5)] {
            journal.heads.push(SeenHead {
                sha: sha(s),
                at: at(hour),
                voids: false,
            });
        }
        let mut early = journal.clone();
        redate(&mut early, &push("b", 2));
        assert_eq!(early.heads.len(), 1, "b is taken back, to be noted at 2");
        let mut later = journal.clone();
        redate(&mut later, &push("b", 6));
        assert_eq!(later, journal, "the run's time was not later");
        let mut before_a = journal.clone();
        redate(&mut before_a, &push("b", -1));
        assert_eq!(before_a, journal, "never before the head it followed");
        let mut other = journal.clone();
        redate(&mut other, &push("c", 2));
        assert_eq!(other, journal, "only the last head is dated again");
    }

    #[test]
    fn only_pushes_since_the_last_noted_head_are_unseen() {
        let mut journal = Journal::default();
        journal.heads.push(SeenHead {
            sha: sha("b"),
            at: at(5),
            voids: false,
        });
        let pushes = vec![(sha("a"), at(1)), (sha("b"), at(2)), (sha("c"), at(6))];
        assert_eq!(unseen(&journal, pushes), [(sha("c"), at(6))]);
    }
}
