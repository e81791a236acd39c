//! One resolve run at one moment, carried out in order (MECHANICS.md, "the
//! scenario file"): CfJs each on its own; then DoVs oldest first (an
//! enacted DoV fails the others; a failed last DoV ends the hiatus); then
//! proposals oldest first, each resolution letting the next one become the
//! oldest, and proposals pending too long skipped and failed.
//!
//! A [`Game`] is the snapshot made ready once for every run that counts the
//! same comments (the run at *now* and every moment of the look-ahead):
//! matters in the order runs take them, whether each is valid, and every
//! comment read once. A [`Stage`] is what is fixed for one run.

use std::collections::HashMap;

use super::ballot::Lexicon;
use super::decide::{self, Decision, Grounds, Quantities, Verdict};
use super::limits::{self, ProposerRecord};
use super::params::QuorumError;
use super::snapshot::{Matter, MatterKind, Phase, PlayerName, Snapshot};
use super::tally::{Mode, Read, Roster, Tally};
use super::{MatterDecision, MatterNumber, Run, Turnout};
use crate::time::{Span, Timestamp};

/// A snapshot made ready for runs that count comments up to one cutoff.
pub(crate) struct Prepared<'a> {
    /// The game as given.
    pub snapshot: &'a Snapshot,
    /// Its roster, for counting.
    pub roster: Roster<'a>,
    /// The ruleset's voting words.
    pub lexicon: Lexicon,
    /// Every matter by (opened, id), its comments up to the cutoff read.
    pub matters: Vec<Read<'a>>,
    /// Why each matter (same order) is not a valid matter of its kind.
    pub invalid: Vec<Option<String>>,
}

/// Everything fixed for one run at one moment.
#[derive(Debug, Clone)]
pub(crate) struct Stage {
    /// The moment.
    pub now: Timestamp,
    /// How many of the game's matters are open (the first ones).
    pub open: usize,
    /// Whether it is the seasonal downtime.
    pub downtime: bool,
    /// Active players.
    pub active: i64,
    /// The quorum, or why it cannot be computed.
    pub quorum: Result<i64, QuorumError>,
    /// Since when the game is in hiatus, if it is.
    pub hiatus_since: Option<Timestamp>,
}

