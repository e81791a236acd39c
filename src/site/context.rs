//! What every page shares: the game's name and terms, the address of the
//! site's root relative to each page, players' page names, dates as text.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::Serialize;

use super::cache::{Digest, RenderCache};
use super::links::slug;
use super::theme::Theme;
use super::xref::{HtmlCache, Targets};
use super::{SiteError, SiteInput};
use crate::game::Game;
use crate::record::Record;
use crate::time::Timestamp;

/// The game as the header and footer of every page show it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct SiteView {
    name: String,
    dynasty: String,
    emperor: Option<String>,
    emperor_term: String,
    player_term: String,
    players_term: String,
    phase: String,
    /// The game's repository on its forge, if known.
    forge: Option<super::ForgeWeb>,
    /// The address the site is served from, ending in `/`, if given: for
    /// link previews' `og:url`.
    base_url: Option<String>,
    /// The strip every page shows: quorum, active players, pending
    /// matters and when something next resolves.
    status: StatusView,
}

/// The game's standing as every page's strip shows it without the
/// script: what changes seldom (the quorum, the active players, the
/// roster). What changes with every vote or new matter (how many are
/// pending, the next moment, who has not voted) is in `status.js`
/// ([`status_script`]), which every page loads: a vote rewrites that one
/// small file, not every page. Every page's digest covers this view.
#[derive(Debug, Clone, Serialize, Default)]
struct StatusView {
    /// The quorum, when a forge was asked or the roster gives it.
    quorum: Option<u32>,
    /// Active players, when known; else those on the roster.
    active: Option<u32>,
    /// Players on the roster.
    roster: usize,
}

/// `status.js`: the strip's live part as data for the site's script
/// (`window.gitnomicStatus`): whether a forge was asked, how many matters
/// are pending, the next moment something resolves, and each open
/// matter's number with the active players who have not voted on it
/// (for "me"). Loaded as a classic script, so it works from disk too.
pub(crate) fn status_script(pending: &super::Pending) -> String {
    let unvoted: Vec<(crate::matter::MatterNumber, &Vec<String>)> = pending
        .matters
        .iter()
        .filter(|m| !m.not_voted.is_empty())
        .map(|m| (m.number, &m.not_voted))
        .collect();
    let status = serde_json::json!({
        "asked": pending.as_of.is_some(),
        "pending": pending.matters.len(),
        "next": pending.next,
        "unvoted": unvoted,
    });
    // `</` never ends the script early, whatever a title holds.
    let json = status.to_string().replace("</", "<\\/");
    format!("window.gitnomicStatus = {json};\n")
}

/// Shared inputs and helpers of one build.
pub(crate) struct Context<'a> {
    /// The inputs.
    pub(crate) input: &'a SiteInput<'a>,
    /// The game.
    pub(crate) game: &'a Game,
    /// Every player name (roster and record authors) → its page's slug.
    pub(crate) slugs: BTreeMap<String, String>,
    /// Rendered rule text, shared by the ruleset, rule and revision pages.
    pub(crate) html: HtmlCache,
    /// The game's ruleset's cross-reference targets, made once (their
    /// glossary pattern is compiled) for every page that links into it.
    pub(crate) targets: Targets,
    base: tera::Context,
    theme: &'a Theme,
    /// The rendered masthead by (depth, section): the same on thousands of
    /// pages, so rendered once each.
    mastheads: Mutex<HashMap<(usize, String), String>>,
    /// What the previous build made, to leave alone what has not changed.
    previous: &'a RenderCache,
    /// The digest of what every page shares: the theme and `base`.
    shared: u64,
    /// The digest of every file this build makes, rendered or kept.
    made: Mutex<Vec<(String, u64)>>,
    /// Hears of every file as soon as it is rendered (see
    /// [`super::Emit`]).
    emit: &'a super::Emit<'a>,
    /// How many files were rendered.
    rendered: std::sync::atomic::AtomicUsize,
}

