//! The carrier against the local forge, with a fault at every write: a run
//! whose forge fails at its k-th write stops there, and the next run ends
//! exactly where an uninterrupted run ends (the same commit on the default
//! branch, the same files of the forge).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::forge::local::{LocalForge, NewMatter};
use crate::forge::{ForgeComment, ForgeError, Kind, MatterInfo};
use crate::git::Signature;
use crate::matter::MatterNumber;

fn at(text: &str) -> Timestamp {
    Timestamp::parse(text).unwrap()
}

/// A forge that fails at its `fail_at`-th write (counting from 0), and
/// otherwise is the local forge.
struct Faulty {
    inner: LocalForge,
    fail_at: Option<usize>,
    writes: Cell<usize>,
    /// At this write, a player appends a line to this file of the checkout.
    edit_at: Option<(usize, std::path::PathBuf)>,
}

impl Faulty {
    fn write(&self) -> Result<(), ForgeError> {
        let k = self.writes.get();
        self.writes.set(k + 1);
        if self.fail_at == Some(k) {
            return Err(ForgeError::Other(format!("a fault at write {k}")));
        }
        if let Some((_, path)) = self.edit_at.as_ref().filter(|(at, _)| *at == k) {
            let text = std::fs::read_to_string(path).unwrap() + "A player's edit.\n";
            std::fs::write(path, text).unwrap();
        }
        Ok(())
    }
}

impl Forge for Faulty {
    fn open_matters(&self) -> Result<Vec<MatterInfo>, ForgeError> {
        self.inner.open_matters()
    }
    fn closed_matters(
        &self,
        label: Option<&str>,
        since: Option<Timestamp>,
    ) -> Result<Vec<MatterInfo>, ForgeError> {
        self.inner.closed_matters(label, since)
    }
    fn matter(&self, number: MatterNumber) -> Result<MatterInfo, ForgeError> {
        self.inner.matter(number)
    }
    fn comments(&self, number: MatterNumber) -> Result<Vec<ForgeComment>, ForgeError> {
        self.inner.comments(number)
    }
    fn pushes(&self, number: MatterNumber) -> Result<Vec<(HeadSha, Timestamp)>, ForgeError> {
        self.inner.pushes(number)
    }
    fn changed_files(&self, number: MatterNumber) -> Result<Vec<String>, ForgeError> {
        self.inner.changed_files(number)
    }
    fn bot(&self) -> &str {
        self.inner.bot()
    }
    fn put_status(&self, number: MatterNumber, body: &str) -> Result<(), ForgeError> {
        self.write()?;
        self.inner.put_status(number, body)
    }
    fn set_commit_status(&self, sha: &HeadSha, ok: bool, why: &str) -> Result<(), ForgeError> {
        self.write()?;
        self.inner.set_commit_status(sha, ok, why)
    }
    fn set_labels(
        &self,
        number: MatterNumber,
        add: &[&str],
        remove: &[&str],
    ) -> Result<(), ForgeError> {
        self.write()?;
        self.inner.set_labels(number, add, remove)
    }
    fn merge(
        &self,
        number: MatterNumber,
        expected: &HeadSha,
        message: &str,
    ) -> Result<HeadSha, ForgeError> {
        self.write()?;
        self.inner.merge(number, expected, message)
    }
    fn close(&self, number: MatterNumber) -> Result<(), ForgeError> {
        self.write()?;
        self.inner.close(number)
    }
    fn read_file(&self, path: &str) -> Result<Option<String>, ForgeError> {
        self.inner.read_file(path)
    }
    fn commit_file(&self, path: &str, text: &str, message: &str) -> Result<HeadSha, ForgeError> {
        self.write()?;
        self.inner.commit_file(path, text, message)
    }
    fn pin_head(&self, number: MatterNumber, sha: &HeadSha) -> Result<bool, ForgeError> {
        self.write()?;
        self.inner.pin_head(number, sha)
    }
}

