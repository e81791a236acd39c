//! `gitnomic resolve`: collect the open matters, tally them with the
//! engine at *now*, and carry out what it decides, in order.
//!
//! Every irreversible step is announced first: the decision goes into the
//! matter's status journal before the merge or close, and the record is
//! committed after it. A run that stops anywhere in between is finished by
//! the next one (see [`finish_interrupted`]), and a run right after a
//! complete one changes nothing.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::process::ExitCode;
use std::rc::Rc;

use anyhow::{Context as _, bail};

use super::{EXIT_OK, GlobalArgs, open_forge};
use crate::engine::{self, Decision, MatterDecision, MatterKind};
use crate::forge::collect::{self, player_name};
use crate::forge::{Forge, ForgeError, HeadSha, Kind, MatterInfo};
use crate::game::Game;
use crate::git::Repo;
use crate::journal::{Journal, Resolution, Verdict};
use crate::load::{self, GAME_DIRS, Origin};
use crate::matter::Collected;
use crate::record::{Record, Resolved};
use crate::report::{Progress, status_text};
use crate::ruleset::diff::{RuleChange, diff};
use crate::time::Timestamp;

/// The label a matter carries from the moment the resolver acts on it
/// until its record is written.
const RESOLVING: &str = "resolving";

/// Arguments of `gitnomic resolve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Say what would be done, and do nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// Everything one run works with.
struct Ctx<'a> {
    forge: &'a dyn Forge,
    repo: Repo,
    game: Game,
    now: Timestamp,
    dry_run: bool,
    /// The game at each pull request head, read and checked once per run.
    heads: RefCell<BTreeMap<String, Rc<Result<Game, String>>>>,
}

impl Ctx<'_> {
    /// The game at `head`, or why it cannot be read.
    fn head_game(&self, head: &HeadSha) -> Rc<Result<Game, String>> {
        let read = || {
            let files =
                load::read_revision(&self.repo, &head.0, GAME_DIRS).map_err(|e| e.to_string())?;
            Ok(Game::check(&files))
        };
        self.heads
            .borrow_mut()
            .entry(head.0.clone())
            .or_insert_with(|| Rc::new(read()))
            .clone()
    }
}

/// Runs `gitnomic resolve`.
pub(crate) fn run(args: &Args, global: &GlobalArgs) -> anyhow::Result<ExitCode> {
    let now = global.now();
    let forge = open_forge(global, now)?;
    let origin = Origin::Revision {
        repo: global.root.clone(),
        rev: global.base.clone(),
    };
    let files = load::read(&origin, GAME_DIRS).context("cannot read the game")?;
    let game = Game::check(&files);
    if !game.problems.is_empty() {
        bail!(
            "the game on {} has problems; fix them before resolving:\n{}",
            global.base,
            game.problems
        );
    }
    let repo = Repo::open(&global.root)?;
    let ctx = Ctx {
        forge: forge.as_ref(),
        repo,
        game,
        now,
        dry_run: args.dry_run,
        heads: RefCell::default(),
    };
    finish_interrupted(&ctx)?;
    let (collection, run) = super::live::tallies(ctx.forge, &ctx.game, &ctx.repo, now)?;
    println!("At {now}: {} active, quorum {}.", run.active, run.quorum);
    let mut proposals_blocked = false;
    for decision in &run.decisions {
        let Some(matter) = collection.matters.get(&decision.id) else {
            continue;
        };
        let blocked = proposals_blocked && decision.kind == MatterKind::Proposal;
        let outcome = if blocked || decision.decision == Decision::Wait {
            show(&ctx, decision, matter, &Progress::Pending)?;
            "pending".to_string()
        } else {
            match carry_out(&ctx, &run, decision, matter)? {
                Ok(done) => done,
                Err(why) => {
                    proposals_blocked |= decision.kind == MatterKind::Proposal;
                    format!("not done: {why}")
                }
            }
        };
        println!(
            "{} #{}: {} — {outcome}",
            matter.kind,
            decision.id,
            decision.decision.as_str()
        );
    }
    for pull in &collection.actions {
        let kind = pull.kind().unwrap_or(Kind::Action);
        println!(
            "{kind} #{}: {}",
            pull.number,
            merge_unvoted(&ctx, pull, kind)?
        );
    }
    Ok(ExitCode::from(EXIT_OK))
}

