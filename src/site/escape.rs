//! The site's one HTML escape, for text and for attributes in either
//! quotes, in pages, feeds and charts alike: `&`, `<`, `>`, `"` and `'`
//! become entities and nothing else changes. Tera's default also escapes
//! `/`, which every relative link would then carry as `&#x2F;`: correct,
//! but ugly and larger.

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
    let mut run = 0;
    for (i, byte) in text.bytes().enumerate() {
        let entity = match byte {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        // The special bytes are ASCII: `i` is a character boundary.
        out.push_str(&text[run..i]);
        out.push_str(entity);
        run = i + 1;
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
        ] {
            assert_eq!(escape(text), escaped, "{text}");
        }
        let mut out = String::from("kept: ");
        escape_into(&mut out, "a<b");
        assert_eq!(out, "kept: a&lt;b");
    }
}
