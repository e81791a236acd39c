//! The checker the fake Forgejo uses, checked itself against Forgejo's
//! description: it accepts every request the adapter sends (each named by
//! its operation), refuses what Forgejo would refuse, and refuses replies
//! Forgejo never sends.

use serde_json::json;

use crate::fake::swagger::{self, Spec};

/// The description, or `None` after saying why. Where CI fetches it
/// (`GITNOMIC_REQUIRE_FORGEJO_API=1`, set by `.ci/run`), its absence fails.
pub(crate) fn spec() -> Option<&'static Spec> {
    let spec = swagger::spec();
    if spec.is_none() {
        assert!(
            std::env::var_os("GITNOMIC_REQUIRE_FORGEJO_API").is_none(),
            "GITNOMIC_REQUIRE_FORGEJO_API is set but {} is not there",
            swagger::path().display()
        );
        eprintln!(
            "SKIPPED: Forgejo's swagger.v1.json is not fetched (run .ci/run; it fetches {})",
            swagger::SWAGGER_SOURCE
        );
    }
    spec
}

const R: &str = "/repos/clockwork/game";

/// Every request the Forgejo adapter makes, and the operation it is.
pub(crate) fn adapter_requests() -> Vec<(&'static str, String, &'static str, &'static str)> {
    let sha = "a".repeat(40);
    vec![
        (
            "GET",
            format!("{R}/issues?state=open&type=issues&limit=50&page=1"),
            "",
            "issueListIssues",
        ),
        (
            "GET",
            format!("{R}/pulls?state=open&limit=50&page=2"),
            "",
            "repoListPullRequests",
        ),
        (
            "GET",
            format!(
                "{R}/issues?state=closed&sort=recentupdate&limit=50&labels=resolving&since=2030-01-01T00%3A00%3A00Z"
            ),
            "",
            "issueListIssues",
        ),
        ("GET", format!("{R}/issues/3"), "", "issueGetIssue"),
        ("GET", format!("{R}/pulls/3"), "", "repoGetPullRequest"),
        (
            "GET",
            format!("{R}/issues/3/comments"),
            "",
            "issueGetComments",
        ),
        (
            "GET",
            format!("{R}/issues/comments/12"),
            "",
            "issueGetComment",
        ),
        (
            "GET",
            format!("{R}/pulls/3/reviews?limit=50&page=1"),
            "",
            "repoListPullReviews",
        ),
        (
            "GET",
            format!("{R}/pulls/3/reviews/9/comments"),
            "",
            "repoGetPullReviewComments",
        ),
        (
            "GET",
            format!("{R}/issues/3/timeline?limit=50&page=1"),
            "",
            "issueGetCommentsAndTimeline",
        ),
        (
            "GET",
            format!("{R}/pulls/3/files?limit=50&page=1"),
            "",
            "repoGetPullRequestFiles",
        ),
        (
            "POST",
            format!("{R}/issues/3/comments"),
            r#"{"body":"x"}"#,
            "issueCreateComment",
        ),
        (
            "PATCH",
            format!("{R}/issues/comments/12"),
            r#"{"body":"x"}"#,
            "issueEditComment",
        ),
        (
            "PATCH",
            format!("{R}/issues/3"),
            r#"{"state":"closed"}"#,
            "issueEditIssue",
        ),
        (
            "POST",
            format!("{R}/issues/3/labels"),
            r#"{"labels":["resolving","Ascension Address"]}"#,
            "issueAddLabel",
        ),
        (
            "DELETE",
            format!("{R}/issues/3/labels/Ascension%20Address"),
            "",
            "issueRemoveLabel",
        ),
        (
            "POST",
            format!("{R}/statuses/{sha}"),
            r#"{"state":"success","description":"ok","context":"gitnomic/check"}"#,
            "repoCreateStatus",
        ),
        (
            "GET",
            format!("{R}/commits/{sha}/status?limit=50"),
            "",
            "repoGetCombinedStatusByRef",
        ),
        (
            "POST",
            format!("{R}/pulls/3/merge"),
            r#"{"Do":"merge","head_commit_id":"abc","MergeTitleField":"t","MergeMessageField":"m"}"#,
            "repoMergePullRequest",
        ),
        (
            "GET",
            format!("{R}/contents/content/matters/00001.md?ref=main"),
            "",
            "repoGetContents",
        ),
        (
            "POST",
            format!("{R}/contents/content/matters/00001.md"),
            r#"{"content":"eA==","message":"m","branch":"main"}"#,
            "repoCreateFile",
        ),
        (
            "PUT",
            format!("{R}/contents/content/matters/00001.md"),
            r#"{"content":"eA==","message":"m","branch":"main","sha":"b"}"#,
            "repoUpdateFile",
        ),
        (
            "GET",
            format!(
                "{R}/commits?sha=main&path=content%2Fmatters%2F00001.md&limit=1&stat=false&verification=false&files=false"
            ),
            "",
            "repoGetAllCommits",
        ),
        (
            "GET",
            format!("{R}/git/trees/{sha}?recursive=true&per_page=1000&page=1"),
            "",
            "GetTree",
        ),
        ("GET", format!("{R}/git/blobs/{sha}"), "", "GetBlob"),
        // What `doctor --forge forgejo` reads and writes.
        ("GET", R.to_string(), "", "repoGet"),
        (
            "GET",
            format!("{R}/labels?limit=50&page=1"),
            "",
            "issueListLabels",
        ),
        (
            "POST",
            format!("{R}/labels"),
            r##"{"name":"Ascension Address","color":"#5319e7","description":"d"}"##,
            "issueCreateLabel",
        ),
        ("GET", format!("{R}/branches/pages"), "", "repoGetBranch"),
        ("GET", "/users/ada-tinkers".to_string(), "", "userGet"),
    ]
}

