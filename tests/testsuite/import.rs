//! `gitnomic import ruleset`: on the seed dumps in `../shared/seeds` (read
//! at run time, never copied here; the tests say "skipped" without them)
//! and on a small dump of our own.

use std::path::{Path, PathBuf};

use crate::game_test::{GameTest, Run, run_at};

/// The seeds, each checked against its `.expected.tsv`.
const SEEDS: &[&str] = &[
    "blognomic-ruleset-49",
    "blognomic-ruleset-53",
    "blognomic-ruleset-73",
];

/// The most entries a seed's hints file may have: hints stay small.
const MAX_HINTS: usize = 5;

/// A row of an `.expected.tsv`: a rule in order.
#[derive(Debug)]
struct Row {
    number: String,
    confidence: String,
    title: String,
    section: String,
}

struct Seed {
    name: &'static str,
    dump: PathBuf,
    hints: PathBuf,
    rows: Vec<Row>,
}

/// The seeds, or `None` (with a message) when `../shared/seeds` is absent.
fn seeds() -> Option<Vec<Seed>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds");
    if !dir.is_dir() {
        println!("skipped: ../shared/seeds not found");
        return None;
    }
    let hints = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/import-hints");
    Some(
        SEEDS
            .iter()
            .map(|name| {
                let expected = dir.join(format!("{name}.expected.tsv"));
                let text = std::fs::read_to_string(&expected)
                    .unwrap_or_else(|e| panic!("{}: {e}", expected.display()));
                Seed {
                    name,
                    dump: dir.join(format!("{name}.txt")),
                    hints: hints.join(format!("{name}.toml")),
                    rows: parse_expected(&text),
                }
            })
            .collect(),
    )
}

fn parse_expected(text: &str) -> Vec<Row> {
    let mut section = String::new();
    let mut rows = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with("# ") && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "malformed row: {line}");
        if let Some(kind) = fields[0].strip_prefix("## SECTION ") {
            section = kind.to_string();
        } else {
            rows.push(Row {
                number: fields[0].to_string(),
                confidence: fields[2].to_string(),
                title: fields[3].to_string(),
                section: section.clone(),
            });
        }
    }
    rows
}

/// Runs `gitnomic import ruleset DUMP ARGS…` in a scratch directory.
fn import(dump: &Path, args: &[&str]) -> (GameTest, Run) {
    let game = GameTest::empty();
    let mut all = vec!["import", "ruleset", dump.to_str().unwrap()];
    all.extend(args);
    let run = game.run(&all);
    (game, run)
}

/// `number, section, title` rows of `import --list`, with or without hints.
fn listed(seed: &Seed, hints: bool) -> Vec<[String; 3]> {
    let mut args = vec!["--list"];
    if hints {
        args.extend(["--hints", seed.hints.to_str().unwrap()]);
    }
    let (_game, run) = import(&seed.dump, &args);
    assert_eq!(run.code, 0, "{}: {}", seed.name, run.stderr);
    run.stdout
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "{l}");
            [f[0].to_string(), f[1].to_string(), f[2].to_string()]
        })
        .collect()
}

/// How many rows marked C or L in a seed's `.expected.tsv` the import
/// numbers right with no hints, out of how many. Rows are matched by
/// title, in order, so a missing or extra title does not shift the rest.
fn sure_numbers_right(seed: &Seed, rows: &[[String; 3]]) -> (usize, usize, Vec<String>) {
    let mut next = 0;
    let (mut right, mut total) = (0, 0);
    let mut wrong = Vec::new();
    for row in &seed.rows {
        let found = rows[next..].iter().position(|r| r[2] == row.title);
        let number = found.map(|k| {
            next += k + 1;
            rows[next - 1][0].as_str()
        });
        if row.confidence == "C" || row.confidence == "L" {
            total += 1;
            if number == Some(row.number.as_str()) {
                right += 1;
            } else {
                wrong.push(format!(
                    "{} is {} but imported as {}",
                    row.title,
                    row.number,
                    number.unwrap_or("(missing)")
                ));
            }
        }
    }
    (right, total, wrong)
}

/// The figure issue 11 asks for, printed per seed (run with
/// `--nocapture` to see it).
#[test]
fn report_sure_numbers_right_without_hints() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let (right, total, wrong) = sure_numbers_right(seed, &listed(seed, false));
        println!(
            "{}: {right} of {total} C/L rows numbered right without hints",
            seed.name
        );
        for w in &wrong {
            println!("  {w}");
        }
        assert!(total > 20, "{}: only {total} C/L rows", seed.name);
    }
}

#[test]
fn titles_and_sections_match_without_hints_except_guesses() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let guessed: Vec<&str> = seed
            .rows
            .iter()
            .filter(|r| r.confidence == "G")
            .map(|r| r.title.as_str())
            .collect();
        let expected: Vec<(&str, &str)> = seed
            .rows
            .iter()
            .filter(|r| r.confidence != "G")
            .map(|r| (r.title.as_str(), r.section.as_str()))
            .collect();
        let rows = listed(seed, false);
        let found: Vec<(&str, &str)> = rows
            .iter()
            .filter(|r| !guessed.contains(&r[2].as_str()))
            .map(|r| (r[2].as_str(), r[1].as_str()))
            .collect();
        assert_eq!(found, expected, "{}", seed.name);
    }
}

