//! Actions on collections by comment: `ADD gadgets key-2 name="Winding
//! Key"` adds an item, `REMOVE gadgets key-2` takes one away, and
//! `SET gadgets.key-2.cogs 2` (or `ADD`) changes one field. Pure.
//!
//! Fields are checked against the collection's declaration as any value
//! in state/collections.toml is; a player-typed field not given names the
//! commenter. A collection's `by` in state/schema.toml says who may act on
//! it: `own` (the default) lets a player add, change and remove only items
//! whose player fields name them (anyone, if it has no player field),
//! `any` any active player, `admin` admins only.
//!
//! A change is a [`SetValue`] like a variable's, so it is carried out and
//! replayed the same way: `table` is `["collections", NAME]` and `key` the
//! item's id for a whole item (an empty table stands for "no item"), or
//! `["collections", NAME, ID]` and the field.

use std::collections::BTreeMap;

use super::commands::{Command, Target, Value, Verb};
use super::edit::EditError;
use super::refusal::Refusal;
use super::schema::Who;
use super::schema::{CollectionDecl, VarType};
use super::set_value::{COLLECTIONS, COLLECTIONS_FILE, SetValue, apply_chain, edit_value};
use super::{GameState, Item, Player};
use crate::time::Timestamp;

/// Whether `command` acts on a collection of `state` (and so is this
/// module's to carry out).
pub fn is_collection_command(state: &GameState, command: &Command) -> bool {
    match &command.target {
        Target::Field { .. } => true,
        Target::Bare(name) => {
            command.verb == Verb::Remove
                || (state.schema.collections.contains_key(name)
                    && !state.schema.players.contains_key(name)
                    && !state.schema.globals.contains_key(name))
        }
        _ => false,
    }
}

/// Carries out a collection command by `actor`, with `rolled` the total of
/// its dice; on success `state` holds the change.
pub fn apply(
    state: &mut GameState,
    actor: &Player,
    command: &Command,
    rolled: Option<i64>,
    at: Timestamp,
) -> Result<SetValue, Refusal> {
    // Idle players are not acted on: nor are their items.
    let idle: Vec<String> = state
        .players
        .iter()
        .filter(|p| p.is_idle_at(at))
        .map(|p| p.name.clone())
        .collect();
    let actor = &Acting { actor, idle: &idle };
    match (&command.target, command.verb, &command.value) {
        (Target::Bare(name), Verb::Add, Value::Item { id, fields }) => {
            add(state, actor, name, id, fields)
        }
        (Target::Bare(name), Verb::Remove, Value::Text(id)) => remove(state, actor, name, id),
        (
            Target::Field {
                collection,
                id,
                field,
            },
            verb,
            value,
        ) => set_field(state, actor, (collection, id, field), verb, value, rolled),
        (Target::Bare(name), _, _) if state.schema.collections.contains_key(name) => {
            Err(Refusal::IsACollection(name.clone()))
        }
        (Target::Bare(name), _, _) => Err(Refusal::UnknownCollection {
            name: name.clone(),
            known: None,
        }),
        _ => Err(Refusal::Misdirected("collection command")),
    }
}

fn decl<'s>(state: &'s GameState, name: &str) -> Result<&'s CollectionDecl, Refusal> {
    state.schema.collections.get(name).ok_or_else(|| {
        let known: Vec<&str> = state
            .schema
            .collections
            .keys()
            .map(String::as_str)
            .collect();
        Refusal::UnknownCollection {
            name: name.to_owned(),
            known: Some(known.join(", ")),
        }
    })
}

/// Who acts, and who is idle at the moment they act.
struct Acting<'a> {
    actor: &'a Player,
    idle: &'a [String],
}

/// Whether the actor may act on an item with `fields` of collection
/// `name`: the collection's `by` allows it, and no player it names is idle.
fn may(
    acting: &Acting<'_>,
    name: &str,
    decl: &CollectionDecl,
    fields: &BTreeMap<String, toml::Value>,
) -> Result<(), Refusal> {
    let actor = acting.actor;
    let owners = owners(decl, fields);
    not_idle(acting, &owners)?;
    let allowed = match decl.by.unwrap_or_default() {
        Who::Any => true,
        Who::Admin => actor.admin,
        Who::Own => {
            let has_owner = decl.fields.values().any(|d| d.ty == VarType::Player);
            !has_owner || owners.contains(&actor.name.as_str())
        }
    };
    match (allowed, decl.by.unwrap_or_default()) {
        (true, _) => Ok(()),
        (false, Who::Admin) => Err(Refusal::AdminOnly(name.to_owned())),
        (false, _) => Err(Refusal::NotTheirItem {
            actor: actor.name.clone(),
            collection: name.to_owned(),
        }),
    }
}

