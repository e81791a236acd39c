//! The gamestate log on the site: every change to a variable or a
//! collection's item on the default branch (by action, proposal or
//! Ascension Address), newest first, with who, when, old → new, and the
//! matter and roll it came from. The tracker shows the whole log and each
//! player's page the changes to their own values or made by them, in pages
//! of [`PER_PAGE`] like the player pages' matters: the first page on the
//! tracker or the player's page itself, the rest under `…/log/page-N.html`.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use super::archive::{PageLink, Pager};
use super::context::{Context, datetime, matter_url};
use super::{Site, SiteError};

use crate::matter::MatterNumber;

/// Changes per page of a log.
pub(crate) const PER_PAGE: usize = 100;

/// One change as a row of the log.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LogRow {
    when: String,
    /// The player's name, or the commit's author.
    who: String,
    who_url: Option<String>,
    what: String,
    from: String,
    to: String,
    matter: Option<MatterNumber>,
    matter_url: Option<String>,
    comment: Option<u64>,
    roll: Option<String>,
    commit: String,
}

/// A page of a log: its rows and the pager.
#[derive(Serialize)]
pub(crate) struct LogPage<'r> {
    pub(crate) rows: Vec<&'r LogRow>,
    pub(crate) pager: Pager,
    /// Changes in the whole log.
    pub(crate) total: usize,
}

/// Every change as a row, newest first, each with the player it concerns
/// (whose value, and who made it) so player pages can pick theirs.
pub(crate) fn rows(cx: &Context) -> Vec<(LogRow, Vec<String>)> {
    let changes = &cx.input.timeline.changes;
    if changes.is_empty() {
        return Vec::new();
    }
    let state = cx.game.state.as_ref();
    // The game's own records (an imported one's number is the old site's).
    let records: BTreeMap<MatterNumber, (String, &str)> = cx
        .game
        .records
        .iter()
        .filter(|r| r.source.is_none())
        .map(|r| (r.number, (matter_url(r), r.author.as_str())))
        .collect();
    changes
        .iter()
        .rev()
        .map(|c| {
            let player = state
                .and_then(|s| s.player_by_login(&c.who))
                .map(|p| p.name.clone());
            let concerns = c.concerns(state);
            // A change a matter made (a proposal's, merged by the
            // resolver) is its author's, not the bot's.
            let record = c.matter.and_then(|n| records.get(&n));
            let who = player
                .or_else(|| record.map(|(_, author)| (*author).to_string()))
                .unwrap_or_else(|| c.who.clone());
            let row = LogRow {
                when: datetime(c.at),
                who_url: cx.slugs.contains_key(&who).then(|| cx.player_url(&who)),
                who,
                what: super::pending::path_in_words(&c.path),
                from: c.from.clone(),
                to: c.to.clone(),
                matter: c.matter,
                matter_url: record.map(|(url, _)| url.clone()),
                comment: c.comment,
                roll: c.roll.clone(),
                commit: c.commit.clone(),
            };
            (row, concerns)
        })
        .collect()
}

/// Page `n` (from 0) of a log whose first page is `first` (a page of its
/// own) and the rest `<dir>/log/page-N.html`.
pub(crate) fn page_path(first: &str, dir: &str, n: usize) -> String {
    match n {
        0 => first.to_string(),
        n => format!("{dir}/log/page-{}.html", n + 1),
    }
}

/// Page `n` of `rows`.
pub(crate) fn page<'r>(rows: &[&'r LogRow], first: &str, dir: &str, n: usize) -> LogPage<'r> {
    let count = rows.len().div_ceil(PER_PAGE).max(1);
    LogPage {
        rows: rows.chunks(PER_PAGE).nth(n).unwrap_or(&[]).to_vec(),
        pager: Pager {
            pages: (0..count)
                .map(|k| PageLink {
                    label: (k + 1).to_string(),
                    url: page_path(first, dir, k),
                    current: k == n,
                })
                .collect(),
        },
        total: rows.len(),
    }
}

/// A player's page's directory (`players/ada` for `players/ada.html`).
pub(crate) fn player_dir(cx: &Context, name: &str) -> String {
    cx.player_url(name).trim_end_matches(".html").to_string()
}

/// The log pages beyond the first: the tracker's and each player's.
pub(crate) fn render(cx: &Context, site: &mut Site) -> Result<(), SiteError> {
    let all = rows(cx);
    let every: Vec<&LogRow> = all.iter().map(|(r, _)| r).collect();
    let mut jobs: Vec<(String, String, Vec<&LogRow>)> =
        vec![("Gamestate log".to_string(), "tracker".to_string(), every)];
    for name in cx.slugs.keys() {
        let mine: Vec<&LogRow> = all
            .iter()
            .filter(|(_, concerns)| concerns.contains(name))
            .map(|(r, _)| r)
            .collect();
        jobs.push((format!("{name}: gamestate log"), player_dir(cx, name), mine));
    }
    let pages: Vec<(String, Option<String>)> = jobs
        .par_iter()
        .flat_map(|(title, dir, rows)| {
            let count = rows.len().div_ceil(PER_PAGE);
            (1..count)
                .into_par_iter()
                .map(move |n| (title, dir, rows, n))
        })
        .map(|(title, dir, rows, n)| {
            let first = if dir == "tracker" {
                "tracker/index.html".to_string()
            } else {
                format!("{dir}.html")
            };
            let path = page_path(&first, dir, n);
            let mut context = cx.page(
                &path,
                &format!("{title}, page {}", n + 1),
                if dir == "tracker" {
                    "tracker"
                } else {
                    "players"
                },
            )?;
            context.insert("log", &page(rows, &first, dir, n));
            context.insert("back", &first);
            Ok((path.clone(), cx.render("log.html", &path, context)?))
        })
        .collect::<Result<_, SiteError>>()?;
    for (path, html) in pages {
        if let Some(html) = html {
            site.insert(path, html);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::page_path;

    #[test]
    fn later_log_pages_sit_beside_the_first() {
        assert_eq!(
            page_path("tracker/index.html", "tracker", 0),
            "tracker/index.html"
        );
        assert_eq!(
            page_path("tracker/index.html", "tracker", 1),
            "tracker/log/page-2.html"
        );
        assert_eq!(
            page_path("players/ada.html", "players/ada", 2),
            "players/ada/log/page-3.html"
        );
    }
}
