//! A small SVG chart writer: step lines over time and bars. Ours rather
//! than a plotting crate: the site needs two kinds of chart, styled by the
//! site's CSS (so dark mode and the palette apply), inline in the page and
//! readable by screen readers (`role="img"`, a title and a description).

use std::fmt::Write as _;

use super::escape::escape_into;
use crate::time::Timestamp;

const WIDTH: f64 = 640.0;
const PLOT_HEIGHT: f64 = 200.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 12.0;
/// Room above the plot for the chart's visible title.
const TOP: f64 = 34.0;
const AXIS: f64 = 34.0;
const LEGEND_ROW: f64 = 26.0;
/// The fewest bars a bar chart makes room for.
const MIN_BANDS: usize = 12;

/// One line of a chart: a name and points (time, value), in time order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Shown in the legend.
    pub name: String,
    /// (time, value), oldest first.
    pub points: Vec<(Timestamp, f64)>,
}

/// What a chart is about, for people and screen readers, and how its
/// axes run.
#[derive(Debug, Clone, Copy)]
pub struct Labels<'a> {
    /// A document-unique id for the SVG's title element.
    pub id: &'a str,
    /// The title, shown above the plot.
    pub title: &'a str,
    /// A one-sentence description of what the chart shows.
    pub description: &'a str,
    /// The values' unit, after each value tick (`%`), or empty.
    pub unit: &'a str,
    /// The values are whole numbers: no tick between them.
    pub integers: bool,
    /// A fixed top of the value axis (100 for a rate), else from the data.
    pub y_max: Option<f64>,
    /// The value axis starts at zero. Else it fits the data, from zero
    /// only when that costs little room (the least value at most a third
    /// of the greatest): a change from 100 to 103 is not drawn flat.
    pub zero: bool,
    /// The time axis, shared by the charts of a page; else from the data.
    pub x_range: Option<(Timestamp, Timestamp)>,
}

impl<'a> Labels<'a> {
    /// Labels for whole-number values with axes from the data.
    pub fn new(id: &'a str, title: &'a str, description: &'a str) -> Self {
        Labels {
            id,
            title,
            description,
            unit: "",
            integers: true,
            y_max: None,
            zero: true,
            x_range: None,
        }
    }
}

/// A line with at most this many changes has each marked with a dot.
const MARKED_POINTS: usize = 60;