/// The players an item's player fields name.
fn owners<'f>(decl: &CollectionDecl, fields: &'f BTreeMap<String, toml::Value>) -> Vec<&'f str> {
    decl.fields
        .iter()
        .filter(|(_, d)| d.ty == VarType::Player)
        .filter_map(|(f, _)| fields.get(f).and_then(toml::Value::as_str))
        .collect()
}

/// An error if one of `owners` is idle.
fn not_idle(acting: &Acting<'_>, owners: &[&str]) -> Result<(), Refusal> {
    match owners.iter().find(|o| acting.idle.iter().any(|i| i == *o)) {
        Some(idle) => Err(Refusal::IdleOwner((*idle).to_owned())),
        None => Ok(()),
    }
}

fn to_toml(value: &Value) -> Option<toml::Value> {
    Some(match value {
        Value::Int(n) => toml::Value::Integer(*n),
        Value::Bool(b) => toml::Value::Boolean(*b),
        Value::Text(t) => toml::Value::String(t.clone()),
        Value::Dice { .. } | Value::Item { .. } => return None,
    })
}

/// An item as a table, its id first.
fn as_table(item: &Item) -> toml::Value {
    let mut table = toml::Table::new();
    table.insert("id".into(), toml::Value::String(item.id.clone()));
    table.extend(item.fields.clone());
    toml::Value::Table(table)
}

fn add(
    state: &mut GameState,
    acting: &Acting<'_>,
    name: &str,
    id: &str,
    given: &[(String, Value)],
) -> Result<SetValue, Refusal> {
    let decl = decl(state, name)?.clone();
    if state
        .collections
        .get(name)
        .into_iter()
        .flatten()
        .any(|i| i.id == id)
    {
        return Err(Refusal::ItemExists {
            collection: name.to_owned(),
            id: id.to_owned(),
        });
    }
    let mut fields = BTreeMap::new();
    for (field, value) in given {
        let fd = decl.fields.get(field).ok_or_else(|| {
            let known: Vec<&str> = decl.fields.keys().map(String::as_str).collect();
            Refusal::UnknownField {
                collection: name.to_owned(),
                field: field.clone(),
                known: Some(known.join(", ")),
            }
        })?;
        let value = to_toml(value).ok_or(Refusal::NotAFieldValue)?;
        let is_player = |n: &str| state.player(n).is_some();
        if let Some(problem) = fd.check(&value, &is_player) {
            return Err(Refusal::BadValue {
                name: field.clone(),
                value: value.to_string(),
                problem,
            });
        }
        fields.insert(field.clone(), value);
    }
    for (field, fd) in &decl.fields {
        if fields.contains_key(field) {
            continue;
        }
        let value = match (fd.ty, &fd.default) {
            (VarType::Player, None) => toml::Value::String(acting.actor.name.clone()),
            _ => fd.default_value(),
        };
        fields.insert(field.clone(), value);
    }
    may(acting, name, &decl, &fields)?;
    let item = Item {
        id: id.to_string(),
        fields,
    };
    let to = as_table(&item);
    state
        .collections
        .entry(name.to_string())
        .or_default()
        .push(item);
    Ok(SetValue {
        table: vec![COLLECTIONS.into(), name.into()],
        key: id.into(),
        from: toml::Value::Table(toml::Table::new()),
        to,
    })
}

fn remove(
    state: &mut GameState,
    actor: &Acting<'_>,
    name: &str,
    id: &str,
) -> Result<SetValue, Refusal> {
    let decl = decl(state, name)?.clone();
    let items = state.collections.entry(name.to_string()).or_default();
    let at = items
        .iter()
        .position(|i| i.id == id)
        .ok_or_else(|| no_item(name, id))?;
    may(actor, name, &decl, &items[at].fields)?;
    let item = items.remove(at);
    Ok(SetValue {
        table: vec![COLLECTIONS.into(), name.into()],
        key: id.into(),
        from: as_table(&item),
        to: toml::Value::Table(toml::Table::new()),
    })
}

