//! The engine as it was before it was made fast: every matter re-counted
//! (and every ballot re-read) at every moment of the look-ahead, and the
//! whole run repeated for each hypothetical vote. Slow but obviously
//! faithful to MECHANICS.md; `props` checks that the engine decides
//! and looks ahead exactly as this does, on random games.
//!
//! Kept to the library's public types so it shares no code with the fast
//! paths it checks, except the condition language and the ballot reader;
//! it works out for itself when a decision may change ([`moments`]).

mod moments;

use std::collections::BTreeMap;

use chrono::Datelike;

use gitnomic::engine::ballot::{self, Vote};
use gitnomic::engine::decide::{self, Decision, Grounds, Quantities, Verdict};
use gitnomic::engine::expr::{Env, Type, Value};
use gitnomic::engine::limits::{self, ProposerRecord};
use gitnomic::engine::params::{ImplicitFor, MonthDay, SelfKill};
use gitnomic::engine::tally::{CountedVote, Source, Sticky, Tally, Uncounted, Why};
use gitnomic::engine::{
    Comment, Matter, MatterDecision, MatterKind, MatterNumber, NextChange, Phase, PlayerName, Run,
    Snapshot,
};
use gitnomic::time::{Span, Timestamp};

/// The reference `engine::look_ahead`.
pub(crate) fn resolve(snapshot: &Snapshot, now: Timestamp) -> Run {
    let mut run = decide_all(snapshot, now, now);
    annotate(snapshot, &mut run);
    run
}

// ---- the look-ahead --------------------------------------------------

fn annotate(snapshot: &Snapshot, run: &mut Run) {
    let now = run.now;
    let mut by_time: BTreeMap<MatterNumber, (Timestamp, Decision)> = BTreeMap::new();
    let waiting: Vec<MatterNumber> = run
        .decisions
        .iter()
        .filter(|d| d.decision == Decision::Wait)
        .map(|d| d.number)
        .collect();
    for t in moments::moments(snapshot, now) {
        if by_time.len() == waiting.len() {
            break;
        }
        let later = decide_all(snapshot, t, now);
        for id in &waiting {
            match later.get(*id) {
                Some(d) if d.decision != Decision::Wait && !by_time.contains_key(id) => {
                    by_time.insert(*id, (t, d.decision));
                }
                _ => {}
            }
        }
    }
    for d in run
        .decisions
        .iter_mut()
        .filter(|d| d.decision == Decision::Wait)
    {
        let timed = by_time.get(&d.number);
        let change = NextChange {
            at: timed.map(|t| t.0),
            becomes: timed.map(|t| t.1),
            more_for: votes_needed(snapshot, now, d, Decision::Enact),
            more_against: votes_needed(snapshot, now, d, Decision::Fail),
        };
        let nothing = change.at.is_none() && change.more_for.is_none();
        d.next_change = (!nothing || change.more_against.is_some()).then_some(change);
    }
}

fn votes_needed(
    snapshot: &Snapshot,
    now: Timestamp,
    d: &MatterDecision,
    target: Decision,
) -> Option<u32> {
    let p = &snapshot.params;
    let word = match target {
        Decision::Enact => p.words_for.first()?,
        _ => p.words_against.first()?,
    };
    let silent: Vec<&PlayerName> = snapshot
        .active_players(now)
        .into_iter()
        .filter(|name| !d.tally.votes.contains_key(*name))
        .collect();
    let mut trial = snapshot.clone();
    let index = trial.matters.iter().position(|m| m.id == d.number)?;
    for (k, name) in (1u32..).zip(silent) {
        trial.matters[index].comments.push(Comment {
            order: u64::MAX - u64::from(k),
            by: name.clone(),
            at: now,
            body: word.clone(),
        });
        if decide_all(&trial, now, now)
            .get(d.number)
            .map(|x| x.decision)
            == Some(target)
        {
            return Some(k);
        }
    }
    None
}

// ---- one run ---------------------------------------------------------

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