impl<'a> Context<'a> {
    /// Gathers what pages share.
    pub(crate) fn new(
        input: &'a SiteInput<'a>,
        theme: &'a Theme,
        previous: &'a RenderCache,
        emit: &'a super::Emit<'a>,
    ) -> Self {
        let game = input.game;
        let mut site = site_view(game);
        site.forge = input.forge.clone();
        site.base_url = input
            .base_url
            .as_ref()
            .filter(|b| crate::markdown::web_link(Some(b)).is_some())
            .map(|b| format!("{}/", b.trim_end_matches('/')));
        let pending = input.pending;
        site.status = StatusView {
            quorum: pending.quorum,
            active: pending.active,
            roster: game.state.as_ref().map_or(0, |s| s.players.len()),
        };
        let mut base = tera::Context::new();
        base.insert("site", &site);
        let mut names: BTreeSet<&str> = game.records.iter().map(|r| r.author.as_str()).collect();
        if let Some(state) = &game.state {
            names.extend(state.players.iter().map(|p| p.name.as_str()));
        }
        Context {
            input,
            game,
            slugs: slugs(names),
            html: HtmlCache::default(),
            targets: Targets::new(&game.ruleset),
            shared: Digest::new()
                .number(theme.digest())
                .json(&base.clone().into_json())
                .finish(),
            base,
            theme,
            mastheads: Mutex::new(HashMap::new()),
            previous,
            made: Mutex::new(Vec::new()),
            emit,
            rendered: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Hands a file just made to [`Context::emit`], and gives it back
    /// unless the emitter took it.
    fn emitted(&self, path: &str, text: String) -> Option<String> {
        (self.rendered).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (self.emit)(path, text)
    }

    /// How many files were rendered so far.
    pub(crate) fn rendered(&self) -> usize {
        self.rendered.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Renders `template` with `context` as the page at `path`, unless the
    /// previous build made that page from the same template and values:
    /// then `None`, and the file it wrote stands. `None` too when the
    /// [`super::Emit`] took the text: the site returned lacks the file.
    pub(crate) fn render(
        &self,
        template: &str,
        path: &str,
        context: tera::Context,
    ) -> Result<Option<String>, SiteError> {
        let values = context.into_json();
        let digest = Digest::new()
            .number(self.shared)
            .text(template)
            .text(path)
            .json(&values)
            .finish();
        if self.keep(path, digest) {
            return Ok(None);
        }
        let context = tera::Context::from_value(values).map_err(|e| SiteError::Render {
            page: path.to_string(),
            template: template.to_string(),
            message: e.to_string(),
        })?;
        let text = self.theme.render(template, path, &context)?;
        Ok(self.emitted(path, text))
    }

    /// Like [`Context::render`] for pages made by the thousand (a matter's
    /// page): `key` digests everything the page is made from besides what
    /// every page shares, so its context is made only when it changed.
    pub(crate) fn render_keyed(
        &self,
        template: &str,
        path: &str,
        key: Digest,
        context: impl FnOnce() -> Result<tera::Context, SiteError>,
    ) -> Result<Option<String>, SiteError> {
        let digest = key.number(self.shared).text(template).text(path).finish();
        if self.keep(path, digest) {
            return Ok(None);
        }
        let text = self.theme.render(template, path, &context()?)?;
        Ok(self.emitted(path, text))
    }

    /// A file made without a template (a static file, `status.js`):
    /// `None` when the previous build made the same text (or the
    /// [`super::Emit`] took it).
    pub(crate) fn file(&self, path: &str, text: String) -> Option<String> {
        let digest = Digest::new().text(&text).finish();
        (!self.keep(path, digest))
            .then(|| self.emitted(path, text))
            .flatten()
    }

    /// Like [`Context::file`] for a file made from inputs whose digest is
    /// `key`: its text is made only when they changed.
    pub(crate) fn file_keyed(
        &self,
        path: &str,
        key: Digest,
        text: impl FnOnce() -> String,
    ) -> Option<String> {
        let digest = key.text(path).finish();
        (!self.keep(path, digest))
            .then(|| self.emitted(path, text()))
            .flatten()
    }

    /// Records that this build makes `path` from inputs with `digest`; true
    /// when the previous build made it from the same.
    fn keep(&self, path: &str, digest: u64) -> bool {
        if let Ok(mut made) = self.made.lock() {
            made.push((path.to_string(), digest));
        }
        self.previous.files.get(path).is_some_and(|d| *d == digest)
    }

    /// Whether a file was made at `path` so far, rendered or kept.
    pub(crate) fn made(&self, path: &str) -> bool {
        self.made
            .lock()
            .is_ok_and(|m| m.iter().any(|(made, _)| made == path))
    }

    /// The digests of every file made, rendered or kept.
    pub(crate) fn cache(&self) -> RenderCache {
        let mut made = self
            .made
            .lock()
            .map(|mut m| std::mem::take(&mut *m))
            .unwrap_or_default();
        // In order before the map is made, which then builds it at once;
        // no two entries share a path (each file is made once).
        made.par_sort_unstable_by(|a, b| a.0.cmp(&b.0));
        RenderCache {
            identity: self.previous.identity.clone(),
            files: made.into_iter().collect(),
        }
    }

    /// A page's context: the shared values plus `root` (the way back to
    /// the site's root from `path`), `title` and the nav `section`.
    pub(crate) fn page(
        &self,
        path: &str,
        title: &str,
        section: &str,
    ) -> Result<tera::Context, SiteError> {
        let mut context = self.base.clone();
        context.insert("root", &root(path));
        context.insert("path", path);
        context.insert("section", section);
        let key = (path.matches('/').count(), section.to_string());
        let cached = self
            .mastheads
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned());
        let masthead = match cached {
            Some(html) => html,
            None => {
                let html = self.theme.render("masthead.html", path, &context)?;
                if let Ok(mut map) = self.mastheads.lock() {
                    map.insert(key, html.clone());
                }
                html
            }
        };
        context.insert("masthead", &masthead);
        context.insert("title", title);
        Ok(context)
    }

    /// The address of a player's page from the root: `players/ada.html`.
    pub(crate) fn player_url(&self, name: &str) -> String {
        player_url_of(self.slugs.get(name).map(String::as_str))
    }
}

fn site_view(game: &Game) -> SiteView {
    match &game.state {
        Some(state) => SiteView {
            name: state.name.clone(),
            dynasty: format!("Dynasty {}", state.dynasty.number),
            emperor: state.dynasty.emperor.clone(),
            emperor_term: state.terms.emperor.clone(),
            player_term: state.terms.player.clone(),
            players_term: state.terms.players.clone(),
            phase: state.dynasty.phase.to_string(),
            status: StatusView::default(),
            forge: None,
            base_url: None,
        },
        None => SiteView {
            name: "A gitnomic game".into(),
            dynasty: "Dynasty unknown".into(),
            emperor: None,
            emperor_term: "Emperor".into(),
            player_term: "Player".into(),
            players_term: "Players".into(),
            phase: "unknown".into(),
            status: StatusView::default(),
            forge: None,
            base_url: None,
        },
    }
}

/// The address of the player's page whose slug is `slug` from the root;
/// the players' index for a name without a page.
pub(crate) fn player_url_of(slug: Option<&str>) -> String {
    match slug {
        Some(slug) => format!("players/{slug}.html"),
        None => "players/index.html".to_string(),
    }
}

/// `../` once per directory of `path`: the way back to the root.
pub(crate) fn root(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

/// Slugs for names: lowercase ASCII letters and digits joined by `-`,
/// made unique with `-2`, `-3` in name order, none of them `index`.
fn slugs<'n>(names: impl IntoIterator<Item = &'n str>) -> BTreeMap<String, String> {
    // `players/index.html` is the list of players: a player named `index`
    // gets `index-2`.
    let mut taken = BTreeSet::from(["index".to_string()]);
    names
        .into_iter()
        .map(|name| (name.to_string(), unique(&slug(name), &mut taken)))
        .collect()
}

/// `stem`, or `stem-2`, `stem-3`, … : the first not in `taken`, added to
/// it.
pub(crate) fn unique(stem: &str, taken: &mut BTreeSet<String>) -> String {
    let mut candidate = stem.to_string();
    let mut n = 1;
    while !taken.insert(candidate.clone()) {
        n += 1;
        candidate = format!("{stem}-{n}");
    }
    candidate
}

/// `2005-08-03`. Written out by hand for years of four digits (every
/// page of the archive shows thousands of dates), else as chrono would.
pub(crate) fn date(t: Timestamp) -> String {
    use chrono::Datelike;
    let d = t.to_datetime();
    if (0..=9999).contains(&d.year()) {
        format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
    } else {
        d.format("%Y-%m-%d").to_string()
    }
}

/// `05:42 UTC on 3 Aug 2005` (`05:42:56 UTC` with seconds): the one way
/// the site, the status comment and `play list` write a moment
/// ([`crate::matter::status::when`]), written out by hand as [`date`] is.
pub(crate) fn datetime(t: Timestamp) -> String {
    use chrono::{Datelike, Timelike};
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let d = t.to_datetime();
    if !(0..=9999).contains(&d.year()) {
        return crate::matter::status::when(t);
    }
    let month = MONTHS[d.month0() as usize % 12];
    // With the seconds when there are any, as `when` writes them.
    let seconds = match d.second() {
        0 => String::new(),
        s => format!(":{s:02}"),
    };
    format!(
        "{:02}:{:02}{seconds} UTC on {} {month} {}",
        d.hour(),
        d.minute(),
        d.day(),
        d.year()
    )
}

/// The address of a record's page from the root: `matters/12.html`.
/// Leaf pages are files, not directories of their own: at tens of
/// thousands of pages, a directory each doubles the cost of a clean write.
pub(crate) fn matter_url(record: &Record) -> String {
    format!("matters/{}.html", record.key())
}

/// `57%` of `part` in `whole`, or `–` when there is nothing to divide.
pub(crate) fn percent(part: usize, whole: usize) -> String {
    match (part * 100 + whole / 2).checked_div(whole) {
        Some(rounded) => format!("{rounded}%"),
        None => "–".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_reads_as_the_status_comment_writes_it() {
        for t in [
            "2005-08-03T05:42:56Z",
            "2030-12-31T23:59:00Z",
            "2030-03-02T13:00:00Z",
        ] {
            let t = Timestamp::parse(t).unwrap();
            assert_eq!(datetime(t), crate::matter::status::when(t));
        }
    }

    #[test]
    fn dates_read_as_chrono_writes_them() {
        for secs in [
            0,
            1_123_047_776,
            253_402_300_799,
            253_402_300_800,
            -62_167_219_201,
        ] {
            let t = Timestamp::from_unix(secs);
            let d = t.to_datetime();
            assert_eq!(date(t), d.format("%Y-%m-%d").to_string(), "{secs}");
            let format = if secs.rem_euclid(60) == 0 {
                "%H:%M UTC on %-d %b %Y"
            } else {
                "%H:%M:%S UTC on %-d %b %Y"
            };
            assert_eq!(datetime(t), d.format(format).to_string(), "{secs}");
        }
    }

    #[test]
    fn roots_slugs_and_percentages() {
        assert_eq!(root("index.html"), "");
        assert_eq!(root("matters/blognomic/12.html"), "../../");
        assert_eq!(slug("75th Trombone"), "75th-trombone");
        assert_eq!(slug("--Ørjan!"), "rjan");
        assert_eq!(slug("§§"), "player");
        let s = slugs(["Ann", "ann", "A.N.N."]);
        assert_eq!(s["A.N.N."], "a-n-n");
        assert_eq!((s["Ann"].as_str(), s["ann"].as_str()), ("ann", "ann-2"));
        let s = slugs(["Index", "index"]);
        assert_eq!(
            (s["Index"].as_str(), s["index"].as_str()),
            ("index-2", "index-3")
        );
        assert_eq!(percent(1, 3), "33%");
        assert_eq!(percent(2, 3), "67%");
        assert_eq!(percent(0, 0), "–");
    }
}
