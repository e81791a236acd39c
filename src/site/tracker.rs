//! The tracker (BlogNomic's GNDT): the roster with every game variable,
//! globals, collections, each numeric variable plotted over the game's
//! history, and the first page of the gamestate log (see [`super::log`]).
//! Also the page of pending matters.

use std::collections::BTreeMap;

use serde::Serialize;

use super::context::{Context, date};
use super::links::slug;
use super::svg::{self, Labels, Series};
use super::{Site, SiteError};
use crate::game::timeline::Sample;
use crate::gamestate::{GameState, Player};
use crate::time::Timestamp;

#[derive(Serialize)]
struct Column {
    name: String,
    description: String,
}

#[derive(Serialize)]
struct RosterRow {
    name: String,
    url: String,
    anchor: String,
    status: &'static str,
    admin: bool,
    /// The current emperor.
    emperor: bool,
    joined: String,
    idle: String,
    values: Vec<String>,
}

#[derive(Serialize)]
struct Global {
    name: String,
    value: String,
    description: String,
}

#[derive(Serialize)]
struct CollectionView {
    name: String,
    description: String,
    fields: Vec<String>,
    items: Vec<ItemView>,
}

#[derive(Serialize)]
struct ItemView {
    id: String,
    values: Vec<String>,
}

#[derive(Serialize)]
struct Chart {
    svg: String,
    caption: String,
}

/// The anchor of a player's row in the tracker (unique, as slugs are).
pub(crate) fn row_anchor(cx: &Context, name: &str) -> String {
    match cx.slugs.get(name) {
        Some(slug) => format!("_p-{slug}"),
        None => format!("_p-{}", slug(name)),
    }
}

/// Renders `tracker/index.html` and `pending/index.html`.
pub(crate) fn render(cx: &Context, site: &mut Site) -> Result<(), SiteError> {
    let path = "tracker/index.html";
    let mut context = cx.page(path, "Tracker", "tracker")?;
    if let Some(state) = &cx.game.state {
        let columns: Vec<Column> = state
            .schema
            .players
            .iter()
            .map(|(name, decl)| Column {
                name: name.clone(),
                description: decl.description.clone().unwrap_or_default(),
            })
            .collect();
        let roster: Vec<RosterRow> = state.players.iter().map(|p| row(cx, state, p)).collect();
        let active = roster.iter().filter(|r| r.status == "active").count();
        context.insert("columns", &columns);
        context.insert("roster", &roster);
        context.insert("active", &active);
        context.insert("globals", &globals(state));
        context.insert("collections", &collections(state));
    } else {
        context.insert("roster", &Vec::<RosterRow>::new());
        context.insert("active", &0);
    }
    context.insert("charts", &charts(&cx.input.timeline.samples));
    let log = super::log::rows(cx);
    let log: Vec<&super::log::LogRow> = log.iter().map(|(r, _)| r).collect();
    context.insert("log", &super::log::page(&log, path, "tracker", 0));
    if let Some(text) = cx.render("tracker.html", path, context)? {
        site.insert(path.into(), text);
    }

    let path = "pending/index.html";
    let mut context = cx.page(path, "Pending matters", "pending")?;
    context.insert("pending", &super::pending::linked(cx, path));
    if let Some(text) = cx.render("pending.html", path, context)? {
        site.insert(path.into(), text);
    }
    Ok(())
}

fn row(cx: &Context, state: &GameState, player: &Player) -> RosterRow {
    let values = state.values.get(&player.name);
    let idle: Vec<String> = player
        .idle
        .iter()
        .map(|p| match p.until {
            Some(until) => format!("{} to {}", date(p.from), date(until)),
            None => format!("since {}", date(p.from)),
        })
        .collect();
    RosterRow {
        name: player.name.clone(),
        url: cx.player_url(&player.name),
        anchor: row_anchor(cx, &player.name),
        status: if player.idle.iter().any(|p| p.until.is_none()) {
            "idle"
        } else {
            "active"
        },
        admin: player.admin,
        emperor: state.dynasty.emperor.as_deref() == Some(player.name.as_str()),
        joined: player.joined.map(date).unwrap_or_default(),
        idle: idle.join("; "),
        values: state
            .schema
            .players
            .keys()
            .map(|var| {
                values
                    .and_then(|v| v.get(var))
                    .map(show)
                    .unwrap_or_default()
            })
            .collect(),
    }
}

