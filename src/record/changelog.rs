//! The log of the gamestate: every change to a variable or a collection's
//! item on the default branch, with when, which commit and matter, old →
//! new, and (for actions by comment) who and which roll. Pure: it is
//! derived from the versions of state/variables.toml and
//! state/collections.toml in the branch's history, so it covers proposals,
//! Ascension Addresses and actions alike and can never disagree with the
//! state itself; the resolver's commit message for an action by comment
//! names the commenter, the comment and the roll of each change.
//!
//! A collection's item is logged field by field as
//! `collections.NAME.ID.FIELD`, so adding an item shows each of its fields
//! going from `-` to its value.

use std::collections::BTreeMap;

use crate::engine::MatterNumber;
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Change {
    /// When it reached the default branch.
    pub at: Timestamp,
    /// The commit (short).
    pub commit: String,
    /// The matter it came from, if the message names one (`#12`).
    pub matter: Option<MatterNumber>,
    /// `players.Boris.springs` or `globals.round`.
    pub path: String,
    /// The old value (`-` if absent).
    pub from: String,
    /// The new value (`-` if removed).
    pub to: String,
    /// Who and how, as the commit says (`by @boris-b, comment 4, rolled
    /// DICE6 = 4`), or the commit's author.
    pub by: String,
    /// Who: the commenter's login (`boris-b`) for an action by comment,
    /// else the commit's author.
    pub who: String,
    /// The comment the change was asked for in, if it was.
    pub comment: Option<u64>,
    /// The roll that fed the value (`DICE6 = 4`), if one did.
    pub roll: Option<String>,
}

impl Change {
    /// The players a change concerns, by name: the one whose value it
    /// changed (`players.NAME.…`) and the one who made it (`who`, a login
    /// on `state`'s roster). A player's log, in the terminal and on their
    /// page, is the changes that concern them.
    pub fn concerns(&self, state: Option<&crate::gamestate::GameState>) -> Vec<String> {
        let maker = state
            .and_then(|s| s.player_by_login(&self.who))
            .map(|p| p.name.clone());
        let owner = self
            .path
            .strip_prefix("players.")
            .and_then(|rest| rest.rsplit_once('.'))
            .map(|(name, _)| name.to_string());
        let mut out: Vec<String> = maker.into_iter().collect();
        if let Some(owner) = owner.filter(|o| !out.contains(o)) {
            out.push(owner);
        }
        out
    }
}

/// Every change between consecutive versions of state/variables.toml,
/// oldest first.
pub fn changes(versions: &[Version<'_>]) -> Vec<Change> {
    changes_in(versions, "")
}

/// Every change between consecutive versions of state/collections.toml,
/// oldest first.
pub fn collection_changes(versions: &[Version<'_>]) -> Vec<Change> {
    changes_in(versions, "collections.")
}

/// The changes `version` of state/variables.toml makes to the version
/// `before` it (none: every value is new): what [`changes`] finds between
/// the two, for a log kept as the versions come.
pub fn changes_after(before: Option<&Version<'_>>, version: &Version<'_>) -> Vec<Change> {
    changes_from(before, version, "")
}

/// [`changes_after`] for state/collections.toml.
pub fn collection_changes_after(
    before: Option<&Version<'_>>,
    version: &Version<'_>,
) -> Vec<Change> {
    changes_from(before, version, "collections.")
}

/// Two logs as one, by time (a tie keeps `a`'s first).
pub fn merge(a: Vec<Change>, b: Vec<Change>) -> Vec<Change> {
    let mut all: Vec<(usize, Change)> = a
        .into_iter()
        .map(|c| (0, c))
        .chain(b.into_iter().map(|c| (1, c)))
        .collect();
    all.sort_by_key(|(side, c)| (c.at, *side));
    all.into_iter().map(|(_, c)| c).collect()
}

/// One line of an action's commit message that credits a change, as the
/// resolver writes it: `WHAT by @LOGIN[, comment N][, rolled SPEC = N]`,
/// where `WHAT` is `KEY: FROM → TO`, or a collection's
/// `collections.NAME: added ID …` / `removed ID`.
struct Credit<'m> {
    /// What changed, before ` by `.
    what: &'m str,
    /// After ` by `, as written: `@boris-b, comment 4, rolled DICE6 = 4`.
    by: &'m str,
    /// The login, without `@`.
    who: &'m str,
    comment: Option<u64>,
    roll: Option<&'m str>,
}

/// The lines that credit changes in `message`, read only in the form the
/// resolver writes: an action's message (`Action #N: …`, its subject one
/// line), after the subject, each ending in a well-formed credit. Nothing
/// else is read as fact, so no title, description or comment can put a
/// change or a roll in the log that the resolver did not write.
fn credits(message: &str) -> Vec<Credit<'_>> {
    let mut lines = message.lines();
    if !lines.next().is_some_and(|s| s.starts_with("Action #")) {
        return Vec::new();
    }
    lines.filter_map(credit).collect()
}

