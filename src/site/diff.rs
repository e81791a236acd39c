//! Rule-level differences between two rulesets, by stable id: what was
//! added, repealed, renamed, renumbered or amended, with a line diff of
//! amended text.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::ruleset::{Rule, Ruleset};

/// How one rule changed between two revisions.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RuleChange {
    pub(crate) id: String,
    /// `number title` in the newer ruleset (the older one if repealed).
    pub(crate) label: String,
    pub(crate) kind: ChangeKind,
    /// For an amendment: the body, line by line.
    pub(crate) lines: Vec<Line>,
}

/// What happened to a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ChangeKind {
    Added,
    Repealed,
    /// Changed in place: any of these may be true, at least one is.
    Changed {
        renamed_from: Option<String>,
        renumbered_from: Option<String>,
        amended: bool,
    },
}

impl ChangeKind {
    /// The change in words: `amended; renumbered from 2.3`.
    pub(crate) fn describe(&self) -> String {
        match self {
            ChangeKind::Added => "added".into(),
            ChangeKind::Repealed => "repealed".into(),
            ChangeKind::Changed {
                renamed_from,
                renumbered_from,
                amended,
            } => {
                let mut parts = Vec::new();
                if *amended {
                    parts.push("amended".to_string());
                }
                if let Some(old) = renamed_from {
                    parts.push(format!("renamed from “{old}”"));
                }
                if let Some(old) = renumbered_from {
                    parts.push(format!("renumbered from {old}"));
                }
                parts.join("; ")
            }
        }
    }
}

/// One line of a line diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Line {
    /// add, del or same.
    pub(crate) kind: &'static str,
    /// `+`, `-` or a space; `…` marks skipped unchanged lines.
    pub(crate) sign: &'static str,
    pub(crate) text: String,
}

/// Every rule that differs from `old` to `new`: the newer ruleset's rules
/// in document order, then the repealed ones in their old order.
pub(crate) fn diff(old: &Ruleset, new: &Ruleset) -> Vec<RuleChange> {
    let before: BTreeMap<&str, &Rule> = old.rules.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut changes = Vec::new();
    for rule in &new.rules {
        let label = format!("{} {}", rule.number, rule.title);
        let Some(prev) = before.get(rule.id.as_str()) else {
            changes.push(RuleChange {
                id: rule.id.to_string(),
                label,
                kind: ChangeKind::Added,
                lines: Vec::new(),
            });
            continue;
        };
        let amended = prev.body != rule.body || prev.terms != rule.terms;
        let renamed_from = (prev.title != rule.title).then(|| prev.title.clone());
        let renumbered_from = (prev.number != rule.number).then(|| prev.number.to_string());
        if amended || renamed_from.is_some() || renumbered_from.is_some() {
            changes.push(RuleChange {
                id: rule.id.to_string(),
                label,
                lines: if amended {
                    lines(&prev.body, &rule.body)
                } else {
                    Vec::new()
                },
                kind: ChangeKind::Changed {
                    renamed_from,
                    renumbered_from,
                    amended,
                },
            });
        }
    }
    for rule in &old.rules {
        if new.get(rule.id.as_str()).is_none() {
            changes.push(RuleChange {
                id: rule.id.to_string(),
                label: format!("{} {}", rule.number, rule.title),
                kind: ChangeKind::Repealed,
                lines: Vec::new(),
            });
        }
    }
    changes
}

/// Unchanged lines kept around each change.
const CONTEXT: usize = 2;
/// Above this many line pairs, show the texts whole rather than align them.
const MAX_CELLS: usize = 4_000_000;

/// A line diff of two texts (longest common subsequence), with unchanged
/// runs longer than the context folded to `…`.
pub(crate) fn lines(old: &str, new: &str) -> Vec<Line> {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let full = if a.len().saturating_mul(b.len()) > MAX_CELLS {
        let mut out: Vec<Line> = a.iter().map(|l| line("del", l)).collect();
        out.extend(b.iter().map(|l| line("add", l)));
        out
    } else {
        align(&a, &b)
    };
    fold(&full)
}

fn line(kind: &'static str, text: &str) -> Line {
    let sign = match kind {
        "add" => "+",
        "del" => "-",
        _ => " ",
    };
    Line {
        kind,
        sign,
        text: text.to_string(),
    }
}

fn align(a: &[&str], b: &[&str]) -> Vec<Line> {
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push(line("same", a[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push(line("del", a[i]));
            i += 1;
        } else {
            out.push(line("add", b[j]));
            j += 1;
        }
    }
    out
}

fn fold(lines: &[Line]) -> Vec<Line> {
    let near_change = |i: usize| {
        let lo = i.saturating_sub(CONTEXT);
        let hi = (i + CONTEXT + 1).min(lines.len());
        lines[lo..hi].iter().any(|l| l.kind != "same")
    };
    let keep: Vec<bool> = (0..lines.len()).map(near_change).collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if keep[i] {
            out.push(l.clone());
        } else if i == 0 || keep[i - 1] {
            out.push(Line {
                kind: "same",
                sign: "…",
                text: String::new(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    fn ruleset(rules: &[(&str, &str, &str)]) -> Ruleset {
        let files: Vec<SourceFile> = rules
            .iter()
            .enumerate()
            .map(|(i, (id, title, body))| {
                SourceFile::new(
                    format!("rules/core/{id}.md"),
                    format!("+++\nid = \"{id}\"\ntitle = \"{title}\"\norder = {i}\n+++\n{body}"),
                )
            })
            .collect();
        let (ruleset, problems) = Ruleset::parse(&files);
        assert!(problems.is_empty(), "{problems}");
        ruleset
    }

    #[test]
    fn finds_added_repealed_renamed_renumbered_and_amended_rules() {
        let old = ruleset(&[("a", "A", "one\n"), ("b", "B", "two\n"), ("c", "C", "x\n")]);
        let new = ruleset(&[
            ("n", "New", "hi\n"),
            ("a", "A", "one\n"),
            ("b", "Bee", "two\nthree\n"),
        ]);
        let found: Vec<(String, String)> = diff(&old, &new)
            .into_iter()
            .map(|c| (c.id, c.kind.describe()))
            .collect();
        let expected = [
            ("n", "added"),
            ("a", "renumbered from 1.1"),
            ("b", "amended; renamed from “B”; renumbered from 1.2"),
            ("c", "repealed"),
        ];
        assert_eq!(found, expected.map(|(a, b)| (a.to_string(), b.to_string())));
        assert!(diff(&new, &new).is_empty());
    }

    #[test]
    fn a_line_diff_keeps_context_and_folds_the_rest() {
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let new = "1\n2\n3\n4\n5\nsix\n7\n8\n";
        let shown: Vec<String> = lines(old, new)
            .into_iter()
            .map(|l| format!("{}{}", l.sign, l.text))
            .collect();
        assert_eq!(shown, ["…", " 4", " 5", "-6", "+six", " 7", " 8"]);
    }
}
