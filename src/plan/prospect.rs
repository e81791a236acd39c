//! The default branch as it will be: the game after the merges and edits
//! planned so far, kept as a git tree (through [`Trial`]) and as a checked
//! [`Game`]. Each pull request the plan would merge is first merged here,
//! in memory, and the result checked, so two proposals that are valid
//! alone but not together are caught before anything is merged.

use super::effect::{DynastyValue, GAME_FILE};
use super::{Merged, TreeId, Trial, TrialError};
use crate::game::Game;
use crate::gamestate::edit::{EditError, StateDoc};
use crate::matter::{HeadSha, Kind, MatterNumber, admission};

/// What a trial merge of a pull request found.
#[derive(Debug, Clone)]
pub(crate) enum Attempt {
    /// It merges cleanly and the merged game checks.
    Clean(TreeId, Box<Game>),
    /// It cannot be a matter of its kind at all (it touches files its kind
    /// may not change): it is closed without a record.
    NotAMatter(String),
    /// It cannot be carried out (a conflict, or the merged game would not
    /// check): an enactment fails with this reason.
    Refused(String),
}

/// Why the `[dynasty]` table of state/game.toml could not be edited.
/// Each says what a person saw before; none is a source of another, so a
/// chain of errors prints it once.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DynastyEditError {
    /// The tree has no state/game.toml.
    #[error("{GAME_FILE} is missing")]
    Missing,
    /// The file is not TOML, or its `[dynasty]` is not a table.
    #[error("{0}")]
    Edit(EditError),
    /// A moment that TOML does not read as a date and time.
    #[error("{0}")]
    Time(toml_edit::DatetimeParseError),
    /// The repository could not read or write the tree.
    #[error("{0}")]
    Trial(TrialError),
}

/// The default branch as it will be.
#[derive(Debug, Clone)]
pub(crate) struct Prospect {
    pub tree: TreeId,
    /// Its game, checked.
    pub game: Game,
}

impl Prospect {
    /// Merges `head` onto the prospect in memory and checks the result.
    /// `Err` when the repository cannot answer (the head is not there):
    /// that stops the run rather than fail a matter for our own trouble.
    pub(crate) fn attempt(
        &self,
        trial: &mut dyn Trial,
        kind: Kind,
        number: MatterNumber,
        head: &HeadSha,
    ) -> Result<Attempt, TrialError> {
        let changes = trial.changes(head)?;
        if let Some(why) = changes
            .paths
            .iter()
            .find_map(|p| admission::touches(kind, p))
        {
            return Ok(Attempt::NotAMatter(why));
        }
        if let Some(why) = changes.unfit.into_iter().next() {
            return Ok(Attempt::NotAMatter(why));
        }
        let tree = match trial.merge(&self.tree, head)? {
            Merged::Clean(tree) => tree,
            Merged::Conflict(paths) => {
                return Ok(Attempt::Refused(format!(
                    "it cannot be merged: it conflicts with what was enacted before it, in {}",
                    paths.join(", ")
                )));
            }
        };
        let game = Game::check(&trial.files(&tree)?);
        if let Some(problem) = game.problems.iter().next() {
            let more = game.problems.len() - 1;
            let more = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            return Ok(Attempt::Refused(format!(
                "enacting #{number} now would leave the game with problems: {problem}{more}"
            )));
        }
        Ok(Attempt::Clean(tree, Box::new(game)))
    }

    /// Takes a clean trial merge as the new prospect.
    pub(crate) fn adopt(&mut self, tree: TreeId, game: Game) {
        self.tree = tree;
        self.game = game;
    }

    /// Sets keys of the `[dynasty]` table in the prospect's state/game.toml.
    pub(crate) fn edit_dynasty(
        &mut self,
        trial: &mut dyn Trial,
        edits: &[(&'static str, DynastyValue)],
    ) -> Result<(), DynastyEditError> {
        let files = trial.files(&self.tree).map_err(DynastyEditError::Trial)?;
        let text = files
            .iter()
            .find(|f| f.path == GAME_FILE)
            .map(|f| f.text.clone())
            .ok_or(DynastyEditError::Missing)?;
        let edited = edit_dynasty_text(&text, edits)?;
        self.tree = trial
            .write(&self.tree, GAME_FILE, &edited)
            .map_err(DynastyEditError::Trial)?;
        self.game = Game::check(&trial.files(&self.tree).map_err(DynastyEditError::Trial)?);
        Ok(())
    }
}

/// The text of state/game.toml with keys of its `[dynasty]` table set,
/// everything else kept byte for byte. The run carries out the same edit
/// on the file as it then is on the default branch.
pub(crate) fn edit_dynasty_text(
    text: &str,
    edits: &[(&'static str, DynastyValue)],
) -> Result<String, DynastyEditError> {
    let mut doc = StateDoc::parse(GAME_FILE, text).map_err(DynastyEditError::Edit)?;
    for (key, value) in edits {
        let value: toml_edit::Value = match value {
            DynastyValue::Text(s) => s.as_str().into(),
            DynastyValue::Number(n) => (*n).into(),
            DynastyValue::Time(t) => t
                .to_string()
                .parse::<toml_edit::Datetime>()
                .map_err(DynastyEditError::Time)?
                .into(),
        };
        doc.set(&["dynasty"], key, value)
            .map_err(DynastyEditError::Edit)?;
    }
    Ok(doc.render())
}