/// Merges, without a vote, a pull request that checks: an action (an
/// active player's change to variables or collections that keeps the state
/// valid) or the new emperor's Ascension Address, which then begins the
/// next dynasty.
fn merge_unvoted(ctx: &Ctx<'_>, action: &MatterInfo, kind: Kind) -> anyhow::Result<String> {
    let Some(head) = &action.head else {
        return Ok(format!("not merged: an {kind} must be a pull request"));
    };
    let state = ctx.game.state.as_ref().context("no gamestate")?;
    let mut problems = Vec::new();
    if kind == Kind::Ascension {
        match ctx.head_game(head).as_ref() {
            Ok(head_game) => {
                match crate::admission::ascension_problems(
                    &ctx.game,
                    head_game,
                    &action.author.0,
                    &action.body,
                ) {
                    Ok(found) => problems.extend(found),
                    Err(why) => problems.push(why),
                }
            }
            Err(why) => problems.push(format!("its head cannot be read: {why}")),
        }
    } else {
        match state.player_by_login(&action.author.0) {
            Some(p) if !p.is_idle_at(ctx.now) => {}
            _ => problems.push(format!(
                "@{} is not an active {}",
                action.author, state.terms.player
            )),
        }
    }
    let probe = Collected {
        info: action.clone(),
        kind,
        journal: Journal::default(),
        status_body: None,
        comments: BTreeMap::new(),
        voided: Vec::new(),
    };
    problems.extend(head_problems(ctx, &probe, head));
    let (summary, text) = if !problems.is_empty() {
        ("not merged".to_string(), problems.join("\n"))
    } else if ctx.dry_run {
        return Ok("would merge".into());
    } else {
        let message = format!("{kind} #{}: {}", action.number, action.title);
        match ctx.forge.merge(action.number, head, &message) {
            Ok(_) => {
                ctx.forge.set_labels(action.number, &["merged"], &[])?;
                let why = if kind == Kind::Ascension {
                    begin_dynasty(ctx)?
                } else {
                    "It checked, so it was merged without a vote. Anyone may revert it if it broke the rules.".to_string()
                };
                ("merged".to_string(), why)
            }
            Err(e) => ("not merged".to_string(), e.to_string()),
        }
    };
    let body = Journal::default().render(&format!(
        "### {kind} #{}: {summary}\n\n{text}",
        action.number
    ));
    let status = ctx.forge.status_comment(action.number)?.map(|c| c.body);
    if !ctx.dry_run && status.as_deref() != Some(body.as_str()) {
        ctx.forge.put_status(action.number, &body)?;
    }
    Ok(if problems.is_empty() {
        summary
    } else {
        format!("{summary}: {}", problems.join("; "))
    })
}

/// Posts the status comment (with the journal) unless it is unchanged.
fn show(
    ctx: &Ctx<'_>,
    decision: &MatterDecision,
    matter: &Collected,
    progress: &Progress,
) -> anyhow::Result<()> {
    let changes = rule_changes(ctx, matter);
    let body = matter
        .journal
        .render(&status_text(decision, matter, &changes, progress));
    if ctx.dry_run || matter.status_body.as_deref() == Some(body.as_str()) {
        return Ok(());
    }
    ctx.forge
        .put_status(matter.info.number, &body)
        .with_context(|| format!("updating the status of #{}", matter.info.number))
}

