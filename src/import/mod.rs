//! Importing a ruleset kept elsewhere into gitnomic's `rules/`. Pure.
//!
//! Groups that already play BlogNomic-style keep their ruleset as wiki
//! text; importing it is the quickest way to start a game here.
//! [`blognomic`] reads a BlogNomic ruleset dump into an [`Imported`]
//! ruleset (sections, rules with their nesting, glossary terms, the
//! game's terms); [`files`] writes that as the game files (`rules/…`,
//! `state/game.toml`, `state/roster.toml`) in memory; [`plain`] renders
//! the written files back to plain text, and [`verify`] checks that this
//! accounts for every line of the dump that is not wiki chrome. Writing
//! to disk is the command line's business.

pub mod blognomic;
mod escape;
mod evidence;
pub mod files;
mod glossary;
pub mod hints;
mod lines;
mod nesting;
pub mod plain;
mod preset;
mod section;
mod solve;
mod terms;
mod titles;
mod xref;

use crate::gamestate::Terms;
use crate::ruleset::{RuleId, SectionKind};
use crate::source::SourceFile;

pub use hints::Hints;

/// The numbered entries of a wiki page's Contents box, pasted apart from
/// the dump (`import ruleset --contents FILE`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contents {
    entries: Vec<section::ContentsEntry>,
}

impl Contents {
    /// Reads a pasted Contents box: lines such as `2.4.1 Powers` (or
    /// `2.4.1<TAB>Powers`); the `Contents` heading, `[hide]` and lines that
    /// are not entries are skipped.
    pub fn parse(text: &str) -> Self {
        let entries = text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| lines::contents_entry(i + 1, line.trim()))
            .collect();
        Contents { entries }
    }

    /// How many entries it has.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A rule as found, before ids and files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Draft {
    /// The line of its title in the dump.
    pub(crate) line: usize,
    /// Its title as written.
    pub(crate) title: String,
    /// Its body.
    pub(crate) body: Vec<Block>,
}

/// The marker a list item had in the dump.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// `•`, `·` or `*`.
    Bullet,
    /// `-`.
    Dash,
    /// `3.` or `3)`.
    Number(u32),
}

/// One line of a body or an intro.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A line of prose (a paragraph of its own).
    Text(String),
    /// A list item.
    Item {
        /// Its marker in the dump.
        marker: Marker,
        /// 1 for the outermost level.
        level: usize,
        /// Its text without the marker.
        text: String,
    },
}

impl Block {
    /// The block's text, without any marker.
    pub fn text(&self) -> &str {
        match self {
            Block::Text(text) | Block::Item { text, .. } => text,
        }
    }
}

/// A section as imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedSection {
    /// Which section.
    pub kind: SectionKind,
    /// Its heading as written.
    pub title: String,
    /// The line of the heading in the dump.
    pub line: usize,
    /// Its place among the sections (1, 2, 3).
    pub order: i64,
    /// Text before its first rule (a preamble).
    pub intro: Vec<Block>,
}

/// A rule as imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedRule {
    /// Its id: the slug of its title, made unique.
    pub id: RuleId,
    /// Its title as written.
    pub title: String,
    /// The line of its title in the dump.
    pub line: usize,
    /// Its section.
    pub section: SectionKind,
    /// The rule it is a subrule of.
    pub parent: Option<RuleId>,
    /// Its place among its siblings: 10, 20, 30…
    pub order: i64,
    /// Its text.
    pub body: Vec<Block>,
    /// Glossary pairs (term, definition) taken out of its body.
    pub terms: Vec<(String, String)>,
    /// Why its number is in doubt, when the text does not settle it.
    pub doubt: Option<String>,
}

/// A rule whose number changes with the answer to a [`Question`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The line of its title.
    pub line: usize,
    /// Its title.
    pub title: String,
    /// Its number now.
    pub now: String,
    /// Its number if the answer is the other one.
    pub other: String,
}

/// A decision the text leaves open, asked in the numbers a reader sees on
/// the wiki: "is Trimming 2.3 or 2.2.2?". Answered with a `[numbers]`
/// (or `[parents]`) hint for `line`; a line that may be a title is
/// answered with its number, or with `not_titles`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// The line of the rule's title (or of the line that may be a title).
    pub line: usize,
    /// Its title (or the line's text).
    pub title: String,
    /// Its number now; `None` when the import does not take it for a title.
    pub now: Option<String>,
    /// Its number the other likeliest way; `None` when unknown (a line
    /// that may be a title).
    pub other: Option<String>,
    /// The other rules whose numbers the answer changes.
    pub moves: Vec<Moved>,
    /// How many numbers hang on it: its own and the rules it moves (for
    /// a line that may be a title, the rules after it in its section).
    pub weight: usize,
    /// Why it is asked.
    pub why: String,
    /// Whether only a shared word leans the other way: weak questions are
    /// asked after the others.
    pub weak: bool,
}

impl Question {
    /// The question in words.
    pub fn ask(&self) -> String {
        match (&self.now, &self.other) {
            (Some(now), Some(other)) => format!("is {} {now} or {other}?", self.title),
            _ => format!(
                "is line {} (\"{}\") a rule title, and if so what is its number?",
                self.line, self.title
            ),
        }
    }

