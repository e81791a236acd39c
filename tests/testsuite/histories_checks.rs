//! What the history property test checks after each run (see
//! `histories`): main's records, the state of a killed run against its
//! uninterrupted twin, and that no comment was acted on twice.

use std::collections::BTreeMap;
use std::path::Path;

/// Each comment is named by the changes of at most one commit of each
/// state file on main (the variables and the collections are committed
/// one file at a time, with the same message): its commands were carried
/// out once.
pub(crate) fn acted_once(root: &Path, story: &str) {
    let repo = git2::Repository::open(root).unwrap();
    let mut walk = repo.revwalk().unwrap();
    walk.push(repo.revparse_single("main").unwrap().id())
        .unwrap();
    let mut seen: BTreeMap<(String, &str), git2::Oid> = BTreeMap::new();
    for id in walk {
        let id = id.unwrap();
        let commit = repo.find_commit(id).unwrap();
        let Ok(parent) = commit.parent(0) else {
            continue;
        };
        let (now, before) = (commit.tree().unwrap(), parent.tree().unwrap());
        let files: Vec<&str> = ["state/variables.toml", "state/collections.toml"]
            .into_iter()
            .filter(|f| {
                let at = |t: &git2::Tree<'_>| t.get_path(Path::new(f)).ok().map(|e| e.id());
                at(&now) != at(&before)
            })
            .collect();
        let message = commit.message().unwrap_or_default();
        for line in message.lines().filter(|l| l.contains(" by @")) {
            let Some((_, by)) = line.rsplit_once(" by @") else {
                continue;
            };
            let Some(comment) = by.split(", ").find_map(|p| p.strip_prefix("comment ")) else {
                continue;
            };
            for file in &files {
                let first = seen.entry((comment.to_string(), file)).or_insert(id);
                assert_eq!(
                    *first, id,
                    "comment {comment} was acted on in two commits of {file}:\n{story}"
                );
            }
        }
    }
}

/// The records on main, by path.
pub(crate) fn records(root: &Path) -> BTreeMap<String, String> {
    let repo = git2::Repository::open(root).unwrap();
    let tree = repo
        .revparse_single("main")
        .unwrap()
        .peel_to_tree()
        .unwrap();
    let mut out = BTreeMap::new();
    if let Ok(entry) = tree.get_path(Path::new("content/matters")) {
        let dir = repo.find_tree(entry.id()).unwrap();
        for e in &dir {
            let blob = repo.find_blob(e.id()).unwrap();
            out.insert(
                e.name().unwrap().to_string(),
                String::from_utf8_lossy(blob.content()).into_owned(),
            );
        }
    }
    out
}

/// Main's tree and every file of the local forge are the same in both.
pub(crate) fn assert_same_state(a: &Path, b: &Path, k: &str) {
    let tree = |root: &Path| {
        let repo = git2::Repository::open(root).unwrap();
        let tree = repo.revparse_single("main").unwrap().peel_to_tree();
        tree.unwrap().id()
    };
    assert_eq!(tree(a), tree(b), "main after a run {k}");
    let forge = |root: &Path| {
        let dir = root.join(".git/gitnomic-forge");
        walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let path = e.path().strip_prefix(&dir).unwrap().display().to_string();
                (path, std::fs::read_to_string(e.path()).unwrap_or_default())
            })
            .collect::<BTreeMap<_, _>>()
    };
    let (fa, fb) = (forge(a), forge(b));
    for (path, text) in &fb {
        assert_eq!(
            fa.get(path),
            Some(text),
            "forge file {path} after a run {k}"
        );
    }
    assert_eq!(fa.len(), fb.len(), "the same forge files");
}

