//! Which rules of a section are subrules, and of what. Pure.
//!
//! Dumps print titles flat, so nesting comes from what the rules say about
//! themselves, strongest signal first:
//!
//! 1. **Named subrules.** A sentence of a rule's body that speaks of "this
//!    rule" or of "subrules" and names the title of the rule right after it
//!    ("…listed in the Powers section of this rule") makes that rule, and
//!    each next one it names, a subrule.
//! 2. **Announced subrules.** A body that says its rule has subrules
//!    ("…listed in subrules of this rule"), or a rule with no body at all
//!    (it only holds subrules), takes the rules after it as subrules: the
//!    run that shares the first one's shape (all bodies lists starting with
//!    the same `Label:`, or all plain lists), or just the first one when
//!    its body is prose.
//! 3. **Self-declared subrules.** A body that says "this subrule" belongs
//!    under the rule before it (or that rule's parent).
//!
//! Each signal is a [`Clue`] with a weight; the solver weighs them against
//! the rest of the evidence (citations, titles) and against the cost of
//! nesting at all, so a rule with no evidence stays top-level.

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
    let label = first.text().split_once(':').and_then(|(label, _)| {
        let words = label.split_whitespace().count();
        (1..=3)
            .contains(&words)
            .then(|| label.trim().to_lowercase())
    });
    Shape::List(label)
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

/// The sentences of a body that speak of the rule itself or of subrules.
fn signal_sentences(body: &[Block]) -> Vec<String> {
    let text = plain_quotes(&body_text(body));
    text.split(['.', '\n', ';'])
        .filter(|s| {
            let lower = s.to_lowercase();
            lower.contains("this rule") || lower.contains("subrule") || lower.contains("sub-rule")
        })
        .map(str::to_string)
        .collect()
}

fn announces_subrules(body: &[Block]) -> bool {
    let lower = body_text(body).to_lowercase();
    (lower.contains("subrule") || lower.contains("sub-rule"))
        && (lower.contains("this rule") || lower.contains("below"))
}

fn declares_itself_a_subrule(body: &[Block]) -> bool {
    let lower = body_text(body).to_lowercase();
    lower.contains("this subrule") || lower.contains("this sub-rule")
}

/// Signal 1: the rules right after `i` that its signal sentences name.
fn named_children(rules: &[Draft], i: usize) -> Vec<usize> {
    let sentences = signal_sentences(&rules[i].body);
    (i + 1..rules.len())
        .take_while(|&j| {
            let title = plain_quotes(&rules[j].title);
            sentences.iter().any(|s| contains_phrase(s, &title))
        })
        .collect()
}

/// Signal 2: the run of rules after `i` that it announces or holds, and
/// whether that run is list-shaped (so the rule after it is not part of it).
fn announced_children(rules: &[Draft], i: usize) -> (Vec<usize>, bool) {
    let holds = rules[i].body.is_empty() || announces_subrules(&rules[i].body);
    if !holds || i + 1 >= rules.len() {
        return (Vec::new(), false);
    }
    let first = shape(&rules[i + 1].body);
    if !matches!(first, Shape::List(_)) {
        return (vec![i + 1], false);
    }
    let run = (i + 1..rules.len())
        .take_while(|&j| shape(&rules[j].body) == first)
        .collect();
    (run, true)
}

/// What the rules of one section say about their own nesting, as clues.
pub(crate) fn clues(rules: &[Draft]) -> Vec<Clue> {
    let mut clues = Vec::new();
    for i in 0..rules.len() {
        let line = rules[i].line;
        let named = named_children(rules, i);
        if named.is_empty() {
            let (run, shaped) = announced_children(rules, i);
            if let (true, Some(&last)) = (shaped, run.last()) {
                if last + 1 < rules.len() {
                    let why = format!(
                        "the rule at line {line} announces subrules of one shape, and this one breaks it"
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
            for c in run {
                let why =
                    format!("the rule at line {line} announces subrules, this one among them");
                clues.push(clue(c, Claim::ParentIs(i), weight::ANNOUNCED, line, why));
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
}
