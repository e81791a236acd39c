//! Counting one matter: each player's effective vote and the comment it
//! came from, every comment that was not counted and why, the counts, and
//! the sticky Self-Killed and Vetoed flags (MECHANICS.md §2.1).
//!
//! A player's vote is the last permitted voting word in their last comment
//! that has one; a comment with no permitted word leaves the earlier vote
//! standing. The author votes FOR until they vote. DEFERENTIAL follows the
//! emperor's FOR or AGAINST on proposals.

use std::collections::BTreeMap;
use std::fmt;

use super::ballot::{self, Vote};
use super::params::{ImplicitFor, SelfKill};
use super::snapshot::{Comment, Matter, MatterKind, PlayerName, Snapshot};
use crate::time::Timestamp;

/// Where a counted vote came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A comment, by its order and time.
    Comment {
        /// The comment's tie-breaking order.
        order: u64,
        /// When it was posted.
        at: Timestamp,
    },
    /// The author's implicit FOR.
    Implicit,
}

/// One player's counted vote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountedVote {
    /// The vote as it counts (a DEFERENTIAL that follows the emperor shows
    /// the emperor's vote).
    pub vote: Vote,
    /// The vote as cast.
    pub cast: Vote,
    /// The comment it came from.
    pub source: Source,
}

/// Why a comment did not count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// The commenter is not on the roster.
    NotAPlayer,
    /// The commenter was idle when commenting.
    MadeWhileIdle,
    /// The commenter is idle now.
    IdleNow,
    /// The commenter went idle after commenting (votes do not revive).
    IdleSince,
    /// A proposal vote cast during a hiatus, when such votes do not count.
    CastInHiatus,
    /// No voting word in it.
    NoVotingWord,
    /// Voting words only inside quotes or code.
    Quoted,
    /// Voting words this player may not use here.
    NotPermitted(Vec<Vote>),
    /// The author's self-kill AGAINST may not be changed.
    LockedSelfKill,
    /// A later comment by the same player replaced it.
    Superseded(Timestamp),
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::NotAPlayer => f.write_str("not a player"),
            Why::MadeWhileIdle => f.write_str("made while idle"),
            Why::IdleNow => f.write_str("idle"),
            Why::IdleSince => f.write_str("went idle after voting"),
            Why::CastInHiatus => f.write_str("cast during a hiatus"),
            Why::NoVotingWord => f.write_str("no voting word"),
            Why::Quoted => f.write_str("voting words only in quotes or code"),
            Why::NotPermitted(words) => {
                let words: Vec<&str> = words.iter().map(|w| w.as_str()).collect();
                write!(f, "not permitted to that player: {}", words.join(", "))
            }
            Why::LockedSelfKill => f.write_str("a self-kill AGAINST may not be changed"),
            Why::Superseded(at) => write!(f, "superseded by their vote at {at}"),
        }
    }
}

/// A comment that did not count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncounted {
    /// Who wrote it.
    pub by: PlayerName,
    /// When.
    pub at: Timestamp,
    /// Its tie-breaking order.
    pub order: u64,
    /// Why it did not count.
    pub why: Why,
}

/// The count of one matter at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tally {
    /// Each counted player's vote.
    pub votes: BTreeMap<PlayerName, CountedVote>,
    /// Comments that did not count, in comment order.
    pub uncounted: Vec<Uncounted>,
    /// Counted FOR.
    pub for_votes: i64,
    /// Counted AGAINST.
    pub against_votes: i64,
    /// Every counted vote (DEFERENTIAL and VETO included).
    pub votes_cast: i64,
    /// Vetoed (proposals only).
    pub vetoed: bool,
    /// Self-Killed (proposals only).
    pub self_killed: bool,
    /// The active emperor's vote is FOR.
    pub wizard_for: bool,
    /// The active emperor has a FOR or AGAINST vote.
    pub wizard_voted: bool,
}

/// What a tally looks at besides the matter.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The game.
    pub snapshot: &'a Snapshot,
    /// The moment evaluated.
    pub now: Timestamp,
    /// Comments after this moment do not exist yet.
    pub cutoff: Timestamp,
    /// Since when the game has been in hiatus, if it is.
    pub hiatus_since: Option<Timestamp>,
}

/// What one pass over the comments found.
#[derive(Default)]
struct Pass {
    last: BTreeMap<PlayerName, (Vote, Source)>,
    uncounted: Vec<Uncounted>,
    vetoed: bool,
    self_killed: bool,
}

/// Counts `matter` in `ctx`.
pub fn count(ctx: &Context<'_>, matter: &Matter) -> Tally {
    let params = &ctx.snapshot.params;
    let mut comments: Vec<&Comment> = matter
        .comments
        .iter()
        .filter(|c| c.at <= ctx.cutoff)
        .collect();
    comments.sort_by_key(|c| (c.at, c.order));
    let emperor = ctx
        .snapshot
        .emperor
        .as_ref()
        .filter(|w| ctx.snapshot.active_at(w, ctx.now));
    let author_default =
        params.implicit_for == ImplicitFor::AllMatters || matter.kind == MatterKind::Proposal;
    let implicit = author_default && ctx.snapshot.active_at(&matter.author, ctx.now);
    let with_implicit = |mut pass: Pass| {
        if implicit {
            pass.last
                .entry(matter.author.clone())
                .or_insert((Vote::For, Source::Implicit));
        }
        pass
    };
    let mut pass = with_implicit(scan(ctx, matter, &comments, true));
    let w_vote = emperor
        .and_then(|w| pass.last.get(w))
        .filter(|(v, s)| {
            matches!(v, Vote::For | Vote::Against)
                && (*s != Source::Implicit || params.implicit_vote_counts_as_voted)
        })
        .map(|(v, _)| *v);
    let mirror = w_vote.filter(|_| matter.kind == MatterKind::Proposal);
    if !params.def_is_valid_icon && mirror.is_none() {
        // Reading B of §4 A-1: an unmirrored DEFERENTIAL is no voting word.
        pass = with_implicit(scan(ctx, matter, &comments, false));
    }
    finish(ctx, pass, emperor, w_vote, mirror)
}

