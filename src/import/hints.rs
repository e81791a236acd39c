//! Hints: what the text of one dump cannot decide, by line number. Pure.
//!
//! ```toml
//! titles = [269]        # lines that are titles although they do not look it
//! not_titles = [311]    # lines that look like titles but are body text
//!
//! [parents]             # title line = line of its parent's title
//! 78 = 67               # (0 = a top-level rule)
//!
//! [numbers]             # title line = its number on the wiki
//! 265 = "2.20"
//! ```
//!
//! A `[parents]` or `[numbers]` hint for a line the import did not take
//! for a title makes it one (the import says so).
//!
//! Hints name lines, never text, so a hints file holds no rule text and
//! stays valid only for the dump it was written for.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::{ImportError, Question};

/// The hints for one dump.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// Lines that are titles although the heuristics say otherwise.
    pub titles: BTreeSet<usize>,
    /// Lines that are not titles although the heuristics say they are.
    pub not_titles: BTreeSet<usize>,
    /// The parent of a rule, both by title line; 0 makes it top-level.
    pub parents: BTreeMap<usize, usize>,
    /// The number of a rule on the wiki, by title line: `[2, 20]` for `2.20`.
    pub numbers: BTreeMap<usize, Vec<u32>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintsFile {
    #[serde(default)]
    titles: Vec<usize>,
    #[serde(default)]
    not_titles: Vec<usize>,
    #[serde(default)]
    parents: BTreeMap<String, usize>,
    #[serde(default)]
    numbers: BTreeMap<String, toml::Value>,
}

/// A rule number as a hint writes it: `"2.20.1"`.
pub fn parse_number(text: &str) -> Option<Vec<u32>> {
    let parts: Option<Vec<u32>> = text.trim().split('.').map(|p| p.parse().ok()).collect();
    parts.filter(|p| p.len() >= 2 && p.iter().all(|n| *n > 0))
}

impl Hints {
    /// Parses a hints file.
    pub fn parse(text: &str) -> Result<Self, ImportError> {
        let file: HintsFile =
            toml::from_str(text).map_err(|e| ImportError::Hints(e.message().to_string()))?;
        let mut parents = BTreeMap::new();
        for (child, parent) in file.parents {
            let line = child.parse().map_err(|_| {
                ImportError::Hints(format!("`{child}` in [parents] is not a line number"))
            })?;
            parents.insert(line, parent);
        }
        let mut numbers = BTreeMap::new();
        for (line, number) in file.numbers {
            let no: usize = line.parse().map_err(|_| {
                ImportError::Hints(format!("`{line}` in [numbers] is not a line number"))
            })?;
            let parsed = match &number {
                toml::Value::String(text) => parse_number(text),
                _ => None,
            };
            let parsed = parsed.ok_or_else(|| {
                ImportError::Hints(format!(
                    "[numbers] {line} = {number}: a number is written in quotes, as on the wiki: {line} = \"2.3.1\""
                ))
            })?;
            if parents.contains_key(&no) {
                return Err(ImportError::Hints(format!(
                    "line {no} has both a [parents] and a [numbers] hint: keep one"
                )));
            }
            numbers.insert(no, parsed);
        }
        let titles: BTreeSet<usize> = file.titles.into_iter().collect();
        let not_titles: BTreeSet<usize> = file.not_titles.into_iter().collect();
        if let Some(both) = titles.intersection(&not_titles).next() {
            return Err(ImportError::Hints(format!(
                "line {both} is in both `titles` and `not_titles`"
            )));
        }
        let placed = parents.keys().chain(numbers.keys());
        if let Some(both) = placed.copied().find(|l| not_titles.contains(l)) {
            return Err(ImportError::Hints(format!(
                "line {both} is in `not_titles` and has a [parents] or [numbers] hint: a rule with a place is a title, so take it out of `not_titles`"
            )));
        }
        Ok(Hints {
            titles,
            not_titles,
            parents,
            numbers,
        })
    }

    /// How many entries the hints hold.
    pub fn len(&self) -> usize {
        self.titles.len() + self.not_titles.len() + self.parents.len() + self.numbers.len()
    }

