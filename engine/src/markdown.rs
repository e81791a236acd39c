//! The one pulldown-cmark configuration used everywhere: rule bodies,
//! ballots and the site all parse Markdown the same way, so what `check`
//! sees is what the site renders and what the tally reads.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

/// The Markdown extensions gitnomic enables.
pub fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION
        | Options::ENABLE_HEADING_ATTRIBUTES
}

/// A parser over `text` with the project's options.
pub fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, options())
}

/// Whether a link or image address is safe to render: http(s), mailto,
/// relative or in-page. Any other scheme (`javascript:`, `data:`,
/// `vbscript:`, …) is not: rule text and bodies come from anyone's pull
/// request, and a stored `javascript:` link runs on a reader's click.
/// Browsers ignore tabs, newlines and leading spaces in a scheme, so they
/// are ignored here too.
pub fn is_safe_url(url: &str) -> bool {
    let cleaned: String = url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect();
    // A scheme is what comes before the first `:`, if no `/`, `?` or `#`
    // comes first (`a/b:c` is a relative path).
    match cleaned.find([':', '/', '?', '#']) {
        Some(i) if cleaned[i..].starts_with(':') => {
            let scheme = cleaned[..i].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// A link to a forge's page, kept only if it is a web address: records
/// are files anyone's pull request can write, and their links are shown
/// as they are, so a `javascript:` one is dropped.
pub fn web_link(link: Option<&str>) -> Option<&str> {
    link.filter(|l| {
        let lower = l.to_ascii_lowercase();
        (lower.starts_with("https://") || lower.starts_with("http://")) && is_safe_url(l)
    })
}

/// Drops every link and image whose address is not [safe](is_safe_url),
/// keeping its text: the one filter every rendering of Markdown to HTML
/// goes through.
pub fn safe_links<'a>(events: impl Iterator<Item = Event<'a>>) -> impl Iterator<Item = Event<'a>> {
    // For each link or image open: whether it was kept.
    let mut open: Vec<bool> = Vec::new();
    events.filter(move |event| match event {
        Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
            let safe = is_safe_url(dest_url);
            open.push(safe);
            safe
        }
        Event::End(TagEnd::Link | TagEnd::Image) => open.pop().unwrap_or(true),
        _ => true,
    })
}

/// How [`split_visible`] separates text from different places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breaks {
    /// Every boundary is a space (ballots read words, not lines).
    Spaces,
    /// Line and block ends are newlines, other boundaries spaces (dice and
    /// action commands are read a line at a time).
    Lines,
}

/// Splits a Markdown body into the text a player says in their own voice
/// and the text they do not (quotes, code, HTML, and what they struck
/// through): votes, rolls and action commands are read only from the
/// first, so quoting someone else's is never casting, rolling or acting,
/// and striking a word withdraws it. Boundaries become separators so words
/// from different places never join.
pub fn split_visible(body: &str, breaks: Breaks) -> (String, String) {
    let (mut plain, mut hidden) = (String::new(), String::new());
    let (mut quotes, mut code, mut struck) = (0usize, false, 0usize);
    for event in parser(body) {
        let line_end = matches!(
            event,
            Event::SoftBreak
                | Event::HardBreak
                | Event::End(
                    TagEnd::Paragraph
                        | TagEnd::Heading(_)
                        | TagEnd::Item
                        | TagEnd::TableRow
                        | TagEnd::TableHead
                        | TagEnd::BlockQuote(_)
                        | TagEnd::CodeBlock
                )
        );
        match event {
            // Consecutive text events are one run of text: no space between.
            Event::Text(t) if quotes == 0 && !code && struck == 0 => {
                plain.push_str(&t);
                continue;
            }
            Event::InlineHtml(t) => {
                // `<s>FOR</s>` is struck through as the forge shows it, as
                // `~~FOR~~` is: BlogNomic's usual way to withdraw a vote.
                match strike_tag(&t) {
                    Some(true) => struck += 1,
                    Some(false) => struck = struck.saturating_sub(1),
                    None => {}
                }
                hidden.push_str(&t);
                hidden.push(' ');
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) => {
                hidden.push_str(&t);
                hidden.push(' ');
            }
            Event::Start(Tag::BlockQuote(_)) => quotes += 1,
            Event::End(TagEnd::BlockQuote(_)) => quotes = quotes.saturating_sub(1),
            Event::Start(Tag::CodeBlock(_)) => code = true,
            Event::End(TagEnd::CodeBlock) => code = false,
            Event::Start(Tag::Strikethrough) => struck += 1,
            Event::End(TagEnd::Strikethrough) => struck = struck.saturating_sub(1),
            _ => {}
        }
        plain.push(if line_end && breaks == Breaks::Lines {
            '\n'
        } else {
            ' '
        });
    }
    (plain, hidden)
}

/// Whether inline HTML `tag` opens (`Some(true)`) or closes a strike
/// through: `<s>`, `<del>` or `<strike>`, with attributes or not.
fn strike_tag(tag: &str) -> Option<bool> {
    let inner = tag.trim().strip_prefix('<')?.strip_suffix('>')?;
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let name = inner
        .split(|c: char| c.is_whitespace() || c == '/')
        .next()?
        .to_ascii_lowercase();
    matches!(name.as_str(), "s" | "del" | "strike").then_some(!closing)
}

