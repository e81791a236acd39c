//! Whether each matter may stand, judged before anything is counted, and
//! closing what may not. The judgement is [`crate::matter::admission::judge`],
//! the one `check` gives: the plan asks it of every matter it finds, so a
//! matter no check run ever saw is closed all the same.
//!
//! A matter that may not stand is closed by the same announce-then-act
//! protocol as a decision: its status says why (the reason in the
//! journal), `resolving`, close, its record (outcome `not-a-matter`, for a
//! votable matter), the final status, and last `not-a-matter` without
//! `resolving`. `check --close` carries out the first three; the next run
//! finishes it like any other.

use std::collections::BTreeMap;

use super::dovs::Dovs;
use super::effect::Effect;
use super::ground::Ground;
use super::written::{Says, Written};
use super::{Fate, PlanError, Ruling};
use crate::game::Game;
use crate::matter::admission::{self, Facts, Ledger, Posting};
use crate::matter::collected::{Collected, engine_kind, player_name};
use crate::matter::journal::{Journal, Resolution};
use crate::matter::labels::{HELD, NOT_A_MATTER, RESOLVING, carries};
use crate::matter::{Kind, MatterNumber};
use crate::record::{Outcome, Record};

/// Who closes matters, in records.
const CLOSED_BY: &str = "gitnomic resolve";

/// Why each matter that may not stand may not, by number: words for the
/// players, kept in its journal and its record.
pub(super) type Standing = BTreeMap<MatterNumber, String>;

/// Why each matter of `matters` that no run has begun to resolve may not
/// stand, by number: judged against `game` (the default branch as the run
/// found it, with the records the run is finishing) with every matter of
/// `matters` as the other open ones, each judged on the paths it changes,
/// so one that is no matter counts towards nothing. `branch` is the
/// default branch, the one every matter asks to be merged into.
pub(super) fn judge(
    ground: &mut Ground,
    branch: &str,
    game: &Game,
    matters: &[&Collected],
) -> Result<Standing, PlanError> {
    let mut changed: BTreeMap<MatterNumber, (Vec<String>, Vec<String>)> = BTreeMap::new();
    for m in matters {
        if let Some(head) = m.info.head.as_ref().filter(|h| ground.trial.has(h)) {
            let n = m.info.number;
            let found =
                (ground.trial.changes(head)).map_err(|why| PlanError::repository(n, why))?;
            changed.insert(n, (found.paths, found.unfit));
        }
    }
    let postings: Vec<Posting<'_>> = matters
        .iter()
        .map(|m| {
            let (paths, unfit) = changed
                .get(&m.info.number)
                .map(|(p, u)| (p, u.as_slice()))
                .unzip();
            Posting::of(&m.info)
                .changing(paths)
                .unfit(unfit.unwrap_or_default())
                .commented(m.first_comment)
        })
        .collect();
    let ledger = Ledger::new(game, branch, &postings);
    let mut out = BTreeMap::new();
    for (m, posting) in matters.iter().zip(&postings) {
        // A head this checkout never fetched cannot be judged on its
        // files: left to the count, which holds it rather than act on
        // a guess if it comes to be enacted.
        let unfetched = m.info.head.is_some() && posting.changed.is_none();
        if m.journal.resolution.is_some() || unfetched {
            continue;
        }
        let facts = Facts {
            posting: *posting,
            description: &m.info.body,
            head: None,
            fork: None,
        };
        if let Some(why) = admission::judge(&ledger, &facts).not_a_matter() {
            out.insert(m.info.number, why);
        }
    }
    Ok(out)
}

/// Closes each of `matters` that `standing` says may not stand.
pub(super) fn close_all(
    ground: &mut Ground,
    dovs: &mut Dovs,
    matters: &[&Collected],
    standing: &Standing,
) -> Result<Written, PlanError> {
    let mut out = Written::default();
    for m in matters {
        if let Some(why) = standing.get(&m.info.number) {
            close(ground, dovs, &mut out, m, why)?;
        }
    }
    Ok(out)
}

/// Closes `m`, which may not stand as the matter it claims to be: `why`
/// says why.
pub(super) fn close(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    m: &Collected,
    why: &str,
) -> Result<(), PlanError> {
    let resolution = not_a_matter(ground.now, m.info.head.clone(), why);
    close_steps(ground, out, m, resolution)?;
    if m.kind == Kind::Dov {
        dovs.never_pending(m.info.number);
    }
    Ok(())
}