/// The bundled game in a new repository, with three proposals (one of
/// them changing the roster), a CfJ and an action by comment with dice,
/// all due at `DUE`.
fn game() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for file in crate::game::bundle::game_files() {
        let path = root.join(&file.path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, file.text).unwrap();
    }
    let signature = Signature {
        name: "t",
        email: "t@example.invalid",
        at: at("2030-01-01T00:00:00Z"),
    };
    let repo = Repo::init_with_work_tree(root, "main", "the game", &signature).unwrap();
    let edits = [
        ("rules/dynastic/springs.md", "\nA first addition.\n"),
        ("rules/appendix/time.md", "\nA second addition.\n"),
        (
            "state/roster.toml",
            "\n[[players]]\nname = \"Zed\"\nlogin = \"zed-z\"\n",
        ),
    ];
    let forge = LocalForge::open(root, "main", at("2030-01-01T00:00:00Z")).unwrap();
    for (i, (path, more)) in edits.iter().enumerate() {
        let branch = format!("p{i}");
        repo.create_branch(&branch, "main").unwrap();
        let text = std::fs::read_to_string(root.join(path)).unwrap() + more;
        repo.commit_file(&branch, path, &text, "a change", &signature)
            .unwrap();
        let new = NewMatter {
            kind: Some(Kind::Proposal),
            title: "A change",
            body: "",
            author: ["ada-tinkers", "boris-b", "cleo-c"][i],
            branch: Some(&branch),
        };
        forge.open_matter(&new).unwrap();
    }
    for (kind, title) in [(Kind::Cfj, "A judgement"), (Kind::Action, "Winding")] {
        let new = NewMatter {
            kind: Some(kind),
            title,
            body: "",
            author: "boris-b",
            branch: None,
        };
        forge.open_matter(&new).unwrap();
    }
    forge
        .add_comment(MatterNumber(5), "boris-b", "ROLL DICE6\nADD springs DICE6")
        .unwrap();
    for n in 1..=4 {
        for voter in ["boris-b", "cleo-c", "dmitri-d", "wren-w"] {
            forge.add_comment(MatterNumber(n), voter, "FOR").unwrap();
        }
    }
    dir
}

const DUE: &str = "2030-01-02T00:00:00Z";

/// Runs resolve at `DUE` on the game at `root`, failing at write `fail_at`.
fn resolve(root: &Path, fail_at: Option<usize>) -> (Result<Ended, ResolveError>, usize) {
    resolve_with(root, fail_at, None)
}

/// [`resolve`], with a player's edit of the checkout at a write.
fn resolve_with(
    root: &Path,
    fail_at: Option<usize>,
    edit_at: Option<(usize, std::path::PathBuf)>,
) -> (Result<Ended, ResolveError>, usize) {
    let forge = Faulty {
        inner: LocalForge::open(root, "main", at(DUE)).unwrap(),
        fail_at,
        writes: Cell::new(0),
        edit_at,
    };
    let request = Request {
        root,
        base: "main",
        now: at(DUE),
        dry_run: false,
        halt_after: None,
    };
    let ended = run(&forge, &request, &mut |_| {});
    (ended, forge.writes.get())
}

/// The commit on main, and every file of the local forge.
fn state(root: &Path) -> (String, BTreeMap<String, String>) {
    let main = Repo::open(root)
        .unwrap()
        .branch_head("main")
        .unwrap()
        .unwrap();
    let dir = crate::forge::local::dir_of(root);
    let files = walkdir::WalkDir::new(&dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let path = e.path().strip_prefix(&dir).unwrap().display().to_string();
            (path, std::fs::read_to_string(e.path()).unwrap())
        })
        .collect();
    (main, files)
}

fn copy(from: &Path) -> tempfile::TempDir {
    let to = tempfile::tempdir().unwrap();
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.path().join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
    to
}