fn set_field(
    state: &mut GameState,
    actor: &Acting<'_>,
    (name, id, field): (&str, &str, &str),
    verb: Verb,
    value: &Value,
    rolled: Option<i64>,
) -> Result<SetValue, Refusal> {
    let decl = decl(state, name)?.clone();
    let fd = decl
        .fields
        .get(field)
        .ok_or_else(|| Refusal::UnknownField {
            collection: name.to_owned(),
            field: field.to_owned(),
            known: None,
        })?
        .clone();
    let is_player: BTreeMap<String, ()> =
        state.players.iter().map(|p| (p.name.clone(), ())).collect();
    let item = state
        .collections
        .get_mut(name)
        .and_then(|items| items.iter_mut().find(|i| i.id == id))
        .ok_or_else(|| no_item(name, id))?;
    may(actor, name, &decl, &item.fields)?;
    let current = item
        .fields
        .get(field)
        .cloned()
        .unwrap_or_else(|| fd.default_value());
    let given = match (value, rolled) {
        (Value::Dice { negative, .. }, Some(total)) => {
            toml::Value::Integer(if *negative { -total } else { total })
        }
        (Value::Dice { .. }, None) => return Err(Refusal::NotRolled),
        (other, _) => to_toml(other).ok_or(Refusal::NotAFieldValue)?,
    };
    let to = new_value(&fd, field, verb, given, &current, &|n| {
        is_player.contains_key(n)
    })?;
    let mut after = item.fields.clone();
    after.insert(field.to_string(), to.clone());
    // Handing an item to another player is the owner's to do, not theirs.
    match fd.ty {
        VarType::Player => not_idle(actor, &owners(&decl, &after))?,
        _ => may(actor, name, &decl, &after)?,
    }
    item.fields = after;
    Ok(SetValue {
        table: vec![COLLECTIONS.into(), name.into(), id.into()],
        key: field.into(),
        from: current,
        to,
    })
}

/// The value a field takes when `verb` brings `given` to `current`.
fn new_value(
    fd: &super::schema::VarDecl,
    field: &str,
    verb: Verb,
    given: toml::Value,
    current: &toml::Value,
    is_player: &dyn Fn(&str) -> bool,
) -> Result<toml::Value, Refusal> {
    Ok(match (verb, &given, current) {
        (Verb::Add, toml::Value::Integer(n), toml::Value::Integer(now)) => {
            toml::Value::Integer(fd.apply(*now, *n)?)
        }
        (Verb::Add, _, _) => {
            return Err(Refusal::NotANumber {
                name: field.to_owned(),
                ty: fd.ty,
            });
        }
        (_, toml::Value::Integer(n), toml::Value::Integer(now)) if fd.ty == VarType::Int => {
            toml::Value::Integer(fd.apply(*now, n.saturating_sub(*now))?)
        }
        _ => {
            if let Some(problem) = fd.check(&given, is_player) {
                return Err(Refusal::BadValue {
                    name: field.to_owned(),
                    value: given.to_string(),
                    problem,
                });
            }
            given
        }
    })
}

/// The items of every collection that differ between `before` and
/// `after`: whole items added or removed, and fields changed.
pub fn changes(before: &GameState, after: &GameState) -> Vec<SetValue> {
    let mut out = Vec::new();
    let names: std::collections::BTreeSet<&String> = before
        .collections
        .keys()
        .chain(after.collections.keys())
        .collect();
    let empty = Vec::new();
    for name in names {
        let old = before.collections.get(name).unwrap_or(&empty);
        let new = after.collections.get(name).unwrap_or(&empty);
        let find = |list: &[Item], id: &str| list.iter().find(|i| i.id == id).cloned();
        let ids: std::collections::BTreeSet<&String> =
            old.iter().chain(new).map(|i| &i.id).collect();
        for id in ids {
            match (find(old, id), find(new, id)) {
                (Some(a), Some(b)) => {
                    let fields: std::collections::BTreeSet<&String> =
                        a.fields.keys().chain(b.fields.keys()).collect();
                    for field in fields {
                        let (from, to) = (a.fields.get(field), b.fields.get(field));
                        if from != to {
                            let none = || toml::Value::String(String::new());
                            out.push(SetValue {
                                table: vec![COLLECTIONS.into(), name.clone(), id.clone()],
                                key: field.clone(),
                                from: from.cloned().unwrap_or_else(none),
                                to: to.cloned().unwrap_or_else(none),
                            });
                        }
                    }
                }
                (a, b) => {
                    let table = |item: Option<Item>| {
                        item.map_or_else(
                            || toml::Value::Table(toml::Table::new()),
                            |i| as_table(&i),
                        )
                    };
                    out.push(SetValue {
                        table: vec![COLLECTIONS.into(), name.clone()],
                        key: id.clone(),
                        from: table(a),
                        to: table(b),
                    });
                }
            }
        }
    }
    out
}

