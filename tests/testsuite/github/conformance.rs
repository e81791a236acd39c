//! The checker the fake GitHub uses, checked itself: it refuses requests
//! GitHub would refuse and replies GitHub would never send, accepts real
//! recorded replies, and builds replies that carry every required field.

use serde_json::{Value, json};

use crate::fake::openapi::{self, Spec};

/// The description, or `None` after saying why. Where CI installs it
/// (`GITNOMIC_REQUIRE_GITHUB_API=1`, set by `.ci/run`), its absence fails.
fn spec() -> Option<&'static Spec> {
    let spec = openapi::spec();
    if spec.is_none() {
        assert!(
            std::env::var_os("GITNOMIC_REQUIRE_GITHUB_API").is_none(),
            "GITNOMIC_REQUIRE_GITHUB_API is set but GitHub's description is not installed under target/github-api"
        );
        eprintln!("SKIPPED: GitHub's OpenAPI description is not installed (run .ci/run)");
    }
    spec
}

const R: &str = "/repos/clockwork/game";

#[test]
fn the_checker_accepts_what_the_adapter_should_send() {
    let Some(spec) = spec() else { return };
    let ok = [
        ("GET", format!("{R}/pulls?state=open&per_page=100"), ""),
        (
            "GET",
            format!(
                "{R}/issues?state=closed&sort=updated&direction=desc&per_page=100&labels=resolving&since=2030-01-01T00%3A00%3A00Z"
            ),
            "",
        ),
        ("GET", format!("{R}/issues/comments/12"), ""),
        (
            "PATCH",
            format!("{R}/issues/comments/12"),
            r#"{"body":"x"}"#,
        ),
        (
            "GET",
            format!("{R}/contents/content/matters/00001.md?ref=main"),
            "",
        ),
        (
            "DELETE",
            format!("{R}/issues/3/labels/Ascension%20Address"),
            "",
        ),
        (
            "PUT",
            format!("{R}/pulls/3/merge"),
            r#"{"sha":"abc","merge_method":"merge","commit_title":"t"}"#,
        ),
        ("GET", format!("{R}/pulls/3/comments?per_page=100"), ""),
        (
            "GET",
            format!("{R}/git/trees/{}?recursive=1", "a".repeat(40)),
            "",
        ),
        ("GET", format!("{R}/git/blobs/{}", "b".repeat(40)), ""),
        (
            "POST",
            format!("{R}/git/refs"),
            r#"{"ref":"refs/gitnomic/pull/3/abc","sha":"abc"}"#,
        ),
        ("GET", format!("{R}/git/ref/gitnomic/pull/3/abc"), ""),
    ];
    for (method, target, body) in ok {
        spec.check_request(method, &target, body)
            .unwrap_or_else(|e| panic!("{method} {target} should pass: {e}"));
    }
    let id = spec
        .check_request("GET", &format!("{R}/issues/comments/12"), "")
        .unwrap()
        .id;
    assert_eq!(
        id, "issues/get-comment",
        "the literal path wins over /issues/{{n}}"
    );
    let id = |method: &str, target: String| spec.check_request(method, &target, "").unwrap().id;
    assert_eq!(
        id("GET", format!("{R}/pulls/3/comments")),
        "pulls/list-review-comments"
    );
    assert_eq!(
        id("GET", format!("{R}/git/ref/gitnomic/pull/3/abc")),
        "git/get-ref"
    );
}

