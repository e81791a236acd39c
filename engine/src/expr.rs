//! The condition language: the enact and fail conditions of every kind of
//! matter, and the quorum, are written in the ruleset as small expressions
//! over named tally quantities, so a proposal can amend them like any text.
//!
//! Grammar (loosest first; `and`/`or`/`not` may be written `&&`/`||`/`!`):
//!
//! ```text
//! expr   ::= and ( "||" and )*
//! and    ::= not ( "&&" not )*
//! not    ::= "!" not | cmp
//! cmp    ::= sum ( ( ">=" | "<=" | ">" | "<" | "==" | "!=" ) sum )?
//! sum    ::= prod ( ( "+" | "-" ) prod )*
//! prod   ::= atom ( ( "*" | "/" ) atom )*
//! atom   ::= integer | "true" | "false" | name | "(" expr ")"
//! ```
//!
//! Values are whole numbers, truth values and durations. Durations (the age
//! of a matter, the `*_hours` parameters) are kept in seconds so "more than
//! 48 hours" is exact; a plain number compared with a duration is read as
//! hours. Division rounds toward zero, as Ruleset 113 rounds "any
//! calculation". Expressions are type-checked when the parameters are read,
//! so a bad amendment is reported before any tally uses it.

use crate::bounds::{CONDITION_DEPTH, CONDITION_TOKENS};
use std::fmt;

use crate::time::Span;

/// A value of the condition language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// A whole number (counts, quorum).
    Int(i64),
    /// A truth value (flags such as `blocked`).
    Bool(bool),
    /// A duration (ages and time limits).
    Span(Span),
}

/// The type of a value, for checking expressions before they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    /// Whole numbers.
    Int,
    /// Truth values.
    Bool,
    /// Durations.
    Span,
}

/// Where the names of an expression get their types and values.
pub trait Env {
    /// The type of `name`, or `None` when the name is unknown.
    fn type_of(&self, name: &str) -> Option<Type>;
    /// The value of `name` (only asked for names `type_of` knows).
    fn value_of(&self, name: &str) -> Option<Value>;
    /// How `name` reads in an explanation, with its value, e.g. `3 FOR`;
    /// for a truth value, the statement that it is true or false (`vetoed`,
    /// `not vetoed`).
    fn describe(&self, name: &str, value: Value) -> String;
    /// For a duration that grows with the clock (a matter's age): the
    /// moment it reaches `span`, in words. An explanation then names that
    /// moment (`open under 48 h until 00:00 UTC on 3 Jan 2030`) instead of
    /// the duration so far, so it reads the same until something changes.
    fn reaches(&self, _name: &str, _span: Span) -> Option<String> {
        None
    }
}

