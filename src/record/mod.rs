//! Records of resolved matters, `content/matters/<number>.md`. Pure.
//!
//! A record is written once, by the resolver, when a matter is enacted or
//! failed, and never edited after: it is the game's memory of what was
//! decided, by whom and on which votes. The front matter is TOML (so the
//! site and tools read it without guessing); the body is the matter's text
//! as it was when resolved.

pub mod cache;
pub mod changelog;
pub mod imported;
pub mod rolls;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::engine::MatterKind;
use crate::engine::MatterNumber;
use crate::error::{Diagnostic, Diagnostics, toml_diagnostic};
use crate::source::{SourceFile, split_front_matter};
use crate::time::Timestamp;

/// How a matter ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Enacted (a proposal's pull request merged).
    #[serde(alias = "enact")]
    Enacted,
    /// Failed (closed).
    #[serde(alias = "fail")]
    Failed,
    /// Closed without a vote: it could not stand as the matter it claimed
    /// to be (over a limit, in a hiatus, by someone who may not post it,
    /// changing files its kind may not). Its record says why.
    #[serde(rename = "not-a-matter")]
    NotAMatter,
}

/// Why a failed matter failed, when it was not simply voted down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Failure {
    /// Vetoed by the emperor.
    Vetoed,
    /// Failed as illegal (BlogNomic's "Illegal").
    Illegal,
    /// Self-killed: its author voted AGAINST it.
    #[serde(rename = "self-killed")]
    SelfKilled,
}

/// One counted vote.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedVote {
    /// The player.
    pub player: String,
    /// FOR, AGAINST, DEFERENTIAL or VETO, as cast.
    pub vote: String,
    /// What a DEFERENTIAL counted as when it was decided: the emperor's
    /// FOR or AGAINST, or `none` (no emperor's vote to follow). Absent
    /// when the vote counted as cast, and in records older than the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<String>,
    /// When the comment carrying it was made; absent for an author's implicit FOR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Timestamp>,
    /// A link to that comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A comment that carried no counted vote, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedUncounted {
    /// Who wrote it (a login or a player name).
    pub by: String,
    /// When.
    pub at: Timestamp,
    /// Why it did not count, in game terms.
    pub why: String,
    /// A link to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// One comment or review body of a matter's discussion, as the record
/// keeps it: the argument stays readable after the matter is resolved, on
/// the site and wherever the repository goes, forge or not. What a crowd
/// may write is bounded ([`crate::matter::discussion`]): a comment is cut at
/// [`crate::matter::discussion::COMMENT_CHARS`] characters and a record keeps at most
/// [`crate::matter::discussion::COMMENTS`] of them. The text is data, written by the TOML
/// serialiser as a string and never spliced into the record's Markdown;
/// the site sanitises it as it does a matter's text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedComment {
    /// The forge's id for it (the order the tally breaks ties by).
    pub id: u64,
    /// Who wrote it: a player's name, or `@login` for someone not on the
    /// roster.
    pub by: String,
    /// When it was made.
    pub at: Timestamp,
    /// What it was: `a comment`, `a review (approved)`.
    pub via: String,
    /// The vote the tally counted from it, as cast (`FOR`, or
    /// `DEFERENTIAL (as FOR)`); absent when it carried no counted vote.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vote: Option<String>,
    /// What became of it, as the status comment says it: `edited since;
    /// it counts as first seen`, a push's voiding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// It on the forge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// How many characters of its text were cut off by the bound; absent
    /// when it is whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut: Option<u32>,
    /// Its Markdown as the tally saw it first (cut to the bound).
    pub body: String,
}

/// The final count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalTally {
    /// FOR votes counted.
    #[serde(rename = "for")]
    pub for_: u32,
    /// AGAINST votes counted.
    pub against: u32,
    /// Active players when it was resolved.
    pub active: u32,
    /// Quorum when it was resolved.
    pub quorum: u32,
}

