//! When a matter's age turns its conditions: the ages at which some
//! comparison of `age` in an enact or fail condition starts or stops
//! holding. The look-ahead watches each matter at those ages (besides the
//! moments at which anything else a run reads changes), so whatever a
//! condition compares the age with, a time limit, a number of hours or
//! arithmetic on either (`age * 2 / 3 > resolve_majority_hours` turns
//! at 72 h 2 s), the first moment a decision changes is found to the
//! second.
//!
//! A comparison is followed over spans of ages with [`Bound`]s: a span
//! over which it provably holds, or provably does not, is done; any other
//! is halved, down to single seconds. So a comparison costs a few bounds
//! per turn, and needs no assumption about its shape.

use super::bound::Bound;
use super::decide::conditions;
use super::expr::{Expr, Node};
use super::params::Params;
use super::snapshot::MatterKind;

/// The oldest age, in seconds, at which the look-ahead watches for a
/// turn: ten years.
pub(crate) const MAX_AGE: i64 = 10 * 366 * 24 * 3600;

/// How many spans one comparison may be halved into. A comparison that
/// turns every second (`age / 2 * 2 == age`) is followed only that far.
const HALVINGS: usize = 10_000;

/// The ages, in seconds from 1 to [`MAX_AGE`], at which a comparison of
/// `age` in the enact or fail condition of `kind` turns, ascending.
pub(crate) fn age_turns(params: &Params, kind: MatterKind) -> Vec<i64> {
    let limits = |name: &str| {
        let seconds = params.hours(name)?.checked_mul(3600)?;
        Some(Bound::Span(seconds, seconds))
    };
    let (enact, fail) = conditions(params, kind);
    let mut out: Vec<i64> = [enact, fail]
        .iter()
        .flat_map(|c| c.expr.age_comparisons())
        .flat_map(|c| turns(c, &limits))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

impl Expr {
    /// The names besides `age` that the comparisons of the age in the
    /// expression use: a condition may compare the age only with
    /// durations its parameters fix, so these must be time limits.
    pub(crate) fn compared_with_age(&self) -> Vec<&str> {
        let mut names = Vec::new();
        for c in self.age_comparisons() {
            c.names(&mut names);
        }
        names.retain(|n| *n != "age");
        names
    }

    /// The comparisons in the expression that use the age.
    fn age_comparisons(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        self.0.comparisons_of_age(&mut out);
        out
    }
}

impl Node {
    fn comparisons_of_age<'n>(&'n self, out: &mut Vec<&'n Node>) {
        match self {
            Node::Lit(_) | Node::Var(_) => {}
            Node::Not(inner) => inner.comparisons_of_age(out),
            Node::Bin(op, l, r) => {
                let mut names = Vec::new();
                self.names(&mut names);
                if op.is_comparison() && names.contains(&"age") {
                    out.push(self);
                } else {
                    l.comparisons_of_age(out);
                    r.comparisons_of_age(out);
                }
            }
        }
    }

    fn names<'n>(&'n self, out: &mut Vec<&'n str>) {
        match self {
            Node::Lit(_) => {}
            Node::Var(name) => out.push(name),
            Node::Not(inner) => inner.names(out),
            Node::Bin(_, l, r) => {
                l.names(out);
                r.names(out);
            }
        }
    }
}

/// The ages at which `comparison` turns, its names other than `age`
/// bound by `names`.
fn turns(comparison: &Node, names: &dyn Fn(&str) -> Option<Bound>) -> Vec<i64> {
    // Runs of ages with one value: holds, does not, or cannot be computed.
    let mut runs: Vec<(i64, Option<bool>)> = Vec::new();
    let mut spans = vec![(0, MAX_AGE)];
    let mut halvings = 0;
    // Depth first, the younger half first, so runs come in order of age.
    while let Some((lo, hi)) = spans.pop() {
        let ages = |name: &str| {
            if name == "age" {
                Some(Bound::Span(lo, hi))
            } else {
                names(name)
            }
        };
        let value = match comparison.bound(&ages) {
            Some(Bound::Bool(Some(holds))) => Some(Some(holds)),
            // One age, and still unknown: it cannot be computed there.
            _ if lo == hi => Some(None),
            _ if halvings == HALVINGS => break,
            _ => None,
        };
        match value {
            Some(v) => {
                if runs.last().is_none_or(|r| r.1 != v) {
                    runs.push((lo, v));
                }
            }
            None => {
                halvings += 1;
                let mid = lo + (hi - lo) / 2;
                spans.push((mid + 1, hi));
                spans.push((lo, mid));
            }
        }
    }
    runs.into_iter().skip(1).map(|r| r.0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Condition, ConditionError};
    use crate::params::{DEFAULT_PRESET, Scope};

    fn turns_of(text: &str) -> Vec<i64> {
        let p = Params::preset(DEFAULT_PRESET).unwrap();
        let limits = |name: &str| {
            let seconds = p.hours(name)? * 3600;
            Some(Bound::Span(seconds, seconds))
        };
        let c = Condition::parse(text, Scope::Enact).unwrap();
        c.expr
            .age_comparisons()
            .into_iter()
            .flat_map(|c| turns(c, &limits))
            .collect()
    }

    #[test]
    fn a_comparison_turns_where_the_age_meets_or_passes_its_duration() {
        let h = 3600;
        assert_eq!(turns_of("age >= enact_quorum_hours"), [12 * h]);
        assert_eq!(turns_of("age > cfj_resolve_after_hours"), [48 * h + 1]);
        assert_eq!(turns_of("age == 30"), [30 * h, 30 * h + 1]);
        assert_eq!(turns_of("age > 20 and age < 30"), [20 * h + 1, 30 * h]);
        assert_eq!(
            turns_of("age * 2 / 3 > resolve_majority_hours"),
            [72 * h + 2]
        );
        assert_eq!(turns_of("enact_quorum_hours - age / 2 > 0"), [24 * h]);
        assert_eq!(turns_of("for_votes >= quorum"), Vec::<i64>::new());
    }

    #[test]
    fn a_comparison_that_turns_every_second_is_followed_as_far_as_allowed() {
        let t = turns_of("age / 2 * 2 == age");
        assert!(t.len() > 1000 && t.len() <= HALVINGS, "{}", t.len());
        assert_eq!(t[..4], [1, 2, 3, 4]);
    }

    #[test]
    fn only_time_limits_are_compared_with_the_age() {
        let names = |text: &str| Expr::parse(text).unwrap().compared_with_age().join(" ");
        assert_eq!(
            names("age >= dov_fast_hours and for_votes >= quorum"),
            "dov_fast_hours"
        );
        assert_eq!(names("age * quorum > 12 or hiatus"), "quorum");
        let refused = Condition::parse("age * quorum > 12", Scope::Enact).unwrap_err();
        assert!(
            matches!(&refused, ConditionError::AgeComparedWith { name, .. } if name == "quorum"),
            "{refused}"
        );
        assert!(
            refused.to_string().contains("compares the age with quorum"),
            "{refused}"
        );
    }
}
