//! gitnomic runs a BlogNomic-style nomic on a git forge.
//!
//! The crate is split into a pure core and edges:
//!
//! - core (no files, clock, git or network): [`ruleset`] (the rules and
//!   their numbering), [`gamestate`] (players, dynasty, game variables),
//!   [`engine`] (the tally), [`time`], [`error`], [`markdown`];
//! - edges: the loaders inside those modules (`load`), [`git`] and [`cli`].
//!
//! `tests/architecture.rs` enforces the boundary.

pub mod cli;
pub mod engine;
pub mod error;
pub mod logging;
pub mod markdown;
pub mod time;
