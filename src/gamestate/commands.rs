//! What a comment says to the resolver besides votes: dice rolls and
//! action commands, one per line. Pure.
//!
//! A line that begins with `ROLL`, `SET`, `ADD` or `REMOVE` (capitals, as voting
//! words are) is an instruction; any other line is talk. As with votes,
//! the body is read as Markdown and lines in quotes or code are set aside
//! (`markdown::split_visible`), so quoting someone's roll or
//! command repeats nothing.
//!
//! - `ROLL DICE6`, `ROLL 2d6+1 for the ambush`: a roll; the text after the
//!   dice is a note.
//! - `SET springs 3`, `SET globals.round 2`, `SET Boris.springs 4`,
//!   `SET players.Boris.springs 4`, `SET motto "Tick tock"`: set a value.
//! - `ADD cogs -2`, `ADD springs DICE6`, `ADD springs -d4`: add to a
//!   whole number, perhaps a roll.
//! - `ADD gadgets key-2 name="Winding Key" cogs=4`: add an item to a
//!   collection (fields not given take their defaults);
//!   `REMOVE gadgets key-2` takes it away; `SET gadgets.key-2.cogs 2`
//!   (and `ADD`) change one field of an item.
//!
//! Every roll (a `ROLL` line or dice in a command) is numbered in reading
//! order from 0: its place among the comment's rolls is one of the inputs
//! it is drawn from.

use super::dice::{Dice, DiceError};
use crate::markdown::{Breaks, split_visible};

/// One instruction in a comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// A roll.
    Roll(Roll),
    /// An action command.
    Command(Command),
    /// A line that starts like an instruction but is not one.
    Bad {
        /// The line as written.
        line: String,
        /// Why it is not an instruction.
        why: Misread,
        /// Whether it asked for a roll (`ROLL`): the dice log says why it
        /// is not one; an action's status answers the commands.
        roll: bool,
    },
}

/// Why a line that starts like an instruction is not one: what the
/// player reads after "not a command:" or "is not a roll:".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Misread {
    /// `ROLL` with nothing after it.
    #[error("ROLL needs dice, such as `ROLL DICE6`")]
    NoDice,
    /// Dice that cannot be read.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// `SET` or `ADD` without a variable or a value; the word.
    #[error("{0} needs a variable and a value, such as `{0} springs 3`")]
    Incomplete(&'static str),
    /// `ADD` of something neither a number, dice nor an item.
    #[error(
        "ADD needs a whole number, dice or a new item, such as `ADD {name} 2`, `ADD {name} DICE6` or `ADD gadgets key-2 name=\"Winding Key\"`, not `{value}`"
    )]
    NotAddable {
        /// The variable named.
        name: String,
        /// The value given.
        value: String,
    },
    /// A name with an empty part (`a..b`, `.x`).
    #[error("`{0}` is not a variable name")]
    BadName(String),
    /// A name of too many parts.
    #[error(
        "`{0}` is not a variable: write `springs`, `globals.round`, `Boris.springs` or `gadgets.key-2.cogs`"
    )]
    NotAVariable(String),
    /// `REMOVE` without a collection and an id.
    #[error("REMOVE needs a collection and an item's id, such as `REMOVE gadgets key-2`")]
    RemoveWhat,
    /// A command right after a quoted line, which Markdown reads as part
    /// of the quote.
    #[error(
        "it continues the quoted line above it, so it is part of the quote; leave a blank line after a quote"
    )]
    InQuote,
}

/// A roll asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roll {
    /// The dice.
    pub dice: Dice,
    /// Its place among the comment's rolls, from 0.
    pub index: u32,
    /// Free text after the dice (`for the ambush`).
    pub note: String,
}

/// What a command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// Set the value.
    Set,
    /// Add to a whole number, or an item to a collection.
    Add,
    /// Remove an item from a collection.
    Remove,
}

/// Which variable a command names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A bare name: the commenter's own variable, or else a global.
    Bare(String),
    /// `globals.NAME`.
    Global(String),
    /// `PLAYER.NAME` or `players.PLAYER.NAME`: a player's variable.
    Row {
        /// The player's name.
        player: String,
        /// The variable.
        name: String,
    },
    /// `COLLECTION.ID.FIELD`: one field of a collection's item.
    Field {
        /// The collection.
        collection: String,
        /// The item's id.
        id: String,
        /// The field.
        field: String,
    },
}

