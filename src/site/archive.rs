//! The archive of resolved matters: an index filtered by status, one page
//! per record with every vote, players' pages with their matters and
//! enactment rate, dynasties, and the home page and plain pages.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use super::cache::Digest;
use super::context::{Context, date, datetime, matter_url, percent};
use super::xref::{self, Targets};
use super::{Site, SiteError};
use crate::matter::MatterNumber;
use crate::record::Record;

/// Rows per page of the archive's long lists.
pub(crate) const PER_PAGE: usize = 500;

/// A resolved matter as a row of a table. What a table shows of it is
/// made only when a table is rendered: a rebuild digests every row (a
/// twenty-year game has about 16,000) but renders the few tables whose
/// rows changed.
#[derive(Debug)]
pub(crate) struct MatterRow<'r> {
    record: &'r Record,
    /// The slug of the author's page; none for a name without one (the
    /// row then links to the players' index).
    slug: Option<&'r str>,
    /// The year it was resolved in, for the archive's pages.
    pub(crate) year: i32,
    /// The digest of everything the row shows: pages listing it digest
    /// this.
    pub(crate) digest: u64,
    /// Its text, made when a table first lists it.
    text: std::sync::OnceLock<RowText>,
}

/// What a row shows that is made from its record and its author's slug,
/// and its fields escaped for HTML: made once, though three tables list
/// every row (the archive's, its dynasty's and its author's).
#[derive(Debug)]
struct RowText {
    /// What the number column sorts by: the matter's number after its
    /// source, so imported and own matters keep apart. Of the record alone:
    /// a new record changes no other row.
    order: String,
    url: String,
    author_url: String,
    resolved: String,
    /// The title, author, author's address, order, address, resolution
    /// date and status, escaped.
    escaped: [String; 7],
}

impl<'r> MatterRow<'r> {
    /// The row of `record`, whose author's page has `slug`.
    pub(crate) fn of(record: &'r Record, slug: Option<&'r str>) -> MatterRow<'r> {
        let resolved = record.resolved;
        // Everything the row shows is made from these.
        let digest = Digest::new()
            .value(&record.source)
            .number(record.number.get())
            .text(&record.title)
            .text(&record.author)
            .value(&slug)
            .number(u64::from(record.dynasty))
            .value(&resolved)
            .text(record.status())
            .finish();
        MatterRow {
            record,
            slug,
            year: chrono::Datelike::year(&resolved.to_datetime()),
            digest,
            text: std::sync::OnceLock::new(),
        }
    }

    fn text(&self) -> &RowText {
        use super::escape::escape;
        self.text.get_or_init(|| {
            let r = self.record;
            let order = format!("{}{:08}", r.source.as_deref().unwrap_or("~"), r.number);
            let url = matter_url(r);
            let author_url = super::context::player_url_of(self.slug);
            let resolved = date(r.resolved);
            let escaped = [
                escape(&r.title),
                escape(&r.author),
                escape(&author_url),
                escape(&order),
                escape(&url),
                escape(&resolved),
                escape(r.status()),
            ];
            RowText {
                order,
                url,
                author_url,
                resolved,
                escaped,
            }
        })
    }

    pub(crate) fn number(&self) -> MatterNumber {
        self.record.number
    }

    pub(crate) fn status(&self) -> &'static str {
        self.record.status()
    }

    pub(crate) fn title(&self) -> &'r str {
        &self.record.title
    }

    pub(crate) fn author(&self) -> &'r str {
        &self.record.author
    }

    /// Its page from the site's root.
    pub(crate) fn url(&self) -> &str {
        &self.text().url
    }

    /// The day it was resolved.
    pub(crate) fn resolved(&self) -> &str {
        &self.text().resolved
    }

    /// The title, author, author's address, order, address, resolution
    /// date and status, escaped.
    fn escaped(&self) -> &[String; 7] {
        &self.text().escaped
    }
}

/// As templates see a row (the home page's recent matters).
impl Serialize for MatterRow<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Row<'a> {
            order: &'a str,
            number: MatterNumber,
            url: &'a str,
            title: &'a str,
            author: &'a str,
            author_url: &'a str,
            dynasty: u32,
            resolved: &'a str,
            status: &'static str,
        }
        let text = self.text();
        Row {
            order: &text.order,
            number: self.number(),
            url: &text.url,
            title: self.title(),
            author: self.author(),
            author_url: &text.author_url,
            dynasty: self.record.dynasty,
            resolved: &text.resolved,
            status: self.status(),
        }
        .serialize(serializer)
    }
}

