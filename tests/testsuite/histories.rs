//! The resolver over random game histories on the local forge (proptest).
//!
//! A history is a list of steps a group of players might take in any
//! order: open proposals, CfJs, DoVs and actions (from players and a
//! stranger; changes that are legal, illegal, conflicting or touching the
//! workflows; an action may be an issue played by comment), vote, comment
//! commands and rolls (`SET`, `ADD`, `REMOVE`, on variables and the
//! gadgets collection, legal or not, some quoted), edit or delete a
//! comment, push (a typo fix or a change of substance), go idle or come
//! back, make an Ascension Address when one is awaited, let time pass, and
//! run `resolve`, sometimes killed after any one of its effects, or by a
//! real SIGKILL inside one (at the k-th `rename` it makes: see
//! `kill_sweep`). After every step these must hold:
//!
//! - main passes `gitnomic check`;
//! - a record, once written, never changes, and `audit` finds nothing
//!   (every closed matter recorded, every enactment standing);
//! - for every open matter, `check`'s verdict, the plan's line and `play
//!   list`'s agree on whether it may stand;
//! - the dry run's plan is what the run then does;
//! - after a run, nothing is left to do at that moment (nothing waits
//!   behind a matter that cannot be carried out);
//! - a killed run finished by the next ends in exactly the state of an
//!   uninterrupted run (main's tree and every file of the forge);
//! - `roll verify` passes on main;
//! - no comment's commands are applied twice: each comment is named in
//!   the commits of at most one change to state/.
//!
//! - `gitnomic log` credits a change only to the author of a comment
//!   that was made, naming that comment.
//!
//! A second property plays the same histories with hostile steps among
//! them (issue 33): titles and comments of any characters (a `+++` line,
//! lines that read like the log's, escape sequences, reordering marks) and
//! pull requests whose files cannot be read (not UTF-8, a symbolic link)
//! or do not check (a template loop, a condition nested too deep). No run
//! may stop because of one, and every invariant above still holds.
//!
//! `PROPTEST_CASES` sets how many histories are tried (default 12; each
//! runs the binary a few hundred times). `.ci/run` fixes
//! `PROPTEST_RNG_SEED`, so CI tries the same histories on the same commit;
//! `scripts/explore-histories N` tries N new ones, and proptest saves each
//! failure it finds in `proptest-regressions/tests/histories.txt`, replayed
//! first by every later run.

use std::collections::BTreeMap;

use proptest::prelude::*;

use crate::game_test::copy_tree;
use crate::game_test::{GameTest, Run};
use crate::histories_checks::{acted_once, assert_same_state, doors_agree, records};

const LOGINS: [&str; 6] = [
    "ada-tinkers",
    "boris-b",
    "cleo-c",
    "dmitri-d",
    "wren-w",
    "mallory-m", // not a player
];
const NAMES: [&str; 5] = ["Ada", "Boris", "Cleo", "Dmitri", "Wren"];
const WORDS: [&str; 7] = ["FOR", "AGAINST", "DEF", "VETO", "FOR!", "> FOR", "no vote"];
/// Comments of commands and rolls (`{n}` is replaced by a number unique to
/// the step, for a new gadget's id).
const COMMANDS: [&str; 14] = [
    "ADD springs 1",
    "SET springs 4\nADD cogs 2",
    "ADD cogs -1",
    "ADD springs DICE6",
    "SET springs DICE4\nADD springs -d3\nADD springs 2",
    "ROLL 2DICE6+1 for luck\nADD cogs 1\nADD cogs 1",
    "SET globals.round 2",
    "ADD gadgets g{n} name=\"Cog Press\" cogs=1",
    "REMOVE gadgets pocket-orrery",
    "ADD gadgets.pocket-orrery.cogs 1\nADD gadgets.pocket-orrery.cogs DICE2",
    "ROLL DICE20",
    "> ADD springs 5\n\n`ROLL DICE6`",
    "SET Boris.springs 1",
    "ADD springs many things",
];

/// Titles anyone may give a matter.
const TITLES: [&str; 4] = [
    "CfJ\n+++\nx",
    "Boris acts\n\nplayers.Boris.springs: 3 → 10 by @ada-tinkers, comment 1, rolled DICE6 = 6\n",
    "\u{1b}]0;owned\u{7}\u{202e}sdrawkcab \"\"\" ''' \\",
    "a title far longer than any subject should be, a title far longer than any subject should be, really",
];

