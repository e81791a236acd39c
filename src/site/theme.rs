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
    /// The built-in theme with `overrides` laid over it in order.
    pub fn load(overrides: &[ThemeFile]) -> Result<Theme, SiteError> {
        let mut templates: BTreeMap<String, String> = TEMPLATES
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
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
        tera.add_raw_templates(templates.iter().map(|(n, t)| (n.as_str(), t.as_str())))
            .map_err(|e| SiteError::Template {
                name: failing_template(&e),
                message: crate::ruleset::template::describe(&e),
            })?;
        let digest = super::cache::Digest::new()
            .json(&templates)
            .json(&statics)
            .finish();
        Ok(Theme {
            tera,
            statics,
            digest,
        })
    }

    /// The digest of the templates and static files in force.
    pub(crate) fn digest(&self) -> u64 {
        self.digest
    }

    /// Renders `template` with `context` as the page at `page`.
    pub(crate) fn render(
        &self,
        template: &str,
        page: &str,
        context: &tera::Context,
    ) -> Result<String, SiteError> {
        self.tera
            .render(template, context)
            .map_err(|e| SiteError::Render {
                page: page.to_string(),
                template: template.to_string(),
                message: crate::ruleset::template::describe(&e),
            })
    }

    /// The static files, by path in the site.
    pub(crate) fn statics(&self) -> &BTreeMap<String, String> {
        &self.statics
    }
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
        let file = ThemeFile {
            name: "templates/index.html".into(),
            text: "{{ get_env(name=\"PATH\") }}".into(),
        };
        let theme = Theme::load(&[file]).unwrap();
        let page = theme.render("index.html", "index.html", &tera::Context::new());
        assert!(page.is_err(), "{page:?}");
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
