//! Instants and durations of the game. There is deliberately no `now()`
//! here: the current moment is always passed in from the edge (the CLI's
//! `--now` or the clock read in `cli`), so the core is replayable.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A moment in UTC, at one-second resolution as the rules reckon time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

/// A length of time in whole seconds (may be negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span(i64);

impl Timestamp {
    /// The instant `secs` seconds after the Unix epoch.
    pub const fn from_unix(secs: i64) -> Self {
        Timestamp(secs)
    }

    /// Seconds since the Unix epoch.
    pub const fn unix(self) -> i64 {
        self.0
    }

    /// Parses RFC 3339 (`2030-01-01T12:00:00Z`); fractions of a second are dropped.
    pub fn parse(text: &str) -> Result<Self, TimestampError> {
        DateTime::parse_from_rfc3339(text.trim())
            .map(|t| Timestamp(t.timestamp()))
            .map_err(|e| TimestampError(format!("`{text}` is not an RFC 3339 time ({e})")))
    }

    /// A moment as a person gives one on the command line: an RFC 3339
    /// time (`2031-01-01T09:00:00Z`) or a date alone, which is its first
    /// second in UTC (`2031-01-01` is `2031-01-01T00:00:00Z`).
    pub fn parse_moment(text: &str) -> Result<Self, TimestampError> {
        let text = text.trim();
        if let Ok(t) = DateTime::parse_from_rfc3339(text) {
            return Ok(Timestamp(t.timestamp()));
        }
        if let Ok(day) = chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            if let Some(t) = day.and_hms_opt(0, 0, 0) {
                return Ok(Timestamp::from_datetime(t.and_utc()));
            }
        }
        Err(TimestampError(format!(
            "`{text}` is neither a date nor an RFC 3339 time: give one such as `2031-01-01` (its first second, UTC) or `2031-01-01T09:30:00Z`"
        )))
    }

    /// The same moment as a chrono value, for calendar arithmetic.
    pub fn to_datetime(self) -> DateTime<Utc> {
        DateTime::from_timestamp(self.0, 0).unwrap_or(DateTime::<Utc>::MIN_UTC)
    }

    /// Builds a timestamp from a chrono value.
    pub fn from_datetime(t: DateTime<Utc>) -> Self {
        Timestamp(t.timestamp())
    }

    /// `self + span`.
    #[must_use]
    pub const fn plus(self, span: Span) -> Self {
        Timestamp(self.0.saturating_add(span.0))
    }

    /// The moment in words, as every status, page and report writes it
    /// (`00:40 UTC on 4 Mar 2030`; seconds only when it has some).
    pub fn in_words(self) -> String {
        let format = if self.unix().rem_euclid(60) == 0 {
            "%H:%M UTC on %-d %b %Y"
        } else {
            "%H:%M:%S UTC on %-d %b %Y"
        };
        self.to_datetime().format(format).to_string()
    }

    /// The span from `earlier` to `self`.
    pub const fn since(self, earlier: Timestamp) -> Span {
        Span(self.0.saturating_sub(earlier.0))
    }
}

impl Span {
    /// A span of whole seconds.
    pub const fn seconds(secs: i64) -> Self {
        Span(secs)
    }

    /// A span of whole hours.
    pub const fn hours(hours: i64) -> Self {
        Span(hours.saturating_mul(3600))
    }

    /// A span of whole days (24 hours each).
    pub const fn days(days: i64) -> Self {
        Span(days.saturating_mul(86_400))
    }

    /// Length in seconds.
    pub const fn as_seconds(self) -> i64 {
        self.0
    }
}

/// A time that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TimestampError(String);

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            &self
                .to_datetime()
                .to_rfc3339_opts(SecondsFormat::Secs, true),
        )
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0.unsigned_abs();
        let sign = if self.0 < 0 { "-" } else { "" };
        match (s / 3600, (s % 3600) / 60, s % 60) {
            (h, 0, 0) => write!(f, "{sign}{h} h"),
            (h, m, 0) => write!(f, "{sign}{h} h {m} min"),
            (h, m, sec) => write!(f, "{sign}{h} h {m} min {sec} s"),
        }
    }
}

impl FromStr for Timestamp {
    type Err = TimestampError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Timestamp::parse(s)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Accepts an RFC 3339 string or a TOML offset date-time. A visitor, not
/// an untagged enum: tens of thousands of records are read at each build,
/// and an untagged enum buffers every value before it tries each form.
impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Timestamp;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an RFC 3339 time")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Timestamp, E> {
                Timestamp::parse(text).map_err(E::custom)
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Timestamp, A::Error> {
                let toml = toml::value::Datetime::deserialize(
                    serde::de::value::MapAccessDeserializer::new(map),
                )?;
                Timestamp::parse(&toml.to_string()).map_err(serde::de::Error::custom)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moment_on_the_command_line_may_be_a_date() {
        assert_eq!(
            Timestamp::parse_moment("2031-01-01"),
            Timestamp::parse("2031-01-01T00:00:00Z")
        );
        let wrong = Timestamp::parse_moment("2031-01-01 9am")
            .unwrap_err()
            .to_string();
        assert!(wrong.contains("such as `2031-01-01`"), "{wrong}");
    }

    #[test]
    fn parses_and_prints_rfc3339_in_utc() {
        let t = Timestamp::parse("2030-01-01T14:00:00+02:00").unwrap();
        assert_eq!(t.to_string(), "2030-01-01T12:00:00Z");
    }

    #[test]
    fn rejects_times_without_an_offset() {
        assert!(Timestamp::parse("2030-01-01 12:00").is_err());
    }

    #[test]
    fn span_arithmetic_and_display() {
        let a = Timestamp::parse("2030-01-01T00:00:00Z").unwrap();
        let b = a.plus(Span::hours(12)).plus(Span::seconds(61));
        assert_eq!(b.since(a), Span::seconds(12 * 3600 + 61));
        assert_eq!(b.since(a).to_string(), "12 h 1 min 1 s");
        assert_eq!(Span::hours(48).to_string(), "48 h");
    }

    #[test]
    fn deserializes_from_toml_datetime_and_string() {
        #[derive(Deserialize)]
        struct Doc {
            a: Timestamp,
            b: Timestamp,
        }
        let doc: Doc =
            toml::from_str("a = 2030-01-01T00:00:00Z\nb = \"2030-01-01T01:00:00Z\"").unwrap();
        assert_eq!(doc.b.since(doc.a), Span::hours(1));
    }
}
