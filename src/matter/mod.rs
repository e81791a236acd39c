//! The matters of a game as a forge reports them: pull requests and
//! issues, their comments, and what kind of matter each is. Pure data:
//! the [`crate::forge`] adapters fill these in, the resolver reads them.

pub mod admission;
pub mod audit;
pub mod collected;
pub mod discussion;
pub mod journal;
pub mod labels;
pub mod status;
pub mod thread;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use crate::engine::MatterNumber;
use crate::time::Timestamp;

/// A forge account name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Login(pub String);

/// A commit id (a full hex SHA).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HeadSha(pub String);

impl fmt::Display for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for HeadSha {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What kind of matter a pull request or issue is, from its labels or title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A proposal: its diff changes rules/, state/ or content/ pages.
    Proposal,
    /// A Call for Judgement.
    Cfj,
    /// A Declaration of Victory.
    Dov,
    /// An action: changes state/ only, merged without a vote when it checks.
    Action,
    /// The new emperor's Ascension Address: merged without a vote when it
    /// checks, and it begins the next dynasty.
    Ascension,
}

impl Kind {
    /// Every kind, with the label that marks it and the title prefix that may
    /// stand for the label.
    pub const ALL: [(Kind, &'static str); 5] = [
        (Kind::Proposal, "Proposal"),
        (Kind::Cfj, "CfJ"),
        (Kind::Dov, "DoV"),
        (Kind::Action, "Action"),
        (Kind::Ascension, "Ascension Address"),
    ];

    /// The kind named by labels (first) or by a title such as `Proposal: Faster springs`.
    pub fn detect(labels: &[String], title: &str) -> Option<Kind> {
        let by_label = Self::ALL
            .iter()
            .find(|(_, name)| labels.iter().any(|l| l.eq_ignore_ascii_case(name)))
            .map(|(k, _)| *k);
        by_label.or_else(|| {
            let (prefix, _) = title.split_once(':')?;
            Self::ALL
                .iter()
                .find(|(_, name)| prefix.trim().eq_ignore_ascii_case(name))
                .map(|(k, _)| *k)
        })
    }

    /// The kind of matter a pull request or issue is: the kind its labels
    /// or title name ([`Kind::detect`]); else, for a pull request that
    /// names none, a proposal by default when every file it changes
    /// (`paths`, when known) is one a proposal may change, and no matter
    /// otherwise. GitHub's editor, where the site's "Propose a change"
    /// leads, titles a pull request "Update voting.md" and labels it
    /// nothing: it is the proposal its author meant. A pull request that
    /// changes the tool's own code names no kind and stays no matter.
    /// Every door (`check`, `resolve`, `play list`, the site) asks this
    /// one function, through [`MatterInfo::kind`].
    pub fn of(
        labels: &[String],
        title: &str,
        pull: bool,
        paths: Option<&[String]>,
    ) -> Option<Kind> {
        Self::detect(labels, title).or_else(|| {
            let paths = paths.filter(|p| pull && !p.is_empty())?;
            paths
                .iter()
                .all(|p| admission::touches(Kind::Proposal, p).is_none())
                .then_some(Kind::Proposal)
        })
    }

    /// Every kind the labels name (more than one is a mistake to refuse).
    pub fn named_by(labels: &[String]) -> Vec<Kind> {
        Self::ALL
            .iter()
            .filter(|(_, name)| labels.iter().any(|l| l.eq_ignore_ascii_case(name)))
            .map(|(k, _)| *k)
            .collect()
    }

    /// The label that marks this kind.
    pub fn label(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("", |(_, l)| l)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// An open pull request or issue, as the forge reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatterInfo {
    /// Its number.
    pub number: MatterNumber,
    /// Its title.
    pub title: String,
    /// Its description (Markdown).
    pub body: String,
    /// Who opened it.
    pub author: Login,
    /// When it was opened: created, whether as a draft or not.
    pub opened: Timestamp,
    /// Its labels.
    pub labels: Vec<String>,
    /// Whether it is a pull request (else an issue).
    pub pull: bool,
    /// For an open pull request: its current head commit (`None` when its
    /// branch is gone).
    pub head: Option<HeadSha>,
    /// For a merged pull request: its merge commit.
    pub merge_commit: Option<HeadSha>,
    /// For a pull request: the branch it asks to be merged into, when the
    /// forge says (GitHub's `base.ref`); a matter is merged into the
    /// default branch or not at all, so one based elsewhere is no matter.
    pub base: Option<String>,
    /// For a pull request: still a draft.
    pub draft: bool,
    /// For a pull request: whether it was merged. The issues list says so
    /// too (`pull_request.merged_at`), so an audit knows it of every
    /// closed matter without reading each pull request.
    pub merged: bool,
    /// For a pull request: the last change after it was opened that made
    /// it the kind of matter it is now, or no matter (it left draft, or a
    /// label or its title changed), as the forge's events date it; `None`
    /// when there was none, or the forge cannot say. A pull request may
    /// become a matter, or change kind, only early (rule "Changes to
    /// Pending Proposals").
    pub kind_changed: Option<KindChange>,
    /// A link to it, for records and reports.
    pub link: Option<String>,
    /// When the forge last saw it change (GitHub's `updated_at`), if it
    /// says: no earlier than its last push, so a head no event noted is
    /// noted then rather than when the resolver happened to look.
    pub updated: Option<Timestamp>,
    /// For a pull request that names no kind by label or title: the paths
    /// it changes, as the forge lists them, which decide whether it is a
    /// proposal by default (see [`Kind::of`]). `None` for one that names
    /// a kind (the forge does not list them then), or when not known.
    pub paths: Option<Vec<String>>,
}

impl MatterInfo {
    /// Its title as one line: of a commit subject (a title's line breaks
    /// must never become lines of the message, where the gamestate's log
    /// reads who changed what), and of what a command prints (where they
    /// would make lines that look like a tally's).
    pub fn subject_title(&self) -> String {
        crate::text::one_line(&self.title, crate::bounds::SUBJECT_CHARS)
    }

    /// The kind its labels or title give it, or a proposal by default
    /// (see [`Kind::of`]).
    pub fn kind(&self) -> Option<Kind> {
        Kind::of(&self.labels, &self.title, self.pull, self.paths.as_deref())
    }

    /// Whether it names no kind, by label or title: its kind, if any, is
    /// a proposal by default. The forge lists its paths then.
    pub fn names_no_kind(&self) -> bool {
        Kind::detect(&self.labels, &self.title).is_none()
    }

    /// Whether it is a proposal only by default: it names no kind, and
    /// changes only what a proposal may.
    pub fn proposal_by_default(&self) -> bool {
        self.names_no_kind() && self.kind().is_some()
    }

    /// Why this pull request has nothing to merge, if its branch is gone:
    /// the words `resolve` holds it with and `check` refuses it with.
    pub fn branch_gone(&self) -> Option<&'static str> {
        (self.pull && self.head.is_none())
            .then_some("its branch is gone, so there is nothing to merge")
    }
}

/// A change that made a pull request the kind of matter it is now, after
/// it was opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindChange {
    /// When the forge says it happened.
    pub at: Timestamp,
    /// What happened, for people: `it left draft`, `the label Proposal
    /// was added`.
    pub how: String,
}

