//! Why a move or an undo is refused.

use super::{BoardSize, Color, GameResult, Point};
use std::fmt;

/// Why a move is not legal. Each names the point involved, so a message can say where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The point is not on this board.
    OffBoard { point: Point, size: BoardSize },
    /// A stone is already there.
    Occupied { point: Point, by: Color },
    /// The stone (and the chain it joins) would have no liberty and captures nothing.
    Suicide { point: Point },
    /// Retaking a ko at once: it would repeat the position before the opponent's capture.
    Ko { point: Point },
    /// The move would recreate an earlier whole-board position (positional superko), in a longer cycle
    /// than a simple ko.
    Superko { point: Point },
    /// The game has ended.
    GameOver { result: GameResult },
}

impl MoveError {
    /// A stable identifier for programs (the message is for people).
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::OffBoard { .. } => "off_board",
            MoveError::Occupied { .. } => "occupied",
            MoveError::Suicide { .. } => "suicide",
            MoveError::Ko { .. } => "ko",
            MoveError::Superko { .. } => "superko",
            MoveError::GameOver { .. } => "game_over",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard { point, size } => write!(f, "{point} is off the {size} board"),
            MoveError::Occupied { point, by } => write!(f, "{point} is occupied by a {by} stone"),
            MoveError::Suicide { point } => write!(
                f,
                "{point} is suicide: the stone would have no liberty and would capture nothing"
            ),
            MoveError::Ko { point } => write!(
                f,
                "{point} retakes the ko at once, which would repeat the position: play elsewhere first"
            ),
            MoveError::Superko { point } => write!(
                f,
                "{point} would recreate an earlier whole-board position (positional superko)"
            ),
            MoveError::GameOver { result } => write!(f, "the game is over ({result})"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Why [`crate::go::Game::undo`] cannot take a move back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoError {
    /// No move has been played.
    NothingToUndo,
    /// The game was lost on time: the clock's verdict is final.
    TimedOut,
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UndoError::NothingToUndo => f.write_str("there is no move to undo"),
            UndoError::TimedOut => f.write_str("the game was lost on time, which cannot be undone"),
        }
    }
}

impl std::error::Error for UndoError {}
