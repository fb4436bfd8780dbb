//! The board as the page draws it: every location with its piece and marks, and the box they fill. Plain
//! data, so what a cell looks like (its classes and its spoken name) is tested natively.

use gridarena_engine::hyperchess::{Coord, Piece, Side, StateLine};

/// A location as the board draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub at: Coord,
    pub piece: Option<Piece>,
    pub selected: bool,
    pub target: bool,
    /// Part of the last move (its start or its end).
    pub last: bool,
}

impl Cell {
    /// The classes style/main.css draws a cell with: the checkerboard, the marks, the piece's side.
    pub fn class(&self) -> String {
        let at = self.at;
        let mut class = String::from("hc-cell");
        if (at.x + at.y + at.z).rem_euclid(2) == 1 {
            class.push_str(" dark");
        }
        for (on, name) in [
            (self.selected, " selected"),
            (self.target, " target"),
            (self.last, " last"),
        ] {
            if on {
                class.push_str(name);
            }
        }
        match self.piece.map(|p| p.side) {
            Some(Side::White) => class.push_str(" white"),
            Some(Side::Black) => class.push_str(" black"),
            None => {}
        }
        class
    }

    /// What a screen reader says for the cell.
    pub fn label(&self) -> String {
        match self.piece {
            Some(p) => format!("{}: {p}", self.at),
            None => format!("{}: empty", self.at),
        }
    }
}

/// The board as drawn: every location, and the box they fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub lo: Coord,
    pub hi: Coord,
    pub cells: Vec<Cell>,
}

impl View {
    pub(super) fn new(cells: Vec<Cell>) -> View {
        let mut lo = cells.first().map_or(Coord::ORIGIN, |c| c.at);
        let mut hi = lo;
        for c in &cells {
            lo = Coord::new(lo.x.min(c.at.x), lo.y.min(c.at.y), lo.z.min(c.at.z));
            hi = Coord::new(hi.x.max(c.at.x), hi.y.max(c.at.y), hi.z.max(c.at.z));
        }
        View { lo, hi, cells }
    }

    /// Every location a currentstate lists, nothing selected, the last move's two locations marked: a
    /// viewed file, the live view, and a board as it stands.
    pub fn of_lines(lines: &[StateLine], last: Option<(Coord, Coord)>) -> View {
        View::new(
            lines
                .iter()
                .map(|l| Cell {
                    at: l.at,
                    piece: l.piece,
                    selected: false,
                    target: false,
                    last: last.is_some_and(|(a, b)| l.at == a || l.at == b),
                })
                .collect(),
        )
    }

    /// The cell at a location; `None` for a hole.
    pub fn cell(&self, at: Coord) -> Option<&Cell> {
        self.cells.iter().find(|c| c.at == at)
    }
}

/// The pieces of `side` among those `taken`, as chess symbols, or "none".
pub fn lost_text(taken: impl IntoIterator<Item = Piece>, side: Side) -> String {
    let lost: String = taken
        .into_iter()
        .filter(|p| p.side == side)
        .map(Piece::symbol)
        .collect();
    if lost.is_empty() {
        "none".to_string()
    } else {
        lost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::hyperchess::Kind;

    #[test]
    fn a_cell_is_classed_by_its_square_its_marks_and_its_piece() {
        let mut cell = Cell {
            at: Coord::new(1, 0, 0),
            piece: None,
            selected: false,
            target: false,
            last: false,
        };
        assert_eq!(cell.class(), "hc-cell dark");
        assert_eq!(cell.label(), "1 0 0: empty");
        cell.at = Coord::new(-1, 0, 1);
        cell.piece = Some(Piece::new(Side::Black, Kind::Knight));
        cell.target = true;
        cell.last = true;
        assert_eq!(cell.class(), "hc-cell target last black");
        assert_eq!(cell.label(), "-1 0 1: BKnight");
        cell.selected = true;
        cell.piece = Some(Piece::new(Side::White, Kind::King));
        assert_eq!(cell.class(), "hc-cell selected target last white");
    }

    #[test]
    fn the_view_spans_its_cells() {
        let cell = |x, y, z| Cell {
            at: Coord::new(x, y, z),
            piece: None,
            selected: false,
            target: false,
            last: false,
        };
        let v = View::new(vec![cell(0, 0, 0), cell(-2, 3, 1), cell(4, -1, 0)]);
        assert_eq!((v.lo, v.hi), (Coord::new(-2, -1, 0), Coord::new(4, 3, 1)));
        assert!(v.cell(Coord::new(-2, 3, 1)).is_some());
        assert!(v.cell(Coord::new(1, 1, 1)).is_none());
    }
}
