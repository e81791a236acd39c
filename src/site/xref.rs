//! Rule text to HTML, with cross-references linked: "Rule 2.5" and "the
//! rule entitled “Invasion”" become links to that rule when exactly one
//! rule answers to them. Text already inside a link, an image or code is
//! left alone. Raw HTML in the text is shown as text, not run: rule text
//! and matters come from anyone's pull request.
//!
//! [`walk`] is the one pass over Markdown that both rule text (here) and
//! forge text ([`super::body`], which keeps raw HTML for its sanitiser)
//! make: what differs between them is said by its arguments.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::{LazyLock, Mutex};

use pulldown_cmark::{CowStr, Event, Tag, TagEnd, TextMergeStream};
use regex::Regex;

use super::escape::escape_into;
use crate::ruleset::Ruleset;

/// "Rule 2.5" (a number with at least two parts), "rule [entitled]
/// “Title”", or a bare quoted “Title” (“Changes to Pending Proposals”
/// says…), with curly or straight quotes. A bare quotation links only
/// when it is exactly one rule's title.
static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\brule\s+(?:(\d+(?:\.\d+)+)\b|(?:entitled\s+)?[“"]([^”"\n]{1,120})[”"])|[“"]([^”"\n]{1,120})[”"]"#,
    )
        .unwrap_or_else(|e| unreachable!("the reference pattern is valid: {e}"))
});

/// What references can point at in one ruleset: numbers and titles to ids.
pub(crate) struct Targets {
    /// A hash of the maps below: two rulesets with the same fingerprint
    /// link the same text the same way, so rendered text can be shared.
    pub(crate) fingerprint: u64,
    by_number: BTreeMap<String, String>,
    /// Lowercased title → the id, or `None` when two rules share it.
    by_title: BTreeMap<String, Option<String>>,
    /// The glossary: lowercased term → its entry's anchor, and a pattern
    /// that finds any term (or its plural) as a whole word.
    terms: Option<(Regex, BTreeMap<String, String>)>,
}

impl Targets {
    /// The targets of `ruleset` (rendered, so titles read as players see them).
    pub(crate) fn new(ruleset: &Ruleset) -> Self {
        Targets::new_like(ruleset, None)
    }

    /// [`Targets::new`], taking the glossary's pattern from `like` (the
    /// targets of the revision before, say) when it has the same terms:
    /// compiling it is most of the work, and a glossary seldom changes.
    pub(crate) fn new_like(ruleset: &Ruleset, like: Option<&Targets>) -> Self {
        let mut by_title: BTreeMap<String, Option<String>> = BTreeMap::new();
        for rule in &ruleset.rules {
            by_title
                .entry(rule.title.trim().to_lowercase())
                .and_modify(|id| *id = None)
                .or_insert_with(|| Some(rule.id.to_string()));
        }
        let by_number = ruleset
            .rules
            .iter()
            .map(|r| (r.number.to_string(), r.id.to_string()))
            .collect();
        let mut terms = BTreeMap::new();
        for rule in &ruleset.rules {
            for t in &rule.terms {
                let anchor = format!("_term-{}-{}", rule.id, super::links::slug(&t.term));
                terms.entry(t.term.trim().to_string()).or_insert(anchor);
            }
        }
        Targets::from_maps(by_number, by_title).with_terms(terms, like)
    }

    /// These targets, with glossary terms (as the glossary writes them)
    /// linking to their entries' anchors (as the ruleset's glossary makes
    /// them). A term links only where it is written as the glossary
    /// writes it, or in capitals: a defined "Matter" or "May" is the game's
    /// word, "front matter" or "you may" is English. The compiled pattern
    /// is taken from `like` when it is the same.
    pub(crate) fn with_terms(
        mut self,
        written: BTreeMap<String, String>,
        like: Option<&Targets>,
    ) -> Self {
        let mut words: Vec<String> = written
            .keys()
            .filter(|t| !t.is_empty())
            .flat_map(|t| [t.clone(), t.to_uppercase()])
            .collect();
        words.sort_unstable();
        words.dedup();
        // Longest first, so "Active Player" wins over "Player".
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        if words.is_empty() {
            return self;
        }
        let mut terms = BTreeMap::new();
        for (term, anchor) in written {
            terms.entry(term.to_lowercase()).or_insert(anchor);
        }
        let alternatives: Vec<String> = words.iter().map(|w| regex::escape(w)).collect();
        // ASCII word boundaries: the regex engine's fastest, and terms are
        // words of the rules' language.
        let pattern = format!(r"(?-u:\b)(?:{})[sS]?(?-u:\b)", alternatives.join("|"));
        let regex = match like.and_then(|t| t.terms.as_ref()) {
            Some((regex, _)) if regex.as_str() == pattern => regex.clone(),
            _ => match Regex::new(&pattern) {
                Ok(regex) => regex,
                Err(_) => return self,
            },
        };
        let mut hasher = DefaultHasher::new();
        (self.fingerprint, &terms).hash(&mut hasher);
        self.fingerprint = hasher.finish();
        self.terms = Some((regex, terms));
        self
    }

