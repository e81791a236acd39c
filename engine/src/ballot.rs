//! Reading votes out of comment and review bodies.
//!
//! A vote is a voting word (FOR, AGAINST, DEFERENTIAL/DEF/IMP, VETO, or an
//! alias the ruleset lists, such as ✅ and ❌) standing alone: not part of a
//! longer word, case as written. The body is read as Markdown with the
//! project's one parser configuration, so words inside block quotes, code
//! spans and code blocks (someone quoting another's vote) and raw HTML are
//! never votes. The words are returned in reading order; which of them a
//! player may use, and that the last one counts, is the tally's business.

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
    Lexicon::new(params).read(body)
}

/// The ruleset's voting words, ready to read many bodies with: built once
/// per tally rather than once per comment.
#[derive(Debug, Clone)]
pub struct Lexicon {
    /// Every voting word with its vote, longest first so `DEFERENTIAL` is
    /// not read as something shorter.
    words: Vec<(String, Vote)>,
    /// Whether a body without `&` or `\\` and without any voting word as a
    /// substring can be skipped unparsed (see [`Lexicon::read`]).
    skip_absent: bool,
}

/// Characters Markdown may put into text that were not in the source:
/// smart punctuation and the replacement of NUL.
const SYNTHESISED: [char; 8] = ['‘', '’', '“', '”', '–', '—', '…', '\u{FFFD}'];

impl Lexicon {
    /// The word lists of `params`.
    pub fn new(params: &Params) -> Lexicon {
        let mut words: Vec<(String, Vote)> = [
            (&params.words_for, Vote::For),
            (&params.words_against, Vote::Against),
            (&params.words_deferential, Vote::Deferential),
            (&params.words_veto, Vote::Veto),
        ]
        .into_iter()
        .flat_map(|(list, vote)| list.iter().map(move |w| (w.clone(), vote)))
        .collect();
        words.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        let skip_absent = !words.iter().any(|(w, _)| w.contains(SYNTHESISED));
        Lexicon { words, skip_absent }
    }

    /// Reads the voting words of `body`. Markdown is parsed only when it
    /// could matter: a body in which no voting word occurs, and which has
    /// no character reference or escape that could make one, has none; a
    /// body of plain words and sentence punctuation reads the same raw as
    /// parsed. `tests::shortcuts_read_as_markdown_does` checks both.
    pub fn read(&self, body: &str) -> Ballot {
        if self.skip_absent
            && !body.contains(['&', '\\'])
            && !self.words.iter().any(|(w, _)| body.contains(w.as_str()))
        {
            return Ballot::default();
        }
        if is_plain(body) {
            return Ballot {
                words: self.scan(body),
                hidden: false,
            };
        }
        self.read_markdown(body)
    }

    /// Reads `body` as Markdown, always.
    fn read_markdown(&self, body: &str) -> Ballot {
        let (plain, hidden) = markdown::split_visible(body, markdown::Breaks::Spaces);
        let words = self.scan(&plain);
        let hidden = words.is_empty() && !self.scan(&hidden).is_empty();
        Ballot { words, hidden }
    }
}

/// Whether `body` is plain prose that Markdown leaves as it is, but for
/// whitespace: letters, digits, spaces, line breaks, `,;:?.!` and any
/// non-ASCII character (Markdown's syntax is all ASCII), with no line
/// indented four columns (code) or starting with a digit (a list item),
/// and no `..` (smart punctuation turns `...` into an ellipsis).
fn is_plain(body: &str) -> bool {
    let chars_ok = body.chars().all(|c| {
        !c.is_ascii()
            || c.is_ascii_alphanumeric()
            || matches!(c, ' ' | '\n' | ',' | ';' | ':' | '?' | '.' | '!')
    });
    chars_ok
        && !body.contains("..")
        && body.split('\n').all(|line| {
            let rest = line.trim_start_matches(' ');
            line.len() - rest.len() < 4 && !rest.starts_with(|c: char| c.is_ascii_digit())
        })
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl Lexicon {
    /// The voting words standing alone in `text`, in order.
    fn scan(&self, text: &str) -> Vec<Vote> {
        let mut found = Vec::new();
        let mut prev: Option<char> = None;
        let mut i = 0;
        while let Some(c) = text[i..].chars().next() {
            let at_boundary = prev.is_none_or(|p| !is_word_char(p));
            let hit = self.words.iter().find(|(w, _)| {
                at_boundary
                    && text[i..].starts_with(w.as_str())
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/../proptest-regressions/engine/ballot.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::with_cases(2000)
        })]

        /// Bodies built from voting words, Markdown syntax, entities,
        /// escapes and prose read the same with and without the shortcuts,
        /// for the bundled words and for words with punctuation in them.
        #[test]
        fn shortcuts_read_as_markdown_does(
            parts in proptest::collection::vec(0..PIECES.len(), 0..12),
            odd_words in proptest::bool::ANY,
        ) {
            let body: String = parts.iter().map(|i| PIECES[*i]).collect();
            let mut p = Params::preset("blognomic-113").unwrap();
            if odd_words {
                p.words_for = vec!["+1".into(), "F.O".into(), "AYE...".into()];
                p.words_against = vec!["-1".into(), "NAY!".into(), "…".into()];
            }
            let lexicon = Lexicon::new(&p);
            proptest::prop_assert_eq!(lexicon.read(&body), lexicon.read_markdown(&body), "{:?}", body);
        }
    }

    const PIECES: [&str; 40] = [
        "FOR", "AGAINST", "DEF", "VETO", "✅", "❌", "+1", "-1", "F.O", "AYE", "NAY!", " ", " ",
        "\n", "\n\n", "    ", "\t", "> ", "`", "```\n", "*", "**", "_", "&#70;OR", "&amp;", "\\",
        "\\*", "<b>", "<!-- ", " -->", "1. ", "- ", "# ", "...", ".", ",", "!", "?", "word",
        "\u{0}",
    ];
}
