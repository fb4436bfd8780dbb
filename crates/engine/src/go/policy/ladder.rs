//! The ladder reader: whether a chain extended out of atari is caught by a ladder, so that the escape
//! rule does not run it and the priors rank running it low.
//!
//! Apart because it is the one piece of reading ahead in the policy: it plays the ladder out on copies of
//! the board, to [`LADDER_DEPTH`] steps.

use crate::go::board::{neighbours, stone, Board, EMPTY};
use crate::go::Color;

/// How many steps of a ladder are read: enough to cross a 19x19 board, few enough to stay cheap.
const LADDER_DEPTH: u32 = 40;

impl Board {
    /// Whether `color`, extending on `lib` (the one liberty of a chain of its own), runs into a ladder
    /// that catches it: the extended chain has at most two liberties, and an opponent who fills one of
    /// them each time keeps it in atari until it is taken, the chain never gaining a third liberty nor
    /// capturing on the way. Running such a chain only feeds the opponent stones (and on 19x19 a long
    /// hopeless run also confuses the opponent's reading, GNU Go's among them).
    pub(crate) fn extension_is_caught(&self, lib: usize, color: Color) -> bool {
        if self.cell_value(lib) != EMPTY || !self.keeps_a_liberty(lib, color) {
            return false;
        }
        // Three empty points around the new stone are three liberties: no ladder, and no copy of the
        // board needed (the usual case in open play).
        if neighbours(lib)
            .into_iter()
            .filter(|&q| self.cell_value(q) == EMPTY)
            .count()
            >= 3
        {
            return false;
        }
        let mut b = self.clone();
        b.place(lib, color);
        b.ladder_caught(lib, color, LADDER_DEPTH)
    }

    /// The ladder below [`Board::extension_is_caught`]: `color`'s chain on `cell` has just extended and
    /// the opponent is to move.
    fn ladder_caught(&self, cell: usize, color: Color, depth: u32) -> bool {
        let (count, libs) = self.liberties_up_to_three(cell);
        match count {
            0 | 1 => return true,
            2 if depth > 0 => {}
            _ => return false,
        }
        let attacker = color.other();
        for a in libs {
            if self.is_ko_for(a, attacker) || !self.keeps_a_liberty(a, attacker) {
                continue;
            }
            let mut b = self.clone();
            b.place(a, attacker);
            if b.can_capture_next_to(cell, color) {
                continue;
            }
            let Some(run) = b.atari_liberty(cell) else {
                continue;
            };
            if b.is_ko_for(run, color) || !b.keeps_a_liberty(run, color) {
                return true;
            }
            b.place(run, color);
            if b.ladder_caught(run, color, depth - 1) {
                return true;
            }
        }
        false
    }

    /// How many liberties the chain on `cell` has, counting to three, and the first two.
    fn liberties_up_to_three(&self, cell: usize) -> (usize, [usize; 2]) {
        let mut found = [usize::MAX; 3];
        let mut n = 0;
        self.any_chain_neighbour(cell, |q| {
            if self.cell_value(q) == EMPTY && !found[..n].contains(&q) {
                found[n] = q;
                n += 1;
            }
            n == 3
        });
        (n, [found[0], found[1]])
    }

    /// Whether `color` can take an opponent chain in atari that touches its chain on `cell`.
    fn can_capture_next_to(&self, cell: usize, color: Color) -> bool {
        let opp = stone(color.other());
        self.any_chain_neighbour(cell, |q| {
            self.cell_value(q) == opp
                && self
                    .atari_liberty(q)
                    .is_some_and(|lib| !self.is_ko_for(lib, color))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::policy::prior;
    use crate::go::policy::test_boards::{board, cell};
    use crate::go::Point;

    #[test]
    fn ladders_are_read() {
        // Black's C7 has one liberty, D7; extended there it has two, and White can chase it along
        // the diagonal down to the edge.
        let ladder = ". . . . . . . . .
                      . . O O . . . . .
                      . O X . . . . . .
                      . . O . . . . . .
                      . . . . . . . . .
                      . . . . . . . . .
                      . . . . . . . . .
                      . . . . . . . . .
                      . . . . . . . . .";
        let b = board(ladder);
        let d3 = cell("D7", &b);
        assert!(b.extension_is_caught(d3, Color::Black), "\n{b}");
        assert_eq!(b.rescue(cell("C7", &b), d3, Color::Black), None);
        // A black stone on the ladder's path breaks it (one far from it, at J9, would not).
        let mut broken = b.clone();
        broken
            .play(Point::from_gtp("G4", b.size()).unwrap(), Color::Black)
            .unwrap();
        assert!(!broken.extension_is_caught(d3, Color::Black), "\n{broken}");
        assert_eq!(broken.rescue(cell("C7", &b), d3, Color::Black), Some(d3));
        // The tree is told too: running the caught chain ranks below any quiet move.
        let run = prior(&b, Color::Black, None, d3);
        let quiet = prior(&b, Color::Black, None, cell("G7", &b));
        assert!(
            run.wins / run.visits < quiet.wins / quiet.visits,
            "{run:?} {quiet:?}"
        );
        assert!(prior(&broken, Color::Black, None, d3).wins > quiet.wins);
    }
}
