//! Whether a pull request may stand as the matter it claims to be. Pure.
//!
//! `gitnomic check --pr N` gathers the facts at the edge (who opened it,
//! what it touches, the game on the base branch and at the head) and this
//! module judges them. The base branch's rules judge the pull request,
//! never its own: a proposal cannot loosen the rules that admit it.

mod ascension;
mod posting;

pub use ascension::{KEEP, KeepError, address_template, ascension_problems, kept_rules};
pub use posting::{Ledger, Posting, Refusal, ascension_refusal, crowning};

use crate::game::Game;
use crate::matter::Kind;
use crate::ruleset::diff::RuleChange;

/// How long after it was opened a pull request may still become a
/// matter, or change kind (by leaving draft, its label or its title), if
/// nobody has commented on it yet: rule "Changes to Pending Proposals",
/// its `kind_window_minutes`.
pub fn kind_window(params: &crate::engine::Params) -> crate::time::Span {
    crate::time::Span::seconds(params.kind_window_minutes.max(0).saturating_mul(60))
}

/// The files an action may change: values, never declarations or the roster.
pub const ACTION_FILES: &[&str] = &["state/variables.toml", "state/collections.toml"];

/// What an Ascension Address may change: the new dynasty's rules and
/// gamestate, and the terms in state/game.toml.
const ASCENSION_DIRS: &[&str] = &["rules/dynastic/", "state/", "content/pages/", "themes/"];

/// What votable matters (proposals, CfJs, DoVs) may change.
const MATTER_DIRS: &[&str] = &["rules/", "state/", "content/pages/", "themes/"];

/// The facts about one matter, besides the game and the other matters
/// (which the [`Ledger`] holds).
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// Who posted what, when, and the paths it changes: the ledger judged
    /// it by these among the others.
    pub posting: Posting<'a>,
    /// Its description (an Ascension Address lists the rules it keeps).
    pub description: &'a str,
    /// The game at the pull request's head, when it is known.
    pub head: Option<&'a Game>,
    /// The game where the pull request forked from the default branch:
    /// what an action changes is the difference to its head.
    pub fork: Option<&'a Game>,
}

/// The judgement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judgement {
    /// Why it cannot stand as it is, in words for players.
    pub problems: Vec<String>,
    /// Whether it is not a valid matter at all (over a limit, in a hiatus,
    /// by a non-player, changing files its kind may not), as opposed to
    /// fixable by a push; such a matter is closed, with its reason.
    pub not_a_matter: bool,
}

impl Judgement {
    /// The reason it is no matter, if it is none: its problems in a line.
    pub fn not_a_matter(&self) -> Option<String> {
        self.not_a_matter.then(|| self.problems.join("; "))
    }
}

/// Judges a matter by the rules of the ledger's game (the default
/// branch's: a pull request never loosens the rules that admit it). One
/// judgement for every door: `check`, the resolver's plan for every
/// matter before it is counted, `play list` and the site.
pub fn judge(ledger: &Ledger<'_>, facts: &Facts<'_>) -> Judgement {
    let mut v = Judgement::default();
    let base = ledger.game();
    match ledger.verdict(&facts.posting) {
        Some(Refusal::NoKind) => {
            v.problems.push(no_kind(&facts.posting));
            return v;
        }
        Some(Refusal::NotAMatter(why)) => {
            v.problems.push(why);
            v.not_a_matter = true;
        }
        None => {}
    }
    let Some(kind) = facts.posting.kind else {
        return v;
    };
    for d in facts.head.into_iter().flat_map(|head| &head.problems) {
        v.problems.push(format!("its files have a problem: {d}"));
    }
    match (kind, facts.head) {
        (Kind::Ascension, Some(head)) => {
            v.problems
                .extend(ascension_problems(base, head, facts.description));
        }
        (Kind::Action, Some(head)) => {
            if let (Some(fork), Some(state)) = (facts.fork, &base.state) {
                v.problems
                    .extend(action_problems(state, fork, head, facts.posting.author));
            }
        }
        _ => {}
    }
    v
}

/// What the status of a post that names no kind says: that it is no
/// matter, why (a pull request that changes files no proposal may is no
/// proposal by default), and how to make it the matter its author meant.
fn no_kind(posting: &Posting<'_>) -> String {
    const HOW: &str =
        "label it Proposal, CfJ, DoV or Action (or start its title with one of them and a colon)";
    let outside: Vec<&str> = posting
        .changed
        .unwrap_or_default()
        .iter()
        .filter(|p| touches(Kind::Proposal, p).is_some())
        .map(String::as_str)
        .collect();
    match outside.as_slice() {
        [] => format!("it is no matter: {HOW}"),
        paths => format!(
            "it is no matter: it names no kind, and it changes {}, which no proposal may (only {}); to make it a matter, change only those and {HOW}",
            crate::text::one_line(&paths.join(", "), 200),
            MATTER_DIRS.join(", ")
        ),
    }
}

/// What the status of a pull request that is a proposal only by default
/// (it names no kind) says before its rule changes: how to make it
/// another kind if the author meant one.
pub const BY_DEFAULT: &str =
    "a Proposal, as it names no kind (title it “CfJ: …” or “Action: …” for another kind)";

/// Why the values an action pull request changes (from where it forked
/// to its head) may not be changed by its author, by each value's `by` in
/// state/schema.toml: the same permissions as an action by comment.
pub fn action_problems(
    state: &crate::gamestate::GameState,
    fork: &Game,
    head: &Game,
    author: &str,
) -> Vec<String> {
    let (Some(before), Some(after)) = (&fork.state, &head.state) else {
        return Vec::new();
    };
    let Some(actor) = state.player_by_login(author) else {
        return Vec::new();
    };
    crate::gamestate::variables::changes(before, after)
        .iter()
        .filter_map(|set| {
            crate::gamestate::variables::permitted(state, actor, set)
                .err()
                .map(|why| format!("{}: {why}", set.describe()))
        })
        .collect()
}

/// Why a matter of `kind` may not change `path`, if it may not.
pub fn touches(kind: Kind, path: &str) -> Option<String> {
    if path.starts_with(".github/") {
        return Some(format!(
            "it changes {path}: the workflows can only be changed by an admin, because the bot's token may not merge them"
        ));
    }
    let allowed = match kind {
        Kind::Action => ACTION_FILES.contains(&path),
        Kind::Ascension => {
            path != "state/roster.toml" && ASCENSION_DIRS.iter().any(|dir| path.starts_with(dir))
        }
        _ => MATTER_DIRS.iter().any(|dir| path.starts_with(dir)),
    };
    (!allowed).then(|| match kind {
        Kind::Action => format!(
            "it changes {path}, but an action may change only {}",
            ACTION_FILES.join(" and ")
        ),
        Kind::Ascension => format!(
            "it changes {path}, but an Ascension Address may change only {} (not the roster)",
            ASCENSION_DIRS.join(", ")
        ),
        _ => format!(
            "it changes {path}, but a {kind} may change only {}",
            MATTER_DIRS.join(", ")
        ),
    })
}

/// A one-line account of what the rules changes are, for reports.
pub fn describe_changes(changes: &[RuleChange]) -> String {
    if changes.is_empty() {
        "no rule changes".into()
    } else {
        changes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests;
