//! Templates and static files: the default theme is the files in
//! `themes/default/` (one copy, built into the binary from there), so a
//! game's repository can carry and change the very files it looks like.
//! Overridable by a theme (`themes/<name>/`) and then by the game itself.
//! Pure: the files of the overrides are read at the edge and handed in as
//! [`ThemeFile`]s.

use std::collections::BTreeMap;

use super::SiteError;

/// A file that replaces or adds to the built-in theme: `templates/base.html`
/// or `static/style.css`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeFile {
    /// `templates/<name>` or `static/<path>`.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// The built-in templates, by name.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "base.html",
        include_str!("../../themes/default/templates/base.html"),
    ),
    (
        "macros.html",
        include_str!("../../themes/default/templates/macros.html"),
    ),
    (
        "masthead.html",
        include_str!("../../themes/default/templates/masthead.html"),
    ),
    (
        "index.html",
        include_str!("../../themes/default/templates/index.html"),
    ),
    (
        "page.html",
        include_str!("../../themes/default/templates/page.html"),
    ),
    (
        "ruleset.html",
        include_str!("../../themes/default/templates/ruleset.html"),
    ),
    (
        "rule.html",
        include_str!("../../themes/default/templates/rule.html"),
    ),
    (
        "tracker.html",
        include_str!("../../themes/default/templates/tracker.html"),
    ),
    (
        "pending.html",
        include_str!("../../themes/default/templates/pending.html"),
    ),
    (
        "archive.html",
        include_str!("../../themes/default/templates/archive.html"),
    ),
    (
        "matter.html",
        include_str!("../../themes/default/templates/matter.html"),
    ),
    (
        "players.html",
        include_str!("../../themes/default/templates/players.html"),
    ),
    (
        "player.html",
        include_str!("../../themes/default/templates/player.html"),
    ),
    (
        "log.html",
        include_str!("../../themes/default/templates/log.html"),
    ),
    (
        "dynasties.html",
        include_str!("../../themes/default/templates/dynasties.html"),
    ),
    (
        "dynasty.html",
        include_str!("../../themes/default/templates/dynasty.html"),
    ),
    (
        "stats.html",
        include_str!("../../themes/default/templates/stats.html"),
    ),
    (
        "rulesets.html",
        include_str!("../../themes/default/templates/rulesets.html"),
    ),
    (
        "revision.html",
        include_str!("../../themes/default/templates/revision.html"),
    ),
    (
        "feed.xml",
        include_str!("../../themes/default/templates/feed.xml"),
    ),
];

/// The built-in static files, by path in the site.
const STATIC: &[(&str, &str)] = &[
    (
        "style.css",
        include_str!("../../themes/default/static/style.css"),
    ),
    (
        "site.js",
        include_str!("../../themes/default/static/site.js"),
    ),
    (
        "favicon.svg",
        include_str!("../../themes/default/static/favicon.svg"),
    ),
];

/// The names a theme may override (`templates/…`, `static/…`), for
/// `gitnomic build --list-templates` and for documentation.
pub fn builtin_names() -> Vec<String> {
    let templates = TEMPLATES.iter().map(|(n, _)| format!("templates/{n}"));
    let statics = STATIC.iter().map(|(n, _)| format!("static/{n}"));
    templates.chain(statics).collect()
}

/// The templates and static files in force for one build, parsed.
pub struct Theme {
    tera: tera::Tera,
    statics: BTreeMap<String, String>,
    /// A digest of every template and static file in force: a page made
    /// with another theme is made again.
    digest: u64,
    /// Whether a template differs from the built-in one: a page such a
    /// theme fails to render is made with the built-in templates instead.
    themed: bool,
    /// The built-in templates, parsed the first time a themed page fails.
    builtin: std::sync::OnceLock<Result<tera::Tera, SiteError>>,
    /// The failures told so far, each told once.
    failed: std::sync::Mutex<std::collections::BTreeSet<String>>,
}

/// `15786` → `15,786`: counts as people read them.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The `thousands` filter of the templates: numbers get separators, and
/// anything else is left as it is.
fn thousands_filter(
    value: &tera::Value,
    _: &std::collections::HashMap<String, tera::Value>,
) -> tera::Result<tera::Value> {
    Ok(match value.as_u64() {
        Some(n) => tera::Value::String(thousands(n)),
        None => value.clone(),
    })
}

