//! The rules of the playout policy that answer the last moves: 1. capture, 2. atari escape, 3. a 3x3
//! pattern (the module documentation of the policy says when each applies).
//!
//! Apart from `playout.rs` because each rule is a local question about the board around the last moves,
//! with no chance in it but the pattern rule's pick among its matches.

use super::patterns::{pattern_key, patterns};
use super::{at, AROUND};
use crate::go::board::{neighbours, stone, Board, EMPTY};
use crate::go::Color;
use crate::SplitMix64;

impl Board {
    /// Rule 1: the liberty of the biggest opponent chain in atari at or around `last` (its 3x3
    /// neighbourhood) or next to `last2`, if `color` may play it.
    pub(super) fn capture_move(
        &self,
        color: Color,
        last: Option<usize>,
        last2: Option<usize>,
    ) -> Option<usize> {
        let opp = stone(color.other());
        // (stones captured, the capturing move)
        let mut best: Option<(usize, usize)> = None;
        let mut consider = |cell: usize| {
            if self.cell_value(cell) != opp {
                return;
            }
            let Some(lib) = self.atari_liberty(cell) else {
                return;
            };
            let n = self.chain_len(cell);
            if best.is_none_or(|(m, _)| n > m) && self.playable(lib, color) {
                best = Some((n, lib));
            }
        };
        if let Some(l) = last {
            consider(l);
            for off in AROUND {
                consider(at(l, off));
            }
        }
        if let Some(l) = last2 {
            for q in neighbours(l) {
                consider(q);
            }
        }
        best.map(|(_, lib)| lib)
    }

    /// Rule 2: a move that saves the biggest own chain in atari around `last` (its 3x3 neighbourhood).
    pub(super) fn escape_move(&self, color: Color, last: usize) -> Option<usize> {
        let me = stone(color);
        let mut seen = [usize::MAX; 8];
        let mut n = 0;
        // (stones saved, the saving move)
        let mut best: Option<(usize, usize)> = None;
        for off in AROUND {
            let q = at(last, off);
            if self.cell_value(q) != me {
                continue;
            }
            let h = self.chain_head(q);
            if seen[..n].contains(&h) {
                continue;
            }
            seen[n] = h;
            n += 1;
            let Some(lib) = self.atari_liberty(h) else {
                continue;
            };
            let size = self.chain_len(h);
            if best.is_some_and(|(m, _)| m >= size) {
                continue;
            }
            if let Some(mv) = self.rescue(h, lib, color) {
                best = Some((size, mv));
            }
        }
        best.map(|(_, mv)| mv)
    }

    /// A move that saves `color`'s chain with head `h`, in atari on `lib`: capturing the biggest opponent
    /// chain in atari that touches it, else extending on `lib` if the chain then has two liberties or more.
    pub(super) fn rescue(&self, h: usize, lib: usize, color: Color) -> Option<usize> {
        let opp = stone(color.other());
        let mut best: Option<(usize, usize)> = None;
        self.any_chain_neighbour(h, |q| {
            if self.cell_value(q) == opp {
                if let Some(c) = self.atari_liberty(q) {
                    let n = self.chain_len(q);
                    if best.is_none_or(|(m, _)| n > m) && self.playable(c, color) {
                        best = Some((n, c));
                    }
                }
            }
            false
        });
        if let Some((_, c)) = best {
            return Some(c);
        }
        // Not a self-atari and legal: the extended chain has two liberties or more (or captures), and
        // no ladder catches it.
        (self.playable(lib, color)
            && self.self_atari_stones(lib, color).is_none()
            && !self.extension_is_caught(lib, color))
        .then_some(lib)
    }

