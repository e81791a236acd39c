//! Making the plan: finish what an earlier run started, decide the votable
//! matters against the game as it will be, merge what needs no vote, and
//! post the status of what stays pending.

use std::collections::BTreeMap;

use super::effect::{DynastyValue, Effect, Step};
use super::prospect::{Attempt, Prospect};
use super::record::Resolved;
use super::{Fate, Inputs, Line, Plan, PlanError, Ruling, TreeId, Trial};
use crate::engine::{self, Decision, MatterDecision, Run, Turnout};
use crate::game::Game;
use crate::matter::collected::{Collected, engine_kind, player_name, snapshot};
use crate::matter::journal::Resolution;
use crate::matter::labels::{ENACTED, FAILED, HELD, RESOLVING, carries};
use crate::matter::status::{Progress, active_players, status_text};
use crate::matter::{Kind, MatterInfo, MatterNumber};
use crate::record::{Failure, Outcome};
use crate::ruleset::diff::{RuleChange, diff};
use crate::time::Timestamp;

/// Who resolves matters, in records.
const RESOLVED_BY: &str = "gitnomic resolve";

/// Makes the plan for one run. See the module docs of [`super`].
pub(crate) fn plan(inputs: Inputs<'_>, trial: &mut dyn Trial) -> Result<Plan, PlanError> {
    let dov_pending = dov_pending(&inputs);
    let crowned = crate::matter::admission::crowning(&inputs.base.game);
    let mut p = Planner {
        trial,
        branch: inputs.branch.to_string(),
        prospect: inputs.base,
        now: inputs.now,
        steps: Vec::new(),
        lines: Vec::new(),
        decisions: BTreeMap::new(),
        games: BTreeMap::new(),
        dice: BTreeMap::new(),
        logs: BTreeMap::new(),
        dov_pending,
        crowned,
    };
    let everything: Vec<&Collected> = inputs
        .unfinished
        .iter()
        .chain(inputs.open)
        .chain(inputs.unvoted)
        .collect();
    p.log_rolls(&everything)?;
    let found = p.prospect.game.clone();
    let in_progress = |m: &&Collected| m.journal.resolution.is_some();
    let mut started: Vec<&Collected> = inputs
        .unfinished
        .iter()
        .chain(inputs.open.iter().filter(in_progress))
        .chain(inputs.unvoted.iter().filter(in_progress))
        .collect();
    started.sort_by_key(|m| (m.journal.resolution.as_ref().map(|r| r.at), m.info.number));
    for m in started {
        p.finish(m)?;
    }
    // Whether each matter may stand is judged before anything is counted,
    // against the game as the run found it and every matter it found. A
    // matter an earlier run began to resolve counts once, as the record
    // this run finishes it with says, whether or not that record reached
    // the default branch before the earlier run stopped.
    let mut counted = found;
    let planned: Vec<_> = p
        .records_planned()
        .into_iter()
        .filter(|r| !counted.records.iter().any(|c| c.path() == r.path()))
        .collect();
    counted.records.extend(planned);
    let standing = p.standing(&counted, &everything)?;
    let fresh = |m: &&Collected| !in_progress(m) && !standing.contains_key(&m.info.number);
    let mut pending: Vec<&Collected> = inputs.open.iter().filter(fresh).collect();
    let mut unvoted: Vec<&Collected> = inputs.unvoted.iter().filter(fresh).collect();
    unvoted.sort_by_key(|m| m.info.number);
    for m in everything.iter().filter(|m| !in_progress(m)) {
        if let Some(why) = standing.get(&m.info.number) {
            p.not_a_matter(m, why)?;
        }
    }
    let first = p.decide(&pending, false)?;
    let turnout = first.turnout;
    let mut not_merged = Vec::new();
    loop {
        let mut run = p.decide(&pending, false)?;
        if p.close_invalid(&run, &mut pending)? {
            run = p.decide(&pending, false)?;
        }
        loop {
            let (decided, changed) = p.carry_run(&run, &pending)?;
            pending.retain(|m| !decided.contains(&m.info.number));
            if !changed {
                break;
            }
            run = p.decide(&pending, false)?;
        }
        // What needs no vote; an Ascension Address that begins the next
        // dynasty ends the hiatus, so what it froze is decided again in
        // this run: a run leaves nothing to do at its own moment.
        let mut began = false;
        for m in std::mem::take(&mut unvoted) {
            if p.unvoted(m)? {
                began |= m.kind == Kind::Ascension;
            } else {
                not_merged.push(m);
            }
        }
        if !began {
            break;
        }
        unvoted = std::mem::take(&mut not_merged);
    }
    for m in not_merged {
        p.not_merged(m)?;
    }
    let last = p.decide(&pending, true)?;
    for m in pending {
        if let Some(d) = last.get(m.info.number) {
            p.pending(m, d)?;
        }
    }
    Ok(Plan {
        now: p.now,
        turnout,
        lines: p.lines,
        steps: p.steps,
        decisions: p.decisions,
    })
}

