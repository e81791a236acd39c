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

/// The largest reply the forge may send to one request, in bytes: the
/// client reads no further and the matter it was about is not read this
/// run. A page of GitHub's (100 comments of at most 65,536 characters
/// each, escaped as JSON) stays well under it; Forgejo lists a thread's
/// comments in one reply, so a longer thread is read in windows of time
/// that each fit (see `forge::forgejo`). `GITNOMIC_MAX_REPLY` lowers or
/// raises it for a run.
pub const REPLY_BYTES: u64 = 64 << 20;
