//! What a repository on Forgejo (Codeberg, a self-hosted Forgejo or Gitea)
//! needs before a group can play there, judged from what `gitnomic doctor
//! --forge forgejo` saw: Issues and pull requests on, merge commits
//! allowed, Actions on (Codeberg grants it on request), the game's
//! workflows on the default branch, the token's reach, the labels (the
//! missing ones created), the `pages` branch the site is pushed to, and
//! the roster's logins. Pure, as `doctor` is: the command reads and
//! creates; this judges.

use super::doctor::{Finding, LabelOutcome, Seen, labels_found, note, ok, todo};

/// The repository's own settings (`GET /repos/{owner}/{repo}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForgejoRepo {
    pub has_issues: bool,
    pub has_pull_requests: bool,
    /// Whether Actions is on for the repository.
    pub has_actions: bool,
    /// Whether merge commits are allowed (`allow_merge_commits`).
    pub allow_merge_commits: Option<bool>,
    pub default_branch: String,
    /// Whether the token `doctor` ran with may push here (`permissions.push`).
    pub can_push: Option<bool>,
}

/// Everything `doctor --forge forgejo` looked at.
#[derive(Debug, Clone)]
pub(crate) struct ForgejoObservations {
    /// The branch gitnomic was told is the default (`--base`).
    pub base: String,
    pub repo: ForgejoRepo,
    /// Forgejo's or Gitea's Actions, which read workflows from folders of
    /// their own.
    pub actions: super::new_game::Actions,
    /// Whether `resolve.yml` is in that folder on the default branch.
    pub workflows: bool,
    /// Whether the `pages` branch exists.
    pub pages_branch: bool,
    pub labels: Seen<Vec<LabelOutcome>>,
    /// The roster read from the default branch: (name, login), or why not.
    pub roster: Result<Vec<(String, String)>, super::doctor::RosterError>,
    /// Whether each roster login is an account on the forge.
    pub accounts: Vec<(String, Seen<bool>)>,
}

/// Every finding, in the order an admin would work through them.
pub(crate) fn findings(obs: &ForgejoObservations) -> Vec<Finding> {
    let repo = &obs.repo;
    let mut out = Vec::new();
    out.push(if repo.default_branch == obs.base {
        ok(format!("the default branch is `{}`", obs.base))
    } else {
        todo(format!(
            "the default branch is `{}`, not `{}`: run doctor with --base {0}, and name it in \
             the workflows' `branches: [...]` (or Settings → Branches → Default branch)",
            repo.default_branch, obs.base
        ))
    });
    for (on, what) in [
        (repo.has_issues, "Issues"),
        (repo.has_pull_requests, "Pull requests"),
    ] {
        out.push(if on {
            ok(format!("{what} are on"))
        } else {
            todo(format!(
                "{what} are off: turn them on under Settings → Units"
            ))
        });
    }
    out.push(match repo.allow_merge_commits {
        Some(true) => ok("merge commits are allowed (enacted proposals are merged with one)"),
        Some(false) => todo(
            "merge commits are not allowed, and the resolver merges with one: allow \
             \"Create merge commit\" under Settings → Units → Pull requests",
        ),
        None => note("could not see whether merge commits are allowed (the token is no admin's)"),
    });
    out.push(if repo.has_actions {
        ok("Actions is on")
    } else {
        todo(
            "Actions is off, so nothing checks or resolves: turn it on under Settings → Units \
             (on Codeberg, ask for Actions first) and give the repository a runner",
        )
    });
    let (folder, forge) = (obs.actions.folder(), obs.actions.name());
    out.push(if obs.workflows {
        ok(format!(
            "the game's workflows are on the default branch ({folder})"
        ))
    } else {
        todo(format!(
            "no {folder}resolve.yml on the default branch: push the game made by \
             `gitnomic new --forge {forge}`"
        ))
    });
    out.push(match repo.can_push {
        Some(true) => ok("the token may push here"),
        Some(false) => todo(
            "the token may not push here, so labels cannot be made: run doctor with a token of \
             an admin of the repository",
        ),
        None => note("could not see what the token may do here"),
    });
    out.push(note(
        "the workflows' token (FORGEJO_TOKEN) acts on this repository only, and what it does \
         starts no workflow",
    ));
    out.push(if obs.pages_branch {
        ok("the site is published from the `pages` branch")
    } else {
        note(
            "there is no `pages` branch yet: the first resolve run pushes the site there (on \
             Codeberg it is served at https://OWNER.codeberg.page/NAME/)",
        )
    });
    out.extend(labels_found(&obs.labels));
    out.extend(roster(obs));
    out
}

fn roster(obs: &ForgejoObservations) -> Vec<Finding> {
    let players = match &obs.roster {
        Err(why) => return vec![todo(why.to_string())],
        Ok(players) => players,
    };
    let mut out = Vec::new();
    let mut fine = Vec::new();
    for (name, login) in players {
        match obs
            .accounts
            .iter()
            .find(|(l, _)| l == login)
            .map(|(_, s)| s)
        {
            Some(Seen::Got(true)) => fine.push(login.as_str()),
            Some(Seen::Got(false)) => out.push(todo(format!(
                "{name}'s login `{login}` in state/roster.toml is no account on this forge: \
                 correct it (before the game starts, a commit by the admin; after, a proposal)"
            ))),
            Some(Seen::Refused { status, message }) => out.push(todo(format!(
                "could not check {name}'s login `{login}`: the forge answered {status} ({message})"
            ))),
            None => {}
        }
    }
    if !fine.is_empty() {
        out.insert(
            0,
            ok(format!(
                "the roster's logins are accounts on this forge: {}",
                fine.join(", ")
            )),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::doctor::Level;

    fn all_well() -> ForgejoObservations {
        ForgejoObservations {
            base: "main".into(),
            repo: ForgejoRepo {
                has_issues: true,
                has_pull_requests: true,
                has_actions: true,
                allow_merge_commits: Some(true),
                default_branch: "main".into(),
                can_push: Some(true),
            },
            actions: super::super::new_game::Actions::Forgejo,
            workflows: true,
            pages_branch: true,
            labels: Seen::Got(Vec::new()),
            roster: Ok(vec![("Ann".into(), "ann".into())]),
            accounts: vec![("ann".into(), Seen::Got(true))],
        }
    }

    fn todos(obs: &ForgejoObservations) -> Vec<String> {
        findings(obs)
            .into_iter()
            .filter(|f| f.level == Level::Todo)
            .map(|f| f.text)
            .collect()
    }

    #[test]
    fn a_repository_set_up_well_has_nothing_to_do() {
        assert!(todos(&all_well()).is_empty(), "{:?}", todos(&all_well()));
    }

    #[test]
    fn actions_off_merges_refused_and_a_stranger_on_the_roster_are_todos() {
        let mut obs = all_well();
        obs.repo.has_actions = false;
        obs.repo.allow_merge_commits = Some(false);
        obs.accounts = vec![("ann".into(), Seen::Got(false))];
        let todos = todos(&obs);
        assert_eq!(todos.len(), 3, "{todos:?}");
        assert!(todos[0].contains("merge commits"));
        assert!(todos[1].contains("Actions is off"));
        assert!(todos[2].contains("`ann`"));
    }
}
