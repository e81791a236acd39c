//! Reading a dump into classified lines: wiki chrome dropped, section
//! headings, list items and plain text told apart. Pure.
//!
//! The wiki chrome of a printed MediaWiki page is recognised only where
//! it occurs: before the first section heading (the page title, "From …
//! Wiki", the revision banner, the diff navigation, "Jump to navigation")
//! and after the text (from `Retrieved from "…"` or `Navigation menu` to
//! the end). The page title, the first line, names the ruleset. A table
//! of contents printed before the first heading ("Contents", then lines
//! such as `2.4.1 Powers`) is kept aside: it numbers the rules.

use super::section::ContentsEntry;
use super::{ImportError, Marker};
use crate::ruleset::SectionKind;

/// What a kept line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A section heading (`Core Rules`, `Dynastic Rules`, `Glossary`, `Appendix`).
    Heading(SectionKind),
    /// A line of text: a title or a paragraph of a body.
    Text,
    /// A list item; `level` 1 is the outermost.
    Item {
        /// The kind of marker it had.
        marker: Marker,
        /// Its nesting level (from its indentation).
        level: usize,
    },
}

/// One non-blank, non-chrome line of the dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    /// 1-based line number in the dump.
    pub(crate) no: usize,
    /// What it is.
    pub(crate) kind: Kind,
    /// Its text, trimmed, without the list marker.
    pub(crate) text: String,
    /// Whether blank lines (or nothing) surround it: a block of its own.
    /// Always true in the compact style, which has no blank lines.
    pub(crate) alone: bool,
}

/// The dump, classified.
#[derive(Debug, Clone)]
pub(crate) struct Scan {
    /// The page title (the ruleset's name), if there is one.
    pub(crate) name: Option<(usize, String)>,
    /// The kept lines, from the first section heading on.
    pub(crate) lines: Vec<Line>,
    /// Line numbers of dropped lines that are not known chrome.
    pub(crate) unrecognised: Vec<usize>,
    /// The numbered entries of the wiki's table of contents, if printed.
    pub(crate) contents: Vec<ContentsEntry>,
}

/// An entry of a printed table of contents: `2.4.1 Powers`.
pub(crate) fn contents_entry(no: usize, line: &str) -> Option<ContentsEntry> {
    let (number, title) = line.split_once(char::is_whitespace)?;
    let number: Option<Vec<u32>> = number
        .trim_end_matches('.')
        .split('.')
        .map(|p| p.parse().ok())
        .collect();
    let title = title.trim();
    (!title.is_empty()).then_some(())?;
    Some(ContentsEntry {
        line: no,
        number: number?,
        title: title.to_string(),
    })
}

/// Chrome lines seen before the first heading, matched on the whole line.
fn is_head_chrome(line: &str) -> bool {
    line == "From BlogNomic Wiki"
        || line == "Jump to navigation Jump to search"
        || line.starts_with("Revision as of ")
        || line.starts_with("(diff) ← Older revision")
}

/// The first line of the footer a printed wiki page ends with.
fn starts_footer(line: &str) -> bool {
    line.starts_with("Retrieved from \"") || line == "Navigation menu"
}

/// The section a whole line names, if it is a heading.
pub(crate) fn heading(line: &str) -> Option<SectionKind> {
    let name = line.trim().trim_end_matches(':').trim().to_lowercase();
    match name.as_str() {
        "core rules" => Some(SectionKind::Core),
        "dynastic rules" => Some(SectionKind::Dynastic),
        "glossary" => Some(SectionKind::Glossary),
        "appendix" | "appendices" => Some(SectionKind::Appendix),
        _ => None,
    }
}

/// Headings come in this order, each at most once; a later line with an
/// earlier heading's name is text.
fn rank(kind: SectionKind) -> u8 {
    match kind {
        SectionKind::Core => 1,
        SectionKind::Dynastic => 2,
        SectionKind::Appendix | SectionKind::Glossary => 3,
    }
}

/// A list item: `  • text`, `- text`, `* text`, `  3. text` or `3) text`.
pub(crate) fn item(raw: &str) -> Option<(Marker, usize, &str)> {
    let rest = raw.trim_start();
    let indent = raw.len() - rest.len();
    let level = (indent / 2).max(1);
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    let after = if matches!(first, '•' | '·' | '*' | '-') {
        let marker = if first == '-' {
            Marker::Dash
        } else {
            Marker::Bullet
        };
        (marker, &rest[first.len_utf8()..])
    } else {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let punct = rest.as_bytes().get(digits).copied();
        if !(1..=3).contains(&digits) || !matches!(punct, Some(b'.' | b')')) {
            return None;
        }
        let n = rest[..digits].parse().ok()?;
        (Marker::Number(n), &rest[digits + 1..])
    };
    let (marker, tail) = after;
    let text = tail.trim_start();
    let spaced = tail.len() > text.len();
    (spaced && !text.is_empty()).then_some((marker, level, text.trim_end()))
}

