//! EDGE: the site published. [`crate::site`] renders every page to memory
//! (path → text) and touches nothing else; this is what surrounds it: the
//! game read with the records earlier builds parsed ([`stamped`]), the
//! staged build into a directory that renders and writes only what
//! changed ([`build`], with its caches in `caches`), the writer of
//! files ([`mod@write`]), and `serve`'s preview (`serve`) with what its
//! watcher compares ([`watch`]).

pub mod build;
mod caches;
mod read;
pub(crate) mod serve;
pub mod stamped;
pub mod watch;
pub mod write;