/// Carries out an enact or fail decision. `Ok(Err(why))` when the forge
/// refused in a way the next run can retry (a stale head, a conflict).
fn carry_out(
    ctx: &Ctx<'_>,
    run: &engine::Run,
    decision: &MatterDecision,
    matter: &Collected,
) -> anyhow::Result<Result<String, String>> {
    let number = decision.id;
    let verdict = if decision.decision == Decision::Enact {
        Verdict::Enact
    } else {
        Verdict::Fail
    };
    if ctx.dry_run {
        return Ok(Ok(format!("would {}", decision.decision.as_str())));
    }
    let mut matter = matter.clone();
    matter.journal.resolution = Some(Resolution {
        verdict,
        at: ctx.now,
        head: matter.info.head.clone(),
    });
    show(
        ctx,
        decision,
        &matter,
        &Progress::Carrying(decision.decision),
    )?;
    ctx.forge.set_labels(number, &[RESOLVING], &[])?;
    let blocked = |mut matter: Collected, why: String| -> anyhow::Result<Result<String, String>> {
        matter.journal.resolution = None;
        show(ctx, decision, &matter, &Progress::Blocked(why.clone()))?;
        ctx.forge.set_labels(number, &[], &[RESOLVING])?;
        Ok(Err(why))
    };
    let merged = match (verdict, &matter.info.head) {
        (Verdict::Enact, Some(head)) => {
            if let Some(why) = head_problems(ctx, &matter, head) {
                return blocked(matter, why);
            }
            let message = format!("Enact {} #{number}: {}", matter.kind, matter.info.title);
            match ctx.forge.merge(number, head, &message) {
                Ok(commit) => Some(commit),
                Err(e @ (ForgeError::StaleHead { .. } | ForgeError::NotMergeable { .. })) => {
                    return blocked(matter, e.to_string());
                }
                Err(e) => return Err(e).with_context(|| format!("merging #{number}")),
            }
        }
        _ => {
            ctx.forge
                .close(number)
                .with_context(|| format!("closing #{number}"))?;
            None
        }
    };
    if verdict == Verdict::Enact && matter.kind == Kind::Dov {
        crown(ctx, &matter)?;
    }
    record(ctx, run, decision, &matter, merged)?;
    Ok(Ok(if verdict == Verdict::Enact {
        "enacted".into()
    } else {
        "failed".into()
    }))
}

/// Why the head of a pull request may not be merged, if it may not: its
/// files must still check and touch only what its kind may touch.
fn head_problems(ctx: &Ctx<'_>, matter: &Collected, head: &HeadSha) -> Option<String> {
    let game = ctx.head_game(head);
    let game = match game.as_ref() {
        Ok(game) => game,
        Err(why) => return Some(format!("its head cannot be read: {why}")),
    };
    if let Some(problem) = game.problems.iter().next() {
        return Some(format!("its files have problems, e.g. {problem}"));
    }
    let changed = ctx.forge.changed_files(matter.info.number).ok()?;
    changed
        .iter()
        .find_map(|path| crate::admission::touches(matter.kind, path))
}

/// After an Ascension Address is merged: the next dynasty begins, and the
/// hiatus ends.
fn begin_dynasty(ctx: &Ctx<'_>) -> anyhow::Result<String> {
    let state = ctx.game.state.as_ref().context("no gamestate")?;
    let number = i64::from(state.dynasty.number) + 1;
    let started: toml_edit::Datetime = ctx.now.to_string().parse()?;
    let emperor = state.dynasty.emperor.clone().unwrap_or_default();
    let edits = [
        ("number", number.into()),
        ("phase", "playing".into()),
        ("started", started.into()),
    ];
    edit_dynasty(
        ctx,
        &edits,
        &format!("Dynasty {number} begins, led by {emperor}"),
    )?;
    Ok(format!(
        "It checked, so it was merged without a vote. Dynasty {number} begins; the hiatus is over."
    ))
}

/// An enacted DoV makes its author the emperor and awaits their
/// Ascension Address.
fn crown(ctx: &Ctx<'_>, matter: &Collected) -> anyhow::Result<()> {
    let state = ctx.game.state.as_ref().context("no gamestate")?;
    let author = player_name(state, &matter.info.author).0;
    let message = format!(
        "DoV #{} enacted: {author} is the new {}",
        matter.info.number, state.terms.emperor
    );
    let edits = [
        ("emperor", author.as_str().into()),
        ("phase", "awaiting-ascension".into()),
    ];
    edit_dynasty(ctx, &edits, &message)
}

