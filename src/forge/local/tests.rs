//! Unit tests of the local forge.

use super::*;

use crate::matter::MatterNumber;

/// A repository with `main` holding `a.txt`, and a branch `p1` that edits it.
struct Fixture {
    dir: tempfile::TempDir,
}

fn t(text: &str) -> Timestamp {
    Timestamp::parse(text).unwrap()
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        repo.set_head("refs/heads/main").unwrap();
        let fx = Fixture { dir };
        fx.commit("main", &[("a.txt", "one\ntwo\n")], "start");
        let main = repo
            .find_branch("main", git2::BranchType::Local)
            .unwrap()
            .get()
            .peel_to_commit()
            .unwrap();
        repo.branch("p1", &main, false).unwrap();
        fx.commit("p1", &[("a.txt", "one\nTWO\n")], "shout");
        fx
    }

    fn commit(&self, branch: &str, files: &[(&str, &str)], message: &str) -> String {
        let repo = git2::Repository::open(self.dir.path()).unwrap();
        let refname = format!("refs/heads/{branch}");
        let parent = repo
            .find_reference(&refname)
            .ok()
            .and_then(|r| r.peel_to_commit().ok());
        let mut builder = repo
            .treebuilder(parent.as_ref().map(|p| p.tree().unwrap()).as_ref())
            .unwrap();
        for (path, text) in files {
            let blob = repo.blob(text.as_bytes()).unwrap();
            builder.insert(path, blob, 0o100_644).unwrap();
        }
        let tree = repo.find_tree(builder.write().unwrap()).unwrap();
        let who =
            git2::Signature::new("T", "t@example.invalid", &git2::Time::new(1_900_000_000, 0))
                .unwrap();
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(Some(&refname), &who, &who, message, &tree, &parents)
            .unwrap()
            .to_string()
    }

    fn forge(&self, now: &str) -> LocalForge {
        LocalForge::open(self.dir.path(), "main", t(now)).unwrap()
    }

    fn file_on_main(&self) -> String {
        let git = git2::Repository::open(self.dir.path()).unwrap();
        let tree = git.revparse_single("main").unwrap().peel_to_tree().unwrap();
        let blob = git.find_blob(tree.get_name("a.txt").unwrap().id()).unwrap();
        String::from_utf8(blob.content().to_vec()).unwrap()
    }
}

fn open_p1(forge: &LocalForge) -> MatterNumber {
    let new = NewMatter {
        kind: Some(Kind::Proposal),
        title: "Shout",
        body: "Make two loud.",
        author: "ada",
        branch: Some("p1"),
    };
    forge.open_matter(&new).unwrap()
}

fn open_issue(forge: &LocalForge, author: &str, title: &str) -> MatterNumber {
    let new = NewMatter {
        kind: Some(Kind::Cfj),
        title,
        body: "",
        author,
        branch: None,
    };
    forge.open_matter(&new).unwrap()
}

#[test]
fn opens_lists_and_comments() {
    let fx = Fixture::new();
    let forge = fx.forge("2030-01-01T00:00:00Z");
    let n = open_p1(&forge);
    let id = forge.add_comment(n, "boris", "FOR").unwrap();
    let second = open_issue(&forge, "cleo", "A question");
    let next = forge.add_comment(second, "ada", "FOR").unwrap();
    assert_eq!(
        (n, id, second, next),
        (MatterNumber(1), 1, MatterNumber(2), 2),
        "matters and comments are numbered apart"
    );
    let open = forge.open_matters().unwrap();
    assert_eq!(open.len(), 2);
    assert_eq!(open[0].kind(), Some(Kind::Proposal));
    assert_eq!(open[0].opened, t("2030-01-01T00:00:00Z"));
    assert!(open[0].head.is_some());
    assert_eq!(forge.comments(n).unwrap()[0].body, "FOR");
    assert_eq!(forge.changed_files(n).unwrap(), ["a.txt"]);
    assert!(matches!(
        forge.comments(MatterNumber(99)),
        Err(ForgeError::NotFound(MatterNumber(99)))
    ));
}

