//! The dice log, `content/rolls/<matter>.toml`: every roll made in a
//! matter's comments, as the resolver first saw it. Pure.
//!
//! A roll is logged the first time the resolver sees it, with the public
//! inputs it was drawn from (see [`crate::gamestate::dice`]) and its
//! result, and is never logged again: the log is the memory of first
//! sight. A comment edited so that its rolls read differently, or deleted,
//! leaves its rolls in the log marked `edited` or `deleted`, so re-rolling
//! by reposting is visible to everyone. `gitnomic roll verify` recomputes
//! every result ([`verify`]).

use serde::{Deserialize, Serialize};

use crate::engine::MatterNumber;
use crate::error::Diagnostic;
use crate::gamestate::commands::{self, Said};
use crate::gamestate::dice::{Dice, Inputs, throw};
use crate::source::SourceFile;
use crate::time::Timestamp;

/// Where the log of `matter`'s rolls lives.
pub fn path(matter: MatterNumber) -> String {
    format!("content/rolls/{matter:05}.toml")
}

/// The rolls of one matter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollLog {
    /// The matter.
    pub matter: MatterNumber,
    /// The game's seed when the first roll was logged; every roll of the
    /// log is drawn with it, so changing the game's seed later changes no
    /// result already made.
    pub seed: String,
    /// How its rolls are drawn (see [`crate::gamestate::dice::seed_of`]):
    /// 2, with the moment the resolver first saw each; 1 (not written),
    /// from the public inputs alone, as logs begun before 2 were.
    #[serde(default = "first_draw", skip_serializing_if = "is_first_draw")]
    pub draw: u32,
    /// The rolls, in the order they were first seen.
    #[serde(default)]
    pub rolls: Vec<Logged>,
}

/// How the rolls of a log begun now are drawn.
pub const DRAW: u32 = 2;

/// How the rolls of a log that does not say are drawn.
fn first_draw() -> u32 {
    1
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
fn is_first_draw(draw: &u32) -> bool {
    *draw == 1
}

/// What became of a roll's comment after the roll was logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Afterwards {
    /// The comment was edited and no longer reads as this roll.
    Edited,
    /// The comment was deleted.
    Deleted,
}

/// One roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Logged {
    /// The comment's id.
    pub comment: u64,
    /// The roll's place among the comment's rolls, from 0.
    pub index: u32,
    /// Who rolled (the forge login).
    pub by: String,
    /// When the forge says the comment was made.
    pub created: Timestamp,
    /// When the resolver first saw it.
    pub seen: Timestamp,
    /// The dice, canonically spelt (`2DICE6+1`).
    pub dice: String,
    /// The text after the dice.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// Each die's face.
    pub faces: Vec<u32>,
    /// The result.
    pub total: i64,
    /// Whether the comment was edited or deleted since.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub afterwards: Option<Afterwards>,
    /// A link to the comment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A comment as the forge shows it now.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// Its id.
    pub id: u64,
    /// Its author's login.
    pub by: &'a str,
    /// When it was made.
    pub created: Timestamp,
    /// Whether it was ever edited.
    pub edited: bool,
    /// Its body now.
    pub body: &'a str,
    /// A link to it.
    pub link: Option<&'a str>,
}

impl Logged {
    /// The inputs this roll was drawn from.
    pub fn inputs<'a>(&self, log: &'a RollLog) -> Inputs<'a> {
        Inputs {
            seed: &log.seed,
            matter: log.matter.get(),
            comment: self.comment,
            created: self.created,
            index: self.index,
            seen: (log.draw >= 2).then_some(self.seen),
        }
    }

    /// The roll for people: `2DICE6+1 for the ambush: 3 + 5 + 1 = 9`.
    pub fn describe(&self) -> String {
        let faces: Vec<String> = self.faces.iter().map(u32::to_string).collect();
        let sum = faces.join(" + ");
        let dice: Option<Dice> = self.dice.parse().ok();
        let modifier = match dice.map_or(0, |d| d.modifier) {
            0 => String::new(),
            m if m > 0 => format!(" + {m}"),
            m => format!(" - {}", -m),
        };
        let note = if self.note.is_empty() {
            String::new()
        } else {
            format!(" {}", self.note)
        };
        let shown = if self.faces.len() > 1 || !modifier.is_empty() {
            format!("{sum}{modifier} = **{}**", self.total)
        } else {
            format!("**{}**", self.total)
        };
        format!("{}{note}: {shown}", self.dice)
    }
}

