//! What a build made, page by page, so that the next build renders only
//! the pages whose inputs changed. Each file of the site gets a digest of
//! everything it is made from (the theme, the values its template sees, or
//! for a matter's page the record and the few things beside it that the
//! page shows); a page whose digest is the one the previous build recorded,
//! and whose file is still there, is neither rendered nor written.
//!
//! Pure: the cache is text in, text out; the edge decides where it lives
//! and checks that the files it lists are still on disk.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde::Serialize;

/// The first word of a cache's text, with its format's version.
const MAGIC: &str = "gitnomic-site-cache 2";

/// Every file a build made, by path in the site.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderCache {
    /// What made the files: the program and the output directory. A cache
    /// made by another program, or for another directory, is not used.
    pub identity: String,
    /// The digest of each file's inputs, by its path in the site.
    pub files: BTreeMap<String, u64>,
}

impl RenderCache {
    /// The cache as text: a header line, then `digest path` per file.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{MAGIC} {}\n{}\n",
            probe(),
            self.identity.replace('\n', " ")
        );
        out.reserve(self.files.keys().map(|p| p.len() + 18).sum());
        for (path, digest) in &self.files {
            use std::fmt::Write as _;
            let _ = writeln!(out, "{digest:016x} {path}");
        }
        out
    }

    /// A cache read back from [`RenderCache::to_text`]. Anything else,
    /// including a cache whose digests another build of the hasher made,
    /// reads as an empty cache: the next build is then a full one.
    pub fn from_text(text: &str) -> RenderCache {
        let mut lines = text.lines();
        let header = format!("{MAGIC} {}", probe());
        if lines.next() != Some(header.as_str()) {
            return RenderCache::default();
        }
        let identity = lines.next().unwrap_or_default().to_string();
        // Read on the cache's own thread (the shared pool is busy decoding
        // the records meanwhile), then put in order at once: they are
        // written in order, so the sort finds them so.
        let files: Option<Vec<(String, u64)>> = lines.map(line).collect();
        let Some(files) = files else {
            return RenderCache::default();
        };
        let files: BTreeMap<String, u64> = files.into_iter().collect();
        RenderCache { identity, files }
    }
}

/// One file's line of [`RenderCache::to_text`]: `digest path`.
fn line(line: &str) -> Option<(String, u64)> {
    let (digest, path) = line.split_once(' ')?;
    let digest = u64::from_str_radix(digest, 16).ok()?;
    Some((path.to_string(), digest))
}

/// The digest of a fixed text: the standard hasher is not promised to stay
/// the same between Rust releases, so a cache records which one made it.
fn probe() -> String {
    let mut h = DefaultHasher::new();
    "gitnomic".hash(&mut h);
    format!("{:016x}", h.finish())
}

/// A digest being made from parts.
#[derive(Clone)]
pub(crate) struct Digest(DefaultHasher);

impl Digest {
    /// A digest of nothing yet.
    pub(crate) fn new() -> Digest {
        Digest(DefaultHasher::new())
    }

    /// Adds a piece of text (its length first, so pieces cannot run into
    /// each other).
    pub(crate) fn text(mut self, text: &str) -> Digest {
        text.hash(&mut self.0);
        self
    }

    /// Adds a number.
    pub(crate) fn number(mut self, n: u64) -> Digest {
        n.hash(&mut self.0);
        self
    }

    /// Adds a value as its JSON.
    pub(crate) fn json<T: Serialize + ?Sized>(mut self, value: &T) -> Digest {
        // Written whole, then hashed at once: the hasher is slow at the
        // many small writes a serialiser makes. A value that cannot be
        // serialised fails its page's rendering too.
        let json = serde_json::to_vec(value).unwrap_or_default();
        self.0.write(&json);
        0xffu8.hash(&mut self.0);
        self
    }

    /// Adds a value by its `Hash`, which must cover everything a page
    /// shows of it: cheaper than its JSON for the thousands of records.
    pub(crate) fn value<T: Hash + ?Sized>(mut self, value: &T) -> Digest {
        value.hash(&mut self.0);
        0xfeu8.hash(&mut self.0);
        self
    }

    /// The digest.
    pub(crate) fn finish(&self) -> u64 {
        self.0.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_reads_back_and_anything_else_reads_as_empty() {
        let cache = RenderCache {
            identity: "gitnomic 1 /tmp/public".into(),
            files: BTreeMap::from([
                ("index.html".to_string(), 0xdead_beef),
                ("a b/c.html".to_string(), u64::MAX),
            ]),
        };
        assert_eq!(RenderCache::from_text(&cache.to_text()), cache);
        assert_eq!(RenderCache::from_text(""), RenderCache::default());
        let damaged = cache
            .to_text()
            .replace("00000000deadbeef", "0000000deadbeeg");
        assert_eq!(RenderCache::from_text(&damaged), RenderCache::default());
        let other = cache.to_text().replace(MAGIC, "gitnomic-site-cache 1");
        assert_eq!(RenderCache::from_text(&other), RenderCache::default());
    }

    #[test]
    fn digests_tell_pieces_apart() {
        let ab = Digest::new().text("a").text("b").finish();
        let a_b = Digest::new().text("ab").text("").finish();
        assert_ne!(ab, a_b);
        assert_eq!(ab, Digest::new().text("a").text("b").finish());
        let one = Digest::new().json(&[1, 2]).finish();
        assert_ne!(one, Digest::new().json(&[1, 3]).finish());
    }
}