/// A problem in a condition: unreadable, ill-typed or not computable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExprError(String);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Or,
    And,
    Ge,
    Le,
    Gt,
    Lt,
    Eq,
    Ne,
    Add,
    Sub,
    Mul,
    Div,
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expr(pub(crate) Node);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    Lit(Value),
    Var(String),
    Not(Box<Node>),
    Bin(Op, Box<Node>, Box<Node>),
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Or => "or",
            Op::And => "and",
            Op::Ge => "≥",
            Op::Le => "≤",
            Op::Gt => ">",
            Op::Lt => "<",
            Op::Eq => "=",
            Op::Ne => "≠",
            Op::Add => "+",
            Op::Sub => "−",
            Op::Mul => "×",
            Op::Div => "÷",
        }
    }

    /// How the operator reads in an explanation: `3 FOR, at least the
    /// quorum of 3`; `2 times 3 FOR`.
    fn words(self) -> &'static str {
        match self {
            Op::Or => "or",
            Op::And => "and",
            Op::Ge => "at least",
            Op::Le => "at most",
            Op::Gt => "more than",
            Op::Lt => "under",
            Op::Eq => "equal to",
            Op::Ne => "not equal to",
            Op::Add => "plus",
            Op::Sub => "minus",
            Op::Mul => "times",
            Op::Div => "divided by",
        }
    }

    fn negated(self) -> Op {
        match self {
            Op::Ge => Op::Lt,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Lt => Op::Ge,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
            other => other,
        }
    }

    pub(crate) fn is_comparison(self) -> bool {
        matches!(self, Op::Ge | Op::Le | Op::Gt | Op::Lt | Op::Eq | Op::Ne)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Num(i64),
    Name(String),
    Sym(&'static str),
}

const SYMBOLS: [&str; 17] = [
    "&&", "||", ">=", "<=", "==", "!=", ">", "<", "!", "+", "-", "*", "/", "(", ")", "≥", "≤",
];

fn tokenize(text: &str) -> Result<Vec<Token>, ExprError> {
    let mut tokens = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if tokens.len() > CONDITION_TOKENS {
            return Err(ExprError(format!(
                "longer than {CONDITION_TOKENS} names, numbers and symbols"
            )));
        }
        if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else if c.is_ascii_digit() {
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let n = rest[..end]
                .parse()
                .map_err(|_| ExprError(format!("number `{}` is too large", &rest[..end])))?;
            tokens.push(Token::Num(n));
            rest = &rest[end..];
        } else if c.is_alphabetic() || c == '_' {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            tokens.push(match &rest[..end] {
                "and" => Token::Sym("&&"),
                "or" => Token::Sym("||"),
                "not" => Token::Sym("!"),
                word => Token::Name(word.to_owned()),
            });
            rest = &rest[end..];
        } else if let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) {
            tokens.push(Token::Sym(match *sym {
                "≥" => ">=",
                "≤" => "<=",
                s => s,
            }));
            rest = &rest[sym.len()..];
        } else {
            return Err(ExprError(format!("unexpected `{c}`")));
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// How deep in parentheses and `!` the parser is: bounded, so that a
    /// condition from a pull request cannot overflow the stack here or in
    /// the walks of its tree.
    depth: usize,
}

impl Parser {
    fn eat(&mut self, sym: &str) -> bool {
        if matches!(self.tokens.get(self.pos), Some(Token::Sym(s)) if *s == sym) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn binary(
        &mut self,
        ops: &[(&str, Op)],
        next: fn(&mut Self) -> Result<Node, ExprError>,
        chain: bool,
    ) -> Result<Node, ExprError> {
        let mut left = next(self)?;
        'outer: loop {
            for (sym, op) in ops {
                if self.eat(sym) {
                    left = Node::Bin(*op, Box::new(left), Box::new(next(self)?));
                    if chain {
                        continue 'outer;
                    }
                    return Ok(left);
                }
            }
            return Ok(left);
        }
    }

    fn or(&mut self) -> Result<Node, ExprError> {
        self.binary(&[("||", Op::Or)], Self::and, true)
    }

    fn and(&mut self) -> Result<Node, ExprError> {
        self.binary(&[("&&", Op::And)], Self::not, true)
    }

    /// Goes one level deeper, if the bound allows.
    fn deeper(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > CONDITION_DEPTH {
            return Err(ExprError(format!(
                "nested more than {CONDITION_DEPTH} deep in parentheses and `!`"
            )));
        }
        Ok(())
    }

    fn not(&mut self) -> Result<Node, ExprError> {
        if self.eat("!") {
            self.deeper()?;
            let inner = self.not()?;
            self.depth -= 1;
            return Ok(Node::Not(Box::new(inner)));
        }
        let ops = [
            (">=", Op::Ge),
            ("<=", Op::Le),
            ("==", Op::Eq),
            ("!=", Op::Ne),
            (">", Op::Gt),
            ("<", Op::Lt),
        ];
        self.binary(&ops, Self::sum, false)
    }

    fn sum(&mut self) -> Result<Node, ExprError> {
        self.binary(&[("+", Op::Add), ("-", Op::Sub)], Self::prod, true)
    }

    fn prod(&mut self) -> Result<Node, ExprError> {
        self.binary(&[("*", Op::Mul), ("/", Op::Div)], Self::atom, true)
    }

    fn atom(&mut self) -> Result<Node, ExprError> {
        let token = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        match token {
            Some(Token::Num(n)) => Ok(Node::Lit(Value::Int(n))),
            Some(Token::Name(name)) => Ok(match name.as_str() {
                "true" => Node::Lit(Value::Bool(true)),
                "false" => Node::Lit(Value::Bool(false)),
                _ => Node::Var(name),
            }),
            Some(Token::Sym("(")) => {
                self.deeper()?;
                let inner = self.or()?;
                self.depth -= 1;
                if self.eat(")") {
                    Ok(inner)
                } else {
                    Err(ExprError("missing `)`".into()))
                }
            }
            Some(Token::Sym(s)) => Err(ExprError(format!("unexpected `{s}`"))),
            None => Err(ExprError("unexpected end of the condition".into())),
        }
    }
}

impl Expr {
    /// Parses a condition.
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        let mut parser = Parser {
            tokens: tokenize(text)?,
            pos: 0,
            depth: 0,
        };
        let node = parser.or()?;
        match parser.tokens.get(parser.pos) {
            None => Ok(Expr(node)),
            Some(t) => Err(ExprError(format!("unexpected {t:?} after the condition"))),
        }
    }

    /// The type the expression has in `env`, or why it has none.
    pub fn check(&self, env: &dyn Env) -> Result<Type, ExprError> {
        self.0.check(env)
    }

    /// Whether the expression divides by a written zero somewhere.
    pub fn divides_by_a_written_zero(&self) -> bool {
        self.0.divides_by_a_written_zero()
    }

    /// Evaluates the expression in `env`.
    pub fn eval(&self, env: &dyn Env) -> Result<Value, ExprError> {
        self.0.eval(env)
    }

    /// Evaluates a condition that must be a truth value.
    pub fn eval_bool(&self, env: &dyn Env) -> Result<bool, ExprError> {
        self.0.eval_bool(env)
    }

    /// Why the condition holds (or, with `holds = false`, why it does not),
    /// in words with the values filled in, one clause per reason:
    /// `neither vetoed nor self-killed; 3 FOR, at least the quorum of 3`.
    /// A name that is a truth value is described with the truth claimed
    /// (`describe(name, Value::Bool(holds))`), so the environment words
    /// its negation itself.
    pub fn explain(&self, env: &dyn Env, holds: bool) -> String {
        self.0.explain(env, holds)
    }
}

