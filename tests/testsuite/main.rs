//! The integration testsuite: one binary, so the crate links once, for
//! every test that runs the real `gitnomic` binary. Most copy the bundled
//! game to a temporary directory, change what they need and run it there;
//! `tally` runs it on the scenario files, and `browser` (ignored by
//! default, as it needs Chromium: `cargo test --test testsuite --
//! --ignored browser::`) opens what it builds in a browser.

mod actions;
mod audit;
mod browser;
mod check;
mod counts;
mod demo;
mod dice;
mod doctor;
mod doors;
mod durable;
mod events;
mod fake;
mod forgejo;
mod forges;
mod game_test;
mod github;
mod histories;
mod histories_checks;
mod hostile;
mod import;
mod kept_history;
mod kill_sweep;
mod local_forge;
mod matters;
mod new_game;
mod plan;
mod players_files;
mod propose;
mod record_cache;
mod resolve;
mod schema;
mod site;
mod state;
mod tally;
mod timings;
mod twins;
mod workflow_run;
