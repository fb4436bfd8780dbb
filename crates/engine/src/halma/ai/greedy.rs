//! The "greedy" AI: what the course's sample AIs did, made to always find a legal move.
//!
//! The samples took a piece that was not home yet and moved it toward a free destination square, turning a
//! blocked step into a jump. This one looks at every piece at once and takes the move that gains the most
//! (so a long jump chain beats a step), with the seed choosing among equals. The tiers below it exist
//! because the plain rule gets stuck: when the last free destination squares lie behind pieces already
//! home, nothing outside can gain, and a player that only knows "forward" would shuffle sideways until
//! the turn limit.

use super::field::Field;
use crate::halma::{Move, Position, Square, Team};
use crate::SplitMix64;

/// What kind of move it is, best first, and how good within its kind (higher is better).
type Rank = (Tier, i32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// A piece not yet home moves nearer a free destination square.
    Forward,
    /// A piece already home moves deeper into the destinations, opening the squares nearer the entrance.
    Deeper,
    /// A piece not yet home moves without losing ground, to find a way around a block.
    Sideways,
    /// Anything else that is legal: a team must always be able to move.
    Other,
}

/// Greedy's move for `team`, or `None` if it has no legal move.
pub(crate) fn greedy_move(position: &Position, team: Team, seed: u64) -> Option<Move> {
    let mut moves = position.moves(team);
    // The generator's order is an implementation detail; the seed's choice must not depend on it.
    crate::sort::sort(&mut moves);
    let dests = position.destinations(team);
    let free: Vec<Square> = dests
        .iter()
        .copied()
        .filter(|&s| position.is_empty(s))
        .collect();
    // With no free square left the team cannot improve by arriving; any destination will do as a target.
    let targets = if free.is_empty() { dests } else { &free };
    let dist = |s: Square| {
        targets
            .iter()
            .map(|&t| i32::from(s.chebyshev(t)))
            .min()
            .unwrap_or(0)
    };
    let home = |s: Square| position.is_destination(team, s);
    // Pieces on their way first: when one of them can gain, nothing in the home tiers can beat it, and the
    // depth table below (most of this function's cost) is not needed at all.
    let last_from = std::cell::Cell::new(None::<(Square, i32)>);
    let mut ranked: Vec<(Rank, Move)> = moves
        .iter()
        .filter(|m| !home(m.from))
        .map(|&m| {
            // Moves come sorted by origin: a piece's distance is worked out once for all its moves.
            let from = match last_from.get() {
                Some((sq, d)) if sq == m.from => d,
                _ => {
                    let d = dist(m.from);
                    last_from.set(Some((m.from, d)));
                    d
                }
            };
            let rank = match from - dist(m.to) {
                gain if gain > 0 => (Tier::Forward, gain),
                0 => (Tier::Sideways, 0),
                _ => (Tier::Other, 0),
            };
            (rank, m)
        })
        .collect();
    if !ranked.iter().any(|&((tier, _), _)| tier == Tier::Forward) {
        let depth = Field::new(position, team);
        ranked.extend(moves.iter().filter(|m| home(m.from)).map(|&m| {
            let deeper = i32::from(depth.at(m.from.cell())) - i32::from(depth.at(m.to.cell()));
            let rank = if home(m.to) && deeper > 0 {
                (Tier::Deeper, deeper)
            } else {
                (Tier::Other, 0)
            };
            (rank, m)
        }));
        // Back in the sorted order of all moves, so the seed picks among equals exactly as before.
        crate::sort::sort_by_key(&mut ranked, |&(_, m)| m);
    }
    let best = ranked
        .iter()
        .map(|&(rank, _)| rank)
        .min_by_key(|&(tier, key)| (tier, -key))?;
    let choices: Vec<Move> = ranked
        .into_iter()
        .filter(|&(rank, _)| rank == best)
        .map(|(_, m)| m)
        .collect();
    let pick = SplitMix64::new(seed).below(choices.len() as u64) as usize;
    choices.get(pick).copied()
}