/// Classifies the dump's lines. Fails when it has no section heading.
pub(crate) fn scan(text: &str) -> Result<Scan, ImportError> {
    let raw: Vec<&str> = text.lines().map(str::trim_end).collect();
    let first = raw
        .iter()
        .position(|l| heading(l) == Some(SectionKind::Core))
        .or_else(|| raw.iter().position(|l| heading(l).is_some()))
        .ok_or(ImportError::NoSections)?;
    let mut name = None;
    let mut unrecognised = Vec::new();
    let mut contents = Vec::new();
    let mut in_contents = false;
    for (i, line) in raw[..first].iter().enumerate() {
        let line = line.trim();
        if line.is_empty() || is_head_chrome(line) {
            continue;
        }
        if line == "Contents" || line.starts_with("Contents [") {
            in_contents = true;
            continue;
        }
        if in_contents {
            if let Some(entry) = contents_entry(i + 1, line) {
                contents.push(entry);
                continue;
            }
            in_contents = false;
        }
        if name.is_none() {
            name = Some((i + 1, line.to_string()));
        } else {
            unrecognised.push(i + 1);
        }
    }
    let end = raw[first..]
        .iter()
        .position(|l| starts_footer(l.trim()))
        .map_or(raw.len(), |p| first + p);
    let body = &raw[first..end];
    let blank = body.iter().filter(|l| l.trim().is_empty()).count();
    let spaced = blank * 3 >= body.len() - blank;
    let is_blank = |i: usize| body.get(i).is_none_or(|l| l.trim().is_empty());
    let mut lines = Vec::new();
    let mut last_rank = 0;
    for (i, line) in body.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let alone = !spaced || ((i == 0 || is_blank(i - 1)) && is_blank(i + 1));
        let (kind, text) = classify(line, &mut last_rank);
        lines.push(Line {
            no: first + i + 1,
            kind,
            text,
            alone,
        });
    }
    Ok(Scan {
        name,
        lines,
        unrecognised,
        contents,
    })
}

fn classify(line: &str, last_rank: &mut u8) -> (Kind, String) {
    if let Some(kind) = heading(line).filter(|k| rank(*k) > *last_rank) {
        *last_rank = rank(kind);
        return (Kind::Heading(kind), line.trim().to_string());
    }
    match item(line) {
        Some((marker, level, text)) => (Kind::Item { marker, level }, text.to_string()),
        None => (Kind::Text, line.trim().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_items_and_their_levels() {
        assert_eq!(item("  • Top"), Some((Marker::Bullet, 1, "Top")));
        assert_eq!(item("    • Inner"), Some((Marker::Bullet, 2, "Inner")));
        assert_eq!(item("- Dash"), Some((Marker::Dash, 1, "Dash")));
        assert_eq!(
            item("  12. Twelfth"),
            Some((Marker::Number(12), 1, "Twelfth"))
        );
        assert_eq!(item("-5 is negative"), None);
        assert_eq!(item("2.5 is a number"), None);
        assert_eq!(item("Plain text"), None);
        assert_eq!(item("- "), None);
    }

    #[test]
    fn drops_chrome_and_keeps_the_page_title() {
        let text = "Ruleset 7\n\nFrom BlogNomic Wiki\nRevision as of 1 May by Someone\nJump to navigation Jump to search\n\nCore Rules\n\nFirst Rule\n\nSome text.\n\nRetrieved from \"http://example.invalid\"\nMain page\n";
        let scan = scan(text).unwrap();
        assert_eq!(scan.name, Some((1, "Ruleset 7".to_string())));
        assert!(scan.unrecognised.is_empty());
        let kept: Vec<(usize, &str)> = scan.lines.iter().map(|l| (l.no, l.text.as_str())).collect();
        assert_eq!(
            kept,
            [(7, "Core Rules"), (9, "First Rule"), (11, "Some text.")]
        );
        assert_eq!(scan.lines[0].kind, Kind::Heading(SectionKind::Core));
        assert!(scan.lines.iter().all(|l| l.alone));
    }

    #[test]
    fn keeps_the_contents_aside() {
        let text = "Ruleset 7\n\nContents [hide]\n1 Core Rules\n1.1 First Rule\n2.3.1 Deep One\nSomething else\n\nCore Rules\n\nFirst Rule\n\nSome text.\n";
        let scan = scan(text).unwrap();
        let contents: Vec<(usize, Vec<u32>, &str)> = scan
            .contents
            .iter()
            .map(|c| (c.line, c.number.clone(), c.title.as_str()))
            .collect();
        assert_eq!(
            contents,
            [
                (4, vec![1], "Core Rules"),
                (5, vec![1, 1], "First Rule"),
                (6, vec![2, 3, 1], "Deep One")
            ]
        );
        assert_eq!(scan.unrecognised, [7]);
    }

    #[test]
    fn a_block_of_several_lines_is_not_alone_in_the_spaced_style() {
        let text = "Core Rules\n\nA Rule\n\none\ntwo\n\nthree\n";
        let scan = scan(text).unwrap();
        let alone: Vec<bool> = scan.lines.iter().map(|l| l.alone).collect();
        assert_eq!(alone, [true, true, false, false, true]);
    }

    #[test]
    fn headings_only_count_once_and_in_order() {
        let text = "Core Rules\nDynastic Rules\nCore Rules\nGlossary\n";
        let kinds: Vec<Kind> = scan(text).unwrap().lines.iter().map(|l| l.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Heading(SectionKind::Core),
                Kind::Heading(SectionKind::Dynastic),
                Kind::Text,
                Kind::Heading(SectionKind::Glossary)
            ]
        );
    }

    #[test]
    fn a_dump_without_headings_is_refused() {
        assert!(matches!(
            scan("Just some text\n"),
            Err(ImportError::NoSections)
        ));
    }
}
