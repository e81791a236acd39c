//! Reading votes out of comment and review bodies.
//!
//! A vote is a voting word (FOR, AGAINST, DEFERENTIAL/DEF/IMP, VETO, or an
//! alias the ruleset lists, such as ✅ and ❌) standing alone: not part of a
//! longer word, case as written. The body is read as Markdown with the
//! project's one parser configuration, so words inside block quotes, code
//! spans and code blocks (someone quoting another's vote) and raw HTML are
//! never votes. The words are returned in reading order; which of them a
//! player may use, and that the last one counts, is the tally's business.

use pulldown_cmark::{Event, Tag, TagEnd};
use serde::Serialize;

use super::params::Params;
use crate::markdown;

/// A vote as cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Vote {
    /// In favour.
    For,
    /// Opposed.
    Against,
    /// Confidence in the emperor: follows their vote on proposals.
    Deferential,
    /// The emperor's veto.
    Veto,
}

impl Vote {
    /// The canonical word.
    pub fn as_str(self) -> &'static str {
        match self {
            Vote::For => "FOR",
            Vote::Against => "AGAINST",
            Vote::Deferential => "DEFERENTIAL",
            Vote::Veto => "VETO",
        }
    }
}

/// The voting words found in one body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ballot {
    /// Voting words outside quotes and code, in reading order.
    pub words: Vec<Vote>,
    /// Whether voting words appeared only inside quotes, code or HTML.
    pub hidden: bool,
}

/// Reads the voting words of `body` using the ruleset's word lists.
pub fn read(body: &str, params: &Params) -> Ballot {
    let lexicon = lexicon(params);
    let (plain, hidden) = split_text(body);
    let words = scan(&plain, &lexicon);
    let hidden = words.is_empty() && !scan(&hidden, &lexicon).is_empty();
    Ballot { words, hidden }
}

/// Every voting word with its vote, longest first so `DEFERENTIAL` is not
/// read as something shorter.
fn lexicon(params: &Params) -> Vec<(&str, Vote)> {
    let mut lexicon: Vec<(&str, Vote)> = [
        (&params.words_for, Vote::For),
        (&params.words_against, Vote::Against),
        (&params.words_deferential, Vote::Deferential),
        (&params.words_veto, Vote::Veto),
    ]
    .into_iter()
    .flat_map(|(list, vote)| list.iter().map(move |w| (w.as_str(), vote)))
    .collect();
    lexicon.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
    lexicon
}

/// Splits a Markdown body into the text that may hold votes and the text
/// that may not (quotes, code, HTML). Block and inline boundaries become
/// spaces so words from different places never join.
fn split_text(body: &str) -> (String, String) {
    let (mut plain, mut hidden) = (String::new(), String::new());
    let (mut quotes, mut code) = (0usize, false);
    for event in markdown::parser(body) {
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
        plain.push(' ');
    }
    (plain, hidden)
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The voting words standing alone in `text`, in order.
fn scan(text: &str, lexicon: &[(&str, Vote)]) -> Vec<Vote> {
    let mut found = Vec::new();
    let mut prev: Option<char> = None;
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        let at_boundary = prev.is_none_or(|p| !is_word_char(p));
        let hit = lexicon.iter().find(|(w, _)| {
            at_boundary
                && text[i..].starts_with(w)
                && text[i + w.len()..]
                    .chars()
                    .next()
                    .is_none_or(|n| !is_word_char(n))
        });
        match hit {
            Some((w, vote)) => {
                found.push(*vote);
                prev = w.chars().last();
                i += w.len();
            }
            None => {
                prev = Some(c);
                i += c.len_utf8();
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn votes(body: &str) -> Vec<Vote> {
        read(body, &Params::preset("blognomic-113").unwrap()).words
    }

    #[test]
    fn words_standing_alone_in_order() {
        use Vote::*;
        assert_eq!(votes("FOR"), [For]);
        assert_eq!(
            votes("FOR the idea, but AGAINST this wording"),
            [For, Against]
        );
        assert_eq!(votes("Looks good to me. FOR."), [For]);
        assert_eq!(votes("**AGAINST** (sorry)"), [Against]);
        assert_eq!(votes("DEF\n\nIMP then DEFERENTIAL"), [Deferential; 3]);
        assert_eq!(votes("VETO"), [Veto]);
        assert_eq!(votes("✅ looks fine"), [For]);
        assert_eq!(votes("❌"), [Against]);
    }

    #[test]
    fn not_inside_words_nor_lowercase() {
        assert!(votes("FORWARD AGAINSTS DEFER for against BEFORE _FOR").is_empty());
        assert!(votes("I vote for it").is_empty());
    }

    #[test]
    fn quotes_and_code_are_not_votes() {
        let b = read(
            "> B said FOR\n\nI disagree with `AGAINST`.\n\n```\nVETO\n```",
            &Params::preset("blognomic-113").unwrap(),
        );
        assert!(b.words.is_empty());
        assert!(b.hidden);
        assert_eq!(votes("> AGAINST\n\nFOR"), [Vote::For]);
        assert_eq!(votes("FOR <!-- AGAINST -->"), [Vote::For]);
    }

    #[test]
    fn the_ruleset_decides_the_words() {
        let mut p = Params::preset("blognomic-113").unwrap();
        p.words_for = vec!["AYE".into()];
        assert_eq!(read("AYE, not FOR", &p).words, [Vote::For]);
    }
}
