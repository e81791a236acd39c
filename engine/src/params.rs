//! The rule parameters the engine runs on: every threshold, limit, voting
//! word, policy choice and enact/fail condition. They live beside the rule
//! text (each rule's `[params]`) so a proposal that amends a rule amends its
//! enforcement in the same diff; the engine has no numbers of its own.
//!
//! [`Params::from_table`] reads the flat merge of every rule's `[params]`:
//! an optional `preset` picks the base (default `blognomic-113`), then each
//! other key overrides one field. Presets reproduce the core voting of
//! BlogNomic Rulesets 49, 53, 73, 75 and 113 (MECHANICS.md §4.1).

use super::expr::{Env, Expr, ExprError, Type, Value};

/// The preset used when none is named: the newest ruleset.
pub const DEFAULT_PRESET: &str = "blognomic-113";

/// The presets shipped in the binary.
pub const PRESETS: [&str; 5] = [
    "blognomic-49",
    "blognomic-53",
    "blognomic-73",
    "blognomic-75",
    "blognomic-113",
];

/// Whose matters carry the author's implicit FOR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImplicitFor {
    /// Every votable matter (Ruleset 113).
    AllMatters,
    /// Proposals only (Rulesets 49–75).
    Proposals,
}

/// What an author's explicit AGAINST on their own proposal does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SelfKill {
    /// The proposal is Self-Killed for good; the author may still change
    /// their Vote (Ruleset 113).
    Sticky,
    /// The AGAINST may not be changed: later comments by the author are
    /// ignored (Rulesets 49–75).
    Locked,
}

/// A calendar day of the year (UTC), for the seasonal downtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct MonthDay {
    /// 1–12.
    pub month: u32,
    /// 1–31.
    pub day: u32,
}

/// An enact or fail condition (or the quorum formula), kept with its text
/// so reports and docs can quote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    /// The condition as written in the ruleset.
    pub text: String,
    /// The parsed, type-checked form.
    pub expr: Expr,
}

