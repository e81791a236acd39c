//! The players' pages: an index of everyone who played or is on the
//! roster, and a page per player with their counts, their gamestate log
//! and their matters of their newest year, newest first; their earlier
//! years on pages of their own (a prolific player has thousands).

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::SiteError;
use super::archive::{MatterRow, Pager, Tally, by_year, rows_digest};
use super::cache::Digest;
use super::context::Context;
use super::tracker::row_anchor;

/// A player's matters by the year they were resolved in, newest first.
type Years<'r> = Vec<(i32, Vec<&'r MatterRow<'r>>)>;

/// How many of a player's votes their page lists, newest first.
const RECENT_VOTES: usize = 20;

/// A roster player's current values, `name = value`, in the schema's
/// order; empty for anyone else.
fn values_of(state: Option<&crate::gamestate::GameState>, name: &str) -> Vec<serde_json::Value> {
    let Some(state) = state else {
        return Vec::new();
    };
    let Some(values) = state.values.get(name) else {
        return Vec::new();
    };
    state
        .schema
        .players
        .keys()
        .filter_map(|var| {
            let value = values.get(var)?;
            Some(serde_json::json!({ "name": var, "value": super::tracker::show(value) }))
        })
        .collect()
}

/// `players/` and one page per player, paginated.
pub(crate) fn render(
    cx: &Context,
    rows: &[MatterRow],
    newest: &[usize],
) -> Result<Vec<(String, String)>, SiteError> {
    let played = Played::of(&cx.game.records, newest);
    let names: Vec<&String> = cx.slugs.keys().collect();
    let views: Vec<serde_json::Value> = names
        .par_iter()
        .map(|name| view_of(cx, &played, name))
        .collect();
    let mut out = Vec::with_capacity(views.len() + 1);
    out.extend(index_page(cx, &views)?);
    out.extend(player_pages(cx, rows, &played, &views)?);
    Ok(out)
}

/// What each player did in the resolved matters, newest matter first: the
/// records they wrote, and their votes (by record index).
struct Played<'r> {
    authored: BTreeMap<&'r str, Vec<usize>>,
    votes: BTreeMap<&'r str, Vec<(usize, &'r str)>>,
}

