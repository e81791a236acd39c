//! Records of resolved matters, `content/matters/<number>.md`. Pure.
//!
//! A record is written once, by the resolver, when a matter is enacted or
//! failed, and never edited after: it is the game's memory of what was
//! decided, by whom and on which votes. The front matter is TOML (so the
//! site and tools read it without guessing); the body is the matter's text
//! as it was when resolved.

use serde::{Deserialize, Serialize};

use crate::error::{Diagnostic, Diagnostics, toml_diagnostic};
use crate::source::{SourceFile, split_front_matter};
use crate::time::Timestamp;

/// The kinds of matter a record can be about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    /// A proposal: a change to rules/ or state/.
    Proposal,
    /// A Call for Judgement.
    Cfj,
    /// A Declaration of Victory.
    Dov,
}

/// How a matter ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Enacted (a proposal's pull request merged).
    Enacted,
    /// Failed (closed).
    Failed,
}

/// One counted vote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedVote {
    /// The player.
    pub player: String,
    /// FOR, AGAINST, DEFERENTIAL or VETO, as counted.
    pub vote: String,
    /// When the comment carrying it was made; absent for an author's implicit FOR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Timestamp>,
    /// A link to that comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A comment that carried no counted vote, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Uncounted {
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

/// The final count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// The record of one resolved matter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The pull request or issue number.
    pub number: u64,
    /// What kind of matter.
    pub kind: RecordKind,
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
    /// Who or what resolved it (`gitnomic resolve`, or an admin's name).
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
    /// The final tally.
    pub tally: FinalTally,
    /// Every counted vote.
    #[serde(default)]
    pub votes: Vec<RecordedVote>,
    /// Every comment that was not counted, with the reason.
    #[serde(default)]
    pub uncounted: Vec<Uncounted>,
    /// The matter's text (Markdown), kept out of the front matter.
    #[serde(skip)]
    pub body: String,
}

impl Record {
    /// Where the record of matter `number` is kept.
    pub fn path_for(number: u64) -> String {
        format!("content/matters/{number:05}.md")
    }

    /// The record as file text: TOML front matter, then the body.
    pub fn render(&self) -> String {
        // Serialising plain data to TOML cannot fail; an empty front matter
        // would be caught by `parse` on the way back in.
        let front = toml::to_string(self).unwrap_or_default();
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
        if Record::path_for(record.number) != file.path {
            let message = format!(
                "the record of matter {} belongs at {}",
                record.number,
                Record::path_for(record.number)
            );
            return Err(Diagnostic::new(&file.path, 2, message));
        }
        Ok(record)
    }
}

/// Parses every `content/matters/*.md`, in number order.
pub fn parse_records(files: &[SourceFile]) -> (Vec<Record>, Diagnostics) {
    let mut problems = Diagnostics::new();
    let mut records = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.path.starts_with("content/matters/") && f.path.ends_with(".md"))
    {
        match Record::parse(file) {
            Ok(record) => records.push(record),
            Err(d) => problems.push(d),
        }
    }
    records.sort_by_key(|r| r.number);
    (records, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            number: 12,
            kind: RecordKind::Proposal,
            title: "Wind faster".into(),
            author: "Ada".into(),
            dynasty: 1,
            opened: Timestamp::parse("2030-01-01T00:00:00Z").unwrap(),
            resolved: Timestamp::parse("2030-01-01T12:00:00Z").unwrap(),
            outcome: Outcome::Enacted,
            resolved_by: "gitnomic resolve".into(),
            reasons: vec!["3 FOR ≥ quorum 3 and open 12 h".into()],
            head: Some("abc123".into()),
            merge_commit: Some("def456".into()),
            link: None,
            tally: FinalTally {
                for_: 3,
                against: 0,
                active: 5,
                quorum: 3,
            },
            votes: vec![
                RecordedVote {
                    player: "Ada".into(),
                    vote: "FOR".into(),
                    at: None,
                    link: None,
                },
                RecordedVote {
                    player: "Boris".into(),
                    vote: "FOR".into(),
                    at: Some(Timestamp::parse("2030-01-01T01:00:00Z").unwrap()),
                    link: Some("https://example.invalid/c/1".into()),
                },
            ],
            uncounted: vec![Uncounted {
                by: "stranger".into(),
                at: Timestamp::parse("2030-01-01T02:00:00Z").unwrap(),
                why: "not a player".into(),
                link: None,
            }],
            body: "Change springs.\n".into(),
        }
    }

    #[test]
    fn a_record_round_trips_through_its_file() {
        let record = sample();
        let file = SourceFile::new(Record::path_for(12), record.render());
        assert_eq!(file.path, "content/matters/00012.md");
        assert!(file.text.contains("[tally]\nfor = 3\n"), "{}", file.text);
        assert_eq!(Record::parse(&file).unwrap(), record);
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
        let err = Record::parse(&SourceFile::new(Record::path_for(12), text)).unwrap_err();
        assert_eq!(err.line, line);
        let (records, problems) = parse_records(&[
            misplaced,
            SourceFile::new(Record::path_for(12), sample().render()),
        ]);
        assert_eq!((records.len(), problems.len()), (1, 1));
    }
}

