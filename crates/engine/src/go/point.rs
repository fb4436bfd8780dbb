//! Board sizes, points and moves, and their GTP spelling ("D4", "pass").
//!
//! Every board, whatever its size, lives in the bottom-left corner of one fixed grid with a one-cell border.
//! The fixed stride makes a [`Point`] mean the same intersection on every board and the four neighbour
//! offsets compile-time constants; the border means a neighbour never needs a bounds check: it is a wall.

use super::error::SetupError;
use std::fmt;

/// The largest board side: 19x19.
pub const MAX_BOARD_SIZE: u8 = 19;
/// The smallest board side: 2x2 (only tests use boards below 9x9).
pub const MIN_BOARD_SIZE: u8 = 2;

/// Cells per grid row: the largest board plus a wall on each side.
pub(crate) const STRIDE: usize = MAX_BOARD_SIZE as usize + 2;
/// Cells in the grid.
pub(crate) const CELLS: usize = STRIDE * STRIDE;
/// Intersections on the largest board.
pub(crate) const MAX_POINTS: usize = MAX_BOARD_SIZE as usize * MAX_BOARD_SIZE as usize;

/// GTP's column letters: A to T without I (which looks like J and 1).
const COLUMNS: &[u8; MAX_BOARD_SIZE as usize] = b"ABCDEFGHJKLMNOPQRST";

/// The side of a square board, from [`MIN_BOARD_SIZE`] to [`MAX_BOARD_SIZE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize(u8);

impl BoardSize {
    /// 9x9: the quick game, and the size playouts are benchmarked on.
    pub const NINE: BoardSize = BoardSize(9);
    /// 13x13.
    pub const THIRTEEN: BoardSize = BoardSize(13);
    /// 19x19: the full board.
    pub const NINETEEN: BoardSize = BoardSize(19);
    /// The three sizes the seed offers players.
    pub const PRESETS: [BoardSize; 3] = [BoardSize::NINE, BoardSize::THIRTEEN, BoardSize::NINETEEN];

    /// A board side, if it is between [`MIN_BOARD_SIZE`] and [`MAX_BOARD_SIZE`].
    pub fn new(size: u32) -> Result<BoardSize, SetupError> {
        if (MIN_BOARD_SIZE as u32..=MAX_BOARD_SIZE as u32).contains(&size) {
            Ok(BoardSize(size as u8))
        } else {
            Err(SetupError::Size { size })
        }
    }

    /// The number of intersections along one side.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The number of intersections on the board.
    pub fn area(self) -> u16 {
        self.0 as u16 * self.0 as u16
    }

    /// Whether `p` is an intersection of this board.
    pub fn contains(self, p: Point) -> bool {
        p.x() < self.0 && p.y() < self.0
    }

    /// Every intersection, row by row from A1 (bottom-left), left to right: the order of
    /// [`crate::go::Game::legal_moves`].
    pub fn points(self) -> impl Iterator<Item = Point> {
        let n = self.0;
        (0..n).flat_map(move |y| (0..n).map(move |x| Point::at(x, y)))
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.0)
    }
}

