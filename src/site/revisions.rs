//! The ruleset's history: every revision ("Ruleset N", one per change to
//! `rules/`) with a rule-level diff against the one before, and a page per
//! rule (its permalink, by stable id) with the matters that changed it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use rayon::prelude::*;
use serde::Serialize;

use super::cache::Digest;
use super::context::{Context, date, matter_url};
use super::mddiff;
use super::rules::{Links, rule_view, section_views};
use super::xref::Targets;
use super::{Site, SiteError};
use crate::game::timeline::Revision;
use crate::matter::MatterNumber;
use crate::record::Record;
use crate::ruleset::diff::{RuleDiff, rule_diffs};
use crate::ruleset::textdiff::Line;

/// A revision as a row of the index and the head of its page.
#[derive(Serialize)]
struct RevisionView {
    number: usize,
    date: String,
    summary: String,
    matter_url: Option<String>,
    commit: String,
    changes: String,
}

/// One rule's change as the revision and matter pages show it.
#[derive(Serialize)]
pub(crate) struct DiffEntry<'a> {
    id: &'a str,
    label: String,
    what: String,
    /// The amendment rendered, changed words marked (empty if none).
    html: &'a str,
    /// The same as Markdown source lines.
    lines: &'a [Line],
}

/// What an enacted matter changed in the rules, for its page.
#[derive(Serialize)]
pub(crate) struct MatterChange<'a> {
    /// The ruleset revision it made.
    revision: usize,
    /// Its rule changes.
    diff: Vec<DiffEntry<'a>>,
}

fn entries<'a>(changes: &'a [RuleDiff], rendered: &'a [String]) -> Vec<DiffEntry<'a>> {
    changes
        .iter()
        .zip(rendered)
        .map(|(c, html)| DiffEntry {
            id: &c.id,
            label: format!("{} {}", c.number, c.title),
            what: c.describe(),
            html,
            lines: &c.lines,
        })
        .collect()
}

/// Where the rendered diffs are shown: pages one directory below the
/// root (`rulesets/N.html`, a game's own `matters/K.html`), so a diff is
/// rendered once for both.
const DIFF_ROOT: &str = "../";

/// Each change's amendment rendered ([`mddiff::diff_html`]), in order.
fn rendered(changes: &[RuleDiff], xrefs: mddiff::Xrefs) -> Vec<String> {
    changes
        .iter()
        .map(|c| match &c.markdown {
            Some((old, new)) => mddiff::diff_html(old, new, Some(xrefs)),
            None => String::new(),
        })
        .collect()
}

/// `rulesets/N.html` from a page one directory deep.
fn revision_href(number: usize) -> String {
    format!("{DIFF_ROOT}rulesets/{number}.html")
}

/// What a revision's diff is made from (see [`History::key`]).
pub(crate) type DiffKey = (usize, u64, Option<u64>);

/// The revisions with their rule diffs, made once and shared by the
/// history pages and the pages of the matters that made them.
pub(crate) struct History<'t> {
    revisions: &'t [Revision],
    views: Vec<RevisionView>,
    diffs: Vec<Vec<RuleDiff>>,
    /// Each diff's amendments rendered, made for the revision's page and
    /// its matter's when one of them is rendered: a long history's
    /// revisions are mostly unchanged since the last build.
    rendered: Vec<OnceLock<Vec<String>>>,
    /// Revision index by the address of the matter that made it.
    by_matter: BTreeMap<String, usize>,
    /// Each revision's cross-reference targets, made when its diff or
    /// its page is.
    targets: Vec<OnceLock<Targets>>,
}

impl<'t> History<'t> {
    /// Diffs every revision against the one before.
    pub(crate) fn new(cx: &Context<'t>) -> Self {
        let revisions = &cx.input.timeline.revisions;
        let empty = crate::ruleset::Ruleset::default();
        let diffs: Vec<Vec<RuleDiff>> = revisions
            .par_iter()
            .enumerate()
            .map(|(i, rev)| {
                let before = i.checked_sub(1).map_or(&empty, |k| &*revisions[k].ruleset);
                rule_diffs(before, &rev.ruleset)
            })
            .collect();
        let matters = Matters::new(&cx.game.records);
        let views: Vec<RevisionView> = revisions
            .iter()
            .zip(&diffs)
            .map(|(rev, changes)| RevisionView {
                number: rev.number,
                date: date(rev.time),
                summary: rev.summary.clone(),
                matter_url: matters.of(rev).map(matter_url),
                commit: rev.commit.chars().take(10).collect(),
                changes: match changes.len() {
                    1 => "1 rule".into(),
                    n => format!("{n} rules"),
                },
            })
            .collect();
        let mut by_matter = BTreeMap::new();
        for (i, view) in views.iter().enumerate() {
            if let Some(url) = &view.matter_url {
                by_matter.entry(url.clone()).or_insert(i);
            }
        }
        History {
            revisions,
            rendered: revisions.iter().map(|_| OnceLock::new()).collect(),
            targets: revisions.iter().map(|_| OnceLock::new()).collect(),
            views,
            diffs,
            by_matter,
        }
    }

