//! A matter's thread as a player reads it on the forge, in text: its
//! header and description, then every comment oldest first, the status
//! comment shown as text (its journal is for the resolver). `play show`
//! prints it.

use std::fmt::Write as _;

use super::journal::text_of;
use super::status::when;
use super::{ForgeComment, MatterInfo};

/// The thread of `info` (`open` on the forge or not) with its `comments`;
/// `is_status` tells the resolver's status comment from the others.
pub(crate) fn text(
    info: &MatterInfo,
    open: bool,
    comments: &[ForgeComment],
    is_status: &dyn Fn(&ForgeComment) -> bool,
) -> String {
    let number = info.number;
    let kind = info
        .kind()
        .map_or("Not a matter".to_string(), |k| k.to_string());
    let state = match (&info.merge_commit, open) {
        (Some(sha), _) => format!("merged as {}", short(&sha.0)),
        (None, true) => "open".to_string(),
        (None, false) => "closed".to_string(),
    };
    let title = info.subject_title();
    let mut out = format!("{kind} #{number} “{title}” by @{}\n", info.author);
    let _ = writeln!(out, "Opened {}; {state}.", when(info.opened));
    if let Some(head) = &info.head {
        let _ = writeln!(out, "Head: {}", short(&head.0));
    }
    if !info.labels.is_empty() {
        let _ = writeln!(out, "Labels: {}", info.labels.join(", "));
    }
    if !info.body.trim().is_empty() {
        let _ = writeln!(out, "\n{}", info.body.trim_end());
    }
    for c in comments {
        let edited = c
            .edited
            .map(|t| format!(", edited {}", when(t)))
            .unwrap_or_default();
        let (who, body) = if is_status(c) {
            ("the resolver's status".to_string(), text_of(&c.body))
        } else {
            (format!("comment {}", c.id), c.body.trim_end())
        };
        let _ = writeln!(
            out,
            "\n--- {who}, by @{} at {}{edited}\n{body}",
            c.author,
            when(c.created)
        );
    }
    out
}

/// The first 8 characters of a commit id, as people quote them.
pub(crate) fn short(sha: &str) -> &str {
    sha.get(..8).unwrap_or(sha)
}
