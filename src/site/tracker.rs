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
    let charts = charts(&cx.input.timeline.samples);
    context.insert("charts", &charts.charts);
    context.insert("steady", &charts.steady);
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

/// The tracker's charts, and the variables left out of them.
#[derive(Serialize)]
struct Charts {
    /// One per numeric variable that some change moved.
    charts: Vec<Chart>,
    /// The numeric variables no change has moved yet, with their value
    /// (`round 1`): a flat line would carry nothing.
    steady: Vec<String>,
}

/// One chart per numeric variable that changed: globals first, then
/// player variables with one line per player. Every chart of the page
/// shares one time axis, from shortly before the first change to the
/// last, so their moments line up and the changes fill the width: a game
/// set up a day before its first vote does not draw a day of flat lines.
fn charts(samples: &[Sample]) -> Charts {
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
    let mut variables: Vec<(&str, &str, Vec<Series>)> = globals
        .into_iter()
        .map(|(name, points)| {
            let series = vec![Series {
                name: name.to_string(),
                points,
            }];
            (name, "the global", series)
        })
        .collect();
    variables.extend(players.into_iter().map(|(var, lines)| {
        let series = lines
            .into_iter()
            .map(|(player, points)| Series {
                name: player.to_string(),
                points,
            })
            .collect();
        (var, "each player's", series)
    }));
    let moved = |series: &[Series]| series.iter().any(|s| s.points.len() > 1);
    let steady = variables
        .iter()
        .filter(|(_, _, series)| !moved(series))
        .map(|(name, _, series)| {
            let mut values: Vec<String> = series
                .iter()
                .filter_map(|s| s.points.last())
                .map(|p| super::svg::trim_number(p.1))
                .collect();
            values.dedup();
            match values.as_slice() {
                [one] => format!("{name} ({one})"),
                _ => (*name).to_string(),
            }
        })
        .collect();
    variables.retain(|(_, _, series)| moved(series));
    let first_change = variables
        .iter()
        .flat_map(|(_, _, series)| series.iter().filter_map(|s| s.points.get(1)))
        .map(|p| p.0)
        .min();
    let (Some(first), Some(last), Some(start)) = (
        first_change,
        samples.last().map(|s| s.time),
        samples.first().map(|s| s.time),
    ) else {
        return Charts {
            charts: Vec::new(),
            steady,
        };
    };
    // A tenth of the changes' span before the first, at least an hour,
    // never before the history begins; all the changes at one moment
    // have no span to fill, and show the whole history.
    let span = last.unix() - first.unix();
    let from = if span > 0 {
        Timestamp::from_unix((first.unix() - (span / 10).max(3600)).max(start.unix()))
    } else {
        start
    };
    let charts = variables
        .into_iter()
        .enumerate()
        .map(|(index, (name, whose, mut series))| {
            for s in &mut series {
                s.points = from_moment(&s.points, from);
            }
            chart(index, name, whose, &series, (from, last))
        })
        .collect();
    Charts { charts, steady }
}

/// The points of a line from `from` on: the value it had then, at
/// `from`, and every change after.
fn from_moment(points: &[(Timestamp, f64)], from: Timestamp) -> Line {
    let before = points.iter().rposition(|p| p.0 <= from);
    let mut line: Line = before.map(|i| (from, points[i].1)).into_iter().collect();
    line.extend(points.iter().filter(|p| p.0 > from).copied());
    line
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
    range: (Timestamp, Timestamp),
) -> Chart {
    let description = format!(
        "{whose} {name} at every change to the gamestate, from just before the first change; the legend gives the values now"
    );
    let id = format!("_chart-{index}");
    let labels = Labels {
        x_range: Some(range),
        zero: false,
        ..Labels::new(&id, name, &description)
    };
    Chart {
        svg: svg::step_chart(labels, series),
        caption: format!("{name}: {description}."),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{Sample, charts, from_moment};
    use crate::time::Timestamp;

    fn day(n: i64) -> Timestamp {
        Timestamp::from_unix(1_900_000_000 + n * 86_400)
    }

    fn sample(at: i64, round: i64, ada: i64, boris: i64) -> Sample {
        Sample {
            time: day(at),
            globals: BTreeMap::from([("round".to_string(), round)]),
            players: BTreeMap::from([(
                "springs".to_string(),
                BTreeMap::from([("Ada".to_string(), ada), ("Boris".to_string(), boris)]),
            )]),
        }
    }

    #[test]
    fn only_what_changed_is_charted_and_its_changes_fill_the_width() {
        // Set up on day 0, quiet for ten days, then Ada's springs change
        // twice; the round never does.
        let made = charts(&[sample(0, 1, 3, 5), sample(10, 1, 4, 5), sample(12, 1, 6, 5)]);
        assert_eq!(made.steady, ["round (1)"]);
        assert_eq!(made.charts.len(), 1);
        let svg = &made.charts[0].svg;
        // Two changes, two dots; the values the chart starts with get none.
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
        assert!(
            svg.contains(">&#x2068;Ada&#x2069; 6</text>")
                && svg.contains(">&#x2068;Boris&#x2069; 5</text>"),
            "{svg}"
        );
        // The axis starts a little before day 10, not on day 0: the first
        // change is not squeezed into the right-hand sixth of the plot.
        let x = |svg: &str| -> f64 {
            let dot = &svg[svg.find("<circle").unwrap()..];
            let cx = &dot[dot.find("cx=\"").unwrap() + 4..];
            cx[..cx.find('"').unwrap()].parse().unwrap()
        };
        assert!(x(svg) < 200.0, "the first change at x = {}: {svg}", x(svg));
    }

    #[test]
    fn a_line_from_a_moment_starts_with_the_value_it_had_then() {
        let line = [(day(0), 3.0), (day(5), 4.0), (day(9), 6.0)];
        assert_eq!(from_moment(&line, day(6)), [(day(6), 4.0), (day(9), 6.0)]);
        assert_eq!(from_moment(&line, day(0)), line);
        assert_eq!(
            from_moment(&[(day(7), 1.0)], day(6)),
            [(day(7), 1.0)],
            "a player who joined later starts when they joined"
        );
    }
}
