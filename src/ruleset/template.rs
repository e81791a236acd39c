//! Rule text as templates over the game's terms and parameters. Pure.
//!
//! Titles, bodies, section intros and glossary definitions may say
//! `{{ players }}` or `{{ enact_quorum_hours }}`. Rendering them with the
//! current terms (from `state/game.toml`) and the ruleset's parameters
//! means a renamed term or an amended number changes the text and the
//! enforcement together: they cannot disagree.
//!
//! Rule text comes from any pull request and is rendered by every run,
//! so a template may only say what a rule needs, with work bounded by its
//! length: names, literals, operators, a few filters that do not grow
//! text (`join`, `upper`, `lower`, `capitalize`, `title`, `trim`,
//! `length`, `default`), `{% if %}` and `{% raw %}`, in tags of at most
//! [`TEMPLATE_TAG_BYTES`] bytes. A loop, a `set`, a macro or a function call
//! (`range`, or `get_env`, which would print the resolver's token) is
//! refused, with the file and line.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::error::Error as _;
use std::sync::{Arc, Mutex};

use super::{Param, Ruleset};
use crate::bounds::TEMPLATE_TAG_BYTES;
use crate::error::{Diagnostic, Diagnostics};

/// The filters rule text may use: none makes text longer than its input
/// and the strings the tag itself holds.
const FILTERS: &[&str] = &[
    "join",
    "upper",
    "lower",
    "capitalize",
    "title",
    "trim",
    "length",
    "default",
];

/// What rule text may refer to.
#[derive(Debug, Clone)]
pub struct TextContext {
    names: BTreeSet<String>,
    context: tera::Context,
    /// Texts rendered before, shared with other contexts (see
    /// [`TextContext::remembering`]), and this context's key there: every
    /// name and its value, as JSON, so two contexts with the same key
    /// render any text alike.
    memo: Option<(Arc<RenderMemo>, String)>,
}

/// Rule texts rendered, by the context they were rendered in (its names
/// and values) and their text. A game's history has hundreds of states, each
/// checked whole, whose rules are mostly those of the state before: each
/// text with a tag is parsed by Tera once, not once a state.
#[derive(Debug, Default)]
pub struct RenderMemo(Mutex<HashMap<String, HashMap<String, String>>>);

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
        TextContext {
            names,
            context,
            memo: None,
        }
    }

    /// The same context, taking the texts it renders from `memo` when
    /// rendered there before in a context with the same names and values,
    /// and leaving there those it renders.
    #[must_use]
    pub fn remembering(mut self, memo: Arc<RenderMemo>) -> Self {
        let key = self.context.clone().into_json().to_string();
        self.memo = Some((memo, key));
        self
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
        if !text.contains("{{") && !text.contains("{%") && !text.contains("{#") {
            return Ok(text.to_string());
        }
        let Some((memo, key)) = &self.memo else {
            return self.render_anew(text, path, line, rule);
        };
        // Only what rendered is kept: a problem names its own place.
        let done = |m: &HashMap<String, HashMap<String, String>>| m.get(key)?.get(text).cloned();
        if let Some(done) = memo.0.lock().ok().and_then(|m| done(&m)) {
            return Ok(done);
        }
        let rendered = self.render_anew(text, path, line, rule)?;
        if let Ok(mut memo) = memo.0.lock() {
            let texts = memo.entry(key.clone()).or_default();
            texts.insert(text.to_string(), rendered.clone());
        }
        Ok(rendered)
    }

    /// [`TextContext::render`] of a text with a tag, not taken from the
    /// memo.
    fn render_anew(
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
        if let Some((offset, len)) = long_tag(text) {
            let line = line + text[..offset].matches('\n').count();
            let message = format!(
                "a template tag of {len} bytes; rule text allows at most {TEMPLATE_TAG_BYTES} in one `{{{{ … }}}}` or `{{% … %}}`"
            );
            return Err(located(line, message));
        }
        // Most of a rule is plain text, which Tera's parser reads a
        // character at a time: the text between tags is handed to Tera
        // as values, and only the tags are parsed. What that cannot render
        // is rendered whole, so every error reads as it would.
        match self.render_tags(text) {
            Some(text) => Ok(text),
            None => self.render_whole(text, &located(line, String::new())),
        }
    }

    /// `text` parsed and rendered whole by Tera; an error is `at`, its
    /// message Tera's.
    fn render_whole(&self, text: &str, at: &Diagnostic) -> Result<String, Diagnostic> {
        let fail = |message: String| Diagnostic {
            message,
            ..at.clone()
        };
        let tera = parsed(text).map_err(fail)?;
        tera.render("text", &self.context)
            .map_err(|e| fail(describe(&e)))
    }

    /// `text` rendered from a template of its tags alone, each run of
    /// text between them a value printed as it is (see [`tags_only`]);
    /// `None` when that template does not render, or is not allowed.
    fn render_tags(&self, text: &str) -> Option<String> {
        // A name of the runs' form, as a term or parameter or in the text
        // itself, would see them; so would Tera's dump of the whole
        // context.
        let sees_runs = self.names.iter().any(|name| name.starts_with(RUN))
            || text.contains(RUN)
            || text.contains("__tera_context");
        if sees_runs {
            return None;
        }
        let (template, runs) = tags_only(text)?;
        let tera = parsed(&template).ok()?;
        let mut context = self.context.clone();
        for (i, run) in runs.iter().enumerate() {
            context.insert(format!("{RUN}{i}"), run);
        }
        tera.render("text", &context).ok()
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

/// `text` parsed by Tera as the template `text`, unescaped, if it parses
/// and uses only what rule text may; else what is wrong, in words.
fn parsed(text: &str) -> Result<tera::Tera, String> {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::new());
    tera.add_raw_template("text", text)
        .map_err(|e| describe(&e))?;
    let ast = &tera.get_template("text").map_err(|e| describe(&e))?.ast;
    allowed(ast).map_err(|what| {
        format!(
            "{what} is not allowed in rule text: it may use names, `{{% if %}}` and the filters {}",
            FILTERS.join(", ")
        )
    })?;
    Ok(tera)
}

