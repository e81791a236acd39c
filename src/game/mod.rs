//! A whole game: the ruleset and the gamestate, checked against each other.
//! Pure: it takes the game's files, wherever they were read from.

pub mod bundle;
pub mod content;
pub mod timeline;
pub mod weblinks;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use crate::engine::{ParamError, Params};
use crate::error::{Diagnostic, Diagnostics};
use crate::game::content::{Page, parse_pages};
use crate::gamestate::{self, GameState};
use crate::record::{Record, parse_records};
use crate::ruleset::template::{RenderMemo, TextContext};
use crate::ruleset::{RuleFile, Ruleset, parse_rule_file};
use crate::source::SourceFile;

/// Whether `branch` is a branch name the workflows can name unquoted.
pub fn valid_branch(branch: &str) -> bool {
    !branch.is_empty()
        && branch
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
        && !branch.starts_with(['-', '/', '.'])
        && !branch.ends_with(['/', '.'])
        && !branch.ends_with(".lock")
        && !branch.contains("..")
        && !branch.contains("//")
}

/// The top-level directories that make up a game.
pub const GAME_DIRS: &[&str] = &["rules", "state", "content"];

/// Whether a path is a game file (Markdown or TOML); others (images…) are skipped.
pub fn is_game_file(path: &str) -> bool {
    path.ends_with(".md") || path.ends_with(".toml")
}

/// The result of reading and checking a game.
#[derive(Debug, Clone)]
pub struct Game {
    /// The ruleset as written (templates unrendered).
    pub source: Ruleset,
    /// The ruleset with its text rendered with the game's terms and
    /// parameters (the same as `source` when the gamestate is unreadable).
    pub ruleset: Ruleset,
    /// The gamestate, when its required files could be read.
    pub state: Option<GameState>,
    /// The engine's parameters from the rules' `[params]`, when they are valid.
    pub params: Option<Params>,
    /// The plain pages.
    pub pages: Vec<Page>,
    /// Records of resolved matters, by number.
    pub records: Vec<Record>,
    /// Every problem found, sorted by file and line.
    pub problems: Diagnostics,
}

/// What the checks of many states of one game share. A game's history has
/// hundreds of states, each checked whole, whose rules are mostly those of
/// the state before: each rule file is parsed, and each rule text with a
/// tag rendered, once.
#[derive(Debug, Default)]
pub struct CheckMemo {
    /// Rule texts rendered (see [`TextContext::remembering`]).
    texts: Arc<RenderMemo>,
    /// Rule files parsed, by path, then text.
    rule_files: Mutex<HashMap<String, HashMap<String, ParsedRule>>>,
}

/// A rule file parsed, with its problems.
type ParsedRule = (Option<RuleFile>, Diagnostics);

impl CheckMemo {
    /// [`parse_rule_file`] of `file`, or what it gave for the same path
    /// and text before.
    fn rule_file(&self, file: &SourceFile) -> ParsedRule {
        let kept = |m: &HashMap<String, HashMap<String, ParsedRule>>| {
            m.get(&file.path)?.get(&file.text).cloned()
        };
        if let Some(parsed) = self.rule_files.lock().ok().and_then(|m| kept(&m)) {
            return parsed;
        }
        let parsed = parse_rule_file(file);
        if let Ok(mut memo) = self.rule_files.lock() {
            let texts = memo.entry(file.path.clone()).or_default();
            texts.insert(file.text.clone(), parsed.clone());
        }
        parsed
    }
}

impl Game {
    /// What `check` says of a game without problems: how many rules,
    /// sections, parameters and players.
    pub fn summary(&self) -> String {
        let players = self.state.as_ref().map_or(0, |s| s.players.len());
        format!(
            "ok: {} rules in {} sections, {} parameters, {} players",
            self.ruleset.rules.len(),
            self.ruleset.sections.len(),
            self.ruleset.params.len(),
            players
        )
    }

    /// The words the game defines, lowercase: the words of its glossary's
    /// terms, its player and emperor terms, its variables, collections and
    /// parameters. Changing one is never a typo fix (see
    /// [`crate::ruleset::diff::changes_meaning`]).
    pub fn defined_words(&self) -> std::collections::BTreeSet<String> {
        let mut words: Vec<String> = Vec::new();
        let split = |text: &str| -> Vec<String> {
            text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect()
        };
        for rule in &self.source.rules {
            for term in &rule.terms {
                words.extend(split(&term.term));
            }
        }
        words.extend(self.source.params.keys().map(|k| k.to_lowercase()));
        if let Some(state) = &self.state {
            let t = &state.terms;
            for term in [&t.player, &t.players, &t.emperor, &t.emperors] {
                words.extend(split(term));
            }
            let schema = &state.schema;
            let names = schema
                .players
                .keys()
                .chain(schema.globals.keys())
                .chain(schema.collections.keys());
            words.extend(names.map(|k| k.to_lowercase()));
        }
        // The template names rule text uses for the terms.
        words.extend(["player", "players", "emperor", "emperors"].map(String::from));
        // A word and its singular: "springs" defines "spring".
        let singulars: Vec<String> = words
            .iter()
            .filter_map(|w| w.strip_suffix('s').filter(|one| !one.is_empty()))
            .map(str::to_string)
            .collect();
        words.into_iter().chain(singulars).collect()
    }

