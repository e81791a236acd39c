//! The rules a matter is judged by when it is posted: who opened it, what
//! kind it claims to be, and when. Pure.
//!
//! Whether a post stands depends on what was pending at its moment: the
//! author's other proposals (the pending and per-day limits), a DoV (the
//! hiatus), an enacted DoV whose Ascension Address was awaited, and the
//! author's heavily defeated DoVs (the cooldown). A [`Ledger`] reads that
//! past once from the game's records and the matters open on the forge,
//! judging the open ones oldest first, each against those before it that
//! stand: a post that is no matter counts towards nothing. `check`, the
//! resolver's plan, `play list` and the site all judge through it, so a
//! post stands at every door or at none.
//!
//! A matter closed without being resolved (withdrawn by its author, or
//! closed as no matter) has no record of a decision and counts towards
//! nothing once closed.

use crate::engine::limits::{ProposerRecord, in_downtime, may_propose, same_utc_day};
use crate::engine::{Crowned, MatterKind, Params};
use crate::game::Game;
use crate::gamestate::{GameState, Phase};
use crate::matter::{Kind, KindChange, MatterNumber};
use crate::record::{Outcome, Record};
use crate::time::{Span, Timestamp};

/// A post as the posting rules see it.
#[derive(Debug, Clone, Copy)]
pub struct Posting<'a> {
    /// Its number.
    pub number: MatterNumber,
    /// The kind its labels or title claim.
    pub kind: Option<Kind>,
    /// Its labels (only one may name a kind).
    pub labels: &'a [String],
    /// Its author's forge login.
    pub author: &'a str,
    /// When it was opened.
    pub opened: Timestamp,
    /// Whether it is a pull request (else an issue).
    pub pull: bool,
    /// The branch a pull request asks to be merged into, when the forge
    /// says.
    pub base: Option<&'a str>,
    /// The paths it changes, when they are known (none for an issue): a
    /// post that changes what its kind may not is no matter, and counts
    /// towards nothing, like any other.
    pub changed: Option<&'a [String]>,
    /// Why files it adds or changes cannot be read as the game's (a link,
    /// a file over its size, one that is not UTF-8): each makes it no
    /// matter, whatever its kind, counting towards nothing.
    pub unfit: &'a [String],
    /// The last change that made it the kind of matter it is (leaving
    /// draft, a label, its title), when the forge said.
    pub kind_changed: Option<&'a KindChange>,
    /// When its first comment (other than the bot's) was made, when its
    /// thread was read: after it, its kind may no longer change.
    pub first_comment: Option<Timestamp>,
}

impl<'a> Posting<'a> {
    /// The posting of a matter as the forge reports it; an issue changes
    /// no files, a pull request's are not known until [`Self::changing`].
    pub fn of(info: &'a crate::matter::MatterInfo) -> Posting<'a> {
        Posting {
            number: info.number,
            kind: info.kind(),
            labels: &info.labels,
            author: &info.author.0,
            opened: info.opened,
            pull: info.pull,
            base: info.base.as_deref(),
            changed: (!info.pull).then_some(&[]),
            unfit: &[],
            kind_changed: info.kind_changed.as_ref(),
            first_comment: None,
        }
    }

    /// This posting, whose first comment (other than the bot's) was made
    /// at `first`, if it has one.
    #[must_use]
    pub fn commented(self, first: Option<Timestamp>) -> Posting<'a> {
        Posting {
            first_comment: first,
            ..self
        }
    }

    /// Why it became the kind it is too late to be a matter, if it did:
    /// after its first `kind_window_minutes`, or after its first comment.
    fn late(&self, kind: Kind, params: &Params) -> Option<String> {
        let change = self.kind_changed?;
        let minutes = params.kind_window_minutes.max(0);
        let too_late = |since: Timestamp| change.at > since;
        let why = if too_late(self.opened.plus(super::kind_window(params))) {
            format!("more than {minutes} minutes after it was opened")
        } else if self.first_comment.is_some_and(too_late) {
            "after it had comments".to_string()
        } else {
            return None;
        };
        Some(format!(
            "it became a {kind} too late: {} at {}, {why} (a pull request may become a matter, or change kind, only in its first {minutes} minutes and before any comment)",
            change.how, change.at
        ))
    }