    /// The rules it moves, in words: `Shades 2.3.1 → 2.2.3, Glass 2.4 → 2.3`.
    pub fn moves_said(&self) -> String {
        self.moves
            .iter()
            .map(|m| format!("{} {} → {}", m.title, m.now, m.other))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The engine preset the core rules match, and the rule that declares it
/// (in its `[params]`, as the bundled game does).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenPreset {
    /// The preset's name: `blognomic-49` … `blognomic-113`.
    pub name: String,
    /// The rule whose front matter names it: the core rule on voting.
    pub rule: RuleId,
}

/// A whole imported ruleset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The ruleset's name: the dump's page title, else the file's name.
    pub name: String,
    /// Whether `name` is a line of the dump (and so part of the round trip).
    pub name_in_dump: bool,
    /// The player and emperor terms found (defaults when not found).
    pub terms: Terms,
    /// The sections, in order.
    pub sections: Vec<ImportedSection>,
    /// The rules in document order (each rule before its subrules).
    pub rules: Vec<ImportedRule>,
    /// Things a person should look at: undetected terms, unrecognised
    /// lines dropped as chrome, nesting signals that were dropped.
    pub warnings: Vec<String>,
    /// Every non-chrome line of the dump as (line, text without its list
    /// marker), for the round trip.
    pub source: Vec<(usize, String)>,
    /// The preset the core rules match, if one does.
    pub preset: Option<ChosenPreset>,
    /// Which preset was chosen and why, or why none was.
    pub preset_note: String,
    /// The decisions the text leaves open, most numbers hanging on them first.
    pub questions: Vec<Question>,
}

impl Imported {
    /// Which preset was chosen (and where it is declared), or why none was.
    pub fn preset_line(&self) -> String {
        match &self.preset {
            Some(p) => format!(
                "{}; declared in the [params] of rule `{}`",
                self.preset_note, p.rule
            ),
            None => self.preset_note.clone(),
        }
    }

    /// How many questions the text leaves open, and how many numbers hang on them.
    pub fn question_line(&self) -> String {
        let total = self.rules.len();
        match self.questions.len() {
            0 => format!(
                "0 questions: nothing in the text leaves a number of the {total} rules open"
            ),
            n => format!(
                "{n} question{}, each asked in a warning above, the most numbers hanging on it first ({} of {total} rules' numbers hang on them, each marked in its file's front matter when written): answer them with [numbers] hints, or write them with --questions FILE",
                if n == 1 { "" } else { "s" },
                self.in_doubt()
            ),
        }
    }

    /// How many rules' numbers are in doubt.
    pub fn in_doubt(&self) -> usize {
        self.rules.iter().filter(|r| r.doubt.is_some()).count()
    }

    /// Each rule's title line and number (`2.3.1`), in order, as the
    /// numbering module will give them.
    pub fn numbers(&self) -> Vec<(usize, String)> {
        let ids = xref::numbers(&self.sections, &self.rules);
        self.rules
            .iter()
            .map(|r| (r.line, ids.get(&r.id).cloned().unwrap_or_default()))
            .collect()
    }
}

/// Why a dump could not be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// No line is a section heading, so this is not a ruleset dump.
    #[error(
        "no section heading (a line `Core Rules`, `Dynastic Rules`, `Glossary` or `Appendix`) found: is this a BlogNomic ruleset dump?"
    )]
    NoSections,
    /// The hints file is malformed.
    #[error("bad hints file: {0}")]
    Hints(String),
    /// A hint names a line it cannot apply to.
    #[error("hint for line {line}: {problem}")]
    HintLine {
        /// The line the hint names.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// The written files do not parse: a bug in the importer.
    #[error("the imported rules do not check:\n{0}")]
    Invalid(String),
    /// Rendering the import back does not give the dump's lines.
    #[error(
        "round trip: line {line} of the dump reads `{expected}` but the import renders `{found}`"
    )]
    RoundTrip {
        /// The dump's line number (0 past the end).
        line: usize,
        /// The dump's text there.
        expected: String,
        /// What the import rendered instead.
        found: String,
    },
}

/// Checks that the rule files written for `imported`, rendered back to
/// plain text with the detected terms, give every non-chrome line of the
/// dump in order: none dropped, none invented, none changed. The name
/// comes first when it is the dump's page title. List markers and blank
/// lines are not compared (Markdown writes its own).
pub fn verify(imported: &Imported, rule_files: &[SourceFile]) -> Result<(), ImportError> {
    let rendered = plain::render_files(rule_files, &imported.terms)?;
    let name = imported.name_in_dump.then(|| imported.name.clone());
    let mut found = name.into_iter().chain(
        rendered
            .iter()
            .map(|l| plain::strip_marker(l))
            .filter(|l| !l.is_empty()),
    );
    for (line, expected) in &imported.source {
        let got = found.next();
        if got.as_deref() != Some(expected.as_str()) {
            return Err(ImportError::RoundTrip {
                line: *line,
                expected: expected.clone(),
                found: got.unwrap_or_default(),
            });
        }
    }
    match found.next() {
        Some(extra) => Err(ImportError::RoundTrip {
            line: 0,
            expected: String::new(),
            found: extra,
        }),
        None => Ok(()),
    }
}
