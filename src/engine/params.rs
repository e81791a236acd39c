//! The rule parameters the engine runs on: every threshold, limit, voting
//! word, policy choice and enact/fail condition. They live beside the rule
//! text (each rule's `[params]`) so a proposal that amends a rule amends its
//! enforcement in the same diff; the engine has no numbers of its own.
//!
//! [`Params::from_table`] reads the flat merge of every rule's `[params]`:
//! an optional `preset` picks the base (default `blognomic-113`), then each
//! other key overrides one field. Presets reproduce the core voting of
//! BlogNomic Rulesets 49, 53, 73, 75 and 113 (MECHANICS.md §4.1).

use std::fmt;

use super::expr::{Env, Expr, Type, Value};

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

/// The full parameter set of a ruleset. See docs/tally.md for each field's
/// meaning and Ruleset 113 default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Params {
    /// The preset these parameters started from.
    pub preset: String,
    /// Words that cast FOR.
    pub words_for: Vec<String>,
    /// Words that cast AGAINST.
    pub words_against: Vec<String>,
    /// Words that cast DEFERENTIAL.
    pub words_deferential: Vec<String>,
    /// Words that cast VETO.
    pub words_veto: Vec<String>,
    /// Most pending proposals a player may have when posting another.
    pub max_pending: u32,
    /// Most proposals a player may post in one UTC day.
    pub max_per_day: u32,
    /// Hours before a quorum of FOR may enact a proposal.
    pub enact_quorum_hours: i64,
    /// Hours before the majority branch (and failure when not enactable).
    pub resolve_majority_hours: i64,
    /// A proposal pending more than this many hours is skipped and failed; 0 = never.
    pub stale_after_hours: i64,
    /// Hours after which a CfJ may be resolved without a quorum.
    pub cfj_resolve_after_hours: i64,
    /// The same limit while the game is in hiatus (Rulesets 49–75).
    pub cfj_hiatus_hours: i64,
    /// DoV: the earliest branch (12 h in 113).
    pub dov_fast_hours: i64,
    /// DoV: the middle branch (24 h in 113).
    pub dov_middle_hours: i64,
    /// DoV: the slow branch (48 h in 113).
    pub dov_slow_hours: i64,
    /// Hours a failed DoV's author waits when AGAINST exceeded quorum; 0 = never.
    pub dov_cooldown_hours: i64,
    /// Whether the game pauses each year from `downtime_start` to `downtime_end`.
    pub seasonal_downtime: bool,
    /// First day of the seasonal downtime (from 00:00 UTC).
    pub downtime_start: MonthDay,
    /// The day the downtime ends (at 00:00 UTC, exclusive).
    pub downtime_end: MonthDay,
    /// Days a player who left must wait to rejoin (not used by the tally).
    pub rejoin_block_days: i64,
    /// Days of silence after which a player may be idled (not used by the tally).
    pub idle_after_days: i64,
    /// Days after idling before a player may unidle (not used by the tally).
    pub unidle_block_days: i64,
    /// Least hours between two uses of a daily action (not used by the tally).
    pub daily_gap_hours: i64,
    /// The most characters a push after the first vote may change and still
    /// count as a typo fix that keeps the votes (0: every push voids them).
    /// A forge rule, the same in every preset.
    pub typo_fix_max_chars: i64,
    /// Which matters carry the author's implicit FOR.
    pub implicit_for: ImplicitFor,
    /// What an author's AGAINST on their own proposal does.
    pub self_kill: SelfKill,
    /// Whether a VETO stands after the emperor changes their vote.
    pub veto_sticky: bool,
    /// Whether the emperor may cast DEFERENTIAL (cancelling their vote).
    pub emperor_may_def: bool,
    /// Whether an unmirrored DEFERENTIAL still replaces an earlier vote (§4 A-1).
    pub def_is_valid_icon: bool,
    /// Whether the author's implicit FOR counts as "having voted".
    pub implicit_vote_counts_as_voted: bool,
    /// Whether a DoV posted while awaiting an Ascension Address is void.
    pub dov_banned_before_ascension: bool,
    /// Whether votes on proposals cast during a hiatus count.
    pub hiatus_permits_proposal_voting: bool,
    /// Whether a comment made while idle counts once its author is active.
    pub count_comments_made_while_idle: bool,
    /// Whether a vote cast before an idle spell counts again after unidling.
    pub revive_votes_on_unidle: bool,
    /// Quorum as a formula of `active`.
    pub quorum: Condition,
    /// When a proposal is enacted.
    pub proposal_enact: Condition,
    /// When a proposal is failed (may use `enactable`).
    pub proposal_fail: Condition,
    /// When a CfJ is enacted.
    pub cfj_enact: Condition,
    /// When a CfJ is failed (may use `enactable`).
    pub cfj_fail: Condition,
    /// When a DoV is enacted.
    pub dov_enact: Condition,
    /// When a DoV is failed (may use `enactable`).
    pub dov_fail: Condition,
}