impl<'r> Played<'r> {
    fn of(records: &'r [crate::record::Record], newest: &[usize]) -> Played<'r> {
        let mut played = Played {
            authored: BTreeMap::new(),
            votes: BTreeMap::new(),
        };
        for &i in newest {
            let record = &records[i];
            played
                .authored
                .entry(record.author.as_str())
                .or_default()
                .push(i);
            for v in &record.votes {
                played
                    .votes
                    .entry(v.player.as_str())
                    .or_default()
                    .push((i, v.vote.as_str()));
            }
        }
        played
    }

    /// The records `name` wrote, newest first.
    fn authored(&self, name: &str) -> &[usize] {
        self.authored.get(name).map_or(&[][..], Vec::as_slice)
    }
}

/// A player's view: their counts, where they stand on the roster, their
/// values, their newest votes and the pending matters awaiting their vote.
fn view_of(cx: &Context, played: &Played<'_>, name: &str) -> serde_json::Value {
    let records = &cx.game.records;
    let state = cx.game.state.as_ref();
    let on_roster = state.and_then(|s| s.player(name));
    let mut view = serde_json::to_value(Tally::of(
        played.authored(name).iter().map(|&i| &records[i]),
    ))
    .unwrap_or_default();
    view["name"] = name.into();
    view["url"] = cx.player_url(name).into();
    view["anchor"] = row_anchor(cx, name).into();
    view["on_roster"] = on_roster.is_some().into();
    view["admin"] = on_roster.is_some_and(|p| p.admin).into();
    view["joined"] = on_roster
        .and_then(|p| p.joined)
        .map(super::context::date)
        .into();
    let idle = on_roster.is_some_and(|p| p.idle.iter().any(|i| i.until.is_none()));
    view["status"] = if idle { "idle" } else { "active" }.into();
    view["roster_order"] = state
        .and_then(|s| s.players.iter().position(|p| p.name == name))
        .into();
    view["values"] = values_of(state, name).into();
    let cast = played.votes.get(name).map_or(&[][..], Vec::as_slice);
    view["votes_cast"] = cast.len().into();
    view["votes"] = cast
        .iter()
        .take(RECENT_VOTES)
        .map(|&(i, vote)| {
            serde_json::json!({
                "number": records[i].number,
                "title": records[i].title,
                "url": super::context::matter_url(&records[i]),
                "vote": vote,
            })
        })
        .collect::<Vec<_>>()
        .into();
    view["awaiting"] = cx
        .input
        .pending
        .matters
        .iter()
        .filter(|m| m.not_voted.iter().any(|n| n == name))
        .map(|m| serde_json::json!({ "number": m.number, "title": m.title }))
        .collect::<Vec<_>>()
        .into();
    view
}

/// `players/index.html`: the roster first, in its order; then everyone
/// else by name.
fn index_page(
    cx: &Context,
    views: &[serde_json::Value],
) -> Result<Option<(String, String)>, SiteError> {
    let (mut roster, others): (Vec<&serde_json::Value>, Vec<&serde_json::Value>) =
        views.iter().partition(|v| v["on_roster"] == true);
    roster.sort_by_key(|v| v["roster_order"].as_u64());
    let path = "players/index.html";
    let mut context = cx.page(path, "Players", "players")?;
    context.insert("roster", &roster);
    context.insert("others", &others);
    context.insert("players", &views.len());
    Ok(cx
        .render("players.html", path, context)?
        .map(|text| (path.to_string(), text)))
}

/// Each player's front page and, for a player of more than one year, a
/// page per year: a prolific player's matters run to thousands, and a new
/// record then changes its own year's page and the player's front page
/// (their summary and newest year) only.
fn player_pages(
    cx: &Context,
    rows: &[MatterRow],
    played: &Played<'_>,
    views: &[serde_json::Value],
) -> Result<Vec<(String, String)>, SiteError> {
    let log = super::log::rows(cx);
    let jobs: Vec<(&serde_json::Value, Years)> = views
        .par_iter()
        .map(|view| {
            let name = view["name"].as_str().unwrap_or_default();
            let mine: Vec<&MatterRow> = played.authored(name).iter().map(|&i| &rows[i]).collect();
            (view, by_year(&mine))
        })
        .collect();
    let pages: Vec<(&serde_json::Value, &Years, Option<usize>)> = jobs
        .iter()
        .flat_map(|(view, years)| {
            // Year pages only for a player of more than one year: the front
            // page shows all of one year's.
            let more = if years.len() > 1 { years.len() } else { 0 };
            std::iter::once((*view, years, None))
                .chain((0..more).map(move |y| (*view, years, Some(y))))
        })
        .collect();
    let pages: Vec<Option<(String, String)>> = pages
        .par_iter()
        .map(|&(view, years, year)| player_page(cx, &log, view, years, year))
        .collect::<Result<_, SiteError>>()?;
    Ok(pages.into_iter().flatten().collect())
}

/// A player's front page (`year` is `None`: their summary, gamestate log
/// and newest year), or the page of one of their `years`.
fn player_page(
    cx: &Context,
    log: &[(super::log::LogRow, Vec<String>)],
    view: &serde_json::Value,
    years: &Years,
    year: Option<usize>,
) -> Result<Option<(String, String)>, SiteError> {
    let name = view["name"].as_str().unwrap_or_default();
    let first = cx.player_url(name);
    let path = year.map_or_else(|| first.clone(), |y| year_page(&first, years[y].0));
    let (shown, list) = years
        .get(year.unwrap_or(0))
        .map_or((None, &[][..]), |(y, rows)| (Some(*y), rows.as_slice()));
    let pager = Pager::of_years(years, shown, |y| year_page(&first, y));
    // Their gamestate log's first page on the front page; the rest have
    // pages of their own (see `super::log`).
    let log = year.is_none().then(|| {
        let mine: Vec<&super::log::LogRow> = log
            .iter()
            .filter(|(_, concerns)| concerns.iter().any(|c| c == name))
            .map(|(r, _)| r)
            .collect();
        let dir = super::log::player_dir(cx, name);
        super::log::page(&mine, &first, &dir, 0)
    });
    // A year's page shows the player's name, not their counts: a new
    // record leaves their other years' pages as they were.
    let summary = year.is_none().then_some(view);
    let title = match (year, shown) {
        (Some(_), Some(y)) => format!("{name}, {y}"),
        _ => name.to_string(),
    };
    // What the page shows, digested without serialising its rows again.
    let key = Digest::new()
        .text(name)
        .text(&first)
        .json(&summary)
        .json(&shown)
        .json(&pager)
        .json(&log);
    let context = || {
        let mut context = cx.page(&path, &title, "players")?;
        if let Some(log) = &log {
            context.insert("log", log);
        }
        context.insert("name", name);
        context.insert("home", &first);
        context.insert("p", &summary);
        context.insert("year", &shown);
        let rows = super::archive::rows_html(list, &super::context::root(&path), false);
        context.insert("rows", &rows);
        context.insert("pager", &pager);
        Ok(context)
    };
    Ok(cx
        .render_keyed("player.html", &path, rows_digest(key, list), context)?
        .map(|text| (path.clone(), text)))
}

/// The page of a player's matters resolved in `year`, beside their own
/// page: `players/<slug>/<year>.html`.
fn year_page(first: &str, year: i32) -> String {
    format!("{}/{year}.html", first.trim_end_matches(".html"))
}

#[cfg(test)]
mod tests {
    use super::year_page;

    #[test]
    fn a_players_years_sit_beside_their_page() {
        assert_eq!(
            year_page("players/marrow.html", 2019),
            "players/marrow/2019.html"
        );
    }
}