/// Every door says the same of every open matter at `now`: `check`'s
/// verdict (`check --open --dry-run` judges each open matter exactly as
/// `check --pr N --dry-run` does), the plan's line (`resolve --dry-run`)
/// and `play list`'s. A matter check says cannot stand is one the plan
/// closes and play list says the next run closes; one that stands is
/// neither, and a votable one has its tally in play list.
pub(crate) fn doors_agree(game: &crate::game_test::GameTest, now: &str, story: &str) {
    let run = |args: &[&str]| {
        let mut all = vec!["--now", now];
        all.extend_from_slice(args);
        game.run(&all)
    };
    let check = run(&["check", "--open", "--dry-run"]);
    assert!(check.code <= 1, "check: {}{}", check.stdout, check.stderr);
    let plan = run(&["resolve", "--dry-run"]);
    assert_eq!(plan.code, 0, "dry run: {}{}", plan.stdout, plan.stderr);
    let list = run(&["play", "list"]);
    assert_eq!(list.code, 0, "play list: {}{}", list.stdout, list.stderr);
    let verdicts = check_verdicts(&check.stdout);
    // `check --pr N` of each open matter says what `check --open` says of it.
    let together = blocks(&check.stdout);
    for number in verdicts.keys() {
        let alone = run(&["check", "--pr", &number.to_string(), "--dry-run"]);
        assert!(
            alone.code <= 1,
            "check --pr {number}: {}{}",
            alone.stdout,
            alone.stderr
        );
        assert_eq!(
            blocks(&alone.stdout).get(number),
            together.get(number),
            "check --pr {number} and check --open differ\n{story}"
        );
    }
    let context = || {
        format!(
            "check:\n{}\nplan:\n{}\nplay list:\n{}\n{story}",
            check.stdout, plan.stdout, list.stdout
        )
    };
    for (number, (kind, cannot_stand)) in &verdicts {
        let line = plan
            .stdout
            .lines()
            .find(|l| l.contains(&format!("#{number}: ")) && !l.starts_with(' '));
        let plan_closes = line.is_some_and(|l| l.contains("not-a-matter — closed"));
        let listed = list
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("#{number} ")));
        let list_closes = listed.is_some_and(|l| l.contains(": not a matter, closed"));
        assert_eq!(
            (plan_closes, list_closes),
            (*cannot_stand, *cannot_stand),
            "#{number} ({kind}): check says it {} stand\n{}",
            if *cannot_stand { "cannot" } else { "may" },
            context()
        );
        if !cannot_stand && matches!(kind.as_str(), "Proposal" | "CfJ" | "DoV") {
            assert!(
                line.is_some(),
                "#{number}: no line in the plan\n{}",
                context()
            );
            let tally = format!("{kind} #{number} “");
            assert!(
                list.stdout.contains(&tally),
                "#{number}: no tally in play list\n{}",
                context()
            );
        }
    }
}

/// `check`'s report on each matter it judged: its header line and the
/// indented lines under it, by number.
fn blocks(stdout: &str) -> BTreeMap<u64, String> {
    let mut out: BTreeMap<u64, String> = BTreeMap::new();
    let mut current = None;
    for line in stdout.lines() {
        if !line.starts_with(' ') {
            current = line.split_once(" #").and_then(|(_, rest)| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<u64>().ok()
            });
        }
        if let Some(n) = current {
            let block = out.entry(n).or_default();
            block.push_str(line);
            block.push('\n');
        }
    }
    out
}

/// `check`'s verdict on each matter it judged: its kind, and whether it
/// said the matter cannot stand.
fn check_verdicts(stdout: &str) -> BTreeMap<u64, (String, bool)> {
    let mut out = BTreeMap::new();
    let mut current: Option<(u64, String)> = None;
    for line in stdout.lines() {
        if !line.starts_with(' ') {
            // `Proposal #3 by boris-b: title`
            current = line.split_once(" #").and_then(|(kind, rest)| {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                Some((digits.parse().ok()?, kind.to_string()))
            });
            continue;
        }
        let verdict = line.trim();
        if let (Some((n, kind)), true) =
            (&current, verdict == "ok" || verdict.starts_with("not ok"))
        {
            out.insert(
                *n,
                (kind.clone(), verdict.starts_with("not ok: it cannot stand")),
            );
        }
    }
    out
}