/// The name of the value that holds the text between two tags in
/// [`tags_only`]'s template, before its index. A game whose term or
/// parameter begins so has its text rendered whole.
const RUN: &str = "__gitnomic_run_";

/// `text` as a template of its tags, each run of text between them
/// replaced by `{{ __gitnomic_run_N }}`, and the runs. Tera prints a text
/// node and a string value alike (rule text is not escaped), so the two
/// render the same. `None` for what that would change or that is not
/// plainly split: a `{% raw %}` block (its text is not tags), whitespace
/// control (`{{-` trims the text beside it) and a tag left open.
fn tags_only(text: &str) -> Option<(String, Vec<&str>)> {
    if ["{{-", "{%-", "{#-", "-}}", "-%}", "-#}"]
        .iter()
        .any(|marker| text.contains(marker))
    {
        return None;
    }
    let (mut template, mut runs) = (String::new(), Vec::new());
    let mut rest = text;
    loop {
        let start = ["{{", "{%", "{#"]
            .iter()
            .filter_map(|open| rest.find(open))
            .min()
            .unwrap_or(rest.len());
        if start > 0 {
            template.push_str(&format!("{{{{ {RUN}{} }}}}", runs.len()));
            runs.push(&rest[..start]);
        }
        if start == rest.len() {
            return Some((template, runs));
        }
        let len = tag_len(&rest[start..])?;
        let tag = &rest[start..start + len];
        if tag.starts_with("{%") && tag[2..tag.len() - 2].trim_start().starts_with("raw") {
            return None;
        }
        template.push_str(tag);
        rest = &rest[start + len..];
    }
}

/// The length of the tag `text` begins with, to the end of its closing
/// mark; strings in it (`"…"`, `'…'`, `` `…` ``) are skipped as Tera reads
/// them, without escapes. `None` if it is not closed.
fn tag_len(text: &str) -> Option<usize> {
    let close = match &text[..2] {
        "{{" => "}}",
        "{%" => "%}",
        _ => return text[2..].find("#}").map(|end| end + 4),
    };
    let mut quote = None;
    for (i, c) in text.char_indices().skip(2) {
        match quote {
            Some(q) if c == q => quote = None,
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if text[i..].starts_with(close) => return Some(i + 2),
            _ => {}
        }
    }
    None
}

