//! Deciding one matter from its tally: the ruleset's enact and fail
//! conditions are evaluated over the named tally quantities, and the
//! decision comes with the reasons, in words with the numbers filled in.

use serde::{Deserialize, Serialize};

use super::bound::Bound;
use super::expr::{Env, Type, Value};
use super::params::{Condition, Params, QUANTITIES};
use super::snapshot::MatterKind;
use super::tally::Tally;
use crate::time::{Span, Timestamp};

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

/// What a decision rests on: the kind of its reasons, beside their words.
/// A caller that treats some reasons differently (the status's "what
/// next" leaves out the conditions' arithmetic but keeps the queue and
/// the calendar) branches on this, never on the text, which is for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grounds {
    /// The ruleset's enact and fail conditions, evaluated on the tally:
    /// the reasons are their arithmetic.
    Conditions,
    /// The enact and fail conditions both hold: an admin must decide.
    BothConditions,
    /// A condition, or the quorum, cannot be computed.
    Uncomputable,
    /// The matter is no valid matter of its kind (MECHANICS.md §2.5 step
    /// 0, §4 A-19): it only waits.
    Invalid,
    /// The matter was opened after the moment of the run.
    NotOpened,
    /// The seasonal downtime holds it.
    Downtime,
    /// A hiatus holds proposals (a DoV pending or enacted).
    Hiatus,
    /// An older proposal is still pending.
    Queue,
    /// The proposal was pending too long, and is failed.
    Stale,
    /// Another DoV was enacted, which fails this one.
    OtherDov,
}

/// A decision with its reasons.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The decision.
    pub decision: Decision,
    /// What the decision rests on.
    pub grounds: Grounds,
    /// Why, in game terms.
    pub reasons: Vec<String>,
}

impl Verdict {
    /// A wait on `grounds`, for one reason.
    pub fn wait(grounds: Grounds, reason: impl Into<String>) -> Verdict {
        Verdict {
            decision: Decision::Wait,
            grounds,
            reasons: vec![reason.into()],
        }
    }
}

/// How a waiting matter's reason for not being enacted begins.
const NOT_ENACTED: &str = "not enacted yet: ";
/// How a waiting matter's reason for not failing begins.
const NOT_FAILED: &str = "not failed yet: ";

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
    /// When it was opened, when known: its age is then explained by the
    /// moment a duration is reached, which stands until a vote changes it.
    pub opened: Option<Timestamp>,
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
            ("valid_votes", v) => format!("{v} FOR and AGAINST"),
            ("votes", Value::Int(1)) => "1 vote".into(),
            ("votes", v) => format!("{v} votes"),
            ("active", Value::Int(1)) => "1 active player".into(),
            ("active", v) => format!("{v} active players"),
            ("quorum", v) => format!("the quorum of {v}"),
            ("age", v) => format!("open {v}"),
            ("blocked", Value::Bool(false)) => "neither vetoed nor self-killed".into(),
            ("blocked", _) if t.vetoed && t.self_killed => "vetoed and self-killed".into(),
            ("blocked", _) if t.self_killed => "self-killed".into(),
            ("blocked", _) => "vetoed".into(),
            ("wizard_for", Value::Bool(true)) => "the emperor voted FOR".into(),
            ("wizard_for", _) => "the emperor did not vote FOR".into(),
            ("wizard_voted", Value::Bool(true)) => "the emperor voted".into(),
            ("wizard_voted", _) => "the emperor has not voted FOR or AGAINST".into(),
            ("hiatus", Value::Bool(true)) => "the game is in hiatus".into(),
            ("hiatus", _) => "the game is not in hiatus".into(),
            ("enactable", Value::Bool(true)) => "it can be enacted".into(),
            ("enactable", _) => "it cannot be enacted".into(),
            (_, Value::Bool(b)) => {
                let said = QUANTITIES
                    .iter()
                    .find(|q| q.0 == name)
                    .map_or(name, |q| q.2);
                if b {
                    said.to_owned()
                } else {
                    format!("not {said}")
                }
            }
            (_, v) => v.to_string(),
        }
    }

    fn reaches(&self, name: &str, span: Span) -> Option<String> {
        (name == "age").then_some(self.opened?.plus(span).in_words())
    }
}

