//! Priors for the search tree: [`prior`] gives each tree move virtual simulations, so that the search
//! looks at captures, escapes and good shape first and leaves self-ataris and first-line moves in the open
//! for later.
//!
//! Apart from the playout policy because the tree asks a different question: not which one move to play
//! fast, but how good every move looks before it is searched.

use super::patterns::pattern_at;
use crate::go::board::{neighbours, stone, Board, EMPTY};
use crate::go::point::{CELLS, STRIDE};
use crate::go::{Color, Point};

/// Prior knowledge about one tree move, as virtual simulations: `visits` simulations that won `wins`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Prior {
    pub visits: f32,
    pub wins: f32,
}

impl Prior {
    fn add(&mut self, visits: f32, wins: f32) {
        self.visits += visits;
        self.wins += wins;
    }
}

// ----- priors -----

/// The even prior every move starts from: 10 virtual simulations at 50%. Enough that the first one or two
/// real results do not swing a fresh move's value wildly, few enough that a few dozen real simulations
/// outweigh it (michi's PRIOR_EVEN is 10 too).
const EVEN_VISITS: f32 = 10.0;

/// Won virtual simulations for capturing one stone: a capture is usually worth looking at first, but one
/// stone is often a small gain (or a ko).
const CAPTURE_ONE: f32 = 15.0;

/// Won virtual simulations for capturing two stones or more, or for a capture that saves an own chain in
/// atari: twice a one-stone capture, as these rarely are wrong.
const CAPTURE_MANY: f32 = 30.0;

/// Won virtual simulations for saving a single stone from atari by extending to two liberties or more.
const ESCAPE_ONE: f32 = 15.0;

/// Won virtual simulations for saving a chain of two stones or more from atari by extending: losing a
/// chain costs more than losing a stone.
const ESCAPE_MANY: f32 = 30.0;

/// Won virtual simulations for a move that matches a 3x3 pattern: good local shape, a milder hint than a
/// capture (michi's PRIOR_PAT3 is 10 too).
const PATTERN: f32 = 10.0;

/// Lost virtual simulations for a single-stone self-atari: strongly negative (the even prior drops from
/// 50% to 20%), but a throw-in stays reachable for the search.
const SELF_ATARI_ONE: f32 = 15.0;

/// Lost virtual simulations for a self-atari of two stones or more: very strongly negative (10%), as it
/// nearly always just gives the chain away.
const SELF_ATARI_MANY: f32 = 40.0;

/// Running a chain that a ladder catches: as bad as a big self-atari, since the stones die all the same
/// and the opponent's wall grows with every step.
const LADDER_RUN: f32 = 40.0;

/// How far (Manhattan distance) the board around a point must be empty for the line rules below.
const EMPTY_AREA_DISTANCE: i32 = 3;

/// Lost virtual simulations for a first-line move with nothing around: in an open area such a move
/// gains almost nothing (50% drops to 25%).
const FIRST_LINE_IN_THE_OPEN: f32 = 10.0;

/// Won virtual simulations for a third-line move with nothing around: the line that takes territory in
/// the opening, slightly preferred (50% rises to 67%).
const THIRD_LINE_IN_THE_OPEN: f32 = 5.0;

/// Won virtual simulations for a move at Manhattan distance 1, 2 and 3 from the last move: most good
/// moves answer the last one locally (michi gives 24, 22 and 8 by common-fate-graph distance; the plain
/// distance used here also counts diagonal and one-space-jump points as 2).
const PROXIMITY: [f32; 3] = [20.0, 15.0, 5.0];

