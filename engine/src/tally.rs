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

use super::ballot::{Ballot, Lexicon, Vote};
use super::params::{ImplicitFor, SelfKill};
use super::snapshot::{Comment, Matter, MatterKind, Player, PlayerName, Snapshot};
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
    /// Voting words only inside quotes, code or struck through.
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
            Why::Quoted => f.write_str("voting words only in quotes, code or struck through"),
            Why::NotPermitted(words) => {
                let words: Vec<&str> = words.iter().map(|w| w.as_str()).collect();
                write!(f, "not permitted to that player: {}", words.join(", "))
            }
            Why::LockedSelfKill => f.write_str("a self-kill AGAINST may not be changed"),
            Why::Superseded(at) => write!(f, "superseded by their vote at {}", at.in_words()),
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
    /// The comments that made it Vetoed or Self-Killed for good, even if
    /// their authors changed their votes since (kept so records can show,
    /// and audits replay, what the counted votes alone do not hold).
    pub sticky: Vec<Sticky>,
    /// The active emperor's vote is FOR.
    pub wizard_for: bool,
    /// The active emperor has a FOR or AGAINST vote.
    pub wizard_voted: bool,
}

/// A VETO or self-killing AGAINST that holds whatever comes after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sticky {
    /// Who cast it.
    pub by: PlayerName,
    /// VETO or AGAINST.
    pub vote: Vote,
    /// When.
    pub at: Timestamp,
    /// The comment's tie-breaking order.
    pub order: u64,
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

/// Counts `matter` in `ctx`.
pub fn count(ctx: &Context<'_>, matter: &Matter) -> Tally {
    let roster = Roster::new(ctx.snapshot);
    let read = Read::matter(
        &roster,
        &Lexicon::new(&ctx.snapshot.params),
        matter,
        ctx.cutoff,
    );
    read.count(&roster.at(ctx.now, ctx.hiatus_since), Mode::Full)
}

/// The roster as the tally looks players up: by position, each name
/// standing for the first entry that has it (as `Snapshot::player` finds).
#[derive(Debug)]
pub(crate) struct Roster<'a> {
    /// The game.
    pub snapshot: &'a Snapshot,
    /// The emperor's position, if on the roster.
    emperor: Option<usize>,
}

impl<'a> Roster<'a> {
    /// The roster of `snapshot`.
    pub(crate) fn new(snapshot: &'a Snapshot) -> Roster<'a> {
        let emperor = snapshot
            .emperor
            .as_ref()
            .and_then(|w| Roster::find(snapshot, w));
        Roster { snapshot, emperor }
    }

    fn find(snapshot: &Snapshot, name: &PlayerName) -> Option<usize> {
        snapshot.players.iter().position(|p| &p.name == name)
    }

    /// The position of `name` on the roster.
    pub(crate) fn position(&self, name: &PlayerName) -> Option<usize> {
        Roster::find(self.snapshot, name)
    }

    fn player(&self, i: usize) -> &'a Player {
        &self.snapshot.players[i]
    }

    /// What counting at `now` sees, in a game in hiatus since `hiatus_since`.
    pub(crate) fn at(&self, now: Timestamp, hiatus_since: Option<Timestamp>) -> Moment<'_> {
        Moment {
            roster: self,
            now,
            hiatus_since,
            emperor: self.emperor.filter(|w| self.player(*w).active_at(now)),
        }
    }
}

/// One moment of counting: the roster, *now*, the hiatus and the emperor
/// if active.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moment<'a> {
    roster: &'a Roster<'a>,
    now: Timestamp,
    hiatus_since: Option<Timestamp>,
    emperor: Option<usize>,
}

/// A comment read once per resolve: its writer's roster position and the
/// voting words of its body.
#[derive(Debug, Clone)]
pub(crate) struct ReadComment<'a> {
    /// The comment.
    pub comment: &'a Comment,
    /// Its writer's position on the roster.
    pub player: Option<usize>,
    /// Its voting words.
    pub ballot: Ballot,
}

impl<'a> ReadComment<'a> {
    /// Reads `comment`.
    pub(crate) fn new(
        roster: &Roster<'_>,
        lexicon: &Lexicon,
        comment: &'a Comment,
    ) -> ReadComment<'a> {
        ReadComment {
            comment,
            player: roster.position(&comment.by),
            ballot: lexicon.read(&comment.body),
        }
    }
}

/// A matter with its comments up to the cutoff, read and in order: what
/// every tally of it at every moment starts from.
#[derive(Debug, Clone)]
pub(crate) struct Read<'a> {
    /// The matter.
    pub matter: &'a Matter,
    /// Its author's roster position.
    pub author: Option<usize>,
    /// Its comments up to the cutoff, by time and order.
    pub comments: Vec<ReadComment<'a>>,
}

