//! How a game ended, the board's result or a side's errors: what a match reports and a tournament
//! scores.

use crate::halma::{GameResult, Team};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended: by the board, or by what a side's errors cost it under the [`super::Policy`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Ending {
    /// The game's own end: HALMATE, both finished together, or the turn limit.
    Played { result: GameResult },
    /// `team` reached the policy's error count (in the game, or in a row) and lost; `cause` says which
    /// count and its last error.
    Forfeit { team: Team, cause: String },
    /// Both sides reached the error count in the same tick: a draw, neither earned the win.
    DoubleForfeit { cause: String },
    /// Never played: `team`'s entry had withdrawn (`cause` says why) before the game began.
    Withdrawn { team: Team, cause: String },
    /// The game reached the turn limit and `team` had more error ticks than the other side, so it lost:
    /// in the arena each of its error ticks froze the other side's move too, and a draw would reward
    /// failing to answer.
    Stalled { team: Team, cause: String },
}

impl Ending {
    /// The side that won, if one did: the board's winner, or the other side of one that forfeited,
    /// withdrew or stalled the game.
    pub fn winner(&self) -> Option<Team> {
        match self {
            Ending::Played { result } => result.winner(),
            Ending::Forfeit { team, .. }
            | Ending::Withdrawn { team, .. }
            | Ending::Stalled { team, .. } => Some(team.other()),
            Ending::DoubleForfeit { .. } => None,
        }
    }

    /// Whether the board decided it (a game a rating learns from): a withdrawal's unplayed game does not.
    pub fn was_played(&self) -> bool {
        !matches!(self, Ending::Withdrawn { .. })
    }
}

impl fmt::Display for Ending {
    /// "red wins (HALMATE)", "blue wins: red forfeited (3 errors; last: ...)", ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Played { result } => match result {
                GameResult::Win { winner } => write!(f, "{winner} wins (HALMATE)"),
                GameResult::BothFinished => f.write_str("draw (both finished on the same tick)"),
                GameResult::TurnLimit => f.write_str("draw (turn limit)"),
            },
            Ending::Forfeit { team, cause } => {
                write!(f, "{} wins: {team} forfeited ({cause})", team.other())
            }
            Ending::DoubleForfeit { cause } => write!(f, "draw: both forfeited ({cause})"),
            Ending::Withdrawn { team, cause } => {
                write!(f, "{} wins: {team} had withdrawn ({cause})", team.other())
            }
            Ending::Stalled { team, cause } => {
                write!(
                    f,
                    "{} wins at the turn limit: {team} lost ({cause})",
                    team.other()
                )
            }
        }
    }
}
