//! Comparing two versions of the ruleset. Pure.
//!
//! [`diff`] says what a proposal does to the rules, rule by rule, matched
//! by stable id ("amends 1.5 Proposals, adds 2.4 Springs"), and
//! [`typo_fix_size`] says whether a push to a pending proposal only fixed
//! typos, which decides whether the votes already cast still stand.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::textdiff::{self, Line};
use super::{Rule, RuleId, RuleNumber, Ruleset};
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

/// How one rule changed between two rulesets: the one rule diff that the
/// resolver's summary ([`RuleChange`], via [`RuleDiff::change`]) and the
/// site's revision and matter pages (its lines) are made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleDiff {
    /// The rule's stable id.
    pub id: String,
    /// Its number in the new ruleset (the old one if repealed).
    pub number: RuleNumber,
    /// Its title in the new ruleset (the old one if repealed).
    pub title: String,
    /// Added, repealed or changed.
    pub what: What,
    /// Its text, glossary and parameters, line by line with the words
    /// that changed marked: for an amendment, the changes; for a rule
    /// added or repealed, all of it (every line added, or every line
    /// removed), so a reader sees the whole rule they vote on.
    pub lines: Vec<Line>,
    /// The old and new text as Markdown (the body, then each glossary
    /// entry and parameter as a paragraph of its own), for a diff shown
    /// rendered rather than as source: for a rule added, the old text is
    /// empty; for a rule repealed, the new one. `None` when only its
    /// title or number changed.
    pub markdown: Option<(String, String)>,
}

/// What happened to a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum What {
    /// A new rule.
    Added,
    /// A rule that is gone.
    Repealed,
    /// Changed in place: at least one of these holds.
    Changed {
        /// Its old title, if renamed.
        renamed_from: Option<String>,
        /// Its old number, if renumbered.
        renumbered_from: Option<RuleNumber>,
        /// The title of the section it was in, if it moved to another.
        moved_from: Option<String>,
        /// Its text, glossary or parameters changed.
        amended: bool,
    },
}

impl RuleDiff {
    /// The change as the resolver names it.
    pub fn change(&self) -> RuleChange {
        let (number, title) = (self.number.clone(), self.title.clone());
        match &self.what {
            What::Added => RuleChange::Added { number, title },
            What::Repealed => RuleChange::Repealed { number, title },
            What::Changed {
                renamed_from,
                renumbered_from: Some(from),
                amended: false,
                ..
            } if renamed_from.is_none() => RuleChange::Renumbered {
                from: from.clone(),
                to: number,
                title,
            },
            What::Changed { renamed_from, .. } => RuleChange::Amended {
                number,
                title,
                renamed_from: renamed_from.clone(),
            },
        }
    }

    /// The change in words: `amended; renumbered from 2.3`.
    pub fn describe(&self) -> String {
        match &self.what {
            What::Added => "added".into(),
            What::Repealed => "repealed".into(),
            What::Changed {
                renamed_from,
                renumbered_from,
                moved_from,
                amended,
            } => {
                let mut parts = Vec::new();
                if *amended {
                    parts.push("amended".to_string());
                }
                if let Some(old) = renamed_from {
                    parts.push(format!("renamed from “{old}”"));
                }
                match (renumbered_from, moved_from) {
                    (Some(old), Some(section)) => {
                        parts.push(format!("moved from {old} in “{section}”"));
                    }
                    (Some(old), None) => parts.push(format!("renumbered from {old}")),
                    (None, _) => {}
                }
                parts.join("; ")
            }
        }
    }

    /// The change as a pending matter's card says it, before the vote
    /// (after the rule's number and title, the number an added rule will
    /// get): `a new rule, all its text added`, `repealed, all its text
    /// removed`, or as [`RuleDiff::describe`] says an amendment.
    pub fn describe_proposed(&self) -> String {
        match &self.what {
            What::Added => "a new rule, all its text added".into(),
            What::Repealed => "repealed, all its text removed".into(),
            What::Changed { .. } => self.describe(),
        }
    }

