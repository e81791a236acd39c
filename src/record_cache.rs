//! Records already parsed, kept between builds: a twenty-year game has
//! tens of thousands of record files that never change once written, and
//! reading and parsing them all is most of what a rebuild would otherwise
//! do. Each entry holds a record as it was parsed from its file, with what
//! tells the file unchanged without reading it (its [`Stamp`]) and, for a
//! fresh checkout whose stamps are all new, the digest of its text.
//!
//! Pure: text in, text out. The edge (`crate::load`) takes the stamps,
//! reads what changed and decides which stamps are old enough to trust.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::record::Record;

/// The first word of a cache's text, with its format's version.
const MAGIC: &str = "gitnomic-record-cache 1";

/// What the file system says of a file: its length, its modification
/// and change times in nanoseconds and its inode. A file edited, replaced
/// or renamed over gets a new change time at least, which nobody can set
/// back by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stamp {
    /// The length in bytes.
    pub len: u64,
    /// The modification time, in nanoseconds since 1970.
    pub modified: i128,
    /// The status change time, in nanoseconds since 1970.
    pub changed: i128,
    /// The inode number.
    pub inode: u64,
}

/// The SHA-256 of a file's text.
pub type Content = [u8; 32];

/// One parsed record and the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The file as it was when it was read.
    pub stamp: Stamp,
    /// The digest of its text.
    pub content: Content,
    /// What it parsed to.
    pub record: Record,
}

/// The records of a previous build, by the path of their file.
#[derive(Debug, Default)]
pub struct RecordCache {
    entries: Vec<Option<Entry>>,
    by_path: HashMap<String, usize>,
}

/// Where a record file's parsed record was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit(usize);

impl RecordCache {
    /// A cache of `entries`, by the path of each record.
    pub fn new(entries: Vec<Entry>) -> RecordCache {
        let by_path = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.record.path(), i))
            .collect();
        RecordCache {
            entries: entries.into_iter().map(Some).collect(),
            by_path,
        }
    }

    /// How many records it holds.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// The record of the file at `path`, if the cache has it from a file
    /// with the same stamp.
    pub fn by_stamp(&self, path: &str, stamp: &Stamp) -> Option<Hit> {
        self.find(path, |e| e.stamp == *stamp)
    }

    /// The record of the file at `path`, if the cache has it from a file
    /// with the same text.
    pub fn by_content(&self, path: &str, content: &Content) -> Option<Hit> {
        self.find(path, |e| e.content == *content)
    }

    fn find(&self, path: &str, same: impl Fn(&Entry) -> bool) -> Option<Hit> {
        let &i = self.by_path.get(path)?;
        self.entries[i].as_ref().filter(|e| same(e)).map(|_| Hit(i))
    }

    /// Takes the entry found by a lookup out of the cache.
    pub fn take(&mut self, hit: Hit) -> Option<Entry> {
        self.entries.get_mut(hit.0).and_then(Option::take)
    }

    /// The cache's text: a header naming the program that parsed the
    /// records (`identity`), then one line per record.
    pub fn to_text<'e>(identity: &str, entries: impl Iterator<Item = EntryRef<'e>>) -> String {
        let entries: Vec<EntryRef> = entries.collect();
        let lines: Vec<String> = entries.par_iter().map(line).collect();
        let mut out = format!("{MAGIC} {}\n", identity.replace('\n', " "));
        out.reserve(lines.iter().map(|l| l.len() + 1).sum());
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }

    /// A cache read back from [`RecordCache::to_text`] by the program
    /// `identity`. Anything else (another version, another program, a
    /// damaged or cut-short file) reads as an empty cache: every record is
    /// then read and parsed again.
    pub fn from_text(text: &str, identity: &str) -> RecordCache {
        let Some((header, rest)) = text.split_once('\n') else {
            return RecordCache::default();
        };
        if header != format!("{MAGIC} {}", identity.replace('\n', " ")) || !rest.ends_with('\n') {
            return RecordCache::default();
        }
        let entries: Option<Vec<Entry>> = rest.par_lines().map(entry).collect();
        entries.map_or_else(RecordCache::default, RecordCache::new)
    }
}

/// An entry to write, by reference.
pub type EntryRef<'e> = (&'e Stamp, &'e Content, &'e Record);

