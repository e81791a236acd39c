//! Scenario files: a roster, matters with their comments, a moment and the
//! decisions expected, in TOML (the format is MECHANICS.md's "scenario
//! file", a public interface). They are the engine's test data and what
//! `gitnomic tally` reads. Parsing is pure: text in, [`Scenario`] or an
//! error with its line out. Unknown keys are errors.

use std::collections::BTreeSet;
use std::ops::Range;

use serde::Deserialize;
use toml::Spanned;

use super::MatterNumber;
use super::decide::Decision;
use super::params::Params;
use super::snapshot::{
    Comment, IdleSpell, Matter, MatterKind, Phase, Player, PlayerName, Snapshot,
};
use crate::lines::LineIndex;
use crate::time::Timestamp;

/// A parsed scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// What the scenario shows.
    pub title: String,
    /// The moment to evaluate, if the file names one.
    pub now: Option<Timestamp>,
    /// The game.
    pub snapshot: Snapshot,
    /// The decisions expected.
    pub expects: Vec<Expect>,
}

/// One expected decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    /// When (defaults to the scenario's `now`).
    pub now: Option<Timestamp>,
    /// Which matter.
    pub id: MatterNumber,
    /// What the run must decide.
    pub decision: Decision,
    /// The line of the `[[expect]]` entry, for reports.
    pub line: usize,
}

/// The result of checking one expectation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The expectation.
    pub expect: Expect,
    /// The moment it was checked at.
    pub now: Timestamp,
    /// What the engine decided (`None`: no such matter in the run).
    pub got: Option<Decision>,
}

impl Checked {
    /// Whether the engine decided as expected.
    pub fn met(&self) -> bool {
        self.got == Some(self.expect.decision)
    }
}

/// A scenario file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ScenarioError {
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    #[serde(default)]
    title: String,
    preset: Option<Spanned<String>>,
    now: Option<Timestamp>,
    #[serde(default)]
    game: RawGame,
    params: Option<Spanned<toml::Table>>,
    #[serde(default)]
    players: Vec<Spanned<RawPlayer>>,
    #[serde(default)]
    matters: Vec<RawMatter>,
    #[serde(default)]
    expect: Vec<Spanned<RawExpect>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawGame {
    emperor: Option<String>,
    #[serde(default)]
    phase: RawPhase,
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum RawPhase {
    #[default]
    Playing,
    AwaitingAscension,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    name: String,
    idle: Option<bool>,
    idle_from: Option<Timestamp>,
    idle_until: Option<Timestamp>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatter {
    id: Spanned<MatterNumber>,
    kind: MatterKind,
    author: String,
    opened: Timestamp,
    #[serde(default)]
    comments: Vec<RawComment>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawComment {
    by: String,
    at: Timestamp,
    body: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    now: Option<Timestamp>,
    id: Spanned<MatterNumber>,
    decision: Decision,
}

/// Parses a scenario file.
pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    let lines = LineIndex::new(text);
    let at = |span: Range<usize>| lines.line(span.start);
    let fail = |span: Range<usize>, message: String| ScenarioError {
        line: at(span),
        message,
    };
    let raw: RawScenario = toml::from_str(text).map_err(|e| ScenarioError {
        line: e.span().map_or(0, |s| lines.line(s.start)),
        message: e.message().to_owned(),
    })?;
    let params = params(&raw).map_err(|(span, m)| fail(span, m))?;
    let players = players(&raw.players).map_err(|(span, m)| fail(span, m))?;
    let matters = matters(&raw.matters).map_err(|(span, m)| fail(span, m))?;
    let ids: BTreeSet<MatterNumber> = matters.iter().map(|m| m.id).collect();
    let mut expects = Vec::new();
    for e in &raw.expect {
        let id = *e.get_ref().id.get_ref();
        if !ids.contains(&id) {
            return Err(fail(
                e.get_ref().id.span(),
                format!("no matter has id {id}"),
            ));
        }
        expects.push(Expect {
            now: e.get_ref().now,
            id,
            decision: e.get_ref().decision,
            line: at(e.span()),
        });
    }
    let snapshot = Snapshot {
        params,
        players,
        emperor: raw.game.emperor.map(PlayerName),
        phase: match raw.game.phase {
            RawPhase::Playing => Phase::Playing,
            RawPhase::AwaitingAscension => Phase::AwaitingAscension,
        },
        crowned: None,
        matters,
    };
    Ok(Scenario {
        title: raw.title,
        now: raw.now,
        snapshot,
        expects,
    })
}

type Located<T> = Result<T, (Range<usize>, String)>;

fn params(raw: &RawScenario) -> Located<Params> {
    let mut table = toml::Table::new();
    let mut span = 0..0;
    if let Some(p) = &raw.params {
        table.clone_from(p.get_ref());
        span = p.span();
    }
    if let Some(preset) = &raw.preset {
        if table.contains_key("preset") {
            return Err((preset.span(), "preset given twice".into()));
        }
        span = preset.span();
        table.insert("preset".into(), preset.get_ref().clone().into());
    }
    Params::from_table(&table).map_err(|errors| {
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        (span, text.join("; "))
    })
}

fn players(raw: &[Spanned<RawPlayer>]) -> Located<Vec<Player>> {
    let mut names = BTreeSet::new();
    let mut out = Vec::new();
    for entry in raw {
        let p = entry.get_ref();
        if !names.insert(p.name.clone()) {
            return Err((entry.span(), format!("player `{}` is listed twice", p.name)));
        }
        let idle = match (p.idle, p.idle_from, p.idle_until) {
            (Some(true), None, None) => vec![IdleSpell {
                from: None,
                until: None,
            }],
            (Some(true), _, _) => {
                return Err((
                    entry.span(),
                    "use either `idle` or `idle_from`/`idle_until`".into(),
                ));
            }
            (_, Some(from), Some(until)) if until <= from => {
                return Err((
                    entry.span(),
                    "`idle_until` must be after `idle_from`".into(),
                ));
            }
            (_, None, None) => Vec::new(),
            (_, from, until) => vec![IdleSpell { from, until }],
        };
        out.push(Player {
            name: PlayerName(p.name.clone()),
            idle,
        });
    }
    Ok(out)
}

fn matters(raw: &[RawMatter]) -> Located<Vec<Matter>> {
    let mut ids = BTreeSet::new();
    let mut order = 0u64;
    let mut out = Vec::new();
    for m in raw {
        let id = *m.id.get_ref();
        if !ids.insert(id) {
            return Err((m.id.span(), format!("matter id {id} is used twice")));
        }
        let comments = m
            .comments
            .iter()
            .map(|c| {
                order += 1;
                Comment {
                    order,
                    by: PlayerName(c.by.clone()),
                    at: c.at,
                    body: c.body.clone(),
                }
            })
            .collect();
        out.push(Matter {
            id,
            kind: m.kind,
            author: PlayerName(m.author.clone()),
            opened: m.opened,
            comments,
        });
    }
    Ok(out)
}

impl Scenario {
    /// Checks every expectation, each at its own moment (its `now`, else
    /// the file's, else `fallback`).
    pub fn check(&self, fallback: Timestamp) -> Vec<Checked> {
        self.expects
            .iter()
            .map(|e| {
                let now = e.now.or(self.now).unwrap_or(fallback);
                let game = super::run::Prepared::new(&self.snapshot, now);
                let (run, _) = super::run::decide_all(&game, now);
                Checked {
                    expect: e.clone(),
                    now,
                    got: run.get(e.id).map(|d| d.decision),
                }
            })
            .collect()
    }
}
