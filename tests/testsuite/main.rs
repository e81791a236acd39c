//! The integration testsuite: one binary, so the crate links once.
//! Each test copies the bundled game to a temporary directory, changes
//! what it needs and runs the real `gitnomic` binary on it.

mod check;
mod demo;
mod fake_github;
mod game_test;
mod github;
mod histories;
mod import;
mod local_forge;
mod matters;
mod plan;
mod resolve;
mod site;
mod state;
