//! Encodings the API needs: percent-encoding for paths and queries, and
//! base64 for file contents, as GitHub writes them.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_PAD_INDIFFERENT as BASE64;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// Every byte but the unreserved characters of RFC 3986 (letters, digits,
/// `-`, `_`, `.`, `~`), so a label or branch name is one path segment or
/// query value whatever it holds.
const RESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Percent-encodes a path segment or query value.
pub(crate) fn encode(text: &str) -> String {
    utf8_percent_encode(text, RESERVED).to_string()
}

/// Standard base64 with padding, as the contents API wants (read back
/// with or without it).
pub(crate) fn base64(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// Decodes standard base64, ignoring the line breaks GitHub puts in it
/// (every 60 characters, and one at the end); `None` for anything else
/// that is not base64.
pub(crate) fn unbase64(text: &str) -> Option<Vec<u8>> {
    let joined: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    BASE64.decode(joined).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_what_it_encodes() {
        for text in ["", "f", "fo", "foo", "foobar", "é\n[dynasty]\nnumber = 1\n"] {
            assert_eq!(unbase64(&base64(text.as_bytes())).unwrap(), text.as_bytes());
        }
        assert_eq!(unbase64("Zm9v\nYmFy\n").unwrap(), b"foobar");
        assert_eq!(unbase64("Zm9v!"), None);
    }

    #[test]
    fn base64_reads_github_contents_broken_into_lines() {
        // The contents API breaks the text every 60 characters and ends it
        // with a line break; padding may land on a line of its own.
        let text = "[dynasty]\nnumber = 1\n".repeat(20);
        let encoded = base64(text.as_bytes());
        let broken: String = encoded
            .as_bytes()
            .chunks(60)
            .map(|line| format!("{}\n", std::str::from_utf8(line).unwrap()))
            .collect();
        assert!(broken.lines().count() > 2);
        assert_eq!(unbase64(&broken).unwrap(), text.as_bytes());
        assert_eq!(unbase64("Zm8\n=\r\n").unwrap(), b"fo");
        assert_eq!(unbase64("Zm8").unwrap(), b"fo", "padding may be left out");
    }

    #[test]
    fn base64_refuses_what_is_not_base64() {
        assert_eq!(unbase64("Zm9v!"), None);
        assert_eq!(
            unbase64("Zm9v-_"),
            None,
            "the URL-safe alphabet is not GitHub's"
        );
        assert_eq!(unbase64("Z"), None, "six bits are no byte");
        assert_eq!(unbase64("Zm=v"), None, "padding only at the end");
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64("é\n".as_bytes()), "w6kK");
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn encodes_labels_for_urls() {
        assert_eq!(encode("not-a-matter"), "not-a-matter");
        assert_eq!(encode("Ascension Address"), "Ascension%20Address");
        assert_eq!(encode("a/b"), "a%2Fb");
        assert_eq!(encode("v1.2_x~"), "v1.2_x~");
        assert_eq!(encode("é?&=#+%"), "%C3%A9%3F%26%3D%23%2B%25");
    }
}