#[derive(Serialize)]
pub(crate) struct PageLink {
    pub(crate) label: String,
    pub(crate) url: String,
    pub(crate) current: bool,
}

#[derive(Serialize)]
pub(crate) struct Pager {
    pub(crate) pages: Vec<PageLink>,
}

impl Pager {
    /// A pager of `years` (newest first), `shown` marked current, each
    /// year's page at `url(year)`. (A pager of one page is not shown.)
    pub(crate) fn of_years<T>(
        years: &[(i32, T)],
        shown: Option<i32>,
        url: impl Fn(i32) -> String,
    ) -> Pager {
        Pager {
            pages: years
                .iter()
                .map(|(y, _)| PageLink {
                    label: y.to_string(),
                    url: url(*y),
                    current: Some(*y) == shown,
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct Facet {
    label: String,
    url: String,
    count: usize,
    current: bool,
}

/// The counts behind a player's or a dynasty's line.
#[derive(Debug, Clone, Default, Serialize)]
pub(crate) struct Tally {
    pub(crate) matters: usize,
    pub(crate) enacted: usize,
    pub(crate) rate: String,
    rate_sort: usize,
    first: String,
    last: String,
}

impl Tally {
    pub(crate) fn of<'r>(records: impl Iterator<Item = &'r Record>) -> Tally {
        let mut t = Tally::default();
        let (mut first, mut last) = (None, None);
        for r in records.filter(|r| r.was_voted_on()) {
            t.matters += 1;
            t.enacted += usize::from(r.status() == "enacted");
            first = first.min(Some(r.resolved)).or(Some(r.resolved));
            last = last.max(Some(r.resolved));
        }
        t.rate = percent(t.enacted, t.matters);
        t.rate_sort = (t.enacted * 1000).checked_div(t.matters).unwrap_or(0);
        t.first = first.map(date).unwrap_or_default();
        t.last = last.map(date).unwrap_or_default();
        t
    }
}

/// The rows of every record, in record order.
pub(crate) fn rows<'c>(cx: &'c Context) -> Vec<MatterRow<'c>> {
    cx.game
        .records
        .par_iter()
        .map(|r| MatterRow::of(r, cx.slugs.get(&r.author).map(String::as_str)))
        .collect()
}

/// Indices of records, newest resolution first.
pub(crate) fn newest_first(records: &[Record]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..records.len()).collect();
    order.sort_by(|&a, &b| (records[b].resolved, b).cmp(&(records[a].resolved, a)));
    order
}

/// Renders the home page, plain pages, the archive, matters and
/// dynasties, from `rows` (see [`rows`]) and `newest` (see
/// [`newest_first`]), which the players' pages share. `history` gives
/// the revisions' diffs, which only the matters' pages need: another
/// thread may still be making them.
pub(crate) fn render<'h>(
    cx: &Context,
    history: &(dyn Fn() -> &'h super::revisions::History<'h> + Sync),
    (rows, newest): (&[MatterRow], &[usize]),
    site: &mut Site,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<(), SiteError> {
    home(cx, rows, newest, site)?;
    listings(cx, rows, newest, site)?;
    progress("  the pages of the matters");
    site.extend(matters(cx, history())?.into_iter().flatten());
    progress("  the dynasties' pages");
    site.extend(dynasties(cx, rows, newest)?);
    Ok(())
}

fn home(
    cx: &Context,
    rows: &[MatterRow],
    newest: &[usize],
    site: &mut Site,
) -> Result<(), SiteError> {
    #[derive(Serialize)]
    struct PageEntry {
        title: String,
        url: String,
    }
    let targets = &cx.targets;
    let mut entries = Vec::new();
    // Two pages whose names slug alike (`Rules.md`, `a/rules.md`) get a
    // page each: the second `rules-2.html`.
    let mut taken = std::collections::BTreeSet::new();
    for page in &cx.game.pages {
        let stem = page.path.rsplit('/').next().unwrap_or("page");
        let slug = super::links::slug(stem.trim_end_matches(".md"));
        let url = format!("pages/{}.html", super::context::unique(&slug, &mut taken));
        let path = url.clone();
        let mut context = cx.page(&path, &page.title, "")?;
        let prefix = format!("{}ruleset/index.html", super::context::root(&path));
        context.insert("html", &xref::to_html(&page.body, targets, &prefix));
        if let Some(text) = cx.render("page.html", &path, context)? {
            site.insert(path.clone(), text);
        }
        entries.push(PageEntry {
            title: page.title.clone(),
            url,
        });
    }
    let path = "index.html";
    let mut context = cx.page(path, "Home", "home")?;
    // The ten last resolved, newest first, each with the moment it was
    // resolved (several a day are common): a list that reads in order.
    #[derive(Serialize)]
    struct Recent<'r> {
        row: &'r MatterRow<'r>,
        when: String,
        when_iso: String,
    }
    let recent: Vec<Recent<'_>> = newest
        .iter()
        .take(10)
        .map(|&i| Recent {
            row: &rows[i],
            when: datetime(cx.game.records[i].resolved),
            when_iso: cx.game.records[i].resolved.to_string(),
        })
        .collect();
    let counts = BTreeMap::from([
        ("rules", cx.game.ruleset.rules.len()),
        (
            "players",
            cx.game.state.as_ref().map_or(0, |s| s.players.len()),
        ),
        ("pending", cx.input.pending.matters.len()),
        ("records", cx.game.records.len()),
        ("revisions", cx.input.timeline.revisions.len()),
    ]);
    context.insert("counts", &counts);
    context.insert("pages", &entries);
    context.insert("recent", &recent);
    context.insert("pending", &super::pending::linked(cx, path));
    context.insert("commit", &cx.input.commit);
    if let Some(text) = cx.render("index.html", path, context)? {
        site.insert(path.into(), text);
    }
    Ok(())
}