#[test]
fn merges_only_the_expected_head() {
    let fx = Fixture::new();
    let forge = fx.forge("2030-01-02T00:00:00Z");
    let n = open_p1(&forge);
    let head = forge.matter(n).unwrap().head.unwrap();
    let stale = HeadSha("0".repeat(40));
    assert!(matches!(
        forge.merge(n, &stale, "m"),
        Err(ForgeError::StaleHead { .. })
    ));
    assert_eq!(fx.file_on_main(), "one\ntwo\n", "nothing merged");
    let merge = forge.merge(n, &head, "Enact #1").unwrap();
    assert_eq!(fx.file_on_main(), "one\nTWO\n");
    assert!(forge.open_matters().unwrap().is_empty());
    assert!(
        matches!(forge.merge(n, &head, "again"), Err(ForgeError::NotOpen(_))),
        "never merged twice"
    );
    let repo = git2::Repository::open(fx.dir.path()).unwrap();
    let commit = repo
        .revparse_single("main")
        .unwrap()
        .peel_to_commit()
        .unwrap();
    assert_eq!(commit.id().to_string(), merge.0);
    assert_eq!(commit.parent_count(), 2);
}

#[test]
fn a_conflicting_merge_changes_nothing() {
    let fx = Fixture::new();
    fx.commit("main", &[("a.txt", "one\nzwei\n")], "translate");
    let forge = fx.forge("2030-01-02T00:00:00Z");
    let n = open_p1(&forge);
    let head = forge.matter(n).unwrap().head.unwrap();
    let err = forge.merge(n, &head, "m").unwrap_err();
    assert!(matches!(err, ForgeError::NotMergeable { .. }), "{err}");
    assert!(err.to_string().contains("a.txt"), "{err}");
    assert_eq!(fx.file_on_main(), "one\nzwei\n");
    assert_eq!(forge.open_matters().unwrap().len(), 1, "still open");
}

#[test]
fn one_status_comment_edited_in_place() {
    let fx = Fixture::new();
    let forge = fx.forge("2030-01-01T00:00:00Z");
    let n = open_p1(&forge);
    forge
        .put_status(n, "<!-- gitnomic:status -->\nwaiting")
        .unwrap();
    forge.add_comment(n, "boris", "FOR").unwrap();
    forge
        .put_status(n, "<!-- gitnomic:status -->\nenacting")
        .unwrap();
    let comments = forge.comments(n).unwrap();
    assert_eq!(comments.len(), 2);
    assert_eq!(
        forge.status_comment(n).unwrap().unwrap().body,
        "<!-- gitnomic:status -->\nenacting"
    );
    // A player cannot forge the bot's status by writing the marker.
    let m = open_issue(&forge, "mallory", "Forged");
    forge
        .add_comment(m, "mallory", "<!-- gitnomic:status -->\nenacted!")
        .unwrap();
    assert!(forge.status_comment(m).unwrap().is_none());
}

#[test]
fn commits_a_file_and_closes() {
    let fx = Fixture::new();
    let forge = fx.forge("2030-01-03T00:00:00Z");
    let n = open_p1(&forge);
    forge.close(n).unwrap();
    assert!(matches!(forge.close(n), Err(ForgeError::NotOpen(_))));
    assert!(matches!(
        forge.add_comment(n, "x", "FOR"),
        Err(LocalError::Forge(ForgeError::NotOpen(_)))
    ));
    forge
        .commit_file("content/matters/00001.md", "record\n", "Record #1")
        .unwrap();
    let repo = Repo::open(fx.dir.path()).unwrap();
    let files = repo.files_at("main", &["content"]).unwrap();
    assert_eq!(
        files,
        [("content/matters/00001.md".to_string(), b"record\n".to_vec())]
    );
}