impl<'a> Prepared<'a> {
    /// Prepares `snapshot` for runs counting comments up to `cutoff`.
    pub(crate) fn new(snapshot: &'a Snapshot, cutoff: Timestamp) -> Prepared<'a> {
        let roster = Roster::new(snapshot);
        let lexicon = Lexicon::new(&snapshot.params);
        let mut matters: Vec<Read<'a>> = snapshot
            .matters
            .iter()
            .map(|m| Read::matter(&roster, &lexicon, m, cutoff))
            .collect();
        matters.sort_by_key(|r| (r.matter.opened, r.matter.id));
        let invalid = invalidity(snapshot, matters.iter().map(|r| r.matter));
        Prepared {
            snapshot,
            roster,
            lexicon,
            matters,
            invalid,
        }
    }

    /// Whether the matter at `i` is a valid matter of `kind`.
    pub(crate) fn valid(&self, i: usize, kind: MatterKind) -> bool {
        self.matters[i].matter.kind == kind && self.invalid[i].is_none()
    }

    /// What is fixed for a run at `now`.
    pub(crate) fn stage(&self, now: Timestamp) -> Stage {
        let open = self.matters.partition_point(|r| r.matter.opened <= now);
        let hiatus_since = match self.snapshot.phase {
            Phase::AwaitingAscension => Some(Timestamp::from_unix(i64::MIN)),
            Phase::Playing => (0..open)
                .find(|i| self.valid(*i, MatterKind::Dov))
                .map(|i| self.matters[i].matter.opened),
        };
        let active = i64::try_from(self.snapshot.active_players(now).len()).unwrap_or(i64::MAX);
        Stage {
            now,
            open,
            downtime: limits::in_downtime(&self.snapshot.params, now),
            active,
            quorum: quorum(self.snapshot, active),
            hiatus_since,
        }
    }

    /// The matter at `i` counted at `stage`.
    pub(crate) fn tally(&self, stage: &Stage, i: usize, mode: Mode) -> Tally {
        let at = self.roster.at(stage.now, stage.hiatus_since);
        self.matters[i].count(&at, mode)
    }

    /// The quantities the matter at `i` is decided on, from its tally.
    pub(crate) fn quantities<'q>(
        &'q self,
        stage: &Stage,
        i: usize,
        tally: &'q Tally,
    ) -> Option<Quantities<'q>> {
        let m = self.matters[i].matter;
        let quorum = *stage.quorum.as_ref().ok()?;
        Some(Quantities {
            tally,
            params: &self.snapshot.params,
            active: stage.active,
            quorum,
            age: stage.now.since(m.opened),
            opened: Some(m.opened),
            hiatus: match m.kind {
                MatterKind::Cfj => stage.hiatus_since.is_some() || stage.downtime,
                MatterKind::Dov => true,
                MatterKind::Proposal => false,
            },
            enactable: None,
        })
    }

    /// The verdict on the matter at `i` on its own merits.
    fn verdict(&self, stage: &Stage, i: usize, tally: &Tally) -> Verdict {
        match (self.quantities(stage, i, tally), &stage.quorum) {
            (Some(q), _) => decide::decide(self.matters[i].matter.kind, q),
            (None, Err(e)) => Verdict::wait(
                Grounds::Uncomputable,
                format!("the quorum cannot be computed: {e}"),
            ),
            (None, Ok(_)) => unreachable!("quantities are missing only without a quorum"),
        }
    }
}

/// One run in the making: decisions in the order they are made, and which
/// matters were decided on their own merits (so votes on them alone could
/// change their decision).
struct Decider<'g, 'a> {
    game: &'g Prepared<'a>,
    stage: Stage,
    out: Vec<MatterDecision>,
    own_merits: Vec<bool>,
}

impl Decider<'_, '_> {
    fn push(&mut self, i: usize, tally: Tally, verdict: Verdict) -> Decision {
        let m = self.game.matters[i].matter;
        self.out.push(MatterDecision {
            number: m.id,
            kind: m.kind,
            opened: m.opened,
            decision: verdict.decision,
            tally,
            grounds: verdict.grounds,
            reasons: verdict.reasons,
            next_change: None,
        });
        verdict.decision
    }

    fn evaluate(&mut self, i: usize) -> Decision {
        let tally = self.game.tally(&self.stage, i, Mode::Full);
        let verdict = self.game.verdict(&self.stage, i, &tally);
        self.own_merits[i] = true;
        self.push(i, tally, verdict)
    }

    fn decide_as(&mut self, i: usize, verdict: Verdict) -> Decision {
        let tally = self.game.tally(&self.stage, i, Mode::Full);
        self.push(i, tally, verdict)
    }

    fn valid(&self, kind: MatterKind) -> Vec<usize> {
        (0..self.stage.open)
            .filter(|i| self.game.valid(*i, kind))
            .collect()
    }

