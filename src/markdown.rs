//! The one pulldown-cmark configuration used everywhere: rule bodies,
//! ballots and the site all parse Markdown the same way, so what `check`
//! sees is what the site renders and what the tally reads.

use pulldown_cmark::{Options, Parser};

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
