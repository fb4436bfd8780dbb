//! Go knowledge for the Monte-Carlo AI, in the style of MoGo, Pachi's "moggy" playouts and michi: a playout
//! policy that answers the last moves ("heavy playouts"), and priors for the moves of the search tree.
//!
//! **The playout policy** ([`Board::policy_move`]) tries, in this order, each rule with a high probability
//! (a rule that always fired would make every playout through a node the same game):
//! 1. *capture*: an opponent chain in atari on or around the last move (the last stone's chain itself,
//!    which also answers a capture of own stones that left the capturer in atari, as in a snapback, and the
//!    chains in its 3x3 neighbourhood), or next to the move before (an atari of ours the opponent ignored):
//!    play its liberty, the biggest capture first;
//! 2. *atari escape*: an own chain in atari around the last move: capture an opponent chain in atari that
//!    touches it (the biggest), else extend on its liberty if that leaves it two liberties or more (a simple
//!    guard against running into a ladder's self-atari, not a ladder reader);
//! 3. *3x3 patterns* around the last two moves: the hand-made patterns of Gelly, Wang, Munos and Teytaud,
//!    "Modification of UCT with patterns in Monte-Carlo Go" (INRIA RR-6062, 2006), see [`SHAPES`];
//! 4. otherwise a uniformly random move as in the light playout ([`Board::random_move`]), drawn without
//!    replacement from the empty list.
//!
//! Whatever the rule, a move must be legal for the board (empty, not the simple-ko point, not suicide) and
//! must not fill one of the player's own eyes ([`Board::is_eye`]). A self-atari (the move leaves its chain
//! exactly one liberty and captures nothing) of a chain of two stones or more is never played; a
//! single-stone self-atari is refused by the pattern rule always and by the random rule with a high
//! probability only, because a throw-in can be the best move on the board. Captures and escapes are never
//! self-ataris by construction.
//!
//! **Priors** ([`prior`]) are virtual simulations a tree move starts with, so that the search looks at
//! captures, escapes and good shape first and leaves self-ataris and first-line moves in the open for later;
//! the constants follow michi's and are explained where they are defined.
//!
//! Everything is driven by the caller's seeded [`SplitMix64`], so a playout depends on its seed alone. The
//! pattern table is built once, at first use, behind a [`OnceLock`] (no global mutable state; it works in
//! wasm too). The hot path allocates nothing.

use super::board::{neighbours, stone, Board, EMPTY, OFF};
use super::point::{CELLS, STRIDE};
use super::{Color, Komi, Point, Score};
use crate::SplitMix64;
use std::sync::OnceLock;

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

/// How many steps of a ladder are read: enough to cross a 19x19 board, few enough to stay cheap.
const LADDER_DEPTH: u32 = 40;

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

// ----- geometry -----

const S: isize = STRIDE as isize;

/// The eight cells around a point, in the order of the pattern key: the 3x3 diagram's reading order
/// without its centre, top row first, where the top row is one row up the board (`+STRIDE`).
const AROUND: [isize; 8] = [S - 1, S, S + 1, -1, 1, -S - 1, -S, -S + 1];

