//! The Forgejo adapter's own tests: the fake's checker against Forgejo's
//! description, and `doctor --forge forgejo`. What it shares with GitHub
//! is played on both forges in `forges`.

mod conformance;
mod doctor;
