//! EDGE: the resolver's status comment over a REST forge, the same on
//! GitHub and Forgejo: found in the conversation and kept for the run; read
//! afresh by its id before a write that must not overwrite another run's;
//! fitted within the forge's limit; edited when there is one, else posted,
//! and when a post's outcome is not known, looked for before posting
//! again, so a thread never gets two statuses. Each adapter says only how
//! it reads the conversation and a comment from a reply.

use serde_json::json;

use super::rest::Rest;
use super::rest::http::expect_ok;
use super::{Forge, ForgeComment, ForgeError};
use crate::matter::MatterNumber;

/// What the protocol needs of a forge's adapter.
pub(crate) trait StatusPort: Forge {
    /// The repository, its client and what this run read.
    fn rest(&self) -> &Rest;
    /// The issue comments of `number` (where the status is; reviews are not).
    fn conversation(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError>;
    /// The comment a reply's body holds, in the forge's shape (`None`: a
    /// comment gitnomic does not read, by a deleted account say).
    fn comment_of(&self, body: &str, what: &str) -> Result<Option<ForgeComment>, ForgeError>;
}

/// GitHub refuses comments of 65,536 characters or more (Forgejo takes
/// more; the one bound serves both).
pub(crate) const MAX_COMMENT_CHARS: usize = 65_535;

/// The status comment of `number` as this run read it, the conversation
/// read for it once.
pub(crate) fn cached(
    port: &impl StatusPort,
    number: MatterNumber,
) -> Result<Option<ForgeComment>, ForgeError> {
    let known = port.rest().statuses.borrow().get(&number).cloned();
    if let Some(status) = known {
        return Ok(status);
    }
    let status = port
        .conversation(number)?
        .into_iter()
        .find(|c| port.is_status(c));
    port.rest()
        .statuses
        .borrow_mut()
        .insert(number, status.clone());
    Ok(status)
}

/// The status comment as the forge has it now, looked for in the
/// conversation afresh.
fn fresh(port: &impl StatusPort, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError> {
    port.rest().statuses.borrow_mut().remove(&number);
    cached(port, number)
}

/// The status comment as the forge has it now, for a write that must not
/// overwrite what another run wrote since this one read it: read by its
/// id when this run knows it (one request, however long the thread, and
/// the thread this run read is kept), else looked for in the conversation
/// afresh, as it is when it was deleted since (GitHub answers 404,
/// Forgejo 404 or 204).
pub(crate) fn now(
    port: &impl StatusPort,
    number: MatterNumber,
) -> Result<Option<ForgeComment>, ForgeError> {
    let known = port
        .rest()
        .statuses
        .borrow()
        .get(&number)
        .cloned()
        .flatten();
    let Some(known) = known else {
        return fresh(port, number);
    };
    let rest = port.rest();
    let path = rest.path(&format!("/issues/comments/{}", known.id));
    let reply = rest.client.get(&path)?;
    if matches!(reply.status, 404 | 204) {
        return fresh(port, number);
    }
    expect_ok(&reply, &path)?;
    let now = port
        .comment_of(&reply.body, &path)?
        .filter(|c| port.is_status(c));
    rest.statuses.borrow_mut().insert(number, now.clone());
    Ok(now)
}

/// Writes `body` as the status of `number`, fitted within the limit,
/// unless the status already says it.
pub(crate) fn put(
    port: &impl StatusPort,
    number: MatterNumber,
    body: &str,
) -> Result<(), ForgeError> {
    let body = fit(body)?;
    let existing = cached(port, number)?;
    if existing.as_ref().is_some_and(|c| c.body == body) {
        return Ok(());
    }
    let written = post_or_edit(port, number, existing, &body);
    // What this run read is stale once it writes. The comment the forge
    // answered with is the status now, so the next write of this run edits
    // it without reading the thread again; when the answer is not known,
    // the next status is found afresh and edited, never posted twice. The
    // thread kept between runs is read again by the next run (see
    // `rest::threads`).
    let rest = port.rest();
    rest.threads.borrow_mut().status_written(number);
    match &written {
        Ok(Some(comment)) if port.is_status(comment) => {
            rest.statuses
                .borrow_mut()
                .insert(number, Some(comment.clone()));
        }
        _ => {
            rest.statuses.borrow_mut().remove(&number);
        }
    }
    written.map(|_| ())
}

/// A status comment that fits: the first line (the marker) and the
/// trailing journal line kept whole, the text between shortened with a
/// note when the whole would be too long.
pub(crate) fn fit(body: &str) -> Result<String, ForgeError> {
    if body.chars().count() <= MAX_COMMENT_CHARS {
        return Ok(body.to_string());
    }
    let (first, rest) = body.split_once('\n').unwrap_or((body, ""));
    let (text, journal) = match rest.rfind("<!-- gitnomic:journal") {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let note =
        "\n\n… (shortened to fit GitHub's limit on comments; `gitnomic tally` shows it all)\n\n";
    let fixed = first.chars().count() + 1 + note.chars().count() + journal.chars().count();
    let room = MAX_COMMENT_CHARS.checked_sub(fixed).ok_or_else(|| {
        ForgeError::Other(format!(
            "the status comment's journal alone is {} characters, over GitHub's limit of {MAX_COMMENT_CHARS}",
            journal.chars().count()
        ))
    })?;
    let kept: String = text.chars().take(room).collect();
    // Cut at a line's end so no table row or link is left half-way.
    let kept = kept.rfind('\n').map_or(kept.as_str(), |at| &kept[..at]);
    Ok(format!("{first}\n{kept}{note}{journal}"))
}

/// Posts the status `body` on matter `number`, or edits `existing`; the
/// comment as the forge now has it, when its answer says so.
fn post_or_edit(
    port: &impl StatusPort,
    number: MatterNumber,
    existing: Option<ForgeComment>,
    body: &str,
) -> Result<Option<ForgeComment>, ForgeError> {
    let rest = port.rest();
    let edit = |id: u64| {
        let reply = rest.send_settable(
            "PATCH",
            &format!("/issues/comments/{id}"),
            &json!({ "body": body }),
        )?;
        expect_ok(&reply, "editing the status comment")?;
        Ok(written(port, &reply))
    };
    if let Some(c) = existing {
        return edit(c.id);
    }
    let path = format!("/issues/{number}/comments");
    let post = json!({ "body": body });
    match rest.send("POST", &path, &post)? {
        Ok(reply) => {
            expect_ok(&reply, "posting the status comment")?;
            Ok(written(port, &reply))
        }
        // Posted or not? Look, and never post a second one.
        Err(why) => match fresh(port, number)? {
            Some(c) if c.body == body => Ok(Some(c)),
            Some(c) => edit(c.id),
            None => {
                let reply = rest.send("POST", &path, &post)?.map_err(|again| {
                    ForgeError::Other(format!("posting the status comment: {why}; then {again}"))
                })?;
                expect_ok(&reply, "posting the status comment")?;
                Ok(written(port, &reply))
            }
        },
    }
}

/// The comment a write answered with, if the answer is one.
fn written(port: &impl StatusPort, reply: &super::rest::http::Reply) -> Option<ForgeComment> {
    port.comment_of(&reply.body, "the status comment written")
        .ok()
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_status_keeps_its_marker_and_journal() {
        let journal = "<!-- gitnomic:journal {\"heads\":[]} -->";
        let rows: String = (0..20_000)
            .map(|i| format!("| row {i} | FOR |\n"))
            .collect();
        let body = format!("<!-- gitnomic:status -->\n{rows}\n\n{journal}");
        let fitted = fit(&body).unwrap();
        assert!(fitted.chars().count() <= MAX_COMMENT_CHARS);
        assert!(fitted.starts_with("<!-- gitnomic:status -->\n| row 0 | FOR |\n"));
        assert!(fitted.ends_with(journal), "the journal is whole at the end");
        assert!(fitted.contains("shortened"));
        let short = format!("<!-- gitnomic:status -->\nok\n\n{journal}");
        assert_eq!(fit(&short).unwrap(), short);
    }
}
