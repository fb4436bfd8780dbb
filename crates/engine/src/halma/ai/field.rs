//! How far each square is from a team's destinations, as one number per square.
//!
//! Both AIs need "is this move progress?" thousands of times a call, and the destinations can be any set of
//! squares (presets, other board sizes, hand-made states), so the answer is precomputed once per call as a
//! table indexed by cell rather than derived from the destinations' shape.

use crate::halma::position::Position;
use crate::halma::square::{CELLS, PAD, STRIDE};
use crate::halma::Team;

/// Cost of a straight step in the distance transform; a diagonal step costs [`DIAGONAL`].
const STRAIGHT: i16 = 2;
/// Dearer than a straight step, cheaper than two: the distance of an offset (dx, dy) becomes
/// `max + min + max`, i.e. Chebyshev plus Manhattan, so a diagonal that closes both gaps beats a straight
/// step that closes one even though both shorten the king distance by one.
const DIAGONAL: i16 = 3;
/// Further than any square of the largest board.
const FAR: i16 = i16::MAX / 4;

/// One team's distances, indexed by cell: positive outside the destinations (the distance to the nearest
/// one), zero or negative inside (minus how deep the square lies, so filling from the back is progress and
/// the entrances stay free for the pieces still on their way).
#[derive(Clone, Debug)]
pub(crate) struct Field {
    values: Vec<i16>,
}

impl Field {
    pub(crate) fn new(position: &Position, team: Team) -> Field {
        let size = usize::from(position.size());
        let cells = on_board_cells(size);
        let is_dest = |c: usize| position.dest[c] & team.bit() != 0;
        let outside = transform(size, is_dest);
        let inside = transform(size, |c| !is_dest(c));
        let mut values = vec![FAR; CELLS];
        for c in cells {
            values[c] = if is_dest(c) {
                // A board that is all destination has no outside to measure depth from.
                let depth = if inside[c] >= FAR {
                    STRAIGHT
                } else {
                    inside[c]
                };
                -depth
            } else {
                outside[c]
            };
        }
        Field { values }
    }

    /// The value of a cell (a square's `cell()`).
    #[inline]
    pub(crate) fn at(&self, cell: usize) -> i16 {
        self.values.get(cell).copied().unwrap_or(FAR)
    }
}

/// Every on-board cell, row by row.
fn on_board_cells(size: usize) -> impl Iterator<Item = usize> {
    (0..size).flat_map(move |y| (0..size).map(move |x| (y + PAD) * STRIDE + x + PAD))
}

/// The chamfer distance of every on-board cell to the nearest cell where `source` holds.
///
/// Two raster passes (forward with the neighbours above and to the left, backward with those below and
/// to the right) give the exact weighted king distance on a rectangle, in time linear in the board.
fn transform(size: usize, source: impl Fn(usize) -> bool) -> Vec<i16> {
    let mut d = vec![FAR; CELLS];
    for c in on_board_cells(size) {
        if source(c) {
            d[c] = 0;
        }
    }
    let s = STRIDE;
    // The wall border keeps every neighbour index inside the grid; wall cells stay FAR.
    let forward = [
        (1, STRAIGHT),
        (s + 1, DIAGONAL),
        (s, STRAIGHT),
        (s - 1, DIAGONAL),
    ];
    let cells: Vec<usize> = on_board_cells(size).collect();
    for &c in &cells {
        let best = forward
            .iter()
            .map(|&(off, w)| d[c - off].saturating_add(w))
            .fold(d[c], i16::min);
        d[c] = best;
    }
    for &c in cells.iter().rev() {
        let best = forward
            .iter()
            .map(|&(off, w)| d[c + off].saturating_add(w))
            .fold(d[c], i16::min);
        d[c] = best;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::{Game, Preset, Square};

    fn at(f: &Field, x: u8, y: u8) -> i16 {
        f.at(Square::new(x, y).unwrap().cell())
    }

    #[test]
    fn arena_distances_are_chebyshev_plus_manhattan() {
        let game = Game::new(&Preset::Arena.rules(), 0).unwrap();
        let red = Field::new(game.position(), Team::Red);
        // Red's destinations are x 15..17, y 0..2.
        assert_eq!(at(&red, 14, 0), 2);
        assert_eq!(at(&red, 14, 3), 3);
        assert_eq!(at(&red, 0, 17), 45);
        assert_eq!(at(&red, 10, 2), 10);
        // Inside: deeper is lower.
        assert_eq!(at(&red, 15, 2), -2);
        assert_eq!(at(&red, 16, 1), -4);
        assert_eq!(at(&red, 17, 0), -6);
    }
}
