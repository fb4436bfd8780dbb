//! Why a game cannot start on a board, and why a move is refused: each says what the player should know to
//! choose again.

use super::coord::Coord;
use super::outcome::Outcome;
use super::piece::{Piece, Side};
use std::fmt;

/// Why a board cannot start a new game. A game is won only by taking a King (the seed's game runs "as
/// long as both players still have a King"), so a side without one could never lose and the other never
/// win. A viewer needs no game and reads any board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// This side has no King on the board (White is named first when both have none).
    NoKing(Side),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NoKing(side) => write!(
                f,
                "{side} has no King, and a game is won by taking the King"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// No node exists at that location.
    NoNode(Coord),
    /// The node is empty.
    Empty(Coord),
    /// The piece there belongs to the other player.
    NotYours { at: Coord, piece: Piece },
    /// The piece cannot reach that location (blocked, not its pattern, or an own piece there).
    Illegal {
        from: Coord,
        to: Coord,
        piece: Piece,
    },
    /// The game is over: the name Go's and Halma's refusals use too.
    GameOver(Outcome),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoNode(c) => write!(f, "there is no node at ({c})"),
            MoveError::Empty(c) => write!(f, "there is no piece at ({c})"),
            MoveError::NotYours { at, piece } => {
                write!(f, "the {piece} at ({at}) belongs to {}", piece.side)
            }
            MoveError::Illegal { from, to, piece } => {
                write!(f, "the {piece} at ({from}) cannot move to ({to})")
            }
            MoveError::GameOver(o) => write!(f, "the game is over: {o}"),
        }
    }
}

impl std::error::Error for MoveError {}
