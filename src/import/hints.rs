//! Hints: what the text of one dump cannot decide, by line number. Pure.
//!
//! ```toml
//! titles = [269]        # lines that are titles although they do not look it
//! not_titles = [311]    # lines that look like titles but are body text
//!
//! [parents]             # title line = line of its parent's title
//! 78 = 67               # (0 = a top-level rule)
//! ```
//!
//! Hints name lines, never text, so a hints file holds no rule text and
//! stays valid only for the dump it was written for.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use super::ImportError;

/// The hints for one dump.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    /// Lines that are titles although the heuristics say otherwise.
    pub titles: BTreeSet<usize>,
    /// Lines that are not titles although the heuristics say they are.
    pub not_titles: BTreeSet<usize>,
    /// The parent of a rule, both by title line; 0 makes it top-level.
    pub parents: BTreeMap<usize, usize>,
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
        let titles: BTreeSet<usize> = file.titles.into_iter().collect();
        let not_titles: BTreeSet<usize> = file.not_titles.into_iter().collect();
        if let Some(both) = titles.intersection(&not_titles).next() {
            return Err(ImportError::Hints(format!(
                "line {both} is in both `titles` and `not_titles`"
            )));
        }
        Ok(Hints {
            titles,
            not_titles,
            parents,
        })
    }

    /// How many entries the hints hold.
    pub fn len(&self) -> usize {
        self.titles.len() + self.not_titles.len() + self.parents.len()
    }

    /// Whether there are no hints.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_hint() {
        let hints =
            Hints::parse("titles = [5]\nnot_titles = [9, 11]\n[parents]\n20 = 12\n30 = 0\n")
                .unwrap();
        assert_eq!(hints.titles, BTreeSet::from([5]));
        assert_eq!(hints.not_titles, BTreeSet::from([9, 11]));
        assert_eq!(hints.parents, BTreeMap::from([(20, 12), (30, 0)]));
        assert_eq!(hints.len(), 5);
    }

    #[test]
    fn refuses_unknown_keys_bad_lines_and_contradictions() {
        for bad in [
            "title = [5]\n",
            "[parents]\nten = 3\n",
            "titles = [4]\nnot_titles = [4]\n",
            "titles = \"4\"\n",
        ] {
            assert!(
                matches!(Hints::parse(bad), Err(ImportError::Hints(_))),
                "{bad}"
            );
        }
    }
}