/// A parameter that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParamError {
    /// The key in `[params]`.
    pub key: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "params.{}: {}", self.key, self.message)
    }
}

/// The names a condition may use, with their types. `enactable` exists
/// only in fail conditions; the quorum formula sees only `active`.
pub const QUANTITIES: [(&str, Type, &str); 22] = [
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
    ("enact_quorum_hours", Type::Span, ""),
    ("resolve_majority_hours", Type::Span, ""),
    ("stale_after_hours", Type::Span, ""),
    ("cfj_resolve_after_hours", Type::Span, ""),
    ("cfj_hiatus_hours", Type::Span, ""),
    ("dov_fast_hours", Type::Span, ""),
    ("dov_middle_hours", Type::Span, ""),
    ("dov_slow_hours", Type::Span, ""),
];

/// Which names a condition may see, for type-checking.
#[derive(Clone, Copy)]
enum Scope {
    Quorum,
    Enact,
    Fail,
}

impl Env for Scope {
    fn type_of(&self, name: &str) -> Option<Type> {
        match (self, name) {
            (Scope::Quorum, "active") => Some(Type::Int),
            (Scope::Quorum, _) | (Scope::Enact, "enactable") => None,
            _ => QUANTITIES.iter().find(|q| q.0 == name).map(|q| q.1),
        }
    }
    fn value_of(&self, _: &str) -> Option<Value> {
        None
    }
    fn describe(&self, name: &str, _: Value) -> String {
        name.to_owned()
    }
}

impl Condition {
    fn parse(text: &str, scope: Scope) -> Result<Condition, String> {
        let expr = Expr::parse(text).map_err(|e| e.to_string())?;
        let want = match scope {
            Scope::Quorum => Type::Int,
            _ => Type::Bool,
        };
        match expr.check(&scope).map_err(|e| e.to_string())? {
            t if t == want => Ok(Condition {
                text: text.to_owned(),
                expr,
            }),
            t => Err(format!("must be a {want:?} expression, not {t:?}")),
        }
    }
}

const Q113: &str = "active / 2 + 1";
const PROPOSAL_ENACT: &str = "not blocked and (for_votes >= quorum and age >= enact_quorum_hours \
     or age >= resolve_majority_hours and valid_votes > 1 and for_votes > against_votes)";
const PROPOSAL_FAIL: &str = "blocked or active - against_votes < quorum \
     or age >= resolve_majority_hours and not enactable";
const CFJ_ENACT_113: &str = "(for_votes >= quorum or against_votes >= quorum \
     or age > cfj_resolve_after_hours) and for_votes > against_votes";
const CFJ_FAIL_113: &str = "(for_votes >= quorum or against_votes >= quorum \
     or age > cfj_resolve_after_hours) and for_votes <= against_votes";
const DOV_ENACT_113: &str = "age >= dov_fast_hours and for_votes >= quorum \
     and (wizard_for or against_votes == 0) \
     or age >= dov_middle_hours and for_votes >= quorum and against_votes < quorum / 2 \
     or age >= dov_slow_hours and votes >= quorum and 2 * for_votes > valid_votes";
const DOV_FAIL_113: &str = "age >= dov_fast_hours and active - against_votes < quorum \
     or age >= dov_slow_hours and not enactable";
