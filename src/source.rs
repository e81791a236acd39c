//! A file of the game as text, wherever it came from (a directory, a git
//! tree at some revision, a test). Parsers take these, so they never know
//! or care where the bytes were read.

/// One file: its path relative to the game root (with `/` separators) and
/// its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Path relative to the game root, e.g. `rules/core/proposals.md`.
    pub path: String,
    /// The file's contents.
    pub text: String,
}

impl SourceFile {
    /// A file at `path` holding `text`.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            path: path.into(),
            text: text.into(),
        }
    }
}

/// Splits `+++`-fenced TOML front matter from a Markdown file.
///
/// Returns `(front matter, body, line of the body's first line)`; `None`
/// when the file does not start with a `+++` line or the fence is not
/// closed. Line numbers are 1-based; the front matter starts on line 2.
pub fn split_front_matter(text: &str) -> Option<(&str, &str, usize)> {
    let rest = text
        .strip_prefix("+++\n")
        .or_else(|| text.strip_prefix("+++\r\n"))?;
    let mut offset = 0;
    for (line, chunk) in (2..).zip(rest.split_inclusive('\n')) {
        if chunk.trim_end() == "+++" {
            let front = &rest[..offset];
            let body = &rest[offset + chunk.len()..];
            return Some((front, body, line + 1));
        }
        offset += chunk.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_front_matter_and_counts_body_line() {
        let (front, body, line) = split_front_matter("+++\na = 1\nb = 2\n+++\nBody\n").unwrap();
        assert_eq!(front, "a = 1\nb = 2\n");
        assert_eq!(body, "Body\n");
        assert_eq!(line, 5);
    }

    #[test]
    fn no_front_matter_or_unclosed_fence() {
        assert!(split_front_matter("Body").is_none());
        assert!(split_front_matter("+++\na = 1\n").is_none());
    }

    #[test]
    fn empty_front_matter_and_crlf() {
        let (front, body, line) = split_front_matter("+++\r\n+++\r\nx").unwrap();
        assert_eq!((front, body, line), ("", "x", 3));
    }
}
