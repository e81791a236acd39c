//! Comparing two versions of the ruleset. Pure.
//!
//! [`diff`] says what a proposal does to the rules, rule by rule, matched
//! by stable id ("amends 1.5 Proposals, adds 2.4 Springs"), and
//! [`typo_fix_size`] says whether a push to a pending proposal only fixed
//! typos, which decides whether the votes already cast still stand.

use std::collections::BTreeMap;
use std::fmt;

use super::{Rule, RuleNumber, Ruleset};
use crate::source::{SourceFile, split_front_matter};

/// What happened to one rule between two versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleChange {
    /// A new rule.
    Added {
        /// Its number in the new ruleset.
        number: RuleNumber,
        /// Its title.
        title: String,
    },
    /// A rule whose text, title or parameters changed.
    Amended {
        /// Its number in the new ruleset.
        number: RuleNumber,
        /// Its new title.
        title: String,
        /// Its old title, if it was renamed.
        renamed_from: Option<String>,
    },
    /// A rule that is gone.
    Repealed {
        /// Its number in the old ruleset.
        number: RuleNumber,
        /// Its title.
        title: String,
    },
    /// A rule unchanged but for its number.
    Renumbered {
        /// Its old number.
        from: RuleNumber,
        /// Its new number.
        to: RuleNumber,
        /// Its title.
        title: String,
    },
}

impl fmt::Display for RuleChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleChange::Added { number, title } => write!(f, "adds {number} {title}"),
            RuleChange::Amended {
                number,
                title,
                renamed_from: None,
            } => write!(f, "amends {number} {title}"),
            RuleChange::Amended {
                number,
                title,
                renamed_from: Some(old),
            } => {
                write!(f, "amends {number} {title} (was {old})")
            }
            RuleChange::Repealed { number, title } => write!(f, "repeals {number} {title}"),
            RuleChange::Renumbered { from, to, title } => {
                write!(f, "renumbers {from} {title} to {to}")
            }
        }
    }
}

/// The rule-level changes from `old` to `new`, in the order of the new
/// ruleset, then repeals in the order of the old. Compare rendered
/// rulesets so a renamed term shows as the amendments it makes.
pub fn diff(old: &Ruleset, new: &Ruleset) -> Vec<RuleChange> {
    let before: BTreeMap<&str, &Rule> = old.rules.iter().map(|r| (r.id.as_str(), r)).collect();
    let params_of = |ruleset: &Ruleset, rule: &Rule| -> Vec<(String, toml::Value)> {
        ruleset
            .params
            .iter()
            .filter(|(_, p)| p.rule == rule.id)
            .map(|(k, p)| (k.clone(), p.value.clone()))
            .collect()
    };
    let mut changes = Vec::new();
    for rule in &new.rules {
        let Some(was) = before.get(rule.id.as_str()) else {
            changes.push(RuleChange::Added {
                number: rule.number.clone(),
                title: rule.title.clone(),
            });
            continue;
        };
        let amended = was.title != rule.title
            || was.body != rule.body
            || was.terms != rule.terms
            || params_of(old, was) != params_of(new, rule);
        if amended {
            let renamed_from = (was.title != rule.title).then(|| was.title.clone());
            changes.push(RuleChange::Amended {
                number: rule.number.clone(),
                title: rule.title.clone(),
                renamed_from,
            });
        } else if was.number != rule.number {
            let (from, to) = (was.number.clone(), rule.number.clone());
            changes.push(RuleChange::Renumbered {
                from,
                to,
                title: rule.title.clone(),
            });
        }
    }
    for rule in &old.rules {
        if new.get(rule.id.as_str()).is_none() {
            changes.push(RuleChange::Repealed {
                number: rule.number.clone(),
                title: rule.title.clone(),
            });
        }
    }
    changes
}

