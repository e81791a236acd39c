//! Arranging parsed rule files into a numbered ruleset. Pure.
//!
//! Numbers come from position only: sections by their `order`, siblings by
//! `order` then id (rules without an `order` after those with one). Nobody
//! types a number, so inserting or repealing a rule renumbers the rest and
//! the ids, which links and records use, stay put.

use std::collections::{BTreeMap, BTreeSet};

use super::parse::{RuleFile, SectionFile};
use super::{Param, Rule, RuleId, RuleNumber, Ruleset, Section, SectionKind};
use crate::error::{Diagnostic, Diagnostics};

/// Builds the ruleset from its section files and rule files.
///
/// Sections named by a rule's directory but lacking a `_section.md` take
/// their default title and order. Problems (duplicate ids, missing or
/// cyclic parents, a parameter declared twice) are reported; the rules
/// involved are still numbered, as top-level rules, so later checks run.
pub fn assemble(
    section_files: BTreeMap<SectionKind, SectionFile>,
    rule_files: Vec<(SectionKind, RuleFile)>,
) -> (Ruleset, Diagnostics) {
    // Problems found before numbering wait here for their rule's number.
    let mut pending: Vec<(RuleId, Diagnostic)> = Vec::new();
    let sections = number_sections(&section_files, &rule_files);
    let rule_files = drop_duplicate_ids(rule_files, &mut pending);
    let by_id: BTreeMap<&RuleId, usize> = rule_files.iter().enumerate().map(|(i, (_, r))| (&r.id, i)).collect();

    // Resolve parents; an unusable parent makes the rule top-level.
    let mut parent_of: Vec<Option<usize>> = Vec::with_capacity(rule_files.len());
    for (kind, rule) in &rule_files {
        parent_of.push(rule.parent.as_ref().and_then(|(name, line)| {
            let mut problem = |message: String| {
                pending.push((rule.id.clone(), Diagnostic::new(&rule.path, *line, message)));
            };
            match by_id.iter().find(|(id, _)| id.as_str() == name).map(|(_, &i)| i) {
                None => {
                    problem(format!("the parent rule `{name}` does not exist"));
                    None
                }
                Some(i) if rule_files[i].1.id == rule.id => {
                    problem("a rule cannot be its own parent".into());
                    None
                }
                Some(i) if rule_files[i].0 != *kind => {
                    problem(format!(
                        "the parent rule `{name}` is in the {} section, not {kind}",
                        rule_files[i].0
                    ));
                    None
                }
                Some(i) => Some(i),
            }
        }));
    }

    let mut ruleset = Ruleset { sections, ..Ruleset::default() };
    let mut numbered = vec![false; rule_files.len()];
    let tree = Tree { rules: &rule_files, parent_of: &parent_of };
    for section in &ruleset.sections.clone() {
        let in_section: Vec<usize> = (0..rule_files.len()).filter(|&i| rule_files[i].0 == section.kind).collect();
        let roots: Vec<usize> = in_section.iter().copied().filter(|&i| parent_of[i].is_none()).collect();
        let mut next = 0;
        for root in sorted(&rule_files, roots) {
            next += 1;
            tree.push(&mut ruleset, root, vec![section.number, next], &mut numbered);
        }
        // Rules never reached from a root sit on a parent cycle.
        let unreached: Vec<usize> = in_section.into_iter().filter(|&i| !numbered[i]).collect();
        for i in unreached {
            let (_, rule) = &rule_files[i];
            let line = rule.parent.as_ref().map_or(rule.id_line, |p| p.1);
            pending.push((rule.id.clone(), Diagnostic::new(&rule.path, line, "the rule's parents form a cycle")));
            next += 1;
            tree.push_cycle(&mut ruleset, i, vec![section.number, next], &mut numbered);
        }
    }
    let mut problems = Diagnostics::new();
    for (id, d) in pending {
        let label = ruleset.get(id.as_str()).map(Rule::label);
        problems.push(match label {
            Some(label) => d.in_rule(label),
            None => d,
        });
    }
    collect_params(&mut ruleset, &rule_files, &mut problems);
    (ruleset, problems)
}

fn number_sections(
    files: &BTreeMap<SectionKind, SectionFile>,
    rules: &[(SectionKind, RuleFile)],
) -> Vec<Section> {
    let kinds: BTreeSet<SectionKind> = files.keys().copied().chain(rules.iter().map(|(k, _)| *k)).collect();
    let mut sections: Vec<(i64, SectionKind)> = kinds
        .into_iter()
        .map(|k| (files.get(&k).map_or(k.defaults().1, |f| f.order), k))
        .collect();
    sections.sort();
    sections
        .into_iter()
        .zip(1..)
        .map(|((_, kind), number)| {
            let file = files.get(&kind);
            Section {
                kind,
                number,
                title: file.map_or_else(|| kind.defaults().0.to_string(), |f| f.title.clone()),
                intro: file.map(|f| f.intro.clone()).unwrap_or_default(),
                intro_line: file.map_or(1, |f| f.intro_line),
                path: file.map(|f| f.path.clone()),
            }
        })
        .collect()
}

