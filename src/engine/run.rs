//! One resolve run at one moment, carried out in order (MECHANICS.md, "the
//! scenario file"): CfJs each on its own; then DoVs oldest first (an
//! enacted DoV fails the others; a failed last DoV ends the hiatus); then
//! proposals oldest first, each resolution letting the next one become the
//! oldest, and proposals pending too long skipped and failed.

use super::decide::{self, Decision, Quantities, Verdict};
use super::expr::{Env, Type, Value};
use super::limits::{self, ProposerRecord};
use super::snapshot::{Matter, MatterKind, Phase, Snapshot};
use super::tally::{self, Context, Tally};
use super::{MatterDecision, Run};
use crate::time::{Span, Timestamp};

/// The quorum formula's one name.
struct Active(i64);

impl Env for Active {
    fn type_of(&self, name: &str) -> Option<Type> {
        (name == "active").then_some(Type::Int)
    }
    fn value_of(&self, name: &str) -> Option<Value> {
        (name == "active").then_some(Value::Int(self.0))
    }
    fn describe(&self, _: &str, v: Value) -> String {
        v.to_string()
    }
}

/// Everything fixed for the whole run.
struct Stage<'a> {
    ctx: Context<'a>,
    active: i64,
    quorum: Result<i64, String>,
    hiatus_now: bool,
}

impl Stage<'_> {
    fn tally(&self, m: &Matter) -> Tally {
        tally::count(&self.ctx, m)
    }

    fn verdict(&self, m: &Matter, tally: &Tally, hiatus: bool) -> Verdict {
        let quorum = match &self.quorum {
            Ok(q) => *q,
            Err(e) => return Verdict::wait(format!("the quorum cannot be computed: {e}")),
        };
        let q = Quantities {
            tally,
            params: &self.ctx.snapshot.params,
            active: self.active,
            quorum,
            age: self.ctx.now.since(m.opened),
            hiatus,
            enactable: None,
        };
        decide::decide(m.kind, q)
    }

    fn decided(m: &Matter, tally: Tally, verdict: Verdict) -> MatterDecision {
        MatterDecision {
            id: m.id,
            kind: m.kind,
            opened: m.opened,
            decision: verdict.decision,
            tally,
            reasons: verdict.reasons,
            next_change: None,
        }
    }

    fn evaluate(&self, m: &Matter, hiatus: bool) -> MatterDecision {
        let tally = self.tally(m);
        let verdict = self.verdict(m, &tally, hiatus);
        Self::decided(m, tally, verdict)
    }

    fn wait(&self, m: &Matter, reason: String) -> MatterDecision {
        Self::decided(m, self.tally(m), Verdict::wait(reason))
    }
}

/// Decides every matter at `now`, counting only comments up to `cutoff`
/// (equal to `now`, except when looking ahead). No `next_change`.
pub(crate) fn decide_all(snapshot: &Snapshot, now: Timestamp, cutoff: Timestamp) -> Run {
    let params = &snapshot.params;
    let mut matters: Vec<&Matter> = snapshot.matters.iter().collect();
    matters.sort_by_key(|m| (m.opened, m.id));
    let (open, future): (Vec<&Matter>, Vec<&Matter>) =
        matters.into_iter().partition(|m| m.opened <= now);
    let invalid = invalidity(snapshot, &open);
    let is_valid = |m: &Matter| !invalid.iter().any(|(id, _)| *id == m.id);
    let valid = |kind| -> Vec<&Matter> {
        open.iter()
            .copied()
            .filter(|m| m.kind == kind && is_valid(m))
            .collect()
    };
    let dovs = valid(MatterKind::Dov);
    let hiatus_since = match snapshot.phase {
        Phase::AwaitingAscension => Some(Timestamp::from_unix(i64::MIN)),
        Phase::Playing => dovs.first().map(|d| d.opened),
    };
    let downtime = limits::in_downtime(params, now);
    let active = i64::try_from(snapshot.active_players(now).len()).unwrap_or(i64::MAX);
    let stage = Stage {
        ctx: Context {
            snapshot,
            now,
            cutoff,
            hiatus_since,
        },
        active,
        quorum: quorum(snapshot, active),
        hiatus_now: hiatus_since.is_some() || downtime,
    };
    let mut out = Vec::new();
    for m in valid(MatterKind::Cfj) {
        out.push(stage.evaluate(m, stage.hiatus_now));
    }
    let dov_out = resolve_dovs(&stage, &dovs, downtime);
    let freeze = freeze_reason(snapshot, &dov_out, downtime);
    out.extend(dov_out);
    let proposals = valid(MatterKind::Proposal);
    out.extend(resolve_proposals(&stage, &proposals, freeze));
    for m in &open {
        if let Some((_, why)) = invalid.iter().find(|(id, _)| *id == m.id) {
            out.push(stage.wait(m, why.clone()));
        }
    }
    for m in future {
        out.push(stage.wait(m, "not opened yet".into()));
    }
    let (mut decisions, mut waiting): (Vec<_>, Vec<_>) = out
        .into_iter()
        .partition(|d: &MatterDecision| d.decision != Decision::Wait);
    waiting.sort_by_key(|d| (d.opened, d.id));
    decisions.extend(waiting);
    Run {
        now,
        active,
        quorum: stage.quorum.unwrap_or(0),
        decisions,
    }
}

