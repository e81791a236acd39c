//! Pending matters as the site shows them: the plan's tally view of each,
//! turned into a view for the templates, worded by
//! [`crate::matter::status::standing`] so the page, the status comment and `play
//! list` say the same. Pure.

use serde::Serialize;

use super::{Pending, PendingView, PendingVote};
use crate::engine::ballot::Vote;
use crate::engine::{MatterDecision, Run};
use crate::matter::MatterNumber;
use crate::matter::collected::Collected;
use crate::matter::status::{self, BallotRow};
use crate::record::changelog::{self, Version};
use crate::ruleset::diff::rule_diffs;
use crate::ruleset::textdiff::Line;
use crate::source::SourceFile;
use crate::time::Timestamp;

/// What the pending page shows of a run: every matter the forge knows,
/// oldest first. `matter` finds the forge's side of a matter (title,
/// author) by number, `author` names a forge login as a player, and
/// `active` lists the players active now in roster order; `change` tells
/// what a matter's branch changes (see [`proposed_change`]).
pub fn views(
    run: &Run,
    matter: &dyn Fn(MatterNumber) -> Option<Collected>,
    author: &dyn Fn(&str) -> String,
    active: &[String],
    change: &dyn Fn(&Collected) -> ProposedChange,
) -> Pending {
    let mut views: Vec<(Timestamp, PendingView)> = run
        .decisions
        .iter()
        .filter_map(|d| {
            let m = matter(d.number)?;
            let mut view = view(run, d, &m, author, active);
            view.change = change(&m);
            Some((d.opened, view))
        })
        .collect();
    views.sort_by_key(|(opened, v)| (*opened, v.number));
    let next = run
        .decisions
        .iter()
        .filter(|d| matter(d.number).is_some())
        .filter_map(|d| Some((d.next_change.as_ref()?.at?, d.number)))
        .min()
        .map(|(at, id)| format!("#{id} at {}", status::when(at)));
    let count = |n: i64| u32::try_from(n).unwrap_or(0);
    Pending {
        as_of: Some(status::when(run.now)),
        as_of_iso: Some(run.now.to_string()),
        matters: views.into_iter().map(|(_, v)| v).collect(),
        actions: Vec::new(),
        quorum: Some(count(run.turnout.quorum)),
        active: Some(count(run.turnout.active)),
        next,
        closing: Vec::new(),
    }
}

fn view(
    run: &Run,
    d: &MatterDecision,
    m: &Collected,
    author: &dyn Fn(&str) -> String,
    active: &[String],
) -> PendingView {
    let count = |n: i64| u32::try_from(n).unwrap_or(0);
    let standing = status::standing(d);
    let for_ = count(d.tally.for_votes);
    let quorum = count(run.turnout.quorum);
    let ballot = status::ballot(d, active, Some(m));
    let (discussion, comments) = discussion(d, m, author);
    let not_voted = ballot
        .iter()
        .filter(|r| r.cast.is_none() && r.counts_as.is_none() && active.contains(&r.player))
        .map(|r| r.player.clone())
        .collect();
    PendingView {
        number: d.number,
        kind: status::kind_name(d.kind).to_string(),
        title: m.info.title.clone(),
        author: author(&m.info.author.0),
        author_url: None,
        link: crate::markdown::web_link(m.info.link.as_deref()).map(str::to_string),
        opened: status::when(m.info.opened),
        opened_iso: m.info.opened.to_string(),
        body: m.info.body.clone(),
        html: String::new(),
        change: ProposedChange::default(),
        not_voted,
        if_votes: Vec::new(),
        votes: ballot.iter().map(row).collect(),
        votes_label: status::plural(d.tally.votes_cast, "vote", "votes"),
        for_,
        against: count(d.tally.against_votes),
        quorum,
        for_percent: bar(for_, quorum),
        decision: standing.headline.to_string(),
        decision_class: standing.class.to_string(),
        next: status::capitalised(&standing.next),
        next_iso: d
            .next_change
            .as_ref()
            .and_then(|n| n.at)
            .map(|at| at.to_string()),
        reasons: d.reasons.clone(),
        discussion,
        comments,
    }
}