    /// The anchor of the glossary entry `word` (a term, or its plural).
    fn term(&self, word: &str) -> Option<&str> {
        let terms = &self.terms.as_ref()?.1;
        let lower = word.to_lowercase();
        terms
            .get(&lower)
            .or_else(|| terms.get(lower.strip_suffix('s')?))
            .map(String::as_str)
    }

    pub(crate) fn from_maps(
        by_number: BTreeMap<String, String>,
        by_title: BTreeMap<String, Option<String>>,
    ) -> Self {
        let mut hasher = DefaultHasher::new();
        (&by_number, &by_title).hash(&mut hasher);
        Targets {
            fingerprint: hasher.finish(),
            by_number,
            by_title,
            terms: None,
        }
    }

    fn resolve(&self, number: Option<&str>, title: Option<&str>) -> Option<&str> {
        match (number, title) {
            (Some(n), _) => self.by_number.get(n).map(String::as_str),
            (None, Some(t)) => self
                .by_title
                .get(&t.trim().to_lowercase())
                .and_then(|id| id.as_deref()),
            (None, None) => None,
        }
    }
}

/// Renders `markdown` to HTML; references link to `{prefix}#{id}` (an
/// empty prefix when the rule is on the same page).
pub(crate) fn to_html(markdown: &str, targets: &Targets, prefix: &str) -> String {
    walk(markdown, RawHtml::AsText, |text, linked| {
        link_references(text, targets, prefix, linked)
    })
}

/// What a [`walk`] makes of raw HTML in the Markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RawHtml {
    /// Shown as the text it is (rule text: nothing in it runs).
    AsText,
    /// Kept, for a sanitiser to clean after (forge text, shown as the
    /// forge shows it).
    Kept,
}

