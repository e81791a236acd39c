//! Imported history: BlogNomic's table of past proposals turned into
//! records of resolved matters. Pure: CSV text in, records and problems out.
//!
//! The table (`proposals.csv`: title, proposer, postedDate, status, admin,
//! closedDate, lifespan, comments, dynasty) carries no votes and no text,
//! so the records it makes have no tally and an empty body; they exist so
//! the archive, player pages and statistics can be seen at the scale of a
//! twenty-year game. A row that cannot be a resolved matter (a proposal
//! still open, an unknown status, a date that does not parse) is reported
//! with its line and left out; it never stops the import.

use chrono::NaiveDateTime;

use crate::engine::MatterKind;
use crate::engine::MatterNumber;
use crate::record::{Failure, Outcome, Record};
use crate::time::Timestamp;

/// The columns the table must have, in order.
pub const COLUMNS: [&str; 9] = [
    "title",
    "proposer",
    "postedDate",
    "status",
    "admin",
    "closedDate",
    "lifespan",
    "comments",
    "dynasty",
];

/// A row left out of the import (or imported but flagged), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowProblem {
    /// The 1-based line of the CSV file where the row starts.
    pub line: u64,
    /// What is wrong with it.
    pub problem: RowError,
}

/// What is wrong with one row of the table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RowError {
    /// Too few or too many fields.
    #[error("expected {expected} columns, found {0}", expected = COLUMNS.len())]
    Columns(usize),
    /// The status is `Open`: no resolved matter.
    #[error("the proposal is still open: it is not a resolved matter")]
    StillOpen,
    /// A status the table's vocabulary does not have.
    #[error("status `{0}` is none of Enacted, Failed, Vetoed, Illegal")]
    Status(String),
    /// No proposer.
    #[error("the proposer is empty")]
    NoProposer,
    /// A date that does not read; its column and text.
    #[error("{column}: `{text}` is not a date like `03 Aug 2005 05:42:56`")]
    Date {
        /// `postedDate` or `closedDate`.
        column: &'static str,
        /// The text found.
        text: String,
    },
    /// A count that is not a whole number; its column and text.
    #[error("{column} `{text}` is not a whole number")]
    Number {
        /// `dynasty` or `comments`.
        column: &'static str,
        /// The text found.
        text: String,
    },
    /// Imported as the table has it, but closed before it was posted.
    #[error(
        "closed ({resolved}) before it was posted ({opened}): imported as the table has it; check the row"
    )]
    ClosedBeforePosted {
        /// When the table says it was posted.
        opened: Timestamp,
        /// When the table says it was closed.
        resolved: Timestamp,
    },
}

/// The table could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The header is not the expected one, so no column can be trusted.
    #[error("line 1: expected the columns {expected}, found {found}")]
    Header {
        /// The columns expected.
        expected: String,
        /// The columns found.
        found: String,
    },
    /// The CSV itself is unreadable (bad quoting, not UTF-8).
    #[error("line {line}: {message}")]
    Csv {
        /// Where.
        line: u64,
        /// What the CSV reader said.
        message: String,
    },
}

/// The records made from a table, and the rows left out.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// One record per resolved proposal, numbered by its row (1 for the
    /// first data row), so re-importing the same table gives the same files.
    pub records: Vec<Record>,
    /// Every row left out, in file order.
    pub problems: Vec<RowProblem>,
    /// Rows imported as the table has them but that cannot be right:
    /// closed before they were posted. Reported, so that no record is
    /// silently resolved before it opened.
    pub flagged: Vec<RowProblem>,
}

/// Reads BlogNomic's proposal table into records tagged with `source`.
pub fn import(csv_text: &str, source: &str) -> Result<Import, HistoryError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(csv_text.as_bytes());
    let header = reader.headers().map_err(|e| csv_error(&e))?.clone();
    if header.iter().ne(COLUMNS) {
        return Err(HistoryError::Header {
            expected: COLUMNS.join(","),
            found: header.iter().collect::<Vec<_>>().join(","),
        });
    }
    let mut out = Import::default();
    let mut number = 0;
    for row in reader.records() {
        let row = row.map_err(|e| csv_error(&e))?;
        let line = row.position().map_or(0, csv::Position::line);
        if row.len() == 1 && row.get(0).is_some_and(str::is_empty) {
            continue; // a blank line
        }
        number += 1;
        let fields: Vec<&str> = row.iter().collect();
        match record_of(&fields, MatterNumber(number), source) {
            Ok(record) => {
                if record.resolved < record.opened {
                    out.flagged.push(RowProblem {
                        line,
                        problem: RowError::ClosedBeforePosted {
                            opened: record.opened,
                            resolved: record.resolved,
                        },
                    });
                }
                out.records.push(record);
            }
            Err(problem) => out.problems.push(RowProblem { line, problem }),
        }
    }
    Ok(out)
}

