//! The history an earlier build read, kept for the next (see
//! [`super::timeline::read_after`]): a game played for years has thousands
//! of commits and hundreds of rulesets, and checking every state of
//! `rules/` and `state/` again was most of what a build did. Kept, a build
//! reads only the commits that came since.
//!
//! Pure: bytes in, bytes out. A ruleset revision mostly repeats the one
//! before, so each distinct rule, section and set of parameters is written
//! once, and a revision names its own by their places in those lists.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::timeline::{StateLog, Walk};
use crate::game::timeline::{Revision, Sample};
use crate::ruleset::{Param, Rule, Ruleset, Section};
use crate::time::Timestamp;

/// The first word of a kept history, with its format's version.
const MAGIC: &str = "gitnomic-history-cache 1";

/// A walk as written, each distinct rule, section and set of parameters
/// once. Generic over how they are held: by reference when written, owned
/// when read.
#[derive(Serialize, Deserialize)]
struct Stored<R, S, P> {
    tip: Option<String>,
    walked: usize,
    shallow: bool,
    last: Option<(String, Option<String>)>,
    rules: Vec<R>,
    sections: Vec<S>,
    params: Vec<P>,
    revisions: Vec<StoredRevision>,
    samples: Vec<Sample>,
    log: StateLog,
}

/// A revision as written: its ruleset's parts by their places in
/// [`Stored`]'s lists.
#[derive(Serialize, Deserialize)]
struct StoredRevision {
    number: usize,
    commit: String,
    time: Timestamp,
    summary: String,
    digest: u64,
    sections: Vec<usize>,
    rules: Vec<usize>,
    params: usize,
}

/// Values written once each, in a list, and the places of the last
/// revision's: a revision's value equal to the one at the same key in the
/// revision before takes its place; any other is added. (A ruleset amended
/// back to an earlier text writes that text again, which costs a little
/// room; comparing with every value written would cost each build time.)
struct Written<'v, K, T> {
    values: Vec<&'v T>,
    last: HashMap<K, usize>,
}

impl<'v, K: Eq + std::hash::Hash, T: PartialEq> Written<'v, K, T> {
    fn new() -> Self {
        Written {
            values: Vec::new(),
            last: HashMap::new(),
        }
    }