    /// The verb for what a pending matter would do to the rule, as the
    /// rule's page says it (`#5 would amend this rule`): `add`, `repeal`,
    /// `amend`, `rename`, `move` or `renumber`, the weightiest that holds.
    pub fn verb(&self) -> &'static str {
        match &self.what {
            What::Added => "add",
            What::Repealed => "repeal",
            What::Changed { amended: true, .. } => "amend",
            What::Changed {
                renamed_from: Some(_),
                ..
            } => "rename",
            What::Changed {
                moved_from: Some(_),
                ..
            } => "move",
            What::Changed { .. } => "renumber",
        }
    }
}

/// The rule-level changes from `old` to `new`, in the order of the new
/// ruleset, then repeals in the order of the old. Compare rendered
/// rulesets so a renamed term shows as the amendments it makes.
pub fn diff(old: &Ruleset, new: &Ruleset) -> Vec<RuleChange> {
    rule_diffs(old, new).iter().map(RuleDiff::change).collect()
}

/// Every rule that differs from `old` to `new`, with its line diff: the
/// new ruleset's rules in document order, then the repealed ones in their
/// old order.
pub fn rule_diffs(old: &Ruleset, new: &Ruleset) -> Vec<RuleDiff> {
    let before: BTreeMap<&str, &Rule> = old.rules.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut changes = Vec::new();
    for rule in &new.rules {
        let Some(was) = before.get(rule.id.as_str()) else {
            let text = full_text(new, rule);
            changes.push(RuleDiff {
                id: rule.id.to_string(),
                number: rule.number.clone(),
                title: rule.title.clone(),
                what: What::Added,
                lines: textdiff::lines("", &text.join("\n")),
                markdown: Some((String::new(), text.join("\n\n"))),
            });
            continue;
        };
        // Most rules of a revision are the ones before: told apart without
        // writing either's text out.
        let (parts_was, parts_now) = if same_text(old, was, new, rule) {
            (Vec::new(), Vec::new())
        } else {
            (full_text(old, was), full_text(new, rule))
        };
        let amended = parts_was != parts_now;
        let renamed_from = (was.title != rule.title).then(|| was.title.clone());
        let renumbered_from = (was.number != rule.number).then(|| was.number.clone());
        let moved_from = (was.section != rule.section)
            .then(|| old.section(was.section).map(|s| s.title.clone()))
            .flatten();
        if amended || renamed_from.is_some() || renumbered_from.is_some() {
            changes.push(RuleDiff {
                id: rule.id.to_string(),
                number: rule.number.clone(),
                title: rule.title.clone(),
                lines: if amended {
                    textdiff::lines(&parts_was.join("\n"), &parts_now.join("\n"))
                } else {
                    Vec::new()
                },
                markdown: amended.then(|| (parts_was.join("\n\n"), parts_now.join("\n\n"))),
                what: What::Changed {
                    renamed_from,
                    renumbered_from,
                    moved_from,
                    amended,
                },
            });
        }
    }
    for rule in &old.rules {
        if new.get(rule.id.as_str()).is_none() {
            let text = full_text(old, rule);
            changes.push(RuleDiff {
                id: rule.id.to_string(),
                number: rule.number.clone(),
                title: rule.title.clone(),
                what: What::Repealed,
                lines: textdiff::lines(&text.join("\n"), ""),
                markdown: Some((text.join("\n\n"), String::new())),
            });
        }
    }
    changes
}

/// Whether `was` of `old` and `rule` of `new` have the same [`full_text`],
/// told without writing it: the same body, glossary entries and
/// parameters. (False may still mean the same text, a parameter's value
/// written otherwise, say: [`full_text`] then tells. A float is left to it
/// too: `0.0` equals `-0.0`, but they are written apart.)
fn same_text(old: &Ruleset, was: &Rule, new: &Ruleset, rule: &Rule) -> bool {
    fn params<'r>(ruleset: &'r Ruleset, id: &RuleId) -> Vec<(&'r String, &'r toml::Value)> {
        ruleset
            .params
            .iter()
            .filter(|(_, p)| p.rule == *id)
            .map(|(name, p)| (name, &p.value))
            .collect()
    }
    let (before, after) = (params(old, &was.id), params(new, &rule.id));
    was.body.trim_end() == rule.body.trim_end()
        && was.terms.len() == rule.terms.len()
        && was
            .terms
            .iter()
            .zip(&rule.terms)
            .all(|(a, b)| a.term == b.term && a.definition.trim() == b.definition.trim())
        && before == after
        && !before.iter().any(|(_, v)| super::holds_float(v, &|_| true))
}