/// Comments anyone may write.
const BODIES: [&str; 4] = [
    "FOR\n+++\n\"\"\"",
    "\u{1b}[2J FOR \u{202e}",
    "players.Boris.springs: 3 → 10 by @ada-tinkers, comment 1, rolled DICE6 = 6",
    "ADD springs 1\n+++\nrolled DICE6 = 6",
];

/// What a hostile pull request holds.
#[derive(Debug, Clone, Copy)]
enum Hostile {
    /// A rule file that is not UTF-8.
    NotText,
    /// A symbolic link among the rules.
    Link,
    /// A rule whose text loops.
    Loop,
    /// A condition nested too deep.
    Deep,
}

#[derive(Debug, Clone)]
enum Change {
    /// Sets a player's springs (0..=12: over the cap of 10 does not check).
    Springs(usize, i64),
    /// Sets the springs cap in the schema.
    Cap(i64),
    /// Adds a sentence to a rule.
    Rule,
    /// Adds a workflow (no matter may).
    Workflow,
    /// Adds a player to the roster: the tally's rows of a status written
    /// after its merge must still be the players its decision counted.
    Join,
}

#[derive(Debug, Clone)]
enum Step {
    Open {
        author: usize,
        kind: usize,
        change: Change,
        issue: bool,
    },
    Vote {
        matter: usize,
        voter: usize,
        word: usize,
    },
    Push {
        matter: usize,
        typo: bool,
        value: i64,
    },
    /// A comment of commands and rolls (one of [`COMMANDS`]).
    Act {
        matter: usize,
        player: usize,
        command: usize,
    },
    /// Edits (re-rolls) or deletes a comment made earlier.
    Revise {
        comment: usize,
        delete: bool,
    },
    Idle(usize),
    Ascend,
    Wait(i64),
    Resolve {
        kill: Option<Kill>,
    },
    /// A matter titled with one of [`TITLES`], from a branch holding
    /// `files` if given (else an ordinary change).
    Titled {
        author: usize,
        kind: usize,
        title: usize,
        files: Option<Hostile>,
    },
    /// A comment of one of [`BODIES`].
    Say {
        matter: usize,
        player: usize,
        body: usize,
    },
}

/// Where a run is killed.
#[derive(Debug, Clone, Copy)]
enum Kill {
    /// After this many effects (`--halt-after`), modulo the plan's length.
    After(usize),
    /// By a SIGKILL at the k-th rename it makes (inside an effect).
    Inside(usize),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (0..5usize, 0..=12i64).prop_map(|(p, v)| Change::Springs(p, v)),
        1 => (4..=12i64).prop_map(Change::Cap),
        2 => Just(Change::Rule),
        1 => Just(Change::Workflow),
        1 => Just(Change::Join),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0..6usize, 0..6usize, change(), any::<bool>())
            .prop_map(|(author, kind, change, issue)| Step::Open { author, kind, change, issue }),
        // Mostly FOR, so that matters do get enacted.
        8 => (0..8usize, 0..6usize, prop_oneof![3 => Just(0usize), 2 => 0..WORDS.len()])
            .prop_map(|(matter, voter, word)| Step::Vote { matter, voter, word }),
        1 => (0..8usize, any::<bool>(), 0..=10i64)
            .prop_map(|(matter, typo, value)| Step::Push { matter, typo, value }),
        4 => (0..8usize, 0..6usize, 0..COMMANDS.len())
            .prop_map(|(matter, player, command)| Step::Act { matter, player, command }),
        1 => (0..16usize, any::<bool>()).prop_map(|(comment, delete)| Step::Revise { comment, delete }),
        1 => (0..5usize).prop_map(Step::Idle),
        1 => Just(Step::Ascend),
        3 => (1..30i64).prop_map(Step::Wait),
        3 => proptest::option::of(prop_oneof![
            (0..14usize).prop_map(Kill::After),
            (1..60usize).prop_map(Kill::Inside),
        ])
        .prop_map(|kill| Step::Resolve { kill }),
    ]
}