fn csv_error(err: &csv::Error) -> HistoryError {
    HistoryError::Csv {
        line: err.position().map_or(0, csv::Position::line),
        message: err.to_string(),
    }
}

/// One row as a record, or why it cannot be one.
fn record_of(fields: &[&str], number: MatterNumber, source: &str) -> Result<Record, RowError> {
    let [
        title,
        proposer,
        posted,
        status,
        admin,
        closed,
        _lifespan,
        comments,
        dynasty,
    ] = fields
    else {
        return Err(RowError::Columns(fields.len()));
    };
    let (outcome, failure) = outcome_of(status)?;
    if proposer.trim().is_empty() {
        return Err(RowError::NoProposer);
    }
    let opened = parse_date("postedDate", posted)?;
    let resolved = parse_date("closedDate", closed)?;
    let dynasty = whole_number("dynasty", dynasty)?;
    let comments = whole_number("comments", comments)?;
    // The table's `?` says it does not know who resolved it: the record
    // says nothing rather than a word that reads like a player's name.
    let resolved_by = match admin.trim() {
        "" | "?" | "-" => String::new(),
        name => name.to_string(),
    };
    Ok(Record {
        number,
        source: Some(source.to_string()),
        kind: MatterKind::Proposal,
        title: title.trim().to_string(),
        author: proposer.trim().to_string(),
        dynasty,
        opened,
        resolved,
        outcome,
        failure,
        resolved_by,
        reasons: Vec::new(),
        head: None,
        merge_commit: None,
        link: None,
        comments: Some(comments),
        tally: None,
        votes: Vec::new(),
        uncounted: Vec::new(),
        uncounted_more: 0,
        sticky: Vec::new(),
        discussion: Vec::new(),
        body: String::new(),
    })
}

/// The outcome a status stands for; an open proposal is not resolved.
fn outcome_of(status: &str) -> Result<(Outcome, Option<Failure>), RowError> {
    match status {
        "Enacted" => Ok((Outcome::Enacted, None)),
        "Failed" => Ok((Outcome::Failed, None)),
        "Vetoed" => Ok((Outcome::Failed, Some(Failure::Vetoed))),
        "Illegal" => Ok((Outcome::Failed, Some(Failure::Illegal))),
        "Open" => Err(RowError::StillOpen),
        other => Err(RowError::Status(other.to_owned())),
    }
}

fn whole_number<T: std::str::FromStr>(column: &'static str, text: &str) -> Result<T, RowError> {
    text.trim().parse().map_err(|_| RowError::Number {
        column,
        text: text.to_owned(),
    })
}

