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
use std::sync::{Arc, LazyLock, Mutex};

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
    sanitise(&html, links.root, links.forge)
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
/// and an absolute path stay as written. One that climbs above the site's
/// root (`../../x`) leads nowhere the site is: it is dropped.
struct FromRoot(String);

impl<'a> UrlRelativeEvaluate<'a> for FromRoot {
    fn evaluate<'url>(&self, url: &'url str) -> Option<Cow<'url, str>> {
        if url.starts_with('#') || url.starts_with('/') {
            Some(Cow::Borrowed(url))
        } else if climbs_out(url) {
            None
        } else if self.0.is_empty() {
            Some(Cow::Borrowed(url))
        } else {
            Some(Cow::Owned(format!("{}{url}", self.0)))
        }
    }
}

/// Whether the relative `url`, read from the site's root, climbs above
/// it. Read as a browser reads it: `\` is a `/`, and `%2e` a dot.
fn climbs_out(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let mut depth = 0usize;
    for segment in path.split(['/', '\\']) {
        match segment.to_ascii_lowercase().replace("%2e", ".").as_str() {
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            },
            "." | "" => {}
            _ => depth += 1,
        }
    }
    false
}

/// Whether an image at `src` may be shown: a reader's browser asks its
/// host for it, and a comment's image from anywhere would tell anyone who
/// wrote one which readers opened the page, and when. Images from the
/// forge's own hosts (where it keeps what players attach) and from the
/// site itself (a plain relative path) are shown; any other keeps its
/// alternative text alone.
pub(crate) fn image_allowed(src: &str, hosts: &[String]) -> bool {
    // A browser drops leading and trailing controls and spaces, and tabs
    // and line breaks anywhere: `\u{1}//host` is `//host` to it. Any
    // control character left is refused rather than read as it would.
    let src = src.trim_matches(|c: char| c <= ' ');
    if src.chars().any(char::is_control) {
        return false;
    }
    let lower = src.get(..8).unwrap_or(src).to_ascii_lowercase();
    let scheme = ["https://", "http://"]
        .into_iter()
        .find(|s| lower.starts_with(s));
    let Some(rest) = scheme.map(|s| &src[s.len()..]) else {
        // No scheme, no host, no root: `a/b.png`.
        let scheme = src
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'));
        return !(scheme || src.starts_with(['/', '\\']) || src.contains('\\'));
    };
    let authority = rest.split(['/', '\\', '?', '#']).next().unwrap_or_default();
    let host = authority.to_ascii_lowercase();
    hosts.contains(&host)
}

/// The hosts images may come from (see [`image_allowed`]): the forge's,
/// and GitHub's own for its attachments when the forge is GitHub or not
/// known (the game's records most likely come from there).
fn image_hosts(forge: Option<&ForgeWeb>) -> Vec<String> {
    let host = forge.and_then(|f| {
        let rest = f.repo_url.split_once("://")?.1;
        Some(rest.split('/').next()?.to_ascii_lowercase())
    });
    let mut hosts: Vec<String> = host.iter().cloned().collect();
    if host.is_none_or(|h| h == "github.com") {
        hosts.extend(GITHUB_IMAGES.iter().map(ToString::to_string));
    }
    hosts
}

/// [`image_hosts`] for text rendered alike whatever the forge (the
/// game's rules and pages): those of a forge not known, made once.
pub(crate) fn any_forge_image_hosts() -> &'static [String] {
    static HOSTS: LazyLock<Vec<String>> = LazyLock::new(|| image_hosts(None));
    &HOSTS
}

/// Where GitHub keeps the images attached to comments.
const GITHUB_IMAGES: &[&str] = &[
    "github.com",
    "user-images.githubusercontent.com",
    "private-user-images.githubusercontent.com",
];

/// The sanitiser for pages whose way back to the site's root is `root`,
/// showing images from `hosts`.
fn builder(root: String, hosts: Vec<String>) -> Builder<'static> {
    let mut b = Builder::default();
    b.allowed_classes(HashMap::from([(
        "a",
        HashSet::from(["xref", "term", "matter"]),
    )]))
    .attribute_filter(move |element, attribute, value| {
        let shown = !(element == "img" && attribute == "src") || image_allowed(value, &hosts);
        shown.then_some(Cow::Borrowed(value))
    })
    .url_relative(UrlRelative::Custom(Box::new(FromRoot(root))));
    b
}

