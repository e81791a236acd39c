//! Which engine preset a dump's core rules describe. Pure.
//!
//! The presets (`blognomic-49` … `-113`, in `engine::params`) reproduce
//! the core voting of five real rulesets. The importer reads from the
//! core rules' text the facts on which those rulesets differ (MECHANICS
//! §4.1) and picks the preset that agrees with every fact the text states:
//!
//! - may the emperor cast DEFERENTIAL ("… cannot cast a vote of
//!   DEFERENTIAL" vs "if the … casts a vote of DEFERENTIAL");
//! - does a hiatus permit voting (is "Voting" among the rules that may be
//!   acted on in a hiatus);
//! - is there a cool-down after a failed DoV ("120 hours"), a ban on DoVs
//!   before the Ascension Address, a stale-proposal rule, a Seasonal
//!   Downtime;
//! - which rules idle players still count for ("excluding Rules 1.1, 1.2
//!   and 1.8"), and whether a proposal must have "continuously" been one.
//!
//! The first five are parameters of the presets and are read from them;
//! the last two tell apart presets with the same parameters, and are
//! listed here. A preset is chosen only when it agrees with every fact
//! found and at least [`ENOUGH`] facts were found.

use super::{Block, ChosenPreset, ImportedRule};
use crate::engine::params::{PRESETS, Params};
use crate::ruleset::SectionKind;

/// The fewest facts that must agree before a preset is chosen.
const ENOUGH: usize = 3;

/// Which rules idle players still count for, per preset (113 names them).
const IDLE_EXEMPT: &[(&str, &[&str])] = &[
    ("blognomic-49", &["1.1", "1.2"]),
    ("blognomic-53", &["1.1", "1.2", "1.8"]),
    ("blognomic-73", &["1.1", "1.2", "1.8", "1.10"]),
    ("blognomic-75", &["1.1", "1.2", "1.8", "1.10"]),
];

/// The presets whose proposals must have been one "continuously".
const CONTINUOUS: &[&str] = &["blognomic-75"];

/// A fact and its value, as found in the text or expected by a preset.
type Facts = Vec<(&'static str, Option<String>)>;

/// The facts the core rules' text states (`None`: it says nothing).
fn read(core: &str) -> Facts {
    let lower = core.to_lowercase().replace(['“', '”'], "\"");
    let has = |s: &str| Some(lower.contains(s).to_string());
    let emperor_def = if lower.contains("cannot cast a vote of deferential")
        || lower.contains("may not cast a vote of deferential")
    {
        Some("false".to_string())
    } else if lower.contains("casts a vote of deferential") {
        Some("true".to_string())
    } else {
        None
    };
    let hiatus = lower
        .split_once("only game actions that may be taken are those covered by")
        .map(|(_, rest)| rest.split(". ").next().unwrap_or_default())
        .map(|list| list.contains("\"voting\"").to_string());
    let idle = lower
        .split_once("excluding rules ")
        .map(|(_, rest)| numbers_in(rest).join(","));
    vec![
        ("the emperor may cast DEFERENTIAL", emperor_def),
        ("voting goes on in a hiatus", hiatus),
        ("a failed DoV has a cool-down", has("120 hours")),
        (
            "no DoV before the Ascension Address",
            has("may not be started in the period between a passing dov"),
        ),
        ("stale proposals", Some(stale(&lower).to_string())),
        ("a Seasonal Downtime", has("seasonal downtime")),
        ("idle players count for rules", idle),
        (
            "a proposal must have been one continuously",
            has("continuously"),
        ),
    ]
}

/// Whether a rule lets proposals go stale: the word, or a sentence on
/// pending matters and a week ("pending for more than 7 days"). Idling
/// after "more than 7 days" of silence is not it.
fn stale(lower: &str) -> bool {
    lower.split(". ").any(|s| {
        s.contains("pending")
            && ["7 days", "seven days", "168 hours"]
                .iter()
                .any(|w| s.contains(w))
    }) || lower
        .split(|c: char| !c.is_alphabetic())
        .any(|w| w == "stale")
}

/// The rule numbers at the start of `text`: "1.1, 1.2 and 1.8, idle…"
/// gives `1.1`, `1.2`, `1.8`.
fn numbers_in(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|word| word.trim_end_matches([',', '.', ';']))
        .take_while(|word| {
            matches!(*word, "and" | "or") || word.starts_with(|c: char| c.is_ascii_digit())
        })
        .filter(|word| word.contains('.'))
        .map(str::to_string)
        .collect()
}

/// The facts a preset implies (`None`: it implies nothing about one).
fn expected(name: &str) -> Option<Facts> {
    let p = Params::preset(name)?;
    let idle = IDLE_EXEMPT
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, rules)| rules.join(","));
    let yes = |b: bool| Some(b.to_string());
    Some(vec![
        ("the emperor may cast DEFERENTIAL", yes(p.emperor_may_def)),
        (
            "voting goes on in a hiatus",
            yes(p.hiatus_permits_proposal_voting),
        ),
        (
            "a failed DoV has a cool-down",
            yes(p.dov_cooldown_hours > 0),
        ),
        (
            "no DoV before the Ascension Address",
            yes(p.dov_banned_before_ascension),
        ),
        ("stale proposals", yes(p.stale_after_hours > 0)),
        ("a Seasonal Downtime", yes(p.seasonal_downtime)),
        ("idle players count for rules", idle),
        (
            "a proposal must have been one continuously",
            yes(CONTINUOUS.contains(&name)),
        ),
    ])
}