const CFJ_ENACT_OLD: &str = "(for_votes >= quorum or against_votes >= quorum \
     or hiatus and age >= cfj_hiatus_hours or not hiatus and age >= cfj_resolve_after_hours) \
     and 2 * for_votes > valid_votes";
const CFJ_FAIL_OLD: &str = "(for_votes >= quorum or against_votes >= quorum \
     or hiatus and age >= cfj_hiatus_hours or not hiatus and age >= cfj_resolve_after_hours) \
     and 2 * for_votes <= valid_votes";
const DOV_ENACT_OLD: &str = "(age >= dov_middle_hours or wizard_voted and age >= dov_fast_hours) \
     and valid_votes >= quorum and 2 * for_votes > valid_votes";
const DOV_FAIL_OLD: &str = "(age >= dov_middle_hours or wizard_voted and age >= dov_fast_hours) \
     and not enactable";

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_owned()).collect()
}

impl Params {
    /// The parameters of a named preset (`blognomic-49`, `-53`, `-73`,
    /// `-75`, `-113`), or `None` for an unknown name.
    pub fn preset(name: &str) -> Option<Params> {
        let mut p = Params::ruleset_113()?;
        p.preset = name.to_owned();
        let early = match name {
            DEFAULT_PRESET => return Some(p),
            "blognomic-49" | "blognomic-53" => true,
            "blognomic-73" | "blognomic-75" => false,
            _ => return None,
        };
        p.stale_after_hours = 0;
        p.cfj_resolve_after_hours = 96;
        p.dov_cooldown_hours = if early { 0 } else { 120 };
        p.seasonal_downtime = false;
        p.rejoin_block_days = 0;
        p.unidle_block_days = if early { 0 } else { 4 };
        p.daily_gap_hours = 6;
        p.implicit_for = ImplicitFor::Proposals;
        p.self_kill = SelfKill::Locked;
        p.emperor_may_def = !early;
        p.dov_banned_before_ascension = !early;
        p.hiatus_permits_proposal_voting = !early;
        p.revive_votes_on_unidle = !early;
        p.cfj_enact = Condition::parse(CFJ_ENACT_OLD, Scope::Enact).ok()?;
        p.cfj_fail = Condition::parse(CFJ_FAIL_OLD, Scope::Fail).ok()?;
        p.dov_enact = Condition::parse(DOV_ENACT_OLD, Scope::Enact).ok()?;
        p.dov_fail = Condition::parse(DOV_FAIL_OLD, Scope::Fail).ok()?;
        Some(p)
    }

    fn ruleset_113() -> Option<Params> {
        let enact = |t| Condition::parse(t, Scope::Enact).ok();
        let fail = |t| Condition::parse(t, Scope::Fail).ok();
        Some(Params {
            preset: DEFAULT_PRESET.to_owned(),
            words_for: words(&["FOR", "✅"]),
            words_against: words(&["AGAINST", "❌"]),
            words_deferential: words(&["DEFERENTIAL", "DEF", "IMP"]),
            words_veto: words(&["VETO"]),
            max_pending: 2,
            max_per_day: 3,
            enact_quorum_hours: 12,
            resolve_majority_hours: 48,
            stale_after_hours: 168,
            cfj_resolve_after_hours: 48,
            cfj_hiatus_hours: 48,
            dov_fast_hours: 12,
            dov_middle_hours: 24,
            dov_slow_hours: 48,
            dov_cooldown_hours: 120,
            seasonal_downtime: true,
            downtime_start: MonthDay { month: 12, day: 24 },
            downtime_end: MonthDay { month: 12, day: 27 },
            rejoin_block_days: 14,
            idle_after_days: 7,
            unidle_block_days: 4,
            daily_gap_hours: 10,
            typo_fix_max_chars: 12,
            implicit_for: ImplicitFor::AllMatters,
            self_kill: SelfKill::Sticky,
            veto_sticky: true,
            emperor_may_def: true,
            def_is_valid_icon: true,
            implicit_vote_counts_as_voted: true,
            dov_banned_before_ascension: true,
            hiatus_permits_proposal_voting: true,
            count_comments_made_while_idle: false,
            revive_votes_on_unidle: true,
            quorum: Condition::parse(Q113, Scope::Quorum).ok()?,
            proposal_enact: enact(PROPOSAL_ENACT)?,
            proposal_fail: fail(PROPOSAL_FAIL)?,
            cfj_enact: enact(CFJ_ENACT_113)?,
            cfj_fail: fail(CFJ_FAIL_113)?,
            dov_enact: enact(DOV_ENACT_113)?,
            dov_fail: fail(DOV_FAIL_113)?,
        })
    }