/// Something that happened to a pull request after it was opened and may
/// have changed what kind of matter it is, as the forge's events say
/// (GitHub's `ready_for_review`, `convert_to_draft`, `labeled`,
/// `unlabeled`, `renamed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindEvent {
    /// When the forge says it happened.
    pub at: Timestamp,
    /// What happened.
    pub change: Change,
}

/// What a [`KindEvent`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// It left draft.
    ReadyForReview,
    /// It was made a draft again.
    ConvertToDraft,
    /// This label was added.
    Labeled(String),
    /// This label was removed.
    Unlabeled(String),
    /// Its title changed.
    Renamed {
        /// The title before.
        from: String,
        /// The title after.
        to: String,
    },
}

impl Change {
    /// What it did, for people.
    fn describe(&self) -> String {
        match self {
            Change::ReadyForReview => "it left draft".into(),
            Change::ConvertToDraft => "it was made a draft".into(),
            Change::Labeled(l) => format!("the label {l} was added"),
            Change::Unlabeled(l) => format!("the label {l} was removed"),
            // Quoted on one line: a title may hold any characters.
            Change::Renamed { to, .. } => format!(
                "its title became `{}`",
                crate::text::one_line(to, crate::bounds::SUBJECT_CHARS)
            ),
        }
    }
}

