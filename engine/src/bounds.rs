//! The engine's share of the bounds on what one matter may bring into a
//! run: a condition in a rule's parameters is parsed and evaluated here,
//! so its bounds are here. gitnomic lists them with the others in its
//! `bounds` module.

/// The most tokens a rule's condition parameter may have.
pub const CONDITION_TOKENS: usize = 1_000;

/// The deepest a condition may nest parentheses and `!`.
pub const CONDITION_DEPTH: usize = 64;
