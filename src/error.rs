//! Problems found in the game's files, reported the way compilers do:
//! `rules/core/voting.md:14: [1.4 Votable Matters] message`.
//!
//! Parsers and validators collect every problem they find into
//! [`Diagnostics`] instead of stopping at the first, so one `check` run
//! tells a player everything that is wrong with their proposal.

use std::fmt;

/// One problem, located in a file of the game.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// Path relative to the game's root, with `/` separators.
    pub path: String,
    /// 1-based line; 0 when the problem concerns the whole file.
    pub line: usize,
    /// The rule the problem is in, as `number title`, when known.
    pub rule: Option<String>,
    /// What is wrong, in words a player understands.
    pub message: String,
}

impl Diagnostic {
    /// A problem at `path:line`.
    pub fn new(path: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            path: path.into(),
            line,
            rule: None,
            message: message.into(),
        }
    }

    /// Names the rule the problem belongs to.
    #[must_use]
    pub fn in_rule(mut self, rule: impl Into<String>) -> Self {
        self.rule = Some(rule.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.path)?;
        if self.line > 0 {
            write!(f, "{}:", self.line)?;
        }
        if let Some(rule) = &self.rule {
            write!(f, " [{rule}]")?;
        }
        write!(f, " {}", self.message)
    }
}

/// An ordered collection of problems.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    /// No problems yet.
    pub fn new() -> Self {
        Diagnostics(Vec::new())
    }

    /// Records a problem.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    /// Records every problem of `other`.
    pub fn extend(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The problems, in the order found.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// Sorts by file, then line, so reports read top to bottom.
    pub fn sort(&mut self) {
        self.0.sort();
        self.0.dedup();
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

pub use gitnomic_engine::lines::LineIndex;

/// Turns a TOML error into a diagnostic at the right line.
///
/// `text` is the TOML that was parsed and `first_line` the file line it
/// starts on (1 for a whole `.toml` file, 2 for front matter after `+++`).
pub fn toml_diagnostic(
    path: &str,
    text: &str,
    first_line: usize,
    err: &toml::de::Error,
) -> Diagnostic {
    let line = err.span().map_or(first_line, |span| {
        LineIndex::new(text).line(span.start) + first_line - 1
    });
    let message = err.message().trim_end().to_string();
    Diagnostic::new(path, line, message)
}

/// The file line of byte `offset` in a TOML text that starts on `first_line`.
pub fn line_of(text: &str, first_line: usize, offset: usize) -> usize {
    LineIndex::new(text).line(offset) + first_line - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_path_line_rule_and_message() {
        let d = Diagnostic::new("rules/core/voting.md", 14, "quorum must be a whole number")
            .in_rule("1.4 Votable Matters");
        assert_eq!(
            d.to_string(),
            "rules/core/voting.md:14: [1.4 Votable Matters] quorum must be a whole number"
        );
        assert_eq!(
            Diagnostic::new("state/roster.toml", 0, "empty").to_string(),
            "state/roster.toml: empty"
        );
    }

    #[test]
    fn line_index_maps_offsets_to_lines() {
        let idx = LineIndex::new("ab\ncd\n\nef");
        assert_eq!(idx.line(0), 1);
        assert_eq!(idx.line(2), 1);
        assert_eq!(idx.line(3), 2);
        assert_eq!(idx.line(6), 3);
        assert_eq!(idx.line(7), 4);
        assert_eq!(idx.line(9), 4);
    }
}
