//! The ruleset on one page: sections, numbered rules with permalinks by
//! stable id, cross-references linked, the glossary as a definition list.
//! The views made here also serve the past revisions and the rule pages.

use std::collections::BTreeSet;

use serde::Serialize;

use super::context::Context;
use super::escape::escape;
use super::links::slug;
use super::xref::{HtmlCache, Targets};
use super::{Site, SiteError};
use crate::ruleset::{Rule, Ruleset};

/// A rule as templates see it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct RuleView {
    pub(crate) id: String,
    pub(crate) number: String,
    pub(crate) title: String,
    /// 1 for a rule, 2 for a subrule…
    depth: usize,
    /// The heading level: h3 for a rule, h4 for a subrule, at most h6.
    level: usize,
    /// The body as HTML.
    html: String,
    /// The permalink (the rule's own page), relative to the page.
    href: String,
    /// Its file in the game's repository (`rules/core/voting.md`).
    path: String,
    terms: Vec<TermView>,
    /// The pending matters that would change it (in the current ruleset
    /// only; see [`RuleView::with_pending`]).
    pending: Vec<super::pending::PendingNote>,
}

impl RuleView {
    /// The view with the matters pending in `cx` that would change the
    /// rule, linked from a page `root` below the site's root.
    pub(crate) fn with_pending(mut self, cx: &Context, root: &str) -> Self {
        self.pending = super::pending::notes(cx.input.pending, &self.id, root);
        self
    }
}

/// A glossary entry.
#[derive(Debug, Clone, Serialize)]
struct TermView {
    term: String,
    anchor: String,
    html: String,
    rule: String,
    rule_number: String,
}

/// A section with its rules.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SectionView {
    kind: String,
    number: u32,
    title: String,
    intro: String,
    rules: Vec<RuleView>,
}

/// How rule views link: `prefix` is put before `#id` in cross-references
/// (empty when every rule is on the page), `root` leads to the site root.
#[derive(Clone, Copy)]
pub(crate) struct Links<'a> {
    pub(crate) prefix: &'a str,
    pub(crate) root: &'a str,
    /// Where rendered text is shared.
    pub(crate) cache: &'a HtmlCache,
}

/// The view of one rule.
pub(crate) fn rule_view(rule: &Rule, targets: &Targets, links: Links) -> RuleView {
    let mut anchors = BTreeSet::new();
    let terms = term_views(rule, targets, links, &mut anchors);
    RuleView {
        id: rule.id.to_string(),
        number: rule.number.to_string(),
        title: rule.title.clone(),
        depth: rule.number.depth(),
        level: (rule.number.depth() + 2).min(6),
        html: links.cache.to_html(&rule.body, targets, links.prefix),
        href: format!("{}rules/{}.html", links.root, rule.id),
        path: rule.path.clone(),
        terms,
        pending: Vec::new(),
    }
}

fn term_views(
    rule: &Rule,
    targets: &Targets,
    links: Links,
    anchors: &mut BTreeSet<String>,
) -> Vec<TermView> {
    rule.terms
        .iter()
        .zip(term_anchors(rule, anchors))
        .map(|(t, anchor)| TermView {
            term: t.term.clone(),
            anchor,
            html: links.cache.to_html(&t.definition, targets, links.prefix),
            rule: rule.id.to_string(),
            rule_number: rule.number.to_string(),
        })
        .collect()
}

/// The anchor of each of `rule`'s glossary entries (`_term-keywords-spring`),
/// made unique among `anchors` (which it adds them to) with `-2`, `-3`.
pub(crate) fn term_anchors(rule: &Rule, anchors: &mut BTreeSet<String>) -> Vec<String> {
    rule.terms
        .iter()
        .map(|t| {
            let stem = format!("_term-{}-{}", rule.id, slug(&t.term));
            let mut anchor = stem.clone();
            let mut n = 1;
            while !anchors.insert(anchor.clone()) {
                n += 1;
                anchor = format!("{stem}-{n}");
            }
            anchor
        })
        .collect()
}

/// Every section of `ruleset` with its rules, as views; `targets` are
/// the ruleset's (see [`Targets::new`]).
pub(crate) fn section_views(
    ruleset: &Ruleset,
    targets: &Targets,
    links: Links,
) -> Vec<SectionView> {
    ruleset
        .sections
        .iter()
        .map(|s| SectionView {
            kind: s.kind.to_string(),
            number: s.number,
            title: s.title.clone(),
            intro: links.cache.to_html(&s.intro, targets, links.prefix),
            rules: ruleset
                .rules
                .iter()
                .filter(|r| r.section == s.kind)
                .map(|r| rule_view(r, targets, links))
                .collect(),
        })
        .collect()
}

/// Renders `ruleset/index.html`.
pub(crate) fn render(cx: &Context, site: &mut Site) -> Result<(), SiteError> {
    let path = "ruleset/index.html";
    let ruleset = &cx.game.ruleset;
    let links = Links {
        prefix: "",
        root: "../",
        cache: &cx.html,
    };
    let mut sections = section_views(ruleset, &cx.targets, links);
    for s in &mut sections {
        for r in &mut s.rules {
            r.pending = super::pending::notes(cx.input.pending, &r.id, "../");
        }
    }
    let glossary: Vec<&TermView> = sections
        .iter()
        .flat_map(|s| &s.rules)
        .flat_map(|r| &r.terms)
        .collect();
    let revisions = &cx.input.timeline.revisions;
    let heading = match revisions.last() {
        Some(last) if *last.ruleset == *ruleset => format!("Ruleset {}", last.number),
        _ => "The ruleset".to_string(),
    };
    let intro = match revisions.last() {
        Some(last) if *last.ruleset == *ruleset => format!(
            "As changed on {} by “{}”. <a href=\"../rulesets/{}.html\">What changed</a>.",
            super::context::date(last.time),
            escape(&last.summary),
            last.number
        ),
        Some(_) => "This ruleset has changes that are not in the game's git history yet.".into(),
        None => String::new(),
    };
    let mut context = cx.page(path, &heading, "ruleset")?;
    context.insert("heading", &heading);
    context.insert("intro", &intro);
    context.insert("sections", &sections);
    context.insert("glossary", &glossary);
    if let Some(text) = cx.render("ruleset.html", path, context)? {
        site.insert(path.into(), text);
    }
    Ok(())
}
