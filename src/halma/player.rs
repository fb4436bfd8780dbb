//! Who plays a team: a person at this screen or an AI compiled into the page.

use gridarena_engine::halma::ai::BuiltIn;
use std::fmt;
use std::str::FromStr;

/// A team's player. Its text form (`human`, `builtin:greedy`) is what game records and the page URL hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the board; the tick waits for them.
    Human,
    /// An AI from the engine, answering instantly inside the page.
    BuiltIn(BuiltIn),
}

impl Player {
    /// Every choice offered in the player menu, in menu order.
    pub fn all() -> Vec<Player> {
        BuiltIn::ALL
            .into_iter()
            .map(Player::BuiltIn)
            .chain([Player::Human])
            .collect()
    }

    /// What the player menu shows.
    pub fn describe(&self) -> String {
        match self {
            Player::Human => "Human (click the board)".to_string(),
            Player::BuiltIn(ai) => format!("Built-in AI: {}", ai.name()),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::BuiltIn(ai) => write!(f, "builtin:{}", ai.name()),
        }
    }
}

impl FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Player, String> {
        match s {
            "human" => Ok(Player::Human),
            _ => s
                .strip_prefix("builtin:")
                .ok_or_else(|| format!("unknown player {s:?}: expected human or builtin:NAME"))?
                .parse::<BuiltIn>()
                .map(Player::BuiltIn)
                .map_err(|e| e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips() {
        for p in Player::all() {
            assert_eq!(p.to_string().parse::<Player>(), Ok(p));
        }
        assert!("builtin:nobody".parse::<Player>().is_err());
        assert!("robot".parse::<Player>().is_err());
    }
}
