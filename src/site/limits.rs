//! What a theme's templates may not do, because a page rendered so would
//! never end: call themselves (a macro that calls itself, directly or
//! through others, or a template that includes itself) or count without
//! bound (`range`). Recursion has no depth limit in Tera and ends in a
//! stack overflow, which aborts the build with no word of why; so a theme
//! that recurses does not load (and the doors refuse a pull request that
//! brings one). Counting is bounded per page: [`RANGE_BUDGET`] numbers in
//! all, so loops nested in loops cannot multiply it.
//!
//! This reads Tera's syntax tree, which Tera exposes but does not promise
//! to keep as it is: a new Tera that changes it fails to compile here,
//! not silently.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use tera::ast::{Expr, ExprVal, Node};

/// The most numbers `range` gives in all while one page is rendered.
pub(crate) const RANGE_BUDGET: u64 = 10_000;

thread_local! {
    /// What is left of [`RANGE_BUDGET`] for the page being rendered on this
    /// thread (Tera renders a page on the thread that asked).
    static RANGE_LEFT: Cell<u64> = const { Cell::new(RANGE_BUDGET) };
}

/// Gives the page about to be rendered on this thread its whole budget.
pub(crate) fn new_page() {
    RANGE_LEFT.with(|left| left.set(RANGE_BUDGET));
}

/// Tera's `range(end, start=0, step_by=1)`, within the page's budget.
pub(crate) fn range(args: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let number = |name: &str, default: Option<u64>| match args.get(name) {
        Some(value) => value.as_u64().ok_or_else(|| {
            tera::Error::msg(format!(
                "`range` takes a whole number as {name}, not {value}"
            ))
        }),
        None => default.ok_or_else(|| tera::Error::msg(format!("`range` needs {name}"))),
    };
    let (start, end, step) = (
        number("start", Some(0))?,
        number("end", None)?,
        number("step_by", Some(1))?,
    );
    if step == 0 {
        return Err(tera::Error::msg("`range` cannot step by 0"));
    }
    let count = end.saturating_sub(start).div_ceil(step);
    let left = RANGE_LEFT.with(Cell::get);
    if count > left {
        return Err(tera::Error::msg(format!(
            "`range` may give at most {RANGE_BUDGET} numbers in all on a page"
        )));
    }
    RANGE_LEFT.with(|l| l.set(left - count));
    let numbers = (0..count).map(|i| tera::Value::from(start + i * step));
    Ok(tera::Value::Array(numbers.collect()))
}

/// A template or one of its macros: what may call or include another.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Template(String),
    Macro(String, String),
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Part::Template(t) => write!(f, "{t}"),
            Part::Macro(t, m) => write!(f, "{t}::{m}"),
        }
    }
}

/// The first template that calls itself, directly or through others, and
/// how (`rec.html::f → rec.html::f`); `None` when none does. Tera finds a
/// macro by namespace through a template's imports, its parents' and
/// theirs: rather than follow those rules, a call is taken to reach every
/// macro of that name in any template, which finds every cycle a render
/// could follow (and may refuse a theme that only names two macros alike
/// in a ring). Imports and parents are edges too: Tera gathers a
/// template's macros through its imports without end when they import
/// each other, whether or not a macro is called.
pub(crate) fn recursion(tera: &tera::Tera) -> Option<(String, String)> {
    let mut defining: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, template) in &tera.templates {
        for macro_name in template.macros.keys() {
            defining.entry(macro_name).or_default().push(name);
        }
    }
    let callees = |found: Vec<Found>| -> BTreeSet<Part> {
        found
            .into_iter()
            .flat_map(|f| match f {
                Found::Include(names) => names.into_iter().map(Part::Template).collect::<Vec<_>>(),
                Found::Macro(name) => (defining.get(name.as_str()).into_iter().flatten())
                    .map(|file| Part::Macro((*file).to_string(), name.clone()))
                    .collect(),
            })
            .collect()
    };
    let mut calls: BTreeMap<Part, BTreeSet<Part>> = BTreeMap::new();
    for (name, template) in &tera.templates {
        let mut found = Vec::new();
        nodes(&template.ast, &mut found);
        let mut edges = callees(found);
        let imported = template.imported_macro_files.iter().map(|(file, _)| file);
        edges.extend(
            imported
                .chain(&template.parent)
                .cloned()
                .map(Part::Template),
        );
        calls.insert(Part::Template(name.clone()), edges);
        for (macro_name, definition) in &template.macros {
            let mut found = Vec::new();
            nodes(&definition.body, &mut found);
            let part = Part::Macro(name.clone(), macro_name.clone());
            calls.insert(part, callees(found));
        }
    }
    let mut done = BTreeSet::new();
    for start in calls.keys() {
        let mut path = Vec::new();
        if let Some(cycle) = cycle_from(start, &calls, &mut done, &mut path) {
            let owner = match &cycle[0] {
                Part::Template(t) | Part::Macro(t, _) => t.clone(),
            };
            let how: Vec<String> = cycle.iter().map(ToString::to_string).collect();
            return Some((owner, how.join(" → ")));
        }
    }
    None
}

