//! Forge text as the forge shows it: a matter's body (and, on its page, the
//! comments of its discussion) rendered from Markdown with its raw HTML
//! kept, then sanitised by `ammonia`, a well-kept HTML sanitiser built on a
//! real HTML parser (html5ever): what the forge lets through (`<details>`,
//! `<kbd>`, `<sub>`, tables) shows as it does there; scripts, styles, event
//! handlers, ids and unsafe URL schemes do not. Rule text is not forge
//! text: it keeps showing raw HTML as text ([`super::xref::to_html`]).
//! Both are one walk over the Markdown ([`super::xref::walk`]), which
//! keeps the raw HTML here for the sanitiser.
//!
//! Links are written from the site's root and then made relative to the
//! page (`ruleset/index.html` becomes `../ruleset/index.html` on a page one
//! directory deep), so a body's relative link leads to the same file from
//! the home page, the pending page and a matter's page. `#12` links to
//! matter 12's thread on the forge, when the repository is known. Pure.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::LazyLock;

use ammonia::{Builder, UrlRelative, UrlRelativeEvaluate};

use super::escape::escape_into;
use super::xref::{self, RawHtml, Targets};
use crate::game::weblinks::ForgeWeb;

/// Where a body's links lead.
#[derive(Clone, Copy)]
pub(crate) struct BodyLinks<'a> {
    /// The ruleset's link targets (rule references, glossary terms).
    pub(crate) targets: &'a Targets,
    /// The way back to the site's root from the page (`../`).
    pub(crate) root: &'a str,
    /// The game's repository, for `#12` (none: `#12` stays text).
    pub(crate) forge: Option<&'a ForgeWeb>,
}

/// The ruleset page from the site's root, where references link.
const RULESET: &str = "ruleset/index.html";

/// `markdown` as sanitised HTML, its references to rules, glossary terms
/// and matters linked, every relative link made relative to the page.
pub(crate) fn to_html(markdown: &str, links: BodyLinks<'_>) -> String {
    let html = xref::walk(markdown, RawHtml::Kept, |text, linked| {
        link_text(text, links, linked)
    });
    sanitise(&html, links.root)
}

/// `text` as HTML: escaped, with rule references and first uses of
/// glossary terms linked (as in rule text), and `#12` linked to the
/// forge's thread; `None` when there is nothing to link.
fn link_text(text: &str, links: BodyLinks<'_>, linked: &mut BTreeSet<String>) -> Option<String> {
    let references = |piece: &str, linked: &mut BTreeSet<String>| {
        xref::link_references(piece, links.targets, RULESET, linked)
    };
    let mentions = match links.forge {
        Some(forge) => matter_mentions(text)
            .into_iter()
            .map(|(range, number)| (range, forge.thread_url(number)))
            .collect(),
        None => Vec::new(),
    };
    if mentions.is_empty() {
        return references(text, linked);
    }
    let mut out = String::new();
    let mut plain = |out: &mut String, piece: &str| match references(piece, linked) {
        Some(html) => out.push_str(&html),
        None => escape_into(out, piece),
    };
    let mut last = 0;
    for (range, thread) in mentions {
        plain(&mut out, &text[last..range.start]);
        out.push_str("<a class=\"matter\" href=\"");
        escape_into(&mut out, &thread);
        out.push_str("\">");
        escape_into(&mut out, &text[range.clone()]);
        out.push_str("</a>");
        last = range.end;
    }
    plain(&mut out, &text[last..]);
    Some(out)
}

/// Where `text` mentions a matter as the forge autolinks one: `#` and
/// digits, not inside a word, a URL or an entity (`a#1`, `/#1`, `&#1`),
/// and not followed by a word character.
pub(crate) fn matter_mentions(text: &str) -> Vec<(std::ops::Range<usize>, u64)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    for (at, _) in text.match_indices('#') {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '&' | '/' | '#' | '_')) {
            continue;
        }
        let digits = bytes[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let end = at + 1 + digits;
        let after = text[end..].chars().next();
        if digits == 0 || digits > 9 || after.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Ok(n) = text[at + 1..end].parse::<u64>() {
            found.push((at..end, n));
        }
    }
    found
}