/// How a preset compares with the facts: (agreeing, differing fact names).
fn compare(found: &Facts, want: &Facts) -> (usize, Vec<&'static str>) {
    let mut agree = 0;
    let mut differ = Vec::new();
    for ((name, got), (_, want)) in found.iter().zip(want) {
        if let (Some(got), Some(want)) = (got, want) {
            if got == want {
                agree += 1;
            } else {
                differ.push(*name);
            }
        }
    }
    (agree, differ)
}

/// The preset the core rules describe, and a sentence saying why (or why
/// none was chosen).
pub(crate) fn detect(core: &str) -> (Option<&'static str>, String) {
    if !core.to_lowercase().contains("vote") {
        return (
            None,
            "the core rules say nothing of votes: no preset chosen (the game uses the default)"
                .into(),
        );
    }
    let found = read(core);
    let mut ranked: Vec<(&'static str, usize, Vec<&'static str>)> = PRESETS
        .iter()
        .filter_map(|name| expected(name).map(|want| (*name, compare(&found, &want))))
        .map(|(name, (agree, differ))| (name, agree, differ))
        .collect();
    ranked.sort_by_key(|(_, agree, differ)| (differ.len(), std::cmp::Reverse(*agree)));
    let stated: Vec<String> = found
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}: {v}")))
        .collect();
    match ranked.first() {
        Some((name, agree, differ)) if differ.is_empty() && *agree >= ENOUGH => (
            Some(*name),
            format!(
                "preset {name}: the core rules agree with it on {agree} points ({})",
                stated.join("; ")
            ),
        ),
        Some((name, _, differ)) => (
            None,
            format!(
                "no preset matches the core rules (closest: {name}, which differs on: {}); the game uses the default",
                differ.join(", ")
            ),
        ),
        None => (None, "no presets known".into()),
    }
}

/// The preset the core rules match, declared on the first core rule that
/// speaks of DEFERENTIAL votes (else the first core rule).
pub(crate) fn choose(rules: &[ImportedRule]) -> (Option<ChosenPreset>, String) {
    let core: Vec<&ImportedRule> = rules
        .iter()
        .filter(|r| r.section == SectionKind::Core)
        .collect();
    let text: Vec<&str> = core
        .iter()
        .flat_map(|r| r.body.iter().map(Block::text))
        .collect();
    let (name, note) = detect(&text.join("\n"));
    let voting = core
        .iter()
        .find(|r| r.body.iter().any(|b| b.text().contains("DEFERENTIAL")))
        .or(core.first());
    let chosen = name.zip(voting).map(|(name, rule)| ChosenPreset {
        name: name.to_string(),
        rule: rule.id.clone(),
    });
    (chosen, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Core rules in our own words, with the facts of the early presets.
    const EARLY: &str = "Some Owls are Idle, or silent for more than 7 days. For the purposes of the Ruleset, excluding Rules 1.1, 1.2 and 1.8, Idle Owls are not Owls.\nAny Owl may cast a Vote. The Moon cannot cast a vote of DEFERENTIAL.\nDuring this time, the only game actions that may be taken are those covered by Rules \"Owls\", \"Calls for Judgment\" and \"Dynasties\". Nothing else.";

    #[test]
    fn reads_the_facts_and_picks_the_preset_that_states_them() {
        let (chosen, why) = detect(EARLY);
        assert_eq!(chosen, Some("blognomic-53"), "{why}");
        assert!(
            why.contains("idle players count for rules: 1.1,1.2,1.8"),
            "{why}"
        );
        let fewer = EARLY.replace("1.1, 1.2 and 1.8", "1.1 and 1.2");
        assert_eq!(detect(&fewer).0, Some("blognomic-49"));
    }

    #[test]
    fn later_facts_pick_later_presets_and_contradictions_pick_none() {
        let later = "Excluding Rules 1.1, 1.2, 1.8 and 1.10, idle Owls do not count. If the Moon casts a vote of DEFERENTIAL, it cancels. Covered: the only game actions that may be taken are those covered by Rules \"Owls\", \"Voting\". A DoV may not be started in the period between a passing DoV and its Address. The Owl cannot make another DoV until after 120 hours.";
        assert_eq!(detect(later).0, Some("blognomic-73"));
        let continuous = format!("{later} A proposal must have continuously been a proposal.");
        assert_eq!(detect(&continuous).0, Some("blognomic-75"));
        // Early DEFERENTIAL with late idling: no preset says both.
        let mixed = later.replace("If the Moon casts", "The Moon cannot cast");
        let (chosen, why) = detect(&mixed);
        assert_eq!(chosen, None);
        assert!(why.contains("differs on"), "{why}");
        assert_eq!(detect("Owls hoot.").0, None);
        let stale = format!(
            "{later} A Proposal pending for more than 7 days is Stale. Seasonal Downtime exists."
        );
        assert_eq!(detect(&stale).0, Some("blognomic-113"));
    }
}
