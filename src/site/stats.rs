//! Statistics as charts: matters per month, enactment rate per dynasty.

use std::collections::BTreeMap;

use serde::Serialize;

use super::context::{Context, percent};
use super::svg::{self, Labels};
use super::{Site, SiteError};

#[derive(Serialize)]
struct Chart {
    svg: String,
    caption: String,
}

/// Renders `stats/index.html`.
pub(crate) fn render(cx: &Context, site: &mut Site) -> Result<(), SiteError> {
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