/// `markdown` to HTML, unsafe link schemes dropped, raw HTML as `raw`
/// says, and every text outside links, images and code given to `link`,
/// which returns it as HTML with links in it, or `None` to leave it as
/// text. `link` also gets the glossary anchors linked so far in this
/// text, so that a term links at its first use only.
pub(crate) fn walk(
    markdown: &str,
    raw: RawHtml,
    mut link: impl FnMut(&str, &mut BTreeSet<String>) -> Option<String>,
) -> String {
    let mut depth = 0usize; // inside links and images: leave alone
    let mut code = 0usize; // inside code blocks: text is code
    let mut linked: BTreeSet<String> = BTreeSet::new();
    // Whether each image open is shown: with no sanitiser after, an image
    // from anywhere but the site and the forge shows its text alone (see
    // [`super::body::image_allowed`]).
    let mut images: Vec<bool> = Vec::new();
    let nothing = || Event::Text(CowStr::Borrowed(""));
    let events =
        crate::markdown::safe_links(TextMergeStream::new(crate::markdown::parser(markdown)));
    let events = events.map(|event| match event {
        Event::Start(Tag::Image { ref dest_url, .. }) if raw == RawHtml::AsText => {
            depth += 1;
            let shown = super::body::image_allowed(dest_url, super::body::any_forge_image_hosts());
            images.push(shown);
            if shown { event } else { nothing() }
        }
        Event::End(TagEnd::Image) if raw == RawHtml::AsText => {
            depth = depth.saturating_sub(1);
            if images.pop().unwrap_or(true) {
                event
            } else {
                nothing()
            }
        }
        Event::Start(Tag::Link { .. } | Tag::Image { .. }) => {
            depth += 1;
            event
        }
        Event::End(TagEnd::Link | TagEnd::Image) => {
            depth = depth.saturating_sub(1);
            event
        }
        Event::Start(Tag::CodeBlock(_)) => {
            code += 1;
            event
        }
        Event::End(TagEnd::CodeBlock) => {
            code = code.saturating_sub(1);
            event
        }
        Event::Html(text) | Event::InlineHtml(text) if raw == RawHtml::AsText => Event::Text(text),
        Event::Text(text) if depth == 0 && code == 0 => match link(&text, &mut linked) {
            Some(html) => Event::InlineHtml(CowStr::from(html)),
            None => Event::Text(text),
        },
        other => other,
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// Rendered Markdown shared across pages and revisions, keyed by the text,
/// the link prefix and the targets' fingerprint: a rule unchanged over a
/// hundred revisions is rendered once, not a hundred times.
#[derive(Default)]
pub(crate) struct HtmlCache(Mutex<HashMap<(String, String, u64), String>>);

impl HtmlCache {
    /// [`to_html`], from the cache when the same text was rendered before.
    pub(crate) fn to_html(&self, markdown: &str, targets: &Targets, prefix: &str) -> String {
        let key = (
            markdown.to_string(),
            prefix.to_string(),
            targets.fingerprint,
        );
        if let Some(html) = self.0.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return html;
        }
        let html = to_html(markdown, targets, prefix);
        if let Ok(mut map) = self.0.lock() {
            map.insert(key, html.clone());
        }
        html
    }
}

/// Where `text` refers to exactly one rule: each reference's byte range
/// and the id of its rule, in order.
pub(crate) fn references<'t>(text: &str, targets: &'t Targets) -> Vec<(Range<usize>, &'t str)> {
    REFERENCE
        .captures_iter(text)
        .filter_map(|found| {
            let whole = found.get(0)?;
            let number = found.get(1).map(|m| m.as_str());
            let title = found.get(2).or_else(|| found.get(3)).map(|m| m.as_str());
            Some((whole.range(), targets.resolve(number, title)?))
        })
        .collect()
}

/// Appends the opening tag of a cross-reference to `{prefix}#{id}`.
pub(crate) fn open_link(out: &mut String, prefix: &str, id: &str) {
    open_anchor(out, "xref", prefix, id);
}

/// Appends the opening tag of a link of `class` to `{prefix}#{id}`.
fn open_anchor(out: &mut String, class: &str, prefix: &str, id: &str) {
    out.push_str("<a class=\"");
    out.push_str(class);
    out.push_str("\" href=\"");
    escape_into(out, prefix);
    out.push('#');
    escape_into(out, id);
    out.push_str("\">");
}

/// The text as HTML with its references linked, and the first use of
/// each glossary term not in `linked` yet (then added to it); `None` when
/// there is nothing to link.
pub(crate) fn link_references(
    text: &str,
    targets: &Targets,
    prefix: &str,
    linked: &mut BTreeSet<String>,
) -> Option<String> {
    let mut found: Vec<(Range<usize>, &str, &str)> = references(text, targets)
        .into_iter()
        .map(|(range, id)| (range, id, "xref"))
        .collect();
    if let Some((pattern, _)) = &targets.terms {
        for m in pattern.find_iter(text) {
            let overlaps = found
                .iter()
                .any(|(r, _, _)| r.start < m.end() && m.start() < r.end);
            let Some(anchor) = targets.term(m.as_str()) else {
                continue;
            };
            if !overlaps && linked.insert(anchor.to_string()) {
                found.push((m.range(), anchor, "term"));
            }
        }
        found.sort_by_key(|(r, _, _)| r.start);
    }
    if found.is_empty() {
        return None;
    }
    let mut out = String::new();
    let mut last = 0;
    for (range, id, class) in found {
        escape_into(&mut out, &text[last..range.start]);
        open_anchor(&mut out, class, prefix, id);
        escape_into(&mut out, &text[range.clone()]);
        out.push_str("</a>");
        last = range.end;
    }
    escape_into(&mut out, &text[last..]);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets() -> Targets {
        let by_number = [("1.2", "voting"), ("2.5", "invasion"), ("2.6", "raids")]
            .map(|(n, id)| (n.to_string(), id.to_string()))
            .into();
        let by_title = [
            ("invasion", Some("invasion")),
            ("raids", None), // two rules are called Raids
        ]
        .map(|(t, id)| (t.to_string(), id.map(str::to_string)))
        .into();
        Targets::from_maps(by_number, by_title)
    }

    #[test]
    fn a_rules_image_shows_from_the_site_and_the_forge_alone() {
        let html = to_html(
            "![cog](https://tracker.invalid/p.png) ![gear](pics/g.png) [![wheel](//tracker.invalid/w.png)](https://x.invalid/) ![up](https://github.com/user-attachments/assets/1)",
            &targets(),
            "",
        );
        assert_eq!(
            html,
            "<p>cog <img src=\"pics/g.png\" alt=\"gear\" /> <a href=\"https://x.invalid/\">wheel</a> \
             <img src=\"https://github.com/user-attachments/assets/1\" alt=\"up\" /></p>\n"
        );
    }

    #[test]
    fn a_glossary_term_links_to_its_entry_at_its_first_use() {
        let terms = [("Spring".to_string(), "_term-keywords-spring".to_string())].into();
        let targets = targets().with_terms(terms, None);
        let html = to_html(
            "Each Spring costs one. Springs wind. See [a Spring](#x) and Rule 1.2.",
            &targets,
            "../ruleset/index.html",
        );
        assert_eq!(
            html,
            "<p>Each <a class=\"term\" href=\"../ruleset/index.html#_term-keywords-spring\">Spring</a> \
             costs one. Springs wind. See <a href=\"#x\">a Spring</a> and \
             <a class=\"xref\" href=\"../ruleset/index.html#voting\">Rule 1.2</a>.</p>\n"
        );
        assert_ne!(targets.fingerprint, super::tests::targets().fingerprint);
        // Only as the glossary writes it, or in capitals: "spring" is English.
        let lower = to_html("A spring, then a SPRING.", &targets, "");
        assert_eq!(
            lower,
            "<p>A spring, then a <a class=\"term\" href=\"#_term-keywords-spring\">SPRING</a>.</p>\n"
        );
    }

    #[test]
    fn a_pattern_taken_from_other_targets_is_taken_only_when_the_same() {
        let spring = || [("Spring".to_string(), "_term-k-spring".to_string())].into();
        let gear = [("Gear".to_string(), "_term-k-gear".to_string())].into();
        let first = targets().with_terms(spring(), None);
        let same = targets().with_terms(spring(), Some(&first));
        let other = targets().with_terms(gear, Some(&first));
        let text = "A Spring and a Gear.";
        assert_eq!(to_html(text, &same, ""), to_html(text, &first, ""));
        assert_eq!(
            to_html(text, &other, ""),
            "<p>A Spring and a <a class=\"term\" href=\"#_term-k-gear\">Gear</a>.</p>\n"
        );
    }

    #[test]
    fn links_numbers_and_unambiguous_titles() {
        let html = to_html(
            "See Rule 2.5 and the rule entitled \"Invasion\"; rule 9.9 is gone.",
            &targets(),
            "",
        );
        assert_eq!(
            html,
            "<p>See <a class=\"xref\" href=\"#invasion\">Rule 2.5</a> and the \
             <a class=\"xref\" href=\"#invasion\">rule entitled “Invasion”</a>; rule 9.9 is gone.</p>\n"
        );
        let bare = to_html(
            "“Invasion” says so, as the Appendix entry \"Invasion\" does; “Raids” and “Tea” do not.",
            &targets(),
            "",
        );
        assert_eq!(
            bare,
            "<p><a class=\"xref\" href=\"#invasion\">“Invasion”</a> says so, as the Appendix entry \
             <a class=\"xref\" href=\"#invasion\">“Invasion”</a> does; “Raids” and “Tea” do not.</p>\n"
        );
    }

    #[test]
    fn leaves_ambiguous_titles_links_and_code_alone() {
        let html = to_html(
            "The Rule “Raids”, [Rule 1.2](#x), `Rule 1.2` & Rule 1.2 <b>",
            &targets(),
            "../ruleset/",
        );
        assert!(html.contains("The Rule “Raids”,"), "{html}");
        assert!(html.contains("<a href=\"#x\">Rule 1.2</a>"), "{html}");
        assert!(html.contains("<code>Rule 1.2</code>"), "{html}");
        assert!(
            html.contains(
                "&amp; <a class=\"xref\" href=\"../ruleset/#voting\">Rule 1.2</a> &lt;b&gt;"
            ),
            "{html}"
        );
        let block = to_html("```\nRule 1.2 <b>\n```\n", &targets(), "");
        assert_eq!(
            block, "<pre><code>Rule 1.2 &lt;b&gt;\n</code></pre>\n",
            "a code block is code: no link in it"
        );
    }
}
