//! The search's own board: the map's shape precomputed ([`Geometry`]), pieces as small codes, and a
//! [`Position`] that makes and unmakes moves in place with a Zobrist key.

use super::*;

/// No node.
pub(super) const NONE: u32 = u32::MAX;

/// The 26 directions, in [`moves::all`]'s order.
pub(super) const DIRS: usize = 26;

/// The board's shape, precomputed: each node's neighbour in each of the 26 directions and its Knight
/// jumps, as the rules (`moves`) walk the links.
#[derive(Clone, Debug)]
pub(super) struct Geometry {
    pub(super) links: Vec<[Option<usize>; 6]>,
    pub(super) steps: Vec<u32>,
    pub(super) knight_start: Vec<u32>,
    pub(super) knight: Vec<u32>,
    pub(super) straight: Vec<usize>,
    pub(super) diagonal: Vec<usize>,
    pub(super) all: Vec<usize>,
}

impl Geometry {
    pub(super) fn new(board: &Board) -> Geometry {
        let deltas: Vec<moves::Delta> = moves::all().collect();
        let count = |d: &moves::Delta| d.iter().filter(|&&v| v != 0).count();
        let straight = (0..deltas.len())
            .filter(|&i| count(&deltas[i]) == 1)
            .collect();
        let diagonal = (0..deltas.len())
            .filter(|&i| count(&deltas[i]) >= 2)
            .collect();
        let n = board.len();
        let mut steps = Vec::with_capacity(n * DIRS);
        let mut knight_start = Vec::with_capacity(n + 1);
        let mut knight = Vec::new();
        let index = |i: usize| u32::try_from(i).unwrap_or(NONE);
        for i in 0..n {
            for d in &deltas {
                steps.push(moves::step(board, i, *d).map_or(NONE, index));
            }
            knight_start.push(index(knight.len()));
            let mut found = Vec::new();
            moves::knight(board, i, &mut found);
            let mut jumps: Vec<u32> = found.into_iter().map(index).collect();
            crate::sort::sort(&mut jumps);
            jumps.dedup();
            knight.extend(jumps);
        }
        knight_start.push(index(knight.len()));
        Geometry {
            links: board.nodes().iter().map(|n| n.links).collect(),
            steps,
            knight_start,
            knight,
            straight,
            diagonal,
            all: (0..deltas.len()).collect(),
        }
    }

    /// Whether this geometry is `board`'s (the same nodes and links).
    pub(super) fn fits(&self, board: &Board) -> bool {
        self.links.len() == board.len()
            && self
                .links
                .iter()
                .zip(board.nodes())
                .all(|(l, n)| *l == n.links)
    }

    pub(super) fn len(&self) -> usize {
        self.links.len()
    }

    pub(super) fn step(&self, from: usize, d: usize) -> u32 {
        self.steps.get(from * DIRS + d).copied().unwrap_or(NONE)
    }

    pub(super) fn jumps(&self, from: usize) -> &[u32] {
        let start = self.knight_start.get(from).copied().unwrap_or(0) as usize;
        let end = self.knight_start.get(from + 1).copied().unwrap_or(0) as usize;
        self.knight.get(start..end).unwrap_or_default()
    }

    /// Calls `f(to, what is there)` for every node the piece `code` on `from` may move to.
    #[inline]
    pub(super) fn targets(
        &self,
        squares: &[u8],
        from: usize,
        code: u8,
        mut f: impl FnMut(usize, u8),
    ) {
        let side = side_of(code);
        match kind_of(code) {
            KING | PAWN => {
                for d in 0..DIRS {
                    offer(squares, side, self.step(from, d), &mut f);
                }
            }
            KNIGHT => {
                for &to in self.jumps(from) {
                    offer(squares, side, to, &mut f);
                }
            }
            ROOK => self.slide(squares, side, from, &self.straight, &mut f),
            BISHOP => self.slide(squares, side, from, &self.diagonal, &mut f),
            _ => self.slide(squares, side, from, &self.all, &mut f),
        }
    }

    /// A sliding piece's targets: along each direction while the nodes are empty, and the first
    /// occupied one if it holds an enemy.
    #[inline]
    pub(super) fn slide(
        &self,
        squares: &[u8],
        side: u8,
        from: usize,
        dirs: &[usize],
        f: &mut impl FnMut(usize, u8),
    ) {
        for &d in dirs {
            let mut at = from;
            // A slide never comes back (each step changes the coordinates the same way); the bound is
            // for boards no map can describe.
            for _ in 0..self.len() {
                let next = self.step(at, d);
                if !offer(squares, side, next, f) {
                    break;
                }
                at = next as usize;
            }
        }
    }
}

