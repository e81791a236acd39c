//! Actions by comment: on an action matter that is an issue, the `SET`
//! and `ADD` commands of comments the resolver has not yet handled are
//! carried out in comment order, as one commit to state/variables.toml,
//! and each is answered in the status comment (see
//! [`crate::gamestate::variables`]).
//!
//! The run follows the same announce-then-act protocol as everything
//! else: the status first records which comments were handled and which
//! values are being set (`acting` in the journal), then the commit, then
//! the status without `acting`. A run killed after the announcement is
//! finished by the next, which sets the same values again — a no-op for
//! those already set — and never reads a handled comment twice.

use super::dice::Dice;
use super::dovs::Dovs;
use super::effect::Effect;
use super::ground::Ground;
use super::written::{Says, Written};
use super::{Fate, PlanError, Ruling};
use crate::engine::Params;
use crate::engine::limits::in_downtime;
use crate::game::Game;
use crate::gamestate::collections;
use crate::gamestate::commands::{self, Command, Said, Value, Verb};
use crate::gamestate::refusal::Refusal;
use crate::gamestate::set_value::SetValue;
use crate::gamestate::variables;
use crate::gamestate::{GameState, Phase};
use crate::matter::collected::Collected;
use crate::matter::journal::Journal;
use crate::matter::{ForgeComment, MatterNumber};
use crate::record::rolls::RollLog;

/// How the status comment of an action issue begins.
const HOW: &str = "Comment with commands, one per line: `SET springs 3`, `ADD cogs -2`, `SET globals.round 2`, `ADD springs DICE6` (a roll); for a collection, `ADD gadgets key-2 name=\"Winding Key\"`, `SET gadgets.key-2.cogs 3`, `REMOVE gadgets key-2`. The resolver carries them out in comment order, each once, checked against state/schema.toml.";

/// A command carried out.
struct Acted {
    /// The value it set.
    set: SetValue,
    /// What it rolled, as the answer says it (`, rolled 1d6 = 4`), or empty.
    rolled: String,
    /// Why it set less than asked for (see [`stopped_at_bound`]), or empty.
    stopped: String,
}

/// Why a command was not carried out: its answer in the status comment
/// says so after `not done: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NotDone {
    /// The game awaits the new emperor's Ascension Address.
    #[error(
        "the game awaits the new {emperor}'s Ascension Address, and takes no actions until then"
    )]
    AwaitingAddress {
        /// The game's word for its emperor.
        emperor: String,
    },
    /// The game is in hiatus.
    #[error(
        "the game is in hiatus, when no dynastic action may be taken (comment again once it ends)"
    )]
    Hiatus,
    /// The comment's author is not on the roster.
    #[error("`{login}` is not a {player}")]
    NotAPlayer {
        /// The author's login.
        login: String,
        /// The game's word for a player.
        player: String,
    },
    /// The author was not an active player when they commented.
    #[error("{name} {} when the comment was made", if *idle { "was idle" } else { "had not joined yet" })]
    Inactive {
        /// The player's name.
        name: String,
        /// Idle then (else not joined yet).
        idle: bool,
    },
    /// Made in Seasonal Downtime.
    #[error("it was made during Seasonal Downtime, when no dynastic action may be taken")]
    Downtime,
    /// Made while a Declaration of Victory was pending.
    #[error(
        "it was made while a Declaration of Victory was pending, a hiatus in which no dynastic action may be taken"
    )]
    DovPending,
    /// A push since voided the comment.
    #[error("the comment predates a push that voided it")]
    Voided,
    /// Its dice were not drawn (the game has no seed).
    #[error("its dice could not be rolled (does state/game.toml have a seed?)")]
    Unrolled,
    /// The schema, the roster or a bound refused the value, as it says.
    #[error("{0}")]
    Refused(Refusal),
}

/// Carries out the new commands on action issue `m`.
pub(super) fn act_on(
    ground: &mut Ground,
    dovs: &Dovs,
    dice: &Dice,
    out: &mut Written,
    m: &Collected,
) -> Result<(), PlanError> {
    let n = m.info.number;
    let mut journal = m.journal.clone();
    let mut acting = Acting::replay(&mut journal, ground.state()?.clone());
    let blocked = blocked(&acting.state);
    let world = World {
        params: ground.prospect.game.params.as_ref(),
        dovs,
        log: dice.log(n),
        blocked: blocked.as_ref(),
    };
    for c in m.comments.values() {
        if journal.handled(c.id) {
            continue;
        }
        let answers = acting.answer(&world, m, c);
        journal.acted.insert(c.id, answers);
    }
    let done: Vec<&String> = journal.acted.values().flatten().collect();
    let mut text = format!("### Action #{n}: open for actions\n\n{HOW}");
    if !done.is_empty() {
        let list: Vec<String> = done.iter().map(|a| format!("- {a}")).collect();
        text.push_str(&format!("\n\n#### Done\n\n{}", list.join("\n")));
    }
    let Acting { sets, lines, .. } = acting;
    if !sets.is_empty() {
        set_prospect(ground, n, &sets)?;
        journal.acting.clone_from(&sets);
        journal.acting_lines.clone_from(&lines);
        out.status(n, journal.clone(), Says::Text(text.clone()));
        let message = format!(
            "Action #{n}: {} by comment\n\n{}",
            m.info.subject_title(),
            lines.join("\n")
        );
        out.step(n, Effect::State { sets, message });
        journal.acting.clear();
        journal.acting_lines.clear();
    }
    out.status_unless_posted(n, journal, Says::Text(text));
    out.line(&m.info, m.kind, Ruling::Merge, Fate::Pending);
    Ok(())
}

