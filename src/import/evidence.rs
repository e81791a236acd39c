//! Evidence about the nesting of one section's rules, each piece with a
//! weight. Pure.
//!
//! A dump prints titles flat, but its text says a good deal about which
//! rule is a subrule of which. Every such statement becomes a [`Clue`]:
//! a claim about one rule (or about the section), the line of the dump it
//! comes from, and a weight that says how much it is to be believed. The
//! solver (`solve`) then picks the nesting that agrees with the most
//! weight. The pieces, strongest first:
//!
//! - **The wiki's own contents** (a numbered table of contents printed
//!   before the first heading): the number of each rule it lists.
//! - **Citations with a title**: "Rule 2.5 (Raiding)" gives that rule's number.
//! - **What a rule says of itself or of the next rules** (`nesting`):
//!   subrules named or announced, "this subrule".
//! - **Citations without a title**: "the fragments given in Rule 2.3.1"
//!   says a rule 2.3.1 exists, and it is most likely the one rule whose
//!   title's words all occur in the citing sentence.
//! - **Titles**: a rule whose title holds the whole title of a rule just
//!   before it ("Idle Players" after "Players", "Spell: Light" after
//!   "Spells") is likely its subrule.
//!
//! Weak, always-present signals (shared words between two rules, a
//! subrule much longer than its parent) are not clues but costs in the
//! solver: they only decide between nestings the clues leave open.

use std::collections::BTreeSet;

use super::Draft;
use super::xref;

/// Weights, in tenths of the cost of making one rule a subrule.
pub(crate) mod weight {
    /// A number a person gave in a hint: it holds whatever else says.
    pub(crate) const HINT: i32 = 10_000;
    /// A numbered entry of the wiki's table of contents.
    pub(crate) const CONTENTS: i32 = 100;
    /// A citation that names the rule by number and title.
    pub(crate) const CITED_BY_TITLE: i32 = 80;
    /// A citation whose sentence holds every word of one title.
    pub(crate) const CITED_BY_WORDS: i32 = 30;
    /// A citation of a number, whatever rule it is.
    pub(crate) const CITED_NUMBER: i32 = 20;
    /// A rule naming the next rule as its subrule.
    pub(crate) const NAMED: i32 = 40;
    /// A rule announcing subrules, for each rule of the run that follows.
    pub(crate) const ANNOUNCED: i32 = 30;
    /// The first rule after an announced run of same-shaped subrules.
    pub(crate) const RUN_ENDED: i32 = 15;
    /// A rule that calls itself a subrule.
    pub(crate) const SELF_DECLARED: i32 = 30;
    /// A subrule of an announced run that resembles the others.
    pub(crate) const RESEMBLES: i32 = 15;
    /// A rule with no clue of its own between two rules that are subrules
    /// by clues of their own: it stays in their level.
    pub(crate) const IN_LEVEL: i32 = 15;
    /// A title holding a title just before it.
    pub(crate) const TITLE: i32 = 15;
}

/// What a clue says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Claim {
    /// The rule is a subrule of this rule (an index into the section).
    ParentIs(usize),
    /// The rule is not a direct subrule of this rule.
    NotUnder(usize),
    /// The rule is a subrule of some rule.
    Nested,
    /// The rule is a subrule of the rule the rule before it is a subrule of.
    SiblingOfPrevious,
    /// The rule has this number within its section (`[4, 1]` is `S.4.1`);
    /// for a clue about no rule in particular: some rule has it.
    Number(Vec<u32>),
}

/// One piece of evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Clue {
    /// The rule it is about (an index into the section), if any.
    pub(crate) rule: Option<usize>,
    /// What it says.
    pub(crate) claim: Claim,
    /// How much it counts (see [`weight`]).
    pub(crate) weight: i32,
    /// The dump line it comes from (a title, or a contents entry).
    pub(crate) line: usize,
    /// What it is, for warnings: "the rule at line 7 cites it as rule 2.5".
    pub(crate) why: String,
}

/// Words too common to tie a rule to a title.
const STOPWORDS: &[&str] = &[
    "the", "and", "of", "a", "an", "or", "in", "on", "to", "for", "with", "from", "by", "at", "is",
    "be", "it", "as", "but", "you", "can", "not",
];

