//! What `gitnomic doctor --forge forgejo` reads of a repository on Forgejo
//! and the labels it creates: the repository's units and merge styles
//! (`GET /repos/{owner}/{repo}`), its labels, the `pages` branch, and
//! whether each roster login is an account. A token the forge does not
//! accept (401) stops the run; a setting it may not read is reported.

use serde::Deserialize;
use serde_json::json;

use super::ForgejoForge;
use crate::forge::ForgeError;
use crate::forge::rest::codec::encode;
use crate::forge::rest::http::{Sent, expect_ok, message, parse};
use crate::setup::doctor::{LabelSpec, Seen};
use crate::setup::doctor_forgejo::ForgejoRepo;

#[derive(Deserialize)]
struct Repository {
    #[serde(default)]
    has_issues: bool,
    #[serde(default)]
    has_pull_requests: bool,
    #[serde(default)]
    has_actions: bool,
    allow_merge_commits: Option<bool>,
    #[serde(default)]
    default_branch: String,
    permissions: Option<Permission>,
}

#[derive(Deserialize)]
struct Permission {
    push: Option<bool>,
}

#[derive(Deserialize)]
struct Label {
    name: String,
}

impl ForgejoForge {
    /// The repository itself; without it nothing else can be judged.
    pub fn repository_facts(&self) -> Result<ForgejoRepo, ForgeError> {
        let path = self.rest.path("");
        let reply = self.rest.client.get(&path)?;
        if reply.status == 404 {
            return Err(ForgeError::Other(format!(
                "the repository {} cannot be read (Forgejo answered 404: {}): is \
                 GITHUB_REPOSITORY right, and may the token see it?",
                self.rest.repo,
                message(&reply.body)
            )));
        }
        expect_ok(&reply, &path)?;
        let r: Repository = parse(&reply.body, &path)?;
        Ok(ForgejoRepo {
            has_issues: r.has_issues,
            has_pull_requests: r.has_pull_requests,
            has_actions: r.has_actions,
            allow_merge_commits: r.allow_merge_commits,
            default_branch: r.default_branch,
            can_push: r.permissions.and_then(|p| p.push),
        })
    }

    /// The names of the repository's labels, every page of them.
    pub fn label_names(&self) -> Result<Seen<Vec<String>>, ForgeError> {
        match self.list::<Label>("/labels") {
            Ok(labels) => Ok(Seen::Got(labels.into_iter().map(|l| l.name).collect())),
            Err(ForgeError::Forbidden(why)) => Ok(Seen::Refused {
                status: 403,
                message: why,
            }),
            Err(e) => Err(e),
        }
    }

    /// Creates a label; `Ok(Err(why))` if Forgejo refused. Sent once: a
    /// label made twice is refused, never doubled.
    pub fn create_label(&self, label: &LabelSpec) -> Result<Result<(), String>, ForgeError> {
        let body = json!({
            "name": label.name,
            "color": format!("#{}", label.color),
            "description": label.description,
        });
        let reply = match self
            .rest
            .client
            .write("POST", &self.rest.path("/labels"), &body)
        {
            Ok(Sent::Done(reply)) => reply,
            Ok(Sent::Unknown(why))
            | Err(ForgeError::Unauthorized(why) | ForgeError::Forbidden(why)) => {
                return Ok(Err(why));
            }
            Err(e) => return Err(e),
        };
        Ok(if (200..300).contains(&reply.status) {
            Ok(())
        } else {
            Err(format!("HTTP {}: {}", reply.status, message(&reply.body)))
        })
    }

    /// Whether branch `name` exists.
    pub fn has_branch(&self, name: &str) -> Result<bool, ForgeError> {
        let path = self.rest.path(&format!("/branches/{}", encode(name)));
        let reply = self.rest.client.get(&path)?;
        if reply.status == 404 {
            return Ok(false);
        }
        expect_ok(&reply, &path)?;
        Ok(true)
    }

    /// Whether `login` is an account on the forge.
    pub fn account_exists(&self, login: &str) -> Result<Seen<bool>, ForgeError> {
        let path = format!("/users/{}", encode(login));
        match self.rest.client.get(&path) {
            Ok(reply) if reply.status == 404 => Ok(Seen::Got(false)),
            Ok(reply) => {
                expect_ok(&reply, &path)?;
                Ok(Seen::Got(true))
            }
            Err(ForgeError::Forbidden(why)) => Ok(Seen::Refused {
                status: 403,
                message: why,
            }),
            Err(e) => Err(e),
        }
    }
}