impl RollLog {
    /// Reads a log file.
    pub fn parse(text: &str) -> Result<RollLog, toml::de::Error> {
        let log: RollLog = toml::from_str(text)?;
        if !(1..=DRAW).contains(&log.draw) {
            return Err(serde::de::Error::custom(format!(
                "draw = {} is not a way this program draws rolls (1 or {DRAW})",
                log.draw
            )));
        }
        Ok(log)
    }

    /// The log as its file.
    pub fn render(&self) -> String {
        let body = toml::to_string(self).unwrap_or_default();
        format!(
            "# Dice rolled in the comments of #{}, as the resolver first saw them.\n# Written by gitnomic; `gitnomic roll verify` recomputes every result.\n\n{body}",
            self.matter
        )
    }

    /// The logged roll of comment `comment` at `index`.
    pub fn get(&self, comment: u64, index: u32) -> Option<&Logged> {
        self.rolls
            .iter()
            .find(|r| r.comment == comment && r.index == index)
    }

    /// The log brought up to date with the comments as they are now (seen
    /// at `now`): new rolls drawn and added, rolls whose comment no longer
    /// reads so marked. `old` is the log so far, `seed` the game's seed for
    /// a log begun now. Returns `None` if there is nothing to log.
    pub fn update(
        old: Option<RollLog>,
        matter: MatterNumber,
        seed: &str,
        comments: &[Seen<'_>],
        now: Timestamp,
    ) -> Option<RollLog> {
        let mut log = old.unwrap_or_else(|| RollLog {
            matter,
            seed: seed.to_string(),
            draw: DRAW,
            rolls: Vec::new(),
        });
        for c in comments {
            for roll in commands::rolls(c.body) {
                if log.get(c.id, roll.index).is_some() {
                    continue;
                }
                let dice = roll.dice;
                let mut logged = Logged {
                    comment: c.id,
                    index: roll.index,
                    by: c.by.to_string(),
                    created: c.created,
                    seen: now,
                    dice: dice.to_string(),
                    note: roll.note,
                    faces: Vec::new(),
                    total: 0,
                    afterwards: None,
                    link: c.link.map(str::to_string),
                };
                let thrown = throw(dice, &logged.inputs(&log));
                logged.faces = thrown.faces;
                logged.total = thrown.total;
                log.rolls.push(logged);
            }
        }
        for logged in log.rolls.iter_mut().filter(|r| r.afterwards.is_none()) {
            logged.afterwards = match comments.iter().find(|c| c.id == logged.comment) {
                None => Some(Afterwards::Deleted),
                Some(c) if c.edited && !still_reads(c.body, logged) => Some(Afterwards::Edited),
                Some(_) => None,
            };
        }
        (!log.rolls.is_empty()).then_some(log)
    }
}

/// Why a dice log cannot be read, on one line: the resolver's line for
/// its matter and `check` say it alike.
pub fn unreadable(e: &toml::de::Error) -> String {
    e.message().trim().replace('\n', " ")
}

/// The problem of a dice log under `content/rolls/` that cannot be read,
/// or that names another matter than its file, for `check` to name. It is
/// no problem of the game that stops the resolver: the log's matter alone
/// waits until an admin mends it (only the resolver and admins write
/// there), and every other matter goes on.
pub fn problem(file: &SourceFile) -> Option<Diagnostic> {
    let name = file
        .path
        .strip_prefix("content/rolls/")?
        .strip_suffix(".toml")?;
    match RollLog::parse(&file.text) {
        Err(e) => {
            let line = e
                .span()
                .map_or(0, |span| file.text[..span.start].matches('\n').count() + 1);
            let message = unreadable(&e);
            Some(Diagnostic::new(
                &file.path,
                line,
                format!(
                    "the dice log cannot be read ({message}): its matter waits until it is mended"
                ),
            ))
        }
        Ok(log) if log.rolls.is_empty() => Some(Diagnostic::new(
            &file.path,
            0,
            "the dice log holds no roll: the resolver never writes one so",
        )),
        Ok(log) if name.parse::<u64>().ok() != Some(log.matter.get()) => Some(Diagnostic::new(
            &file.path,
            0,
            format!(
                "the dice log is of #{}, not of the matter its file is named for",
                log.matter
            ),
        )),
        Ok(_) => None,
    }
}

/// Whether `body` still asks for the logged roll, at the same place.
fn still_reads(body: &str, logged: &Logged) -> bool {
    commands::rolls(body)
        .iter()
        .any(|r| r.index == logged.index && r.dice.to_string() == logged.dice)
}

/// A logged result that is not what its inputs give.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The matter.
    pub matter: MatterNumber,
    /// The comment.
    pub comment: u64,
    /// The roll's place in it.
    pub index: u32,
    /// What is wrong.
    pub why: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: #{} comment {} roll {}: {}",
            path(self.matter),
            self.matter,
            self.comment,
            self.index,
            self.why
        )
    }
}