/// Declares every parameter once: its doc, whether conditions may use it
/// as a time limit (`time_limit`, in hours) or not (`setting`), its field
/// and type, and how its value is read from `[params]`. From the one list
/// come the [`Params`] struct, [`PARAMETERS`], the reader of
/// [`Params::from_table`] and the time limits conditions and the
/// look-ahead see, so a parameter cannot be known to one and not another.
macro_rules! parameters {
    ($($(#[$attr:meta])* $kind:ident $field:ident: $ty:ty = $read:expr;)*) => {
        /// The full parameter set of a ruleset. See docs/tally.md for each
        /// field's meaning and Ruleset 113 default.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct Params {
            /// The preset these parameters started from.
            pub preset: String,
            $($(#[$attr])* pub $field: $ty,)*
        }

        /// Every parameter a ruleset may set besides `preset`, in order.
        pub const PARAMETERS: &[Parameter] = &[
            $(Parameter { name: stringify!($field), time_limit: parameters!(@is $kind) },)*
        ];

        impl Params {
            /// Overrides one field by its key.
            fn set(&mut self, key: &str, v: &toml::Value) -> Result<(), ParamProblem> {
                match key {
                    $(stringify!($field) => self.$field = ($read)(v)?,)*
                    _ => return Err(ParamProblem::Unknown),
                }
                Ok(())
            }

            /// The value of a time limit by name, in hours (`None` for any
            /// other parameter).
            pub(crate) fn hours(&self, name: &str) -> Option<i64> {
                match name {
                    $(stringify!($field) => parameters!(@hours $kind self.$field),)*
                    _ => None,
                }
            }
        }
    };
    (@is time_limit) => { true };
    (@is setting) => { false };
    (@hours time_limit $value:expr) => { Some($value) };
    (@hours setting $value:expr) => { None };
}

/// One parameter of [`PARAMETERS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parameter {
    /// Its key in `[params]` and its field in [`Params`].
    pub name: &'static str,
    /// Whether it is a time limit in hours, which conditions may compare
    /// ages with (and the look-ahead must therefore watch).
    pub time_limit: bool,
}

parameters! {
    /// Words that cast FOR.
    setting words_for: Vec<String> = word_list;
    /// Words that cast AGAINST.
    setting words_against: Vec<String> = word_list;
    /// Words that cast DEFERENTIAL.
    setting words_deferential: Vec<String> = word_list;
    /// Words that cast VETO.
    setting words_veto: Vec<String> = word_list;
    /// Most pending proposals a player may have when posting another.
    setting max_pending: u32 = count;
    /// Most proposals a player may post in one UTC day.
    setting max_per_day: u32 = count;
    /// Hours before a quorum of FOR may enact a proposal.
    time_limit enact_quorum_hours: i64 = amount;
    /// Hours before the majority branch (and failure when not enactable).
    time_limit resolve_majority_hours: i64 = amount;
    /// A proposal pending more than this many hours is skipped and failed; 0 = never.
    time_limit stale_after_hours: i64 = amount;
    /// Hours after which a CfJ may be resolved without a quorum.
    time_limit cfj_resolve_after_hours: i64 = amount;
    /// The same limit while the game is in hiatus (Rulesets 49–75).
    time_limit cfj_hiatus_hours: i64 = amount;
    /// DoV: the earliest branch (12 h in 113).
    time_limit dov_fast_hours: i64 = amount;
    /// DoV: the middle branch (24 h in 113).
    time_limit dov_middle_hours: i64 = amount;
    /// DoV: the slow branch (48 h in 113).
    time_limit dov_slow_hours: i64 = amount;
    /// Hours a failed DoV's author waits when AGAINST exceeded quorum; 0 = never.
    setting dov_cooldown_hours: i64 = amount;
    /// Whether the game pauses each year from `downtime_start` to `downtime_end`.
    setting seasonal_downtime: bool = flag;
    /// First day of the seasonal downtime (from 00:00 UTC).
    setting downtime_start: MonthDay = month_day;
    /// The day the downtime ends (at 00:00 UTC, exclusive).
    setting downtime_end: MonthDay = month_day;
    /// Days a player who left must wait to rejoin (not used by the tally).
    setting rejoin_block_days: i64 = amount;
    /// Days of silence after which a player may be idled (not used by the tally).
    setting idle_after_days: i64 = amount;
    /// Days after idling before a player may unidle (not used by the tally).
    setting unidle_block_days: i64 = amount;
    /// Least hours between two uses of a daily action (not used by the tally).
    setting daily_gap_hours: i64 = amount;
    /// The most characters a push after the first vote may change and still
    /// count as a typo fix that keeps the votes (0: every push voids them).
    /// A forge rule, the same in every preset.
    setting typo_fix_max_chars: i64 = amount;
    /// How many minutes after it was opened a pull request may still
    /// become a matter, or change kind, if nobody has commented on it yet
    /// (rule "Changes to Pending Proposals"). A forge rule, the same in
    /// every preset.
    setting kind_window_minutes: i64 = amount;
    /// Whether a review with no voting word in its body votes by its state
    /// (approved: FOR; changes requested: AGAINST). A forge rule, on in
    /// every preset.
    setting review_states_vote: bool = flag;
    /// Which matters carry the author's implicit FOR.
    setting implicit_for: ImplicitFor = implicit_for;
    /// What an author's AGAINST on their own proposal does.
    setting self_kill: SelfKill = self_kill;
    /// Whether a VETO stands after the emperor changes their vote.
    setting veto_sticky: bool = flag;
    /// Whether the emperor may cast DEFERENTIAL (cancelling their vote).
    setting emperor_may_def: bool = flag;
    /// Whether an unmirrored DEFERENTIAL still replaces an earlier vote (§4 A-1).
    setting def_is_valid_icon: bool = flag;
    /// Whether the author's implicit FOR counts as "having voted".
    setting implicit_vote_counts_as_voted: bool = flag;
    /// Whether a DoV posted while awaiting an Ascension Address is void.
    setting dov_banned_before_ascension: bool = flag;
    /// Whether votes on proposals cast during a hiatus count.
    setting hiatus_permits_proposal_voting: bool = flag;
    /// Whether a comment made while idle counts once its author is active.
    setting count_comments_made_while_idle: bool = flag;
    /// Whether a vote cast before an idle spell counts again after unidling.
    setting revive_votes_on_unidle: bool = flag;
    /// Quorum as a formula of `active`.
    setting quorum: Condition = |v| condition(v, Scope::Quorum);
    /// When a proposal is enacted.
    setting proposal_enact: Condition = |v| condition(v, Scope::Enact);
    /// When a proposal is failed (may use `enactable`).
    setting proposal_fail: Condition = |v| condition(v, Scope::Fail);
    /// When a CfJ is enacted.
    setting cfj_enact: Condition = |v| condition(v, Scope::Enact);
    /// When a CfJ is failed (may use `enactable`).
    setting cfj_fail: Condition = |v| condition(v, Scope::Fail);
    /// When a DoV is enacted.
    setting dov_enact: Condition = |v| condition(v, Scope::Enact);
    /// When a DoV is failed (may use `enactable`).
    setting dov_fail: Condition = |v| condition(v, Scope::Fail);
}

/// A parameter that could not be read: its key, for the diagnostic to
/// point at the rule that declares it, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("params.{key}: {problem}")]
pub struct ParamError {
    /// The key in `[params]`.
    pub key: String,
    /// What is wrong with it.
    pub problem: ParamProblem,
}

/// What is wrong with one parameter's value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamProblem {
    /// No parameter has this key.
    #[error("unknown parameter")]
    Unknown,
    /// `preset` names no preset shipped in the binary.
    #[error("unknown preset `{0}` (known: {known})", known = PRESETS.join(", "))]
    UnknownPreset(String),
    /// A string was wanted.
    #[error("must be a string")]
    NotText,
    /// A list of voting words was wanted.
    #[error("must be a list of words without spaces")]
    NotWords,
    /// A whole number in range was wanted.
    #[error("must be a whole number from 0 to 1000000")]
    NotAmount,
    /// `true` or `false` was wanted.
    #[error("must be true or false")]
    NotFlag,
    /// A day of the year was wanted; the text given.
    #[error("`{0}` is not a day of the year as \"MM-DD\"")]
    NotMonthDay(String),
    /// A day some years lack (29 February): the downtime's edges are
    /// "00:00 UTC on" that day, which those years do not have.
    #[error(
        "`{0}` is not in every year: the seasonal downtime starts and ends on days every year has"
    )]
    NotEveryYear(String),
    /// One of a few words was wanted: the word given, and the choices.
    #[error("`{got}`: expected {expected}")]
    NotChoice {
        /// The word given.
        got: String,
        /// The words allowed, as a person reads them.
        expected: &'static str,
    },
    /// A condition or the quorum formula that cannot be used.
    #[error(transparent)]
    Condition(#[from] ConditionError),
    /// A voting word listed for two votes: which it casts is not told.
    #[error("`{word}` is listed in {with} too: a word casts one vote")]
    SharedWord {
        /// The word.
        word: String,
        /// The other list that has it.
        with: &'static str,
    },
}

