//! What a repository on GitHub needs before a group can play there, judged
//! from what `gitnomic doctor` saw of its settings. Each finding says what
//! to click or run; a setting the token could not read is a finding too
//! ("could not check X: the token needs Y"), never a crash. Pure: the
//! command reads the settings and creates the missing labels.

use std::fmt;

pub(crate) use crate::matter::labels::{LabelSpec, labels, missing_labels};

/// What GitHub said about one setting: its value, or why it would not say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seen<T> {
    Got(T),
    /// GitHub refused to show it (403, or 404 for what the token may not see).
    Refused {
        status: u16,
        /// GitHub's message.
        message: String,
    },
}

/// The repository's own settings (`GET /repos/{owner}/{repo}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoFacts {
    /// Whether Issues are on.
    pub has_issues: bool,
    /// Whether merge commits are allowed; GitHub shows it only to admins.
    pub allow_merge_commit: Option<bool>,
    pub default_branch: String,
    /// Whether the repository is private (Pages then needs a paid plan).
    pub private: bool,
}

/// Which actions the repository may run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionsFacts {
    /// Whether Actions is on at all.
    pub enabled: bool,
    /// `all`, `local_only` or `selected`.
    pub allowed: Option<String>,
}

/// A workflow GitHub knows: its path and state (`active`,
/// `disabled_fork`, `disabled_manually`, `disabled_inactivity`...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkflowFacts {
    /// `.github/workflows/check.yml`.
    pub path: String,
    pub state: String,
}

/// A roster login and whether it is an account that can vote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Account {
    /// A user (or a bot) account.
    User,
    /// An organization: it cannot comment.
    Organization,
    /// No such account.
    Missing,
}

/// Everything `doctor` looked at.
#[derive(Debug, Clone)]
pub(crate) struct Observations {
    /// The branch gitnomic was told is the default (`--base`).
    pub base: String,
    pub repo: RepoFacts,
    /// Actions on or off.
    pub actions: Seen<ActionsFacts>,
    /// The workflows GitHub knows.
    pub workflows: Seen<Vec<WorkflowFacts>>,
    /// The workflows the game needs (paths).
    pub wanted_workflows: Vec<String>,
    /// The default permissions of `GITHUB_TOKEN` (`read` or `write`).
    pub workflow_permissions: Seen<String>,
    /// The Pages site's `build_type` (`workflow`, `legacy`), `None` if
    /// there is none.
    pub pages: Seen<Option<String>>,
    /// The labels as found, and what became of each missing one.
    pub labels: Seen<Vec<LabelOutcome>>,
    /// The roster read from the default branch: (name, login), or why not.
    pub roster: Result<Vec<(String, String)>, RosterError>,
    /// What GitHub says of each roster login.
    pub accounts: Vec<(String, Seen<Account>)>,
    /// The resolve workflow on the default branch, if it is there: its
    /// schedule bills a private repository's minutes.
    pub resolve_workflow: Option<String>,
}

/// A label the game uses, as `doctor` left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LabelOutcome {
    /// It was there.
    Present(&'static str),
    /// It was missing and `doctor` created it.
    Created(LabelSpec),
    /// It is missing (a dry run, or creating it was refused: why).
    Missing(LabelSpec, Option<String>),
}

/// How a finding stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// All is well.
    Ok,
    /// Worth knowing; nothing must be done.
    Note,
    /// Something must be done before the game runs.
    Todo,
}

/// One thing `doctor` checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    /// How it stands.
    pub level: Level,
    /// What was checked and, unless all is well, what to click or run.
    pub text: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = match self.level {
            Level::Ok => "ok  ",
            Level::Note => "note",
            Level::Todo => "TODO",
        };
        write!(f, "{mark}  {}", self.text)
    }
}

pub(super) fn ok(text: impl Into<String>) -> Finding {
    Finding {
        level: Level::Ok,
        text: text.into(),
    }
}

pub(super) fn todo(text: impl Into<String>) -> Finding {
    Finding {
        level: Level::Todo,
        text: text.into(),
    }
}

pub(super) fn note(text: impl Into<String>) -> Finding {
    Finding {
        level: Level::Note,
        text: text.into(),
    }
}