/// A depth-first walk from `part`: the parts of a cycle it finds, the
/// first repeated at the end. `done` holds the parts known to lead to no
/// cycle, `path` those being walked.
fn cycle_from(
    part: &Part,
    calls: &BTreeMap<Part, BTreeSet<Part>>,
    done: &mut BTreeSet<Part>,
    path: &mut Vec<Part>,
) -> Option<Vec<Part>> {
    if done.contains(part) {
        return None;
    }
    if let Some(at) = path.iter().position(|p| p == part) {
        let mut cycle = path[at..].to_vec();
        cycle.push(part.clone());
        return Some(cycle);
    }
    path.push(part.clone());
    for next in calls.get(part).into_iter().flatten() {
        if let Some(cycle) = cycle_from(next, calls, done, path) {
            return Some(cycle);
        }
    }
    path.pop();
    done.insert(part.clone());
    None
}

/// A call found in a template: an include (of the first of these names
/// that exists), or a macro by name.
enum Found {
    Include(Vec<String>),
    Macro(String),
}

fn nodes(list: &[Node], found: &mut Vec<Found>) {
    for node in list {
        match node {
            Node::VariableBlock(_, e) => expr(e, found),
            Node::Include(_, names, _) => found.push(Found::Include(names.clone())),
            Node::Set(_, set) => expr(&set.value, found),
            Node::FilterSection(_, section, _) => {
                section.filter.args.values().for_each(|e| expr(e, found));
                nodes(&section.body, found);
            }
            Node::Block(_, block, _) => nodes(&block.body, found),
            Node::Forloop(_, forloop, _) => {
                expr(&forloop.container, found);
                nodes(&forloop.body, found);
                nodes(forloop.empty_body.as_deref().unwrap_or_default(), found);
            }
            Node::If(branches, _) => {
                for (_, condition, body) in &branches.conditions {
                    expr(condition, found);
                    nodes(body, found);
                }
                if let Some((_, body)) = &branches.otherwise {
                    nodes(body, found);
                }
            }
            // Macros are walked as parts of their own.
            Node::MacroDefinition(..)
            | Node::Super
            | Node::Text(_)
            | Node::Extends(..)
            | Node::ImportMacro(..)
            | Node::Raw(..)
            | Node::Break(_)
            | Node::Continue(_)
            | Node::Comment(..) => {}
        }
    }
}

fn expr(e: &Expr, found: &mut Vec<Found>) {
    value(&e.val, found);
    for filter in &e.filters {
        filter.args.values().for_each(|e| expr(e, found));
    }
}

