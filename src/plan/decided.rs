//! The effects that resolve a decided matter, shared by the pass that
//! decides and the one that finishes what an earlier run decided: in the
//! order that lets a later run finish after any of them.

use super::PlanError;
use super::dovs::Dovs;
use super::effect::{DynastyValue, Effect};
use super::ground::Ground;
use super::record::{Resolved, record_of};
use super::written::{Says, Tally, Written};
use crate::engine::{MatterDecision, Turnout};
use crate::matter::collected::{Collected, player_name};
use crate::matter::journal::Resolution;
use crate::matter::labels::{ENACTED, FAILED, HELD, RESOLVING, carries};
use crate::matter::status::Progress;
use crate::matter::{Kind, Login};
use crate::record::{Failure, Outcome, Record};

/// Who resolves matters, in records.
const RESOLVED_BY: &str = "gitnomic resolve";

/// The edits of the `[dynasty]` table that crown an enacted DoV's author.
pub(super) type Crown = Vec<(&'static str, DynastyValue)>;

/// A decided matter, to be carried out.
pub(super) struct Decided<'m> {
    /// The matter.
    pub matter: &'m Collected,
    /// What the rules decided, with the tally.
    pub decision: &'m MatterDecision,
    /// Active players and the quorum when it was decided.
    pub turnout: Turnout,
    /// The rows of its status's tally: the players active when it was
    /// decided.
    pub players: Vec<String>,
    /// The decision as its journal keeps it.
    pub resolution: Resolution,
}

/// Plans `decided`'s effects: announce, merge or close, record (before
/// anything else changes the game), crown an enacted DoV's author, the
/// final status, and last the labels that say it is done. Returns the
/// edits that crown an enacted DoV's author, for the caller to make on the
/// prospect once it has taken the matter's merge.
pub(super) fn carry_out(
    ground: &mut Ground,
    dovs: &mut Dovs,
    out: &mut Written,
    decided: Decided<'_>,
) -> Result<Option<Crown>, PlanError> {
    let Decided {
        matter: m,
        decision: d,
        turnout,
        players,
        resolution,
    } = decided;
    let n = m.info.number;
    let enacted = resolution.outcome == Outcome::Enacted;
    let crown = (enacted && m.kind == Kind::Dov).then(|| crown_edits(ground, m));
    if crown.is_some() {
        dovs.crown(n, resolution.at);
    }
    let tally = Tally {
        decision: d.clone(),
        players,
        changes: ground.rule_changes(m)?,
        progress: Progress::Carrying(d.decision),
        flaw: None,
        address: None,
    };
    let recorded = record(ground, m, d, turnout, &resolution, crown.as_ref())?;
    let mut journal = m.journal.clone();
    journal.resolution = Some(resolution);
    journal.refused = None;
    out.status(n, journal.clone(), Says::Tally(Box::new(tally.clone())));
    out.resolving(n);
    match (enacted, &m.info.head) {
        (true, Some(head)) => {
            let message = format!("Enact {} #{n}: {}", m.kind, m.info.subject_title());
            ground.merge(out, n, head, message);
        }
        _ => out.step(n, Effect::Close),
    }
    out.step(n, Effect::Record(Box::new(recorded.record)));
    if let Some(dynasty) = recorded.dynasty {
        out.step(n, dynasty);
    }
    // The final status before the final labels: taking `resolving` off
    // is what says the matter is done, so it comes last.
    let progress = if enacted {
        Progress::Enacted
    } else {
        Progress::Failed
    };
    let done = Tally {
        progress,
        address: recorded.address,
        ..tally
    };
    out.status(n, journal, Says::Tally(Box::new(done)));
    out.step(n, done_labels(m, enacted));
    Ok(crown)
}

/// What a decided matter leaves in the game's history.
struct Recorded {
    /// Its record.
    record: Record,
    /// For an enacted DoV, the commit that crowns its author.
    dynasty: Option<Effect>,
    /// For an enacted DoV, how the new emperor posts the Address the game
    /// now awaits, with the rules they may keep.
    address: Option<String>,
}

/// What decided matter `m` leaves in the game's history, from the game
/// `ground` stands on; `crown`, the edits that crown an enacted DoV's
/// author.
fn record(
    ground: &Ground,
    m: &Collected,
    d: &MatterDecision,
    turnout: Turnout,
    resolution: &Resolution,
    crown: Option<&Crown>,
) -> Result<Recorded, PlanError> {
    let state = ground.state()?;
    let author = player_name(state, &m.info.author).0;
    let name = |login: &str| player_name(state, &Login(login.into())).0;
    let resolved = Resolved {
        matter: m,
        author: author.clone(),
        dynasty: state.dynasty.number,
        at: resolution.at,
        turnout,
        resolved_by: RESOLVED_BY.into(),
        discussion: crate::matter::discussion::of(m, Some(&d.tally), &name),
    };
    let mut record = record_of(d, &resolved);
    if resolution.illegal {
        record.failure = Some(Failure::Illegal);
    }
    let emperor = &state.terms.emperor;
    let dynasty = crown.map(|edits| {
        let message = format!(
            "{} #{} enacted: {author} is the new {emperor}",
            m.kind, m.info.number
        );
        let edits = edits.clone();
        Effect::Dynasty { edits, message }
    });
    let ruleset = &ground.prospect.game.ruleset;
    let address = crown.map(|_| crate::matter::admission::address_template(ruleset, emperor));
    Ok(Recorded {
        record,
        dynasty,
        address,
    })
}

/// The labels that say decided matter `m` is done.
fn done_labels(m: &Collected, enacted: bool) -> Effect {
    let (add, other) = if enacted {
        (ENACTED, FAILED)
    } else {
        (FAILED, ENACTED)
    };
    // `held` says a decision to enact waits for the forge: a decided
    // matter waits for nothing.
    let held = carries(&m.info.labels, HELD).then_some(HELD);
    Effect::Labels {
        add: vec![add],
        remove: [Some(other), held, Some(RESOLVING)]
            .into_iter()
            .flatten()
            .collect(),
    }
}

/// An enacted DoV makes its author the emperor and awaits their
/// Ascension Address.
fn crown_edits(ground: &Ground, m: &Collected) -> Crown {
    let author = ground.prospect.game.state.as_ref().map_or_else(
        || m.info.author.0.clone(),
        |s| player_name(s, &m.info.author).0,
    );
    vec![
        ("emperor", DynastyValue::Text(author)),
        ("phase", DynastyValue::Text("awaiting-ascension".into())),
    ]
}
