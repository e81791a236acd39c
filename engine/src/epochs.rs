//! The look-ahead's view of time: the moments after *now* at which some
//! decision could change by itself, cut into epochs within which nothing
//! but the matters' ages changes (no matter opens, no idle spell starts or
//! ends, the seasonal downtime neither starts nor ends), and each matter's
//! decision on its own merits over those moments, as runs of equal
//! decisions.
//!
//! Within an epoch every tally is the same, so a matter's decision depends
//! only on its age; [`decide::decision_over`] proves it constant over a
//! whole span of moments at once, and only where it cannot is the span
//! halved, down to single moments evaluated exactly. So a matter costs a
//! few evaluations per change of its decision, not one per moment.

use super::decide::{self, Decision};
use super::limits;
use super::run::{Prepared, Stage};
use super::tally::{Mode, Tally};
use crate::time::{Span, Timestamp};

/// Indices `from..to` of the moments where a matter's decision is `.2`.
pub(crate) type Piece = (usize, usize, Decision);

/// The moments after *now*, in epochs, and the tallies of each epoch.
pub(crate) struct Epochs<'g, 'a> {
    game: &'g Prepared<'a>,
    /// The moments, ascending.
    pub moments: Vec<Timestamp>,
    /// The index of each epoch's first moment, ascending.
    starts: Vec<usize>,
    /// What is fixed in each epoch.
    stages: Vec<Stage>,
    /// Each epoch's tallies, by matter, counted when first needed.
    tallies: Vec<Vec<Option<Tally>>>,
}

impl<'g, 'a> Epochs<'g, 'a> {
    /// The timeline of `game` over `moments` (ascending, all after now).
    pub(super) fn new(game: &'g Prepared<'a>, moments: Vec<Timestamp>) -> Epochs<'g, 'a> {
        let params = &game.snapshot.params;
        let mut edges: Vec<Timestamp> = game
            .snapshot
            .players
            .iter()
            .flat_map(|p| &p.idle)
            .flat_map(|s| s.from.into_iter().chain(s.until))
            .collect();
        edges.sort();
        let opened: Vec<Timestamp> = game.matters.iter().map(|r| r.matter.opened).collect();
        // What decides an epoch: matters open, idle edges passed, downtime.
        let key = |t: Timestamp| {
            (
                opened.partition_point(|o| *o <= t),
                edges.partition_point(|e| *e <= t),
                limits::in_downtime(params, t),
            )
        };
        let mut starts = Vec::new();
        let mut last = None;
        for (i, t) in moments.iter().enumerate() {
            let k = Some(key(*t));
            if k != last {
                starts.push(i);
                last = k;
            }
        }
        let stages: Vec<Stage> = starts.iter().map(|i| game.stage(moments[*i])).collect();
        let tallies = vec![vec![None; game.matters.len()]; stages.len()];
        Epochs {
            game,
            moments,
            starts,
            stages,
            tallies,
        }
    }

    /// The number of moments.
    pub(super) fn len(&self) -> usize {
        self.moments.len()
    }

    /// The first moment at which the matter at `j` is open.
    pub(super) fn start_of(&self, j: usize) -> usize {
        let opened = self.game.matters[j].matter.opened;
        self.moments.partition_point(|t| *t < opened)
    }

    /// The first moment at which the proposal at `j` is pending too long.
    pub(super) fn stale_from(&self, j: usize) -> usize {
        let hours = self.game.snapshot.params.stale_after_hours;
        if hours <= 0 {
            return self.len();
        }
        let opened = self.game.matters[j].matter.opened;
        self.moments
            .partition_point(|t| t.since(opened) <= Span::hours(hours))
    }

    /// The moments of the seasonal downtime, as index ranges.
    pub(super) fn downtime(&self) -> Vec<(usize, usize)> {
        (0..self.stages.len())
            .filter(|k| self.stages[*k].downtime)
            .map(|k| (self.starts[k], self.end_of(k)))
            .collect()
    }

    fn end_of(&self, k: usize) -> usize {
        self.starts
            .get(k + 1)
            .copied()
            .unwrap_or(self.moments.len())
    }

    /// The decision of the matter at `j` on its own merits at every moment
    /// from `from` (where it must be open) to `to`, as runs.
    pub(super) fn pieces(&mut self, j: usize, from: usize, to: usize) -> Vec<Piece> {
        let mut out = Vec::new();
        for k in 0..self.stages.len() {
            let (a, b) = (from.max(self.starts[k]), to.min(self.end_of(k)));
            if a < b {
                if self.tallies[k][j].is_none() {
                    self.tallies[k][j] = Some(self.game.tally(&self.stages[k], j, Mode::Counts));
                }
                self.fill(j, k, a, b, &mut out);
            }
        }
        out
    }

    /// Fills moments `a..b` of epoch `k`, halving where not constant.
    fn fill(&self, j: usize, k: usize, a: usize, b: usize, out: &mut Vec<Piece>) {
        let decided = if b - a == 1 {
            self.decision(j, k, a, None)
        } else {
            self.decision(j, k, a, Some(b - 1))
        };
        match decided {
            Some(d) => match out.last_mut() {
                Some(last) if last.1 == a && last.2 == d => last.1 = b,
                _ => out.push((a, b, d)),
            },
            None => {
                let mid = a + (b - a) / 2;
                self.fill(j, k, a, mid, out);
                self.fill(j, k, mid, b, out);
            }
        }
    }

    /// The decision at moment `a`, or (with `until`) the one decision at
    /// every moment from `a` to `until` if provably the same.
    fn decision(&self, j: usize, k: usize, a: usize, until: Option<usize>) -> Option<Decision> {
        let stage = &self.stages[k];
        let tally = self.tallies[k][j].as_ref()?;
        let opened = self.game.matters[j].matter.opened;
        let kind = self.game.matters[j].matter.kind;
        let Some(mut q) = self.game.quantities(stage, j, tally) else {
            return Some(Decision::Wait);
        };
        q.age = self.moments[a].since(opened);
        match until {
            None => Some(decide::decision(kind, q)),
            Some(b) => decide::decision_over(kind, &q, self.moments[b].since(opened)),
        }
    }
}