/// "could not check X: GitHub answered N (message); the token needs Y".
fn unchecked(what: &str, status: u16, message: &str, needs: &str) -> Finding {
    todo(format!(
        "could not check {what}: GitHub answered {status} ({message}); the token needs {needs}"
    ))
}

/// Settings are under this page of the repository.
const SETTINGS: &str = "Settings";

/// The actions the workflows use (they need "all" or these selected).
const USED_ACTIONS: &str =
    "actions/checkout, actions/cache, actions/upload-pages-artifact, actions/deploy-pages";

/// Every finding, in the order an admin would work through them.
pub(crate) fn findings(obs: &Observations) -> Vec<Finding> {
    let mut out = vec![branch(obs), issues(&obs.repo), merges(&obs.repo)];
    out.push(actions(&obs.actions));
    out.extend(workflows(&obs.workflows, &obs.wanted_workflows));
    out.push(permissions(&obs.workflow_permissions));
    out.push(pages(&obs.pages, obs.repo.private));
    out.extend(minutes(obs));
    out.extend(labels_found(&obs.labels));
    out.extend(roster(obs));
    out
}

fn branch(obs: &Observations) -> Finding {
    if obs.repo.default_branch == obs.base {
        ok(format!("the default branch is `{}`", obs.base))
    } else {
        todo(format!(
            "the default branch is `{}`, not `{}`: run doctor with --base {0}, and name it in \
             the workflows' `branches: [...]` (or {SETTINGS} → General → Default branch)",
            obs.repo.default_branch, obs.base
        ))
    }
}

/// What the resolve workflow's schedule bills: nothing on a public
/// repository; on a private one, a minute a run at least, against the
/// Free plan's minutes.
fn minutes(obs: &Observations) -> Option<Finding> {
    use super::schedule::{FREE_MINUTES_A_MONTH, idle_minutes_a_month};
    let text = obs.resolve_workflow.as_deref()?;
    let Some((runs, month)) = idle_minutes_a_month(text) else {
        return Some(note(
            "the schedule of .github/workflows/resolve.yml does not read as cron lines gitnomic \
             knows, so what it bills was not counted",
        ));
    };
    if !obs.repo.private {
        return Some(ok(format!(
            "the repository is public: Actions minutes are free (the schedule runs {runs} times a day)"
        )));
    }
    let said = format!(
        "the repository is private: the schedule of .github/workflows/resolve.yml alone runs \
         {runs} times a day, about {month} billed minutes a month, and each vote adds 2"
    );
    Some(if month > FREE_MINUTES_A_MONTH {
        todo(format!(
            "{said}, more than the Free plan's {FREE_MINUTES_A_MONTH}: make its `cron:` less \
             frequent (hourly is about 720; docs/costs.md weighs the choice) or make the \
             repository public"
        ))
    } else {
        note(format!(
            "{said}, of the Free plan's {FREE_MINUTES_A_MONTH} (docs/costs.md)"
        ))
    })
}

fn issues(repo: &RepoFacts) -> Finding {
    if repo.has_issues {
        ok("Issues are on")
    } else {
        todo(format!(
            "Issues are off (forks start so): CfJs, DoVs and actions are issues. \
             {SETTINGS} → General → Features → tick Issues"
        ))
    }
}

fn merges(repo: &RepoFacts) -> Finding {
    match repo.allow_merge_commit {
        Some(true) => ok("merge commits are allowed"),
        Some(false) => todo(format!(
            "merge commits are not allowed, so GitHub refuses every merge the resolver makes \
             (405): {SETTINGS} → General → Pull Requests → tick \"Allow merge commits\""
        )),
        None => todo(
            "could not check whether merge commits are allowed: GitHub shows it only to a \
             token with admin rights on the repository (fine-grained: Administration read; \
             classic: repo)",
        ),
    }
}