#[test]
fn with_hints_titles_sections_and_sure_numbers_match() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let rows = listed(seed, true);
        let titles: Vec<(&str, &str)> = rows
            .iter()
            .map(|r| (r[2].as_str(), r[1].as_str()))
            .collect();
        let expected: Vec<(&str, &str)> = seed
            .rows
            .iter()
            .map(|r| (r.title.as_str(), r.section.as_str()))
            .collect();
        assert_eq!(titles, expected, "{}", seed.name);
        let mut checked = 0;
        for (row, got) in seed.rows.iter().zip(&rows) {
            if row.confidence == "C" || row.confidence == "L" {
                assert_eq!(got[0], row.number, "{}: {}", seed.name, row.title);
                checked += 1;
            }
        }
        assert!(
            checked > 10,
            "{}: only {checked} numbers checked",
            seed.name
        );
    }
}

#[test]
fn hints_are_few_and_hold_no_rule_text() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let text = std::fs::read_to_string(&seed.hints).unwrap();
        let entries = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or_default())
            .map(|l| match l.split_once("= [") {
                Some((_, list)) => list
                    .split(',')
                    .filter(|n| !n.trim().trim_end_matches(']').is_empty())
                    .count(),
                None => usize::from(l.contains('=')),
            })
            .sum::<usize>();
        assert!(entries <= MAX_HINTS, "{}: {entries} hints", seed.name);
        for row in seed.rows.iter().filter(|r| r.title.contains(' ')) {
            assert!(!text.contains(&row.title), "{} quotes a title", seed.name);
        }
    }
}

/// A dump line as text, without list marker and indentation.
fn content(line: &str) -> &str {
    let line = line.trim();
    for marker in ["• ", "- ", "* "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return rest.trim_start();
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    match line[digits..].strip_prefix(". ") {
        Some(rest) if digits > 0 => rest.trim_start(),
        _ => line,
    }
}

#[test]
fn the_round_trip_through_the_written_files_gives_back_every_line() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let dump = std::fs::read_to_string(&seed.dump).unwrap();
        let out = GameTest::empty();
        let dir = out.path("game");
        let (_game, run) = import(
            &seed.dump,
            &[
                "--out",
                dir.to_str().unwrap(),
                "--hints",
                seed.hints.to_str().unwrap(),
            ],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let files = gitnomic::load::read(
            &gitnomic::load::Origin::Dir(dir.clone()),
            &["rules", "state"],
        )
        .unwrap();
        let game = gitnomic::game::Game::check(&files);
        assert!(game.problems.is_empty(), "{}", game.problems);
        let rendered = gitnomic::import::plain::render(&game.ruleset).unwrap();
        let found: Vec<&str> = rendered
            .iter()
            .map(|l| content(l))
            .filter(|l| !l.is_empty())
            .collect();
        let lines: Vec<&str> = dump.lines().collect();
        let first = lines.iter().position(|l| l.trim() == "Core Rules").unwrap();
        let expected: Vec<&str> = lines[first..]
            .iter()
            .map(|l| content(l))
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(found, expected, "{}", seed.name);
        let name = game.state.unwrap().name;
        assert_eq!(
            name,
            lines[0].trim(),
            "{}: the page title names the game",
            seed.name
        );
    }
}

#[test]
fn imported_seeds_check_and_number_as_listed() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        for hints in [false, true] {
            let out = GameTest::empty();
            let dir = out.path("game");
            let mut args = vec!["--out", dir.to_str().unwrap()];
            if hints {
                args.extend(["--hints", seed.hints.to_str().unwrap()]);
            }
            let (_game, run) = import(&seed.dump, &args);
            assert_eq!(run.code, 0, "{}", run.stderr);
            let check = run_at(&dir, &["check", "--list"]);
            assert_eq!(check.code, 0, "{}: {}", seed.name, check.stderr);
            let listed: Vec<String> = listed(seed, hints).iter().map(|r| r.join("\t")).collect();
            let checked: Vec<&str> = check.stdout.lines().collect();
            assert_eq!(checked, listed, "{}", seed.name);
            // And the imported rules render: the site builds with every link whole.
            let build = run_at(&dir, &["-q", "build", "--no-history", "--check-links"]);
            assert_eq!(build.code, 0, "{}: {}", seed.name, build.stderr);
            let ruleset = std::fs::read_to_string(dir.join("public/ruleset/index.html")).unwrap();
            let last = listed
                .last()
                .and_then(|row| row.split('\t').nth(2))
                .unwrap_or_default()
                .to_string();
            assert!(
                ruleset.contains(&html_escape(&last)),
                "{}: the last rule, {last}, is not on the page",
                seed.name
            );
        }
    }
}

/// A small dump in the spaced style, in our own words.
const OWN_DUMP: &str = "Ruleset of Lamps\n\nFrom BlogNomic Wiki\nJump to navigation Jump to search\n\nCore Rules\n\nLamps\n\nThis is the ruleset; all Lamplighters shall obey it. The game is led by one Lamplighter, known as the Lantern.\n\nLamplighters\n\nEach Lamplighter carries *one* lamp.\n\nDynastic Rules\n\nWicks\n\nWicks are listed in subrules of this rule:\n\n  • short\n  • long\n\nCotton\n\n  • Burns: slowly\n\nHemp\n\n  • Burns: brightly\n\nGlossary\n\nWords\n\nThese words mean:\n\n  • Dusk\n  • The hour {{ lamps }} are lit.\n  • Wick\n  • \"what burns\"\n  • Oil\n  • A fuel.\n";

fn own_dump(game: &GameTest) -> PathBuf {
    game.write("lamps.txt", OWN_DUMP);
    game.path("lamps.txt")
}