/// A step of a history with hostile steps among the others.
fn hostile_step() -> impl Strategy<Value = Step> {
    let files = proptest::option::of(prop_oneof![
        Just(Hostile::NotText),
        Just(Hostile::Link),
        Just(Hostile::Loop),
        Just(Hostile::Deep),
    ]);
    prop_oneof![
        6 => step(),
        1 => (0..6usize, 0..6usize, 0..TITLES.len(), files)
            .prop_map(|(author, kind, title, files)| Step::Titled { author, kind, title, files }),
        1 => (0..8usize, 0..6usize, 0..BODIES.len())
            .prop_map(|(matter, player, body)| Step::Say { matter, player, body }),
    ]
}

/// A step of a history played twice (see [`play_twins`]): ordinary steps,
/// and hostile ones the twin plays harmlessly. Each is chosen so that the
/// rules make nothing else depend on what is hostile in it:
///
/// - a matter titled with one of [`TITLES`] (its twin is titled `T`): a
///   title decides nothing;
/// - a pull request with unreadable files (not UTF-8, a symbolic link),
///   from anyone; its twin changes a workflow instead. Both are no matter
///   and count for nothing, not even towards their author's limits;
/// - a pull request whose rule loops or nests too deep, from the stranger
///   (from a player it would be a pending matter, and the oldest pending
///   proposal holds back the others); its twin, a workflow change;
/// - a comment of one of [`BODIES`] by the stranger (its twin says
///   `hello`): no non-player's comment is a vote or a command.
///
/// Matters and comments are numbered alike in both twins, so rolls and
/// records may be compared as they are.
fn twin_step() -> impl Strategy<Value = Step> {
    let unreadable = prop_oneof![Just(Hostile::NotText), Just(Hostile::Link)];
    let unchecked = prop_oneof![Just(Hostile::Loop), Just(Hostile::Deep)];
    prop_oneof![
        8 => step(),
        1 => (0..6usize, 0..6usize, 0..TITLES.len())
            .prop_map(|(author, kind, title)| Step::Titled { author, kind, title, files: None }),
        1 => (0..6usize, 0..6usize, 0..TITLES.len(), unreadable)
            .prop_map(|(author, kind, title, files)| Step::Titled { author, kind, title, files: Some(files) }),
        1 => (0..6usize, 0..TITLES.len(), unchecked)
            .prop_map(|(kind, title, files)| Step::Titled { author: 5, kind, title, files: Some(files) }),
        1 => (0..8usize, 0..BODIES.len())
            .prop_map(|(matter, body)| Step::Say { matter, player: 5, body }),
    ]
}

/// A game being played, and what the checks remember.
struct Play {
    game: GameTest,
    /// Hours since 2030-01-01T00:00Z.
    hour: i64,
    /// Opened matters: number and branch.
    matters: Vec<(String, Option<String>)>,
    /// Comments made: matter, id, author's login.
    comments: Vec<(String, String, &'static str)>,
    /// Action issues, played by comment.
    actions: Vec<String>,
    /// Every record seen, by path, as first seen.
    records: BTreeMap<String, String>,
    branches: usize,
    /// Plays every hostile step with harmless content instead (the twin
    /// of a hostile history): a plain title, a plain comment, and in place
    /// of unreadable files a change no matter may make.
    benign: bool,
    /// The matters opened by a hostile step with files of its own, decided
    /// for reasons of their own (unlike their twins').
    own: std::collections::BTreeSet<String>,
    /// The ids of the comments of [`BODIES`] (or their twins), each
    /// reported for what it says (unlike its twin).
    said: std::collections::BTreeSet<String>,
    /// Every command run and what it printed, for a failure's message.
    log: std::cell::RefCell<String>,
}

/// Prints what a history explored when `GITNOMIC_HISTORY_STATS` is set.
fn explored(play: &Play, steps: &[Step]) {
    if std::env::var_os("GITNOMIC_HISTORY_STATS").is_none() {
        return;
    }
    let log = play.story();
    let count = |needle: &str| log.matches(needle).count();
    // Effects carried out (not those a dry run listed) that mention `needle`.
    let done = |needle: &str| {
        log.split("Done:\n")
            .skip(1)
            .flat_map(|after| after.lines().take_while(|l| l.starts_with("  #")))
            .filter(|l| l.contains(needle) && !l.ends_with("(already done)"))
            .count()
    };
    eprintln!(
        "history: {} steps, {} runs ({} killed), {} effects done, {} enacted, {} failed, {} closed as no matter, {} merged without a vote, {} records, {} commits of actions by comment, {} dice logs written",
        steps.len(),
        count("$ gitnomic --now") - count("resolve --dry-run") - count("play "),
        count("--halt-after"),
        log.split("Done:\n")
            .skip(1)
            .map(|after| after.lines().take_while(|l| l.starts_with("  #")).count())
            .sum::<usize>(),
        count(" — enacted\n"),
        count(" — failed\n"),
        count(" — closed: "),
        count(": merged\n"),
        play.records.len(),
        done("commit state/"),
        done("commit content/rolls/"),
    );
}

impl Play {
    fn now(&self) -> String {
        let t = chrono::DateTime::parse_from_rfc3339("2030-01-01T00:00:00Z").unwrap()
            + chrono::Duration::minutes(self.hour * 60 + i64::try_from(self.branches).unwrap());
        t.to_utc().format("%Y-%m-%dT%H:%M:%SZ").to_string()
    }

