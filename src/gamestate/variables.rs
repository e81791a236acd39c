//! Actions by comment: `SET` and `ADD` commands (see [`super::commands`])
//! checked against the schema and applied to the gamestate. Pure.
//!
//! A command names a variable: a bare name is the commenter's own player
//! variable, or else a global; `Boris.springs` is another player's. Each
//! variable's `by` in state/schema.toml says who may change it: `own` (the
//! default for player variables: only that player), `any` (any active
//! player; the default for globals) or `admin`. Values are checked as any
//! value in state/ is (type, enum values, roster), and whole numbers go
//! through the declared bound policy: a value past a bound is clamped or
//! the command is illegal and changes nothing. Idle players neither act
//! nor are acted on.

use super::commands::{Command, Target, Value, Verb};
use super::edit::EditError;
use super::refusal::Refusal;
use super::schema::{VarDecl, VarType, Who};
use super::set_value::{SetValue, VARIABLES_FILE, apply_chain, edit_value};
use super::{GameState, Player};
use crate::time::Timestamp;

/// Carries out `command` by `actor` on `state`, with `rolled` the total
/// of its dice (if it has any). On success `state` holds the new value.
pub fn apply(
    state: &mut GameState,
    actor: &Player,
    command: &Command,
    rolled: Option<i64>,
    at: Timestamp,
) -> Result<SetValue, Refusal> {
    if super::collections::is_collection_command(state, command) {
        return super::collections::apply(state, actor, command, rolled, at);
    }
    let (table, key, decl) = resolve(state, actor, &command.target)?;
    if let [_, player] = table.as_slice() {
        if state.player(player).is_some_and(|p| p.is_idle_at(at)) {
            return Err(Refusal::Idle {
                player: player.clone(),
                players: state.terms.players.clone(),
            });
        }
    }
    let current = match table.as_slice() {
        [g] if g == "globals" => state.globals.get(&key).cloned(),
        [_, player] => state.values.get(player).and_then(|v| v.get(&key).cloned()),
        _ => None,
    }
    .unwrap_or_else(|| decl.default_value());
    let given = match (&command.value, rolled) {
        (Value::Int(n), _) => toml::Value::Integer(*n),
        (Value::Dice { negative, .. }, Some(total)) => {
            toml::Value::Integer(if *negative { -total } else { total })
        }
        (Value::Dice { .. }, None) => return Err(Refusal::NotRolled),
        (Value::Bool(b), _) => toml::Value::Boolean(*b),
        (Value::Text(t), _) => toml::Value::String(t.clone()),
        (Value::Item { .. }, _) => return Err(Refusal::NotACollection(key)),
    };
    let to = match (decl.ty, command.verb, &given, &current) {
        (VarType::Int, verb, toml::Value::Integer(n), toml::Value::Integer(now)) => {
            let delta = match verb {
                Verb::Add => *n,
                Verb::Set | Verb::Remove => n.saturating_sub(*now),
            };
            toml::Value::Integer(decl.apply(*now, delta)?)
        }
        (_, Verb::Add, _, _) => {
            return Err(Refusal::NotANumber {
                name: key,
                ty: decl.ty,
            });
        }
        (_, Verb::Set | Verb::Remove, value, _) => {
            let is_player = |name: &str| state.player(name).is_some();
            if let Some(problem) = decl.check(value, &is_player) {
                return Err(Refusal::BadValue {
                    name: key,
                    value: value.to_string(),
                    problem,
                });
            }
            value.clone()
        }
    };
    match table.as_slice() {
        [g] if g == "globals" => {
            state.globals.insert(key.clone(), to.clone());
        }
        [_, player] => {
            state
                .values
                .entry(player.clone())
                .or_default()
                .insert(key.clone(), to.clone());
        }
        _ => {}
    }
    Ok(SetValue {
        table,
        key,
        from: current,
        to,
    })
}

/// The table, key and declaration a command names, if `actor` may change it.
fn resolve(
    state: &GameState,
    actor: &Player,
    target: &Target,
) -> Result<(Vec<String>, String, VarDecl), Refusal> {
    let schema = &state.schema;
    let (row, name) = match target {
        Target::Bare(name) if schema.players.contains_key(name) => {
            (Some(actor.name.clone()), name.clone())
        }
        Target::Bare(name) | Target::Global(name) => (None, name.clone()),
        Target::Row { player, name } => (Some(player.clone()), name.clone()),
        Target::Field { .. } => return Err(Refusal::Misdirected("variable")),
    };
    let Some(player) = row else {
        let decl = schema
            .globals
            .get(&name)
            .ok_or_else(|| unknown(state, &name))?;
        if decl.by == Some(Who::Admin) && !actor.admin {
            return Err(Refusal::AdminOnly(format!("globals.{name}")));
        }
        return Ok((vec!["globals".into()], name, decl.clone()));
    };
    let decl = schema
        .players
        .get(&name)
        .ok_or_else(|| unknown(state, &name))?;
    let target = state.player(&player).ok_or_else(|| Refusal::NotOnRoster {
        name: player.clone(),
        player: state.terms.player.clone(),
    })?;
    let allowed = match decl.by.unwrap_or_default() {
        Who::Own => target.name == actor.name,
        Who::Any => true,
        Who::Admin => actor.admin,
    };
    if !allowed {
        return Err(Refusal::NotTheirs {
            actor: actor.name.clone(),
            name,
            owner: target.name.clone(),
        });
    }
    Ok((
        vec!["players".into(), target.name.clone()],
        name,
        decl.clone(),
    ))
}

