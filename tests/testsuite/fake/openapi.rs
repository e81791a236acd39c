//! GitHub's own REST API description (`@octokit/openapi`, installed by
//! `.ci/run` under target/github-api), used to hold the fake GitHub to what
//! GitHub really accepts and answers. The fake checks every request the
//! adapter sends against the operation it names (method, path template,
//! query parameters, JSON body) and builds every reply from the operation's
//! response schema, then validates it, so the fake and the adapter can no
//! longer agree with each other by construction.
//!
//! When the description is not installed the checks are skipped with a
//! printed message (once per test process); `conformance_is_checked` fails
//! loudly in CI, where `.ci/run` installs it.

use std::path::PathBuf;
use std::sync::OnceLock;

use serde_json::Value;

use super::operations::{
    Candidate, Operation, check_parameters, operations, parameters, split_target, typed,
};
use crate::schema::{Schemas, generate, validate};

/// The pinned versions `.ci/run` installs.
pub(crate) const OPENAPI_PACKAGE: &str = "@octokit/openapi@23.0.2";

/// Where `.ci/run` installs the npm packages.
pub(crate) fn modules() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/github-api/node_modules/@octokit")
}

/// The description: operations by method, and the document for `$ref`s.
pub(crate) struct Spec {
    pub(crate) doc: Value,
    operations: Vec<Operation>,
}

/// A request matched to an operation.
#[derive(Debug, Clone)]
pub(crate) struct Matched {
    /// `pulls/merge`, `issues/create-comment`, ...
    pub(crate) id: String,
    index: usize,
}

static SPEC: OnceLock<Option<Spec>> = OnceLock::new();

/// The description, or `None` (with a message, once) when not installed.
pub(crate) fn spec() -> Option<&'static Spec> {
    SPEC.get_or_init(|| {
        let path = modules().join("openapi/generated/api.github.com.json");
        match std::fs::read_to_string(&path) {
            Ok(text) => Some(Spec::parse(&text)),
            Err(_) => {
                eprintln!(
                    "SKIPPED conformance: {} is not installed (`.ci/run` installs {OPENAPI_PACKAGE}): \
                     requests and replies of the fake GitHub are NOT checked against GitHub's description",
                    path.display(),
                );
                None
            }
        }
    })
    .as_ref()
}

impl Spec {
    fn parse(text: &str) -> Spec {
        let doc: Value = serde_json::from_str(text).expect("the OpenAPI description is JSON");
        let operations = operations(&doc);
        Spec { doc, operations }
    }