/// The value of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A roll's total, negated if `negative`.
    Dice {
        /// The roll.
        roll: Roll,
        /// `-DICE6`: subtract the roll.
        negative: bool,
    },
    /// `true` or `false`.
    Bool(bool),
    /// Text (quotes, if any, removed).
    Text(String),
    /// A new item of a collection: its id and the fields given.
    Item {
        /// The item's id.
        id: String,
        /// `field=value` pairs, in the order written.
        fields: Vec<(String, Value)>,
    },
}

/// An action command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// SET or ADD.
    pub verb: Verb,
    /// The variable.
    pub target: Target,
    /// The value.
    pub value: Value,
    /// The line as written.
    pub line: String,
}

/// The rolls and commands of `body`, in reading order.
pub fn read(body: &str) -> Vec<Said> {
    let (plain, _) = split_visible(body, Breaks::Lines);
    let mut rolls = 0u32;
    let mut out = Vec::new();
    for line in plain.lines().map(str::trim) {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let said = match word {
            "ROLL" => roll(rest, &mut rolls).map(Said::Roll),
            "SET" => command(Verb::Set, rest, &mut rolls, line).map(Said::Command),
            "ADD" => command(Verb::Add, rest, &mut rolls, line).map(Said::Command),
            "REMOVE" => remove(rest, line).map(Said::Command),
            _ => continue,
        };
        out.push(said.unwrap_or_else(|why| Said::Bad {
            line: line.to_string(),
            why,
            roll: word == "ROLL",
        }));
    }
    // A command written right after a quoted line is part of the quote as
    // Markdown reads it (and as the forge shows it): not done, but said why.
    for line in crate::markdown::lazily_quoted(body) {
        let word = line.split_whitespace().next().unwrap_or_default();
        if matches!(word, "ROLL" | "SET" | "ADD" | "REMOVE") {
            out.push(Said::Bad {
                line: line.to_string(),
                why: Misread::InQuote,
                roll: word == "ROLL",
            });
        }
    }
    out
}

/// The rolls of `body`: `ROLL` lines and dice in commands, in order.
pub fn rolls(body: &str) -> Vec<Roll> {
    read(body)
        .into_iter()
        .filter_map(|said| match said {
            Said::Roll(roll)
            | Said::Command(Command {
                value: Value::Dice { roll, .. },
                ..
            }) => Some(roll),
            _ => None,
        })
        .collect()
}

fn roll(rest: &str, rolls: &mut u32) -> Result<Roll, Misread> {
    let (dice, note) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if dice.is_empty() {
        return Err(Misread::NoDice);
    }
    let dice: Dice = dice.parse()?;
    let index = *rolls;
    *rolls += 1;
    Ok(Roll {
        dice,
        index,
        note: note.trim().to_string(),
    })
}

fn command(verb: Verb, rest: &str, rolls: &mut u32, line: &str) -> Result<Command, Misread> {
    let word = match verb {
        Verb::Set => "SET",
        Verb::Add => "ADD",
        Verb::Remove => "REMOVE",
    };
    let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let value = value.trim();
    if name.is_empty() || value.is_empty() {
        return Err(Misread::Incomplete(word));
    }
    let target = target(name)?;
    // A number or dice is one word, and what follows it is a note; text
    // is the whole rest of the line.
    let first = value.split_whitespace().next().unwrap_or(value);
    // Dice written as dice but out of bounds (`101d6`) are said so, not
    // taken for an item or text.
    if let Err(e @ (DiceError::Count(_) | DiceError::Sides(_) | DiceError::Modifier(_))) =
        first.strip_prefix('-').unwrap_or(first).parse::<Dice>()
    {
        return Err(Misread::Dice(e));
    }
    let number = first.parse::<i64>();
    let value = match (
        verb,
        number.is_ok() || first.parse::<Dice>().is_ok() || verb == Verb::Add,
    ) {
        (_, true) => first,
        (_, false) => value,
    };
    let value = match (verb, value.parse::<i64>()) {
        (_, Ok(n)) => Value::Int(n),
        (Verb::Add, Err(_)) => match dice_value(value, rolls) {
            Some(dice) => dice,
            None => item(rest.split_once(char::is_whitespace).map_or("", |(_, v)| v)).ok_or_else(
                || Misread::NotAddable {
                    name: name.to_owned(),
                    value: value.to_owned(),
                },
            )?,
        },
        (Verb::Set | Verb::Remove, Err(_)) => match value {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => dice_value(value, rolls).unwrap_or_else(|| Value::Text(unquote(value))),
        },
    };
    Ok(Command {
        verb,
        target,
        value,
        line: line.to_string(),
    })
}

