//! One value set by an action, the unit that actions on variables and on
//! collections share: what it changes, how it is described, which file it
//! lands in, and how a chain of them is made again after a run was killed
//! part-way. Pure; below both [`super::variables`] and [`super::collections`].

use serde::{Deserialize, Serialize};

use super::edit::EditError;

/// The file that holds the variables.
pub const VARIABLES_FILE: &str = "state/variables.toml";

/// The file that holds the collections.
pub const COLLECTIONS_FILE: &str = "state/collections.toml";

/// The first table name of a collection change.
pub(crate) const COLLECTIONS: &str = "collections";

/// One value set by an action: where, from what, to what. Setting it is
/// the same whether done once or twice, which is what lets a run killed
/// after committing be finished by the next (see [`crate::gamestate::variables::apply_sets`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetValue {
    /// The table: `["globals"]` or `["players", "Boris"]`.
    pub table: Vec<String>,
    /// The variable.
    pub key: String,
    /// The value before (its default if the file does not hold it).
    pub from: toml::Value,
    /// The value after.
    pub to: toml::Value,
}

impl SetValue {
    /// The error of a set that found `now` at `at` of `path` where it
    /// expected its `from`: something else changed the value since.
    pub(crate) fn moved(&self, path: &str, at: String, now: Option<&toml::Value>) -> EditError {
        EditError::Moved {
            path: path.to_owned(),
            at,
            now: now.map_or_else(|| "absent".to_string(), toml::Value::to_string),
            from: self.from.to_string(),
            to: self.to.to_string(),
        }
    }

    /// Whether it changes state/collections.toml (else state/variables.toml).
    pub fn is_collection(&self) -> bool {
        self.table.first().map(String::as_str) == Some(COLLECTIONS)
    }

    /// The set that undoes this one.
    pub fn inverse(&self) -> SetValue {
        SetValue {
            table: self.table.clone(),
            key: self.key.clone(),
            from: self.to.clone(),
            to: self.from.clone(),
        }
    }

    /// `players.Boris.springs: 3 → 7`; for a whole item,
    /// `collections.gadgets: added key-2 (…)` or `removed key-2`.
    pub fn describe(&self) -> String {
        let whole = self.is_collection() && self.table.len() == 2;
        let empty = |v: &toml::Value| v.as_table().is_some_and(toml::Table::is_empty);
        // One line each, whatever the values hold: the lines are the
        // commit message the gamestate's log reads.
        let one_line = crate::source::one_line_toml;
        if whole && empty(&self.from) {
            let item = one_line(&self.to);
            return format!("{}: added {} {item}", self.table.join("."), self.key);
        }
        if whole && empty(&self.to) {
            return format!("{}: removed {}", self.table.join("."), self.key);
        }
        format!(
            "{}.{}: {} → {}",
            self.table.join("."),
            self.key,
            one_line(&self.from),
            one_line(&self.to)
        )
    }
}

/// The files `sets` change: state/variables.toml, state/collections.toml
/// or both, in that order.
pub fn files_of(sets: &[SetValue]) -> Vec<&'static str> {
    let collections = sets.iter().any(SetValue::is_collection);
    let variables = sets.iter().any(|s| !SetValue::is_collection(s));
    let mut out = Vec::new();
    if variables {
        out.push(VARIABLES_FILE);
    }
    if collections {
        out.push(COLLECTIONS_FILE);
    }
    out
}

/// Applies `sets` in order with `one`, allowing for a first part of them
/// being made already: the sets are a chain (one may change what an
/// earlier one made), so "already made" cannot be judged set by set, only
/// by undoing a first part exactly. `one(text, set, absent_ok)` makes one
/// set, strictly: the value must be the set's `from` (or, if `absent_ok`,
/// absent).
pub(crate) fn apply_chain(
    text: &str,
    sets: &[SetValue],
    one: &dyn Fn(&str, &SetValue, bool) -> Result<String, EditError>,
) -> Result<String, EditError> {
    let run = |sets: &[SetValue], absent_ok: bool| {
        sets.iter()
            .try_fold(text.to_string(), |t, set| one(&t, set, absent_ok))
    };
    let forward = run(sets, true);
    if forward.is_ok() {
        return forward;
    }
    for made in (1..=sets.len()).rev() {
        let undo: Vec<SetValue> = sets[..made].iter().rev().map(SetValue::inverse).collect();
        if run(&undo, false).is_ok() {
            return sets[made..]
                .iter()
                .try_fold(text.to_string(), |t, set| one(&t, set, true));
        }
    }
    forward
}

/// A value an action sets, as the state files are edited: whole numbers,
/// booleans and text; anything else is not settable by an action.
pub(crate) fn edit_value(value: &toml::Value) -> Result<toml_edit::Value, EditError> {
    Ok(match value {
        toml::Value::Integer(n) => (*n).into(),
        toml::Value::Boolean(b) => (*b).into(),
        toml::Value::String(s) => s.as_str().into(),
        other => return Err(EditError::NotSettable(other.to_string())),
    })
}
