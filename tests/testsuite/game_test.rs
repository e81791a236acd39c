//! `GameTest`: a scratch copy of the bundled game and a way to run the
//! binary on it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a run of the binary produced.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    /// The effects a run printed under `header` (`Done:`, `Would do`), one
    /// per line.
    pub(crate) fn effects(&self, header: &str) -> Vec<String> {
        self.stdout
            .split(header)
            .nth(1)
            .unwrap_or_default()
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.trim().to_string())
            .collect()
    }
}

/// A copy of the bundled game in a temporary directory.
pub(crate) struct GameTest {
    dir: tempfile::TempDir,
}

impl GameTest {
    /// Copies rules/, state/ and content/ of the repository.
    pub(crate) fn bundled() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("game-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("temporary directory");
        let source = Path::new(env!("CARGO_MANIFEST_DIR"));
        for top in ["rules", "state", "content"] {
            copy_tree(&source.join(top), &dir.path().join(top));
        }
        GameTest { dir }
    }

    /// The bundled game with all its files committed: where most tests start.
    pub(crate) fn committed() -> Self {
        let game = Self::bundled();
        game.commit_all("the bundled game");
        game
    }

    /// A copy of this game, its repository included.
    pub(crate) fn duplicate(&self) -> Self {
        let copy = GameTest::empty();
        copy_tree(self.root(), copy.root());
        copy
    }

    /// An empty directory, for commands that create a game.
    pub(crate) fn empty() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("empty-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("temporary directory");
        GameTest { dir }
    }

    /// The game's root.
    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    /// A path inside the game.
    pub(crate) fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    /// The text of a game file.
    pub(crate) fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
    }

    /// Writes a game file whole: made outside the game, then renamed into
    /// place, so that a `serve` watching the game never sees half of it.
    pub(crate) fn write(&self, relative: &str, text: &str) {
        use std::io::Write as _;
        let path = self.path(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut file = tempfile::NamedTempFile::new_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        file.write_all(text.as_bytes()).unwrap();
        file.persist(path).unwrap();
    }

    /// Replaces the first `from` in a file by `to`, returning the 1-based
    /// line where `to` now starts. Panics if `from` is absent, so a test
    /// never silently edits nothing.
    pub(crate) fn replace(&self, relative: &str, from: &str, to: &str) -> usize {
        let text = self.read(relative);
        let at = text
            .find(from)
            .unwrap_or_else(|| panic!("`{from}` not in {relative}"));
        self.write(relative, &text.replacen(from, to, 1));
        text[..at].matches('\n').count() + 1
    }

    /// Runs `gitnomic --root <game> ARGS`.
    pub(crate) fn run(&self, args: &[&str]) -> Run {
        run_at(self.root(), args)
    }

    /// Runs `gitnomic --root <game> ARGS` with extra environment variables.
    pub(crate) fn run_with_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        run_with(self.root(), args, env)
    }

    /// Makes the game a git repository (if it is not yet) and commits
    /// every file, returning the commit id.
    pub(crate) fn commit_all(&self, message: &str) -> String {
        let repo = git2::Repository::open(self.root()).unwrap_or_else(|_| {
            let repo = git2::Repository::init(self.root()).unwrap();
            repo.set_head("refs/heads/main").unwrap();
            repo
        });
        let mut index = repo.index().unwrap();
        index
            .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
            .unwrap();
        index.update_all(["*"], None).unwrap();
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let who = git2::Signature::new(
            "Test",
            "test@example.invalid",
            &git2::Time::new(1_900_000_000, 0),
        )
        .unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(Some("HEAD"), &who, &who, message, &tree, &parents)
            .unwrap()
            .to_string()
    }
}

/// Runs `gitnomic --root ROOT ARGS`.
pub(crate) fn run_at(root: &Path, args: &[&str]) -> Run {
    run_with(root, args, &[])
}