/// Dice standing for a number (`DICE6`, `-d4`), counted as the next roll.
fn dice_value(value: &str, rolls: &mut u32) -> Option<Value> {
    let (negative, text) = match value.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, value),
    };
    let dice: Dice = text.parse().ok()?;
    let index = *rolls;
    *rolls += 1;
    Some(Value::Dice {
        roll: Roll {
            dice,
            index,
            note: String::new(),
        },
        negative,
    })
}

fn target(name: &str) -> Result<Target, Misread> {
    let parts: Vec<&str> = name.split('.').collect();
    let ok = |s: &&str| !s.is_empty();
    if !parts.iter().all(ok) {
        return Err(Misread::BadName(name.to_owned()));
    }
    Ok(match parts.as_slice() {
        [one] => Target::Bare((*one).to_string()),
        ["globals", var] => Target::Global((*var).to_string()),
        ["players", player, var] | [player, var] => Target::Row {
            player: (*player).to_string(),
            name: (*var).to_string(),
        },
        [collection, id, field] => Target::Field {
            collection: (*collection).to_string(),
            id: (*id).to_string(),
            field: (*field).to_string(),
        },
        _ => return Err(Misread::NotAVariable(name.to_owned())),
    })
}

/// `REMOVE COLLECTION ID`.
fn remove(rest: &str, line: &str) -> Result<Command, Misread> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [collection, id] = words.as_slice() else {
        return Err(Misread::RemoveWhat);
    };
    Ok(Command {
        verb: Verb::Remove,
        target: Target::Bare((*collection).to_string()),
        value: Value::Text((*id).to_string()),
        line: line.to_string(),
    })
}

/// A new item: an id, then `field=value` words (a value in quotes may
/// hold spaces). `None` if the text is not one.
fn item(text: &str) -> Option<Value> {
    let words = quoted_words(text)?;
    let (id, pairs) = words.split_first()?;
    if id.contains('=') || id.contains('"') {
        return None;
    }
    let mut fields = Vec::new();
    for pair in pairs {
        let (field, value) = pair.split_once('=')?;
        if field.is_empty() || value.is_empty() {
            return None;
        }
        let value = match (value.parse::<i64>(), value) {
            (Ok(n), _) => Value::Int(n),
            (_, "true") => Value::Bool(true),
            (_, "false") => Value::Bool(false),
            _ => Value::Text(unquote(value)),
        };
        fields.push((field.to_string(), value));
    }
    Some(Value::Item {
        id: id.clone(),
        fields,
    })
}

/// Words split at spaces outside straight or curly quotes; `None` if a
/// quote is left open.
fn quoted_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut open: Option<char> = None;
    for ch in text.chars() {
        match (open, ch) {
            (None, '"') => open = Some('"'),
            (None, '“') => open = Some('”'),
            (Some(close), c) if c == close => open = None,
            (None, c) if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            _ => {}
        }
        word.push(ch);
    }
    if open.is_some() {
        return None;
    }
    if !word.is_empty() {
        words.push(word);
    }
    Some(words)
}