/// Why a condition (or the quorum formula) cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionError {
    /// It does not parse, or names something it may not see.
    #[error(transparent)]
    Unreadable(#[from] ExprError),
    /// It divides by a written zero.
    #[error("`{0}` divides by zero")]
    DividesByZero(String),
    /// The quorum formula fails for some number of active players.
    #[error(
        "`{text}` cannot be computed with {active} active {players}: {error}",
        players = if *active == 1 { "player" } else { "players" }
    )]
    Uncomputable {
        /// The formula.
        text: String,
        /// The first count of active players it fails for.
        active: i64,
        /// How it fails.
        error: ExprError,
    },
    /// It gives a value of the wrong type.
    #[error("must be a {want:?} expression, not {got:?}")]
    WrongType {
        /// The type wanted (a number for the quorum, a truth value for a condition).
        want: Type,
        /// The type it has.
        got: Type,
    },
    /// It compares the age with something other than a duration.
    #[error(
        "`{text}` compares the age with {name}: the age may only be compared with \
         durations, a time limit or a number of hours, so the look-ahead can tell \
         when the condition turns"
    )]
    AgeComparedWith {
        /// The condition.
        text: String,
        /// What it compares the age with.
        name: String,
    },
}

/// Why the quorum cannot be computed at one moment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuorumError {
    /// The formula gave something other than a whole number.
    #[error("the quorum formula gave {0}")]
    NotANumber(Value),
    /// The formula failed (a division by zero, an overflow).
    #[error(transparent)]
    Failed(#[from] ExprError),
}