/// Runs `gitnomic --root ROOT ARGS` with extra environment variables.
fn run_with(root: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_gitnomic"))
        .arg("--root")
        .arg(root)
        .args(args)
        .env_remove("GITNOMIC_LOG")
        .envs(env.iter().copied())
        .output()
        .expect("run gitnomic");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Copies the tree at `from` to `to`, directories made as needed.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

impl GameTest {
    /// Commits `files` (path, new text) on `branch`, created from `main` if
    /// it does not exist, without touching the work tree. Returns the commit.
    pub(crate) fn commit_on(&self, branch: &str, files: &[(&str, &str)], message: &str) -> String {
        self.commit_change(branch, message, &|repo, update| {
            for (path, text) in files {
                update.upsert(
                    *path,
                    repo.blob(text.as_bytes()).unwrap(),
                    git2::FileMode::Blob,
                );
            }
        })
    }

    /// Commits `bytes` at `path` with `mode` (a symlink's target, a file
    /// that is not UTF-8) on `branch`, created from `main` if need be.
    pub(crate) fn commit_raw(
        &self,
        branch: &str,
        path: &str,
        bytes: &[u8],
        mode: git2::FileMode,
    ) -> String {
        self.commit_change(branch, "raw bytes", &|repo, update| {
            update.upsert(path, repo.blob(bytes).unwrap(), mode);
        })
    }

    /// Commits the removal of `path` on `branch`, created from `main` if
    /// it does not exist.
    pub(crate) fn commit_removing(&self, branch: &str, path: &str, message: &str) -> String {
        self.commit_change(branch, message, &|_, update| {
            update.remove(path);
        })
    }

    fn commit_change(
        &self,
        branch: &str,
        message: &str,
        change: &dyn Fn(&git2::Repository, &mut git2::build::TreeUpdateBuilder),
    ) -> String {
        let repo = git2::Repository::open(self.root()).unwrap();
        let refname = format!("refs/heads/{branch}");
        let parent = repo
            .find_reference(&refname)
            .or_else(|_| repo.find_reference("refs/heads/main"))
            .unwrap()
            .peel_to_commit()
            .unwrap();
        let mut update = git2::build::TreeUpdateBuilder::new();
        change(&repo, &mut update);
        let tree = repo
            .find_tree(
                update
                    .create_updated(&repo, &parent.tree().unwrap())
                    .unwrap(),
            )
            .unwrap();
        let who = git2::Signature::new(
            "Test",
            "test@example.invalid",
            &git2::Time::new(1_900_000_000, 0),
        )
        .unwrap();
        let id = repo
            .commit(Some(&refname), &who, &who, message, &tree, &[&parent])
            .unwrap();
        // As `git commit` would: a branch that is checked out keeps its work
        // tree in step.
        if repo
            .head()
            .ok()
            .and_then(|h| h.name().ok().map(str::to_string))
            == Some(refname)
        {
            let mut checkout = git2::build::CheckoutBuilder::new();
            repo.checkout_head(Some(checkout.force())).unwrap();
        }
        id.to_string()
    }

    /// The text of `path` at revision `rev`, if it exists there.
    pub(crate) fn read_at(&self, rev: &str, path: &str) -> Option<String> {
        let repo = git2::Repository::open(self.root()).unwrap();
        let tree = repo.revparse_single(rev).unwrap().peel_to_tree().unwrap();
        let entry = tree.get_path(std::path::Path::new(path)).ok()?;
        let blob = repo.find_blob(entry.id()).unwrap();
        Some(String::from_utf8(blob.content().to_vec()).unwrap())
    }

    /// How many commits `main` has.
    pub(crate) fn main_commits(&self) -> usize {
        let repo = git2::Repository::open(self.root()).unwrap();
        let mut walk = repo.revwalk().unwrap();
        walk.push_ref("refs/heads/main").unwrap();
        walk.simplify_first_parent().unwrap();
        walk.count()
    }

    /// The local forge's stored file for matter `number`'s comments.
    pub(crate) fn forge_comments(&self, number: u64) -> String {
        std::fs::read_to_string(self.path(&format!(".git/gitnomic-forge/comments/{number}.toml")))
            .unwrap_or_default()
    }

    /// `play open` at `now`: a matter of `kind` titled `title` by `login`,
    /// from `branch` if given (else an issue).
    pub(crate) fn open(
        &self,
        now: &str,
        login: &str,
        kind: &str,
        title: &str,
        branch: Option<&str>,
    ) -> Run {
        self.open_with(now, login, kind, title, branch, &[])
    }

    /// [`Self::open`] with `more` arguments (`--body`, say).
    pub(crate) fn open_with(
        &self,
        now: &str,
        login: &str,
        kind: &str,
        title: &str,
        branch: Option<&str>,
        more: &[&str],
    ) -> Run {
        let mut args = vec![
            "play", "open", "--as", login, "--kind", kind, "--title", title,
        ];
        args.extend(branch.map(|b| ["--branch", b]).into_iter().flatten());
        args.extend_from_slice(more);
        self.at(now, &args)
    }

    /// Runs the binary at moment `now` (RFC 3339) with `args`, asserting success.
    pub(crate) fn at(&self, now: &str, args: &[&str]) -> Run {
        let mut all = vec!["--now", now];
        all.extend_from_slice(args);
        let run = self.run(&all);
        assert_eq!(
            run.code, 0,
            "gitnomic {args:?} at {now} failed:\n{}\n{}",
            run.stdout, run.stderr
        );
        run
    }
}

/// Opens a matter of `kind` titled "A matter" with `body` from `branch`
/// (or an issue) as `login` at `at`, and returns its number.
pub(crate) fn open_matter(
    game: &GameTest,
    at: &str,
    login: &str,
    kind: &str,
    branch: Option<&str>,
    body: &str,
) -> String {
    let run = game.open_with(at, login, kind, "A matter", branch, &["--body", body]);
    let number = run.stdout.split('#').nth(1).unwrap_or_default();
    number.chars().take_while(char::is_ascii_digit).collect()
}