/// A step chart (each value holds until the next) of `series` over time,
/// each line's value at the end beside its name in the legend. A point at
/// or before the start of `labels.x_range` is the value the line starts
/// with there, not a change: it gets no dot.
pub fn step_chart(labels: Labels, series: &[Series]) -> String {
    let times = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0.unix()));
    let data = bounds(times.map(|t| t as f64)).unwrap_or((0.0, 1.0));
    #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit an f64
    let (t0, t1) = labels
        .x_range
        .map_or(data, |(a, b)| (a.unix() as f64, b.unix() as f64));
    // A history of one moment ends there: a day before it, nothing after.
    let t0 = if t1 > t0 { t0 } else { t1 - 86_400.0 };
    // A little room after the last change, so it is not on the edge.
    let t1 = t1 + (t1 - t0) * 0.03;
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (v0, v1) = bounds(values).unwrap_or((0.0, 1.0));
    let cheap = v0 >= 0.0 && v0 * 3.0 <= v1;
    let (v0, v1) = if labels.zero || cheap {
        (v0.min(0.0), v1.max(0.0))
    } else {
        (v0, v1)
    };
    let ticks = nice_ticks(v0, labels.y_max.unwrap_or(v1), labels.integers);
    let (lo, hi) = (ticks[0], ticks[ticks.len() - 1]);
    // Each line's name, and its value now after it.
    let values: Vec<String> = series
        .iter()
        .map(|s| match s.points.last() {
            Some(&(_, v)) => format!(" {}{}", trim_number(v), labels.unit),
            None => String::new(),
        })
        .collect();
    let names: Vec<String> = series
        .iter()
        .zip(&values)
        .map(|(s, value)| format!("{}{value}", s.name))
        .collect();
    let legend_rows = legend_rows(names.iter().map(String::as_str));
    let height = TOP + PLOT_HEIGHT + AXIS + LEGEND_ROW * legend_rows.len() as f64;
    let x = |t: f64| LEFT + (t - t0) / (t1 - t0) * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| TOP + PLOT_HEIGHT - (v - lo) / (hi - lo) * PLOT_HEIGHT;
    let mut svg = open(labels, height);
    y_axis(&mut svg, &ticks, labels.unit, &y);
    time_axis(&mut svg, t0, t1, &x);
    // Lines with equal values would lie on one another: each is drawn a
    // little apart from the next (at most 2.5 px), and every change is
    // marked, so that no line hides another.
    let step = (8.0 / series.len().max(1) as f64).min(2.5);
    let middle = (series.len().max(1) - 1) as f64 / 2.0;
    for (i, s) in series.iter().enumerate() {
        let Some(&(first_t, first_v)) = s.points.first() else {
            continue;
        };
        let dy = (i as f64 - middle) * step;
        let y = |v: f64| y(v) + dy;
        let mut path = format!("M{:.1} {:.1}", x(first_t.unix() as f64), y(first_v));
        for &(t, v) in &s.points[1..] {
            let _ = write!(path, " H{:.1} V{:.1}", x(t.unix() as f64), y(v));
        }
        let _ = write!(path, " H{:.1}", x(t1));
        let class = format!("s{} d{}", i % 8, (i / 8) % 3);
        let _ = write!(svg, "<path class=\"line {class}\" d=\"{path}\"><title>");
        name_into(&mut svg, &s.name);
        svg.push_str("</title></path>");
        if s.points.len() <= MARKED_POINTS {
            for &(t, v) in s.points.iter().filter(|p| p.0.unix() as f64 > t0) {
                let _ = write!(
                    svg,
                    "<circle class=\"dot {class}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"><title>",
                    x(t.unix() as f64),
                    y(v)
                );
                name_into(&mut svg, &s.name);
                escape_into(
                    &mut svg,
                    &format!(
                        ": {}{} from {}",
                        trim_number(v),
                        labels.unit,
                        t.to_datetime().format("%Y-%m-%d")
                    ),
                );
                svg.push_str("</title></circle>");
            }
        }
    }
    let top = TOP + PLOT_HEIGHT + AXIS;
    legend(&mut svg, &legend_rows, series, &values, top);
    svg.push_str("</svg>");
    svg
}

/// A bar chart of labelled values; every `label_every`-th label is shown.
pub fn bar_chart(labels: Labels, bars: &[(String, f64)], label_every: usize) -> String {
    let (_, v1) = bounds(bars.iter().map(|b| b.1).chain([0.0])).unwrap_or((0.0, 1.0));
    let ticks = nice_ticks(0.0, labels.y_max.unwrap_or(v1), labels.integers);
    let hi = ticks[ticks.len() - 1];
    let height = TOP + PLOT_HEIGHT + AXIS;
    // A few bars keep the width of a year's months, from the left, rather
    // than one bar as wide as the plot.
    let band = (WIDTH - LEFT - RIGHT) / bars.len().max(MIN_BANDS) as f64;
    let y = |v: f64| TOP + PLOT_HEIGHT - v / hi * PLOT_HEIGHT;
    let mut svg = open(labels, height);
    y_axis(&mut svg, &ticks, labels.unit, &y);
    for (i, (label, value)) in bars.iter().enumerate() {
        let left = LEFT + band * i as f64 + band * 0.1;
        let _ = write!(
            svg,
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"><title>",
            left,
            y(*value),
            (band * 0.8).max(0.5),
            (TOP + PLOT_HEIGHT - y(*value)).max(0.0)
        );
        escape_into(
            &mut svg,
            &format!("{label}: {}{}", trim_number(*value), labels.unit),
        );
        svg.push_str("</title></rect>");
        if label_every > 0 && i % label_every == 0 {
            // Every other label is "odd": a phone, with larger text,
            // shows only the even ones, so none overlap.
            let odd = if (i / label_every) % 2 == 1 {
                " class=\"odd\""
            } else {
                ""
            };
            let _ = write!(
                svg,
                "<text{odd} x=\"{:.1}\" y=\"{:.1}\">",
                left,
                TOP + PLOT_HEIGHT + 22.0
            );
            escape_into(&mut svg, label);
            svg.push_str("</text>");
        }
    }
    svg.push_str("</svg>");
    svg
}

