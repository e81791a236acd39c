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
/// and the text they do not (quotes, code, HTML): votes, rolls and action
/// commands are read only from the first, so quoting someone else's is
/// never casting, rolling or acting. Boundaries become separators so words
/// from different places never join.
pub fn split_visible(body: &str, breaks: Breaks) -> (String, String) {
    let (mut plain, mut hidden) = (String::new(), String::new());
    let (mut quotes, mut code) = (0usize, false);
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
            Event::Text(t) if quotes == 0 && !code => {
                plain.push_str(&t);
                continue;
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                hidden.push_str(&t);
                hidden.push(' ');
            }
            Event::Start(Tag::BlockQuote(_)) => quotes += 1,
            Event::End(TagEnd::BlockQuote(_)) => quotes = quotes.saturating_sub(1),
            Event::Start(Tag::CodeBlock(_)) => code = true,
            Event::End(TagEnd::CodeBlock) => code = false,
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