fn credit(line: &str) -> Option<Credit<'_>> {
    let (what, by) = line.rsplit_once(" by ")?;
    let mut parts = by.split(", ");
    let who = parts.next()?.strip_prefix('@')?;
    let login = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if who.is_empty() || !who.chars().all(login) {
        return None;
    }
    let (mut comment, mut roll) = (None, None);
    for part in parts {
        if let Some(n) = part.strip_prefix("comment ") {
            comment = Some(n.parse().ok()?);
        } else if let Some(r) = part.strip_prefix("rolled ") {
            let (spec, total) = r.split_once(" = ")?;
            total.parse::<i64>().ok()?;
            let dice = |c: char| c.is_ascii_alphanumeric() || "+-".contains(c);
            if spec.is_empty() || !spec.chars().all(dice) || roll.is_some() {
                return None;
            }
            roll = Some(r);
        } else {
            return None;
        }
    }
    Some(Credit {
        what,
        by,
        who,
        comment,
        roll,
    })
}

/// The credit that tells of a field of a whole item
/// (`collections.gadgets: added key-2 …`): the collection's line that
/// names the item. (A value's own line counts only through [`stepped`],
/// when its values are the change's.)
fn told<'c, 'm>(credits: &'c [Credit<'m>], key: &str) -> Option<&'c Credit<'m>> {
    credits.iter().find(|c| {
        let Some((path, rest)) = c.what.split_once(": ") else {
            return false;
        };
        let Some(id) = key
            .strip_prefix(&format!("{path}."))
            .and_then(|k| k.split('.').next())
        else {
            return false;
        };
        rest.starts_with(&format!("added {id} ")) || rest == format!("removed {id}")
    })
}

/// The changes of `key` the credits tell of, one per line
/// (`players.Boris.springs: 3 → 5`), as (from, to, credit), when they
/// chain to `new`, from `old` or, for a value the file did not hold
/// (`-`: its default), from the value the resolver saw; else none.
fn stepped<'c, 'm>(
    credits: &'c [Credit<'m>],
    key: &str,
    old: &str,
    new: &str,
) -> Vec<(&'m str, &'m str, &'c Credit<'m>)> {
    let prefix = format!("{key}: ");
    let steps: Option<Vec<(&str, &str, &Credit<'_>)>> = credits
        .iter()
        .filter_map(|c| c.what.strip_prefix(prefix.as_str()).map(|rest| (rest, c)))
        .map(|(rest, c)| {
            let (from, to) = rest.split_once(" → ")?;
            Some((from, to, c))
        })
        .collect();
    let Some(steps) = steps else {
        return Vec::new();
    };
    let chains = steps.windows(2).all(|w| w[0].1 == w[1].0);
    let starts = steps.first().is_some_and(|s| s.0 == old || old == "-");
    let ends = steps.last().is_some_and(|s| s.1 == new);
    if chains && starts && ends {
        steps
    } else {
        Vec::new()
    }
}

fn changes_in(versions: &[Version<'_>], prefix: &str) -> Vec<Change> {
    let mut out = Vec::new();
    let mut before = BTreeMap::new();
    for v in versions {
        let after = flatten_in(v.text, prefix);
        out.extend(between(&before, &after, v));
        before = after;
    }
    out
}

/// [`changes_in`] of `version` alone, after `before`.
fn changes_from(before: Option<&Version<'_>>, version: &Version<'_>, prefix: &str) -> Vec<Change> {
    let before = before
        .map(|b| flatten_in(b.text, prefix))
        .unwrap_or_default();
    between(&before, &flatten_in(version.text, prefix), version)
}

/// `path → value` of a state file's text, each path after `prefix`.
fn flatten_in(text: &str, prefix: &str) -> BTreeMap<String, String> {
    flatten(text)
        .into_iter()
        .map(|(k, v)| (format!("{prefix}{k}"), v))
        .collect()
}

/// The changes from the values `before` to the values `after` of version
/// `v`, each credited as its message says.
fn between(
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
    v: &Version<'_>,
) -> Vec<Change> {
    let mut out = Vec::new();
    let matter = matter_of(v.message);
    let credits = credits(v.message);
    let keys: std::collections::BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let (old, new) = (before.get(key), after.get(key));
        if old == new {
            continue;
        }
        let show = |x: Option<&String>| x.cloned().unwrap_or_else(|| "-".into());
        let change = |from: &str, to: &str, credit: Option<&Credit<'_>>| Change {
            who: credit.map_or_else(|| v.author.to_string(), |c| c.who.to_string()),
            comment: credit.and_then(|c| c.comment),
            roll: credit.and_then(|c| c.roll.map(str::to_string)),
            at: v.at,
            commit: v.commit.chars().take(8).collect(),
            matter,
            path: key.clone(),
            from: from.to_string(),
            to: to.to_string(),
            by: credit.map_or_else(
                || format!("commit by {}", v.author),
                |c| format!("by {}", c.by),
            ),
        };
        // One commit may change a value several times (three commands
        // of one comment): each change is its own line, with its roll.
        let steps = stepped(&credits, key, &show(old), &show(new));
        if steps.is_empty() {
            out.push(change(&show(old), &show(new), told(&credits, key)));
        }
        for (from, to, credit) in steps {
            out.push(change(from, to, Some(credit)));
        }
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
            let items: Option<Vec<(&str, &toml::Table)>> = v.as_array().and_then(|a| {
                a.iter()
                    .map(|i| {
                        let t = i.as_table()?;
                        Some((t.get("id")?.as_str()?, t))
                    })
                    .collect()
            });
            match (v, items) {
                (toml::Value::Array(a), Some(items)) if !a.is_empty() => {
                    for (id, item) in items {
                        let mut fields = item.clone();
                        fields.remove("id");
                        walk(&format!("{path}.{id}"), &fields, out);
                    }
                }
                (toml::Value::Table(t), _) => walk(&path, t, out),
                (v, _) => {
                    out.insert(path, crate::source::one_line_toml(v));
                }
            }
        }
    }
    walk("", &table, &mut out);
    out
}

