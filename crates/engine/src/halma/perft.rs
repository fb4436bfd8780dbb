//! Perft: counting the leaf positions of the move tree, to check move generation against published figures.

use super::{Position, Team};

/// The number of move sequences of length `depth` from `position`, sides alternating and `team` first.
///
/// Perft counts the move generator's tree, not games: it does not stop where a team has won (the
/// anti-spoiling rule can fire within four plies on the mini board, and the published figures count
/// through it), and damage does not change.
pub fn perft(position: &mut Position, team: Team, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return position.count_moves(team) as u64;
    }
    let mut total = 0;
    for mv in position.moves(team) {
        position.play_unchecked(team, mv);
        total += perft(position, team.other(), depth - 1);
        position.play_unchecked(
            team,
            super::Move {
                from: mv.to,
                to: mv.from,
            },
        );
    }
    total
}