/// What an amendment can change of a rule, in parts: its text, then its
/// glossary entries, then its parameters (`enact_quorum_hours = 12`), so a
/// change of parameters alone shows too. Joined by lines for the source
/// diff, by blank lines for the rendered one (each part a paragraph).
fn full_text(ruleset: &Ruleset, rule: &Rule) -> Vec<String> {
    let mut parts = vec![rule.body.trim_end().to_string()];
    for t in &rule.terms {
        parts.push(format!("{}: {}", t.term, t.definition.trim()));
    }
    for (name, p) in ruleset.params.iter().filter(|(_, p)| p.rule == rule.id) {
        parts.push(format!("{name} = {}", p.value));
    }
    parts
}

/// How many characters a change from `old` to `new` files alters, if it is
/// a typo fix at all: only the bodies of existing rule files change, with
/// the same number of lines, front matter stays as it was, and no word
/// that carries meaning changes (see [`changes_meaning`]); `defined` holds
/// the game's defined words, lowercase. `None` when the change is of
/// another kind.
pub fn typo_fix_size(
    old: &[SourceFile],
    new: &[SourceFile],
    defined: &BTreeSet<String>,
) -> Option<usize> {
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
        for (a, b) in body_was.lines().zip(body_now.lines()) {
            if changes_meaning(a, b, defined) {
                return None;
            }
            size += edit_distance(a, b);
        }
    }
    Some(size)
}

/// Words that state a number: a change to one is never a typo fix.
const NUMBER_WORDS: &[&str] = &[
    "zero",
    "no",
    "none",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "thousand",
    "million",
    "once",
    "twice",
    "thrice",
    "half",
    "halves",
    "quarter",
    "double",
    "triple",
    "dozen",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "single",
    "both",
    "all",
    "every",
    "each",
    "any",
    "more",
    "less",
    "fewer",
    "most",
    "least",
];

/// Prefixes that turn a word into its opposite: "legal" made "illegal"
/// is two letters, and no typo.
const NEGATING_PREFIXES: &[&str] = &["un", "in", "im", "il", "ir", "dis", "non"];

/// Beginnings that oppose each other: "increase" made "decrease", "include"
/// made "exclude", "maximum" made "minimum" are two letters, and no typo.
const OPPOSED_BEGINNINGS: &[(&str, &str)] = &[
    ("in", "de"),
    ("in", "ex"),
    ("im", "ex"),
    ("max", "min"),
    ("a", "de"),
    ("up", "un"),
    ("pre", "post"),
    ("over", "under"),
];

/// Words that deny: "not" made "now" is one letter, and no typo.
const NEGATING_WORDS: &[&str] = &[
    "not", "never", "nor", "neither", "nothing", "nobody", "nowhere", "cannot", "t",
];

/// Signs that carry meaning outside words: a comparison, a sign, a unit
/// of money or share, and the marks that strike text through or hide it
/// (`~~`, `<!--`). Changing one is never a typo fix.
const MEANINGFUL_SIGNS: &[char] = &[
    '<', '>', '=', '+', '-', '\u{2212}', '±', '%', '$', '€', '£', '~', '`',
];

