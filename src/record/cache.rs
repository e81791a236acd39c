//! Records already parsed, kept between builds: a twenty-year game has
//! tens of thousands of record files that never change once written, and
//! reading and parsing them all is most of what a rebuild would otherwise
//! do. Each entry holds a record as it was parsed from its file, with what
//! tells the file unchanged without reading it (its [`Stamp`]) and, for a
//! fresh checkout whose stamps are all new, the id git gives its text,
//! which the checkout's index knows without reading the file either.
//!
//! Pure: bytes in, bytes out. The edge (`crate::load`) takes the stamps,
//! reads what changed and decides which stamps are old enough to trust.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hasher};

use rayon::prelude::*;

use crate::engine::MatterKind;
use crate::engine::MatterNumber;
use crate::record::{
    Failure, FinalTally, Outcome, Record, RecordedComment, RecordedUncounted, RecordedVote,
};
use crate::time::Timestamp;

/// The first word of a cache's text, with its format's version.
const MAGIC: &str = "gitnomic-record-cache 5";

/// What the file system says of a file: its length, its modification
/// and change times in nanoseconds and its inode. A file edited, replaced
/// or renamed over gets a new change time at least, which nobody can set
/// back by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stamp {
    /// The length in bytes.
    pub len: u64,
    /// The modification time, in nanoseconds since 1970.
    pub modified: i64,
    /// The status change time, in nanoseconds since 1970.
    pub changed: i64,
    /// The inode number.
    pub inode: u64,
}

impl Stamp {
    /// The stamp kept for a file whose own was too new to trust, or not
    /// taken (a build of a git revision reads no files): no file has it
    /// (none is changed at 1970 with inode 0), so such a record is found
    /// again only by its text.
    pub const NONE: Stamp = Stamp {
        len: 0,
        modified: 0,
        changed: 0,
        inode: 0,
    };
}

/// The id git gives a file's text (see [`crate::git::blob_id`]): what a
/// git index records of each file, so that the records of a fresh
/// checkout are found here without reading a file.
pub type Content = [u8; 20];

