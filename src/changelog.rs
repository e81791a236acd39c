//! The log of the gamestate: every change to a variable on the default
//! branch, with when, which commit and matter, old → new, and (for actions
//! by comment) who and which roll. Pure: it is derived from the versions of
//! state/variables.toml in the branch's history, so it covers proposals,
//! Ascension Addresses and actions alike and can never disagree with the
//! state itself; the resolver's commit message for an action by comment
//! names the commenter, the comment and the roll of each change.

use std::collections::BTreeMap;

use crate::time::Timestamp;

/// One version of state/variables.toml.
#[derive(Debug, Clone)]
pub struct Version<'a> {
    /// The commit.
    pub commit: &'a str,
    /// When.
    pub at: Timestamp,
    /// Its message.
    pub message: &'a str,
    /// Its author.
    pub author: &'a str,
    /// The file's text then.
    pub text: &'a str,
}

/// One change to one variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// When it reached the default branch.
    pub at: Timestamp,
    /// The commit (short).
    pub commit: String,
    /// The matter it came from, if the message names one (`#12`).
    pub matter: Option<u64>,
    /// `players.Boris.springs` or `globals.round`.
    pub path: String,
    /// The old value (`-` if absent).
    pub from: String,
    /// The new value (`-` if removed).
    pub to: String,
    /// Who and how, as the commit says (`by @boris-b, comment 4, rolled
    /// DICE6 = 4`), or the commit's author.
    pub by: String,
}

/// Every change between consecutive versions, oldest first.
pub fn changes(versions: &[Version<'_>]) -> Vec<Change> {
    let mut out = Vec::new();
    let mut before = BTreeMap::new();
    for v in versions {
        let after = flatten(v.text);
        let matter = matter_of(v.message);
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
        for key in keys {
            let (old, new) = (before.get(key), after.get(key));
            if old == new {
                continue;
            }
            let show = |x: Option<&String>| x.cloned().unwrap_or_else(|| "-".into());
            let by = v
                .message
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key}: ")))
                .and_then(|l| l.split_once(" by "))
                .map_or_else(
                    || format!("commit by {}", v.author),
                    |(_, by)| format!("by {by}"),
                );
            out.push(Change {
                at: v.at,
                commit: v.commit.chars().take(8).collect(),
                matter,
                path: key.clone(),
                from: show(old),
                to: show(new),
                by,
            });
        }
        before = after;
    }
    out
}

/// `path → value` of every variable in a variables.toml text.
fn flatten(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let Ok(table) = toml::from_str::<toml::Table>(text) else {
        return out;
    };
    fn walk(prefix: &str, table: &toml::Table, out: &mut BTreeMap<String, String>) {
        for (k, v) in table {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(t) => walk(&path, t, out),
                v => {
                    out.insert(path, v.to_string());
                }
            }
        }
    }
    walk("", &table, &mut out);
    out
}

/// The first `#N` of a commit message.
fn matter_of(message: &str) -> Option<u64> {
    let first = message.lines().next()?;
    let at = first.find('#')?;
    let digits: String = first[at + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_between_versions_with_who_and_roll() {
        let t = Timestamp::from_unix(1_900_000_000);
        let versions = [
            Version {
                commit: "aaaaaaaaaa",
                at: t,
                message: "init",
                author: "Ada",
                text: "[globals]\nround = 1\n[players.Boris]\nsprings = 3\n",
            },
            Version {
                commit: "bbbbbbbbbb",
                at: t,
                message: "Action #4: Winding by comment\n\nplayers.Boris.springs: 3 → 7 by @boris-b, comment 9, rolled DICE6 = 4\n",
                author: "gitnomic",
                text: "[globals]\nround = 1\n[players.Boris]\nsprings = 7\n",
            },
            Version {
                commit: "cccccccccc",
                at: t,
                message: "Enact Proposal #5: Rounds",
                author: "gitnomic",
                text: "[globals]\nround = 2\n[players.Boris]\nsprings = 7\n",
            },
        ];
        let found = changes(&versions);
        let tail: Vec<(Option<u64>, &str, &str, &str, &str)> = found[2..]
            .iter()
            .map(|c| {
                (
                    c.matter,
                    c.path.as_str(),
                    c.from.as_str(),
                    c.to.as_str(),
                    c.by.as_str(),
                )
            })
            .collect();
        assert_eq!(
            tail,
            [
                (
                    Some(4),
                    "players.Boris.springs",
                    "3",
                    "7",
                    "by @boris-b, comment 9, rolled DICE6 = 4"
                ),
                (Some(5), "globals.round", "1", "2", "commit by gitnomic"),
            ]
        );
        assert_eq!(
            found[0].from, "-",
            "the first version is the start of the log"
        );
    }
}
