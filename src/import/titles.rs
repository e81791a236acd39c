//! Which lines of a section are rule titles. Pure.
//!
//! A title is a text line that
//!
//! 1. is a block of its own (blank lines around it, in the spaced style);
//! 2. is short: at most [`MAX_TITLE_CHARS`] characters and
//!    [`MAX_TITLE_WORDS`] words (verse and stray body lines are longer);
//! 3. does not end like a sentence or a lead-in: no final `.`, `:`, `;`, `,`;
//! 4. starts with a letter, a digit or a quote (not `(` or `[`, which
//!    start templates and examples);
//! 5. does not follow a line ending in `:` or `:-`, which announces a list
//!    or an example, never the next rule.
//!
//! Then runs of title-like lines are checked: when three or more of them
//! follow each other with no body between, they are the items of a list
//! that lost its markers (a list of names), not rules. The last of the run
//! stays a title if a body follows it, and a title-like line just before
//! the run whose body is only list items is the list's first item.

use std::collections::BTreeSet;

use super::lines::{Kind, Line};

/// The longest a title may be, in characters.
pub(crate) const MAX_TITLE_CHARS: usize = 60;
/// The most words a title may have.
pub(crate) const MAX_TITLE_WORDS: usize = 12;
/// How many bodiless title-like lines in a row make a list.
const LIST_RUN: usize = 3;

/// Whether a line looks like a title on its own (rules 1–4).
fn looks_like_title(line: &Line) -> bool {
    let text = line.text.as_str();
    let starts_well = text
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || "\"'“‘".contains(c));
    line.kind == Kind::Text
        && line.alone
        && starts_well
        && text.chars().count() <= MAX_TITLE_CHARS
        && text.split_whitespace().count() <= MAX_TITLE_WORDS
        && !text.ends_with(['.', ':', ';', ','])
}

/// The lines of one section that would look like titles but for a final
/// period, standing between two paragraphs of body (a blank line before,
/// body text before that and after): a title written as a sentence cannot
/// be told from a short body paragraph, so these are in doubt and named in
/// a warning. The first paragraph under a title is its body, not a doubt.
pub(crate) fn in_doubt(lines: &[Line]) -> Vec<usize> {
    let titles = find(lines);
    let sentence_title = |l: &Line| {
        let bare = Line {
            text: l.text.trim_end_matches('.').to_string(),
            ..l.clone()
        };
        l.text.ends_with('.')
            && !l.text.ends_with("..")
            && looks_like_title(&bare)
            && !speaks_from_within(&l.text)
    };
    (1..lines.len().saturating_sub(1))
        .filter(|&i| {
            let (before, line, after) = (&lines[i - 1], &lines[i], &lines[i + 1]);
            sentence_title(line)
                && before.no + 1 < line.no
                && before.kind == Kind::Text
                && !titles.contains(&(i - 1))
                && !titles.contains(&(i + 1))
                && after.kind == Kind::Text
        })
        .map(|i| lines[i].no)
        .collect()
}

/// Whether a sentence speaks from inside a rule ("noted below, within
/// this rule"): a title names a rule, it does not point into one.
fn speaks_from_within(text: &str) -> bool {
    let lower = text.to_lowercase();
    [
        "this rule",
        "this subrule",
        "this sub-rule",
        "below",
        "above",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// Whether a line announces what follows it (rule 5).
fn announces(line: &Line) -> bool {
    line.text.ends_with(':') || line.text.ends_with(":-")
}

/// The indices (into `lines`, one section without its heading) of the
/// titles found from the text alone.
pub(crate) fn find(lines: &[Line]) -> BTreeSet<usize> {
    let mut titles: Vec<bool> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| looks_like_title(l) && (i == 0 || !announces(&lines[i - 1])))
        .collect();
    let mut i = 0;
    while i < lines.len() {
        if !titles[i] {
            i += 1;
            continue;
        }
        let mut end = i;
        while end + 1 < lines.len() && titles[end + 1] {
            end += 1;
        }
        let has_body = end + 1 < lines.len();
        let bodiless = end - i + usize::from(!has_body);
        if bodiless >= LIST_RUN {
            let last = if has_body { end } else { end + 1 };
            titles[i..last].iter_mut().for_each(|t| *t = false);
            demote_first_item(lines, &mut titles, i);
        }
        i = end + 1;
    }
    (0..lines.len()).filter(|&i| titles[i]).collect()
}

/// Demotes the title-like line before a list run at `start` when only list
/// items separate them: it is the list's first entry, with a note.
fn demote_first_item(lines: &[Line], titles: &mut [bool], start: usize) {
    let mut k = start;
    while k > 0 && matches!(lines[k - 1].kind, Kind::Item { .. }) {
        k -= 1;
    }
    if k > 0 && k < start && titles[k - 1] {
        titles[k - 1] = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Marker;

    fn text(no: usize, text: &str) -> Line {
        Line {
            no,
            kind: Kind::Text,
            text: text.to_string(),
            alone: true,
        }
    }

    fn bullet(no: usize, text: &str) -> Line {
        Line {
            no,
            kind: Kind::Item {
                marker: Marker::Bullet,
                level: 1,
            },
            text: text.to_string(),
            alone: false,
        }
    }

    fn titles(lines: &[Line]) -> Vec<usize> {
        find(lines).into_iter().map(|i| lines[i].no).collect()
    }

    #[test]
    fn short_unpunctuated_lines_are_titles() {
        let lines = [
            text(1, "Lanterns"),
            text(2, "Every lamplighter carries a lantern."),
            text(3, "Wicks and Oil"),
            bullet(4, "a wick"),
            text(5, "Small, but complete."),
        ];
        assert_eq!(titles(&lines), [1, 3]);
    }

    #[test]
    fn long_lines_blocks_and_lead_ins_are_not_titles() {
        let mut in_block = text(4, "Not Alone");
        in_block.alone = false;
        let lines = [
            text(1, "Lanterns"),
            text(
                2,
                "a line of verse that runs on for more words than any title has",
            ),
            text(3, "Each rule is written like this:"),
            text(4, "Name of the Rule"),
            in_block,
            text(6, "(Placeholder) text"),
        ];
        assert_eq!(titles(&lines), [1]);
    }

    #[test]
    fn a_run_of_bodiless_names_is_a_list() {
        let lines = [
            text(1, "Harbours"),
            text(2, "The harbours are listed below."),
            text(3, "North Quay"),
            bullet(4, "It is windy."),
            text(5, "South Quay"),
            text(6, "East Quay"),
            text(7, "West Quay"),
            text(8, "Tides"),
            text(9, "The tide turns daily."),
        ];
        assert_eq!(titles(&lines), [1, 8]);
    }

    #[test]
    fn two_titles_in_a_row_are_a_rule_and_its_first_subrule() {
        let lines = [
            text(1, "Clarifications"),
            text(2, "Counting"),
            bullet(3, "Numbers are whole."),
        ];
        assert_eq!(titles(&lines), [1, 2]);
    }

    #[test]
    fn a_sentence_between_paragraphs_may_be_a_title_unless_it_points_into_a_rule() {
        let lines = [
            text(1, "Lamps"),
            text(3, "Each keeper has a lamp."),
            text(5, "Wicks burn down to the end of it."),
            text(7, "The wick is trimmed daily."),
            text(9, "All such wicks are listed below, in this rule."),
            text(11, "Nothing else is lit."),
        ];
        assert_eq!(in_doubt(&lines), [5, 7]);
    }
}