    /// Reads the flat merge of every rule's `[params]`: `preset` first
    /// (default `blognomic-113`), then each other key overrides one field.
    /// Every problem is reported, not just the first.
    pub fn from_table(table: &toml::Table) -> Result<Params, Vec<ParamError>> {
        let error = |key: &str, message: String| ParamError {
            key: key.to_owned(),
            message,
        };
        let name = match table.get("preset") {
            None => DEFAULT_PRESET,
            Some(toml::Value::String(s)) => s.as_str(),
            Some(_) => return Err(vec![error("preset", "must be a string".into())]),
        };
        let Some(mut params) = Params::preset(name) else {
            let known = PRESETS.join(", ");
            return Err(vec![error(
                "preset",
                format!("unknown preset `{name}` (known: {known})"),
            )]);
        };
        let errors: Vec<ParamError> = table
            .iter()
            .filter(|(key, _)| key.as_str() != "preset")
            .filter_map(|(key, value)| params.set(key, value).err().map(|m| error(key, m)))
            .collect();
        if errors.is_empty() {
            Ok(params)
        } else {
            Err(errors)
        }
    }

    /// Overrides one field by its key.
    fn set(&mut self, key: &str, v: &toml::Value) -> Result<(), String> {
        match key {
            "words_for" => self.words_for = word_list(v)?,
            "words_against" => self.words_against = word_list(v)?,
            "words_deferential" => self.words_deferential = word_list(v)?,
            "words_veto" => self.words_veto = word_list(v)?,
            "max_pending" => self.max_pending = count(v)?,
            "max_per_day" => self.max_per_day = count(v)?,
            "enact_quorum_hours" => self.enact_quorum_hours = amount(v)?,
            "resolve_majority_hours" => self.resolve_majority_hours = amount(v)?,
            "stale_after_hours" => self.stale_after_hours = amount(v)?,
            "cfj_resolve_after_hours" => self.cfj_resolve_after_hours = amount(v)?,
            "cfj_hiatus_hours" => self.cfj_hiatus_hours = amount(v)?,
            "dov_fast_hours" => self.dov_fast_hours = amount(v)?,
            "dov_middle_hours" => self.dov_middle_hours = amount(v)?,
            "dov_slow_hours" => self.dov_slow_hours = amount(v)?,
            "dov_cooldown_hours" => self.dov_cooldown_hours = amount(v)?,
            "seasonal_downtime" => self.seasonal_downtime = flag(v)?,
            "downtime_start" => self.downtime_start = month_day(v)?,
            "downtime_end" => self.downtime_end = month_day(v)?,
            "rejoin_block_days" => self.rejoin_block_days = amount(v)?,
            "idle_after_days" => self.idle_after_days = amount(v)?,
            "unidle_block_days" => self.unidle_block_days = amount(v)?,
            "daily_gap_hours" => self.daily_gap_hours = amount(v)?,
            "typo_fix_max_chars" => self.typo_fix_max_chars = amount(v)?,
            "implicit_for" => self.implicit_for = implicit_for(v)?,
            "self_kill" => self.self_kill = self_kill(v)?,
            "veto_sticky" => self.veto_sticky = flag(v)?,
            "emperor_may_def" => self.emperor_may_def = flag(v)?,
            "def_is_valid_icon" => self.def_is_valid_icon = flag(v)?,
            "implicit_vote_counts_as_voted" => self.implicit_vote_counts_as_voted = flag(v)?,
            "dov_banned_before_ascension" => self.dov_banned_before_ascension = flag(v)?,
            "hiatus_permits_proposal_voting" => self.hiatus_permits_proposal_voting = flag(v)?,
            "count_comments_made_while_idle" => self.count_comments_made_while_idle = flag(v)?,
            "revive_votes_on_unidle" => self.revive_votes_on_unidle = flag(v)?,
            "quorum" => self.quorum = condition(v, Scope::Quorum)?,
            "proposal_enact" => self.proposal_enact = condition(v, Scope::Enact)?,
            "proposal_fail" => self.proposal_fail = condition(v, Scope::Fail)?,
            "cfj_enact" => self.cfj_enact = condition(v, Scope::Enact)?,
            "cfj_fail" => self.cfj_fail = condition(v, Scope::Fail)?,
            "dov_enact" => self.dov_enact = condition(v, Scope::Enact)?,
            "dov_fail" => self.dov_fail = condition(v, Scope::Fail)?,
            _ => return Err("unknown parameter".into()),
        }
        Ok(())
    }