fn actions(seen: &Seen<ActionsFacts>) -> Finding {
    let needs = "admin rights (fine-grained: Administration read; classic: repo)";
    match seen {
        Seen::Refused { status, message } => unchecked("Actions", *status, message, needs),
        Seen::Got(a) if !a.enabled => todo(format!(
            "Actions is off: {SETTINGS} → Actions → General → Actions permissions → \
             \"Allow all actions and reusable workflows\""
        )),
        Seen::Got(a) => match a.allowed.as_deref() {
            Some("local_only") => todo(format!(
                "Actions may run only this repository's own actions, but the workflows use \
                 {USED_ACTIONS}: {SETTINGS} → Actions → General → \"Allow all actions and \
                 reusable workflows\" (or allow those)"
            )),
            Some("selected") => note(format!(
                "Actions is on for selected actions only: make sure {USED_ACTIONS} are among \
                 them ({SETTINGS} → Actions → General)"
            )),
            _ => ok("Actions is on"),
        },
    }
}

fn workflows(seen: &Seen<Vec<WorkflowFacts>>, wanted: &[String]) -> Vec<Finding> {
    let known = match seen {
        Seen::Refused { status, message } => {
            return vec![unchecked(
                "the workflows",
                *status,
                message,
                "Actions read (classic: repo)",
            )];
        }
        Seen::Got(known) => known,
    };
    let state = |path: &String| {
        known
            .iter()
            .find(|w| &w.path == path)
            .map(|w| w.state.as_str())
    };
    let with = |wanted_state: Option<&str>| -> Vec<&str> {
        wanted
            .iter()
            .filter(|p| state(p) == wanted_state)
            .map(String::as_str)
            .collect()
    };
    let mut out = Vec::new();
    let active = with(Some("active"));
    if !active.is_empty() {
        out.push(ok(format!("{} active", the_workflows(&active))));
    }
    let forked = with(Some("disabled_fork"));
    if !forked.is_empty() {
        out.push(todo(format!(
            "{} off, as GitHub leaves a fork's workflows: open the Actions tab and click \
             \"I understand my workflows, go ahead and enable them\"",
            the_workflows(&forked)
        )));
    }
    for path in wanted {
        if let Some(other) = state(path).filter(|s| !matches!(*s, "active" | "disabled_fork")) {
            out.push(todo(format!(
                "the workflow {path} is {}: Actions tab → the workflow → \"...\" → Enable workflow",
                other.replace('_', " ")
            )));
        }
    }
    let missing = with(None);
    if !missing.is_empty() {
        out.push(todo(format!(
            "GitHub knows no workflow {}: push the game's .github/workflows/ to the default \
             branch (`gitnomic new` writes them)",
            missing.join(", ")
        )));
    }
    out
}

/// "the workflow a is" or "the workflows a, b are".
fn the_workflows(paths: &[&str]) -> String {
    match paths {
        [one] => format!("the workflow {one} is"),
        many => format!("the workflows {} are", many.join(", ")),
    }
}

fn permissions(seen: &Seen<String>) -> Finding {
    match seen {
        Seen::Refused { status, message } => unchecked(
            "the workflows' default permissions",
            *status,
            message,
            "admin rights (fine-grained: Administration read; classic: repo)",
        ),
        Seen::Got(p) if p == "read" => ok("workflows get a read-only token by default"),
        Seen::Got(_) => todo(format!(
            "workflows get a token that may write everything by default; each of the game's \
             workflows asks for what it needs: {SETTINGS} → Actions → General → Workflow \
             permissions → \"Read repository contents and packages permissions\""
        )),
    }
}

fn pages(seen: &Seen<Option<String>>, private: bool) -> Finding {
    let how = format!("{SETTINGS} → Pages → Build and deployment → Source: GitHub Actions");
    let plan = if private {
        " (Pages for a private repository needs a paid plan)"
    } else {
        ""
    };
    match seen {
        Seen::Refused { status, message } => {
            unchecked("Pages", *status, message, "Pages read (classic: repo)")
        }
        Seen::Got(Some(t)) if t == "workflow" => ok("Pages is published by GitHub Actions"),
        Seen::Got(Some(_)) => todo(format!(
            "Pages is published from a branch, so the site the resolve workflow builds is never \
             shown: {how}"
        )),
        Seen::Got(None) => todo(format!(
            "Pages is not set up, so the site is not published: {how}{plan}"
        )),
    }
}

