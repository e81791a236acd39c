//! Whether a pull request may stand as the matter it claims to be. Pure.
//!
//! `gitnomic check --pr N` gathers the facts at the edge (who opened it,
//! what it touches, the game on the base branch and at the head) and this
//! module judges them. The base branch's rules judge the pull request,
//! never its own: a proposal cannot loosen the rules that admit it.

use crate::engine::MatterKind;
use crate::engine::Params;
use crate::engine::limits::{ProposerRecord, in_downtime, may_propose};
use crate::game::Game;
use crate::gamestate::{GameState, Phase};
use crate::matter::Kind;
use crate::record::Outcome;
use crate::ruleset::diff::RuleChange;
use crate::time::Timestamp;

/// The files an action may change: values, never declarations or the roster.
pub const ACTION_FILES: &[&str] = &["state/variables.toml", "state/collections.toml"];

/// What an Ascension Address may change: the new dynasty's rules and
/// gamestate, and the terms in state/game.toml.
const ASCENSION_DIRS: &[&str] = &["rules/dynastic/", "state/", "content/pages/", "themes/"];

/// What votable matters (proposals, CfJs, DoVs) may change.
const MATTER_DIRS: &[&str] = &["rules/", "state/", "content/pages/", "themes/"];

/// The facts about a pull request.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// Its kind, from labels or title; `None` if it has none.
    pub kind: Option<Kind>,
    /// Its labels (only one may name a kind).
    pub labels: &'a [String],
    /// The author's forge login.
    pub author: &'a str,
    /// When it was opened.
    pub opened: Timestamp,
    /// Its description (an Ascension Address lists the rules it keeps).
    pub description: &'a str,
    /// The paths it changes.
    pub changed: &'a [String],
    /// The game on the base branch: its rules, state, parameters and
    /// records judge the pull request.
    pub base: &'a Game,
    /// The game at the pull request's head, for a pull request.
    pub head: Option<&'a Game>,
    /// The author's other proposals: pending, and opened that UTC day.
    pub record: ProposerRecord,
    /// Whether an earlier Declaration of Victory is pending.
    pub dov_pending: bool,
}

/// The judgement.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judgement {
    /// Why it cannot stand as it is, in words for players.
    pub problems: Vec<String>,
    /// Whether it is not a valid matter at all (over a limit, in hiatus, by
    /// a non-player), as opposed to fixable by a push.
    pub not_a_matter: bool,
}

/// Judges a pull request by the base branch's rules.
pub fn judge(facts: &Facts<'_>) -> Judgement {
    let mut v = Judgement::default();
    let Some(kind) = facts.kind else {
        v.problems.push("it is no matter: label it Proposal, CfJ, DoV or Action (or start its title with one of them and a colon)".into());
        return v;
    };
    let (Some(state), Some(params)) = (&facts.base.state, &facts.base.params) else {
        v.problems.push(
            "the game on the base branch cannot be read, so nothing can be judged by it".into(),
        );
        return v;
    };
    let terms = &state.terms;
    let named = Kind::named_by(facts.labels);
    if named.len() > 1 {
        let names: Vec<&str> = named.iter().map(|k| k.label()).collect();
        v.problems.push(format!(
            "it is labelled as {} kinds of matter ({}): remove all but one",
            names.len(),
            names.join(", ")
        ));
        v.not_a_matter = true;
    }
    match state.player_by_login(facts.author) {
        None => {
            v.problems.push(format!(
                "@{} is not a {} on the roster",
                facts.author, terms.player
            ));
            v.not_a_matter = true;
        }
        Some(p) if !p.is_active_at(facts.opened) => {
            let why = if p.is_idle_at(facts.opened) {
                "was idle"
            } else {
                "had not joined yet"
            };
            v.problems
                .push(format!("{} {why} when it was opened", p.name));
            v.not_a_matter = true;
        }
        Some(_) => {}
    }
    let in_hiatus = facts.dov_pending || state.dynasty.phase != Phase::Playing;
    if kind == Kind::Proposal {
        if let Err(refusal) = may_propose(params, facts.opened, in_hiatus, facts.record) {
            v.problems
                .push(format!("it cannot be a proposal: {refusal}"));
            v.not_a_matter = true;
        }
    }
    if kind == Kind::Dov {
        if let Some(why) = dov_refusal(facts.base, facts.author, facts.opened, state, params) {
            v.problems.push(format!("it cannot be a DoV: {why}"));
            v.not_a_matter = true;
        }
    }
    if let (Kind::Ascension, Some(head)) = (kind, facts.head) {
        match ascension_problems(facts.base, head, facts.author, facts.description) {
            Ok(problems) => v.problems.extend(problems),
            Err(why) => {
                v.problems
                    .push(format!("it cannot be an Ascension Address: {why}"));
                v.not_a_matter = true;
            }
        }
    }
    for path in facts.changed {
        if let Some(problem) = touches(kind, path) {
            v.problems.push(problem);
        }
    }
    for d in facts.head.into_iter().flat_map(|head| &head.problems) {
        v.problems.push(format!("its files have a problem: {d}"));
    }
    v
}

