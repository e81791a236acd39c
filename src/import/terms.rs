//! The player and emperor terms: finding them in the text, and writing
//! them as `{{ player }}`-style templates where that is safe. Pure.
//!
//! Detection uses the sentences every BlogNomic core ruleset has:
//! "…; all Commoners shall obey it" (or "must obey") names the players,
//! plural; "…, known as the Mad Prince" names the emperor. Singulars and
//! plurals are derived (`Commoners` → `Commoner`; `Mad Prince` →
//! `Mad Princes`).
//!
//! Templating is conservative, because a wrong template would rename text
//! that is not the term when an Ascension Address renames the terms.
//! A term is replaced only as a whole word in its exact case, plural
//! before singular, never inside a URL, and never when a capitalised word
//! follows it (then it is part of a longer name: "Tokyo Menace Defense
//! Force"). The emperor term must also follow a determiner ("the", "no",
//! "its"…): emperor terms are often ordinary words or places, and the role
//! is almost always spoken of with one. What is not replaced stays
//! literal text, which renders the same: the round trip holds either way.

use crate::gamestate::Terms;

/// Words after which the emperor term is the role, not a name or place.
const DETERMINERS: &[&str] = &[
    "the", "The", "a", "A", "an", "An", "no", "No", "its", "Its", "new", "New", "any", "Any",
    "each", "Each", "every", "Every", "this", "This", "that", "current", "former", "his", "her",
    "their", "eir",
];

/// The terms as a text states them, each if found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Found {
    /// The plural player term.
    pub(crate) players: Option<String>,
    /// The singular emperor term.
    pub(crate) emperor: Option<String>,
}

impl Found {
    /// Each term found in `self`, else in `other`.
    pub(crate) fn or(self, other: Found) -> Found {
        Found {
            players: self.players.or(other.players),
            emperor: self.emperor.or(other.emperor),
        }
    }

    /// The four terms (`Player`, `Emperor` and their plurals where not
    /// found), and a description of each term that was not found.
    /// `text` tells which singular the text uses.
    pub(crate) fn into_terms(self, text: &str) -> (Terms, Vec<String>) {
        let mut missing = Vec::new();
        let players = self.players.unwrap_or_else(|| {
            missing.push("the player term (\"all … shall obey it\")".to_string());
            "Players".to_string()
        });
        let emperor = self.emperor.unwrap_or_else(|| {
            missing.push("the emperor term (\"known as the …\")".to_string());
            "Emperor".to_string()
        });
        let terms = Terms {
            player: singular(&players, text),
            emperors: plural(&emperor),
            players,
            emperor,
        };
        (terms, missing)
    }
}

/// Finds the terms in `text`.
pub(crate) fn find(text: &str) -> Found {
    Found {
        players: players(text),
        emperor: emperor(text),
    }
}

/// The capitalised words at the start of `text`, up to the first word that
/// is not capitalised or that ends a phrase with punctuation.
fn capitalised_words(text: &str) -> (Vec<&str>, &str) {
    let mut words = Vec::new();
    let mut offset = 0;
    for word in text.split_whitespace() {
        if !word.starts_with(char::is_uppercase) {
            break;
        }
        let start = offset + text[offset..].find(word).unwrap_or(0);
        offset = start + word.len();
        let core = word.trim_end_matches(|c: char| !c.is_alphanumeric());
        // A possessive ends the name: "known as the Beacon's …".
        let name = core
            .strip_suffix("'s")
            .or_else(|| core.strip_suffix("’s"))
            .unwrap_or(core);
        words.push(name);
        if name.len() < word.len() {
            return (words, "");
        }
    }
    (words, &text[offset..])
}

fn players(text: &str) -> Option<String> {
    text.match_indices("all ").find_map(|(at, _)| {
        if text[..at]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
        {
            return None;
        }
        let (words, rest) = capitalised_words(&text[at + 4..]);
        let mut next = rest.split_whitespace();
        let verb = next.next()?;
        let ok = !words.is_empty()
            && words.len() <= 4
            && matches!(verb, "shall" | "must")
            && next.next().is_some_and(|w| w.starts_with("obey"));
        ok.then(|| words.join(" "))
    })
}

fn emperor(text: &str) -> Option<String> {
    text.match_indices("known as the ").find_map(|(at, m)| {
        let (words, _) = capitalised_words(&text[at + m.len()..]);
        (!words.is_empty() && words.len() <= 4 && words.iter().all(|w| !w.is_empty()))
            .then(|| words.join(" "))
    })
}

/// The singular of the plural player term, as the text uses it.
fn singular(plural: &str, text: &str) -> String {
    let candidates = [
        plural.strip_suffix("ies").map(|s| format!("{s}y")),
        plural.strip_suffix('s').map(str::to_string),
    ];
    let found = candidates
        .iter()
        .flatten()
        .find(|c| find_word(text, c).is_some());
    found
        .cloned()
        .or_else(|| candidates[1].clone())
        .unwrap_or_else(|| plural.to_string())
}