    fn run(&self, args: &[&str]) -> Run {
        let now = self.now();
        let mut all = vec!["--now", now.as_str()];
        all.extend_from_slice(args);
        let run = self.game.run(&all);
        let mut log = self.log.borrow_mut();
        log.push_str(&format!(
            "$ gitnomic {}\n{}{}",
            all.join(" "),
            run.stdout,
            run.stderr
        ));
        run
    }

    /// What was run so far, for a failure's message.
    fn story(&self) -> String {
        self.log.borrow().clone()
    }

    fn branch(&mut self, change: &Change) -> String {
        self.branches += 1;
        let name = format!("b{}", self.branches);
        let files = edit(&self.game, change, self.branches);
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        self.game.commit_on(&name, &files, "a change");
        name
    }

    fn apply(&mut self, step: &Step) {
        match step {
            Step::Open {
                author,
                kind,
                change,
                issue,
            } => {
                let kinds = ["proposal", "proposal", "proposal", "cfj", "dov", "action"];
                let kind = kinds[*kind];
                let as_issue = *issue && matches!(kind, "cfj" | "dov" | "action");
                let branch = (!as_issue).then(|| self.branch(change));
                let mut args = vec![
                    "play",
                    "open",
                    "--as",
                    LOGINS[*author],
                    "--kind",
                    kind,
                    "--title",
                    "T",
                ];
                if let Some(b) = &branch {
                    args.extend(["--branch", b.as_str()]);
                }
                let run = self.run(&args);
                if let Some(n) = opened_number(&run) {
                    if as_issue && kind == "action" {
                        self.actions.push(n.clone());
                    }
                    self.matters.push((n, branch));
                }
            }
            Step::Vote {
                matter,
                voter,
                word,
            } => {
                if let Some((n, _)) = self.pick(*matter) {
                    self.comment(&n, WORDS[*word], LOGINS[*voter]);
                }
            }
            Step::Push {
                matter,
                typo,
                value,
            } => {
                if let Some((_, Some(branch))) = self.pick(*matter) {
                    let change = if *typo {
                        Change::Rule
                    } else {
                        Change::Springs(3, *value)
                    };
                    let files = edit(&self.game, &change, 0);
                    let files: Vec<(&str, &str)> = files
                        .iter()
                        .map(|(p, t)| (p.as_str(), t.as_str()))
                        .collect();
                    self.game.commit_on(&branch, &files, "a push");
                }
            }
            Step::Act {
                matter,
                player,
                command,
            } => {
                // Mostly on an action issue, where commands are carried out.
                let on = match self.actions.len() {
                    0 => self.pick(*matter).map(|(n, _)| n),
                    k if *matter < 6 => Some(self.actions[*matter % k].clone()),
                    _ => self.pick(*matter).map(|(n, _)| n),
                };
                if let Some(n) = on {
                    let body = COMMANDS[*command].replace("{n}", &self.comments.len().to_string());
                    self.comment(&n, &body, LOGINS[*player]);
                }
            }
            Step::Revise { comment, delete } => self.revise(*comment, *delete),
            Step::Idle(player) => self.toggle_idle(*player),
            Step::Ascend => self.ascend(),
            Step::Wait(hours) => self.hour += hours,
            Step::Resolve { kill } => self.resolve(*kill),
            Step::Titled {
                author,
                kind,
                title,
                files,
            } => {
                let title = if self.benign { "T" } else { TITLES[*title] };
                self.titled(*author, *kind, title, *files);
            }
            Step::Say {
                matter,
                player,
                body,
            } => {
                if let Some((n, _)) = self.pick(*matter) {
                    let body = if self.benign { "hello" } else { BODIES[*body] };
                    let before = self.comments.len();
                    self.comment(&n, body, LOGINS[*player]);
                    if let Some((_, id, _)) = self.comments.get(before) {
                        self.said.insert(id.clone());
                    }
                }
            }
        }
        doors_agree(&self.game, &self.now(), &self.story());
    }