/// The discussion of `m` as its card shows it: what its record will keep
/// ([`crate::matter::discussion`]), each vote the tally counts marked.
fn discussion(
    d: &MatterDecision,
    m: &Collected,
    author: &dyn Fn(&str) -> String,
) -> (Vec<super::CommentView>, u32) {
    let kept = crate::matter::discussion::of(m, Some(&d.tally), author);
    (kept.comments.iter().map(comment_view).collect(), kept.total)
}

/// A comment of a discussion, kept or to be kept by a record, as a card
/// and a matter's page show it; its HTML is filled in when rendered.
pub(crate) fn comment_view(c: &crate::record::RecordedComment) -> super::CommentView {
    super::CommentView {
        id: c.id,
        author: c.by.clone(),
        author_url: None,
        at: status::when(c.at),
        at_iso: c.at.to_string(),
        via: c.via.clone(),
        body: c.body.clone(),
        html: String::new(),
        vote: c.vote.as_ref().map(|v| format!("counted: {v}")),
        note: c.note.clone(),
        cut: c.cut,
        link: crate::markdown::web_link(c.link.as_deref()).map(str::to_string),
    }
}

/// What a build that asked no forge knows of the pending matters: none,
/// but the quorum and the active players the roster gives at `now`, as a
/// run would count them (the strip shows them).
pub fn without_forge(game: &crate::game::Game, now: Timestamp) -> Pending {
    let (Some(state), Some(params)) = (&game.state, &game.params) else {
        return Pending::default();
    };
    let active = state.players.iter().filter(|p| p.is_active_at(now)).count();
    let active = i64::try_from(active).unwrap_or(i64::MAX);
    let quorum = crate::engine::params::quorum_for(params, active).ok();
    let count = |n: i64| u32::try_from(n).ok();
    Pending {
        quorum: quorum.and_then(count),
        active: quorum.and(count(active)),
        ..Pending::default()
    }
}

/// The open actions among `matters`, oldest first, with the resolver's
/// answers so far (from their status comments' journals).
pub fn actions<'m>(
    matters: impl IntoIterator<Item = &'m Collected>,
    author: &dyn Fn(&str) -> String,
) -> Vec<super::ActionView> {
    let mut open: Vec<&Collected> = matters
        .into_iter()
        .filter(|m| m.kind == crate::matter::Kind::Action && m.journal.resolution.is_none())
        .collect();
    open.sort_by_key(|m| (m.info.opened, m.info.number));
    open.into_iter()
        .map(|m| super::ActionView {
            number: m.info.number,
            title: m.info.title.clone(),
            author: author(&m.info.author.0),
            link: crate::markdown::web_link(m.info.link.as_deref()).map(str::to_string),
            opened: status::when(m.info.opened),
            answers: m
                .journal
                .acted
                .values()
                .flatten()
                .map(|a| answer_in_words(a, author))
                .collect(),
        })
        .collect()
}

/// The resolver's answer to an action's command in players' words, as
/// the site shows it: a login (`@boris-b`) as the player's name, the
/// command without Markdown's backticks, a gamestate path as words
/// (`players.Boris.springs: 3 → 6` as `Boris's springs 3 → 6`).
pub fn answer_in_words(answer: &str, author: &dyn Fn(&str) -> String) -> String {
    static LOGIN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(^|[\s(])@([A-Za-z0-9][A-Za-z0-9-]*)").expect("a valid pattern")
    });
    static PATH: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b((?:players|globals|collections)\.[A-Za-z0-9_.\-]+): ")
            .expect("a valid pattern")
    });
    let text = answer.replace('`', "");
    let text = LOGIN.replace_all(&text, |c: &regex::Captures<'_>| {
        format!("{}{}", &c[1], author(&c[2]))
    });
    PATH.replace_all(&text, |c: &regex::Captures<'_>| {
        format!("{} ", path_in_words(&c[1]))
    })
    .into_owned()
}

