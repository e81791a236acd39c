//! The site's one HTML escape, for text and for attributes in either
//! quotes, in pages, feeds and charts alike: `&`, `<`, `>`, `"` and `'`
//! become entities, a U+2069 that closes no isolate the text opened is
//! dropped, a character XML cannot hold (a control character but tab and
//! line breaks, U+FFFE, U+FFFF) becomes U+FFFD, and nothing else
//! changes. Tera's default also escapes `/`, which every relative link
//! would then carry as `&#x2F;`: correct, but ugly and larger.
//!
//! The theme isolates each title and name (in a link, a `<bdi>`, or
//! between U+2068 and U+2069), so that a mark that shows text backwards
//! (U+202E) turns only that title around. A title's own U+2069 would end
//! the isolate early and let its U+202E turn the rest of the line around.

/// `name` (a player's, say) to be put in a sentence, between U+2068 and
/// U+2069, less any such mark of its own: a mark in it that shows text
/// backwards turns only the name around, not the sentence.
pub(crate) fn isolated(name: &str) -> String {
    let name: String = name
        .chars()
        .filter(|c| !('\u{2066}'..='\u{2069}').contains(c))
        .collect();
    format!("\u{2068}{name}\u{2069}")
}

/// What a character that XML cannot hold is shown as.
const REPLACEMENT: &str = "\u{FFFD}";

/// `text` escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    escape_into(&mut out, text);
    out
}

/// Appends `text` escaped to `out`. Most text has nothing to escape (Tera
/// calls this for every value a template prints): what lies between
/// special bytes is copied in runs, not a character at a time.
pub(crate) fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut run = 0;
    // How many isolates the text has opened and not closed.
    let mut open = 0_usize;
    for (i, &byte) in bytes.iter().enumerate() {
        let (entity, len) = match byte {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' => ("&quot;", 1),
            b'\'' => ("&#39;", 1),
            // Control characters (but tab and line breaks) are no
            // character of XML, and a feed with one is refused whole by
            // its readers; in HTML they are errors that show nothing. A
            // title may hold any: each is shown as U+FFFD.
            0x00..=0x08 | 0x0B | 0x0C | 0x0E..=0x1F | 0x7F => (REPLACEMENT, 1),
            // U+0080 to U+009F: C2 80 to C2 9F.
            0xC2 if matches!(bytes.get(i + 1), Some(0x80..=0x9F)) => (REPLACEMENT, 2),
            // U+2066 to U+2068 open an isolate, U+2069 closes one: E2 81
            // A6 to A9 in UTF-8.
            0xE2 => match bytes.get(i + 1..i + 3) {
                Some([0x81, 0xA6..=0xA8]) => {
                    open += 1;
                    continue;
                }
                Some([0x81, 0xA9]) if open > 0 => {
                    open -= 1;
                    continue;
                }
                Some([0x81, 0xA9]) => ("", 3),
                _ => continue,
            },
            // U+FFFE and U+FFFF, no characters of XML either: EF BF BE/BF.
            0xEF if matches!(bytes.get(i + 1..i + 3), Some([0xBF, 0xBE | 0xBF])) => {
                (REPLACEMENT, 3)
            }
            _ => continue,
        };
        // The special bytes begin a character: `i` is a boundary.
        out.push_str(&text[run..i]);
        out.push_str(entity);
        run = i + len;
    }
    out.push_str(&text[run..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_special_character_becomes_its_entity_and_the_rest_stays() {
        for (text, escaped) in [
            ("", ""),
            ("plain text, é and 🜂", "plain text, é and 🜂"),
            (
                "<a href=\"x\">Ann's & Bob's</a>",
                "&lt;a href=&quot;x&quot;&gt;Ann&#39;s &amp; Bob&#39;s&lt;/a&gt;",
            ),
            ("é&é<🜂>'\"", "é&amp;é&lt;🜂&gt;&#39;&quot;"),
            ("&&", "&amp;&amp;"),
            // A U+2069 that closes nothing the text opened is dropped;
            // the override after it stays, inside the page's isolate.
            ("x\u{2069}\u{202e}y", "x\u{202e}y"),
            ("\u{2068}a\u{2069}\u{2069}b", "\u{2068}a\u{2069}b"),
            (
                "\u{2066}\u{2067}\u{2069}\u{2069}\u{2069}<",
                "\u{2066}\u{2067}\u{2069}\u{2069}&lt;",
            ),
            ("\u{2065}\u{206a}", "\u{2065}\u{206a}"),
            // No control character is left but tab and line breaks.
            (
                "a\u{0}b\u{1b}[31m\u{7f}\u{85}\u{9f}\t\n\r\u{a0}é",
                "a\u{fffd}b\u{fffd}[31m\u{fffd}\u{fffd}\u{fffd}\t\n\r\u{a0}é",
            ),
            (
                "\u{fffe}x\u{ffff}\u{fffd}\u{fffc}",
                "\u{fffd}x\u{fffd}\u{fffd}\u{fffc}",
            ),
        ] {
            assert_eq!(escape(text), escaped, "{text}");
        }
        let mut out = String::from("kept: ");
        escape_into(&mut out, "a<b");
        assert_eq!(out, "kept: a&lt;b");
    }
}