/// The record of one resolved matter. `Hash` covers every field, the
/// body too: the site digests a record's page by it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The pull request or issue number (or, for an imported record, its
    /// position in the imported history).
    pub number: MatterNumber,
    /// Where an imported record came from (`blognomic`); `None` for the
    /// game's own matters. It keeps imported numbers apart from the
    /// forge's: imported records live in `content/matters/<source>/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// What kind of matter.
    pub kind: MatterKind,
    /// Its title.
    pub title: String,
    /// The author's player name.
    pub author: String,
    /// The dynasty it was resolved in.
    pub dynasty: u32,
    /// When it was opened.
    pub opened: Timestamp,
    /// When it was resolved.
    pub resolved: Timestamp,
    /// Enacted or failed.
    pub outcome: Outcome,
    /// For a failed matter, a more precise reason (vetoed, illegal), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<Failure>,
    /// Who or what resolved it (`gitnomic resolve`, or an admin's name);
    /// empty when not known (imported history often does not say), see
    /// [`Record::resolver`].
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resolved_by: String,
    /// The reasons for the decision, in game terms.
    #[serde(default)]
    pub reasons: Vec<String>,
    /// The commit the votes were counted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// The merge commit of an enacted proposal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merge_commit: Option<String>,
    /// A link to the matter on the forge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// How many comments and review bodies the matter had, the resolver's
    /// status aside. Imported history keeps this count alone; the game's
    /// own records keep the comments too (`discussion`), all of them
    /// unless the bound left some out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<u32>,
    /// The final tally; absent for imported history, which has no votes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<FinalTally>,
    /// Every counted vote.
    #[serde(default)]
    pub votes: Vec<RecordedVote>,
    /// The comments that were not counted, with the reason: every one,
    /// or, as anyone may comment, the first
    /// [`crate::matter::discussion::COMMENTS`] of them, those that cast a
    /// vote before those that had no voting word.
    #[serde(default)]
    pub uncounted: Vec<RecordedUncounted>,
    /// How many comments not counted `uncounted` leaves out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub uncounted_more: u32,
    /// The votes that made it Vetoed or Self-Killed for good (a VETO by the
    /// emperor, an AGAINST by its author), even if changed later.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sticky: Vec<RecordedVote>,
    /// Its discussion, oldest first: what the players said, within
    /// [`crate::matter::discussion`]'s bounds. Absent from imported records and from
    /// records older than the field.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discussion: Vec<RecordedComment>,
    /// The matter's text (Markdown), kept out of the front matter.
    #[serde(skip)]
    pub body: String,
}

/// Whether a count is zero, and so not written.
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Record {
    /// Where the record of the game's own matter `number` is kept.
    pub fn path_for(number: MatterNumber) -> String {
        format!("content/matters/{number:05}.md")
    }

    /// Where this record is kept: [`Record::path_for`] for the game's own
    /// matters, `content/matters/<source>/<number>.md` for imported ones.
    pub fn path(&self) -> String {
        match &self.source {
            Some(source) => format!("content/matters/{source}/{:05}.md", self.number),
            None => Record::path_for(self.number),
        }
    }

    /// The record's identity across sources: `12` or `blognomic/12`. The
    /// site uses it in addresses.
    pub fn key(&self) -> String {
        match &self.source {
            Some(source) => format!("{source}/{}", self.number),
            None => self.number.to_string(),
        }
    }

    /// Who or what resolved it, when known: `None` for an imported record
    /// whose history does not say (older imports wrote `unknown`).
    pub fn resolver(&self) -> Option<&str> {
        let by = self.resolved_by.trim();
        let unknown = by.is_empty() || (self.source.is_some() && by == "unknown");
        (!unknown).then_some(by)
    }

    /// How it ended, in a word: enacted, failed, vetoed, self-killed,
    /// illegal or not-a-matter.
    pub fn status(&self) -> &'static str {
        match (self.outcome, self.failure) {
            (Outcome::Enacted, _) => "enacted",
            (Outcome::Failed, None) => "failed",
            (Outcome::Failed, Some(Failure::Vetoed)) => "vetoed",
            (Outcome::Failed, Some(Failure::Illegal)) => "illegal",
            (Outcome::Failed, Some(Failure::SelfKilled)) => "self-killed",
            (Outcome::NotAMatter, _) => "not-a-matter",
        }
    }

    /// Whether it records a matter that was voted on (enacted or failed),
    /// not a post closed as no matter: rates and counts of matters leave
    /// those out.
    pub fn was_voted_on(&self) -> bool {
        self.outcome != Outcome::NotAMatter
    }

    /// The record as file text: TOML front matter, then the body.
    pub fn render(&self) -> String {
        // Serialising plain data to TOML cannot fail; an empty front matter
        // would be caught by `parse` on the way back in.
        let front = crate::source::front_matter(self).unwrap_or_default();
        let mut text = format!("+++\n{front}+++\n{}", self.body);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text
    }

    /// Reads a record file.
    pub fn parse(file: &SourceFile) -> Result<Record, Diagnostic> {
        let (front, body, _) = split_front_matter(&file.text).ok_or_else(|| {
            Diagnostic::new(
                &file.path,
                1,
                "a record must start with TOML front matter between `+++` lines",
            )
        })?;
        let mut record: Record =
            toml::from_str(front).map_err(|e| toml_diagnostic(&file.path, front, 2, &e))?;
        record.body = body.to_string();
        if let Some(source) = &record.source {
            if !is_source_name(source) {
                let message =
                    format!("`source = \"{source}\"` must be lowercase letters, digits and `-`");
                return Err(Diagnostic::new(&file.path, 2, message));
            }
        }
        if record.path() != file.path {
            let message = format!(
                "the record of matter {} belongs at {}",
                record.key(),
                record.path()
            );
            return Err(Diagnostic::new(&file.path, 2, message));
        }
        Ok(record)
    }
}