/// What a pending matter's branch changes, as its card and a matter's
/// page show it: the rules, diffed rule by rule with the changed words
/// marked, and the gamestate in words.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ProposedChange {
    /// One entry per rule added, repealed or amended.
    pub rules: Vec<RuleChangeView>,
    /// `Cleo's springs 1 → 3`, one per value changed.
    pub state: Vec<String>,
}

impl ProposedChange {
    /// Whether it changes nothing the site shows.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.state.is_empty()
    }
}

/// One rule's change in a [`ProposedChange`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleChangeView {
    /// The rule's stable id.
    pub id: String,
    /// `1.2 Voting`.
    pub label: String,
    /// What the matter does to it, in words: `a new rule, all its text
    /// added`, `repealed, all its text removed`, `amended; renamed from
    /// “Oil”`.
    pub what: String,
    /// The weightiest of it as a verb, for the rule's page (`#5 would
    /// amend this rule`): `add`, `repeal`, `amend`, `rename`, `move`,
    /// `renumber`.
    pub verb: String,
    /// The change rendered, changed words marked: an added rule's whole
    /// text marked added, a repealed rule's marked removed (empty when
    /// only its title or number changes).
    pub html: String,
    /// The same as Markdown source lines.
    pub lines: Vec<Line>,
    /// The rule's page from the site's root, when the rule is in the
    /// ruleset built (not for a rule the matter adds); filled in when
    /// rendered.
    pub url: Option<String>,
}

/// What the game in `after` changes from the game in `before` (each the
/// files of `rules/` and `state/`): the matter's branch at its head
/// against the commit it forked from, as a pull request's diff shows it.
pub fn proposed_change(before: &[SourceFile], after: &[SourceFile]) -> ProposedChange {
    let (old, new) = rayon::join(
        || crate::game::Game::check(before),
        || crate::game::Game::check(after),
    );
    let rules = rule_diffs(&old.ruleset, &new.ruleset)
        .into_iter()
        .map(|c| RuleChangeView {
            label: format!("{} {}", c.number, c.title),
            what: c.describe_proposed(),
            verb: c.verb().to_string(),
            html: c
                .markdown
                .as_ref()
                .map(|(o, n)| super::mddiff::diff_html(o, n, None))
                .unwrap_or_default(),
            lines: c.lines,
            id: c.id,
            url: None,
        })
        .collect();
    let text = |files: &[SourceFile], path: &str| {
        files
            .iter()
            .find(|f| f.path == path)
            .map(|f| f.text.clone())
            .unwrap_or_default()
    };
    let mut state = Vec::new();
    for (path, of) in [
        (
            "state/variables.toml",
            changelog::changes as fn(&[Version]) -> _,
        ),
        ("state/collections.toml", changelog::collection_changes),
    ] {
        let (was, is) = (text(before, path), text(after, path));
        if was == is {
            continue;
        }
        let version = |commit, text| Version {
            commit,
            at: crate::time::Timestamp::from_unix(0),
            message: "",
            author: "",
            text,
        };
        // The log starts from nothing: only the second version's changes
        // are the branch's.
        for change in of(&[version("before", &was), version("after", &is)]) {
            if change.commit.starts_with("after") {
                state.push(change_in_words(&change.path, &change.from, &change.to));
            }
        }
    }
    ProposedChange { rules, state }
}

/// A change to the gamestate as a sentence's words: `Cleo's springs 1 →
/// 3`, `round 2 → 3`, `gadgets orrery's cogs 3 → 4`.
pub fn change_in_words(path: &str, from: &str, to: &str) -> String {
    format!("{} {from} → {to}", path_in_words(path))
}

