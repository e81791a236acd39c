//! Statistics as charts (matters per month, enactment rate per dynasty),
//! the Atom feed of resolved matters and the search index.

use std::collections::BTreeMap;

use serde::Serialize;

use super::archive::{MatterRow, by_year, rows_digest};
use super::cache::Digest;
use super::context::{Context, matter_url, percent};
use super::links::slug;
use super::svg::{self, Labels};
use super::{Site, SiteError};
use crate::time::Timestamp;

/// Entries in the feed.
const FEED_ENTRIES: usize = 50;

#[derive(Serialize)]
struct Chart {
    svg: String,
    caption: String,
}

/// Renders `stats/index.html`, `feed.xml` and the search index, from
/// the archive's `rows` and `newest` (see [`super::archive::rows`]).
pub(crate) fn render(
    cx: &Context,
    (rows, newest): (&[MatterRow], &[usize]),
    site: &mut Site,
) -> Result<(), SiteError> {
    let voted: Vec<&crate::record::Record> = cx
        .game
        .records
        .iter()
        .filter(|r| r.was_voted_on())
        .collect();
    let enacted = voted.iter().filter(|r| r.status() == "enacted").count();
    let path = "stats/index.html";
    let mut context = cx.page(path, "Statistics", "stats")?;
    context.insert("total", &voted.len());
    context.insert("enacted", &enacted);
    context.insert("rate", &percent(enacted, voted.len()));
    let charts = if voted.is_empty() {
        Vec::new()
    } else {
        vec![per_month(cx), rate_per_dynasty(cx)]
    };
    context.insert("charts", &charts);
    if let Some(text) = cx.render("stats.html", path, context)? {
        site.insert(path.into(), text);
    }
    if let Some(text) = feed(cx, newest)? {
        site.insert("feed.xml".into(), text);
    }
    search_index(cx, rows, newest, site);
    Ok(())
}

/// Resolved matters per calendar month, months without any included.
fn per_month(cx: &Context) -> Chart {
    let mut counts: BTreeMap<(i32, u32), usize> = BTreeMap::new();
    for r in cx.game.records.iter().filter(|r| r.was_voted_on()) {
        let t = r.resolved.to_datetime();
        *counts
            .entry((chrono::Datelike::year(&t), chrono::Datelike::month(&t)))
            .or_default() += 1;
    }
    let mut bars = Vec::new();
    if let (Some(&first), Some(&last)) = (counts.keys().next(), counts.keys().next_back()) {
        let mut month = first;
        while month <= last {
            #[allow(clippy::cast_precision_loss)] // counts of matters
            let value = counts.get(&month).copied().unwrap_or(0) as f64;
            bars.push((format!("{}-{:02}", month.0, month.1), value));
            month = if month.1 == 12 {
                (month.0 + 1, 1)
            } else {
                (month.0, month.1 + 1)
            };
        }
    }
    let every = bars.len().div_ceil(8).max(1);
    let labels = Labels::new(
        "_stats-months",
        "Resolved matters per month",
        "How many matters were resolved in each month of the game.",
    );
    Chart {
        svg: svg::bar_chart(labels, &bars, every),
        caption: format!(
            "Resolved matters per month, over {}.",
            crate::matter::status::plural(bars.len() as i64, "month", "months")
        ),
    }
}

fn rate_per_dynasty(cx: &Context) -> Chart {
    let mut tallies: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for r in cx.game.records.iter().filter(|r| r.was_voted_on()) {
        let entry = tallies.entry(r.dynasty).or_default();
        entry.0 += usize::from(r.status() == "enacted");
        entry.1 += 1;
    }
    #[allow(clippy::cast_precision_loss)] // counts of matters
    let bars: Vec<(String, f64)> = tallies
        .iter()
        .map(|(d, (enacted, all))| (format!("{d}"), *enacted as f64 * 100.0 / *all as f64))
        .collect();
    let every = bars.len().div_ceil(10).max(1);
    let labels = Labels {
        unit: "%",
        integers: false,
        y_max: Some(100.0),
        ..Labels::new(
            "_stats-dynasties",
            "Enactment rate per dynasty (%)",
            "The share of each dynasty's resolved matters that were enacted.",
        )
    };
    Chart {
        svg: svg::bar_chart(labels, &bars, every),
        caption: format!(
            "Enactment rate per dynasty, over {}.",
            crate::matter::status::plural(bars.len() as i64, "dynasty", "dynasties")
        ),
    }
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
            summary: format!(
                "{} by {} in dynasty {}, resolved by {}.",
                r.status(),
                r.author,
                r.dynasty,
                r.resolved_by
            ),
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

/// One entry of the search index: `t` the title, `u` the address from
/// the root, `k` the kind, `a` more text to match.
#[derive(Serialize)]
struct SearchEntry {
    t: String,
    u: String,
    k: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    a: String,
    /// Text matched but not shown: a rule's words.
    #[serde(skip_serializing_if = "String::is_empty")]
    x: String,
}

/// A rule's words for the search to match: its text with Markdown's
/// marks and runs of white space taken out (its code and quotes after
/// the rest), lowercased (the search lowercases what it is given).
fn plain_words(markdown: &str) -> String {
    let (plain, code) = crate::markdown::split_visible(markdown, crate::markdown::Breaks::Spaces);
    plain
        .split_whitespace()
        .chain(code.split_whitespace())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The search index, split so that nothing loads more than it needs:
/// `search/index.json` holds the rules and players and names the
/// matters' files, `search/<year>.json`, newest year first; each year's
/// matters are newest first. A new record changes its year's file only,
/// and only that file is made: the others are told unchanged by the
/// digests of their rows.
fn search_index(cx: &Context, rows: &[MatterRow], newest: &[usize], site: &mut Site) {
    let game = cx.game;
    let rules = game.ruleset.rules.iter().map(|r| SearchEntry {
        t: format!("{} {}", r.number, r.title),
        u: format!("ruleset/index.html#{}", r.id),
        k: "rule".into(),
        a: String::new(),
        x: plain_words(&r.body),
    });
    let players = cx.slugs.keys().map(|name| SearchEntry {
        t: name.clone(),
        u: cx.player_url(name),
        k: "player".into(),
        a: String::new(),
        x: String::new(),
    });
    let newest: Vec<&MatterRow> = newest.iter().map(|&i| &rows[i]).collect();
    let years = by_year(&newest);
    for (year, list) in &years {
        let path = format!("search/{year}.json");
        let key = rows_digest(Digest::new().text("search"), list);
        let text = || {
            let entries: Vec<SearchEntry> = list
                .iter()
                .map(|row| SearchEntry {
                    t: row.title.clone(),
                    u: row.url.clone(),
                    k: format!("{} {}", row.status, row.resolved),
                    a: format!("#{} {}", row.number, row.author),
                    x: String::new(),
                })
                .collect();
            serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into())
        };
        if let Some(text) = cx.file_keyed(&path, key, text) {
            site.insert(path, text);
        }
    }
    let mut sources: Vec<&str> = game
        .records
        .iter()
        .map(|r| r.source.as_deref().unwrap_or_default())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let pending: Vec<u64> = cx.input.pending.matters.iter().map(|m| m.number).collect();
    let index = serde_json::json!({
        "entries": rules.chain(players).collect::<Vec<_>>(),
        "sources": sources,
        "pending": pending,
        "shards": years.iter().map(|(y, _)| format!("search/{y}.json")).collect::<Vec<_>>(),
    });
    let path = "search/index.json";
    if let Some(text) = cx.file(path, index.to_string()) {
        site.insert(path.into(), text);
    }
}