#[test]
fn the_checker_rejects_requests_github_would_refuse() {
    let Some(spec) = spec() else { return };
    let bad = [
        ("GET", format!("{R}/pullz"), "", "no such operation"),
        (
            "PATCH",
            format!("{R}/pulls/3/merge"),
            "{}",
            "no such operation",
        ),
        ("GET", format!("{R}/pulls?state=opened"), "", "not one of"),
        (
            "GET",
            format!("{R}/pulls?labels=x"),
            "",
            "no query parameter `labels`",
        ),
        ("GET", format!("{R}/issues/seven"), "", "not an integer"),
        (
            "PUT",
            format!("{R}/pulls/3/merge"),
            r#"{"merge_method":"fast-forward"}"#,
            "not one of",
        ),
        (
            "PUT",
            format!("{R}/pulls/3/merge"),
            r#"{"head_sha":"abc"}"#,
            "no such field",
        ),
        (
            "POST",
            format!("{R}/issues/3/comments"),
            r#"{"text":"hi"}"#,
            "required field `body`",
        ),
        (
            "POST",
            format!("{R}/issues/3/comments"),
            "",
            "a body is required",
        ),
        (
            "DELETE",
            format!("{R}/issues/3/labels/x"),
            "{}",
            "takes no body",
        ),
        (
            "POST",
            format!("{R}/statuses/abc"),
            r#"{"state":"passed"}"#,
            "not one of",
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
fn the_checker_rejects_replies_github_never_sends() {
    let Some(spec) = spec() else { return };
    let get_pull = spec
        .check_request("GET", &format!("{R}/pulls/1"), "")
        .unwrap();
    let good = spec
        .reply(
            &get_pull,
            200,
            &json!({ "number": 1, "head": { "sha": "a" } }),
        )
        .unwrap();
    spec.check_reply(&get_pull, 200, &good.to_string()).unwrap();
    let mut no_head = good.clone();
    no_head.as_object_mut().unwrap().remove("head");
    let err = spec
        .check_reply(&get_pull, 200, &no_head.to_string())
        .unwrap_err();
    assert!(err.contains("`head` is missing"), "{err}");
    let mut number_as_text = good.clone();
    number_as_text["number"] = json!("1");
    assert!(
        spec.check_reply(&get_pull, 200, &number_as_text.to_string())
            .is_err()
    );
    let err = spec
        .check_reply(&get_pull, 201, &good.to_string())
        .unwrap_err();
    assert!(err.contains("never answers 201"), "{err}");
    let comments = spec
        .check_request("GET", &format!("{R}/issues/1/comments"), "")
        .unwrap();
    let err = spec
        .reply(
            &comments,
            200,
            &json!([{ "id": 5, "user": "ada", "body": "FOR" }]),
        )
        .unwrap_err();
    assert!(err.contains("user"), "{err}");
    // GitHub's own nulls pass: a deleted account's comment.
    spec.reply(
        &comments,
        200,
        &json!([{ "id": 5, "user": null, "body": "FOR" }]),
    )
    .unwrap();
}

#[test]
fn replies_carry_every_field_github_requires() {
    let Some(spec) = spec() else { return };
    let get_pull = spec
        .check_request("GET", &format!("{R}/pulls/1"), "")
        .unwrap();
    let pull = spec.reply(&get_pull, 200, &json!({ "number": 1 })).unwrap();
    for field in [
        "_links",
        "base",
        "head",
        "user",
        "merged_at",
        "mergeable",
        "author_association",
    ] {
        assert!(pull.get(field).is_some(), "{field} missing: {pull}");
    }
    assert!(pull["head"].get("repo").is_some() && pull["head"].get("sha").is_some());
    assert!(
        pull["merged_at"].is_null(),
        "nullable fields come as GitHub's null"
    );
}

/// Real replies recorded from GitHub (other people's text, read in place)
/// fit the description as this checker reads it.
#[test]
fn real_recorded_replies_fit_the_description() {
    let Some(spec) = spec() else { return };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/fixtures/github/danger-js");
    let cases = [
        ("github_pr.json", "/pulls/327"),
        ("github_comments.json", "/issues/327/comments"),
        ("reviews.json", "/pulls/327/reviews"),
    ];
    for (file, path) in cases {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            eprintln!("SKIPPED: {} not found", dir.join(file).display());
            return;
        };
        let op = spec
            .check_request("GET", &format!("{R}{path}"), "")
            .unwrap();
        // Recorded in 2016: fields GitHub has added since are missing, so
        // only the types of what is there are checked.
        let value: Value = serde_json::from_str(&text).unwrap();
        let built = spec.reply(&op, 200, &value);
        assert!(built.is_ok(), "{file}: {}", built.unwrap_err());
    }
}

/// What `gitnomic doctor` sends is what GitHub accepts, and a label with
/// a field GitHub does not know is refused.
#[test]
fn the_checker_accepts_the_doctors_requests() {
    let Some(spec) = spec() else { return };
    let ok = [
        ("GET", R.to_string(), "", "repos/get"),
        (
            "GET",
            format!("{R}/actions/permissions"),
            "",
            "actions/get-github-actions-permissions-repository",
        ),
        (
            "GET",
            format!("{R}/actions/permissions/workflow"),
            "",
            "actions/get-github-actions-default-workflow-permissions-repository",
        ),
        (
            "GET",
            format!("{R}/actions/workflows?per_page=100"),
            "",
            "actions/list-repo-workflows",
        ),
        ("GET", format!("{R}/pages"), "", "repos/get-pages"),
        (
            "GET",
            format!("{R}/labels?per_page=100"),
            "",
            "issues/list-labels-for-repo",
        ),
        (
            "POST",
            format!("{R}/labels"),
            r#"{"name":"Ascension Address","color":"5319e7","description":"d"}"#,
            "issues/create-label",
        ),
        (
            "GET",
            "/users/ada-tinkers".to_string(),
            "",
            "users/get-by-username",
        ),
    ];
    for (method, target, body, id) in ok {
        let matched = spec
            .check_request(method, &target, body)
            .unwrap_or_else(|e| panic!("{method} {target} should pass: {e}"));
        assert_eq!(matched.id, id, "{method} {target}");
    }
    let err = spec
        .check_request(
            "POST",
            &format!("{R}/labels"),
            r#"{"name":"x","colour":"fff"}"#,
        )
        .unwrap_err();
    assert!(err.contains("no such field"), "{err}");
    // Pages answers 404 when there is no site; Actions' settings never do.
    let pages = spec
        .check_request("GET", &format!("{R}/pages"), "")
        .unwrap();
    assert!(spec.response_schema(&pages, 404).is_ok());
    let actions = spec
        .check_request("GET", &format!("{R}/actions/permissions"), "")
        .unwrap();
    assert!(spec.response_schema(&actions, 404).is_err());
}
