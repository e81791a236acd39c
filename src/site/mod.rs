//! The static site: ruleset, tracker, pending matters, archive and history
//! rendered from a checked [`Game`], its git [`Timeline`] and the pending
//! matters the caller knows of. Pure: [`render`] returns every file of the
//! site as `path → text`; writing it is `crate::publish`'s business and
//! reading the history is `crate::load::timeline`'s.
//!
//! Templates see views (plain serialisable structs built here), never the
//! model, so a theme can change without touching the core. Every link is
//! relative, so the site works from any directory, any host and `file://`.

mod archive;
mod body;
mod cache;
mod context;
mod escape;
mod feed;
pub mod ifvote;
mod limits;
pub mod links;
mod log;
mod mddiff;
pub mod pending;
mod players;
mod revisions;
mod rules;
mod search;
mod stats;
pub mod svg;
pub(crate) mod theme;
mod tracker;
mod xref;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::game::Game;
use crate::game::timeline::Timeline;

pub use crate::game::weblinks::ForgeWeb;
use crate::matter::MatterNumber;
pub use cache::RenderCache;
pub use theme::{Theme, ThemeFile, builtin_names};

/// The rendered site: relative path (`ruleset/index.html`) to file text.
pub type Site = BTreeMap<String, String>;

/// Hears of each file of the site (its path and text) the moment it is
/// rendered, from any of the threads rendering: the build writes it
/// while the rest renders, instead of after. It takes the text, or gives
/// it back (`Some`) for the render to return in [`Rendered::files`]: a
/// build that writes each file as it comes holds no copy of a site of
/// 100 MB. Every file rendered is emitted once; those kept from the
/// previous build are not.
pub type Emit<'e> = dyn Fn(&str, String) -> Option<String> + Sync + 'e;

/// Everything the site is made from.
pub struct SiteInput<'a> {
    /// The game as it is now (the work tree or the revision built).
    pub game: &'a Game,
    /// The game's history, oldest first; empty when there is none.
    pub timeline: &'a Timeline,
    /// The matters still open, as the tally engine sees them.
    pub pending: &'a Pending,
    /// Template and static overrides, lowest priority first (the theme's,
    /// then the game's own); each replaces a built-in file of the same name.
    pub overrides: &'a [ThemeFile],
    /// The revision built, if one was named, shown on the home page only:
    /// a value on every page would change every page's digest, and a build
    /// of each new commit would render the whole site again.
    pub commit: Option<String>,
    /// The absolute address the site is served from, used by the feed;
    /// without it the feed's links are relative to the feed.
    pub base_url: Option<String>,
    /// The game's repository on its forge, when its address is known:
    /// every rule then links to its file in the forge's editor, and the
    /// site to a new proposal.
    pub forge: Option<ForgeWeb>,
}

/// What the build knows of the matters still open: the live tallies,
/// when they were taken, and from which forge.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Pending {
    /// The moment the tallies are as of (`12:00 UTC on 2 Mar 2030`);
    /// `None` when no forge was asked.
    pub as_of: Option<String>,
    /// The same moment, machine-readable, for `<time datetime>`.
    pub as_of_iso: Option<String>,
    /// The open matters, oldest first.
    pub matters: Vec<PendingView>,
    /// The open actions (changes to the gamestate by comment or pull
    /// request, merged without a vote), oldest first.
    pub actions: Vec<ActionView>,
    /// The quorum then, when a forge was asked.
    pub quorum: Option<u32>,
    /// How many players were active then, when a forge was asked.
    pub active: Option<u32>,
    /// The next moment something resolves if no vote changes: `#5 at
    /// 00:40 UTC on 6 Mar 2030`.
    pub next: Option<String>,
    /// What may not stand as the matter it claims to be, which the
    /// resolver closes when it next runs (as `check` and `play list` say).
    pub closing: Vec<ClosingView>,
}

/// A pull request or issue that cannot stand as the matter it claims.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClosingView {
    /// Its number.
    pub number: MatterNumber,
    /// The kind it claims.
    pub kind: String,
    /// Its title.
    pub title: String,
    /// Why it cannot stand.
    pub why: String,
}

