//! Which rules of a section are subrules, and of what, by what the rules
//! say of themselves. Pure.
//!
//! Dumps print titles flat, so nesting comes from what the rules say about
//! themselves, strongest signal first:
//!
//! 1. **Named subrules.** A sentence in which a rule speaks of *this rule*
//!    having parts ("…listed in the Powers section of this rule", "a
//!    section of sub-rules within this rule, called “T”") and names the
//!    title of the rule right after it makes that rule, and each next one
//!    it names, a subrule.
//! 2. **Announced subrules.** A rule holds subrules when a sentence of its
//!    own says so ("…listed in subrules of this rule", "the subrules
//!    below"), when another rule says things are "subrules of “T”", or
//!    when it has no body at all. It takes the rules after it as subrules:
//!    the run that resembles the first one (bodies that are lists of one
//!    shape, titles of one pattern such as `CODE (Word)`, or a label line
//!    such as `Cost:` they share), or just the first one. Each rule of a
//!    run of two or more also has its likeness as a clue of its own.
//! 3. **Self-declared subrules.** A body that says "this subrule" belongs
//!    under some rule.
//!
//! Words about subrules that are not about this rule's own are no signal:
//! "apart from the Rules “A”, “B” and whatever subrules those Rules have"
//! (other rules' subrules), a glossary entry defining "Subrule" near the
//! word "below", "every entry in this subrule … shown below" (the rule
//! speaks of itself as a subrule, not of subrules it holds).
//!
//! Each signal is a [`Clue`] with a weight; the solver weighs them against
//! the rest of the evidence (citations, titles) and against the cost of
//! nesting at all, so a rule with no evidence stays top-level.

use std::collections::BTreeSet;

use super::evidence::{Claim, Clue, clue, weight};
use super::{Block, Draft};

/// The shape of a body, to tell where a run of similar subrules ends.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    Empty,
    Prose,
    /// Only list items; the label (`cost` for `Cost: 5 Iron`) of the first.
    List(Option<String>),
}

fn shape(body: &[Block]) -> Shape {
    let Some(first) = body.first() else {
        return Shape::Empty;
    };
    if !body.iter().all(|b| matches!(b, Block::Item { .. })) {
        return Shape::Prose;
    }
    Shape::List(label(first.text()))
}

/// The label of a line such as `Cost: 5 Iron` (`cost`): one to three
/// words, the first capitalised, before a colon.
fn label(text: &str) -> Option<String> {
    let (label, _) = text.split_once(':')?;
    let words: Vec<&str> = label.split_whitespace().collect();
    let fits = (1..=3).contains(&words.len())
        && words[0].starts_with(char::is_uppercase)
        && words.iter().all(|w| w.chars().all(char::is_alphabetic));
    fits.then(|| words.join(" ").to_lowercase())
}

/// The labels of the lines of a body.
fn labels(body: &[Block]) -> BTreeSet<String> {
    body.iter().filter_map(|b| label(b.text())).collect()
}

