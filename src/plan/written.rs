//! The plan as its passes write it: the effects in order, one line per
//! matter with the decision behind it, and the status comments said but
//! not yet written. A status's words depend on the matter's dice, logged
//! before any pass runs, and whether it is posted at all on what the
//! matter's status reads now; both are settled once, when the plan is
//! made ([`super::render`]), so no pass writes a status comment itself.

use std::collections::BTreeMap;

use super::effect::{Effect, Step};
use super::{Fate, Line, Ruling};
use crate::engine::MatterDecision;
use crate::matter::collected::Collected;
use crate::matter::journal::Journal;
use crate::matter::labels::RESOLVING;
use crate::matter::status::Progress;
use crate::matter::{Kind, MatterInfo, MatterNumber};
use crate::record::Record;
use crate::ruleset::diff::RuleChange;

/// One effect of the plan, or a status comment still to be written.
#[derive(Debug, Clone)]
pub(super) enum Draft {
    /// An effect as it is carried out.
    Do(Step),
    /// A status comment of matter `number`.
    Status {
        /// The matter it is posted on.
        number: MatterNumber,
        /// What it says.
        status: Box<Status>,
    },
}

/// A status comment said but not yet written.
#[derive(Debug, Clone)]
pub(super) struct Status {
    /// The journal it carries.
    pub journal: Journal,
    /// What it tells the players.
    pub says: Says,
    /// Posted only if the matter's status does not read so already (else
    /// always: a status of the announce-then-act protocol is posted even
    /// when it repeats one, as the step a later run finishes after).
    pub unless_posted: bool,
}

/// What a status comment tells the players, above its dice and journal.
#[derive(Debug, Clone)]
pub(super) enum Says {
    /// These words.
    Text(String),
    /// A votable matter's tally.
    Tally(Box<Tally>),
}

/// A votable matter's status: its tally as
/// [`crate::matter::status::status_text`] writes it.
#[derive(Debug, Clone)]
pub(super) struct Tally {
    /// The decision, with its tally and reasons.
    pub decision: MatterDecision,
    /// The rows of the tally: the players active when it was decided.
    pub players: Vec<String>,
    /// What the pull request changes in the rules.
    pub changes: Vec<RuleChange>,
    /// How far the run has got with it.
    pub progress: Progress,
    /// Why it would fail if its votes enacted it now (a pending matter).
    pub flaw: Option<String>,
    /// How the new emperor posts their Address (an enacted DoV).
    pub address: Option<String>,
}

/// What the passes have written so far.
#[derive(Debug, Clone, Default)]
pub(super) struct Written {
    /// The effects and statuses, in order.
    pub drafts: Vec<Draft>,
    /// One line per matter, in the order they are handled.
    pub lines: Vec<Line>,
    /// The decision on each votable matter the passes handled.
    pub decisions: BTreeMap<MatterNumber, MatterDecision>,
}

impl Written {
    /// Adds an effect on matter `number`.
    pub(super) fn step(&mut self, number: MatterNumber, effect: Effect) {
        self.drafts.push(Draft::Do(Step { number, effect }));
    }

    /// Labels matter `number` `resolving`: what its status announces is
    /// being carried out, and a later run finishes it.
    pub(super) fn resolving(&mut self, number: MatterNumber) {
        let add = vec![RESOLVING];
        self.step(
            number,
            Effect::Labels {
                add,
                remove: vec![],
            },
        );
    }

    /// Posts a status on matter `number`, whatever it reads now.
    pub(super) fn status(&mut self, number: MatterNumber, journal: Journal, says: Says) {
        self.post(number, journal, says, false);
    }

    /// Posts a status on matter `number` unless it reads so already.
    pub(super) fn status_unless_posted(
        &mut self,
        number: MatterNumber,
        journal: Journal,
        says: Says,
    ) {
        self.post(number, journal, says, true);
    }

    fn post(&mut self, number: MatterNumber, journal: Journal, says: Says, unless_posted: bool) {
        let status = Box::new(Status {
            journal,
            says,
            unless_posted,
        });
        self.drafts.push(Draft::Status { number, status });
    }

    /// Adds matter `m`'s line.
    pub(super) fn line(&mut self, m: &MatterInfo, kind: Kind, decision: Ruling, fate: Fate) {
        self.lines.push(Line {
            number: m.number,
            kind,
            decision,
            fate,
            reasons: Vec::new(),
        });
    }

    /// Adds the line of votable matter `m` as `d` decides it, and keeps
    /// the decision as its tally view.
    pub(super) fn decided(&mut self, m: &Collected, d: &MatterDecision, fate: Fate) {
        self.line(&m.info, m.kind, Ruling::Rules(d.decision), fate);
        if let Some(line) = self.lines.last_mut() {
            line.reasons.clone_from(&d.reasons);
        }
        self.decisions.insert(m.info.number, d.clone());
    }

    /// Adds what a later pass wrote after this.
    pub(super) fn extend(&mut self, later: Written) {
        self.drafts.extend(later.drafts);
        self.lines.extend(later.lines);
        self.decisions.extend(later.decisions);
    }

    /// The records written so far.
    pub(super) fn records(&self) -> Vec<Record> {
        self.drafts
            .iter()
            .filter_map(|d| match d {
                Draft::Do(Step {
                    effect: Effect::Record(record),
                    ..
                }) => Some(record.as_ref().clone()),
                _ => None,
            })
            .collect()
    }
}