/// What a record is made from besides the engine's decision.
#[derive(Debug, Clone)]
pub struct Resolved<'a> {
    /// The matter as collected from the forge.
    pub matter: &'a crate::matter::Collected,
    /// The author's player name.
    pub author: String,
    /// The dynasty it was resolved in.
    pub dynasty: u32,
    /// When the tally was taken.
    pub at: Timestamp,
    /// Active players and quorum at that moment.
    pub active: i64,
    /// Quorum at that moment.
    pub quorum: i64,
    /// Who or what resolved it.
    pub resolved_by: String,
    /// The merge commit, for an enacted pull request.
    pub merge_commit: Option<String>,
}

impl Record {
    /// The record of a decided matter.
    pub fn from_decision(decision: &crate::engine::MatterDecision, r: &Resolved<'_>) -> Record {
        use crate::engine::tally::Source;
        let matter = r.matter;
        let link = |order: u64| matter.comments.get(&order).and_then(|c| c.link.clone());
        let count = |n: i64| u32::try_from(n).unwrap_or(0);
        let t = &decision.tally;
        let kind = match decision.kind {
            crate::engine::MatterKind::Proposal => RecordKind::Proposal,
            crate::engine::MatterKind::Cfj => RecordKind::Cfj,
            crate::engine::MatterKind::Dov => RecordKind::Dov,
        };
        let voided = matter.voided.iter().map(|c| Uncounted {
            by: format!("@{}", c.author),
            at: c.created,
            why: "cast on an earlier version, before a push that changed more than a typo".into(),
            link: c.link.clone(),
        });
        Record {
            number: decision.id,
            kind,
            title: matter.info.title.clone(),
            author: r.author.clone(),
            dynasty: r.dynasty,
            opened: matter.info.opened,
            resolved: r.at,
            outcome: if decision.decision == crate::engine::Decision::Enact {
                Outcome::Enacted
            } else {
                Outcome::Failed
            },
            resolved_by: r.resolved_by.clone(),
            reasons: decision.reasons.clone(),
            head: matter.info.head.as_ref().map(|h| h.0.clone()),
            merge_commit: r.merge_commit.clone(),
            link: matter.info.link.clone(),
            tally: FinalTally {
                for_: count(t.for_votes),
                against: count(t.against_votes),
                active: count(r.active),
                quorum: count(r.quorum),
            },
            votes: t
                .votes
                .iter()
                .map(|(name, v)| {
                    let (at, link) = match v.source {
                        Source::Implicit => (None, None),
                        Source::Comment { order, at } => (Some(at), link(order)),
                    };
                    RecordedVote {
                        player: name.0.clone(),
                        vote: v.cast.as_str().to_string(),
                        at,
                        link,
                    }
                })
                .collect(),
            uncounted: t
                .uncounted
                .iter()
                .map(|u| Uncounted {
                    by: u.by.0.clone(),
                    at: u.at,
                    why: u.why.to_string(),
                    link: link(u.order),
                })
                .chain(voided)
                .collect(),
            body: matter.info.body.clone(),
        }
    }
}
