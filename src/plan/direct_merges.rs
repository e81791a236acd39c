//! What needs no vote: an action (an active player's change to variables
//! or collections) or the new emperor's Ascension Address is merged when it
//! checks against the game as it will be; the Address then begins the next
//! dynasty. They follow the same announce-then-act protocol as decided
//! matters, so a run killed half-way is finished by the next.

use super::TreeId;
use super::dice::Dice;
use super::dovs::Dovs;
use super::effect::{DynastyValue, Effect};
use super::ground::Ground;
use super::prospect::Attempt;
use super::written::{Says, Written};
use super::{Fate, PlanError, Ruling, comment_actions};
use crate::game::Game;
use crate::matter::collected::Collected;
use crate::matter::journal::{Journal, Resolution};
use crate::matter::labels::{MERGED, RESOLVING};
use crate::matter::{HeadSha, Kind, MatterInfo, MatterNumber};
use crate::record::Outcome;
use crate::time::Timestamp;

/// The next dynasty's edits, and its number.
type Begin = (Vec<(&'static str, DynastyValue)>, i64);

/// What a round of merges did.
pub(super) struct Merges<'m> {
    /// Its effects and lines.
    pub written: Written,
    /// Whether an Ascension Address began the next dynasty (what its
    /// hiatus froze is then decided again in this run).
    pub began: bool,
    /// What was not merged: said once the run has done everything else
    /// (see [`not_merged`]), so its status describes the game as the run
    /// leaves it.
    pub left: Vec<&'m Collected>,
}

/// Merges each of `unvoted` that checks, in order, and carries out the
/// commands on action issues.
pub(super) fn round<'m>(
    ground: &mut Ground,
    dovs: &mut Dovs,
    dice: &Dice,
    unvoted: Vec<&'m Collected>,
) -> Result<Merges<'m>, PlanError> {
    let mut merges = Merges {
        written: Written::default(),
        began: false,
        left: Vec::new(),
    };
    for m in unvoted {
        let out = &mut merges.written;
        let merged = match m.info.kind() {
            Some(Kind::Action) if m.info.head.is_none() => {
                comment_actions::act_on(ground, dovs, dice, out, m)?;
                true
            }
            Some(kind) => merge(ground, dovs, out, m, kind)?,
            None => true,
        };
        if merged {
            merges.began |= m.kind == Kind::Ascension;
        } else {
            merges.left.push(m);
        }
    }
    Ok(merges)
}

/// Merges an action or Ascension Address that checks. Returns `false`
/// for one that does not.
fn merge(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    m: &Collected,
    kind: Kind,
) -> Result<bool, PlanError> {
    let info = &m.info;
    let Some(head) = &info.head else {
        let why = format!("an {kind} must be a pull request");
        out.line(info, kind, Ruling::Merge, Fate::NotMerged(why));
        return Ok(true);
    };
    let mut problems = unvoted_problems(ground, info, kind, head)?;
    let adopt = match ground.attempt(info, kind)? {
        Some(Attempt::Clean(tree, game)) => Some((tree, *game)),
        Some(Attempt::NotAMatter(why) | Attempt::Refused(why)) => {
            problems.push(why);
            None
        }
        None => None,
    };
    let Some((tree, game)) = adopt.filter(|_| problems.is_empty()) else {
        return Ok(false);
    };
    let n = info.number;
    let begin = (kind == Kind::Ascension).then(|| begin_after(&ground.prospect.game, ground.now));
    let resolution = Resolution {
        outcome: Outcome::Enacted,
        at: ground.now,
        head: Some(head.clone()),
        reasons: Vec::new(),
        illegal: false,
    };
    // The journal as collected (the comments first seen, the heads),
    // so a run that finishes this one renders the same status.
    let mut journal = m.journal.clone();
    journal.resolution = Some(resolution);
    let text = format!("### {kind} #{n}: merging\n\nIt checks, so it is merged without a vote.");
    out.status(n, journal.clone(), Says::Text(text));
    out.resolving(n);
    let message = merge_message(ground, info, kind, head)?;
    ground.merge(out, n, head, message);
    ground.prospect.adopt(tree, game);
    merged_steps(ground, dovs, out, (n, kind), journal, begin)?;
    out.line(info, kind, Ruling::Merge, Fate::Merged);
    Ok(true)
}