    /// Opens a matter titled `title`, from a branch with `files` if given.
    fn titled(&mut self, author: usize, kind: usize, title: &str, files: Option<Hostile>) {
        let kinds = ["proposal", "proposal", "cfj", "dov", "action", "cfj"];
        let kind = kinds[kind];
        let branch = match files {
            Some(_) if self.benign => Some(self.branch(&Change::Workflow)),
            Some(hostile) => Some(self.hostile_branch(hostile)),
            None if kind == "proposal" => Some(self.branch(&Change::Rule)),
            None => None,
        };
        let mut args = vec![
            "play",
            "open",
            "--as",
            LOGINS[author],
            "--kind",
            kind,
            "--title",
            title,
        ];
        if let Some(b) = &branch {
            args.extend(["--branch", b.as_str()]);
        }
        let run = self.run(&args);
        if let Some(n) = opened_number(&run) {
            if branch.is_none() && kind == "action" {
                self.actions.push(n.clone());
            }
            if files.is_some() {
                self.own.insert(n.clone());
            }
            self.matters.push((n, branch));
        }
    }

    /// A branch whose files are `hostile`.
    fn hostile_branch(&mut self, hostile: Hostile) -> String {
        self.branches += 1;
        let name = format!("b{}", self.branches);
        let main = |path: &str| self.game.read_at("main", path).unwrap();
        match hostile {
            Hostile::NotText => {
                let bytes = b"+++\nid = \"bytes\"\ntitle = \"\xff\xfe\"\n+++\n";
                let mode = git2::FileMode::Blob;
                self.game
                    .commit_raw(&name, "rules/dynastic/bytes.md", bytes, mode);
            }
            Hostile::Link => {
                let mode = git2::FileMode::Link;
                self.game
                    .commit_raw(&name, "rules/dynastic/coredup", b"../core", mode);
            }
            Hostile::Loop => {
                let text = main("rules/dynastic/springs.md")
                    + "\n{% for i in range(end=100000000) %}x{% endfor %}\n";
                self.game
                    .commit_on(&name, &[("rules/dynastic/springs.md", &text)], "loop");
            }
            Hostile::Deep => {
                let path = "rules/core/calls-for-judgement.md";
                let deep = format!(
                    "cfj_enact = \"{}true{}\"\n+++",
                    "(".repeat(70),
                    ")".repeat(70)
                );
                let text = main(path).replacen("+++\nWhen", &format!("{deep}\nWhen"), 1);
                self.game.commit_on(&name, &[(path, &text)], "deep");
            }
        }
        name
    }

    /// Comments `body` on matter `n` as `login`, remembering its id.
    fn comment(&mut self, n: &str, body: &str, login: &'static str) {
        let run = self.run(&["play", "comment", n, body, "--as", login]);
        let id = run
            .stdout
            .strip_prefix("comment ")
            .and_then(|rest| rest.split_whitespace().next());
        if let Some(id) = id {
            self.comments.push((n.to_string(), id.to_string(), login));
        }
    }

    /// Its author edits a comment into a new roll, or deletes it.
    fn revise(&mut self, i: usize, delete: bool) {
        if self.comments.is_empty() {
            return;
        }
        let (n, id, login) = self.comments[i % self.comments.len()].clone();
        if delete {
            self.run(&["play", "delete", &n, &id, "--as", login]);
        } else {
            self.run(&[
                "play",
                "edit",
                &n,
                &id,
                "ROLL DICE100 again\nADD springs 3",
                "--as",
                login,
            ]);
        }
    }