/// The tally quantities a condition may use, with their types, besides
/// the time limits of [`PARAMETERS`] (durations). `enactable` exists only
/// in fail conditions; the quorum formula sees only `active`.
pub const QUANTITIES: [(&str, Type, &str); 14] = [
    ("for_votes", Type::Int, "counted FOR votes"),
    ("against_votes", Type::Int, "counted AGAINST votes"),
    ("valid_votes", Type::Int, "FOR + AGAINST"),
    (
        "votes",
        Type::Int,
        "every counted vote, DEFERENTIAL and VETO included",
    ),
    ("active", Type::Int, "active players"),
    ("quorum", Type::Int, "the quorum"),
    ("age", Type::Span, "how long the matter has been open"),
    ("blocked", Type::Bool, "blocked (vetoed or self-killed)"),
    ("vetoed", Type::Bool, "vetoed"),
    ("self_killed", Type::Bool, "self-killed"),
    ("wizard_for", Type::Bool, "the emperor's vote is FOR"),
    (
        "wizard_voted",
        Type::Bool,
        "the emperor has a FOR or AGAINST vote",
    ),
    ("hiatus", Type::Bool, "the game is in hiatus"),
    ("enactable", Type::Bool, "enactable"),
];

/// The most active players the quorum formula is checked for: it must be
/// computable for every count from 1 to this.
pub const QUORUM_CHECKED_UP_TO: i64 = 200;

/// The quorum formula's one name, `active`.
pub(crate) struct Active(pub(crate) i64);

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

/// Which names a condition may see, for type-checking.
#[derive(Clone, Copy)]
pub(crate) enum Scope {
    Quorum,
    Enact,
    Fail,
}

impl Env for Scope {
    fn type_of(&self, name: &str) -> Option<Type> {
        match (self, name) {
            (Scope::Quorum, "active") => Some(Type::Int),
            (Scope::Quorum, _) | (Scope::Enact, "enactable") => None,
            _ => QUANTITIES
                .iter()
                .find(|q| q.0 == name)
                .map(|q| q.1)
                .or_else(|| is_time_limit(name).then_some(Type::Span)),
        }
    }
    fn value_of(&self, _: &str) -> Option<Value> {
        None
    }
    fn describe(&self, name: &str, _: Value) -> String {
        name.to_owned()
    }
}

/// Whether `name` is a time limit of [`PARAMETERS`].
fn is_time_limit(name: &str) -> bool {
    PARAMETERS.iter().any(|p| p.time_limit && p.name == name)
}

impl Condition {
    /// Parses and type-checks a condition (or, for [`Scope::Quorum`], the
    /// quorum formula, which must also be computable for every number of
    /// active players up to [`QUORUM_CHECKED_UP_TO`]). Dividing by a
    /// written zero is refused anywhere, and so is comparing the age with
    /// anything but a duration.
    pub(crate) fn parse(text: &str, scope: Scope) -> Result<Condition, ConditionError> {
        let expr = Expr::parse(text)?;
        if expr.divides_by_a_written_zero() {
            return Err(ConditionError::DividesByZero(text.to_owned()));
        }
        if let Scope::Quorum = scope {
            expr.check(&scope)?;
            if let Some((n, e)) =
                (1..=QUORUM_CHECKED_UP_TO).find_map(|n| expr.eval(&Active(n)).err().map(|e| (n, e)))
            {
                return Err(ConditionError::Uncomputable {
                    text: text.to_owned(),
                    active: n,
                    error: e,
                });
            }
        }
        let want = match scope {
            Scope::Quorum => Type::Int,
            _ => Type::Bool,
        };
        let got = expr.check(&scope)?;
        if got != want {
            return Err(ConditionError::WrongType { want, got });
        }
        // The look-ahead finds when a comparison of the age turns from
        // the parameters alone (see `turns`).
        if let Some(name) = expr
            .compared_with_age()
            .into_iter()
            .find(|n| !is_time_limit(n))
        {
            return Err(ConditionError::AgeComparedWith {
                text: text.to_owned(),
                name: name.to_owned(),
            });
        }
        Ok(Condition {
            text: text.to_owned(),
            expr,
        })
    }
}

