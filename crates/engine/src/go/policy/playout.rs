//! The playout policy as a whole: [`Board::policy_move`] tries the rules in their order, each with its
//! probability, down to a random move, and [`Board::policy_playout`] plays a game out with it.
//!
//! Apart from the rules themselves (`replies.rs`) because this is where the chances live that keep
//! playouts through one node from all being the same game.

use crate::go::{Board, Color, Komi, Point, Score};
use crate::SplitMix64;

// ----- the playout policy's probabilities -----

/// The chance, in percent, that the capture rule is tried at a move. High, because a capture next to the
/// last move is nearly always right; not 100, so that one playout in ten through the same node differs
/// (MoGo and michi use 0.9 to 0.95).
const CAPTURE_PERCENT: u64 = 90;

/// The chance, in percent, that the atari-escape rule is tried at a move (as for captures).
const ESCAPE_PERCENT: u64 = 90;

/// The chance, in percent, that the pattern rule is tried at a move (michi: 0.95; a little less here,
/// because the patterns are matched around the last two moves, not one).
const PATTERN_PERCENT: u64 = 90;

/// The chance, in percent, that the random rule refuses a single-stone self-atari. Most are gifts, but a
/// throw-in (to make an eye false, or for a snapback) is a single-stone self-atari too, and a playout that
/// could never play one would misjudge those fights.
const REFUSE_LONE_SELF_ATARI_PERCENT: u64 = 90;

/// Whether a percent-chance draw succeeds.
#[inline]
fn chance(rng: &mut SplitMix64, percent: u64) -> bool {
    rng.below(100) < percent
}

impl Board {
    /// A playout move for `color` chosen with knowledge; `last` is the cell of the previous move's stone
    /// (None after a pass or at the start), `last2` the one before.
    /// Returns None when the player should pass (no acceptable move left). Only returns moves that `place`
    /// can legally play (empty, not simple-ko, not suicide) and never fills the player's own eye.
    pub(crate) fn policy_move(
        &mut self,
        color: Color,
        last: Option<usize>,
        last2: Option<usize>,
        rng: &mut SplitMix64,
    ) -> Option<Point> {
        let last = self.intersection(last);
        let last2 = self.intersection(last2);
        if (last.is_some() || last2.is_some()) && chance(rng, CAPTURE_PERCENT) {
            if let Some(cell) = self.capture_move(color, last, last2) {
                return Some(Point::from_cell(cell));
            }
        }
        if let Some(l) = last {
            if chance(rng, ESCAPE_PERCENT) {
                if let Some(cell) = self.escape_move(color, l) {
                    return Some(Point::from_cell(cell));
                }
            }
        }
        if (last.is_some() || last2.is_some()) && chance(rng, PATTERN_PERCENT) {
            if let Some(cell) = self.pattern_move(color, last, last2, rng) {
                return Some(Point::from_cell(cell));
            }
        }
        self.random_policy_move(color, rng).map(Point::from_cell)
    }

    /// Plays a policy playout from here, `to_move` first, until two passes or 3 moves per intersection;
    /// calls `record(cell, color)` for every stone placed; returns the area score with komi. The board is
    /// left in the final position.
    pub(crate) fn policy_playout(
        &mut self,
        to_move: Color,
        komi: Komi,
        last: Option<usize>,
        last2: Option<usize>,
        rng: &mut SplitMix64,
        mut record: impl FnMut(usize, Color),
    ) -> Score {
        let limit = 3 * self.size().area() as usize;
        let (mut last, mut last2) = (last, last2);
        let mut color = to_move;
        let mut passes = 0;
        let mut moves = 0;
        while passes < 2 && moves < limit {
            let cell = self.policy_move(color, last, last2, rng).map(Point::cell);
            match cell {
                Some(cell) => {
                    self.place(cell, color);
                    record(cell, color);
                    passes = 0;
                }
                None => {
                    self.pass();
                    passes += 1;
                }
            }
            last2 = last;
            last = cell;
            moves += 1;
            color = color.other();
        }
        self.score(komi)
    }