/// One list of the archive: all matters, or those of one status.
struct Listing<'r> {
    label: &'static str,
    base: String,
    rows: Vec<&'r MatterRow<'r>>,
    /// The rows by year resolved, newest year first; each year newest
    /// first.
    years: Vec<(i32, Vec<&'r MatterRow<'r>>)>,
}

/// One page of a listing: the listing, the year shown (an index into its
/// years), the page of that year (a busy year has more than [`PER_PAGE`]
/// matters), and whether it is the listing's front page (its newest year,
/// at the listing's address).
type Job<'l, 'r> = (&'l Listing<'r>, usize, usize, bool);

/// `archive/` and `archive/<status>/`, a page per year: a new record
/// changes its own year's pages only, and no page carries the whole
/// archive. Each list's front page shows its newest year.
fn listings(
    cx: &Context,
    rows: &[MatterRow],
    newest: &[usize],
    site: &mut Site,
) -> Result<(), SiteError> {
    let mut by_status: BTreeMap<&'static str, Vec<&MatterRow>> = BTreeMap::new();
    for &i in newest {
        by_status
            .entry(rows[i].status())
            .or_default()
            .push(&rows[i]);
    }
    let all: Vec<&MatterRow> = newest.iter().map(|&i| &rows[i]).collect();
    let lists: Vec<Listing> = std::iter::once(("all", "archive/".to_string(), all))
        .chain(
            by_status
                .into_iter()
                .map(|(label, rows)| (label, format!("archive/{label}/"), rows)),
        )
        .map(|(label, base, rows)| Listing {
            label,
            base,
            years: by_year(&rows),
            rows,
        })
        .collect();
    let jobs: Vec<Job> = lists
        .iter()
        .flat_map(|list| {
            let years = list
                .years
                .iter()
                .enumerate()
                .flat_map(move |(y, (_, rows))| {
                    (0..rows.len().div_ceil(PER_PAGE)).map(move |k| (list, y, k, false))
                });
            std::iter::once((list, 0, 0, true)).chain(years)
        })
        .collect();
    let pages: Vec<Option<(String, String)>> = jobs
        .par_iter()
        .map(|job| listing_page(cx, &lists, job))
        .collect::<Result<_, SiteError>>()?;
    site.extend(pages.into_iter().flatten());
    Ok(())
}

/// `1,248 matters`, `1 matter`.
fn matters_count(n: usize) -> String {
    let noun = if n == 1 { "matter" } else { "matters" };
    format!("{} {noun}", super::theme::thousands(n as u64))
}

/// Rows (newest first) grouped by the year they were resolved in.
pub(crate) fn by_year<'r, 'c>(rows: &[&'r MatterRow<'c>]) -> Vec<(i32, Vec<&'r MatterRow<'c>>)> {
    let mut years: Vec<(i32, Vec<&MatterRow>)> = Vec::new();
    for row in rows {
        match years.last_mut() {
            Some((year, list)) if *year == row.year => list.push(row),
            _ => years.push((row.year, vec![row])),
        }
    }
    years
}

