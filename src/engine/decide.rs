//! Deciding one matter from its tally: the ruleset's enact and fail
//! conditions are evaluated over the named tally quantities, and the
//! decision comes with the reasons, in words with the numbers filled in.

use serde::{Deserialize, Serialize};

use super::bound::Bound;
use super::expr::{Env, Type, Value};
use super::params::{Condition, Params, QUANTITIES};
use super::snapshot::MatterKind;
use super::tally::Tally;
use crate::time::Span;

/// What a resolve run does with a matter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Enact it now.
    Enact,
    /// Fail it now.
    Fail,
    /// Leave it pending.
    Wait,
}

impl Decision {
    /// The word used in files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Enact => "enact",
            Decision::Fail => "fail",
            Decision::Wait => "wait",
        }
    }
}

/// A decision with its reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The decision.
    pub decision: Decision,
    /// Why, in game terms.
    pub reasons: Vec<String>,
}

impl Verdict {
    /// A wait for one reason.
    pub fn wait(reason: impl Into<String>) -> Verdict {
        Verdict {
            decision: Decision::Wait,
            reasons: vec![reason.into()],
        }
    }
}

/// The quantities a condition sees for one matter at one moment.
pub struct Quantities<'a> {
    /// The matter's tally.
    pub tally: &'a Tally,
    /// The ruleset's parameters.
    pub params: &'a Params,
    /// Active players.
    pub active: i64,
    /// The quorum.
    pub quorum: i64,
    /// How long the matter has been open.
    pub age: Span,
    /// Whether the game is in hiatus.
    pub hiatus: bool,
    /// Whether the enact condition holds (fail conditions only).
    pub enactable: Option<bool>,
}

impl Env for Quantities<'_> {
    fn type_of(&self, name: &str) -> Option<Type> {
        self.value_of(name).map(|v| match v {
            Value::Int(_) => Type::Int,
            Value::Bool(_) => Type::Bool,
            Value::Span(_) => Type::Span,
        })
    }

    fn value_of(&self, name: &str) -> Option<Value> {
        let t = self.tally;
        Some(match name {
            "for_votes" => Value::Int(t.for_votes),
            "against_votes" => Value::Int(t.against_votes),
            "valid_votes" => Value::Int(t.for_votes + t.against_votes),
            "votes" => Value::Int(t.votes_cast),
            "active" => Value::Int(self.active),
            "quorum" => Value::Int(self.quorum),
            "age" => Value::Span(self.age),
            "blocked" => Value::Bool(t.vetoed || t.self_killed),
            "vetoed" => Value::Bool(t.vetoed),
            "self_killed" => Value::Bool(t.self_killed),
            "wizard_for" => Value::Bool(t.wizard_for),
            "wizard_voted" => Value::Bool(t.wizard_voted),
            "hiatus" => Value::Bool(self.hiatus),
            "enactable" => Value::Bool(self.enactable?),
            _ => Value::Span(Span::hours(self.params.hours(name)?)),
        })
    }

    fn describe(&self, name: &str, value: Value) -> String {
        let t = self.tally;
        match (name, value) {
            ("for_votes", v) => format!("{v} FOR"),
            ("against_votes", v) => format!("{v} AGAINST"),
            ("valid_votes", v) => format!("{v} valid votes"),
            ("votes", v) => format!("{v} votes"),
            ("active", v) => format!("{v} active players"),
            ("quorum", v) => format!("quorum {v}"),
            ("age", v) => format!("open {v}"),
            ("blocked", _) if t.vetoed && t.self_killed => "vetoed and self-killed".into(),
            ("blocked", _) if t.vetoed => "vetoed".into(),
            ("blocked", _) if t.self_killed => "self-killed".into(),
            ("wizard_for", _) => "the emperor voted FOR".into(),
            ("wizard_voted", _) => "the emperor voted".into(),
            ("hiatus", _) => "in hiatus".into(),
            (_, Value::Bool(_)) => QUANTITIES
                .iter()
                .find(|q| q.0 == name)
                .map_or(name, |q| q.2)
                .to_owned(),
            (_, v) => v.to_string(),
        }
    }
}

/// The enact and fail conditions of a kind of matter.
fn conditions(params: &Params, kind: MatterKind) -> (&Condition, &Condition) {
    match kind {
        MatterKind::Proposal => (&params.proposal_enact, &params.proposal_fail),
        MatterKind::Cfj => (&params.cfj_enact, &params.cfj_fail),
        MatterKind::Dov => (&params.dov_enact, &params.dov_fail),
    }
}

/// Decides a matter of `kind` from its quantities.
pub fn decide(kind: MatterKind, mut q: Quantities<'_>) -> Verdict {
    let (enact, fail) = conditions(q.params, kind);
    let enactable = match enact.expr.eval_bool(&q) {
        Ok(b) => b,
        Err(e) => return Verdict::wait(format!("the enact condition cannot be computed: {e}")),
    };
    q.enactable = Some(enactable);
    let failable = match fail.expr.eval_bool(&q) {
        Ok(b) => b,
        Err(e) => return Verdict::wait(format!("the fail condition cannot be computed: {e}")),
    };
    let decision = decision_of(enactable, failable);
    let reasons = match (enactable, failable) {
        (true, false) => vec![enact.expr.explain(&q, true)],
        (false, true) => vec![fail.expr.explain(&q, true)],
        (false, false) => vec![
            format!("not enactable: {}", enact.expr.explain(&q, false)),
            format!("not failing: {}", fail.expr.explain(&q, false)),
        ],
        (true, true) => {
            vec!["the ruleset's enact and fail conditions both hold: an admin must decide".into()]
        }
    };
    Verdict { decision, reasons }
}

/// The decision when the enact and fail conditions hold or not.
fn decision_of(enactable: bool, failable: bool) -> Decision {
    match (enactable, failable) {
        (true, false) => Decision::Enact,
        (false, true) => Decision::Fail,
        _ => Decision::Wait,
    }
}

/// The decision of [`decide`] without its reasons, for the look-ahead.
pub(crate) fn decision(kind: MatterKind, mut q: Quantities<'_>) -> Decision {
    let (enact, fail) = conditions(q.params, kind);
    let Ok(enactable) = enact.expr.eval_bool(&q) else {
        return Decision::Wait;
    };
    q.enactable = Some(enactable);
    match fail.expr.eval_bool(&q) {
        Ok(failable) => decision_of(enactable, failable),
        Err(_) => Decision::Wait,
    }
}

/// The decision [`decision`] gives at every age from `q.age` to `until`,
/// if it is provably the same at all of them; `None` when it may differ.
pub(crate) fn decision_over(kind: MatterKind, q: &Quantities<'_>, until: Span) -> Option<Decision> {
    let (enact, fail) = conditions(q.params, kind);
    let ages = Bound::Span(q.age.as_seconds(), until.as_seconds());
    let names = |enactable: Option<bool>| {
        move |name: &str| match name {
            "age" => Some(ages),
            "enactable" => enactable.map(|e| Bound::Bool(Some(e))),
            _ => q.value_of(name).map(Bound::exactly),
        }
    };
    let Bound::Bool(Some(enactable)) = enact.expr.bound(&names(None))? else {
        return None;
    };
    let Bound::Bool(Some(failable)) = fail.expr.bound(&names(Some(enactable)))? else {
        return None;
    };
    Some(decision_of(enactable, failable))
}