    fn schemas(&self) -> Schemas<'_> {
        Schemas { doc: &self.doc }
    }

    /// The operation a request names, checking its path parameters, query
    /// parameters and body; `Err` says what GitHub would not accept.
    pub(crate) fn check_request(
        &self,
        method: &str,
        target: &str,
        body: &str,
    ) -> Result<Matched, String> {
        let (segments, query) = split_target(target);
        let (index, params) = self.find(method, &segments).ok_or_else(|| {
            format!("{method} {target}: no such operation in GitHub's description")
        })?;
        let op = &self.operations[index];
        let id = op.value["operationId"].as_str().unwrap_or("?").to_string();
        let what = format!("{method} {target} ({id})");
        let declared = parameters(&self.schemas(), op);
        check_parameters(&declared, &params, query, ("GitHub", &what), |p, text| {
            self.check_param(p, text)
        })?;
        self.check_body(&op.value, body)
            .map_err(|e| format!("{what}: body: {e}"))?;
        Ok(Matched { id, index })
    }

    /// The most literal operation matching the segments, with the values
    /// of its path parameters.
    fn find(&self, method: &str, segments: &[String]) -> Option<(usize, Vec<(String, String)>)> {
        let mut best: Option<Candidate> = None;
        for (i, op) in self.operations.iter().enumerate() {
            if op.method != method {
                continue;
            }
            let Some(params) = self.match_template(op, segments) else {
                continue;
            };
            let literal = op.template.iter().filter(|s| !s.starts_with('{')).count();
            if best.as_ref().is_none_or(|(_, l, _)| literal > *l) {
                best = Some((i, literal, params));
            }
        }
        best.map(|(i, _, p)| (i, p))
    }

    fn match_template(&self, op: &Operation, segments: &[String]) -> Option<Vec<(String, String)>> {
        let mut params = Vec::new();
        let mut at = 0;
        for (k, part) in op.template.iter().enumerate() {
            let Some(name) = part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) else {
                if segments.get(at)? != part {
                    return None;
                }
                at += 1;
                continue;
            };
            let multi = parameters(&self.schemas(), op)
                .get(&("path".into(), name.into()))
                .is_some_and(|p| {
                    p.get("x-multi-segment")
                        .and_then(Value::as_bool)
                        .unwrap_or(false)
                });
            let rest = op.template.len() - k - 1;
            let take = if multi {
                segments.len().checked_sub(at + rest)?
            } else {
                1
            };
            if take == 0 || at + take > segments.len() {
                return None;
            }
            params.push((name.to_string(), segments[at..at + take].join("/")));
            at += take;
        }
        (at == segments.len()).then_some(params)
    }

    /// A parameter's text against its schema (numbers and booleans parsed).
    fn check_param(&self, param: &Value, text: &str) -> Result<(), String> {
        let schema = self.schemas().resolve(&param["schema"]).clone();
        let value = typed(schema["type"].as_str(), text)?;
        validate(&self.schemas(), &schema, &value, false)
    }

    fn check_body(&self, op: &Value, body: &str) -> Result<(), String> {
        let schema = op["requestBody"]["content"]["application/json"]["schema"].clone();
        if body.trim().is_empty() {
            return match op["requestBody"]["required"].as_bool() {
                Some(true) => Err("a body is required".into()),
                _ => Ok(()),
            };
        }
        if schema.is_null() {
            return Err(format!("this operation takes no body, but got {body}"));
        }
        let value: Value = serde_json::from_str(body).map_err(|e| format!("not JSON: {e}"))?;
        validate(&self.schemas(), &schema, &value, true)
    }

    /// The JSON schema of a reply, or `Err` if GitHub never answers that
    /// operation with `status`. `Ok(None)`: a reply with no JSON body.
    pub(crate) fn response_schema(
        &self,
        op: &Matched,
        status: u16,
    ) -> Result<Option<Value>, String> {
        if status == 304 {
            return Ok(None); // conditional requests are honoured on every GET
        }
        let operation = &self.operations[op.index].value;
        if status == 422 && promises_validation_error(operation) {
            return Ok(Some(
                serde_json::json!({ "$ref": "#/components/schemas/validation-error" }),
            ));
        }
        let responses = &operation["responses"];
        let Some(response) = responses.get(status.to_string()) else {
            let known: Vec<&String> = responses
                .as_object()
                .map(|o| o.keys().collect())
                .unwrap_or_default();
            return Err(format!(
                "{}: GitHub never answers {status} (it answers {known:?})",
                op.id
            ));
        };
        let response = self.schemas().resolve(response);
        Ok(response["content"]["application/json"]["schema"]
            .as_object()
            .map(|o| Value::Object(o.clone())))
    }

    /// A reply as GitHub would send it: every required field of the
    /// operation's schema for `status`, with `fill`'s values laid over.
    pub(crate) fn reply(&self, op: &Matched, status: u16, fill: &Value) -> Result<Value, String> {
        let Some(schema) = self.response_schema(op, status)? else {
            return Ok(fill.clone());
        };
        let value = generate(&self.schemas(), &schema, fill);
        validate(&self.schemas(), &schema, &value, false).map_err(|e| {
            format!(
                "{} {status}: the reply does not fit GitHub's schema: {e}",
                op.id
            )
        })?;
        Ok(value)
    }

    /// Validates a reply body against the operation's schema for `status`.
    pub(crate) fn check_reply(&self, op: &Matched, status: u16, body: &str) -> Result<(), String> {
        let Some(schema) = self.response_schema(op, status)? else {
            return Ok(());
        };
        let value: Value =
            serde_json::from_str(body).map_err(|e| format!("{}: not JSON: {e}", op.id))?;
        validate(&self.schemas(), &schema, &value, false)
            .map_err(|e| format!("{} {status}: {e}", op.id))
    }
}

/// Whether an operation's description says in words that a request can
/// be refused as a validation error, though its table of responses lists
/// no 422: `repos/create-commit-status` ("Attempts to create more than
/// 1000 statuses will result in a validation error"). Its reply is then
/// held to GitHub's `validation-error` schema.
fn promises_validation_error(operation: &Value) -> bool {
    operation["description"]
        .as_str()
        .is_some_and(|d| d.contains("will result in a validation error"))
}

/// Lays `over` on `base`: objects merge key by key, anything else replaces.
pub(crate) fn overlay(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => overlay(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}
