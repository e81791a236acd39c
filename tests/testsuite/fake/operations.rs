//! What the two API descriptions' checkers share (`openapi` for GitHub's
//! OpenAPI 3, `swagger` for Forgejo's Swagger 2.0): the operations read
//! from `paths`, their declared parameters, and the check of a request's
//! path and query parameters. Where the formats differ (how a path
//! template takes a multi-segment value, where a parameter's type and a
//! body's schema are) each checker says so itself.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::schema::Schemas;

/// One operation: its method and path template, split into segments.
pub(crate) struct Operation {
    pub(crate) method: String,
    pub(crate) template: Vec<String>,
    pub(crate) value: Value,
}

/// An operation matching a path: its index, how many literal segments it
/// has (more is more specific), its path parameters.
pub(crate) type Candidate = (usize, usize, Vec<(String, String)>);

/// Every operation of a description's `paths`, the keys of a path item
/// that are no method (`parameters`, `summary`...) left out.
pub(crate) fn operations(doc: &Value) -> Vec<Operation> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, value) in item.as_object().expect("path item") {
            if matches!(method.as_str(), "parameters" | "summary" | "description") {
                continue;
            }
            out.push(Operation {
                method: method.to_ascii_uppercase(),
                template: path
                    .trim_start_matches('/')
                    .split('/')
                    .map(str::to_string)
                    .collect(),
                value: value.clone(),
            });
        }
    }
    out
}

/// An operation's declared parameters by (in, name), `$ref`s resolved.
pub(crate) fn parameters(
    schemas: &Schemas<'_>,
    op: &Operation,
) -> BTreeMap<(String, String), Value> {
    let mut out = BTreeMap::new();
    for p in op.value["parameters"].as_array().into_iter().flatten() {
        let p = schemas.resolve(p).clone();
        let key = (
            p["in"].as_str().unwrap_or("").to_string(),
            p["name"].as_str().unwrap_or("").to_string(),
        );
        out.insert(key, p);
    }
    out
}

/// A request's target split into its path's decoded segments and its query.
pub(crate) fn split_target(target: &str) -> (Vec<String>, &str) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let segments = path
        .trim_start_matches('/')
        .split('/')
        .map(decode)
        .collect();
    (segments, query)
}

/// Checks the path parameters `params` a template took and each query
/// parameter against what the operation declares, with `check` (a
/// parameter as declared, and the text given); `forge` names whose
/// description it is, and `what` the request, for the message.
pub(crate) fn check_parameters(
    declared: &BTreeMap<(String, String), Value>,
    params: &[(String, String)],
    query: &str,
    (forge, what): (&str, &str),
    check: impl Fn(&Value, &str) -> Result<(), String>,
) -> Result<(), String> {
    for (name, value) in params {
        let param = declared
            .get(&("path".to_string(), name.clone()))
            .ok_or_else(|| format!("{what}: undeclared path parameter {name}"))?;
        check(param, value).map_err(|e| format!("{what}: path parameter {name}: {e}"))?;
    }
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let param = declared
            .get(&("query".to_string(), decode(name)))
            .ok_or_else(|| format!("{what}: {forge} knows no query parameter `{name}` here"))?;
        check(param, &decode(value)).map_err(|e| format!("{what}: query parameter {name}: {e}"))?;
    }
    Ok(())
}

/// A parameter's text as the JSON value its declared `kind` says
/// (`integer`, `boolean`; anything else a string).
pub(crate) fn typed(kind: Option<&str>, text: &str) -> Result<Value, String> {
    match kind {
        Some("integer") => text
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("`{text}` is not an integer")),
        Some("boolean") => text
            .parse::<bool>()
            .map(Value::from)
            .map_err(|_| format!("`{text}` is not a boolean")),
        _ => Ok(Value::from(text)),
    }
}

/// Percent-decoding of a path segment or query value (`+` is a space).
pub(crate) fn decode(text: &str) -> String {
    percent_encoding::percent_decode_str(&text.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}
