//! The event a GitHub Actions workflow runs for, as `check --event` reads
//! it: which pull request or issue it is about, who caused it, and the
//! push it announces. The payload is read as data; nothing in it is run.

use super::dto::EventPayload;
use crate::forge::{HeadSha, Push};
use crate::matter::MatterNumber;
use crate::time::Timestamp;

/// What an event is about.
#[derive(Debug, PartialEq, Eq)]
pub struct WorkflowEvent {
    /// The pull request or issue.
    pub number: MatterNumber,
    /// Who caused it (`sender.login`).
    pub sender: Option<String>,
    /// The push it announces: a pull request opened, reopened or pushed to.
    pub push: Option<Push>,
}

/// The pull request or issue an event payload is about (`pull_request`
/// events, `issues` events, comments), and its sender; `None` when the
/// text is not such a payload.
pub fn parse(text: &str) -> Option<WorkflowEvent> {
    let event: EventPayload = serde_json::from_str(text).ok()?;
    let number = event
        .pull_request
        .as_ref()
        .and_then(|p| p.number)
        .or_else(|| event.issue.as_ref()?.number)?;
    Some(WorkflowEvent {
        number,
        sender: event.sender.as_ref().and_then(|s| s.login.clone()),
        push: push(&event),
    })
}

/// The push a `pull_request` event announces, with GitHub's own time for
/// it (`pull_request.updated_at`, which a push sets), never a commit date.
fn push(event: &EventPayload) -> Option<Push> {
    let action = event.action.as_deref()?;
    if !matches!(action, "opened" | "reopened" | "synchronize") {
        return None;
    }
    let pull = event.pull_request.as_ref()?;
    Some(Push {
        before: event
            .before
            .clone()
            .filter(|_| action == "synchronize")
            .map(HeadSha),
        after: HeadSha(pull.head.as_ref()?.sha.clone()),
        at: Timestamp::parse(pull.updated_at.as_deref()?).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_number_from_pull_request_and_comment_events() {
        let number = |text: &str| parse(text).map(|e| e.number);
        assert_eq!(
            number(r#"{"action":"opened","pull_request":{"number":7}}"#),
            Some(MatterNumber(7))
        );
        assert_eq!(
            number(r#"{"action":"created","issue":{"number":9,"pull_request":{}}}"#),
            Some(MatterNumber(9))
        );
        assert_eq!(number(r#"{"action":"completed"}"#), None);
        assert_eq!(number("not json"), None);
        assert_eq!(
            parse(r#"{"issue":{"number":3},"sender":{"login":"ada"}}"#),
            Some(WorkflowEvent {
                number: MatterNumber(3),
                sender: Some("ada".into()),
                push: None,
            })
        );
    }

    #[test]
    fn reads_the_push_of_a_synchronize_and_of_an_opening_only() {
        let event = |action: &str| {
            format!(
                r#"{{"action":"{action}","before":"b0","sender":{{"login":"ada"}},
                "pull_request":{{"number":4,"head":{{"sha":"a1"}},"updated_at":"2030-03-01T10:00:00Z"}}}}"#
            )
        };
        let at = Timestamp::parse("2030-03-01T10:00:00Z").unwrap();
        let pushed = parse(&event("synchronize")).and_then(|e| e.push);
        assert_eq!(
            pushed,
            Some(Push {
                before: Some(HeadSha("b0".into())),
                after: HeadSha("a1".into()),
                at,
            })
        );
        // An opening has no head before it, whatever the payload says.
        let opened = parse(&event("opened")).and_then(|e| e.push);
        assert_eq!(opened.map(|p| p.before), Some(None));
        assert_eq!(parse(&event("labeled")).and_then(|e| e.push), None);
        assert_eq!(
            parse(&event("labeled")).map(|e| e.number),
            Some(MatterNumber(4))
        );
    }

    #[test]
    fn reads_real_webhook_payloads() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/fixtures/github/octokit-webhooks");
        let Ok(opened) = std::fs::read_to_string(dir.join("pull_request/opened.payload.json"))
        else {
            eprintln!("skipped: {} not found", dir.display());
            return;
        };
        let event = parse(&opened).expect("an opened pull request's payload reads");
        assert!(event.push.is_some(), "an opening announces its head");
        assert!(event.sender.is_some());
        let comment =
            std::fs::read_to_string(dir.join("issue_comment/created.payload.json")).unwrap();
        assert!(parse(&comment).is_some());
    }
}