    /// The value of a `*_hours` parameter by name, for conditions.
    pub(crate) fn hours(&self, name: &str) -> Option<i64> {
        Some(match name {
            "enact_quorum_hours" => self.enact_quorum_hours,
            "resolve_majority_hours" => self.resolve_majority_hours,
            "stale_after_hours" => self.stale_after_hours,
            "cfj_resolve_after_hours" => self.cfj_resolve_after_hours,
            "cfj_hiatus_hours" => self.cfj_hiatus_hours,
            "dov_fast_hours" => self.dov_fast_hours,
            "dov_middle_hours" => self.dov_middle_hours,
            "dov_slow_hours" => self.dov_slow_hours,
            _ => return None,
        })
    }
}

fn word_list(v: &toml::Value) -> Result<Vec<String>, String> {
    let bad = || "must be a list of words without spaces".to_owned();
    let list = v.as_array().ok_or_else(bad)?;
    list.iter()
        .map(|w| match w.as_str() {
            Some(s) if !s.is_empty() && !s.contains(char::is_whitespace) => Ok(s.to_owned()),
            _ => Err(bad()),
        })
        .collect()
}

fn amount(v: &toml::Value) -> Result<i64, String> {
    match v.as_integer() {
        Some(n) if (0..=1_000_000).contains(&n) => Ok(n),
        _ => Err("must be a whole number from 0 to 1000000".into()),
    }
}

fn count(v: &toml::Value) -> Result<u32, String> {
    amount(v).and_then(|n| u32::try_from(n).map_err(|e| e.to_string()))
}

fn flag(v: &toml::Value) -> Result<bool, String> {
    v.as_bool().ok_or_else(|| "must be true or false".into())
}

fn text(v: &toml::Value) -> Result<&str, String> {
    v.as_str().ok_or_else(|| "must be a string".into())
}

fn month_day(v: &toml::Value) -> Result<MonthDay, String> {
    let s = text(v)?;
    let bad = || format!("`{s}` is not a day of the year as \"MM-DD\"");
    let (m, d) = s.split_once('-').ok_or_else(bad)?;
    let month: u32 = m.parse().map_err(|_| bad())?;
    let day: u32 = d.parse().map_err(|_| bad())?;
    chrono::NaiveDate::from_ymd_opt(2000, month, day).ok_or_else(bad)?;
    Ok(MonthDay { month, day })
}

fn implicit_for(v: &toml::Value) -> Result<ImplicitFor, String> {
    match text(v)? {
        "all-matters" => Ok(ImplicitFor::AllMatters),
        "proposals" => Ok(ImplicitFor::Proposals),
        other => Err(format!(
            "`{other}`: expected \"all-matters\" or \"proposals\""
        )),
    }
}

fn self_kill(v: &toml::Value) -> Result<SelfKill, String> {
    match text(v)? {
        "sticky" => Ok(SelfKill::Sticky),
        "locked" => Ok(SelfKill::Locked),
        other => Err(format!("`{other}`: expected \"sticky\" or \"locked\"")),
    }
}

fn condition(v: &toml::Value, scope: Scope) -> Result<Condition, String> {
    Condition::parse(text(v)?, scope)
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
        assert!(errors[1].to_string().contains("unknown parameter"));
    }

    #[test]
    fn unknown_preset_is_an_error() {
        let errors = Params::from_table(&table("preset = \"nomic\"")).unwrap_err();
        assert_eq!(errors[0].key, "preset");
    }
}