/// Says why an action or Ascension Address is not merged, judged
/// against the game as the run leaves it.
pub(super) fn not_merged(
    ground: &mut Ground,
    out: &mut Written,
    m: &Collected,
) -> Result<(), PlanError> {
    let info = &m.info;
    let n = info.number;
    let (Some(kind), Some(head)) = (info.kind(), &info.head) else {
        return Ok(());
    };
    let mut problems = unvoted_problems(ground, info, kind, head)?;
    if let Some(Attempt::NotAMatter(why) | Attempt::Refused(why)) = ground.attempt(info, kind)? {
        problems.push(why);
    }
    if problems.is_empty() {
        problems.push("it checks now that this run is done; the next run merges it".into());
    }
    let text = format!("### {kind} #{n}: not merged\n\n{}", problems.join("\n"));
    out.status_unless_posted(n, m.journal.clone(), Says::Text(text));
    out.line(
        info,
        kind,
        Ruling::Merge,
        Fate::NotMerged(problems.join("; ")),
    );
    Ok(())
}

/// Finishes an action or Ascension Address an earlier run was merging.
pub(super) fn finish(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    m: &Collected,
    resolution: &Resolution,
) -> Result<(), PlanError> {
    let n = m.info.number;
    let begin = match (&m.info.merge_commit, m.kind) {
        (Some(merge), Kind::Ascension) => {
            let tree = (ground.trial.before(merge)).map_err(|why| PlanError::repository(n, why))?;
            Some(begin_after(ground.game_of(n, &tree)?, resolution.at))
        }
        (None, Kind::Ascension) => Some(begin_after(&ground.prospect.game, resolution.at)),
        _ => None,
    };
    if let (None, Some(head)) = (&m.info.merge_commit, &m.info.head) {
        let message = merge_message(ground, &m.info, m.kind, head)?;
        ground.merge(out, n, head, message);
    }
    merged_steps(ground, dovs, out, (n, m.kind), m.journal.clone(), begin)?;
    out.line(&m.info, m.kind, Ruling::Merge, Fate::Finished);
    Ok(())
}

/// What follows the merge of matter `n` of `kind`: the next dynasty (for
/// an Address), the final status, the labels.
fn merged_steps(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    (n, kind): (MatterNumber, Kind),
    journal: Journal,
    begin: Option<Begin>,
) -> Result<(), PlanError> {
    let why = match begin {
        Some((edits, number)) => {
            let message = format!("Dynasty {number} begins");
            out.step(n, Effect::Dynasty { edits: edits.clone(), message });
            ground.edit_dynasty(n, &edits)?;
            dovs.address_made();
            format!("It checked, so it was merged without a vote. Dynasty {number} begins; the hiatus is over.")
        }
        None => "It checked, so it was merged without a vote. Anyone may revert it if it broke the rules.".into(),
    };
    let text = format!("### {kind} #{n}: merged\n\n{why}");
    out.status(n, journal, Says::Text(text));
    // Last: taking `resolving` off says the matter is done.
    let done = Effect::Labels {
        add: vec![MERGED],
        remove: vec![RESOLVING],
    };
    out.step(n, done);
    Ok(())
}