fn drop_duplicate_ids(
    rules: Vec<(SectionKind, RuleFile)>,
    pending: &mut Vec<(RuleId, Diagnostic)>,
) -> Vec<(SectionKind, RuleFile)> {
    let mut seen: BTreeMap<RuleId, String> = BTreeMap::new();
    let mut kept = Vec::with_capacity(rules.len());
    for (kind, rule) in rules {
        if let Some(first) = seen.get(&rule.id) {
            let message = format!("the rule id `{}` is already used by {first}", rule.id);
            pending.push((rule.id.clone(), Diagnostic::new(&rule.path, rule.id_line, message)));
        } else {
            seen.insert(rule.id.clone(), rule.path.clone());
            kept.push((kind, rule));
        }
    }
    kept
}

/// Sorts rule indices as siblings are ordered: by `order`, unordered last, then id.
fn sorted(rules: &[(SectionKind, RuleFile)], mut indices: Vec<usize>) -> Vec<usize> {
    indices.sort_by(|&a, &b| {
        let key = |i: usize| (rules[i].1.order.is_none(), rules[i].1.order, &rules[i].1.id);
        key(a).cmp(&key(b))
    });
    indices
}

/// The parsed rules with their resolved parents, ready to be numbered.
struct Tree<'a> {
    rules: &'a [(SectionKind, RuleFile)],
    parent_of: &'a [Option<usize>],
}

impl Tree<'_> {
    /// The subrules of rule `i`, in order.
    fn children(&self, i: usize) -> Vec<usize> {
        let direct = (0..self.rules.len()).filter(|&c| self.parent_of[c] == Some(i)).collect();
        sorted(self.rules, direct)
    }

    /// Appends rule `root` numbered `number`, then its subrules depth first.
    fn push(&self, ruleset: &mut Ruleset, root: usize, number: Vec<u32>, numbered: &mut [bool]) {
        let mut stack = vec![(root, number)];
        while let Some((i, number)) = stack.pop() {
            let children: Vec<usize> = self.children(i).into_iter().filter(|&c| !numbered[c]).collect();
            numbered[i] = true;
            for (n, &child) in children.iter().enumerate().rev() {
                let mut child_number = number.clone();
                child_number.push(u32::try_from(n + 1).unwrap_or(u32::MAX));
                stack.push((child, child_number));
            }
            ruleset.rules.push(self.rule(i, number, self.parent_of[i], &children));
        }
    }

    /// Appends a rule on a parent cycle as a top-level rule, with no subrules.
    fn push_cycle(&self, ruleset: &mut Ruleset, i: usize, number: Vec<u32>, numbered: &mut [bool]) {
        numbered[i] = true;
        ruleset.rules.push(self.rule(i, number, None, &[]));
    }

    fn rule(&self, i: usize, number: Vec<u32>, parent: Option<usize>, children: &[usize]) -> Rule {
        let (kind, file) = &self.rules[i];
        Rule {
            id: file.id.clone(),
            number: RuleNumber::new(number),
            section: *kind,
            title: file.title.clone(),
            body: file.body.clone(),
            parent: parent.map(|p| self.rules[p].1.id.clone()),
            children: children.iter().map(|&c| self.rules[c].1.id.clone()).collect(),
            path: file.path.clone(),
            body_line: file.body_line,
            terms: file.terms.clone(),
        }
    }
}

fn collect_params(ruleset: &mut Ruleset, rules: &[(SectionKind, RuleFile)], problems: &mut Diagnostics) {
    let files: BTreeMap<&RuleId, &RuleFile> = rules.iter().map(|(_, r)| (&r.id, r)).collect();
    for rule in &ruleset.rules {
        for (name, (value, line)) in &files[&rule.id].params {
            if let Some(first) = ruleset.params.get(name) {
                problems.push(
                    Diagnostic::new(
                        &rule.path,
                        *line,
                        format!("the parameter `{name}` is already declared at {}:{}", first.path, first.line),
                    )
                    .in_rule(rule.label()),
                );
                continue;
            }
            ruleset.params.insert(
                name.clone(),
                Param { value: value.clone(), rule: rule.id.clone(), path: rule.path.clone(), line: *line },
            );
        }
    }
}