struct Stage<'a> {
    ctx: Context<'a>,
    active: i64,
    quorum: Result<i64, String>,
    hiatus_now: bool,
}

impl Stage<'_> {
    fn tally(&self, m: &Matter) -> Tally {
        count(&self.ctx, m)
    }

    fn verdict(&self, m: &Matter, tally: &Tally, hiatus: bool) -> Verdict {
        let quorum = match &self.quorum {
            Ok(q) => *q,
            Err(e) => {
                return Verdict::wait(
                    Grounds::Uncomputable,
                    format!("the quorum cannot be computed: {e}"),
                );
            }
        };
        let q = Quantities {
            tally,
            params: &self.ctx.snapshot.params,
            active: self.active,
            quorum,
            age: self.ctx.now.since(m.opened),
            opened: Some(m.opened),
            hiatus,
            enactable: None,
        };
        decide::decide(m.kind, q)
    }

    fn decided(m: &Matter, tally: Tally, verdict: Verdict) -> MatterDecision {
        MatterDecision {
            number: m.id,
            kind: m.kind,
            opened: m.opened,
            decision: verdict.decision,
            tally,
            grounds: verdict.grounds,
            reasons: verdict.reasons,
            next_change: None,
        }
    }

    fn evaluate(&self, m: &Matter, hiatus: bool) -> MatterDecision {
        let tally = self.tally(m);
        let verdict = self.verdict(m, &tally, hiatus);
        Self::decided(m, tally, verdict)
    }

    fn wait(&self, m: &Matter, grounds: Grounds, reason: String) -> MatterDecision {
        Self::decided(m, self.tally(m), Verdict::wait(grounds, reason))
    }
}

fn decide_all(snapshot: &Snapshot, now: Timestamp, cutoff: Timestamp) -> Run {
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
    let downtime = in_downtime(params, now);
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
            out.push(stage.wait(m, Grounds::Invalid, why.clone()));
        }
    }
    for m in future {
        out.push(stage.wait(m, Grounds::NotOpened, "not opened yet".into()));
    }
    let (mut decisions, mut waiting): (Vec<_>, Vec<_>) = out
        .into_iter()
        .partition(|d: &MatterDecision| d.decision != Decision::Wait);
    waiting.sort_by_key(|d| (d.opened, d.number));
    decisions.extend(waiting);
    Run {
        now,
        turnout: gitnomic::engine::Turnout {
            active,
            quorum: stage.quorum.unwrap_or(0),
        },
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
    let snapshot = stage.ctx.snapshot;
    let crowned = match snapshot.phase {
        Phase::AwaitingAscension => snapshot.crowned.map(|c| c.dov),
        Phase::Playing => None,
    };
    let fails = |m: &Matter, first: MatterNumber| {
        let verdict = Verdict {
            decision: Decision::Fail,
            grounds: Grounds::OtherDov,
            reasons: vec![format!(
                "DoV #{first} was enacted, which fails every other DoV"
            )],
        };
        Stage::decided(m, stage.tally(m), verdict)
    };
    let mut enacted: Option<MatterNumber> = crowned;
    let mut out = Vec::new();
    for m in dovs {
        let d = if let Some(first) = enacted {
            fails(m, first)
        } else if downtime {
            stage.wait(
                m,
                Grounds::Downtime,
                "seasonal downtime: DoVs are not resolved".into(),
            )
        } else {
            stage.evaluate(m, true)
        };
        if d.decision == Decision::Enact {
            enacted = Some(m.id);
        }
        out.push(d);
    }
    // An enactment fails every other DoV still pending, older ones too.
    if let Some(first) = enacted.filter(|_| crowned.is_none()) {
        let (waiting, mut decided): (Vec<_>, Vec<_>) = out
            .into_iter()
            .partition(|d: &MatterDecision| d.decision == Decision::Wait);
        for d in waiting {
            let m = dovs.iter().find(|m| m.id == d.number).unwrap();
            decided.push(fails(m, first));
        }
        out = decided;
    }
    out
}