fn value(v: &ExprVal, found: &mut Vec<Found>) {
    match v {
        ExprVal::Math(m) => {
            expr(&m.lhs, found);
            expr(&m.rhs, found);
        }
        ExprVal::Logic(l) => {
            expr(&l.lhs, found);
            expr(&l.rhs, found);
        }
        ExprVal::In(i) => {
            expr(&i.lhs, found);
            expr(&i.rhs, found);
        }
        ExprVal::Test(t) => t.args.iter().for_each(|e| expr(e, found)),
        ExprVal::MacroCall(call) => {
            found.push(Found::Macro(call.name.clone()));
            call.args.values().for_each(|e| expr(e, found));
        }
        ExprVal::FunctionCall(call) => call.args.values().for_each(|e| expr(e, found)),
        ExprVal::Array(items) => items.iter().for_each(|e| expr(e, found)),
        ExprVal::StringConcat(concat) => concat.values.iter().for_each(|v| value(v, found)),
        ExprVal::String(_)
        | ExprVal::Int(_)
        | ExprVal::Float(_)
        | ExprVal::Bool(_)
        | ExprVal::Ident(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tera(templates: &[(&str, &str)]) -> tera::Tera {
        let mut tera = tera::Tera::default();
        tera.register_function("range", range);
        tera.add_raw_templates(templates.iter().copied()).unwrap();
        tera
    }

    #[test]
    fn a_macro_or_template_that_calls_itself_is_found() {
        let direct = tera(&[(
            "m.html",
            "{% macro f(n) %}{{ self::f(n=n) }}{% endmacro f %}",
        )]);
        assert_eq!(
            recursion(&direct),
            Some(("m.html".into(), "m.html::f → m.html::f".into()))
        );
        let through = tera(&[
            (
                "m.html",
                "{% import \"n.html\" as n %}{% macro f() %}{% if true %}{{ n::g() | upper }}{% endif %}{% endmacro f %}",
            ),
            (
                "n.html",
                "{% macro g() %}{% for x in [m::f()] %}{% endfor %}{% endmacro g %}",
            ),
        ]);
        let (_, how) = recursion(&through).expect("a cycle through two files");
        assert!(
            how.contains("m.html::f") && how.contains("n.html::g"),
            "{how}"
        );
        let included = tera(&[
            (
                "a.html",
                "{% block x %}{% include \"b.html\" %}{% endblock x %}",
            ),
            ("b.html", "{% include \"a.html\" %}"),
        ]);
        assert!(recursion(&included).is_some());
        // Imports that import each other, with no macro called.
        let imports = tera(&[
            (
                "a.html",
                "{% import \"b.html\" as b %}{% macro f() %}{% endmacro f %}",
            ),
            (
                "b.html",
                "{% import \"a.html\" as a %}{% macro g() %}{% endmacro g %}",
            ),
        ]);
        assert!(recursion(&imports).is_some());
        // A namespace a page sees through its parent's import.
        let parents = tera(&[
            (
                "base.html",
                "{% import \"loop.html\" as lp %}{% block main %}{% endblock main %}",
            ),
            (
                "index.html",
                "{% extends \"base.html\" %}{% macro f() %}{{ lp::g() }}{% endmacro f %}{% block main %}{{ self::f() }}{% endblock main %}",
            ),
            ("loop.html", "{% macro g() %}{{ ix::f() }}{% endmacro g %}"),
        ]);
        let (_, how) = recursion(&parents).expect("a cycle through a parent's import");
        assert!(
            how.contains("index.html::f") && how.contains("loop.html::g"),
            "{how}"
        );
        let fine = tera(&[
            (
                "m.html",
                "{% macro f() %}{{ self::g() }}{% endmacro f %}{% macro g() %}g{% endmacro g %}",
            ),
            (
                "p.html",
                "{% import \"m.html\" as m %}{{ m::f() }}{% include \"q.html\" %}",
            ),
            ("q.html", "{{ 1 + 1 }}"),
        ]);
        assert_eq!(recursion(&fine), None);
    }

    #[test]
    fn range_counts_within_a_pages_budget() {
        let t = tera(&[
            (
                "small",
                "{% for i in range(start=2, end=9, step_by=3) %}{{ i }},{% endfor %}",
            ),
            (
                "nested",
                "{% for i in range(end=200) %}{% for j in range(end=200) %}{% endfor %}{% endfor %}",
            ),
        ]);
        new_page();
        let small = t.render("small", &tera::Context::new()).unwrap();
        assert_eq!(small, "2,5,8,");
        new_page();
        let nested = t.render("nested", &tera::Context::new());
        assert!(nested.is_err(), "200 × 200 is over the budget");
        new_page();
        let again = t.render("small", &tera::Context::new()).unwrap();
        assert_eq!(again, "2,5,8,", "each page has its own budget");
    }
}