impl Node {
    fn divides_by_a_written_zero(&self) -> bool {
        match self {
            Node::Bin(Op::Div, _, r) if **r == Node::Lit(Value::Int(0)) => true,
            Node::Bin(_, l, r) => l.divides_by_a_written_zero() || r.divides_by_a_written_zero(),
            Node::Not(inner) => inner.divides_by_a_written_zero(),
            Node::Lit(_) | Node::Var(_) => false,
        }
    }

    fn check(&self, env: &dyn Env) -> Result<Type, ExprError> {
        match self {
            Node::Lit(v) => Ok(type_of(*v)),
            Node::Var(name) => env
                .type_of(name)
                .ok_or_else(|| ExprError(format!("unknown name `{name}`"))),
            Node::Not(inner) => match inner.check(env)? {
                Type::Bool => Ok(Type::Bool),
                t => Err(ExprError(format!("`not` needs a truth value, not {t:?}"))),
            },
            Node::Bin(op, l, r) => result_type(*op, l.check(env)?, r.check(env)?),
        }
    }

    fn eval(&self, env: &dyn Env) -> Result<Value, ExprError> {
        match self {
            Node::Lit(v) => Ok(*v),
            Node::Var(name) => env
                .value_of(name)
                .ok_or_else(|| ExprError(format!("unknown name `{name}`"))),
            Node::Not(inner) => Ok(Value::Bool(!inner.eval_bool(env)?)),
            Node::Bin(Op::Or, l, r) => Ok(Value::Bool(l.eval_bool(env)? || r.eval_bool(env)?)),
            Node::Bin(Op::And, l, r) => Ok(Value::Bool(l.eval_bool(env)? && r.eval_bool(env)?)),
            Node::Bin(op, l, r) => apply(*op, l.eval(env)?, r.eval(env)?),
        }
    }