fn freeze_reason(
    snapshot: &Snapshot,
    dovs: &[MatterDecision],
    downtime: bool,
) -> Option<(Grounds, String)> {
    let enacted = dovs.iter().find(|d| d.decision == Decision::Enact);
    let pending = dovs.iter().find(|d| d.decision == Decision::Wait);
    if let Some(d) = enacted {
        Some((
            Grounds::Hiatus,
            format!(
                "hiatus: DoV #{} was enacted and its Ascension Address is awaited",
                d.number
            ),
        ))
    } else if snapshot.phase == Phase::AwaitingAscension {
        Some((
            Grounds::Hiatus,
            "hiatus: the Ascension Address is awaited".into(),
        ))
    } else if let Some(d) = pending {
        Some((
            Grounds::Hiatus,
            format!("hiatus: DoV #{} is pending", d.number),
        ))
    } else if downtime {
        Some((
            Grounds::Downtime,
            "seasonal downtime: proposals are not resolved".into(),
        ))
    } else {
        None
    }
}

fn resolve_proposals(
    stage: &Stage<'_>,
    proposals: &[&Matter],
    freeze: Option<(Grounds, String)>,
) -> Vec<MatterDecision> {
    if let Some((grounds, why)) = freeze {
        return proposals
            .iter()
            .map(|m| stage.wait(m, grounds, why.clone()))
            .collect();
    }
    let stale_after = stage.ctx.snapshot.params.stale_after_hours;
    let now = stage.ctx.now;
    let is_stale = |m: &&&Matter| stale_after > 0 && now.since(m.opened) > Span::hours(stale_after);
    let mut out = Vec::new();
    let mut oldest: Option<MatterNumber> = None;
    for m in proposals.iter().filter(|m| !is_stale(m)) {
        if let Some(first) = oldest {
            out.push(stage.wait(
                m,
                Grounds::Queue,
                format!("waits for the older proposal #{first}"),
            ));
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
            grounds: Grounds::Stale,
            reasons: vec![format!(
                "pending more than {stale_after} h: no longer the oldest, and failed"
            )],
        };
        out.push(Stage::decided(m, stage.tally(m), verdict));
    }
    out
}

fn invalidity(snapshot: &Snapshot, open: &[&Matter]) -> Vec<(MatterNumber, String)> {
    let params = &snapshot.params;
    let mut invalid: Vec<(MatterNumber, String)> = Vec::new();
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

/// Why a DoV is no DoV, written from rules/core/victory-and-ascension.md
/// and seasonal-downtime.md rather than from the engine, so an engine bug
/// cannot hide in the oracle: "Any player except the emperor may claim to
/// have won"; "No DoV may be opened while the game awaits an Ascension
/// Address (from just after the enactment of the DoV it follows: a DoV
/// opened in the same second was opened before it), or during Seasonal
/// Downtime", which runs "from 00:00 UTC on downtime_start until 00:00 UTC
/// on downtime_end". The reasons are checked in the order the text gives
/// them. (The ban while an Address is awaited is a rule a ruleset may leave
/// out, hence its parameter.)
fn dov_invalidity(snapshot: &Snapshot, m: &Matter) -> Option<String> {
    let params = &snapshot.params;
    let by_emperor = snapshot.emperor.as_ref() == Some(&m.author);
    let awaiting_address = snapshot.phase == Phase::AwaitingAscension
        && match snapshot.crowned {
            // Opened in the same second as the enactment: before it.
            Some(crowned) => m.opened > crowned.at,
            None => true,
        };
    if by_emperor {
        Some("not a valid DoV: the emperor may not declare victory".into())
    } else if params.dov_banned_before_ascension && awaiting_address {
        Some("not a valid DoV: posted while an Ascension Address is awaited".into())
    } else if in_downtime(params, m.opened) {
        Some("not a valid DoV: posted during the seasonal downtime".into())
    } else {
        None
    }
}

/// Whether the game rests at `t` (rules/core/seasonal-downtime.md): the
/// rule is in the ruleset and `t` is in its yearly rest. The oracle's own
/// reading, for runs, for DoVs and for the moments a run may change.
pub(crate) fn in_downtime(params: &gitnomic::engine::Params, t: Timestamp) -> bool {
    params.seasonal_downtime && resting(params.downtime_start, params.downtime_end, t)
}

/// Whether moment `t` falls in the yearly rest from 00:00 UTC on `start`
/// until 00:00 UTC on `end`: the rest that began this year or, where it
/// runs over New Year, the one that began last year.
fn resting(start: MonthDay, end: MonthDay, t: Timestamp) -> bool {
    let at = t.to_datetime().naive_utc();
    let midnight = |year: i32, md: MonthDay| {
        chrono::NaiveDate::from_ymd_opt(year, md.month, md.day).and_then(|d| d.and_hms_opt(0, 0, 0))
    };
    let year = at.date().year();
    [year - 1, year].into_iter().any(|y| {
        let end_year = if (end.month, end.day) < (start.month, start.day) {
            y + 1
        } else {
            y
        };
        match (midnight(y, start), midnight(end_year, end)) {
            (Some(from), Some(until)) => from <= at && at < until,
            _ => false,
        }
    })
}

// ---- counting one matter ---------------------------------------------

#[derive(Clone, Copy)]
struct Context<'a> {
    snapshot: &'a Snapshot,
    now: Timestamp,
    cutoff: Timestamp,
    hiatus_since: Option<Timestamp>,
}