/// Every value `after` holds that `before` does not, as the sets that
/// would make one into the other: each player's variables and the
/// globals (defaults filled in, so a value written out at its default is
/// no change), then each collection's items, whole items added or removed
/// and fields changed. What an action pull request changes.
pub fn changes(before: &GameState, after: &GameState) -> Vec<SetValue> {
    let mut out = Vec::new();
    let mut table =
        |table: Vec<String>,
         old: Option<&std::collections::BTreeMap<String, toml::Value>>,
         new: Option<&std::collections::BTreeMap<String, toml::Value>>| {
            let empty = std::collections::BTreeMap::new();
            let (old, new) = (old.unwrap_or(&empty), new.unwrap_or(&empty));
            let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
            for key in keys {
                let (from, to) = (old.get(key), new.get(key));
                if from != to {
                    let none = || toml::Value::Table(toml::Table::new());
                    out.push(SetValue {
                        table: table.clone(),
                        key: key.clone(),
                        from: from.cloned().unwrap_or_else(none),
                        to: to.cloned().unwrap_or_else(none),
                    });
                }
            }
        };
    table(
        vec!["globals".into()],
        Some(&before.globals),
        Some(&after.globals),
    );
    let players: std::collections::BTreeSet<&String> =
        before.values.keys().chain(after.values.keys()).collect();
    for player in players {
        table(
            vec!["players".into(), player.clone()],
            before.values.get(player),
            after.values.get(player),
        );
    }
    out.extend(super::collections::changes(before, after));
    out
}

/// Whether `actor` may make `set` by each value's `by` in the schema of
/// `state`: `own` (a player's own variables, the items whose player
/// fields name them), `any`, or `admin`. The permissions of an action by
/// comment, for an action pull request's changes.
pub fn permitted(state: &GameState, actor: &Player, set: &SetValue) -> Result<(), Refusal> {
    if set.is_collection() {
        return super::collections::permitted(state, actor, set);
    }
    let target = match set.table.as_slice() {
        [g] if g == "globals" => Target::Global(set.key.clone()),
        [_, player] => Target::Row {
            player: player.clone(),
            name: set.key.clone(),
        },
        _ => return Err(Refusal::Misdirected("variable")),
    };
    resolve(state, actor, &target).map(|_| ())
}

fn unknown(state: &GameState, name: &str) -> Refusal {
    let list = |m: &std::collections::BTreeMap<String, VarDecl>| {
        m.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
    };
    Refusal::UnknownVariable {
        name: name.to_owned(),
        players: list(&state.schema.players),
        globals: list(&state.schema.globals),
    }
}

/// `text` (state/variables.toml) with `sets` made, everything else kept
/// byte for byte. Sets already made (a run killed after committing them,
/// finished by the next) are not made again (see `apply_chain`); a value
/// that is neither what a set found nor what it made was changed by
/// something else since, and is an error rather than overwritten.
pub fn apply_sets(text: &str, sets: &[SetValue]) -> Result<String, EditError> {
    let mine: Vec<SetValue> = sets
        .iter()
        .filter(|s| !s.is_collection())
        .cloned()
        .collect();
    apply_chain(text, &mine, &set_variable)
}

/// One variable set, strictly (see [`apply_chain`]).
fn set_variable(text: &str, set: &SetValue, absent_ok: bool) -> Result<String, EditError> {
    let parsed: toml::Table = toml::from_str(text).map_err(|e| EditError::Parse {
        path: VARIABLES_FILE.into(),
        message: e.to_string(),
    })?;
    let mut table = Some(&parsed);
    for name in &set.table {
        table = table
            .and_then(|t| t.get(name))
            .and_then(toml::Value::as_table);
    }
    let at = table.and_then(|t| t.get(&set.key));
    match at {
        Some(v) if *v == set.from => {}
        None if absent_ok => {}
        now => {
            return Err(set.moved(
                VARIABLES_FILE,
                format!("{}.{}", set.table.join("."), set.key),
                now,
            ));
        }
    }
    let mut doc = super::edit::StateDoc::parse(VARIABLES_FILE, text)?;
    let tables: Vec<&str> = set.table.iter().map(String::as_str).collect();
    doc.set(&tables, &set.key, edit_value(&set.to)?)?;
    Ok(doc.render())
}