fn listing_page(
    cx: &Context,
    lists: &[Listing],
    &(list, y, k, front): &Job,
) -> Result<Option<(String, String)>, SiteError> {
    let total = list.rows.len();
    let (year, in_year) = list.years.get(y).map_or((None, &[][..]), |(year, rows)| {
        (Some(*year), rows.as_slice())
    });
    let chunk = in_year.chunks(PER_PAGE).nth(k).unwrap_or(&[]);
    let of_year = |year: i32, k: usize| match k {
        0 => format!("{}{year}.html", list.base),
        k => format!("{}{year}-{}.html", list.base, k + 1),
    };
    let which = if list.label == "all" {
        String::new()
    } else {
        format!(" {}", list.label)
    };
    let title = match (front, year) {
        (true, _) | (false, None) => format!("Archive{}", which.replacen(' ', ": ", 1)),
        (false, Some(year)) if k == 0 => {
            format!("Archive{}, {year}", which.replacen(' ', ": ", 1))
        }
        (false, Some(year)) => format!(
            "Archive{}, {year}, page {}",
            which.replacen(' ', ": ", 1),
            k + 1
        ),
    };
    let description = match (front, year) {
        (true, Some(year)) => format!(
            "{} resolved matters{which}, a page per year, newest first. {year}: {}.",
            super::theme::thousands(total as u64),
            matters_count(in_year.len()),
        ),
        (false, Some(year)) => format!(
            "Resolved in {year}: {}{which}, newest first.",
            matters_count(in_year.len()),
        ),
        (_, None) => format!("No resolved matters{which} yet."),
    };
    // The same year in each list, with its count there: a page shows
    // nothing of other years, so a new record changes its own year only.
    let facets: Vec<Facet> = lists
        .iter()
        .map(|l| {
            let same_year = l.years.iter().find(|(y, _)| Some(*y) == year);
            Facet {
                label: l.label.to_string(),
                url: same_year.map_or_else(
                    || format!("{}index.html", l.base),
                    |(y, _)| format!("{}{y}.html", l.base),
                ),
                count: same_year.map_or(0, |(_, rows)| rows.len()),
                current: l.label == list.label,
            }
        })
        .collect();
    let path = match (front, year) {
        (false, Some(year)) => of_year(year, k),
        _ => format!("{}index.html", list.base),
    };
    let year_pages = Pager {
        pages: (0..in_year.len().div_ceil(PER_PAGE))
            .map(|n| PageLink {
                label: (n + 1).to_string(),
                url: year.map(|year| of_year(year, n)).unwrap_or_default(),
                current: n == k,
            })
            .collect(),
    };
    let pager = Pager::of_years(&list.years, year, |y| format!("{}{y}.html", list.base));
    let key = Digest::new()
        .text(&title)
        .text(&description)
        .json(&facets)
        .json(&year)
        .json(&pager)
        .json(&year_pages);
    let context = || {
        let mut context = cx.page(&path, &title, "archive")?;
        context.insert("description", &description);
        context.insert("statuses", &facets);
        context.insert("year", &year);
        context.insert("pager", &pager);
        context.insert("year_pages", &year_pages);
        context.insert(
            "rows",
            &rows_html(chunk, &super::context::root(&path), true),
        );
        Ok(context)
    };
    Ok(cx
        .render_keyed("archive.html", &path, rows_digest(key, chunk), context)?
        .map(|text| (path.clone(), text)))
}

/// The rows of a `matters` table (the theme's `matters` macro), written
/// here rather than by a loop in the template: the archive's, dynasties'
/// and players' pages list every record three times over (about 63,000
/// rows for a twenty-year game), and a template's loop looks up and
/// escapes each field of each row one value at a time. `root` is the way
/// back to the site's root from the page; `with_author` adds the author
/// beside the title, for phones, where the author column is hidden.
pub(crate) fn rows_html(rows: &[&MatterRow], root: &str, with_author: bool) -> String {
    use super::escape::escape;
    use std::fmt::Write;
    let root = escape(root);
    let mut out = String::with_capacity(rows.len() * 700);
    for m in rows {
        let [title, author, author_url, order, url, resolved, status] = m.escaped();
        let byline = if with_author {
            format!(" · <a href=\"{root}{author_url}\">{author}</a>")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "<tr><td data-sort=\"{order}\">{number}</td><td><a href=\"{root}{url}\">{title}</a> <span class=\"meta\"><span class=\"status {status}\">{status}</span>{byline}</span></td><td><a href=\"{root}{author_url}\">{author}</a></td><td data-sort=\"{dynasty}\"><a href=\"{root}dynasties/{dynasty}.html\">{dynasty}</a></td><td>{resolved}</td><td><span class=\"status {status}\">{status}</span></td></tr>",
            number = m.number().get(),
            dynasty = m.record.dynasty,
        );
    }
    out
}

