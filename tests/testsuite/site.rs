//! `gitnomic build` and `gitnomic import history` on the bundled game.

use std::path::Path;

use crate::game_test::GameTest;

/// The text of a built page.
fn page(game: &GameTest, relative: &str) -> String {
    game.read(&format!("public/{relative}"))
}

#[test]
fn the_bundled_game_builds_with_every_link_resolving() {
    let game = GameTest::bundled();
    let run = game.run(&["build", "--check-links"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(" 0 broken"), "{}", run.stderr);
    let ruleset = page(&game, "ruleset/index.html");
    assert!(ruleset.contains("id=\"dynasties\""), "no anchor for a rule");
    assert!(
        ruleset.contains("href=\"../rules/dynasties.html\""),
        "no permalink"
    );
    assert!(
        page(&game, "tracker/index.html")
            .contains("<table class=\"roster sortable stack\" role=\"table\">")
    );
    assert!(page(&game, "pending/index.html").contains("This build asked no forge"));
    // Nothing changed: a second build rewrites nothing.
    let again = game.run(&["build"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.stderr.contains(": 0 changed, "), "{}", again.stderr);
}

#[test]
fn the_history_gives_revisions_diffs_rule_histories_and_charts() {
    let game = GameTest::bundled();
    game.commit_all("The bundled game");
    game.replace(
        "rules/dynastic/springs.md",
        "order = 10\n+++\n",
        "order = 10\n+++\nA new first line.\n",
    );
    game.replace("state/variables.toml", "round = 1", "round = 4");
    game.commit_all("Wind the springs (#12)");
    let run = game.run(&["build", "--check-links"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("2 ruleset revisions"), "{}", run.stderr);
    let revision = page(&game, "rulesets/2.html");
    assert!(
        revision.contains("<a href=\"../rules/springs.html\">2.1 Springs</a>: amended"),
        "{revision}"
    );
    assert!(
        revision.contains(
            "<div class=\"add\"><span class=\"sr\">added: </span><ins>A new first line.</ins></div>"
        ),
        "{revision}"
    );
    let history = page(&game, "rules/springs.html");
    assert!(history.contains("Wind the springs (#12)"), "{history}");
    assert!(history.contains("Ruleset 1</a></td>"), "{history}");
    let tracker = page(&game, "tracker/index.html");
    assert!(
        tracker.contains("<title id=\"_chart-0\">round</title>"),
        "{tracker}"
    );
}

/// Each state of the history renders its rule texts with its own values:
/// a text the states share is rendered once for those with the same
/// values, never given to a state with others.
#[test]
fn each_revision_reads_its_own_parameters_and_terms() {
    let game = GameTest::committed();
    let cfj = "rules/core/calls-for-judgement.md";
    let set = |from: &str, to: &str, message: &str| {
        game.replace(cfj, from, to);
        game.commit_all(message);
    };
    set(
        "cfj_resolve_after_hours = 48",
        "cfj_resolve_after_hours = 72",
        "72 hours",
    );
    game.replace(
        "state/game.toml",
        "player = \"Tinkerer\"",
        "player = \"Winder\"",
    );
    game.commit_all("Winders");
    set(
        "cfj_resolve_after_hours = 72",
        "cfj_resolve_after_hours = 48",
        "48 hours again",
    );
    let run = game.run(&["build"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for (revision, hours, term) in [
        (1, 48, "Tinkerer"),
        (2, 72, "Tinkerer"),
        (3, 72, "Winder"),
        (4, 48, "Winder"),
    ] {
        let text = page(&game, &format!("rulesets/{revision}.html"));
        assert!(
            text.contains(&format!("more than {hours} hours have passed")),
            "revision {revision} does not say {hours} hours"
        );
        assert!(
            text.contains(&format!("any {term} may raise a Call for Judgement")),
            "revision {revision} does not say {term}"
        );
    }
}

#[test]
fn import_history_reports_odd_rows_and_check_accepts_the_records() {
    let game = GameTest::bundled();
    let csv = game.path("proposals.csv");
    std::fs::write(
        &csv,
        "title,proposer,postedDate,status,admin,closedDate,lifespan,comments,dynasty\n\
         \"A, B\",Ann,\"03 Aug  2005 05:42:56\",Enacted,?,\"04 Aug 2005  04:16:57\",22,8,28\n\
         Open one,Bo,\"14 Feb  2025 13:45:00\",Open,-,,-1,6,232\n\
         Bad,Cy,\"01 Jan 2010 00:00:00\",Sideways,Ann,\"02 Jan 2010 00:00:00\",24,3,60\n",
    )
    .unwrap();
    let run = game.run(&["import", "history", csv.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("imported 1 records"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("proposals.csv:3: skipped: the proposal is still open"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("proposals.csv:4: skipped: status `Sideways`"),
        "{}",
        run.stderr
    );
    assert!(
        game.read("content/matters/blognomic/00001.md")
            .contains("title = \"A, B\"")
    );
    let check = game.run(&["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let build = game.run(&["build", "--check-links"]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    assert!(page(&game, "matters/blognomic/1.html").contains("imported from blognomic"));
    assert!(page(&game, "players/ann.html").contains("100%"));
}

/// BlogNomic's real history, when the shared data is on this machine.
#[test]
fn the_real_history_imports_checks_and_builds() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/blognomic-history/proposals.csv");
    if !data.exists() {
        println!("skipped: ../shared/data/blognomic-history/proposals.csv not found");
        return;
    }
    let game = GameTest::bundled();
    let run = game.run(&["import", "history", data.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let imported: usize = run
        .stdout
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let skipped = run
        .stderr
        .lines()
        .filter(|l| l.contains(": skipped: "))
        .count();
    assert!(imported > 15_000, "{}", run.stdout);
    assert!(
        run.stdout.ends_with(&format!("{skipped} rows skipped\n")),
        "{}",
        run.stdout
    );
    let check = game.run(&["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let build = game.run(&["build", "--check-links"]);
    assert_eq!(build.code, 0, "{}", build.stderr);
    assert!(build.stderr.contains(" 0 broken"), "{}", build.stderr);
    // A page a year, and a busy year in pages of 500: no archive page
    // carries more than that.
    for entry in walkdir::WalkDir::new(game.path("public/archive")) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let html = std::fs::read_to_string(entry.path()).unwrap();
            let rows = html.matches("<tr><td data-sort").count();
            assert!(rows <= 500, "{}: {rows} rows", entry.path().display());
        }
    }
    assert!(game.path("public/archive/2021-2.html").exists());
    let archive = page(&game, "archive/index.html");
    assert!(
        archive.contains(&format!(
            "{},{:03} resolved matters",
            imported / 1000,
            imported % 1000
        )),
        "archive count"
    );
}

/// Every file under `dir`, by path relative to it.
fn files_under(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let relative = e.path().strip_prefix(dir).unwrap();
            (
                relative.to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

const RECORD: &str = "+++\nnumber = 7\nkind = \"proposal\"\ntitle = \"Wind faster\"\nauthor = \"Ada\"\ndynasty = 1\nopened = \"2030-03-01T10:00:00Z\"\nresolved = \"2030-03-02T10:00:00Z\"\noutcome = \"failed\"\nresolved_by = \"gitnomic resolve\"\nreasons = []\nvotes = []\nuncounted = []\n+++\nWind the springs faster.\n";

/// A change to the game, and what it is.
type Change<'g> = (&'static str, Box<dyn Fn() + 'g>);

/// Changes a rebuild must follow: a record added, edited and removed, the
/// gamestate and a theme file changed.
fn changes(game: &GameTest) -> Vec<Change<'_>> {
    vec![
        (
            "a new record",
            Box::new(|| game.write("content/matters/00007.md", RECORD)),
        ),
        (
            "a state change",
            Box::new(|| {
                game.replace("state/variables.toml", "round = 1", "round = 4");
            }),
        ),
        (
            "a theme file",
            Box::new(|| game.write("static/style.css", "body { margin: 0; }\n")),
        ),
        (
            "a record's text edited",
            Box::new(|| {
                game.replace(
                    "content/matters/00007.md",
                    "Wind the springs faster.",
                    "Wind the springs a little faster.",
                );
            }),
        ),
        (
            "a deleted record",
            Box::new(|| std::fs::remove_file(game.path("content/matters/00007.md")).unwrap()),
        ),
    ]
}

/// Asserts that the site in `out` is, file for file and byte for byte,
/// the site a full build makes now.
pub(crate) fn assert_as_a_full_build(game: &GameTest, out: &str, what: &str) {
    let full = game.run(&["build", "--full", "--out", "full", "--cache", "full.cache"]);
    assert_eq!(full.code, 0, "{what}: {}", full.stderr);
    let (built, expected) = (
        files_under(&game.path(out)),
        files_under(&game.path("full")),
    );
    assert_eq!(
        built.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (path, bytes) in &expected {
        assert!(built[path] == *bytes, "{what}: {path} differs");
    }
}

#[test]
fn a_rebuild_renders_what_changed_and_leaves_what_a_full_build_makes() {
    let game = GameTest::bundled();
    let first = game.run(&["build"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        !game.path("public/.gitnomic-site").exists(),
        "no list of files published with the site"
    );
    let again = game.run(&["build"]);
    assert!(
        again.stderr.contains("rendered 0 files"),
        "{}",
        again.stderr
    );
    for (what, change) in changes(&game) {
        change();
        let since = game.run(&["build", "--check-links"]);
        assert_eq!(since.code, 0, "{what}: {}", since.stderr);
        assert!(
            since.stderr.contains(" 0 broken"),
            "{what}: {}",
            since.stderr
        );
        assert!(
            !since.stderr.contains(", kept 0 "),
            "{what}: {}",
            since.stderr
        );
        assert_as_a_full_build(&game, "public", what);
    }
}

#[test]
fn serve_rebuilds_on_each_change_what_a_full_build_makes() {
    let game = GameTest::bundled();
    let serve = Served::start(&game, &["-q", "serve", "--port", "0", "--out", "served"]);
    serve.next("serving ", "the first build");
    for (what, change) in changes(&game) {
        change();
        let rebuilt = serve.next("rebuilt in ", what);
        assert!(!rebuilt.contains(" 0 files"), "{what}: {rebuilt}");
        assert_as_a_full_build(&game, "served", what);
    }
}

/// What a build reads besides the work tree's files: the commit it builds
/// and the local forge's matters. A change of either is served anew.
#[test]
fn serve_rebuilds_after_a_new_commit_or_a_vote_that_changes_no_file() {
    let game = GameTest::committed();
    let rule = game.read("rules/dynastic/springs.md");
    game.commit_on("next", &[("rules/dynastic/springs.md", &rule)], "the same");
    game.open(
        "2030-01-01T00:00:00Z",
        "ada-tinkers",
        "cfj",
        "A question",
        None,
    );
    let now = [
        "--now",
        "2030-01-01T02:00:00Z",
        "-q",
        "serve",
        "--port",
        "0",
    ];
    let serve = Served::start(
        &game,
        &[&now[..], &["--rev", "next", "--out", "served"]].concat(),
    );
    serve.next("serving ", "the first build");
    let amended = rule.replace("starts with three Springs", "starts with five Springs");
    assert_ne!(amended, rule);
    game.commit_on("next", &[("rules/dynastic/springs.md", &amended)], "five");
    serve.next("rebuilt in ", "a new commit of the revision served");
    let ruleset = game.read("served/ruleset/index.html");
    assert!(ruleset.contains("starts with five Springs"), "{ruleset}");
    drop(serve);

    let serve = Served::start(&game, &[&now[..], &["--out", "served"]].concat());
    serve.next("serving ", "the first build");
    game.at(
        "2030-01-01T01:00:00Z",
        &["play", "comment", "1", "FOR", "--as", "boris-b"],
    );
    serve.next("rebuilt in ", "a vote on the local forge");
    let pending = game.read("served/pending/index.html");
    assert!(
        pending.contains("a comment, 01:00 UTC on 1 Jan 2030"),
        "{pending}"
    );
}

/// A `gitnomic serve` running on a game, and its output lines as they come:
/// a rebuild is waited for, not slept on. Killed when dropped.
pub(crate) struct Served {
    _child: Stopped,
    said: std::sync::mpsc::Receiver<String>,
}

impl Served {
    pub(crate) fn start(game: &GameTest, args: &[&str]) -> Served {
        use std::io::{BufRead as _, BufReader};
        use std::process::{Command, Stdio};
        let child = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
            .arg("--root")
            .arg(game.root())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve starts");
        let mut child = Stopped(child);
        let (lines, said) = std::sync::mpsc::channel();
        let stdout = child.0.stdout.take().expect("piped");
        let stderr = child.0.stderr.take().expect("piped");
        for output in [
            Box::new(stdout) as Box<dyn std::io::Read + Send>,
            Box::new(stderr),
        ] {
            let lines = lines.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(output).lines().map_while(Result::ok) {
                    if lines.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        Served {
            _child: child,
            said,
        }
    }

    /// The next line starting with `prefix`; no line before it may tell of
    /// an error.
    pub(crate) fn next(&self, prefix: &str, what: &str) -> String {
        self.next_where(&|line| line.starts_with(prefix), prefix, what)
    }

    /// The next line holding `part` (a stage's line, after its time); no
    /// line before it may tell of an error.
    pub(crate) fn next_holding(&self, part: &str, what: &str) -> String {
        self.next_where(&|line| line.contains(part), part, what)
    }

    fn next_where(&self, wanted: &dyn Fn(&str) -> bool, told: &str, what: &str) -> String {
        loop {
            match self.said.recv_timeout(std::time::Duration::from_secs(60)) {
                Ok(line) if wanted(&line) => return line,
                Ok(line) => assert!(!line.contains("error"), "{what}: {line}"),
                Err(e) => panic!("{what}: no line with {told:?} from serve ({e})"),
            }
        }
    }
}

/// A child process, killed when the test ends, passed or failed.
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

#[test]
fn a_build_of_a_revision_takes_unchanged_records_from_the_cache_by_their_blob_ids() {
    let game = GameTest::bundled();
    game.write("content/matters/00007.md", RECORD);
    game.commit_all("a record");
    let records = std::fs::read_dir(game.path("content/matters"))
        .unwrap()
        .count();
    let build = |what: &str, args: &[&str]| {
        let run = game.run(args);
        assert_eq!(run.code, 0, "{what}: {}", run.stderr);
        run.stderr
    };
    let rev = ["build", "--rev", "HEAD", "--out", "rev"];
    let first = build("the first build", &rev);
    assert!(first.contains("(0 parsed by an earlier build)"), "{first}");
    let again = build("the same revision again", &rev);
    assert!(
        again.contains(&format!(
            "{records} records ({records} parsed by an earlier build)"
        )),
        "{again}"
    );
    assert!(again.contains("rendered 0 files"), "{again}");

    // Named by its id, a commit that changes no game file renders the
    // home page alone, which names it.
    let first = game.commit_all("nothing of the game");
    game.write("notes.txt", "Not a game file.\n");
    let second = game.commit_all("a note");
    let at = |commit: &str| build(commit, &["build", "--rev", commit, "--out", "rev"]);
    at(&first);
    let noted = at(&second);
    assert!(noted.contains("rendered 1 files"), "{noted}");
    let home = game.read("rev/index.html");
    assert!(
        home.contains(&format!("<code class=\"hash\">{second}</code>")),
        "{home}"
    );

    // A record changed in a new commit: only its text is parsed again,
    // whatever the work tree holds (here, the text of the commit before).
    game.replace("content/matters/00007.md", "Wind faster", "Wind slower");
    game.commit_all("a record renamed");
    game.replace("content/matters/00007.md", "Wind slower", "Wind faster");
    let changed = build("a new commit", &rev);
    let parsed = records - 1;
    assert!(
        changed.contains(&format!("({parsed} parsed by an earlier build)")),
        "{changed}"
    );
    let full = build(
        "a full build",
        &[
            "build",
            "--rev",
            "HEAD",
            "--full",
            "--out",
            "full",
            "--cache",
            "full.cache",
        ],
    );
    assert!(full.contains("(0 parsed by an earlier build)"), "{full}");
    let (built, expected) = (
        files_under(&game.path("rev")),
        files_under(&game.path("full")),
    );
    assert_eq!(
        built.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &expected {
        assert!(built[path] == *bytes, "{path} differs from a full build");
    }
    let matter = game.read("rev/matters/7.html");
    assert!(matter.contains("Wind slower"), "{matter}");
}
