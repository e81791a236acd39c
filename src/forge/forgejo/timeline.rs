//! What a pull request's timeline (`GET /issues/N/timeline`) tells the
//! resolver: the pushes Forgejo saw, with its own time for each, and the
//! changes that may have made it a matter late (a label, a title; leaving
//! draft is a title losing its `WIP:` prefix, as Forgejo marks drafts).

use super::dto::{PushContent, TimelineEntry};
use crate::forge::votes::time;
use crate::forge::{ForgeError, HeadSha};
use crate::matter::{Change, KindEvent};
use crate::time::Timestamp;

/// The title prefixes Forgejo reads as a draft (its defaults).
const DRAFT_PREFIXES: [&str; 2] = ["WIP:", "[WIP]"];

fn is_draft_title(title: &str) -> bool {
    let title = title.trim_start().to_ascii_uppercase();
    DRAFT_PREFIXES.iter().any(|p| title.starts_with(p))
}

/// The heads the pull request was pushed to, oldest first, each at the
/// time Forgejo recorded the push: the last commit a push brought, or the
/// new head of a force push. When the first push recorded was a force
/// push, the head it replaced is the one the pull request was opened with
/// (at `opened`). A push whose body is not Forgejo's is skipped.
pub(super) fn pushes(
    entries: &[TimelineEntry],
    opened: Option<Timestamp>,
) -> Result<Vec<(HeadSha, Timestamp)>, ForgeError> {
    let mut out = Vec::new();
    for entry in entries {
        if entry.kind.as_deref() != Some("pull_push") {
            continue;
        }
        let Some(push) = entry
            .body
            .as_deref()
            .and_then(|b| serde_json::from_str::<PushContent>(b).ok())
        else {
            continue;
        };
        let Some(after) = push.commit_ids.last() else {
            continue;
        };
        if out.is_empty() && push.is_force_push && push.commit_ids.len() == 2 {
            if let Some(opened) = opened {
                out.push((HeadSha(push.commit_ids[0].clone()), opened));
            }
        }
        out.push((HeadSha(after.clone()), time(&entry.created_at)?));
    }
    Ok(out)
}

/// The changes of a pull request's kind the timeline shows.
pub(super) fn kind_events(entries: &[TimelineEntry]) -> Result<Vec<KindEvent>, ForgeError> {
    let mut out = Vec::new();
    for entry in entries {
        let at = || time(&entry.created_at);
        match entry.kind.as_deref() {
            Some("label") => {
                let Some(label) = &entry.label else { continue };
                // Forgejo writes "1" for a label added, nothing for one removed.
                let change = if entry.body.as_deref() == Some("1") {
                    Change::Labeled(label.name.clone())
                } else {
                    Change::Unlabeled(label.name.clone())
                };
                out.push(KindEvent { at: at()?, change });
            }
            Some("change_title") => {
                let (Some(from), Some(to)) = (&entry.old_title, &entry.new_title) else {
                    continue;
                };
                match (is_draft_title(from), is_draft_title(to)) {
                    (true, false) => out.push(KindEvent {
                        at: at()?,
                        change: Change::ReadyForReview,
                    }),
                    (false, true) => out.push(KindEvent {
                        at: at()?,
                        change: Change::ConvertToDraft,
                    }),
                    _ => {}
                }
                out.push(KindEvent {
                    at: at()?,
                    change: Change::Renamed {
                        from: from.clone(),
                        to: to.clone(),
                    },
                });
            }
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: &str, body: &str, at: &str) -> TimelineEntry {
        serde_json::from_value(serde_json::json!({
            "type": kind, "body": body, "created_at": at,
            "old_title": "WIP: More springs", "new_title": "More springs",
            "label": { "name": "Proposal" },
        }))
        .unwrap()
    }

    #[test]
    fn pushes_are_dated_by_the_forge_and_a_first_force_push_names_the_opening_head() {
        let opened = Timestamp::parse("2030-01-01T00:00:00Z").unwrap();
        let entries = [
            entry("comment", "FOR", "2030-01-01T00:30:00Z"),
            entry(
                "pull_push",
                r#"{"is_force_push":true,"commit_ids":["a0","b1"]}"#,
                "2030-01-01T01:00:00Z",
            ),
            entry(
                "pull_push",
                r#"{"is_force_push":false,"commit_ids":["c2","d3"]}"#,
                "2030-01-01T02:00:00Z",
            ),
            entry("pull_push", "not json", "2030-01-01T03:00:00Z"),
        ];
        let pushes = pushes(&entries, Some(opened)).unwrap();
        let shas: Vec<&str> = pushes.iter().map(|(s, _)| s.0.as_str()).collect();
        assert_eq!(shas, ["a0", "b1", "d3"]);
        assert_eq!(pushes[0].1, opened);
        assert_eq!(
            pushes[2].1,
            Timestamp::parse("2030-01-01T02:00:00Z").unwrap()
        );
    }

    #[test]
    fn a_title_losing_its_draft_prefix_leaves_draft() {
        let events = kind_events(&[
            entry("change_title", "", "2030-01-01T01:00:00Z"),
            entry("label", "1", "2030-01-01T02:00:00Z"),
            entry("label", "", "2030-01-01T03:00:00Z"),
        ])
        .unwrap();
        let changes: Vec<&Change> = events.iter().map(|e| &e.change).collect();
        assert!(matches!(changes[0], Change::ReadyForReview));
        assert!(matches!(changes[1], Change::Renamed { .. }));
        assert!(matches!(changes[2], Change::Labeled(l) if l == "Proposal"));
        assert!(matches!(changes[3], Change::Unlabeled(l) if l == "Proposal"));
    }
}
