//! What needs no vote: an action (an active player's change to variables
//! or collections) or the new emperor's Ascension Address is merged when it
//! checks against the game as it will be; the Address then begins the next
//! dynasty. They follow the same announce-then-act protocol as decided
//! matters, so a run killed half-way is finished by the next.

use super::effect::{DynastyValue, Effect};
use super::planner::{Planner, no_state, repo};
use super::prospect::Attempt;
use super::{Fate, PlanError, Ruling};
use crate::game::Game;
use crate::matter::collected::Collected;
use crate::matter::journal::{Journal, Resolution};
use crate::matter::labels::{MERGED, RESOLVING};
use crate::matter::{HeadSha, Kind, MatterInfo, MatterNumber};
use crate::record::Outcome;
use crate::time::Timestamp;

/// The next dynasty's edits, and its number.
type Begin = (Vec<(&'static str, DynastyValue)>, i64);

impl Planner<'_> {
    /// Merges an action or Ascension Address that checks. Returns `false`
    /// for one that does not: what it lacks is said once the run has done
    /// everything else (see [`Self::not_merged`]), so its status describes
    /// the game as the run leaves it.
    pub(super) fn unvoted(&mut self, m: &Collected) -> Result<bool, PlanError> {
        let info = &m.info;
        let n = info.number;
        let Some(kind) = info.kind() else {
            return Ok(true);
        };
        if kind == Kind::Action && info.head.is_none() {
            self.comment_actions(m)?;
            return Ok(true);
        }
        let Some(head) = &info.head else {
            let why = format!("an {kind} must be a pull request");
            self.line(info, kind, Ruling::Merge, Fate::NotMerged(why));
            return Ok(true);
        };
        let mut problems = self.unvoted_problems(info, kind, head)?;
        let adopt = match self.attempt(info, kind)? {
            Some(Attempt::Clean(tree, game)) => Some((tree, *game)),
            Some(Attempt::NotAMatter(why) | Attempt::Refused(why)) => {
                problems.push(why);
                None
            }
            None => None,
        };
        let Some((tree, game)) = adopt.filter(|_| problems.is_empty()) else {
            return Ok(false);
        };
        let begin = (kind == Kind::Ascension).then(|| begin_after(&self.prospect.game, self.now));
        let resolution = Resolution {
            outcome: Outcome::Enacted,
            at: self.now,
            head: Some(head.clone()),
            reasons: Vec::new(),
            illegal: false,
        };
        // The journal as collected (the comments first seen, the heads),
        // so a run that finishes this one renders the same status.
        let mut journal = m.journal.clone();
        journal.resolution = Some(resolution);
        let text =
            format!("### {kind} #{n}: merging\n\nIt checks, so it is merged without a vote.");
        let body = self.render(n, &journal, &text);
        self.step(n, Effect::Status { body });
        self.step(
            n,
            Effect::Labels {
                add: vec![RESOLVING],
                remove: vec![],
            },
        );
        let message = match kind {
            Kind::Action => self.action_message(info, head)?,
            _ => format!("{kind} #{n}: {}", info.subject_title()),
        };
        self.step(
            n,
            Effect::Merge {
                head: head.clone(),
                message,
            },
        );
        self.prospect.adopt(tree, game);
        self.merged_steps(n, kind, &journal, begin)?;
        self.line(info, kind, Ruling::Merge, Fate::Merged);
        Ok(true)
    }

    /// Says why an action or Ascension Address is not merged, judged
    /// against the game as the run leaves it.
    pub(super) fn not_merged(&mut self, m: &Collected) -> Result<(), PlanError> {
        let info = &m.info;
        let n = info.number;
        let (Some(kind), Some(head)) = (info.kind(), &info.head) else {
            return Ok(());
        };
        let mut problems = self.unvoted_problems(info, kind, head)?;
        if let Some(Attempt::NotAMatter(why) | Attempt::Refused(why)) = self.attempt(info, kind)? {
            problems.push(why);
        }
        if problems.is_empty() {
            problems.push("it checks now that this run is done; the next run merges it".into());
        }
        let text = format!("### {kind} #{n}: not merged\n\n{}", problems.join("\n"));
        let body = self.render(n, &m.journal, &text);
        if m.status_body.as_deref() != Some(body.as_str()) {
            self.step(n, Effect::Status { body });
        }
        self.line(
            info,
            kind,
            Ruling::Merge,
            Fate::NotMerged(problems.join("; ")),
        );
        Ok(())
    }

    /// Finishes an action or Ascension Address an earlier run was merging.
    pub(super) fn finish_unvoted(
        &mut self,
        m: &Collected,
        resolution: &Resolution,
    ) -> Result<(), PlanError> {
        let n = m.info.number;
        let begin = match (&m.info.merge_commit, m.kind) {
            (Some(merge), Kind::Ascension) => {
                let tree = self.trial.before(merge).map_err(|why| repo(n, why))?;
                Some(begin_after(self.game_of(n, &tree)?, resolution.at))
            }
            (None, Kind::Ascension) => Some(begin_after(&self.prospect.game, resolution.at)),
            _ => None,
        };
        if let (None, Some(head)) = (&m.info.merge_commit, &m.info.head) {
            let message = match m.kind {
                Kind::Action => self.action_message(&m.info, head)?,
                kind => format!("{kind} #{n}: {}", m.info.subject_title()),
            };
            self.step(
                n,
                Effect::Merge {
                    head: head.clone(),
                    message,
                },
            );
        }
        self.merged_steps(n, m.kind, &m.journal, begin)?;
        self.line(&m.info, m.kind, Ruling::Merge, Fate::Finished);
        Ok(())
    }

    /// What follows the merge: the next dynasty (for an Address), the
    /// final status, the labels.
    fn merged_steps(
        &mut self,
        n: MatterNumber,
        kind: Kind,
        journal: &Journal,
        begin: Option<Begin>,
    ) -> Result<(), PlanError> {
        let why = match begin {
            Some((edits, number)) => {
                let message = format!("Dynasty {number} begins");
                self.step(n, Effect::Dynasty { edits: edits.clone(), message });
                self.edit_dynasty(n, &edits)?;
                self.crowned = None;
                format!("It checked, so it was merged without a vote. Dynasty {number} begins; the hiatus is over.")
            }
            None => "It checked, so it was merged without a vote. Anyone may revert it if it broke the rules.".into(),
        };
        let text = format!("### {kind} #{n}: merged\n\n{why}");
        let body = self.render(n, journal, &text);
        self.step(n, Effect::Status { body });
        // Last: taking `resolving` off says the matter is done.
        self.step(
            n,
            Effect::Labels {
                add: vec![MERGED],
                remove: vec![RESOLVING],
            },
        );
        Ok(())
    }

    /// Why an action or Address may not be merged, besides its files,
    /// judged against the game as it will be: an action's author must be
    /// an active player now (an action is taken when it is merged), outside
    /// the downtime, and may change only the values the schema's `by`
    /// lets them; an Address must list what it keeps.
    fn unvoted_problems(
        &mut self,
        info: &MatterInfo,
        kind: Kind,
        head: &HeadSha,
    ) -> Result<Vec<String>, PlanError> {
        let n = info.number;
        let tree = self.trial.tree_of(head).map_err(|why| repo(n, why))?;
        let head_game = self.game_of(n, &tree)?.clone();
        if kind == Kind::Ascension {
            return Ok(crate::matter::admission::ascension_problems(
                &self.prospect.game,
                &head_game,
                &info.body,
            ));
        }
        let state = self.prospect.game.state.clone().ok_or_else(no_state)?;
        let mut problems = match state.player_by_login(&info.author.0) {
            Some(p) if p.is_active_at(self.now) => Vec::new(),
            Some(p) if p.is_idle_at(self.now) => vec![format!("{} is idle", p.name)],
            Some(p) => vec![format!("{} has not joined yet", p.name)],
            None => vec![format!(
                "`{}` is not a {} on the roster",
                info.author, state.terms.player
            )],
        };
        let params = self.prospect.game.params.as_ref();
        if params.is_some_and(|p| crate::engine::limits::in_downtime(p, self.now)) {
            problems.push(
                "it is Seasonal Downtime, when no dynastic action may be taken; it is merged once the downtime ends"
                    .into(),
            );
        }
        let fork = self.fork_game(info, head)?;
        problems.extend(crate::matter::admission::action_problems(
            &state,
            &fork,
            &head_game,
            &info.author.0,
        ));
        Ok(problems)
    }

    /// The game where pull request `info` forked from the default branch.
    fn fork_game(&mut self, info: &MatterInfo, head: &HeadSha) -> Result<Game, PlanError> {
        let n = info.number;
        let fork = self.trial.fork_of(head).map_err(|why| repo(n, why))?;
        Ok(self.game_of(n, &fork)?.clone())
    }

    /// The merge commit's message for an action pull request: each value
    /// it changes, credited to its author, as the log reads them (see
    /// [`crate::record::changelog`]).
    fn action_message(&mut self, info: &MatterInfo, head: &HeadSha) -> Result<String, PlanError> {
        let n = info.number;
        let mut message = format!("{} #{n}: {}", Kind::Action, info.subject_title());
        let tree = self.trial.tree_of(head).map_err(|why| repo(n, why))?;
        let after = self.game_of(n, &tree)?.state.clone();
        let before = self.fork_game(info, head)?.state;
        if let (Some(before), Some(after)) = (before, after) {
            let lines: Vec<String> = crate::gamestate::variables::changes(&before, &after)
                .iter()
                .map(|set| format!("{} by @{}", set.describe(), info.author))
                .collect();
            if !lines.is_empty() {
                message.push_str("\n\n");
                message.push_str(&lines.join("\n"));
            }
        }
        Ok(message)
    }
}

/// The next dynasty after the one of `game`, beginning at `at`: its number,
/// the phase, when it started.
fn begin_after(game: &Game, at: Timestamp) -> Begin {
    let number = game
        .state
        .as_ref()
        .map_or(1, |s| i64::from(s.dynasty.number) + 1);
    let edits = vec![
        ("number", DynastyValue::Number(number)),
        ("phase", DynastyValue::Text("playing".into())),
        ("started", DynastyValue::Time(at)),
    ];
    (edits, number)
}
