//! Escaping imported text so Markdown and the template engine read it as
//! the text it is. Pure.
//!
//! Markdown: a backslash goes before every character that could open
//! markup anywhere in a line (`\` `` ` `` `*` `[` `]` `<` `~` `|`), before
//! `_` unless it sits inside a word (where it cannot emphasise), before `&`
//! when it would start an entity (`&amp;`), and before what would make the
//! line a heading, quote, list, rule or table (`#` `>` `+` `-` `=` at the
//! start, the `.` or `)` of a leading number). Smart punctuation (curly
//! quotes) is typography applied when the site is rendered, not markup,
//! so quotes are left alone.
//!
//! Templates: `{{`, `{%` and `{#` would start a Tera tag, so their `{` is
//! written as `{{ "{" }}`.

/// Escapes one line of text for Markdown (see the module doc).
pub(crate) fn markdown(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    for (i, &c) in chars.iter().enumerate() {
        let at_start = i == 0 && matches!(c, '#' | '>' | '+' | '-' | '=');
        let numbered = i == digits
            && (1..=9).contains(&i)
            && matches!(c, '.' | ')')
            && chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        let escape = at_start
            || numbered
            || matches!(c, '\\' | '`' | '*' | '[' | ']' | '<' | '~' | '|')
            || (c == '_' && !inside_word(&chars, i))
            || (c == '&' && starts_entity(&chars[i + 1..]));
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn inside_word(chars: &[char], i: usize) -> bool {
    let alnum = |j: Option<usize>| {
        j.and_then(|j| chars.get(j))
            .is_some_and(|c| c.is_alphanumeric())
    };
    alnum(i.checked_sub(1)) && alnum(Some(i + 1))
}

/// Whether the text after an `&` would make it an entity or character
/// reference (`amp;`, `#38;`, `#x26;`).
fn starts_entity(rest: &[char]) -> bool {
    let name = rest.strip_prefix(&['#']).unwrap_or(rest);
    let len = name
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    len > 0 && name.get(len) == Some(&';')
}

/// Escapes the openers of template tags (see the module doc).
pub(crate) fn template(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '{' && matches!(chars.peek(), Some('{' | '%' | '#')) {
            out.push_str("{{ \"{\" }}");
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_inline_markup() {
        assert_eq!(
            markdown("a *b* [c] <d> ~~e~~ | f"),
            r"a \*b\* \[c\] \<d> \~\~e\~\~ \| f"
        );
        assert_eq!(markdown(r"back\slash `code`"), r"back\\slash \`code\`");
    }

    #[test]
    fn underscores_inside_words_stay() {
        assert_eq!(markdown("Main_Page and _this_"), r"Main_Page and \_this\_");
    }

    #[test]
    fn ampersands_only_before_entities() {
        assert_eq!(markdown("a&b=1 &amp; &#38;"), r"a&b=1 \&amp; \&#38;");
    }

    #[test]
    fn escapes_what_would_make_a_block() {
        assert_eq!(markdown("# not a heading"), r"\# not a heading");
        assert_eq!(markdown("- not an item"), r"\- not an item");
        assert_eq!(markdown("> not a quote"), r"\> not a quote");
        assert_eq!(markdown("12. not numbered"), r"12\. not numbered");
        assert_eq!(markdown("3) nor this"), r"3\) nor this");
        assert_eq!(markdown("2.5 is fine"), "2.5 is fine");
        assert_eq!(markdown("a - b + c"), "a - b + c");
    }

    #[test]
    fn escapes_template_openers() {
        assert_eq!(
            template("{{x}} {%y%} {#z#} {plain}"),
            "{{ \"{\" }}{x}} {{ \"{\" }}%y%} {{ \"{\" }}#z#} {plain}"
        );
    }
}