    fn pick(&self, i: usize) -> Option<(String, Option<String>)> {
        (!self.matters.is_empty()).then(|| self.matters[i % self.matters.len()].clone())
    }

    /// An admin idles a player, or brings one back, by a commit to main.
    fn toggle_idle(&mut self, player: usize) {
        let text = self.game.read_at("main", "state/roster.toml").unwrap();
        let mut doc: toml_edit::DocumentMut = text.parse().unwrap();
        let now: toml_edit::Datetime = self.now().parse().unwrap();
        let players = doc["players"].as_array_of_tables_mut().unwrap();
        let entry = players
            .iter_mut()
            .find(|p| p["name"].as_str() == Some(NAMES[player]))
            .unwrap();
        let mut spells = entry
            .get("idle")
            .and_then(|i| i.as_array())
            .cloned()
            .unwrap_or_default();
        let open = spells
            .iter_mut()
            .filter_map(|s| s.as_inline_table_mut())
            .find(|s| !s.contains_key("until"));
        match open {
            // An admin cannot end a spell in the moment it began.
            Some(spell) if spell.get("from").and_then(|v| v.as_datetime()) == Some(&now) => {
                return;
            }
            Some(spell) => {
                spell.insert("until", now.into());
            }
            None => {
                let mut spell = toml_edit::InlineTable::new();
                spell.insert("from", now.into());
                spells.push(spell);
            }
        }
        entry["idle"] = toml_edit::value(spells);
        self.game
            .commit_on("main", &[("state/roster.toml", &doc.to_string())], "idle");
    }

    /// The new emperor makes an Address keeping every dynastic rule.
    fn ascend(&mut self) {
        let state = self.game.read_at("main", "state/game.toml").unwrap();
        if !state.contains("awaiting-ascension") {
            return;
        }
        let emperor = NAMES
            .iter()
            .position(|n| state.contains(&format!("emperor = \"{n}\"")));
        let Some(emperor) = emperor else { return };
        self.branches += 1;
        let name = format!("b{}", self.branches);
        self.game
            .commit_on(&name, &[("state/game.toml", &state)], "the address");
        let body = "Keep: springs, cogs-and-gadgets, gadget-powers, clockwork-victory";
        let args = [
            "play",
            "open",
            "--as",
            LOGINS[emperor],
            "--kind",
            "ascension",
            "--title",
            "AA",
            "--branch",
            &name,
            "--body",
            body,
        ];
        let run = self.run(&args);
        if let Some(n) = opened_number(&run) {
            self.matters.push((n, Some(name)));
        }
    }

    fn resolve(&mut self, kill: Option<Kill>) {
        let dry = self.run(&["resolve", "--dry-run"]);
        assert_eq!(dry.code, 0, "dry run: {}{}", dry.stdout, dry.stderr);
        let planned = dry.effects("Would do");
        match kill {
            Some(kill) if !planned.is_empty() => {
                let twin = self.twin();
                let whole = run_in(&twin, &self.now(), &["resolve"]);
                assert_eq!(whole.code, 0, "{}{}", whole.stdout, whole.stderr);
                let how = self.kill(kill, planned.len());
                let rest = self.run(&["resolve"]);
                assert_eq!(rest.code, 0, "{}{}", rest.stdout, rest.stderr);
                assert_same_state(
                    self.game.root(),
                    twin.root(),
                    &format!("{how}; twin:\n{}\n{}", whole.stdout, self.story()),
                );
            }
            _ => {
                let run = self.run(&["resolve"]);
                assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
                assert_eq!(
                    planned,
                    run.effects("Done:"),
                    "the dry run said what the run would do:\n{}",
                    run.stdout
                );
            }
        }
        let again = self.run(&["resolve", "--dry-run"]);
        assert!(
            again.effects("Would do").is_empty(),
            "a run leaves nothing to do at its moment:\n{}",
            self.story()
        );
        self.check_main();
    }