fn open(labels: Labels, height: f64) -> String {
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-labelledby=\"{0} {0}-d\"><title id=\"{0}\">",
        labels.id
    );
    escape_into(&mut svg, labels.title);
    let _ = write!(svg, "</title><desc id=\"{}-d\">", labels.id);
    escape_into(&mut svg, labels.description);
    svg.push_str("</desc><text class=\"title\" x=\"0\" y=\"16\">");
    escape_into(&mut svg, labels.title);
    svg.push_str("</text>");
    svg
}

/// The value axis; the unit after each value is a `tspan` of its own, which
/// a phone's larger text leaves out (the chart's title names the unit).
fn y_axis(svg: &mut String, ticks: &[f64], unit: &str, y: &dyn Fn(f64) -> f64) {
    for &tick in ticks {
        let at = y(tick);
        let _ = write!(
            svg,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{at:.1}\" y2=\"{at:.1}\"/><text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}",
            WIDTH - RIGHT,
            LEFT - 6.0,
            at + 4.0,
            trim_number(tick)
        );
        if !unit.is_empty() {
            let _ = write!(svg, "<tspan class=\"unit\">{unit}</tspan>");
        }
        svg.push_str("</text>");
    }
}

fn time_axis(svg: &mut String, t0: f64, t1: f64, x: &dyn Fn(f64) -> f64) {
    let baseline = TOP + PLOT_HEIGHT;
    let _ = write!(
        svg,
        "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{baseline}\" y2=\"{baseline}\"/>",
        WIDTH - RIGHT
    );
    #[allow(clippy::cast_possible_truncation)] // seconds since 1970 fit an i64
    let (ticks, format) = time_ticks(t0 as i64, t1 as i64);
    for (i, t) in ticks.iter().enumerate() {
        #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit an f64
        let at = x(*t as f64);
        let label = Timestamp::from_unix(*t).to_datetime().format(format);
        // A label near an edge is kept inside the chart.
        let anchor = if at < LEFT + 40.0 {
            "start"
        } else if at > WIDTH - RIGHT - 40.0 {
            "end"
        } else {
            "middle"
        };
        let _ = write!(
            svg,
            "<text class=\"t{i}\" x=\"{at:.1}\" y=\"{:.1}\" text-anchor=\"{anchor}\">{label}</text>",
            baseline + 22.0
        );
    }
}

