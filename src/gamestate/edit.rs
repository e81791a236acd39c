//! Writing changes back to `state/` without disturbing anything else.
//!
//! Edits go through `toml_edit`, which keeps comments, key order, spacing
//! and number formats. A document that is not changed is written back byte
//! for byte, so resolving a matter never produces a noise diff.

use std::str::FromStr;

use toml_edit::{DocumentMut, Item, Table, Value};

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The document is not valid TOML.
    #[error("{path} is not valid TOML: {message}")]
    Parse {
        /// The file.
        path: String,
        /// What the parser said.
        message: String,
    },
    /// Something on the way to the key is not a table.
    #[error("{path}: `{at}` is not a table")]
    NotATable {
        /// The file.
        path: String,
        /// The dotted path that is not a table.
        at: String,
    },
    /// A value an action set was changed by something else since: neither
    /// what the set found nor what it made, so it is not overwritten.
    #[error("{path}: {at} is now {now}, neither {from} nor {to}")]
    Moved {
        /// The file.
        path: String,
        /// The dotted place (`globals.round`, `gadgets.key-2`).
        at: String,
        /// What the file holds there (`absent` for nothing).
        now: String,
        /// What the set found.
        from: String,
        /// What the set made.
        to: String,
    },
    /// A collection's item a change names is not in the file.
    #[error("{path}: `{collection}` has no item `{id}`")]
    NoItem {
        /// The file.
        path: String,
        /// The collection.
        collection: String,
        /// The item's id.
        id: String,
    },
    /// A collection is not written as a list of items.
    #[error("{path}: `{collection}` is not a list of items")]
    NotAList {
        /// The file.
        path: String,
        /// The collection.
        collection: String,
    },
    /// A change that fits nothing the file holds.
    #[error("{path}: cannot change {at}")]
    Unfitting {
        /// The file.
        path: String,
        /// The dotted place.
        at: String,
    },
    /// A value of a kind an action cannot set (a table, an array, a date).
    #[error("{0} cannot be set by an action")]
    NotSettable(String),
}

/// A TOML file open for editing.
#[derive(Debug, Clone)]
pub struct StateDoc {
    path: String,
    doc: DocumentMut,
}

impl StateDoc {
    /// Parses `text`, the contents of `path`.
    pub fn parse(path: &str, text: &str) -> Result<Self, EditError> {
        DocumentMut::from_str(text)
            .map(|doc| StateDoc {
                path: path.to_string(),
                doc,
            })
            .map_err(|e| EditError::Parse {
                path: path.to_string(),
                message: e.to_string(),
            })
    }

    /// Sets `key` in the table at `tables` (created if missing) to `value`,
    /// keeping the old value's surrounding spaces and comment.
    pub fn set(
        &mut self,
        tables: &[&str],
        key: &str,
        value: impl Into<Value>,
    ) -> Result<(), EditError> {
        let mut table: &mut Table = self.doc.as_table_mut();
        for (depth, name) in tables.iter().enumerate() {
            let entry = table.entry(name).or_insert_with(|| {
                let mut t = Table::new();
                t.set_implicit(depth + 1 < tables.len());
                Item::Table(t)
            });
            table = entry.as_table_mut().ok_or_else(|| EditError::NotATable {
                path: self.path.clone(),
                at: tables[..=depth].join("."),
            })?;
        }
        let mut value = value.into();
        match table.get_mut(key).and_then(Item::as_value_mut) {
            // Replace in place: the key keeps its spacing, the value its comment.
            Some(old) => {
                *value.decor_mut() = old.decor().clone();
                *old = value;
            }
            None => {
                table.insert(key, Item::Value(value));
            }
        }
        Ok(())
    }

    /// The document as text.
    pub fn render(&self) -> String {
        self.doc.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# Values of game variables\n[globals]\nround   = 1 # the current round\n\n[players.Ada]\nsprings = 4\ncogs = 0x0\n";

    #[test]
    fn an_unchanged_document_round_trips_exactly() {
        assert_eq!(StateDoc::parse("v", TEXT).unwrap().render(), TEXT);
    }

    #[test]
    fn an_edit_changes_only_its_value() {
        let mut doc = StateDoc::parse("v", TEXT).unwrap();
        doc.set(&["globals"], "round", 2).unwrap();
        doc.set(&["players", "Ada"], "springs", 5).unwrap();
        assert_eq!(
            doc.render(),
            "# Values of game variables\n[globals]\nround   = 2 # the current round\n\n[players.Ada]\nsprings = 5\ncogs = 0x0\n"
        );
    }

    #[test]
    fn an_edit_can_add_a_table() {
        let mut doc = StateDoc::parse("v", TEXT).unwrap();
        doc.set(&["players", "Babbage"], "springs", 3).unwrap();
        assert!(
            doc.render()
                .ends_with("cogs = 0x0\n\n[players.Babbage]\nsprings = 3\n"),
            "{}",
            doc.render()
        );
    }

    #[test]
    fn refuses_to_descend_into_a_value() {
        let mut doc = StateDoc::parse("v", TEXT).unwrap();
        let err = doc.set(&["globals", "round"], "x", 1).unwrap_err();
        assert_eq!(err.to_string(), "v: `globals.round` is not a table");
    }
}