    fn eval_bool(&self, env: &dyn Env) -> Result<bool, ExprError> {
        match self.eval(env)? {
            Value::Bool(b) => Ok(b),
            other => Err(ExprError(format!("expected a truth value, got {other:?}"))),
        }
    }

    fn explain(&self, env: &dyn Env, holds: bool) -> String {
        match self {
            Node::Not(inner) => inner.explain(env, !holds),
            Node::Bin(Op::Or | Op::And, l, r) => {
                let is_or = matches!(self, Node::Bin(Op::Or, ..));
                if is_or == holds {
                    // One side settles it: a true disjunct, or a false conjunct.
                    let first = l.eval_bool(env).ok() == Some(holds);
                    if first {
                        l.explain(env, holds)
                    } else {
                        r.explain(env, holds)
                    }
                } else {
                    // Every side counts: each clause is one reason.
                    format!("{}; {}", l.explain(env, holds), r.explain(env, holds))
                }
            }
            Node::Bin(op, l, r) if op.is_comparison() => {
                let op = if holds { *op } else { op.negated() };
                let spans = [l, r]
                    .iter()
                    .any(|side| matches!(side.eval(env), Ok(Value::Span(_))));
                if let Some(text) = Self::moment(op, l, r, env) {
                    return text;
                }
                let (left, right) = (l.side(env, spans), r.side(env, spans));
                match (op, &**r) {
                    // `0 AGAINST` says all that `0 AGAINST, equal to 0` would.
                    (Op::Eq, Node::Lit(_)) => left,
                    (Op::Ne, Node::Lit(_)) => format!("{left}, not {right}"),
                    _ => format!("{left}, {} {right}", op.words()),
                }
            }
            Node::Var(name) => env.describe(name, Value::Bool(holds)),
            _ => {
                let text = self.show(env);
                if holds { text } else { format!("not {text}") }
            }
        }
    }

    /// A clock's comparison with a duration (`age >= 12`) as the moment
    /// it turns: `open at least 12 h since 12:00 UTC on 1 Jan 2030`.
    fn moment(op: Op, l: &Node, r: &Node, env: &dyn Env) -> Option<String> {
        let Node::Var(name) = l else { return None };
        let span = match r.eval(env).ok()? {
            Value::Span(s) => s,
            Value::Int(h) => Span::hours(h),
            Value::Bool(_) => return None,
        };
        let at = env.reaches(name, span)?;
        let (words, link) = match op {
            Op::Ge => ("at least", "since"),
            Op::Gt => ("more than", "since"),
            Op::Lt => ("under", "until"),
            Op::Le => ("at most", "until"),
            _ => return None,
        };
        let said = env.describe(name, Value::Span(span));
        let verb = said.split(' ').next().unwrap_or("open");
        Some(format!("{verb} {words} {span} {link} {at}"))
    }

    /// One side of a comparison in words; an arithmetic side leads with
    /// its value (`4 (5 active players minus 1 AGAINST)`), and a bare
    /// number compared with a duration reads as the hours it means.
    fn side(&self, env: &dyn Env, spans: bool) -> String {
        match self {
            Node::Lit(Value::Int(h)) if spans => Span::hours(*h).to_string(),
            Node::Bin(..) => match self.eval(env) {
                Ok(v) => format!("{v} ({})", self.show(env)),
                Err(_) => self.show(env),
            },
            _ => self.show(env),
        }
    }

    fn show(&self, env: &dyn Env) -> String {
        match self {
            Node::Lit(v) => v.to_string(),
            Node::Var(name) => match env.value_of(name) {
                Some(v) => env.describe(name, v),
                None => name.clone(),
            },
            Node::Not(inner) => format!("not ({})", inner.show(env)),
            Node::Bin(op, l, r) => format!("{} {} {}", l.show(env), op.words(), r.show(env)),
        }
    }
}

fn type_of(v: Value) -> Type {
    match v {
        Value::Int(_) => Type::Int,
        Value::Bool(_) => Type::Bool,
        Value::Span(_) => Type::Span,
    }
}

