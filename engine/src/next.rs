//! Looking ahead: for each waiting matter, the next moment its decision
//! changes if nobody votes, and how many more FOR (or AGAINST) votes from
//! players who have not voted would decide it now.
//!
//! Rather than reasoning about the conditions symbolically (they are data
//! and may be amended), the look-ahead asks the same questions a resolve
//! run at each later moment would: at every moment where something could
//! change (a time limit of some matter passing, the downtime starting or
//! ending, a player's idle spell starting or ending), would this matter be
//! decided? A run at a moment decides a matter from its own tally and its
//! place in the queue, and the look-ahead follows both exactly:
//!
//! - a CfJ is decided on its own merits;
//! - a DoV is not resolved in the downtime, and fails once another DoV
//!   would be enacted (an older one first, when both would be);
//! - a proposal is not resolved while a DoV would be pending or enacted,
//!   in the downtime or while an Ascension Address is awaited; it fails
//!   once pending too long, and otherwise is decided on its merits only
//!   when no older proposal would still be waiting.
//!
//! Each matter's own decision over the moments comes from `Epochs`, a
//! few evaluations per change rather than one per moment; the queue is
//! then a matter of sets of moments. `tests/engine/props.rs` checks the
//! result equals re-running the whole engine at every moment, so the
//! look-ahead can never disagree with what the engine will actually do.
//! The votes needed are counted by adding one vote at a time to the one
//! matter, since votes on it change nothing older.

use std::collections::HashMap;

use serde::Serialize;

use super::decide::{self, Decision};
use super::epochs::{Epochs, Piece};
use super::run::{Prepared, Stage};
use super::snapshot::{Comment, MatterKind, Phase, PlayerName, Snapshot};
use super::tally::{Mode, ReadComment};
use super::{MatterDecision, MatterNumber, Run, limits, turns};
use crate::time::{Span, Timestamp};

/// What could change a waiting matter's decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct NextChange {
    /// The first moment the decision changes without new votes.
    pub at: Option<Timestamp>,
    /// What it becomes then.
    pub becomes: Option<Decision>,
    /// How many more FOR from players yet to vote would enact it now.
    pub more_for: Option<u32>,
    /// How many more AGAINST from players yet to vote would fail it now.
    pub more_against: Option<u32>,
}

/// Fills in `next_change` for every waiting matter of `run`, the run of
/// `game` at its cutoff; `own_merits` says (by the game's order) which
/// matters that run decided on their own merits.
pub(crate) fn annotate(game: &Prepared<'_>, run: &mut Run, own_merits: &[bool]) {
    let now = run.now;
    if run.decisions.iter().all(|d| d.decision != Decision::Wait) {
        return;
    }
    let by_time = first_changes(game, now);
    let index: HashMap<MatterNumber, usize> = (0..game.matters.len())
        .map(|i| (game.matters[i].matter.id, i))
        .collect();
    let stage = game.stage(now);
    for d in run
        .decisions
        .iter_mut()
        .filter(|d| d.decision == Decision::Wait)
    {
        let i = index[&d.number];
        let timed = by_time[i];
        let (more_for, more_against) = if own_merits[i] {
            (
                votes_needed(game, &stage, i, d, Decision::Enact),
                votes_needed(game, &stage, i, d, Decision::Fail),
            )
        } else {
            (None, None)
        };
        let change = NextChange {
            at: timed.map(|t| t.0),
            becomes: timed.map(|t| t.1),
            more_for,
            more_against,
        };
        let nothing = change.at.is_none() && change.more_for.is_none();
        d.next_change = (!nothing || change.more_against.is_some()).then_some(change);
    }
}