    /// Whether there are no hints.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A hints file that asks `questions` (most numbers hanging on them
/// first) with the import's current answers filled in, beside the hints
/// already given (`hints`), for a person to check against the wiki, edit
/// and pass back with `--hints`. `dump` names the dump in the header.
pub fn questions_file(dump: &str, hints: &Hints, questions: &[Question]) -> String {
    let total = questions.len();
    let said = |k: usize, q: &Question| {
        let mut line = format!("# question {k} of {total}: {}", q.ask());
        if !q.moves.is_empty() {
            line.push_str(&format!(
                " The other answer also renumbers {}.",
                q.moves_said()
            ));
        }
        line.replace(['\n', '\r'], " ")
    };
    let mut out = format!(
        "# Questions about the numbers of {}, from `gitnomic import ruleset`.\n\
         # Each answer holds the import's current number: check it against the wiki\n\
         # (its Contents box, or the numbers it shows), change the ones that differ,\n\
         # and import again with `--hints` and this file. A line that is not a\n\
         # title goes in not_titles; a title is answered in [numbers].\n\n",
        dump.replace(['\n', '\r'], " ")
    );
    let list = |out: &mut String,
                key: &str,
                lines: &BTreeSet<usize>,
                asked: &[(usize, &Question)]| {
        out.push_str(&format!("{key} = [\n"));
        for line in lines {
            out.push_str(&format!("    {line},\n"));
        }
        for (k, q) in asked {
            out.push_str(&format!(
                    "    {},\n    {}\n    # (if it is one, take it out of here and give its number in [numbers]: {} = \"N.N\")\n",
                    q.line,
                    said(*k, q),
                    q.line
                ));
        }
        out.push_str("]\n");
    };
    let numbered: Vec<(usize, &Question)> = (1..).zip(questions).collect();
    let untitled: Vec<(usize, &Question)> = numbered
        .iter()
        .copied()
        .filter(|(_, q)| q.now.is_none())
        .collect();
    list(&mut out, "titles", &hints.titles, &[]);
    list(&mut out, "not_titles", &hints.not_titles, &untitled);
    out.push_str("\n[parents]\n");
    for (child, parent) in &hints.parents {
        out.push_str(&format!("{child} = {parent}\n"));
    }
    out.push_str("\n[numbers]\n");
    for (line, number) in &hints.numbers {
        out.push_str(&format!("{line} = \"{}\"\n", super::xref::show(number)));
    }
    for (k, q) in numbered {
        if let Some(now) = &q.now {
            out.push_str(&format!("{}\n{} = \"{now}\"\n", said(k, q), q.line));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_hint() {
        let hints = Hints::parse(
            "titles = [5]\nnot_titles = [9, 11]\n[parents]\n20 = 12\n30 = 0\n[numbers]\n40 = \"2.10.1\"\n",
        )
        .unwrap();
        assert_eq!(hints.titles, BTreeSet::from([5]));
        assert_eq!(hints.not_titles, BTreeSet::from([9, 11]));
        assert_eq!(hints.parents, BTreeMap::from([(20, 12), (30, 0)]));
        assert_eq!(hints.numbers, BTreeMap::from([(40, vec![2, 10, 1])]));
        assert_eq!(hints.len(), 6);
    }

    #[test]
    fn refuses_unknown_keys_bad_lines_and_contradictions() {
        for bad in [
            "title = [5]\n",
            "[parents]\nten = 3\n",
            "titles = [4]\nnot_titles = [4]\n",
            "titles = \"4\"\n",
            "[numbers]\n40 = 2.1\n",
            "[numbers]\n40 = \"2\"\n",
            "[numbers]\n40 = \"2.x\"\n",
            "[parents]\n40 = 3\n[numbers]\n40 = \"2.1\"\n",
            "not_titles = [40]\n[numbers]\n40 = \"2.1\"\n",
        ] {
            assert!(
                matches!(Hints::parse(bad), Err(ImportError::Hints(_))),
                "{bad}"
            );
        }
    }
}
