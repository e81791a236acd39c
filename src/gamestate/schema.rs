//! Declarations of game variables and the rules their values obey. Pure.
//!
//! `state/schema.toml` declares each per-player variable, each global and
//! each collection's fields once: its type, default, bounds, and what an
//! action that would cross a bound does (`illegal`: the action may not be
//! taken; `clamp`: the value stops at the bound).

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// The type of a game variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VarType {
    /// A whole number.
    Int,
    /// True or false.
    Bool,
    /// Free text.
    String,
    /// One of the declared `values`.
    Enum,
    /// The name of a player on the roster.
    Player,
    /// A list of values of type `item`.
    List,
}

impl fmt::Display for VarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarType::Int => "int",
            VarType::Bool => "bool",
            VarType::String => "string",
            VarType::Enum => "enum",
            VarType::Player => "player",
            VarType::List => "list",
        })
    }
}

/// What happens when an action would take a value past a bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BoundPolicy {
    /// The action may not be taken.
    #[default]
    Illegal,
    /// The value stops at the bound.
    Clamp,
}

/// The declaration of one variable (or collection field).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VarDecl {
    /// Its type.
    #[serde(rename = "type")]
    pub ty: VarType,
    /// The value a player (or item) has until it is set.
    pub default: Option<toml::Value>,
    /// Lower bound of an int; ints without one are non-negative.
    pub min: Option<i64>,
    /// Upper bound (cap) of an int.
    pub max: Option<i64>,
    /// The allowed values of an enum.
    #[serde(default)]
    pub values: Vec<String>,
    /// The type of a list's items.
    pub item: Option<VarType>,
    /// What an action going below `min` does.
    #[serde(default)]
    pub underflow: BoundPolicy,
    /// What an action going above `max` does.
    #[serde(default = "clamp")]
    pub overflow: BoundPolicy,
    /// The id of the rule that defines the variable.
    pub rule: Option<String>,
    /// A line for the tracker.
    pub description: Option<String>,
    /// Who may change it by an action in a comment (see
    /// [`super::variables`]): `own`, `any` or `admin`.
    pub by: Option<Who>,
}

fn clamp() -> BoundPolicy {
    BoundPolicy::Clamp
}

/// A collection's declaration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionDecl {
    /// The id of the rule that defines the collection.
    pub rule: Option<String>,
    /// A line for the tracker.
    pub description: Option<String>,
    /// Its items' fields (each item also has an `id`).
    #[serde(default)]
    pub fields: BTreeMap<String, VarDecl>,
    /// Who may add, change and remove its items by an action in a
    /// comment (see [`super::collections`]): `own`, `any` or `admin`.
    pub by: Option<Who>,
}

/// Every declaration of `state/schema.toml`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Schema {
    /// Per-player variables.
    pub players: BTreeMap<String, VarDecl>,
    /// Global variables.
    pub globals: BTreeMap<String, VarDecl>,
    /// Collections.
    pub collections: BTreeMap<String, CollectionDecl>,
}

/// An action that would break a bound declared `illegal`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{value} is {side} the {bound_name} of {bound}")]
pub struct Illegal {
    /// The value the action would set.
    pub value: i64,
    /// "below" or "above".
    pub side: &'static str,
    /// "minimum" or "cap".
    pub bound_name: &'static str,
    /// The bound.
    pub bound: i64,
}

impl VarDecl {
    /// The effective lower bound of an int: `min`, or 0.
    pub fn lower(&self) -> i64 {
        self.min.unwrap_or(0)
    }

    /// The default value: declared, or the type's zero.
    pub fn default_value(&self) -> toml::Value {
        self.default.clone().unwrap_or_else(|| match self.ty {
            VarType::Int => toml::Value::Integer(self.lower().max(0)),
            VarType::Bool => toml::Value::Boolean(false),
            VarType::Enum => toml::Value::String(self.values.first().cloned().unwrap_or_default()),
            VarType::String | VarType::Player => toml::Value::String(String::new()),
            VarType::List => toml::Value::Array(Vec::new()),
        })
    }

    /// Problems with the declaration itself.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let (Some(min), Some(max)) = (self.min, self.max) {
            if min > max {
                out.push(format!("its minimum {min} is above its cap {max}"));
            }
        }
        if (self.min.is_some() || self.max.is_some()) && self.ty != VarType::Int {
            out.push(format!("`min` and `max` apply to ints, not to {}", self.ty));
        }
        match self.ty {
            VarType::Enum if self.values.is_empty() => {
                out.push("an enum needs its `values`".into());
            }
            VarType::List if self.item.is_none() => {
                out.push("a list needs the type of its `item`".into());
            }
            VarType::List if self.item == Some(VarType::List) => {
                out.push("lists of lists are not supported".into());
            }
            _ => {}
        }
        if let Some(default) = &self.default {
            // Player defaults are names that may not exist yet; check type only.
            if let Some(problem) = self.check(default, &|_| true) {
                out.push(format!("its default: {problem}"));
            }
        }
        out
    }

    /// Why `value` is not a valid value of this variable, if it is not.
    /// `is_player` says whether a name is on the roster.
    pub fn check(&self, value: &toml::Value, is_player: &dyn Fn(&str) -> bool) -> Option<String> {
        check_typed(self, self.ty, value, is_player)
    }

    /// Applies `delta` to `current`, by the declared bound policies.
    pub fn apply(&self, current: i64, delta: i64) -> Result<i64, Illegal> {
        let value = current.saturating_add(delta);
        let lower = self.lower();
        if value < lower {
            return match self.underflow {
                BoundPolicy::Clamp => Ok(lower),
                BoundPolicy::Illegal => Err(Illegal {
                    value,
                    side: "below",
                    bound_name: "minimum",
                    bound: lower,
                }),
            };
        }
        match self.max {
            Some(max) if value > max => match self.overflow {
                BoundPolicy::Clamp => Ok(max),
                BoundPolicy::Illegal => Err(Illegal {
                    value,
                    side: "above",
                    bound_name: "cap",
                    bound: max,
                }),
            },
            _ => Ok(value),
        }
    }
}