/// The plan being made.
pub(super) struct Planner<'t> {
    pub(super) trial: &'t mut dyn Trial,
    /// The default branch, the one every matter is merged into.
    pub(super) branch: String,
    pub(super) prospect: Prospect,
    pub(super) now: Timestamp,
    pub(super) steps: Vec<Step>,
    lines: Vec<Line>,
    decisions: BTreeMap<MatterNumber, MatterDecision>,
    /// Games read from trees, checked once each.
    games: BTreeMap<TreeId, Game>,
    /// The dice section of each matter's status comment.
    pub(super) dice: BTreeMap<MatterNumber, String>,
    /// Each matter's dice log as this run leaves it.
    pub(super) logs: BTreeMap<MatterNumber, crate::record::rolls::RollLog>,
    /// When Declarations of Victory were pending, by number: from their
    /// opening to their resolution (`None`: still pending as the run
    /// begins). A dynastic action made in one of these spans was made in
    /// a hiatus. One this run closes as no valid DoV never opened one.
    pub(super) dov_pending: Vec<(MatterNumber, Timestamp, Option<Timestamp>)>,
    /// The DoV whose Ascension Address the game awaits, once one is
    /// enacted: it failed every DoV then pending.
    pub(super) crowned: Option<crate::engine::Crowned>,
}

/// When each Declaration of Victory the run knows of was pending: the
/// recorded ones, those a killed run left to finish, and the open ones.
/// Judged from the records, not from what is open as the run begins, so a
/// run that finishes a killed one judges a comment as it would have.
fn dov_pending(inputs: &Inputs<'_>) -> Vec<(MatterNumber, Timestamp, Option<Timestamp>)> {
    let recorded = inputs
        .base
        .game
        .records
        .iter()
        .filter(|r| r.kind == crate::engine::MatterKind::Dov && r.outcome != Outcome::NotAMatter)
        .map(|r| (r.number, r.opened, Some(r.resolved)));
    // One closed, or being closed, as no DoV never began a hiatus.
    let closing = |m: &&Collected| {
        m.journal
            .resolution
            .as_ref()
            .is_some_and(|r| r.outcome == Outcome::NotAMatter)
    };
    let live = inputs
        .unfinished
        .iter()
        .chain(inputs.open)
        .filter(|m| m.kind == Kind::Dov && !closing(m))
        .map(|m| {
            let resolved = m.journal.resolution.as_ref().map(|r| r.at);
            (m.info.number, m.info.opened, resolved)
        });
    recorded.chain(live).collect()
}