/// What a pull request is, as far as its kind of matter goes.
#[derive(Debug, Clone)]
struct Shape<'a> {
    labels: Vec<String>,
    title: String,
    draft: bool,
    /// The paths it changes now, if listed: no event changes them.
    paths: Option<&'a [String]>,
}

impl Shape<'_> {
    /// The kind of matter it is: none while a draft.
    fn kind(&self) -> Option<Kind> {
        (!self.draft)
            .then(|| Kind::of(&self.labels, &self.title, true, self.paths))
            .flatten()
    }

    /// The shape before `change`.
    fn undo(&mut self, change: &Change) {
        match change {
            Change::ReadyForReview => self.draft = true,
            Change::ConvertToDraft => self.draft = false,
            Change::Labeled(l) => self.labels.retain(|x| !x.eq_ignore_ascii_case(l)),
            Change::Unlabeled(l) => self.labels.push(l.clone()),
            Change::Renamed { from, .. } => self.title.clone_from(from),
        }
    }
}

/// The last of `events` (any order) that changed what kind of matter
/// `info` is, found by undoing them from what it is now, newest first; an
/// event that left its kind as it was (a second label of the same kind, a
/// title reworded) is no change.
pub fn kind_changed(info: &MatterInfo, events: &[KindEvent]) -> Option<KindChange> {
    let mut events: Vec<&KindEvent> = events.iter().collect();
    events.sort_by_key(|e| e.at);
    let mut shape = Shape {
        labels: info.labels.clone(),
        title: info.title.clone(),
        draft: info.draft,
        paths: info.paths.as_deref(),
    };
    for event in events.into_iter().rev() {
        let after = shape.kind();
        shape.undo(&event.change);
        if shape.kind() != after {
            return Some(KindChange {
                at: event.at,
                how: event.change.describe(),
            });
        }
    }
    None
}

/// A comment, or the body of a review, on a matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgeComment {
    /// The forge's id for it (unique per forge).
    pub id: u64,
    /// Who wrote it.
    pub author: Login,
    /// When it was made.
    pub created: Timestamp,
    /// When it was last edited, if it was.
    pub edited: Option<Timestamp>,
    /// Its Markdown body.
    pub body: String,
    /// A link to it.
    pub link: Option<String>,
    /// Where it was made: a comment in the conversation, on a line of the
    /// diff, or a review (whose state may vote, see `review_states_vote`).
    pub via: Via,
}

/// Where on the forge a comment was made, as the status says where a vote
/// came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Via {
    /// A comment in the conversation.
    #[default]
    Comment,
    /// A comment on a line of a pull request's diff.
    LineComment,
    /// A submitted review, in its state.
    Review(ReviewState),
    /// A dismissed review, or a comment on a line of the diff made in one:
    /// never a vote, whatever it says or said when first seen. The forge
    /// still reports it, so a vote seen before its dismissal is known to
    /// be withdrawn, not taken for a comment deleted since (which counts).
    Dismissed,
}

/// The state a review was submitted in (a pending review is not reported;
/// a dismissed one is [`Via::Dismissed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewState {
    /// Approved.
    Approved,
    /// Changes requested.
    ChangesRequested,
    /// Comments only.
    Commented,
}

