//! Dice in the plan: every matter's new rolls are drawn and logged under
//! content/rolls/ before anything else is done (a roll is recorded at first
//! sight, whatever else the run does), and its status comment answers
//! them. See [`crate::record::rolls`].

use super::PlanError;
use super::effect::Effect;
use super::planner::{Planner, repo};
use crate::gamestate::commands;
use crate::matter::collected::Collected;
use crate::record::rolls::{self, RollLog, Seen};

/// What the status says when rolls are asked of a game with no seed.
const NO_SEED: &str = "#### Dice\n\nThis game has no `seed` in the `[game]` table of state/game.toml, so no roll can be drawn; a proposal can add one.";

impl Planner<'_> {
    /// Logs the new rolls of `matters` and notes each one's dice section.
    pub(super) fn log_rolls(&mut self, matters: &[&Collected]) -> Result<(), PlanError> {
        let tree = self.prospect.tree.clone();
        let mut files = None;
        let seed = self
            .prospect
            .game
            .state
            .as_ref()
            .and_then(|s| s.seed.clone());
        for m in matters {
            let n = m.info.number;
            if self.dice.contains_key(&n) {
                continue;
            }
            let seen: Vec<Seen<'_>> = m
                .comments
                .values()
                .map(|c| Seen {
                    id: c.id,
                    by: &c.author.0,
                    created: c.created,
                    edited: c.edited.is_some(),
                    body: &c.body,
                    link: c.link.as_deref(),
                })
                .collect();
            if files.is_none() {
                files = Some(self.trial.files(&tree).map_err(|why| repo(n, why))?);
            }
            let path = rolls::path(n);
            let logged = files
                .as_ref()
                .is_some_and(|fs| fs.iter().any(|f| f.path == path));
            // Cheap first look: no instruction word, no earlier log, no dice.
            let asks = seen.iter().any(|c| {
                c.body.contains("ROLL") || c.body.contains("ADD") || c.body.contains("SET")
            });
            if !asks && !logged {
                continue;
            }
            let old_text = files
                .as_ref()
                .and_then(|fs| fs.iter().find(|f| f.path == path))
                .map(|f| f.text.clone());
            let old = match old_text.as_deref().map(RollLog::parse) {
                Some(Ok(log)) => Some(log),
                Some(Err(why)) => return Err(repo(n, format!("{path} cannot be read: {why}"))),
                None => None,
            };
            let Some(seed) = old
                .as_ref()
                .map(|l| l.seed.clone())
                .or_else(|| seed.clone())
            else {
                if seen.iter().all(|c| commands::rolls(c.body).is_empty()) {
                    continue;
                }
                self.dice.insert(n, NO_SEED.to_string());
                continue;
            };
            let log = RollLog::update(old, n, &seed, &seen, self.now);
            if let Some(log) = &log {
                let text = log.render();
                if old_text.as_deref() != Some(text.as_str()) {
                    let message = format!("Rolls on #{n}");
                    self.step(
                        n,
                        Effect::Content {
                            path,
                            text,
                            message,
                        },
                    );
                }
            }
            if let Some(log) = &log {
                self.logs.insert(n, log.clone());
            }
            if let Some(answer) = rolls::answer(log.as_ref(), &seen) {
                self.dice.insert(n, answer);
            }
        }
        Ok(())
    }
}