    /// Decides the DoVs, and says why proposals wait this run, if they do.
    fn dovs(&mut self) -> Option<(Grounds, String)> {
        let snapshot = self.game.snapshot;
        // A DoV enacted before this run (the game awaits its Ascension
        // Address) failed every DoV then pending, as one enacted in this
        // run fails every other, older or younger.
        let crowned = match snapshot.phase {
            Phase::AwaitingAscension => snapshot.crowned.map(|c| c.dov),
            Phase::Playing => None,
        };
        let mut enacted: Option<MatterNumber> = crowned;
        let mut waiting: Vec<usize> = Vec::new();
        for i in self.valid(MatterKind::Dov) {
            let d = if let Some(first) = enacted {
                self.decide_as(i, fails_by(first))
            } else if self.stage.downtime {
                self.decide_as(
                    i,
                    Verdict::wait(
                        Grounds::Downtime,
                        "seasonal downtime: DoVs are not resolved",
                    ),
                )
            } else {
                self.evaluate(i)
            };
            let id = self.game.matters[i].matter.id;
            match d {
                Decision::Enact => enacted = enacted.or(Some(id)),
                Decision::Wait => waiting.push(i),
                Decision::Fail => {}
            }
        }
        if let Some(first) = enacted.filter(|_| crowned.is_none()) {
            for i in std::mem::take(&mut waiting) {
                let id = self.game.matters[i].matter.id;
                self.out.retain(|d| d.number != id);
                self.own_merits[i] = false;
                self.decide_as(i, fails_by(first));
            }
        }
        if let Some(id) = enacted.filter(|_| crowned.is_none()) {
            Some((
                Grounds::Hiatus,
                format!("hiatus: DoV #{id} was enacted and its Ascension Address is awaited"),
            ))
        } else if snapshot.phase == Phase::AwaitingAscension {
            Some((
                Grounds::Hiatus,
                "hiatus: the Ascension Address is awaited".into(),
            ))
        } else if let Some(&i) = waiting.first() {
            let id = self.game.matters[i].matter.id;
            Some((Grounds::Hiatus, format!("hiatus: DoV #{id} is pending")))
        } else if self.stage.downtime {
            Some((
                Grounds::Downtime,
                "seasonal downtime: proposals are not resolved".into(),
            ))
        } else {
            None
        }
    }

    fn proposals(&mut self, freeze: Option<(Grounds, String)>) {
        let proposals = self.valid(MatterKind::Proposal);
        if let Some((grounds, why)) = freeze {
            for i in proposals {
                self.decide_as(i, Verdict::wait(grounds, why.clone()));
            }
            return;
        }
        let stale_after = self.game.snapshot.params.stale_after_hours;
        let (stale, fresh): (Vec<usize>, Vec<usize>) = proposals
            .into_iter()
            .partition(|i| is_stale(self.game, *i, self.stage.now));
        let mut oldest: Option<MatterNumber> = None;
        for i in fresh {
            if let Some(first) = oldest {
                self.decide_as(
                    i,
                    Verdict::wait(
                        Grounds::Queue,
                        format!("waits for the older proposal #{first}"),
                    ),
                );
            } else if self.evaluate(i) == Decision::Wait {
                oldest = Some(self.game.matters[i].matter.id);
            }
        }
        for i in stale {
            let why =
                format!("pending more than {stale_after} h: no longer the oldest, and failed");
            self.decide_as(
                i,
                Verdict {
                    decision: Decision::Fail,
                    grounds: Grounds::Stale,
                    reasons: vec![why],
                },
            );
        }
    }
}

/// A DoV failed by the enactment of DoV `first`.
fn fails_by(first: MatterNumber) -> Verdict {
    Verdict {
        decision: Decision::Fail,
        grounds: Grounds::OtherDov,
        reasons: vec![format!(
            "DoV #{first} was enacted, which fails every other DoV"
        )],
    }
}

/// Whether the proposal at `i` has been pending too long at `now`.
pub(crate) fn is_stale(game: &Prepared<'_>, i: usize, now: Timestamp) -> bool {
    let stale_after = game.snapshot.params.stale_after_hours;
    stale_after > 0 && now.since(game.matters[i].matter.opened) > Span::hours(stale_after)
}

