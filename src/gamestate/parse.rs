//! Reading and validating `state/`. Pure.
//!
//! The files are parsed together because a value can only be judged with
//! its declaration and the roster at hand. Every problem is collected with
//! its file and line; missing optional files mean "nothing declared".

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use toml::Spanned;

use super::schema::{CollectionDecl, VarDecl};
use super::{Dynasty, GameState, IdlePeriod, Item, Phase, Player, Schema, Terms};
use crate::error::{Diagnostic, Diagnostics, line_of, toml_diagnostic};
use crate::source::SourceFile;
use crate::time::Timestamp;

/// The files of `state/`, and whether each must exist.
pub const STATE_FILES: &[(&str, bool)] = &[
    ("state/game.toml", true),
    ("state/roster.toml", true),
    ("state/schema.toml", false),
    ("state/variables.toml", false),
    ("state/collections.toml", false),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    game: GameSection,
    terms: Spanned<Terms>,
    dynasty: DynastyFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameSection {
    name: String,
    seed: Option<String>,
    repo: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DynastyFile {
    number: u32,
    emperor: Option<Spanned<String>>,
    #[serde(default)]
    phase: Phase,
    started: Option<Timestamp>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RosterFile {
    #[serde(default)]
    players: Vec<Spanned<PlayerFile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: String,
    login: String,
    #[serde(default)]
    admin: bool,
    joined: Option<Timestamp>,
    #[serde(default)]
    idle: Vec<IdlePeriod>,
}

type Decls<T> = BTreeMap<Spanned<String>, Spanned<T>>;
type Values = BTreeMap<Spanned<String>, Spanned<toml::Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SchemaFile {
    #[serde(default)]
    players: Decls<VarDecl>,
    #[serde(default)]
    globals: Decls<VarDecl>,
    #[serde(default)]
    collections: Decls<CollectionDecl>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VariablesFile {
    #[serde(default)]
    globals: Values,
    #[serde(default)]
    players: BTreeMap<Spanned<String>, Values>,
}

type CollectionsFile = BTreeMap<Spanned<String>, Vec<Spanned<Values>>>;

/// Where problems are recorded, for one file at a time.
struct Sink<'a> {
    file: &'a SourceFile,
    problems: &'a mut Diagnostics,
}

impl Sink<'_> {
    fn at(&mut self, offset: usize, message: impl Into<String>) {
        let line = line_of(&self.file.text, 1, offset);
        self.problems
            .push(Diagnostic::new(&self.file.path, line, message));
    }
}

fn read<T: for<'de> Deserialize<'de>>(
    files: &[SourceFile],
    path: &str,
    required: bool,
    problems: &mut Diagnostics,
) -> Option<(T, usize)> {
    let Some((index, file)) = files.iter().enumerate().find(|(_, f)| f.path == path) else {
        if required {
            problems.push(Diagnostic::new(path, 0, "this file is missing"));
        }
        return None;
    };
    toml::from_str(&file.text)
        .map_err(|e| problems.push(toml_diagnostic(&file.path, &file.text, 1, &e)))
        .ok()
        .map(|value| (value, index))
}

/// Parses and validates `state/`. `rule_exists` says whether a rule id a
/// declaration refers to is in the ruleset. Returns the gamestate when the
/// required files could be read, and every problem found.
pub fn parse(
    files: &[SourceFile],
    rule_exists: &dyn Fn(&str) -> bool,
) -> (Option<GameState>, Diagnostics) {
    let mut problems = Diagnostics::new();
    for file in files.iter().filter(|f| f.path.starts_with("state/")) {
        if !STATE_FILES.iter().any(|(p, _)| *p == file.path) {
            let known: Vec<&str> = STATE_FILES.iter().map(|(p, _)| *p).collect();
            let message = format!(
                "not a gamestate file (the gamestate is {})",
                known.join(", ")
            );
            problems.push(Diagnostic::new(&file.path, 0, message));
        }
    }
    let game = read::<GameFile>(files, "state/game.toml", true, &mut problems);
    let roster = read::<RosterFile>(files, "state/roster.toml", true, &mut problems);
    let schema = read::<SchemaFile>(files, "state/schema.toml", false, &mut problems);
    let variables = read::<VariablesFile>(files, "state/variables.toml", false, &mut problems);
    let collections =
        read::<CollectionsFile>(files, "state/collections.toml", false, &mut problems);

    let (Some((game, game_at)), Some((roster, roster_at))) = (game, roster) else {
        return (None, problems);
    };
    let players = check_roster(
        roster,
        &mut Sink {
            file: &files[roster_at],
            problems: &mut problems,
        },
    );
    let names: BTreeSet<String> = players.iter().map(|p| p.name.clone()).collect();
    let is_player = |name: &str| names.contains(name);
    let dynasty = check_game(
        &game,
        &is_player,
        &mut Sink {
            file: &files[game_at],
            problems: &mut problems,
        },
    );
    let schema = schema.map_or_else(Schema::default, |(schema, at)| {
        check_schema(
            schema,
            rule_exists,
            &mut Sink {
                file: &files[at],
                problems: &mut problems,
            },
        )
    });
    let mut state = GameState {
        name: game.game.name,
        seed: game.game.seed.filter(|s| !s.trim().is_empty()),
        repo: game.game.repo.filter(|r| !r.trim().is_empty()),
        terms: game.terms.into_inner(),
        dynasty,
        globals: BTreeMap::new(),
        values: BTreeMap::new(),
        collections: BTreeMap::new(),
        schema,
        players,
    };
    let values = variables.map(|(v, at)| (v, &files[at]));
    fill_variables(&mut state, values, &is_player, &mut problems);
    let items = collections.map(|(c, at)| (c, &files[at]));
    fill_collections(&mut state, items, &is_player, &mut problems);
    (Some(state), problems)
}

fn check_game(game: &GameFile, is_player: &dyn Fn(&str) -> bool, sink: &mut Sink<'_>) -> Dynasty {
    let terms = game.terms.get_ref();
    for (name, value) in terms.as_map() {
        if value.trim().is_empty() {
            sink.at(
                game.terms.span().start,
                format!("the term `{name}` is empty"),
            );
        }
    }
    let emperor = game
        .dynasty
        .emperor
        .as_ref()
        .map(|e| e.get_ref().trim().to_string())
        .unwrap_or_default();
    if let Some(at) = game
        .dynasty
        .emperor
        .as_ref()
        .filter(|_| !emperor.is_empty() && !is_player(&emperor))
    {
        sink.at(
            at.span().start,
            format!(
                "the {} `{emperor}` is not a player on the roster",
                terms.emperor
            ),
        );
    }
    Dynasty {
        number: game.dynasty.number,
        emperor: (!emperor.is_empty()).then_some(emperor),
        phase: game.dynasty.phase,
        started: game.dynasty.started,
    }
}

fn check_roster(roster: RosterFile, sink: &mut Sink<'_>) -> Vec<Player> {
    let mut names = BTreeSet::new();
    let mut logins = BTreeSet::new();
    let mut players = Vec::new();
    for entry in roster.players {
        let at = entry.span().start;
        let p = entry.into_inner();
        if p.name.trim().is_empty() || p.login.trim().is_empty() {
            sink.at(at, "a player needs a `name` and a forge `login`");
        }
        if !names.insert(p.name.clone()) {
            sink.at(
                at,
                format!("the player `{}` is on the roster twice", p.name),
            );
        }
        if !logins.insert(p.login.to_ascii_lowercase()) {
            sink.at(
                at,
                format!("the login `{}` belongs to two players", p.login),
            );
        }
        for pair in p.idle.windows(2) {
            if pair[0].until.is_none_or(|until| until > pair[1].from) {
                sink.at(
                    at,
                    format!("{}'s idle periods overlap or are out of order", p.name),
                );
            }
        }
        if p.idle.iter().any(|i| i.until.is_some_and(|u| u <= i.from)) {
            sink.at(
                at,
                format!("{}'s idle period ends before it starts", p.name),
            );
        }
        players.push(Player {
            name: p.name,
            login: p.login,
            admin: p.admin,
            joined: p.joined,
            idle: p.idle,
        });
    }
    players
}

fn check_decl(
    name: &str,
    at: usize,
    decl: &VarDecl,
    rule_exists: &dyn Fn(&str) -> bool,
    sink: &mut Sink<'_>,
) {
    for problem in decl.problems() {
        sink.at(at, format!("`{name}`: {problem}"));
    }
    if let Some(id) = decl.rule.as_deref().filter(|id| !rule_exists(id)) {
        sink.at(
            at,
            format!("`{name}` refers to the rule `{id}`, which does not exist"),
        );
    }
}

fn check_decls(
    decls: Decls<VarDecl>,
    rule_exists: &dyn Fn(&str) -> bool,
    sink: &mut Sink<'_>,
) -> BTreeMap<String, VarDecl> {
    decls
        .into_iter()
        .map(|(name, decl)| {
            check_decl(
                name.get_ref(),
                name.span().start,
                decl.get_ref(),
                rule_exists,
                sink,
            );
            (name.into_inner(), decl.into_inner())
        })
        .collect()
}

fn check_schema(
    file: SchemaFile,
    rule_exists: &dyn Fn(&str) -> bool,
    sink: &mut Sink<'_>,
) -> Schema {
    let players = check_decls(file.players, rule_exists, sink);
    let globals = check_decls(file.globals, rule_exists, sink);
    let mut collections = BTreeMap::new();
    for (name, decl) in file.collections {
        let at = name.span().start;
        for (field, field_decl) in &decl.get_ref().fields {
            check_decl(
                &format!("{}.{field}", name.get_ref()),
                at,
                field_decl,
                rule_exists,
                sink,
            );
        }
        if let Some(id) = decl.get_ref().rule.as_deref().filter(|id| !rule_exists(id)) {
            sink.at(
                at,
                format!(
                    "the collection `{}` refers to the rule `{id}`, which does not exist",
                    name.get_ref()
                ),
            );
        }
        collections.insert(name.into_inner(), decl.into_inner());
    }
    Schema {
        players,
        globals,
        collections,
    }
}

/// Checks `values` against `decls`, returning them with defaults filled in.
fn check_values(
    values: Values,
    decls: &BTreeMap<String, VarDecl>,
    owner: &str,
    is_player: &dyn Fn(&str) -> bool,
    sink: &mut Sink<'_>,
) -> BTreeMap<String, toml::Value> {
    let mut out: BTreeMap<String, toml::Value> = decls
        .iter()
        .map(|(name, decl)| (name.clone(), decl.default_value()))
        .collect();
    for (name, value) in values {
        let Some(decl) = decls.get(name.get_ref()) else {
            sink.at(
                name.span().start,
                format!(
                    "{owner}: `{}` is not declared in state/schema.toml",
                    name.get_ref()
                ),
            );
            continue;
        };
        if let Some(problem) = decl.check(value.get_ref(), is_player) {
            sink.at(
                value.span().start,
                format!(
                    "{owner}: `{} = {}`: {problem}",
                    name.get_ref(),
                    value.get_ref()
                ),
            );
        }
        out.insert(name.into_inner(), value.into_inner());
    }
    out
}

fn fill_variables(
    state: &mut GameState,
    file: Option<(VariablesFile, &SourceFile)>,
    is_player: &dyn Fn(&str) -> bool,
    problems: &mut Diagnostics,
) {
    let (variables, globals) = match file {
        Some((v, file)) => {
            let sink = &mut Sink { file, problems };
            let globals =
                check_values(v.globals, &state.schema.globals, "globals", is_player, sink);
            for name in v.players.keys().filter(|name| !is_player(name.get_ref())) {
                sink.at(
                    name.span().start,
                    format!("`{}` has values but is not on the roster", name.get_ref()),
                );
            }
            let mut by_player: BTreeMap<String, Values> = v
                .players
                .into_iter()
                .map(|(k, v)| (k.into_inner(), v))
                .collect();
            let values = state
                .players
                .iter()
                .map(|p| {
                    let given = by_player.remove(&p.name).unwrap_or_default();
                    (
                        p.name.clone(),
                        check_values(given, &state.schema.players, &p.name, is_player, sink),
                    )
                })
                .collect();
            (values, globals)
        }
        None => {
            let defaults = |decls: &BTreeMap<String, VarDecl>| -> BTreeMap<String, toml::Value> {
                decls
                    .iter()
                    .map(|(k, d)| (k.clone(), d.default_value()))
                    .collect()
            };
            let values = state
                .players
                .iter()
                .map(|p| (p.name.clone(), defaults(&state.schema.players)))
                .collect();
            (values, defaults(&state.schema.globals))
        }
    };
    state.values = variables;
    state.globals = globals;
}

fn fill_collections(
    state: &mut GameState,
    file: Option<(CollectionsFile, &SourceFile)>,
    is_player: &dyn Fn(&str) -> bool,
    problems: &mut Diagnostics,
) {
    state.collections = state
        .schema
        .collections
        .keys()
        .map(|k| (k.clone(), Vec::new()))
        .collect();
    let Some((collections, file)) = file else {
        return;
    };
    let sink = &mut Sink { file, problems };
    for (name, items) in collections {
        let Some(decl) = state.schema.collections.get(name.get_ref()) else {
            sink.at(
                name.span().start,
                format!(
                    "the collection `{}` is not declared in state/schema.toml",
                    name.get_ref()
                ),
            );
            continue;
        };
        let mut ids = BTreeSet::new();
        let mut out = Vec::new();
        for item in items {
            let at = item.span().start;
            let mut fields = item.into_inner();
            let id = fields
                .keys()
                .find(|k| k.get_ref() == "id")
                .cloned()
                .and_then(|k| fields.remove(&k));
            let Some(toml::Value::String(id)) = id.map(Spanned::into_inner) else {
                sink.at(
                    at,
                    format!("every item of `{}` needs a string `id`", name.get_ref()),
                );
                continue;
            };
            if !ids.insert(id.clone()) {
                sink.at(
                    at,
                    format!("`{}` has two items with the id `{id}`", name.get_ref()),
                );
            }
            let owner = format!("{} `{id}`", name.get_ref());
            let fields = check_values(fields, &decl.fields, &owner, is_player, sink);
            out.push(Item { id, fields });
        }
        state.collections.insert(name.into_inner(), out);
    }
}