/// `len modified changed inode<TAB>sha256<TAB>[record, body]`.
fn line(&(stamp, content, record): &EntryRef) -> String {
    let json = serde_json::to_string(&(record, &record.body)).unwrap_or_default();
    format!(
        "{} {} {} {}\t{}\t{json}",
        stamp.len,
        stamp.modified,
        stamp.changed,
        stamp.inode,
        hex(content)
    )
}

/// An entry read back from [`line`]; `None` if anything is amiss.
fn entry(line: &str) -> Option<Entry> {
    let mut parts = line.splitn(3, '\t');
    let (stamp, content, json) = (parts.next()?, parts.next()?, parts.next()?);
    let mut numbers = stamp.split(' ');
    let stamp = Stamp {
        len: numbers.next()?.parse().ok()?,
        modified: numbers.next()?.parse().ok()?,
        changed: numbers.next()?.parse().ok()?,
        inode: numbers.next()?.parse().ok()?,
    };
    if numbers.next().is_some() {
        return None;
    }
    let (mut record, body): (Record, String) = serde_json::from_str(json).ok()?;
    record.body = body;
    Some(Entry {
        stamp,
        content: unhex(content)?,
        record,
    })
}

fn hex(bytes: &Content) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Content> {
    let mut out = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    const TEXT: &str = "+++\nnumber = 7\nsource = \"blognomic\"\nkind = \"proposal\"\ntitle = \"Wind \\\"faster\\\"\"\nauthor = \"Ada\"\ndynasty = 1\nopened = \"2030-03-01T10:00:00Z\"\nresolved = \"2030-03-02T10:00:00Z\"\noutcome = \"failed\"\nfailure = \"vetoed\"\nresolved_by = \"gitnomic resolve\"\nreasons = [\"a\\tb\"]\ncomments = 3\n[[votes]]\nplayer = \"Ada\"\nvote = \"FOR\"\nat = \"2030-03-01T11:00:00Z\"\n+++\nWind the springs\tfaster.\n\nTwice.\n";

    fn entry_of(text: &str) -> Entry {
        let file = SourceFile::new("content/matters/blognomic/00007.md", text);
        Entry {
            stamp: Stamp {
                len: 12,
                modified: -3,
                changed: 1_700_000_000_123_456_789,
                inode: 99,
            },
            content: [7; 32],
            record: Record::parse(&file).expect("the sample parses"),
        }
    }

    fn text_of(entries: &[Entry], identity: &str) -> String {
        RecordCache::to_text(
            identity,
            entries.iter().map(|e| (&e.stamp, &e.content, &e.record)),
        )
    }

    #[test]
    fn a_cache_gives_back_the_records_it_was_made_of() {
        let e = entry_of(TEXT);
        let text = text_of(std::slice::from_ref(&e), "gitnomic 1 x");
        let mut cache = RecordCache::from_text(&text, "gitnomic 1 x");
        assert_eq!(cache.len(), 1);
        let path = "content/matters/blognomic/00007.md";
        let other = Stamp {
            inode: 98,
            ..e.stamp
        };
        assert_eq!(cache.by_stamp(path, &other), None);
        assert_eq!(cache.by_content(path, &[8; 32]), None);
        assert_eq!(cache.by_stamp("content/matters/00007.md", &e.stamp), None);
        let hit = cache.by_stamp(path, &e.stamp).expect("found by stamp");
        assert_eq!(cache.by_content(path, &e.content), Some(hit));
        assert_eq!(cache.take(hit), Some(e));
        assert_eq!(cache.take(hit), None, "taken once");
    }

    #[test]
    fn another_program_or_a_damaged_cache_reads_as_empty() {
        let e = entry_of(TEXT);
        let text = text_of(&[e.clone(), e], "gitnomic 1 x");
        assert_eq!(RecordCache::from_text(&text, "gitnomic 1 x").len(), 1);
        assert!(RecordCache::from_text(&text, "gitnomic 2 x").is_empty());
        let version = text.replace(MAGIC, "gitnomic-record-cache 0");
        assert!(RecordCache::from_text(&version, "gitnomic 1 x").is_empty());
        // Cut short anywhere (a build killed while writing it), or damaged.
        for end in [1, text.len() / 2, text.len() - 1] {
            assert!(
                RecordCache::from_text(&text[..end], "gitnomic 1 x").is_empty(),
                "{end}"
            );
        }
        let damaged = text.replacen("\"Ada\"", "\"Ada", 1);
        assert!(RecordCache::from_text(&damaged, "gitnomic 1 x").is_empty());
        assert!(RecordCache::from_text("", "gitnomic 1 x").is_empty());
    }
}
