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
    section_files: &BTreeMap<SectionKind, SectionFile>,
    rule_files: Vec<(SectionKind, RuleFile)>,
) -> (Ruleset, Diagnostics) {
    // Problems found before numbering wait here for their rule's number.
    let mut pending: Vec<(RuleId, Diagnostic)> = Vec::new();
    let mut problems = Diagnostics::new();
    let sections = number_sections(section_files, &rule_files);
    let rule_files = drop_duplicate_ids(rule_files, &mut problems);
    let by_id: BTreeMap<&RuleId, usize> = rule_files
        .iter()
        .enumerate()
        .map(|(i, (_, r))| (&r.id, i))
        .collect();

    // Resolve parents; an unusable parent makes the rule top-level.
    let mut parent_of: Vec<Option<usize>> = Vec::with_capacity(rule_files.len());
    for (kind, rule) in &rule_files {
        parent_of.push(rule.parent.as_ref().and_then(|(name, line)| {
            let mut problem = |message: String| {
                pending.push((rule.id.clone(), Diagnostic::new(&rule.path, *line, message)));
            };
            match by_id
                .iter()
                .find(|(id, _)| id.as_str() == name)
                .map(|(_, &i)| i)
            {
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

    let mut ruleset = Ruleset {
        sections,
        ..Ruleset::default()
    };
    let mut numbered = vec![false; rule_files.len()];
    let tree = Tree {
        rules: &rule_files,
        parent_of: &parent_of,
    };
    for section in &ruleset.sections.clone() {
        let in_section: Vec<usize> = (0..rule_files.len())
            .filter(|&i| rule_files[i].0 == section.kind)
            .collect();
        let roots: Vec<usize> = in_section
            .iter()
            .copied()
            .filter(|&i| parent_of[i].is_none())
            .collect();
        let mut next = 0;
        for root in sorted(&rule_files, roots) {
            next += 1;
            tree.push(
                &mut ruleset,
                root,
                vec![section.number, next],
                &mut numbered,
            );
        }
        // Rules never reached from a root sit on a parent cycle.
        let unreached: Vec<usize> = in_section.into_iter().filter(|&i| !numbered[i]).collect();
        for i in unreached {
            let (_, rule) = &rule_files[i];
            let line = rule.parent.as_ref().map_or(rule.id_line, |p| p.1);
            pending.push((
                rule.id.clone(),
                Diagnostic::new(&rule.path, line, "the rule's parents form a cycle"),
            ));
            next += 1;
            tree.push_cycle(&mut ruleset, i, vec![section.number, next], &mut numbered);
        }
    }
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
    let kinds: BTreeSet<SectionKind> = files
        .keys()
        .copied()
        .chain(rules.iter().map(|(k, _)| *k))
        .collect();
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
    problems: &mut Diagnostics,
) -> Vec<(SectionKind, RuleFile)> {
    let mut seen: BTreeMap<RuleId, String> = BTreeMap::new();
    let mut kept = Vec::with_capacity(rules.len());
    for (kind, rule) in rules {
        if let Some(first) = seen.get(&rule.id) {
            let message = format!("the rule id `{}` is already used by {first}", rule.id);
            // Not labelled with a number: the duplicate is left out of the ruleset.
            problems.push(Diagnostic::new(&rule.path, rule.id_line, message));
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
        let direct = (0..self.rules.len())
            .filter(|&c| self.parent_of[c] == Some(i))
            .collect();
        sorted(self.rules, direct)
    }

    /// Appends rule `root` numbered `number`, then its subrules depth first.
    fn push(&self, ruleset: &mut Ruleset, root: usize, number: Vec<u32>, numbered: &mut [bool]) {
        let mut stack = vec![(root, number)];
        while let Some((i, number)) = stack.pop() {
            let children: Vec<usize> = self
                .children(i)
                .into_iter()
                .filter(|&c| !numbered[c])
                .collect();
            numbered[i] = true;
            for (n, &child) in children.iter().enumerate().rev() {
                let mut child_number = number.clone();
                child_number.push(u32::try_from(n + 1).unwrap_or(u32::MAX));
                stack.push((child, child_number));
            }
            ruleset
                .rules
                .push(self.rule(i, number, self.parent_of[i], &children));
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
            children: children
                .iter()
                .map(|&c| self.rules[c].1.id.clone())
                .collect(),
            path: file.path.clone(),
            body_line: file.body_line,
            terms: file.terms.clone(),
        }
    }
}

fn collect_params(
    ruleset: &mut Ruleset,
    rules: &[(SectionKind, RuleFile)],
    problems: &mut Diagnostics,
) {
    let files: BTreeMap<&RuleId, &RuleFile> = rules.iter().map(|(_, r)| (&r.id, r)).collect();
    for rule in &ruleset.rules {
        for (name, (value, line)) in &files[&rule.id].params {
            if let Some(first) = ruleset.params.get(name) {
                problems.push(
                    Diagnostic::new(
                        &rule.path,
                        *line,
                        format!(
                            "the parameter `{name}` is already declared at {}:{}",
                            first.path, first.line
                        ),
                    )
                    .in_rule(rule.label()),
                );
                continue;
            }
            ruleset.params.insert(
                name.clone(),
                Param {
                    value: value.clone(),
                    rule: rule.id.clone(),
                    path: rule.path.clone(),
                    line: *line,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ruleset::Ruleset;
    use crate::source::SourceFile;

    /// A rule file with the given front-matter lines after id and title.
    fn rule(section: &str, id: &str, extra: &str) -> SourceFile {
        let text = format!("+++\nid = \"{id}\"\ntitle = \"T {id}\"\n{extra}+++\nBody of {id}.\n");
        SourceFile::new(format!("rules/{section}/{id}.md"), text)
    }

    fn numbers(files: &[SourceFile]) -> (Vec<String>, Vec<String>) {
        let (ruleset, problems) = Ruleset::parse(files);
        let list = ruleset
            .rules
            .iter()
            .map(|r| format!("{} {}", r.number, r.id))
            .collect();
        (list, problems.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn numbers_by_section_then_order_then_id() {
        let files = [
            rule("dynastic", "zeta", ""),
            rule("core", "voting", "order = 20\n"),
            rule("core", "players", "order = 10\n"),
            rule("core", "beta", ""),
            rule("core", "alpha", ""),
            rule("appendix", "keywords", ""),
        ];
        let (list, problems) = numbers(&files);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            list,
            [
                "1.1 players",
                "1.2 voting",
                "1.3 alpha",
                "1.4 beta",
                "2.1 zeta",
                "3.1 keywords"
            ]
        );
    }

    #[test]
    fn subrules_follow_their_parent_depth_first() {
        let files = [
            rule("core", "a", "order = 1\n"),
            rule("core", "b", "order = 2\n"),
            rule("core", "a-two", "parent = \"a\"\norder = 2\n"),
            rule("core", "a-one", "parent = \"a\"\norder = 1\n"),
            rule("core", "a-one-x", "parent = \"a-one\"\n"),
        ];
        let (list, _) = numbers(&files);
        assert_eq!(
            list,
            [
                "1.1 a",
                "1.1.1 a-one",
                "1.1.1.1 a-one-x",
                "1.1.2 a-two",
                "1.2 b"
            ]
        );
        let (ruleset, _) = Ruleset::parse(&files);
        let a = ruleset.get("a").unwrap();
        assert_eq!(
            a.children
                .iter()
                .map(crate::ruleset::RuleId::as_str)
                .collect::<Vec<_>>(),
            ["a-one", "a-two"]
        );
        assert_eq!(ruleset.get("a-one-x").unwrap().number.depth(), 3);
    }

    #[test]
    fn inserting_a_rule_renumbers_the_rest_but_not_their_ids() {
        let mut files = vec![
            rule("core", "a", "order = 10\n"),
            rule("core", "c", "order = 30\n"),
        ];
        assert_eq!(numbers(&files).0, ["1.1 a", "1.2 c"]);
        files.push(rule("core", "b", "order = 20\n"));
        assert_eq!(numbers(&files).0, ["1.1 a", "1.2 b", "1.3 c"]);
    }

    #[test]
    fn sections_follow_their_order() {
        let section = SourceFile::new(
            "rules/appendix/_section.md",
            "+++\ntitle = \"Appendix\"\norder = 0\n+++\n",
        );
        let (list, _) = numbers(&[rule("core", "a", ""), section, rule("appendix", "k", "")]);
        assert_eq!(list, ["1.1 k", "2.1 a"]);
    }

    #[test]
    fn reports_a_missing_parent_and_numbers_the_rule_anyway() {
        let (list, problems) = numbers(&[
            rule("core", "a", ""),
            rule("core", "b", "parent = \"nope\"\n"),
        ]);
        assert_eq!(list, ["1.1 a", "1.2 b"]);
        assert_eq!(
            problems,
            ["rules/core/b.md:4: [1.2 T b] the parent rule `nope` does not exist"]
        );
    }

    #[test]
    fn reports_a_parent_in_another_section() {
        let (_, problems) = numbers(&[
            rule("core", "a", ""),
            rule("dynastic", "b", "parent = \"a\"\n"),
        ]);
        assert_eq!(
            problems,
            [
                "rules/dynastic/b.md:4: [2.1 T b] the parent rule `a` is in the core section, not dynastic"
            ]
        );
    }

    #[test]
    fn reports_duplicate_ids_naming_the_first() {
        let first = rule("core", "a", "");
        let mut second = rule("dynastic", "a", "");
        second.path = "rules/dynastic/other.md".into();
        let (list, problems) = numbers(&[first, second]);
        assert_eq!(list, ["1.1 a"]);
        assert_eq!(
            problems,
            ["rules/dynastic/other.md:2: the rule id `a` is already used by rules/core/a.md"]
        );
    }

    #[test]
    fn reports_parent_cycles() {
        let files = [
            rule("core", "a", "parent = \"b\"\n"),
            rule("core", "b", "parent = \"a\"\n"),
            rule("core", "c", ""),
        ];
        let (list, problems) = numbers(&files);
        assert_eq!(list, ["1.1 c", "1.2 a", "1.3 b"]);
        assert_eq!(problems.len(), 2);
        assert!(problems[0].ends_with("the rule's parents form a cycle"));
    }

    #[test]
    fn reports_a_parameter_declared_twice() {
        let files = [
            rule("core", "a", "[params]\nx = 1\n"),
            rule("core", "b", "[params]\nx = 2\n"),
        ];
        let (ruleset, problems) = Ruleset::parse(&files);
        assert_eq!(ruleset.params["x"].value, toml::Value::Integer(1));
        assert_eq!(
            problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "rules/core/b.md:5: [1.2 T b] the parameter `x` is already declared at rules/core/a.md:5"
            ]
        );
    }

    #[test]
    fn reports_misplaced_files_and_unknown_sections() {
        let files = [
            SourceFile::new("rules/stray.md", "x"),
            SourceFile::new("rules/extras/a.md", "x"),
            SourceFile::new("rules/core/deep/a.md", "x"),
            SourceFile::new("rules/README.md", "Ignored."),
            SourceFile::new("rules/core/notes.txt", "Ignored."),
        ];
        let (_, problems) = numbers(&files);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("rules/extras/a.md: `extras` is not a section"))
        );
    }
}