/// At most five round moments between `t0` and `t1` (seconds since 1970):
/// whole hours, days, weeks, month starts or year starts, whichever is the
/// finest that needs no more than five, with the label format that suits
/// them. People read "6 Mar 12:00", not "03-05 19:03".
fn time_ticks(t0: i64, t1: i64) -> (Vec<i64>, &'static str) {
    const HOUR: i64 = 3600;
    const DAY: i64 = 24 * HOUR;
    const FIXED: [(i64, &str); 8] = [
        (HOUR, "%-d %b %H:%M"),
        (3 * HOUR, "%-d %b %H:%M"),
        (6 * HOUR, "%-d %b %H:%M"),
        (12 * HOUR, "%-d %b %H:%M"),
        (DAY, "%-d %b"),
        (2 * DAY, "%-d %b"),
        (7 * DAY, "%-d %b %Y"),
        (14 * DAY, "%-d %b %Y"),
    ];
    for (step, format) in FIXED {
        // Multiples of a whole number of hours or days since 1970 are
        // whole hours and midnights, UTC.
        let first = t0.div_euclid(step) * step + if t0.rem_euclid(step) == 0 { 0 } else { step };
        let ticks: Vec<i64> = (0..)
            .map(|k| first + k * step)
            .take_while(|t| *t <= t1)
            .collect();
        if ticks.len() <= 5 {
            return (ticks, format);
        }
    }
    // Month starts, every 1, 3, 6 or 12·k months.
    let months = |from: i64| {
        use chrono::Datelike as _;
        let d = Timestamp::from_unix(from).to_datetime();
        i64::from(d.year()) * 12 + i64::from(d.month0())
    };
    let (m0, m1) = (months(t0), months(t1));
    let mut step = 1;
    while (m1 - m0) / step > 4 {
        step = match step {
            1 => 3,
            3 => 6,
            6 => 12,
            n => n + 12,
        };
    }
    let start = |m: i64| {
        let (year, month) = (m.div_euclid(12), m.rem_euclid(12) + 1);
        chrono::NaiveDate::from_ymd_opt(
            i32::try_from(year).unwrap_or(1970),
            u32::try_from(month).unwrap_or(1),
            1,
        )
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map_or(0, |d| d.and_utc().timestamp())
    };
    let first = (m0 + 1).div_euclid(step) * step;
    let first = if first <= m0 { first + step } else { first };
    let ticks: Vec<i64> = (0..)
        .map(|k| start(first + k * step))
        .take_while(|t| *t <= t1)
        .filter(|t| *t >= t0)
        .collect();
    (ticks, if step >= 12 { "%Y" } else { "%b %Y" })
}

/// Splits names into legend rows that fit the width.
fn legend_rows<'n>(names: impl Iterator<Item = &'n str>) -> Vec<Vec<(usize, &'n str)>> {
    let mut rows: Vec<Vec<(usize, &str)>> = Vec::new();
    let mut used = WIDTH;
    for (i, name) in names.enumerate() {
        let width = legend_width(name);
        if used + width > WIDTH - LEFT {
            rows.push(Vec::new());
            used = 0.0;
        }
        used += width;
        if let Some(row) = rows.last_mut() {
            row.push((i, name));
        }
    }
    rows
}

/// Room for a legend entry: wide enough for the larger text on phones.
fn legend_width(name: &str) -> f64 {
    32.0 + 12.5 * name.chars().count() as f64
}

/// A series' name (a player's, say), escaped and isolated between U+2068
/// and U+2069, so that a mark in it that shows text backwards turns only
/// the name around, not the value after it.
fn name_into(svg: &mut String, name: &str) {
    svg.push_str("&#x2068;");
    escape_into(svg, name);
    svg.push_str("&#x2069;");
}

/// The legend: `rows` of (series, label) as [`legend_rows`] laid them
/// out, each written as its series' name, isolated, then its value as
/// `values` says it.
fn legend(
    svg: &mut String,
    rows: &[Vec<(usize, &str)>],
    series: &[Series],
    values: &[String],
    top: f64,
) {
    for (r, row) in rows.iter().enumerate() {
        let y = top + LEGEND_ROW * r as f64 + 12.0;
        let mut x = LEFT;
        for &(i, label) in row {
            let _ = write!(
                svg,
                "<rect class=\"s{}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"4\"/><text x=\"{:.1}\" y=\"{y:.1}\">",
                i % 8,
                y - 6.0,
                x + 16.0
            );
            name_into(svg, &series[i].name);
            escape_into(svg, &values[i]);
            svg.push_str("</text>");
            x += legend_width(label);
        }
    }
}

