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
//!    "Modification of UCT with patterns in Monte-Carlo Go" (INRIA RR-6062, 2006), see `SHAPES` in `patterns.rs`;
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
//!
//! The code is split by idea: `playout.rs` holds the policy's order of rules and the playout it drives;
//! `replies.rs` the rules that answer the last moves (capture, atari escape, 3x3 pattern); `patterns.rs`
//! the pattern table; `tactics.rs` and `ladder.rs` the reading that rules and priors share (self-atari and
//! nakade, ladders); `priors.rs` the priors of the search tree. This file holds the geometry they share.
//!
//! [`Board::policy_move`]: super::Board::policy_move
//! [`Board::random_move`]: super::Board::random_move
//! [`Board::is_eye`]: super::Board::is_eye
//! [`SplitMix64`]: crate::SplitMix64
//! [`OnceLock`]: std::sync::OnceLock

mod ladder;
mod patterns;
mod playout;
mod priors;
mod replies;
mod tactics;

pub(crate) use priors::{prior, Prior};

use super::point::STRIDE;

const S: isize = STRIDE as isize;

/// The eight cells around a point, in the order of the pattern key: the 3x3 diagram's reading order
/// without its centre, top row first, where the top row is one row up the board (`+STRIDE`).
const AROUND: [isize; 8] = [S - 1, S, S + 1, -1, 1, -S - 1, -S, -S + 1];

/// The cell at offset `off` from `cell`; for an intersection and an offset of [`AROUND`] it is in the grid.
#[inline]
fn at(cell: usize, off: isize) -> usize {
    cell.wrapping_add_signed(off)
}

/// Helpers the tests of every file here share: boards from diagrams, points by name.
#[cfg(test)]
mod test_boards {
    use crate::go::{Board, Point};

    pub(super) fn board(diagram: &str) -> Board {
        let b = Board::from_diagram(diagram).unwrap();
        b.assert_consistent();
        b
    }

    pub(super) fn cell(s: &str, b: &Board) -> usize {
        Point::from_gtp(s, b.size()).unwrap().cell()
    }

    pub(super) fn name(c: usize) -> String {
        Point::from_cell(c).to_gtp()
    }
}
