//! Setting up a game: the files of a new one ([`new_game`]), what a
//! repository on a forge needs before a group can play there
//! ([`doctor`]), and the demo's scripted game ([`demo`]). Pure: the
//! commands `new`, `doctor` and `demo` gather the inputs and carry the
//! results out.

pub(crate) mod demo;
pub(crate) mod doctor;
pub(crate) mod doctor_forgejo;
pub(crate) mod new_game;
pub(crate) mod schedule;
pub(crate) mod timings;

/// What makes a new game impossible, in words the admin can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SetupError {
    /// Not a GitHub account name.
    #[error(
        "`{0}` is not a GitHub login: 1 to 39 letters, digits and single hyphens, not first or last"
    )]
    BadLogin(String),
    /// Not a Forgejo or Gitea account name.
    #[error(
        "`{0}` is not a Forgejo login: 1 to 40 letters, digits, `-`, `_` and `.`, a letter or digit first and last"
    )]
    BadForgejoLogin(String),
    /// Not a name a player can have in the gamestate.
    #[error("`{0}` cannot be a player's name: use letters, digits, `-` and `_` (NAME=LOGIN)")]
    BadName(String),
    /// A player given twice.
    #[error("the player `{0}` is given twice")]
    Twice(String),
    /// A branch name the workflows could not name.
    #[error("`{0}` cannot be the default branch: use letters, digits, `-`, `_`, `.` and `/`")]
    BadBranch(String),
    /// Not a repository the site can link to.
    #[error("`{0}` is not a repository: give OWNER/NAME (on GitHub) or its whole https:// address")]
    BadRepo(String),
    /// A bundled file that should be text is not.
    #[error("the bundled {0} is not UTF-8 text")]
    NotText(String),
    /// A bundled TOML file does not parse.
    #[error("the bundled {0} does not parse: {1}")]
    Toml(String, String),
    /// Something the bundle should hold is missing.
    #[error("the bundle lacks {0}")]
    Missing(String),
}
