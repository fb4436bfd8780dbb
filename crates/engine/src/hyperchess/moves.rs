//! How pieces move on the graph (docs/hyperchess.md). Every step follows the links, so a piece can never
//! leave the board or pass through a location that does not exist:
//! - a straight step is one link;
//! - a diagonal step (2 or 3 coordinates change by 1) is one link per changed axis, in some order, through
//!   nodes that exist; pieces on those in-between nodes do not block it, since the step passes between them
//!   rather than through them;
//! - sliding pieces (Rook, Bishop, Queen) repeat a step while the node reached is empty, and may end on the
//!   first occupied one if it holds an enemy;
//! - the Knight goes 2 along one axis and 1 along another (either leg first), over any pieces, but only
//!   through nodes that exist;
//! - King and Pawn take one step in any of the 26 directions.

use super::board::Board;
use super::coord::Dir;
use super::piece::{Kind, Piece};

/// A direction of travel: each component -1, 0 or 1, not all 0.
pub type Delta = [i32; 3];

/// The 6 straight directions.
pub fn straight() -> impl Iterator<Item = Delta> {
    all().filter(|d| nonzero(d) == 1)
}

/// The 20 diagonal directions: 12 in a plane, 8 through corners.
pub fn diagonal() -> impl Iterator<Item = Delta> {
    all().filter(|d| nonzero(d) >= 2)
}

/// All 26 directions.
pub fn all() -> impl Iterator<Item = Delta> {
    (0..27)
        .map(|i| [i % 3 - 1, i / 3 % 3 - 1, i / 9 - 1])
        .filter(|d| nonzero(d) > 0)
}

fn nonzero(d: &Delta) -> usize {
    d.iter().filter(|&&v| v != 0).count()
}

/// The node one step along `d` from node `from`, if the links lead there in some order of the axes.
pub fn step(board: &Board, from: usize, d: Delta) -> Option<usize> {
    let dirs: Vec<Dir> = (0..3)
        .filter_map(|axis| Dir::along(axis, d[axis]))
        .collect();
    // Every order of the changed axes: at most 3! = 6 walks of at most 3 links.
    let orders: &[&[usize]] = match dirs.len() {
        1 => &[&[0]],
        2 => &[&[0, 1], &[1, 0]],
        3 => &[
            &[0, 1, 2],
            &[0, 2, 1],
            &[1, 0, 2],
            &[1, 2, 0],
            &[2, 0, 1],
            &[2, 1, 0],
        ],
        _ => &[],
    };
    orders.iter().find_map(|order| {
        order
            .iter()
            .try_fold(from, |at, &k| board.neighbour(at, dirs[k]))
    })
}

/// The Knight's jumps from `from`: 2 links along one axis and 1 along another, either leg first. The AI
/// builds its tables from this.
pub fn knight(board: &Board, from: usize, out: &mut Vec<usize>) {
    for long in Dir::ALL {
        for short in Dir::ALL {
            if long.delta_axis() == short.delta_axis() {
                continue;
            }
            let two_then_one = board
                .neighbour(from, long)
                .and_then(|a| board.neighbour(a, long))
                .and_then(|a| board.neighbour(a, short));
            let one_then_two = || {
                board
                    .neighbour(from, short)
                    .and_then(|a| board.neighbour(a, long))
                    .and_then(|a| board.neighbour(a, long))
            };
            if let Some(to) = two_then_one.or_else(one_then_two) {
                out.push(to);
            }
        }
    }
}

/// The nodes `piece`, standing on node `from`, may move to: empty nodes and nodes with an enemy piece.
pub fn targets(board: &Board, from: usize, piece: Piece) -> Vec<usize> {
    let mut out = Vec::new();
    let free = |to: usize| match board.node(to).and_then(|n| n.piece) {
        None => true,
        Some(p) => p.side != piece.side,
    };
    let slide = |dirs: &mut dyn Iterator<Item = Delta>, out: &mut Vec<usize>| {
        for d in dirs {
            let mut at = from;
            // A slide can never come back (every step changes the coordinates the same way); the bound
            // is for boards no map can describe.
            for _ in 0..board.len() {
                let Some(next) = step(board, at, d) else {
                    break;
                };
                match board.node(next).and_then(|n| n.piece) {
                    None => out.push(next),
                    Some(p) => {
                        if p.side != piece.side {
                            out.push(next);
                        }
                        break;
                    }
                }
                at = next;
            }
        }
    };
    match piece.kind {
        Kind::King | Kind::Pawn => out.extend(
            all()
                .filter_map(|d| step(board, from, d))
                .filter(|&to| free(to)),
        ),
        Kind::Rook => slide(&mut straight(), &mut out),
        Kind::Bishop => slide(&mut diagonal(), &mut out),
        Kind::Queen => slide(&mut all(), &mut out),
        Kind::Knight => {
            knight(board, from, &mut out);
            out.retain(|&to| free(to));
        }
    }
    crate::sort::sort(&mut out);
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_6_straight_20_diagonal_26_directions() {
        assert_eq!(straight().count(), 6);
        assert_eq!(diagonal().count(), 20);
        assert_eq!(all().count(), 26);
        assert_eq!(diagonal().filter(|d| nonzero(d) == 3).count(), 8);
    }
}