/// `key` with the digests of `rows`: a page listing thousands of matters
/// is told unchanged without serialising them again.
pub(crate) fn rows_digest(key: Digest, rows: &[&MatterRow]) -> Digest {
    rows.iter().fold(key, |key, row| key.number(row.digest))
}

/// A record as its page shows it.
#[derive(Serialize)]
struct MatterView<'r> {
    number: MatterNumber,
    title: &'r str,
    /// The kind as players and the ruleset name it: `Call for Judgement`.
    kind: &'static str,
    status: &'static str,
    author: &'r str,
    author_url: String,
    dynasty: u32,
    opened: String,
    opened_iso: String,
    resolved_at: String,
    resolved_iso: String,
    /// Who or what resolved it, when the record says.
    resolved_by: Option<&'r str>,
    reasons: &'r [String],
    comments: Option<u32>,
    source: Option<&'r str>,
    /// The matter on the forge: its own address, or, with the repository
    /// known, its number's thread there.
    link: Option<String>,
    merge_commit: Option<&'r str>,
    /// The merge commit's page on the forge, when the matter's link says
    /// where the repository is.
    merge_url: Option<String>,
    tally: Option<crate::record::FinalTally>,
    votes: Vec<VoteView<'r>>,
    uncounted: Vec<UncountedView<'r>>,
    /// How many comments not counted the record leaves out.
    uncounted_more: u32,
    /// The votes that made it Vetoed or Self-Killed for good, with who
    /// cast them.
    sticky: Vec<StickyView<'r>>,
    html: String,
    /// What the players said, as the record keeps it.
    discussion: Vec<super::CommentView>,
    /// How many comments it had, those the bounds left out of the record
    /// included.
    talked: u32,
}

#[derive(Serialize)]
struct StickyView<'r> {
    /// `Vetoed` or `Self-killed`.
    what: &'static str,
    /// Who cast it and what: `Wren cast a VETO`, `its author, Ada, voted
    /// AGAINST`.
    by: String,
    player: &'r str,
    at: String,
    link: Option<&'r str>,
}

/// A matter's kind in the words players use.
fn kind_words(kind: crate::engine::MatterKind) -> &'static str {
    match kind {
        crate::engine::MatterKind::Proposal => "Proposal",
        crate::engine::MatterKind::Cfj => "Call for Judgement",
        crate::engine::MatterKind::Dov => "Declaration of Victory",
    }
}

/// A sticky vote as its page says it: a VETO is the emperor's, an
/// AGAINST that stuck is the author's own.
fn sticky_view<'r>(r: &'r Record, v: &'r crate::record::RecordedVote) -> StickyView<'r> {
    // The name isolated: one that shows text backwards turns only itself.
    let who = super::escape::isolated(&v.player);
    let (what, by) = if v.vote == "VETO" {
        ("Vetoed", format!("{who} cast a VETO"))
    } else if v.player == r.author {
        (
            "Self-killed",
            format!("its author, {who}, voted {}", v.vote),
        )
    } else {
        ("Decided", format!("{who} voted {}", v.vote))
    };
    StickyView {
        what,
        by,
        player: &v.player,
        at: v.at.map(datetime).unwrap_or_default(),
        link: crate::markdown::web_link(v.link.as_deref()),
    }
}

#[derive(Serialize)]
struct VoteView<'r> {
    player: &'r str,
    player_url: String,
    vote: &'r str,
    /// `FOR`, `AGAINST` or `no vote`: what a DEFERENTIAL counted as.
    counts_as: Option<&'r str>,
    /// When it was cast; `None` for the author's own FOR, which no comment
    /// casts.
    at: Option<String>,
    link: Option<&'r str>,
    /// The comment that cast it in the page's discussion, when the record
    /// keeps it: `#_c12`.
    anchor: Option<String>,
}

#[derive(Serialize)]
struct UncountedView<'r> {
    by: &'r str,
    at: String,
    why: &'r str,
}