fn result_type(op: Op, l: Type, r: Type) -> Result<Type, ExprError> {
    use Type::{Bool, Int, Span};
    let ok = match op {
        Op::Or | Op::And => (l, r) == (Bool, Bool),
        Op::Eq | Op::Ne => l == r || matches!((l, r), (Int, Span) | (Span, Int)),
        Op::Ge | Op::Le | Op::Gt | Op::Lt => l != Bool && r != Bool,
        Op::Add | Op::Sub => l == r && l != Bool,
        Op::Mul => matches!((l, r), (Int, Int | Span) | (Span, Int)),
        Op::Div => matches!((l, r), (Int | Span, Int)),
    };
    if !ok {
        return Err(ExprError(format!(
            "`{}` cannot combine {l:?} and {r:?}",
            op.symbol()
        )));
    }
    Ok(match op {
        Op::Add | Op::Sub | Op::Mul | Op::Div if l == Span || r == Span => Span,
        Op::Add | Op::Sub | Op::Mul | Op::Div => Int,
        _ => Bool,
    })
}

/// Seconds of a duration, or of a number read as hours.
fn seconds(v: Value) -> Option<i64> {
    match v {
        Value::Span(s) => Some(s.as_seconds()),
        Value::Int(h) => h.checked_mul(3600),
        Value::Bool(_) => None,
    }
}