    /// Revision `i`'s cross-reference targets, taking the glossary's
    /// pattern from the revision before's, if made, when its terms are the
    /// same: compiling it is most of the work, and a glossary seldom
    /// changes.
    fn targets(&self, i: usize) -> &Targets {
        self.targets[i].get_or_init(|| {
            let before = i.checked_sub(1).and_then(|k| self.targets[k].get());
            Targets::new_like(&self.revisions[i].ruleset, before)
        })
    }

    /// Revision `i`'s amendments rendered ([`mddiff::diff_html`]), in
    /// order, references to rules linked into the text of the revisions
    /// they are between.
    fn rendered(&self, i: usize) -> &[String] {
        self.rendered[i].get_or_init(|| {
            let empty = Targets::new(&crate::ruleset::Ruleset::default());
            let (before, before_href) = match i.checked_sub(1) {
                Some(k) => (self.targets(k), revision_href(self.revisions[k].number)),
                None => (&empty, String::new()),
            };
            let after_href = revision_href(self.revisions[i].number);
            let xrefs = mddiff::Xrefs {
                before: mddiff::Links {
                    targets: before,
                    prefix: &before_href,
                },
                after: mddiff::Links {
                    targets: self.targets(i),
                    prefix: &after_href,
                },
            };
            rendered(&self.diffs[i], xrefs)
        })
    }

    /// What revision `i`'s diff is made from: its number and its
    /// ruleset's digest and the one's before (the targets of its links
    /// are made from the two rulesets too).
    fn key(&self, i: usize) -> DiffKey {
        let before = i.checked_sub(1).map(|k| self.revisions[k].digest);
        (self.revisions[i].number, self.revisions[i].digest, before)
    }

    /// What the matter at `url` changed in the rules, if it made a
    /// revision, with [`History::key`] of that revision, which stands for
    /// it in the page's digest.
    pub(crate) fn of_matter<'h>(
        &'h self,
        url: &str,
    ) -> Option<(impl Fn() -> MatterChange<'h> + 'h, DiffKey)> {
        let i = *self.by_matter.get(url)?;
        debug_assert_eq!(
            super::context::root(url),
            DIFF_ROOT,
            "the diffs' links are written for a page one directory deep"
        );
        let change = move || MatterChange {
            revision: self.views[i].number,
            diff: entries(&self.diffs[i], self.rendered(i)),
        };
        Some((change, self.key(i)))
    }
}

/// One change in a rule's history.
#[derive(Serialize, Clone)]
struct HistoryEntry {
    revision: usize,
    date: String,
    what: String,
    summary: String,
    matter_url: Option<String>,
}

/// The game's own records by merge commit and by number, to find the
/// matter behind a revision.
struct Matters<'r> {
    by_commit: BTreeMap<&'r str, &'r Record>,
    by_number: BTreeMap<MatterNumber, &'r Record>,
}

impl<'r> Matters<'r> {
    fn new(records: &'r [Record]) -> Self {
        let own = || records.iter().filter(|r| r.source.is_none());
        Matters {
            by_commit: own()
                .filter_map(|r| Some((r.merge_commit.as_deref()?, r)))
                .collect(),
            by_number: own().map(|r| (r.number, r)).collect(),
        }
    }

    /// The matter merged as the revision's commit (a full or abbreviated
    /// id), else the one named `#N` in the commit's first line.
    fn of(&self, revision: &Revision) -> Option<&'r Record> {
        let commit = revision.commit.as_str();
        let prefix = commit.get(..7).unwrap_or(commit);
        let merged = self
            .by_commit
            .range(prefix..)
            .take_while(|(m, _)| m.starts_with(prefix))
            .find(|(m, _)| m.len() >= 7 && (commit.starts_with(*m) || m.starts_with(commit)))
            .map(|(_, r)| *r);
        merged.or_else(|| self.by_number.get(&pr_number(&revision.summary)?).copied())
    }
}