#[test]
fn an_own_dump_imports_with_terms_glossary_and_subrules() {
    let game = GameTest::empty();
    let dump = own_dump(&game);
    let run = game.run(&["import", "ruleset", dump.to_str().unwrap(), "--list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "1.1\tcore\tLamps\n1.2\tcore\tLamplighters\n2.1\tdynastic\tWicks\n2.1.1\tdynastic\tCotton\n2.1.2\tdynastic\tHemp\n3.1\tglossary\tWords\n"
    );
    let dir = game.path("game");
    let run = game.run(&[
        "import",
        "ruleset",
        dump.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("terms: Lamplighter / Lamplighters, Lantern / Lanterns"),
        "{}",
        run.stdout
    );
    let players = game.read("game/rules/core/lamplighters.md");
    assert!(players.contains("title = \"{{ players }}\""), "{players}");
    assert!(
        players.contains("Each {{ player }} carries \\*one\\* lamp."),
        "{players}"
    );
    assert_eq!(run_at(&dir, &["check"]).code, 0);
    let files =
        gitnomic::load::read(&gitnomic::load::Origin::Dir(dir), &["rules", "state"]).unwrap();
    let checked = gitnomic::game::Game::check(&files);
    assert!(checked.problems.is_empty(), "{}", checked.problems);
    assert_eq!(checked.state.unwrap().name, "Ruleset of Lamps");
    let words = checked.ruleset.get("words").unwrap();
    let terms: Vec<(&str, &str)> = words
        .terms
        .iter()
        .map(|t| (t.term.as_str(), t.definition.as_str()))
        .collect();
    assert_eq!(
        terms,
        [
            ("Dusk", "The hour {{ lamps }} are lit."),
            ("Wick", "\"what burns\""),
            ("Oil", "A fuel.")
        ]
    );
    assert_eq!(words.body, "These words mean:\n");
}

/// `import --force` killed (a real SIGKILL) at its one rename (the
/// exchange), past it, and at unlinks as it cleans up: the game holds its
/// old rules or the new ones, never neither, and the next import leaves
/// nothing beside the game. (Set aside
/// and then renamed in, a kill between the two left no `rules/`, and the
/// old rules only in a hidden directory.)
#[test]
fn an_import_killed_while_replacing_rules_leaves_the_old_or_the_new() {
    if !crate::kill_sweep::strace() {
        return;
    }
    let game = GameTest::empty();
    let dump = own_dump(&game);
    let dump = dump.to_str().unwrap();
    let dir = game.path("game");
    let out = dir.to_str().unwrap();
    let old_rule = "game/rules/dynastic/extra.md";
    let fresh = || {
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(game.run(&["import", "ruleset", dump, "--out", out]).code, 0);
        game.write(old_rule, "+++\nid = \"extra\"\ntitle = \"Extra\"\n+++\n");
    };
    for (kind, k) in [
        ("rename,renameat,renameat2", 1),
        ("rename,renameat,renameat2", 2),
        ("unlink,unlinkat", 1),
        ("unlink,unlinkat", 3),
    ] {
        fresh();
        let status = std::process::Command::new("strace")
            .args(["-f", "-qq", "-o", "/dev/null"])
            .arg(format!("-etrace={kind}"))
            .arg(format!("-einject={kind}:signal=SIGKILL:when={k}"))
            .arg(env!("CARGO_BIN_EXE_gitnomic"))
            .args(["import", "ruleset", dump, "--out", out, "--force"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        let old = dir.join("rules/dynastic/extra.md").is_file();
        let new = dir.join("rules/core/lamps.md").is_file();
        assert!(
            new,
            "{kind} #{k} ({status}): the game has no rules/ (or half of one)"
        );
        if status.success() {
            assert!(
                !old,
                "{kind} #{k}: the import ended, but the old rules are in place"
            );
        }
        let again = game.run(&["import", "ruleset", dump, "--out", out, "--force"]);
        assert_eq!(again.code, 0, "{kind} #{k}: {}", again.stderr);
        assert!(!dir.join("rules/dynastic/extra.md").exists());
        let beside: Vec<String> = std::fs::read_dir(game.root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".game."))
            .collect();
        assert!(
            beside.is_empty(),
            "{kind} #{k}: left beside the game: {beside:?}"
        );
    }
}

#[test]
fn existing_rules_are_replaced_only_with_force_and_state_is_kept() {
    let game = GameTest::empty();
    let dump = own_dump(&game);
    let dir = game.path("game");
    let out = dir.to_str().unwrap();
    let dump = dump.to_str().unwrap();
    assert_eq!(game.run(&["import", "ruleset", dump, "--out", out]).code, 0);
    let ours = game
        .read("game/state/game.toml")
        .replace("Ruleset of Lamps", "Our Game");
    game.write("game/state/game.toml", &ours);
    let again = game.run(&["import", "ruleset", dump, "--out", out]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("--force"), "{}", again.stderr);
    game.write(
        "game/rules/dynastic/extra.md",
        "+++\nid = \"extra\"\ntitle = \"Extra\"\n+++\n",
    );
    let forced = game.run(&["import", "ruleset", dump, "--out", out, "--force"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert!(
        !game.path("game/rules/dynastic/extra.md").exists(),
        "old rules are replaced"
    );
    assert_eq!(
        game.read("game/state/game.toml"),
        ours,
        "existing state is kept"
    );
    let leftovers: Vec<_> = std::fs::read_dir(game.root())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        2,
        "no temporary directory is left: {leftovers:?}"
    );
}

#[test]
fn a_failed_import_writes_nothing() {
    let game = GameTest::empty();
    game.write("notes.txt", "Just some notes\n\nwith no sections at all.\n");
    let dir = game.path("game");
    let run = game.run(&[
        "import",
        "ruleset",
        game.path("notes.txt").to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no section heading"), "{}", run.stderr);
    let entries: Vec<_> = std::fs::read_dir(game.root())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries, ["notes.txt"]);
}

#[test]
fn bad_hints_are_refused_with_their_line() {
    let game = GameTest::empty();
    let dump = own_dump(&game);
    game.write("hints.toml", "[parents]\n8 = 100\n");
    let run = game.run(&[
        "import",
        "ruleset",
        dump.to_str().unwrap(),
        "--list",
        "--hints",
        game.path("hints.toml").to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("hint for line"), "{}", run.stderr);
}

/// Whether a warning in `stderr` names `line` (`line 7: …` or `lines 5,
/// 7: …` after the file's name, or `(line 7)` among the rules a question's
/// answer renumbers).
fn named(stderr: &str, line: usize) -> bool {
    let warnings = || stderr.lines().filter_map(|l| l.strip_prefix("warning: "));
    warnings()
        .filter_map(|l| l.split(": ").nth(1))
        .filter_map(|head| {
            head.strip_prefix("lines ")
                .or_else(|| head.strip_prefix("line "))
        })
        .any(|list| list.split(", ").any(|n| n == line.to_string()))
        || warnings().any(|w| w.contains(": question ") && w.contains(&format!("(line {line})")))
}

/// With hints, nothing goes against them and no hinted rule's own place
/// is in doubt; what the hints leave open still is, and is named.
#[test]
fn with_hints_only_what_they_leave_open_is_in_doubt() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let (_game, run) = import(
            &seed.dump,
            &["--list", "--hints", seed.hints.to_str().unwrap()],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let hints =
            gitnomic::import::Hints::parse(&std::fs::read_to_string(&seed.hints).unwrap()).unwrap();
        for line in run.stderr.lines().filter(|l| l.starts_with("warning:")) {
            assert!(
                line.contains(": question ")
                    || line.contains("anchors the numbers")
                    || line.contains("taken for a rule title, as a hint places it"),
                "{}: {line}",
                seed.name
            );
            for hinted in hints.parents.keys() {
                assert!(
                    !line.contains(&format!(": line {hinted}: question")),
                    "{}: {line}",
                    seed.name
                );
            }
        }
        assert!(run.stderr.contains(" question"), "{}", run.stderr);
    }
    // Without hints, which two of the four rules after 49's first dynastic
    // rule are top-level is left to the words of their titles: no rule the
    // text places moves with the choice (the cited 2.3.1 is 2.3.1 either
    // way), so it is not asked; and it is right.
    let r49 = seeds.iter().find(|s| s.name.ends_with("49")).unwrap();
    let (_game, run) = import(&r49.dump, &["--list"]);
    for line in [126, 138] {
        assert!(!named(&run.stderr, line), "{}", run.stderr);
    }
    let list = r49.dump.with_file_name("blognomic-ruleset-49.expected.tsv");
    let text = std::fs::read_to_string(&r49.dump).unwrap();
    let imported = gitnomic::import::blognomic::import(&text, "dump", &Default::default()).unwrap();
    let want = expected_numbers(&list);
    assert_eq!(right_numbers(&imported, &want), want.len());
}

/// Issue 11's target: with no hints, at least 95% of the C and L rows of
/// each seed are numbered right, none of their titles is lost, and every
/// one numbered wrong is named in a warning.
#[test]
fn without_hints_sure_numbers_meet_the_target() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let (_game, run) = import(&seed.dump, &["--list"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let rows = listed(seed, false);
        let (right, total, wrong) = sure_numbers_right(seed, &rows);
        assert!(
            right * 100 >= total * 95,
            "{}: {right} of {total}: {wrong:#?}",
            seed.name
        );
        for row in seed.rows.iter().filter(|r| r.confidence != "G") {
            assert!(
                rows.iter().any(|r| r[2] == row.title),
                "{}: {} lost",
                seed.name,
                row.title
            );
        }
        // A title the text cannot tell from a body line (a guess, G) is
        // found, or a warning names its line as in doubt.
        for row in seed.rows.iter().filter(|r| r.confidence == "G") {
            let line = seed_line(seed, &row.title);
            assert!(
                rows.iter().any(|r| r[2] == row.title) || named(&run.stderr, line),
                "{}: {} lost, and no warning names line {line}",
                seed.name,
                row.title
            );
        }
        for w in &wrong {
            let title = w.split(" is ").next().unwrap_or_default();
            let line = seed_line(seed, title);
            assert!(
                named(&run.stderr, line),
                "{}: {w}, and no warning names line {line}",
                seed.name
            );
        }
    }
}

/// The invented dumps of `../shared/seeds/synthetic` (README there), each
/// with the expected list it is checked against: s1b and s1c have s1's
/// numbers on the same lines.
const SYNTHETIC: &[(&str, &str)] = &[
    ("s1", "s1"),
    ("s1b", "s1"),
    ("s1c", "s1"),
    ("s2", "s2"),
    ("s2a", "s2a"),
    ("s3", "s3"),
    ("s4", "s4"),
    ("s6", "s6"),
];

/// `(number, line, confidence)` of each row of an expected list.
fn expected_rows(text: &str) -> Vec<(String, usize, String)> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with("# ") && !l.starts_with("## SECTION"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "malformed row: {l}");
            (f[0].to_string(), f[1].parse().unwrap(), f[2].to_string())
        })
        .collect()
}

/// Each invented dump shows one way nesting can be misread: the sure rows
/// (C, L) are numbered as the wiki would, and so their parents are; a
/// guess (G, rules the text cannot place, as in s2) is numbered right or
/// named in a warning. No row is numbered wrong without a word.
#[test]
fn synthetic_dumps_number_every_row_right_or_name_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds/synthetic");
    if !dir.is_dir() {
        println!("skipped: ../shared/seeds/synthetic not found");
        return;
    }
    for (dump, list) in SYNTHETIC {
        let path = dir.join(format!("{dump}.txt"));
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let expected = std::fs::read_to_string(dir.join(format!("{list}.expected.tsv"))).unwrap();
        let (_game, run) = import(&path, &["--list"]);
        assert_eq!(run.code, 0, "{dump}: {}", run.stderr);
        let listed: Vec<Vec<&str>> = run
            .stdout
            .lines()
            .map(|l| l.split('\t').collect())
            .collect();
        let mut next = 0;
        let mut flagged = 0;
        for (number, line, confidence) in expected_rows(&expected) {
            let title = lines[line - 1].trim();
            let at = listed[next..]
                .iter()
                .position(|r| r[2] == title)
                .unwrap_or_else(|| panic!("{dump}: {title} (line {line}) not found"));
            next += at + 1;
            let got = listed[next - 1][0];
            if confidence == "G" && got != number {
                assert!(
                    named(&run.stderr, line),
                    "{dump}: {title} is {number} but numbered {got}, and no warning names line {line}:\n{}",
                    run.stderr
                );
                flagged += 1;
            } else {
                assert_eq!(got, number, "{dump}: {title} (line {line})");
            }
        }
        if *dump == "s2" {
            // Two rules are subrules by topic only: the text cannot number
            // them nor the rules after them, and says so.
            assert!(flagged > 2, "s2: {flagged} rows flagged");
            for line in [30, 34] {
                assert!(named(&run.stderr, line), "s2: line {line}\n{}", run.stderr);
            }
        }
        assert!(run.stderr.contains(" question"), "{dump}: {}", run.stderr);
    }
}

/// s5 words the core rules of the latest ruleset otherwise (its voting
/// rule has another title, the Seasonal Downtime is only a title): its
/// preset is still found, said and declared.
#[test]
fn the_latest_preset_is_found_in_other_words() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds/synthetic/s5.txt");
    if !path.is_file() {
        println!("skipped: ../shared/seeds/synthetic/s5.txt not found");
        return;
    }
    let out = GameTest::empty();
    let dir = out.path("game");
    let (_game, run) = import(&path, &["--out", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("preset blognomic-113: "),
        "{}",
        run.stdout
    );
    // Declared, not just the default: a core rule's [params] names it.
    let declared = std::fs::read_dir(dir.join("rules/core"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter(|text| text.contains("preset = \"blognomic-113\""))
        .count();
    assert_eq!(declared, 1);
    let files =
        gitnomic::load::read(&gitnomic::load::Origin::Dir(dir), &["rules", "state"]).unwrap();
    let game = gitnomic::game::Game::check(&files);
    assert!(game.problems.is_empty(), "{}", game.problems);
    assert_eq!(game.params.unwrap().preset, "blognomic-113");
}

/// The dump line of a title (its first whole-line occurrence).
fn seed_line(seed: &Seed, title: &str) -> usize {
    let dump = std::fs::read_to_string(&seed.dump).unwrap();
    dump.lines()
        .position(|l| l.trim() == title)
        .map_or(0, |i| i + 1)
}

/// A hint against a numbered citation is applied, and what it puts in
/// doubt is said.
#[test]
fn a_hint_against_the_evidence_is_applied_and_its_doubts_said() {
    let Some(seeds) = seeds() else { return };
    let r73 = seeds.iter().find(|s| s.name.ends_with("73")).unwrap();
    let game = GameTest::empty();
    game.write("hints.toml", "[parents]\n78 = 0\n");
    let hints = game.path("hints.toml");
    let (_game, run) = import(&r73.dump, &["--list", "--hints", hints.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("2.2\tdynastic\tTrading\n"),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains(": question "), "{}", run.stderr);
}

/// Each seed's core rules match the preset of its own ruleset: the import
/// says so and the imported game declares it, so it tallies that way.
#[test]
fn the_matching_preset_is_chosen_said_and_declared() {
    let Some(seeds) = seeds() else { return };
    for seed in &seeds {
        let want = seed.name.replace("-ruleset", "");
        let out = GameTest::empty();
        let dir = out.path("game");
        let (_game, run) = import(&seed.dump, &["--out", dir.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stdout.contains(&format!("preset {want}: ")),
            "{}: {}",
            seed.name,
            run.stdout
        );
        let files = gitnomic::load::read(
            &gitnomic::load::Origin::Dir(dir.clone()),
            &["rules", "state"],
        )
        .unwrap();
        let game = gitnomic::game::Game::check(&files);
        assert!(game.problems.is_empty(), "{}", game.problems);
        assert_eq!(game.params.unwrap().preset, want, "{}", seed.name);
        let (_game, listed) = import(&seed.dump, &["--list"]);
        assert!(
            listed.stderr.contains(&format!("preset {want}: ")),
            "{}",
            listed.stderr
        );
    }
}

/// What the site's templates make of `&`, `<`, `>` and quotes in text.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

/// Every dump with an expected list, given and synthetic: (dump, list),
/// both paths, or `None` (with a message) when `../shared/seeds` is absent.
/// s1b and s1c have s1's numbers on the same lines, s6f s6's.
fn every_dump() -> Option<Vec<(String, PathBuf, PathBuf)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds");
    if !dir.is_dir() {
        println!("skipped: ../shared/seeds not found");
        return None;
    }
    let mut dumps: Vec<(String, PathBuf, PathBuf)> = SEEDS
        .iter()
        .map(|name| {
            (
                name.to_string(),
                dir.join(format!("{name}.txt")),
                dir.join(format!("{name}.expected.tsv")),
            )
        })
        .collect();
    let synthetic = dir.join("synthetic");
    for (dump, list) in SYNTHETIC.iter().chain(&[("s6f", "s6")]) {
        dumps.push((
            dump.to_string(),
            synthetic.join(format!("{dump}.txt")),
            synthetic.join(format!("{list}.expected.tsv")),
        ));
    }
    Some(dumps)
}

/// A dump's expected numbers by title line.
fn expected_numbers(list: &Path) -> std::collections::BTreeMap<usize, String> {
    let text = std::fs::read_to_string(list).unwrap();
    expected_rows(&text)
        .into_iter()
        .map(|(number, line, _)| (line, number))
        .collect()
}

/// How many of the expected rules an import numbers right (same title
/// line, same number).
fn right_numbers(
    imported: &gitnomic::import::Imported,
    want: &std::collections::BTreeMap<usize, String>,
) -> usize {
    imported
        .numbers()
        .iter()
        .filter(|(line, number)| want.get(line) == Some(number))
        .count()
}

/// How many rules of the expected list have another parent in the import
/// (or are not found), and how many rules the import has that the list
/// has not: the decisions a person has to correct.
fn wrong_parents(
    imported: &gitnomic::import::Imported,
    want: &std::collections::BTreeMap<usize, String>,
) -> usize {
    let by_number: std::collections::BTreeMap<&str, usize> =
        want.iter().map(|(line, n)| (n.as_str(), *line)).collect();
    let want_parent = |number: &str| -> usize {
        let parent = number.rsplit_once('.').map_or("", |(p, _)| p);
        by_number.get(parent).copied().unwrap_or(0)
    };
    let line_of: std::collections::BTreeMap<&str, usize> = imported
        .rules
        .iter()
        .map(|r| (r.id.as_str(), r.line))
        .collect();
    let got: std::collections::BTreeMap<usize, usize> = imported
        .rules
        .iter()
        .map(|r| {
            let parent = r.parent.as_ref().map_or(0, |p| line_of[p.as_str()]);
            (r.line, parent)
        })
        .collect();
    let wrong = want
        .iter()
        .filter(|(line, number)| got.get(line) != Some(&want_parent(number)))
        .count();
    wrong + got.keys().filter(|l| !want.contains_key(l)).count()
}

/// What a simulated user did with one dump.
struct Answered {
    asked: usize,
    before: usize,
    after: usize,
    total: usize,
    wrong_parents: usize,
    needed: Option<usize>,
    answers: usize,
}

/// A user who answers each question truthfully from the expected list,
/// one at a time in the order asked (the first question, then import
/// again): a rule's number in `[numbers]`, a line the list has no rule
/// on in `not_titles`.
fn answer_questions(dump: &Path, want: &std::collections::BTreeMap<usize, String>) -> Answered {
    let text = std::fs::read_to_string(dump).unwrap();
    let mut hints = gitnomic::import::Hints::default();
    let import = |hints: &gitnomic::import::Hints| {
        gitnomic::import::blognomic::import(&text, "dump", hints)
            .unwrap_or_else(|e| panic!("{}: {e} with {hints:?}", dump.display()))
    };
    let mut imported = import(&hints);
    let first = (
        imported.questions.len(),
        right_numbers(&imported, want),
        wrong_parents(&imported, want),
    );
    let mut needed = None;
    let mut answers = 0;
    loop {
        if needed.is_none()
            && right_numbers(&imported, want) == want.len()
            && imported.rules.len() == want.len()
        {
            needed = Some(answers);
        }
        let Some(q) = imported.questions.first() else {
            break;
        };
        assert!(
            answers < 100,
            "{}: the questions do not end",
            dump.display()
        );
        match want.get(&q.line) {
            Some(number) => {
                let parsed = gitnomic::import::hints::parse_number(number).unwrap();
                hints.numbers.insert(q.line, parsed);
            }
            None => {
                hints.not_titles.insert(q.line);
            }
        }
        answers += 1;
        imported = import(&hints);
    }
    Answered {
        asked: first.0,
        before: first.1,
        after: right_numbers(&imported, want),
        total: want.len(),
        wrong_parents: first.2,
        needed,
        answers,
    }
}

/// Issue 38: on every dump, a user who answers the questions truthfully,
/// one at a time in the order asked, ends with every number right, and
/// needs at most two answers more than there are wrong parents (none when
/// every number is right already). Prints the table of the import docs
/// (run with `--nocapture`). The one exception is a rule that nothing in
/// the text places nor leans on (ruleset 73's rule at line 268, a guess
/// of its list): it is not asked about, by design, and stays wrong.
#[test]
fn truthful_answers_to_the_questions_number_every_rule() {
    let Some(dumps) = every_dump() else { return };
    println!(
        "| dump | wrong parents | questions asked | answers needed | all answered | numbers right before | after |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (name, dump, list) in &dumps {
        let want = expected_numbers(list);
        let a = answer_questions(dump, &want);
        let needed = a.needed.map_or("-".to_string(), |n| n.to_string());
        println!(
            "| {name} | {} | {} | {needed} | {} | {}/{} | {}/{} |",
            a.wrong_parents, a.asked, a.answers, a.before, a.total, a.after, a.total
        );
        let unplaced = usize::from(name == "blognomic-ruleset-73");
        assert_eq!(
            a.after + unplaced,
            a.total,
            "{name}: not every number right"
        );
        if unplaced == 0 {
            let needed = a.needed.unwrap();
            assert!(
                needed <= a.wrong_parents + 2,
                "{name}: {needed} answers for {} wrong parents",
                a.wrong_parents
            );
            if a.before == a.total {
                assert_eq!(needed, 0, "{name}");
            }
        }
    }
}

/// s6 and s6f are numbered right, or every rule numbered wrong is named
/// in a question (as the rule asked about, or among those its other
/// answer renumbers), never silent; and in the files, marked in doubt.
#[test]
fn s6_and_s6f_are_numbered_right_or_asked() {
    let Some(dumps) = every_dump() else { return };
    for (name, dump, list) in dumps.iter().filter(|d| d.0.starts_with("s6")) {
        let want = expected_numbers(list);
        let text = std::fs::read_to_string(dump).unwrap();
        // With no hints, and with the hint that confirms 2.2.1's place.
        for hints in ["", "[parents]\n30 = 26\n"] {
            let hints = gitnomic::import::Hints::parse(hints).unwrap();
            let imported = gitnomic::import::blognomic::import(&text, "dump", &hints).unwrap();
            for (line, got) in imported.numbers() {
                let number = &want[&line];
                if &got == number {
                    continue;
                }
                let asked = imported.questions.iter().any(|q| {
                    q.line == line && q.other.as_ref() == Some(number)
                        || q.moves.iter().any(|m| m.line == line && &m.other == number)
                });
                assert!(
                    asked,
                    "{name} {hints:?}: line {line} is {number}, numbered {got}, and not asked: {:?}",
                    imported.questions
                );
                let rule = imported.rules.iter().find(|r| r.line == line).unwrap();
                assert!(rule.doubt.is_some(), "{name}: line {line}");
            }
        }
        if name == "s6" {
            let imported =
                gitnomic::import::blognomic::import(&text, "dump", &Default::default()).unwrap();
            assert_eq!(right_numbers(&imported, &want), want.len(), "s6");
        }
    }
}

/// `--questions FILE` writes a hints file that parses, with the import's
/// answers filled in; passed back unchanged with `--hints`, it leaves no
/// question and no rule file marked in doubt, and the numbers are those
/// of the import without it.
#[test]
fn the_questions_file_round_trips() {
    let Some(mut dumps) = every_dump() else {
        return;
    };
    // s5 has no expected list, but questions all the same.
    let s5 = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/seeds/synthetic/s5.txt");
    dumps.push(("s5".into(), s5, PathBuf::new()));
    for (name, dump, _) in &dumps {
        let game = GameTest::empty();
        let file = game.path("questions.toml");
        let (_g, first) = import(dump, &["--list", "--questions", file.to_str().unwrap()]);
        assert_eq!(first.code, 0, "{name}: {}", first.stderr);
        let text = std::fs::read_to_string(&file).unwrap();
        let hints =
            gitnomic::import::Hints::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        let asked = first
            .stderr
            .lines()
            .find_map(|l| l.split(" question").next()?.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("{name}: no question line: {}", first.stderr));
        assert!(
            hints.len() >= asked,
            "{name}: {asked} questions, {} answers",
            hints.len()
        );
        let dir = game.path("game");
        let (_g, again) = import(
            dump,
            &[
                "--out",
                dir.to_str().unwrap(),
                "--hints",
                file.to_str().unwrap(),
            ],
        );
        assert_eq!(again.code, 0, "{name}: {}", again.stderr);
        assert!(
            again.stdout.contains("\n0 questions"),
            "{name}: {}",
            again.stdout
        );
        for entry in walk(&dir.join("rules")) {
            let rule = std::fs::read_to_string(&entry).unwrap();
            assert!(!rule.contains("in doubt"), "{name}: {}", entry.display());
        }
        let (_g, listed) = import(dump, &["--list", "--hints", file.to_str().unwrap()]);
        assert_eq!(
            listed.stdout, first.stdout,
            "{name}: the answers changed a number"
        );
    }
}

/// A user who takes the questions file, corrects every answer from the
/// expected list at once (a line the list has a rule on goes from
/// `not_titles` to `[numbers]`), and passes it back, asking again while
/// there are questions: ends with every number right, in a round or two.
#[test]
fn the_questions_file_corrected_at_once_numbers_every_rule() {
    let Some(dumps) = every_dump() else { return };
    for (name, dump, list) in &dumps {
        let want = expected_numbers(list);
        let game = GameTest::empty();
        let file = game.path("q.toml");
        let mut hints = gitnomic::import::Hints::default();
        let mut rounds = 0;
        loop {
            game.write(
                "given.toml",
                &gitnomic::import::hints::questions_file("d", &hints, &[]),
            );
            let given = game.path("given.toml");
            let args = [
                "--list",
                "--hints",
                given.to_str().unwrap(),
                "--questions",
                file.to_str().unwrap(),
            ];
            let (_g, run) = import(dump, &args);
            assert_eq!(run.code, 0, "{name}: {}", run.stderr);
            if run.stderr.contains("\n0 questions") {
                break;
            }
            rounds += 1;
            assert!(
                rounds <= 3,
                "{name}: still asked after {rounds} rounds: {}",
                run.stderr
            );
            hints =
                gitnomic::import::Hints::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
            for (line, number) in &want {
                let truth = gitnomic::import::hints::parse_number(number).unwrap();
                if hints.numbers.contains_key(line) || hints.not_titles.remove(line) {
                    hints.numbers.insert(*line, truth);
                }
            }
        }
        let text = std::fs::read_to_string(dump).unwrap();
        let imported = gitnomic::import::blognomic::import(&text, "d", &hints).unwrap();
        println!("{name}: {rounds} rounds of corrections");
        let unplaced = usize::from(name == "blognomic-ruleset-73");
        assert_eq!(
            right_numbers(&imported, &want) + unplaced,
            want.len(),
            "{name} after {rounds} rounds"
        );
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// The Contents box a MediaWiki page shows for a dump with this list, as
/// a browser copies it: the sections' numbers and headings, and each
/// rule's number and title (read from the dump at its line).
fn contents_box(dump: &Path, list: &Path) -> String {
    let lines: Vec<String> = std::fs::read_to_string(dump)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut out = String::from("Contents [hide]\n");
    let mut section = 0;
    for row in std::fs::read_to_string(list).unwrap().lines() {
        let f: Vec<&str> = row.split('\t').collect();
        if row.starts_with("## SECTION") {
            section += 1;
            out.push_str(&format!("{section}\t{}\n", f[3]));
        } else if f.len() == 4 && !row.starts_with('#') {
            let line: usize = f[1].parse().unwrap();
            let depth = f[0].matches('.').count();
            out.push_str(&format!(
                "{}{}\t{}\n",
                "  ".repeat(depth),
                f[0],
                lines[line - 1].trim()
            ));
        }
    }
    out
}

/// With the page's Contents box pasted (`--contents FILE`), every number
/// is right and nothing is asked.
#[test]
fn a_pasted_contents_box_numbers_every_rule_with_no_question() {
    let Some(dumps) = every_dump() else { return };
    for (name, dump, list) in &dumps {
        let game = GameTest::empty();
        game.write("contents.txt", &contents_box(dump, list));
        let contents = game.path("contents.txt");
        let (_g, run) = import(dump, &["--list", "--contents", contents.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains("\n0 questions"),
            "{name}: {}",
            run.stderr
        );
        let want: Vec<String> = expected_numbers(list).into_values().collect();
        let got: Vec<String> = run
            .stdout
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect();
        let mut want = want;
        want.sort_by_key(|n| {
            n.split('.')
                .map(|p| p.parse::<u32>().unwrap())
                .collect::<Vec<_>>()
        });
        assert_eq!(got, want, "{name}");
        // The same box copied with the page, after its title: found in the dump.
        let text = std::fs::read_to_string(dump).unwrap();
        let (title, rest) = text.split_once('\n').unwrap();
        game.write(
            "with-contents.txt",
            &format!("{title}\n\n{}\n{rest}", contents_box(dump, list)),
        );
        let (_g, run) = import(&game.path("with-contents.txt"), &["--list"]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        assert!(
            run.stderr.contains("\n0 questions"),
            "{name}: {}",
            run.stderr
        );
        let found: Vec<String> = run
            .stdout
            .lines()
            .map(|l| l.split('\t').next().unwrap().to_string())
            .collect();
        assert_eq!(found, want, "{name}: the contents in the dump");
    }
}

/// `import ruleset DUMP --questions FILE` alone writes the questions and
/// nothing else; an answer changed in the file is taken, and says what it
/// moved.
#[test]
fn questions_alone_write_the_file_and_an_edited_answer_is_taken() {
    let game = GameTest::empty();
    let dump = own_dump(&game);
    let file = game.path("q.toml");
    let dir = game.path("game");
    let run = game.run(&[
        "import",
        "ruleset",
        dump.to_str().unwrap(),
        "--questions",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert!(!dir.exists());
    let text = game.read("q.toml");
    assert!(gitnomic::import::Hints::parse(&text).is_ok(), "{text}");
    assert!(run.stderr.contains("wrote "), "{}", run.stderr);
    // An answer the import did not give: "Hemp" (line 29) is 2.2, not 2.1.2.
    let edited = match text.find("\n29 = \"2.1.2\"\n") {
        Some(at) => format!("{}\n29 = \"2.2\"\n{}", &text[..at], &text[at + 14..]),
        None => format!("{text}29 = \"2.2\"\n"),
    };
    game.write("q.toml", &edited);
    let run = game.run(&[
        "import",
        "ruleset",
        dump.to_str().unwrap(),
        "--list",
        "--hints",
        file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("2.2\tdynastic\tHemp\n"),
        "{}",
        run.stdout
    );
}

/// `import history`: a row closed before it was posted is imported as the
/// table has it, but flagged with its line and counted, never silent.
#[test]
fn import_history_flags_rows_closed_before_they_were_posted() {
    let game = GameTest::bundled();
    let csv = game.path("proposals.csv");
    std::fs::write(
        &csv,
        "title,proposer,postedDate,status,admin,closedDate,lifespan,comments,dynasty\n\
         Forward,Ann,\"03 Aug 2005 05:42:56\",Enacted,?,\"04 Aug 2005 04:16:57\",22,8,28\n\
         Backward,Bo,\"05 Aug 2005 10:00:00\",Failed,Ann,\"05 Aug 2005 09:00:00\",-1,2,28\n",
    )
    .unwrap();
    let run = game.run(&["import", "history", csv.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("proposals.csv:3: flagged: closed (2005-08-05T09:00:00Z) before it was posted (2005-08-05T10:00:00Z)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("proposals.csv:2:"), "{}", run.stderr);
    assert!(
        run.stdout
            .contains("; 1 flagged as closed before they were posted; 0 rows skipped"),
        "{}",
        run.stdout
    );
}
