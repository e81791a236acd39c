//! The subset of OpenAPI 3.0 schemas GitHub's description uses, enough to
//! validate a JSON value against one and to build the smallest value that
//! fits one: `$ref`, `allOf`/`anyOf`/`oneOf`, `type`, `nullable`, `enum`,
//! `required`, `properties`, `additionalProperties`, `items`, length and
//! range bounds, and the `date-time` format. Patterns are not checked.
//!
//! Written here rather than taken from a JSON Schema crate because OpenAPI
//! 3.0's `nullable` is not JSON Schema, and GitHub's description leans on it
//! for exactly the fields this project cares about (`user`, `body`, ...).
//! Swagger 2.0's `x-nullable` (Forgejo's description, see `swagger`) is
//! read the same way; `$ref`s into `#/definitions/` resolve like any other.

use serde_json::{Map, Value};

/// The document `$ref`s point into.
pub(crate) struct Schemas<'a> {
    pub(crate) doc: &'a Value,
}

impl<'a> Schemas<'a> {
    /// Follows `$ref`s (`#/components/...`) until a schema that is not one.
    pub(crate) fn resolve<'s>(&self, mut schema: &'s Value) -> &'s Value
    where
        'a: 's,
    {
        while let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let pointer = r.trim_start_matches('#');
            schema = self
                .doc
                .pointer(pointer)
                .unwrap_or_else(|| panic!("dangling $ref {r}"));
        }
        schema
    }
}

/// Whether a schema allows null: OpenAPI 3.0's `nullable`, or the
/// `x-nullable` extension of Swagger 2.0.
fn nullable(schema: &Value) -> bool {
    ["nullable", "x-nullable"]
        .iter()
        .any(|k| schema.get(*k).and_then(Value::as_bool) == Some(true))
}

/// Whether `value` fits `schema`. `strict` (for requests) also refuses
/// fields the schema does not declare: GitHub ignores them, so sending one
/// is a mistake on our side.
pub(crate) fn validate(
    schemas: &Schemas<'_>,
    schema: &Value,
    value: &Value,
    strict: bool,
) -> Result<(), String> {
    check(schemas, schema, value, strict, "$")
}

