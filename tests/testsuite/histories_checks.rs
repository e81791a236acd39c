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

/// One of two twin games, as [`twins_agree`] compares them.
pub(crate) struct TwinView<'a> {
    pub(crate) root: &'a Path,
    /// The matters opened, in order.
    pub(crate) matters: Vec<String>,
    /// Matters decided for reasons of their own, whose twins differ from
    /// them: only whether each is open, and its outcome, must agree.
    pub(crate) own: std::collections::BTreeSet<String>,
    /// Comments (by id) whose report may differ from their twins': a
    /// hostile comment and its harmless twin say different things.
    pub(crate) said: std::collections::BTreeSet<String>,
    pub(crate) story: String,
}

/// A hostile game and its harmless twin decided every matter alike: the
/// same matters, each in the same state on the forge with the same status
/// comments, the same records (but for titles and commit ids, which the
/// hostile titles change), and main's rules, state, pages and theme the
/// same.
pub(crate) fn twins_agree(hostile: &TwinView<'_>, benign: &TwinView<'_>) {
    let story = || {
        format!(
            "\n--- hostile game:\n{}\n--- its harmless twin:\n{}",
            hostile.story, benign.story
        )
    };
    assert_eq!(
        hostile.matters,
        benign.matters,
        "the twins opened different matters{}",
        story()
    );
    let (ha, hb) = (
        git2::Repository::open(hostile.root).unwrap(),
        git2::Repository::open(benign.root).unwrap(),
    );
    for dir in ["state", "rules", "themes", "content/pages"] {
        let (a, b) = (files_under(&ha, dir), files_under(&hb, dir));
        for (path, text) in &b {
            assert_eq!(
                a.get(path),
                Some(text),
                "main's {path} differs between the twins{}",
                story()
            );
        }
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "main's files under {dir} differ between the twins{}",
            story()
        );
    }
    let (ra, rb) = (records(hostile.root), records(benign.root));
    assert_eq!(
        ra.keys().collect::<Vec<_>>(),
        rb.keys().collect::<Vec<_>>(),
        "the twins recorded different matters{}",
        story()
    );
    for (path, text) in &rb {
        let number = path.trim_start_matches('0').trim_end_matches(".md");
        let own = hostile.own.contains(number);
        assert_eq!(
            decided(&ra[path], own),
            decided(text, own),
            "the record {path} differs between the twins{}",
            story()
        );
    }
    for number in &hostile.matters {
        let own = hostile.own.contains(number);
        let forge = |root: &Path, what: &str| {
            let path = root.join(format!(".git/gitnomic-forge/{what}/{number}.toml"));
            std::fs::read_to_string(path).unwrap_or_default()
        };
        assert_eq!(
            matter_state(&forge(hostile.root, "matters"), own),
            matter_state(&forge(benign.root, "matters"), own),
            "matter #{number} on the forge differs between the twins{}",
            story()
        );
        if !own {
            assert_eq!(
                statuses(&forge(hostile.root, "comments"), &hostile.said),
                statuses(&forge(benign.root, "comments"), &hostile.said),
                "the status of #{number} differs between the twins{}",
                story()
            );
        }
    }
}

/// Every file under `dir` on main, by path.
fn files_under(repo: &git2::Repository, dir: &str) -> BTreeMap<String, Vec<u8>> {
    let tree = repo
        .revparse_single("main")
        .unwrap()
        .peel_to_tree()
        .unwrap();
    let mut out = BTreeMap::new();
    let Ok(entry) = tree.get_path(Path::new(dir)) else {
        return out;
    };
    let sub = repo.find_tree(entry.id()).unwrap();
    sub.walk(git2::TreeWalkMode::PreOrder, |parent, e| {
        if let Ok(blob) = repo.find_blob(e.id()) {
            let name = format!("{dir}/{parent}{}", e.name().unwrap_or_default());
            out.insert(name, blob.content().to_vec());
        }
        git2::TreeWalkResult::Ok
    })
    .unwrap();
    out
}

/// Text with every commit id replaced by `<commit>`.
fn no_commits(text: &str) -> String {
    let re = regex::Regex::new(r"\b[0-9a-f]{40}\b").unwrap();
    re.replace_all(text, "<commit>").into_owned()
}

/// What a record decided: all of it but its title and commit ids, or for
/// a matter decided for reasons of its own, only its outcome.
fn decided(record: &str, own: bool) -> String {
    let front = record
        .strip_prefix("+++\n")
        .and_then(|rest| rest.split_once("\n+++\n"));
    let Some((front, body)) = front else {
        return no_commits(record);
    };
    let mut table: toml::Table = front.parse().unwrap();
    if own {
        return format!("{:?}", table.get("outcome"));
    }
    table.remove("title");
    // What a stranger's comment was not counted for is its own affair: a
    // hostile one and its twin are not counted for different reasons.
    if let Some(toml::Value::Array(uncounted)) = table.get_mut("uncounted") {
        uncounted.retain(|u| u.get("by").and_then(|b| b.as_str()) != Some("mallory-m"));
    }
    // Nor what they said: the record keeps each twin's own words.
    if let Some(toml::Value::Array(discussion)) = table.get_mut("discussion") {
        discussion.retain(|c| {
            let by = c.get("by").and_then(|b| b.as_str());
            by != Some("mallory-m") && by != Some("@mallory-m")
        });
    }
    no_commits(&format!("{table}\n{body}"))
}

/// A matter on the local forge: all of it but its title, body and commit
/// ids, or for a matter decided for reasons of its own, only its state.
fn matter_state(text: &str, own: bool) -> String {
    let Ok(mut table) = text.parse::<toml::Table>() else {
        return text.to_string();
    };
    if own {
        return format!("{:?}", table.get("state"));
    }
    for key in ["title", "body"] {
        table.remove(key);
    }
    no_commits(&table.to_string())
}

/// The bot's comments in a thread, without commit ids, and without what
/// they report of the comments `said` (the line and the journal's entry
/// of each).
fn statuses(text: &str, said: &std::collections::BTreeSet<String>) -> Vec<String> {
    let Ok(table) = text.parse::<toml::Table>() else {
        return vec![text.to_string()];
    };
    table
        .get("comments")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter(|c| c.get("author").and_then(|a| a.as_str()) == Some("gitnomic-bot"))
        .map(|c| c.get("body").and_then(|b| b.as_str()).unwrap_or_default())
        .map(|body| no_commits(&without_reports(body, said)))
        .collect()
}

/// A status comment's body without its lines on the comments `said` and
/// their entries in its journal.
fn without_reports(body: &str, said: &std::collections::BTreeSet<String>) -> String {
    const OPEN: &str = "<!-- gitnomic:journal ";
    let mut out: Vec<String> = body
        .lines()
        .filter(|line| {
            !said
                .iter()
                .any(|id| line.starts_with(&format!("- comment {id} by ")))
        })
        // A heading is shown only over lines, which may all be gone.
        .filter(|line| !line.trim().is_empty() && !line.starts_with("#### "))
        .map(str::to_string)
        .collect();
    for line in &mut out {
        let Some(json) = line
            .strip_prefix(OPEN)
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let Ok(mut journal) = serde_json::from_str::<serde_json::Value>(json) else {
            continue;
        };
        for field in ["acted", "first_seen"] {
            if let Some(map) = journal.get_mut(field).and_then(|m| m.as_object_mut()) {
                map.retain(|id, _| !said.contains(id));
            }
        }
        *line = format!("{OPEN}{journal} -->");
    }
    out.join("\n")
}
