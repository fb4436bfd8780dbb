//! A square and a piece as the JSON formats write them: the AI's request and answer, and the game state.
//! The protocol and the state format both carry them, so they are a module of their own that both use.

use super::{Piece, SetupError, Square, Team};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A square as the JSON formats write it: unchecked integers, so that an off-board square is a move error
/// that names it rather than a parse failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Point {
    pub x: i64,
    pub y: i64,
}

impl Point {
    /// The square, if the point is on a board of `size` a side.
    pub fn square_on(self, size: u8) -> Option<Square> {
        let on = |v: i64| u8::try_from(v).ok().filter(|&v| v < size);
        Square::new(on(self.x)?, on(self.y)?)
    }
}

impl From<Square> for Point {
    fn from(s: Square) -> Point {
        Point {
            x: s.x().into(),
            y: s.y().into(),
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A piece in the request and in the game state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceJson {
    pub x: i64,
    pub y: i64,
    #[serde(default)]
    pub damage: i64,
}

impl From<Piece> for PieceJson {
    fn from(p: Piece) -> PieceJson {
        PieceJson {
            x: p.square.x().into(),
            y: p.square.y().into(),
            damage: p.damage.into(),
        }
    }
}

impl PieceJson {
    /// The piece, checked against a board of `size` a side.
    pub(crate) fn to_piece(self, team: Team, size: u8) -> Result<Piece, SetupError> {
        let square = square_on(
            format!("{team} piece"),
            Point {
                x: self.x,
                y: self.y,
            },
            size,
        )?;
        let damage = u8::try_from(self.damage)
            .ok()
            .filter(|&d| d <= super::COLLISION_DAMAGE)
            .ok_or(SetupError::Damage {
                team,
                square,
                damage: self.damage,
            })?;
        Ok(Piece { square, damage })
    }
}

/// `point` as a square of a board of `size`, or an error naming `what` it is.
pub(crate) fn square_on(what: String, point: Point, size: u8) -> Result<Square, SetupError> {
    point.square_on(size).ok_or(SetupError::OffBoard {
        what,
        x: point.x,
        y: point.y,
        size,
    })
}