/// A matter still open, with its live tally, as a view: what a player
/// checks several times a day. The wording comes from
/// [`crate::matter::status::standing`], as in the status comment and `play list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PendingView {
    /// The pull request or issue number.
    pub number: MatterNumber,
    /// Proposal, CfJ or DoV.
    pub kind: String,
    /// Its title.
    pub title: String,
    /// The author's player name.
    pub author: String,
    /// The author's page from the site's root, filled in when rendered.
    pub author_url: Option<String>,
    /// The pull request on the forge, if it has an address: where a
    /// player votes.
    pub link: Option<String>,
    /// When it was opened, for people.
    pub opened: String,
    /// The same moment, machine-readable, for `<time datetime>`.
    pub opened_iso: String,
    /// Its body as Markdown, as the author wrote it.
    #[serde(skip)]
    pub body: String,
    /// The body rendered, unsafe links dropped; filled in when rendered.
    pub html: String,
    /// What its branch changes, rules and gamestate.
    pub change: pending::ProposedChange,
    /// The active players who have not voted yet, in roster order.
    pub not_voted: Vec<String>,
    /// What each of them would make of it by voting now, FOR or AGAINST.
    pub if_votes: Vec<ifvote::IfVote>,
    /// One row per active player (then anyone else counted).
    pub votes: Vec<PendingVote>,
    /// `3 votes`.
    pub votes_label: String,
    /// FOR votes counted.
    #[serde(rename = "for")]
    pub for_: u32,
    /// AGAINST votes counted.
    pub against: u32,
    /// The quorum now.
    pub quorum: u32,
    /// FOR as a share of the quorum, 0 to 100, for the bar.
    pub for_percent: u32,
    /// `pending`, `would be enacted now` or `would fail now`.
    pub decision: String,
    /// A CSS class for the decision: enacts, fails or open.
    pub decision_class: String,
    /// What happens next, as a sentence.
    pub next: String,
    /// The moment in that sentence, machine-readable, if it names one:
    /// the reader's browser counts down to it.
    pub next_iso: Option<String>,
    /// Why, in the rules' own terms.
    pub reasons: Vec<String>,
    /// Its discussion: every comment and review body but the resolver's
    /// status, oldest first, as its record will keep it (within the
    /// bounds of [`crate::matter::discussion`]).
    pub discussion: Vec<CommentView>,
    /// How many comments it has in all, those the bounds leave out
    /// included.
    pub comments: u32,
}

/// One comment or review body of a matter's discussion, as a pending
/// card and a resolved matter's page show it: sanitised, its vote marked
/// as the tally counted it, an edit or deletion said as the status says
/// it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommentView {
    /// The forge's id for it.
    pub id: u64,
    /// Its author's player name (or login).
    pub author: String,
    /// Their page from the site's root, filled in when rendered.
    pub author_url: Option<String>,
    /// When it was made, for people.
    pub at: String,
    /// The same moment, machine-readable.
    pub at_iso: String,
    /// `a comment`, `a review (approved)`.
    pub via: String,
    /// Its Markdown, as written (the first seen, if deleted since).
    #[serde(skip)]
    pub body: String,
    /// The body rendered and sanitised; filled in when rendered.
    pub html: String,
    /// `counted: FOR` when its vote is the one the tally counts.
    pub vote: Option<String>,
    /// What became of it: `edited since; it counts as first seen`,
    /// `deleted since; …`, `voided by a push`.
    pub note: Option<String>,
    /// How many characters of it the bound left out, if any: the rest is
    /// on the forge.
    pub cut: Option<u32>,
    /// It on the forge, if the forge gives an address.
    pub link: Option<String>,
}

/// An open action as the pending page lists it: what was asked of it
/// and what the resolver answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActionView {
    /// The issue or pull request number.
    pub number: MatterNumber,
    /// Its title.
    pub title: String,
    /// The author's player name.
    pub author: String,
    /// Its page on the forge, if it has an address.
    pub link: Option<String>,
    /// When it was opened, for people.
    pub opened: String,
    /// The resolver's answer to each command it has handled, oldest
    /// first: `comment 3 by @ada: SET springs 4: springs of Ada 3 → 4`.
    pub answers: Vec<String>,
}

/// One player's line in a pending matter's tally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PendingVote {
    /// The player.
    pub player: String,
    /// Their page from the site's root, filled in when rendered.
    pub url: Option<String>,
    /// `FOR`, `—`, `DEFERENTIAL (counts as FOR)`.
    pub vote: String,
    /// A CSS class: for, against, other or none.
    pub class: String,
    /// When it was cast, for people, if by a comment.
    pub at: Option<String>,
    /// What it was cast by (`a review (approved)`), if by a comment.
    pub via: Option<String>,
    /// A link to that comment or review, if the forge gives one.
    pub link: Option<String>,
}

/// The site could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    /// A template (built in or overridden) does not parse.
    #[error("template {name}: {message}")]
    Template {
        /// The template's name.
        name: String,
        /// What Tera said, with its causes.
        message: String,
    },
    /// A template failed while rendering a page.
    #[error("rendering {page} with {template}: {message}")]
    Render {
        /// The page being made.
        page: String,
        /// The template used.
        template: String,
        /// What Tera said, with its causes.
        message: String,
    },
}

/// What a build rendered, and the digests of every file of the site.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// The files rendered: all of them, or with a previous build's cache,
    /// those whose inputs changed (the others stand as that build wrote
    /// them); less those the [`Emit`] took.
    pub files: Site,
    /// How many files were rendered, those the [`Emit`] took included.
    pub rendered: usize,
    /// Every file of the site with its digest, for the next build. Its
    /// `identity` is the previous cache's.
    pub cache: RenderCache,
}

impl Rendered {
    /// The files of the previous build that this one no longer makes.
    pub fn removed<'c>(&self, previous: &'c RenderCache) -> Vec<&'c str> {
        previous
            .files
            .keys()
            .filter(|p| !self.cache.files.contains_key(*p))
            .map(String::as_str)
            .collect()
    }
}

