//! Rendering imported rule files back to plain text, as a dump prints
//! them: one block per line, blank lines between, `  • ` bullets. Pure.
//!
//! This is the importer's proof: the files are parsed as `check` parses
//! them, their templates rendered with the game's terms, and their
//! Markdown read with the project's parser (without smart punctuation,
//! which is typography, not text). Any markup the escaping missed shows up
//! as an error here instead of as a silently changed rule.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use super::{ImportError, lines};
use crate::gamestate::Terms;
use crate::ruleset::Ruleset;
use crate::ruleset::template::TextContext;
use crate::source::SourceFile;

/// Parses `files` as a ruleset, renders its templates with `terms`, and
/// renders that as plain lines.
pub fn render_files(files: &[SourceFile], terms: &Terms) -> Result<Vec<String>, ImportError> {
    render(&ruleset(files, terms)?)
}

/// Parses `files` as `check` does and renders their templates with
/// `terms`; any problem is an [`ImportError::Invalid`].
pub fn ruleset(files: &[SourceFile], terms: &Terms) -> Result<Ruleset, ImportError> {
    let (ruleset, problems) = Ruleset::parse(files);
    if !problems.is_empty() {
        return Err(ImportError::Invalid(problems.to_string()));
    }
    let context = TextContext::new(&terms.as_map(), &ruleset.params);
    let (ruleset, problems) = ruleset.render(&context);
    if !problems.is_empty() {
        return Err(ImportError::Invalid(problems.to_string()));
    }
    Ok(ruleset)
}

/// Renders a ruleset (with its templates already rendered) as plain lines.
pub fn render(ruleset: &Ruleset) -> Result<Vec<String>, ImportError> {
    let mut out = Vec::new();
    for section in &ruleset.sections {
        out.push(section.title.clone());
        out.push(String::new());
        markdown_lines(&section.intro, &mut out)?;
        for rule in ruleset.rules.iter().filter(|r| r.section == section.kind) {
            out.push(rule.title.clone());
            out.push(String::new());
            markdown_lines(&rule.body, &mut out)?;
            for term in &rule.terms {
                out.push(format!("  • {}", term.term));
                let mut definition = Vec::new();
                markdown_lines(&term.definition, &mut definition)?;
                for line in definition.iter().filter(|l| !l.is_empty()) {
                    out.push(format!("  • {line}"));
                }
            }
        }
    }
    Ok(out)
}

/// A rendered line without its list marker and indentation.
pub fn strip_marker(line: &str) -> String {
    match lines::item(line) {
        Some((_, _, text)) => text.to_string(),
        None => line.trim().to_string(),
    }
}

/// The line being built: its marker (for an item) and its text.
#[derive(Default)]
struct Pending {
    marker: String,
    text: String,
}

impl Pending {
    fn flush(&mut self, out: &mut Vec<String>) {
        if !self.text.is_empty() {
            out.push(format!("{}{}", self.marker, self.text));
        }
        self.marker.clear();
        self.text.clear();
    }
}

/// Appends the lines of a Markdown text; errors on any markup other than
/// paragraphs and lists.
fn markdown_lines(text: &str, out: &mut Vec<String>) -> Result<(), ImportError> {
    let options = crate::markdown::options().difference(Options::ENABLE_SMART_PUNCTUATION);
    let mut lists: Vec<Option<u64>> = Vec::new();
    let mut line = Pending::default();
    for event in Parser::new_ext(text, options) {
        match event {
            Event::Start(Tag::Paragraph) => {}
            Event::Text(t) => line.text.push_str(&t),
            Event::End(TagEnd::Paragraph | TagEnd::Item) | Event::SoftBreak | Event::HardBreak => {
                line.flush(out);
            }
            Event::Start(Tag::List(start)) => {
                line.flush(out);
                lists.push(start);
            }
            Event::End(TagEnd::List(_)) => {
                line.flush(out);
                lists.pop();
            }
            Event::Start(Tag::Item) => {
                line.flush(out);
                let indent = "  ".repeat(lists.len());
                line.marker = match lists.last_mut() {
                    Some(Some(n)) => {
                        *n += 1;
                        format!("{indent}{}. ", *n - 1)
                    }
                    _ => format!("{indent}• "),
                };
            }
            other => {
                return Err(ImportError::Invalid(format!(
                    "the text reads as Markdown markup ({other:?}): {text}"
                )));
            }
        }
    }
    line.flush(out);
    out.push(String::new());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        markdown_lines(text, &mut out).unwrap();
        out
    }

    #[test]
    fn paragraphs_and_lists_become_lines() {
        assert_eq!(
            lines("One.\n\nTwo.\n\n- a\n  - b\n\n3. c\n4. d\n"),
            ["One.", "Two.", "  • a", "    • b", "  3. c", "  4. d", ""]
        );
    }

    #[test]
    fn escapes_read_back_as_the_characters() {
        assert_eq!(
            lines(r"\*not\* \[a\] link \<b\> \~\~x\~\~ \| y"),
            ["*not* [a] link <b> ~~x~~ | y", ""]
        );
    }

    #[test]
    fn unescaped_markup_is_an_error() {
        for text in [
            "*emphasis*",
            "<b>html</b>",
            "`code`",
            "# heading",
            "~~gone~~",
        ] {
            let mut out = Vec::new();
            assert!(markdown_lines(text, &mut out).is_err(), "{text}");
        }
    }

    #[test]
    fn strips_markers() {
        assert_eq!(strip_marker("    • inner"), "inner");
        assert_eq!(strip_marker("  12. twelve"), "twelve");
        assert_eq!(strip_marker("plain "), "plain");
    }
}
