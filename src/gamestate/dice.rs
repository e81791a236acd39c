//! Dice anyone can re-derive. Pure.
//!
//! A roll's result is not chosen by the resolver nor by the roller: it is
//! drawn from a ChaCha8 stream whose 32-byte seed is the SHA-256 of public
//! inputs the forge assigns and the roller cannot choose — the game's
//! `seed` in state/game.toml, the matter number, the comment's id and its
//! creation time — and of the roll's place among the comment's rolls. The
//! dice log under content/rolls/ records those inputs with every result,
//! so `gitnomic roll verify` (or anyone with a SHA-256 and a ChaCha8) can
//! recompute each roll. See [`seed_of`] for the exact bytes hashed.
//!
//! Notation, case-insensitive: `DICE6` (BlogNomic's own), `D6`, `1d6`,
//! `2DICE6`, `2d6`, and any of them with a modifier, `2d6+1`, `DICE20-2`.
//! One to 100 dice of zero to a billion sides; a die of no sides rolls 0
//! (the rules: "a roll of DiceX when X is zero or lower always yields 0").

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};

use crate::time::Timestamp;

/// The most dice one roll may throw.
pub const MAX_DICE: u32 = 100;
/// The most sides a die may have.
pub const MAX_SIDES: u32 = 1_000_000_000;
/// The largest modifier (either way).
pub const MAX_MODIFIER: i64 = 1_000_000;

/// Dice as written: `count` dice of `sides` sides, plus `modifier`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dice {
    /// How many dice.
    pub count: u32,
    /// Sides of each.
    pub sides: u32,
    /// Added to the sum.
    pub modifier: i64,
}

/// Why some text is not dice.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// Not dice notation at all.
    #[error("`{0}` is not dice: write DICE6, D6, 2d6 or 2DICE6+1")]
    Notation(String),
    /// Too many dice, or none.
    #[error("`{0}`: a roll throws 1 to {MAX_DICE} dice")]
    Count(String),
    /// Too many sides.
    #[error("`{0}`: a die has at most {MAX_SIDES} sides")]
    Sides(String),
    /// Too large a modifier.
    #[error("`{0}`: the modifier is at most {MAX_MODIFIER} either way")]
    Modifier(String),
}

impl fmt::Display for Dice {
    /// The canonical BlogNomic spelling: `DICE6`, `2DICE6+1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}", self.count)?;
        }
        write!(f, "DICE{}", self.sides)?;
        match self.modifier {
            0 => Ok(()),
            m if m > 0 => write!(f, "+{m}"),
            m => write!(f, "{m}"),
        }
    }
}

impl FromStr for Dice {
    type Err = DiceError;

    fn from_str(text: &str) -> Result<Dice, DiceError> {
        let bad = || DiceError::Notation(text.to_string());
        let upper = text.to_ascii_uppercase();
        let (count, rest) = upper.split_once('D').ok_or_else(bad)?;
        let rest = rest.strip_prefix("ICE").unwrap_or(rest);
        let split = rest.find(['+', '-']).unwrap_or(rest.len());
        let (sides, modifier) = rest.split_at(split);
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !(count.is_empty() || digits(count)) || !digits(sides) {
            return Err(bad());
        }
        let modifier = match modifier {
            "" => 0,
            m if digits(&m[1..]) => {
                let n: i64 = m[1..]
                    .parse()
                    .map_err(|_| DiceError::Modifier(text.into()))?;
                if m.starts_with('-') { -n } else { n }
            }
            _ => return Err(bad()),
        };
        let count: u32 = match count {
            "" => 1,
            c => c.parse().map_err(|_| DiceError::Count(text.into()))?,
        };
        let sides: u32 = sides.parse().map_err(|_| DiceError::Sides(text.into()))?;
        if count == 0 || count > MAX_DICE {
            return Err(DiceError::Count(text.into()));
        }
        if sides > MAX_SIDES {
            return Err(DiceError::Sides(text.into()));
        }
        if modifier.abs() > MAX_MODIFIER {
            return Err(DiceError::Modifier(text.into()));
        }
        Ok(Dice {
            count,
            sides,
            modifier,
        })
    }
}