#[derive(Default)]
struct Pass {
    last: BTreeMap<PlayerName, (Vote, Source)>,
    uncounted: Vec<Uncounted>,
    vetoed: bool,
    self_killed: bool,
    sticky: Vec<Sticky>,
}

fn count(ctx: &Context<'_>, matter: &Matter) -> Tally {
    let params = &ctx.snapshot.params;
    let mut comments: Vec<&Comment> = matter
        .comments
        .iter()
        .filter(|c| c.at <= ctx.cutoff)
        .collect();
    comments.sort_by_key(|c| (c.at, c.order));
    let emperor = ctx
        .snapshot
        .emperor
        .as_ref()
        .filter(|w| ctx.snapshot.active_at(w, ctx.now));
    let author_default =
        params.implicit_for == ImplicitFor::AllMatters || matter.kind == MatterKind::Proposal;
    let implicit = author_default && ctx.snapshot.active_at(&matter.author, ctx.now);
    let with_implicit = |mut pass: Pass| {
        if implicit {
            pass.last
                .entry(matter.author.clone())
                .or_insert((Vote::For, Source::Implicit));
        }
        pass
    };
    let mut pass = with_implicit(scan(ctx, matter, &comments, true));
    let w_vote = emperor
        .and_then(|w| pass.last.get(w))
        .filter(|(v, s)| {
            matches!(v, Vote::For | Vote::Against)
                && (*s != Source::Implicit || params.implicit_vote_counts_as_voted)
        })
        .map(|(v, _)| *v);
    let mirror = w_vote.filter(|_| matter.kind == MatterKind::Proposal);
    if !params.def_is_valid_icon && mirror.is_none() {
        pass = with_implicit(scan(ctx, matter, &comments, false));
    }
    finish(ctx, pass, emperor, w_vote, mirror)
}

fn finish(
    ctx: &Context<'_>,
    pass: Pass,
    emperor: Option<&PlayerName>,
    w_vote: Option<Vote>,
    mirror: Option<Vote>,
) -> Tally {
    let mut tally = Tally {
        uncounted: pass.uncounted,
        self_killed: pass.self_killed,
        sticky: pass.sticky,
        wizard_for: w_vote == Some(Vote::For),
        wizard_voted: w_vote.is_some(),
        ..Tally::default()
    };
    for (name, (cast, source)) in pass.last {
        let vote = match (cast, mirror) {
            (Vote::Deferential, Some(w)) if Some(&name) != emperor => w,
            _ => cast,
        };
        tally.for_votes += i64::from(vote == Vote::For);
        tally.against_votes += i64::from(vote == Vote::Against);
        tally.votes_cast += 1;
        if Some(&name) == emperor && cast == Vote::Veto {
            tally.vetoed = true;
        }
        tally.votes.insert(name, CountedVote { vote, cast, source });
    }
    if ctx.snapshot.params.veto_sticky {
        tally.vetoed = pass.vetoed;
    }
    tally.uncounted.sort_by_key(|u| (u.at, u.order));
    tally
}