/// Sets keys of the `[dynasty]` table of state/game.toml in one commit.
/// The file is read as it is now on the default branch, not as the run
/// found it: a matter merged earlier in the run (a CfJ, or the Ascension
/// Address itself) may have changed it.
fn edit_dynasty(
    ctx: &Ctx<'_>,
    edits: &[(&str, toml_edit::Value)],
    message: &str,
) -> anyhow::Result<()> {
    let path = "state/game.toml";
    let text = ctx
        .forge
        .read_file(path)?
        .context("state/game.toml is missing")?;
    let mut doc = crate::gamestate::edit::StateDoc::parse(path, &text)?;
    for (key, value) in edits {
        doc.set(&["dynasty"], key, value.clone())?;
    }
    ctx.forge.commit_file(path, &doc.render(), message)?;
    Ok(())
}

/// Commits the record, labels the matter and posts the final status.
fn record(
    ctx: &Ctx<'_>,
    run: &engine::Run,
    decision: &MatterDecision,
    matter: &Collected,
    merged: Option<HeadSha>,
) -> anyhow::Result<()> {
    let state = ctx.game.state.as_ref().context("no gamestate")?;
    let resolved = Resolved {
        matter,
        author: player_name(state, &matter.info.author).0,
        dynasty: state.dynasty.number,
        at: matter.journal.resolution.as_ref().map_or(ctx.now, |r| r.at),
        active: run.active,
        quorum: run.quorum,
        resolved_by: "gitnomic resolve".into(),
        merge_commit: merged.map(|h| h.0),
    };
    let record = Record::from_decision(decision, &resolved);
    let enacted = decision.decision == Decision::Enact;
    let message = format!(
        "Record {} #{}: {}",
        matter.kind,
        decision.id,
        if enacted { "enacted" } else { "failed" }
    );
    ctx.forge
        .commit_file(&Record::path_for(decision.id), &record.render(), &message)?;
    let (add, remove) = if enacted {
        ("enacted", "failed")
    } else {
        ("failed", "enacted")
    };
    ctx.forge
        .set_labels(decision.id, &[add], &[remove, RESOLVING])?;
    show(
        ctx,
        decision,
        matter,
        if enacted {
            &Progress::Enacted
        } else {
            &Progress::Failed
        },
    )
}

/// Finishes matters a previous run decided and closed but did not record.
fn finish_interrupted(ctx: &Ctx<'_>) -> anyhow::Result<()> {
    let Some(state) = &ctx.game.state else {
        return Ok(());
    };
    let Some(params) = &ctx.game.params else {
        return Ok(());
    };
    for info in ctx.forge.closed_matters(Some(RESOLVING), None)? {
        if ctx.game.records.iter().any(|r| r.number == info.number) {
            continue;
        }
        let (Some(status), comments) = collect::thread(ctx.forge, info.number)? else {
            continue;
        };
        let journal = Journal::read(&status.body);
        let (Some(resolution), Some(kind)) = (journal.resolution.clone(), info.kind()) else {
            continue;
        };
        let Some(engine_kind) = collect::engine_kind(kind) else {
            continue; // actions leave no records
        };
        // Re-tally this matter alone at the moment it was decided.
        let matter = collect::engine_matter(state, &info, engine_kind, &comments);
        let snapshot = collect::snapshot(state, params, vec![matter]);
        let run = engine::resolve(&snapshot, resolution.at);
        let Some(mut decision) = run.get(info.number).cloned() else {
            continue;
        };
        decision.decision = if resolution.verdict == Verdict::Enact {
            Decision::Enact
        } else {
            Decision::Fail
        };
        let mut info = info;
        let merged = info.merge_commit.take();
        info.head.clone_from(&resolution.head);
        let collected = Collected {
            comments: comments.into_iter().map(|c| (c.id, c)).collect(),
            info,
            kind,
            journal,
            status_body: Some(status.body),
            voided: Vec::new(),
        };
        println!(
            "{kind} #{}: finishing what an earlier run started",
            collected.info.number
        );
        if !ctx.dry_run {
            record(ctx, &run, &decision, &collected, merged)?;
        }
    }
    Ok(())
}

/// The rule-level changes a pull request makes, when both trees are at hand.
fn rule_changes(ctx: &Ctx<'_>, matter: &Collected) -> Vec<RuleChange> {
    let Some(head) = &matter.info.head else {
        return Vec::new();
    };
    match ctx.head_game(head).as_ref() {
        Ok(head_game) => diff(&ctx.game.ruleset, &head_game.ruleset),
        Err(_) => Vec::new(),
    }
}