pub(super) fn labels_found(seen: &Seen<Vec<LabelOutcome>>) -> Vec<Finding> {
    let outcomes = match seen {
        Seen::Refused { status, message } => {
            return vec![unchecked(
                "the labels",
                *status,
                message,
                "Issues read (classic: repo)",
            )];
        }
        Seen::Got(outcomes) => outcomes,
    };
    let present: Vec<&str> = outcomes
        .iter()
        .filter_map(|o| match o {
            LabelOutcome::Present(name) => Some(*name),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    if !present.is_empty() {
        out.push(ok(format!("the labels {} exist", present.join(", "))));
    }
    for outcome in outcomes {
        match outcome {
            LabelOutcome::Present(_) => {}
            LabelOutcome::Created(l) => out.push(ok(format!(
                "created the label `{}` (#{}: {})",
                l.name, l.color, l.description
            ))),
            LabelOutcome::Missing(l, None) => out.push(todo(format!(
                "the label `{}` is missing: run doctor without --dry-run to create it, or \
                 Issues → Labels → New label",
                l.name
            ))),
            LabelOutcome::Missing(l, Some(why)) => out.push(todo(format!(
                "the label `{}` is missing and could not be created ({why}): the token needs \
                 Issues write, or create it under Issues → Labels → New label",
                l.name
            ))),
        }
    }
    out
}

fn roster(obs: &Observations) -> Vec<Finding> {
    let players = match &obs.roster {
        Err(why) => return vec![todo(why.to_string())],
        Ok(players) => players,
    };
    let mut out = Vec::new();
    let mut fine = Vec::new();
    for (name, login) in players {
        let seen = obs
            .accounts
            .iter()
            .find(|(l, _)| l == login)
            .map(|(_, s)| s);
        match seen {
            Some(Seen::Got(Account::User)) => fine.push(login.as_str()),
            Some(Seen::Got(Account::Organization)) => out.push(todo(format!(
                "{name}'s login `{login}` in state/roster.toml is an organization, which cannot \
                 vote: put the player's own account there"
            ))),
            Some(Seen::Got(Account::Missing)) => out.push(todo(format!(
                "{name}'s login `{login}` in state/roster.toml is no GitHub account: correct it \
                 (before the game starts, a commit by the admin; after, a proposal)"
            ))),
            Some(Seen::Refused { status, message }) => out.push(unchecked(
                &format!("{name}'s login `{login}`"),
                *status,
                message,
                "no more than a valid token",
            )),
            None => {}
        }
    }
    if !fine.is_empty() {
        out.insert(
            0,
            ok(format!(
                "the roster's logins are GitHub accounts: {}",
                fine.join(", ")
            )),
        );
    }
    out
}

/// Why doctor has no roster to check the forge's accounts against.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum RosterError {
    /// The default branch has no state/roster.toml.
    #[error("state/roster.toml is not on `{base}`: push the game there (`{new}` makes one)")]
    Absent {
        /// The default branch.
        base: String,
        /// The command that makes a game for this forge.
        new: String,
    },
    /// It is there but does not read.
    #[error("state/roster.toml: {0}")]
    Unreadable(toml::de::Error),
}

/// The `(name, login)` of every player in state/roster.toml's text.
pub(crate) fn roster_logins(text: &str) -> Result<Vec<(String, String)>, RosterError> {
    #[derive(serde::Deserialize)]
    struct Roster {
        #[serde(default)]
        players: Vec<Row>,
    }
    #[derive(serde::Deserialize)]
    struct Row {
        name: String,
        login: String,
    }
    // Not a source of the error: its message already holds the parser's.
    let roster: Roster = toml::from_str(text).map_err(RosterError::Unreadable)?;
    Ok(roster
        .players
        .into_iter()
        .map(|r| (r.name, r.login))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_roster_logins() {
        let text = "# x\n[[players]]\nname = \"Ada\"\nlogin = \"ada\"\nadmin = true\n";
        assert_eq!(
            roster_logins(text).unwrap(),
            [("Ada".to_string(), "ada".to_string())]
        );
        assert!(matches!(
            roster_logins("[[players]]\nname = 3\n"),
            Err(RosterError::Unreadable(_))
        ));
    }
}