    /// Rule 4: a uniformly random playable point, refusing self-ataris (but for a nakade) of two stones
    /// or more always and of one stone with [`REFUSE_LONE_SELF_ATARI_PERCENT`]; None when nothing is
    /// left (a pass).
    fn random_policy_move(&mut self, color: Color, rng: &mut SplitMix64) -> Option<usize> {
        // Draw without replacement from the empty list, as `random_move` does.
        let mut left = self.empty_count();
        while left > 0 {
            let i = rng.below(left as u64) as usize;
            let cell = self.empty_cell(i);
            if self.playable(cell, color) {
                match self.self_atari_stones(cell, color) {
                    None => return Some(cell),
                    Some(_) if self.is_nakade(cell, color) => return Some(cell),
                    Some(1) if !chance(rng, REFUSE_LONE_SELF_ATARI_PERCENT) => return Some(cell),
                    Some(_) => {}
                }
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
    use crate::go::point::CELLS;
    use crate::go::BoardSize;

    #[test]
    fn a_seed_fixes_the_playout() {
        let run = |seed| {
            let mut b = Board::new(BoardSize::NINE);
            let mut moves = Vec::new();
            let score = b.policy_playout(
                Color::Black,
                Komi::DEFAULT,
                None,
                None,
                &mut SplitMix64::new(seed),
                |c, color| moves.push((c, color)),
            );
            (score, moves, b)
        };
        let (a, b) = (run(11), run(11));
        assert_eq!(a.0, b.0);
        assert_eq!(a.1, b.1);
        assert_eq!(a.2, b.2);
        assert_ne!(run(11).1, run(12).1);
    }

    #[test]
    fn policy_playouts_stay_legal_and_consistent() {
        let mut rng = SplitMix64::new(7);
        for (size, games) in [(5, 40), (9, 12), (19, 2)] {
            let size = BoardSize::new(size).unwrap();
            for _ in 0..games {
                let mut b = Board::new(size);
                let (mut last, mut last2) = (None, None);
                let mut color = Color::Black;
                let mut passes = 0;
                let mut moves = 0;
                while passes < 2 && moves < 3 * size.area() as usize {
                    let mv = b.policy_move(color, last, last2, &mut rng);
                    match mv {
                        Some(p) => {
                            assert!(b.check(p, color).is_ok(), "{color} {p}\n{b}");
                            assert!(!b.is_eye(p, color), "{color} fills an eye at {p}\n{b}");
                            let nakade = b.is_nakade(p.cell(), color);
                            let taken = b.play(p, color).unwrap();
                            if taken == 0 && b.liberties(p) == 1 && !nakade {
                                assert_eq!(b.chain(p).len(), 1, "{color} {p} self-atari\n{b}");
                            }
                            passes = 0;
                        }
                        None => {
                            b.pass();
                            passes += 1;
                        }
                    }
                    b.assert_consistent();
                    last2 = last;
                    last = mv.map(Point::cell);
                    color = color.other();
                    moves += 1;
                }
            }
        }
    }

    #[test]
    fn policy_playout_records_every_stone_and_scores_the_end() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..20 {
            let mut b = Board::new(BoardSize::NINE);
            let mut placed = 0u32;
            let mut last_colour = None;
            let score = b.policy_playout(
                Color::White,
                Komi::DEFAULT,
                None,
                None,
                &mut rng,
                |c, color| {
                    assert!(c < CELLS);
                    placed += 1;
                    last_colour = Some(color);
                },
            );
            b.assert_consistent();
            assert!(placed > 0);
            assert!(last_colour.is_some());
            assert_eq!(score, b.score(Komi::DEFAULT));
            // Nearly every point is owned at the end (a seki can leave shared liberties).
            assert!(score.black + score.white >= 70, "{score:?}\n{b}");
        }
        // Odd hints are ignored, not trusted.
        let mut b = Board::new(BoardSize::NINE);
        b.policy_playout(
            Color::Black,
            Komi::DEFAULT,
            Some(usize::MAX),
            Some(0),
            &mut rng,
            |_, _| {},
        );
        b.assert_consistent();
    }

    /// Playouts per second of heavy (policy) and light playouts from the empty 9x9 board. Run with
    /// `cargo test --release -p gridarena-engine policy_speed -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn policy_speed() {
        use std::time::Instant;
        let empty = Board::new(BoardSize::NINE);
        let mut rng = SplitMix64::new(1);
        let n = 20_000;
        let start = Instant::now();
        let (mut black, mut stones) = (0, 0u64);
        for _ in 0..n {
            let mut b = empty.clone();
            let s = b.policy_playout(Color::Black, Komi::DEFAULT, None, None, &mut rng, |_, _| {
                stones += 1;
            });
            black += u32::from(s.winner() == Some(Color::Black));
        }
        let heavy = n as f64 / start.elapsed().as_secs_f64();
        let start = Instant::now();
        for _ in 0..n {
            let mut b = empty.clone();
            b.playout(Color::Black, Komi::DEFAULT, &mut rng);
        }
        let light = n as f64 / start.elapsed().as_secs_f64();
        eprintln!(
            "9x9 from empty: heavy {heavy:.0} playouts/s ({:.1} stones each, black won {black} of {n}), \
             light {light:.0} playouts/s",
            stones as f64 / n as f64
        );
    }
}
