//! What a move does to its own chain, as the playout rules and the priors both ask it: whether a hint is
//! a point of the board, whether a playout may play there at all, and whether the move is a self-atari
//! (and if so, a nakade worth playing).
//!
//! Apart because the rules and the priors share it, and it is plain board reading, with no policy in it.

use crate::go::board::{neighbours, stone, Board, EMPTY, OFF};
use crate::go::point::CELLS;
use crate::go::Color;

impl Board {
    /// `cell` if it is an intersection of this board (a stone or an empty point), else None: the `last`
    /// arguments come from the caller and are only hints.
    #[inline]
    pub(super) fn intersection(&self, cell: Option<usize>) -> Option<usize> {
        cell.filter(|&c| c < CELLS && self.cell_value(c) != OFF)
    }

    /// Whether `color` may put a stone on `cell` in a playout: an empty intersection, not the simple-ko
    /// point, not one of its own eyes, and not suicide.
    #[inline]
    pub(super) fn playable(&self, cell: usize, color: Color) -> bool {
        self.cell_value(cell) == EMPTY
            && !self.is_ko_for(cell, color)
            && !self.is_eye_cell(cell, color)
            && self.keeps_a_liberty(cell, color)
    }

    /// The number of stones of the chain a stone of `color` on the empty intersection `cell` would make,
    /// if that chain would have exactly one liberty and the stone captures nothing: a self-atari. None
    /// when the move captures, leaves two liberties or more, or none (suicide, which is not a self-atari
    /// but illegal).
    pub(super) fn self_atari_stones(&self, cell: usize, color: Color) -> Option<usize> {
        self.self_atari(cell, color).map(|(stones, _)| stones)
    }

    /// Whether a stone of `color` on `cell` is a self-atari worth playing: a nakade. The chain it makes
    /// has at most two stones and its one liberty lies inside the same enclosure of opponent stones and
    /// edge, so once the opponent takes it, the space left is three points at most, which makes one eye,
    /// never two (the stone played back on the middle kills). Playouts that refused every self-atari
    /// would leave such groups standing, as if alive, and the search would never learn to kill them.
    pub(crate) fn is_nakade(&self, cell: usize, color: Color) -> bool {
        let Some((stones, lib)) = self.self_atari(cell, color) else {
            return false;
        };
        let (me, opp) = (stone(color), stone(color.other()));
        stones <= 2
            && neighbours(lib).into_iter().all(|q| {
                let v = self.cell_value(q);
                q == cell || v == opp || v == OFF || (v == me && neighbours(cell).contains(&q))
            })
    }

    /// [`Board::self_atari_stones`], with the chain's one liberty.
    fn self_atari(&self, cell: usize, color: Color) -> Option<(usize, usize)> {
        let me = stone(color);
        let opp = stone(color.other());
        // The one liberty found so far (usize::MAX: none yet); a second distinct one ends the question.
        let mut lib = usize::MAX;
        let mut own = [usize::MAX; 4];
        let mut owns = 0;
        for q in neighbours(cell) {
            let v = self.cell_value(q);
            if v == EMPTY {
                if lib != usize::MAX {
                    return None;
                }
                lib = q;
            } else if v == opp {
                if self.atari_liberty(q).is_some() {
                    return None;
                }
            } else if v == me {
                let h = self.chain_head(q);
                if !own[..owns].contains(&h) {
                    own[owns] = h;
                    owns += 1;
                }
            }
        }
        let mut stones = 1;
        for &h in &own[..owns] {
            stones += self.chain_len(h);
            if self.atari_liberty(h).is_some() {
                // Its only liberty is `cell` itself, which the stone fills.
                continue;
            }
            let second = self.any_chain_neighbour(h, |q| {
                if q == cell || q == lib || self.cell_value(q) != EMPTY {
                    return false;
                }
                if lib != usize::MAX {
                    return true;
                }
                lib = q;
                false
            });
            if second {
                return None;
            }
        }
        (lib != usize::MAX).then_some((stones, lib))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::policy::test_boards::{board, cell};

    #[test]
    fn self_atari_detection() {
        let b = board(
            ". O . O .
             . O X O .
             . . . . .
             . . . . .
             . . . . .",
        );
        // C5 joins C4 with only C3 left: a two-stone self-atari.
        assert_eq!(b.self_atari_stones(cell("C5", &b), Color::Black), Some(2));
        // Open points are none.
        assert_eq!(b.self_atari_stones(cell("C3", &b), Color::Black), None);
        assert_eq!(b.self_atari_stones(cell("D2", &b), Color::White), None);
        // A lone stone with one liberty.
        let b = board(
            ". . . . .
             . . . . .
             . . . . .
             . X . . .
             . . X . .",
        );
        assert_eq!(b.self_atari_stones(cell("B1", &b), Color::White), Some(1));
        // Taking a stone is no self-atari, even with a single liberty left after it.
        let b = board(
            ". . . . .
             . . . . .
             . . . . .
             O X . . .
             . O X . .",
        );
        assert_eq!(b.atari_liberty(cell("B1", &b)), Some(cell("A1", &b)));
        assert_eq!(b.self_atari_stones(cell("A1", &b), Color::Black), None);
    }
}
