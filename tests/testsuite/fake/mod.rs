//! The fake forges the tests run the binary against, on loopback, each
//! held to its forge's published API description: GitHub (`github`,
//! `routes`, `settings`, checked by `openapi`), Forgejo (`forgejo`,
//! checked by `swagger`; what the two checkers share is `operations`), and
//! a git remote (`git`).

pub(crate) mod forgejo;
pub(crate) mod git;
pub(crate) mod github;
pub(crate) mod openapi;
mod operations;
pub(crate) mod routes;
pub(crate) mod settings;
pub(crate) mod swagger;