/// What a command is judged against besides the state.
struct World<'w> {
    /// The rules' parameters (for the downtime).
    params: Option<&'w Params>,
    /// When Declarations of Victory were pending (a hiatus).
    dovs: &'w Dovs,
    /// The matter's dice log.
    log: Option<&'w RollLog>,
    /// Why no action may be taken now, if none may.
    blocked: Option<&'w NotDone>,
}

/// The commands of one action issue, carried out on its state in turn.
struct Acting {
    /// The state as the commands so far leave it.
    state: GameState,
    /// The values set, in order.
    sets: Vec<SetValue>,
    /// Each value set in words, as the commit's message lists them.
    lines: Vec<String>,
}

impl Acting {
    /// Takes what an earlier run announced from `journal` and sets it
    /// again on `state`.
    fn replay(journal: &mut Journal, mut state: GameState) -> Acting {
        let replay = std::mem::take(&mut journal.acting);
        let replay_lines = std::mem::take(&mut journal.acting_lines);
        for set in &replay {
            put(&mut state, set);
        }
        // The words the announcing run would have committed them with (a
        // journal written before they were kept says only that much).
        let lines: Vec<String> = if replay_lines.len() == replay.len() {
            replay_lines
        } else {
            replay
                .iter()
                .map(|s| format!("{} (finishing an earlier run)", s.describe()))
                .collect()
        };
        Acting {
            state,
            sets: replay,
            lines,
        }
    }

    /// Carries out the commands of comment `c` on `m`: the answers.
    fn answer(&mut self, world: &World<'_>, m: &Collected, c: &ForgeComment) -> Vec<String> {
        let mut answers = Vec::new();
        for said in commands::read(&c.body) {
            let answer = match said {
                Said::Command(cmd) => match act(&mut self.state, world, m, c, &cmd) {
                    Ok(Acted {
                        set,
                        rolled,
                        stopped,
                    }) => {
                        let (by, id) = (&c.author, c.id);
                        let line = format!("{} by @{by}, comment {id}{rolled}", set.describe());
                        self.lines.push(line);
                        let answer = format!("`{}`{rolled}: {}{stopped}", cmd.line, set.describe());
                        self.sets.push(set);
                        answer
                    }
                    Err(why) => format!("`{}`: not done: {why}", cmd.line),
                },
                Said::Bad {
                    line,
                    why,
                    roll: false,
                } => {
                    format!("`{line}`: not a command: {why}")
                }
                _ => continue,
            };
            answers.push(format!("comment {} by @{}: {answer}", c.id, c.author));
        }
        answers
    }
}

/// One command of comment `c`: the value set, and what was rolled.
fn act(
    state: &mut GameState,
    world: &World<'_>,
    m: &Collected,
    c: &ForgeComment,
    cmd: &Command,
) -> Result<Acted, NotDone> {
    if let Some(why) = world.blocked {
        return Err(why.clone());
    }
    let actor = state
        .player_by_login(&c.author.0)
        .cloned()
        .ok_or_else(|| NotDone::NotAPlayer {
            login: c.author.0.clone(),
            player: state.terms.player.clone(),
        })?;
    if !actor.is_active_at(c.created) {
        return Err(NotDone::Inactive {
            name: actor.name.clone(),
            idle: actor.is_idle_at(c.created),
        });
    }
    if world.params.is_some_and(|p| in_downtime(p, c.created)) {
        return Err(NotDone::Downtime);
    }
    if world.dovs.pending_at(c.created) {
        return Err(NotDone::DovPending);
    }
    if m.voided.iter().any(|v| v.id == c.id) {
        return Err(NotDone::Voided);
    }
    let (rolled, note) = match &cmd.value {
        Value::Dice { roll, .. } => {
            let logged = (world.log)
                .and_then(|log| log.get(c.id, roll.index))
                .ok_or(NotDone::Unrolled)?;
            (
                Some(logged.total),
                format!(", rolled {} = {}", logged.dice, logged.total),
            )
        }
        _ => (None, String::new()),
    };
    let set = variables::apply(state, &actor, cmd, rolled, c.created).map_err(NotDone::Refused)?;
    let stopped = stopped_at_bound(cmd, rolled, &set);
    Ok(Acted {
        set,
        rolled: note,
        stopped,
    })
}