/// Decides every matter of `game` at `now` (no `next_change`), and says
/// which matters were decided on their own merits (by the game's matters'
/// order).
pub(crate) fn decide_all(game: &Prepared<'_>, now: Timestamp) -> (Run, Vec<bool>) {
    let stage = game.stage(now);
    let mut run = Decider {
        game,
        stage,
        out: Vec::new(),
        own_merits: vec![false; game.matters.len()],
    };
    for i in run.valid(MatterKind::Cfj) {
        run.evaluate(i);
    }
    let freeze = run.dovs();
    run.proposals(freeze);
    for i in 0..game.matters.len() {
        if let Some(why) = &game.invalid[i] {
            if i < run.stage.open {
                run.decide_as(i, Verdict::wait(Grounds::Invalid, why.clone()));
            }
        }
    }
    for i in run.stage.open..game.matters.len() {
        run.decide_as(i, Verdict::wait(Grounds::NotOpened, "not opened yet"));
    }
    let (mut decisions, mut waiting): (Vec<_>, Vec<_>) = run
        .out
        .into_iter()
        .partition(|d: &MatterDecision| d.decision != Decision::Wait);
    waiting.sort_by_key(|d| (d.opened, d.number));
    decisions.extend(waiting);
    let run_out = Run {
        now,
        turnout: Turnout {
            active: run.stage.active,
            quorum: run.stage.quorum.clone().unwrap_or(0),
        },
        decisions,
    };
    (run_out, run.own_merits)
}

fn quorum(snapshot: &Snapshot, active: i64) -> Result<i64, QuorumError> {
    super::params::quorum_for(&snapshot.params, active)
}

/// What one author's earlier valid proposals add up to: how many, and how
/// many on the UTC day of the latest.
#[derive(Default)]
struct Proposer {
    pending: u32,
    day: Option<chrono::NaiveDate>,
    on_day: u32,
}

/// Why each matter (in the game's order) is not a valid matter of its
/// kind, if it is not (MECHANICS.md §2.5 step 0 for DoVs, §4 A-19 for
/// proposals). A matter's validity depends only on the matters opened
/// before it, so one pass in order serves every run.
pub(crate) fn invalidity<'s>(
    snapshot: &'s Snapshot,
    matters: impl ExactSizeIterator<Item = &'s Matter>,
) -> Vec<Option<String>> {
    let params = &snapshot.params;
    let mut dov_before = false;
    let mut proposers: HashMap<&PlayerName, Proposer> = HashMap::new();
    let mut out = Vec::with_capacity(matters.len());
    for m in matters {
        let why = if !snapshot.active_at(&m.author, m.opened) {
            Some(format!(
                "not a valid {}: its author was not an active player",
                m.kind.as_str()
            ))
        } else if m.kind == MatterKind::Dov {
            dov_invalidity(snapshot, m)
        } else if m.kind == MatterKind::Proposal {
            let mine = proposers.entry(&m.author).or_default();
            let day = m.opened.to_datetime().date_naive();
            let record = ProposerRecord {
                pending: mine.pending,
                opened_today: if mine.day == Some(day) {
                    mine.on_day
                } else {
                    0
                },
            };
            let why = limits::may_propose(params, m.opened, dov_before, record)
                .err()
                .map(|r| format!("not a valid proposal: when it was opened, {r}"));
            if why.is_none() {
                mine.on_day = if mine.day == Some(day) {
                    mine.on_day + 1
                } else {
                    1
                };
                mine.day = Some(day);
                mine.pending += 1;
            }
            why
        } else {
            None
        };
        dov_before |= why.is_none() && m.kind == MatterKind::Dov;
        out.push(why);
    }
    out
}

fn dov_invalidity(snapshot: &Snapshot, m: &Matter) -> Option<String> {
    let params = &snapshot.params;
    if snapshot.is_emperor(&m.author) {
        Some("not a valid DoV: the emperor may not declare victory".into())
    } else if params.dov_banned_before_ascension
        && snapshot.phase == Phase::AwaitingAscension
        && snapshot.crowned.is_none_or(|c| c.at < m.opened)
    {
        Some("not a valid DoV: posted while an Ascension Address is awaited".into())
    } else if limits::in_downtime(params, m.opened) {
        Some("not a valid DoV: posted during the seasonal downtime".into())
    } else {
        None
    }
}
