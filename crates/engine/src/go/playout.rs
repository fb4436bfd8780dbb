//! Light random playouts for Monte-Carlo search.
//!
//! A playout plays uniformly random legal moves, except that no player fills its own eye (see
//! [`Board::is_eye`]), until both players pass in a row, and then counts the area. Without eye filling
//! every group with two eyes lives and the game ends; a player passes only when no other move is left.
//!
//! For speed a playout enforces simple ko only (the board's ko point), not positional superko: a longer
//! cycle is possible in principle, so a playout also stops after three moves per intersection and counts
//! whatever stands then. Its results only guide search; [`crate::go::Game::play`] is the referee.

use super::board::Board;
use super::{Color, Komi, Point, Score};
use crate::SplitMix64;

impl Board {
    /// Plays a light random playout from this position, `to_move` first, until two passes in a row (or
    /// three moves per intersection), and returns the area count with `komi`. The board is left in the
    /// final position, so a search can also read who owns each point ([`Board::owners`]).
    pub fn playout(&mut self, to_move: Color, komi: Komi, rng: &mut SplitMix64) -> Score {
        let limit = 3 * self.size().area() as usize;
        let mut color = to_move;
        let mut passes = 0;
        let mut moves = 0;
        while passes < 2 && moves < limit {
            match self.random_move(color, rng) {
                Some(p) => {
                    self.place(p.cell(), color);
                    passes = 0;
                }
                None => {
                    self.pass();
                    passes += 1;
                }
            }
            moves += 1;
            color = color.other();
        }
        self.score(komi)
    }

    /// A uniformly random point where `color` may play (board rules: occupancy, suicide, simple ko) that
    /// is not one of its own eyes; `None` when there is none and the playout passes.
    pub fn random_move(&mut self, color: Color, rng: &mut SplitMix64) -> Option<Point> {
        // Draw without replacement from the empty list: a refused point is swapped behind the ones left,
        // so every acceptable point is equally likely and none is tried twice.
        let mut left = self.empty_count();
        while left > 0 {
            let i = rng.below(left as u64) as usize;
            let cell = self.empty_cell(i);
            if !self.is_eye_cell(cell, color)
                && !self.is_ko_for(cell, color)
                && self.keeps_a_liberty(cell, color)
            {
                return Some(Point::from_cell(cell));
            }
            left -= 1;
            self.swap_empty(i, left);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{BoardSize, Game};

    #[test]
    fn playouts_end_with_only_eyes_left() {
        let mut rng = SplitMix64::new(1);
        for _ in 0..50 {
            let mut b = Board::new(BoardSize::NINE);
            let score = b.playout(Color::Black, Komi::DEFAULT, &mut rng);
            b.assert_consistent();
            assert_eq!(score, b.score(Komi::DEFAULT));
            // After two passes every empty point is an eye or unplayable for both players, so every
            // point belongs to someone.
            assert_eq!(score.black + score.white, 81, "\n{b}");
            for p in b.empty_points() {
                assert!(Color::ALL
                    .iter()
                    .all(|&c| b.is_eye(p, c) || b.check(p, c).is_err()));
            }
        }
    }

    #[test]
    fn random_moves_are_legal_and_not_eyes() {
        let mut rng = SplitMix64::new(9);
        let mut b = Board::new(BoardSize::new(7).unwrap());
        let mut color = Color::Black;
        for _ in 0..60 {
            match b.random_move(color, &mut rng) {
                Some(p) => {
                    assert!(!b.is_eye(p, color));
                    assert!(b.play(p, color).is_ok());
                }
                None => b.pass(),
            }
            b.assert_consistent();
            color = color.other();
        }
    }

    #[test]
    fn a_seed_gives_the_same_playout() {
        let g = Game::new(BoardSize::NINE);
        let a = g.playout(&mut SplitMix64::new(5));
        let b = g.playout(&mut SplitMix64::new(5));
        assert_eq!(a, b);
    }
}