/// A record file a read saw: its path, its stamp ([`Stamp::NONE`] unless
/// it was old enough to trust) and the digest of its text.
pub type Seen = (String, Stamp, Content);

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
    fn of(entries: Vec<Option<Entry>>) -> RecordCache {
        let paths: Vec<String> = entries
            .par_iter()
            .map(|e| e.as_ref().map(|e| e.record.path()).unwrap_or_default())
            .collect();
        let mut by_path = HashMap::with_capacity(paths.len());
        for (i, path) in paths.into_iter().enumerate() {
            by_path.insert(path, i);
        }
        RecordCache { entries, by_path }
    }

    /// How many records it holds.
    pub fn len(&self) -> usize {
        self.by_path.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }

    /// Whether the cache has a record of the file at `path`.
    #[cfg(test)]
    fn has(&self, path: &str) -> bool {
        self.by_path.contains_key(path)
    }

    /// The record of the file at `path`, if the cache has it from a file
    /// with the same stamp.
    pub fn by_stamp(&self, path: &str, stamp: &Stamp) -> Option<Hit> {
        if *stamp == Stamp::NONE {
            return None;
        }
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

    /// The cache's bytes: a header line naming the program that parsed the
    /// records (`identity`), then each entry, its length first.
    pub fn to_bytes<'e>(identity: &str, entries: impl Iterator<Item = EntryRef<'e>>) -> Vec<u8> {
        let entries: Vec<EntryRef> = entries.collect();
        let encoded: Vec<Vec<u8>> = entries.par_iter().map(encode).collect();
        let mut out = header(identity).into_bytes();
        let start = out.len();
        out.reserve(encoded.iter().map(|e| e.len() + 4).sum::<usize>() + 8);
        for e in encoded {
            put_len(&mut out, e.len());
            out.extend_from_slice(&e);
        }
        let sum = checksum(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A cache read back from [`RecordCache::to_bytes`] by the program
    /// `identity`. Anything else (another version, another program, a
    /// damaged or cut-short file) reads as an empty cache: every record is
    /// then read and parsed again.
    pub fn from_bytes(bytes: &[u8], identity: &str) -> RecordCache {
        let header = header(identity);
        let Some((mut rest, sum)) = bytes
            .strip_prefix(header.as_bytes())
            .and_then(|b| b.split_last_chunk::<8>())
        else {
            return RecordCache::default();
        };
        if checksum(rest) != u64::from_le_bytes(*sum) {
            return RecordCache::default();
        }
        let mut slices = Vec::new();
        while !rest.is_empty() {
            let mut reader = Reader(rest);
            let Some(slice) = reader.len().and_then(|n| reader.take(n)) else {
                return RecordCache::default();
            };
            slices.push(slice);
            rest = reader.0;
        }
        let entries: Option<Vec<Option<Entry>>> = slices
            .par_iter()
            .map(|bytes| decode(bytes).map(Some))
            .collect();
        entries.map_or_else(RecordCache::default, RecordCache::of)
    }
}

/// The bytes of the cache that keeps, of `records`, those whose file a
/// read saw (`seen`: path, trusted stamp and digest of each).
pub fn keep(identity: &str, seen: &[Seen], records: &[Record]) -> Vec<u8> {
    let seen = by_path(seen);
    let entries = records.iter().filter_map(|r| {
        let &(stamp, content) = seen.get(r.path().as_str())?;
        Some((stamp, content, r))
    });
    RecordCache::to_bytes(identity, entries)
}

/// [`keep`] in memory, for the next build in the same process: the
/// records and the paths seen move in, no copy made.
pub fn kept(seen: Vec<Seen>, records: Vec<Record>) -> RecordCache {
    let index: HashMap<String, usize> = records
        .par_iter()
        .enumerate()
        .map(|(i, r)| (r.path(), i))
        .collect();
    let mut records: Vec<Option<Record>> = records.into_iter().map(Some).collect();
    let mut cache = RecordCache {
        entries: Vec::with_capacity(seen.len()),
        by_path: HashMap::with_capacity(seen.len()),
    };
    for (path, stamp, content) in seen {
        let Some(record) = index.get(&path).and_then(|&i| records[i].take()) else {
            continue;
        };
        cache.by_path.insert(path, cache.entries.len());
        cache.entries.push(Some(Entry {
            stamp,
            content,
            record,
        }));
    }
    cache
}

/// The stamp and digest of each file seen, by its path.
fn by_path(seen: &[Seen]) -> HashMap<&str, (&Stamp, &Content)> {
    seen.iter()
        .map(|(path, stamp, content)| (path.as_str(), (stamp, content)))
        .collect()
}

/// An entry to write, by reference.
pub type EntryRef<'e> = (&'e Stamp, &'e Content, &'e Record);

/// A checksum of the entries, so that a damaged cache is not believed.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

/// The first line of a cache made by `identity`.
fn header(identity: &str) -> String {
    format!("{MAGIC} {}\n", identity.replace('\n', " "))
}

