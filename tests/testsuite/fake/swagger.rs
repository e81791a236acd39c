//! Forgejo's own REST API description (`swagger.v1.json`, Swagger 2.0, as
//! the `forgejo-api` crate 0.12.0 ships it; `.ci/run` fetches it into
//! target/forgejo-api), used to hold the fake Forgejo to what Forgejo
//! accepts and answers, as `openapi` holds the fake GitHub to GitHub's.
//! Every request the adapter sends is checked against the operation it
//! names (method, path template under `basePath`, query parameters, the
//! `in: body` parameter's schema), and every reply is built from and
//! validated against that operation's response for its status.
//!
//! Swagger 2.0 differs from OpenAPI 3 in where things are: parameters carry
//! their type inline, the body is a parameter, responses point into
//! `#/responses/` and hold their `schema` directly. Forgejo's description
//! names no field required and none nullable (its Go code sends `null` for
//! a nil pointer): the fake leaves such fields out rather than send a null
//! the description does not allow.
//!
//! Without the file the checks are skipped with a printed message;
//! `forgejo_conformance` fails loudly in CI (`GITNOMIC_REQUIRE_FORGEJO_API`).

use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::Value;

use super::operations::{
    Candidate, Operation, check_parameters, operations, parameters, split_target, typed,
};
use crate::schema::{Schemas, generate, validate};

/// What `.ci/run` fetches: the crate and the file in it.
pub(crate) const SWAGGER_SOURCE: &str = "forgejo-api 0.12.0 (crates.io), swagger.v1.json";

/// The path every API request starts with (`basePath`).
pub(crate) const BASE_PATH: &str = "/api/v1";

/// Where `.ci/run` puts the description.
pub(crate) fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/forgejo-api/swagger.v1.json")
}

/// The description: its operations and the document `$ref`s point into.
pub(crate) struct Spec {
    doc: Value,
    operations: Vec<Operation>,
}

/// A request matched to an operation.
#[derive(Debug, Clone)]
pub(crate) struct Matched {
    /// `repoMergePullRequest`, `issueCreateComment`, ...
    pub(crate) id: String,
    index: usize,
}

static SPEC: OnceLock<Option<Spec>> = OnceLock::new();

/// The description, or `None` (with a message, once) when not fetched.
pub(crate) fn spec() -> Option<&'static Spec> {
    SPEC.get_or_init(|| match std::fs::read_to_string(path()) {
        Ok(text) => Some(Spec::parse(&text)),
        Err(_) => {
            eprintln!(
                "SKIPPED conformance: {} is not there (`.ci/run` fetches it from {SWAGGER_SOURCE}): \
                 requests and replies of the fake Forgejo are NOT checked against Forgejo's description",
                path().display(),
            );
            None
        }
    })
    .as_ref()
}

impl Spec {
    fn parse(text: &str) -> Spec {
        let doc: Value = serde_json::from_str(text).expect("swagger.v1.json is JSON");
        assert_eq!(doc["swagger"], "2.0", "a Swagger 2.0 description");
        assert_eq!(doc["basePath"], BASE_PATH);
        let operations = operations(&doc);
        Spec { doc, operations }
    }