fn check_typed(
    decl: &VarDecl,
    ty: VarType,
    value: &toml::Value,
    is_player: &dyn Fn(&str) -> bool,
) -> Option<String> {
    use toml::Value as V;
    match (ty, value) {
        (VarType::Int, V::Integer(n)) => {
            let lower = decl.lower();
            if *n < lower {
                return Some(if lower == 0 {
                    format!("{n} is negative, and only non-negative values are allowed")
                } else {
                    format!("{n} is below its minimum of {lower}")
                });
            }
            decl.max
                .filter(|max| n > max)
                .map(|max| format!("{n} is over its cap of {max}"))
        }
        (VarType::Bool, V::Boolean(_)) | (VarType::String, V::String(_)) => None,
        (VarType::Enum, V::String(s)) => (!decl.values.contains(s))
            .then(|| format!("`{s}` is not one of {}", decl.values.join(", "))),
        (VarType::Player, V::String(s)) => {
            (!s.is_empty() && !is_player(s)).then(|| format!("`{s}` is not a player on the roster"))
        }
        (VarType::List, V::Array(items)) => {
            let item = decl.item?;
            items.iter().enumerate().find_map(|(i, v)| {
                check_typed(decl, item, v, is_player).map(|p| format!("item {}: {p}", i + 1))
            })
        }
        (ty, value) => Some(format!(
            "expected {}, found {}",
            describe(ty),
            value.type_str()
        )),
    }
}

fn describe(ty: VarType) -> &'static str {
    match ty {
        VarType::Int => "a whole number",
        VarType::Bool => "true or false",
        VarType::String | VarType::Enum | VarType::Player => "a string",
        VarType::List => "a list",
    }
}

/// Who may change a variable or a collection's items by an action in a
/// comment: part of the declaration, so it lives with the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    /// The player whose variable it is (for globals: any player).
    #[default]
    Own,
    /// Any active player.
    Any,
    /// Admins only.
    Admin,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn springs() -> VarDecl {
        toml::from_str(
            "type = \"int\"\ndefault = 3\nmax = 10\nunderflow = \"illegal\"\noverflow = \"clamp\"",
        )
        .unwrap()
    }

    fn no_players(_: &str) -> bool {
        false
    }

    #[test]
    fn checks_ints_against_their_bounds() {
        let d = springs();
        assert_eq!(d.check(&toml::Value::Integer(4), &no_players), None);
        assert_eq!(
            d.check(&toml::Value::Integer(12), &no_players).unwrap(),
            "12 is over its cap of 10"
        );
        assert_eq!(
            d.check(&toml::Value::Integer(-1), &no_players).unwrap(),
            "-1 is negative, and only non-negative values are allowed"
        );
        assert_eq!(
            d.check(&toml::Value::String("x".into()), &no_players)
                .unwrap(),
            "expected a whole number, found string"
        );
    }

    #[test]
    fn applies_changes_by_policy() {
        let d = springs();
        assert_eq!(d.apply(9, 5), Ok(10), "overflow clamps");
        assert_eq!(d.apply(2, -2), Ok(0));
        assert_eq!(
            d.apply(2, -3).unwrap_err().to_string(),
            "-1 is below the minimum of 0"
        );
        let clamped: VarDecl =
            toml::from_str("type = \"int\"\nmin = -5\nunderflow = \"clamp\"").unwrap();
        assert_eq!(clamped.apply(0, -9), Ok(-5));
    }

    #[test]
    fn checks_enums_players_and_lists() {
        let e: VarDecl =
            toml::from_str("type = \"enum\"\nvalues = [\"brass\", \"steel\"]").unwrap();
        assert!(
            e.check(&toml::Value::String("tin".into()), &no_players)
                .unwrap()
                .contains("not one of brass, steel")
        );
        assert_eq!(e.default_value(), toml::Value::String("brass".into()));
        let p: VarDecl = toml::from_str("type = \"player\"").unwrap();
        assert!(
            p.check(&toml::Value::String("Zed".into()), &no_players)
                .is_some()
        );
        assert!(
            p.check(&toml::Value::String("Ada".into()), &|n| n == "Ada")
                .is_none()
        );
        let l: VarDecl = toml::from_str("type = \"list\"\nitem = \"int\"").unwrap();
        let bad = toml::Value::Array(vec![toml::Value::Integer(1), toml::Value::Integer(-2)]);
        assert!(
            l.check(&bad, &no_players)
                .unwrap()
                .starts_with("item 2: -2 is negative")
        );
    }

    #[test]
    fn finds_problems_in_declarations() {
        let bad: VarDecl = toml::from_str("type = \"int\"\nmin = 5\nmax = 1\ndefault = 9").unwrap();
        assert_eq!(
            bad.problems(),
            [
                "its minimum 5 is above its cap 1",
                "its default: 9 is over its cap of 1"
            ]
        );
        let e: VarDecl = toml::from_str("type = \"enum\"").unwrap();
        assert_eq!(e.problems(), ["an enum needs its `values`"]);
    }
}
