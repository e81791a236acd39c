//! Which engine preset a dump's core rules describe. Pure.
//!
//! The presets (`blognomic-49` … `-113`, in `engine::params`) reproduce
//! the core voting of five real rulesets. The importer reads from the
//! core rules, titles and bodies, the facts on which those rulesets differ
//! (MECHANICS §4.1), by what the text means rather than one phrasing:
//!
//! - may the emperor cast DEFERENTIAL ("… cannot cast a vote of
//!   DEFERENTIAL" vs "if the … casts a vote of DEFERENTIAL");
//! - does a hiatus permit voting: is the rule that defines the voting
//!   icons (FOR, AGAINST, DEFERENTIAL) among the rules that may be acted
//!   on in a hiatus, whatever it is called;
//! - is there a cool-down after a failed DoV ("120 hours"), a ban on DoVs
//!   between a passing DoV and its Ascension Address, a stale-proposal
//!   rule, a Seasonal Downtime (a rule of that title, or the words);
//! - which rules idle players still count for ("excluding Rules 1.1, 1.2
//!   and 1.8"), and whether a proposal must have "continuously" been one.
//!
//! The first five are parameters of the presets and are read from them;
//! the last two tell apart presets with the same parameters, and are
//! listed here. A fact the text does not state is *unknown*, not false:
//! different wording is no contradiction. A preset is chosen when it
//! agrees with every fact stated and at least [`ENOUGH`] are; it is
//! *probable* rather than sure when it has something the text does not
//! mention (a feature the text is silent on), and among such the one with
//! fewest of them is chosen.

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

/// A core rule as the facts are read from it: its title and its body, in
/// lowercase with straight quotes.
pub(crate) struct CoreRule {
    title: String,
    body: String,
}

impl CoreRule {
    /// A rule titled `title` with this body text.
    pub(crate) fn new(title: &str, body: &str) -> Self {
        let plain = |t: &str| t.to_lowercase().replace(['“', '”'], "\"").replace('’', "'");
        CoreRule {
            title: plain(title),
            body: plain(body),
        }
    }
}

/// `Some("true")` when the text says it, `None` (unknown) when it does not.
fn stated(found: bool) -> Option<String> {
    found.then(|| true.to_string())
}

/// The facts the core rules state (`None`: they say nothing of it).
fn read(rules: &[CoreRule]) -> Facts {
    let lower: String = rules
        .iter()
        .map(|r| format!("{}\n{}\n", r.title, r.body))
        .collect();
    let emperor_def = if lower.contains("cannot cast a vote of deferential")
        || lower.contains("may not cast a vote of deferential")
    {
        Some("false".to_string())
    } else if lower.contains("casts a vote of deferential") {
        Some("true".to_string())
    } else {
        None
    };
    let idle = lower
        .split_once("excluding rules ")
        .map(|(_, rest)| numbers_in(rest).join(","));
    vec![
        ("the emperor may cast DEFERENTIAL", emperor_def),
        ("voting goes on in a hiatus", hiatus_voting(rules, &lower)),
        (
            "a failed DoV has a cool-down",
            stated(lower.contains("120 hours")),
        ),
        (
            "no DoV before the Ascension Address",
            stated(bans_dov_before_address(&lower)),
        ),
        ("stale proposals", stated(stale(&lower))),
        (
            "a Seasonal Downtime",
            stated(lower.contains("seasonal downtime")),
        ),
        ("idle players count for rules", idle),
        (
            "a proposal must have been one continuously",
            stated(lower.contains("continuously")),
        ),
    ]
}

/// Whether the rules acted on in a hiatus ("the only game actions that
/// may be taken are those covered by Rules “A”, “B”…") include the rule
/// that defines the voting icons, whatever its title; without such a
/// rule, whether one of them is called "Voting". `None` when no rule
/// lists them.
fn hiatus_voting(rules: &[CoreRule], lower: &str) -> Option<String> {
    let (_, rest) = lower.split_once("may be taken are those covered by")?;
    let list = rest.split(". ").next().unwrap_or_default();
    let listed: Vec<&str> = list.split('"').skip(1).step_by(2).map(str::trim).collect();
    let defines_icons = |r: &&CoreRule| {
        r.body.lines().any(|line| {
            ["for", "against", "deferential"]
                .iter()
                .all(|w| line.split(|c: char| !c.is_alphabetic()).any(|x| x == *w))
                && line.contains("vot")
        })
    };
    let voting = rules
        .iter()
        .find(defines_icons)
        .map_or("voting", |r| r.title.as_str());
    Some(listed.contains(&voting).to_string())
}