/// The plural of the emperor term.
fn plural(singular: &str) -> String {
    if singular.ends_with(['s', 'x', 'z']) || singular.ends_with("ch") || singular.ends_with("sh") {
        format!("{singular}es")
    } else {
        format!("{singular}s")
    }
}

fn find_word(text: &str, word: &str) -> Option<usize> {
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Writes the terms in `text` as templates (see the module doc). `text`
/// must already be escaped for the template engine.
pub(crate) fn template(text: &str, terms: &Terms) -> String {
    let mut names: Vec<(&str, &str, bool)> = vec![
        (terms.players.as_str(), "players", false),
        (terms.player.as_str(), "player", false),
        (terms.emperors.as_str(), "emperors", true),
        (terms.emperor.as_str(), "emperor", true),
    ];
    names.retain(|(word, _, _)| !word.is_empty());
    names.sort_by_key(|(word, _, _)| std::cmp::Reverse(word.len()));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < text.len() {
        let found = names
            .iter()
            .find(|(word, _, emperor)| replaceable(text, at, word, *emperor));
        if let Some((word, name, _)) = found {
            out.push_str("{{ ");
            out.push_str(name);
            out.push_str(" }}");
            at += word.len();
        } else {
            let c = text[at..].chars().next().unwrap_or_default();
            out.push(c);
            at += c.len_utf8().max(1);
        }
    }
    out
}

/// Whether `word` occurs at byte `at` of `text` in a place it may be replaced.
fn replaceable(text: &str, at: usize, word: &str, emperor: bool) -> bool {
    if !text[at..].starts_with(word) {
        return false;
    }
    let before = &text[..at];
    let after = &text[at + word.len()..];
    let bounded = !before
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric)
        && !after.chars().next().is_some_and(char::is_alphanumeric);
    let token = before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or_default();
    let in_url = token.contains("://") || token.starts_with("www.");
    let named = after
        .strip_prefix(' ')
        .is_some_and(|a| a.starts_with(char::is_uppercase));
    let determined = before
        .strip_suffix(' ')
        .and_then(|b| b.rsplit(|c: char| !c.is_alphanumeric()).next())
        .is_some_and(|w| DETERMINERS.contains(&w));
    bounded && !in_url && !named && (!emperor || determined)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms() -> Terms {
        Terms {
            player: "Lamplighter".into(),
            players: "Lamplighters".into(),
            emperor: "Lantern".into(),
            emperors: "Lanterns".into(),
        }
    }

    #[test]
    fn detects_the_terms_from_the_customary_sentences() {
        let text = "This is the ruleset; all Lamplighters shall obey it. Each dynasty is headed by a single Lamplighter, known as the Lantern. The Lantern may veto.";
        let (found, missing) = find(text).into_terms(text);
        assert_eq!(found, terms());
        assert!(missing.is_empty());
    }

    #[test]
    fn multi_word_terms_and_must() {
        let text = "all Night Owls must obey it; headed by one, known as the Grand Moth, who";
        let (found, _) = find(text).into_terms(text);
        assert_eq!(
            (found.player.as_str(), found.players.as_str()),
            ("Night Owl", "Night Owls")
        );
        assert_eq!(
            (found.emperor.as_str(), found.emperors.as_str()),
            ("Grand Moth", "Grand Moths")
        );
    }

    #[test]
    fn says_what_it_could_not_find() {
        let text = "Nothing; all Owls must obey it.";
        let (found, missing) = find(text).into_terms(text);
        assert_eq!(found.players, "Owls");
        assert_eq!(found.emperor, "Emperor");
        assert_eq!(missing.len(), 1);
    }

    #[test]
    fn templates_whole_words_in_exact_case() {
        assert_eq!(
            template(
                "A Lamplighter's lamp; Lamplighters; lamplighter; Lamplighterly",
                &terms()
            ),
            "A {{ player }}'s lamp; {{ players }}; lamplighter; Lamplighterly"
        );
    }

    #[test]
    fn the_emperor_term_only_after_a_determiner_and_not_in_names() {
        assert_eq!(
            template(
                "The Lantern votes. Lantern Street. the Lantern Guild. a Lantern.",
                &terms()
            ),
            "The {{ emperor }} votes. Lantern Street. the Lantern Guild. a {{ emperor }}."
        );
    }

    #[test]
    fn never_inside_urls() {
        assert_eq!(
            template(
                "see http://example.invalid/Lamplighters or Lamplighters",
                &terms()
            ),
            "see http://example.invalid/Lamplighters or {{ players }}"
        );
    }
}
