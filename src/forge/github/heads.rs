//! Old heads of pull requests, kept judgeable.
//!
//! CI fetches only `refs/pull/N/head`, so a head that was force-pushed away
//! is not in the checkout, and a push from it cannot be judged from git
//! alone. The resolve run (the one with `contents: write`) pins every head
//! a journal names that the checkout lacks with a reference
//! `refs/gitnomic/pull/N/<sha>`, which `scripts/fetch-pulls` fetches from then
//! on; until it is pinned (a check run judging the push that pushed it
//! away, say), its game files are read through the git data API, which
//! serves a commit by SHA while GitHub still holds it.

use serde_json::json;

use super::dto::{Blob, Tree};
use super::{ForgeError, GitHubForge, HeadSha};
use crate::forge::rest::codec::unbase64;
use crate::forge::rest::http::{expect_ok, parse};

use crate::matter::MatterNumber;

/// The reference a pinned head is kept under.
pub(crate) fn pin_ref(number: MatterNumber, sha: &HeadSha) -> String {
    format!("refs/gitnomic/pull/{number}/{}", sha.0)
}

/// Whether `text` is a full hexadecimal SHA, as a head must be before it
/// goes into a path.
fn is_sha(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

impl GitHubForge {
    pub(super) fn commit_files(
        &self,
        sha: &HeadSha,
    ) -> Result<Option<Vec<(String, String)>>, ForgeError> {
        if !is_sha(&sha.0) {
            return Ok(None);
        }
        let rest = format!("/git/trees/{}?recursive=1", sha.0);
        let reply = self.rest.client.get(&self.rest.path(&rest))?;
        // Unknown to GitHub (gone, or never there): nothing to judge by.
        if matches!(reply.status, 404 | 409 | 422) {
            return Ok(None);
        }
        expect_ok(&reply, &rest)?;
        let tree: Tree = parse(&reply.body, &rest)?;
        if tree.truncated {
            return Err(ForgeError::Other(format!(
                "the tree of {sha} is too large for GitHub to list: it cannot be judged"
            )));
        }
        let mut files: Vec<(String, String)> = tree
            .tree
            .into_iter()
            .filter(|e| e.kind.as_deref() == Some("blob"))
            .filter_map(|e| Some((e.path?, e.sha?)))
            .collect();
        files.sort();
        Ok(Some(files))
    }

    pub(super) fn read_blob(&self, id: &str) -> Result<Option<Vec<u8>>, ForgeError> {
        if !is_sha(id) {
            return Ok(None);
        }
        let rest = format!("/git/blobs/{id}");
        let reply = self.rest.client.get(&self.rest.path(&rest))?;
        if matches!(reply.status, 404 | 409 | 422) {
            return Ok(None);
        }
        expect_ok(&reply, &rest)?;
        let blob: Blob = parse(&reply.body, &rest)?;
        if blob.encoding != "base64" {
            return Err(ForgeError::Other(format!(
                "blob {id}: GitHub sent it as {}, not base64",
                blob.encoding
            )));
        }
        unbase64(&blob.content)
            .map(Some)
            .ok_or_else(|| ForgeError::Other(format!("blob {id}: not base64")))
    }

    /// Creates the pin, or finds it made: a 422 is either "already there"
    /// or "no such commit", told apart by reading the reference, never by
    /// the message's words.
    pub(super) fn write_pin(
        &self,
        number: MatterNumber,
        sha: &HeadSha,
    ) -> Result<bool, ForgeError> {
        if !is_sha(&sha.0) {
            return Ok(false);
        }
        let name = pin_ref(number, sha);
        let body = json!({ "ref": name, "sha": sha.0 });
        match self.rest.send("POST", "/git/refs", &body)? {
            Ok(reply) if reply.status == 201 => return Ok(true),
            Ok(reply) if reply.status != 422 => {
                expect_ok(&reply, "pinning a head")?;
                return Ok(true);
            }
            _ => {}
        }
        let rest = format!("/git/ref/{}", name.trim_start_matches("refs/"));
        let reply = self.rest.client.get(&self.rest.path(&rest))?;
        if reply.status == 404 {
            return Ok(false);
        }
        expect_ok(&reply, &rest)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_full_sha_goes_into_a_path() {
        assert!(is_sha(&"a".repeat(40)));
        assert!(!is_sha("abc"));
        assert!(!is_sha(&format!("{}/..", "a".repeat(38))));
        assert_eq!(
            pin_ref(MatterNumber(7), &HeadSha("f".repeat(40))),
            format!("refs/gitnomic/pull/7/{}", "f".repeat(40))
        );
    }
}