fn globals(state: &GameState) -> Vec<Global> {
    state
        .globals
        .iter()
        .map(|(name, value)| Global {
            name: name.clone(),
            value: show(value),
            description: state
                .schema
                .globals
                .get(name)
                .and_then(|d| d.description.clone())
                .unwrap_or_default(),
        })
        .collect()
}

fn collections(state: &GameState) -> Vec<CollectionView> {
    state
        .schema
        .collections
        .iter()
        .map(|(name, decl)| {
            let fields: Vec<String> = decl.fields.keys().cloned().collect();
            let items = state
                .collections
                .get(name)
                .map(|items| {
                    items
                        .iter()
                        .map(|item| ItemView {
                            id: item.id.clone(),
                            values: fields
                                .iter()
                                .map(|f| item.fields.get(f).map(show).unwrap_or_default())
                                .collect(),
                        })
                        .collect()
                })
                .unwrap_or_default();
            CollectionView {
                name: name.clone(),
                description: decl.description.clone().unwrap_or_default(),
                fields,
                items,
            }
        })
        .collect()
}

/// A value as the tracker shows it: strings bare, lists joined.
pub(crate) fn show(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Array(items) => items.iter().map(show).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The points of one line of a chart.
type Line = Vec<(Timestamp, f64)>;

/// One chart per numeric variable with a history: globals first, then
/// player variables with one line per player.
fn charts(samples: &[Sample]) -> Vec<Chart> {
    let mut globals: BTreeMap<&str, Line> = BTreeMap::new();
    let mut players: BTreeMap<&str, BTreeMap<&str, Line>> = BTreeMap::new();
    for sample in samples {
        for (name, value) in &sample.globals {
            push(globals.entry(name).or_default(), sample.time, *value);
        }
        for (var, by_player) in &sample.players {
            for (player, value) in by_player {
                let line = players.entry(var).or_default().entry(player).or_default();
                push(line, sample.time, *value);
            }
        }
    }
    // One time axis for every chart of the page, from the first change to
    // the last, so their moments line up.
    let range = samples
        .first()
        .zip(samples.last())
        .map(|(a, b)| (a.time, b.time));
    let mut out = Vec::new();
    for (name, points) in globals {
        let series = [Series {
            name: name.to_string(),
            points,
        }];
        out.push(chart(out.len(), name, "the global", &series, range));
    }
    for (var, lines) in players {
        let series: Vec<Series> = lines
            .into_iter()
            .map(|(player, points)| Series {
                name: player.to_string(),
                points,
            })
            .collect();
        out.push(chart(out.len(), var, "each player's", &series, range));
    }
    out
}

/// Adds a point unless the value did not change.
fn push(line: &mut Line, time: Timestamp, value: i64) {
    #[allow(clippy::cast_precision_loss)] // game values are far below 2^52
    let value = value as f64;
    if line.last().is_none_or(|last| last.1 != value) {
        line.push((time, value));
    }
}

fn chart(
    index: usize,
    name: &str,
    whose: &str,
    series: &[Series],
    range: Option<(Timestamp, Timestamp)>,
) -> Chart {
    let description = format!("{whose} {name} at every change to the gamestate");
    let id = format!("_chart-{index}");
    let labels = Labels {
        x_range: range,
        ..Labels::new(&id, name, &description)
    };
    Chart {
        svg: svg::step_chart(labels, series),
        caption: format!("{name}: {description}."),
    }
}
