//! The Ascension Address: the rules it keeps, and what else it may change.
//! Pure.
//!
//! Its description lists the dynastic rules it keeps on one line of its
//! own, `Keep:` followed by their ids, separated by commas or spaces
//! (each may be in backticks), or `Keep: none`. Every other dynastic rule
//! must be deleted by its own diff, so the repeal shows. An Address whose
//! list cannot be read is refused rather than guessed at.

use std::collections::BTreeSet;

use crate::game::Game;
use crate::ruleset::{Ruleset, SectionKind};

/// How the line that lists the kept rules begins.
pub const KEEP: &str = "Keep:";

/// Why an Ascension Address's list of kept rules cannot be read; each
/// says how to write it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeepError {
    /// No `Keep:` line in the description's prose.
    #[error("its description does not say which rules it keeps: {SYNTAX}")]
    Missing,
    /// More than one; how many.
    #[error("its description has {0} `{KEEP}` lines: {SYNTAX}")]
    Many(usize),
    /// `Keep:` and nothing after it.
    #[error("its `{KEEP}` line is empty: {SYNTAX}")]
    Empty,
    /// A word that is no rule id.
    #[error("its `{KEEP}` line holds `{0}`, which is not a rule id: {SYNTAX}")]
    NotAnId(String),
}

/// How the list is written, for every [`KeepError`].
const SYNTAX: &str = "list the dynastic rules to keep on a line of its own, `Keep: springs, gadget-powers` (their ids), or `Keep: none`";

/// The ids an Ascension Address's description lists to keep, or why the
/// list cannot be read: there must be exactly one line beginning `Keep:`
/// (any case), holding rule ids (lowercase letters, digits and `-`) or
/// the word `none`.
pub fn kept_rules(description: &str) -> Result<BTreeSet<String>, KeepError> {
    // Only the description's own lines: not one inside a code block or
    // an HTML comment, where a player may show the syntax or leave a draft.
    let lines: Vec<&str> = crate::markdown::prose_lines(description)
        .into_iter()
        .map(str::trim)
        .filter(|l| {
            l.get(..KEEP.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(KEEP))
        })
        .collect();
    let line = match lines.as_slice() {
        [] => return Err(KeepError::Missing),
        [line] => &line[KEEP.len()..],
        _ => return Err(KeepError::Many(lines.len())),
    };
    let words: Vec<&str> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .map(|w| w.trim_matches('`'))
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() == 1 && words[0].eq_ignore_ascii_case("none") {
        return Ok(BTreeSet::new());
    }
    if words.is_empty() {
        return Err(KeepError::Empty);
    }
    let mut kept = BTreeSet::new();
    for word in words {
        let is_id = word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !is_id {
            return Err(KeepError::NotAnId(word.to_owned()));
        }
        kept.insert(word.to_string());
    }
    Ok(kept)
}

/// What the new emperor is shown when their DoV is enacted: how to post
/// the Ascension Address, with a description whose `Keep:` line lists
/// every dynastic rule of `ruleset` (they delete from the line what they
/// repeal, and the file with it). Markdown.
pub fn address_template(ruleset: &Ruleset, emperor: &str) -> String {
    let ids: Vec<&str> = ruleset
        .rules
        .iter()
        .filter(|r| r.section == SectionKind::Dynastic)
        .map(|r| r.id.as_str())
        .collect();
    let keep = if ids.is_empty() {
        "none".to_string()
    } else {
        ids.join(", ")
    };
    format!(
        "**Next: the new {emperor}'s Ascension Address.** A pull request labelled \
`Ascension Address` (or titled `Ascension Address:`) that may change the terms in \
`state/game.toml`, the dynastic rules and the dynasty's gamestate. Its description \
says the new dynasty's theme and lists the dynastic rules it keeps on one line, \
`{KEEP}` and their ids (`{KEEP} none` keeps none); delete the file of every rule \
you leave off. For example:\n\n```text\nThe theme of the new dynasty.\n\n{KEEP} {keep}\n```\n"
    )
}