fn bounds(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Round tick values (steps of 1, 2 or 5 times a power of ten, at least
/// 1 for whole numbers) covering `lo..=hi`, at least two of them.
fn nice_ticks(lo: f64, hi: f64, integers: bool) -> Vec<f64> {
    let span = if hi > lo { hi - lo } else { 1.0 };
    let raw = span / 4.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let step = if integers { step.max(1.0) } else { step };
    let start = (lo / step).floor() * step;
    let mut ticks = vec![start];
    while ticks[ticks.len() - 1] < hi || ticks.len() < 2 {
        ticks.push(start + step * ticks.len() as f64);
    }
    ticks
}

/// `3` rather than `3.0`; `2.5` stays.
pub(crate) fn trim_number(v: f64) -> String {
    let text = format!("{v:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(day: i64) -> Timestamp {
        Timestamp::from_unix(1_900_000_000 + day * 86_400)
    }

    #[test]
    fn time_ticks_are_round_moments_people_read() {
        let t = |text: &str| Timestamp::parse(text).unwrap().unix();
        let label = |(ticks, format): (Vec<i64>, &str)| -> Vec<String> {
            ticks
                .iter()
                .map(|s| {
                    Timestamp::from_unix(*s)
                        .to_datetime()
                        .format(format)
                        .to_string()
                })
                .collect()
        };
        assert_eq!(
            label(time_ticks(
                t("2030-03-01T00:00:00Z"),
                t("2030-03-02T15:10:00Z")
            )),
            ["1 Mar 00:00", "1 Mar 12:00", "2 Mar 00:00", "2 Mar 12:00"],
            "a day and a half: every 12 hours"
        );
        assert_eq!(
            label(time_ticks(
                t("2030-03-01T05:00:00Z"),
                t("2030-03-05T01:00:00Z")
            )),
            ["2 Mar", "3 Mar", "4 Mar", "5 Mar"],
            "midnights"
        );
        assert_eq!(
            label(time_ticks(
                t("2005-06-01T00:00:00Z"),
                t("2025-11-01T00:00:00Z")
            )),
            ["2010", "2015", "2020", "2025"],
            "twenty years: every 5"
        );
        assert_eq!(
            label(time_ticks(
                t("2030-01-15T00:00:00Z"),
                t("2030-09-20T00:00:00Z")
            )),
            ["Apr 2030", "Jul 2030"],
            "months: quarter starts"
        );
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(0.0, 10.0, true), [0.0, 5.0, 10.0]);
        assert_eq!(nice_ticks(0.0, 7.0, true), [0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(nice_ticks(-3.0, 0.0, true), [-3.0, -2.0, -1.0, 0.0]);
        assert_eq!(nice_ticks(0.0, 0.0, false), [0.0, 0.5]);
        assert_eq!(nice_ticks(0.0, 0.0, true), [0.0, 1.0], "no half a spring");
        assert_eq!(nice_ticks(0.0, 100.0, false), [0.0, 50.0, 100.0]);
        assert_eq!(trim_number(2.50), "2.5");
    }

    #[test]
    fn a_step_chart_draws_each_series_with_its_title() {
        let series = [
            Series {
                name: "Ada <3".into(),
                points: vec![(at(0), 0.0), (at(1), 10.0)],
            },
            Series {
                name: "Boris".into(),
                points: vec![(at(0), 5.0)],
            },
        ];
        let labels = Labels::new("c1", "springs", "springs per player");
        let svg = step_chart(labels, &series);
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("aria-labelledby=\"c1 c1-d\""));
        // Ada starts at the left edge at 0 (the bottom), steps up to 10 (the top).
        // Each line sits 1.25 px off its value, the two 2.5 px apart.
        assert!(
            svg.contains("<path class=\"line s0 d0\" d=\"M48.0 232.8 H611.1 V32.8 H628.0\"><title>&#x2068;Ada &lt;3&#x2069;</title>"),
            "{svg}"
        );
        assert!(
            svg.contains("<path class=\"line s1 d0\" d=\"M48.0 135.2 H628.0\">"),
            "{svg}"
        );
        assert_eq!(svg.matches("<path").count(), 2);
        assert!(
            svg.contains("<title>&#x2068;Ada &lt;3&#x2069;: 10 from 2030-03-18</title></circle>"),
            "{svg}"
        );
        assert_eq!(
            svg.matches("<circle").count(),
            1,
            "a dot at every change, none at the values the chart starts with"
        );
        assert!(
            svg.contains(">&#x2068;Ada &lt;3&#x2069; 10</text>")
                && svg.contains(">&#x2068;Boris&#x2069; 5</text>"),
            "the legend gives each line's value now: {svg}"
        );
        assert!(svg.contains("<text class=\"title\" x=\"0\" y=\"16\">springs</text>"));
    }

    #[test]
    fn equal_lines_are_drawn_apart() {
        let same = |name: &str| Series {
            name: name.into(),
            points: vec![(at(0), 3.0), (at(1), 4.0)],
        };
        let svg = step_chart(
            Labels::new("c", "t", "d"),
            &[same("a"), same("b"), same("c")],
        );
        let paths: Vec<&str> = svg
            .split("<path class=\"line ")
            .skip(1)
            .map(|p| p.split("\"><title>").next().unwrap_or(""))
            .map(|p| p.split(" d=\"").nth(1).unwrap_or(""))
            .collect();
        assert_eq!(paths.len(), 3);
        assert!(paths[0] != paths[1] && paths[1] != paths[2], "{paths:?}");
    }

    #[test]
    fn a_value_that_never_changed_ends_where_its_history_does() {
        let series = [Series {
            name: "round".into(),
            points: vec![(at(0), 1.0)],
        }];
        let svg = step_chart(Labels::new("c", "round", "the round"), &series);
        // The axis runs from a day before to just after the one moment
        // (round times on both days, none on the next), with whole-number
        // ticks only.
        let day = |secs: i64| {
            Timestamp::from_unix(secs)
                .to_datetime()
                .format("%-d %b ")
                .to_string()
        };
        let moment = at(0).unix();
        assert!(svg.contains(&format!(">{}", day(moment - 86_400))), "{svg}");
        assert!(svg.contains(&format!(">{}", day(moment))), "{svg}");
        assert!(
            !svg.contains(&format!(">{}", day(moment + 86_400))),
            "{svg}"
        );
        assert!(!svg.contains(">0.5</text>"), "{svg}");
    }

    /// The value of attribute `name` of the element of `svg` that starts
    /// at the last `<tag` before `marker`.
    fn attribute(svg: &str, tag: &str, marker: &str, name: &str) -> String {
        let end = svg.find(marker).expect(marker);
        let element = &svg[svg[..end].rfind(tag).expect(tag)..end];
        let value = &element[element.find(&format!(" {name}=\"")).expect(name) + name.len() + 3..];
        value[..value.find('"').unwrap()].to_string()
    }

    #[test]
    fn one_bar_is_as_wide_as_one_of_twelve_and_its_label_starts_under_it() {
        let labels = Labels::new("b", "t", "d");
        let one = bar_chart(labels, &[("2030-03".to_string(), 5.0)], 1);
        let year: Vec<(String, f64)> = (1..=12).map(|m| (format!("2030-{m:02}"), 1.0)).collect();
        let twelve = bar_chart(labels, &year, 1);
        let bar = "<title>2030-03:";
        assert_eq!(
            attribute(&one, "<rect", bar, "width"),
            attribute(&twelve, "<rect", bar, "width"),
            "{one}"
        );
        assert_eq!(
            attribute(&one, "<rect", bar, "x"),
            attribute(&one, "<text", ">2030-03</text>", "x"),
            "{one}"
        );
    }

    #[test]
    fn a_bar_chart_has_one_bar_per_value() {
        let bars = [("2030-01".to_string(), 4.0), ("2030-02".to_string(), 0.0)];
        let labels = Labels::new("b", "t", "d");
        let svg = bar_chart(labels, &bars, 1);
        assert_eq!(svg.matches("<rect class=\"bar\"").count(), 2);
        assert!(svg.contains("<title>2030-01: 4</title>"), "{svg}");
        assert!(
            svg.contains("height=\"0.0\"><title>2030-02: 0</title>"),
            "{svg}"
        );
    }
}
