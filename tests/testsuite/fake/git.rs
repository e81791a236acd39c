//! The fake GitHub's default branch, for tests that want one: a real git
//! repository whose `main` the fake moves when it merges a pull request
//! or commits a file through the contents API, as GitHub would. The next
//! run's checkout of the repository then holds what the last one did.

use std::path::Path;

/// Who the fake's commits are by, at a fixed moment, so they are the same
/// in every run.
fn signature() -> git2::Signature<'static> {
    git2::Signature::new(
        "GitHub",
        "noreply@example.invalid",
        &git2::Time::new(1_900_000_000, 0),
    )
    .expect("a signature")
}

/// Commits `tree` on `main` with `parents` after its tip, and moves it.
fn commit_on_main(
    repo: &git2::Repository,
    tree: git2::Oid,
    other: Option<&git2::Commit<'_>>,
    message: &str,
) -> String {
    let tip = repo
        .find_reference("refs/heads/main")
        .and_then(|r| r.peel_to_commit())
        .expect("main");
    let tree = repo.find_tree(tree).expect("the tree just written");
    let mut parents = vec![&tip];
    parents.extend(other);
    let who = signature();
    repo.commit(
        Some("refs/heads/main"),
        &who,
        &who,
        message,
        &tree,
        &parents,
    )
    .expect("a commit on main")
    .to_string()
}

/// Merges commit `head` into `main`; the merge commit, or why it cannot be
/// merged (a conflict, as GitHub's 405 says).
pub(crate) fn merge(path: &Path, head: &str) -> Result<String, String> {
    let repo = git2::Repository::open(path).expect("the fake's repository");
    let tip = repo
        .find_reference("refs/heads/main")
        .and_then(|r| r.peel_to_commit())
        .expect("main");
    let head = git2::Oid::from_str(head)
        .and_then(|id| repo.find_commit(id))
        .map_err(|e| format!("Head is not a commit: {}", e.message()))?;
    let mut index = repo
        .merge_commits(&tip, &head, None)
        .expect("a merge in memory");
    if index.has_conflicts() {
        return Err("Pull Request is not mergeable".into());
    }
    let tree = index.write_tree_to(&repo).expect("the merged tree");
    Ok(commit_on_main(
        &repo,
        tree,
        Some(&head),
        "Merge pull request",
    ))
}

/// Commits `text` at `path` on `main` with the request's `message` (as
/// GitHub does, so `gitnomic log` reads who acted); the commit.
pub(crate) fn commit_file(path: &Path, file: &str, text: &str, message: &str) -> String {
    let repo = git2::Repository::open(path).expect("the fake's repository");
    let tip = repo
        .find_reference("refs/heads/main")
        .and_then(|r| r.peel_to_commit())
        .expect("main");
    let blob = repo.blob(text.as_bytes()).expect("a blob");
    let mut update = git2::build::TreeUpdateBuilder::new();
    update.upsert(file, blob, git2::FileMode::Blob);
    let tree = update
        .create_updated(&repo, &tip.tree().expect("main's tree"))
        .expect("the updated tree");
    commit_on_main(&repo, tree, None, message)
}

/// The tree of commit (or tree) `sha` in the repository at `path`, listed
/// recursively as GitHub's git data API lists it; `None` if it is unknown.
pub(crate) fn tree(path: Option<&Path>, sha: &str) -> Option<serde_json::Value> {
    let repo = git2::Repository::open(path?).ok()?;
    let object = repo
        .find_object(git2::Oid::from_str(sha).ok()?, None)
        .ok()?;
    let tree = object.peel_to_tree().ok()?;
    let mut entries = Vec::new();
    tree.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
        let kind = match entry.kind() {
            Some(git2::ObjectType::Blob) => "blob",
            Some(git2::ObjectType::Tree) => "tree",
            _ => "commit",
        };
        entries.push(serde_json::json!({
            "path": format!("{parent}{}", entry.name().unwrap_or_default()),
            "mode": format!("{:06o}", entry.filemode()),
            "type": kind,
            "sha": entry.id().to_string(),
        }));
        git2::TreeWalkResult::Ok
    })
    .ok()?;
    Some(serde_json::json!({ "sha": tree.id().to_string(), "truncated": false, "tree": entries }))
}

/// Blob `sha` of the repository at `path`, base64 as GitHub serves it.
pub(crate) fn blob(path: Option<&Path>, sha: &str) -> Option<serde_json::Value> {
    let repo = git2::Repository::open(path?).ok()?;
    let blob = repo.find_blob(git2::Oid::from_str(sha).ok()?).ok()?;
    let text = String::from_utf8(blob.content().to_vec()).ok()?;
    Some(serde_json::json!({
        "sha": sha, "content": crate::fake::github::served(&crate::fake::github::base64(&text)), "encoding": "base64",
        "size": blob.size(),
    }))
}
