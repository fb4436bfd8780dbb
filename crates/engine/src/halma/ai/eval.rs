//! The search's judgement of a position: which team is nearer to filling its destinations.
//!
//! A team wins once every destination square not held by the enemy holds one of its pieces, so what
//! counts is the distance its best pieces still have to cover to fill those squares, and nothing else: the
//! pieces beyond that number (the arena's twelve pieces fill nine squares) are left out, or the search
//! would waste moves bringing up pieces the win does not need.

use super::field::Field;
use crate::halma::{Position, Team, Teams};

/// A won position; a win found nearer the root scores higher (see [`terminal`]).
pub(crate) const WIN: i32 = 1_000_000;

/// Extra weight on the farthest piece the win needs. Sums alone let one piece fall behind while the others
/// race, and a piece left alone at the back has nothing to jump over and finishes last by single steps.
const STRAGGLER: i32 = 1;

/// Evaluates positions with both teams' distance fields, computed once per search.
pub(crate) struct Evaluator {
    fields: Teams<Field>,
    scratch: Vec<i16>,
}

impl Evaluator {
    pub(crate) fn new(position: &Position) -> Evaluator {
        Evaluator {
            fields: Teams::from_fn(|t| Field::new(position, t)),
            scratch: Vec::new(),
        }
    }

    pub(crate) fn field(&self, team: Team) -> &Field {
        &self.fields[team]
    }

    /// The score for `side`: positive when `side` has less distance left to cover than its opponent.
    pub(crate) fn score(&mut self, position: &Position, side: Team) -> i32 {
        self.remaining(position, side.other()) - self.remaining(position, side)
    }

    /// The distance `team` still has to cover: the sum of its best pieces' field values, as many pieces as
    /// there are destination squares the enemy does not hold, plus the farthest of them once more.
    pub(crate) fn remaining(&mut self, position: &Position, team: Team) -> i32 {
        let enemy = team.other().bit();
        let needed = position
            .destinations(team)
            .iter()
            .filter(|s| position.cells[s.cell()] & enemy == 0)
            .count();
        let field = &self.fields[team];
        self.scratch.clear();
        self.scratch.extend(
            position
                .pieces(team)
                .iter()
                .map(|p| field.at(p.square.cell())),
        );
        let k = needed.min(self.scratch.len());
        if k == 0 {
            return 0;
        }
        // Only which values are the k smallest matters, not their order: linear, not a sort, since a
        // hand-made board may have hundreds of pieces.
        self.scratch.select_nth_unstable(k - 1);
        let best = &self.scratch[..k];
        let sum: i32 = best.iter().map(|&v| i32::from(v)).sum();
        let last = best.iter().max().map_or(0, |&v| i32::from(v).max(0));
        sum + STRAGGLER * last
    }
}

/// The score of a finished position for `side`, `ply` moves below the root: a nearer win is worth more
/// and a nearer loss costs more, so the search takes the quickest win and delays a loss. `None` when
/// neither team has won.
pub(crate) fn terminal(position: &Position, side: Team, ply: usize) -> Option<i32> {
    let ply = i32::try_from(ply).unwrap_or(i32::MAX).min(WIN / 2);
    match (position.has_won(side), position.has_won(side.other())) {
        (true, true) => Some(0),
        (true, false) => Some(WIN - ply),
        (false, true) => Some(ply - WIN),
        (false, false) => None,
    }
}
