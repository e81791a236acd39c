//! A link check over a rendered site: every internal `href` and `src` of
//! every HTML page must name a file of the site, and its `#anchor` an `id`
//! in that file. Pure: it reads the rendered map, not the disk, so a
//! build can check itself before writing anything.

use std::collections::{BTreeMap, BTreeSet};

use super::Site;

/// A link that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct BrokenLink {
    /// The page it is on.
    pub page: String,
    /// The link as written.
    pub href: String,
    /// What is missing: the file, or the anchor in it.
    pub problem: String,
}

impl std::fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.page, self.href, self.problem)
    }
}

/// What one check saw.
#[derive(Debug, Clone, Default)]
pub struct LinkReport {
    /// Internal links followed.
    pub checked: usize,
    /// Those that lead nowhere, sorted.
    pub broken: Vec<BrokenLink>,
}

/// Checks every link of every `.html` page of `site`.
pub fn check(site: &Site) -> LinkReport {
    let ids: BTreeMap<&str, BTreeSet<&str>> = site
        .iter()
        .filter(|(path, _)| path.ends_with(".html"))
        .map(|(path, html)| (path.as_str(), attribute_values(html, " id=\"").collect()))
        .collect();
    let mut report = LinkReport::default();
    for (page, html) in site.iter().filter(|(p, _)| p.ends_with(".html")) {
        for raw in attribute_values(html, " href=\"").chain(attribute_values(html, " src=\"")) {
            let href = decode_entities(raw);
            if is_external(&href) {
                continue;
            }
            report.checked += 1;
            if let Err(problem) = follow(page, &href, site, &ids) {
                report.broken.push(BrokenLink {
                    page: page.clone(),
                    href,
                    problem,
                });
            }
        }
    }
    report.broken.sort();
    report
}

fn is_external(href: &str) -> bool {
    href.contains("://") || href.starts_with("mailto:") || href.starts_with("data:")
}

/// Where `href` on `page` leads, or what is missing there.
fn follow(
    page: &str,
    href: &str,
    site: &Site,
    ids: &BTreeMap<&str, BTreeSet<&str>>,
) -> Result<(), String> {
    let (target, anchor) = match href.split_once('#') {
        Some((t, a)) => (t, Some(a)),
        None => (href, None),
    };
    let target = target.split('?').next().unwrap_or_default();
    let file = if target.is_empty() {
        page.to_string()
    } else {
        resolve(page, target).ok_or_else(|| "leaves the site".to_string())?
    };
    // Opened from disk, a link to a folder shows the folder's listing, not
    // its index.html: every internal link names its file.
    let last = target.rsplit('/').next().unwrap_or_default();
    if !target.is_empty() && matches!(last, "" | "." | "..") {
        return Err(format!("names a folder, not its file {file}"));
    }
    if !site.contains_key(&file) {
        return Err(format!("no file {file}"));
    }
    match anchor {
        Some(a) if !a.is_empty() => {
            let found = ids.get(file.as_str()).is_some_and(|set| set.contains(a));
            if found {
                Ok(())
            } else {
                Err(format!("no id=\"{a}\" in {file}"))
            }
        }
        _ => Ok(()),
    }
}

/// The site path that `target` names from `page`: relative to the page's
/// directory, `..` resolved, a directory meaning its `index.html`.
fn resolve(page: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop(); // the page's own file name
    if target.starts_with('/') {
        parts.clear();
    }
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    let mut path = parts.join("/");
    if target.ends_with('/') || path.is_empty() {
        path = if path.is_empty() {
            "index.html".into()
        } else {
            format!("{path}/index.html")
        };
    }
    Some(path)
}

/// Every value of an attribute in the tags of `html`, `needle` being `
/// name="` (the renderer always double-quotes): only in tags, so text
/// that quotes HTML (`&lt;a href="x"&gt;`, shown as written) is no link.
fn attribute_values<'h>(html: &'h str, needle: &'static str) -> impl Iterator<Item = &'h str> {
    tags(html).flat_map(move |tag| {
        tag.match_indices(needle).filter_map(move |(at, _)| {
            let start = at + needle.len();
            tag[start..].find('"').map(|end| &tag[start..start + end])
        })
    })
}