/// Every roll of `log` whose logged result is not what its inputs give.
pub fn verify(log: &RollLog) -> Vec<Mismatch> {
    let mismatch = |r: &Logged, why: String| Mismatch {
        matter: log.matter,
        comment: r.comment,
        index: r.index,
        why,
    };
    log.rolls
        .iter()
        .filter_map(|r| {
            let dice: Dice = match r.dice.parse() {
                Ok(dice) => dice,
                Err(e) => return Some(mismatch(r, format!("{e}"))),
            };
            // No run reads a comment made after its own moment.
            if r.seen < r.created {
                let why = format!(
                    "logged as first seen at {}, before its comment was made at {}",
                    r.seen.in_words(),
                    r.created.in_words()
                );
                return Some(mismatch(r, why));
            }
            let thrown = throw(dice, &r.inputs(log));
            (thrown.faces != r.faces || thrown.total != r.total).then(|| {
                mismatch(
                    r,
                    format!(
                        "logged {:?} = {}, but the inputs give {:?} = {}",
                        r.faces, r.total, thrown.faces, thrown.total
                    ),
                )
            })
        })
        .collect()
}

/// A roll the gamestate's history credits to a change: an action's commit
/// message says `rolled DICE6 = 4` for a value, as `gitnomic log` shows it.
#[derive(Debug, Clone)]
pub struct Credited<'a> {
    /// The matter the commit names.
    pub matter: MatterNumber,
    /// The comment the roll was made in.
    pub comment: u64,
    /// The roll as credited: `DICE6 = 4`.
    pub roll: &'a str,
    /// What credits it: `commit 1a2b3c4`, `#5's status comment`.
    pub from: String,
}