    /// Rule 3: a random empty point around `last` or `last2` (their 3x3 neighbourhoods) where a pattern
    /// matches for `color`, that is playable and no self-atari at all.
    pub(super) fn pattern_move(
        &self,
        color: Color,
        last: Option<usize>,
        last2: Option<usize>,
        rng: &mut SplitMix64,
    ) -> Option<usize> {
        let table = patterns();
        let mut found = [0usize; 16];
        let mut n = 0;
        for l in [last, last2].into_iter().flatten() {
            for off in AROUND {
                let c = at(l, off);
                if self.cell_value(c) == EMPTY
                    && !found[..n].contains(&c)
                    && table.matches(pattern_key(self, c, color))
                {
                    found[n] = c;
                    n += 1;
                }
            }
        }
        while n > 0 {
            let i = rng.below(n as u64) as usize;
            let c = found[i];
            if self.playable(c, color) && self.self_atari_stones(c, color).is_none() {
                return Some(c);
            }
            n -= 1;
            found[i] = found[n];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::policy::patterns::pattern_at;
    use crate::go::policy::test_boards::{board, cell, name};
    use crate::go::Point;

    /// How often, over `seeds` seeds, the policy plays each point in this position.
    fn policy_counts(
        b: &Board,
        color: Color,
        last: Option<usize>,
        seeds: u64,
    ) -> Vec<(usize, u32)> {
        let mut counts: Vec<(usize, u32)> = Vec::new();
        for seed in 0..seeds {
            let mut b = b.clone();
            let mv = b
                .policy_move(color, last, None, &mut SplitMix64::new(seed))
                .map_or(0, Point::cell);
            match counts.iter_mut().find(|(c, _)| *c == mv) {
                Some((_, n)) => *n += 1,
                None => counts.push((mv, 1)),
            }
        }
        counts
    }

    fn count_of(counts: &[(usize, u32)], c: usize) -> u32 {
        counts.iter().find(|(m, _)| *m == c).map_or(0, |(_, n)| *n)
    }

    #[test]
    fn captures_the_last_move_in_atari() {
        let b = board(
            ". . . . . . .
             . . . . . . .
             . . . X . . .
             . . X O X . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let (d4, d3) = (cell("D4", &b), cell("D3", &b));
        assert_eq!(b.capture_move(Color::Black, Some(d4), None), Some(d3));
        // An atari of ours the opponent ignored (last2) is taken too.
        assert_eq!(
            b.capture_move(Color::Black, Some(cell("G7", &b)), Some(cell("C4", &b))),
            Some(d3)
        );
        let counts = policy_counts(&b, Color::Black, Some(d4), 200);
        assert!(count_of(&counts, d3) >= 170, "{counts:?}");
    }

    #[test]
    fn prefers_the_bigger_capture() {
        let b = board(
            ". . . . . . .
             . . X X . . .
             . . O O X . .
             . . X X O X .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let e4 = cell("E4", &b);
        assert_eq!(b.atari_liberty(cell("C5", &b)), Some(cell("B5", &b)));
        assert_eq!(b.atari_liberty(e4), Some(cell("E3", &b)));
        assert_eq!(
            b.capture_move(Color::Black, Some(e4), None),
            Some(cell("B5", &b))
        );
    }

    #[test]
    fn a_capture_on_the_ko_point_is_not_retaken() {
        let mut b = board(
            ". . . . .
             . X O . .
             X O . O .
             . X O . .
             . . . . .",
        );
        let c3 = cell("C3", &b);
        b.place(c3, Color::Black);
        // White's B3 is gone; Black's C3 is in atari on B3, the ko point White may not take at once.
        assert_eq!(b.capture_move(Color::White, Some(c3), None), None);
        for seed in 0..50 {
            let mut b = b.clone();
            let mv = b.policy_move(Color::White, Some(c3), None, &mut SplitMix64::new(seed));
            assert_ne!(mv, Some(Point::from_cell(cell("B3", &b))));
        }
    }

    #[test]
    fn escapes_from_atari_by_extending() {
        let b = board(
            ". . . . . . .
             . . . . . . .
             . . . O . . .
             . . O X O . .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        let (e4, d3) = (cell("E4", &b), cell("D3", &b));
        assert_eq!(b.escape_move(Color::Black, e4), Some(d3));
        let counts = policy_counts(&b, Color::Black, Some(e4), 200);
        assert!(count_of(&counts, d3) >= 150, "{counts:?}");
    }

    #[test]
    fn escapes_from_atari_by_capturing_first() {
        let b = board(
            ". . . . . . .
             . . . . . . .
             . . . O X . .
             . . O X O X .
             . . . . . . .
             . . . . . . .
             . . . . . . .",
        );
        // D4 is in atari on D3, and White's E4 in atari on E3: taking it saves D4 too.
        assert_eq!(
            b.escape_move(Color::Black, cell("C4", &b)),
            Some(cell("E3", &b))
        );
    }

    #[test]
    fn no_escape_into_a_self_atari() {
        let b = board(
            ". . . . . . .
             . . . . . . .
             . . . O . . .
             . . O X O . .
             . . O . O . .
             . . . . . . .
             . . . . . . .",
        );
        let (e4, d3) = (cell("E4", &b), cell("D3", &b));
        assert_eq!(b.self_atari_stones(d3, Color::Black), Some(2));
        assert_eq!(b.escape_move(Color::Black, e4), None);
        // Whatever the seed, the policy never extends into the two-stone self-atari.
        let counts = policy_counts(&b, Color::Black, Some(e4), 300);
        assert_eq!(count_of(&counts, d3), 0, "{counts:?}");
    }

    #[test]
    fn pattern_moves_answer_the_last_move() {
        // White's D4 hane against Black's C4: the patterns point at the moves around it.
        let b = board(
            ". . . . . . .
             . . . . . . .
             . . . . . . .
             . . X O . . .
             . . . X . . .
             . . . . . . .
             . . . . . . .",
        );
        let d4 = cell("D4", &b);
        let mut rng = SplitMix64::new(1);
        for _ in 0..20 {
            let mv = b
                .pattern_move(Color::Black, Some(d4), None, &mut rng)
                .unwrap();
            assert!(pattern_at(&b, mv, Color::Black), "{}", name(mv));
            assert!(b.playable(mv, Color::Black));
        }
    }
}