/// The public inputs of one roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inputs<'a> {
    /// The game's seed (state/game.toml, `[game] seed`).
    pub seed: &'a str,
    /// The matter the comment is on.
    pub matter: u64,
    /// The comment's id on the forge.
    pub comment: u64,
    /// When the forge says the comment was made.
    pub created: Timestamp,
    /// The roll's place among the comment's rolls, from 0.
    pub index: u32,
    /// When the resolver first saw the comment, for rolls drawn the second
    /// way (see [`seed_of`]); `None` for the first way, with public inputs
    /// alone, which logs begun before the second keep.
    pub seen: Option<Timestamp>,
}

/// The dice thrown and their total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thrown {
    /// Each die's face, in order.
    pub faces: Vec<u32>,
    /// Their sum plus the modifier.
    pub total: i64,
}

/// The 32-byte seed of a roll: the SHA-256 of these lines, each ended by
/// a newline, in UTF-8:
///
/// ```text
/// gitnomic dice 2
/// seed=<the game's seed>
/// matter=<number>
/// comment=<id>
/// created=<RFC 3339 time, UTC, seconds, `Z`>
/// seen=<RFC 3339 time, UTC, seconds, `Z`>
/// roll=<index>
/// ```
///
/// `seen` is the moment the resolver first saw the comment: the run's
/// own, after the comment was made (a run reads no comment made after its
/// moment). Every other input is public once the comment is posted, so
/// without it a roller could work a roll out and delete the comment
/// before any run saw it; with it, nobody knows a roll before a run logs
/// it. Rolls drawn the first way (`gitnomic dice 1`, without the `seen`
/// line) are what logs begun before this way keep.
pub fn seed_of(inputs: &Inputs<'_>) -> [u8; 32] {
    let text = match inputs.seen {
        Some(seen) => format!(
            "gitnomic dice 2\nseed={}\nmatter={}\ncomment={}\ncreated={}\nseen={seen}\nroll={}\n",
            inputs.seed, inputs.matter, inputs.comment, inputs.created, inputs.index
        ),
        None => format!(
            "gitnomic dice 1\nseed={}\nmatter={}\ncomment={}\ncreated={}\nroll={}\n",
            inputs.seed, inputs.matter, inputs.comment, inputs.created, inputs.index
        ),
    };
    Sha256::digest(text.as_bytes()).into()
}

/// Throws `dice` for a roll with these inputs. Each die is drawn from the
/// ChaCha8 stream seeded by [`seed_of`] (rand_chacha's `ChaCha8Rng`, words
/// read as little-endian `u64`s) by rejection: a draw `x` is kept when
/// `x < 2^64 - (2^64 mod sides)`, and the face is `x mod sides + 1`, so
/// every face is exactly as likely and the stream alone fixes the result.
pub fn throw(dice: Dice, inputs: &Inputs<'_>) -> Thrown {
    let mut rng = ChaCha8Rng::from_seed(seed_of(inputs));
    let faces: Vec<u32> = (0..dice.count)
        .map(|_| face(&mut rng, dice.sides))
        .collect();
    let total = faces.iter().map(|f| i64::from(*f)).sum::<i64>() + dice.modifier;
    Thrown { faces, total }
}

