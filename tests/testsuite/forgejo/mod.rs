//! The Forgejo adapter's own tests: the fake's checker against Forgejo's
//! description, `doctor --forge forgejo`, and a game on Gitea. What it shares with GitHub
//! is played on both forges in `forges`.

mod conformance;
mod doctor;
mod gitea;