/// Whether changing line `a` into `b` changes a word that carries meaning
/// as no typo does. A typo fix corrects the spelling of words in place:
/// it adds or removes no word ("may give" made "may never give" is two
/// words more), and turns each word it changes into one at most two
/// letters away (a letter added, dropped, changed, or two swapped; one in
/// a word of three letters or fewer), not by a prefix that negates it. It
/// changes no number (any word with a digit, or a number word such as
/// "three" or "twice"), no word that denies ("not", "never"), no sign
/// that carries meaning (`<`, `=`, `-`, `%`, `~`, ...), nor a word of a term
/// the game defines (`defined`: its glossary, its player and emperor
/// terms, its variables and parameters, lowercase), however little. It
/// cannot know every word's opposite (it knows "increase" and "decrease",
/// "include" and "exclude", and a few more beginnings): the status
/// names each push it took as a typo fix, for the voters to read.
pub fn changes_meaning(a: &str, b: &str, defined: &BTreeSet<String>) -> bool {
    let words = |line: &str| -> Vec<String> {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let signs = |line: &str| -> Vec<char> {
        let mut signs: Vec<char> = line
            .chars()
            .filter(|c| MEANINGFUL_SIGNS.contains(c))
            .collect();
        signs.sort_unstable();
        signs
    };
    let (left, right) = (words(a), words(b));
    if left.len() != right.len() || signs(a) != signs(b) {
        return true;
    }
    let meaningful = |w: &String| {
        let singular = w.strip_suffix('s').unwrap_or(w);
        w.chars().any(|c| c.is_ascii_digit())
            || NUMBER_WORDS.contains(&w.as_str())
            || NEGATING_WORDS.contains(&w.as_str())
            || defined.contains(w)
            || defined.contains(singular)
    };
    left.iter()
        .zip(&right)
        .filter(|(l, r)| l != r)
        .any(|(l, r)| meaningful(l) || meaningful(r) || !misspelling(l, r))
}

/// Whether `a` and `b` (lowercase, different) read as one word spelt two
/// ways: at most two letters apart, and not by a prefix that negates or a
/// beginning swapped for its opposite.
fn misspelling(a: &str, b: &str) -> bool {
    let negated = |w: &str, of: &str| {
        NEGATING_PREFIXES
            .iter()
            .any(|p| w.strip_prefix(p) == Some(of))
            || OPPOSED_BEGINNINGS.iter().any(|(x, y)| {
                matches!((w.strip_prefix(x), of.strip_prefix(y)), (Some(p), Some(q)) if p == q && !p.is_empty())
            })
    };
    let (a_len, b_len) = (a.chars().count(), b.chars().count());
    let distance = letters_apart(a, b);
    distance <= 2 && distance * 2 <= a_len.max(b_len) && !negated(a, b) && !negated(b, a)
}

/// How many letters apart two words are: letters added, dropped or
/// changed, and two neighbours swapped, each one.
fn letters_apart(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // d[i][j]: the distance between a[..i] and b[..j].
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

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
    fn one_rule_diff_describes_and_shows_every_change() {
        let old = [
            rule("a", "A", 10, "one"),
            rule("b", "B", 20, "two"),
            rule("c", "C", 30, "x"),
        ];
        let new = [
            rule("n", "New", 5, "hi"),
            rule("a", "A", 10, "one"),
            rule("b", "Bee", 20, "two\nthree"),
        ];
        let (old, new) = (Ruleset::parse(&old).0, Ruleset::parse(&new).0);
        let found: Vec<(String, String)> = rule_diffs(&old, &new)
            .into_iter()
            .map(|c| (c.id.clone(), c.describe()))
            .collect();
        let expected = [
            ("n", "added"),
            ("a", "renumbered from 1.1"),
            ("b", "amended; renamed from “B”; renumbered from 1.2"),
            ("c", "repealed"),
        ];
        assert_eq!(found, expected.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn an_added_or_repealed_rule_carries_its_whole_text_and_a_move_is_said() {
        let old = [rule("a", "A", 10, "Keep."), rule("b", "B", 20, "Go away.")];
        let new = [
            rule("a", "A", 10, "Keep."),
            rule("n", "N", 30, "Brand new.\n\nTwo paragraphs."),
        ];
        let (old, new) = (Ruleset::parse(&old).0, Ruleset::parse(&new).0);
        let diffs = rule_diffs(&old, &new);
        let added = diffs.iter().find(|d| d.id == "n").expect("added");
        assert_eq!(
            added.markdown,
            Some((String::new(), "Brand new.\n\nTwo paragraphs.".into()))
        );
        assert!(added.lines.iter().all(|l| l.kind == "add"), "{added:?}");
        assert_eq!(added.describe_proposed(), "a new rule, all its text added");
        assert_eq!(added.verb(), "add");
        let repealed = diffs.iter().find(|d| d.id == "b").expect("repealed");
        assert_eq!(repealed.markdown, Some(("Go away.".into(), String::new())));
        assert!(repealed.lines.iter().all(|l| l.kind == "del"));
        assert_eq!(repealed.verb(), "repeal");

        let section = |kind: &str, title: &str| {
            SourceFile::new(
                format!("rules/{kind}/_section.md"),
                format!("+++\ntitle = \"{title}\"\n+++\n"),
            )
        };
        let moved_rule = |dir: &str| {
            SourceFile::new(
                format!("rules/{dir}/m.md"),
                "+++\nid = \"m\"\ntitle = \"M\"\n+++\nMoves.\n",
            )
        };
        let files = |dir: &str| {
            vec![
                section("core", "Core"),
                section("dynastic", "Dynastic"),
                rule("a", "A", 10, "Keep."),
                moved_rule(dir),
            ]
        };
        let (was, now) = (
            Ruleset::parse(&files("core")).0,
            Ruleset::parse(&files("dynastic")).0,
        );
        let diffs = rule_diffs(&was, &now);
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert_eq!(diffs[0].describe(), "moved from 1.2 in “Core”");
        assert_eq!(diffs[0].verb(), "move");
        assert_eq!(diffs[0].change().to_string(), "renumbers 1.2 M to 2.1");
    }

    #[test]
    fn a_change_of_parameters_alone_is_an_amendment_with_lines() {
        let with = |hours: u32| {
            let text = format!(
                "+++\nid = \"q\"\ntitle = \"Quorum\"\n\n[params]\nenact_quorum_hours = {hours}\n+++\nWait.\n"
            );
            Ruleset::parse(&[SourceFile::new("rules/core/q.md", text)]).0
        };
        let diffs = rule_diffs(&with(12), &with(24));
        assert_eq!(diffs.len(), 1);
        assert_eq!(diffs[0].change().to_string(), "amends 1.1 Quorum");
        let lines: Vec<String> = diffs[0].lines.iter().map(Line::text).collect();
        assert_eq!(
            lines,
            [
                "Wait.",
                "enact_quorum_hours = 12",
                "enact_quorum_hours = 24"
            ]
        );
        let (was, now) = diffs[0].markdown.clone().unwrap_or_default();
        assert_eq!(was, "Wait.\n\nenact_quorum_hours = 12", "a paragraph each");
        assert!(now.ends_with("\n\nenact_quorum_hours = 24"));
    }

    #[test]
    fn a_typo_fix_is_a_small_change_to_rule_bodies_only() {
        let none = BTreeSet::new();
        let old = [rule("a", "Alpha", 10, "Each player may wind once.")];
        let fixed = [rule("a", "Alpha", 10, "Each player may wind once!")];
        assert_eq!(typo_fix_size(&old, &fixed, &none), Some(1));
        let respelt = [rule("a", "Alpha", 10, "Each palyer mya wnid once.")];
        assert_eq!(typo_fix_size(&old, &respelt, &none), Some(6));
        let reworded = [rule(
            "a",
            "Alpha",
            10,
            "Each player may wind once, at dawn.",
        )];
        assert_eq!(
            typo_fix_size(&old, &reworded, &none),
            None,
            "words were added"
        );
        let retitled = [rule("a", "Alfa", 10, "Each player may wind once.")];
        assert_eq!(
            typo_fix_size(&old, &retitled, &none),
            None,
            "front matter changed"
        );
        let more = [old[0].clone(), rule("b", "Beta", 20, "B.")];
        assert_eq!(typo_fix_size(&old, &more, &none), None, "a file was added");
        let state_old = [SourceFile::new("state/variables.toml", "a = 1\n")];
        let state_new = [SourceFile::new("state/variables.toml", "a = 2\n")];
        assert_eq!(
            typo_fix_size(&state_old, &state_new, &none),
            None,
            "state is never a typo"
        );
    }

    #[test]
    fn a_number_digit_or_defined_term_is_never_a_typo() {
        let defined: BTreeSet<String> = ["cog", "spring", "may"].map(String::from).into();
        let old = [rule(
            "a",
            "Alpha",
            10,
            "It costs three Cogs and two Springs.",
        )];
        let fewer = [rule("a", "Alpha", 10, "It costs two Cogs and one Spring.")];
        assert_eq!(
            typo_fix_size(&old, &fewer, &defined),
            None,
            "eight characters, but numbers"
        );
        let digits = [rule("a", "Alpha", 10, "It costs 3 Cogs and two Springs.")];
        assert_eq!(typo_fix_size(&old, &digits, &defined), None);
        let term = [rule(
            "a",
            "Alpha",
            10,
            "It costs three Cogs and two Sprongs.",
        )];
        assert_eq!(
            typo_fix_size(&old, &term, &defined),
            None,
            "a defined term misspelt"
        );
        let fix = [rule(
            "a",
            "Alpha",
            10,
            "It cost three Cogs and two Springs.",
        )];
        assert_eq!(typo_fix_size(&old, &fix, &defined), Some(1));
        assert!(changes_meaning("You may act.", "You must act.", &defined));
        assert!(!changes_meaning(
            "Teh cogs turn.",
            "The cogs turn.",
            &defined
        ));
    }

    #[test]
    fn a_word_added_removed_negated_or_replaced_is_never_a_typo() {
        let none = BTreeSet::new();
        for (was, now) in [
            (
                "A Tinkerer may give Springs.",
                "A Tinkerer may never give Springs.",
            ),
            (
                "A Tinkerer may not give Springs.",
                "A Tinkerer may give Springs.",
            ),
            ("Such a move is legal.", "Such a move is illegal."),
            ("Such a move is able.", "Such a move is unable."),
            ("It is allowed.", "It is disallowed."),
            ("You can wind.", "You can't wind."),
            ("You may wind and oil.", "You may wind or oil."),
            ("You may wind.", "You must wind."),
            ("You may not give.", "You may now give."),
            ("It costs more than 3.", "It costs less than 3."),
            ("At least > 3.", "At least < 3."),
            ("A cost of -2.", "A cost of 2."),
            ("You may give.", "You may ~~give~~."),
            ("Springs increase.", "Springs decrease."),
            ("Oil is included.", "Oil is excluded."),
            ("The maximum is set.", "The minimum is set."),
            ("Prices ascend.", "Prices descend."),
            ("Goods import.", "Goods export."),
        ] {
            assert!(changes_meaning(was, now, &none), "{was} → {now}");
            assert!(changes_meaning(now, was, &none), "{now} → {was}");
        }
        for (was, now) in [
            ("Teh cogs turn.", "The cogs turn."),
            ("It is recieved.", "It is received."),
            ("They are seperate.", "They are separate."),
            ("An occurence.", "An occurrence."),
            ("a cog", "an cog"),
            ("Wind, then oil.", "Wind; then oil."),
            ("It is inclduded.", "It is included."),
            ("A decrese.", "A decrease."),
        ] {
            assert!(!changes_meaning(was, now, &none), "{was} → {now}");
        }
    }

    #[test]
    fn letters_apart_counts_a_swap_as_one() {
        assert_eq!(letters_apart("teh", "the"), 1);
        assert_eq!(letters_apart("recieve", "receive"), 1);
        assert_eq!(letters_apart("kitten", "sitting"), 3);
        assert_eq!(letters_apart("", "ab"), 2);
        assert_eq!(letters_apart("naïve", "naive"), 1);
    }

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("recieve", "receive"), 2);
        assert_eq!(edit_distance("naïve", "naive"), 1);
    }
}
