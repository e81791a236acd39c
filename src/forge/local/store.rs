//! The local forge's files: one TOML file per matter and per thread,
//! each replaced whole through a temporary file, and the comment counter.
//!
//! A new comment is one write, of its thread: its id is one more than any
//! id on the forge (in a thread, or given to a comment since deleted, which
//! the counter remembers). A command killed before that write has taken no
//! id, so a killed run never shifts the ids of the comments after it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{LocalForge, LocalMatter, StoredComment};
use crate::forge::ForgeError;
use crate::matter::MatterNumber;

/// The comments of one matter, oldest first.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Thread {
    #[serde(default)]
    pub(super) comments: Vec<StoredComment>,
}

/// The floor of comment ids. Matters are numbered from the matters that
/// exist (1, 2, 3, ...), comments from the ids in the threads and this
/// floor, so a comment never takes a matter's number and ids stay unique
/// across the whole forge, deleted comments' included.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Counter {
    /// No comment id is below this: one more than the newest id a deleted
    /// comment had.
    #[serde(default)]
    comment: u64,
    /// The one counter that numbered matters and comments alike in forges
    /// written before each had its own: read as a floor for comment ids,
    /// so such a forge never reuses one, and not written again.
    #[serde(default, skip_serializing)]
    next: u64,
}

pub(super) fn other(what: &str) -> impl Fn(std::io::Error) -> ForgeError + '_ {
    move |e| ForgeError::Other(format!("local forge: {what}: {e}"))
}

/// Reads a TOML file of the forge; `None` if it does not exist.
pub(super) fn read_toml<T: for<'de> Deserialize<'de>>(
    path: &Path,
) -> Result<Option<T>, ForgeError> {
    match std::fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map(Some).map_err(|e| {
            ForgeError::Other(format!("local forge: {} is damaged: {e}", path.display()))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(other("reading")(e)),
    }
}

impl LocalForge {
    /// The number the next matter takes: one more than the highest so far.
    pub(super) fn next_number(&self) -> Result<MatterNumber, ForgeError> {
        Ok(self
            .numbers()?
            .last()
            .map_or(MatterNumber(1), |n| MatterNumber(n.get() + 1)))
    }

    /// The numbers of every matter ever opened, ascending.
    pub(super) fn numbers(&self) -> Result<Vec<MatterNumber>, ForgeError> {
        let dir = self.dir.join("matters");
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(other("reading matters"))? {
            let path = entry.map_err(other("reading matters"))?.path();
            if path.extension().is_none_or(|e| e != "toml") {
                continue;
            }
            let number = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<MatterNumber>().ok());
            out.extend(number);
        }
        out.sort_unstable();
        Ok(out)
    }

    /// The id the next comment takes, unique on this forge. Nothing is
    /// written: the comment's thread, written with it, is what takes it.
    pub(super) fn next_comment_id(&self) -> Result<u64, ForgeError> {
        let counter: Counter = read_toml(&self.dir.join("counter.toml"))?.unwrap_or_default();
        let mut next = counter.comment.max(counter.next).max(1);
        for number in self.numbers()? {
            if let Some(newest) = self
                .load_thread(number)?
                .comments
                .iter()
                .map(|c| c.id)
                .max()
            {
                next = next.max(newest + 1);
            }
        }
        Ok(next)
    }

    /// Keeps comment id `id` from being given again once its comment is
    /// deleted (written before the deletion).
    pub(super) fn retire_comment_id(&self, id: u64) -> Result<(), ForgeError> {
        let path = self.dir.join("counter.toml");
        let mut counter: Counter = read_toml(&path)?.unwrap_or_default();
        if counter.comment.max(counter.next) > id {
            return Ok(());
        }
        counter.comment = id + 1;
        self.write_toml(&path, &counter)
    }

    fn matter_path(&self, number: MatterNumber) -> PathBuf {
        self.dir.join("matters").join(format!("{number}.toml"))
    }

    fn thread_path(&self, number: MatterNumber) -> PathBuf {
        self.dir.join("comments").join(format!("{number}.toml"))
    }

    pub(super) fn load_matter(&self, number: MatterNumber) -> Result<LocalMatter, ForgeError> {
        read_toml(&self.matter_path(number))?.ok_or(ForgeError::NotFound(number))
    }

    pub(super) fn save_matter(&self, matter: &LocalMatter) -> Result<(), ForgeError> {
        self.write_toml(&self.matter_path(matter.number), matter)
    }

    pub(super) fn load_thread(&self, number: MatterNumber) -> Result<Thread, ForgeError> {
        Ok(read_toml(&self.thread_path(number))?.unwrap_or_default())
    }

    pub(super) fn save_thread(
        &self,
        number: MatterNumber,
        thread: &Thread,
    ) -> Result<(), ForgeError> {
        self.write_toml(&self.thread_path(number), thread)
    }

    pub(super) fn write_toml<T: Serialize>(
        &self,
        path: &Path,
        value: &T,
    ) -> Result<(), ForgeError> {
        let text =
            toml::to_string(value).map_err(|e| ForgeError::Other(format!("local forge: {e}")))?;
        let dir = path.parent().unwrap_or(&self.dir);
        std::fs::create_dir_all(dir).map_err(other("creating its directory"))?;
        let tmp = path.with_extension("toml.tmp");
        crate::staging::write_durably(&tmp, path, text.as_bytes()).map_err(other("writing"))
    }
}