/// Whether `name` can name a source (and so a directory).
fn is_source_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Parses every `content/matters/**/*.md` of `files` and sorts them with
/// `parsed` (records already parsed from other files): the game's own
/// records in number order, then imported ones by source and number.
pub fn parse_records(files: &[SourceFile], parsed: Vec<Record>) -> (Vec<Record>, Diagnostics) {
    // A twenty-year game has tens of thousands of records: parse in parallel.
    let results: Vec<Result<Record, Diagnostic>> = files
        .par_iter()
        .filter(|f| is_record_path(&f.path))
        .map(Record::parse)
        .collect();
    let mut problems = Diagnostics::new();
    let mut records = parsed;
    records.reserve_exact(results.len());
    for result in results {
        match result {
            Ok(record) => records.push(record),
            Err(d) => problems.push(d),
        }
    }
    // Stable, so runs already in order (the records a cache kept, in the
    // order it kept them) are merged rather than sorted again.
    records.sort_by(|a, b| (&a.source, a.number).cmp(&(&b.source, b.number)));
    (records, problems)
}

/// Whether the file at `path` holds a record.
pub fn is_record_path(path: &str) -> bool {
    path.starts_with("content/matters/") && path.ends_with(".md")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record of every kind of field: matter 12, enacted, with votes.
    pub(crate) fn sample() -> Record {
        Record {
            number: MatterNumber(12),
            source: None,
            kind: MatterKind::Proposal,
            title: "Wind faster".into(),
            author: "Ada".into(),
            dynasty: 1,
            opened: Timestamp::parse("2030-01-01T00:00:00Z").unwrap(),
            resolved: Timestamp::parse("2030-01-01T12:00:00Z").unwrap(),
            outcome: Outcome::Enacted,
            failure: None,
            resolved_by: "gitnomic resolve".into(),
            reasons: vec!["neither vetoed nor self-killed; 3 FOR, at least the quorum of 3; open 12 h, at least 12 h".into()],
            head: Some("abc123".into()),
            merge_commit: Some("def456".into()),
            link: None,
            comments: None,
            tally: Some(FinalTally {
                for_: 3,
                against: 0,
                active: 5,
                quorum: 3,
            }),
            votes: vec![
                RecordedVote {
                    counts_as: None,
                    player: "Ada".into(),
                    vote: "FOR".into(),
                    at: None,
                    link: None,
                },
                RecordedVote {
                    counts_as: None,
                    player: "Boris".into(),
                    vote: "FOR".into(),
                    at: Some(Timestamp::parse("2030-01-01T01:00:00Z").unwrap()),
                    link: Some("https://example.invalid/c/1".into()),
                },
            ],
            uncounted: vec![RecordedUncounted {
                by: "stranger".into(),
                at: Timestamp::parse("2030-01-01T02:00:00Z").unwrap(),
                why: "not a player".into(),
                link: None,
            }],
            uncounted_more: 3,
            sticky: vec![RecordedVote {
                counts_as: None,
                player: "Wren".into(),
                vote: "VETO".into(),
                at: Some(Timestamp::parse("2030-01-01T03:00:00Z").unwrap()),
                link: None,
            }],
            discussion: Vec::new(),
            body: "Change springs.\n".into(),
        }
    }

    #[test]
    fn a_record_round_trips_through_its_file() {
        let record = sample();
        let file = SourceFile::new(Record::path_for(MatterNumber(12)), record.render());
        assert_eq!(file.path, "content/matters/00012.md");
        assert!(file.text.contains("[tally]\nfor = 3\n"), "{}", file.text);
        assert_eq!(Record::parse(&file).unwrap(), record);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/record/mod.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Whatever the forge's text in a record (a title, an outsider's
        /// name, a reason, the body, a comment), the file reads back as
        /// written.
        #[test]
        fn a_record_with_any_text_reads_back_as_written(
            title in "(\\PC|[\n\r\t\u{0}\u{1b}\u{7f}\u{202e}\"'+]|\n\\+\\+\\+\n)*",
            by in "(\\PC|[\n\r\"+])*",
            body in "(\\PC|[\n\r\u{0}+])*",
        ) {
            let mut record = sample();
            record.title = title;
            record.uncounted[0].by = by.clone();
            // A comment kept in the discussion, whatever it says, is data:
            // it reads back as written and adds nothing to the record.
            record.discussion = vec![RecordedComment {
                id: 3,
                by: by.clone(),
                at: Timestamp::parse("2030-01-01T02:00:00Z").unwrap(),
                via: "a comment".into(),
                vote: None,
                note: Some(by.clone()),
                link: None,
                cut: None,
                body: body.clone(),
            }];
            record.reasons.push(by);
            record.body = body;
            let file = SourceFile::new(Record::path_for(MatterNumber(12)), record.render());
            let back = Record::parse(&file).map_err(|e| format!("{e}\n{}", file.text));
            // The file ends with a line break, added when the body had none.
            if !record.body.is_empty() && !record.body.ends_with('\n') {
                record.body.push('\n');
            }
            proptest::prop_assert_eq!(back, Ok(record));
        }
    }

    #[test]
    fn a_cfj_titled_with_a_fence_line_keeps_its_record_readable() {
        let mut record = sample();
        record.title = "CfJ\n+++\nx".into();
        let file = SourceFile::new(Record::path_for(MatterNumber(12)), record.render());
        assert_eq!(Record::parse(&file).unwrap().title, "CfJ\n+++\nx");
        assert!(!file.text.lines().skip(1).take(5).any(|l| l == "+++"));
    }

    #[test]
    fn a_record_in_the_wrong_place_or_malformed_is_reported() {
        let misplaced = SourceFile::new("content/matters/7.md", sample().render());
        assert!(
            Record::parse(&misplaced)
                .unwrap_err()
                .to_string()
                .contains("belongs at content/matters/00012.md")
        );
        let text = sample()
            .render()
            .replace("outcome = \"enacted\"", "outcome = \"postponed\"");
        let line = text.lines().position(|l| l.starts_with("outcome")).unwrap() + 1;
        let err =
            Record::parse(&SourceFile::new(Record::path_for(MatterNumber(12)), text)).unwrap_err();
        assert_eq!(err.line, line);
        let (records, problems) = parse_records(
            &[
                misplaced,
                SourceFile::new(Record::path_for(MatterNumber(12)), sample().render()),
            ],
            Vec::new(),
        );
        assert_eq!((records.len(), problems.len()), (1, 1));
    }

    fn imported() -> Record {
        Record {
            number: MatterNumber(7),
            source: Some("blognomic".into()),
            failure: Some(Failure::Vetoed),
            outcome: Outcome::Failed,
            tally: None,
            comments: Some(9),
            votes: vec![],
            uncounted: vec![],
            uncounted_more: 0,
            sticky: vec![],
            ..sample()
        }
    }

    #[test]
    fn an_imported_record_lives_under_its_source_and_round_trips() {
        let record = imported();
        assert_eq!(record.path(), "content/matters/blognomic/00007.md");
        assert_eq!(
            (record.key().as_str(), record.status()),
            ("blognomic/7", "vetoed")
        );
        let file = SourceFile::new(record.path(), record.render());
        assert!(!file.text.contains("[tally]"), "{}", file.text);
        assert!(file.text.contains("failure = \"vetoed\""), "{}", file.text);
        assert_eq!(Record::parse(&file).unwrap(), record);
        let own = SourceFile::new(Record::path_for(MatterNumber(7)), record.render());
        let err = Record::parse(&own).unwrap_err().to_string();
        assert!(
            err.contains("belongs at content/matters/blognomic/00007.md"),
            "{err}"
        );
    }

    #[test]
    fn a_source_that_cannot_be_a_directory_is_refused() {
        let mut record = imported();
        record.source = Some("../x".into());
        let file = SourceFile::new("content/matters/../x/00007.md", record.render());
        let err = Record::parse(&file).unwrap_err().to_string();
        assert!(err.contains("must be lowercase letters"), "{err}");
    }

    #[test]
    fn own_records_sort_before_imported_ones() {
        let files = [
            SourceFile::new(imported().path(), imported().render()),
            SourceFile::new(Record::path_for(MatterNumber(12)), sample().render()),
        ];
        let (records, problems) = parse_records(&files, Vec::new());
        assert!(problems.is_empty(), "{problems}");
        let keys: Vec<String> = records.iter().map(Record::key).collect();
        assert_eq!(keys, ["12", "blognomic/7"]);
    }
}
