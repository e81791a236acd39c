//! What `gitnomic doctor` reads of a repository's settings on GitHub, and
//! the labels it creates. A setting the token may not read (403, or 404
//! for what it may not see) comes back as [`Seen::Refused`] for the
//! doctor to report; a token GitHub does not accept at all (401) stops
//! the run.

use serde::Deserialize;
use serde_json::{Value, json};

use super::{ForgeError, GitHubForge};
use crate::forge::rest::codec::encode;
use crate::forge::rest::http::{Sent, expect_ok, message, parse};
use crate::setup::doctor::{Account, ActionsFacts, LabelSpec, RepoFacts, Seen, WorkflowFacts};

#[derive(Deserialize)]
struct Repository {
    has_issues: bool,
    allow_merge_commit: Option<bool>,
    default_branch: String,
    private: bool,
}

#[derive(Deserialize)]
struct Actions {
    enabled: bool,
    allowed_actions: Option<String>,
}

#[derive(Deserialize)]
struct Workflows {
    workflows: Vec<Workflow>,
}

#[derive(Deserialize)]
struct Workflow {
    path: String,
    state: String,
}

#[derive(Deserialize)]
struct WorkflowPermissions {
    default_workflow_permissions: String,
}

#[derive(Deserialize)]
struct Pages {
    build_type: Option<String>,
}

#[derive(Deserialize)]
struct Label {
    name: String,
}

#[derive(Deserialize)]
struct User {
    #[serde(rename = "type")]
    kind: String,
}

impl GitHubForge {
    /// A GET of an absolute API path: the reply's JSON, `Ok(Err(..))` when
    /// GitHub refused to show it (403, or 404 unless `absent_ok`, when a
    /// 404 is `Ok(Ok(None))`).
    fn probe(&self, path: &str, absent_ok: bool) -> Result<Seen<Option<Value>>, ForgeError> {
        let reply = match self.rest.client.get(path) {
            Err(ForgeError::Forbidden(why)) => {
                return Ok(Seen::Refused {
                    status: 403,
                    message: github_message(&why),
                });
            }
            other => other?,
        };
        match reply.status {
            404 if absent_ok => Ok(Seen::Got(None)),
            404 => Ok(Seen::Refused {
                status: 404,
                message: message(&reply.body),
            }),
            _ => {
                expect_ok(&reply, path)?;
                Ok(Seen::Got(Some(parse(&reply.body, path)?)))
            }
        }
    }

    /// A repository setting read as `T`.
    fn setting<T: for<'de> Deserialize<'de>>(&self, rest: &str) -> Result<Seen<T>, ForgeError> {
        let path = self.rest.path(rest);
        Ok(match self.probe(&path, false)? {
            Seen::Got(value) => Seen::Got(
                serde_json::from_value(value.unwrap_or(Value::Null)).map_err(|e| {
                    ForgeError::Other(format!("{path}: unexpected reply from GitHub: {e}"))
                })?,
            ),
            Seen::Refused { status, message } => Seen::Refused { status, message },
        })
    }

    /// The repository itself; without it nothing else can be judged, so
    /// a refusal is an error naming the repository.
    pub fn repository_facts(&self) -> Result<RepoFacts, ForgeError> {
        match self.setting::<Repository>("")? {
            Seen::Got(r) => Ok(RepoFacts {
                has_issues: r.has_issues,
                allow_merge_commit: r.allow_merge_commit,
                default_branch: r.default_branch,
                private: r.private,
            }),
            Seen::Refused { status, message } => Err(ForgeError::Other(format!(
                "the repository {} cannot be read (GitHub answered {status}: {message}): \
                 is GITHUB_REPOSITORY right, and may the token see it?",
                self.rest.repo
            ))),
        }
    }

    /// Whether Actions is on, and which actions it may run.
    pub fn actions_facts(&self) -> Result<Seen<ActionsFacts>, ForgeError> {
        Ok(map(self.setting::<Actions>("/actions/permissions")?, |a| {
            ActionsFacts {
                enabled: a.enabled,
                allowed: a.allowed_actions,
            }
        }))
    }