/// The first tag longer than [`TEMPLATE_TAG_BYTES`], as (byte offset, length).
fn long_tag(text: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(found) = text[from..].find(['{']) {
        let start = from + found;
        let close = match text[start + 1..].chars().next() {
            Some('{') => "}}",
            Some('%') => "%}",
            Some('#') => "#}",
            _ => {
                from = start + 1;
                continue;
            }
        };
        let end = text[start + 2..]
            .find(close)
            .map_or(text.len(), |e| start + 2 + e + 2);
        if close != "#}" && end - start > TEMPLATE_TAG_BYTES {
            return Some((start, end - start));
        }
        from = end;
    }
    None
}

/// A construct of Tera's that rule text may not use: what the error
/// names before "is not allowed in rule text".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Forbidden {
    #[error("a loop (`{{% for %}}`)")]
    Loop,
    #[error("`{{% set %}}`")]
    Set,
    #[error("a macro")]
    Macro,
    #[error("`{{% filter %}}`")]
    FilterSection,
    #[error("another template (`extends`, `include`, `block`)")]
    OtherTemplate,
    /// A filter not in [`FILTERS`]; its name.
    #[error("the filter `{0}`")]
    Filter(String),
    /// Any function call; its name.
    #[error("the function `{0}`")]
    Function(String),
}

/// The first construct in `nodes` that rule text may not use.
fn allowed(nodes: &[tera::ast::Node]) -> Result<(), Forbidden> {
    use tera::ast::Node;
    for node in nodes {
        match node {
            Node::Text(_) | Node::Raw(..) | Node::Comment(..) => {}
            Node::VariableBlock(_, expr) => allowed_expr(expr)?,
            Node::If(branches, _) => {
                for (_, condition, body) in &branches.conditions {
                    allowed_expr(condition)?;
                    allowed(body)?;
                }
                if let Some((_, body)) = &branches.otherwise {
                    allowed(body)?;
                }
            }
            Node::Forloop(..) | Node::Break(_) | Node::Continue(_) => {
                return Err(Forbidden::Loop);
            }
            Node::Set(..) => return Err(Forbidden::Set),
            Node::MacroDefinition(..) | Node::ImportMacro(..) => return Err(Forbidden::Macro),
            Node::FilterSection(..) => return Err(Forbidden::FilterSection),
            Node::Extends(..) | Node::Include(..) | Node::Block(..) | Node::Super => {
                return Err(Forbidden::OtherTemplate);
            }
        }
    }
    Ok(())
}

fn allowed_expr(expr: &tera::ast::Expr) -> Result<(), Forbidden> {
    for filter in &expr.filters {
        if !FILTERS.contains(&filter.name.as_str()) {
            return Err(Forbidden::Filter(filter.name.clone()));
        }
        filter.args.values().try_for_each(allowed_expr)?;
    }
    allowed_val(&expr.val)
}

fn allowed_val(val: &tera::ast::ExprVal) -> Result<(), Forbidden> {
    use tera::ast::ExprVal;
    match val {
        ExprVal::String(_)
        | ExprVal::Int(_)
        | ExprVal::Float(_)
        | ExprVal::Bool(_)
        | ExprVal::Ident(_) => Ok(()),
        // `player ~ get_env(…)`: the parts of a concatenation are values too.
        ExprVal::StringConcat(c) => c.values.iter().try_for_each(allowed_val),
        ExprVal::Math(m) => allowed_expr(&m.lhs).and_then(|()| allowed_expr(&m.rhs)),
        ExprVal::Logic(l) => allowed_expr(&l.lhs).and_then(|()| allowed_expr(&l.rhs)),
        ExprVal::In(i) => allowed_expr(&i.lhs).and_then(|()| allowed_expr(&i.rhs)),
        ExprVal::Test(t) => t.args.iter().try_for_each(allowed_expr),
        ExprVal::Array(items) => items.iter().try_for_each(allowed_expr),
        ExprVal::FunctionCall(f) => Err(Forbidden::Function(f.name.clone())),
        ExprVal::MacroCall(_) => Err(Forbidden::Macro),
    }
}