/// The cell at offset `off` from `cell`; for an intersection and an offset of [`AROUND`] it is in the grid.
#[inline]
fn at(cell: usize, off: isize) -> usize {
    cell.wrapping_add_signed(off)
}

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

    /// `cell` if it is an intersection of this board (a stone or an empty point), else None: the `last`
    /// arguments come from the caller and are only hints.
    #[inline]
    fn intersection(&self, cell: Option<usize>) -> Option<usize> {
        cell.filter(|&c| c < CELLS && self.cell_value(c) != OFF)
    }

    /// Whether `color` may put a stone on `cell` in a playout: an empty intersection, not the simple-ko
    /// point, not one of its own eyes, and not suicide.
    #[inline]
    fn playable(&self, cell: usize, color: Color) -> bool {
        self.cell_value(cell) == EMPTY
            && !self.is_ko_for(cell, color)
            && !self.is_eye_cell(cell, color)
            && self.keeps_a_liberty(cell, color)
    }

    /// The number of stones of the chain a stone of `color` on the empty intersection `cell` would make,
    /// if that chain would have exactly one liberty and the stone captures nothing: a self-atari. None
    /// when the move captures, leaves two liberties or more, or none (suicide, which is not a self-atari
    /// but illegal).
    fn self_atari_stones(&self, cell: usize, color: Color) -> Option<usize> {
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

    /// Rule 1: the liberty of the biggest opponent chain in atari at or around `last` (its 3x3
    /// neighbourhood) or next to `last2`, if `color` may play it.
    fn capture_move(
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
    fn escape_move(&self, color: Color, last: usize) -> Option<usize> {
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
    fn rescue(&self, h: usize, lib: usize, color: Color) -> Option<usize> {
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

    /// Rule 3: a random empty point around `last` or `last2` (their 3x3 neighbourhoods) where a pattern
    /// matches for `color`, that is playable and no self-atari at all.
    fn pattern_move(
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

// ----- 3x3 patterns -----

/// Whom a pattern is for: either player (matched with X as the player to move and again with O as the
/// player to move), or only the player whose stones are X, or O.
#[derive(Clone, Copy)]
enum For {
    Either,
    X,
    O,
}

/// The MoGo patterns (Gelly et al. 2006, figures for hane, cut1, cut2 and edge), as 3x3 diagrams read
/// row by row from the top; the move is the centre. Every pattern is matched in all eight rotations and
/// reflections. Symbols: `X`, `O` a stone of that colour; `.` empty; `x` X or empty; `o` O or empty;
/// `?` anything on the board; `#` off the board. Every symbol but `#` needs a point on the board, so the
/// centre patterns match only away from the edge, and the edge patterns only on the first line and not in
/// a corner, as in the paper.
const SHAPES: [(&str, For); 12] = [
    // Hane: reaching around an opponent stone that touches one's own, diagonally.
    ("XOX ... ???", For::Either), // enclosing hane
    ("XO. ... ?.?", For::Either), // non-cutting hane
    ("XO? X.. ?.?", For::Either), // magari: the hane from a bent shape
    ("XOO ... ?.?", For::X),      // thin hane: only good for the player of X
    // Cut1: the cut through two O stones connected only diagonally around an X stone. The paper excludes
    // the points where O has a third neighbour and the fourth is empty (O is strong there): so the right
    // and bottom points hold no O, or one holds O and the other X.
    ("XO? O.x ?x?", For::Either),
    ("XO? O.O ?X?", For::Either),
    // Cut2: pushing between two O stones on opposite sides, with no O below to connect them.
    ("?X? O.O xxx", For::Either),
    // Edge patterns, the first line below the move's row being off the board.
    ("X.? O.? ###", For::Either), // blocking the opponent's crawl under one's own stone
    ("?X? o.O ###", For::Either), // the descent (sagari) next to an opponent stone
    ("?XO ?.? ###", For::X),      // descent under own stone with an opponent stone diagonally
    ("?XO ?.o ###", For::O),      // block under the opponent's stone from own diagonal stone
    ("?XO O.X ###", For::O),      // the atari-cut on the first line
];

/// The pattern code of an empty point, relative to the player to move.
const CODE_EMPTY: u8 = 0;
/// The pattern code of a stone of the player to move.
const CODE_MOVER: u8 = 1;
/// The pattern code of an opponent stone.
const CODE_OPPONENT: u8 = 2;
/// The pattern code of a point off the board.
const CODE_OFF: u8 = 3;

/// The 3x3 pattern table: one bit per key, the 8 neighbours' 2-bit codes (relative to the player to
/// move) in [`AROUND`] order, the first neighbour in the lowest bits.
struct Patterns([u64; 1024]);

impl Patterns {
    #[inline]
    fn matches(&self, key: usize) -> bool {
        (self.0[(key >> 6) & 1023] >> (key & 63)) & 1 != 0
    }
}

/// The pattern table, built at first use.
fn patterns() -> &'static Patterns {
    static TABLE: OnceLock<Patterns> = OnceLock::new();
    TABLE.get_or_init(build_patterns)
}

/// The pattern key of the 8 neighbours of the intersection `cell` for `color` to move. The board's cell
/// values are empty 0, black 1, white 2, off 3: the key for black as it is, for white with 1 and 2 swapped.
#[inline]
fn pattern_key(board: &Board, cell: usize, color: Color) -> usize {
    let mut key = 0usize;
    for (i, off) in AROUND.into_iter().enumerate() {
        key |= (board.cell_value(at(cell, off)) as usize & 3) << (2 * i);
    }
    if color == Color::White {
        // Fields 01 and 10 differ in their two bits: flip both bits of exactly those fields.
        let differ = (key ^ (key >> 1)) & 0x5555;
        key ^= differ | (differ << 1);
    }
    key
}

/// Whether a 3x3 pattern matches around the empty intersection `cell` for `color` to move.
pub(crate) fn pattern_at(board: &Board, cell: usize, color: Color) -> bool {
    cell < CELLS
        && board.cell_value(cell) == EMPTY
        && patterns().matches(pattern_key(board, cell, color))
}

/// The codes a diagram symbol allows, as a bit set over the four codes, with X's and O's codes given.
fn symbol_codes(ch: u8, x: u8, o: u8) -> u8 {
    match ch {
        b'X' => 1 << x,
        b'O' => 1 << o,
        b'.' => 1 << CODE_EMPTY,
        b'x' => 1 << x | 1 << CODE_EMPTY,
        b'o' => 1 << o | 1 << CODE_EMPTY,
        b'#' => 1 << CODE_OFF,
        // '?': anything on the board.
        _ => 1 << CODE_EMPTY | 1 << CODE_MOVER | 1 << CODE_OPPONENT,
    }
}

/// The `t`th of the eight symmetries of the square (`t % 4` quarter turns, then a mirror when `t >= 4`).
fn transform(t: usize, dx: i32, dy: i32) -> (i32, i32) {
    let (mut x, mut y) = (dx, dy);
    for _ in 0..t % 4 {
        (x, y) = (-y, x);
    }
    if t >= 4 {
        x = -x;
    }
    (x, y)
}

/// The index in [`AROUND`] of the neighbour at (dx, dy), dy counted up the board; (0, 0) is not one.
fn around_index(dx: i32, dy: i32) -> usize {
    let i = ((1 - dy) * 3 + dx + 1).clamp(0, 8) as usize;
    if i > 4 {
        i - 1
    } else {
        i
    }
}

fn build_patterns() -> Patterns {
    let mut bits = [0u64; 1024];
    for (diagram, who) in SHAPES {
        let symbols: Vec<u8> = diagram
            .bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        let colourings: &[(u8, u8)] = match who {
            For::Either => &[(CODE_MOVER, CODE_OPPONENT), (CODE_OPPONENT, CODE_MOVER)],
            For::X => &[(CODE_MOVER, CODE_OPPONENT)],
            For::O => &[(CODE_OPPONENT, CODE_MOVER)],
        };
        for &(x, o) in colourings {
            for t in 0..8 {
                let mut allowed = [0u8; 8];
                for (i, &ch) in symbols.iter().enumerate().take(9) {
                    if i == 4 {
                        continue;
                    }
                    let (dx, dy) = transform(t, i as i32 % 3 - 1, 1 - i as i32 / 3);
                    allowed[around_index(dx, dy)] = symbol_codes(ch, x, o);
                }
                let mut keys = vec![0usize];
                for (pos, &set) in allowed.iter().enumerate() {
                    keys = keys
                        .iter()
                        .flat_map(|&k| {
                            (0..4usize)
                                .filter(move |&v| (set >> v) & 1 != 0)
                                .map(move |v| k | v << (2 * pos))
                        })
                        .collect();
                }
                for k in keys {
                    bits[(k >> 6) & 1023] |= 1 << (k & 63);
                }
            }
        }
    }
    Patterns(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::BoardSize;

    fn board(diagram: &str) -> Board {
        let b = Board::from_diagram(diagram).unwrap();
        b.assert_consistent();
        b
    }

    fn cell(s: &str, b: &Board) -> usize {
        Point::from_gtp(s, b.size()).unwrap().cell()
    }

    fn name(c: usize) -> String {
        Point::from_cell(c).to_gtp()
    }

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
    fn cell_values_are_the_pattern_codes() {
        assert_eq!(EMPTY, CODE_EMPTY);
        assert_eq!(OFF, CODE_OFF);
        assert_eq!(stone(Color::Black), CODE_MOVER);
        assert_eq!(stone(Color::White), CODE_OPPONENT);
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

    /// The rows of a diagram as a grid of bytes.
    fn grid(diagram: &str) -> Vec<Vec<u8>> {
        diagram
            .lines()
            .map(|l| {
                l.bytes()
                    .filter(|b| !b.is_ascii_whitespace())
                    .collect::<Vec<u8>>()
            })
            .filter(|r| !r.is_empty())
            .collect()
    }

    /// The eight symmetries of a square diagram with one point marked `*`, each with its colours as they
    /// are and swapped: the boards, and where the mark went.
    fn variants(diagram: &str) -> Vec<(Board, usize)> {
        let mut g = grid(diagram);
        let n = g.len();
        let mut out = Vec::new();
        for mirror in [false, true] {
            for _ in 0..4 {
                for swap in [false, true] {
                    let mut mark = None;
                    let mut text = String::new();
                    for (i, row) in g.iter().enumerate() {
                        for j in 0..n {
                            let c = if mirror { row[n - 1 - j] } else { row[j] };
                            let c = match c {
                                b'*' => {
                                    mark = Point::new(j as u8, (n - 1 - i) as u8);
                                    b'.'
                                }
                                b'X' if swap => b'O',
                                b'O' if swap => b'X',
                                c => c,
                            };
                            text.push(c as char);
                        }
                        text.push('\n');
                    }
                    out.push((board(&text), mark.unwrap().cell()));
                }
                // A quarter turn.
                g = (0..n)
                    .map(|i| (0..n).map(|j| g[n - 1 - j][i]).collect())
                    .collect();
            }
        }
        out
    }

    /// Asserts that a pattern matches at the mark for both players in every variant.
    fn matches_everywhere(diagram: &str) {
        for (b, c) in variants(diagram) {
            for color in Color::ALL {
                assert!(pattern_at(&b, c, color), "{color} at {}:\n{b}", name(c));
            }
        }
    }

    /// Asserts that no pattern matches at the mark, for either player, in any variant.
    fn matches_nowhere(diagram: &str) {
        for (b, c) in variants(diagram) {
            for color in Color::ALL {
                assert!(!pattern_at(&b, c, color), "{color} at {}:\n{b}", name(c));
            }
        }
    }

    #[test]
    fn patterns_match_hane_and_cuts_in_every_rotation_and_colour() {
        // Enclosing hane, non-cutting hane, magari.
        matches_everywhere(". . . . .\n. X O X .\n. . * . .\n. . . . .\n. . . . .");
        matches_everywhere(". . . . .\n. X O . .\n. . * . .\n. . . . .\n. . . . .");
        matches_everywhere(". . . . .\n. X O . .\n. X * . .\n. . . . .\n. . . . .");
        // Cut1 (also with O on the right and X below), and cut2.
        matches_everywhere(". . . . .\n. X O . .\n. O * . .\n. . . . .\n. . . . .");
        matches_everywhere(". . . . .\n. X O . .\n. O * O .\n. . X . .\n. . . . .");
        matches_everywhere(". . . . .\n. . X . .\n. O * O .\n. . . X .\n. . . . .");
        // Edge: a block under one's own stone, and a descent next to the opponent's.
        matches_everywhere(". . . . .\n. . . . .\n. . . . .\n. X . . .\n. O * . .");
        matches_everywhere(". . . . .\n. . . . .\n. . . . .\n. . X . .\n. . * O .");
    }

    #[test]
    fn patterns_do_not_match_what_they_exclude() {
        // Nothing around, a lone stone.
        matches_nowhere(". . . . .\n. . . . .\n. . * . .\n. . . . .\n. . . . .");
        matches_nowhere(". . . . .\n. . . . .\n. . * X .\n. . . . .\n. . . . .");
        // Cut1 where O has three neighbours and the fourth is empty: O is strong there.
        matches_nowhere(". . . . .\n. X O . .\n. O * O .\n. . . . .\n. . . . .");
        // Cut2 with an O stone below that connects.
        matches_nowhere(". . . . .\n. . X . .\n. O * O .\n. . O . .\n. . . . .");
        // An edge shape in the corner.
        matches_nowhere(". . . . .\n. . . . .\n. . . . .\n. X . . .\n* O . . .");
    }

    #[test]
    fn one_sided_patterns_match_for_their_player_only() {
        // Thin hane: X O O above, good for X to play only.
        let b = board(". . . . .\n. X O O .\n. . . . .\n. . . . .\n. . . . .");
        let c3 = cell("C3", &b);
        assert!(pattern_at(&b, c3, Color::Black));
        assert!(!pattern_at(&b, c3, Color::White));
        let b = board(". . . . .\n. O X X .\n. . . . .\n. . . . .\n. . . . .");
        assert!(pattern_at(&b, c3, Color::White));
        assert!(!pattern_at(&b, c3, Color::Black));
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