    fn schemas(&self) -> Schemas<'_> {
        Schemas { doc: &self.doc }
    }

    /// How many paths the description has (331 in the pinned one).
    pub(crate) fn paths(&self) -> usize {
        self.doc["paths"]
            .as_object()
            .map_or(0, serde_json::Map::len)
    }

    /// The operation a request names (`target` under the base path, e.g.
    /// `/repos/o/r/pulls?state=open`), checking its path and query
    /// parameters and its body; `Err` says what Forgejo would not accept.
    pub(crate) fn check_request(
        &self,
        method: &str,
        target: &str,
        body: &str,
    ) -> Result<Matched, String> {
        let (segments, query) = split_target(target);
        let (index, params) = self.find(method, &segments).ok_or_else(|| {
            format!("{method} {target}: no such operation in Forgejo's description")
        })?;
        let op = &self.operations[index];
        let id = op.value["operationId"].as_str().unwrap_or("?").to_string();
        let what = format!("{method} {target} ({id})");
        let declared = parameters(&self.schemas(), op);
        check_parameters(&declared, &params, query, ("Forgejo", &what), |p, text| {
            self.check_param(p, text)
        })?;
        let body_param = declared.iter().find(|((at, _), _)| at == "body");
        match (body_param, body.trim().is_empty()) {
            (None, true) => {}
            (None, false) => {
                return Err(format!("{what}: this operation takes no body, got {body}"));
            }
            (Some((_, p)), true) => {
                if p["required"].as_bool() == Some(true) {
                    return Err(format!("{what}: a body is required"));
                }
            }
            (Some((_, p)), false) => {
                let value: Value = serde_json::from_str(body)
                    .map_err(|e| format!("{what}: body: not JSON: {e}"))?;
                validate(&self.schemas(), &p["schema"], &value, true)
                    .map_err(|e| format!("{what}: body: {e}"))?;
            }
        }
        Ok(Matched { id, index })
    }

    /// The operation with the most literal segments that matches.
    fn find(&self, method: &str, segments: &[String]) -> Option<(usize, Vec<(String, String)>)> {
        let mut best: Option<Candidate> = None;
        for (i, op) in self.operations.iter().enumerate() {
            if op.method != method {
                continue;
            }
            // A file's path is one parameter however many segments it has
            // (Forgejo routes `contents/*`): it takes the rest.
            let segments = match op.template.last().map(String::as_str) {
                Some("{filepath}") if segments.len() >= op.template.len() => {
                    let (head, tail) = segments.split_at(op.template.len() - 1);
                    let mut joined = head.to_vec();
                    joined.push(tail.join("/"));
                    joined
                }
                _ => segments.to_vec(),
            };
            if op.template.len() != segments.len() {
                continue;
            }
            let mut params = Vec::new();
            let fits = op.template.iter().zip(&segments).all(|(part, seg)| {
                match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                    Some(name) => {
                        params.push((name.to_string(), seg.clone()));
                        true
                    }
                    // `{index}.{diffType}` and the like: not what gitnomic sends.
                    None if part.contains('{') => false,
                    None => part == seg,
                }
            });
            if !fits {
                continue;
            }
            let literal = op.template.iter().filter(|s| !s.contains('{')).count();
            if best.as_ref().is_none_or(|(_, l, _)| literal > *l) {
                best = Some((i, literal, params));
            }
        }
        best.map(|(i, _, p)| (i, p))
    }

    /// A path or query parameter's text against its inline type.
    fn check_param(&self, param: &Value, text: &str) -> Result<(), String> {
        let mut schema = param.clone();
        if let Some(o) = schema.as_object_mut() {
            for k in ["in", "name", "required", "description", "collectionFormat"] {
                o.remove(k);
            }
        }
        if schema["type"] == "array" {
            // `collectionFormat: multi`: each value is one item.
            return self.check_param(&schema["items"], text);
        }
        let value = typed(schema["type"].as_str(), text)?;
        validate(&self.schemas(), &schema, &value, false)
    }

    /// The response Forgejo describes for `status`: `Err` if it never
    /// answers the operation with it.
    fn response(&self, op: &Matched, status: u16) -> Result<Value, String> {
        let responses = &self.operations[op.index].value["responses"];
        let Some(response) = responses.get(status.to_string()) else {
            let known: Vec<&String> = responses
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            return Err(format!(
                "{}: Forgejo never answers {status} (it answers {known:?})",
                op.id
            ));
        };
        Ok(self.schemas().resolve(response).clone())
    }

    /// The schema of a reply; `Ok(None)` for one with no body.
    pub(crate) fn response_schema(
        &self,
        op: &Matched,
        status: u16,
    ) -> Result<Option<Value>, String> {
        if status == 304 {
            return Ok(None);
        }
        let response = self.response(op, status)?;
        Ok(response.get("schema").cloned())
    }

    /// Whether the response for `status` declares header `name`
    /// (`X-Total-Count`, `Link`), case aside.
    pub(crate) fn declares_header(&self, op: &Matched, status: u16, name: &str) -> bool {
        self.response(op, status).is_ok_and(|r| {
            r["headers"]
                .as_object()
                .is_some_and(|h| h.keys().any(|k| k.eq_ignore_ascii_case(name)))
        })
    }

    /// A reply as Forgejo would send it: the fake's values on the
    /// operation's schema, validated. A response with no schema has no
    /// body: the fake must send none.
    pub(crate) fn reply(&self, op: &Matched, status: u16, fill: &Value) -> Result<Value, String> {
        let Some(schema) = self.response_schema(op, status)? else {
            if fill.is_null() {
                return Ok(Value::Null);
            }
            return Err(format!(
                "{} {status}: Forgejo answers this with no body, but the fake sent {fill}",
                op.id
            ));
        };
        let value = generate(&self.schemas(), &schema, fill);
        validate(&self.schemas(), &schema, &value, false).map_err(|e| {
            format!(
                "{} {status}: the reply does not fit Forgejo's schema: {e}",
                op.id
            )
        })?;
        Ok(value)
    }

    /// Validates a reply body against the operation's schema for `status`.
    pub(crate) fn check_reply(&self, op: &Matched, status: u16, body: &str) -> Result<(), String> {
        let Some(schema) = self.response_schema(op, status)? else {
            return if body.trim().is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{} {status}: a body where none is described",
                    op.id
                ))
            };
        };
        let value: Value =
            serde_json::from_str(body).map_err(|e| format!("{}: not JSON: {e}", op.id))?;
        validate(&self.schemas(), &schema, &value, false)
            .map_err(|e| format!("{} {status}: {e}", op.id))
    }
}