/// A Tera error with its causes, on one line: Tera puts the reason a
/// template fails in the error's causes, not its own message. Rule text
/// and the site's themes both report Tera's errors through it.
pub(crate) fn describe(err: &tera::Error) -> String {
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
    /// rendered, and every template problem found, in rule order. The
    /// rules are rendered side by side: each text with a tag is a template
    /// of its own to parse, and a build waits for them.
    pub fn render(&self, context: &TextContext) -> (Ruleset, Diagnostics) {
        use rayon::prelude::*;
        fn keep(
            result: Result<String, Diagnostic>,
            raw: &mut String,
            problems: &mut Vec<Diagnostic>,
        ) {
            match result {
                Ok(text) => *raw = text,
                Err(d) => problems.push(d),
            }
        }
        let mut out = self.clone();
        let mut problems = Vec::new();
        for section in &mut out.sections {
            let path = section.path.clone().unwrap_or_default();
            keep(
                context.render(&section.title, &path, 1, None),
                &mut section.title,
                &mut problems,
            );
            keep(
                context.render(&section.intro, &path, section.intro_line, None),
                &mut section.intro,
                &mut problems,
            );
        }
        let by_rule: Vec<Vec<Diagnostic>> = out
            .rules
            .par_iter_mut()
            .map(|rule| {
                let mut problems = Vec::new();
                let (label, path) = (rule.label(), rule.path.clone());
                keep(
                    context.render(&rule.title, &path, 1, Some(&label)),
                    &mut rule.title,
                    &mut problems,
                );
                keep(
                    context.render(&rule.body, &path, rule.body_line, Some(&label)),
                    &mut rule.body,
                    &mut problems,
                );
                for term in &mut rule.terms {
                    keep(
                        context.render(&term.definition, &path, term.line, Some(&label)),
                        &mut term.definition,
                        &mut problems,
                    );
                }
                problems
            })
            .collect();
        let mut all = Diagnostics::new();
        for d in problems.into_iter().chain(by_rule.into_iter().flatten()) {
            all.push(d);
        }
        (out, all)
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
    fn a_template_of_the_tags_alone_renders_as_the_whole_text() {
        let c = context();
        let whole = |text: &str| {
            c.render_whole(text, &Diagnostic::new("p", 1, ""))
                .map_err(|d| d.message)
        };
        for text in [
            "Each {{ player }} waits {{ enact_quorum_hours }} hours.\n\nAnd } or }} or %} alone.",
            "{{ player }}",
            "{% if enact_quorum_hours > 6 %}{{ player | upper }} won{% elif player %}x{% else %}no{% endif %}!",
            "a {{ player ~ \"}}\" ~ '%}' }} b {# a {{ note }} #} c",
            "{{ [player, \"x\"] | join(sep=\", \") }} and {{ player | default(value=`}}`) }}",
            "Ünïcode 🜂 {{ player | title }} — done",
        ] {
            let (template, runs) = tags_only(text).expect(text);
            assert!(
                runs.iter().all(|run| !run.contains("{{")),
                "{text}: {runs:?}"
            );
            assert_eq!(
                template.matches(RUN).count(),
                runs.len(),
                "{text}: {template}"
            );
            assert_eq!(c.render_tags(text), Some(whole(text).unwrap()), "{text}");
        }
        // What the tags alone would change, or cannot tell, is rendered whole.
        for text in [
            "{% raw %}{{ player }}{% endraw %}",
            "a  {{- player -}}  b",
            "{% if true -%}  x {%- endif %}",
            "open {{ player",
            "a {# never closed",
        ] {
            assert_eq!(tags_only(text), None, "{text}");
        }
        // A parameter named as the runs are is not shadowed by them.
        let terms = BTreeMap::from([(format!("{RUN}0"), "mine".to_string())]);
        let odd = TextContext::new(&terms, &BTreeMap::new());
        assert_eq!(odd.render_tags("a {{ __gitnomic_run_0 }}"), None);
        assert_eq!(
            odd.render("a {{ __gitnomic_run_0 }}", "p", 1, None),
            Ok("a mine".to_string())
        );
        // A text that names the runs, or dumps the context, sees them: it
        // is rendered whole, as it would have been.
        for text in [
            "Hello{% if __gitnomic_run_0 %} and more{% endif %}",
            "x {{ player ~ __gitnomic_run_0 }}",
            "{% if __tera_context | length > 2 %}long{% endif %} x",
        ] {
            assert_eq!(c.render_tags(text), None, "{text}");
        }
        assert_eq!(
            c.render(
                "Hello{% if __gitnomic_run_0 %} and more{% endif %}",
                "p",
                1,
                None
            ),
            Ok("Hello".to_string())
        );
        // A template that does not render whole does not render from its
        // tags either: its error is the whole text's.
        for text in [
            "{{ player | nope }} x",
            "x {{ missing }}",
            "{% for a in b %}{% endfor %}",
        ] {
            assert_eq!(c.render_tags(text), None, "{text}");
            assert!(whole(text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_memo_gives_a_text_back_only_to_a_context_with_the_same_values() {
        let memo = Arc::new(RenderMemo::default());
        let hours = |n: i64| {
            let params = BTreeMap::from([(
                "enact_quorum_hours".to_string(),
                Param {
                    value: toml::Value::Integer(n),
                    rule: RuleId::parse("r").unwrap(),
                    path: "rules/core/r.md".into(),
                    line: 3,
                },
            )]);
            TextContext::new(&BTreeMap::new(), &params).remembering(Arc::clone(&memo))
        };
        let text = "Wait {{ enact_quorum_hours }} hours.";
        let kept = || {
            memo.0
                .lock()
                .unwrap()
                .values()
                .map(HashMap::len)
                .sum::<usize>()
        };
        assert_eq!(
            hours(12).render(text, "p", 1, None).unwrap(),
            "Wait 12 hours."
        );
        assert_eq!(kept(), 1);
        // Another context with the same values takes it from the memo.
        assert_eq!(
            hours(12).render(text, "p", 1, None).unwrap(),
            "Wait 12 hours."
        );
        assert_eq!(kept(), 1);
        // Another value renders anew.
        assert_eq!(
            hours(6).render(text, "p", 1, None).unwrap(),
            "Wait 6 hours."
        );
        assert_eq!(kept(), 2);
        // A problem is not kept: each place names its own line.
        let bad = "x {{ enact_quorum_hours | nope }}";
        assert_eq!(hours(6).render(bad, "a", 4, None).unwrap_err().line, 4);
        assert_eq!(hours(6).render(bad, "b", 9, None).unwrap_err().line, 9);
        assert_eq!(kept(), 2);
    }

    #[test]
    fn what_a_rule_says_today_still_renders() {
        let c = context();
        let text = "{% if enact_quorum_hours > 6 %}{{ player | upper }}{% else %}no{% endif %} {{ player ~ \"s\" }} {# note #}{% raw %}{{ player }}{% endraw %}";
        assert_eq!(
            c.render(text, "p", 1, None).unwrap(),
            "TINKERER Tinkerers {{ player }}"
        );
    }

    #[test]
    fn loops_functions_and_growing_filters_are_refused_with_their_line() {
        let c = context();
        for (text, what) in [
            ("{% for i in range(end=100000000) %}x{% endfor %}", "a loop"),
            (
                "{{ player ~ get_env(name=\"GITHUB_TOKEN\") }}",
                "the function `get_env`",
            ),
            (
                "{{ player | replace(from=\"\", to=player) }}",
                "the filter `replace`",
            ),
            ("{% set a = player ~ player %}{{ player }}", "`{% set %}`"),
            ("{% macro m() %}x{% endmacro %}{{ player }}", "a macro"),
            (
                "{% if range(end=9) %}{{ player }}{% endif %}",
                "the function `range`",
            ),
        ] {
            let err = c
                .render(&format!("line\n{text}"), "rules/core/r.md", 3, None)
                .unwrap_err();
            assert!(err.message.starts_with(what), "{text}: {}", err.message);
            assert_eq!(err.line, 3, "{text}");
        }
    }

    #[test]
    fn a_long_or_deeply_nested_tag_is_refused_before_it_is_parsed() {
        let deep = format!(
            "a\n{{{{ {}player{} }}}}",
            "(".repeat(5000),
            ")".repeat(5000)
        );
        let err = context().render(&deep, "p", 1, None).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("at most 256"), "{}", err.message);
        let fine = format!("{{{{ {}player{} }}}}", "(".repeat(50), ")".repeat(50));
        assert_eq!(context().render(&fine, "p", 1, None).unwrap(), "Tinkerer");
    }

    #[test]
    fn plain_text_passes_through_untouched() {
        let text = "A {literal} brace and 100% plain.";
        assert_eq!(context().render(text, "p", 1, None).unwrap(), text);
    }
}