    /// This posting, whose files cannot be read for the reasons `unfit`.
    #[must_use]
    pub fn unfit(self, unfit: &'a [String]) -> Posting<'a> {
        Posting { unfit, ..self }
    }

    /// This posting, changing `paths` when they are known.
    #[must_use]
    pub fn changing(self, paths: Option<&'a Vec<String>>) -> Posting<'a> {
        Posting {
            changed: paths.map(Vec::as_slice).or(self.changed),
            ..self
        }
    }

    fn key(&self) -> (Timestamp, MatterNumber) {
        (self.opened, self.number)
    }
}

/// Why a post is not the matter it claims to be, if it is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// It claims no kind at all: nothing to stand or fall.
    NoKind,
    /// It claims a kind it cannot be (over a limit, in a hiatus, by
    /// someone who may not post it): it is no matter, and is closed.
    NotAMatter(String),
}

/// A matter of the past or present that stood, as the limits and the
/// hiatus count it.
#[derive(Debug, Clone)]
struct Stood {
    number: MatterNumber,
    kind: MatterKind,
    /// The author's player name.
    author: String,
    opened: Timestamp,
    /// When it was resolved; `None` while it is pending.
    resolved: Option<Timestamp>,
    /// A failed DoV with more AGAINST votes than quorum: its author's
    /// cooldown runs from its resolution.
    heavy: bool,
}

impl Stood {
    fn before(&self, at: (Timestamp, MatterNumber)) -> bool {
        (self.opened, self.number) < at
    }

    fn pending_at(&self, at: (Timestamp, MatterNumber)) -> bool {
        self.before(at) && self.resolved.is_none_or(|r| at.0 < r)
    }
}

/// What the posting rules read from the game and the open matters.
#[derive(Debug, Clone)]
pub struct Ledger<'g> {
    game: &'g Game,
    /// The default branch, where every pull request is merged.
    branch: &'g str,
    /// The matters that stood: records of resolved ones, and the open
    /// ones judged to stand, in order.
    stood: Vec<Stood>,
    /// The open matters' verdicts, by number.
    verdicts: std::collections::BTreeMap<MatterNumber, Option<Refusal>>,
    /// The DoV whose Address is awaited, if the game awaits one.
    crowned: Option<Crowned>,
}