fn cast_of(ctx: &Context<'_>, matter: &Matter, c: &Comment, def_counts: bool) -> Result<Vote, Why> {
    let snap = ctx.snapshot;
    let params = &snap.params;
    let proposal = matter.kind == MatterKind::Proposal;
    let player = snap.player(&c.by).ok_or(Why::NotAPlayer)?;
    if !player.active_at(c.at) && !params.count_comments_made_while_idle {
        return Err(Why::MadeWhileIdle);
    }
    if proposal
        && !params.hiatus_permits_proposal_voting
        && ctx.hiatus_since.is_some_and(|h| h <= c.at)
    {
        return Err(Why::CastInHiatus);
    }
    let emperor = snap.is_emperor(&c.by);
    let ballot = ballot::read(&c.body, params);
    let permitted = |v: &Vote| match v {
        Vote::For | Vote::Against => true,
        Vote::Veto => proposal && emperor,
        Vote::Deferential if emperor => params.emperor_may_def && params.def_is_valid_icon,
        Vote::Deferential => def_counts,
    };
    ballot
        .words
        .iter()
        .copied()
        .rfind(permitted)
        .ok_or(match ballot {
            b if b.hidden => Why::Quoted,
            b if b.words.is_empty() => Why::NoVotingWord,
            b => Why::NotPermitted(b.words),
        })
}

fn scan(ctx: &Context<'_>, matter: &Matter, comments: &[&Comment], def_counts: bool) -> Pass {
    let snap = ctx.snapshot;
    let params = &snap.params;
    let proposal = matter.kind == MatterKind::Proposal;
    let mut pass = Pass::default();
    let mut locked = false;
    for c in comments {
        let skip = |why| Uncounted {
            by: c.by.clone(),
            at: c.at,
            order: c.order,
            why,
        };
        let (cast, player) = match cast_of(ctx, matter, c, def_counts) {
            Ok(cast) => (cast, snap.player(&c.by)),
            Err(why) => {
                pass.uncounted.push(skip(why));
                continue;
            }
        };
        let Some(player) = player else { continue };
        let is_author = c.by == matter.author && proposal;
        if is_author && locked {
            pass.uncounted.push(skip(Why::LockedSelfKill));
            continue;
        }
        let active_then = player.active_at(c.at);
        let kills = is_author && active_then && cast == Vote::Against;
        if kills {
            pass.self_killed = true;
            locked = params.self_kill == SelfKill::Locked;
        }
        let vetoes = proposal && snap.is_emperor(&c.by) && active_then && cast == Vote::Veto;
        pass.vetoed |= vetoes;
        if kills || vetoes {
            pass.sticky.push(Sticky {
                by: c.by.clone(),
                vote: cast,
                at: c.at,
                order: c.order,
            });
        }
        if !player.active_at(ctx.now) {
            pass.uncounted.push(skip(Why::IdleNow));
            continue;
        }
        let idle_since = player.idle.iter().any(|s| s.overlaps(c.at, ctx.now));
        if !params.revive_votes_on_unidle && idle_since {
            pass.uncounted.push(skip(Why::IdleSince));
            continue;
        }
        let source = Source::Comment {
            order: c.order,
            at: c.at,
        };
        if let Some((_, Source::Comment { order, at })) =
            pass.last.insert(c.by.clone(), (cast, source))
        {
            pass.uncounted.push(Uncounted {
                by: c.by.clone(),
                at,
                order,
                why: Why::Superseded(c.at),
            });
        }
    }
    pass
}
