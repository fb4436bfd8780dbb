//! How a game of HyperChess ended: what a finished [`Game`](super::Game) reports and what a move refused
//! for it ([`MoveError::GameOver`](super::MoveError)) carries. A module of its own so that the game and its
//! errors both use it, and neither uses the other for it.

use super::piece::Side;
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The winner took a King.
    KingTaken { winner: Side },
    /// The player to move has no legal move (decision: a draw, as stalemate is in chess).
    NoMoves { side: Side },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::KingTaken { winner } => write!(f, "{winner} took a King and wins"),
            Outcome::NoMoves { side } => write!(f, "{side} has no legal move: a draw"),
        }
    }
}
