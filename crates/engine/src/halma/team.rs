//! The two teams, and a pair of values indexed by team.

use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

/// One of the two teams. Red is the seed's team 0, blue its team 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Team {
    Red,
    Blue,
}

impl Team {
    /// Both teams, red first.
    pub const ALL: [Team; 2] = [Team::Red, Team::Blue];

    /// The opponent.
    pub fn other(self) -> Team {
        match self {
            Team::Red => Team::Blue,
            Team::Blue => Team::Red,
        }
    }

    /// The lower-case name used in JSON and messages.
    pub fn name(self) -> &'static str {
        match self {
            Team::Red => "red",
            Team::Blue => "blue",
        }
    }

    /// The team's bit in a cell's occupancy byte.
    pub(crate) fn bit(self) -> u8 {
        match self {
            Team::Red => 1,
            Team::Blue => 2,
        }
    }
}

impl std::fmt::Display for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Team {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "red" => Ok(Team::Red),
            "blue" => Ok(Team::Blue),
            _ => Err(format!("unknown team {s:?}: expected \"red\" or \"blue\"")),
        }
    }
}

/// One value per team, written in JSON as `{"red": .., "blue": ..}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Teams<T> {
    pub red: T,
    pub blue: T,
}

impl<T> Teams<T> {
    /// A pair built by calling `f` for red, then blue.
    pub fn from_fn(mut f: impl FnMut(Team) -> T) -> Self {
        Teams {
            red: f(Team::Red),
            blue: f(Team::Blue),
        }
    }

    /// The pair with `f` applied to each value.
    pub fn map<U>(&self, mut f: impl FnMut(Team, &T) -> U) -> Teams<U> {
        Teams {
            red: f(Team::Red, &self.red),
            blue: f(Team::Blue, &self.blue),
        }
    }
}

impl<T> Index<Team> for Teams<T> {
    type Output = T;
    fn index(&self, team: Team) -> &T {
        match team {
            Team::Red => &self.red,
            Team::Blue => &self.blue,
        }
    }
}

impl<T> IndexMut<Team> for Teams<T> {
    fn index_mut(&mut self, team: Team) -> &mut T {
        match team {
            Team::Red => &mut self.red,
            Team::Blue => &mut self.blue,
        }
    }
}
