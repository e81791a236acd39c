//! Making the plan, as a sequence of passes over the matters. Each pass
//! takes the part of the plan's state it needs — the [`Ground`] (the
//! default branch as it will be), the [`Dovs`], the [`Dice`](dice::Dice)
//! — and returns what it writes; [`plan`] reads the order in one place:
//!
//! 1. dice: every new roll is logged before anything else is done;
//! 2. finish: what an earlier run decided and did not finish;
//! 3. standing: what may not stand as the matter it claims to be is
//!    closed, judged before anything is counted;
//! 4. decide, then merges (with the commands of action issues), again
//!    while an Ascension Address begins a dynasty: a run leaves nothing
//!    to do at its own moment;
//! 5. what stays pending, or was not merged, is told where it stands;
//! 6. the status comments are written, once, from the finished plan.

use std::collections::BTreeMap;

use super::dice;
use super::dovs::Dovs;
use super::ground::Ground;
use super::standing::Standing;
use super::{Inputs, Plan, PlanError, Trial};
use super::{decide, direct_merges, finish, pending, render, standing};
use crate::game::Game;
use crate::matter::MatterNumber;
use crate::matter::collected::Collected;
use crate::record::Record;

/// Makes the plan for one run. See the module docs of [`super`].
pub(crate) fn plan(inputs: Inputs<'_>, trial: &mut dyn Trial) -> Result<Plan, PlanError> {
    let matters = Matters::of(&inputs);
    let mut dovs = Dovs::of(&inputs);
    let found = inputs.base.game.clone();
    let mut ground = Ground::new(trial, inputs.base, inputs.now);

    let (dice, mut written) = dice::roll(&mut ground, &matters.all)?;
    // A matter whose dice log cannot be read waits, said in its line; the
    // others go on without it, as without a thread a run could not read.
    let matters = matters.without(dice.unreadable());
    for m in &matters.waiting {
        let why = dice
            .unreadable()
            .get(&m.info.number)
            .cloned()
            .unwrap_or_default();
        let wait = super::Ruling::Rules(crate::engine::Decision::Wait);
        written.line(&m.info, m.kind, wait, super::Fate::Unread(why));
    }
    written.extend(finish::finish(&mut ground, &mut dovs, &matters.started)?);

    // A matter an earlier run began to resolve counts once, as the record
    // this run finishes it with says, whether or not that record reached
    // the default branch before the earlier run stopped.
    let counted = with_records(found, written.records());
    let standing = standing::judge(&mut ground, inputs.branch, &counted, &matters.all)?;
    let fresh = matters.fresh(&standing);
    written.extend(standing::close_all(
        &mut ground,
        &mut dovs,
        &matters.unstarted,
        &standing,
    )?);

    let mut pending = fresh.pending;
    let turnout = decide::decide(&ground, &dovs, &pending, false)?.turnout;
    let mut unvoted = fresh.unvoted;
    let not_merged = loop {
        written.extend(decide::round(&mut ground, &mut dovs, &mut pending)?);
        let merges = direct_merges::round(&mut ground, &mut dovs, &dice, unvoted)?;
        written.extend(merges.written);
        if !merges.began {
            break merges.left;
        }
        unvoted = merges.left;
    };
    written.extend(pending::stays(&mut ground, &dovs, &not_merged, &pending)?);

    let steps = render::render(written.drafts, &dice, &matters.by_number())?;
    Ok(Plan {
        now: inputs.now,
        turnout,
        lines: written.lines,
        steps,
        decisions: written.decisions,
    })
}

/// The matters of a run, as the passes take them.
struct Matters<'a> {
    /// Every matter: the unfinished, the open votable, what needs no vote.
    all: Vec<&'a Collected>,
    /// Those an earlier run began to resolve (their journal holds the
    /// decision), in the order it decided them.
    started: Vec<&'a Collected>,
    /// The rest.
    unstarted: Vec<&'a Collected>,
    /// The open votable matters.
    open: &'a [Collected],
    /// Open pull requests merged without a vote.
    unvoted: &'a [Collected],
    /// Those that wait this run (see [`Matters::without`]), by number.
    waiting: Vec<&'a Collected>,
}

/// The matters no run has begun to resolve and that may stand.
struct Fresh<'a> {
    /// The votable ones, as the forge lists them.
    pending: Vec<&'a Collected>,
    /// What needs no vote, by number.
    unvoted: Vec<&'a Collected>,
}

impl<'a> Matters<'a> {
    fn of(inputs: &Inputs<'a>) -> Matters<'a> {
        let all: Vec<&Collected> = (inputs.unfinished.iter())
            .chain(inputs.open)
            .chain(inputs.unvoted)
            .collect();
        let mut started: Vec<&Collected> = (inputs.unfinished.iter())
            .chain(inputs.open.iter().filter(|m| in_progress(m)))
            .chain(inputs.unvoted.iter().filter(|m| in_progress(m)))
            .collect();
        started.sort_by_key(|m| (m.journal.resolution.as_ref().map(|r| r.at), m.info.number));
        let unstarted = all.iter().copied().filter(|m| !in_progress(m)).collect();
        Matters {
            all,
            started,
            unstarted,
            open: inputs.open,
            unvoted: inputs.unvoted,
            waiting: Vec::new(),
        }
    }

    /// These matters with those numbered in `left_out` waiting: nothing is
    /// done with them (not finished, closed nor decided), yet they stay in
    /// `all`, open matters that count towards the others' limits, as every
    /// door counts them.
    fn without<T>(mut self, left_out: &BTreeMap<MatterNumber, T>) -> Matters<'a> {
        if left_out.is_empty() {
            return self;
        }
        let kept = |m: &&Collected| !left_out.contains_key(&m.info.number);
        self.waiting = self
            .by_number()
            .into_values()
            .filter(|m| !kept(m))
            .collect();
        self.started.retain(kept);
        self.unstarted.retain(kept);
        self
    }

    /// The matters not started that `standing` lets stand.
    fn fresh(&self, standing: &Standing) -> Fresh<'a> {
        let waiting = |m: &&Collected| self.waiting.iter().any(|w| w.info.number == m.info.number);
        let fresh = |m: &&Collected| {
            !in_progress(m) && !standing.contains_key(&m.info.number) && !waiting(m)
        };
        let mut unvoted: Vec<&Collected> = self.unvoted.iter().filter(fresh).collect();
        unvoted.sort_by_key(|m| m.info.number);
        Fresh {
            pending: self.open.iter().filter(fresh).collect(),
            unvoted,
        }
    }

    /// Every matter, by number.
    fn by_number(&self) -> BTreeMap<MatterNumber, &'a Collected> {
        let mut by_number = BTreeMap::new();
        for m in &self.all {
            by_number.entry(m.info.number).or_insert(*m);
        }
        by_number
    }
}

/// Whether a run has begun to resolve `m`.
fn in_progress(m: &Collected) -> bool {
    m.journal.resolution.is_some()
}

/// `found` with `records` it does not hold yet.
fn with_records(mut found: Game, records: Vec<Record>) -> Game {
    let planned: Vec<Record> = records
        .into_iter()
        .filter(|r| !found.records.iter().any(|c| c.path() == r.path()))
        .collect();
    found.records.extend(planned);
    found
}
