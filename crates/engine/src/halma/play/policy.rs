//! What a side's errors (no move, an unreadable answer, an illegal move) cost it in a [`super::Match`].
//!
//! The arena page plays leniently, a tournament and `gridarena halma match` by the count its settings
//! choose; the rule is one type so that a game is judged alike wherever it is played.

use std::fmt;
use std::str::FromStr;

/// Error ticks in a row that forfeit a game under the default policy: a dead, crashing or closed-port
/// entry loses in ten ticks instead of dragging each game to the turn limit, while an AI that fails now
/// and then (a slow answer, one illegal move) is never near it.
pub const DEFAULT_CONSECUTIVE_ERRORS: u32 = 10;

/// What an entry's errors (no move, an unreadable answer, an illegal move) cost it. Under every policy a
/// game that reaches the turn limit goes against the side with more error ticks
/// ([`super::Ending::Stalled`]), so errors never turn a loss into a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The arena's rule: a bad answer is no move that tick, and the game goes on.
    Lenient,
    /// The `errors`-th error in one game forfeits that game.
    Strict { errors: u32 },
    /// `errors` error ticks in a row forfeit the game; a tick without an error starts the count again.
    Consecutive { errors: u32 },
}

impl Default for Policy {
    fn default() -> Policy {
        Policy::Consecutive {
            errors: DEFAULT_CONSECUTIVE_ERRORS,
        }
    }
}

impl Policy {
    /// Whether a program whose clock ran out forfeits at once (the course's rule) rather than playing
    /// on with no move.
    pub fn out_of_time_loses(self) -> bool {
        !matches!(self, Policy::Lenient)
    }
}

impl fmt::Display for Policy {
    /// `lenient`, `strict:N` or `consecutive:N`, the CLI's spelling, which parses back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Policy::Lenient => f.write_str("lenient"),
            Policy::Strict { errors } => write!(f, "strict:{errors}"),
            Policy::Consecutive { errors } => write!(f, "consecutive:{errors}"),
        }
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        let text = s.trim();
        let count = |prefix: &str| match text.strip_prefix(prefix).map(str::parse::<u32>) {
            Some(Ok(errors)) if errors >= 1 => Some(errors),
            _ => None,
        };
        if text == "lenient" {
            Ok(Policy::Lenient)
        } else if let Some(errors) = count("strict:") {
            Ok(Policy::Strict { errors })
        } else if let Some(errors) = count("consecutive:") {
            Ok(Policy::Consecutive { errors })
        } else {
            Err(format!(
                "\"{text}\" is not an error policy; use consecutive:N (N errors in a row forfeit a game), \
                 strict:N (N errors in one game forfeit it) or lenient (errors only cost their tick), N from 1."
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policies_parse_as_they_print() {
        for policy in [
            Policy::Lenient,
            Policy::Strict { errors: 3 },
            Policy::Consecutive { errors: 10 },
        ] {
            assert_eq!(policy.to_string().parse::<Policy>(), Ok(policy));
        }
        assert_eq!(Policy::default().to_string(), "consecutive:10");
        assert_eq!(
            " consecutive:4 ".parse::<Policy>(),
            Ok(Policy::Consecutive { errors: 4 })
        );
        for bad in [
            "strict",
            "strict:0",
            "strict:x",
            "harsh",
            "consecutive",
            "consecutive:0",
            "consecutive:-1",
        ] {
            assert!(bad.parse::<Policy>().is_err(), "{bad}");
        }
    }
}