fn apply(op: Op, l: Value, r: Value) -> Result<Value, ExprError> {
    let overflow = || ExprError(format!("`{l} {} {r}` is out of range", op.symbol()));
    if op.is_comparison() {
        let (a, b) = match (l, r) {
            (Value::Int(a), Value::Int(b)) => (a, b),
            (Value::Bool(a), Value::Bool(b)) => (i64::from(a), i64::from(b)),
            _ => (
                seconds(l).ok_or_else(overflow)?,
                seconds(r).ok_or_else(overflow)?,
            ),
        };
        return Ok(Value::Bool(match op {
            Op::Ge => a >= b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Lt => a < b,
            Op::Eq => a == b,
            _ => a != b,
        }));
    }
    let span = matches!(l, Value::Span(_)) || matches!(r, Value::Span(_));
    let (a, b) = match (op, l, r) {
        (Op::Mul | Op::Div, Value::Span(s), Value::Int(n))
        | (Op::Mul, Value::Int(n), Value::Span(s)) => (s.as_seconds(), n),
        (_, Value::Int(a), Value::Int(b)) => (a, b),
        (_, Value::Span(a), Value::Span(b)) => (a.as_seconds(), b.as_seconds()),
        _ => return Err(overflow()),
    };
    let n = match op {
        Op::Add => a.checked_add(b),
        Op::Sub => a.checked_sub(b),
        Op::Mul => a.checked_mul(b),
        _ if b == 0 => return Err(ExprError(format!("`{l} ÷ {r}` divides by zero"))),
        _ => a.checked_div(b),
    }
    .ok_or_else(overflow)?;
    Ok(if span {
        Value::Span(Span::seconds(n))
    } else {
        Value::Int(n)
    })
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Span(s) => write!(f, "{s}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    struct Map(BTreeMap<&'static str, Value>);

    impl Env for Map {
        fn type_of(&self, name: &str) -> Option<Type> {
            self.0.get(name).map(|v| type_of(*v))
        }
        fn value_of(&self, name: &str) -> Option<Value> {
            self.0.get(name).copied()
        }
        fn describe(&self, name: &str, value: Value) -> String {
            match value {
                Value::Bool(true) => name.to_owned(),
                Value::Bool(false) => format!("not {name}"),
                v => format!("{name} {v}"),
            }
        }
    }

    fn env() -> Map {
        Map(BTreeMap::from([
            ("f", Value::Int(3)),
            ("q", Value::Int(3)),
            ("n", Value::Int(5)),
            ("age", Value::Span(Span::seconds(48 * 3600 + 1))),
            ("limit", Value::Span(Span::hours(48))),
            ("blocked", Value::Bool(false)),
        ]))
    }

    fn eval(text: &str) -> Value {
        let e = Expr::parse(text).unwrap();
        e.check(&env()).unwrap();
        e.eval(&env()).unwrap()
    }

    #[test]
    fn a_deep_or_long_condition_is_refused_not_overflowed() {
        for text in [
            format!("{}1{}", "(".repeat(3_000), ")".repeat(3_000)),
            "not ".repeat(50_000) + "true",
            "1 + ".repeat(100_000) + "1",
        ] {
            let err = Expr::parse(&text).unwrap_err().to_string();
            assert!(err.contains("deep") || err.contains("longer"), "{err}");
        }
        let fine = format!("{}1{} == 1", "(".repeat(60), ")".repeat(60));
        assert_eq!(eval(&fine), Value::Bool(true));
    }

    #[test]
    fn precedence_and_integer_division() {
        assert_eq!(eval("n / 2 + 1"), Value::Int(3));
        assert_eq!(eval("7 / 2 * 2"), Value::Int(6));
        assert_eq!(eval("1 + 2 * 3 - 4"), Value::Int(3));
        assert_eq!(eval("true || false && false"), Value::Bool(true));
        assert_eq!(eval("not (f >= q) or blocked"), Value::Bool(false));
        assert_eq!(eval("!blocked && f ≥ q"), Value::Bool(true));
    }

    #[test]
    fn durations_are_exact_and_numbers_compare_as_hours() {
        assert_eq!(eval("age > limit"), Value::Bool(true));
        assert_eq!(eval("age > 48"), Value::Bool(true));
        assert_eq!(eval("age >= 49"), Value::Bool(false));
        assert_eq!(eval("limit == 48"), Value::Bool(true));
        assert_eq!(eval("age - limit < 1"), Value::Bool(true));
        assert_eq!(eval("limit * 2 > age"), Value::Bool(true));
    }

    #[test]
    fn rejects_unknown_names_bad_types_and_junk() {
        let check = |t: &str| Expr::parse(t).and_then(|e| e.check(&env()));
        assert!(
            check("f >= quorum")
                .unwrap_err()
                .to_string()
                .contains("quorum")
        );
        assert!(check("f && blocked").is_err());
        assert!(check("f + age").is_err());
        assert!(check("f").is_ok());
        assert!(Expr::parse("f >= ").is_err());
        assert!(Expr::parse("(f >= q").is_err());
        assert!(Expr::parse("f >= q q").is_err());
        assert!(Expr::parse("f $ q").is_err());
        assert!(Expr::parse("99999999999999999999").is_err());
    }

    #[test]
    fn division_by_zero_is_an_error_not_a_panic() {
        let e = Expr::parse("f / (q - 3)").unwrap();
        assert!(e.eval(&env()).is_err());
    }

    #[test]
    fn explains_with_values() {
        let e = Expr::parse("!blocked && (f >= q && age >= 12 || n < 2)").unwrap();
        assert_eq!(
            e.explain(&env(), true),
            "not blocked; f 3, at least q 3; age 48 h 0 min 1 s, at least 12 h"
        );
        let e = Expr::parse("f > n || age < limit").unwrap();
        assert_eq!(
            e.explain(&env(), false),
            "f 3, at most n 5; age 48 h 0 min 1 s, at least limit 48 h"
        );
    }

    #[test]
    fn explains_arithmetic_by_its_value_and_equality_plainly() {
        let e = Expr::parse("n - f >= q / 2 && f * 2 > n").unwrap();
        assert_eq!(
            e.explain(&env(), true),
            "2 (n 5 minus f 3), at least 1 (q 3 divided by 2); \
             6 (f 3 times 2), more than n 5"
        );
        assert_eq!(Expr::parse("f == 3").unwrap().explain(&env(), true), "f 3");
        assert_eq!(
            Expr::parse("f == 0").unwrap().explain(&env(), false),
            "f 3, not 0"
        );
        assert_eq!(
            Expr::parse("not (f < q)").unwrap().explain(&env(), true),
            "f 3, at least q 3"
        );
    }
}
