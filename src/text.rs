//! Text from the forge, fitted to where it goes. Anyone can title a pull
//! request or write a comment, with any characters: a line break in a
//! title must not become a line of a commit message (where the log reads
//! who changed what), and an escape sequence in a comment must not reach a
//! player's terminal as a command to it. Pure.

use std::borrow::Cow;

/// Whether `c` changes how text around it is laid out or read without
/// being seen: a control character, or a mark that reorders text (U+202E
/// shows what follows backwards).
fn is_hidden_control(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200E}' | '\u{200F}' | '\u{061C}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{2028}' | '\u{2029}')
}

/// `text` as one line of at most `max` characters: every run of white
/// space and hidden controls is one space, and what is cut is marked `…`.
/// For a commit subject made from a title.
pub fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut gap = false;
    for c in text.chars() {
        if c.is_whitespace() || is_hidden_control(c) {
            gap = !out.is_empty();
            continue;
        }
        if gap {
            out.push(' ');
            gap = false;
        }
        out.push(c);
    }
    match out.char_indices().nth(max.saturating_sub(1)) {
        Some((cut, _)) if out[cut..].chars().nth(1).is_some() => {
            out.truncate(cut);
            out.push('…');
            out
        }
        _ => out,
    }
}

/// `text` safe to print on a terminal: line breaks and tabs stay, and
/// every other control character or reordering mark is shown as its code
/// (`\u{1b}`), so a comment cannot move the cursor, retitle the window,
/// ring the bell or turn the rest of a line around.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    let hidden = |c: char| c != '\n' && c != '\t' && is_hidden_control(c);
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as a name for a file or an anchor: its ASCII letters and digits
/// in lowercase, a hyphen for each run of anything else between them, and
/// apostrophes dropped (`Keeper's Oath` → `keepers-oath`, `75th Trombone`
/// → `75th-trombone`). `None` when no letter or digit is left: the caller
/// names what stands in.
pub fn slug(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut gap = false;
    for c in text.chars().filter(|c| !matches!(c, '\'' | '’')) {
        if c.is_ascii_alphanumeric() {
            if gap && !out.is_empty() {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
            gap = false;
        } else {
            gap = true;
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slug_keeps_letters_and_digits_with_hyphens_between() {
        assert_eq!(slug("Keeper's Oath").as_deref(), Some("keepers-oath"));
        assert_eq!(
            slug("Spam, egg (and) spam.").as_deref(),
            Some("spam-egg-and-spam")
        );
        assert_eq!(slug("75th Trombone").as_deref(), Some("75th-trombone"));
        assert_eq!(slug("--Ørjan!").as_deref(), Some("rjan"));
        assert_eq!(slug("¿? ’"), None);
    }

    #[test]
    fn a_title_with_line_breaks_is_one_line() {
        assert_eq!(
            one_line("Bob acts\n\nplayers.bob.springs: 3 → 10\r\n", 100),
            "Bob acts players.bob.springs: 3 → 10"
        );
        assert_eq!(one_line("  a\u{202e}\u{1b}b \t c ", 100), "a b c");
        assert_eq!(one_line("", 100), "");
    }

    #[test]
    fn a_long_title_is_cut_and_marked() {
        assert_eq!(one_line("abcdef", 6), "abcdef");
        assert_eq!(one_line("abcdefg", 6), "abcde…");
        assert_eq!(one_line("ééééééé", 3), "éé…");
    }

    #[test]
    fn controls_are_shown_not_sent_to_the_terminal() {
        assert_eq!(for_terminal("plain\n\tok"), "plain\n\tok");
        assert_eq!(
            for_terminal("\u{1b}]0;owned\u{7}x\u{202e}y"),
            "\\u{1b}]0;owned\\u{7}x\\u{202e}y"
        );
        assert_eq!(for_terminal("\u{9b}31m"), "\\u{9b}31m");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/text.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn one_line_has_no_break_and_keeps_to_its_length(s in "\\PC*|[\n\r\u{2028}a ]*", max in 1usize..40) {
            let line = one_line(&s, max);
            let breaks = ['\n', '\r', '\u{2028}'];
            proptest::prop_assert!(!line.contains(breaks), "{:?}", line);
            proptest::prop_assert!(line.chars().count() <= max);
        }

        #[test]
        fn the_terminal_sees_no_control_but_breaks_and_tabs(s in "(\\PC|[\u{0}-\u{1f}\u{7f}-\u{9f}\u{202a}-\u{202e}])*") {
            let shown = for_terminal(&s);
            proptest::prop_assert!(!shown.chars().any(|c| c != '\n' && c != '\t' && is_hidden_control(c)));
        }
    }
}