/// The page of commit `sha` in the repository a matter's forge `link`
/// (`https://HOST/OWNER/REPO/pull/N` or `…/issues/N`) names; `None` for
/// a link of another shape (the local forge has none).
fn commit_url(link: &str, sha: &str) -> Option<String> {
    let rest = link
        .strip_prefix("https://")
        .or_else(|| link.strip_prefix("http://"))?;
    let parts: Vec<&str> = rest.split('/').collect();
    let [host, owner, repo, kind, number] = parts[..] else {
        return None;
    };
    let is_number = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
    let is_hex = !sha.is_empty() && sha.bytes().all(|b| b.is_ascii_hexdigit());
    (matches!(kind, "pull" | "issues") && is_number && is_hex).then(|| {
        format!(
            "{}{host}/{owner}/{repo}/commit/{sha}",
            &link[..link.len() - rest.len()]
        )
    })
}

/// The view of a record's page. It reads the record, its author's and
/// voters' pages and the ruleset's link targets only: `matters` digests
/// those to tell whether the page changed, so a view that reads more must
/// digest more.
fn matter_view<'r>(cx: &Context, r: &'r Record, targets: &Targets, path: &str) -> MatterView<'r> {
    let root = super::context::root(path);
    // An imported record's `#12` is the old site's post, not the forge's.
    let forge = cx.input.forge.as_ref().filter(|_| r.source.is_none());
    let links = super::body::BodyLinks {
        targets,
        root: &root,
        forge,
    };
    let html = if r.body.trim().is_empty() {
        String::new()
    } else {
        super::body::to_html(&r.body, links)
    };
    let discussion = r
        .discussion
        .iter()
        .map(|c| {
            let mut view = super::pending::comment_view(c);
            view.author_url = cx.slugs.contains_key(&c.by).then(|| cx.player_url(&c.by));
            view.html = super::body::to_html(&c.body, links);
            view
        })
        .collect();
    let kept = u32::try_from(r.discussion.len()).unwrap_or(u32::MAX);
    MatterView {
        number: r.number,
        title: &r.title,
        kind: kind_words(r.kind),
        status: r.status(),
        author: &r.author,
        author_url: cx.player_url(&r.author),
        dynasty: r.dynasty,
        opened: datetime(r.opened),
        opened_iso: r.opened.to_string(),
        resolved_at: datetime(r.resolved),
        resolved_iso: r.resolved.to_string(),
        resolved_by: r.resolver(),
        reasons: &r.reasons,
        comments: r.comments,
        source: r.source.as_deref(),
        link: crate::markdown::web_link(r.link.as_deref())
            .map(str::to_string)
            .or_else(|| forge.map(|f| f.thread_url(r.number))),
        merge_commit: r.merge_commit.as_deref(),
        merge_url: r.merge_commit.as_deref().and_then(|sha| {
            crate::markdown::web_link(r.link.as_deref())
                .and_then(|link| commit_url(link, sha))
                .or_else(|| cx.input.forge.as_ref()?.commit_url(sha))
        }),
        tally: r.tally,
        votes: r
            .votes
            .iter()
            .map(|v| VoteView {
                player: &v.player,
                player_url: cx.player_url(&v.player),
                vote: &v.vote,
                counts_as: v
                    .counts_as
                    .as_deref()
                    .map(|c| if c == "none" { "no vote" } else { c }),
                at: v.at.map(datetime),
                link: crate::markdown::web_link(v.link.as_deref()),
                anchor: r
                    .discussion
                    .iter()
                    .find(|c| c.vote.is_some() && c.by == v.player && Some(c.at) == v.at)
                    .map(|c| format!("#_c{}", c.id)),
            })
            .collect(),
        uncounted: r
            .uncounted
            .iter()
            .map(|u| UncountedView {
                by: &u.by,
                at: datetime(u.at),
                why: &u.why,
            })
            .collect(),
        uncounted_more: r.uncounted_more,
        sticky: r.sticky.iter().map(|v| sticky_view(r, v)).collect(),
        html,
        discussion,
        talked: r.comments.unwrap_or(0).max(kept),
    }
}