    /// Parses, validates and renders a game from its files.
    pub fn check(files: &[SourceFile]) -> Game {
        Game::check_with(files, Vec::new())
    }

    /// [`Game::check`], taking from `memo` the rule files and texts that
    /// checks before it parsed and rendered, and leaving there its own:
    /// for the many states of a game's history.
    pub fn check_remembering(files: &[SourceFile], memo: &CheckMemo) -> Game {
        Game::check_each(files, Vec::new(), Some(memo))
    }

    /// [`Game::check`] of `files` and of `parsed`, records already parsed
    /// from files that are not among `files` (a rebuild's unchanged ones).
    pub fn check_with(files: &[SourceFile], parsed: Vec<Record>) -> Game {
        Game::check_each(files, parsed, None)
    }

    /// [`Game::check_with`], with a memo of parsed rule files and rendered
    /// rule texts if given.
    fn check_each(files: &[SourceFile], parsed: Vec<Record>, memo: Option<&CheckMemo>) -> Game {
        // Tens of thousands of records are sorted (and any new ones
        // parsed) while the rules and the state are checked.
        let ((records, record_problems), mut game) = rayon::join(
            || parse_records(files, parsed),
            || Game::check_rest(files, memo),
        );
        game.problems.extend(record_problems);
        game.records = records;
        game.problems = relabel(game.problems, &game.source, &game.ruleset);
        game
    }

    /// Everything of [`Game::check_with`] but the records, and the
    /// problems not yet relabelled.
    fn check_rest(files: &[SourceFile], memo: Option<&CheckMemo>) -> Game {
        let (source, mut problems) = match memo {
            Some(memo) => Ruleset::parse_with(files, &|file| memo.rule_file(file)),
            None => Ruleset::parse(files),
        };
        let (state, found) = gamestate::parse(files, &|id| source.get(id).is_some());
        problems.extend(found);
        if let Some(problem) = state
            .as_ref()
            .and_then(|s| repo_problem(s.repo.as_deref()?, files))
        {
            problems.push(problem);
        }
        let ruleset = match &state {
            Some(state) => {
                let mut context = TextContext::new(&state.terms.as_map(), &source.params);
                if let Some(memo) = memo {
                    context = context.remembering(Arc::clone(&memo.texts));
                }
                let (rendered, found) = source.render(&context);
                problems.extend(found);
                rendered
            }
            None => source.clone(),
        };
        let params = Params::from_table(&source.param_table())
            .map_err(|errors| {
                for e in errors {
                    problems.push(param_problem(&source, &e));
                }
            })
            .ok();
        let (pages, found) = parse_pages(files);
        problems.extend(found);
        Game {
            source,
            ruleset,
            state,
            params,
            pages,
            records: Vec::new(),
            problems,
        }
    }
}

/// The problem of a `[game] repo` setting the site cannot link to (not
/// `OWNER/NAME` nor an http(s) address of a repository), found by `check`
/// as by the build, which drops it.
fn repo_problem(repo: &str, files: &[SourceFile]) -> Option<Diagnostic> {
    if weblinks::ForgeWeb::from_setting(repo, "main").is_some() {
        return None;
    }
    let path = "state/game.toml";
    let line = files
        .iter()
        .find(|f| f.path == path)
        .and_then(|f| {
            f.text
                .lines()
                .position(|l| l.trim_start().starts_with("repo"))
        })
        .map_or(0, |i| i + 1);
    Some(Diagnostic::new(
        path,
        line,
        "[game] repo is neither OWNER/NAME nor an http(s) address of a repository: the site cannot link to the game's forge",
    ))
}

/// A parameter problem, located at the parameter when it is declared.
fn param_problem(ruleset: &Ruleset, error: &ParamError) -> Diagnostic {
    match ruleset.params.get(&error.key) {
        Some(param) => {
            let d = Diagnostic::new(&param.path, param.line, error.to_string());
            match ruleset.get(param.rule.as_str()) {
                Some(rule) => d.in_rule(rule.label()),
                None => d,
            }
        }
        None => Diagnostic::new("rules/", 0, error.to_string()),
    }
}

/// Names rules in problems by their rendered titles (`1.2 Tinkerers`
/// rather than the template `1.2 {{ players }}`), sorted by file and line.
fn relabel(problems: Diagnostics, source: &Ruleset, rendered: &Ruleset) -> Diagnostics {
    let labels: BTreeMap<String, String> = source
        .rules
        .iter()
        .zip(&rendered.rules)
        .map(|(raw, done)| (raw.label(), done.label()))
        .collect();
    let mut out = Diagnostics::new();
    for mut d in problems {
        if let Some(label) = d.rule.as_ref().and_then(|l| labels.get(l)) {
            d.rule = Some(label.clone());
        }
        out.push(d);
    }
    out.sort();
    out
}
