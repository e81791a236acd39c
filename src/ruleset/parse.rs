//! Parsing one rule file or one section file. Pure.
//!
//! A rule file is:
//!
//! ```text
//! rule-file    ::= "+++" NL front-matter "+++" NL body
//! front-matter ::= TOML with keys id, title, parent?, order?, params?, terms?
//! body         ::= Markdown (a template over the game's terms and parameters)
//! ```
//!
//! Every problem is collected with its file and line; a file with problems
//! that still has a usable id and title is returned alongside them, so one
//! bad key does not hide the rest of the ruleset from the checks after it.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use super::{GlossaryTerm, RuleId};
use crate::error::{Diagnostic, Diagnostics, line_of, toml_diagnostic};
use crate::source::{SourceFile, split_front_matter};

/// A rule as written in its file, before numbering.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleFile {
    /// Where it was read from.
    pub path: String,
    /// Its stable id.
    pub id: RuleId,
    /// The line of the `id` key.
    pub id_line: usize,
    /// The title template.
    pub title: String,
    /// The parent's id as written, with its line.
    pub parent: Option<(String, usize)>,
    /// Sort key among siblings.
    pub order: Option<i64>,
    /// Parameters: name → (value, line).
    pub params: BTreeMap<String, (toml::Value, usize)>,
    /// Glossary entries.
    pub terms: Vec<GlossaryTerm>,
    /// The body template.
    pub body: String,
    /// The line the body starts on.
    pub body_line: usize,
}

/// A section's `_section.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionFile {
    /// Where it was read from.
    pub path: String,
    /// The section's title.
    pub title: String,
    /// The section's place among sections.
    pub order: i64,
    /// The introduction (Markdown).
    pub intro: String,
    /// The line the introduction starts on.
    pub intro_line: usize,
}

const RULE_KEYS: &[&str] = &["id", "title", "parent", "order", "params", "terms"];
const SECTION_KEYS: &[&str] = &["title", "order"];

#[derive(Deserialize)]
struct RuleFront {
    id: Option<Spanned<String>>,
    title: Option<Spanned<String>>,
    parent: Option<Spanned<String>>,
    order: Option<i64>,
    #[serde(default)]
    params: BTreeMap<Spanned<String>, toml::Value>,
    #[serde(default)]
    terms: Vec<Spanned<TermFront>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TermFront {
    term: String,
    definition: String,
}

#[derive(Deserialize)]
struct SectionFront {
    title: Option<String>,
    order: Option<i64>,
}

/// Front matter split from its file, with what is needed to locate errors.
struct Front<'a> {
    path: &'a str,
    toml: &'a str,
    body: &'a str,
    body_line: usize,
}

impl Front<'_> {
    /// The file line of a byte offset into the front matter.
    fn line(&self, offset: usize) -> usize {
        line_of(self.toml, 2, offset)
    }

    /// Parses the front matter as `T`, first reporting keys not in `known`.
    fn parse<T: for<'de> Deserialize<'de>>(
        &self,
        known: &[&str],
        problems: &mut Diagnostics,
    ) -> Option<T> {
        let keys: BTreeMap<Spanned<String>, toml::Value> = match toml::from_str(self.toml) {
            Ok(keys) => keys,
            Err(e) => {
                problems.push(toml_diagnostic(self.path, self.toml, 2, &e));
                return None;
            }
        };
        for key in keys.keys() {
            if !known.contains(&key.get_ref().as_str()) {
                problems.push(Diagnostic::new(
                    self.path,
                    self.line(key.span().start),
                    format!(
                        "unknown front-matter key `{}` (known keys: {})",
                        key.get_ref(),
                        known.join(", ")
                    ),
                ));
            }
        }
        toml::from_str(self.toml)
            .map_err(|e| problems.push(toml_diagnostic(self.path, self.toml, 2, &e)))
            .ok()
    }
}

fn split(file: &SourceFile) -> Result<Front<'_>, Diagnostic> {
    let (toml, body, body_line) = split_front_matter(&file.text).ok_or_else(|| {
        Diagnostic::new(
            &file.path,
            1,
            "a rule file must start with TOML front matter between `+++` lines",
        )
    })?;
    Ok(Front {
        path: &file.path,
        toml,
        body,
        body_line,
    })
}

/// Parses a rule file. Returns the rule if its id and title are usable,
/// and every problem found either way.
pub fn parse_rule_file(file: &SourceFile) -> (Option<RuleFile>, Diagnostics) {
    let mut problems = Diagnostics::new();
    let front = match split(file) {
        Ok(front) => front,
        Err(d) => return (None, d.into()),
    };
    let Some(raw) = front.parse::<RuleFront>(RULE_KEYS, &mut problems) else {
        return (None, problems);
    };
    let id = match &raw.id {
        None => {
            problems.push(Diagnostic::new(&file.path, 1, "the rule has no `id`"));
            None
        }
        Some(id) => RuleId::parse(id.get_ref()).or_else(|| {
            problems.push(Diagnostic::new(
                &file.path,
                front.line(id.span().start),
                format!(
                    "`{}` is not a valid rule id: use lowercase letters, digits and single hyphens",
                    id.get_ref()
                ),
            ));
            None
        }),
    };
    let title = match &raw.title {
        Some(t) if !t.get_ref().trim().is_empty() => Some(t.get_ref().trim().to_string()),
        Some(t) => {
            problems.push(Diagnostic::new(
                &file.path,
                front.line(t.span().start),
                "the rule's title is empty",
            ));
            None
        }
        None => {
            problems.push(Diagnostic::new(&file.path, 1, "the rule has no `title`"));
            None
        }
    };
    let (Some(id), Some(title)) = (id, title) else {
        return (None, problems);
    };
    let rule = RuleFile {
        path: file.path.clone(),
        id_line: raw.id.as_ref().map_or(1, |s| front.line(s.span().start)),
        id,
        title,
        parent: raw
            .parent
            .map(|p| (p.get_ref().clone(), front.line(p.span().start))),
        order: raw.order,
        params: raw
            .params
            .into_iter()
            .map(|(k, v)| {
                let line = front.line(k.span().start);
                (k.into_inner(), (v, line))
            })
            .collect(),
        terms: raw
            .terms
            .into_iter()
            .map(|t| {
                let line = front.line(t.span().start);
                let t = t.into_inner();
                GlossaryTerm {
                    term: t.term,
                    definition: t.definition,
                    line,
                }
            })
            .collect(),
        body: front.body.to_string(),
        body_line: front.body_line,
    };
    (Some(rule), problems)
}