/// The enact and fail conditions of a kind of matter.
/// The enact and fail conditions of `kind`.
pub(crate) fn conditions(params: &Params, kind: MatterKind) -> (&Condition, &Condition) {
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
        Err(e) => {
            return Verdict::wait(
                Grounds::Uncomputable,
                format!("the enact condition cannot be computed: {e}"),
            );
        }
    };
    q.enactable = Some(enactable);
    let failable = match fail.expr.eval_bool(&q) {
        Ok(b) => b,
        Err(e) => {
            return Verdict::wait(
                Grounds::Uncomputable,
                format!("the fail condition cannot be computed: {e}"),
            );
        }
    };
    let decision = decision_of(enactable, failable);
    let (grounds, reasons) = match (enactable, failable) {
        (true, false) => (Grounds::Conditions, vec![enact.expr.explain(&q, true)]),
        (false, true) => (Grounds::Conditions, vec![fail.expr.explain(&q, true)]),
        (false, false) => (
            Grounds::Conditions,
            vec![
                format!("{NOT_ENACTED}{}", enact.expr.explain(&q, false)),
                format!("{NOT_FAILED}{}", fail.expr.explain(&q, false)),
            ],
        ),
        (true, true) => (
            Grounds::BothConditions,
            vec!["the ruleset's enact and fail conditions both hold: an admin must decide".into()],
        ),
    };
    Verdict {
        decision,
        grounds,
        reasons,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::DEFAULT_PRESET;

    /// A proposal of the default preset with `for_votes` FOR and
    /// `against` AGAINST among 5 active players, open `minutes`.
    fn proposal(for_votes: i64, against: i64, vetoed: bool, minutes: i64) -> Verdict {
        proposal_opened(for_votes, against, vetoed, minutes, None)
    }

    /// The same, opened at `opened` when it is known.
    fn proposal_opened(
        for_votes: i64,
        against: i64,
        vetoed: bool,
        minutes: i64,
        opened: Option<Timestamp>,
    ) -> Verdict {
        let params = Params::preset(DEFAULT_PRESET).unwrap();
        let tally = Tally {
            for_votes,
            against_votes: against,
            votes_cast: for_votes + against,
            vetoed,
            ..Tally::default()
        };
        decide(
            MatterKind::Proposal,
            Quantities {
                tally: &tally,
                params: &params,
                active: 5,
                quorum: 3,
                age: Span::seconds(minutes * 60),
                opened,
                hiatus: false,
                enactable: None,
            },
        )
    }

    #[test]
    fn a_known_opening_explains_the_age_by_the_moment_it_turns() {
        let opened = Timestamp::parse("2030-01-01T00:00:00Z").unwrap();
        let waiting = proposal_opened(2, 1, false, 12 * 60 + 20, Some(opened));
        assert_eq!(
            waiting.reasons[0],
            "not enacted yet: 2 FOR, under the quorum of 3; \
             open under 48 h until 00:00 UTC on 3 Jan 2030"
        );
        // The same words an hour later: nothing a reader sees moved.
        let later = proposal_opened(2, 1, false, 13 * 60 + 20, Some(opened));
        assert_eq!(later.reasons, waiting.reasons);
        let enacted = proposal_opened(3, 0, false, 13 * 60, Some(opened));
        assert!(
            enacted.reasons[0].ends_with("open at least 12 h since 12:00 UTC on 1 Jan 2030"),
            "{:?}",
            enacted.reasons
        );
    }

    #[test]
    fn the_reasons_read_as_sentences_with_the_numbers_in() {
        let enacted = proposal(3, 0, false, 13 * 60);
        assert_eq!(enacted.decision, Decision::Enact);
        assert_eq!(
            enacted.reasons,
            [
                "neither vetoed nor self-killed; 3 FOR, at least the quorum of 3; \
              open 13 h, at least 12 h"
            ]
        );
        let waiting = proposal(2, 1, false, 12 * 60 + 20);
        assert_eq!(waiting.decision, Decision::Wait);
        assert_eq!(
            waiting.reasons,
            [
                "not enacted yet: 2 FOR, under the quorum of 3; open 12 h 20 min, under 48 h",
                "not failed yet: neither vetoed nor self-killed; \
                 4 (5 active players minus 1 AGAINST), at least the quorum of 3; \
                 open 12 h 20 min, under 48 h",
            ]
        );
        let vetoed = proposal(4, 0, true, 60);
        assert_eq!(
            (vetoed.decision, vetoed.reasons),
            (Decision::Fail, vec!["vetoed".to_string()])
        );
    }
}
