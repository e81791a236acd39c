//! The ruleset: sections of numbered rules, read from `rules/`.
//!
//! Pure: [`parse`] turns rule files into [`RuleFile`]s, [`numbering`]
//! arranges them into a [`Ruleset`] and gives every rule its number from
//! its position, [`template`] renders the text with the game's terms and
//! parameters. Reading the files is the caller's business (`crate::load`).
//!
//! Rules are identified by a stable [`RuleId`] from their front matter; the
//! number (`1.4.1`) is derived and changes whenever a rule is inserted
//! before it, so links and records use the id.

pub mod diff;
pub mod numbering;
pub mod parse;
pub mod template;
pub mod textdiff;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

pub use numbering::assemble;
pub use parse::{RuleFile, SectionFile, parse_rule_file, parse_section_file};

use crate::error::{Diagnostic, Diagnostics};
use crate::source::SourceFile;

/// The kinds of section a ruleset has, named by the directory under `rules/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SectionKind {
    /// Rules that last across dynasties.
    Core,
    /// Rules of the current dynasty.
    Dynastic,
    /// Definitions and clarifications (BlogNomic's later name).
    Appendix,
    /// Definitions and clarifications (BlogNomic's earlier name).
    Glossary,
}

impl SectionKind {
    /// Every kind, in their customary order.
    pub const ALL: [SectionKind; 4] = [
        SectionKind::Core,
        SectionKind::Dynastic,
        SectionKind::Appendix,
        SectionKind::Glossary,
    ];

    /// The kind named by a directory, if it is one.
    pub fn from_dir(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The directory name, also used in `check --list`.
    pub fn as_str(self) -> &'static str {
        match self {
            SectionKind::Core => "core",
            SectionKind::Dynastic => "dynastic",
            SectionKind::Appendix => "appendix",
            SectionKind::Glossary => "glossary",
        }
    }

    /// Title and order of a section that has no `_section.md`.
    pub fn defaults(self) -> (&'static str, i64) {
        match self {
            SectionKind::Core => ("Core Rules", 1),
            SectionKind::Dynastic => ("Dynastic Rules", 2),
            SectionKind::Appendix => ("Appendix", 3),
            SectionKind::Glossary => ("Glossary", 3),
        }
    }
}

impl fmt::Display for SectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule's stable identity: lowercase letters, digits and single hyphens.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct RuleId(String);

impl<'de> Deserialize<'de> for RuleId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        RuleId::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a rule id: {text}")))
    }
}

impl RuleId {
    /// Accepts `text` if it is a well-formed id.
    pub fn parse(text: &str) -> Option<Self> {
        let ok = !text.is_empty()
            && text.split('-').all(|part| {
                !part.is_empty()
                    && part
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
        ok.then(|| RuleId(text.to_string()))
    }

    /// The id as text; also the rule's anchor on the site.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A rule's number from its position: section, then rule, then subrules.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RuleNumber(Vec<u32>);

impl RuleNumber {
    /// The number made of these parts (`[1, 4, 1]` is `1.4.1`).
    pub fn new(parts: Vec<u32>) -> Self {
        RuleNumber(parts)
    }

    /// The parts of the number.
    pub fn parts(&self) -> &[u32] {
        &self.0
    }

    /// How deep the rule sits: 1 for a rule, 2 for its subrule, and so on.
    pub fn depth(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    /// Reads `1.4.1` (as written in rule text).
    pub fn parse(text: &str) -> Option<Self> {
        let parts: Option<Vec<u32>> = text.split('.').map(|p| p.parse().ok()).collect();
        parts.filter(|p| !p.is_empty()).map(RuleNumber)
    }
}

impl fmt::Display for RuleNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, part) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "{part}")?;
        }
        Ok(())
    }
}

impl Serialize for RuleNumber {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for RuleNumber {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        RuleNumber::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("not a rule number: {text}")))
    }
}

/// A section of the ruleset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Section {
    /// Which section this is.
    pub kind: SectionKind,
    /// Its number (1 for the first section).
    pub number: u32,
    /// Its title template, e.g. `Core Rules`.
    pub title: String,
    /// Introductory text (Markdown template), possibly empty.
    pub intro: String,
    /// The line of `_section.md` where the intro starts.
    pub intro_line: usize,
    /// The `_section.md` it came from, if any.
    pub path: Option<String>,
}

/// A glossary entry declared in a rule's front matter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GlossaryTerm {
    /// The word or phrase defined.
    pub term: String,
    /// Its definition (Markdown template).
    pub definition: String,
    /// The file line of the entry.
    pub line: usize,
}

/// A parameter declared in a rule's `[params]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its value.
    pub value: toml::Value,
    /// The rule that states it.
    pub rule: RuleId,
    /// Where it is written.
    pub path: String,
    /// The file line of the key.
    pub line: usize,
}

/// One numbered rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rule {
    /// The stable id.
    pub id: RuleId,
    /// The number from position.
    pub number: RuleNumber,
    /// Its section.
    pub section: SectionKind,
    /// The title template.
    pub title: String,
    /// The body template (Markdown).
    pub body: String,
    /// The rule this is a subrule of.
    pub parent: Option<RuleId>,
    /// Its direct subrules, in order.
    pub children: Vec<RuleId>,
    /// The file it came from.
    pub path: String,
    /// The file line where the body starts.
    pub body_line: usize,
    /// Glossary entries it declares.
    pub terms: Vec<GlossaryTerm>,
}