/// One page per record, rendered in parallel.
fn matters(
    cx: &Context,
    history: &super::revisions::History,
) -> Result<Vec<Option<(String, String)>>, SiteError> {
    let targets = &cx.targets;
    // What each of this game's matters changed in the gamestate, in
    // words, from the log (an imported record's number is another
    // game's).
    let mut state: BTreeMap<MatterNumber, Vec<String>> = BTreeMap::new();
    for c in &cx.input.timeline.changes {
        if let Some(n) = c.matter {
            state
                .entry(n)
                .or_default()
                .push(super::pending::change_in_words(&c.path, &c.from, &c.to));
        }
    }
    let none = Vec::new();
    cx.game
        .records
        .par_iter()
        .map(|r| {
            let path = matter_url(r);
            let (change, change_key) = history.of_matter(&path).unzip();
            let state = match r.source {
                None => state.get(&r.number).unwrap_or(&none),
                Some(_) => &none,
            };
            // Everything the page is made from besides what all pages
            // share: what `matter_view` reads, and the rule change. A
            // player's address is made from their slug (none: the index),
            // so the slug stands for it, without an address made per vote.
            let slug = |name: &str| cx.slugs.get(name).map_or("", String::as_str);
            let key = r
                .votes
                .iter()
                .map(|v| &v.player)
                .chain(r.discussion.iter().map(|c| &c.by))
                .fold(Digest::new().value(r), |key, name| key.text(slug(name)))
                .text(slug(&r.author))
                .number(targets.fingerprint)
                .json(&change_key)
                .json(state);
            let context = || {
                let mut context = cx.page(&path, &r.title, "archive")?;
                context.insert("m", &matter_view(cx, r, targets, &path));
                context.insert("change", &change.as_ref().map(|change| change()));
                context.insert("state_changes", state);
                Ok(context)
            };
            Ok(cx
                .render_keyed("matter.html", &path, key, context)?
                .map(|text| (path.clone(), text)))
        })
        .collect()
}