/// Why each roll the history credits is not in the dice log as credited:
/// a log deleted, or a roll dropped from it or changed, leaves the history
/// naming a roll nobody can verify.
pub fn unlogged(logs: &[RollLog], credited: &[Credited<'_>]) -> Vec<String> {
    credited
        .iter()
        .filter(|c| {
            !logs.iter().filter(|l| l.matter == c.matter).any(|l| {
                l.rolls.iter().any(|r| {
                    r.comment == c.comment && format!("{} = {}", r.dice, r.total) == c.roll
                })
            })
        })
        .map(|c| {
            format!(
                "{}: #{} comment {}: {} credits the roll `{}`, but the dice log does not hold it",
                path(c.matter),
                c.matter,
                c.comment,
                c.from,
                c.roll
            )
        })
        .collect()
}

/// The status comment's account of a matter's rolls (and of lines that
/// look like rolls but are not), or `None` if there are none.
pub fn answer(log: Option<&RollLog>, comments: &[Seen<'_>]) -> Option<String> {
    let mut lines = Vec::new();
    for r in log.map(|l| l.rolls.as_slice()).unwrap_or_default() {
        let after = match r.afterwards {
            None => "",
            Some(Afterwards::Edited) => {
                " (its comment was edited since; the roll stands as first seen)"
            }
            Some(Afterwards::Deleted) => " (its comment was deleted; the roll stands)",
        };
        lines.push(format!(
            "- @{} rolled {} (comment {}){after}",
            r.by,
            r.describe(),
            r.comment
        ));
    }
    for c in comments {
        for said in commands::read(c.body) {
            if let Said::Bad {
                line,
                why,
                roll: true,
            } = said
            {
                lines.push(format!(
                    "- @{} (comment {}): `{line}` is not a roll: {why}",
                    c.by, c.id
                ));
            }
        }
    }
    (!lines.is_empty()).then(|| format!("#### Dice\n\n{}", lines.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_unix(1_900_000_000 + s)
    }

    fn seen(id: u64, body: &str, edited: bool) -> Seen<'_> {
        Seen {
            id,
            by: "ada",
            created: at(id as i64),
            edited,
            body,
            link: None,
        }
    }

    #[test]
    fn a_log_begun_the_first_way_keeps_drawing_so() {
        let comments = [seen(1, "ROLL 4DICE1000000000", false)];
        let log = RollLog::update(None, MatterNumber(7), "s", &comments, at(100)).unwrap();
        assert_eq!(log.draw, DRAW);
        assert!(log.render().contains("draw = 2"), "{}", log.render());
        // The same roll drawn the first way, as an older log holds it.
        let mut first = log.clone();
        first.draw = 1;
        let inputs = first.rolls[0].inputs(&first);
        assert_eq!(inputs.seen, None);
        let thrown = throw("4DICE1000000000".parse().unwrap(), &inputs);
        assert_ne!(thrown.faces, log.rolls[0].faces, "the moment seen draws");
        first.rolls[0].faces = thrown.faces;
        first.rolls[0].total = thrown.total;
        let text = first.render();
        assert!(!text.contains("draw"), "{text}");
        let read = RollLog::parse(&text).unwrap();
        assert_eq!(read, first);
        assert_eq!(verify(&read), []);
        // A later roll on that log is drawn the first way too.
        let more = [comments[0], seen(2, "ROLL D20", false)];
        let later = RollLog::update(Some(read), MatterNumber(7), "s", &more, at(200)).unwrap();
        assert_eq!(later.draw, 1);
        assert_eq!(verify(&later), []);
    }

    #[test]
    fn a_roll_seen_before_its_comment_was_made_fails_verify() {
        let comments = [seen(5, "ROLL D6", false)];
        let mut log = RollLog::update(None, MatterNumber(7), "s", &comments, at(100)).unwrap();
        log.rolls[0].seen = at(4);
        let found = verify(&log);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].why.contains("before its comment was made"),
            "{}",
            found[0].why
        );
    }

    #[test]
    fn check_names_a_log_that_cannot_be_read_holds_nothing_or_is_misfiled() {
        let comments = [seen(1, "ROLL D6", false)];
        let log = RollLog::update(None, MatterNumber(7), "s", &comments, at(100)).unwrap();
        let file = |path: &str, text: String| SourceFile {
            path: path.into(),
            text,
        };
        assert_eq!(
            problem(&file("content/rolls/00007.toml", log.render())),
            None
        );
        assert_eq!(problem(&file("content/pages/x.toml", "x".into())), None);
        let named = |path: &str, text: String| problem(&file(path, text)).map(|d| d.to_string());
        let misfiled = named("content/rolls/00008.toml", log.render()).unwrap();
        assert!(
            misfiled.contains("is of #7, not of the matter"),
            "{misfiled}"
        );
        let mut empty = log.clone();
        empty.rolls.clear();
        let empty = named("content/rolls/00007.toml", empty.render()).unwrap();
        assert!(empty.contains("holds no roll"), "{empty}");
        let broken = named("content/rolls/00007.toml", "matter = \"x\"".into()).unwrap();
        assert!(
            broken.starts_with("content/rolls/00007.toml:1: the dice log cannot be read"),
            "{broken}"
        );
    }

    #[test]
    fn rolls_are_logged_once_and_verify() {
        let comments = [
            seen(1, "ROLL 2DICE6+1 for the ambush", false),
            seen(2, "no roll", false),
        ];
        let log = RollLog::update(None, MatterNumber(7), "s", &comments, at(100)).unwrap();
        assert_eq!(log.rolls.len(), 1);
        assert_eq!(log.rolls[0].dice, "2DICE6+1");
        assert_eq!(verify(&log), []);
        let again = RollLog::update(
            Some(log.clone()),
            MatterNumber(7),
            "other",
            &comments,
            at(200),
        )
        .unwrap();
        assert_eq!(again, log, "seen again, nothing changes");
        let text = log.render();
        assert_eq!(RollLog::parse(&text).unwrap(), log);
    }

    #[test]
    fn edits_and_deletions_are_marked_and_the_roll_stays() {
        let first = [seen(1, "ROLL DICE6", false), seen(2, "ROLL DICE8", false)];
        let log = RollLog::update(None, MatterNumber(7), "s", &first, at(100)).unwrap();
        let later = [seen(1, "ROLL DICE20", true)];
        let log2 =
            RollLog::update(Some(log.clone()), MatterNumber(7), "s", &later, at(200)).unwrap();
        assert_eq!(log2.rolls.len(), 2, "the edited roll is not rolled again");
        assert_eq!(log2.rolls[0].afterwards, Some(Afterwards::Edited));
        assert_eq!(log2.rolls[0].total, log.rolls[0].total);
        assert_eq!(log2.rolls[1].afterwards, Some(Afterwards::Deleted));
        let text = answer(Some(&log2), &later).unwrap();
        assert!(text.contains("was edited since"), "{text}");
        assert!(text.contains("was deleted"), "{text}");
        let harmless = [
            seen(1, "ROLL DICE6 (typo fixed)", true),
            seen(2, "ROLL DICE8", false),
        ];
        let log3 = RollLog::update(Some(log), MatterNumber(7), "s", &harmless, at(200)).unwrap();
        assert!(log3.rolls.iter().all(|r| r.afterwards.is_none()));
    }

    #[test]
    fn a_changed_result_is_named() {
        let comments = [seen(5, "ROLL d6", false)];
        let mut log = RollLog::update(None, MatterNumber(9), "s", &comments, at(1)).unwrap();
        log.rolls[0].total += 1;
        let found = verify(&log);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .to_string()
                .starts_with("content/rolls/00009.toml: #9 comment 5 roll 0: logged"),
            "{}",
            found[0]
        );
    }

    #[test]
    fn bad_rolls_are_answered() {
        let comments = [seen(3, "ROLL lots", false)];
        assert_eq!(
            RollLog::update(None, MatterNumber(1), "s", &comments, at(1)),
            None
        );
        let text = answer(None, &comments).unwrap();
        assert!(
            text.contains("`ROLL lots` is not a roll: `lots` is not dice"),
            "{text}"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
                concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/record/rolls.txt"),
            ))),
            ..proptest::prelude::ProptestConfig::with_cases(300)
        })]

        /// Whatever comments come and go, every log the resolver writes
        /// verifies, and changing any one result makes it fail, naming it.
        #[test]
        fn verify_accepts_what_is_written_and_rejects_any_change(
            first in proptest::collection::vec((0..BODIES.len(), 0u64..6), 0..8),
            later in proptest::collection::vec((0..BODIES.len(), 0u64..6, proptest::bool::ANY), 0..8),
            seed in "[a-z0-9-]{0,12}",
            pick in 0usize..1000,
            bump in 1i64..5,
        ) {
            let seen_all = |cs: &[(usize, u64, bool)]| -> Vec<(u64, &'static str, bool)> {
                cs.iter().map(|(b, id, edited)| (*id, BODIES[*b], *edited)).collect()
            };
            let to_seen = |cs: &[(u64, &'static str, bool)]| -> Vec<Seen<'static>> {
                cs.iter().map(|(id, body, edited)| Seen {
                    id: *id, by: "p", created: at(*id as i64), edited: *edited, body, link: None,
                }).collect()
            };
            let first: Vec<(usize, u64, bool)> = first.iter().map(|(b, id)| (*b, *id, false)).collect();
            let one = seen_all(&first);
            let two = seen_all(&later);
            let log = RollLog::update(None, MatterNumber(3), &seed, &to_seen(&one), at(50));
            let log = RollLog::update(log, MatterNumber(3), &seed, &to_seen(&two), at(60));
            let Some(mut log) = log else { return Ok(()) };
            proptest::prop_assert_eq!(verify(&log), vec![]);
            let round_tripped = RollLog::parse(&log.render()).unwrap();
            proptest::prop_assert_eq!(&round_tripped, &log);
            let i = pick % log.rolls.len();
            if pick % 2 == 0 {
                log.rolls[i].total += bump;
            } else {
                log.rolls[i].faces[0] = log.rolls[i].faces[0].wrapping_add(1);
            }
            let found = verify(&log);
            proptest::prop_assert_eq!(found.len(), 1);
            proptest::prop_assert_eq!(found[0].comment, log.rolls[i].comment);
            proptest::prop_assert_eq!(found[0].index, log.rolls[i].index);
        }
    }

    const BODIES: [&str; 8] = [
        "ROLL DICE6",
        "ROLL 2d6+1 for luck",
        "FOR",
        "ROLL d20\nROLL 3DICE4-2",
        "> ROLL D6",
        "ADD springs DICE6",
        "ROLL DICE0",
        "ROLL 100d1000000000",
    ];
}