/// Whether `actor` may make the collection change `set` (see
/// [`super::variables::permitted`]): by the collection's `by`, judged on the
/// item's fields before and after.
pub fn permitted(state: &GameState, actor: &Player, set: &SetValue) -> Result<(), Refusal> {
    let (name, id) = match set.table.as_slice() {
        [_, name] => (name, None),
        [_, name, id] => (name, Some(id)),
        _ => return Err(Refusal::Misdirected("collection change")),
    };
    let decl = decl(state, name)?;
    let acting = Acting { actor, idle: &[] };
    let fields = |v: &toml::Value| -> BTreeMap<String, toml::Value> {
        v.as_table()
            .map(|t| t.clone().into_iter().collect())
            .unwrap_or_default()
    };
    match id {
        // A whole item added or removed: judged on the item there is (an
        // empty table is the side where it is not), as `ADD` and `REMOVE`
        // judge it.
        None => {
            let (from, to) = (fields(&set.from), fields(&set.to));
            for item in [&from, &to].into_iter().filter(|i| !i.is_empty()) {
                may(&acting, name, decl, item)?;
            }
            Ok(())
        }
        Some(id) => {
            let mut item = state
                .collections
                .get(name)
                .and_then(|list| list.iter().find(|i| &i.id == id))
                .map(|i| i.fields.clone())
                .unwrap_or_default();
            may(&acting, name, decl, &item)?;
            item.insert(set.key.clone(), set.to.clone());
            may(&acting, name, decl, &item)
        }
    }
}

/// Puts a change an earlier run made into `state`.
pub fn put(state: &mut GameState, set: &SetValue) {
    let (name, id) = match set.table.as_slice() {
        [_, name] => (name, None),
        [_, name, id] => (name, Some(id)),
        _ => return,
    };
    let list = state.collections.entry(name.clone()).or_default();
    match id {
        None => {
            list.retain(|i| i.id != set.key);
            if let Some(table) = set.to.as_table().filter(|t| !t.is_empty()) {
                let mut fields: BTreeMap<String, toml::Value> = table.clone().into_iter().collect();
                fields.remove("id");
                list.push(Item {
                    id: set.key.clone(),
                    fields,
                });
            }
        }
        Some(id) => {
            if let Some(item) = list.iter_mut().find(|i| &i.id == id) {
                item.fields.insert(set.key.clone(), set.to.clone());
            }
        }
    }
}

/// `text` (state/collections.toml) with the collection changes of `sets`
/// made, everything else kept byte for byte. As with variables (see
/// `apply_chain`) changes already made are not made again,
/// and an item or field that is neither what a change found nor what it
/// made was changed by something else since: an error.
pub fn apply_sets(text: &str, sets: &[SetValue]) -> Result<String, EditError> {
    let mine: Vec<SetValue> = sets.iter().filter(|s| s.is_collection()).cloned().collect();
    apply_chain(text, &mine, &change_item)
}

