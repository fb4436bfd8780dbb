//! Squares on a padded grid.
//!
//! Every board, whatever its size, lives in the top-left corner of one fixed grid with a border of two
//! wall cells. The fixed stride makes the eight direction offsets compile-time constants, and the border
//! means "one or two squares further" never needs a bounds check: it lands on a wall.

use std::fmt;

/// The largest board side the engine supports.
pub const MAX_BOARD_SIZE: u8 = 32;
/// The smallest board side the engine supports.
pub const MIN_BOARD_SIZE: u8 = 4;

pub(crate) const PAD: usize = 2;
pub(crate) const STRIDE: usize = MAX_BOARD_SIZE as usize + 2 * PAD;
pub(crate) const CELLS: usize = STRIDE * STRIDE;

/// The eight neighbour offsets in cell units.
pub(crate) const DIRECTIONS: [isize; 8] = [
    -(STRIDE as isize) - 1,
    -(STRIDE as isize),
    -(STRIDE as isize) + 1,
    -1,
    1,
    STRIDE as isize - 1,
    STRIDE as isize,
    STRIDE as isize + 1,
];

/// A square of a board of at most [`MAX_BOARD_SIZE`] a side: x is the column, y the row, (0,0) top-left.
///
/// A `Square` only promises `x, y < MAX_BOARD_SIZE`; whether it is on a given board is that board's
/// question ([`crate::halma::Position::contains`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square at column `x`, row `y`, if both are below [`MAX_BOARD_SIZE`].
    pub fn new(x: u8, y: u8) -> Option<Square> {
        if x < MAX_BOARD_SIZE && y < MAX_BOARD_SIZE {
            Some(Square(
                ((y as usize + PAD) * STRIDE + x as usize + PAD) as u16,
            ))
        } else {
            None
        }
    }

    /// The column, 0-based from the left.
    pub fn x(self) -> u8 {
        (self.0 as usize % STRIDE - PAD) as u8
    }

    /// The row, 0-based from the top.
    pub fn y(self) -> u8 {
        (self.0 as usize / STRIDE - PAD) as u8
    }

    /// The larger of the column and row distances: 1 for a neighbour, 2 for a jump's landing square.
    pub fn chebyshev(self, other: Square) -> u8 {
        self.x()
            .abs_diff(other.x())
            .max(self.y().abs_diff(other.y()))
    }

    pub(crate) fn cell(self) -> usize {
        self.0 as usize
    }

    /// The square of a cell index that is known to be on the grid (not in the wall border).
    pub(crate) fn from_cell(cell: usize) -> Square {
        debug_assert!(cell < CELLS);
        Square(cell as u16)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x(), self.y())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Square", 2)?;
        st.serialize_field("x", &self.x())?;
        st.serialize_field("y", &self.y())?;
        st.end()
    }
}

impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(serde::Deserialize)]
        struct Xy {
            x: u8,
            y: u8,
        }
        let Xy { x, y } = Xy::deserialize(d)?;
        Square::new(x, y).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "square ({x},{y}) is beyond the largest supported board"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for y in 0..MAX_BOARD_SIZE {
            for x in 0..MAX_BOARD_SIZE {
                let s = Square::new(x, y).unwrap();
                assert_eq!((s.x(), s.y()), (x, y));
            }
        }
        assert!(Square::new(MAX_BOARD_SIZE, 0).is_none());
        assert!(Square::new(0, MAX_BOARD_SIZE).is_none());
    }

    #[test]
    fn two_steps_in_any_direction_stay_on_the_grid() {
        let corners = [(0, 0), (MAX_BOARD_SIZE - 1, MAX_BOARD_SIZE - 1)];
        for (x, y) in corners {
            let c = Square::new(x, y).unwrap().cell() as isize;
            for d in DIRECTIONS {
                assert!((0..CELLS as isize).contains(&(c + 2 * d)));
            }
        }
    }
}