/// What stops an Ascension Address (whose author may make one) from
/// being merged: a list of kept rules that cannot be read or names no
/// dynastic rule, a dynastic rule kept without being listed or listed but
/// deleted, or a change to state/game.toml beyond its terms.
pub fn ascension_problems(base: &Game, head: &Game, description: &str) -> Vec<String> {
    let (Some(state), Some(new)) = (&base.state, &head.state) else {
        return vec!["its gamestate cannot be read".into()];
    };
    let mut problems = Vec::new();
    if new.dynasty != state.dynasty || new.name != state.name {
        problems.push("it may change only the [terms] of state/game.toml".into());
    }
    let listed = match kept_rules(description) {
        Ok(listed) => listed,
        Err(why) => {
            problems.push(why.to_string());
            return problems;
        }
    };
    let dynastic = |ruleset: &Ruleset, id: &str| {
        ruleset
            .get(id)
            .is_some_and(|r| r.section == SectionKind::Dynastic)
    };
    for id in &listed {
        if !dynastic(&base.ruleset, id) {
            problems.push(format!(
                "it lists `{id}` to keep, but there is no dynastic rule with that id"
            ));
        } else if !dynastic(&head.ruleset, id) {
            problems.push(format!(
                "it lists `{id}` to keep, but its diff deletes it: keep the file or drop it from the list"
            ));
        }
    }
    for rule in base
        .ruleset
        .rules
        .iter()
        .filter(|r| r.section == SectionKind::Dynastic)
    {
        if !listed.contains(rule.id.as_str()) && head.ruleset.get(rule.id.as_str()).is_some() {
            problems.push(format!(
                "it keeps the dynastic rule `{}` ({} {}) without listing it: add its id to the `{KEEP}` line to keep it, or delete it",
                rule.id, rule.number, rule.title
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_lists_every_dynastic_rule_on_a_keep_line_that_reads_back() {
        let game = Game::check(&crate::game::bundle::game_files());
        let text = address_template(&game.ruleset, "Clockmaker");
        let block = text
            .split("```text\n")
            .nth(1)
            .and_then(|b| b.split("```").next())
            .expect("a description block");
        let dynastic: BTreeSet<String> = game
            .ruleset
            .rules
            .iter()
            .filter(|r| r.section == SectionKind::Dynastic)
            .map(|r| r.id.as_str().to_string())
            .collect();
        assert!(!dynastic.is_empty());
        assert_eq!(kept_rules(block), Ok(dynastic));
    }

    #[test]
    fn the_keep_line_is_read_and_nothing_else_is() {
        let kept = |d: &str| kept_rules(d).map(|k| k.into_iter().collect::<Vec<_>>());
        assert_eq!(
            kept(
                "The age of steam.\n\nKeep: springs, `gadget-powers`\n\nI repeal cogs-and-gadgets."
            ),
            Ok(vec!["gadget-powers".to_string(), "springs".to_string()])
        );
        assert_eq!(kept("keep: none"), Ok(vec![]));
        assert_eq!(
            kept("I repeal gadget-powers and keep springs."),
            Err(KeepError::Missing),
            "prose is not a list"
        );
        assert!(
            KeepError::Missing
                .to_string()
                .starts_with("its description does not say which rules it keeps: list")
        );
        assert_eq!(kept("Keep: springs\nKeep: cogs"), Err(KeepError::Many(2)));
        assert!(KeepError::Many(2).to_string().contains("2 `Keep:` lines"));
        let not_an_id = kept("Keep: Springs!").unwrap_err();
        assert_eq!(not_an_id, KeepError::NotAnId("Springs!".into()));
        assert!(
            not_an_id
                .to_string()
                .contains("`Springs!`, which is not a rule id")
        );
        assert_eq!(kept("Keep:"), Err(KeepError::Empty));
    }

    #[test]
    fn a_keep_line_in_a_comment_or_a_code_block_is_not_the_list() {
        let kept = |d: &str| kept_rules(d).map(|k| k.into_iter().collect::<Vec<_>>());
        let described =
            "<!--\nKeep: none\n-->\n\nWrite it so:\n\n```\nKeep: cogs\n```\n\nKeep: springs\n";
        assert_eq!(kept(described), Ok(vec!["springs".to_string()]));
        assert_eq!(kept("<!--\nKeep: springs\n-->"), Err(KeepError::Missing));
    }
}