/// `dynasties/` and one page per dynasty with its matters. Newest first,
/// as the archive: a player looks for what happens now, and the oldest
/// dynasties of a long game are the least read.
fn dynasties(
    cx: &Context,
    rows: &[MatterRow],
    newest: &[usize],
) -> Result<Vec<(String, String)>, SiteError> {
    let records = &cx.game.records;
    let mut by_dynasty: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for &i in newest {
        by_dynasty.entry(records[i].dynasty).or_default().push(i);
    }
    if let Some(state) = &cx.game.state {
        by_dynasty.entry(state.dynasty.number).or_default();
    }
    let views: Vec<serde_json::Value> = by_dynasty
        .iter()
        .rev()
        .map(|(number, list)| {
            let mut view = serde_json::to_value(Tally::of(list.iter().map(|&i| &records[i])))
                .unwrap_or_default();
            view["number"] = (*number).into();
            let current = cx.game.state.as_ref().map(|s| s.dynasty.number);
            view["current"] = (current == Some(*number)).into();
            view
        })
        .collect();
    let mut out = Vec::new();
    let path = "dynasties/index.html";
    let mut context = cx.page(path, "Dynasties", "dynasties")?;
    context.insert("dynasties", &views);
    out.extend(
        cx.render("dynasties.html", path, context)?
            .map(|text| (path.to_string(), text)),
    );
    let pages: Vec<Option<(String, String)>> = views
        .par_iter()
        .zip(by_dynasty.values().rev().collect::<Vec<_>>())
        .map(|(view, list)| {
            let path = format!("dynasties/{}.html", view["number"]);
            let title = format!("Dynasty {}", view["number"]);
            let list: Vec<&MatterRow> = list.iter().map(|&i| &rows[i]).collect();
            let key = rows_digest(Digest::new().json(view), &list);
            let context = || {
                let mut context = cx.page(&path, &title, "dynasties")?;
                context.insert("d", view);
                let rows = rows_html(&list, &super::context::root(&path), true);
                context.insert("rows", &rows);
                Ok(context)
            };
            Ok(cx
                .render_keyed("dynasty.html", &path, key, context)?
                .map(|text| (path.clone(), text)))
        })
        .collect::<Result<_, SiteError>>()?;
    out.extend(pages.into_iter().flatten());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{MatterRow, commit_url, rows_html};
    use crate::record::Record;

    /// The loop the theme's `matters` macro ran before the build wrote
    /// the rows: the rows must read exactly as it wrote them.
    const LOOP: &str = r#"{% for m in rows %}<tr><td data-sort="{{ m.order }}">{{ m.number }}</td><td><a href="{{ root }}{{ m.url }}">{{ m.title }}</a> <span class="meta"><span class="status {{ m.status }}">{{ m.status }}</span>{% if with_author %} · <a href="{{ root }}{{ m.author_url }}">{{ m.author }}</a>{% endif %}</span></td><td><a href="{{ root }}{{ m.author_url }}">{{ m.author }}</a></td><td data-sort="{{ m.dynasty }}"><a href="{{ root }}dynasties/{{ m.dynasty }}.html">{{ m.dynasty }}</a></td><td>{{ m.resolved }}</td><td><span class="status {{ m.status }}">{{ m.status }}</span></td></tr>
{% endfor %}"#;

    /// The sample record as matter `n`, with `title`, by `author`.
    fn record(n: u64, title: &str, author: &str) -> Record {
        Record {
            number: crate::matter::MatterNumber(n),
            title: title.into(),
            author: author.into(),
            ..crate::record::tests::sample()
        }
    }

    #[test]
    fn the_rows_written_by_the_build_read_as_the_template_loop_wrote_them() {
        let records = [
            record(12, "Oil <b>\"Tom's\"</b> & co / more", "Ada"),
            record(7, "Plain", "O'Neil & <Sons>"),
        ];
        let rows = [
            MatterRow::of(&records[0], Some("ada")),
            MatterRow::of(&records[1], None),
        ];
        let rows: Vec<&MatterRow> = rows.iter().collect();
        let mut tera = tera::Tera::default();
        tera.set_escape_fn(super::super::escape::escape);
        tera.add_raw_template("loop.html", LOOP).unwrap();
        for (root, with_author) in [("", true), ("../../", true), ("../", false)] {
            let mut context = tera::Context::new();
            context.insert("rows", &rows);
            context.insert("root", root);
            context.insert("with_author", &with_author);
            let want = tera.render("loop.html", &context).unwrap();
            assert_eq!(rows_html(&rows, root, with_author), want);
        }
        // Escaped, as a title or a name is text.
        assert!(
            rows_html(&rows, "", false)
                .contains(">Oil &lt;b&gt;&quot;Tom&#39;s&quot;&lt;/b&gt; &amp; co / more</a>")
        );
        assert_eq!(rows_html(&[], "", true), "");
    }

    #[test]
    fn a_rows_digest_follows_what_it_shows_and_nothing_else() {
        let plain = record(7, "Plain", "Ada");
        let digest = |r: &Record, slug: Option<&str>| MatterRow::of(r, slug).digest;
        let base = digest(&plain, Some("ada"));
        assert_eq!(base, digest(&plain.clone(), Some("ada")));
        let mut body = plain.clone();
        body.body = "Other text, which no table shows.".into();
        assert_eq!(digest(&body, Some("ada")), base);
        let mut shown = Vec::new();
        for change in [
            |r: &mut Record| r.title = "Plainer".into(),
            |r: &mut Record| r.author = "Bea".into(),
            |r: &mut Record| r.dynasty = 4,
            |r: &mut Record| r.number = crate::matter::MatterNumber(8),
            |r: &mut Record| r.source = Some("blognomic".into()),
            |r: &mut Record| r.outcome = crate::record::Outcome::Failed,
            |r: &mut Record| r.resolved = crate::time::Timestamp::from_unix(1_900_000_000),
        ] {
            let mut r = plain.clone();
            change(&mut r);
            shown.push(digest(&r, Some("ada")));
        }
        shown.push(digest(&plain, Some("ada-2")));
        shown.push(digest(&plain, None));
        for (i, d) in shown.iter().enumerate() {
            assert_ne!(*d, base, "change {i} left the digest as it was");
        }
    }

    #[test]
    fn a_merge_commit_links_into_the_repository_its_matter_names() {
        let sha = "4fc94d9a0b";
        assert_eq!(
            commit_url("https://github.com/clockwork/game/pull/12", sha).as_deref(),
            Some("https://github.com/clockwork/game/commit/4fc94d9a0b")
        );
        assert_eq!(
            commit_url("https://git.example.org/a/b/issues/3", sha).as_deref(),
            Some("https://git.example.org/a/b/commit/4fc94d9a0b")
        );
        for odd in [
            "https://github.com/clockwork/game/pull/12#issuecomment-1",
            "https://github.com/clockwork/game/discussions/12",
            "https://example.org/matters/12",
            "local:12",
        ] {
            assert_eq!(commit_url(odd, sha), None, "{odd}");
        }
        assert_eq!(
            commit_url("https://github.com/clockwork/game/pull/12", "not a sha"),
            None
        );
    }
}