impl Via {
    /// `a comment`, `a review (approved)`, … for the status and the site.
    pub fn describe(self) -> &'static str {
        match self {
            Via::Comment => "a comment",
            Via::LineComment => "a comment on a line of the diff",
            Via::Review(ReviewState::Approved) => "a review (approved)",
            Via::Review(ReviewState::ChangesRequested) => "a review (changes requested)",
            Via::Review(ReviewState::Commented) => "a review",
            Via::Dismissed => "a dismissed review",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_comes_from_labels_then_title() {
        let labels = vec!["enhancement".to_string(), "cfj".to_string()];
        assert_eq!(Kind::detect(&labels, "Proposal: x"), Some(Kind::Cfj));
        assert_eq!(
            Kind::detect(&[], "Proposal: Faster springs"),
            Some(Kind::Proposal)
        );
        assert_eq!(
            Kind::detect(&[], "DoV: I have three gadgets"),
            Some(Kind::Dov)
        );
        assert_eq!(Kind::detect(&[], "A proposal without a prefix"), None);
        assert_eq!(Kind::detect(&[], "Note: Proposal later"), None);
    }

    #[test]
    fn a_pull_request_naming_no_kind_is_a_proposal_if_it_changes_only_what_one_may() {
        let paths = |p: &[&str]| p.iter().map(ToString::to_string).collect::<Vec<_>>();
        let rules = paths(&["rules/core/voting.md"]);
        let title = "Update voting.md";
        assert_eq!(
            Kind::of(&[], title, true, Some(&rules)),
            Some(Kind::Proposal)
        );
        let both = paths(&["rules/core/voting.md", "state/variables.toml"]);
        assert_eq!(
            Kind::of(&[], title, true, Some(&both)),
            Some(Kind::Proposal)
        );
        let code = paths(&["rules/core/voting.md", "src/main.rs"]);
        assert_eq!(Kind::of(&[], title, true, Some(&code)), None, "code too");
        let workflow = paths(&[".github/workflows/resolve.yml"]);
        assert_eq!(Kind::of(&[], title, true, Some(&workflow)), None);
        assert_eq!(Kind::of(&[], title, true, None), None, "paths unknown");
        assert_eq!(
            Kind::of(&[], title, true, Some(&[])),
            None,
            "nothing changed"
        );
        assert_eq!(Kind::of(&[], title, false, Some(&rules)), None, "an issue");
        assert_eq!(
            Kind::of(&[], "CfJ: Update voting.md", true, Some(&rules)),
            Some(Kind::Cfj),
            "a named kind first"
        );
        let mut info = pull(&[], title);
        assert_eq!(info.kind(), None);
        info.paths = Some(rules);
        assert_eq!(info.kind(), Some(Kind::Proposal));
        assert!(info.proposal_by_default());
        assert!(!pull(&["Proposal"], title).proposal_by_default());
    }

    fn at(minute: i64) -> Timestamp {
        Timestamp::from_unix(1_900_000_000 + minute * 60)
    }

    fn pull(labels: &[&str], title: &str) -> MatterInfo {
        MatterInfo {
            number: MatterNumber(1),
            title: title.into(),
            body: String::new(),
            author: Login("ada".into()),
            opened: at(0),
            labels: labels.iter().map(ToString::to_string).collect(),
            pull: true,
            head: None,
            merge_commit: None,
            base: None,
            draft: false,
            merged: false,
            kind_changed: None,
            link: None,
            updated: None,
            paths: None,
        }
    }

    fn event(minute: i64, change: Change) -> KindEvent {
        KindEvent {
            at: at(minute),
            change,
        }
    }

    #[test]
    fn the_last_change_of_kind_is_found_by_undoing_the_events() {
        let info = pull(&["Proposal"], "Springs");
        let ready = event(750, Change::ReadyForReview);
        let labeled = event(5, Change::Labeled("Proposal".into()));
        assert_eq!(
            kind_changed(&info, &[labeled.clone(), ready]).map(|c| (c.at, c.how)),
            Some((at(750), "it left draft".into()))
        );
        assert_eq!(
            kind_changed(&info, std::slice::from_ref(&labeled)).map(|c| c.at),
            Some(at(5))
        );
        // A label of the kind its title already gives changes nothing.
        let titled = pull(&["Proposal"], "Proposal: Springs");
        assert_eq!(kind_changed(&titled, &[labeled]), None);
        let renamed = event(
            40,
            Change::Renamed {
                from: "Springs".into(),
                to: "CfJ: Springs".into(),
            },
        );
        let cfj = pull(&[], "CfJ: Springs");
        assert_eq!(kind_changed(&cfj, &[renamed]).map(|c| c.at), Some(at(40)));
    }
}