/// An entry as bytes. Every field of a record is written, by a pattern
/// that names them all: a field added to [`Record`] fails to compile
/// here until the cache keeps it too (and [`MAGIC`]'s version is raised).
fn encode(&(stamp, content, record): &EntryRef) -> Vec<u8> {
    let Record {
        number,
        source,
        kind,
        title,
        author,
        dynasty,
        opened,
        resolved,
        outcome,
        failure,
        resolved_by,
        reasons,
        head,
        merge_commit,
        link,
        comments,
        tally,
        votes,
        uncounted,
        uncounted_more,
        sticky,
        discussion,
        body,
    } = record;
    let mut w = Vec::with_capacity(256 + body.len());
    w.extend_from_slice(&stamp.len.to_le_bytes());
    w.extend_from_slice(&stamp.modified.to_le_bytes());
    w.extend_from_slice(&stamp.changed.to_le_bytes());
    w.extend_from_slice(&stamp.inode.to_le_bytes());
    w.extend_from_slice(content);
    w.extend_from_slice(&number.get().to_le_bytes());
    put_opt(&mut w, source.as_ref(), |w, s| put_str(w, s));
    w.push(match kind {
        MatterKind::Proposal => 0,
        MatterKind::Cfj => 1,
        MatterKind::Dov => 2,
    });
    put_str(&mut w, title);
    put_str(&mut w, author);
    w.extend_from_slice(&dynasty.to_le_bytes());
    w.extend_from_slice(&opened.unix().to_le_bytes());
    w.extend_from_slice(&resolved.unix().to_le_bytes());
    w.push(match outcome {
        Outcome::Enacted => 0,
        Outcome::Failed => 1,
        Outcome::NotAMatter => 2,
    });
    put_opt(&mut w, failure.as_ref(), |w, f| {
        w.push(match f {
            Failure::Vetoed => 0,
            Failure::Illegal => 1,
            Failure::SelfKilled => 2,
        });
    });
    put_str(&mut w, resolved_by);
    put_len(&mut w, reasons.len());
    for r in reasons {
        put_str(&mut w, r);
    }
    for text in [head, merge_commit, link] {
        put_opt(&mut w, text.as_ref(), |w, s| put_str(w, s));
    }
    put_opt(&mut w, comments.as_ref(), |w, c| {
        w.extend_from_slice(&c.to_le_bytes());
    });
    put_opt(&mut w, tally.as_ref(), |w, t| {
        let FinalTally {
            for_,
            against,
            active,
            quorum,
        } = t;
        for n in [for_, against, active, quorum] {
            w.extend_from_slice(&n.to_le_bytes());
        }
    });
    put_votes(&mut w, votes);
    put_len(&mut w, uncounted.len());
    for u in uncounted {
        let RecordedUncounted { by, at, why, link } = u;
        put_str(&mut w, by);
        w.extend_from_slice(&at.unix().to_le_bytes());
        put_str(&mut w, why);
        put_opt(&mut w, link.as_ref(), |w, s| put_str(w, s));
    }
    w.extend_from_slice(&uncounted_more.to_le_bytes());
    put_votes(&mut w, sticky);
    put_len(&mut w, discussion.len());
    for c in discussion {
        let RecordedComment {
            id,
            by,
            at,
            via,
            vote,
            note,
            link,
            cut,
            body,
        } = c;
        w.extend_from_slice(&id.to_le_bytes());
        put_str(&mut w, by);
        w.extend_from_slice(&at.unix().to_le_bytes());
        put_str(&mut w, via);
        for text in [vote, note, link] {
            put_opt(&mut w, text.as_ref(), |w, s| put_str(w, s));
        }
        put_opt(&mut w, cut.as_ref(), |w, n| {
            w.extend_from_slice(&n.to_le_bytes());
        });
        put_str(&mut w, body);
    }
    put_str(&mut w, body);
    w
}

fn put_votes(w: &mut Vec<u8>, votes: &[RecordedVote]) {
    put_len(w, votes.len());
    for v in votes {
        let RecordedVote {
            player,
            vote,
            counts_as,
            at,
            link,
        } = v;
        put_str(w, player);
        put_str(w, vote);
        put_opt(w, counts_as.as_ref(), |w, s| put_str(w, s));
        put_opt(w, at.as_ref(), |w, t| {
            w.extend_from_slice(&t.unix().to_le_bytes());
        });
        put_opt(w, link.as_ref(), |w, s| put_str(w, s));
    }
}

