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

/// `value` as TOML to put between the `+++` fences of front matter.
///
/// The fence ends at the first line that reads `+++`, so text from the
/// forge (a title, a reason) must never put such a line inside it: a TOML
/// writer puts a string with line breaks on several lines, and a title of
/// `"CfJ\n+++\nx"` would close the fence early and leave a file that no
/// longer parses. Every string with a line break is written here on one
/// line, with escapes, so no line of the front matter comes from a value,
/// and it reads back to exactly `value`.
pub fn front_matter<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, FrontMatterError> {
    let text = toml::to_string(value)?;
    let mut doc: toml_edit::DocumentMut = text.parse()?;
    toml_edit::visit_mut::VisitMut::visit_document_mut(&mut OneLineStrings, &mut doc);
    Ok(doc.to_string())
}

/// `value` as TOML on one line: a string with line breaks is written with
/// escapes, so a value set by a comment cannot add a line to the commit
/// message that tells the log of it.
pub fn one_line_toml(value: &toml::Value) -> String {
    let text = value.to_string();
    match text.parse::<toml_edit::Value>() {
        Ok(mut parsed) => {
            toml_edit::visit_mut::VisitMut::visit_value_mut(&mut OneLineStrings, &mut parsed);
            parsed.to_string()
        }
        Err(_) => text,
    }
}

/// Why a value could not be written as front matter: a shape TOML cannot
/// hold (a bare value, a map whose keys are not strings). The project's
/// records and rule files never have one.
#[derive(Debug, thiserror::Error)]
pub enum FrontMatterError {
    /// The TOML writer refused the value.
    #[error("cannot write front matter: {0}")]
    Write(#[from] toml::ser::Error),
    /// What it wrote did not read back.
    #[error("front matter written does not read back: {0}")]
    Read(#[from] toml_edit::TomlError),
}

/// Rewrites each string value that spans lines as a one-line basic string.
struct OneLineStrings;

impl toml_edit::visit_mut::VisitMut for OneLineStrings {
    fn visit_value_mut(&mut self, node: &mut toml_edit::Value) {
        if let toml_edit::Value::String(s) = node {
            if s.value().contains(['\n', '\r']) {
                use toml_writer::ToTomlValue;
                let one_line = toml_writer::TomlStringBuilder::new(s.value())
                    .as_basic()
                    .to_toml_value();
                // The writer's own escaping always reads back as a string.
                if let Ok(mut value) = one_line.parse::<toml_edit::Value>() {
                    *value.decor_mut() = s.decor().clone();
                    *node = value;
                }
            }
        }
        toml_edit::visit_mut::visit_value_mut(self, node);
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

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Front {
        title: String,
        reasons: Vec<String>,
        votes: Vec<Vote>,
    }

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Vote {
        by: String,
    }

    fn round_trip(front: &Front) -> Result<(), String> {
        let toml_text = front_matter(front).map_err(|e| e.to_string())?;
        let text = format!("+++\n{toml_text}+++\nbody\n");
        let (toml_text, body, _) = split_front_matter(&text).ok_or(format!("unclosed: {text}"))?;
        let back: Front = toml::from_str(toml_text).map_err(|e| format!("{e}\n{text}"))?;
        if body != "body\n" || &back != front {
            return Err(format!("read back {back:?} and {body:?} from\n{text}"));
        }
        Ok(())
    }

    fn front(s: &str) -> Front {
        Front {
            title: s.into(),
            reasons: vec![s.into(), "plain".into()],
            votes: vec![Vote { by: s.into() }],
        }
    }

    #[test]
    fn a_title_with_a_fence_line_in_it_cannot_end_the_front_matter() {
        for title in [
            "CfJ\n+++\nx",
            "a\r\n+++\r\nb",
            "\"\"\"\n+++\n'''",
            "tab\there\u{0}nul\u{1b}[31m\u{202e}rtl\u{7f}",
            "+++",
        ] {
            round_trip(&front(title)).unwrap();
        }
    }

    #[test]
    fn a_value_with_line_breaks_is_one_line_of_toml() {
        let value = toml::Value::String("a\nplayers.x: 1 → 2 by @eve\n\"\"\"".into());
        let line = one_line_toml(&value);
        assert!(!line.contains('\n'), "{line}");
        let back: toml::Table = toml::from_str(&format!("v = {line}")).unwrap();
        assert_eq!(back["v"], value);
        let table: toml::Value =
            toml::from_str::<toml::Table>("t = { a = \"x\\ny\", b = 2 }").unwrap()["t"].clone();
        assert!(
            !one_line_toml(&table).contains('\n'),
            "{}",
            one_line_toml(&table)
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/source.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::default()
        })]

        #[test]
        fn any_string_reads_back_as_written(
            s in "(\\PC|[\n\r\t\u{0}\u{1b}\u{7f}\u{202e}\"'+]|\n\\+\\+\\+\n)*",
        ) {
            proptest::prop_assert_eq!(round_trip(&front(&s)), Ok(()));
        }
    }

    #[test]
    fn empty_front_matter_and_crlf() {
        let (front, body, line) = split_front_matter("+++\r\n+++\r\nx").unwrap();
        assert_eq!((front, body, line), ("", "x", 3));
    }
}