/// Reads `03 Aug  2005 05:42:56` (runs of spaces vary) as UTC: the table
/// gives no zone, and the archive only needs the day right.
fn parse_date(column: &'static str, text: &str) -> Result<Timestamp, RowError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    NaiveDateTime::parse_from_str(&words.join(" "), "%d %b %Y %H:%M:%S")
        .map(|t| Timestamp::from_datetime(t.and_utc()))
        .map_err(|_| RowError::Date {
            column,
            text: text.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "title,proposer,postedDate,status,admin,closedDate,lifespan,comments,dynasty\n";

    fn table(rows: &[&str]) -> String {
        let mut text = HEADER.to_string();
        for row in rows {
            text.push_str(row);
            text.push('\n');
        }
        text
    }

    #[test]
    fn reads_rows_into_records() {
        let text = table(&[
            r#""Tidy the glossary.","Quillon","03 Aug  2005 05:42:56","Enacted","?","04 Aug 2005  04:16:57",22,8,28"#,
            r#""Lend & Borrow, again","Marrow","01 Jan 2010 00:00:00","Vetoed","Tamsin","02 Jan 2010 12:30:00",36,3,60"#,
        ]);
        let import = import(&text, "blognomic").unwrap();
        assert!(import.problems.is_empty(), "{:?}", import.problems);
        let [first, second] = &import.records[..] else {
            panic!("{:?}", import.records)
        };
        assert_eq!(first.path(), "content/matters/blognomic/00001.md");
        assert_eq!(first.opened.to_string(), "2005-08-03T05:42:56Z");
        assert_eq!(first.resolved.to_string(), "2005-08-04T04:16:57Z");
        assert_eq!(
            (first.status(), first.resolver()),
            ("enacted", None),
            "the table's `?`: nobody is named"
        );
        assert!(
            !first.render().contains("resolved_by"),
            "{}",
            first.render()
        );
        assert_eq!((first.dynasty, first.comments), (28, Some(8)));
        assert_eq!(second.title, "Lend & Borrow, again");
        assert_eq!(
            (second.number, second.status()),
            (MatterNumber(2), "vetoed")
        );
        assert_eq!(second.resolver(), Some("Tamsin"));
    }

    #[test]
    fn a_title_with_a_fence_line_is_imported_into_a_record_that_reads_back() {
        let text = table(&[
            "\"CfJ\n+++\nx \"\"\"\"\"\" '''\",\"Quillon\",\"03 Aug 2005 05:42:56\",\"Enacted\",\"?\",\"04 Aug 2005 04:16:57\",22,8,28",
        ]);
        let import = import(&text, "blognomic").unwrap();
        let [record] = &import.records[..] else {
            panic!("{:?} {:?}", import.records, import.problems)
        };
        assert_eq!(record.title, "CfJ\n+++\nx \"\"\" '''");
        let file = crate::source::SourceFile::new(record.path(), record.render());
        assert_eq!(&Record::parse(&file).unwrap(), record);
    }

    #[test]
    fn odd_rows_are_reported_with_their_line_and_skipped() {
        let text = table(&[
            r#""Open one","brackenfold","14 Feb  2025 13:45:00","Open","-","",-1,6,232"#,
            r#""Weird","Marrow","01 Jan 2010 00:00:00","Postponed","Tamsin","02 Jan 2010 00:00:00",24,3,60"#,
            r#""Bad date","Marrow","31 Feb 2010 00:00:00","Failed","Tamsin","02 Mar 2010 00:00:00",24,3,60"#,
            r#""Short","Marrow""#,
            r#""Fine","Marrow","01 Jan 2010 00:00:00","Illegal","Tamsin","02 Jan 2010 00:00:00",24,3,60"#,
        ]);
        let import = import(&text, "bn").unwrap();
        let lines: Vec<u64> = import.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [2, 3, 4, 5]);
        let problems: Vec<&RowError> = import.problems.iter().map(|p| &p.problem).collect();
        assert_eq!(
            problems,
            [
                &RowError::StillOpen,
                &RowError::Status("Postponed".into()),
                &RowError::Date {
                    column: "postedDate",
                    text: "31 Feb 2010 00:00:00".into()
                },
                &RowError::Columns(2),
            ]
        );
        assert_eq!(
            problems[2].to_string(),
            "postedDate: `31 Feb 2010 00:00:00` is not a date like `03 Aug 2005 05:42:56`"
        );
        assert_eq!(problems[3].to_string(), "expected 9 columns, found 2");
        // Numbers follow rows, skipped or not, so a fixed table gives fixed files.
        let kept: Vec<(MatterNumber, &str)> = import
            .records
            .iter()
            .map(|r| (r.number, r.status()))
            .collect();
        assert_eq!(kept, [(MatterNumber(5), "illegal")]);
    }

    #[test]
    fn a_row_closed_before_it_was_posted_is_flagged() {
        let text = table(&[
            r#""Fine","Marrow","01 Jan 2010 00:00:00","Enacted","Tamsin","02 Jan 2010 00:00:00",24,3,60"#,
            r#""Backwards","Marrow","05 Jan 2010 00:00:00","Failed","Tamsin","04 Jan 2010 23:00:00",-1,3,60"#,
            r#""Same time","Marrow","06 Jan 2010 00:00:00","Failed","Tamsin","06 Jan 2010 00:00:00",0,3,60"#,
        ]);
        let import = import(&text, "bn").unwrap();
        assert!(import.problems.is_empty(), "{:?}", import.problems);
        assert_eq!(import.records.len(), 3);
        let flagged: Vec<u64> = import.flagged.iter().map(|p| p.line).collect();
        assert_eq!(flagged, [3]);
        assert!(
            import.flagged[0].problem.to_string().starts_with(
                "closed (2010-01-04T23:00:00Z) before it was posted (2010-01-05T00:00:00Z)"
            ),
            "{}",
            import.flagged[0].problem
        );
    }

    #[test]
    fn a_wrong_header_is_fatal() {
        let err = import("name,when\nx,y\n", "bn").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("line 1: expected the columns title,")
        );
    }
}