fn quorum(snapshot: &Snapshot, active: i64) -> Result<i64, String> {
    match snapshot.params.quorum.expr.eval(&Active(active)) {
        Ok(Value::Int(q)) => Ok(q),
        Ok(other) => Err(format!("the quorum formula gave {other}")),
        Err(e) => Err(e.to_string()),
    }
}

fn resolve_dovs(stage: &Stage<'_>, dovs: &[&Matter], downtime: bool) -> Vec<MatterDecision> {
    let mut enacted: Option<u64> = None;
    let mut out = Vec::new();
    for m in dovs {
        let d = if downtime {
            stage.wait(m, "seasonal downtime: DoVs are not resolved".into())
        } else if let Some(first) = enacted {
            let verdict = Verdict {
                decision: Decision::Fail,
                reasons: vec![format!(
                    "DoV #{first} was enacted, which fails every other DoV"
                )],
            };
            Stage::decided(m, stage.tally(m), verdict)
        } else {
            stage.evaluate(m, true)
        };
        if d.decision == Decision::Enact {
            enacted = Some(m.id);
        }
        out.push(d);
    }
    out
}

/// Why proposals may not be resolved in this run, if they may not.
fn freeze_reason(snapshot: &Snapshot, dovs: &[MatterDecision], downtime: bool) -> Option<String> {
    let enacted = dovs.iter().find(|d| d.decision == Decision::Enact);
    let pending = dovs.iter().find(|d| d.decision == Decision::Wait);
    if let Some(d) = enacted {
        Some(format!(
            "hiatus: DoV #{} was enacted and its Ascension Address is awaited",
            d.id
        ))
    } else if snapshot.phase == Phase::AwaitingAscension {
        Some("hiatus: the Ascension Address is awaited".into())
    } else if let Some(d) = pending {
        Some(format!("hiatus: DoV #{} is pending", d.id))
    } else if downtime {
        Some("seasonal downtime: proposals are not resolved".into())
    } else {
        None
    }
}

fn resolve_proposals(
    stage: &Stage<'_>,
    proposals: &[&Matter],
    freeze: Option<String>,
) -> Vec<MatterDecision> {
    if let Some(why) = freeze {
        return proposals
            .iter()
            .map(|m| stage.wait(m, why.clone()))
            .collect();
    }
    let stale_after = stage.ctx.snapshot.params.stale_after_hours;
    let now = stage.ctx.now;
    let is_stale = |m: &&&Matter| stale_after > 0 && now.since(m.opened) > Span::hours(stale_after);
    let mut out = Vec::new();
    let mut oldest: Option<u64> = None;
    for m in proposals.iter().filter(|m| !is_stale(m)) {
        if let Some(first) = oldest {
            out.push(stage.wait(m, format!("waits for the older proposal #{first}")));
            continue;
        }
        let d = stage.evaluate(m, false);
        if d.decision == Decision::Wait {
            oldest = Some(m.id);
        }
        out.push(d);
    }
    for m in proposals.iter().filter(is_stale) {
        let verdict = Verdict {
            decision: Decision::Fail,
            reasons: vec![format!(
                "pending more than {stale_after} h: no longer the oldest, and failed"
            )],
        };
        out.push(Stage::decided(m, stage.tally(m), verdict));
    }
    out
}

/// The matters that are not valid matters of their kind, with the reason
/// (MECHANICS.md §2.5 step 0 for DoVs, §4 A-19 for proposals).
fn invalidity(snapshot: &Snapshot, open: &[&Matter]) -> Vec<(u64, String)> {
    let params = &snapshot.params;
    let mut invalid: Vec<(u64, String)> = Vec::new();
    for (i, m) in open.iter().enumerate() {
        let earlier_valid = || {
            open[..i]
                .iter()
                .filter(|e| !invalid.iter().any(|(id, _)| *id == e.id))
        };
        let why = if !snapshot.active_at(&m.author, m.opened) {
            Some(format!(
                "not a valid {}: its author was not an active player",
                m.kind.as_str()
            ))
        } else if m.kind == MatterKind::Dov {
            dov_invalidity(snapshot, m)
        } else if m.kind == MatterKind::Proposal {
            let dov = earlier_valid().find(|e| e.kind == MatterKind::Dov);
            let mine: Vec<&&Matter> = earlier_valid()
                .filter(|e| e.kind == MatterKind::Proposal && e.author == m.author)
                .collect();
            let record = ProposerRecord {
                pending: u32::try_from(mine.len()).unwrap_or(u32::MAX),
                opened_today: u32::try_from(
                    mine.iter()
                        .filter(|e| limits::same_utc_day(e.opened, m.opened))
                        .count(),
                )
                .unwrap_or(u32::MAX),
            };
            limits::may_propose(params, m.opened, dov.is_some(), record)
                .err()
                .map(|r| format!("not a valid proposal: when it was opened, {r}"))
        } else {
            None
        };
        if let Some(why) = why {
            invalid.push((m.id, why));
        }
    }
    invalid
}

fn dov_invalidity(snapshot: &Snapshot, m: &Matter) -> Option<String> {
    let params = &snapshot.params;
    if snapshot.is_emperor(&m.author) {
        Some("not a valid DoV: the emperor may not declare victory".into())
    } else if params.dov_banned_before_ascension && snapshot.phase == Phase::AwaitingAscension {
        Some("not a valid DoV: posted while an Ascension Address is awaited".into())
    } else if limits::in_downtime(params, m.opened) {
        Some("not a valid DoV: posted during the seasonal downtime".into())
    } else {
        None
    }
}