impl<'g> Ledger<'g> {
    /// Judges every post in `open` (the matters open on the forge, in any
    /// order) by the rules of `game` on `branch`, oldest first.
    ///
    /// Each matter is counted once: a post `game` holds a record of (one a
    /// run is finishing, say, still labelled `resolving`) is counted as
    /// its record says, never also as open.
    pub fn new(game: &'g Game, branch: &'g str, open: &[Posting<'_>]) -> Ledger<'g> {
        let mut ledger = Ledger {
            game,
            branch,
            stood: past(game, open),
            verdicts: std::collections::BTreeMap::new(),
            crowned: crowning(game),
        };
        let mut order: Vec<&Posting<'_>> =
            open.iter().filter(|p| !recorded(game, p.number)).collect();
        order.sort_by_key(|p| p.key());
        for posting in order {
            let verdict = ledger.judge(posting);
            if let (None, Some(kind), Some(state)) = (
                &verdict,
                posting.kind.and_then(crate::matter::collected::engine_kind),
                &game.state,
            ) {
                ledger.stood.push(Stood {
                    number: posting.number,
                    kind,
                    author: author_name(state, posting.author),
                    opened: posting.opened,
                    resolved: None,
                    heavy: false,
                });
            }
            ledger.verdicts.insert(posting.number, verdict);
        }
        ledger
    }

    /// The game the ledger judges by.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The DoV whose Ascension Address the game awaits, if known.
    pub fn crowned(&self) -> Option<Crowned> {
        self.crowned
    }

    /// The verdict on `posting`: the one reached for it among the open
    /// matters, or else judged now against them.
    pub fn verdict(&self, posting: &Posting<'_>) -> Option<Refusal> {
        match self.verdicts.get(&posting.number) {
            Some(v) => v.clone(),
            None => self.judge(posting),
        }
    }

    /// Judges one post against the matters that stood before it.
    fn judge(&self, p: &Posting<'_>) -> Option<Refusal> {
        let Some(kind) = p.kind else {
            return Some(Refusal::NoKind);
        };
        let no = |why: String| Some(Refusal::NotAMatter(why));
        let (Some(state), Some(params)) = (&self.game.state, &self.game.params) else {
            return no("the game's rules cannot be read, so nothing can be judged by them".into());
        };
        let named = Kind::named_by(p.labels);
        if named.len() > 1 {
            let names: Vec<&str> = named.iter().map(|k| k.label()).collect();
            return no(format!(
                "it is labelled as {} kinds of matter ({}): remove all but one",
                names.len(),
                names.join(", ")
            ));
        }
        if let Some(why) = self.form_refusal(p, kind, params) {
            return no(why);
        }
        let Some(player) = state.player_by_login(p.author) else {
            return no(format!(
                "`{}` is not a {} on the roster",
                p.author, state.terms.player
            ));
        };
        if !player.is_active_at(p.opened) {
            let why = if player.is_idle_at(p.opened) {
                "was idle"
            } else {
                "had not joined yet"
            };
            return no(format!("{} {why} when it was opened", player.name));
        }
        let why = match kind {
            Kind::Proposal => self
                .proposal_refusal(p, &player.name, params)
                .map(|r| format!("it cannot be a proposal: {r}")),
            Kind::Dov => self
                .dov_refusal(p, &player.name, state, params)
                .map(|r| format!("it cannot be a DoV: {r}")),
            Kind::Ascension => ascension_refusal(state, &player.name)
                .map(|r| format!("it cannot be an Ascension Address: {r}")),
            Kind::Cfj | Kind::Action => None,
        };
        why.and_then(no)
    }

    /// Why `p` is not a matter of `kind` by its form, whoever posted it: a
    /// pull request that became one too late, a proposal that is no pull
    /// request (its diff is what it proposes), a
    /// pull request asking to be merged into another branch than the
    /// default one, or one changing files its kind may not.
    fn form_refusal(&self, p: &Posting<'_>, kind: Kind, params: &Params) -> Option<String> {
        if let Some(why) = p.late(kind, params) {
            return Some(why);
        }
        if kind == Kind::Proposal && !p.pull {
            return Some(
                "a proposal must be a pull request: its diff is the change it proposes".into(),
            );
        }
        if let Some(base) = p.base.filter(|base| *base != self.branch) {
            return Some(format!(
                "it asks to be merged into {base}, but a matter is merged into {} or not at all",
                self.branch
            ));
        }
        if !p.unfit.is_empty() {
            return Some(p.unfit.join("; "));
        }
        let touched: Vec<String> = p
            .changed
            .unwrap_or_default()
            .iter()
            .filter_map(|path| super::touches(kind, path))
            .collect();
        (!touched.is_empty()).then(|| touched.join("; "))
    }

    /// Why `author` may not open proposal `p`: a hiatus or the downtime
    /// then, or one of the limits.
    fn proposal_refusal(&self, p: &Posting<'_>, author: &str, params: &Params) -> Option<String> {
        let at = p.key();
        let mine: Vec<&Stood> = self
            .stood
            .iter()
            .filter(|s| s.kind == MatterKind::Proposal && s.author == author && s.before(at))
            .collect();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let record = ProposerRecord {
            pending: count(mine.iter().filter(|s| s.pending_at(at)).count()),
            opened_today: count(
                mine.iter()
                    .filter(|s| same_utc_day(s.opened, p.opened))
                    .count(),
            ),
        };
        let hiatus = self.awaited_at(p.opened).is_some()
            || self
                .stood
                .iter()
                .any(|s| s.kind == MatterKind::Dov && s.pending_at(at));
        may_propose(params, p.opened, hiatus, record)
            .err()
            .map(|r| r.to_string())
    }

    /// Why `author` may not declare victory in `p`: the emperor may not;
    /// nobody may while an Ascension Address is awaited or in the
    /// downtime; and an author whose DoV failed with more AGAINST votes
    /// than quorum waits `dov_cooldown_hours` from that failure.
    fn dov_refusal(
        &self,
        p: &Posting<'_>,
        author: &str,
        state: &GameState,
        params: &Params,
    ) -> Option<String> {
        if state.dynasty.emperor.as_deref() == Some(author) {
            return Some(format!(
                "the {} may not declare victory",
                state.terms.emperor
            ));
        }
        if params.dov_banned_before_ascension {
            if let Some(since) = self.awaited_at(p.opened) {
                return Some(format!(
                    "the new {}'s Ascension Address is awaited (since {since})",
                    state.terms.emperor
                ));
            }
        }
        if in_downtime(params, p.opened) {
            return Some("it is the seasonal downtime".into());
        }
        let cooldown = Span::hours(params.dov_cooldown_hours);
        self.stood
            .iter()
            .filter(|s| s.kind == MatterKind::Dov && s.heavy && s.author == author)
            .filter_map(|s| s.resolved)
            .map(|resolved| resolved.plus(cooldown))
            .filter(|until| p.opened <= *until)
            .max()
            .map(|until| {
                format!(
                    "{author}'s last DoV failed with more AGAINST votes than quorum; they may declare again after {until}"
                )
            })
    }

    /// Since when an Ascension Address was awaited at `t`, if one was:
    /// from just after the enactment of the DoV it follows (a post in the
    /// same second came before it, as a run at that second saw it) until
    /// the Address began the next dynasty.
    pub fn awaited_at(&self, t: Timestamp) -> Option<Timestamp> {
        let state = self.game.state.as_ref()?;
        match state.dynasty.phase {
            Phase::AwaitingAscension => match self.crowned {
                Some(c) => (c.at < t).then_some(c.at),
                None => Some(Timestamp::from_unix(i64::MIN)),
            },
            Phase::Playing | Phase::Hiatus => {
                // The previous dynasty's wait, for a post older than the
                // Address that ended it.
                let started = state.dynasty.started?;
                let previous = state.dynasty.number.checked_sub(1)?;
                let enacted = self
                    .game
                    .records
                    .iter()
                    .filter(|r| is_crowning(r) && r.dynasty == previous)
                    .map(|r| r.resolved)
                    .max()?;
                (enacted < t && t < started).then_some(enacted)
            }
        }
    }
}

/// The player name of `login`, or `@login` for someone not on the roster
/// (as records name them).
fn author_name(state: &GameState, login: &str) -> String {
    state
        .player_by_login(login)
        .map_or_else(|| format!("@{login}"), |p| p.name.clone())
}

/// Why `author` (a player name) may not make an Ascension Address now:
/// none is awaited, or they are not the new emperor.
pub fn ascension_refusal(state: &GameState, author: &str) -> Option<String> {
    if state.dynasty.phase != Phase::AwaitingAscension {
        return Some("no Ascension Address is awaited".into());
    }
    if state.dynasty.emperor.as_deref() != Some(author) {
        return Some(format!(
            "only the new {} may make the Ascension Address",
            state.terms.emperor
        ));
    }
    None
}

/// Whether `game` holds a record of this game's matter `number`.
fn recorded(game: &Game, number: MatterNumber) -> bool {
    game.records
        .iter()
        .any(|r| r.source.is_none() && r.number == number)
}

/// Whether `r` records the enactment of a DoV.
fn is_crowning(r: &Record) -> bool {
    r.source.is_none() && r.kind == MatterKind::Dov && r.outcome == Outcome::Enacted
}

/// The DoV whose Ascension Address the game awaits: the last one enacted
/// in this dynasty, by the records. `None` when no Address is awaited,
/// or the records do not say which DoV it follows.
pub fn crowning(game: &Game) -> Option<Crowned> {
    let state = game.state.as_ref()?;
    if state.dynasty.phase != Phase::AwaitingAscension {
        return None;
    }
    game.records
        .iter()
        .filter(|r| is_crowning(r) && r.dynasty == state.dynasty.number)
        .max_by_key(|r| (r.resolved, r.number))
        .map(|r| Crowned {
            dov: r.number,
            at: r.resolved,
        })
}

/// The resolved proposals and DoVs that can bear on the open posts: those
/// resolved late enough to have been pending, opened on the same day, or
/// cooling their author down, when the oldest of them was opened.
fn past(game: &Game, open: &[Posting<'_>]) -> Vec<Stood> {
    let Some(earliest) = open.iter().map(|p| p.opened).min() else {
        return Vec::new();
    };
    let cooldown = game.params.as_ref().map_or(0, |p| p.dov_cooldown_hours);
    let reach = Span::hours(cooldown.max(24));
    game.records
        .iter()
        .filter(|r| r.source.is_none() && r.outcome != Outcome::NotAMatter)
        .filter(|r| r.kind != MatterKind::Cfj)
        .filter(|r| earliest.since(r.resolved) <= reach)
        .map(|r| Stood {
            number: r.number,
            kind: r.kind,
            author: r.author.clone(),
            opened: r.opened,
            resolved: Some(r.resolved),
            heavy: r.kind == MatterKind::Dov
                && r.outcome == Outcome::Failed
                && r.tally.is_some_and(|t| t.against > t.quorum),
        })
        .collect()
}
