//! When a run could decide differently without a new vote, worked out
//! from what a run reads (docs/tally.md), not from the engine's list.
//!
//! A run at instant `t` reads the snapshot, fixed, and `t`; `t` enters
//! only through these, so only where one of them changes can a decision:
//!
//! - which matters exist: a matter opened after `t` is not there yet;
//! - who is active: idle spells start and end;
//! - the seasonal downtime, a matter of calendar days, so of midnights;
//! - a proposal pending more than `stale_after_hours`;
//! - a matter's age, which the conditions compare with durations.
//!
//! The last is found from the conditions as written: every comparison
//! that involves `age` is solved for the ages at which it turns, by
//! halving, to the second. A comparison's sides are sums of multiples and
//! quotients of durations (the age, the parameters' time limits, numbers
//! read as hours), so each side only grows, or only shrinks, as the
//! matter ages; a comparison of the age with a vote count or another
//! quantity of the tally is not solved here, and says so.

use gitnomic::engine::decide::Quantities;
use gitnomic::engine::expr::{Env, Expr, Type, Value};
use gitnomic::engine::tally::Tally;
use gitnomic::engine::{MatterKind, Params, Snapshot};
use gitnomic::time::{Span, Timestamp};

/// The oldest age whose turns are looked for: ten years.
const MAX_AGE: i64 = 10 * 366 * 24 * 3600;

/// The instants after `now` at which some run could decide differently
/// from a run a second before, ascending.
pub(crate) fn moments(snapshot: &Snapshot, now: Timestamp) -> Vec<Timestamp> {
    let p = &snapshot.params;
    let mut out: Vec<Timestamp> = Vec::new();
    for spell in snapshot.players.iter().flat_map(|pl| &pl.idle) {
        out.extend(spell.from.into_iter().chain(spell.until));
    }
    let turns: Vec<(MatterKind, Vec<i64>)> =
        [MatterKind::Proposal, MatterKind::Cfj, MatterKind::Dov]
            .into_iter()
            .map(|kind| (kind, turns_of_kind(p, kind)))
            .collect();
    for m in &snapshot.matters {
        out.push(m.opened);
        if m.kind == MatterKind::Proposal && p.stale_after_hours > 0 {
            // "Pending more than" the limit: one second after it.
            out.push(m.opened.plus(Span::seconds(p.stale_after_hours * 3600 + 1)));
        }
        let ages = turns.iter().find(|(k, _)| *k == m.kind).map(|(_, a)| a);
        for &age in ages.into_iter().flatten() {
            out.push(m.opened.plus(Span::seconds(age)));
        }
    }
    let last = out.iter().copied().chain([now]).max().unwrap_or(now);
    out.extend(downtime_turns(p, now, last.plus(Span::days(366))));
    out.retain(|t| *t > now);
    out.sort();
    out.dedup();
    out
}

/// The midnights from `from` to `until` at which the downtime starts or
/// ends: a day is in it or not, so it turns only from one day to the next.
fn downtime_turns(p: &Params, from: Timestamp, until: Timestamp) -> Vec<Timestamp> {
    let day = 24 * 3600;
    let mut midnight = Timestamp::from_unix(from.unix().div_euclid(day) * day);
    let mut out = Vec::new();
    while midnight <= until {
        let next = midnight.plus(Span::days(1));
        if super::in_downtime(p, next) != super::in_downtime(p, midnight) {
            out.push(next);
        }
        midnight = next;
    }
    out
}

/// The ages, in seconds, at which some comparison of `age` in the enact
/// or fail condition of `kind` turns.
fn turns_of_kind(p: &Params, kind: MatterKind) -> Vec<i64> {
    let conditions = match kind {
        MatterKind::Proposal => [&p.proposal_enact, &p.proposal_fail],
        MatterKind::Cfj => [&p.cfj_enact, &p.cfj_fail],
        MatterKind::Dov => [&p.dov_enact, &p.dov_fail],
    };
    let mut out: Vec<i64> = conditions
        .iter()
        .flat_map(|c| comparisons(&c.text))
        .flat_map(|(left, right)| turns(p, &left, &right))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The ages in `1..=MAX_AGE` at which `left` compared with `right` may
/// turn, whatever the comparison: where their difference reaches 0 and
/// where it passes it (`>=` turns at the first, `>` at the second, `==`
/// at both).
fn turns(p: &Params, left: &str, right: &str) -> Vec<i64> {
    let parse = |side: &str| {
        Expr::parse(side).unwrap_or_else(|e| panic!("the reference cannot read `{side}`: {e}"))
    };
    let (l, r) = (parse(left), parse(right));
    let (l_names, r_names) = (names(p, &l), names(p, &r));
    if !l_names.iter().chain(&r_names).any(|n| n == "age") {
        return Vec::new();
    }
    let tally = Tally::default();
    let at = |age: i64| Quantities {
        tally: &tally,
        params: p,
        active: 0,
        quorum: 0,
        age: Span::seconds(age),
        opened: None,
        hiatus: false,
        enactable: Some(false),
    };
    for name in l_names.iter().chain(&r_names) {
        assert!(
            at(0).type_of(name) == Some(Type::Span),
            "the reference cannot look ahead on `{left}` against `{right}`: it compares the age with {name}, which is no duration"
        );
    }
    let seconds = |side: &Expr, age: i64| match side.eval(&at(age)) {
        Ok(Value::Span(s)) => i128::from(s.as_seconds()),
        // A number compared with a duration is read as hours.
        Ok(Value::Int(n)) => i128::from(n) * 3600,
        other => {
            panic!("the reference cannot weigh a side of `{left}` against `{right}`: {other:?}")
        }
    };
    let difference = |age: i64| seconds(&l, age) - seconds(&r, age);
    let rising = difference(MAX_AGE) >= difference(0);
    // Measured the way it moves, the difference only grows with age.
    let grown = |age: i64| {
        if rising {
            difference(age)
        } else {
            -difference(age)
        }
    };
    [0, 1]
        .into_iter()
        .filter_map(|level| first_age(|age| grown(age) >= level))
        .collect()
}

/// The first age in `1..=MAX_AGE` at which `holds`, which stays true
/// once true, becomes true; `None` if it holds at 0 or never.
fn first_age(holds: impl Fn(i64) -> bool) -> Option<i64> {
    if holds(0) || !holds(MAX_AGE) {
        return None;
    }
    let (mut no, mut yes) = (0, MAX_AGE);
    while yes - no > 1 {
        let mid = no + (yes - no) / 2;
        if holds(mid) { yes = mid } else { no = mid }
    }
    Some(yes)
}

/// The names `expr` uses.
fn names(p: &Params, expr: &Expr) -> Vec<String> {
    struct Recorder<'q> {
        inner: Quantities<'q>,
        seen: std::cell::RefCell<Vec<String>>,
    }
    impl Env for Recorder<'_> {
        fn type_of(&self, name: &str) -> Option<Type> {
            self.seen.borrow_mut().push(name.to_owned());
            self.inner.type_of(name)
        }
        fn value_of(&self, name: &str) -> Option<Value> {
            self.inner.value_of(name)
        }
        fn describe(&self, name: &str, value: Value) -> String {
            self.inner.describe(name, value)
        }
    }
    let tally = Tally::default();
    let recorder = Recorder {
        inner: Quantities {
            tally: &tally,
            params: p,
            active: 0,
            quorum: 0,
            age: Span::seconds(0),
            opened: None,
            hiatus: false,
            enactable: Some(false),
        },
        seen: std::cell::RefCell::new(Vec::new()),
    };
    expr.check(&recorder)
        .unwrap_or_else(|e| panic!("the reference cannot check a condition's side: {e}"));
    recorder.seen.into_inner()
}