/// `#12` in `Wind faster (#12)` or `Merge pull request #12 from …`.
fn pr_number(summary: &str) -> Option<MatterNumber> {
    let at = summary.find('#')?;
    let digits: String = summary[at + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Renders `rulesets/`, `rulesets/<n>/` and `rules/<id>/`.
pub(crate) fn render(cx: &Context, history: &History, site: &mut Site) -> Result<(), SiteError> {
    let revisions = &cx.input.timeline.revisions;
    let (views, diffs) = (&history.views, &history.diffs);
    let path = "rulesets/index.html";
    let mut context = cx.page(path, "Ruleset history", "rulesets")?;
    let newest: Vec<&RevisionView> = views.iter().rev().collect();
    context.insert("revisions", &newest);
    if let Some(text) = cx.render("rulesets.html", path, context)? {
        site.insert(path.into(), text);
    }
    let pages: Vec<Option<(String, String)>> = (0..revisions.len())
        .into_par_iter()
        .map(|i| revision_page(cx, history, i))
        .collect::<Result<_, _>>()?;
    site.extend(pages.into_iter().flatten());
    rule_pages(cx, views, diffs, site)
}

/// `rulesets/N.html` for revision `i`: made only when what it shows
/// changed (its row, its neighbours, its diff's and its ruleset's
/// [`History::key`]).
fn revision_page(
    cx: &Context,
    history: &History,
    i: usize,
) -> Result<Option<(String, String)>, SiteError> {
    let (rev, view) = (&history.revisions[i], &history.views[i]);
    let path = format!("rulesets/{}.html", rev.number);
    let last = history.revisions.len();
    let prev = rev.number.checked_sub(1).filter(|n| *n > 0);
    let next = (rev.number < last).then_some(rev.number + 1);
    let key = Digest::new()
        .json(view)
        .json(&(prev, next))
        .json(&history.key(i));
    let context = || {
        let title = format!("Ruleset {}", rev.number);
        let mut context = cx.page(&path, &title, "rulesets")?;
        let links = Links {
            prefix: "",
            root: "../",
            cache: &cx.html,
        };
        context.insert("rev", view);
        context.insert("prev", &prev);
        context.insert("next", &next);
        context.insert("diff", &entries(&history.diffs[i], history.rendered(i)));
        let targets = history.targets(i);
        context.insert("sections", &section_views(&rev.ruleset, targets, links));
        Ok(context)
    };
    Ok(cx
        .render_keyed("revision.html", &path, key, context)?
        .map(|text| (path.clone(), text)))
}

/// What the revisions say about each rule id.
#[derive(Default)]
struct Histories<'a> {
    /// Its changes, oldest first.
    history: BTreeMap<&'a str, Vec<HistoryEntry>>,
    /// Its last title.
    titles: BTreeMap<&'a str, &'a str>,
    /// The last revision it is in.
    last_seen: BTreeMap<&'a str, usize>,
}

fn histories<'a>(
    cx: &'a Context,
    views: &[RevisionView],
    diffs: &'a [Vec<RuleDiff>],
) -> Histories<'a> {
    let mut out = Histories::default();
    for ((view, changes), rev) in views.iter().zip(diffs).zip(&cx.input.timeline.revisions) {
        for rule in &rev.ruleset.rules {
            out.last_seen.insert(rule.id.as_str(), rev.number);
            out.titles.insert(rule.id.as_str(), rule.title.as_str());
        }
        for change in changes {
            out.history
                .entry(change.id.as_str())
                .or_default()
                .push(HistoryEntry {
                    revision: view.number,
                    date: view.date.clone(),
                    what: change.describe(),
                    summary: view.summary.clone(),
                    matter_url: view.matter_url.clone(),
                });
        }
    }
    out
}

/// A page per rule ever seen: the current text, or where its last text is.
fn rule_pages(
    cx: &Context,
    views: &[RevisionView],
    diffs: &[Vec<RuleDiff>],
    site: &mut Site,
) -> Result<(), SiteError> {
    let Histories {
        history,
        titles,
        last_seen,
    } = histories(cx, views, diffs);
    let current = &cx.game.ruleset;
    let ids: BTreeSet<&str> = current
        .rules
        .iter()
        .map(|r| r.id.as_str())
        .chain(last_seen.keys().copied())
        .collect();
    let targets = &cx.targets;
    let pages: Vec<Option<(String, String)>> = ids
        .par_iter()
        .map(|id| {
            let path = format!("rules/{id}.html");
            let links = Links {
                prefix: "../ruleset/index.html",
                root: "../",
                cache: &cx.html,
            };
            let rule = current
                .get(id)
                .map(|r| rule_view(r, targets, links).with_pending(cx, "../"));
            let title = rule.as_ref().map_or_else(
                || titles.get(id).copied().unwrap_or(id).to_string(),
                |r| format!("{} {}", r.number, r.title),
            );
            let mut context = cx.page(&path, &title, "ruleset")?;
            context.insert("rule", &rule);
            context.insert("id", id);
            let brief = |r: &crate::ruleset::Rule| {
                BTreeMap::from([
                    ("id", r.id.to_string()),
                    ("number", r.number.to_string()),
                    ("title", r.title.clone()),
                ])
            };
            let subrules: Vec<_> = current
                .rules
                .iter()
                .filter(|r| r.parent.as_ref().is_some_and(|p| p.as_str() == *id))
                .map(brief)
                .collect();
            let parent = current
                .get(id)
                .and_then(|r| r.parent.as_ref())
                .and_then(|p| current.get(p.as_str()))
                .map(brief);
            context.insert("subrules", &subrules);
            context.insert("parent", &parent);
            context.insert("last_seen", &last_seen.get(id));
            let mut changes = history.get(id).cloned().unwrap_or_default();
            changes.reverse();
            context.insert("changes", &changes);
            Ok(cx
                .render("rule.html", &path, context)?
                .map(|text| (path.clone(), text)))
        })
        .collect::<Result<_, SiteError>>()?;
    site.extend(pages.into_iter().flatten());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_pull_request_named_in_a_commit() {
        assert_eq!(pr_number("Wind faster (#12)"), Some(MatterNumber(12)));
        assert_eq!(
            pr_number("Merge pull request #7 from ada/x"),
            Some(MatterNumber(7))
        );
        assert_eq!(pr_number("No number here"), None);
    }
}
