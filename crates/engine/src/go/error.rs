//! Why a move, an undo or a board set-up is refused.

use super::{BoardSize, Color, GameResult, Point, VertexError};
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

/// Why a board cannot be set up as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The side is not from 2 to 19.
    Size { size: u32 },
    /// A diagram row (counted from the top, from 1) does not have one point per column.
    RowLength {
        row: usize,
        len: usize,
        size: BoardSize,
    },
    /// A diagram character that is neither a stone nor an empty point.
    Character { row: usize, ch: char },
    /// A stone off the board.
    OffBoard { point: Point, size: BoardSize },
    /// Two stones on one point.
    Twice { point: Point },
    /// A chain without liberties: it would have been captured.
    NoLiberties { point: Point },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size { size } => {
                write!(f, "board size {size} is not supported: boards are 2x2 to 19x19")
            }
            SetupError::RowLength { row, len, size } => write!(
                f,
                "diagram row {row} from the top has {len} points: a {size} board needs {} per row",
                size.get()
            ),
            SetupError::Character { row, ch } => write!(
                f,
                "diagram row {row} from the top has {ch:?}: expected X or B (black), O or W (white), . or + (empty)"
            ),
            SetupError::OffBoard { point, size } => write!(f, "stone at {point} is off the {size} board"),
            SetupError::Twice { point } => write!(f, "two stones on {point}"),
            SetupError::NoLiberties { point } => {
                write!(f, "the chain at {point} has no liberty: it would have been captured")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a list of moves in GTP spelling cannot be replayed ([`crate::go::Game::replay`]): which move,
/// counted from 1 as the online protocol's `move_number` counts, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The text is not a move on this board.
    Unreadable {
        number: usize,
        text: String,
        error: VertexError,
    },
    /// The rules refuse the move in that position.
    Refused {
        number: usize,
        text: String,
        error: MoveError,
    },
}

impl ReplayError {
    /// The refused move's number, from 1.
    pub fn number(&self) -> usize {
        match self {
            ReplayError::Unreadable { number, .. } | ReplayError::Refused { number, .. } => *number,
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (number, text, error): (_, _, &dyn fmt::Display) = match self {
            ReplayError::Unreadable {
                number,
                text,
                error,
            } => (number, text, error),
            ReplayError::Refused {
                number,
                text,
                error,
            } => (number, text, error),
        };
        write!(f, "move {number} ({text}): {error}")
    }
}

impl std::error::Error for ReplayError {}
