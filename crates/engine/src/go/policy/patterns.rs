//! The 3x3 patterns: the MoGo shapes as diagrams, the table built from them at first use, and the key
//! of a point's neighbourhood that is looked up in it.
//!
//! Apart because it is a small machine of its own (diagrams, symmetries, a bit table) that both the
//! pattern rule and the priors only ask one question: does a pattern match here?

use super::{at, AROUND};
use crate::go::board::{Board, EMPTY};
use crate::go::point::CELLS;
use crate::go::Color;
use std::sync::OnceLock;

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
pub(super) struct Patterns([u64; 1024]);

impl Patterns {
    #[inline]
    pub(super) fn matches(&self, key: usize) -> bool {
        (self.0[(key >> 6) & 1023] >> (key & 63)) & 1 != 0
    }
}

/// The pattern table, built at first use.
pub(super) fn patterns() -> &'static Patterns {
    static TABLE: OnceLock<Patterns> = OnceLock::new();
    TABLE.get_or_init(build_patterns)
}

/// The pattern key of the 8 neighbours of the intersection `cell` for `color` to move. The board's cell
/// values are empty 0, black 1, white 2, off 3: the key for black as it is, for white with 1 and 2 swapped.
#[inline]
pub(super) fn pattern_key(board: &Board, cell: usize, color: Color) -> usize {
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
    use crate::go::board::{stone, OFF};
    use crate::go::policy::test_boards::{board, cell, name};
    use crate::go::Point;

    #[test]
    fn cell_values_are_the_pattern_codes() {
        assert_eq!(EMPTY, CODE_EMPTY);
        assert_eq!(OFF, CODE_OFF);
        assert_eq!(stone(Color::Black), CODE_MOVER);
        assert_eq!(stone(Color::White), CODE_OPPONENT);
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
}
