//! Numbered cross-references, and the numbers the import will give. Pure.
//!
//! Rules cite each other as "Rule 2.5 (Raiding)", "Rule 1.1 Ruleset and
//! Gamestate" or "the fragments given in Rule 2.3.1". Each citation is
//! evidence about the nesting (see `evidence`): it says a rule of that
//! number exists, and which one when a title follows the number.

use {
    super::{ImportedRule, ImportedSection},
    crate::ruleset::RuleId,
    std::collections::BTreeMap,
};

/// Each rule's number, as the numbering module will give it (rules are in
/// document order and every parent comes before its subrules); tests
/// check the import against it.
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

/// A numbered citation found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Citation<'t> {
    /// The number cited, `[2, 3, 1]` for "Rule 2.3.1".
    pub(crate) number: Vec<u32>,
    /// The title that follows the number, when it is one of the titles.
    pub(crate) title: Option<&'t str>,
    /// The sentence the citation stands in.
    pub(crate) sentence: String,
}

/// A number as written: `2.3.1`.
pub(crate) fn show(number: &[u32]) -> String {
    number
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(".")
}

/// The sentence of `text` around byte `at`: from the end of the sentence
/// before (". ", "! ", "? ") to the end of this one.
fn sentence_at(text: &str, at: usize) -> &str {
    let ends = |s: &str| {
        s.match_indices(['.', '!', '?'])
            .map(|(i, _)| i)
            .collect::<Vec<_>>()
    };
    let start = ends(&text[..at])
        .into_iter()
        .rev()
        .find(|&i| text[i + 1..].starts_with(' '))
        .map_or(0, |i| i + 1);
    let end = ends(&text[at..])
        .into_iter()
        .map(|i| at + i)
        .find(|&i| text[i + 1..].is_empty() || text[i + 1..].starts_with(' '))
        .map_or(text.len(), |i| i + 1);
    text[start..end].trim()
}

/// The number at the start of `rest` (`2.3.1`, without a final period)
/// and its length in bytes.
fn number_at(rest: &str) -> Option<(Vec<u32>, usize)> {
    let len = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    let text = rest[..len].trim_end_matches('.');
    let number: Option<Vec<u32>> = text.split('.').map(|p| p.parse().ok()).collect();
    number.filter(|n| n.len() >= 2).map(|n| (n, text.len()))
}

/// The numbered citations in `text` ("Rule 2.5 (Raiding)", "rule 1.5",
/// "Rules 1.1, 1.2 and 1.8"), each with the one of `titles` that follows
/// its number, if any.
pub(crate) fn citations<'t>(text: &str, titles: &[&'t str]) -> Vec<Citation<'t>> {
    let mut titles = titles.to_vec();
    titles.sort_by_key(|t| std::cmp::Reverse(t.len()));
    let mut found = Vec::new();
    for (at, _) in text.match_indices("ule") {
        if !text[..at].ends_with(['R', 'r']) {
            continue;
        }
        let mut rest = text[at + 3..].strip_prefix('s').unwrap_or(&text[at + 3..]);
        let Some(mut rest_after) = rest.strip_prefix(' ') else {
            continue;
        };
        let sentence = sentence_at(text, at);
        while let Some((number, len)) = number_at(rest_after) {
            rest = &rest_after[len..];
            found.push(Citation {
                number,
                title: None,
                sentence: sentence.to_string(),
            });
            let next = [", and ", ", or ", ", ", " and ", " or "]
                .iter()
                .find_map(|sep| rest.strip_prefix(sep));
            match next {
                Some(more) if more.starts_with(|c: char| c.is_ascii_digit()) => rest_after = more,
                _ => break,
            }
        }
        let after = rest.trim_start_matches([' ', '(']);
        let title = titles.iter().find(|t| {
            after.starts_with(**t)
                && !after[t.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
        });
        if let (Some(last), Some(title)) = (found.last_mut(), title) {
            last.title = Some(title);
        }
    }
    found
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
            doubt: None,
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
    fn finds_citations_lists_titles_and_sentences() {
        let titles = ["Lamps", "Oil"];
        let found = citations(
            "First. See Rule 2.2 (Oil) and rule 2.1 Lamps. As rules 1.1, 1.2 and 1.10 say, rule 3 is no citation; Rule 2.3.1.",
            &titles,
        );
        let got: Vec<(String, Option<&str>)> =
            found.iter().map(|c| (show(&c.number), c.title)).collect();
        assert_eq!(
            got,
            [
                ("2.2".into(), Some("Oil")),
                ("2.1".into(), Some("Lamps")),
                ("1.1".into(), None),
                ("1.2".into(), None),
                ("1.10".into(), None),
                ("2.3.1".into(), None),
            ]
        );
        assert_eq!(found[0].sentence, "See Rule 2.2 (Oil) and rule 2.1 Lamps.");
        assert!(found[2].sentence.starts_with("As rules 1.1"));
    }
}
