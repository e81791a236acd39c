//! Dice in the plan: every matter's new rolls are drawn and logged under
//! content/rolls/ before anything else is done (a roll is recorded at first
//! sight, whatever else the run does), and its status comment answers
//! them. See [`crate::record::rolls`].
//!
//! The pass runs first: its logs are what comment actions read a roll's
//! total from, and every status comment the plan writes carries the
//! matter's dice.

use std::collections::BTreeMap;

use super::PlanError;
use super::effect::Effect;
use super::ground::Ground;
use super::written::Written;
use crate::gamestate::commands;
use crate::matter::MatterNumber;
use crate::matter::collected::Collected;
use crate::matter::journal::Journal;
use crate::record::rolls::{self, RollLog, Seen};
use crate::time::Timestamp;

/// What the status says when rolls are asked of a game with no seed.
const NO_SEED: &str = "#### Dice\n\nThis game has no `seed` in the `[game]` table of state/game.toml, so no roll can be drawn; a proposal can add one.";

/// The run's dice, by matter.
#[derive(Debug, Clone, Default)]
pub(super) struct Dice {
    /// The dice section of each matter's status comment.
    sections: BTreeMap<MatterNumber, String>,
    /// Each matter's dice log as this run leaves it.
    logs: BTreeMap<MatterNumber, RollLog>,
    /// The matters whose dice log cannot be read, and why: each waits (no
    /// roll drawn, no command carried out, nothing decided) until an admin
    /// mends or removes the log, while the others go on.
    unreadable: BTreeMap<MatterNumber, String>,
}

impl Dice {
    /// The matters whose dice log cannot be read, and why.
    pub(super) fn unreadable(&self) -> &BTreeMap<MatterNumber, String> {
        &self.unreadable
    }

    /// Matter `n`'s dice log as the run leaves it, if it has one.
    pub(super) fn log(&self, n: MatterNumber) -> Option<&RollLog> {
        self.logs.get(&n)
    }

    /// A status comment's body: `text`, the matter's dice, the journal.
    pub(super) fn render(&self, n: MatterNumber, journal: &Journal, text: &str) -> String {
        // Every roll the matter's log holds is kept in its status too
        // (and never taken out), where an audit finds one the log lost.
        let mut journal = journal.clone();
        for r in self
            .logs
            .get(&n)
            .map(|l| l.rolls.as_slice())
            .unwrap_or_default()
        {
            let said = format!("{} = {}", r.dice, r.total);
            let kept = journal.rolled.entry(r.comment).or_default();
            if !kept.contains(&said) {
                kept.push(said);
            }
        }
        match self.sections.get(&n) {
            Some(dice) => journal.render(&format!("{}\n\n{dice}", text.trim_end())),
            None => journal.render(text),
        }
    }
}

/// Logs the new rolls of `matters` (each once) on the game `ground` stands
/// on, and notes each one's dice section.
pub(super) fn roll(
    ground: &mut Ground,
    matters: &[&Collected],
) -> Result<(Dice, Written), PlanError> {
    let mut dice = Dice::default();
    let mut out = Written::default();
    let tree = ground.prospect.tree.clone();
    let seed = (ground.prospect.game.state.as_ref()).and_then(|s| s.seed.clone());
    let mut files = None;
    for m in matters {
        let n = m.info.number;
        if dice.sections.contains_key(&n) {
            continue;
        }
        let seen = seen(m);
        if files.is_none() {
            let read = ground.trial.files(&tree);
            files = Some(read.map_err(|why| PlanError::repository(n, why))?);
        }
        let path = rolls::path(n);
        let old = (files.iter().flatten())
            .find(|f| f.path == path)
            .map(|f| f.text.as_str());
        // Cheap first look: no instruction word, no earlier log, no dice.
        let asks = |c: &Seen<'_>| ["ROLL", "ADD", "SET"].iter().any(|w| c.body.contains(w));
        if old.is_some() || seen.iter().any(asks) {
            dice.draw(&mut out, n, &seen, (path, old), seed.as_deref(), ground.now)?;
        }
    }
    Ok((dice, out))
}

impl Dice {
    /// Draws matter `n`'s new rolls, which the comments `seen` ask for,
    /// onto its log at `path` (`old`: as content/rolls/ holds it), with
    /// the game's `seed` for a matter with no log yet.
    fn draw(
        &mut self,
        out: &mut Written,
        n: MatterNumber,
        seen: &[Seen<'_>],
        (path, old): (String, Option<&str>),
        seed_of_game: Option<&str>,
        now: Timestamp,
    ) -> Result<(), PlanError> {
        let log = match old.map(RollLog::parse) {
            Some(Ok(log)) => Some(log),
            Some(Err(why)) => {
                let why = format!(
                    "its dice log {path} cannot be read ({}); an admin must mend it",
                    rolls::unreadable(&why)
                );
                self.unreadable.insert(n, why);
                return Ok(());
            }
            None => None,
        };
        let seed = log.as_ref().map(|l| l.seed.clone());
        let Some(seed) = seed.or_else(|| seed_of_game.map(str::to_string)) else {
            if seen.iter().any(|c| !commands::rolls(c.body).is_empty()) {
                self.sections.insert(n, NO_SEED.to_string());
            }
            return Ok(());
        };
        let log = RollLog::update(log, n, &seed, seen, now);
        if let Some(log) = &log {
            let text = log.render();
            if old != Some(text.as_str()) {
                let message = format!("Rolls on #{n}");
                out.step(
                    n,
                    Effect::Content {
                        path,
                        text,
                        message,
                    },
                );
            }
            self.logs.insert(n, log.clone());
        }
        if let Some(answer) = rolls::answer(log.as_ref(), seen) {
            self.sections.insert(n, answer);
        }
        Ok(())
    }
}

/// The comments of `m` as the dice log reads them.
fn seen(m: &Collected) -> Vec<Seen<'_>> {
    m.comments
        .values()
        .map(|c| Seen {
            id: c.id,
            by: &c.author.0,
            created: c.created,
            edited: c.edited.is_some(),
            body: &c.body,
            link: c.link.as_deref(),
        })
        .collect()
}