/// `text`, the contents of `path` (one of [`super::set_value::files_of`]), with its part of
/// `sets` made.
pub fn apply_to(path: &str, text: &str, sets: &[SetValue]) -> Result<String, EditError> {
    if path == super::set_value::COLLECTIONS_FILE {
        super::collections::apply_sets(text, sets)
    } else {
        apply_sets(text, sets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamestate::commands::{self, Said};

    fn state() -> GameState {
        crate::gamestate::bundled_for_tests()
    }

    fn run(
        state: &mut GameState,
        who: &str,
        line: &str,
        rolled: Option<i64>,
    ) -> Result<String, Refusal> {
        let actor = state.player(who).unwrap().clone();
        let Said::Command(cmd) = &commands::read(line)[0] else {
            panic!("{line}")
        };
        apply(
            state,
            &actor,
            cmd,
            rolled,
            Timestamp::from_unix(1_900_000_000),
        )
        .map(|s| s.describe())
    }

    #[test]
    fn commands_follow_the_schema() {
        let mut s = state();
        assert_eq!(
            run(&mut s, "Boris", "SET springs 4", None).unwrap(),
            "players.Boris.springs: 3 → 4"
        );
        assert_eq!(
            run(&mut s, "Boris", "ADD springs 2", None).unwrap(),
            "players.Boris.springs: 4 → 6"
        );
        assert_eq!(
            run(&mut s, "Boris", "ADD springs DICE6", Some(9)).unwrap(),
            "players.Boris.springs: 6 → 10",
            "the cap clamps"
        );
        let illegal = run(&mut s, "Boris", "ADD cogs -9", None).unwrap_err();
        assert!(matches!(illegal, Refusal::Illegal(_)), "{illegal:?}");
        assert_eq!(illegal.to_string(), "illegal: -4 is below the minimum of 0");
        assert_eq!(
            run(&mut s, "Ada", "SET globals.round 2", None).unwrap(),
            "globals.round: 1 → 2"
        );
        assert_eq!(
            run(&mut s, "Ada", "SET round 3", None).unwrap(),
            "globals.round: 2 → 3"
        );
        let theirs = run(&mut s, "Ada", "SET Boris.springs 1", None).unwrap_err();
        assert!(matches!(&theirs, Refusal::NotTheirs { owner, .. } if owner == "Boris"));
        assert!(
            theirs
                .to_string()
                .contains("only their own `springs`, not Boris's")
        );
        let unknown = run(&mut s, "Ada", "SET gears 1", None).unwrap_err();
        assert!(matches!(&unknown, Refusal::UnknownVariable { name, .. } if name == "gears"));
        assert!(unknown.to_string().contains("there is no variable `gears`"));
        let bad = run(&mut s, "Ada", "SET springs lots", None).unwrap_err();
        assert!(matches!(bad, Refusal::BadValue { .. }), "{bad:?}");
        assert!(bad.to_string().contains("expected a whole number"));
        let stranger = run(&mut s, "Ada", "SET Zed.springs 1", None).unwrap_err();
        assert!(matches!(&stranger, Refusal::NotOnRoster { name, .. } if name == "Zed"));
        assert!(
            stranger
                .to_string()
                .contains("not a Tinkerer on the roster")
        );
    }

    #[test]
    fn sets_are_idempotent_and_refuse_a_moved_value() {
        let text = "[globals]\nround = 1 # now\n\n[players.Ada]\nsprings = 4\n";
        let sets = vec![
            SetValue {
                table: vec!["globals".into()],
                key: "round".into(),
                from: toml::Value::Integer(1),
                to: toml::Value::Integer(2),
            },
            SetValue {
                table: vec!["players".into(), "Cleo".into()],
                key: "springs".into(),
                from: toml::Value::Integer(3),
                to: toml::Value::Integer(5),
            },
        ];
        let once = apply_sets(text, &sets).unwrap();
        assert!(
            once.contains("round = 2 # now") && once.contains("[players.Cleo]\nsprings = 5"),
            "{once}"
        );
        assert_eq!(apply_sets(&once, &sets).unwrap(), once, "twice is once");
        let mut chain = sets.clone();
        chain.push(SetValue {
            from: toml::Value::Integer(2),
            to: toml::Value::Integer(3),
            ..sets[0].clone()
        });
        let thrice = apply_sets(text, &chain).unwrap();
        assert!(thrice.contains("round = 3 # now"), "{thrice}");
        assert_eq!(
            apply_sets(&thrice, &chain).unwrap(),
            thrice,
            "a chain twice is once"
        );
        assert_eq!(
            apply_sets(&once, &chain).unwrap(),
            thrice,
            "a first part made, the rest is made"
        );
        let moved = once.replace("round = 2", "round = 7");
        let refused = apply_sets(&moved, &sets).unwrap_err();
        assert!(matches!(&refused, EditError::Moved { now, .. } if now == "7"));
        assert!(
            refused
                .to_string()
                .contains("state/variables.toml: globals.round is now 7, neither 1 nor 2"),
            "{refused}"
        );
    }
}
