//! Numbered cross-references as a check on the nesting. Pure.
//!
//! Rules cite each other as "Rule 2.5 (Raiding)" or "Rule 1.1 Ruleset and
//! Gamestate". When such a citation names a rule that the import numbers
//! differently, some nesting before it is wrong or missing: the importer
//! says so, so a person knows where a `[parents]` hint is needed. It does
//! not guess which rule to move; a citation cannot tell.

use std::collections::BTreeMap;

use super::{ImportedRule, ImportedSection};
use crate::ruleset::RuleId;

/// Each rule's number, as the numbering module will give it (rules are in
/// document order and every parent comes before its subrules).
pub(crate) fn numbers(
    sections: &[ImportedSection],
    rules: &[ImportedRule],
) -> BTreeMap<RuleId, String> {
    let mut numbers = BTreeMap::new();
    let mut children: BTreeMap<Option<RuleId>, u32> = BTreeMap::new();
    for (n, section) in (1..).zip(sections) {
        children.remove(&None);
        for rule in rules.iter().filter(|r| r.section == section.kind) {
            let count = children.entry(rule.parent.clone()).or_default();
            *count += 1;
            let prefix = match &rule.parent {
                Some(p) => numbers.get(p).cloned().unwrap_or_default(),
                None => n.to_string(),
            };
            numbers.insert(rule.id.clone(), format!("{prefix}.{count}"));
        }
    }
    numbers
}

/// The citations `(number, title)` in `text`, with the one of `titles`
/// they name, if any.
fn citations<'t>(text: &str, titles: &[&'t str]) -> Vec<(String, Option<&'t str>)> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("ule ") {
        if !text[..at].ends_with(['R', 'r']) {
            continue;
        }
        let rest = &text[at + 4..];
        let len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = rest[..len].trim_end_matches('.');
        if !number.contains('.') {
            continue;
        }
        let after = rest[len..].trim_start_matches([' ', '(']);
        let title = titles.iter().find(|t| {
            after.starts_with(**t)
                && !after[t.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
        });
        found.push((number.to_string(), title.copied()));
    }
    found
}

/// A warning for every citation whose rule is numbered otherwise here.
pub(crate) fn check(sections: &[ImportedSection], rules: &[ImportedRule]) -> Vec<String> {
    let numbers = numbers(sections, rules);
    let mut titles: Vec<&str> = rules.iter().map(|r| r.title.as_str()).collect();
    titles.sort_by_key(|t| std::cmp::Reverse(t.len()));
    let mut warnings = Vec::new();
    for rule in rules {
        for block in &rule.body {
            for (cited, title) in citations(block.text(), &titles) {
                let target = title.and_then(|t| rules.iter().find(|r| r.title == t));
                let actual = target.and_then(|t| numbers.get(&t.id));
                match (target, actual) {
                    (Some(target), Some(actual)) if *actual != cited => warnings.push(format!(
                        "the rule at line {} cites the rule at line {} as rule {cited}, but it is numbered {actual} here: a [parents] hint may be missing before it",
                        rule.line, target.line
                    )),
                    (None, _) if !numbers.values().any(|n| *n == cited) => warnings.push(format!(
                        "the rule at line {} cites rule {cited}, which this import does not number: a [parents] hint may be missing",
                        rule.line
                    )),
                    _ => {}
                }
            }
        }
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Block;
    use crate::ruleset::SectionKind;

    fn rule(id: &str, parent: Option<&str>, body: &str) -> ImportedRule {
        ImportedRule {
            id: RuleId::parse(id).unwrap(),
            title: id.to_uppercase(),
            line: id.len(),
            section: SectionKind::Dynastic,
            parent: parent.and_then(RuleId::parse),
            order: 10,
            body: vec![Block::Text(body.to_string())],
            terms: Vec::new(),
        }
    }

    fn sections() -> Vec<ImportedSection> {
        [SectionKind::Core, SectionKind::Dynastic]
            .into_iter()
            .zip(1..)
            .map(|(kind, order)| ImportedSection {
                kind,
                title: kind.to_string(),
                line: 0,
                order,
                intro: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn numbers_follow_parents_and_sections() {
        let rules = [
            rule("a", None, ""),
            rule("bb", Some("a"), ""),
            rule("ccc", None, ""),
        ];
        let numbers = numbers(&sections(), &rules);
        let got: Vec<&str> = rules.iter().map(|r| numbers[&r.id].as_str()).collect();
        assert_eq!(got, ["2.1", "2.1.1", "2.2"]);
    }

    #[test]
    fn warns_about_citations_that_disagree() {
        let rules = [
            rule("a", None, "See Rule 2.2 (CCC) and rule 2.1 A."),
            rule(
                "bb",
                None,
                "As rule 2.2 BB says; rule 2.1 is there, rule 2.1.1 is not.",
            ),
            rule("ccc", None, ""),
        ];
        let warnings = check(&sections(), &rules);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert!(
            warnings[1].starts_with("the rule at line 2 cites rule 2.1.1, which"),
            "{warnings:?}"
        );
        assert!(
            warnings[0].starts_with(
                "the rule at line 1 cites the rule at line 3 as rule 2.2, but it is numbered 2.3"
            ),
            "{warnings:?}"
        );
    }
}