/// The tags of `html`, each from its `<` to its `>` (a `>` inside a
/// quoted attribute value does not end it); comments, and the text of
/// scripts and styles, are no tags.
fn tags(html: &str) -> impl Iterator<Item = &str> {
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let at = rest.find('<')?;
            let after = &rest[at + 1..];
            if let Some(comment) = after.strip_prefix("!--") {
                let end = comment.find("-->").map_or(comment.len(), |e| e + 3);
                rest = &comment[end..];
                continue;
            }
            if !after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') {
                rest = after;
                continue;
            }
            let mut quote = None;
            let end = after
                .char_indices()
                .find(|&(_, c)| match quote {
                    Some(q) if c == q => {
                        quote = None;
                        false
                    }
                    Some(_) => false,
                    None if c == '"' || c == '\'' => {
                        quote = Some(c);
                        false
                    }
                    None => c == '>',
                })
                .map_or(after.len(), |(i, _)| i);
            let tag = &rest[at..at + 1 + end];
            rest = &after[end..];
            // A script's or style's text may hold anything.
            let name: String = tag[1..]
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_lowercase();
            if name == "script" || name == "style" {
                let close = format!("</{name}");
                let lower = rest.to_ascii_lowercase();
                rest = &rest[lower.find(&close).unwrap_or(rest.len())..];
            }
            return Some(tag);
        }
    })
}

fn decode_entities(text: &str) -> String {
    text.replace("&amp;", "&")
        .replace("&#x2F;", "/")
        .replace("&quot;", "\"")
}

/// A name's slug (see [`crate::text::slug`]); `player` when it has none.
pub(crate) fn slug(text: &str) -> String {
    crate::text::slug(text).unwrap_or_else(|| "player".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_attributes_of_tags_are_links() {
        let html = r#"<p class="x">&lt;a href="quoted.html"&gt; <code>href="code.html"</code> <a title="a > b" href="real.html">r</a><!-- <a href="commented.html"> --><script>let s = '<a href="script.html">';</script><img src="pic.png"></p>"#;
        let hrefs: Vec<&str> = attribute_values(html, " href=\"").collect();
        assert_eq!(hrefs, ["real.html"]);
        let srcs: Vec<&str> = attribute_values(html, " src=\"").collect();
        assert_eq!(srcs, ["pic.png"]);
    }

    fn site(pages: &[(&str, &str)]) -> Site {
        pages
            .iter()
            .map(|(p, h)| (p.to_string(), h.to_string()))
            .collect()
    }

    #[test]
    fn follows_relative_links_and_anchors() {
        let site = site(&[
            (
                "index.html",
                r##"<a href="ruleset/index.html#voting">v</a> <a href="https://x.invalid/">x</a>"##,
            ),
            (
                "ruleset/index.html",
                r##"<h2 id="voting"></h2><a href="../index.html">home</a><a href="#voting">self</a>"##,
            ),
            (
                "rules/voting/index.html",
                r##"<a href="../../ruleset/index.html#gone">g</a><a href="../../nowhere.html">n</a><a href="../../ruleset/">f</a><link href="../../style.css">"##,
            ),
            ("style.css", ""),
        ]);
        let report = check(&site);
        assert_eq!(report.checked, 7);
        let broken: Vec<String> = report.broken.iter().map(ToString::to_string).collect();
        assert_eq!(
            broken,
            [
                "rules/voting/index.html: ../../nowhere.html: no file nowhere.html",
                "rules/voting/index.html: ../../ruleset/: names a folder, not its file ruleset/index.html",
                "rules/voting/index.html: ../../ruleset/index.html#gone: no id=\"gone\" in ruleset/index.html",
            ]
        );
    }

    #[test]
    fn resolves_paths() {
        assert_eq!(
            resolve("a/b/index.html", "../c/").as_deref(),
            Some("a/c/index.html")
        );
        assert_eq!(
            resolve("a/index.html", "../").as_deref(),
            Some("index.html")
        );
        assert_eq!(resolve("index.html", "../x"), None);
        assert_eq!(
            resolve("a/index.html", "../feed.xml").as_deref(),
            Some("feed.xml")
        );
    }
}
