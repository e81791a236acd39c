//! The labels a game uses on the forge, in one place: the kinds of matter
//! players put on (named in [`Kind::ALL`]), those the resolver puts on, and
//! the one a withdrawn matter carries; with the colours and descriptions
//! `gitnomic doctor` creates them with.

use super::Kind;

/// The label a matter carries from the moment the resolver acts on it
/// until its record is written and its final status posted.
pub const RESOLVING: &str = "resolving";
/// The label of an enacted matter.
pub const ENACTED: &str = "enacted";
/// The label of a failed matter.
pub const FAILED: &str = "failed";
/// The label of an action or Ascension Address merged without a vote.
pub const MERGED: &str = "merged";
/// The label of a pull request or issue that cannot stand as the matter it
/// claims to be, closed without a record.
pub const NOT_A_MATTER: &str = "not-a-matter";

/// The label of a pull request the rules enact but the forge refuses to
/// merge (branch protection, a merge queue): held until an admin removes
/// it, having let the resolver merge.
pub const HELD: &str = "held";

/// Whether `labels` (a matter's, as the forge gives them) hold `label`;
/// forges compare label names without case.
pub fn carries(labels: &[String], label: &str) -> bool {
    labels.iter().any(|l| l.eq_ignore_ascii_case(label))
}

/// The label of a matter its author closed without a decision.
pub const WITHDRAWN: &str = "withdrawn";

/// A label the game uses, as `doctor` creates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelSpec {
    /// Its name (GitHub compares names without regard to case).
    pub name: &'static str,
    /// Its colour, six hex digits without `#`.
    pub color: &'static str,
    /// What it means, under GitHub's limit of 100 characters.
    pub description: &'static str,
}

/// Every label the game uses: the kinds of matter players put on, then
/// those the resolver puts on.
pub fn labels() -> Vec<LabelSpec> {
    let kind = |k: Kind| {
        Kind::ALL
            .iter()
            .find(|(kind, _)| *kind == k)
            .map_or("", |(_, name)| *name)
    };
    vec![
        LabelSpec {
            name: kind(Kind::Proposal),
            color: "1d76db",
            description: "A proposal: its diff changes the rules or the gamestate; players vote",
        },
        LabelSpec {
            name: kind(Kind::Cfj),
            color: "d93f0b",
            description: "A Call for Judgement",
        },
        LabelSpec {
            name: kind(Kind::Dov),
            color: "fbca04",
            description: "A Declaration of Victory",
        },
        LabelSpec {
            name: kind(Kind::Action),
            color: "0e8a16",
            description: "An action: commands in comments, or a pull request editing state/ only",
        },
        LabelSpec {
            name: kind(Kind::Ascension),
            color: "5319e7",
            description: "The new emperor's Ascension Address, which begins the next dynasty",
        },
        LabelSpec {
            name: ENACTED,
            color: "0e8a16",
            description: "Enacted by the resolver",
        },
        LabelSpec {
            name: HELD,
            color: "e99695",
            description: "Enacted by the rules, but the forge refuses the merge: see the status",
        },
        LabelSpec {
            name: FAILED,
            color: "b60205",
            description: "Failed, as the resolver tallied it",
        },
        LabelSpec {
            name: RESOLVING,
            color: "c5def5",
            description: "The resolver is carrying out its decision",
        },
        LabelSpec {
            name: MERGED,
            color: "bfd4f2",
            description: "Merged without a vote (an action or an Ascension Address)",
        },
        LabelSpec {
            name: NOT_A_MATTER,
            color: "cccccc",
            description: "Closed: it cannot stand as the matter it claims to be",
        },
    ]
}

/// Which of the game's labels are missing from `existing` (by name,
/// without regard to case, as GitHub compares them).
pub fn missing_labels(existing: &[String]) -> Vec<LabelSpec> {
    labels()
        .into_iter()
        .filter(|l| !existing.iter().any(|e| e.eq_ignore_ascii_case(l.name)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_named_as_the_game_reads_them_and_fit_github() {
        let names: Vec<&str> = labels().iter().map(|l| l.name).collect();
        for (_, kind) in Kind::ALL {
            assert!(names.contains(&kind), "{kind}");
        }
        for l in labels() {
            assert!(l.description.chars().count() <= 100, "{}", l.name);
            assert!(
                l.color.len() == 6 && l.color.chars().all(|c| c.is_ascii_hexdigit()),
                "{}",
                l.name
            );
        }
        let missing = missing_labels(&["proposal".into(), "enacted".into()]);
        assert!(
            missing
                .iter()
                .all(|l| l.name != "Proposal" && l.name != "enacted")
        );
        assert_eq!(missing.len(), labels().len() - 2);
    }
}