/// The game's repository on its forge: in GitHub Actions, where the
/// workflow runs (`actions`: `GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`);
/// elsewhere the game's `[game] repo` setting. `None` when neither says (a
/// game played on the local forge alone).
pub fn forge_web(
    game: &Game,
    branch: &str,
    actions: Option<&(String, String)>,
) -> Option<ForgeWeb> {
    if let Some((server, repo)) = actions {
        if let Some(web) = ForgeWeb::new(server, repo, branch) {
            return Some(web);
        }
        tracing::warn!("GITHUB_SERVER_URL or GITHUB_REPOSITORY is not an address: {server}/{repo}");
    }
    let setting = game.state.as_ref()?.repo.as_deref()?;
    let web = ForgeWeb::from_setting(setting, branch);
    if web.is_none() {
        tracing::warn!(
            "[game] repo in state/game.toml is not OWNER/NAME nor an address: {setting}"
        );
    }
    web
}

/// Renders the whole site. `progress` hears about each stage as it starts
/// (a long build should not look stuck).
pub fn render(input: &SiteInput, progress: &(dyn Fn(&str) + Sync)) -> Result<Site, SiteError> {
    Ok(render_since(input, &RenderCache::default(), progress)?.files)
}

/// Renders the pages whose inputs changed since the build that left
/// `previous` (every page, with an empty cache). The caller vouches that
/// the files `previous` lists are still as that build wrote them.
pub fn render_since(
    input: &SiteInput,
    previous: &RenderCache,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Rendered, SiteError> {
    render_with(input, &Theme::load(input.overrides)?, previous, progress)
}

/// [`render_since`] with `theme`, which the caller loaded from
/// `input.overrides` (while it read the game, say: parsing the templates
/// takes a while).
pub fn render_with(
    input: &SiteInput,
    theme: &Theme,
    previous: &RenderCache,
    progress: &(dyn Fn(&str) + Sync),
) -> Result<Rendered, SiteError> {
    render_emitting(input, theme, previous, progress, &|_, text| Some(text))
}

/// [`render_with`], handing each file to `emit` as soon as it is made.
pub fn render_emitting(
    input: &SiteInput,
    theme: &Theme,
    previous: &RenderCache,
    progress: &(dyn Fn(&str) + Sync),
    emit: &Emit<'_>,
) -> Result<Rendered, SiteError> {
    let cx = context::Context::new(input, theme, previous, emit);
    // Every revision's diff, made by the rules' half while the archive's
    // lists its rows; the archive waits for it only at the matters' pages.
    // Only the two halves' own code asks for it, never a job of a
    // parallel loop: the thread making it, which runs or steals only
    // such jobs while it waits on its own, never picks up an asker and
    // waits on itself. (The archive's half is the oldest job on the
    // queue, so a thief takes it before any job the diffs make.)
    let history = std::sync::OnceLock::new();
    let history = || history.get_or_init(|| revisions::History::new(&cx));
    progress(&format!(
        "rendering the ruleset, the tracker, the history ({} ruleset revisions) and statistics",
        input.timeline.revisions.len()
    ));
    // Two halves that share nothing but the context, side by side: the
    // pages of the rules and the game's standing, made a few at a time,
    // keep a core busy while the other renders the archive. Only the
    // archive's half reports its stages: lines from both would fall in
    // any order.
    let (rules, archive) = rayon::join(
        || -> Result<Site, SiteError> {
            let mut site = Site::new();
            let history = history();
            rules::render(&cx, &mut site)?;
            tracker::render(&cx, &mut site)?;
            log::render(&cx, &mut site)?;
            revisions::render(&cx, history, &mut site)?;
            stats::render(&cx, &mut site)?;
            Ok(site)
        },
        || -> Result<Site, SiteError> {
            let mut site = Site::new();
            progress(&format!(
                "rendering the archive: {} resolved matters",
                input.game.records.len()
            ));
            let rows = archive::rows(&cx);
            let newest = archive::newest_first(&input.game.records);
            archive::render(&cx, &history, (&rows, &newest), &mut site, progress)?;
            progress("rendering the players' pages");
            site.extend(players::render(&cx, &rows, &newest)?);
            progress("rendering the feed and the search index");
            feed::render(&cx, &newest, &mut site)?;
            search::render(&cx, &rows, &newest, &mut site);
            Ok(site)
        },
    );
    let mut site = rules?;
    site.extend(archive?);
    let status = context::status_script(input.pending);
    if let Some(text) = cx.file("status.js", status) {
        site.insert("status.js".into(), text);
    }
    // A theme's file where the site makes a page (`status.js`, a matter's
    // page) would show players what the game did not say: the page stands.
    for (path, text) in theme.statics() {
        if cx.made(path) {
            tracing::warn!("the theme's static/{path} is left out: the site makes a page there");
            continue;
        }
        if let Some(text) = cx.file(path, text.clone()) {
            site.insert(path.clone(), text);
        }
    }
    let (cache, rendered) = (cx.cache(), cx.rendered());
    Ok(Rendered {
        files: site,
        rendered,
        cache,
    })
}