#[test]
fn the_pinned_description_is_the_one_fetched() {
    let Some(spec) = spec() else { return };
    assert_eq!(spec.paths(), 331, "forgejo-api 0.12.0's description");
}

#[test]
fn the_checker_accepts_what_the_adapter_sends() {
    let Some(spec) = spec() else { return };
    for (method, target, body, id) in adapter_requests() {
        let matched = spec
            .check_request(method, &target, body)
            .unwrap_or_else(|e| panic!("{method} {target} should pass: {e}"));
        assert_eq!(matched.id, id, "{method} {target}");
    }
}

#[test]
fn the_checker_refuses_what_forgejo_would_refuse() {
    let Some(spec) = spec() else { return };
    let bad = [
        ("GET", format!("{R}/pullz"), "", "no such operation"),
        // GitHub's merge is not Forgejo's.
        (
            "PUT",
            format!("{R}/pulls/3/merge"),
            r#"{"sha":"abc","merge_method":"merge"}"#,
            "no such operation",
        ),
        (
            "POST",
            format!("{R}/pulls/3/merge"),
            r#"{"sha":"abc"}"#,
            "required field `Do`",
        ),
        (
            "POST",
            format!("{R}/pulls/3/merge"),
            r#"{"Do":"merge-commit"}"#,
            "not one of",
        ),
        // Forgejo pages by `limit`, not `per_page`, and its issue comments not at all.
        (
            "GET",
            format!("{R}/pulls?state=open&per_page=100"),
            "",
            "no query parameter `per_page`",
        ),
        (
            "GET",
            format!("{R}/issues/3/comments?limit=50"),
            "",
            "no query parameter `limit`",
        ),
        ("GET", format!("{R}/issues/seven"), "", "not an integer"),
        (
            "POST",
            format!("{R}/statuses/abc"),
            r#"{"state":"passed"}"#,
            "not one of",
        ),
        (
            "POST",
            format!("{R}/issues/3/comments"),
            r#"{"text":"hi"}"#,
            "required field `body`",
        ),
        // No git references can be made through Forgejo's API.
        (
            "POST",
            format!("{R}/git/refs"),
            r#"{"ref":"refs/x","sha":"abc"}"#,
            "no such operation",
        ),
    ];
    for (method, target, body, why) in bad {
        let err = spec
            .check_request(method, &target, body)
            .err()
            .unwrap_or_else(|| panic!("{method} {target} {body} should be refused"));
        assert!(
            err.contains(why),
            "{method} {target}: expected `{why}` in: {err}"
        );
    }
}

#[test]
fn the_checker_refuses_replies_forgejo_never_sends() {
    let Some(spec) = spec() else { return };
    let merge = spec
        .check_request("POST", &format!("{R}/pulls/3/merge"), r#"{"Do":"merge"}"#)
        .unwrap();
    // A merge answers 200 with no body, and a moved head 409.
    assert!(spec.reply(&merge, 200, &serde_json::Value::Null).is_ok());
    let err = spec
        .reply(&merge, 200, &json!({ "sha": "abc" }))
        .unwrap_err();
    assert!(err.contains("no body"), "{err}");
    assert!(spec.response_schema(&merge, 409).is_ok());
    assert!(spec.response_schema(&merge, 422).is_err());
    // A moved head is told in Forgejo's error shape.
    spec.check_reply(
        &merge,
        409,
        r#"{"message":"head out of date","url":"https://x"}"#,
    )
    .unwrap();
    assert!(spec.check_reply(&merge, 409, r#"{"message":7}"#).is_err());
    assert!(spec.check_reply(&merge, 200, r#"{"sha":"abc"}"#).is_err());
    let pull = spec
        .check_request("GET", &format!("{R}/pulls/3"), "")
        .unwrap();
    let err = spec
        .reply(&pull, 200, &json!({ "number": "3" }))
        .unwrap_err();
    assert!(
        err.contains("not of type integer") || err.contains("integer"),
        "{err}"
    );
    let err = spec
        .reply(&pull, 200, &json!({ "merged_at": null }))
        .unwrap_err();
    assert!(err.contains("null"), "{err}");
    // Editing an issue answers 201, not GitHub's 200.
    let edit = spec
        .check_request("PATCH", &format!("{R}/issues/3"), r#"{"state":"closed"}"#)
        .unwrap();
    assert!(spec.response_schema(&edit, 201).is_ok());
    assert!(spec.response_schema(&edit, 200).is_err());
    // Lists are described with their total.
    let list = spec
        .check_request("GET", &format!("{R}/issues?state=open"), "")
        .unwrap();
    assert!(spec.declares_header(&list, 200, "X-Total-Count"));
}
