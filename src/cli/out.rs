//! The reports commands print on stdout. A reader that goes away (`| head`)
//! ends the printing, never the command: a resolve run half-way through its
//! effects finishes them whoever is reading. Reports quote titles and
//! comments that anyone may write, so control characters and reordering
//! marks in them are shown as codes, never sent to the terminal.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout could not be written: later lines are not tried.
static GONE: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout. A closed pipe is the reader's choice and is
/// passed over in silence; any other failure is said once on stderr.
pub(crate) fn write(text: std::fmt::Arguments<'_>) {
    if GONE.load(Ordering::Relaxed) {
        return;
    }
    let text = text.to_string();
    let text = crate::text::for_terminal(&text);
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        GONE.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("gitnomic: cannot print the report: {e}");
        }
    }
}