    /// Runs resolve and kills it as `kill` says, among `effects` planned;
    /// says how it was killed.
    fn kill(&self, kill: Kill, effects: usize) -> String {
        match kill {
            Kill::Inside(k) if crate::kill_sweep::strace() => {
                let now = self.now();
                let (code, out) = crate::kill_sweep::run_killed(
                    self.game.root(),
                    &now,
                    "rename,renameat,renameat2",
                    k,
                );
                self.log.borrow_mut().push_str(&format!(
                    "$ gitnomic --now {now} resolve (killed at rename #{k})\n{out}"
                ));
                match code {
                    None => format!("killed at rename #{k}"),
                    Some(code) => format!("run to its end ({code}) before rename #{k}"),
                }
            }
            Kill::Inside(k) | Kill::After(k) => {
                let k = k % effects;
                let halted = self.run(&["resolve", "--halt-after", &k.to_string()]);
                assert_eq!(halted.code, 0, "{}{}", halted.stdout, halted.stderr);
                format!("killed after {k} effects")
            }
        }
    }

    fn check_main(&mut self) {
        let check = self.game.run(&["check", "--rev", "main"]);
        assert_eq!(
            check.code, 0,
            "main checks: {}{}",
            check.stdout, check.stderr
        );
        let audit = self.game.run(&["audit"]);
        assert_eq!(audit.code, 0, "audit: {}{}", audit.stdout, audit.stderr);
        let verify = self.game.run(&["roll", "verify"]);
        assert_eq!(
            verify.code,
            0,
            "roll verify: {}{}\n{}",
            verify.stdout,
            verify.stderr,
            self.story()
        );
        acted_once(self.game.root(), &self.story());
        self.log_credits_only_comments_made();
        for (path, text) in records(self.game.root()) {
            let first = self
                .records
                .entry(path.clone())
                .or_insert_with(|| text.clone());
            assert_eq!(*first, text, "{path} changed after it was written");
        }
    }

    /// Every credit `gitnomic log` prints (`by @LOGIN, comment N`) names a
    /// comment that was made, by that login: no title or comment can
    /// credit a change to someone else.
    fn log_credits_only_comments_made(&self) {
        let log = self.game.run(&["log"]);
        assert_eq!(log.code, 0, "log: {}{}", log.stdout, log.stderr);
        for line in log.stdout.lines() {
            let Some((_, credit)) = line.split_once("(by @") else {
                continue;
            };
            let mut parts = credit.trim_end_matches(')').split(", ");
            let login = parts.next().unwrap_or_default();
            let comment = parts.find_map(|p| p.strip_prefix("comment "));
            let made = match comment {
                Some(id) => self
                    .comments
                    .iter()
                    .any(|(_, c, by)| c == id && *by == login),
                // An action pull request's change, credited to its author.
                None => LOGINS.contains(&login),
            };
            assert!(
                made,
                "log credits what was never done: {line}\n{}",
                self.story()
            );
        }
    }

    /// What [`twins_agree`](crate::histories_checks::twins_agree) compares.
    fn twin_view(&self) -> crate::histories_checks::TwinView<'_> {
        crate::histories_checks::TwinView {
            root: self.game.root(),
            matters: self.matters.iter().map(|(n, _)| n.clone()).collect(),
            own: self.own.clone(),
            said: self.said.clone(),
            story: self.story(),
        }
    }

    /// A copy of the game (repository and forge) to run alongside.
    fn twin(&self) -> GameTest {
        let twin = GameTest::empty();
        copy_tree(self.game.root(), twin.root());
        twin
    }
}

fn run_in(game: &GameTest, now: &str, args: &[&str]) -> Run {
    let mut all = vec!["--now", now];
    all.extend_from_slice(args);
    game.run(&all)
}

fn opened_number(run: &Run) -> Option<String> {
    let rest = run.stdout.split_once(" #")?.1;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!n.is_empty()).then_some(n)
}