/// One collection change, strictly (see [`apply_chain`]).
fn change_item(text: &str, set: &SetValue, absent_ok: bool) -> Result<String, EditError> {
    let bad = |e: &dyn std::fmt::Display| EditError::Parse {
        path: COLLECTIONS_FILE.into(),
        message: e.to_string(),
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| bad(&e))?;
    let plain: toml::Table = toml::from_str(text).map_err(|e| bad(&e))?;
    let (name, id) = match set.table.as_slice() {
        [_, name] => (name, &set.key),
        [_, name, id] => (name, id),
        _ => return Ok(text.to_string()),
    };
    let found = plain
        .get(name)
        .and_then(toml::Value::as_array)
        .and_then(|items| {
            items
                .iter()
                .filter_map(toml::Value::as_table)
                .find(|t| t.get("id").and_then(toml::Value::as_str) == Some(id.as_str()))
        });
    let empty = toml::Value::Table(toml::Table::new());
    let now = match (set.table.len(), found) {
        (2, found) => Some(found.cloned().map_or(empty, toml::Value::Table)),
        (_, Some(t)) => t.get(&set.key).cloned(),
        (_, None) => {
            return Err(EditError::NoItem {
                path: COLLECTIONS_FILE.into(),
                collection: name.clone(),
                id: id.clone(),
            });
        }
    };
    match now {
        Some(v) if v == set.from => {}
        None if absent_ok => {}
        now => {
            return Err(set.moved(COLLECTIONS_FILE, format!("{name}.{id}"), now.as_ref()));
        }
    }
    let array = doc
        .entry(name)
        .or_insert(toml_edit::Item::ArrayOfTables(
            toml_edit::ArrayOfTables::new(),
        ))
        .as_array_of_tables_mut()
        .ok_or_else(|| EditError::NotAList {
            path: COLLECTIONS_FILE.into(),
            collection: name.clone(),
        })?;
    let at = array
        .iter()
        .position(|t| t.get("id").and_then(toml_edit::Item::as_str) == Some(id.as_str()));
    match (set.table.len(), at, set.to.as_table()) {
        (2, Some(at), Some(t)) if t.is_empty() => remove_at(&mut doc, name, at),
        (2, None, Some(t)) => array.push(edit_table(id, t)?),
        (3, Some(at), _) => {
            if let Some(table) = array.get_mut(at) {
                table.insert(&set.key, toml_edit::value(edit_value(&set.to)?));
            }
        }
        _ => {
            return Err(EditError::Unfitting {
                path: COLLECTIONS_FILE.into(),
                at: format!("{name}.{id}"),
            });
        }
    }
    Ok(doc.to_string())
}

/// Removes item `at` of `name`. The first item's prefix holds the file's
/// opening comment: it stays, on the next item or at the end of the file.
fn remove_at(doc: &mut toml_edit::DocumentMut, name: &str, at: usize) {
    let Some(array) = doc
        .get_mut(name)
        .and_then(toml_edit::Item::as_array_of_tables_mut)
    else {
        return;
    };
    let prefix = array
        .get(at)
        .and_then(|t| t.decor().prefix())
        .and_then(|p| p.as_str())
        .map(str::to_string);
    array.remove(at);
    match (at, prefix, array.get_mut(0)) {
        (0, Some(prefix), Some(next)) => next.decor_mut().set_prefix(prefix),
        (0, Some(prefix), None) => {
            let tail = doc.trailing().as_str().unwrap_or_default().to_string();
            doc.set_trailing(format!("{prefix}{tail}"));
        }
        _ => {}
    }
}

/// An item `id` of collection `name` that is not there.
fn no_item(name: &str, id: &str) -> Refusal {
    Refusal::NoItem {
        collection: name.to_owned(),
        id: id.to_owned(),
    }
}