/// The effects that close a matter that may not stand, as `resolution`
/// says, in an order a later run can finish after any of them.
pub(super) fn close_steps(
    ground: &Ground,
    out: &mut Written,
    m: &Collected,
    resolution: Resolution,
) -> Result<(), PlanError> {
    let n = m.info.number;
    let why = resolution.reasons.join("; ");
    let at = resolution.at;
    // The head as it was decided on: a pull request closed since may
    // no longer report one.
    let head = resolution.head.clone();
    let mut journal = m.journal.clone();
    journal.resolution = Some(resolution);
    let says = |done| Says::Text(closing_text(m.kind, n, &why, done));
    out.status(n, journal.clone(), says(false));
    out.resolving(n);
    out.step(n, Effect::Close);
    if let Some(record) = closed_record(ground, m, &why, at, head)? {
        out.step(n, Effect::Record(Box::new(record)));
    }
    out.status(n, journal, says(true));
    let held = carries(&m.info.labels, HELD).then_some(HELD);
    let closed = Effect::Labels {
        add: vec![NOT_A_MATTER],
        remove: [held, Some(RESOLVING)].into_iter().flatten().collect(),
    };
    out.step(n, closed);
    out.line(&m.info, m.kind, Ruling::NotAMatter, Fate::Closed(why));
    Ok(())
}

/// The record of a votable matter closed as no matter; none for what
/// needs no vote (an action, an Ascension Address), which has no records.
fn closed_record(
    ground: &Ground,
    m: &Collected,
    why: &str,
    at: crate::time::Timestamp,
    head: Option<crate::matter::HeadSha>,
) -> Result<Option<Record>, PlanError> {
    let Some(kind) = engine_kind(m.kind) else {
        return Ok(None);
    };
    let state = ground.state()?;
    let name = |login: &str| player_name(state, &crate::matter::Login(login.into())).0;
    let discussion = crate::matter::discussion::of(m, None, &name);
    Ok(Some(Record {
        number: m.info.number,
        source: None,
        kind,
        title: m.info.title.clone(),
        author: player_name(state, &m.info.author).0,
        dynasty: state.dynasty.number,
        opened: m.info.opened,
        resolved: at,
        outcome: Outcome::NotAMatter,
        failure: None,
        resolved_by: CLOSED_BY.into(),
        reasons: vec![why.to_string()],
        head: head.map(|h| h.0),
        merge_commit: None,
        link: m.info.link.clone(),
        comments: Some(discussion.total),
        tally: None,
        votes: Vec::new(),
        uncounted: Vec::new(),
        uncounted_more: 0,
        sticky: Vec::new(),
        discussion: discussion.comments,
        body: m.info.body.clone(),
    }))
}

/// The status of a matter closed as no matter: being closed, or closed.
pub(crate) fn closing_text(
    kind: crate::matter::Kind,
    number: MatterNumber,
    why: &str,
    done: bool,
) -> String {
    let headline = if done {
        "Closed: not a matter"
    } else {
        "Closing: not a matter"
    };
    format!(
        "### {kind} #{number}: {headline}\n\n{}.",
        crate::matter::status::capitalised(why)
    )
}

/// The journal of a matter `check --close` closes, with the decision to
/// close it, so the next resolve run finishes the closing (its record,
/// its labels) as it would have.
pub(crate) fn closing_journal(
    journal: &Journal,
    head: Option<crate::matter::HeadSha>,
    why: &str,
    at: crate::time::Timestamp,
) -> Journal {
    let mut journal = journal.clone();
    journal.resolution = Some(not_a_matter(at, head, why));
    journal
}

/// The decision to close a matter on `head` at `at` as no matter, for
/// `why`: the same whether a run or `check --close` takes it.
fn not_a_matter(
    at: crate::time::Timestamp,
    head: Option<crate::matter::HeadSha>,
    why: &str,
) -> Resolution {
    Resolution {
        outcome: Outcome::NotAMatter,
        at,
        head,
        reasons: vec![why.to_string()],
        illegal: false,
    }
}
