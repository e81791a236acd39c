//! Glossary pairs: a list that alternates a term and its definition. Pure.
//!
//! Some dumps print a glossary as a flat list, `- Term` then
//! `- Definition`, over and over. Such a list is taken as pairs when it
//! ends a glossary rule's body, has at least [`MIN_PAIRS`] pairs, every
//! term looks like a term (short, capitalised, no `:` and no final
//! punctuation) and at least one definition does not (otherwise it is a
//! list of names).

use super::Block;

/// The fewest pairs that make a glossary.
const MIN_PAIRS: usize = 3;

fn term_like(text: &str) -> bool {
    text.starts_with(char::is_uppercase)
        && text.chars().count() <= 40
        && text.split_whitespace().count() <= 6
        && !text.contains(':')
        && !text.ends_with(['.', ',', ';'])
}

/// Takes the trailing glossary pairs off `body`, if it ends with them.
pub(crate) fn split_pairs(body: &mut Vec<Block>) -> Vec<(String, String)> {
    let start = body
        .iter()
        .rposition(|b| !matches!(b, Block::Item { level: 1, .. }))
        .map_or(0, |p| p + 1);
    let items: Vec<&str> = body[start..].iter().map(Block::text).collect();
    let pairs: Vec<(&str, &str)> = items
        .chunks(2)
        .filter_map(|c| match c {
            [term, definition] => Some((*term, *definition)),
            _ => None,
        })
        .collect();
    let is_glossary = items.len() % 2 == 0
        && pairs.len() >= MIN_PAIRS
        && pairs.iter().all(|(term, _)| term_like(term))
        && !pairs.iter().all(|(_, definition)| term_like(definition));
    if !is_glossary {
        return Vec::new();
    }
    let pairs = pairs
        .into_iter()
        .map(|(t, d)| (t.to_string(), d.to_string()))
        .collect();
    body.truncate(start);
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Marker;

    fn body(lines: &[&str]) -> Vec<Block> {
        lines
            .iter()
            .map(|t| match t.strip_prefix("- ") {
                Some(item) => Block::Item {
                    marker: Marker::Dash,
                    level: 1,
                    text: item.to_string(),
                },
                None => Block::Text(t.to_string()),
            })
            .collect()
    }

    #[test]
    fn takes_trailing_pairs() {
        let mut b = body(&[
            "These words mean what follows.",
            "- Dusk",
            "- The hour the lamps are lit.",
            "- Wick",
            "- \"the thing that burns\"",
            "- Lamp Oil",
            "- What a lamp burns",
        ]);
        let pairs = split_pairs(&mut b);
        assert_eq!(pairs.len(), 3);
        assert_eq!(
            pairs[1],
            ("Wick".to_string(), "\"the thing that burns\"".to_string())
        );
        assert_eq!(b, body(&["These words mean what follows."]));
    }

    #[test]
    fn leaves_lists_that_are_not_pairs() {
        for lines in [
            &[
                "- Dusk",
                "- Dawn",
                "- Noon",
                "- Night",
                "- Morning",
                "- Evening",
            ][..],
            &["- Dusk", "- The hour.", "- Wick", "- A string.", "- Oil"][..],
            &["- Dusk", "- The hour.", "- Wick", "- A string."][..],
            &[
                "- Cost: 5",
                "- Power: 2",
                "- Cost: 1",
                "- Effect: none.",
                "- Cost: 3",
                "- Effect: more.",
            ][..],
        ] {
            let mut b = body(lines);
            assert!(split_pairs(&mut b).is_empty(), "{lines:?}");
            assert_eq!(b.len(), lines.len());
        }
    }
}
