//! Plain pages of `content/pages/` (how to play, how to vote). Pure.
//!
//! Records of resolved matters (`content/matters/`) are written by the
//! resolver and read by the site; this module holds the pages players write.

use serde::Deserialize;

use crate::error::{Diagnostic, Diagnostics, toml_diagnostic};
use crate::source::{SourceFile, split_front_matter};

/// A page of the site written as Markdown.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// Where it was read from.
    pub path: String,
    /// Its title.
    pub title: String,
    /// Sort key among pages (pages without one come last).
    pub order: Option<i64>,
    /// The Markdown body.
    pub body: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PageFront {
    title: String,
    order: Option<i64>,
}

/// Parses every `content/pages/*.md`, sorted by order then path.
pub fn parse_pages(files: &[SourceFile]) -> (Vec<Page>, Diagnostics) {
    let mut problems = Diagnostics::new();
    let mut pages = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.path.starts_with("content/pages/") && f.path.ends_with(".md"))
    {
        let Some((front, body, _)) = split_front_matter(&file.text) else {
            problems.push(Diagnostic::new(
                &file.path,
                1,
                "a page must start with TOML front matter between `+++` lines",
            ));
            continue;
        };
        match toml::from_str::<PageFront>(front) {
            Ok(f) => pages.push(Page {
                path: file.path.clone(),
                title: f.title,
                order: f.order,
                body: body.to_string(),
            }),
            Err(e) => problems.push(toml_diagnostic(&file.path, front, 2, &e)),
        }
    }
    pages.sort_by(|a, b| {
        (a.order.is_none(), a.order, &a.path).cmp(&(b.order.is_none(), b.order, &b.path))
    });
    (pages, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_orders_pages() {
        let files = [
            SourceFile::new(
                "content/pages/b.md",
                "+++\ntitle = \"B\"\norder = 1\n+++\nbody",
            ),
            SourceFile::new("content/pages/a.md", "+++\ntitle = \"A\"\n+++\n"),
            SourceFile::new(
                "content/pages/c.md",
                "+++\ntitle = \"C\"\nweight = 2\n+++\n",
            ),
        ];
        let (pages, problems) = parse_pages(&files);
        let titles: Vec<&str> = pages.iter().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["B", "A"]);
        assert_eq!(problems.len(), 1);
        assert!(
            problems
                .iter()
                .next()
                .unwrap()
                .to_string()
                .starts_with("content/pages/c.md:3:")
        );
    }
}