impl Rule {
    /// `number title` with the raw title, as diagnostics name a rule.
    pub fn label(&self) -> String {
        format!("{} {}", self.number, self.title)
    }
}

/// Whether `value` is, or holds, a float for which `which` is true.
pub(crate) fn holds_float(value: &toml::Value, which: &dyn Fn(f64) -> bool) -> bool {
    match value {
        toml::Value::Float(f) => which(*f),
        toml::Value::Array(items) => items.iter().any(|v| holds_float(v, which)),
        toml::Value::Table(table) => table.values().any(|v| holds_float(v, which)),
        _ => false,
    }
}

/// The whole ruleset, rules in document order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Ruleset {
    /// Sections in order.
    pub sections: Vec<Section>,
    /// Every rule, in document order (each rule before its subrules).
    pub rules: Vec<Rule>,
    /// Every parameter of every rule, by name.
    pub params: BTreeMap<String, Param>,
}

/// What parses a rule file: [`parse_rule_file`] or a memo of it.
pub type ParseRule<'p> = dyn Fn(&SourceFile) -> (Option<RuleFile>, Diagnostics) + Sync + 'p;

impl Ruleset {
    /// Whether a parameter is, or holds, a number that is not finite (NaN
    /// or an infinity), which JSON cannot write.
    pub(crate) fn holds_non_finite(&self) -> bool {
        self.params
            .values()
            .any(|p| holds_float(&p.value, &|f| !f.is_finite()))
    }

    /// A digest of everything the ruleset holds (its JSON, hashed): a page
    /// made from a ruleset of the history is known unchanged by it,
    /// without being made again.
    pub fn content_digest(&self) -> u64 {
        use std::hash::{DefaultHasher, Hasher};
        let mut h = DefaultHasher::new();
        // JSON writes every number that is not finite as `null`: a ruleset
        // that holds one gets the digest of its debug text, which tells
        // NaN and the infinities apart (as complete, only slower).
        match serde_json::to_vec(self) {
            Ok(json) if !self.holds_non_finite() => h.write(&json),
            _ => h.write(format!("{self:?}").as_bytes()),
        }
        h.finish()
    }

    /// Parses the files under `rules/` (others are ignored) into a numbered
    /// ruleset, with every problem found. Rule files live directly in a
    /// section directory: `rules/<core|dynastic|appendix|glossary>/<name>.md`.
    pub fn parse(files: &[SourceFile]) -> (Ruleset, Diagnostics) {
        Ruleset::parse_with(files, &parse_rule_file)
    }

    /// [`Ruleset::parse`], each rule file parsed by `parse_rule` (as
    /// [`parse_rule_file`] does, or taken from the same file parsed
    /// before).
    pub fn parse_with(files: &[SourceFile], parse_rule: &ParseRule<'_>) -> (Ruleset, Diagnostics) {
        let mut problems = Diagnostics::new();
        // Problems inside a usable rule file, labelled once it is numbered.
        let mut in_rules: Vec<(RuleId, Diagnostics)> = Vec::new();
        let mut sections = BTreeMap::new();
        let mut rules = Vec::new();
        for file in files {
            let Some(rest) = file.path.strip_prefix("rules/") else {
                continue;
            };
            if !rest.ends_with(".md") || rest == "README.md" {
                continue;
            }
            let parts: Vec<&str> = rest.split('/').collect();
            let [dir, name] = parts[..] else {
                problems.push(Diagnostic::new(
                    &file.path,
                    0,
                    "rule files go directly in a section directory: rules/core/, rules/dynastic/, rules/appendix/ or rules/glossary/",
                ));
                continue;
            };
            let Some(kind) = SectionKind::from_dir(dir) else {
                problems.push(Diagnostic::new(
                    &file.path,
                    0,
                    format!("`{dir}` is not a section: use core, dynastic, appendix or glossary"),
                ));
                continue;
            };
            if name == "_section.md" {
                let (section, found) = parse_section_file(file, kind.defaults());
                problems.extend(found);
                sections.insert(kind, section);
            } else {
                let (rule, found) = parse_rule(file);
                match &rule {
                    Some(rule) => in_rules.push((rule.id.clone(), found)),
                    None => problems.extend(found),
                }
                rules.extend(rule.map(|r| (kind, r)));
            }
        }
        let (ruleset, found) = assemble(&sections, rules);
        for (id, found) in in_rules {
            // A duplicate id was left out of the ruleset: its problems stay unlabelled.
            let label = ruleset
                .get(id.as_str())
                .filter(|r| found.iter().all(|d| d.path == r.path))
                .map(Rule::label);
            for d in found {
                problems.push(match &label {
                    Some(label) => d.in_rule(label.clone()),
                    None => d,
                });
            }
        }
        problems.extend(found);
        (ruleset, problems)
    }

    /// The rule with this id.
    pub fn get(&self, id: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.id.as_str() == id)
    }

    /// The section of this kind.
    pub fn section(&self, kind: SectionKind) -> Option<&Section> {
        self.sections.iter().find(|s| s.kind == kind)
    }

    /// The parameters as one flat table, as the engine reads them.
    pub fn param_table(&self) -> toml::Table {
        self.params
            .iter()
            .map(|(k, p)| (k.clone(), p.value.clone()))
            .collect()
    }
}