/// An intersection of a board of at most 19x19: x is the column from the left, y the row from the bottom,
/// both 0-based, so A1 is (0,0) as in GTP.
///
/// A `Point` only promises `x, y < 19`; whether it is on a given board is [`BoardSize::contains`].
/// It displays as its GTP vertex ("D4").
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The point at column `x`, row `y` (from the bottom), if both are below [`MAX_BOARD_SIZE`].
    pub fn new(x: u8, y: u8) -> Option<Point> {
        if x < MAX_BOARD_SIZE && y < MAX_BOARD_SIZE {
            Some(Point::at(x, y))
        } else {
            None
        }
    }

    /// The point at (x, y), both known to be below [`MAX_BOARD_SIZE`].
    fn at(x: u8, y: u8) -> Point {
        Point(((y as usize + 1) * STRIDE + x as usize + 1) as u16)
    }

    /// The column, 0-based from the left (A is 0, J is 8).
    pub fn x(self) -> u8 {
        (self.0 as usize % STRIDE - 1) as u8
    }

    /// The row, 0-based from the bottom (row 1 is 0).
    pub fn y(self) -> u8 {
        (self.0 as usize / STRIDE - 1) as u8
    }

    /// Parses a GTP vertex such as `D4` or `t19` (any case, surrounding spaces ignored) on a board of
    /// `size`. "pass" is a [`Move`], not a point: see [`Move::from_gtp`].
    pub fn from_gtp(text: &str, size: BoardSize) -> Result<Point, VertexError> {
        let t = text.trim();
        let mut chars = t.chars();
        let Some(letter) = chars.next() else {
            return Err(VertexError::Empty);
        };
        let letter = letter.to_ascii_uppercase();
        let Some(x) = COLUMNS.iter().position(|&c| c as char == letter) else {
            return Err(VertexError::Column {
                text: t.to_string(),
            });
        };
        let digits = chars.as_str();
        let row = if !digits.is_empty()
            && digits.len() <= 2
            && digits.bytes().all(|b| b.is_ascii_digit())
        {
            digits.parse::<u8>().ok()
        } else {
            None
        };
        let Some(row) = row.filter(|r| (1..=MAX_BOARD_SIZE).contains(r)) else {
            return Err(VertexError::Row {
                text: t.to_string(),
            });
        };
        let p = Point::at(x as u8, row - 1);
        if size.contains(p) {
            Ok(p)
        } else {
            Err(VertexError::OffBoard { point: p, size })
        }
    }

    /// The GTP vertex: the column letter (no I) and the row number from the bottom, e.g. `D4`.
    pub fn to_gtp(self) -> String {
        self.to_string()
    }

    /// The cell index in the padded grid.
    pub(crate) fn cell(self) -> usize {
        self.0 as usize
    }

    /// The point of a cell index that is known to be an intersection (not in the wall border).
    pub(crate) fn from_cell(cell: usize) -> Point {
        debug_assert!(cell < CELLS);
        Point(cell as u16)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = COLUMNS.get(self.x() as usize).copied().unwrap_or(b'?');
        write!(f, "{}{}", column as char, self.y() as u16 + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One player's turn: a stone on a point, a pass, or resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place a stone.
    Play(Point),
    /// Pass: always legal; two passes in a row end the game.
    Pass,
    /// Resign: the opponent wins.
    Resign,
}

impl Move {
    /// Parses a GTP move: a vertex (see [`Point::from_gtp`]), `pass` or `resign` (any case). GTP's `play`
    /// takes only vertices and `pass`; `resign` is what `genmove` may answer.
    pub fn from_gtp(text: &str, size: BoardSize) -> Result<Move, VertexError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else if t.eq_ignore_ascii_case("resign") {
            Ok(Move::Resign)
        } else {
            Point::from_gtp(t, size).map(Move::Play)
        }
    }

    /// The GTP spelling: a vertex, `pass` or `resign`.
    pub fn to_gtp(self) -> String {
        self.to_string()
    }

    /// The point of a stone move.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass | Move::Resign => None,
        }
    }
}

impl From<Point> for Move {
    fn from(p: Point) -> Move {
        Move::Play(p)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(p) => write!(f, "{p}"),
            Move::Pass => f.write_str("pass"),
            Move::Resign => f.write_str("resign"),
        }
    }
}

