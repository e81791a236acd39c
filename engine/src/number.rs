//! A matter's number, as its own type: the forge gives a pull request, an
//! issue and a comment each a bare integer, and a matter's number passed
//! where a comment's id or a count was meant would otherwise compile.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The number a matter has on the forge (its pull request's or issue's),
/// which names it everywhere: in votes' links, records' file names, the
/// site's addresses. Serialized as the bare number, so records and the
/// site's data read as before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MatterNumber(pub u64);

impl MatterNumber {
    /// The bare number, for the forge's addresses and for arithmetic.
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for MatterNumber {
    /// Printed as the bare number, honouring width and fill (`{:05}` for
    /// a record's file name).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for MatterNumber {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(MatterNumber)
    }
}

#[cfg(test)]
mod tests {
    use super::MatterNumber;

    #[test]
    fn prints_and_reads_as_the_bare_number() {
        let n = MatterNumber(42);
        assert_eq!(format!("{n}"), "42");
        assert_eq!(format!("{n:05}"), "00042");
        assert_eq!("42".parse::<MatterNumber>(), Ok(n));
        assert!("forty-two".parse::<MatterNumber>().is_err());
        assert_eq!(toml::to_string(&Wrap { n }).unwrap(), "n = 42\n");
        assert_eq!(serde_json::to_string(&n).unwrap(), "42");
    }

    #[derive(serde::Serialize)]
    struct Wrap {
        n: MatterNumber,
    }
}