/// Text without its quotes: straight, or curly as Markdown's smart
/// punctuation makes them.
fn unquote(value: &str) -> String {
    [('"', '"'), ('“', '”')]
        .iter()
        .find_map(|(open, close)| value.strip_prefix(*open)?.strip_suffix(*close))
        .unwrap_or(value)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Dice {
        text.parse().unwrap()
    }

    #[test]
    fn rolls_with_notes_in_order() {
        let said = rolls("I try my luck.\nROLL DICE20 for the ambush\n\nROLL 2d6+1");
        assert_eq!(
            said,
            [
                Roll {
                    dice: d("DICE20"),
                    index: 0,
                    note: "for the ambush".into()
                },
                Roll {
                    dice: d("2DICE6+1"),
                    index: 1,
                    note: String::new()
                }
            ]
        );
    }

    #[test]
    fn quoted_and_coded_rolls_are_not_rolls() {
        let body = "> ROLL DICE6\n\n`ROLL DICE6`\n\n```\nROLL DICE6\nADD springs 3\n```\n\nroll DICE6, Roll d6";
        assert_eq!(read(body), []);
        assert_eq!(rolls("> quoted\n\nROLL D8").len(), 1);
    }

    #[test]
    fn commands_name_their_variable_and_value() {
        let said = read(
            "SET springs 3\nADD cogs -2\nSET globals.round 2\nADD springs DICE6\nSET Boris.springs 4\nSET players.Boris.motto \"Tick tock\"\nADD springs -d4",
        );
        let cmd = |i: usize| match &said[i] {
            Said::Command(c) => c.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(cmd(0).target, Target::Bare("springs".into()));
        assert_eq!(cmd(0).value, Value::Int(3));
        assert_eq!((cmd(1).verb, cmd(1).value), (Verb::Add, Value::Int(-2)));
        assert_eq!(cmd(2).target, Target::Global("round".into()));
        assert!(
            matches!(cmd(3).value, Value::Dice { ref roll, negative: false } if roll.index == 0)
        );
        assert_eq!(
            cmd(4).target,
            Target::Row {
                player: "Boris".into(),
                name: "springs".into()
            }
        );
        assert_eq!(cmd(5).value, Value::Text("Tick tock".into()));
        assert!(
            matches!(cmd(6).value, Value::Dice { ref roll, negative: true } if roll.index == 1)
        );
    }

    #[test]
    fn collection_commands_name_an_item() {
        let said = read(
            "ADD gadgets key-2 name=\"Winding Key\" cogs=4 spare=true\nREMOVE gadgets pocket-orrery\nSET gadgets.key-2.cogs 2\nADD gadgets key-3",
        );
        let cmd = |i: usize| match &said[i] {
            Said::Command(c) => c.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(cmd(0).target, Target::Bare("gadgets".into()));
        assert_eq!(
            cmd(0).value,
            Value::Item {
                id: "key-2".into(),
                fields: vec![
                    ("name".into(), Value::Text("Winding Key".into())),
                    ("cogs".into(), Value::Int(4)),
                    ("spare".into(), Value::Bool(true)),
                ]
            }
        );
        assert_eq!(
            (cmd(1).verb, cmd(1).value),
            (Verb::Remove, Value::Text("pocket-orrery".into()))
        );
        assert_eq!(
            cmd(2).target,
            Target::Field {
                collection: "gadgets".into(),
                id: "key-2".into(),
                field: "cogs".into()
            }
        );
        assert_eq!(
            cmd(3).value,
            Value::Item {
                id: "key-3".into(),
                fields: Vec::new()
            }
        );
    }

    #[test]
    fn bad_lines_say_why() {
        let why = |body: &str| match &read(body)[0] {
            Said::Bad { why, .. } => why.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(why("ROLL"), Misread::NoDice);
        assert_eq!(
            why("ROLL").to_string(),
            "ROLL needs dice, such as `ROLL DICE6`"
        );
        assert!(why("ROLL lots").to_string().contains("`lots` is not dice"));
        assert!(matches!(why("ROLL 0d6"), Misread::Dice(_)));
        assert!(why("ROLL 0d6").to_string().contains("1 to 100 dice"));
        for (line, says) in [
            ("ADD springs 101d6", "1 to 100 dice"),
            (
                "ADD springs -2d6+2000000 for luck",
                "the modifier is at most",
            ),
            ("SET springs d2000000000", "at most 1000000000 sides"),
        ] {
            assert!(matches!(why(line), Misread::Dice(_)), "{line}");
            assert!(
                why(line).to_string().contains(says),
                "{line}: {}",
                why(line)
            );
        }
        assert_eq!(why("SET springs"), Misread::Incomplete("SET"));
        assert!(
            why("SET springs")
                .to_string()
                .contains("SET needs a variable and a value")
        );
        assert!(matches!(
            why("ADD springs many things"),
            Misread::NotAddable { name, .. } if name == "springs"
        ));
        assert!(
            why("ADD springs many things")
                .to_string()
                .contains("ADD needs a whole number, dice or a new item")
        );
        assert!(matches!(
            why("ADD gadgets k name=\"open"),
            Misread::NotAddable { .. }
        ));
        assert_eq!(why("REMOVE gadgets"), Misread::RemoveWhat);
        assert_eq!(
            why("ADD a.b.c.d 1"),
            Misread::NotAVariable("a.b.c.d".into())
        );
        assert_eq!(why("SET a..c 1"), Misread::BadName("a..c".into()));
        assert_eq!(why("SET .x 1"), Misread::BadName(".x".into()));
        assert_eq!(why("> quoted\nSET springs 1"), Misread::InQuote);
    }

    /// A bad line says whether it asked for a roll, so the dice log and an
    /// action's answers each take theirs without reading the words.
    #[test]
    fn a_bad_line_says_whether_it_was_a_roll() {
        let rolls = |body: &str| -> Vec<bool> {
            read(body)
                .iter()
                .filter_map(|s| match s {
                    Said::Bad { roll, .. } => Some(*roll),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            rolls("ROLL lots\nSET springs\nREMOVE gadgets"),
            [true, false, false]
        );
        assert_eq!(rolls("> quoted\nROLL DICE6"), [true]);
        assert_eq!(rolls("> quoted\nSET springs 1"), [false]);
    }
}
