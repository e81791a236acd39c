//! The last pass: the status comments the passes said are written, each
//! once, from the finished plan. A votable matter's tally is written as
//! [`status_text`] writes it, the matter's dice and journal are added, and
//! a status posted only if it changed is left out when the matter's
//! status reads so already.

use std::collections::BTreeMap;

use super::PlanError;
use super::dice::Dice;
use super::effect::{Effect, Step};
use super::written::{Draft, Says, Status, Tally};
use crate::matter::MatterNumber;
use crate::matter::collected::Collected;
use crate::matter::status::{capitalised, flawed, status_text};

/// The effects of `drafts`, their statuses written, on `matters` (every
/// matter the plan was given, by number).
pub(super) fn render(
    drafts: Vec<Draft>,
    dice: &Dice,
    matters: &BTreeMap<MatterNumber, &Collected>,
) -> Result<Vec<Step>, PlanError> {
    let mut steps = Vec::with_capacity(drafts.len());
    for draft in drafts {
        match draft {
            Draft::Do(step) => steps.push(step),
            Draft::Status { number, status } => {
                let m = matters.get(&number).ok_or_else(|| {
                    PlanError::repository(number, "a status of a matter the plan was not given")
                })?;
                if let Some(body) = body(m, &status, dice) {
                    steps.push(Step {
                        number,
                        effect: Effect::Status { body },
                    });
                }
            }
        }
    }
    Ok(steps)
}

/// The body of `status` on `m`, or `None` when it is posted only if it
/// changed and `m`'s status reads so already.
fn body(m: &Collected, status: &Status, dice: &Dice) -> Option<String> {
    let text = match &status.says {
        Says::Text(text) => std::borrow::Cow::Borrowed(text.as_str()),
        Says::Tally(tally) => std::borrow::Cow::Owned(tally_text(m, tally)),
    };
    let body = dice.render(m.info.number, &status.journal, &text);
    let posted = status.unless_posted && m.status_body.as_deref() == Some(body.as_str());
    (!posted).then_some(body)
}

/// A votable matter's status: its tally, a flaw said beside what the
/// votes come to (before the rules' reasons), and the Address template
/// an enacted DoV's author is given.
fn tally_text(m: &Collected, tally: &Tally) -> String {
    let Tally {
        decision,
        players,
        changes,
        progress,
        flaw,
        address,
    } = tally;
    let mut text = status_text(decision, m, players, changes, progress);
    if let Some(why) = flaw {
        let said = capitalised(&flawed(why));
        let said = format!("\n**{}.**\n", said.trim_end_matches('.'));
        let at = text.find("\nBy the rules:\n").unwrap_or(text.len());
        text.insert_str(at, &said);
    }
    match address {
        Some(address) => format!("{text}\n{address}"),
        None => text,
    }
}