/// How many characters a change from `old` to `new` files alters, if it is
/// a typo fix at all: only the bodies of existing rule files change, with
/// the same number of lines, and front matter stays as it was. `None` when
/// the change is of another kind.
pub fn typo_fix_size(old: &[SourceFile], new: &[SourceFile]) -> Option<usize> {
    let map = |files: &[SourceFile]| -> BTreeMap<String, String> {
        files
            .iter()
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect()
    };
    let (old, new) = (map(old), map(new));
    if old.keys().ne(new.keys()) {
        return None;
    }
    let mut size = 0;
    for (path, was) in &old {
        let now = &new[path];
        if was == now {
            continue;
        }
        if !(path.starts_with("rules/") && path.ends_with(".md")) {
            return None;
        }
        let (front_was, body_was, _) = split_front_matter(was)?;
        let (front_now, body_now, _) = split_front_matter(now)?;
        if front_was != front_now || body_was.lines().count() != body_now.lines().count() {
            return None;
        }
        size += body_was
            .lines()
            .zip(body_now.lines())
            .map(|(a, b)| edit_distance(a, b))
            .sum::<usize>();
    }
    Some(size)
}

/// Characters inserted, deleted or replaced to turn `a` into `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    if a == b {
        return 0;
    }
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(id: &str, title: &str, order: u32, body: &str) -> SourceFile {
        let text =
            format!("+++\nid = \"{id}\"\ntitle = \"{title}\"\norder = {order}\n+++\n{body}\n");
        SourceFile::new(format!("rules/core/{id}.md"), text)
    }

    fn changes(old: &[SourceFile], new: &[SourceFile]) -> Vec<String> {
        diff(&Ruleset::parse(old).0, &Ruleset::parse(new).0)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn names_additions_amendments_repeals_and_renumbering() {
        let old = [
            rule("a", "Alpha", 10, "A."),
            rule("b", "Beta", 20, "B."),
            rule("c", "Gamma", 30, "C."),
        ];
        let new = [
            rule("z", "Zeta", 5, "Z."),
            rule("a", "Alpha", 10, "A!"),
            rule("c", "Gamma", 30, "C."),
        ];
        assert_eq!(
            changes(&old, &new),
            ["adds 1.1 Zeta", "amends 1.2 Alpha", "repeals 1.2 Beta"]
        );
        let renamed = [
            rule("a", "First", 10, "A."),
            rule("b", "Beta", 20, "B."),
            rule("c", "Gamma", 30, "C."),
        ];
        assert_eq!(changes(&old, &renamed), ["amends 1.1 First (was Alpha)"]);
        let moved = [
            rule("a", "Alpha", 10, "A."),
            rule("c", "Gamma", 15, "C."),
            rule("b", "Beta", 20, "B."),
        ];
        assert_eq!(
            changes(&old, &moved),
            ["renumbers 1.3 Gamma to 1.2", "renumbers 1.2 Beta to 1.3"]
        );
        assert!(changes(&old, &old).is_empty());
    }

    #[test]
    fn a_typo_fix_is_a_small_change_to_rule_bodies_only() {
        let old = [rule("a", "Alpha", 10, "Each player may wind once.")];
        let fixed = [rule("a", "Alpha", 10, "Each player may wind once!")];
        assert_eq!(typo_fix_size(&old, &fixed), Some(1));
        let reworded = [rule("a", "Alpha", 10, "Each player may wind twice a day.")];
        assert_eq!(typo_fix_size(&old, &reworded), Some(9));
        let retitled = [rule("a", "Alfa", 10, "Each player may wind once.")];
        assert_eq!(typo_fix_size(&old, &retitled), None, "front matter changed");
        let more = [old[0].clone(), rule("b", "Beta", 20, "B.")];
        assert_eq!(typo_fix_size(&old, &more), None, "a file was added");
        let state_old = [SourceFile::new("state/variables.toml", "a = 1\n")];
        let state_new = [SourceFile::new("state/variables.toml", "a = 2\n")];
        assert_eq!(
            typo_fix_size(&state_old, &state_new),
            None,
            "state is never a typo"
        );
    }

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("recieve", "receive"), 2);
        assert_eq!(edit_distance("naïve", "naive"), 1);
    }
}