fn finish(
    ctx: &Context<'_>,
    pass: Pass,
    emperor: Option<&PlayerName>,
    w_vote: Option<Vote>,
    mirror: Option<Vote>,
) -> Tally {
    let mut tally = Tally {
        uncounted: pass.uncounted,
        self_killed: pass.self_killed,
        wizard_for: w_vote == Some(Vote::For),
        wizard_voted: w_vote.is_some(),
        ..Tally::default()
    };
    for (name, (cast, source)) in pass.last {
        let vote = match (cast, mirror) {
            (Vote::Deferential, Some(w)) if Some(&name) != emperor => w,
            _ => cast,
        };
        tally.for_votes += i64::from(vote == Vote::For);
        tally.against_votes += i64::from(vote == Vote::Against);
        tally.votes_cast += 1;
        if Some(&name) == emperor && cast == Vote::Veto {
            tally.vetoed = true;
        }
        tally.votes.insert(name, CountedVote { vote, cast, source });
    }
    if ctx.snapshot.params.veto_sticky {
        tally.vetoed = pass.vetoed;
    }
    tally.uncounted.sort_by_key(|u| (u.at, u.order));
    tally
}

/// The vote a comment casts, or why it casts none: the commenter must be
/// on the roster (and active when commenting, unless configured otherwise),
/// and the comment must hold a voting word that player may use here.
/// `def_counts` says whether a non-emperor's DEFERENTIAL is a voting word.
fn cast_of(ctx: &Context<'_>, matter: &Matter, c: &Comment, def_counts: bool) -> Result<Vote, Why> {
    let snap = ctx.snapshot;
    let params = &snap.params;
    let proposal = matter.kind == MatterKind::Proposal;
    let player = snap.player(&c.by).ok_or(Why::NotAPlayer)?;
    if !player.active_at(c.at) && !params.count_comments_made_while_idle {
        return Err(Why::MadeWhileIdle);
    }
    if proposal
        && !params.hiatus_permits_proposal_voting
        && ctx.hiatus_since.is_some_and(|h| h <= c.at)
    {
        return Err(Why::CastInHiatus);
    }
    let emperor = snap.is_emperor(&c.by);
    let ballot = ballot::read(&c.body, params);
    let permitted = |v: &Vote| match v {
        Vote::For | Vote::Against => true,
        Vote::Veto => proposal && emperor,
        Vote::Deferential if emperor => params.emperor_may_def && params.def_is_valid_icon,
        Vote::Deferential => def_counts,
    };
    ballot
        .words
        .iter()
        .copied()
        .rfind(permitted)
        .ok_or(match ballot {
            b if b.hidden => Why::Quoted,
            b if b.words.is_empty() => Why::NoVotingWord,
            b => Why::NotPermitted(b.words),
        })
}

/// One pass over the comments in order: each player's last cast vote, the
/// comments that do not count, and the sticky flags.
fn scan(ctx: &Context<'_>, matter: &Matter, comments: &[&Comment], def_counts: bool) -> Pass {
    let snap = ctx.snapshot;
    let params = &snap.params;
    let proposal = matter.kind == MatterKind::Proposal;
    let mut pass = Pass::default();
    let mut locked = false;
    for c in comments {
        let skip = |why| Uncounted {
            by: c.by.clone(),
            at: c.at,
            order: c.order,
            why,
        };
        let (cast, player) = match cast_of(ctx, matter, c, def_counts) {
            Ok(cast) => (cast, snap.player(&c.by)),
            Err(why) => {
                pass.uncounted.push(skip(why));
                continue;
            }
        };
        let Some(player) = player else { continue };
        let is_author = c.by == matter.author && proposal;
        if is_author && locked {
            pass.uncounted.push(skip(Why::LockedSelfKill));
            continue;
        }
        // The sticky flags hold whatever the caster's status is now, if
        // they were active when casting (§4 A-4).
        let active_then = player.active_at(c.at);
        if is_author && active_then && cast == Vote::Against {
            pass.self_killed = true;
            locked = params.self_kill == SelfKill::Locked;
        }
        pass.vetoed |= proposal && snap.is_emperor(&c.by) && active_then && cast == Vote::Veto;
        if !player.active_at(ctx.now) {
            pass.uncounted.push(skip(Why::IdleNow));
            continue;
        }
        let idle_since = player.idle.iter().any(|s| s.overlaps(c.at, ctx.now));
        if !params.revive_votes_on_unidle && idle_since {
            pass.uncounted.push(skip(Why::IdleSince));
            continue;
        }
        let source = Source::Comment {
            order: c.order,
            at: c.at,
        };
        if let Some((_, Source::Comment { order, at })) =
            pass.last.insert(c.by.clone(), (cast, source))
        {
            pass.uncounted.push(Uncounted {
                by: c.by.clone(),
                at,
                order,
                why: Why::Superseded(c.at),
            });
        }
    }
    pass
}
