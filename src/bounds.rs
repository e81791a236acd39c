//! The bounds on what one matter may bring into a run, in one place.
//! Anyone may open a pull request, so its title, its files and what they
//! say must cost every later run a bounded amount of work, memory and
//! stack; a matter over a bound is held or closed with the bound named,
//! and the other matters are decided as if it were not there.
//! `docs/resolver.md` lists them for players.

/// The longest commit subject made from a title, in characters.
pub const SUBJECT_CHARS: usize = 100;

/// The longest `{{ … }}` or `{% … %}` tag in rule text, in bytes: it
/// bounds an expression's nesting and the work of one tag.
pub const TEMPLATE_TAG_BYTES: usize = 256;

/// The most tokens a rule's condition parameter may have.
pub const CONDITION_TOKENS: usize = 1_000;

/// The deepest a condition may nest parentheses and `!`.
pub const CONDITION_DEPTH: usize = 64;

/// The largest file a pull request may add or change, in bytes. The
/// bundled game's largest file is under 20 KiB.
pub const FILE_BYTES: usize = 1 << 20;