/// A gamestate path in players' words: `Cleo's springs` for
/// `players.Cleo.springs`, `round` for `globals.round`, `gadgets orrery's
/// cogs` for `collections.gadgets.orrery.cogs`. The player or the item is
/// isolated between U+2068 and U+2069, so that a mark in it that shows
/// text backwards turns only the name around.
pub fn path_in_words(path: &str) -> String {
    if let Some(rest) = path.strip_prefix("players.") {
        match rest.rsplit_once('.') {
            Some((player, var)) => format!("{}'s {var}", super::escape::isolated(player)),
            None => rest.to_string(),
        }
    } else if let Some(rest) = path.strip_prefix("globals.") {
        rest.to_string()
    } else if let Some(rest) = path.strip_prefix("collections.") {
        match rest.rsplit_once('.') {
            Some((item, field)) => {
                let item = item.replacen('.', " ", 1);
                format!("{}'s {field}", super::escape::isolated(&item))
            }
            None => rest.to_string(),
        }
    } else {
        path.to_string()
    }
}

/// FOR as a share of the quorum, 0 to 100.
pub fn bar(for_: u32, quorum: u32) -> u32 {
    (for_.min(quorum) * 100).checked_div(quorum).unwrap_or(100)
}

fn row(r: &BallotRow) -> PendingVote {
    let class = match r.counts_as.or(r.cast) {
        None => "none",
        Some(Vote::For) => "for",
        Some(Vote::Against | Vote::Veto) => "against",
        Some(Vote::Deferential) => "other",
    };
    PendingVote {
        player: r.player.clone(),
        url: None,
        vote: r.shown(),
        class: class.to_string(),
        at: r.at.map(status::when),
        via: r.via.map(str::to_string),
        link: crate::markdown::web_link(r.link.as_deref()).map(str::to_string),
    }
}

/// A pending matter that would change a rule, as the ruleset and the
/// rule's page say it: `#5 More springs would amend this rule`, linked to
/// its card on the pending page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct PendingNote {
    /// The matter's number.
    pub(crate) number: MatterNumber,
    /// Its title.
    pub(crate) title: String,
    /// What it would do: `amend`, `repeal`, `rename`, `move`, `renumber`.
    pub(crate) verb: String,
    /// Its card, from the page (`../pending/index.html#_pending-5`).
    pub(crate) url: String,
}

/// The pending matters of `pending` that would change the rule `id`,
/// oldest first, their cards linked from a page `root` below the site's
/// root.
pub(crate) fn notes(pending: &Pending, id: &str, root: &str) -> Vec<PendingNote> {
    pending
        .matters
        .iter()
        .flat_map(|m| {
            m.change
                .rules
                .iter()
                .filter(|r| r.id == id)
                .map(move |r| PendingNote {
                    number: m.number,
                    title: m.title.clone(),
                    verb: r.verb.clone(),
                    url: format!("{root}pending/index.html#_pending-{}", m.number),
                })
        })
        .collect()
}

/// The pending matters as the page at `path` shows them: their players'
/// and rules' pages filled in (the page names are the site's business,
/// not the tally's) and their bodies rendered as the forge shows them
/// ([`super::body`]), rule references linked into the ruleset.
pub(crate) fn linked(cx: &super::context::Context, path: &str) -> Pending {
    let url = |name: &str| cx.slugs.contains_key(name).then(|| cx.player_url(name));
    let targets = &cx.targets;
    let root = super::context::root(path);
    let links = super::body::BodyLinks {
        targets,
        root: &root,
        forge: cx.input.forge.as_ref(),
    };
    let mut pending = cx.input.pending.clone();
    for m in &mut pending.matters {
        m.author_url = url(&m.author);
        // With the repository known, a matter without an address of its
        // own is its number's thread there: where a player votes.
        if m.link.is_none() {
            m.link = cx.input.forge.as_ref().map(|f| f.thread_url(m.number));
        }
        for c in &mut m.discussion {
            c.author_url = url(&c.author);
            c.html = super::body::to_html(&c.body, links);
        }
        for v in &mut m.votes {
            v.url = url(&v.player);
        }
        m.html = super::body::to_html(&m.body, links);
        for r in &mut m.change.rules {
            r.url = cx
                .game
                .ruleset
                .get(&r.id)
                .is_some()
                .then(|| format!("rules/{}.html", r.id));
        }
    }
    pending
}

