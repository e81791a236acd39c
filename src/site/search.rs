//! The search index the site's search box loads.

use serde::Serialize;

use super::Site;
use super::archive::{MatterRow, by_year, rows_digest};
use super::cache::Digest;
use super::context::Context;

use crate::matter::MatterNumber;

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
/// digests of their rows. `index.json` is made only when the rules, the
/// glossary, the players, the sources, the pending matters or the list of
/// years change.
pub(crate) fn render(cx: &Context, rows: &[MatterRow], newest: &[usize], site: &mut Site) {
    let game = cx.game;
    let newest: Vec<&MatterRow> = newest.iter().map(|&i| &rows[i]).collect();
    let years = by_year(&newest);
    for (year, list) in &years {
        let path = format!("search/{year}.json");
        let key = rows_digest(Digest::new().text("search"), list);
        let text = || {
            let entries: Vec<SearchEntry> = list
                .iter()
                .map(|row| SearchEntry {
                    t: row.title().to_string(),
                    u: row.url().to_string(),
                    k: format!("{} {}", row.status(), row.resolved()),
                    a: format!("#{} {}", row.number(), row.author()),
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
    let pending: Vec<MatterNumber> = cx.input.pending.matters.iter().map(|m| m.number).collect();
    let shards: Vec<String> = years
        .iter()
        .map(|(y, _)| format!("search/{y}.json"))
        .collect();
    // Everything the index is made from: the rules' words are found by
    // reading each rule's Markdown, which a build with the same rules
    // need not do again.
    let key = game
        .ruleset
        .rules
        .iter()
        .fold(
            Digest::new()
                .text("search index")
                .number(game.ruleset.rules.len() as u64),
            |key, r| {
                let key = key
                    .value(&r.id)
                    .value(&r.number)
                    .text(&r.title)
                    .text(&r.body);
                r.terms
                    .iter()
                    .fold(key.number(r.terms.len() as u64), |key, t| {
                        key.text(&t.term).text(&t.definition)
                    })
            },
        )
        .json(&cx.slugs)
        .json(&sources)
        .json(&pending)
        .json(&shards);
    let path = "search/index.json";
    let index = || {
        let index = serde_json::json!({
            "entries": entries(cx).collect::<Vec<_>>(),
            "sources": sources,
            "pending": pending,
            "shards": shards,
        });
        index.to_string()
    };
    if let Some(text) = cx.file_keyed(path, key, index) {
        site.insert(path.into(), text);
    }
}

/// The index's entries: the rules, the glossary's terms and the players.
fn entries<'c>(cx: &'c Context) -> impl Iterator<Item = SearchEntry> + 'c {
    let game = cx.game;
    let rules = game.ruleset.rules.iter().map(|r| SearchEntry {
        t: format!("{} {}", r.number, r.title),
        u: format!("ruleset/index.html#{}", r.id),
        k: "rule".into(),
        a: String::new(),
        x: plain_words(&r.body),
    });
    // The glossary: each term found by its name and its definition's
    // words, leading to its entry in the ruleset.
    let terms = game.ruleset.rules.iter().flat_map(|r| {
        let anchors = super::rules::term_anchors(r, &mut Default::default());
        r.terms
            .iter()
            .zip(anchors)
            .map(move |(t, anchor)| SearchEntry {
                t: t.term.clone(),
                u: format!("ruleset/index.html#{anchor}"),
                k: "term".into(),
                a: format!("glossary, rule {}", r.number),
                x: plain_words(&t.definition),
            })
    });
    let players = cx.slugs.keys().map(|name| SearchEntry {
        t: name.clone(),
        u: cx.player_url(name),
        k: "player".into(),
        a: String::new(),
        x: String::new(),
    });
    rules.chain(terms).chain(players)
}
