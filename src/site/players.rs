//! The players' pages: an index of everyone who played or is on the
//! roster, and a page per player with their matters, newest first, in
//! pages of [`PER_PAGE`] (a prolific player has thousands).

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::SiteError;
use super::archive::{MatterRow, PER_PAGE, PageLink, Pager, Tally, rows_digest};
use super::cache::Digest;
use super::context::Context;
use super::tracker::row_anchor;

/// `players/` and one page per player, paginated.
pub(crate) fn render(
    cx: &Context,
    rows: &[MatterRow],
    newest: &[usize],
) -> Result<Vec<(String, String)>, SiteError> {
    let records = &cx.game.records;
    let mut by_author: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in newest {
        by_author
            .entry(records[i].author.as_str())
            .or_default()
            .push(i);
    }
    let state = cx.game.state.as_ref();
    let views: Vec<serde_json::Value> = cx
        .slugs
        .keys()
        .map(|name| {
            let mine = by_author.get(name.as_str()).map_or(&[][..], Vec::as_slice);
            let on_roster = state.and_then(|s| s.player(name));
            let mut view = serde_json::to_value(Tally::of(mine.iter().map(|&i| &records[i])))
                .unwrap_or_default();
            view["name"] = name.as_str().into();
            view["url"] = cx.player_url(name).into();
            view["anchor"] = row_anchor(cx, name).into();
            view["on_roster"] = on_roster.is_some().into();
            view["admin"] = on_roster.is_some_and(|p| p.admin).into();
            let idle = on_roster.is_some_and(|p| p.idle.iter().any(|i| i.until.is_none()));
            view["status"] = if idle { "idle" } else { "active" }.into();
            view
        })
        .collect();
    let log = super::log::rows(cx);
    let mut out = Vec::with_capacity(views.len() + 1);
    let path = "players/index.html";
    let mut context = cx.page(path, "Players", "players")?;
    context.insert("players", &views);
    out.extend(
        cx.render("players.html", path, context)?
            .map(|text| (path.to_string(), text)),
    );
    // A prolific player's matters run to thousands: pages of PER_PAGE, the
    // first at the player's own address.
    let jobs: Vec<(&serde_json::Value, usize, usize)> = views
        .iter()
        .flat_map(|view| {
            let name = view["name"].as_str().unwrap_or_default();
            let count = by_author
                .get(name)
                .map_or(0, Vec::len)
                .div_ceil(PER_PAGE)
                .max(1);
            (0..count).map(move |n| (view, n, count))
        })
        .collect();
    let pages: Vec<Option<(String, String)>> = jobs
        .par_iter()
        .map(|&(view, n, count)| {
            let name = view["name"].as_str().unwrap_or_default();
            let first = cx.player_url(name);
            let at = |n: usize| player_page(&first, n);
            let path = at(n);
            let mine = by_author.get(name).map_or(&[][..], Vec::as_slice);
            let chunk = mine.chunks(PER_PAGE).nth(n).unwrap_or(&[]);
            let list: Vec<&MatterRow> = chunk.iter().map(|&i| &rows[i]).collect();
            let pager = Pager {
                pages: (0..count)
                    .map(|k| PageLink {
                        label: (k + 1).to_string(),
                        url: at(k),
                        current: k == n,
                    })
                    .collect(),
            };
            // Their gamestate log's first page; the rest have pages of
            // their own (see `super::log`).
            let log = (n == 0).then(|| {
                let mine: Vec<&super::log::LogRow> = log
                    .iter()
                    .filter(|(_, concerns)| concerns.iter().any(|c| c == name))
                    .map(|(r, _)| r)
                    .collect();
                let dir = super::log::player_dir(cx, name);
                super::log::page(&mine, &first, &dir, 0)
            });
            // What the page shows, digested without serialising its rows
            // again: a new record changes its author's first page only.
            let key = Digest::new().json(view).json(&pager).json(&log);
            let context = || {
                let mut context = cx.page(&path, name, "players")?;
                if let Some(log) = &log {
                    context.insert("log", log);
                }
                context.insert("p", view);
                context.insert("rows", &list);
                context.insert("pager", &pager);
                Ok(context)
            };
            Ok(cx
                .render_keyed("player.html", &path, rows_digest(key, &list), context)?
                .map(|text| (path.clone(), text)))
        })
        .collect::<Result<_, SiteError>>()?;
    out.extend(pages.into_iter().flatten());
    Ok(out)
}

/// Page `n` (from 0) of a player's matters: their own page first, then
/// `players/<slug>/page-2.html`…
fn player_page(first: &str, n: usize) -> String {
    match n {
        0 => first.to_string(),
        n => format!("{}/page-{}.html", first.trim_end_matches(".html"), n + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::player_page;

    #[test]
    fn a_players_later_pages_sit_beside_the_first() {
        assert_eq!(player_page("players/marrow.html", 0), "players/marrow.html");
        assert_eq!(
            player_page("players/marrow.html", 2),
            "players/marrow/page-3.html"
        );
    }
}