/// A new item's table, its id first.
fn edit_table(id: &str, fields: &toml::Table) -> Result<toml_edit::Table, EditError> {
    let mut table = toml_edit::Table::new();
    table.insert("id", toml_edit::value(id));
    for (k, v) in fields.iter().filter(|(k, _)| *k != "id") {
        table.insert(k, toml_edit::value(edit_value(v)?));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamestate::commands::{self, Said};

    fn state() -> GameState {
        crate::gamestate::bundled_for_tests()
    }

    fn run(state: &mut GameState, who: &str, line: &str) -> Result<SetValue, Refusal> {
        let actor = state.player(who).unwrap().clone();
        let Said::Command(cmd) = &commands::read(line)[0] else {
            panic!("{line}")
        };
        assert!(is_collection_command(state, cmd), "{line}");
        apply(
            state,
            &actor,
            cmd,
            None,
            crate::time::Timestamp::from_unix(1_900_000_000),
        )
    }

    #[test]
    fn items_are_added_changed_and_removed_by_their_owner() {
        let mut s = state();
        let text = include_str!("../../state/collections.toml");
        let added = run(
            &mut s,
            "Ada",
            "ADD gadgets key-2 name=\"Winding Key\" cogs=4",
        )
        .unwrap();
        assert_eq!(
            s.collections["gadgets"][1].fields["owner"].as_str(),
            Some("Ada")
        );
        let changed = run(&mut s, "Ada", "ADD gadgets.key-2.cogs -1").unwrap();
        assert_eq!(changed.describe(), "collections.gadgets.key-2.cogs: 4 → 3");
        let removed = run(&mut s, "Boris", "REMOVE gadgets pocket-orrery").unwrap();
        let sets = [added, changed, removed];
        let once = apply_sets(text, &sets).unwrap();
        assert!(
            once.ends_with(
                "[[gadgets]]\nid = \"key-2\"\ncogs = 3\nname = \"Winding Key\"\nowner = \"Ada\"\n"
            ),
            "{once}"
        );
        assert!(!once.contains("pocket-orrery"), "{once}");
        assert!(
            once.starts_with("# Items of the named collections"),
            "comments kept: {once}"
        );
        assert_eq!(apply_sets(&once, &sets).unwrap(), once, "twice is once");
        let mut replayed = state();
        for set in &sets {
            put(&mut replayed, set);
        }
        assert_eq!(replayed.collections, s.collections);
    }

    #[test]
    fn collection_commands_follow_the_schema() {
        let mut s = state();
        let err = |s: &mut GameState, who: &str, line: &str| run(s, who, line).unwrap_err();
        let not_theirs = Refusal::NotTheirItem {
            actor: "Ada".into(),
            collection: "gadgets".into(),
        };
        assert_eq!(
            err(&mut s, "Ada", "REMOVE gadgets pocket-orrery"),
            not_theirs
        );
        assert!(not_theirs.to_string().contains("only on their own items"));
        assert_eq!(
            err(&mut s, "Ada", "SET gadgets.pocket-orrery.cogs 1"),
            not_theirs
        );
        assert_eq!(err(&mut s, "Ada", "ADD gadgets k owner=Boris"), not_theirs);
        assert!(matches!(
            err(&mut s, "Boris", "ADD gadgets pocket-orrery"),
            Refusal::ItemExists { .. }
        ));
        let colour = err(&mut s, "Boris", "ADD gadgets k colour=red");
        assert!(matches!(&colour, Refusal::UnknownField { field, .. } if field == "colour"));
        assert!(
            colour
                .to_string()
                .contains("has no field `colour` (fields: ")
        );
        let negative = err(&mut s, "Boris", "ADD gadgets k cogs=-1");
        assert!(matches!(negative, Refusal::BadValue { .. }));
        assert!(negative.to_string().contains("`cogs` cannot be -1"));
        assert!(matches!(
            err(&mut s, "Boris", "ADD gadgets.pocket-orrery.cogs -9"),
            Refusal::Illegal(_)
        ));
        let gizmos = err(&mut s, "Boris", "REMOVE gizmos x");
        assert!(matches!(&gizmos, Refusal::UnknownCollection { name, .. } if name == "gizmos"));
        assert!(
            gizmos
                .to_string()
                .contains("there is no collection `gizmos`")
        );
        assert_eq!(
            err(&mut s, "Boris", "SET gadgets.nope.cogs 1"),
            no_item("gadgets", "nope")
        );
        assert_eq!(
            err(&mut s, "Boris", "SET gadgets 1"),
            Refusal::IsACollection("gadgets".into())
        );
        let zed = err(&mut s, "Boris", "SET gadgets.pocket-orrery.owner Zed");
        assert!(matches!(zed, Refusal::BadValue { .. }));
        assert!(zed.to_string().contains("not a player"));
        s.players[3].idle = vec![crate::gamestate::IdlePeriod {
            from: Timestamp::from_unix(0),
            until: None,
        }];
        assert_eq!(
            err(&mut s, "Boris", "SET gadgets.pocket-orrery.owner Dmitri"),
            Refusal::IdleOwner("Dmitri".into())
        );
        let moved = apply_sets(
            "[[gadgets]]\nid = \"a\"\ncogs = 9\n",
            &[SetValue {
                table: vec!["collections".into(), "gadgets".into(), "a".into()],
                key: "cogs".into(),
                from: toml::Value::Integer(1),
                to: toml::Value::Integer(2),
            }],
        );
        let moved = moved.unwrap_err();
        assert!(matches!(&moved, EditError::Moved { at, .. } if at == "gadgets.a"));
        assert!(moved.to_string().contains("gadgets.a is now 9"), "{moved}");
    }
}