    /// The places of one revision's values, each with its key.
    fn places(&mut self, values: impl Iterator<Item = (K, &'v T)>) -> Vec<usize> {
        let mut now = HashMap::new();
        let places = values
            .map(|(key, value)| {
                let place = match self.last.get(&key) {
                    Some(&place) if self.values[place] == value => place,
                    _ => {
                        self.values.push(value);
                        self.values.len() - 1
                    }
                };
                now.insert(key, place);
                place
            })
            .collect();
        self.last = now;
        places
    }
}

/// The values at `places` of `list`; `None` if a place is not in it.
fn at<T: Clone>(list: &[T], places: &[usize]) -> Option<Vec<T>> {
    places.iter().map(|&i| list.get(i).cloned()).collect()
}

/// The bytes that keep `walk`, made by the program `identity`: a header
/// line, a checksum line, then the walk as JSON. `None` if it cannot be
/// written so that it reads back the same (a parameter that is not a
/// finite number, which JSON writes as `null`): the next build then reads
/// the whole history, as if nothing were kept.
pub fn to_bytes(walk: &Walk, identity: &str) -> Option<Vec<u8>> {
    if walk.revisions.iter().any(|r| r.ruleset.holds_non_finite()) {
        return None;
    }
    let mut rules = Written::new();
    let mut sections = Written::new();
    let mut params = Written::new();
    let revisions: Vec<StoredRevision> = walk
        .revisions
        .iter()
        .map(|r| {
            let Ruleset {
                sections: its_sections,
                rules: its_rules,
                params: its_params,
            } = &*r.ruleset;
            StoredRevision {
                number: r.number,
                commit: r.commit.clone(),
                time: r.time,
                summary: r.summary.clone(),
                digest: r.digest,
                sections: sections.places(its_sections.iter().map(|s| (s.kind, s))),
                rules: rules.places(its_rules.iter().map(|r| (&r.id, r))),
                params: params.places(std::iter::once(((), its_params)))[0],
            }
        })
        .collect();
    let stored = Stored {
        tip: walk.tip.clone(),
        walked: walk.walked,
        shallow: walk.shallow,
        last: walk.last.clone(),
        rules: rules.values,
        sections: sections.values,
        params: params.values,
        revisions,
        samples: walk.samples.clone(),
        log: walk.log.clone(),
    };
    let json = serde_json::to_vec(&stored).ok()?;
    let mut out = format!("{}\n{:016x}\n", header(identity), checksum(&json)).into_bytes();
    out.extend_from_slice(&json);
    Some(out)
}

/// A walk read back from [`to_bytes`] by the program `identity`. Anything
/// else (another version, another program, a damaged or cut-short file)
/// reads as no walk: the whole history is read again.
pub fn from_bytes(bytes: &[u8], identity: &str) -> Walk {
    read(bytes, identity).unwrap_or_default()
}

fn read(bytes: &[u8], identity: &str) -> Option<Walk> {
    let rest = bytes.strip_prefix(header(identity).as_bytes())?;
    let rest = rest.strip_prefix(b"\n")?;
    let (sum, json) = rest.split_at_checked(17)?;
    let sum = std::str::from_utf8(sum.strip_suffix(b"\n")?).ok()?;
    if u64::from_str_radix(sum, 16).ok()? != checksum(json) {
        return None;
    }
    let stored: Stored<Rule, Section, BTreeMap<String, Param>> =
        serde_json::from_slice(json).ok()?;
    let revisions = stored
        .revisions
        .into_iter()
        .map(|r| {
            Some(Revision {
                number: r.number,
                commit: r.commit,
                time: r.time,
                summary: r.summary,
                digest: r.digest,
                ruleset: Arc::new(Ruleset {
                    sections: at(&stored.sections, &r.sections)?,
                    rules: at(&stored.rules, &r.rules)?,
                    params: stored.params.get(r.params)?.clone(),
                }),
            })
        })
        .collect::<Option<Vec<Revision>>>()?;
    Some(Walk {
        tip: stored.tip,
        walked: stored.walked,
        shallow: stored.shallow,
        last: stored.last,
        revisions,
        samples: stored.samples,
        log: stored.log,
    })
}

/// The first line of a kept history made by `identity`.
fn header(identity: &str) -> String {
    format!("{MAGIC} {}", identity.replace('\n', " "))
}

/// A checksum of the JSON, so that a damaged file is not believed.
fn checksum(bytes: &[u8]) -> u64 {
    use std::hash::{DefaultHasher, Hasher};
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::RuleId;

    fn param(value: &str) -> Param {
        let table: toml::Table = toml::from_str(&format!("v = {value}")).unwrap();
        Param {
            value: table["v"].clone(),
            rule: RuleId::parse("springs").unwrap(),
            path: "rules/dynastic/springs.md".into(),
            line: 4,
        }
    }

    #[test]
    fn every_kind_of_parameter_reads_back_as_it_was() {
        let params: BTreeMap<String, Param> = [
            ("a_date", "2030-03-01T10:00:00Z"),
            ("a_local_date", "2030-03-01"),
            ("a_float", "1.5"),
            ("a_small_float", "1e-30"),
            ("a_charge", "1.602176634e-19"),
            ("a_list", "[1, \"two\", 3.0]"),
            ("a_table", "{ hours = 48, on = true }"),
        ]
        .into_iter()
        .map(|(name, value)| (name.to_string(), param(value)))
        .collect();
        let walk = Walk {
            tip: Some("0123".into()),
            walked: 3,
            revisions: vec![Revision {
                number: 1,
                commit: "0123".into(),
                time: Timestamp::from_unix(1_900_000_000),
                summary: "Enact proposal #1".into(),
                digest: 1,
                ruleset: Arc::new(Ruleset {
                    params,
                    ..Ruleset::default()
                }),
            }],
            ..Walk::default()
        };
        let bytes = to_bytes(&walk, "test").expect("kept");
        assert_eq!(from_bytes(&bytes, "test"), walk);
    }

    #[test]
    fn a_value_json_cannot_hold_keeps_nothing() {
        let mut walk = Walk::default();
        let mut params = BTreeMap::new();
        params.insert("odd".to_string(), param("nan"));
        walk.revisions.push(Revision {
            number: 1,
            commit: "0123".into(),
            time: Timestamp::from_unix(0),
            summary: String::new(),
            digest: 2,
            ruleset: Arc::new(Ruleset {
                params,
                ..Ruleset::default()
            }),
        });
        assert!(
            to_bytes(&walk, "test").is_none(),
            "a NaN is not kept as null"
        );
    }
}
