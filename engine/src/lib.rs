//! The tally engine: BlogNomic's voting rules as data, pure and explained.
//! A crate of its own, so its purity is the compiler's to keep: it depends
//! on no git, network, template or file-system crate (`Cargo.toml` says
//! which it has), and gitnomic reaches it as `gitnomic::engine`.
//!
//! Roster (with idle history), emperor, phase, pending matters with their
//! comments, the ruleset's parameters and *now* go in; out comes, for each
//! matter, every player's effective vote and the comment it came from, the
//! comments that did not count and why, the counts, the decision (enact,
//! fail or wait) with its reasons in game terms, and the next moment the
//! decision could change. Nothing here reads a clock, a file, git or the
//! network (`tests/architecture.rs` checks), so any decision can be
//! replayed and explained later.
//!
//! Layout: [`snapshot`] is the input model, [`params`] the ruleset's
//! parameters (declared once, in one table) and `presets` their bases,
//! [`expr`] the condition language they are written in, `bound` its
//! evaluation over spans of time and `turns` the ages at which a
//! condition's comparisons of the age turn, [`ballot`] reads votes from Markdown,
//! [`tally`] counts one matter, [`decide`](mod@decide) applies the conditions, `run`
//! orders one resolve run, [`next`] looks ahead over the moments `epochs`
//! cuts into epochs, [`limits`] says who may propose, [`scenario`] reads
//! scenario files and [`report`] prints runs for people and machines.
//! Beside them, what the engine and gitnomic both build on: [`time`] (the
//! game's instants, with no clock), [`markdown`] (what of a comment is
//! visible), [`lines`] (byte offsets to line numbers) and [`bounds`] (the
//! engine's share of the bounds on what a matter may bring).

pub mod ballot;
mod bound;
pub mod bounds;
pub mod decide;
mod epochs;
pub mod expr;
pub mod limits;
pub mod lines;
pub mod markdown;
pub mod next;
mod number;
pub mod params;
mod presets;
pub mod report;
mod run;
pub mod scenario;
pub mod snapshot;
pub mod tally;
pub mod time;
mod turns;

pub use decide::{Decision, Grounds};
pub use next::NextChange;
pub use number::MatterNumber;
pub use params::{ParamError, Params};
pub use snapshot::{
    Comment, Crowned, IdleSpell, Matter, MatterKind, Phase, Player, PlayerName, Snapshot,
};
pub use tally::Tally;

use std::collections::BTreeMap;

use crate::time::Timestamp;

/// What one resolve run decides about one matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatterDecision {
    /// The matter's number (its pull request's).
    pub number: MatterNumber,
    /// Its kind.
    pub kind: MatterKind,
    /// When it was opened.
    pub opened: Timestamp,
    /// Enact, fail or wait.
    pub decision: Decision,
    /// The count behind the decision.
    pub tally: Tally,
    /// What the decision rests on: the kind of its reasons.
    pub grounds: Grounds,
    /// Why, in game terms.
    pub reasons: Vec<String>,
    /// For a waiting matter: what could change the decision, and when.
    pub next_change: Option<NextChange>,
}

/// How many players are active at one moment, and the quorum among them:
/// what a tally is measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Turnout {
    /// Active players.
    pub active: i64,
    /// The quorum.
    pub quorum: i64,
}

/// The outcome of one resolve run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The moment evaluated.
    pub now: Timestamp,
    /// Active players and the quorum at `now`.
    pub turnout: Turnout,
    /// Every matter: the resolved ones in the order the run resolves them,
    /// then the waiting ones by age.
    pub decisions: Vec<MatterDecision>,
}

impl Run {
    /// The decision about matter `number`, if it is in the run.
    pub fn get(&self, number: MatterNumber) -> Option<&MatterDecision> {
        self.decisions.iter().find(|d| d.number == number)
    }
}

/// Decides every pending matter of `snapshot` at `now`, in order, without
/// looking ahead (what a run carries out; [`look_ahead`] also says what could
/// change each waiting matter).
pub fn decide(snapshot: &Snapshot, now: Timestamp) -> Run {
    run::decide_all(&run::Prepared::new(snapshot, now), now).0
}

/// Why each matter of `snapshot` opened by `now` is no valid matter of its
/// kind, for those that are not (its author was not active, it was over a
/// limit or posted in a hiatus): such a matter only waits in a run, and
/// the resolver closes it. A matter's validity depends only on the matters
/// opened before it.
pub fn invalid(snapshot: &Snapshot, now: Timestamp) -> BTreeMap<MatterNumber, String> {
    let mut matters: Vec<&Matter> = snapshot.matters.iter().collect();
    matters.sort_by_key(|m| (m.opened, m.id));
    let why = run::invalidity(snapshot, matters.iter().copied());
    matters
        .iter()
        .zip(why)
        .filter(|(m, _)| m.opened <= now)
        .filter_map(|(m, why)| Some((m.id, why?)))
        .collect()
}

/// Decides every pending matter of `snapshot` at `now`, in order, and looks
/// ahead: says for each waiting one what could change its decision next.
/// (The resolver's run is `gitnomic::resolve`; this is the tally it reads.)
pub fn look_ahead(snapshot: &Snapshot, now: Timestamp) -> Run {
    let game = run::Prepared::new(snapshot, now);
    let (mut run, own_merits) = run::decide_all(&game, now);
    next::annotate(&game, &mut run, &own_merits);
    run
}