/// A word reduced for matching: lowercase, without a possessive, a plural
/// or a common ending, so "Headlines" meets "headline" and "Voting" "vote".
pub(crate) fn stem(word: &str) -> String {
    let mut w = word.to_lowercase().replace('’', "'");
    if let Some(base) = w.strip_suffix("'s") {
        w = base.to_string();
    }
    w = w.trim_end_matches('\'').to_string();
    if let Some(base) = w.strip_suffix("ies").filter(|b| b.len() > 2) {
        w = format!("{base}y");
    } else if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") {
        w.pop();
    }
    for ending in ["ing", "ed"] {
        if w.len() >= ending.len() + 3 && w.ends_with(ending) {
            w.truncate(w.len() - ending.len());
            break;
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

/// The stems of the words of `text`.
pub(crate) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(stem)
}

/// The words of a title that can tie it to other text: no stopwords, and
/// none of `ignored` (the game's terms, which every rule uses).
pub(crate) fn title_words(title: &str, ignored: &BTreeSet<String>) -> BTreeSet<String> {
    words(title)
        .filter(|w| w.len() > 2 && !STOPWORDS.contains(&w.as_str()) && !ignored.contains(w))
        .collect()
}

/// The stems of the words of a rule's body.
pub(crate) fn body_words(draft: &Draft) -> BTreeSet<String> {
    draft.body.iter().flat_map(|b| words(b.text())).collect()
}

/// A section's rules as evidence sees them.
pub(crate) struct Section<'a> {
    /// Its place among the sections: the first part of its numbers.
    pub(crate) number: u32,
    /// Its rules.
    pub(crate) drafts: &'a [Draft],
}

/// The words of the terms, ignored when matching titles.
pub(crate) fn term_words(terms: &crate::gamestate::Terms) -> BTreeSet<String> {
    [
        &terms.player,
        &terms.players,
        &terms.emperor,
        &terms.emperors,
    ]
    .iter()
    .flat_map(|t| words(t).collect::<Vec<_>>())
    .collect()
}

/// Clues from citations in every rule of every section, for the section
/// numbered `target`.
pub(crate) fn citation_clues(
    sections: &[Section],
    target: u32,
    ignored: &BTreeSet<String>,
) -> Vec<Clue> {
    let Some(here) = sections.iter().find(|s| s.number == target) else {
        return Vec::new();
    };
    let titles: Vec<&str> = here.drafts.iter().map(|d| d.title.as_str()).collect();
    let title_words: Vec<BTreeSet<String>> =
        titles.iter().map(|t| title_words(t, ignored)).collect();
    let mut clues = Vec::new();
    for draft in sections.iter().flat_map(|s| s.drafts) {
        for block in &draft.body {
            for cite in xref::citations(block.text(), &titles) {
                if cite.number.first() == Some(&target) && cite.number.len() > 1 {
                    clues.extend(cite_clues(&cite, draft.line, &titles, &title_words));
                }
            }
        }
    }
    clues
}

/// The clues of one citation (of a number in this section) made by the
/// rule titled at `line`.
fn cite_clues(
    cite: &xref::Citation,
    line: usize,
    titles: &[&str],
    title_words: &[BTreeSet<String>],
) -> Vec<Clue> {
    let path = cite.number[1..].to_vec();
    let shown = xref::show(&cite.number);
    let clue = |rule, weight, why| Clue {
        rule,
        claim: Claim::Number(path.clone()),
        weight,
        line,
        why,
    };
    let titled = cite.title.and_then(|t| titles.iter().position(|x| *x == t));
    if let Some(rule) = titled {
        let why = format!("the rule at line {line} cites it as rule {shown}");
        return vec![clue(Some(rule), weight::CITED_BY_TITLE, why)];
    }
    let why = format!("the rule at line {line} cites rule {shown}");
    let mut clues = vec![clue(None, weight::CITED_NUMBER, why)];
    let said: BTreeSet<String> = words(&cite.sentence).collect();
    let matching: Vec<usize> = (0..titles.len())
        .filter(|&i| !title_words[i].is_empty() && title_words[i].is_subset(&said))
        .collect();
    if let [rule] = matching[..] {
        let why = format!(
            "the rule at line {line} cites rule {shown} in a sentence that names its title"
        );
        clues.push(clue(Some(rule), weight::CITED_BY_WORDS, why));
    }
    clues
}