/// The sanitisers made so far, by the way back to the root and the forge's
/// address: making one costs more than cleaning a short comment, and a
/// build cleans thousands.
static BUILDERS: LazyLock<Mutex<Builders>> = LazyLock::new(Mutex::default);

/// Sanitisers by the way back to the root and the forge's address.
type Builders = HashMap<(String, Option<String>), Arc<Builder<'static>>>;

/// `html` sanitised, its relative links made relative to a page `root`
/// below the site's root, its images from `forge`'s hosts alone.
fn sanitise(html: &str, root: &str, forge: Option<&ForgeWeb>) -> String {
    let key = (root.to_string(), forge.map(|f| f.repo_url.clone()));
    let made = BUILDERS.lock().ok().and_then(|b| b.get(&key).cloned());
    let builder = made.unwrap_or_else(|| {
        let made = Arc::new(builder(root.to_string(), image_hosts(forge)));
        if let Ok(mut builders) = BUILDERS.lock() {
            builders.insert(key, Arc::clone(&made));
        }
        made
    });
    builder.clean(html).to_string()
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
    fn images_show_from_the_forge_and_the_site_alone() {
        let html = render(
            "![a](https://github.com/user-attachments/assets/1) ![b](https://tracker.invalid/p.png) <img src=\"//tracker.invalid/q.png\" alt=\"c\"> <img src=\"/\\tracker.invalid/r.png\" alt=\"d\"> ![e](pics/e.png) ![f](HTTPS://User-Images.GitHubUserContent.com/2) <img src=\"&#1;//tracker.invalid/s.png\" alt=\"g\"> <img src=\"pi&#9;cs/h.png\" alt=\"h\">",
            "../",
        );
        assert!(
            html.contains(r#"<img src="https://github.com/user-attachments/assets/1" alt="a">"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<img src="../pics/e.png" alt="e">"#),
            "{html}"
        );
        assert!(
            html.contains("User-Images.GitHubUserContent.com/2"),
            "{html}"
        );
        assert!(!html.contains("tracker.invalid"), "{html}");
        for alt in ["b", "c", "d", "g", "h"] {
            assert!(
                html.contains(&format!(r#"<img alt="{alt}">"#)),
                "{alt}: {html}"
            );
        }
        // A forge elsewhere: its own host, not GitHub's.
        let ruleset = crate::ruleset::Ruleset::default();
        let targets = Targets::new(&ruleset);
        let forge = ForgeWeb::new("https://codeberg.org", "ada/clockwork", "main");
        let links = BodyLinks {
            targets: &targets,
            root: "",
            forge: forge.as_ref(),
        };
        let html = to_html(
            "![a](https://codeberg.org/attachments/1) ![b](https://github.com/user-attachments/assets/1)",
            links,
        );
        assert!(
            html.contains(r#"src="https://codeberg.org/attachments/1""#),
            "{html}"
        );
        assert!(html.contains(r#"<img alt="b">"#), "{html}");
    }

    #[test]
    fn a_relative_link_that_climbs_out_of_the_site_is_dropped() {
        let html = render(
            "[a](../../etc/x) [b](%2E%2e/x) [c](ruleset/../../x) <a href=\"..\\x\">d</a> [e](ruleset/../players/index.html) [f](./stats/index.html?x=../..#y)",
            "../",
        );
        for text in ["a", "b", "c", "d"] {
            assert!(
                html.contains(&format!("<a rel=\"noopener noreferrer\">{text}</a>")),
                "{text}: {html}"
            );
        }
        assert!(
            html.contains(r#"href="../ruleset/../players/index.html""#),
            "{html}"
        );
        assert!(
            html.contains(r#"href=".././stats/index.html?x=../..#y""#),
            "{html}"
        );
    }

    #[test]
    fn mentions_are_found_where_the_forge_finds_them() {
        let found =
            |t: &str| -> Vec<u64> { matter_mentions(t).into_iter().map(|(_, n)| n).collect() };
        assert_eq!(found("#1, (#22) and #3."), [1, 22, 3]);
        assert!(found("a#1 &#1 /#1 #1a #x ## #").is_empty());
    }
}