#[test]
fn a_run_failing_at_any_write_is_finished_by_the_next() {
    let game = game();
    let twin = copy(game.path());
    let (ended, writes) = resolve(twin.path(), None);
    assert_eq!(ended.unwrap(), Ended::Done { held: vec![] });
    assert!(writes > 20, "a busy run: {writes} writes");
    let whole = state(twin.path());
    let records = (1..=4)
        .filter(|n| {
            let path = format!("content/matters/{n:05}.md");
            Repo::open(twin.path())
                .unwrap()
                .files_at("main", &["content"])
                .unwrap()
                .iter()
                .any(|(p, _)| *p == path)
        })
        .count();
    assert_eq!(records, 4, "three proposals and the CfJ recorded");
    for k in 0..writes {
        let copy = copy(game.path());
        let (failed, _) = resolve(copy.path(), Some(k));
        assert!(failed.is_err(), "the fault at write {k} stops the run");
        let (finished, _) = resolve(copy.path(), None);
        assert_eq!(
            finished.unwrap(),
            Ended::Done { held: vec![] },
            "the run after a fault at write {k}"
        );
        assert_eq!(state(copy.path()), whole, "after a fault at write {k}");
        let again = resolve(copy.path(), None);
        assert_eq!(again.1, 0, "nothing left to do after a fault at write {k}");
    }
}

#[test]
fn a_run_killed_between_the_merge_and_the_forge_saying_so_merges_once() {
    let game = game();
    let twin = copy(game.path());
    resolve(twin.path(), None).0.unwrap();
    let whole = state(twin.path());
    // The merge made, the forge's record of it lost: as a kill between the
    // two writes leaves it.
    let (_, writes) = resolve(copy(game.path()).path(), None);
    for k in 0..writes {
        let copy = copy(game.path());
        let (_, _) = resolve(copy.path(), Some(k));
        let matters = crate::forge::local::dir_of(copy.path()).join("matters");
        let before = std::fs::read_to_string(matters.join("1.toml")).unwrap();
        if !before.contains("state = \"merged\"") {
            continue;
        }
        std::fs::write(
            matters.join("1.toml"),
            before
                .replace("state = \"merged\"", "state = \"open\"")
                .lines()
                .filter(|l| !l.starts_with("merge_commit") && !l.starts_with("closed"))
                .collect::<Vec<_>>()
                .join("\n"),
        )
        .unwrap();
        resolve(copy.path(), None).0.unwrap();
        assert_eq!(state(copy.path()), whole, "merged once, at write {k}");
        return;
    }
    panic!("no run merged #1");
}

#[test]
fn a_checkout_edited_while_the_run_goes_on_is_left_as_it_is_and_said() {
    let game = game();
    let twin = copy(game.path());
    resolve(twin.path(), None).0.unwrap();
    let whole = state(twin.path());
    let path = game.path().join("rules/core/fair-play.md");
    let original = std::fs::read_to_string(&path).unwrap();
    // The player edits a rule as the run announces its first decision.
    let (ended, _) = resolve_with(game.path(), None, Some((0, path.clone())));
    let said = ended.unwrap_err().to_string();
    assert!(
        said.contains("the run is done") && said.contains("rules/core/fair-play.md"),
        "{said}"
    );
    assert_eq!(state(game.path()), whole, "every effect was carried out");
    let edited = std::fs::read_to_string(&path).unwrap();
    assert!(edited.ends_with("A player's edit.\n"), "the edit is kept");
    // While the edit stands, the next run refuses, naming it.
    let (ended, writes) = resolve(game.path(), None);
    assert!(
        matches!(ended, Err(ResolveError::Edited { ref paths, .. }) if paths == &["rules/core/fair-play.md"]),
        "{ended:?}"
    );
    assert_eq!(writes, 0);
    // Undone, the checkout is brought up to main, and nothing else is done.
    std::fs::write(&path, original).unwrap();
    let (ended, writes) = resolve(game.path(), None);
    assert_eq!(ended.unwrap(), Ended::Done { held: vec![] });
    assert_eq!(writes, 0);
    let repo = Repo::open(game.path()).unwrap();
    assert!(matches!(repo.work_tree("main").unwrap(), WorkTree::Current));
}
