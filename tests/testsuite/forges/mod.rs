//! Scenarios written once and played on both fake forges, GitHub's and
//! Forgejo's, asserting the same decisions and records on each.

mod long_threads;
pub(crate) mod scenarios;