impl Params {
    /// Reads the flat merge of every rule's `[params]`: `preset` first
    /// (default `blognomic-113`), then each other key overrides one field.
    /// Every problem is reported, not just the first.
    pub fn from_table(table: &toml::Table) -> Result<Params, Vec<ParamError>> {
        let error = |key: &str, problem: ParamProblem| ParamError {
            key: key.to_owned(),
            problem,
        };
        let name = match table.get("preset") {
            None => DEFAULT_PRESET,
            Some(toml::Value::String(s)) => s.as_str(),
            Some(_) => return Err(vec![error("preset", ParamProblem::NotText)]),
        };
        let Some(mut params) = Params::preset(name) else {
            return Err(vec![error(
                "preset",
                ParamProblem::UnknownPreset(name.to_owned()),
            )]);
        };
        let mut errors: Vec<ParamError> = table
            .iter()
            .filter(|(key, _)| key.as_str() != "preset")
            .filter_map(|(key, value)| params.set(key, value).err().map(|m| error(key, m)))
            .collect();
        if let Some((word, first, second)) =
            errors.is_empty().then(|| shared_word(&params)).flatten()
        {
            // Named at the list the ruleset sets (the other may be the
            // preset's), so that `check` points at a line.
            let (key, with) = match table.contains_key(second) {
                true => (second, first),
                false => (first, second),
            };
            errors.push(error(key, ParamProblem::SharedWord { word, with }));
        }
        if errors.is_empty() {
            Ok(params)
        } else {
            Err(errors)
        }
    }
}

/// The first voting word listed for two votes, with the two lists' keys:
/// a word that cast both FOR and AGAINST would be counted as whichever
/// the tally met first.
fn shared_word(params: &Params) -> Option<(String, &'static str, &'static str)> {
    let lists = [
        ("words_for", &params.words_for),
        ("words_against", &params.words_against),
        ("words_deferential", &params.words_deferential),
        ("words_veto", &params.words_veto),
    ];
    let mut seen: std::collections::HashMap<&str, &'static str> = std::collections::HashMap::new();
    for (key, words) in lists {
        for word in words {
            match seen.insert(word, key) {
                Some(first) if first != key => return Some((word.clone(), first, key)),
                _ => {}
            }
        }
    }
    None
}

fn word_list(v: &toml::Value) -> Result<Vec<String>, ParamProblem> {
    let list = v.as_array().ok_or(ParamProblem::NotWords)?;
    list.iter()
        .map(|w| match w.as_str() {
            Some(s) if !s.is_empty() && !s.contains(char::is_whitespace) => Ok(s.to_owned()),
            _ => Err(ParamProblem::NotWords),
        })
        .collect()
}

fn amount(v: &toml::Value) -> Result<i64, ParamProblem> {
    match v.as_integer() {
        Some(n) if (0..=1_000_000).contains(&n) => Ok(n),
        _ => Err(ParamProblem::NotAmount),
    }
}

fn count(v: &toml::Value) -> Result<u32, ParamProblem> {
    amount(v).and_then(|n| u32::try_from(n).map_err(|_| ParamProblem::NotAmount))
}

fn flag(v: &toml::Value) -> Result<bool, ParamProblem> {
    v.as_bool().ok_or(ParamProblem::NotFlag)
}

fn text(v: &toml::Value) -> Result<&str, ParamProblem> {
    v.as_str().ok_or(ParamProblem::NotText)
}

