//! EDGE: the resolver's status comment written over a REST forge, the same
//! on GitHub and Forgejo: edit the comment when there is one; else post
//! it, and when a post's outcome is not known, look before posting again,
//! so a thread never gets two statuses. Each adapter says only how it
//! sends a request and reads a comment from a reply.

use serde_json::json;

use super::github::http::{Reply, expect_ok};
use super::{ForgeComment, ForgeError};
use crate::matter::MatterNumber;

/// What the protocol needs of a forge's adapter.
pub(crate) trait StatusPort {
    /// Sends a write; an uncertain outcome is `Err(why)` to settle.
    fn send(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Result<Reply, String>, ForgeError>;
    /// Sends a write that is the same done twice, asked again once when
    /// its outcome is not known.
    fn send_settable(
        &self,
        method: &str,
        rest: &str,
        body: &serde_json::Value,
    ) -> Result<Reply, ForgeError>;
    /// The status comment as the forge has it now, not as this run read it.
    fn fresh_status(&self, number: MatterNumber) -> Result<Option<ForgeComment>, ForgeError>;
    /// The comment a reply to a post or an edit holds, when it says.
    fn written(&self, reply: &Reply) -> Option<ForgeComment>;
}

/// Posts the status `body` on matter `number`, or edits `existing`; the
/// comment as the forge now has it, when its answer says so.
pub(crate) fn post_or_edit(
    port: &impl StatusPort,
    number: MatterNumber,
    existing: Option<ForgeComment>,
    body: &str,
) -> Result<Option<ForgeComment>, ForgeError> {
    let edit = |id: u64| {
        let reply = port.send_settable(
            "PATCH",
            &format!("/issues/comments/{id}"),
            &json!({ "body": body }),
        )?;
        expect_ok(&reply, "editing the status comment")?;
        Ok(port.written(&reply))
    };
    if let Some(c) = existing {
        return edit(c.id);
    }
    let path = format!("/issues/{number}/comments");
    let post = json!({ "body": body });
    match port.send("POST", &path, &post)? {
        Ok(reply) => {
            expect_ok(&reply, "posting the status comment")?;
            Ok(port.written(&reply))
        }
        // Posted or not? Look, and never post a second one.
        Err(why) => match port.fresh_status(number)? {
            Some(c) if c.body == body => Ok(Some(c)),
            Some(c) => edit(c.id),
            None => {
                let reply = port.send("POST", &path, &post)?.map_err(|again| {
                    ForgeError::Other(format!("posting the status comment: {why}; then {again}"))
                })?;
                expect_ok(&reply, "posting the status comment")?;
                Ok(port.written(&reply))
            }
        },
    }
}
