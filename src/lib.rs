//! gitnomic runs a BlogNomic-style nomic on a git forge.
//!
//! The crate is split into a pure core and edges:
//!
//! - core (no files, clock, git or network): [`ruleset`] (the rules and
//!   their numbering), [`gamestate`] (players, dynasty, game variables),
//!   [`game`] (both together, checked against each other), [`engine`]
//!   (the tally), [`matter`] and [`journal`] (matters as the forge reports them),
//!   [`collected`] (a matter and its journal as the engine sees them),
//!   [`plan`] (what one resolve run will do), [`audit`] (records replayed),
//!   [`record`] (resolved matters), [`report`] (status comments), [`history`]
//!   (imported history), [`content`] (pages), [`site`] (the static site,
//!   rendered to memory), [`source`], [`time`], [`error`], [`markdown`],
//!   [`import`] (rulesets kept elsewhere, read into our format), [`setup`]
//!   (a new game's files, what a forge repository needs);
//! - edges: [`load`] (reading a game from a directory or a git revision),
//!   [`bundle`] (the ready game built into the binary),
//!   [`git`], [`forge`] (GitHub and the local forge), [`timeline`] (the
//!   game's git history for the site), [`publish`] (writing rendered files),
//!   [`logging`] and [`cli`].
//!
//! `tests/architecture.rs` enforces the boundary.

pub mod admission;
pub mod audit;
pub mod bundle;
pub mod changelog;
pub mod cli;
pub mod collected;
pub mod content;
pub mod engine;
pub mod error;
pub mod forge;
pub mod game;
pub mod gamestate;
pub mod git;
pub mod history;
pub mod import;
pub mod journal;
pub mod load;
pub mod logging;
pub mod markdown;
pub mod matter;
pub mod plan;
pub mod publish;
pub mod record;
pub mod record_cache;
pub mod report;
pub mod resolve;
pub mod rolls;
pub mod ruleset;
pub mod setup;
pub mod site;
pub mod source;
pub mod time;
pub mod timeline;
pub mod weblinks;