/// The comparisons of a condition as written, as their two sides' text:
/// around each comparison operator, each side runs to the nearest `and`,
/// `or`, `not` (or `&&`, `||`, `!`) or parenthesis it is not inside.
fn comparisons(text: &str) -> Vec<(String, String)> {
    let tokens = lex(text);
    let is_cmp = |t: &str| matches!(t, ">=" | "<=" | ">" | "<" | "==" | "!=");
    let joins = |t: &str| matches!(t, "and" | "or" | "&&" | "||");
    let negates = |t: &str| matches!(t, "not" | "!");
    let mut out = Vec::new();
    for k in (0..tokens.len()).filter(|k| is_cmp(&tokens[*k])) {
        let (mut start, mut depth) = (k, 0);
        while start > 0 {
            let t = tokens[start - 1].as_str();
            match t {
                ")" => depth += 1,
                "(" if depth == 0 => break,
                "(" => depth -= 1,
                _ if depth == 0 && (joins(t) || negates(t)) => break,
                _ => {}
            }
            start -= 1;
        }
        let (mut end, mut depth) = (k + 1, 0);
        while end < tokens.len() {
            let t = tokens[end].as_str();
            match t {
                "(" => depth += 1,
                ")" if depth == 0 => break,
                ")" => depth -= 1,
                _ if depth == 0 && joins(t) => break,
                _ => {}
            }
            end += 1;
        }
        out.push((tokens[start..k].join(" "), tokens[k + 1..end].join(" ")));
    }
    out
}

/// Words, numbers, and operators (two-character ones whole).
fn lex(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let width = if matches!(two.as_str(), ">=" | "<=" | "==" | "!=" | "&&" | "||") {
                2
            } else {
                1
            };
            out.push(chars[i..i + width].iter().collect());
            i += width;
        }
    }
    out
}

#[test]
fn comparisons_are_read_with_their_whole_sides() {
    assert_eq!(
        comparisons(
            "not blocked and (for_votes >= quorum and age >= enact_quorum_hours or age * 2 / 3 > (x - 1))"
        ),
        [
            ("for_votes".to_string(), "quorum".to_string()),
            ("age".into(), "enact_quorum_hours".into()),
            ("age * 2 / 3".into(), "( x - 1 )".into()),
        ]
    );
    assert_eq!(
        comparisons("!(age != 30) || !x"),
        [("age".to_string(), "30".to_string())]
    );
}

#[test]
fn a_comparison_turns_where_its_sides_meet_and_pass() {
    let p = Params::preset("blognomic-113").unwrap();
    let h = 3600;
    assert_eq!(turns(&p, "age", "enact_quorum_hours"), [12 * h, 12 * h + 1]);
    // Two thirds of the age reach 48 h at 72 h, and pass them when the
    // division, rounding down, gives one second more: at 72 h 2 s.
    assert_eq!(
        turns(&p, "age * 2 / 3", "resolve_majority_hours"),
        [72 * h, 72 * h + 2]
    );
    assert_eq!(
        turns(&p, "age - enact_quorum_hours", "30"),
        [42 * h, 42 * h + 1]
    );
    // Half the age reaches 12 h at 24 h, and passes it two seconds
    // later, as halving rounds down.
    assert_eq!(
        turns(&p, "enact_quorum_hours - age / 2", "0"),
        [24 * h, 24 * h + 2]
    );
    assert_eq!(turns(&p, "for_votes", "quorum"), Vec::<i64>::new());
}