/// Why an Ascension Address cannot stand, if it cannot: `Err` when it is no
/// Ascension Address at all (not by the new emperor, or none is awaited),
/// `Ok(problems)` for what a push can fix. It may change only the terms in
/// state/game.toml, and every dynastic rule it does not list by id in its
/// description must be deleted by its own diff, so the repeal is visible.
pub fn ascension_problems(
    base: &Game,
    head: &Game,
    author: &str,
    description: &str,
) -> Result<Vec<String>, String> {
    let (Some(state), Some(new)) = (&base.state, &head.state) else {
        return Ok(vec!["its gamestate cannot be read".into()]);
    };
    let emperor = state.dynasty.emperor.as_deref();
    let by_emperor = state
        .player_by_login(author)
        .is_some_and(|p| Some(p.name.as_str()) == emperor);
    if state.dynasty.phase != Phase::AwaitingAscension {
        return Err("no Ascension Address is awaited".into());
    }
    if !by_emperor {
        return Err(format!(
            "only the new {} may make the Ascension Address",
            state.terms.emperor
        ));
    }
    let mut problems = Vec::new();
    if new.dynasty != state.dynasty || new.name != state.name {
        problems.push("it may change only the [terms] of state/game.toml".into());
    }
    let listed: std::collections::BTreeSet<&str> = description
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let dynastic = |ruleset: &crate::ruleset::Ruleset, id: &str| {
        ruleset
            .get(id)
            .is_some_and(|r| r.section == crate::ruleset::SectionKind::Dynastic)
    };
    for id in &listed {
        // Only words shaped like rule ids (with a hyphen, or naming a rule)
        // are read as a list of kept rules; prose around them is not.
        let id_shaped = id.contains('-') || description.contains(&format!("`{id}`"));
        let looks_like_id = id_shaped
            && id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if dynastic(&base.ruleset, id) && !dynastic(&head.ruleset, id) {
            problems.push(format!(
                "it lists `{id}` to keep, but its diff deletes it: keep the file or drop it from the list"
            ));
        } else if looks_like_id && !dynastic(&base.ruleset, id) && !dynastic(&head.ruleset, id) {
            problems.push(format!(
                "it lists `{id}` to keep, but there is no dynastic rule with that id"
            ));
        }
    }
    for rule in base
        .ruleset
        .rules
        .iter()
        .filter(|r| r.section == crate::ruleset::SectionKind::Dynastic)
    {
        if !listed.contains(rule.id.as_str()) && head.ruleset.get(rule.id.as_str()).is_some() {
            problems.push(format!(
                "it keeps the dynastic rule `{}` ({} {}) without listing it: list its id in the description to keep it, or delete it",
                rule.id, rule.number, rule.title
            ));
        }
    }
    Ok(problems)
}