/// Whether a tally lists every vote and uncounted comment, or only counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Everything, for reports.
    Full,
    /// Counts and flags only, for the look-ahead's many trial counts.
    Counts,
}

/// What one pass over the comments found.
#[derive(Debug, Clone)]
pub(crate) struct Pass {
    /// Each roster position's last cast vote.
    last: Vec<Option<(Vote, Source)>>,
    uncounted: Vec<Uncounted>,
    vetoed: bool,
    self_killed: bool,
    sticky: Vec<Sticky>,
    locked: bool,
    def_counts: bool,
    mode: Mode,
}

impl<'a> Read<'a> {
    /// Reads `matter`'s comments up to `cutoff`.
    pub(crate) fn matter(
        roster: &Roster<'_>,
        lexicon: &Lexicon,
        matter: &'a Matter,
        cutoff: Timestamp,
    ) -> Read<'a> {
        let mut comments: Vec<&Comment> =
            matter.comments.iter().filter(|c| c.at <= cutoff).collect();
        comments.sort_by_key(|c| (c.at, c.order));
        Read {
            matter,
            author: roster.position(&matter.author),
            comments: comments
                .into_iter()
                .map(|c| ReadComment::new(roster, lexicon, c))
                .collect(),
        }
    }

    /// Counts the matter at `at`.
    pub(crate) fn count(&self, at: &Moment<'_>, mode: Mode) -> Tally {
        let first = self.scan(at, true, mode);
        let second =
            (!at.roster.snapshot.params.def_is_valid_icon).then(|| self.scan(at, false, mode));
        self.finish(at, &first, second.as_ref())
    }

    /// One pass over the comments: `def_counts` says whether a
    /// non-emperor's DEFERENTIAL is a voting word.
    pub(crate) fn scan(&self, at: &Moment<'_>, def_counts: bool, mode: Mode) -> Pass {
        let mut pass = Pass {
            last: vec![None; at.roster.snapshot.players.len()],
            uncounted: Vec::new(),
            vetoed: false,
            self_killed: false,
            sticky: Vec::new(),
            locked: false,
            def_counts,
            mode,
        };
        for c in &self.comments {
            self.step(at, &mut pass, c);
        }
        pass
    }

    /// The tally from the pass with DEFERENTIAL counted (`first`) and, when
    /// the ruleset may not count an unmirrored one, the pass without.
    pub(crate) fn finish(&self, at: &Moment<'_>, first: &Pass, second: Option<&Pass>) -> Tally {
        let params = &at.roster.snapshot.params;
        let author_default = params.implicit_for == ImplicitFor::AllMatters
            || self.matter.kind == MatterKind::Proposal;
        let implicit = self
            .author
            .filter(|a| author_default && at.roster.player(*a).active_at(at.now));
        let last = |pass: &Pass, i: usize| match pass.last[i] {
            None if Some(i) == implicit => Some((Vote::For, Source::Implicit)),
            v => v,
        };
        let w_vote = at
            .emperor
            .and_then(|w| last(first, w))
            .filter(|(v, s)| {
                matches!(v, Vote::For | Vote::Against)
                    && (*s != Source::Implicit || params.implicit_vote_counts_as_voted)
            })
            .map(|(v, _)| v);
        let mirror = w_vote.filter(|_| self.matter.kind == MatterKind::Proposal);
        // Reading B of §4 A-1: an unmirrored DEFERENTIAL is no voting word.
        let pass = match second {
            Some(second) if mirror.is_none() => second,
            _ => first,
        };
        let mut tally = Tally {
            self_killed: pass.self_killed,
            wizard_for: w_vote == Some(Vote::For),
            wizard_voted: w_vote.is_some(),
            ..Tally::default()
        };
        for i in 0..pass.last.len() {
            let Some((cast, source)) = last(pass, i) else {
                continue;
            };
            let vote = match (cast, mirror) {
                (Vote::Deferential, Some(w)) if Some(i) != at.emperor => w,
                _ => cast,
            };
            tally.for_votes += i64::from(vote == Vote::For);
            tally.against_votes += i64::from(vote == Vote::Against);
            tally.votes_cast += 1;
            if Some(i) == at.emperor && cast == Vote::Veto {
                tally.vetoed = true;
            }
            if pass.mode == Mode::Full {
                let name = at.roster.player(i).name.clone();
                tally.votes.insert(name, CountedVote { vote, cast, source });
            }
        }
        if params.veto_sticky {
            tally.vetoed = pass.vetoed;
        }
        if pass.mode == Mode::Full {
            tally.sticky.clone_from(&pass.sticky);
            tally.uncounted.clone_from(&pass.uncounted);
            tally.uncounted.sort_by_key(|u| (u.at, u.order));
        }
        tally
    }

    /// The vote a comment casts, or why it casts none: the commenter must
    /// be on the roster (and active when commenting, unless configured
    /// otherwise), and the comment must hold a voting word that player may
    /// use here.
    fn cast_of(&self, at: &Moment<'_>, c: &ReadComment<'_>, def_counts: bool) -> Result<Vote, Why> {
        let params = &at.roster.snapshot.params;
        let proposal = self.matter.kind == MatterKind::Proposal;
        let i = c.player.ok_or(Why::NotAPlayer)?;
        let at_time = c.comment.at;
        if !at.roster.player(i).active_at(at_time) && !params.count_comments_made_while_idle {
            return Err(Why::MadeWhileIdle);
        }
        if proposal
            && !params.hiatus_permits_proposal_voting
            && at.hiatus_since.is_some_and(|h| h <= at_time)
        {
            return Err(Why::CastInHiatus);
        }
        let emperor = Some(i) == at.roster.emperor;
        let permitted = |v: &Vote| match v {
            Vote::For | Vote::Against => true,
            Vote::Veto => proposal && emperor,
            Vote::Deferential if emperor => params.emperor_may_def && params.def_is_valid_icon,
            Vote::Deferential => def_counts,
        };
        let ballot = &c.ballot;
        ballot
            .words
            .iter()
            .copied()
            .rfind(permitted)
            .ok_or_else(|| {
                if ballot.hidden {
                    Why::Quoted
                } else if ballot.words.is_empty() {
                    Why::NoVotingWord
                } else {
                    Why::NotPermitted(ballot.words.clone())
                }
            })
    }

    /// Reads one more comment (later than every one before it) into `pass`.
    pub(crate) fn step(&self, at: &Moment<'_>, pass: &mut Pass, c: &ReadComment<'_>) {
        let params = &at.roster.snapshot.params;
        let proposal = self.matter.kind == MatterKind::Proposal;
        let comment = c.comment;
        let mode = pass.mode;
        let skip = |pass: &mut Pass, why| {
            if mode == Mode::Full {
                pass.uncounted.push(Uncounted {
                    by: comment.by.clone(),
                    at: comment.at,
                    order: comment.order,
                    why,
                });
            }
        };
        let (cast, i) = match self.cast_of(at, c, pass.def_counts) {
            Ok(cast) => (cast, c.player),
            Err(why) => return skip(pass, why),
        };
        let Some(i) = i else { return };
        let player = at.roster.player(i);
        let is_author = Some(i) == self.author && proposal;
        if is_author && pass.locked {
            return skip(pass, Why::LockedSelfKill);
        }
        // The sticky flags hold whatever the caster's status is now, if
        // they were active when casting (§4 A-4).
        let active_then = player.active_at(comment.at);
        let kills = is_author && active_then && cast == Vote::Against;
        if kills {
            pass.self_killed = true;
            pass.locked = params.self_kill == SelfKill::Locked;
        }
        let vetoes = proposal && Some(i) == at.roster.emperor && active_then && cast == Vote::Veto;
        pass.vetoed |= vetoes;
        if (kills || vetoes) && pass.mode == Mode::Full {
            pass.sticky.push(Sticky {
                by: player.name.clone(),
                vote: cast,
                at: comment.at,
                order: comment.order,
            });
        }
        if !player.active_at(at.now) {
            return skip(pass, Why::IdleNow);
        }
        let idle_since = player.idle.iter().any(|s| s.overlaps(comment.at, at.now));
        if !params.revive_votes_on_unidle && idle_since {
            return skip(pass, Why::IdleSince);
        }
        let source = Source::Comment {
            order: comment.order,
            at: comment.at,
        };
        if let Some((_, Source::Comment { order, at })) = pass.last[i].replace((cast, source)) {
            if mode == Mode::Full {
                pass.uncounted.push(Uncounted {
                    by: comment.by.clone(),
                    at,
                    order,
                    why: Why::Superseded(comment.at),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_superseded_vote_names_the_later_one_in_words() {
        let later = Timestamp::parse("2030-03-04T00:40:00Z").unwrap();
        assert_eq!(
            Why::Superseded(later).to_string(),
            "superseded by their vote at 00:40 UTC on 4 Mar 2030"
        );
    }
}