/// The lines of `body` outside code blocks and HTML blocks (an HTML
/// comment `<!-- … -->` of many lines included): the lines a reader sees
/// as the text's own. A line that must be written on its own to count
/// (an Address's `Keep:`) is looked for only among these.
pub fn prose_lines(body: &str) -> Vec<&str> {
    let hidden: Vec<std::ops::Range<usize>> = parser(body)
        .into_offset_iter()
        .filter(|(event, _)| matches!(event, Event::Start(Tag::CodeBlock(_) | Tag::HtmlBlock)))
        .map(|(_, range)| range)
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let span = at..at + line.trim_end_matches(['\n', '\r']).len().max(1);
        if !hidden
            .iter()
            .any(|r| r.start < span.end && span.start < r.end)
        {
            out.push(line.trim_end_matches(['\n', '\r']));
        }
        at += line.len();
    }
    out
}

/// The lines of `body` that Markdown reads as part of a block quote
/// although they do not begin with `>` themselves: a line right after a
/// quoted one continues the quote ("lazy continuation"), so what it says
/// is quoted, not said. Each is given trimmed, as written.
pub fn lazily_quoted(body: &str) -> Vec<&str> {
    let mut quotes = 0usize;
    let mut out: Vec<&str> = Vec::new();
    for (event, range) in parser(body).into_offset_iter() {
        match event {
            Event::Start(Tag::BlockQuote(_)) => quotes += 1,
            Event::End(TagEnd::BlockQuote(_)) => quotes = quotes.saturating_sub(1),
            Event::Text(_) if quotes > 0 => {
                let start = body[..range.start].rfind('\n').map_or(0, |i| i + 1);
                let end = body[range.start..]
                    .find('\n')
                    .map_or(body.len(), |i| range.start + i);
                let line = &body[start..end];
                let marked = line.trim_start().starts_with('>');
                if !marked && !out.contains(&line.trim()) {
                    out.push(line.trim());
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_mail_relative_and_in_page_addresses_are_safe() {
        for url in [
            "https://example.org/a",
            "HTTP://x",
            "mailto:a@example.org",
            "../rules/1.html",
            "#voting",
            "?q=1",
            "a/b:c",
            "",
        ] {
            assert!(is_safe_url(url), "{url}");
        }
        for url in [
            "javascript:alert(7)",
            "JavaScript:alert(7)",
            " java\tscript:alert(7)",
            "data:text/html,x",
            "vbscript:x",
            "file:///etc/passwd",
        ] {
            assert!(!is_safe_url(url), "{url}");
        }
    }

    #[test]
    fn an_unsafe_link_keeps_its_text_and_loses_its_anchor() {
        let body = "[here](javascript:alert(7)) and [there](https://x.invalid/) \
                    <javascript:alert(1)> ![pic](data:image/png;base64,AA)";
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, safe_links(parser(body)));
        // The addresses stay as text, never as a link or an image's source.
        assert!(!html.contains("href=\"javascript"), "{html}");
        assert!(!html.contains("<a href=\"javascript"), "{html}");
        assert!(!html.contains("src=\"data:"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("here and <a href=\"https://x.invalid/\">there</a>"),
            "{html}"
        );
        assert!(html.contains("pic"), "{html}");
    }

    #[test]
    fn lines_survive_and_quotes_and_code_are_set_aside() {
        let body = "ROLL D6\nand more\n\n> ROLL D8\n\n`ROLL D10`\n\n- one\n- two\n";
        let (plain, hidden) = split_visible(body, Breaks::Lines);
        let lines: Vec<&str> = plain
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines, ["ROLL D6", "and more", "one", "two"]);
        assert!(hidden.contains("ROLL D8") && hidden.contains("ROLL D10"));
        let (spaced, _) = split_visible(body, Breaks::Spaces);
        assert!(!spaced.contains('\n'));
    }

    #[test]
    fn struck_words_are_not_said() {
        let (plain, hidden) = split_visible("~~AGAINST~~ FOR", Breaks::Spaces);
        assert_eq!(plain.trim(), "FOR");
        assert!(hidden.contains("AGAINST"));
        for body in [
            "<s>AGAINST</s> FOR",
            "<del>AGAINST</del> FOR",
            "<STRIKE class=\"x\">AGAINST</STRIKE> FOR",
            "I said <s>AGAINST <em>firmly</em></s> FOR",
        ] {
            let (plain, hidden) = split_visible(body, Breaks::Spaces);
            assert!(!plain.contains("AGAINST"), "{body}: {plain}");
            assert!(
                plain.contains("FOR") && hidden.contains("AGAINST"),
                "{body}"
            );
        }
        // Not a strike: `<small>`, `<section>`.
        let (plain, _) = split_visible("<small>FOR</small>", Breaks::Spaces);
        assert!(plain.contains("FOR"), "{plain}");
    }

    #[test]
    fn lines_in_code_or_html_blocks_are_not_prose() {
        let body = "Keep: a\n<!--\nKeep: b\n-->\n```\nKeep: c\n```\n    Keep: d\n\nKeep: e\r\n";
        assert_eq!(prose_lines(body), ["Keep: a", "", "Keep: e"]);
    }

    #[test]
    fn a_line_right_after_a_quote_continues_it() {
        let body = "> SET springs 9\nADD cogs 1\n\nADD cogs 2\n> > deep\nlazy too";
        assert_eq!(lazily_quoted(body), ["ADD cogs 1", "lazy too"]);
        let (plain, _) = split_visible(body, Breaks::Lines);
        assert!(!plain.contains("ADD cogs 1") && plain.contains("ADD cogs 2"));
    }
}
