//! Rule text as templates over the game's terms and parameters. Pure.
//!
//! Titles, bodies, section intros and glossary definitions may say
//! `{{ players }}` or `{{ enact_quorum_hours }}`. Rendering them with the
//! current terms (from `state/game.toml`) and the ruleset's parameters
//! means a renamed term or an amended number changes the text and the
//! enforcement together: they cannot disagree.

use std::collections::{BTreeMap, BTreeSet};
use std::error::Error as _;

use super::{Param, Ruleset};
use crate::error::{Diagnostic, Diagnostics};

/// What rule text may refer to.
#[derive(Debug, Clone)]
pub struct TextContext {
    names: BTreeSet<String>,
    context: tera::Context,
}

impl TextContext {
    /// A context of the game's terms (`player` → `Tinkerer`, …) and the
    /// ruleset's parameters.
    pub fn new(terms: &BTreeMap<String, String>, params: &BTreeMap<String, Param>) -> Self {
        let mut context = tera::Context::new();
        let mut names = BTreeSet::new();
        for (name, value) in terms {
            context.insert(name.as_str(), value);
            names.insert(name.clone());
        }
        for (name, param) in params {
            context.insert(name.as_str(), &param.value);
            names.insert(name.clone());
        }
        TextContext { names, context }
    }

    /// Renders one template. `path` and `line` locate `text` in its file
    /// for the error; `rule` names the rule it belongs to, if any.
    pub fn render(
        &self,
        text: &str,
        path: &str,
        line: usize,
        rule: Option<&str>,
    ) -> Result<String, Diagnostic> {
        let located = |line: usize, message: String| {
            let d = Diagnostic::new(path, line, message);
            match rule {
                Some(rule) => d.in_rule(rule),
                None => d,
            }
        };
        if !text.contains("{{") && !text.contains("{%") && !text.contains("{#") {
            return Ok(text.to_string());
        }
        if let Some((offset, name)) = self.first_unknown_name(text) {
            let line = line + text[..offset].matches('\n').count();
            return Err(located(
                line,
                format!(
                    "unknown name `{name}` in the text (known: {})",
                    self.known()
                ),
            ));
        }
        tera::Tera::one_off(text, &self.context, false).map_err(|e| located(line, describe(&e)))
    }

    fn known(&self) -> String {
        self.names
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The first `{{ name … }}` whose leading name is neither a term nor a
    /// parameter, with its byte offset. Tera would say the same without a line.
    fn first_unknown_name<'t>(&self, text: &'t str) -> Option<(usize, &'t str)> {
        let mut from = 0;
        while let Some(found) = text[from..].find("{{") {
            let start = from + found + 2;
            let expr = text[start..].trim_start_matches(['-', ' ', '\t']);
            let len = expr
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(expr.len());
            let name = &expr[..len];
            let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            if is_name && !self.names.contains(name) && !matches!(name, "true" | "false") {
                return Some((start - 2, name));
            }
            from = start;
        }
        None
    }
}

/// A Tera error with its causes, on one line.
fn describe(err: &tera::Error) -> String {
    let mut message = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message.replace('\n', " ")
}

impl Ruleset {
    /// The same ruleset with every title, body, intro and definition
    /// rendered, and every template problem found.
    pub fn render(&self, context: &TextContext) -> (Ruleset, Diagnostics) {
        let mut problems = Diagnostics::new();
        let mut out = self.clone();
        let mut keep = |result: Result<String, Diagnostic>, raw: &mut String| match result {
            Ok(text) => *raw = text,
            Err(d) => problems.push(d),
        };
        for section in &mut out.sections {
            let path = section.path.clone().unwrap_or_default();
            keep(
                context.render(&section.title, &path, 1, None),
                &mut section.title,
            );
            keep(
                context.render(&section.intro, &path, section.intro_line, None),
                &mut section.intro,
            );
        }
        for rule in &mut out.rules {
            let (label, path) = (rule.label(), rule.path.clone());
            keep(
                context.render(&rule.title, &path, 1, Some(&label)),
                &mut rule.title,
            );
            keep(
                context.render(&rule.body, &path, rule.body_line, Some(&label)),
                &mut rule.body,
            );
            for term in &mut rule.terms {
                keep(
                    context.render(&term.definition, &path, term.line, Some(&label)),
                    &mut term.definition,
                );
            }
        }
        (out, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::RuleId;

    fn context() -> TextContext {
        let terms = BTreeMap::from([("player".to_string(), "Tinkerer".to_string())]);
        let params = BTreeMap::from([(
            "enact_quorum_hours".to_string(),
            Param {
                value: toml::Value::Integer(12),
                rule: RuleId::parse("r").unwrap(),
                path: "rules/core/r.md".into(),
                line: 3,
            },
        )]);
        TextContext::new(&terms, &params)
    }

    #[test]
    fn renders_terms_and_parameters() {
        let text = context()
            .render(
                "Each {{ player }} waits {{ enact_quorum_hours }} hours.",
                "p",
                1,
                None,
            )
            .unwrap();
        assert_eq!(text, "Each Tinkerer waits 12 hours.");
    }

    #[test]
    fn names_the_line_of_an_unknown_name() {
        let err = context()
            .render(
                "one\ntwo {{ wizard }}\n",
                "rules/core/r.md",
                7,
                Some("1.1 R"),
            )
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "rules/core/r.md:8: [1.1 R] unknown name `wizard` in the text (known: enact_quorum_hours, player)"
        );
    }

    #[test]
    fn reports_template_syntax_errors() {
        let err = context().render("{{ player ", "p", 4, None).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.message.contains("Failed to parse"), "{}", err.message);
    }

    #[test]
    fn plain_text_passes_through_untouched() {
        let text = "A {literal} brace and 100% plain.";
        assert_eq!(context().render(text, "p", 1, None).unwrap(), text);
    }
}