fn month_day(v: &toml::Value) -> Result<MonthDay, ParamProblem> {
    let s = text(v)?;
    let bad = || ParamProblem::NotMonthDay(s.to_owned());
    let (m, d) = s.split_once('-').ok_or_else(bad)?;
    let month: u32 = m.parse().map_err(|_| bad())?;
    let day: u32 = d.parse().map_err(|_| bad())?;
    chrono::NaiveDate::from_ymd_opt(2000, month, day).ok_or_else(bad)?;
    // A common year: 29 February would leave the rule's "00:00 UTC on"
    // that day undefined three years in four (the engine and its test
    // oracle read such a year differently).
    chrono::NaiveDate::from_ymd_opt(2001, month, day)
        .ok_or_else(|| ParamProblem::NotEveryYear(s.to_owned()))?;
    Ok(MonthDay { month, day })
}

fn implicit_for(v: &toml::Value) -> Result<ImplicitFor, ParamProblem> {
    match text(v)? {
        "all-matters" => Ok(ImplicitFor::AllMatters),
        "proposals" => Ok(ImplicitFor::Proposals),
        other => Err(ParamProblem::NotChoice {
            got: other.to_owned(),
            expected: "\"all-matters\" or \"proposals\"",
        }),
    }
}

fn self_kill(v: &toml::Value) -> Result<SelfKill, ParamProblem> {
    match text(v)? {
        "sticky" => Ok(SelfKill::Sticky),
        "locked" => Ok(SelfKill::Locked),
        other => Err(ParamProblem::NotChoice {
            got: other.to_owned(),
            expected: "\"sticky\" or \"locked\"",
        }),
    }
}

fn condition(v: &toml::Value, scope: Scope) -> Result<Condition, ParamProblem> {
    Ok(Condition::parse(text(v)?, scope)?)
}