impl Theme {
    /// [`Theme::load`], or, when the templates of `overrides` cannot be
    /// loaded, the built-in templates with the overrides' static files and
    /// a warning: a theme enacted broken (or pushed to the default branch
    /// so) must not stop every build of the game's site.
    pub fn load_or_builtin(overrides: &[ThemeFile]) -> Theme {
        Theme::load(overrides).unwrap_or_else(|e| {
            tracing::warn!(
                "the theme cannot be loaded ({e}): the site is made with the built-in templates"
            );
            let statics: Vec<ThemeFile> = overrides
                .iter()
                .filter(|f| !f.name.starts_with("templates/"))
                .cloned()
                .collect();
            Theme::load(&statics).expect("the built-in templates load")
        })
    }

    /// The built-in theme with `overrides` laid over it in order.
    pub fn load(overrides: &[ThemeFile]) -> Result<Theme, SiteError> {
        let mut templates = builtin_templates();
        let mut statics: BTreeMap<String, String> = STATIC
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        for file in overrides {
            if let Some(name) = file.name.strip_prefix("templates/") {
                templates.insert(name.to_string(), file.text.clone());
            } else if let Some(name) = file.name.strip_prefix("static/") {
                statics.insert(name.to_string(), file.text.clone());
            }
        }
        let themed = TEMPLATES
            .iter()
            .any(|(n, t)| templates.get(*n).map(String::as_str) != Some(*t))
            || templates.len() != TEMPLATES.len();
        let tera = parse(&templates)?;
        let digest = super::cache::Digest::new()
            .json(&templates)
            .json(&statics)
            .finish();
        Ok(Theme {
            tera,
            statics,
            digest,
            themed,
            builtin: std::sync::OnceLock::new(),
            failed: std::sync::Mutex::default(),
        })
    }

    /// The digest of the templates and static files in force.
    pub(crate) fn digest(&self) -> u64 {
        self.digest
    }

    /// Renders `template` with `context` as the page at `page`. A page a
    /// theme's template fails to render (a variable the page does not
    /// have, say: it parsed, so the doors let it in) is made with the
    /// built-in templates, and each failure is told once: a theme cannot
    /// stop the site from being built.
    pub(crate) fn render(
        &self,
        template: &str,
        page: &str,
        context: &tera::Context,
    ) -> Result<String, SiteError> {
        let failed = |e: tera::Error| SiteError::Render {
            page: page.to_string(),
            template: template.to_string(),
            message: crate::ruleset::template::describe(&e),
        };
        super::limits::new_page();
        match self.tera.render(template, context) {
            Ok(text) => Ok(text),
            Err(e) if self.themed => self.builtin_page(template, context, failed(e)),
            Err(e) => Err(failed(e)),
        }
    }

    /// The page the theme failed to render (`why`), made with the built-in
    /// templates, the failure told once. A built-in template failing too
    /// is this program's fault, not the theme's: the theme's is returned.
    fn builtin_page(
        &self,
        template: &str,
        context: &tera::Context,
        why: SiteError,
    ) -> Result<String, SiteError> {
        let builtin = self.builtin.get_or_init(|| parse(&builtin_templates()));
        let Ok(builtin) = builtin else {
            return Err(why);
        };
        super::limits::new_page();
        let Ok(text) = builtin.render(template, context) else {
            return Err(why);
        };
        // One failure in a template every page extends (`base.html`) reads
        // alike but for the page's own template, left out of the key.
        let key = match &why {
            SiteError::Render { message, .. } => message.replace(&format!("'{template}'"), "''"),
            other => other.to_string(),
        };
        if self.failed.lock().map_or(true, |mut told| told.insert(key)) {
            tracing::warn!(
                "{why}: the page is made with the built-in templates (and every other page this fails alike)"
            );
        }
        Ok(text)
    }

    /// The static files, by path in the site.
    pub(crate) fn statics(&self) -> &BTreeMap<String, String> {
        &self.statics
    }
}