/// Why an action or Address may not be merged, besides its files,
/// judged against the game as it will be: an action's author must be
/// an active player now (an action is taken when it is merged), outside
/// the downtime, and may change only the values the schema's `by`
/// lets them; an Address must list what it keeps.
fn unvoted_problems(
    ground: &mut Ground,
    info: &MatterInfo,
    kind: Kind,
    head: &HeadSha,
) -> Result<Vec<String>, PlanError> {
    let n = info.number;
    let tree = (ground.trial.tree_of(head)).map_err(|why| PlanError::repository(n, why))?;
    let head_game = ground.game_of(n, &tree)?.clone();
    let game = &ground.prospect.game;
    if kind == Kind::Ascension {
        let body = &info.body;
        return Ok(crate::matter::admission::ascension_problems(
            game, &head_game, body,
        ));
    }
    let state = ground.state()?.clone();
    let now = ground.now;
    let mut problems = match state.player_by_login(&info.author.0) {
        Some(p) if p.is_active_at(now) => Vec::new(),
        Some(p) if p.is_idle_at(now) => vec![format!("{} is idle", p.name)],
        Some(p) => vec![format!("{} has not joined yet", p.name)],
        None => vec![format!(
            "`{}` is not a {} on the roster",
            info.author, state.terms.player
        )],
    };
    let params = ground.prospect.game.params.as_ref();
    if params.is_some_and(|p| crate::engine::limits::in_downtime(p, now)) {
        problems.push(
            "it is Seasonal Downtime, when no dynastic action may be taken; it is merged once the downtime ends"
                .into(),
        );
    }
    let fork = fork_tree(ground, info, head)?;
    let fork = ground.game_of(info.number, &fork)?.clone();
    problems.extend(crate::matter::admission::action_problems(
        &state,
        &fork,
        &head_game,
        &info.author.0,
    ));
    Ok(problems)
}

/// The tree where pull request `info` forked from the default branch.
fn fork_tree(ground: &mut Ground, info: &MatterInfo, head: &HeadSha) -> Result<TreeId, PlanError> {
    (ground.trial.fork_of(head)).map_err(|why| PlanError::repository(info.number, why))
}

/// The merge commit's message for an action or Address.
fn merge_message(
    ground: &mut Ground,
    info: &MatterInfo,
    kind: Kind,
    head: &HeadSha,
) -> Result<String, PlanError> {
    match kind {
        Kind::Action => action_message(ground, info, head),
        _ => Ok(format!("{kind} #{}: {}", info.number, info.subject_title())),
    }
}

/// The merge commit's message for an action pull request: each value
/// it changes, credited to its author, as the log reads them (see
/// [`crate::record::changelog`]).
fn action_message(
    ground: &mut Ground,
    info: &MatterInfo,
    head: &HeadSha,
) -> Result<String, PlanError> {
    let n = info.number;
    let mut message = format!("{} #{n}: {}", Kind::Action, info.subject_title());
    let tree = (ground.trial.tree_of(head)).map_err(|why| PlanError::repository(n, why))?;
    let after = ground.game_of(n, &tree)?.state.clone();
    // Only the fork's state: not a copy of its whole game.
    let fork = fork_tree(ground, info, head)?;
    let before = ground.game_of(n, &fork)?.state.clone();
    if let (Some(before), Some(after)) = (before, after) {
        let lines: Vec<String> = crate::gamestate::variables::changes(&before, &after)
            .iter()
            .map(|set| format!("{} by @{}", set.describe(), info.author))
            .collect();
        if !lines.is_empty() {
            message.push_str("\n\n");
            message.push_str(&lines.join("\n"));
        }
    }
    Ok(message)
}

/// The next dynasty after the one of `game`, beginning at `at`: its number,
/// the phase, when it started.
fn begin_after(game: &Game, at: Timestamp) -> Begin {
    let number = game
        .state
        .as_ref()
        .map_or(1, |s| i64::from(s.dynasty.number) + 1);
    let edits = vec![
        ("number", DynastyValue::Number(number)),
        ("phase", DynastyValue::Text("playing".into())),
        ("started", DynastyValue::Time(at)),
    ];
    (edits, number)
}