impl Planner<'_> {
    /// A status comment's body: `text`, the matter's dice, the journal.
    pub(super) fn render(
        &self,
        n: MatterNumber,
        journal: &crate::matter::journal::Journal,
        text: &str,
    ) -> String {
        // Every roll the matter's log holds is kept in its status too
        // (and never taken out), where an audit finds one the log lost.
        let mut journal = journal.clone();
        for r in self
            .logs
            .get(&n)
            .map(|l| l.rolls.as_slice())
            .unwrap_or_default()
        {
            let said = format!("{} = {}", r.dice, r.total);
            let kept = journal.rolled.entry(r.comment).or_default();
            if !kept.contains(&said) {
                kept.push(said);
            }
        }
        match self.dice.get(&n) {
            Some(dice) => journal.render(&format!("{}\n\n{dice}", text.trim_end())),
            None => journal.render(text),
        }
    }

    /// The records the plan writes so far.
    fn records_planned(&self) -> Vec<crate::record::Record> {
        self.steps
            .iter()
            .filter_map(|s| match &s.effect {
                Effect::Record(record) => Some(record.as_ref().clone()),
                _ => None,
            })
            .collect()
    }

    pub(super) fn step(&mut self, number: MatterNumber, effect: Effect) {
        if let Effect::Merge { head, .. } = &effect {
            // A head the repository lacks is held before its merge is planned.
            let _ = self.trial.merges(head);
        }
        self.steps.push(Step { number, effect });
    }

    pub(super) fn line(&mut self, m: &MatterInfo, kind: Kind, decision: Ruling, fate: Fate) {
        self.lines.push(Line {
            number: m.number,
            kind,
            decision,
            fate,
            reasons: Vec::new(),
        });
    }

    fn decided_line(&mut self, m: &Collected, d: &MatterDecision, outcome: Fate) {
        self.line(&m.info, m.kind, Ruling::Rules(d.decision), outcome);
        if let Some(line) = self.lines.last_mut() {
            line.reasons.clone_from(&d.reasons);
        }
        self.decisions.insert(m.info.number, d.clone());
    }

    /// The engine's decisions on `matters` against the prospect's game.
    fn decide(&self, matters: &[&Collected], look_ahead: bool) -> Result<Run, PlanError> {
        let snap = self.snapshot_of(matters)?;
        Ok(if look_ahead {
            engine::look_ahead(&snap, self.now)
        } else {
            engine::decide(&snap, self.now)
        })
    }

    /// What the engine decides `matters` on: the game as it will be, with
    /// the DoV whose Ascension Address it awaits, if known.
    fn snapshot_of(&self, matters: &[&Collected]) -> Result<engine::Snapshot, PlanError> {
        let crowned = self.crowned.filter(|_| awaits_address(&self.prospect.game));
        snapshot_on(&self.prospect.game, crowned, matters)
    }

    /// The game of a tree, read and checked once.
    pub(super) fn game_of(
        &mut self,
        number: MatterNumber,
        tree: &TreeId,
    ) -> Result<&Game, PlanError> {
        if !self.games.contains_key(tree) {
            let files = self.trial.files(tree).map_err(|why| repo(number, why))?;
            self.games.insert(tree.clone(), Game::check(&files));
        }
        Ok(&self.games[tree])
    }

    /// Tries a merge on the prospect.
    pub(super) fn attempt(
        &mut self,
        m: &MatterInfo,
        kind: Kind,
    ) -> Result<Option<Attempt>, PlanError> {
        let Some(head) = &m.head else { return Ok(None) };
        self.prospect
            .attempt(self.trial, kind, m.number, head)
            .map(Some)
            .map_err(|why| repo(m.number, why))
    }

    /// Sets keys of the prospect's `[dynasty]` table.
    pub(super) fn edit_dynasty(
        &mut self,
        number: MatterNumber,
        edits: &[(&'static str, DynastyValue)],
    ) -> Result<(), PlanError> {
        self.prospect
            .edit_dynasty(self.trial, edits)
            .map_err(|why| repo(number, why))
    }

    /// The rule-level changes a pull request makes, from where it forked
    /// (not from the default branch's tip, which may have moved on).
    fn changes(&mut self, m: &Collected) -> Result<Vec<RuleChange>, PlanError> {
        let Some(head) = &m.info.head else {
            return Ok(Vec::new());
        };
        let n = m.info.number;
        let fork = match &m.info.merge_commit {
            Some(merge) => self.trial.fork_before(head, merge),
            None => self.trial.fork_of(head),
        }
        .map_err(|why| repo(n, why))?;
        let tip = self.trial.tree_of(head).map_err(|why| repo(n, why))?;
        let old = self.game_of(n, &fork)?.ruleset.clone();
        Ok(diff(&old, &self.game_of(n, &tip)?.ruleset))
    }

    /// Carries out the decided matters of `run` in order, until one changes
    /// the game (the rest must then be decided again on the new game). An
    /// enacted DoV fails every other in the same run, so the run's other
    /// DoVs are carried out before it is decided again.
    /// Returns the matters decided, and whether the game changed.
    fn carry_run(
        &mut self,
        run: &Run,
        pending: &[&Collected],
    ) -> Result<(Vec<MatterNumber>, bool), PlanError> {
        let find = |id: MatterNumber| pending.iter().copied().find(|m| m.info.number == id);
        let mut decided = Vec::new();
        let mut crowned = false;
        for d in run
            .decisions
            .iter()
            .filter(|d| d.decision != Decision::Wait)
        {
            let Some(m) = find(d.number) else { continue };
            if crowned && m.kind != Kind::Dov {
                break;
            }
            decided.push(d.number);
            let (enacted, changed) = self.carry(m, d.clone(), run)?;
            if enacted && m.kind == Kind::Dov {
                crowned = true;
            } else if changed && !crowned {
                return Ok((decided, true));
            }
        }
        Ok((decided, crowned))
    }

    /// What the engine says was no valid matter when it was opened never
    /// becomes one: it is closed, and taken out of `pending` so later
    /// decisions of the run do not see it at all. The judgement before the
    /// count closes all of these first; this is for what a game changed by
    /// the run's own enactments makes invalid.
    /// Returns whether it closed any (the run must then be decided again).
    fn close_invalid(
        &mut self,
        run: &Run,
        pending: &mut Vec<&Collected>,
    ) -> Result<bool, PlanError> {
        let invalid = engine::invalid(&self.snapshot_of(pending)?, self.now);
        let mut closed = Vec::new();
        for d in &run.decisions {
            let matter = pending.iter().find(|m| m.info.number == d.number);
            if let (Decision::Wait, Some(why), Some(m)) =
                (d.decision, invalid.get(&d.number), matter)
            {
                self.not_a_matter(m, why)?;
                closed.push(d.number);
            }
        }
        pending.retain(|m| !closed.contains(&m.info.number));
        Ok(!closed.is_empty())
    }

    /// Plans an enact or fail decision. The merge is tried first, so what
    /// cannot be carried out fails (or is closed) instead of blocking.
    /// Returns (enacted, changed the game).
    fn carry(
        &mut self,
        m: &Collected,
        mut d: MatterDecision,
        run: &Run,
    ) -> Result<(bool, bool), PlanError> {
        let n = m.info.number;
        let mut refused = None;
        let mut adopt = None;
        if d.decision == Decision::Enact {
            if let Some(reason) = m
                .journal
                .refusal_standing(&m.info.labels, m.info.head.as_ref().map(|h| h.0.as_str()))
            {
                let text = crate::matter::status::refused_merge(n, reason);
                let why = crate::matter::status::merge_refused(reason);
                self.hold_with(m, &d, &why, &text);
                return Ok((false, false));
            }
            if let Some(why) = self.missing_head(&m.info) {
                self.hold(m, &d, &why);
                return Ok((false, false));
            }
            match self.attempt(&m.info, m.kind)? {
                Some(Attempt::Clean(tree, game)) => adopt = Some((tree, *game)),
                Some(Attempt::NotAMatter(why)) => {
                    self.not_a_matter(m, &why)?;
                    return Ok((false, false));
                }
                Some(Attempt::Refused(why)) => {
                    d.decision = Decision::Fail;
                    d.reasons.push(why.clone());
                    refused = Some(why);
                }
                None => {}
            }
        }
        let enacted = d.decision == Decision::Enact;
        let resolution = Resolution {
            outcome: if enacted {
                Outcome::Enacted
            } else {
                Outcome::Failed
            },
            at: self.now,
            head: m.info.head.clone(),
            reasons: d.reasons.clone(),
            illegal: refused.is_some(),
        };
        let crown = (enacted && m.kind == Kind::Dov).then(|| self.crown_edits(m));
        if crown.is_some() {
            self.crowned = Some(crate::engine::Crowned {
                dov: n,
                at: self.now,
            });
        }
        let players = self.active_players();
        self.resolve_steps(m, &d, run.turnout, &players, resolution, crown.clone())?;
        let fate = match (enacted, refused) {
            (true, _) => Fate::Enacted,
            (false, Some(why)) => Fate::Refused(why),
            (false, None) => Fate::Failed,
        };
        self.decided_line(m, &d, fate);
        let mut changed = false;
        if let Some((tree, game)) = adopt {
            self.prospect.adopt(tree, game);
            changed = true;
        }
        if let Some(edits) = crown {
            self.edit_dynasty(n, &edits)?;
            changed = true;
        }
        Ok((enacted, changed))
    }

    /// Finishes a matter an earlier run decided: the same effects from the
    /// decision in its journal, the votes read at the moment it was taken,
    /// on the game as it was then. An effect already carried out is a
    /// no-op when carried out again.
    /// Returns whether it was enacted.
    fn finish(&mut self, m: &Collected) -> Result<bool, PlanError> {
        let n = m.info.number;
        let Some(resolution) = m.journal.resolution.clone() else {
            return Ok(false);
        };
        if resolution.outcome == Outcome::NotAMatter {
            self.close_steps(m, resolution)?;
            return Ok(false);
        }
        if engine_kind(m.kind).is_none() {
            self.finish_unvoted(m, &resolution)?;
            return Ok(true);
        }
        // The votes were counted on the head the decision names; a merged
        // pull request may no longer report one.
        let mut m = m.clone();
        if resolution.head.is_some() {
            m.info.head.clone_from(&resolution.head);
        }
        // Merged by a run killed before the forge said so: as merged.
        if let (None, Some(head)) = (&m.info.merge_commit, &m.info.head) {
            m.info.merge_commit = self.trial.brought_in(head, n).map_err(|why| repo(n, why))?;
        }
        let m = &m;
        let then = match &m.info.merge_commit {
            Some(merge) => {
                let tree = self.trial.before(merge).map_err(|why| repo(n, why))?;
                self.game_of(n, &tree)?.clone()
            }
            None => self.prospect.game.clone(),
        };
        let run = engine::decide(&snapshot_on(&then, None, &[m])?, resolution.at);
        let Some(mut d) = run.get(n).cloned() else {
            return Ok(false);
        };
        let enacted = resolution.outcome == Outcome::Enacted;
        d.decision = if enacted {
            Decision::Enact
        } else {
            Decision::Fail
        };
        d.reasons.clone_from(&resolution.reasons);
        d.next_change = None;
        // The tally's rows are the players the decision counted, on the
        // game as it was then: not the roster this enactment may change.
        let players = then
            .state
            .as_ref()
            .map(|state| active_players(state, resolution.at))
            .unwrap_or_default();
        if enacted && m.info.merge_commit.is_none() {
            if let Some(Attempt::Clean(tree, game)) = self.attempt(&m.info, m.kind)? {
                self.prospect.adopt(tree, *game);
            }
        }
        let crown = (enacted && m.kind == Kind::Dov).then(|| self.crown_edits(m));
        if crown.is_some() {
            self.crowned = Some(crate::engine::Crowned {
                dov: n,
                at: resolution.at,
            });
        }
        self.resolve_steps(m, &d, run.turnout, &players, resolution, crown.clone())?;
        if let Some(edits) = crown {
            self.edit_dynasty(n, &edits)?;
        }
        self.decided_line(m, &d, Fate::Finished);
        Ok(enacted)
    }

    /// The effects that resolve a decided matter, in the order that lets a
    /// later run finish after any of them: announce, merge or close, record
    /// (before anything else changes the game), crown, final status, and
    /// last the labels that say it is done. `players` are the rows of the
    /// status comment's tally: those active when it was decided.
    fn resolve_steps(
        &mut self,
        m: &Collected,
        d: &MatterDecision,
        turnout: Turnout,
        players: &[String],
        resolution: Resolution,
        crown: Option<Vec<(&'static str, DynastyValue)>>,
    ) -> Result<(), PlanError> {
        let n = m.info.number;
        let changes = self.changes(m)?;
        let enacted = resolution.outcome == Outcome::Enacted;
        let illegal = resolution.illegal;
        let at = resolution.at;
        let mut journal = m.journal.clone();
        journal.resolution = Some(resolution);
        journal.refused = None;
        let status = |this: &Self, progress: &Progress| {
            this.render(n, &journal, &status_text(d, m, players, &changes, progress))
        };
        let body = status(self, &Progress::Carrying(d.decision));
        self.step(n, Effect::Status { body });
        self.step(
            n,
            Effect::Labels {
                add: vec![RESOLVING],
                remove: vec![],
            },
        );
        match (enacted, &m.info.head) {
            (true, Some(head)) => {
                let message = format!("Enact {} #{n}: {}", m.kind, m.info.subject_title());
                self.step(
                    n,
                    Effect::Merge {
                        head: head.clone(),
                        message,
                    },
                );
            }
            _ => self.step(n, Effect::Close),
        }
        let state = self.prospect.game.state.as_ref().ok_or_else(no_state)?;
        let author = player_name(state, &m.info.author).0;
        let name = |login: &str| player_name(state, &crate::matter::Login(login.into())).0;
        let resolved = Resolved {
            matter: m,
            author: author.clone(),
            dynasty: state.dynasty.number,
            at,
            turnout,
            resolved_by: RESOLVED_BY.into(),
            discussion: crate::record::discussion::of(m, Some(&d.tally), &name),
        };
        let mut record = super::record::record_of(d, &resolved);
        if illegal {
            record.failure = Some(Failure::Illegal);
        }
        let emperor = state.terms.emperor.clone();
        // The new emperor learns from their DoV's status how to post the
        // Address the game now awaits, with the rules they may keep.
        let address = crown.is_some().then(|| {
            crate::matter::admission::address_template(&self.prospect.game.ruleset, &emperor)
        });
        self.step(n, Effect::Record(Box::new(record)));
        if let Some(edits) = crown {
            let message = format!("{} #{n} enacted: {author} is the new {emperor}", m.kind);
            self.step(n, Effect::Dynasty { edits, message });
        }
        // The final status before the final labels: taking `resolving` off
        // is what says the matter is done, so it comes last.
        let done = if enacted {
            Progress::Enacted
        } else {
            Progress::Failed
        };
        let body = match &address {
            Some(address) => {
                let text = status_text(d, m, players, &changes, &done);
                self.render(n, &journal, &format!("{text}\n{address}"))
            }
            None => status(self, &done),
        };
        self.step(n, Effect::Status { body });
        let (add, other) = if enacted {
            (ENACTED, FAILED)
        } else {
            (FAILED, ENACTED)
        };
        // `held` says a decision to enact waits for the forge: a decided
        // matter waits for nothing.
        let held = carries(&m.info.labels, HELD).then_some(HELD);
        self.step(
            n,
            Effect::Labels {
                add: vec![add],
                remove: [Some(other), held, Some(RESOLVING)]
                    .into_iter()
                    .flatten()
                    .collect(),
            },
        );
        Ok(())
    }

    /// An enacted DoV makes its author the emperor and awaits their
    /// Ascension Address.
    fn crown_edits(&self, m: &Collected) -> Vec<(&'static str, DynastyValue)> {
        let author = self.prospect.game.state.as_ref().map_or_else(
            || m.info.author.0.clone(),
            |s| player_name(s, &m.info.author).0,
        );
        vec![
            ("emperor", DynastyValue::Text(author)),
            ("phase", DynastyValue::Text("awaiting-ascension".into())),
        ]
    }

    /// Why a pull request to be merged cannot be: its branch is gone, or
    /// its head is not in the repository (a checkout that never fetched it).
    fn missing_head(&mut self, m: &MatterInfo) -> Option<String> {
        if let Some(why) = m.branch_gone() {
            return Some(why.into());
        }
        match &m.head {
            Some(head) if m.pull && !self.trial.has(head) => Some(format!(
                "its head {head} is not in the repository (was it fetched?)"
            )),
            _ => None,
        }
    }

    /// Holds a matter the rules would enact but this run cannot: nothing
    /// is merged, closed or recorded, and its status says why, so the run
    /// that can carry it out decides it again.
    fn hold(&mut self, m: &Collected, d: &MatterDecision, why: &str) {
        let n = m.info.number;
        let text = format!(
            "### {} #{n}: Held\n\nThe rules would enact it now, but {why}. Nothing is merged or recorded until it can be: restore the branch (or fetch its head), and the next run carries it out.",
            m.kind
        );
        self.hold_with(m, d, why, &text);
    }

    /// Holds a matter with the status text `text`, posted only if the
    /// status does not read so already.
    fn hold_with(&mut self, m: &Collected, d: &MatterDecision, why: &str, text: &str) {
        let n = m.info.number;
        let body = self.render(n, &m.journal, text);
        if m.status_body.as_deref() != Some(body.as_str()) {
            self.step(n, Effect::Status { body });
        }
        self.decided_line(m, d, Fate::Held(why.to_string()));
    }

    /// The players active now, in roster order: the rows of a status
    /// comment's tally.
    fn active_players(&self) -> Vec<String> {
        self.prospect
            .game
            .state
            .as_ref()
            .map(|state| active_players(state, self.now))
            .unwrap_or_default()
    }

    /// Plans a pending matter's status comment, saying why it would fail
    /// if its votes enacted it now, when that is known before the vote.
    fn pending(&mut self, m: &Collected, d: &MatterDecision) -> Result<(), PlanError> {
        let changes = self.changes(m)?;
        let flaw = self.flaw(m)?;
        let mut text = status_text(d, m, &self.active_players(), &changes, &Progress::Pending);
        if let Some(why) = &flaw {
            let said = crate::matter::status::capitalised(&crate::matter::status::flawed(why));
            let said = format!("\n**{}.**\n", said.trim_end_matches('.'));
            // Beside what the votes come to, before the rules' reasons.
            let at = text.find("\nBy the rules:\n").unwrap_or(text.len());
            text.insert_str(at, &said);
        }
        let body = self.render(m.info.number, &m.journal, &text);
        if m.status_body.as_deref() != Some(body.as_str()) {
            self.step(m.info.number, Effect::Status { body });
        }
        let fate = flaw.map_or(Fate::Pending, Fate::Flawed);
        self.decided_line(m, d, fate);
        Ok(())
    }

    /// Why a pending pull request would fail if its votes enacted it now:
    /// merged onto the game as it will be, its files leave the game with
    /// problems, or it conflicts. `None` when it would not, or when this
    /// run cannot try (an issue, a head it does not hold).
    fn flaw(&mut self, m: &Collected) -> Result<Option<String>, PlanError> {
        if !m.info.pull || self.missing_head(&m.info).is_some() {
            return Ok(None);
        }
        Ok(match self.attempt(&m.info, m.kind)? {
            Some(Attempt::Refused(why)) => Some(why),
            _ => None,
        })
    }
}

/// The engine's input for `matters` against `game`, with the DoV
/// `crowned` whose Ascension Address the game awaits, if known.
fn snapshot_on(
    game: &Game,
    crowned: Option<crate::engine::Crowned>,
    matters: &[&Collected],
) -> Result<engine::Snapshot, PlanError> {
    let state = game.state.as_ref().ok_or_else(no_state)?;
    let params = game
        .params
        .as_ref()
        .ok_or_else(|| PlanError::Game("the rules' parameters are not valid".into()))?;
    let engine_matters: Vec<engine::Matter> = matters
        .iter()
        .filter_map(|m| m.engine_matter(state))
        .collect();
    let mut snap = snapshot(state, params, engine_matters);
    snap.crowned = crowned;
    Ok(snap)
}

/// Whether `game` awaits an Ascension Address.
fn awaits_address(game: &Game) -> bool {
    game.state
        .as_ref()
        .is_some_and(|s| s.dynasty.phase == crate::gamestate::Phase::AwaitingAscension)
}

pub(super) fn repo(number: MatterNumber, why: impl std::fmt::Display) -> PlanError {
    PlanError::Repository {
        number,
        why: why.to_string(),
    }
}

pub(super) fn no_state() -> PlanError {
    PlanError::Game("state/ cannot be read".into())
}