/// Makes `sets` on the prospect, as the run will on the default branch.
fn set_prospect(ground: &mut Ground, n: MatterNumber, sets: &[SetValue]) -> Result<(), PlanError> {
    let tree = ground.prospect.tree.clone();
    let files = (ground.trial.files(&tree)).map_err(|why| PlanError::repository(n, why))?;
    let mut tree = tree;
    for path in crate::gamestate::set_value::files_of(sets) {
        let text = files
            .iter()
            .find(|f| f.path == path)
            .map(|f| f.text.clone())
            .unwrap_or_default();
        let edited = (variables::apply_to(path, &text, sets))
            .map_err(|why| PlanError::repository(n, why))?;
        tree = (ground.trial.write(&tree, path, &edited))
            .map_err(|why| PlanError::repository(n, why))?;
    }
    let files = (ground.trial.files(&tree)).map_err(|why| PlanError::repository(n, why))?;
    ground.prospect.adopt(tree, Game::check(&files));
    Ok(())
}

/// Puts a value set by an earlier run into `state`.
fn put(state: &mut GameState, set: &SetValue) {
    if set.is_collection() {
        collections::put(state, set);
        return;
    }
    match set.table.as_slice() {
        [g] if g == "globals" => {
            state.globals.insert(set.key.clone(), set.to.clone());
        }
        [_, player] => {
            state
                .values
                .entry(player.clone())
                .or_default()
                .insert(set.key.clone(), set.to.clone());
        }
        _ => {}
    }
}

/// `(asked for 99; it stops at its bound)` when a whole number was clamped
/// by its declared bound, so the player sees why they got less than they
/// asked for; empty otherwise.
fn stopped_at_bound(cmd: &Command, rolled: Option<i64>, set: &SetValue) -> String {
    let given = match (&cmd.value, rolled) {
        (Value::Int(n), _) => *n,
        (Value::Dice { negative, .. }, Some(total)) => {
            if *negative {
                -total
            } else {
                total
            }
        }
        _ => return String::new(),
    };
    let (Some(from), Some(to)) = (set.from.as_integer(), set.to.as_integer()) else {
        return String::new();
    };
    let asked = match cmd.verb {
        Verb::Add => from.saturating_add(given),
        Verb::Set | Verb::Remove => given,
    };
    if asked == to {
        String::new()
    } else {
        format!(" ({asked} asked for; it stops at its bound)")
    }
}

/// Why no action may be taken now, if none may.
fn blocked(state: &GameState) -> Option<NotDone> {
    match state.dynasty.phase {
        Phase::AwaitingAscension => Some(NotDone::AwaitingAddress {
            emperor: state.terms.emperor.clone(),
        }),
        Phase::Hiatus => Some(NotDone::Hiatus),
        Phase::Playing => None,
    }
}

#[cfg(test)]
mod tests {
    use super::NotDone;

    /// A command not carried out is answered `not done: ` and these words,
    /// the ones players read before the reasons were typed.
    #[test]
    fn a_command_not_done_says_why_in_the_words_players_read() {
        let said = [
            (
                NotDone::AwaitingAddress {
                    emperor: "Clockmaker".into(),
                },
                "the game awaits the new Clockmaker's Ascension Address, and takes no actions until then",
            ),
            (
                NotDone::Hiatus,
                "the game is in hiatus, when no dynastic action may be taken (comment again once it ends)",
            ),
            (
                NotDone::NotAPlayer {
                    login: "nobody-x".into(),
                    player: "Tinkerer".into(),
                },
                "`nobody-x` is not a Tinkerer",
            ),
            (
                NotDone::Inactive {
                    name: "Cleo".into(),
                    idle: true,
                },
                "Cleo was idle when the comment was made",
            ),
            (
                NotDone::Inactive {
                    name: "Dmitri".into(),
                    idle: false,
                },
                "Dmitri had not joined yet when the comment was made",
            ),
            (
                NotDone::Downtime,
                "it was made during Seasonal Downtime, when no dynastic action may be taken",
            ),
            (
                NotDone::DovPending,
                "it was made while a Declaration of Victory was pending, a hiatus in which no dynastic action may be taken",
            ),
            (
                NotDone::Voided,
                "the comment predates a push that voided it",
            ),
            (
                NotDone::Unrolled,
                "its dice could not be rolled (does state/game.toml have a seed?)",
            ),
            (
                NotDone::Refused(crate::gamestate::refusal::Refusal::NotOnRoster {
                    name: "Zed".into(),
                    player: "player".into(),
                }),
                "`Zed` is not a player on the roster",
            ),
        ];
        for (why, words) in said {
            assert_eq!(why.to_string(), words, "{why:?}");
        }
    }
}