/// Whether a Declaration of Victory by `author` (a forge login) opened at
/// `opened` puts the game in a hiatus: only a valid one does, by an active
/// player who may declare then. The resolver closes any other as no valid
/// DoV, so it never stopped proposals (MECHANICS.md §2.5 step 0).
pub fn opens_hiatus(base: &Game, author: &str, opened: Timestamp) -> bool {
    let (Some(state), Some(params)) = (&base.state, &base.params) else {
        return false;
    };
    state
        .player_by_login(author)
        .is_some_and(|p| p.is_active_at(opened))
        && dov_refusal(base, author, opened, state, params).is_none()
}

/// Why `author` may not declare victory at `opened`, if they may not: the
/// emperor may not; nobody may while an Ascension Address is awaited or in
/// the seasonal downtime; and an author whose DoV failed with more AGAINST
/// votes than quorum waits `dov_cooldown_hours` from that failure.
fn dov_refusal(
    base: &Game,
    author: &str,
    opened: Timestamp,
    state: &GameState,
    params: &Params,
) -> Option<String> {
    let player = state.player_by_login(author)?;
    if state.dynasty.emperor.as_deref() == Some(player.name.as_str()) {
        return Some(format!(
            "the {} may not declare victory",
            state.terms.emperor
        ));
    }
    if params.dov_banned_before_ascension && state.dynasty.phase == Phase::AwaitingAscension {
        return Some(format!(
            "the new {}'s Ascension Address is awaited",
            state.terms.emperor
        ));
    }
    if in_downtime(params, opened) {
        return Some("it is the seasonal downtime".into());
    }
    let cooldown = crate::time::Span::hours(params.dov_cooldown_hours);
    base.records
        .iter()
        .filter(|r| r.kind == MatterKind::Dov && r.outcome == Outcome::Failed && r.author == player.name)
        .filter(|r| r.tally.is_some_and(|t| t.against > t.quorum))
        .map(|r| r.resolved.plus(cooldown))
        .filter(|until| opened <= *until)
        .max()
        .map(|until| format!("{}'s last DoV failed with more AGAINST votes than quorum; they may declare again after {until}", player.name))
}

/// Why a matter of `kind` may not change `path`, if it may not.
pub fn touches(kind: Kind, path: &str) -> Option<String> {
    if path.starts_with(".github/") {
        return Some(format!(
            "it changes {path}: the workflows can only be changed by an admin, because the bot's token may not merge them"
        ));
    }
    let allowed = match kind {
        Kind::Action => ACTION_FILES.contains(&path),
        Kind::Ascension => {
            path != "state/roster.toml" && ASCENSION_DIRS.iter().any(|dir| path.starts_with(dir))
        }
        _ => MATTER_DIRS.iter().any(|dir| path.starts_with(dir)),
    };
    (!allowed).then(|| match kind {
        Kind::Action => format!(
            "it changes {path}, but an action may change only {}",
            ACTION_FILES.join(" and ")
        ),
        Kind::Ascension => format!(
            "it changes {path}, but an Ascension Address may change only {} (not the roster)",
            ASCENSION_DIRS.join(", ")
        ),
        _ => format!(
            "it changes {path}, but a {kind} may change only {}",
            MATTER_DIRS.join(", ")
        ),
    })
}