/// One die of `sides` sides; 0 for a die of none.
fn face(rng: &mut ChaCha8Rng, sides: u32) -> u32 {
    if sides == 0 {
        return 0;
    }
    let n = u64::from(sides);
    let rejected = (u64::MAX % n + 1) % n;
    loop {
        let x = rng.next_u64();
        if rejected == 0 || x < 0u64.wrapping_sub(rejected) {
            // x % n < sides, which fits in a u32.
            return u32::try_from(x % n).unwrap_or(0) + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(text: &str) -> Dice {
        text.parse().unwrap()
    }

    fn inputs(comment: u64) -> Inputs<'static> {
        Inputs {
            seed: "test-seed",
            matter: 7,
            comment,
            created: Timestamp::parse("2030-01-01T12:00:00Z").unwrap(),
            index: 0,
            seen: None,
        }
    }

    #[test]
    fn every_spelling_reads_the_same() {
        let six = Dice {
            count: 1,
            sides: 6,
            modifier: 0,
        };
        for text in ["DICE6", "dice6", "D6", "d6", "1d6", "1DICE6"] {
            assert_eq!(dice(text), six, "{text}");
        }
        assert_eq!(
            dice("2d6+1"),
            Dice {
                count: 2,
                sides: 6,
                modifier: 1
            }
        );
        assert_eq!(dice("2DICE6+1").to_string(), "2DICE6+1");
        assert_eq!(dice("d20-2").to_string(), "DICE20-2");
        assert_eq!(dice("DICE0").sides, 0);
    }

    #[test]
    fn bad_dice_say_why() {
        let err = |t: &str| t.parse::<Dice>().unwrap_err().to_string();
        assert_eq!(
            err("DICE"),
            "`DICE` is not dice: write DICE6, D6, 2d6 or 2DICE6+1"
        );
        assert!(err("6").contains("is not dice"));
        assert!(err("xd6").contains("is not dice"));
        assert!(err("d6+").contains("is not dice"));
        assert!(err("d6*2").contains("is not dice"));
        assert_eq!(err("0d6"), "`0d6`: a roll throws 1 to 100 dice");
        assert_eq!(err("101d6"), "`101d6`: a roll throws 1 to 100 dice");
        assert!(err("d99999999999").contains("at most 1000000000 sides"));
        assert!(err("d6+9999999").contains("modifier"));
    }

    #[test]
    fn a_roll_is_fixed_by_its_inputs_alone() {
        let d = dice("3d6+2");
        let a = throw(d, &inputs(1));
        assert_eq!(a, throw(d, &inputs(1)), "the same inputs, the same dice");
        assert_eq!(a.faces.len(), 3);
        assert_eq!(
            a.total,
            a.faces.iter().map(|f| i64::from(*f)).sum::<i64>() + 2
        );
        assert!(a.faces.iter().all(|f| (1..=6).contains(f)));
        let differs = |change: &dyn Fn(&mut Inputs<'static>)| {
            let mut i = inputs(1);
            change(&mut i);
            seed_of(&i) != seed_of(&inputs(1))
        };
        assert!(differs(&|i| i.seed = "other"));
        assert!(differs(&|i| i.matter = 8));
        assert!(differs(&|i| i.comment = 2));
        assert!(differs(&|i| i.created = Timestamp::from_unix(0)));
        assert!(differs(&|i| i.index = 1));
        assert_eq!(throw(dice("2DICE0"), &inputs(1)).total, 0);
    }

    /// Chi-square of `draws` faces of a die of `sides` sides against the
    /// uniform distribution. The seeds are fixed, so this is a fixed number.
    fn chi_square(sides: u32, draws: u64) -> f64 {
        let mut counts = vec![0u64; sides as usize];
        for comment in 0..draws {
            let face = throw(dice(&format!("d{sides}")), &inputs(comment)).faces[0];
            counts[face as usize - 1] += 1;
        }
        let expected = draws as f64 / f64::from(sides);
        counts
            .iter()
            .map(|c| (*c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    #[allow(clippy::cast_precision_loss)]
    fn dice_are_uniform_over_60000_draws() {
        // Critical values at p = 0.001: 20.52 for 5 degrees of freedom,
        // 43.82 for 19. A fair die exceeds them one time in a thousand;
        // with fixed seeds this result never changes.
        let six = chi_square(6, 60_000);
        assert!(six < 20.52, "DICE6 chi-square {six}");
        let twenty = chi_square(20, 60_000);
        assert!(twenty < 43.82, "DICE20 chi-square {twenty}");
        // And not suspiciously perfect: the faces do vary.
        assert!(six > 0.0 && twenty > 0.0);
    }

    #[test]
    fn a_huge_die_still_lands_in_range() {
        let d = dice("5d1000000000");
        let t = throw(d, &inputs(3));
        assert!(t.faces.iter().all(|f| (1..=MAX_SIDES).contains(f)));
    }
}