    /// The workflows GitHub knows, with their states.
    pub fn workflow_facts(&self) -> Result<Seen<Vec<WorkflowFacts>>, ForgeError> {
        let seen = self.setting::<Workflows>("/actions/workflows?per_page=100")?;
        Ok(map(seen, |w| {
            w.workflows
                .into_iter()
                .map(|w| WorkflowFacts {
                    path: w.path,
                    state: w.state,
                })
                .collect()
        }))
    }

    /// The default permissions of the workflows' token (`read`, `write`).
    pub fn workflow_permissions(&self) -> Result<Seen<String>, ForgeError> {
        let seen = self.setting::<WorkflowPermissions>("/actions/permissions/workflow")?;
        Ok(map(seen, |p| p.default_workflow_permissions))
    }

    /// How Pages is built (`workflow`, `legacy`), `None` with no site.
    pub fn pages_build_type(&self) -> Result<Seen<Option<String>>, ForgeError> {
        let path = self.rest.path("/pages");
        Ok(match self.probe(&path, true)? {
            Seen::Got(None) => Seen::Got(None),
            Seen::Got(Some(value)) => {
                let pages: Pages = serde_json::from_value(value).map_err(|e| {
                    ForgeError::Other(format!("{path}: unexpected reply from GitHub: {e}"))
                })?;
                Seen::Got(Some(pages.build_type.unwrap_or_else(|| "legacy".into())))
            }
            Seen::Refused { status, message } => Seen::Refused { status, message },
        })
    }

    /// The names of the repository's labels.
    pub fn label_names(&self) -> Result<Seen<Vec<String>>, ForgeError> {
        let path = self.rest.path("/labels?per_page=100");
        match self.rest.client.get_all(&path) {
            Ok(items) => Ok(Seen::Got(
                items
                    .into_iter()
                    .filter_map(|v| serde_json::from_value::<Label>(v).ok())
                    .map(|l| l.name)
                    .collect(),
            )),
            Err(ForgeError::Forbidden(why)) => Ok(Seen::Refused {
                status: 403,
                message: github_message(&why),
            }),
            Err(e) => Err(e),
        }
    }

    /// Creates a label; `Ok(Err(why))` if GitHub refused.
    pub fn create_label(&self, label: &LabelSpec) -> Result<Result<(), String>, ForgeError> {
        let body = json!({
            "name": label.name,
            "color": label.color,
            "description": label.description,
        });
        // Sent once: a label created twice is refused (422), never doubled.
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

    /// What kind of account `login` is, if it is one.
    pub fn account(&self, login: &str) -> Result<Seen<Account>, ForgeError> {
        let path = format!("/users/{}", encode(login));
        Ok(match self.probe(&path, true)? {
            Seen::Got(None) => Seen::Got(Account::Missing),
            Seen::Got(Some(value)) => {
                let user: User = serde_json::from_value(value).map_err(|e| {
                    ForgeError::Other(format!("{path}: unexpected reply from GitHub: {e}"))
                })?;
                Seen::Got(if user.kind == "Organization" {
                    Account::Organization
                } else {
                    Account::User
                })
            }
            Seen::Refused { status, message } => Seen::Refused { status, message },
        })
    }
}

fn map<T, U>(seen: Seen<T>, f: impl FnOnce(T) -> U) -> Seen<U> {
    match seen {
        Seen::Got(v) => Seen::Got(f(v)),
        Seen::Refused { status, message } => Seen::Refused { status, message },
    }
}

/// GitHub's own words in a refusal the client reported as
/// `403: <advice>: <GitHub's message>` (the advice, about a workflow's
/// permissions, does not fit a token the admin holds).
fn github_message(why: &str) -> String {
    why.split_once("): ").map_or(why, |(_, m)| m).to_string()
}