/// The moments after `now` at which a decision could change by itself:
/// every matter's opening and every age at which its conditions turn
/// ([`turns`]), a proposal's passing `stale_after_hours`, the idle
/// spells' edges, and the downtime's edges up to a year after the last of
/// those (what waits for the downtime to end waits no longer).
fn moments(snapshot: &Snapshot, now: Timestamp) -> Vec<Timestamp> {
    let p = &snapshot.params;
    let ages = [MatterKind::Proposal, MatterKind::Cfj, MatterKind::Dov]
        .map(|kind| (kind, turns::age_turns(p, kind)));
    let mut out: Vec<Timestamp> = Vec::new();
    for m in &snapshot.matters {
        out.push(m.opened);
        if m.kind == MatterKind::Proposal && p.stale_after_hours > 0 {
            // "Pending more than": a second past the limit.
            out.push(
                m.opened
                    .plus(Span::hours(p.stale_after_hours))
                    .plus(Span::seconds(1)),
            );
        }
        let turns = ages.iter().filter(|(k, _)| *k == m.kind);
        out.extend(
            turns
                .flat_map(|(_, a)| a)
                .map(|&a| m.opened.plus(Span::seconds(a))),
        );
    }
    for spell in snapshot.players.iter().flat_map(|pl| &pl.idle) {
        out.extend(spell.from.into_iter().chain(spell.until));
    }
    let last = out.iter().copied().fold(now, Timestamp::max);
    out.extend(limits::downtime_edges(p, now, last));
    out.retain(|t| *t > now);
    out.sort();
    out.dedup();
    out
}

/// Sets of moments, as ascending disjoint index ranges.
type Moments = Vec<(usize, usize)>;

/// The moments of `pieces` where the decision satisfies `keep`.
fn where_(pieces: &[Piece], keep: impl Fn(Decision) -> bool) -> Moments {
    pieces
        .iter()
        .filter(|p| keep(p.2))
        .map(|p| (p.0, p.1))
        .collect()
}