/// The prior of playing `cell` (a legal, non-eye empty cell) for `color` in this position; `last` is the
/// cell of the previous move's stone (None after a pass or at the start). A cell that is not an empty
/// intersection gets the even prior.
pub(crate) fn prior(board: &Board, color: Color, last: Option<usize>, cell: usize) -> Prior {
    let mut p = Prior {
        visits: EVEN_VISITS,
        wins: EVEN_VISITS / 2.0,
    };
    if cell >= CELLS || board.cell_value(cell) != EMPTY {
        return p;
    }
    let me = stone(color);
    let opp = stone(color.other());

    // Captures, and whether one saves an own chain in atari; own chains in atari next to the move.
    let mut taken = [usize::MAX; 4];
    let mut chains = 0;
    let mut captured = 0;
    let mut saves = false;
    let mut endangered = 0;
    for q in neighbours(cell) {
        let v = board.cell_value(q);
        if v == opp && board.atari_liberty(q).is_some() {
            let h = board.chain_head(q);
            if !taken[..chains].contains(&h) {
                taken[chains] = h;
                chains += 1;
                captured += board.chain_len(h);
                saves = saves || touches_own_atari(board, h, me);
            }
        } else if v == me && board.atari_liberty(q).is_some() {
            endangered = endangered.max(board.chain_len(q));
        }
    }
    let self_atari = board.self_atari_stones(cell, color);
    if captured > 0 {
        // A capture next to an own chain in atari also gives that chain the freed points.
        let bonus = if captured == 1 && !saves && endangered == 0 {
            CAPTURE_ONE
        } else {
            CAPTURE_MANY
        };
        p.add(bonus, bonus);
    } else if endangered > 0 && self_atari.is_none() && board.keeps_a_liberty(cell, color) {
        if board.extension_is_caught(cell, color) {
            p.add(LADDER_RUN, 0.0);
        } else {
            let bonus = if endangered == 1 {
                ESCAPE_ONE
            } else {
                ESCAPE_MANY
            };
            p.add(bonus, bonus);
        }
    }
    match self_atari {
        Some(_) if board.is_nakade(cell, color) => {}
        Some(1) => p.add(SELF_ATARI_ONE, 0.0),
        Some(_) => p.add(SELF_ATARI_MANY, 0.0),
        None => {}
    }

    if pattern_at(board, cell, color) {
        p.add(PATTERN, PATTERN);
    }

    let pt = Point::from_cell(cell);
    let n = board.size().get() as i32;
    let (x, y) = (pt.x() as i32, pt.y() as i32);
    let line = 1 + x.min(y).min(n - 1 - x).min(n - 1 - y);
    if (line == 1 || line == 3) && empty_area(board, x, y) {
        if line == 1 {
            p.add(FIRST_LINE_IN_THE_OPEN, 0.0);
        } else {
            p.add(THIRD_LINE_IN_THE_OPEN, THIRD_LINE_IN_THE_OPEN);
        }
    }

    if let Some(l) = board.intersection(last) {
        let (lx, ly) = ((l % STRIDE) as i32, (l / STRIDE) as i32);
        let (cx, cy) = ((cell % STRIDE) as i32, (cell / STRIDE) as i32);
        let d = (lx - cx).abs() + (ly - cy).abs();
        if let Some(&bonus) = usize::try_from(d - 1).ok().and_then(|i| PROXIMITY.get(i)) {
            p.add(bonus, bonus);
        }
    }
    p
}

/// Whether the chain with head `h` touches a chain of `me` (a cell value) in atari.
fn touches_own_atari(board: &Board, h: usize, me: u8) -> bool {
    board.any_chain_neighbour(h, |q| {
        board.cell_value(q) == me && board.atari_liberty(q).is_some()
    })
}

/// Whether every point within [`EMPTY_AREA_DISTANCE`] (Manhattan) of (x, y) on the board is empty.
fn empty_area(board: &Board, x: i32, y: i32) -> bool {
    let n = board.size().get() as i32;
    let d = EMPTY_AREA_DISTANCE;
    for dy in -d..=d {
        let w = d - dy.abs();
        for dx in -w..=w {
            let (px, py) = (x + dx, y + dy);
            if px < 0 || py < 0 || px >= n || py >= n {
                continue;
            }
            let cell = (py as usize + 1) * STRIDE + px as usize + 1;
            if board.cell_value(cell) != EMPTY {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::policy::test_boards::{board, cell};

    #[test]
    fn priors_rank_captures_first_and_self_ataris_last() {
        let b = board(
            ". O . O . . . . .
             . O X O . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . X . . . .
             . . . X O X . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .",
        );
        let last = Some(cell("E4", &b));
        let rate = |s: &str| {
            let p = prior(&b, Color::Black, last, cell(s, &b));
            p.wins / p.visits
        };
        let (capture, plain, self_atari) = (rate("E3"), rate("H7"), rate("C9"));
        assert_eq!(plain, 0.5);
        assert!(capture > 0.8, "{capture}");
        assert!(self_atari < 0.4, "{self_atari}");
        // A first-line move in the open is below even, a third-line one above.
        assert!(rate("H1") < 0.5);
        assert!(rate("G7") > 0.5);
        // Near the last move is above even.
        assert!(rate("E2") > 0.5);
        // Not an empty point: the even prior.
        assert_eq!(
            prior(&b, Color::Black, last, cell("E4", &b)),
            Prior {
                visits: EVEN_VISITS,
                wins: EVEN_VISITS / 2.0
            }
        );
        assert_eq!(
            prior(&b, Color::Black, Some(usize::MAX), CELLS + 5).visits,
            EVEN_VISITS
        );
    }
}