/// The quorum the formula gives for `active` players, as a run computes
/// it: what a page shows when no forge was asked for the live tallies.
pub fn quorum_for(params: &Params, active: i64) -> Result<i64, QuorumError> {
    match params.quorum.expr.eval(&Active(active))? {
        Value::Int(q) => Ok(q),
        other => Err(QuorumError::NotANumber(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &str) -> toml::Table {
        text.parse().unwrap()
    }

    #[test]
    fn every_preset_builds_and_unknown_ones_do_not() {
        for name in PRESETS {
            let p = Params::preset(name).unwrap();
            assert_eq!(p.preset, name);
        }
        assert!(Params::preset("blognomic-1").is_none());
        assert_eq!(
            Params::preset("blognomic-49").unwrap().implicit_for,
            ImplicitFor::Proposals
        );
    }

    #[test]
    fn accepts_every_key_of_the_bundled_rules() {
        let t = table(
            r#"preset = "blognomic-113"
            words_for = ["FOR", "✅"]
            words_against = ["AGAINST", "❌"]
            words_deferential = ["DEFERENTIAL", "DEF", "IMP"]
            words_veto = ["VETO"]
            max_pending = 2
            max_per_day = 3
            enact_quorum_hours = 12
            resolve_majority_hours = 48
            stale_after_hours = 168
            cfj_resolve_after_hours = 48
            dov_fast_hours = 12
            dov_middle_hours = 24
            dov_slow_hours = 48
            dov_cooldown_hours = 120
            downtime_start = "12-24"
            downtime_end = "12-27"
            rejoin_block_days = 14
            idle_after_days = 7
            unidle_block_days = 4
            daily_gap_hours = 10"#,
        );
        assert_eq!(
            Params::from_table(&t).unwrap(),
            Params::preset(DEFAULT_PRESET).unwrap()
        );
    }

    #[test]
    fn a_word_listed_for_two_votes_is_refused() {
        let shared = |text: &str| {
            let errors = Params::from_table(&table(text)).unwrap_err();
            errors
                .iter()
                .map(|e| format!("{}: {}", e.key, e.problem))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            shared("words_for = [\"FOR\", \"AGAINST\"]"),
            ["words_for: `AGAINST` is listed in words_against too: a word casts one vote"]
        );
        assert_eq!(
            shared("words_veto = [\"VETO\", \"FOR\"]"),
            ["words_veto: `FOR` is listed in words_for too: a word casts one vote"]
        );
        let twice = table("words_for = [\"FOR\", \"FOR\", \"for\"]");
        assert!(
            Params::from_table(&twice).is_ok(),
            "twice in one list, or in another case, is fine"
        );
    }

    #[test]
    fn overrides_apply_on_top_of_the_preset() {
        let t = table(
            "preset = \"blognomic-73\"\nenact_quorum_hours = 24\nquorum = \"active / 3 + 1\"",
        );
        let p = Params::from_table(&t).unwrap();
        assert_eq!(p.enact_quorum_hours, 24);
        assert_eq!(p.quorum.text, "active / 3 + 1");
        assert_eq!(p.self_kill, SelfKill::Locked);
    }

    #[test]
    fn reports_every_bad_key() {
        let t = table(
            "colour = 1\nmax_pending = -1\nproposal_enact = \"for_votes >=\"\n\
             quorum = \"for_votes\"\ndowntime_end = \"13-01\"\ncfj_enact = \"enactable\"",
        );
        let errors = Params::from_table(&t).unwrap_err();
        let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "cfj_enact",
                "colour",
                "downtime_end",
                "max_pending",
                "proposal_enact",
                "quorum"
            ]
        );
        assert_eq!(errors[1].problem, ParamProblem::Unknown);
        assert_eq!(errors[1].to_string(), "params.colour: unknown parameter");
        assert_eq!(errors[3].problem, ParamProblem::NotAmount);
    }

    #[test]
    fn a_downtime_edge_on_a_day_some_years_lack_is_refused() {
        let read = |text: &str| Params::from_table(&table(text));
        let errors = read("downtime_end = \"02-29\"").unwrap_err();
        assert_eq!(
            errors[0].problem,
            ParamProblem::NotEveryYear("02-29".into())
        );
        let errors = read("downtime_start = \"02-30\"").unwrap_err();
        assert_eq!(errors[0].problem, ParamProblem::NotMonthDay("02-30".into()));
        assert!(read("downtime_start = \"02-28\"\ndowntime_end = \"03-01\"").is_ok());
    }

    #[test]
    fn unknown_preset_is_an_error() {
        let errors = Params::from_table(&table("preset = \"nomic\"")).unwrap_err();
        assert_eq!(errors[0].key, "preset");
    }

    #[test]
    fn a_quorum_that_cannot_be_computed_is_refused_when_read() {
        let read = |text: &str| Params::from_table(&table(text));
        let errors = read("quorum = \"active / 0\"").unwrap_err();
        assert_eq!(errors[0].key, "quorum");
        assert_eq!(
            errors[0].problem,
            ConditionError::DividesByZero("active / 0".into()).into()
        );
        let errors = read("quorum = \"10 / (active - 3)\"").unwrap_err();
        assert!(
            matches!(
                &errors[0].problem,
                ParamProblem::Condition(ConditionError::Uncomputable { active: 3, .. })
            ),
            "{}",
            errors[0]
        );
        assert!(
            errors[0].to_string().contains("with 3 active players"),
            "{}",
            errors[0]
        );
        let errors = read("proposal_fail = \"for_votes / 0 > 1\"").unwrap_err();
        assert_eq!(errors[0].key, "proposal_fail");
        assert!(read("quorum = \"active / 3 + 1\"").is_ok());
        assert!(read("quorum = \"100 / active\"").is_ok());
    }

    #[test]
    fn conditions_see_every_time_limit_of_the_table_and_only_those() {
        let limits: Vec<&str> = PARAMETERS
            .iter()
            .filter(|p| p.time_limit)
            .map(|p| p.name)
            .collect();
        assert_eq!(limits.len(), 8);
        let mut p = Params::preset(DEFAULT_PRESET).unwrap();
        for (i, name) in limits.iter().enumerate() {
            let text = format!("age >= {name}");
            assert!(Condition::parse(&text, Scope::Enact).is_ok(), "{text}");
            let value = toml::Value::Integer(1000 + i64::try_from(i).unwrap());
            p.set(name, &value).unwrap();
        }
        let hours: Vec<i64> = limits.iter().filter_map(|n| p.hours(n)).collect();
        assert_eq!(hours, (1000..1008).collect::<Vec<i64>>());
        for name in ["dov_cooldown_hours", "daily_gap_hours", "max_pending"] {
            assert!(Condition::parse(&format!("age >= {name}"), Scope::Enact).is_err());
            assert_eq!(p.hours(name), None);
        }
    }
}
