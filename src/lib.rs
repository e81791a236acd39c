//! gitnomic runs a BlogNomic-style nomic on a git forge.
//!
//! The crate is split into a pure core and edges:
//!
//! - core (no files, clock, git or network): [`ruleset`] (the rules and
//!   their numbering), [`gamestate`] (players, dynasty, game variables),
//!   [`game`] (both together, checked against each other), [`record`]
//!   (resolved matters), [`history`] (imported history), [`content`]
//!   (pages), [`site`] (the static site, rendered to memory), [`source`],
//!   [`time`], [`error`], [`markdown`];
//! - edges: [`load`] (reading a game from a directory or a git revision),
//!   [`git`], [`timeline`] (the game's git history for the site),
//!   [`publish`] (writing rendered files), [`logging`] and [`cli`].
//!
//! `tests/architecture.rs` enforces the boundary.

pub mod cli;
pub mod content;
pub mod error;
pub mod game;
pub mod gamestate;
pub mod git;
pub mod history;
pub mod load;
pub mod logging;
pub mod markdown;
pub mod publish;
pub mod record;
pub mod ruleset;
pub mod site;
pub mod source;
pub mod time;
pub mod timeline;
