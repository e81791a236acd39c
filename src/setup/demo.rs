//! The demo's scripted game: who opens and comments on what, when the
//! resolver runs, and how every matter must end. Data and a check of the
//! records, pure: `gitnomic demo` plays the script through `play` and
//! `resolve` and hands the records it left here.

use crate::matter::{Kind, MatterNumber};
use crate::source::SourceFile;

/// One step of the script.
pub(crate) enum Step {
    /// A player opens a matter; a proposal's branch makes one edit.
    Open {
        at: &'static str,
        login: &'static str,
        kind: Kind,
        title: &'static str,
        edit: Option<Edit>,
    },
    /// A player comments on matter `number`.
    Comment {
        at: &'static str,
        number: MatterNumber,
        login: &'static str,
        body: &'static str,
    },
    /// The resolver runs.
    Resolve { at: &'static str },
}

/// A change made on a proposal's branch: replace `from` by `to` in `path`.
pub(crate) struct Edit {
    pub(crate) path: &'static str,
    pub(crate) from: &'static str,
    pub(crate) to: &'static str,
}

const fn edit(path: &'static str, from: &'static str, to: &'static str) -> Option<Edit> {
    Some(Edit { path, from, to })
}

/// The scripted game: five proposals (enacted on quorum after 12 h,
/// self-killed, vetoed, passed by players deferring to the emperor,
/// waiting on the 48-hour branch), a Call for Judgement, and an action
/// by comment with a roll.
pub(crate) const SCRIPT: &[Step] = &[
    Step::Open {
        at: "2030-03-02T00:00:00Z",
        login: "ada-tinkers",
        kind: Kind::Proposal,
        title: "Wind further",
        edit: edit(
            "rules/dynastic/springs.md",
            "starts with three Springs",
            // Quotes a rule, so the matter's diff shows a linked title.
            "starts with four Springs (enough to Tinker twice and then Build, as “Cogs and Gadgets” allows)",
        ),
    },
    Step::Open {
        at: "2030-03-02T00:10:00Z",
        login: "boris-b",
        kind: Kind::Proposal,
        title: "A page of tips",
        edit: edit(
            "content/pages/how-to-play.md",
            "\n+++\n",
            "\n+++\nTip: read the ruleset first.\n\n",
        ),
    },
    Step::Open {
        at: "2030-03-02T00:20:00Z",
        login: "dmitri-d",
        kind: Kind::Proposal,
        title: "Cogs for everyone",
        edit: edit(
            "state/variables.toml",
            "[players.Wren]\nsprings = 3",
            "[players.Wren]\nsprings = 3\ncogs = 9",
        ),
    },
    Step::Open {
        at: "2030-03-02T00:30:00Z",
        login: "cleo-c",
        kind: Kind::Proposal,
        title: "A gift for Cleo",
        edit: edit(
            "state/variables.toml",
            "[players.Cleo]\nsprings = 1",
            "[players.Cleo]\nsprings = 3",
        ),
    },
    Step::Open {
        at: "2030-03-02T00:40:00Z",
        login: "ada-tinkers",
        kind: Kind::Proposal,
        title: "Slower victory",
        edit: edit("rules/dynastic/clockwork-victory.md", "three", "four"),
    },
    Step::Open {
        at: "2030-03-02T00:50:00Z",
        login: "ada-tinkers",
        kind: Kind::Cfj,
        title: "Boris's cogs were miscounted",
        edit: None,
    },
    Step::Comment {
        at: "2030-03-02T01:00:00Z",
        number: MatterNumber(1),
        login: "boris-b",
        body: "FOR",
    },
    Step::Comment {
        at: "2030-03-02T01:05:00Z",
        number: MatterNumber(1),
        login: "dmitri-d",
        body: "FOR, winding is fun",
    },
    Step::Comment {
        at: "2030-03-02T01:10:00Z",
        number: MatterNumber(2),
        login: "boris-b",
        body: "On second thought this belongs elsewhere. AGAINST",
    },
    Step::Comment {
        at: "2030-03-02T01:15:00Z",
        number: MatterNumber(3),
        login: "wren-w",
        body: "VETO: that would flood the game with cogs.",
    },
    Step::Comment {
        at: "2030-03-02T01:20:00Z",
        number: MatterNumber(4),
        login: "boris-b",
        body: "DEF",
    },
    Step::Comment {
        at: "2030-03-02T01:25:00Z",
        number: MatterNumber(4),
        login: "dmitri-d",
        body: "DEFERENTIAL",
    },
    Step::Comment {
        at: "2030-03-02T01:30:00Z",
        number: MatterNumber(4),
        login: "wren-w",
        body: "FOR",
    },
    Step::Comment {
        at: "2030-03-02T01:35:00Z",
        number: MatterNumber(5),
        login: "boris-b",
        body: "AGAINST",
    },
    Step::Comment {
        at: "2030-03-02T01:40:00Z",
        number: MatterNumber(5),
        login: "cleo-c",
        body: "> four? AGAINST\n\nFOR",
    },
    Step::Comment {
        at: "2030-03-02T02:00:00Z",
        number: MatterNumber(6),
        login: "boris-b",
        body: "FOR",
    },
    Step::Comment {
        at: "2030-03-02T02:05:00Z",
        number: MatterNumber(6),
        login: "cleo-c",
        body: "FOR",
    },
    Step::Open {
        at: "2030-03-02T02:10:00Z",
        login: "boris-b",
        kind: Kind::Action,
        title: "Winding up",
        edit: None,
    },
    Step::Comment {
        at: "2030-03-02T02:15:00Z",
        number: MatterNumber(7),
        login: "boris-b",
        body: "ROLL DICE6 for luck\nADD springs DICE6\nADD cogs -1",
    },
    Step::Resolve {
        at: "2030-03-02T06:00:00Z",
    },
    Step::Resolve {
        at: "2030-03-02T13:00:00Z",
    },
];

/// How each matter must end: number, kind, outcome (`enacted`, `failed`, or
/// `pending` for no record yet).
pub(crate) const EXPECTED: &[(MatterNumber, &str, &str)] = &[
    (MatterNumber(1), "proposal", "enacted"),
    (MatterNumber(2), "proposal", "failed"),
    (MatterNumber(3), "proposal", "failed"),
    (MatterNumber(4), "proposal", "enacted"),
    (MatterNumber(5), "proposal", "pending"),
    (MatterNumber(6), "cfj", "enacted"),
];

/// How the game's `files` (on its default branch after the script) differ
/// from [`EXPECTED`]: a line a matter that did not end as scripted, or a
/// dice log that does not verify.
pub(crate) fn verify(files: &[SourceFile]) -> Vec<String> {
    let (records, problems) = crate::record::parse_records(files, Vec::new());
    let mut failures: Vec<String> = problems.iter().map(ToString::to_string).collect();
    for (number, kind, outcome) in EXPECTED {
        let found = records.iter().find(|r| r.number == *number);
        let actual = found.map_or("pending".to_string(), |r| {
            format!("{:?}", r.outcome).to_lowercase()
        });
        let actual_kind = found.map(|r| format!("{:?}", r.kind).to_lowercase());
        if actual != *outcome || actual_kind.is_some_and(|k| k != *kind) {
            failures.push(format!(
                "#{number} should be {outcome} ({kind}), is {actual}"
            ));
        }
    }
    // The action by comment rolled, and every roll verifies.
    let logs: Vec<_> = files
        .iter()
        .filter(|f| f.path.starts_with("content/rolls/"))
        .collect();
    if logs.is_empty() {
        failures.push("#7 should have a dice log under content/rolls/".into());
    }
    for file in logs {
        match crate::record::rolls::RollLog::parse(&file.text) {
            Ok(log) => failures.extend(
                crate::record::rolls::verify(&log)
                    .iter()
                    .map(ToString::to_string),
            ),
            Err(why) => failures.push(format!("{}: {why}", file.path)),
        }
    }
    failures
}