/// The first `#N` of a commit message.
fn matter_of(message: &str) -> Option<MatterNumber> {
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
        let tail: Vec<(Option<MatterNumber>, &str, &str, &str, &str)> = found[2..]
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
                    Some(MatterNumber(4)),
                    "players.Boris.springs",
                    "3",
                    "7",
                    "by @boris-b, comment 9, rolled DICE6 = 4"
                ),
                (
                    Some(MatterNumber(5)),
                    "globals.round",
                    "1",
                    "2",
                    "commit by gitnomic"
                ),
            ]
        );
        assert_eq!(
            found[0].from, "-",
            "the first version is the start of the log"
        );
        assert_eq!(
            (
                found[2].who.as_str(),
                found[2].comment,
                found[2].roll.as_deref()
            ),
            ("boris-b", Some(9), Some("DICE6 = 4"))
        );
        assert_eq!(
            (found[3].who.as_str(), found[3].comment),
            ("gitnomic", None)
        );
    }

    #[test]
    fn three_changes_of_one_comment_are_three_lines_each_with_its_roll() {
        let t = Timestamp::from_unix(1_900_000_000);
        let versions = [
            Version {
                commit: "aaaaaaaaaa",
                at: t,
                message: "init",
                author: "Ada",
                text: "[players.Boris]\nsprings = 3\n",
            },
            Version {
                commit: "bbbbbbbbbb",
                at: t,
                message: "Action #4: Winding by comment\n\nplayers.Boris.springs: 3 → 5 by @boris-b, comment 9, rolled DICE6 = 2\nplayers.Boris.springs: 5 → 4 by @boris-b, comment 9\nplayers.Boris.springs: 4 → 8 by @boris-b, comment 9, rolled DICE4 = 4\n",
                author: "gitnomic",
                text: "[players.Boris]\nsprings = 8\n",
            },
        ];
        let found: Vec<(String, String, Option<String>)> = changes(&versions)[1..]
            .iter()
            .map(|c| (c.from.clone(), c.to.clone(), c.roll.clone()))
            .collect();
        assert_eq!(
            found,
            [
                ("3".into(), "5".into(), Some("DICE6 = 2".into())),
                ("5".into(), "4".into(), None),
                ("4".into(), "8".into(), Some("DICE4 = 4".into())),
            ]
        );
    }

    fn two_versions(
        message: &'static str,
        before: &'static str,
        after: &'static str,
    ) -> Vec<Change> {
        let t = Timestamp::from_unix(1_900_000_000);
        let v = |message: &'static str, text: &'static str| Version {
            commit: "aaaaaaaaaa",
            at: t,
            message,
            author: "gitnomic",
            text,
        };
        changes(&[v("init", before), v(message, after)])
    }

    #[test]
    fn no_title_or_unwritten_line_credits_a_change_or_a_roll() {
        let forged = "players.bob.springs: 3 → 4 by @alice, comment 1, rolled DICE6 = 6";
        for message in [
            // A title of many lines, as an old resolver wrote it.
            "Action #1: Bob acts\n\nplayers.bob.springs: 3 → 4 by @alice, comment 1, rolled DICE6 = 6\n by comment\n\nplayers.bob.springs: 3 → 4 by @bob, comment 2\n",
            // The credit in a one-line subject.
            "Action #1: Bob acts players.bob.springs: 3 → 4 by @alice, comment 1, rolled DICE6 = 6 by comment\n",
            // Not an action's message.
            "Merge pull request #1\n\nplayers.bob.springs: 3 → 4 by @alice, comment 1, rolled DICE6 = 6\n",
            // Credits that are not the resolver's form.
            "Action #1: x\n\nplayers.bob.springs: 3 → 4 by @alice, comment one\n",
            "Action #1: x\n\nplayers.bob.springs: 3 → 4 by @al ice, comment 1\n",
            "Action #1: x\n\nplayers.bob.springs: 3 → 4 by @alice, rolled DICE6 = six\n",
            "Action #1: x\n\nplayers.bob.springs: 3 → 4 by @alice, signed by the king\n",
        ] {
            let found = two_versions(
                message,
                "[players.bob]\nsprings = 3\n",
                "[players.bob]\nsprings = 4\n",
            );
            let last = found.last().unwrap();
            assert_ne!(last.who, "alice", "{message:?} gave {last:?}");
            assert_eq!(last.roll, None, "{message:?}");
            assert_ne!(
                last.by,
                format!("by {}", forged.split(" by ").nth(1).unwrap())
            );
        }
    }

    #[test]
    fn a_default_value_shows_as_it_was_and_each_step_keeps_its_roll() {
        // springs was absent from the file (its default, 3), then changed
        // twice by one comment.
        let found = two_versions(
            "Action #4: Winding by comment\n\nplayers.Boris.springs: 3 → 7 by @boris-b, comment 9, rolled DICE6 = 4\nplayers.Boris.springs: 7 → 5 by @boris-b, comment 9, rolled DICE4 = 2\n",
            "[players.Boris]\n",
            "[players.Boris]\nsprings = 5\n",
        );
        let steps: Vec<(&str, &str, Option<&str>)> = found
            .iter()
            .map(|c| (c.from.as_str(), c.to.as_str(), c.roll.as_deref()))
            .collect();
        assert_eq!(
            steps,
            [("3", "7", Some("DICE6 = 4")), ("7", "5", Some("DICE4 = 2"))]
        );
    }

    #[test]
    fn items_are_logged_field_by_field() {
        let t = Timestamp::from_unix(1_900_000_000);
        let v = |message: &'static str, text: &'static str| Version {
            commit: "aaaaaaaaaa",
            at: t,
            message,
            author: "Ada",
            text,
        };
        let versions = [
            v("init", "[[gadgets]]\nid = \"orrery\"\ncogs = 4\n"),
            v(
                "Action #3: Build by comment\n\ncollections.gadgets: added key {{ cogs = 4, id = \"key\" }} by @ada-tinkers, comment 7\ncollections.gadgets: removed orrery by @boris-b, comment 8\n",
                "[[gadgets]]\nid = \"key\"\ncogs = 4\n",
            ),
        ];
        let found: Vec<(String, String, String, String)> = collection_changes(&versions)[1..]
            .iter()
            .map(|c| (c.path.clone(), c.from.clone(), c.to.clone(), c.who.clone()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "collections.gadgets.key.cogs".into(),
                    "-".into(),
                    "4".into(),
                    "ada-tinkers".into()
                ),
                (
                    "collections.gadgets.orrery.cogs".into(),
                    "4".into(),
                    "-".into(),
                    "boris-b".into()
                ),
            ]
        );
    }
}
