//! The heads of each pull request, with the time the local forge first saw
//! each: when the matter was opened, whenever a command finds its branch
//! moved, and when a player says "I pushed now" (`play push`). A real forge
//! sees every push as it happens; the local forge sees one when a command
//! runs, so the resolver's verdict on votes cast around a push depends on
//! when the push happened, not on when `resolve` last ran.
//!
//! Every head seen is pinned under `refs/gitnomic/pull/<n>/<sha>`, so after
//! a force push the old head can still be read, and a typo fix judged as one.

use serde::{Deserialize, Serialize};

use super::{LocalError, LocalForge, LocalMatter, State, git_error, may_act};
use crate::forge::{ForgeError, HeadSha};
use crate::matter::MatterNumber;
use crate::time::Timestamp;

/// A head of a pull request, and when the forge first saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeenHead {
    /// The commit.
    pub sha: String,
    /// When it was first seen.
    pub at: Timestamp,
}

impl LocalForge {
    /// Notes, at now, the new head of every open pull request whose branch
    /// moved since its last push was seen. A command run at a moment before
    /// that last push notes nothing: a later one will.
    pub(super) fn observe(&self) -> Result<(), ForgeError> {
        for mut matter in self.all_matters()? {
            if matter.state != State::Open {
                continue;
            }
            let Some(branch) = matter.branch.clone() else {
                continue;
            };
            let Some(head) = self.repo.branch_head(&branch).map_err(git_error)? else {
                continue;
            };
            let last = matter.pushes.last();
            let moved = last.is_none_or(|p| p.sha != head && p.at <= self.now);
            if moved {
                self.note_push(&mut matter, &head)?;
                self.save_matter(&matter)?;
            }
        }
        Ok(())
    }

    /// Adds `sha` at now to the pushes of `matter` (not saved), pinning it.
    pub(super) fn note_push(&self, matter: &mut LocalMatter, sha: &str) -> Result<(), ForgeError> {
        let name = format!("refs/gitnomic/pull/{}/{sha}", matter.number);
        self.repo.pin(&name, sha).map_err(git_error)?;
        matter.pushes.push(SeenHead {
            sha: sha.to_string(),
            at: self.now,
        });
        Ok(())
    }

    /// Records that `login` pushed to pull request `number` now (its
    /// author, or anyone if `admin`): the branch's head is noted at now.
    /// Refused if the branch has not moved since the last push was seen,
    /// or if that push was seen after now.
    pub fn pushed(
        &self,
        number: MatterNumber,
        login: &str,
        admin: bool,
    ) -> Result<HeadSha, LocalError> {
        let mut matter = self.open_since(number, "a push to it")?;
        may_act(&matter, login, admin, "push to it")?;
        let branch = matter.branch.clone().ok_or(LocalError::NotAPull(number))?;
        let head = self
            .repo
            .branch_head(&branch)
            .map_err(git_error)?
            .ok_or_else(|| LocalError::NoBranch(branch.clone()))?;
        match matter.pushes.last() {
            Some(last) if last.at > self.now => Err(LocalError::PushBeforeLast {
                number,
                last: last.at,
                at: self.now,
            }),
            // `open` has just noted a moved branch at now.
            Some(last) if last.sha == head && last.at == self.now => Ok(HeadSha(head)),
            Some(last) if last.sha == head => Err(LocalError::NothingPushed {
                number,
                branch,
                sha: head,
                at: last.at,
            }),
            _ => {
                self.note_push(&mut matter, &head)?;
                self.save_matter(&matter)?;
                Ok(HeadSha(head))
            }
        }
    }

    /// The pushes of matter `number` as the `Forge` trait gives them.
    pub(super) fn pushes_of(
        &self,
        number: MatterNumber,
    ) -> Result<Vec<(HeadSha, Timestamp)>, ForgeError> {
        Ok(self
            .load_matter(number)?
            .pushes
            .into_iter()
            .map(|p| (HeadSha(p.sha), p.at))
            .collect())
    }
}
