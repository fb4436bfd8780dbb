//! The arena's simultaneous ticks: both teams move at once, and two pieces that end on the same square
//! collide and may not jump for the next five moves. A move onto a square the opponent could also reach
//! this tick is a gamble the search prices in.

use super::field::Field;
use crate::halma::square::CELLS;
use crate::halma::{Move, Position, Team};

/// What a collision is judged to cost, in field units (a straight step is 2): five jump-less turns for a
/// piece that is still travelling lose several jumps' worth of progress.
pub(crate) const COLLISION_PENALTY: i32 = 12;

/// The squares the opponent may land on this tick, as far as `team` can tell.
pub(crate) struct Risk {
    /// Per cell: whether some forward move of the opponent ends there.
    cells: Vec<bool>,
}

impl Risk {
    /// No risk at all: alternating turns, where the opponent answers after seeing the move.
    pub(crate) fn none() -> Risk {
        Risk { cells: Vec::new() }
    }

    /// Marks the final squares of the opponent's moves that bring its piece nearer its destinations.
    ///
    /// Only forward moves count: an opponent heading home has no reason to step back, and treating every
    /// square it could reach as dangerous would forbid most of the crowded middle of the board.
    pub(crate) fn new(position: &Position, team: Team, opponent_field: &Field) -> Risk {
        let mut cells = vec![false; CELLS];
        let mut moves = Vec::new();
        position.legal_moves(team.other(), &mut moves);
        for m in moves {
            if opponent_field.at(m.to.cell()) < opponent_field.at(m.from.cell()) {
                if let Some(c) = cells.get_mut(m.to.cell()) {
                    *c = true;
                }
            }
        }
        Risk { cells }
    }

    /// The price of playing `mv` this tick.
    pub(crate) fn penalty(&self, mv: Move) -> i32 {
        if self.cells.get(mv.to.cell()).copied().unwrap_or(false) {
            COLLISION_PENALTY
        } else {
            0
        }
    }
}