fn put_len(w: &mut Vec<u8>, n: usize) {
    w.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn put_str(w: &mut Vec<u8>, s: &str) {
    put_len(w, s.len());
    w.extend_from_slice(s.as_bytes());
}

fn put_opt<T>(w: &mut Vec<u8>, value: Option<T>, put: impl FnOnce(&mut Vec<u8>, T)) {
    match value {
        Some(v) => {
            w.push(1);
            put(w, v);
        }
        None => w.push(0),
    }
}

/// An entry read back from [`encode`]'s bytes; `None` if anything is amiss.
fn decode(bytes: &[u8]) -> Option<Entry> {
    let mut r = Reader(bytes);
    let stamp = Stamp {
        len: r.u64()?,
        modified: r.i64()?,
        changed: r.i64()?,
        inode: r.u64()?,
    };
    let content: Content = r.take(20)?.try_into().ok()?;
    let record = Record {
        number: MatterNumber(r.u64()?),
        source: r.opt(Reader::string)?,
        kind: match r.u8()? {
            0 => MatterKind::Proposal,
            1 => MatterKind::Cfj,
            2 => MatterKind::Dov,
            _ => return None,
        },
        title: r.string()?,
        author: r.string()?,
        dynasty: r.u32()?,
        opened: r.time()?,
        resolved: r.time()?,
        outcome: match r.u8()? {
            0 => Outcome::Enacted,
            1 => Outcome::Failed,
            2 => Outcome::NotAMatter,
            _ => return None,
        },
        failure: r.opt(|r| match r.u8()? {
            0 => Some(Failure::Vetoed),
            1 => Some(Failure::Illegal),
            2 => Some(Failure::SelfKilled),
            _ => None,
        })?,
        resolved_by: r.string()?,
        reasons: r.list(Reader::string)?,
        head: r.opt(Reader::string)?,
        merge_commit: r.opt(Reader::string)?,
        link: r.opt(Reader::string)?,
        comments: r.opt(Reader::u32)?,
        tally: r.opt(|r| {
            Some(FinalTally {
                for_: r.u32()?,
                against: r.u32()?,
                active: r.u32()?,
                quorum: r.u32()?,
            })
        })?,
        votes: r.list(Reader::vote)?,
        uncounted: r.list(|r| {
            Some(RecordedUncounted {
                by: r.string()?,
                at: r.time()?,
                why: r.string()?,
                link: r.opt(Reader::string)?,
            })
        })?,
        uncounted_more: r.u32()?,
        sticky: r.list(Reader::vote)?,
        discussion: r.list(|r| {
            Some(RecordedComment {
                id: r.u64()?,
                by: r.string()?,
                at: r.time()?,
                via: r.string()?,
                vote: r.opt(Reader::string)?,
                note: r.opt(Reader::string)?,
                link: r.opt(Reader::string)?,
                cut: r.opt(Reader::u32)?,
                body: r.string()?,
            })
        })?,
        body: r.string()?,
    };
    r.0.is_empty().then_some(Entry {
        stamp,
        content,
        record,
    })
}

/// What is left of the bytes being decoded.
struct Reader<'b>(&'b [u8]);

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize) -> Option<&'b [u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    fn i64(&mut self) -> Option<i64> {
        self.array().map(i64::from_le_bytes)
    }

    fn time(&mut self) -> Option<Timestamp> {
        self.i64().map(Timestamp::from_unix)
    }

    fn len(&mut self) -> Option<usize> {
        usize::try_from(self.u32()?).ok()
    }

    fn string(&mut self) -> Option<String> {
        let n = self.len()?;
        std::str::from_utf8(self.take(n)?).ok().map(str::to_string)
    }

    fn opt<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<Option<T>> {
        match self.u8()? {
            0 => Some(None),
            1 => read(self).map(Some),
            _ => None,
        }
    }

    fn list<T>(&mut self, read: impl Fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        let n = self.len()?;
        // A damaged count must not reserve more than the bytes could hold.
        let mut out = Vec::with_capacity(n.min(self.0.len()));
        for _ in 0..n {
            out.push(read(self)?);
        }
        Some(out)
    }

    fn vote(&mut self) -> Option<RecordedVote> {
        Some(RecordedVote {
            player: self.string()?,
            vote: self.string()?,
            counts_as: self.opt(Reader::string)?,
            at: self.opt(Reader::time)?,
            link: self.opt(Reader::string)?,
        })
    }
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
            content: [7; 20],
            record: Record::parse(&file).expect("the sample parses"),
        }
    }

    #[test]
    fn the_cache_kept_in_memory_holds_what_the_bytes_hold() {
        let entry = entry_of(TEXT);
        let other = {
            let text = TEXT.replace("number = 7", "number = 8");
            let file = SourceFile::new("content/matters/blognomic/00008.md", text);
            Record::parse(&file).expect("the sample parses")
        };
        // The first file was seen with a trusted stamp, the second not.
        let seen = vec![(entry.record.path(), entry.stamp, entry.content)];
        let records = vec![entry.record.clone(), other];
        let from_bytes =
            RecordCache::from_bytes(&keep("gitnomic 1", &seen, &records), "gitnomic 1");
        let in_memory = kept(seen, records);
        for mut cache in [from_bytes, in_memory] {
            assert_eq!(cache.len(), 1, "only the record of a file seen");
            let hit = cache
                .by_stamp(&entry.record.path(), &entry.stamp)
                .expect("found by its stamp");
            assert_eq!(cache.take(hit), Some(entry.clone()));
            assert!(!cache.has("content/matters/blognomic/00008.md"));
        }
    }

    fn text_of(entries: &[Entry], identity: &str) -> Vec<u8> {
        RecordCache::to_bytes(
            identity,
            entries.iter().map(|e| (&e.stamp, &e.content, &e.record)),
        )
    }

    #[test]
    fn a_cache_gives_back_the_records_it_was_made_of() {
        let e = entry_of(TEXT);
        let text = text_of(std::slice::from_ref(&e), "gitnomic 1 x");
        let mut cache = RecordCache::from_bytes(&text, "gitnomic 1 x");
        assert_eq!(cache.len(), 1);
        let path = "content/matters/blognomic/00007.md";
        let other = Stamp {
            inode: 98,
            ..e.stamp
        };
        assert_eq!(cache.by_stamp(path, &other), None);
        assert_eq!(cache.by_content(path, &[8; 20]), None);
        assert_eq!(cache.by_stamp("content/matters/00007.md", &e.stamp), None);
        let hit = cache.by_stamp(path, &e.stamp).expect("found by stamp");
        assert_eq!(cache.by_content(path, &e.content), Some(hit));
        assert_eq!(cache.take(hit), Some(e));
        assert_eq!(cache.take(hit), None, "taken once");
    }

    #[test]
    fn another_program_or_a_damaged_cache_reads_as_empty() {
        let e = entry_of(TEXT);
        let bytes = text_of(&[e.clone(), e], "gitnomic 1 x");
        assert_eq!(RecordCache::from_bytes(&bytes, "gitnomic 1 x").len(), 1);
        assert!(RecordCache::from_bytes(&bytes, "gitnomic 2 x").is_empty());
        let mut version = bytes.clone();
        version[MAGIC.len() - 1] = b'1';
        assert!(RecordCache::from_bytes(&version, "gitnomic 1 x").is_empty());
        // Cut short anywhere (a build killed while writing it), or any
        // byte damaged.
        for end in 0..bytes.len() {
            let cut = RecordCache::from_bytes(&bytes[..end], "gitnomic 1 x");
            assert!(cut.is_empty(), "cut at {end}");
            let mut damaged = bytes.clone();
            damaged[end] ^= 0x20;
            let damaged = RecordCache::from_bytes(&damaged, "gitnomic 1 x");
            assert!(damaged.is_empty(), "damaged at {end}");
        }
    }

    #[test]
    fn every_field_of_a_record_is_kept() {
        let mut e = entry_of(TEXT);
        let vote = e.record.votes[0].clone();
        e.record.head = Some("abc".into());
        e.record.merge_commit = Some("def".into());
        e.record.link = Some("https://example.invalid/7".into());
        e.record.tally = Some(FinalTally {
            for_: 3,
            against: 1,
            active: 5,
            quorum: 3,
        });
        e.record.votes[0].counts_as = Some("none".into());
        e.record.votes[0].link = Some("https://example.invalid/c".into());
        e.record.uncounted = vec![RecordedUncounted {
            by: "stranger".into(),
            at: Timestamp::from_unix(1),
            why: "not a player".into(),
            link: Some("l".into()),
        }];
        e.record.sticky = vec![vote];
        e.record.discussion = vec![RecordedComment {
            id: 12,
            by: "@stranger".into(),
            at: Timestamp::from_unix(2),
            via: "a review (approved)".into(),
            vote: Some("DEFERENTIAL (as FOR)".into()),
            note: Some("edited since; it counts as first seen".into()),
            link: Some("https://example.invalid/c/12".into()),
            cut: Some(40),
            body: "FOR, <b>because</b>\n+++\n".into(),
        }];
        e.record.kind = MatterKind::Dov;
        let bytes = text_of(std::slice::from_ref(&e), "id");
        let mut cache = RecordCache::from_bytes(&bytes, "id");
        let hit = cache.by_content(&e.record.path(), &e.content);
        assert_eq!(hit.and_then(|h| cache.take(h)), Some(e));
    }
}