#[cfg(test)]
mod tests {
    use super::{bar, change_in_words, proposed_change};
    use crate::source::SourceFile;

    #[test]
    fn an_actions_answer_reads_in_players_words() {
        let name = |login: &str| match login {
            "boris-b" => "Boris".to_string(),
            other => other.to_string(),
        };
        assert_eq!(
            super::answer_in_words(
                "comment 12 by @boris-b: `ADD springs DICE6`, rolled DICE6 = 3: players.Boris.springs: 3 → 6",
                &name
            ),
            "comment 12 by Boris: ADD springs DICE6, rolled DICE6 = 3: \u{2068}Boris\u{2069}'s springs 3 → 6"
        );
        assert_eq!(
            super::answer_in_words("mail a@b.c: globals.round: 1 → 2", &name),
            "mail a@b.c: round 1 → 2",
            "an address is no login"
        );
    }

    #[test]
    fn a_change_to_the_gamestate_reads_as_words() {
        assert_eq!(
            change_in_words("players.Cleo.springs", "1", "3"),
            "\u{2068}Cleo\u{2069}'s springs 1 → 3",
            "the name isolated from the words after it"
        );
        assert_eq!(change_in_words("globals.round", "2", "3"), "round 2 → 3");
        assert_eq!(
            change_in_words("collections.gadgets.orrery.cogs", "-", "4"),
            "\u{2068}gadgets orrery\u{2069}'s cogs - → 4"
        );
    }

    #[test]
    fn a_branch_changes_its_rules_and_values() {
        let game = |count: &str, springs: i64| {
            vec![
                SourceFile::new(
                    "rules/core/_section.md",
                    "+++\ntitle = \"Core\"\norder = 1\n+++\n",
                ),
                SourceFile::new(
                    "rules/core/gadgets.md",
                    format!(
                        "+++\nid = \"gadgets\"\ntitle = \"Gadgets\"\n+++\nEach player has {count} Gadgets.\n"
                    ),
                ),
                SourceFile::new(
                    "state/game.toml",
                    "[game]\nname = \"T\"\n\n[dynasty]\nnumber = 1\nemperor = \"Ada\"\nphase = \"playing\"\nstarted = 2030-01-01T00:00:00Z\n",
                ),
                SourceFile::new(
                    "state/roster.toml",
                    "[[players]]\nname = \"Cleo\"\nlogin = \"cleo\"\njoined = 2030-01-01T00:00:00Z\n",
                ),
                SourceFile::new(
                    "state/schema.toml",
                    "[players.springs]\ntype = \"int\"\ndefault = 1\nrule = \"gadgets\"\n",
                ),
                SourceFile::new(
                    "state/variables.toml",
                    format!("[players.Cleo]\nsprings = {springs}\n"),
                ),
            ]
        };
        let change = proposed_change(&game("three", 1), &game("four", 3));
        assert_eq!(change.state, ["\u{2068}Cleo\u{2069}'s springs 1 → 3"]);
        assert_eq!(change.rules.len(), 1, "{change:?}");
        let rule = &change.rules[0];
        assert_eq!(rule.id, "gadgets");
        assert!(rule.html.contains("<del>three</del>"), "{}", rule.html);
        assert!(rule.html.contains("<ins>four</ins>"), "{}", rule.html);
        assert!(proposed_change(&game("three", 1), &game("three", 1)).is_empty());
    }

    #[test]
    fn the_bar_is_a_share_of_the_quorum_and_never_overflows() {
        assert_eq!(bar(0, 3), 0);
        assert_eq!(bar(2, 3), 66);
        assert_eq!(bar(5, 3), 100);
        assert_eq!(bar(0, 0), 100);
    }
}