/// The built-in templates, by name.
fn builtin_templates() -> BTreeMap<String, String> {
    TEMPLATES
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

/// `templates`, parsed, with the filters and functions a theme may use.
fn parse(templates: &BTreeMap<String, String>) -> Result<tera::Tera, SiteError> {
    let mut tera = tera::Tera::default();
    tera.set_escape_fn(super::escape::escape);
    tera.register_filter("thousands", thousands_filter);
    // A theme is the game's files, which a vote can change; the build
    // runs beside the workflow's token, which no page may print.
    tera.register_function(
        "get_env",
        |_: &std::collections::HashMap<String, tera::Value>| {
            Err(tera::Error::msg("get_env is not available to a theme"))
        },
    );
    tera.register_function("range", super::limits::range);
    tera.add_raw_templates(templates.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .map_err(|e| SiteError::Template {
            name: failing_template(&e),
            message: crate::ruleset::template::describe(&e),
        })?;
    if let Some((name, how)) = super::limits::recursion(&tera) {
        return Err(SiteError::Template {
            name,
            message: format!("it calls itself ({how}): a page made so would never end"),
        });
    }
    Ok(tera)
}

/// Why the text of a game file at `path` cannot be a template of a theme
/// (`themes/<name>/templates/…`), if it is one: a template that does not
/// parse stops every build of the site, so a pull request that brings one
/// cannot stand. Other files: `None`.
pub(crate) fn template_problem(path: &str, text: &str) -> Option<String> {
    let (_, name) = theme_template(path)?;
    let parsed = tera::Template::new(name, None, text);
    parsed.err().map(|e| {
        format!(
            "{path} is not a template the site can load: {}",
            crate::ruleset::template::describe(&e)
        )
    })
}

/// The theme and the template's name of a game file at `path`, if it is a
/// theme's template: `themes/<theme>/templates/<name>`.
pub(crate) fn theme_template(path: &str) -> Option<(&str, &str)> {
    let (theme, name) = path.strip_prefix("themes/")?.split_once("/templates/")?;
    (!theme.contains('/')).then_some((theme, name))
}

/// Why the site could not load the theme `theme` whose template files are
/// `templates`, laid over the built-in ones as a build lays them.
pub(crate) fn theme_problem(theme: &str, templates: &[ThemeFile]) -> Option<String> {
    Theme::load(templates)
        .err()
        .map(|e| format!("the site cannot load the theme `{theme}` as it would be: {e}"))
}

/// Tera names the failing template in its message (`Failed to parse 'x'`).
fn failing_template(err: &tera::Error) -> String {
    let text = err.to_string();
    text.split(['\'', '"'])
        .nth(1)
        .unwrap_or("(a template)")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_theme_cannot_read_the_environment() {
        // A template of the theme's own, with no built-in one to fall back
        // on: its error is get_env's refusal, not a missing value.
        let file = ThemeFile {
            name: "templates/mine.html".into(),
            text: "{{ get_env(name=\"PATH\") }}".into(),
        };
        let theme = Theme::load(&[file]).unwrap();
        let page = theme.render("mine.html", "mine.html", &tera::Context::new());
        let Err(e) = page else {
            panic!("get_env read the environment: {page:?}");
        };
        assert!(
            e.to_string()
                .contains("get_env is not available to a theme"),
            "{e}"
        );
    }

    #[test]
    fn the_built_in_templates_parse() {
        assert!(Theme::load(&[]).is_ok());
    }

    #[test]
    fn an_override_replaces_a_template_and_a_broken_one_is_named() {
        let page = ThemeFile {
            name: "templates/page.html".into(),
            text: "<p>{{ title }}</p>".into(),
        };
        let css = ThemeFile {
            name: "static/style.css".into(),
            text: "body{}".into(),
        };
        let theme = Theme::load(&[page, css]).unwrap();
        let mut context = tera::Context::new();
        context.insert("title", "A & B");
        let html = theme.render("page.html", "x/index.html", &context).unwrap();
        assert_eq!(html, "<p>A &amp; B</p>");
        assert_eq!(theme.statics()["style.css"], "body{}");
        let broken = ThemeFile {
            name: "templates/page.html".into(),
            text: "{% if %}".into(),
        };
        let Err(SiteError::Template { name, .. }) = Theme::load(&[broken]) else {
            panic!("a broken template must be refused");
        };
        assert_eq!(name, "page.html");
    }
}