/// A relative link made relative to the page: written from the site's
/// root, it is put after the way back to the root. A fragment (`#x`)
/// and an absolute path stay as written.
struct FromRoot(String);

impl<'a> UrlRelativeEvaluate<'a> for FromRoot {
    fn evaluate<'url>(&self, url: &'url str) -> Option<Cow<'url, str>> {
        if url.starts_with('#') || url.starts_with('/') || self.0.is_empty() {
            Some(Cow::Borrowed(url))
        } else {
            Some(Cow::Owned(format!("{}{url}", self.0)))
        }
    }
}

/// The sanitiser for pages whose way back to the site's root is `root`.
fn builder(root: String) -> Builder<'static> {
    let mut b = Builder::default();
    b.allowed_classes(HashMap::from([(
        "a",
        HashSet::from(["xref", "term", "matter"]),
    )]))
    .url_relative(UrlRelative::Custom(Box::new(FromRoot(root))));
    b
}

/// The sanitisers for pages up to three directories deep, made once.
static BUILDERS: LazyLock<Vec<Builder<'static>>> =
    LazyLock::new(|| (0..4).map(|depth| builder("../".repeat(depth))).collect());

/// `html` sanitised, its relative links made relative to a page `root`
/// below the site's root.
fn sanitise(html: &str, root: &str) -> String {
    let depth = root.matches("../").count();
    match BUILDERS.get(depth) {
        Some(b) if root.len() == 3 * depth => b.clean(html).to_string(),
        _ => builder(root.to_string()).clean(html).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(markdown: &str, root: &str) -> String {
        let ruleset = crate::ruleset::Ruleset::default();
        let targets = Targets::new(&ruleset);
        let forge = ForgeWeb::new("https://github.com", "ada/clockwork", "main");
        to_html(
            markdown,
            BodyLinks {
                targets: &targets,
                root,
                forge: forge.as_ref(),
            },
        )
    }

    #[test]
    fn raw_html_is_sanitised_not_escaped() {
        let html = render(
            "<details><summary>Why</summary>\n\nBecause <kbd>x</kbd>.\n\n</details>\n\n<script>alert(1)</script><img src=x onerror=alert(2)> <a href=\"javascript:alert(3)\">j</a> <b style=\"color:red\" id=\"pending\">bold</b>",
            "",
        );
        assert!(html.contains("<details><summary>Why</summary>"), "{html}");
        assert!(html.contains("<kbd>x</kbd>"), "{html}");
        assert!(html.contains("<b>bold</b>"), "no style, no id: {html}");
        for bad in [
            "<script",
            "alert(1)",
            "onerror",
            "javascript:",
            "&lt;details",
        ] {
            assert!(!html.contains(bad), "{bad} in {html}");
        }
    }

    #[test]
    fn a_mention_links_to_the_forges_thread_and_relative_links_to_the_root() {
        let html = render(
            "As #6 said (not a#7, [#8](https://x.invalid/), `#9`), see [the rules](ruleset/index.html) and [here](#top).",
            "../",
        );
        assert!(
            html.contains(r#"<a class="matter" href="https://github.com/ada/clockwork/issues/6" rel="noopener noreferrer">#6</a>"#),
            "{html}"
        );
        assert!(
            !html.contains("issues/7") && !html.contains("issues/9"),
            "{html}"
        );
        assert!(html.contains(r#"href="../ruleset/index.html""#), "{html}");
        assert!(html.contains(r##"href="#top""##), "{html}");
        let home = render("[the rules](ruleset/index.html)", "");
        assert!(home.contains(r#"href="ruleset/index.html""#), "{home}");
    }

    #[test]
    fn mentions_are_found_where_the_forge_finds_them() {
        let found =
            |t: &str| -> Vec<u64> { matter_mentions(t).into_iter().map(|(_, n)| n).collect() };
        assert_eq!(found("#1, (#22) and #3."), [1, 22, 3]);
        assert!(found("a#1 &#1 /#1 #1a #x ## #").is_empty());
    }
}