fn check(
    s: &Schemas<'_>,
    schema: &Value,
    value: &Value,
    strict: bool,
    at: &str,
) -> Result<(), String> {
    let schema = s.resolve(schema);
    if value.is_null() && nullable(schema) {
        return Ok(());
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for part in all {
            check(s, part, value, false, at)?;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(any) = schema.get(key).and_then(Value::as_array) {
            let errors: Vec<String> = any
                .iter()
                .filter_map(|alt| check(s, alt, value, strict, at).err())
                .collect();
            if errors.len() == any.len() {
                return Err(format!("{at}: fits none of {key}: {}", errors.join(" | ")));
            }
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        if !options.contains(value) {
            return Err(format!(
                "{at}: {value} is not one of {}",
                Value::from(options.clone())
            ));
        }
    }
    let kind = schema.get("type").and_then(Value::as_str).or_else(|| {
        (schema.get("properties").is_some() || schema.get("required").is_some()).then_some("object")
    });
    match kind {
        None => Ok(()),
        Some(_) if value.is_null() => {
            Err(format!("{at}: null, but the schema is not nullable here"))
        }
        Some("object") => check_object(s, schema, value, strict, at),
        Some("array") => check_array(s, schema, value, strict, at),
        Some("string") => check_string(schema, value, at),
        Some("integer") if value.is_i64() || value.is_u64() => check_range(schema, value, at),
        Some("number") if value.is_number() => check_range(schema, value, at),
        Some("boolean") if value.is_boolean() => Ok(()),
        Some(other) => Err(format!("{at}: {value} is not of type {other}")),
    }
}

fn check_object(
    s: &Schemas<'_>,
    schema: &Value,
    value: &Value,
    strict: bool,
    at: &str,
) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err(format!("{at}: {} is not an object", short(value)));
    };
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = name.as_str().unwrap_or_default();
        if !object.contains_key(name) {
            return Err(format!("{at}: the required field `{name}` is missing"));
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    let extra = schema.get("additionalProperties");
    for (name, field) in object {
        let here = format!("{at}.{name}");
        match (properties.and_then(|p| p.get(name)), extra) {
            (Some(p), _) => check(s, p, field, strict, &here)?,
            (None, Some(Value::Bool(false))) => return Err(format!("{here}: not allowed here")),
            (None, Some(Value::Bool(true))) => {}
            (None, Some(e)) => check(s, e, field, strict, &here)?,
            (None, None) if strict && properties.is_some() => {
                return Err(format!("{here}: GitHub's description has no such field"));
            }
            (None, None) => {}
        }
    }
    Ok(())
}

fn check_array(
    s: &Schemas<'_>,
    schema: &Value,
    value: &Value,
    strict: bool,
    at: &str,
) -> Result<(), String> {
    let Some(items) = value.as_array() else {
        return Err(format!("{at}: {} is not an array", short(value)));
    };
    let bound = |k: &str| {
        schema
            .get(k)
            .and_then(Value::as_u64)
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    };
    if bound("minItems").is_some_and(|m| items.len() < m) {
        return Err(format!(
            "{at}: fewer than {} items",
            bound("minItems").unwrap_or(0)
        ));
    }
    if bound("maxItems").is_some_and(|m| items.len() > m) {
        return Err(format!(
            "{at}: more than {} items",
            bound("maxItems").unwrap_or(0)
        ));
    }
    if let Some(item) = schema.get("items") {
        for (i, v) in items.iter().enumerate() {
            check(s, item, v, strict, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

fn check_string(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let Some(text) = value.as_str() else {
        return Err(format!("{at}: {} is not a string", short(value)));
    };
    let chars = text.chars().count() as u64;
    if schema
        .get("maxLength")
        .and_then(Value::as_u64)
        .is_some_and(|m| chars > m)
    {
        return Err(format!(
            "{at}: longer than {} characters",
            schema["maxLength"]
        ));
    }
    if schema
        .get("minLength")
        .and_then(Value::as_u64)
        .is_some_and(|m| chars < m)
    {
        return Err(format!(
            "{at}: shorter than {} characters",
            schema["minLength"]
        ));
    }
    if schema.get("format").and_then(Value::as_str) == Some("date-time")
        && chrono::DateTime::parse_from_rfc3339(text).is_err()
    {
        return Err(format!("{at}: `{text}` is not an RFC 3339 date-time"));
    }
    Ok(())
}

fn check_range(schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    let n = value.as_f64().unwrap_or(0.0);
    if schema
        .get("minimum")
        .and_then(Value::as_f64)
        .is_some_and(|m| n < m)
    {
        return Err(format!("{at}: {n} is below {}", schema["minimum"]));
    }
    if schema
        .get("maximum")
        .and_then(Value::as_f64)
        .is_some_and(|m| n > m)
    {
        return Err(format!("{at}: {n} is above {}", schema["maximum"]));
    }
    Ok(())
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(60).collect::<String>())
    } else {
        text
    }
}

/// The smallest value that fits `schema` with `fill` laid over it: every
/// required field GitHub's schema names is present (null where nullable,
/// placeholders otherwise), so a reply the fake builds carries everything
/// GitHub's does, and the adapter must cope with GitHub's nulls.
pub(crate) fn generate(s: &Schemas<'_>, schema: &Value, fill: &Value) -> Value {
    build(s, schema, Some(fill))
}

fn build(s: &Schemas<'_>, schema: &Value, fill: Option<&Value>) -> Value {
    let schema = s.resolve(schema);
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        if fill.is_none() && nullable(schema) {
            return Value::Null;
        }
        let mut out = Value::Object(Map::new());
        for part in all {
            crate::fake::openapi::overlay(&mut out, &build(s, part, fill));
        }
        return out;
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(alts) = schema.get(key).and_then(Value::as_array) {
            if fill.is_none() && nullable(schema) {
                return Value::Null;
            }
            let candidates: Vec<Value> = alts.iter().map(|a| build(s, a, fill)).collect();
            let fits = alts
                .iter()
                .zip(&candidates)
                .position(|(a, c)| validate(s, a, c, false).is_ok())
                .unwrap_or(0);
            return candidates.into_iter().nth(fits).unwrap_or(Value::Null);
        }
    }
    match fill {
        Some(Value::Null) => return Value::Null,
        Some(v) if !v.is_object() && !v.is_array() => return v.clone(),
        None if nullable(schema) => {
            return Value::Null;
        }
        _ => {}
    }
    let kind = schema.get("type").and_then(Value::as_str).or_else(|| {
        (schema.get("properties").is_some() || schema.get("required").is_some()).then_some("object")
    });
    let fits_kind = match (kind, fill) {
        (Some("object") | None, Some(Value::Object(_)))
        | (Some("array") | None, Some(Value::Array(_))) => true,
        (_, Some(Value::Object(_) | Value::Array(_))) => false,
        _ => true,
    };
    if !fits_kind {
        return fill.cloned().unwrap_or(Value::Null); // validation will say why
    }
    match kind {
        Some("object") => build_object(s, schema, fill),
        Some("array") => match fill {
            Some(Value::Array(items)) => Value::Array(
                items
                    .iter()
                    .map(|v| build(s, &schema["items"], Some(v)))
                    .collect(),
            ),
            _ => Value::Array(Vec::new()),
        },
        Some("string") => placeholder(schema),
        Some("integer") => schema.get("minimum").cloned().unwrap_or(Value::from(1)),
        Some("number") => Value::from(1),
        Some("boolean") => Value::Bool(false),
        _ => fill.cloned().unwrap_or(Value::Null),
    }
}

fn build_object(s: &Schemas<'_>, schema: &Value, fill: Option<&Value>) -> Value {
    let given = fill.and_then(Value::as_object);
    let properties = schema.get("properties").and_then(Value::as_object);
    let mut out = Map::new();
    for name in schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = name.as_str().unwrap_or_default();
        let field = properties
            .and_then(|p| p.get(name))
            .cloned()
            .unwrap_or(Value::Null);
        out.insert(
            name.to_string(),
            build(s, &field, given.and_then(|g| g.get(name))),
        );
    }
    for (name, value) in given.into_iter().flatten() {
        let built = match properties.and_then(|p| p.get(name)) {
            Some(field) => build(s, field, Some(value)),
            None => value.clone(),
        };
        out.insert(name.clone(), built);
    }
    Value::Object(out)
}

fn placeholder(schema: &Value) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    Value::from(match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => "2030-01-01T00:00:00Z",
        Some("uri" | "url") => "https://github.invalid/placeholder",
        Some("email") => "someone@github.invalid",
        _ => "placeholder",
    })
}