/// Parses a section's `_section.md`; `defaults` fill in a missing title or order.
pub fn parse_section_file(file: &SourceFile, defaults: (&str, i64)) -> (SectionFile, Diagnostics) {
    let mut problems = Diagnostics::new();
    let mut section = SectionFile {
        path: file.path.clone(),
        title: defaults.0.to_string(),
        order: defaults.1,
        intro: String::new(),
        intro_line: 1,
    };
    match split(file) {
        Err(_) => section.intro = file.text.clone(),
        Ok(front) => {
            section.intro = front.body.to_string();
            section.intro_line = front.body_line;
            if let Some(raw) = front.parse::<SectionFront>(SECTION_KEYS, &mut problems) {
                section.title = raw.title.unwrap_or(section.title);
                section.order = raw.order.unwrap_or(section.order);
            }
        }
    }
    (section, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Option<RuleFile>, Vec<String>) {
        let (rule, problems) = parse_rule_file(&SourceFile::new("rules/core/x.md", text));
        (rule, problems.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn parses_a_full_rule() {
        let (rule, problems) = parse(
            "+++\nid = \"resolution\"\ntitle = \"Resolution\"\nparent = \"proposals\"\norder = 20\n\n[params]\nenact_quorum_hours = 12\n\n[[terms]]\nterm = \"Quorum\"\ndefinition = \"half plus one\"\n+++\nA proposal...\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let rule = rule.unwrap();
        assert_eq!(rule.id.as_str(), "resolution");
        assert_eq!(rule.parent, Some(("proposals".to_string(), 4)));
        assert_eq!(rule.order, Some(20));
        assert_eq!(
            rule.params["enact_quorum_hours"],
            (toml::Value::Integer(12), 8)
        );
        assert_eq!(rule.terms[0].term, "Quorum");
        assert_eq!(rule.terms[0].line, 10);
        assert_eq!(rule.body, "A proposal...\n");
        assert_eq!(rule.body_line, 14);
    }

    #[test]
    fn reports_unknown_keys_at_their_line_and_keeps_the_rule() {
        let (rule, problems) = parse("+++\nid = \"a\"\ntitle = \"A\"\nnumber = \"1.1\"\n+++\n");
        assert!(rule.is_some());
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].starts_with("rules/core/x.md:4: unknown front-matter key `number`"),
            "{problems:?}"
        );
    }

    #[test]
    fn reports_missing_or_empty_title() {
        let (rule, problems) = parse("+++\nid = \"a\"\n+++\n");
        assert!(rule.is_none());
        assert_eq!(problems, ["rules/core/x.md:1: the rule has no `title`"]);
        let (_, problems) = parse("+++\nid = \"a\"\ntitle = \"  \"\n+++\n");
        assert_eq!(problems, ["rules/core/x.md:3: the rule's title is empty"]);
    }

    #[test]
    fn reports_malformed_toml_with_its_line() {
        let (rule, problems) = parse("+++\nid = \"a\"\ntitle = \"A\n+++\n");
        assert!(rule.is_none());
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].starts_with("rules/core/x.md:3:"),
            "{problems:?}"
        );
    }

    #[test]
    fn reports_bad_ids_and_missing_front_matter() {
        let (_, problems) = parse("+++\nid = \"Bad Id\"\ntitle = \"A\"\n+++\n");
        assert!(
            problems[0].starts_with("rules/core/x.md:2: `Bad Id` is not a valid rule id"),
            "{problems:?}"
        );
        let (_, problems) = parse("# Just Markdown\n");
        assert!(problems[0].contains("must start with TOML front matter"));
    }

    #[test]
    fn reports_wrong_types() {
        let (rule, problems) = parse("+++\nid = \"a\"\ntitle = \"A\"\norder = \"first\"\n+++\n");
        assert!(rule.is_none());
        assert!(
            problems[0].starts_with("rules/core/x.md:4:"),
            "{problems:?}"
        );
    }

    #[test]
    fn section_file_overrides_defaults() {
        let file = SourceFile::new(
            "rules/core/_section.md",
            "+++\ntitle = \"Core\"\n+++\nIntro\n",
        );
        let (section, problems) = parse_section_file(&file, ("Core Rules", 1));
        assert!(problems.is_empty());
        assert_eq!(
            (
                section.title.as_str(),
                section.order,
                section.intro.as_str()
            ),
            ("Core", 1, "Intro\n")
        );
    }
}