/// Clues from the titles: a title that holds the whole of a title among
/// the three before it, and more ("Idle Keepers" after "Keepers", "Spell:
/// Light" and "Spell: Dark" after "Spells"), points at it as its parent.
/// The game's terms count here, though they tie no body to a title
/// elsewhere (every rule uses them): "Idle Keepers" builds on "Keepers".
pub(crate) fn title_clues(drafts: &[Draft]) -> Vec<Clue> {
    let none = BTreeSet::new();
    let words: Vec<BTreeSet<String>> = drafts
        .iter()
        .map(|d| title_words(&d.title, &none))
        .collect();
    let mut clues = Vec::new();
    for c in 1..drafts.len() {
        let holder = (c.saturating_sub(3)..c).rev().find(|&p| {
            !words[p].is_empty() && words[p].len() < words[c].len() && words[p].is_subset(&words[c])
        });
        if let Some(p) = holder {
            clues.push(Clue {
                rule: Some(c),
                claim: Claim::ParentIs(p),
                weight: weight::TITLE,
                line: drafts[p].line,
                why: format!("its title builds on the title at line {}", drafts[p].line),
            });
        }
    }
    clues
}

/// How many characters a body has.
pub(crate) fn body_len(draft: &Draft) -> usize {
    draft.body.iter().map(|b| b.text().chars().count()).sum()
}

/// A clue about rule `rule`.
pub(crate) fn clue(rule: usize, claim: Claim, weight: i32, line: usize, why: String) -> Clue {
    Clue {
        rule: Some(rule),
        claim,
        weight,
        line,
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Block;

    fn draft(line: usize, title: &str, body: &str) -> Draft {
        Draft {
            line,
            title: title.into(),
            body: vec![Block::Text(body.into())],
        }
    }

    #[test]
    fn stems_meet_across_endings() {
        for (a, b) in [
            ("Headlines", "headline"),
            ("Voting", "voted"),
            ("vote", "Votes"),
            ("Proposals", "proposal"),
            ("Keeper's", "keepers"),
            ("Libraries", "library"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        assert_ne!(stem("Lamp"), stem("Lantern"));
    }

    #[test]
    fn a_titled_citation_numbers_its_rule_and_an_untitled_one_guesses_by_words() {
        let rules = [
            draft(
                1,
                "Lamps",
                "Wicks follow the patterns given in Rule 2.2.1 here.",
            ),
            draft(2, "Wick Patterns", "See Rule 2.1 (Lamps)."),
            draft(3, "Oil", "Nothing."),
        ];
        let sections = [Section {
            number: 2,
            drafts: &rules,
        }];
        let clues = citation_clues(&sections, 2, &BTreeSet::new());
        let got: Vec<(Option<usize>, Claim, i32)> = clues
            .iter()
            .map(|c| (c.rule, c.claim.clone(), c.weight))
            .collect();
        assert_eq!(
            got,
            [
                (None, Claim::Number(vec![2, 1]), weight::CITED_NUMBER),
                (Some(1), Claim::Number(vec![2, 1]), weight::CITED_BY_WORDS),
                (Some(0), Claim::Number(vec![1]), weight::CITED_BY_TITLE),
            ]
        );
        assert!(citation_clues(&sections, 1, &BTreeSet::new()).is_empty());
    }

    #[test]
    fn titles_that_build_on_an_earlier_title_point_at_it() {
        let rules = [
            draft(1, "Keepers", "x"),
            draft(2, "Idle Keepers", "x"),
            draft(3, "Spells", "x"),
            draft(4, "Spell: Light", "x"),
            draft(5, "Spell: Dark", "x"),
            draft(6, "Weather", "x"),
        ];
        let parents: Vec<(usize, Claim)> = title_clues(&rules)
            .into_iter()
            .map(|c| (c.rule.unwrap(), c.claim))
            .collect();
        assert_eq!(
            parents,
            [
                (1, Claim::ParentIs(0)),
                (3, Claim::ParentIs(2)),
                (4, Claim::ParentIs(2))
            ]
        );
    }
}