/// The pattern of a title when it has a telling one: each word a class
/// (`C` a code in capitals, `N` a number, `P` a part in brackets, `:` a
/// word ending in a colon, `w` other words, runs of them merged), so
/// "ZAP (Shock)" and "GRO (Grow, Bound)" are both `C P`. `None` for a
/// title of plain words, which tells nothing.
fn title_pattern(title: &str) -> Option<String> {
    let mut classes: Vec<char> = Vec::new();
    let mut in_brackets = false;
    for word in title.split_whitespace() {
        let class = if in_brackets || word.starts_with(['(', '[']) {
            in_brackets = !word.ends_with([')', ']']);
            'P'
        } else if word.ends_with(':') {
            ':'
        } else {
            let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
            if bare.len() >= 2 && bare.chars().all(|c| c.is_ascii_uppercase()) {
                'C'
            } else if !bare.is_empty() && bare.chars().all(|c| c.is_ascii_digit()) {
                'N'
            } else {
                'w'
            }
        };
        if !(matches!(class, 'w' | 'P') && classes.last() == Some(&class)) {
            classes.push(class);
        }
    }
    classes.iter().any(|c| *c != 'w').then(|| {
        classes
            .iter()
            .map(char::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// What the subrules of a run have in common.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Likeness {
    /// Bodies that are lists of one shape.
    Lists(Shape),
    /// Titles of one pattern.
    Pattern(String),
    /// Label lines they share (`cost`).
    Labels(BTreeSet<String>),
}

impl Likeness {
    /// What rules `a` and `b` have in common, if anything.
    fn of(a: &Draft, b: &Draft) -> Option<Likeness> {
        let (sa, sb) = (shape(&a.body), shape(&b.body));
        if matches!(sa, Shape::List(_)) && sa == sb {
            return Some(Likeness::Lists(sa));
        }
        if let Some(pattern) =
            title_pattern(&a.title).filter(|p| title_pattern(&b.title).as_ref() == Some(p))
        {
            return Some(Likeness::Pattern(pattern));
        }
        let shared: BTreeSet<String> = labels(&a.body)
            .intersection(&labels(&b.body))
            .cloned()
            .collect();
        (!shared.is_empty()).then_some(Likeness::Labels(shared))
    }

    /// Whether a rule has it.
    fn fits(&self, rule: &Draft) -> bool {
        match self {
            Likeness::Lists(s) => shape(&rule.body) == *s,
            Likeness::Pattern(p) => title_pattern(&rule.title).as_ref() == Some(p),
            Likeness::Labels(shared) => !labels(&rule.body).is_disjoint(shared),
        }
    }

    /// It, in words.
    fn describe(&self) -> String {
        match self {
            Likeness::Lists(Shape::List(Some(label))) => format!("a body listed under `{label}:`"),
            Likeness::Lists(_) => "a body that is a list".into(),
            Likeness::Pattern(p) => format!("a title of the pattern `{p}`"),
            Likeness::Labels(shared) => {
                let shared: Vec<String> = shared.iter().map(|l| format!("`{l}:`")).collect();
                format!("the label line {}", shared.join(", "))
            }
        }
    }
}

fn body_text(body: &[Block]) -> String {
    body.iter().map(Block::text).collect::<Vec<_>>().join("\n")
}

/// Straight quotes for matching; the text itself is never changed.
fn plain_quotes(text: &str) -> String {
    text.replace(['“', '”'], "\"").replace(['‘', '’'], "'")
}

fn contains_phrase(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The sentences of a body, with straight quotes.
fn sentences(body: &[Block]) -> Vec<String> {
    plain_quotes(&body_text(body))
        .split(['.', '\n', ';'])
        .map(str::to_string)
        .collect()
}

/// Whether a sentence (in lowercase) speaks of subrules a rule has, not of
/// itself as one ("this subrule") nor of other rules' ("their subrules").
fn mentions_subrules(lower: &str) -> bool {
    ["subrule", "sub-rule"].iter().any(|word| {
        lower.match_indices(word).any(|(at, _)| {
            let before = &lower[..at];
            !before.ends_with("this ") && !before.ends_with("their ")
        })
    })
}

/// Whether a sentence (in lowercase) speaks of the rule it stands in.
fn speaks_of_itself(lower: &str) -> bool {
    contains_phrase(lower, "this rule")
}

/// Whether a sentence (in lowercase) says that its rule has subrules.
fn announces(lower: &str) -> bool {
    mentions_subrules(lower)
        && (speaks_of_itself(lower)
            || ["below", "following", "as follows"]
                .iter()
                .any(|w| contains_phrase(lower, w)))
}

/// Whether a sentence (in lowercase) speaks of parts of its own rule:
/// "the Powers section of this rule", "sub-rules within this rule".
fn speaks_of_own_parts(lower: &str) -> bool {
    speaks_of_itself(lower) && (mentions_subrules(lower) || contains_phrase(lower, "section"))
}

/// Signal 1: the rules right after `i` that its sentences on its own parts name.
fn named_children(rules: &[Draft], i: usize) -> Vec<usize> {
    let sentences: Vec<String> = sentences(&rules[i].body)
        .into_iter()
        .filter(|s| speaks_of_own_parts(&s.to_lowercase()))
        .collect();
    (i + 1..rules.len())
        .take_while(|&j| {
            let title = plain_quotes(&rules[j].title);
            sentences.iter().any(|s| contains_phrase(s, &title))
        })
        .collect()
}

/// The quoted titles that follow "subrule(s) of" in a sentence (in
/// lowercase, straight quotes): `each hex is a subrule of "hexes"`.
fn holders_named_in(lower: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for word in [
        "subrules of ",
        "subrule of ",
        "sub-rules of ",
        "sub-rule of ",
    ] {
        for (at, _) in lower.match_indices(word) {
            let rest = &lower[at + word.len()..];
            let rest = rest.strip_prefix("the ").unwrap_or(rest);
            let rest = rest.strip_prefix("rule ").unwrap_or(rest);
            if let Some(quoted) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                found.push(quoted.trim());
            }
        }
    }
    found
}

/// Why each rule of a section holds subrules, if it does.
fn holders(rules: &[Draft]) -> Vec<Option<String>> {
    let mut why: Vec<Option<String>> = rules
        .iter()
        .map(|rule| {
            if rule.body.is_empty() {
                Some(format!(
                    "the rule at line {} has no text of its own",
                    rule.line
                ))
            } else if sentences(&rule.body)
                .iter()
                .any(|s| announces(&s.to_lowercase()))
            {
                Some(format!(
                    "the rule at line {} says it has subrules",
                    rule.line
                ))
            } else {
                None
            }
        })
        .collect();
    let titles: Vec<String> = rules
        .iter()
        .map(|r| plain_quotes(&r.title).to_lowercase())
        .collect();
    for (by, rule) in rules.iter().enumerate() {
        for sentence in sentences(&rule.body) {
            let lower = sentence.to_lowercase();
            for quoted in holders_named_in(&lower) {
                if let Some(h) = titles.iter().position(|t| t == quoted) {
                    if h != by {
                        why[h] = Some(format!(
                            "the rule at line {} speaks of subrules of the rule at line {}",
                            rule.line, rules[h].line
                        ));
                    }
                }
            }
        }
    }
    why
}

/// Signal 2: the run of rules after holder `i`, and what they have in
/// common when they are two or more.
fn announced_children(rules: &[Draft], i: usize) -> (Vec<usize>, Option<Likeness>) {
    let Some(first) = rules.get(i + 1) else {
        return (Vec::new(), None);
    };
    let likeness = rules
        .get(i + 2)
        .and_then(|second| Likeness::of(first, second));
    let Some(likeness) = likeness else {
        return (vec![i + 1], None);
    };
    let run = (i + 1..rules.len())
        .take_while(|&j| likeness.fits(&rules[j]))
        .collect();
    (run, Some(likeness))
}

fn declares_itself_a_subrule(body: &[Block]) -> bool {
    let lower = body_text(body).to_lowercase();
    lower.contains("this subrule") || lower.contains("this sub-rule")
}

/// What the rules of one section say about their own nesting, as clues.
pub(crate) fn clues(rules: &[Draft]) -> Vec<Clue> {
    let holders = holders(rules);
    let mut clues = Vec::new();
    for i in 0..rules.len() {
        let line = rules[i].line;
        let named = named_children(rules, i);
        if let (true, Some(holds)) = (named.is_empty(), &holders[i]) {
            let (run, likeness) = announced_children(rules, i);
            if let (Some(likeness), Some(&last)) = (&likeness, run.last()) {
                if last + 1 < rules.len() {
                    let why = format!(
                        "the subrules of the rule at line {line} share {}, and this one does not",
                        likeness.describe()
                    );
                    clues.push(clue(
                        last + 1,
                        Claim::NotUnder(i),
                        weight::RUN_ENDED,
                        line,
                        why,
                    ));
                }
            }
            for &c in &run {
                let why = format!("{holds}, and this one comes first after it");
                let why = if c == i + 1 {
                    why
                } else {
                    format!("{holds}, this one among them")
                };
                clues.push(clue(c, Claim::ParentIs(i), weight::ANNOUNCED, line, why));
                if let Some(likeness) = &likeness {
                    let why = format!(
                        "it shares {} with the other subrules of the rule at line {line}",
                        likeness.describe()
                    );
                    clues.push(clue(c, Claim::ParentIs(i), weight::RESEMBLES, line, why));
                }
            }
        }
        for c in named {
            let why = format!("the rule at line {line} names it as its subrule");
            clues.push(clue(c, Claim::ParentIs(i), weight::NAMED, line, why));
        }
        if i > 0 && declares_itself_a_subrule(&rules[i].body) {
            let why = "its text calls it a subrule".into();
            clues.push(clue(i, Claim::Nested, weight::SELF_DECLARED, line, why));
        }
    }
    clues
}

/// The parent of each rule of one section from these clues alone, for
/// tests of the signals.
#[cfg(test)]
pub(crate) fn parents(rules: &[Draft]) -> Vec<Option<usize>> {
    let clues = clues(rules);
    let problem = super::solve::Problem::new(rules.len(), &clues);
    super::solve::solve(&problem).unwrap().parents
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Marker;

    fn rule(title: &str, body: &[&str]) -> Draft {
        let body = body
            .iter()
            .map(|t| match t.strip_prefix("- ") {
                Some(item) => Block::Item {
                    marker: Marker::Dash,
                    level: 1,
                    text: item.to_string(),
                },
                None => Block::Text(t.to_string()),
            })
            .collect();
        Draft {
            line: 0,
            title: title.to_string(),
            body,
        }
    }

    #[test]
    fn unrelated_rules_are_top_level() {
        let rules = [
            rule("Lanterns", &["Each lamplighter has a lantern."]),
            rule("Oil", &["Lanterns burn oil, as this rule says."]),
        ];
        assert_eq!(parents(&rules), [None, None]);
    }

    #[test]
    fn a_sentence_naming_the_next_rule_makes_it_a_subrule() {
        let rules = [
            rule(
                "Lanterns",
                &["Wicks are listed in the Wicks section of this rule."],
            ),
            rule("Wicks", &["A wick burns."]),
            rule("Oil", &["Oil is fuel."]),
        ];
        assert_eq!(parents(&rules), [None, Some(0), None]);
    }

    #[test]
    fn announced_subrules_run_while_their_shape_lasts() {
        let rules = [
            rule(
                "Gadgets",
                &["Each gadget is described in subrules of this rule."],
            ),
            rule("Wrench", &["- Cost: 2 Cogs", "- Turns bolts."]),
            rule(
                "Spanner",
                &["- Cost: 3 Cogs", "- Turns nuts; this subrule is new."],
            ),
            rule("Weather", &["It rains."]),
        ];
        assert_eq!(parents(&rules), [None, Some(0), Some(0), None]);
    }

    #[test]
    fn an_empty_rule_holds_the_list_shaped_rules_after_it() {
        let rules = [
            rule("Clarifications", &[]),
            rule("Counting", &["- Numbers are whole."]),
            rule("Clocks", &["- Time is UTC."]),
            rule("Afterword", &["Prose again."]),
        ];
        assert_eq!(parents(&rules), [None, Some(0), Some(0), None]);
    }

    #[test]
    fn a_rule_that_calls_itself_a_subrule_joins_the_rule_before() {
        let rules = [
            rule("Lanterns", &["Light."]),
            rule(
                "Shades",
                &["When this subrule was enacted, shades appeared."],
            ),
        ];
        assert_eq!(parents(&rules), [None, Some(0)]);
    }

    #[test]
    fn words_about_other_rules_subrules_name_none() {
        // An exemption that lists other rules "and their subrules", the
        // next rule among them, says nothing of this rule's subrules.
        let rules = [
            rule("Keepers", &["A keeper keeps a lamp."]),
            rule(
                "Idle Keepers",
                &[
                    "Apart from the rules “Keepers”, “Wicks” and whatever subrules those rules have, an idle keeper is no keeper.",
                ],
            ),
            rule("Wicks", &["A wick burns."]),
        ];
        assert_eq!(clues(&rules), []);
    }

    #[test]
    fn a_definition_of_subrule_and_a_self_declared_subrule_hold_nothing() {
        let glossary = [
            rule(
                "Words",
                &[
                    "A word defined here beats plain English (see the entry below).",
                    "Subrule",
                    "A rule inside another rule; changing a rule changes its subrules.",
                ],
            ),
            rule("Records", &["Records are kept on the blog."]),
        ];
        assert_eq!(parents(&glossary), [None, None]);
        let costs = [
            rule("Lamps", &["Light."]),
            rule(
                "Brass Lamps",
                &["Every entry in this subrule is a lamp, bought at the cost shown below."],
            ),
            rule("Trades", &["Each keeper has a trade."]),
        ];
        assert_eq!(parents(&costs), [None, Some(0), None]);
    }

    #[test]
    fn a_rule_that_calls_things_subrules_of_another_makes_it_their_holder() {
        let rules = [
            rule(
                "Spells",
                &[
                    "Each Rune is a subrule of “Runes”, titled with its code and its name in brackets.",
                ],
            ),
            rule("Runes", &["Runes are old."]),
            rule("FYR (Fire)", &["It burns.", "Cost: 3"]),
            rule("ICE (Frost)", &["Effect: it chills.", "Cost: 1"]),
            rule("Weather", &["It rains."]),
        ];
        assert_eq!(parents(&rules), [None, None, Some(1), Some(1), None]);
    }

    #[test]
    fn a_run_of_subrules_lasts_while_titles_share_a_pattern_or_bodies_a_label() {
        // Prose bodies: the titles' pattern holds the run together.
        let by_pattern = [
            rule("Runes", &[]),
            rule("FYR (Fire)", &["It burns."]),
            rule("ICE (Frost)", &["It chills."]),
            rule("GUS (Gust)", &["It blows."]),
            rule("Weather", &["It rains."]),
        ];
        assert_eq!(
            parents(&by_pattern),
            [None, Some(0), Some(0), Some(0), None]
        );
        // Plain titles: a label line they share holds it together.
        let by_label = [
            rule("Tools", &[]),
            rule("Hammer", &["It knocks.", "Cost: 2"]),
            rule("Saw", &["It cuts.", "Cost: 4", "Weight: 1"]),
            rule("Weather", &["It rains."]),
        ];
        assert_eq!(parents(&by_label), [None, Some(0), Some(0), None]);
        // Nothing shared: only the first rule after the holder is its.
        let unlike = [
            rule("Tools", &[]),
            rule("Hammer", &["It knocks."]),
            rule("Weather", &["It rains."]),
        ];
        assert_eq!(parents(&unlike), [None, Some(0), None]);
    }

    #[test]
    fn title_patterns_tell_codes_brackets_and_labels() {
        assert_eq!(title_pattern("ZAP (Shock)").as_deref(), Some("C P"));
        assert_eq!(title_pattern("GRO (Grow, Bound)").as_deref(), Some("C P"));
        assert_eq!(title_pattern("Spell: Light").as_deref(), Some(": w"));
        assert_eq!(title_pattern("Part 12").as_deref(), Some("w N"));
        assert_eq!(title_pattern("Idle Keepers"), None);
        assert_eq!(
            label("Power Requirement: 10").as_deref(),
            Some("power requirement")
        );
        assert_eq!(label("as follows: this"), None);
    }
}
