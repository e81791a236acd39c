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
mod conformance;
mod counts;
mod demo;
mod dice;
mod doctor;
mod doors;
mod durable;
mod events;
mod fake_forgejo;
mod fake_git;
mod fake_github;
mod fake_routes;
mod fake_settings;
mod forge_long_threads;
mod forge_scenarios;
mod forgejo_conformance;
mod forgejo_doctor;
mod game_test;
mod github;
mod github_actions;
mod github_budget;
mod github_counts;
mod github_crowds;
mod github_doors;
mod github_faults;
mod github_pushes;
mod github_replies;
mod github_sweep;
mod github_thread_cache;
mod github_votes;
mod github_workflow_costs;
mod histories;
mod histories_checks;
mod hostile;
mod import;
mod kill_sweep;
mod local_forge;
mod matters;
mod new_game;
mod openapi;
mod plan;
mod players_files;
mod propose;
mod record_cache;
mod resolve;
mod schema;
mod site;
mod state;
mod swagger;
mod tally;
mod timings;
mod twins;
mod workflow_run;
