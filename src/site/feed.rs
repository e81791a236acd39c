//! The Atom feed of resolved matters, newest first.

use serde::Serialize;

use super::context::{Context, matter_url};
use super::links::slug;
use super::{Site, SiteError};
use crate::time::Timestamp;

/// Entries in the feed.
const FEED_ENTRIES: usize = 50;

/// Renders `feed.xml` from the archive's `newest` (see
/// [`super::archive::rows`]).
pub(crate) fn render(cx: &Context, newest: &[usize], site: &mut Site) -> Result<(), SiteError> {
    if let Some(text) = feed(cx, newest)? {
        site.insert("feed.xml".into(), text);
    }
    Ok(())
}

fn feed(cx: &Context, newest: &[usize]) -> Result<Option<String>, SiteError> {
    #[derive(Serialize)]
    struct Entry {
        title: String,
        id: String,
        url: String,
        updated: Timestamp,
        published: Timestamp,
        author: String,
        summary: String,
    }
    let records = &cx.game.records;
    let game = slug(cx.game.state.as_ref().map_or("game", |s| s.name.as_str()));
    let entries: Vec<Entry> = newest
        .iter()
        .take(FEED_ENTRIES)
        .map(|&i| &records[i])
        .map(|r| Entry {
            title: format!("{}: {}", r.status(), r.title),
            id: format!("urn:gitnomic:{game}:matter:{}", r.key()),
            url: matter_url(r),
            updated: r.resolved,
            published: r.opened,
            author: r.author.clone(),
            summary: match r.resolver() {
                Some(by) => format!(
                    "{} by {} in dynasty {}, resolved by {by}.",
                    r.status(),
                    r.author,
                    r.dynasty,
                ),
                None => format!("{} by {} in dynasty {}.", r.status(), r.author, r.dynasty),
            },
        })
        .collect();
    let updated = entries
        .first()
        .map(|e| e.updated)
        .or_else(|| cx.game.state.as_ref().and_then(|s| s.dynasty.started))
        .unwrap_or(Timestamp::from_unix(0));
    let base = cx
        .input
        .base_url
        .as_ref()
        .map(|b| format!("{}/", b.trim_end_matches('/')))
        .unwrap_or_default();
    let mut context = cx.page("feed.xml", "feed", "")?;
    context.insert("feed_id", &format!("urn:gitnomic:{game}:feed"));
    context.insert("base", &base);
    context.insert("updated", &updated);
    context.insert("entries", &entries);
    cx.render("feed.xml", "feed.xml", context)
}
