//! Bounds of conditions over spans of time: what an expression is known
//! to be when one of its names (a matter's age) ranges over an interval.
//! The look-ahead uses it to prove a decision cannot change over many
//! moments at once, so it evaluates the conditions a few times per change
//! of decision rather than once per moment.

use super::expr::{Expr, Node, Op, Value};

/// What a value is known to be when one name of the expression ranges
/// over an interval: whole numbers and durations (in seconds) as inclusive
/// bounds, truth values as known or not. The look-ahead uses it to skip
/// every moment at which a condition cannot change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bound {
    /// A whole number from `.0` to `.1`.
    Int(i64, i64),
    /// A duration from `.0` to `.1` seconds.
    Span(i64, i64),
    /// A truth value, `None` when it may be either.
    Bool(Option<bool>),
}

impl Bound {
    /// The bound of exactly `v`.
    pub(crate) fn exactly(v: Value) -> Bound {
        match v {
            Value::Int(n) => Bound::Int(n, n),
            Value::Span(s) => Bound::Span(s.as_seconds(), s.as_seconds()),
            Value::Bool(b) => Bound::Bool(Some(b)),
        }
    }
}

impl Expr {
    /// What the expression is over every value of its names that `names`
    /// bounds, or `None` when evaluating it might fail for one of them.
    /// Sound: for every choice of values within the bounds, [`Expr::eval`]
    /// gives a value within the result.
    pub(crate) fn bound(&self, names: &dyn Fn(&str) -> Option<Bound>) -> Option<Bound> {
        self.0.bound(names)
    }
}

impl Node {
    pub(super) fn bound(&self, names: &dyn Fn(&str) -> Option<Bound>) -> Option<Bound> {
        match self {
            Node::Lit(v) => Some(Bound::exactly(*v)),
            Node::Var(name) => names(name),
            Node::Not(inner) => match inner.bound(names)? {
                Bound::Bool(b) => Some(Bound::Bool(b.map(|b| !b))),
                _ => None,
            },
            Node::Bin(op @ (Op::Or | Op::And), l, r) => {
                // `or` stops at a true left side, `and` at a false one.
                let settles = *op == Op::Or;
                match l.bound(names)? {
                    Bound::Bool(Some(b)) if b == settles => Some(Bound::Bool(Some(b))),
                    Bound::Bool(Some(_)) => r.bound(names),
                    Bound::Bool(None) => match r.bound(names)? {
                        Bound::Bool(Some(b)) if b == settles => Some(Bound::Bool(Some(b))),
                        Bound::Bool(_) => Some(Bound::Bool(None)),
                        _ => None,
                    },
                    _ => None,
                }
            }
            Node::Bin(op, l, r) => bound_apply(*op, l.bound(names)?, r.bound(names)?),
        }
    }
}

/// Bounds of seconds of a duration, or of a number read as hours.
fn seconds_bound(b: Bound) -> Option<(i64, i64)> {
    match b {
        Bound::Span(lo, hi) => Some((lo, hi)),
        Bound::Int(lo, hi) => Some((lo.checked_mul(3600)?, hi.checked_mul(3600)?)),
        Bound::Bool(_) => None,
    }
}

fn bound_apply(op: Op, l: Bound, r: Bound) -> Option<Bound> {
    if op.is_comparison() {
        let ((a0, a1), (b0, b1)) = match (l, r) {
            (Bound::Int(a0, a1), Bound::Int(b0, b1)) => ((a0, a1), (b0, b1)),
            (Bound::Bool(a), Bound::Bool(b)) => match (a, b) {
                (Some(a), Some(b)) => ((i64::from(a), i64::from(a)), (i64::from(b), i64::from(b))),
                _ => return Some(Bound::Bool(None)),
            },
            _ => (seconds_bound(l)?, seconds_bound(r)?),
        };
        // Whether it holds for every pair, and whether it holds for none.
        let (all, none) = match op {
            Op::Ge => (a0 >= b1, a1 < b0),
            Op::Le => (a1 <= b0, a0 > b1),
            Op::Gt => (a0 > b1, a1 <= b0),
            Op::Lt => (a1 < b0, a0 >= b1),
            Op::Eq => (a0 == a1 && b0 == b1 && a0 == b0, a1 < b0 || b1 < a0),
            _ => (a1 < b0 || b1 < a0, a0 == a1 && b0 == b1 && a0 == b0),
        };
        return Some(Bound::Bool(if all {
            Some(true)
        } else if none {
            Some(false)
        } else {
            None
        }));
    }
    let span = matches!(l, Bound::Span(..)) || matches!(r, Bound::Span(..));
    let ((a0, a1), (b0, b1)) = match (op, l, r) {
        (Op::Mul | Op::Div, Bound::Span(s0, s1), Bound::Int(n0, n1))
        | (Op::Mul, Bound::Int(n0, n1), Bound::Span(s0, s1)) => ((s0, s1), (n0, n1)),
        (_, Bound::Int(a0, a1), Bound::Int(b0, b1))
        | (_, Bound::Span(a0, a1), Bound::Span(b0, b1)) => ((a0, a1), (b0, b1)),
        _ => return None,
    };
    let (lo, hi) = match op {
        Op::Add => (a0.checked_add(b0)?, a1.checked_add(b1)?),
        Op::Sub => (a0.checked_sub(b1)?, a1.checked_sub(b0)?),
        Op::Mul | Op::Div => {
            if op == Op::Div && b0 <= 0 && 0 <= b1 {
                return None;
            }
            // Both are monotone in each side (the divisor never crosses
            // zero), so the extremes are at the corners.
            let f = |a: i64, b: i64| {
                if op == Op::Mul {
                    a.checked_mul(b)
                } else {
                    a.checked_div(b)
                }
            };
            let corners = [f(a0, b0)?, f(a0, b1)?, f(a1, b0)?, f(a1, b1)?];
            (*corners.iter().min()?, *corners.iter().max()?)
        }
        _ => return None,
    };
    Some(if span {
        Bound::Span(lo, hi)
    } else {
        Bound::Int(lo, hi)
    })
}