/// A one-line account of what the rules changes are, for reports.
pub fn describe_changes(changes: &[RuleChange]) -> String {
    if changes.is_empty() {
        "no rule changes".into()
    } else {
        changes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::source::SourceFile;

    fn game() -> Game {
        let files = [
            SourceFile::new(
                "state/game.toml",
                "[game]\nname = \"G\"\n[terms]\nplayer = \"Tinkerer\"\nplayers = \"Tinkerers\"\nemperor = \"E\"\nemperors = \"Es\"\n[dynasty]\nnumber = 1\n",
            ),
            SourceFile::new(
                "state/roster.toml",
                "[[players]]\nname = \"Ada\"\nlogin = \"ada\"\n\n[[players]]\nname = \"Bo\"\nlogin = \"bo\"\nidle = [{ from = 2030-01-01T00:00:00Z }]\n",
            ),
        ];
        let game = Game::check(&files);
        assert!(game.problems.is_empty(), "{}", game.problems);
        game
    }

    fn judged(
        kind: Option<Kind>,
        author: &str,
        changed: &[&str],
        record: ProposerRecord,
        dov_pending: bool,
    ) -> Judgement {
        let base = game();
        let changed: Vec<String> = changed.iter().map(|s| (*s).to_string()).collect();
        judge(&Facts {
            kind,
            labels: &[],
            author,
            opened: Timestamp::parse("2030-01-02T10:00:00Z").unwrap(),
            description: "",
            changed: &changed,
            base: &base,
            head: None,
            record,
            dov_pending,
        })
    }

    #[test]
    fn a_proposal_by_an_active_player_touching_rules_and_state_stands() {
        let v = judged(
            Some(Kind::Proposal),
            "ada",
            &["rules/core/x.md", "state/variables.toml"],
            ProposerRecord::default(),
            false,
        );
        assert_eq!(v, Judgement::default());
    }

    #[test]
    fn non_players_idle_players_limits_and_hiatus_make_it_no_matter() {
        let none = ProposerRecord::default();
        let v = judged(Some(Kind::Proposal), "mallory", &[], none, false);
        assert!(
            v.not_a_matter && v.problems[0].contains("@mallory is not a Tinkerer"),
            "{v:?}"
        );
        assert!(
            judged(Some(Kind::Proposal), "bo", &[], none, false).problems[0]
                .contains("Bo was idle")
        );
        let busy = ProposerRecord {
            pending: 2,
            opened_today: 0,
        };
        assert!(
            judged(Some(Kind::Proposal), "ada", &[], busy, false).problems[0].contains("2 pending")
        );
        let busy_day = ProposerRecord {
            pending: 0,
            opened_today: 3,
        };
        assert!(
            judged(Some(Kind::Proposal), "ada", &[], busy_day, false).problems[0]
                .contains("this UTC day")
        );
        assert!(
            judged(Some(Kind::Proposal), "ada", &[], none, true).problems[0].contains("hiatus")
        );
        assert!(
            judged(Some(Kind::Cfj), "ada", &[], none, true)
                .problems
                .is_empty(),
            "CfJs are allowed in hiatus"
        );
    }

    #[test]
    fn each_kind_touches_only_its_files() {
        let none = ProposerRecord::default();
        let v = judged(
            Some(Kind::Proposal),
            "ada",
            &[
                "src/main.rs",
                ".github/workflows/resolve.yml",
                "content/matters/00001.md",
            ],
            none,
            false,
        );
        assert_eq!(v.problems.len(), 3, "{v:?}");
        assert!(!v.not_a_matter, "a push can fix it");
        let v = judged(
            Some(Kind::Action),
            "ada",
            &["state/variables.toml", "state/roster.toml"],
            none,
            false,
        );
        assert_eq!(
            v.problems,
            [
                "it changes state/roster.toml, but an action may change only state/variables.toml and state/collections.toml"
            ]
        );
        let v = judged(None, "ada", &[], none, false);
        assert!(v.problems[0].contains("it is no matter"));
    }

    #[test]
    fn the_emperor_and_a_cooled_down_author_may_not_declare_victory() {
        let mut base = game();
        let state = base.state.as_mut().unwrap();
        state.dynasty.emperor = Some("Ada".into());
        state.players[1].idle.clear();
        let failed = |against: u32, resolved: &str| {
            let text = format!(
                "+++\nnumber = 3\nkind = \"dov\"\ntitle = \"T\"\nauthor = \"Bo\"\ndynasty = 1\nopened = 2030-01-01T00:00:00Z\nresolved = {resolved}\noutcome = \"failed\"\nresolved_by = \"gitnomic resolve\"\n[tally]\nfor = 1\nagainst = {against}\nactive = 5\nquorum = 3\n+++\n"
            );
            Record::parse(&SourceFile::new("content/matters/00003.md", text)).unwrap()
        };
        let judge_dov = |author: &str, opened: &str, records: &[Record]| {
            let mut base = base.clone();
            base.records = records.to_vec();
            judge(&Facts {
                kind: Some(Kind::Dov),
                labels: &[],
                author,
                opened: Timestamp::parse(opened).unwrap(),
                description: "",
                changed: &[],
                base: &base,
                head: None,
                record: ProposerRecord::default(),
                dov_pending: false,
            })
        };
        let v = judge_dov("ada", "2030-01-10T00:00:00Z", &[]);
        assert!(
            v.not_a_matter && v.problems[0].contains("the E may not declare victory"),
            "{v:?}"
        );
        let heavy = [failed(4, "2030-01-02T00:00:00Z")];
        let v = judge_dov("bo", "2030-01-06T23:59:59Z", &heavy);
        assert!(
            v.not_a_matter && v.problems[0].contains("after 2030-01-07T00:00:00Z"),
            "{v:?}"
        );
        assert!(
            judge_dov("bo", "2030-01-07T00:00:01Z", &heavy)
                .problems
                .is_empty(),
            "the cooldown ends"
        );
        let light = [failed(3, "2030-01-02T00:00:00Z")];
        assert!(
            judge_dov("bo", "2030-01-03T00:00:00Z", &light)
                .problems
                .is_empty(),
            "AGAINST must exceed quorum"
        );
    }

    #[test]
    fn only_a_valid_dov_opens_a_hiatus() {
        let mut base = game();
        let params = base.params.as_mut().unwrap();
        params.seasonal_downtime = true;
        params.downtime_start = crate::engine::params::MonthDay { month: 12, day: 24 };
        params.downtime_end = crate::engine::params::MonthDay { month: 12, day: 27 };
        let at = |t: &str| Timestamp::parse(t).unwrap();
        let day = "2030-01-02T10:00:00Z";
        let with = |emperor: Option<&str>, joined: Option<&str>| {
            let mut b = base.clone();
            let state = b.state.as_mut().unwrap();
            state.dynasty.emperor = emperor.map(Into::into);
            state.players[0].joined = joined.map(at);
            b
        };
        let plain = with(None, None);
        assert!(opens_hiatus(&plain, "ada", at(day)));
        for (game, author, opened, whose) in [
            (with(Some("Ada"), None), "ada", day, "the emperor's"),
            (plain.clone(), "bo", day, "an idle player's"),
            (plain.clone(), "nobody", day, "a non-player's"),
            (
                plain.clone(),
                "ada",
                "2030-12-25T10:00:00Z",
                "one in the downtime",
            ),
            (
                with(None, Some("2030-01-03T00:00:00Z")),
                "ada",
                day,
                "one before its author joined",
            ),
        ] {
            assert!(!opens_hiatus(&game, author, at(opened)), "{whose}");
        }
        let judged = judge(&Facts {
            kind: Some(Kind::Dov),
            labels: &[],
            author: "ada",
            opened: at("2030-12-25T10:00:00Z"),
            description: "",
            changed: &[],
            base: &plain,
            head: None,
            record: ProposerRecord::default(),
            dov_pending: false,
        });
        assert!(
            judged.not_a_matter && judged.problems[0].contains("seasonal downtime"),
            "{judged:?}"
        );
        let early = with(None, Some("2030-01-03T00:00:00Z"));
        let judged = judge(&Facts {
            kind: Some(Kind::Proposal),
            labels: &[],
            author: "ada",
            opened: at(day),
            description: "",
            changed: &[],
            base: &early,
            head: None,
            record: ProposerRecord::default(),
            dov_pending: false,
        });
        assert!(
            judged.not_a_matter
                && judged
                    .problems
                    .iter()
                    .any(|p| p == "Ada had not joined yet when it was opened"),
            "{judged:?}"
        );
    }
}
