//! gitnomic runs a BlogNomic-style nomic on a git forge.
//!
//! The folders tell a vote's path: the forge reports it, `resolve`
//! collects it and drives the `plan`, which asks the [`engine`] for the
//! tally and says what to write; `resolve` carries that out on the forge
//! and in [`git`].
//!
//! - The pure core (no files, clock, git, network or process):
//!   [`engine`] (the tally), `plan` (what one resolve run will do),
//!   [`ruleset`], [`gamestate`], [`game`] (both checked against each other,
//!   the pages, the bundled game), [`matter`] (matters as the forge reports
//!   them, their journal, whether they may stand, the status comment, the
//!   audit), [`record`] (resolved matters, their cache, the dice log, the
//!   gamestate's changelog, imported history), [`import`], `setup`,
//!   [`site`] (rendered to memory), and the foundations [`error`],
//!   [`source`], [`time`], `markdown`, and [`text`] (forge text fitted to a
//!   commit subject or a terminal).
//! - The edges: [`load`] (a game read from a directory or a git revision),
//!   `resolve`, [`forge`] (GitHub and the local forge), [`git`],
//!   `staging` (new files put in place whole), `make` (whole games made on
//!   disk through it), [`publish`] (the site built into a directory, its
//!   caches and files, and served), and
//!   [`cli`], which parses arguments and prints.
//!
//! `tests/architecture.rs` holds the core to that.

pub mod bounds;
pub mod cli;
/// The tally engine, a crate of its own (`engine/`): see its docs.
pub use gitnomic_engine as engine;
pub mod error;
pub mod forge;
pub mod game;
pub mod gamestate;
pub mod git;
pub mod import;
pub mod load;
pub(crate) mod make;
pub(crate) use gitnomic_engine::markdown;
pub mod matter;
pub(crate) mod plan;
pub mod publish;
pub mod record;
pub(crate) mod resolve;
pub mod ruleset;
pub(crate) mod setup;
pub mod site;
pub mod source;
pub(crate) mod staging;
pub mod text;
pub use gitnomic_engine::time;