/// The moments in `a` or `b`.
fn union(a: &[(usize, usize)], b: &[(usize, usize)]) -> Moments {
    let mut all: Moments = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut out: Moments = Vec::with_capacity(all.len());
    for (s, e) in all {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// The moments from `from` to `to` not in `set`.
fn outside(set: &[(usize, usize)], from: usize, to: usize) -> Moments {
    let mut out = Vec::new();
    let mut at = from;
    for &(s, e) in set {
        if s > at {
            out.push((at, s.min(to)));
        }
        at = at.max(e);
        if at >= to {
            break;
        }
    }
    if at < to {
        out.push((at, to));
    }
    out.retain(|(s, e)| s < e);
    out
}

/// The moments in both `a` and `b`.
fn intersect(a: &[(usize, usize)], b: &[(usize, usize)]) -> Moments {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (s, e) = (a[i].0.max(b[j].0), a[i].1.min(b[j].1));
        if s < e {
            out.push((s, e));
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// The first moment in `within` at which `pieces` are not waiting.
fn first_decided(pieces: &[Piece], within: &[(usize, usize)]) -> Option<(usize, Decision)> {
    let mut best: Option<(usize, Decision)> = None;
    for p in pieces.iter().filter(|p| p.2 != Decision::Wait) {
        if best.is_some_and(|b| b.0 <= p.0) {
            break;
        }
        let hit = within
            .iter()
            .map(|(s, e)| (p.0.max(*s), p.1.min(*e)))
            .find(|(s, e)| s < e);
        if let Some((s, _)) = hit {
            best = Some((s, p.2));
        }
    }
    best
}

/// For each matter (by the game's order), the first moment after now at
/// which a run would decide it, and how.
fn first_changes(game: &Prepared<'_>, now: Timestamp) -> Vec<Option<(Timestamp, Decision)>> {
    let mut line = Epochs::new(game, moments(game.snapshot, now));
    let n = line.len();
    let mut found: Vec<Option<(usize, Decision)>> = vec![None; game.matters.len()];
    // CfJs, each on its own.
    for i in (0..found.len()).filter(|i| game.valid(*i, MatterKind::Cfj)) {
        let from = line.start_of(i);
        let pieces = line.pieces(i, from, n);
        found[i] = first_decided(&pieces, &[(from, n)]);
    }
    let freeze = dov_changes(game, &mut line, &mut found);
    proposal_changes(game, &mut line, &mut found, &freeze);
    found
        .into_iter()
        .map(|f| f.map(|(i, d)| (line.moments[i], d)))
        .collect()
}

/// Fills in `found` for DoVs, which are not resolved in the downtime and
/// fail once an older one is enacted; returns the moments at which
/// proposals are frozen (a DoV pending or enacted, the downtime, or an
/// Ascension Address awaited).
fn dov_changes(
    game: &Prepared<'_>,
    line: &mut Epochs<'_, '_>,
    found: &mut [Option<(usize, Decision)>],
) -> Moments {
    let n = line.len();
    let downtime = line.downtime();
    let mut enacted: Moments = Vec::new();
    let mut freeze: Moments = if game.snapshot.phase == Phase::AwaitingAscension {
        vec![(0, n)]
    } else {
        downtime.clone()
    };
    // A DoV enacted before (the game awaits its Address) fails every
    // other DoV that was valid, as soon as a run sees it open.
    let crowned =
        game.snapshot.phase == Phase::AwaitingAscension && game.snapshot.crowned.is_some();
    // Each DoV's own enactments, oldest DoV first.
    let mut enacts: Vec<(usize, Moments)> = Vec::new();
    for i in (0..found.len()).filter(|i| game.valid(*i, MatterKind::Dov)) {
        let from = line.start_of(i);
        if crowned {
            found[i] = (from < n).then_some((from, Decision::Fail));
            continue;
        }
        let pieces = line.pieces(i, from, n);
        let resolvable = outside(&downtime, from, n);
        let own = first_decided(&pieces, &resolvable);
        let by_older = intersect(&enacted, &resolvable).first().map(|r| r.0);
        found[i] = match (own, by_older) {
            (Some(o), Some(b)) if b <= o.0 => Some((b, Decision::Fail)),
            (None, Some(b)) => Some((b, Decision::Fail)),
            (own, _) => own,
        };
        freeze = union(&freeze, &where_(&pieces, |d| d != Decision::Fail));
        let mine = where_(&pieces, |d| d == Decision::Enact);
        enacted = union(&enacted, &mine);
        enacts.push((i, mine));
    }
    // A younger DoV enacted while an older one waits fails it too; at the
    // same moment the older one's own decision comes first.
    for k in 0..enacts.len() {
        let i = enacts[k].0;
        let younger = enacts[k + 1..]
            .iter()
            .fold(Vec::new(), |acc, (_, m)| union(&acc, m));
        let resolvable = outside(&downtime, line.start_of(i), n);
        if let Some(b) = intersect(&younger, &resolvable).first().map(|r| r.0) {
            found[i] = match found[i] {
                Some(o) if o.0 <= b => Some(o),
                _ => Some((b, Decision::Fail)),
            };
        }
    }
    freeze
}

/// Fills in `found` for proposals: not resolved while `freeze`; failed
/// once pending too long; otherwise decided on their merits when no older
/// proposal (not pending too long) would still be waiting.
fn proposal_changes(
    game: &Prepared<'_>,
    line: &mut Epochs<'_, '_>,
    found: &mut [Option<(usize, Decision)>],
    freeze: &[(usize, usize)],
) {
    let n = line.len();
    let mut older_waiting: Moments = Vec::new();
    for i in (0..found.len()).filter(|i| game.valid(*i, MatterKind::Proposal)) {
        let from = line.start_of(i);
        let stale = line.stale_from(i).max(from);
        let pieces = line.pieces(i, from, stale);
        let queue = outside(&union(freeze, &older_waiting), from, stale);
        let own = first_decided(&pieces, &queue);
        let failed = outside(freeze, stale, n)
            .first()
            .map(|r| (r.0, Decision::Fail));
        found[i] = match (own, failed) {
            (Some(o), Some(f)) => Some(if o.0 <= f.0 { o } else { f }),
            (o, f) => o.or(f),
        };
        older_waiting = union(&older_waiting, &where_(&pieces, |d| d == Decision::Wait));
    }
}

/// The fewest extra votes (FOR for enact, AGAINST for fail) from active
/// players with no counted vote that would give `target` now, for the
/// matter at `i`, which the run `d` came from decided on its own merits.
fn votes_needed(
    game: &Prepared<'_>,
    stage: &Stage,
    i: usize,
    d: &MatterDecision,
    target: Decision,
) -> Option<u32> {
    let snapshot = game.snapshot;
    let p = &snapshot.params;
    let now = stage.now;
    let word = match target {
        Decision::Enact => p.words_for.first()?,
        _ => p.words_against.first()?,
    };
    let silent: Vec<&PlayerName> = snapshot
        .active_players(now)
        .into_iter()
        .filter(|name| !d.tally.votes.contains_key(*name))
        .collect();
    let extra: Vec<Comment> = (1u64..)
        .zip(&silent)
        .map(|(k, name)| Comment {
            order: u64::MAX - k,
            by: (*name).clone(),
            at: now,
            body: word.clone(),
        })
        .collect();
    let ballot = game.lexicon.read(word);
    let extra: Vec<ReadComment<'_>> = extra
        .iter()
        .map(|c| ReadComment {
            comment: c,
            player: game.roster.position(&c.by),
            ballot: ballot.clone(),
        })
        .collect();
    fewest(
        game,
        stage,
        i,
        target,
        silent.len() != names_distinct(&silent),
        &extra,
    )
}

/// How many players' names in `names` are distinct.
fn names_distinct(names: &[&PlayerName]) -> usize {
    let mut names = names.to_vec();
    names.sort_unstable();
    names.dedup();
    names.len()
}

/// The fewest of the `extra` votes, added in order, that give `target` to
/// the matter at `i` at `stage`. `twice`: a name is on the roster twice.
fn fewest(
    game: &Prepared<'_>,
    stage: &Stage,
    i: usize,
    target: Decision,
    twice: bool,
    extra: &[ReadComment<'_>],
) -> Option<u32> {
    let read = &game.matters[i];
    let kind = read.matter.kind;
    let decides = |tally| {
        game.quantities(stage, i, &tally)
            .is_some_and(|q| decide::decision(kind, q) == target)
    };
    let now = stage.now;
    let at = game.roster.at(now, stage.hiatus_since);
    // Extra votes come last, each from a different player: each is one more
    // step of the count. Otherwise (a comment at `now` ordered after them,
    // or a name twice on the roster), count again from the start.
    let last_order = read.comments.last().filter(|c| c.comment.at == now);
    let reorders = last_order.is_some_and(|c| c.comment.order >= u64::MAX - extra.len() as u64);
    if reorders || twice {
        return (1..=extra.len()).find_map(|k| {
            let mut trial = read.clone();
            trial.comments.extend(extra[..k].iter().cloned());
            trial
                .comments
                .sort_by_key(|c| (c.comment.at, c.comment.order));
            decides(trial.count(&at, Mode::Counts)).then(|| u32::try_from(k).unwrap_or(u32::MAX))
        });
    }
    let mut first = read.scan(&at, true, Mode::Counts);
    let mut second =
        (!game.snapshot.params.def_is_valid_icon).then(|| read.scan(&at, false, Mode::Counts));
    for (k, c) in (1u32..).zip(extra) {
        read.step(&at, &mut first, c);
        if let Some(second) = second.as_mut() {
            read.step(&at, second, c);
        }
        if decides(read.finish(&at, &first, second.as_ref())) {
            return Some(k);
        }
    }
    None
}