/// Why a text is not a GTP vertex of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Nothing but spaces.
    Empty,
    /// The first character is not a column letter A to T (I is skipped).
    Column { text: String },
    /// What follows the letter is not a row number from 1 to 19.
    Row { text: String },
    /// A vertex of a larger board.
    OffBoard { point: Point, size: BoardSize },
}

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VertexError::Empty => f.write_str("the vertex is empty: expected a letter and a number, such as D4"),
            VertexError::Column { text } => write!(
                f,
                "{text:?} is not a vertex: it must start with a column letter A to T (there is no I)"
            ),
            VertexError::Row { text } => write!(
                f,
                "{text:?} is not a vertex: the column letter must be followed by a row number from 1 to 19"
            ),
            VertexError::OffBoard { point, size } => write!(f, "{point} is off the {size} board"),
        }
    }
}

impl std::error::Error for VertexError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for y in 0..MAX_BOARD_SIZE {
            for x in 0..MAX_BOARD_SIZE {
                let p = Point::new(x, y).unwrap();
                assert_eq!((p.x(), p.y()), (x, y));
                assert_eq!(Point::from_gtp(&p.to_gtp(), BoardSize::NINETEEN), Ok(p));
                assert!(!p.to_gtp().contains('I'));
            }
        }
        assert!(Point::new(MAX_BOARD_SIZE, 0).is_none());
        assert!(Point::new(0, MAX_BOARD_SIZE).is_none());
    }

    #[test]
    fn every_neighbour_of_the_largest_board_is_in_the_grid() {
        let corner = Point::new(MAX_BOARD_SIZE - 1, MAX_BOARD_SIZE - 1).unwrap();
        assert!(corner.cell() + STRIDE + 1 < CELLS);
        assert!(Point::new(0, 0).unwrap().cell() > STRIDE);
    }

    #[test]
    fn gtp_vertices() {
        let nine = BoardSize::NINE;
        assert_eq!(Point::from_gtp("A1", nine), Ok(Point::new(0, 0).unwrap()));
        assert_eq!(Point::from_gtp(" j9 ", nine), Ok(Point::new(8, 8).unwrap()));
        assert_eq!(Point::from_gtp("H2", nine), Ok(Point::new(7, 1).unwrap()));
        assert_eq!(Point::new(8, 0).unwrap().to_gtp(), "J1");
        assert!(matches!(
            Point::from_gtp("I5", nine),
            Err(VertexError::Column { .. })
        ));
        assert!(matches!(
            Point::from_gtp("K10", nine),
            Err(VertexError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::from_gtp("A0", nine),
            Err(VertexError::Row { .. })
        ));
        assert!(matches!(
            Point::from_gtp("A20", BoardSize::NINETEEN),
            Err(VertexError::Row { .. })
        ));
        assert!(matches!(
            Point::from_gtp("A+1", nine),
            Err(VertexError::Row { .. })
        ));
        assert!(matches!(
            Point::from_gtp("A", nine),
            Err(VertexError::Row { .. })
        ));
        assert!(matches!(
            Point::from_gtp("pass", nine),
            Err(VertexError::Row { .. })
        ));
        assert_eq!(Point::from_gtp("", nine), Err(VertexError::Empty));
        assert!(matches!(
            Point::from_gtp("é1", nine),
            Err(VertexError::Column { .. })
        ));
        assert_eq!(Move::from_gtp("PASS", nine), Ok(Move::Pass));
        assert_eq!(Move::from_gtp("resign", nine), Ok(Move::Resign));
        assert_eq!(
            Move::from_gtp("T19", BoardSize::NINETEEN).unwrap().to_gtp(),
            "T19"
        );
        assert_eq!(Move::Pass.to_gtp(), "pass");
    }

    #[test]
    fn sizes() {
        assert_eq!(BoardSize::new(9), Ok(BoardSize::NINE));
        assert!(BoardSize::new(1).is_err());
        assert!(BoardSize::new(20).is_err());
        assert_eq!(BoardSize::NINE.points().count(), 81);
        assert_eq!(BoardSize::NINE.to_string(), "9x9");
        let first: Vec<String> = BoardSize::NINE
            .points()
            .take(2)
            .map(|p| p.to_gtp())
            .collect();
        assert_eq!(first, ["A1", "B1"]);
    }
}