/// The files a change writes, from main as it is now.
fn edit(game: &GameTest, change: &Change, salt: usize) -> Vec<(String, String)> {
    let main = |path: &str| game.read_at("main", path).unwrap();
    match change {
        Change::Springs(player, value) => {
            let mut doc: toml_edit::DocumentMut = main("state/variables.toml").parse().unwrap();
            doc["players"][NAMES[*player]]["springs"] = toml_edit::value(*value);
            vec![("state/variables.toml".into(), doc.to_string())]
        }
        Change::Cap(max) => {
            let text = main("state/schema.toml");
            let at = text.find("max = ").unwrap();
            let end = at + text[at..].find('\n').unwrap();
            let text = format!("{}max = {max}{}", &text[..at], &text[end..]);
            vec![("state/schema.toml".into(), text)]
        }
        Change::Rule => {
            let text = main("rules/dynastic/springs.md") + &format!("\nNote {salt}.\n");
            vec![("rules/dynastic/springs.md".into(), text)]
        }
        Change::Workflow => vec![(".github/workflows/x.yml".into(), "name: x\n".into())],
        Change::Join => {
            let text = main("state/roster.toml")
                + &format!("\n[[players]]\nname = \"New{salt}\"\nlogin = \"new-{salt}\"\n");
            vec![("state/roster.toml".into(), text)]
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(12),
        max_shrink_iters: 20,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
            concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/tests/histories.txt"),
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_step_of_any_history_keeps_the_game_sound(steps in proptest::collection::vec(step(), 8..28)) {
        play(&steps);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(6),
        max_shrink_iters: 20,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
            concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/tests/hostile-histories.txt"),
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_hostile_title_comment_or_file_stops_the_game(steps in proptest::collection::vec(hostile_step(), 8..28)) {
        play(&steps);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(4),
        max_shrink_iters: 20,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(
            concat!(env!("CARGO_MANIFEST_DIR"), "/proptest-regressions/tests/hostile-twins.txt"),
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_steps_change_nothing_else_that_is_decided(steps in proptest::collection::vec(twin_step(), 8..28)) {
        play_twins(&steps);
    }
}

/// A new game, with an action issue to play by comment (every history
/// has one); `benign` for the twin of a hostile history.
fn new_play(benign: bool) -> Play {
    let game = GameTest::committed();
    let mut play = Play {
        game,
        hour: 0,
        matters: Vec::new(),
        comments: Vec::new(),
        actions: Vec::new(),
        records: BTreeMap::new(),
        branches: 0,
        benign,
        own: std::collections::BTreeSet::new(),
        said: std::collections::BTreeSet::new(),
        log: std::cell::RefCell::default(),
    };
    play.apply(&Step::Open {
        author: 1,
        kind: 5,
        change: Change::Rule,
        issue: true,
    });
    play
}

/// Plays `steps` on a new game, checking after each, then lets every
/// matter run out and resolves.
fn play(steps: &[Step]) {
    let mut play = new_play(false);
    for step in steps {
        play.apply(step);
    }
    play.hour += 200;
    play.resolve(None);
    explored(&play, steps);
}

/// Plays `steps` twice, side by side: as they are, and with every hostile
/// step made harmless (see [`twin_step`]); after every run the twins must
/// have decided every matter alike.
fn play_twins(steps: &[Step]) {
    let mut hostile = new_play(false);
    let mut benign = new_play(true);
    for step in steps {
        hostile.apply(step);
        benign.apply(step);
        if matches!(step, Step::Resolve { .. }) {
            crate::histories_checks::twins_agree(&hostile.twin_view(), &benign.twin_view());
        }
    }
    for play in [&mut hostile, &mut benign] {
        play.hour += 200;
        play.resolve(None);
    }
    crate::histories_checks::twins_agree(&hostile.twin_view(), &benign.twin_view());
    explored(&hostile, steps);
}

/// Histories that once failed, found at random, kept as they were shrunk.
mod saved {
    use super::{Change, Kill, Step, play};

    /// A run killed after the dice log and status of an action by comment
    /// was finished with a merge commit of the action pull request unlike
    /// the uninterrupted run's (same tree, another commit).
    #[test]
    fn an_action_merged_by_a_finishing_run_is_the_commit_an_uninterrupted_run_makes() {
        play(&[
            Step::Act {
                matter: 4,
                player: 0,
                command: 5,
            },
            Step::Open {
                author: 0,
                kind: 5,
                change: Change::Springs(3, 5),
                issue: false,
            },
            Step::Resolve {
                kill: Some(Kill::After(2)),
            },
            Step::Vote {
                matter: 7,
                voter: 1,
                word: 0,
            },
            Step::Push {
                matter: 4,
                typo: true,
                value: 9,
            },
            Step::Wait(18),
            Step::Vote {
                matter: 1,
                voter: 3,
                word: 0,
            },
            Step::Vote {
                matter: 7,
                voter: 5,
                word: 2,
            },
        ]);
    }
}