/// Offers the node `to` to `f` if a piece of `side` may move there; returns whether it is empty (a slide
/// goes on).
#[inline]
pub(super) fn offer(squares: &[u8], side: u8, to: u32, f: &mut impl FnMut(usize, u8)) -> bool {
    if to == NONE {
        return false;
    }
    let to = to as usize;
    match squares.get(to).copied() {
        Some(0) => {
            f(to, 0);
            true
        }
        Some(there) => {
            if side_of(there) != side {
                f(to, there);
            }
            false
        }
        None => false,
    }
}

// Pieces as bytes: 0 empty, then 1 + kind + 6 * side, kinds in `Kind::ALL`'s order.
pub(super) const PAWN: u8 = 0;
pub(super) const ROOK: u8 = 1;
pub(super) const KNIGHT: u8 = 2;
pub(super) const BISHOP: u8 = 3;
pub(super) const KING: u8 = 5;

pub(super) const VALUES: [i32; 6] = [100, 350, 300, 450, 900, 0];

pub(super) fn code(side: Side, kind: Kind) -> u8 {
    let k = Kind::ALL.iter().position(|&x| x == kind).unwrap_or(0) as u8;
    1 + k + if side == Side::White { 0 } else { 6 }
}

pub(super) fn side_of(code: u8) -> u8 {
    u8::from(code > 6)
}

pub(super) fn kind_of(code: u8) -> u8 {
    code.saturating_sub(1) % 6
}

pub(super) fn value_of(code: u8) -> i32 {
    VALUES.get(kind_of(code) as usize).copied().unwrap_or(0)
}

/// The Zobrist key of a piece on a node, computed rather than stored (a map may have 100,000 nodes).
pub(super) fn key(node: usize, code: u8) -> u64 {
    let mut z = (node as u64)
        .wrapping_mul(16)
        .wrapping_add(u64::from(code))
        .wrapping_add(0x51_7CC1_B727_220A)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of Black to move.
pub(super) const BLACK_KEY: u64 = 0xF1E2_D3C4_B5A6_9788;

/// A position as the search changes it: a byte a node, the side to move, the material and the hash.
#[derive(Clone, Debug)]
pub(super) struct Position {
    pub(super) squares: Vec<u8>,
    pub(super) side: u8,
    pub(super) material: [i32; 2],
    pub(super) hash: u64,
}

impl Position {
    pub(super) fn new(board: &Board, to_move: Side) -> Position {
        let mut pos = Position {
            squares: vec![0; board.len()],
            side: u8::from(to_move == Side::Black),
            material: [0; 2],
            hash: if to_move == Side::Black { BLACK_KEY } else { 0 },
        };
        for (i, n) in board.nodes().iter().enumerate() {
            if let (Some(p), Some(sq)) = (n.piece, pos.squares.get_mut(i)) {
                let c = code(p.side, p.kind);
                *sq = c;
                pos.hash ^= key(i, c);
                pos.material[usize::from(side_of(c))] += value_of(c);
            }
        }
        pos
    }

    pub(super) fn square(&self, i: usize) -> u8 {
        self.squares.get(i).copied().unwrap_or(0)
    }

    /// Makes a move; returns what it took (0 for nothing).
    pub(super) fn make(&mut self, m: Mv) -> u8 {
        let (from, to) = (m.from as usize, m.to as usize);
        let piece = self.square(from);
        let taken = self.square(to);
        if let Some(sq) = self.squares.get_mut(to) {
            *sq = piece;
        }
        if let Some(sq) = self.squares.get_mut(from) {
            *sq = 0;
        }
        self.hash ^= key(from, piece) ^ key(to, piece) ^ BLACK_KEY;
        if taken != 0 {
            self.hash ^= key(to, taken);
            self.material[usize::from(side_of(taken))] -= value_of(taken);
        }
        self.side ^= 1;
        taken
    }

    /// Passes the move to the other side (the null move of the search; not a move of the game).
    pub(super) fn pass(&mut self) {
        self.side ^= 1;
        self.hash ^= BLACK_KEY;
    }

    pub(super) fn unmake(&mut self, m: Mv, taken: u8) {
        let (from, to) = (m.from as usize, m.to as usize);
        let piece = self.square(to);
        if let Some(sq) = self.squares.get_mut(from) {
            *sq = piece;
        }
        if let Some(sq) = self.squares.get_mut(to) {
            *sq = taken;
        }
        self.hash ^= key(from, piece) ^ key(to, piece) ^ BLACK_KEY;
        if taken != 0 {
            self.hash ^= key(to, taken);
            self.material[usize::from(side_of(taken))] += value_of(taken);
        }
        self.side ^= 1;
    }
}

/// A move between node indices, with its place in the search order.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mv {
    pub(super) from: u32,
    pub(super) to: u32,
    pub(super) order: i32,
}

impl PartialEq for Mv {
    fn eq(&self, other: &Mv) -> bool {
        self.from == other.from && self.to == other.to
    }
}

impl Eq for Mv {}