/// Whether a sentence forbids a DoV between a passing DoV and the
/// Ascension Address that follows it, in any wording.
fn bans_dov_before_address(lower: &str) -> bool {
    lower.split(['.', '\n']).any(|s| {
        s.contains("ascension address")
            && (s.contains("dov") || s.contains("declaration of victory"))
            && s.contains("between")
            && s.split(|c: char| !c.is_alphabetic())
                .any(|w| matches!(w, "no" | "not" | "cannot" | "never"))
    })
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

/// How a preset compares with the facts.
struct Comparison {
    /// Facts stated that it agrees with.
    agree: usize,
    /// Facts stated that it contradicts.
    differ: Vec<&'static str>,
    /// Features it has that the text does not mention.
    unsaid: Vec<&'static str>,
}

fn compare(found: &Facts, want: &Facts) -> Comparison {
    let mut c = Comparison {
        agree: 0,
        differ: Vec::new(),
        unsaid: Vec::new(),
    };
    for ((name, got), (_, want)) in found.iter().zip(want) {
        match (got, want) {
            (Some(got), Some(want)) if got == want => c.agree += 1,
            (Some(_), Some(_)) => c.differ.push(*name),
            (None, Some(want)) if want != "false" => c.unsaid.push(*name),
            _ => {}
        }
    }
    c
}

/// The preset the core rules describe, and a sentence saying why (or why
/// none was chosen).
pub(crate) fn detect(rules: &[CoreRule]) -> (Option<&'static str>, String) {
    if !rules.iter().any(|r| r.body.contains("vote")) {
        return (
            None,
            "the core rules say nothing of votes: no preset chosen (the game uses the default)"
                .into(),
        );
    }
    let found = read(rules);
    let mut ranked: Vec<(&'static str, Comparison)> = PRESETS
        .iter()
        .filter_map(|name| expected(name).map(|want| (*name, compare(&found, &want))))
        .collect();
    ranked.sort_by_key(|(_, c)| (c.differ.len(), c.unsaid.len(), std::cmp::Reverse(c.agree)));
    let stated: Vec<String> = found
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}: {v}")))
        .collect();
    match ranked.first() {
        Some((name, c)) if c.differ.is_empty() && c.agree >= ENOUGH && c.unsaid.is_empty() => (
            Some(*name),
            format!(
                "preset {name}: the core rules agree with it on {} points ({})",
                c.agree,
                stated.join("; ")
            ),
        ),
        Some((name, c)) if c.differ.is_empty() && c.agree >= ENOUGH => (
            Some(*name),
            format!(
                "probable preset {name}: the core rules agree with it on {} points ({}), and do not say {}, which it has",
                c.agree,
                stated.join("; "),
                c.unsaid.join(", ")
            ),
        ),
        Some((name, c)) if c.differ.is_empty() => (
            None,
            format!(
                "no preset chosen: the core rules state too little ({} points agree with the closest, {name}; {} are needed); the game uses the default",
                c.agree, ENOUGH
            ),
        ),
        Some((name, c)) => (
            None,
            format!(
                "no preset matches the core rules (closest: {name}, which differs on: {}); the game uses the default",
                c.differ.join(", ")
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
    let read: Vec<CoreRule> = core
        .iter()
        .map(|r| {
            let body: Vec<&str> = r.body.iter().map(Block::text).collect();
            CoreRule::new(&r.title, &body.join("\n"))
        })
        .collect();
    let (name, note) = detect(&read);
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

    fn rules(rules: &[(&str, &str)]) -> Vec<CoreRule> {
        rules.iter().map(|(t, b)| CoreRule::new(t, b)).collect()
    }

    /// Core rules in our own words, with the facts of the early presets.
    fn early(idle: &str) -> Vec<CoreRule> {
        rules(&[
            (
                "Owls",
                &format!(
                    "Some Owls are Idle, or silent for more than 7 days. For the purposes of the Ruleset, excluding Rules {idle}, Idle Owls are not Owls."
                ),
            ),
            (
                "Voting",
                "Any Owl may cast a Vote with a FOR, AGAINST or DEFERENTIAL icon. The Moon cannot cast a vote of DEFERENTIAL.",
            ),
            (
                "Victory",
                "During this time, the only game actions that may be taken are those covered by Rules \"Owls\", \"Calls for Judgment\" and \"Dynasties\". Nothing else.",
            ),
        ])
    }

    #[test]
    fn reads_the_facts_and_picks_the_preset_that_states_them() {
        let (chosen, why) = detect(&early("1.1, 1.2 and 1.8"));
        assert_eq!(chosen, Some("blognomic-53"), "{why}");
        assert!(why.starts_with("preset blognomic-53: "), "{why}");
        assert!(
            why.contains("idle players count for rules: 1.1,1.2,1.8"),
            "{why}"
        );
        // What the rules do not mention is unknown, not false.
        assert!(!why.contains("cool-down"), "{why}");
        assert_eq!(detect(&early("1.1 and 1.2")).0, Some("blognomic-49"));
    }

    /// The facts of the later rulesets in one rule, in our own words.
    const LATER: &str = "Excluding Rules 1.1, 1.2, 1.8 and 1.10, idle Owls do not count. If the Moon casts a vote of DEFERENTIAL, it cancels. Covered: the only game actions that may be taken are those covered by Rules \"Owls\", \"Voting\". A DoV may not be started in the period between a passing DoV and its Address of Ascension Address. The Owl cannot make another DoV until after 120 hours.";

    #[test]
    fn later_facts_pick_later_presets_and_contradictions_pick_none() {
        let later = |text: &str| detect(&rules(&[("", text)]));
        assert_eq!(later(LATER).0, Some("blognomic-73"));
        let continuous = format!("{LATER} A proposal must have continuously been a proposal.");
        assert_eq!(later(&continuous).0, Some("blognomic-75"));
        // Early DEFERENTIAL with late idling: no preset says both.
        let (chosen, why) = later(&LATER.replace("If the Moon casts", "The Moon cannot cast"));
        assert_eq!(chosen, None);
        assert!(why.contains("differs on"), "{why}");
        assert_eq!(later("Owls hoot.").0, None);
        let stale = format!(
            "{} A Proposal pending for more than 7 days is Stale. Seasonal Downtime exists.",
            LATER.replace(
                "Excluding Rules 1.1, 1.2, 1.8 and 1.10, idle Owls do not count. ",
                ""
            )
        );
        assert_eq!(later(&stale).0, Some("blognomic-113"));
    }

    #[test]
    fn the_latest_preset_is_found_by_meaning_in_other_words_and_titles() {
        let core = rules(&[
            ("Owls", "Anyone may join as an Owl."),
            (
                "Ballots",
                "An Owl votes on any matter with FOR, AGAINST or DEFERENTIAL. If any Owl but the Moon casts a vote of DEFERENTIAL, it goes with the Moon's.",
            ),
            (
                "Proposals",
                "A Proposal left pending for more than seven days may be failed by an Admin.",
            ),
            (
                "Winning",
                "A winner may post a DoV, and the game is in Hiatus: meanwhile the only game actions that may be taken are those covered by Rules \u{201c}Owls\u{201d}, \u{201c}Ballots\u{201d} and \u{201c}Winning\u{201d}. There can be no new DoV between the passing of a DoV and the next Ascension Address. A failed DoV's poster waits 120 hours before the next.",
            ),
            (
                "Seasonal Downtime",
                "Every December the game rests for three days.",
            ),
        ]);
        let (chosen, why) = detect(&core);
        assert_eq!(chosen, Some("blognomic-113"), "{why}");
        assert!(why.starts_with("preset blognomic-113: "), "{why}");
        assert!(why.contains("voting goes on in a hiatus: true"), "{why}");
        assert!(why.contains("a Seasonal Downtime: true"), "{why}");
    }

    #[test]
    fn when_only_unsaid_facts_differ_the_closest_is_probable() {
        // The later facts without the idling rule: 73 has one the text
        // does not mention, 75 two, 113 two.
        let text = LATER.replace(
            "Excluding Rules 1.1, 1.2, 1.8 and 1.10, idle Owls do not count. ",
            "",
        );
        let (chosen, why) = detect(&rules(&[("", &text)]));
        assert_eq!(chosen, Some("blognomic-73"), "{why}");
        assert!(why.starts_with("probable preset blognomic-73: "), "{why}");
        assert!(
            why.contains("do not say idle players count for rules"),
            "{why}"
        );
    }
}
