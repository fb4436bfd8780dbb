//! The built-in HyperChess AI: iterative deepening alpha-beta (negamax with principal variation search)
//! on a material and mobility evaluation, with a capture search at the horizon.
//!
//! **Budgets.** The engine has no clock (it runs in the browser's wasm too). A search runs for as long as
//! its caller's `keep_going` says, asked with the search's [`Progress`] before each depth and every
//! [`CHECK_EVERY`] nodes: a node budget (`|p| p.nodes < 20_000`) replays exactly for a seed, so a test
//! cannot flake; a time budget (`|_| start.elapsed() < limit`, the terminal game) plays as deep as the
//! machine allows.
//!
//! **Iterative deepening.** Depth 1, 2, 3, ... up to [`MAX_DEPTH`]; each completed depth's best move is
//! kept and searched first at the next depth. **Decision (an interrupted depth):** its moves are searched
//! in order, the previous depth's best first, and a move that beat it by a complete search at the deeper
//! depth is played instead (it is better by the deeper search); otherwise the previous depth's move is
//! played. Interrupted before any depth completes, the AI plays the move its ordering puts first (the most
//! valuable capture, else the seed's pick). The search also stops once it has found a forced King capture
//! for either side (deeper searches cannot change a forced result), or when there is only one legal move.
//!
//! **Evaluation**, from the view of the side to move, in hundredths of a pawn: material
//! ([`value`]: Pawn 100, Knight 300, Rook 350, Bishop 450, Queen 900; a King has no material value, as
//! taking it ends the game) plus [`MOBILITY`] (3) for each legal move the side has, minus the same for the
//! other side. The values are a judgement, not tuned: they follow the pieces' reach from the middle of an
//! open 5x5x5 board (Queen 52 nodes, Bishop 40, which also moves through corners, Knight 24, Rook 12 but
//! along long lines, Pawn 26 single steps), and mobility adds what the position makes of them. A 3 per
//! move weight keeps a whole Queen's mobility (52 moves) under two Pawns. Taking a King is a win, scored as
//! [`WIN`] less the number of moves before it, so the AI takes a King at once when it can, wins by the
//! shortest way and loses by the longest. A side with no legal move is a draw (0), as the rules say.
//!
//! **Move ordering:** the transposition table's move, then captures by MVV-LVA (the most valuable victim,
//! then the least valuable attacker), two killer moves per ply, then the history heuristic. At the root the
//! previous depth's best move comes first.
//!
//! **Pruning**, beyond alpha-beta: a null move (R = 2, from depth 3, for a side with at least 300 of
//! material), late move reductions (quiet moves after the first four searched a ply shallower,
//! again in full if they beat alpha), and futility pruning one ply from the horizon (a position more than
//! 2.5 pawns below alpha searches captures only). There is no check in HyperChess, so a null move
//! is never illegal; a King left en prise is found by the search, not by a rule.
//!
//! **Determinism.** Before ordering, the root moves are shuffled by a [`SplitMix64`] seeded with the seed
//! and the position, so equal moves are chosen between by the seed: different seeds vary the play, and the
//! same position, seed and answers from `keep_going` give the same move. The transposition table
//! ([`TABLE_ENTRIES`] entries, about 1.5 MB) is cleared at the start of each search, so a reused
//! [`Searcher`] chooses exactly as a fresh one.
//!
//! **Legality.** The root moves are the game's own [`Game::legal_moves`], so the move returned is always
//! legal; the search's own move generator follows the same links and is tested against it on every
//! shipped map. Nothing here panics: the search works on indices it built itself.

use super::board::Board;
use super::coord::Coord;
use super::game::Game;
use super::moves;
use super::piece::{Kind, Side};
use crate::SplitMix64;
use std::fmt;

/// The deepest iteration: a search that gets there stops whatever its budget.
pub const MAX_DEPTH: u32 = 32;

/// How often, in nodes, the search asks `keep_going` (it also asks before each depth).
pub const CHECK_EVERY: u64 = 64;

/// A won game's score: taking a King `n` moves from now scores `WIN - n`.
pub const WIN: i32 = 1_000_000;

/// Scores beyond this are forced King captures.
const WIN_BOUND: i32 = WIN - 1_000;

/// Beyond any score.
const INFINITY: i32 = WIN + 1;

/// The weight of one legal move in the evaluation, in hundredths of a pawn.
pub const MOBILITY: i32 = 3;

/// Transposition table entries (24 bytes each).
pub const TABLE_ENTRIES: usize = 1 << 16;

/// The most captures searched past the horizon.
const MAX_CAPTURE_DEPTH: u32 = 12;

/// The null move's reduction, in plies, and the least material a side needs for it (with less, passing
/// is too often the better move for the null move to be sound).
const NULL_REDUCTION: u32 = 2;
const NULL_MATERIAL: i32 = 300;

/// How much a quiet move can gain at most, one ply from the horizon.
const FUTILITY: i32 = 250;

/// From this move on (in the search order), quiet moves are searched one ply shallower first.
const LATE_MOVE: usize = 4;

/// Plies a search can reach: the deepest iteration and the capture search after it.
const MAX_PLY: usize = (MAX_DEPTH + MAX_CAPTURE_DEPTH) as usize + 2;

/// The material value of a piece, in hundredths of a pawn; 0 for the King, whose capture ends the game.
pub fn value(kind: Kind) -> i32 {
    match kind {
        Kind::Pawn => 100,
        Kind::Knight => 300,
        Kind::Rook => 350,
        Kind::Bishop => 450,
        Kind::Queen => 900,
        Kind::King => 0,
    }
}

/// Where a search stands, for `keep_going`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth being searched (or about to start, when asked before a depth).
    pub depth: u32,
    /// The deepest depth searched completely so far (0 for none).
    pub completed: u32,
    /// Nodes searched so far.
    pub nodes: u64,
}

/// The AI's move and what its search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub from: Coord,
    pub to: Coord,
    /// The deepest depth searched completely (0: a King capture taken without a search, or the budget ran
    /// out before depth 1 finished).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The move's score for the side that plays it, in hundredths of a pawn; near ±[`WIN`] a forced King
    /// capture (see [`Choice::king_in`]).
    pub score: i32,
}

impl Choice {
    /// A forced end: `Some(n)` when the AI takes a King with the `n`-th move from now (counting both
    /// sides' moves, this one first), `Some(-n)` when it loses its King with the `n`-th; `None` otherwise.
    pub fn king_in(&self) -> Option<i32> {
        if self.score > WIN_BOUND {
            Some(WIN - self.score + 1)
        } else if self.score < -WIN_BOUND {
            Some(-(WIN + self.score + 1))
        } else {
            None
        }
    }
}

/// "depth 4, 12345 nodes, score +0.35", or for a forced end "... takes a King in 3 moves" (both sides'
/// moves counted, this one first) or "... loses its King in 2 moves".
impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}, {} nodes, ", self.depth, self.nodes)?;
        match self.king_in() {
            Some(1) => write!(f, "takes a King now"),
            Some(n) if n > 0 => write!(f, "takes a King in {n} moves"),
            Some(n) => write!(f, "loses its King in {} moves", -n),
            None => {
                let sign = if self.score < 0 { '-' } else { '+' };
                let a = self.score.unsigned_abs();
                write!(f, "score {sign}{}.{:02}", a / 100, a % 100)
            }
        }
    }
}

/// The move for the side to move in `game`, searched while `keep_going` says so (see the module
/// documentation); `None` only when the game is over or the side to move has no legal move.
///
/// ```
/// use gridarena_engine::hyperchess::{ai, maps, parse_map, Game};
///
/// let game = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
/// let choice = ai::choose(&game, 7, |p| p.nodes < 2_000).unwrap();
/// assert!(game.check(choice.from, choice.to).is_ok());
/// // The same seed and budget give the same move.
/// assert_eq!(ai::choose(&game, 7, |p| p.nodes < 2_000), Some(choice));
/// ```
pub fn choose(game: &Game, seed: u64, keep_going: impl FnMut(&Progress) -> bool) -> Option<Choice> {
    Searcher::new(seed).think(game, keep_going)
}

/// A search that keeps its buffers (and the board's geometry) between moves; it chooses exactly as a
/// fresh one would.
#[derive(Clone, Debug)]
pub struct Searcher {
    seed: u64,
    geometry: Option<Geometry>,
    table: Vec<Entry>,
    killers: Vec<[Option<Mv>; 2]>,
    history: Vec<i32>,
    buffers: Vec<Vec<Mv>>,
}

impl Searcher {
    pub fn new(seed: u64) -> Searcher {
        Searcher {
            seed,
            geometry: None,
            table: Vec::new(),
            killers: Vec::new(),
            history: Vec::new(),
            buffers: Vec::new(),
        }
    }

    /// The move for the side to move, as [`choose`].
    pub fn think(
        &mut self,
        game: &Game,
        mut keep_going: impl FnMut(&Progress) -> bool,
    ) -> Option<Choice> {
        if game.outcome().is_some() {
            return None;
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let board = game.board();
        if !self.geometry.as_ref().is_some_and(|g| g.fits(board)) {
            self.geometry = Some(Geometry::new(board));
        }
        let geometry = self.geometry.take()?;
        let choice = self.search(&geometry, game, &legal, &mut keep_going);
        self.geometry = Some(geometry);
        debug_assert!(
            choice.is_none_or(|c| game.check(c.from, c.to).is_ok()),
            "the AI chose an illegal move: {choice:?}"
        );
        choice
    }

    fn search(
        &mut self,
        geometry: &Geometry,
        game: &Game,
        legal: &[(Coord, Coord)],
        keep_going: &mut dyn FnMut(&Progress) -> bool,
    ) -> Option<Choice> {
        let board = game.board();
        let pos = Position::new(board, game.to_move());
        // The root moves: the game's own legal moves, shuffled by the seed, then ordered.
        let mut root: Vec<Mv> = legal
            .iter()
            .filter_map(|&(from, to)| {
                let (f, t) = (board.index_of(from)?, board.index_of(to)?);
                Some(Mv {
                    from: u32::try_from(f).ok()?,
                    to: u32::try_from(t).ok()?,
                    order: 0,
                })
            })
            .collect();
        let coords = |m: Mv| -> Option<(Coord, Coord)> {
            let from = board.node(m.from as usize)?.coord;
            let to = board.node(m.to as usize)?.coord;
            Some((from, to))
        };
        let mut rng = SplitMix64::new(self.seed ^ pos.hash);
        for i in (1..root.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            root.swap(i, j);
        }
        for m in &mut root {
            m.order = capture_order(&pos, *m);
        }
        crate::sort::sort_by_key(&mut root, |m| -m.order);
        let first = *root.first()?;
        let choice = |m: Mv, depth: u32, nodes: u64, score: i32| {
            let (from, to) = coords(m)?;
            Some(Choice {
                from,
                to,
                depth,
                nodes,
                score,
            })
        };
        // Taking a King wins at once: no search needed.
        if pos.square(first.to as usize) != 0 && kind_of(pos.square(first.to as usize)) == KING {
            return choice(first, 0, 0, WIN);
        }
        let mut search = Search::new(self, geometry, pos, keep_going);
        let mut best = first;
        let mut best_score = 0;
        let mut completed = 0;
        for depth in 1..=MAX_DEPTH {
            let progress = Progress {
                depth,
                completed,
                nodes: search.nodes,
            };
            if !(search.keep_going)(&progress) {
                break;
            }
            search.depth = depth;
            let (found, done) = search.root(&mut root, depth);
            if let Some((m, score)) = found {
                if done || m != best {
                    best = m;
                    best_score = score;
                }
            }
            if !done {
                break;
            }
            completed = depth;
            // The best move first at the next depth; the others keep their order.
            if let Some(i) = root.iter().position(|&m| m == best) {
                root[..=i].rotate_right(1);
            }
            if root.len() == 1 || best_score.abs() > WIN_BOUND {
                break;
            }
        }
        let nodes = search.nodes;
        search.finish(self);
        choice(best, completed, nodes, best_score)
    }
}

/// No node.
const NONE: u32 = u32::MAX;

/// The 26 directions, in [`moves::all`]'s order.
const DIRS: usize = 26;

/// The board's shape, precomputed: each node's neighbour in each of the 26 directions and its Knight
/// jumps, as the rules (`moves`) walk the links.
#[derive(Clone, Debug)]
struct Geometry {
    links: Vec<[Option<usize>; 6]>,
    steps: Vec<u32>,
    knight_start: Vec<u32>,
    knight: Vec<u32>,
    straight: Vec<usize>,
    diagonal: Vec<usize>,
    all: Vec<usize>,
}

impl Geometry {
    fn new(board: &Board) -> Geometry {
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
    fn fits(&self, board: &Board) -> bool {
        self.links.len() == board.len()
            && self
                .links
                .iter()
                .zip(board.nodes())
                .all(|(l, n)| *l == n.links)
    }

    fn len(&self) -> usize {
        self.links.len()
    }

    fn step(&self, from: usize, d: usize) -> u32 {
        self.steps.get(from * DIRS + d).copied().unwrap_or(NONE)
    }

    fn jumps(&self, from: usize) -> &[u32] {
        let start = self.knight_start.get(from).copied().unwrap_or(0) as usize;
        let end = self.knight_start.get(from + 1).copied().unwrap_or(0) as usize;
        self.knight.get(start..end).unwrap_or_default()
    }

    /// Calls `f(to, what is there)` for every node the piece `code` on `from` may move to.
    #[inline]
    fn targets(&self, squares: &[u8], from: usize, code: u8, mut f: impl FnMut(usize, u8)) {
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
    fn slide(
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
fn offer(squares: &[u8], side: u8, to: u32, f: &mut impl FnMut(usize, u8)) -> bool {
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
const PAWN: u8 = 0;
const ROOK: u8 = 1;
const KNIGHT: u8 = 2;
const BISHOP: u8 = 3;
const KING: u8 = 5;

const VALUES: [i32; 6] = [100, 350, 300, 450, 900, 0];

fn code(side: Side, kind: Kind) -> u8 {
    let k = Kind::ALL.iter().position(|&x| x == kind).unwrap_or(0) as u8;
    1 + k + if side == Side::White { 0 } else { 6 }
}

fn side_of(code: u8) -> u8 {
    u8::from(code > 6)
}

fn kind_of(code: u8) -> u8 {
    code.saturating_sub(1) % 6
}

fn value_of(code: u8) -> i32 {
    VALUES.get(kind_of(code) as usize).copied().unwrap_or(0)
}

/// The Zobrist key of a piece on a node, computed rather than stored (a map may have 100,000 nodes).
fn key(node: usize, code: u8) -> u64 {
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
const BLACK_KEY: u64 = 0xF1E2_D3C4_B5A6_9788;

/// A position as the search changes it: a byte a node, the side to move, the material and the hash.
#[derive(Clone, Debug)]
struct Position {
    squares: Vec<u8>,
    side: u8,
    material: [i32; 2],
    hash: u64,
}

impl Position {
    fn new(board: &Board, to_move: Side) -> Position {
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

    fn square(&self, i: usize) -> u8 {
        self.squares.get(i).copied().unwrap_or(0)
    }

    /// Makes a move; returns what it took (0 for nothing).
    fn make(&mut self, m: Mv) -> u8 {
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
    fn pass(&mut self) {
        self.side ^= 1;
        self.hash ^= BLACK_KEY;
    }

    fn unmake(&mut self, m: Mv, taken: u8) {
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
struct Mv {
    from: u32,
    to: u32,
    order: i32,
}

impl PartialEq for Mv {
    fn eq(&self, other: &Mv) -> bool {
        self.from == other.from && self.to == other.to
    }
}

impl Eq for Mv {}

const ORDER_TABLE: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: i32 = 1 << 22;

/// MVV-LVA: captures first, the most valuable victim first, then the least valuable attacker; 0 for a
/// quiet move.
fn capture_order(pos: &Position, m: Mv) -> i32 {
    let taken = pos.square(m.to as usize);
    if taken == 0 {
        return 0;
    }
    let victim = if kind_of(taken) == KING {
        10_000
    } else {
        value_of(taken)
    };
    let attacker = i32::from(kind_of(pos.square(m.from as usize)));
    ORDER_CAPTURE + victim * 8 - attacker
}

/// Moves one's selection: swaps the highest-ordered move from `i` on into `i`.
fn pick(moves: &mut [Mv], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if moves[j].order > moves[best].order {
            best = j;
        }
    }
    moves.swap(i, best);
}

/// What a transposition-table score says.
const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    from: u32,
    to: u32,
    score: i32,
    depth: u8,
    /// 0: empty.
    bound: u8,
}

/// A score to store: wins counted from this node rather than from the root.
fn to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > WIN_BOUND {
        score + ply
    } else if score < -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > WIN_BOUND {
        score - ply
    } else if score < -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

/// One search: the position, the tables and the budget.
struct Search<'a> {
    geometry: &'a Geometry,
    pos: Position,
    keep_going: &'a mut dyn FnMut(&Progress) -> bool,
    table: Vec<Entry>,
    killers: Vec<[Option<Mv>; 2]>,
    history: Vec<i32>,
    buffers: Vec<Vec<Mv>>,
    nodes: u64,
    depth: u32,
    completed: u32,
    stopped: bool,
    scratch: Vec<Mv>,
}

impl<'a> Search<'a> {
    fn new(
        owner: &mut Searcher,
        geometry: &'a Geometry,
        pos: Position,
        keep_going: &'a mut dyn FnMut(&Progress) -> bool,
    ) -> Search<'a> {
        let mut table = std::mem::take(&mut owner.table);
        table.clear();
        table.resize(TABLE_ENTRIES, Entry::default());
        let mut killers = std::mem::take(&mut owner.killers);
        killers.clear();
        killers.resize(MAX_PLY + 1, [None; 2]);
        let mut history = std::mem::take(&mut owner.history);
        history.clear();
        history.resize(geometry.len() * 13, 0);
        let mut buffers = std::mem::take(&mut owner.buffers);
        buffers.resize_with(MAX_PLY + 1, Vec::new);
        Search {
            geometry,
            pos,
            keep_going,
            table,
            killers,
            history,
            buffers,
            nodes: 0,
            depth: 0,
            completed: 0,
            stopped: false,
            scratch: Vec::new(),
        }
    }

    /// Gives the buffers back for the next search.
    fn finish(self, owner: &mut Searcher) {
        owner.table = self.table;
        owner.killers = self.killers;
        owner.history = self.history;
        owner.buffers = self.buffers;
    }

    /// Counts a node and asks `keep_going` every [`CHECK_EVERY`] nodes.
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 && !self.stopped {
            let progress = Progress {
                depth: self.depth,
                completed: self.completed,
                nodes: self.nodes,
            };
            if !(self.keep_going)(&progress) {
                self.stopped = true;
            }
        }
        !self.stopped
    }

    /// One depth at the root. Returns the best move found with its score, and whether every move was
    /// searched (if not, the move is one that beat the first move by a complete search, or the first
    /// move itself; `None` when even the first was not searched).
    fn root(&mut self, root: &mut [Mv], depth: u32) -> (Option<(Mv, i32)>, bool) {
        let mut alpha = -INFINITY;
        let mut best: Option<(Mv, i32)> = None;
        for (i, &m) in root.iter().enumerate() {
            let taken = self.pos.make(m);
            let mut score = if i == 0 {
                -self.negamax(depth - 1, 1, -INFINITY, -alpha, true)
            } else {
                -self.negamax(depth - 1, 1, -alpha - 1, -alpha, true)
            };
            if i > 0 && score > alpha && !self.stopped {
                score = -self.negamax(depth - 1, 1, -INFINITY, -alpha, true);
            }
            self.pos.unmake(m, taken);
            if self.stopped {
                return (best, false);
            }
            if best.is_none() || score > alpha {
                alpha = score;
                best = Some((m, score));
            }
        }
        self.completed = depth;
        (best, true)
    }

    fn negamax(&mut self, depth: u32, ply: usize, mut alpha: i32, beta: i32, null: bool) -> i32 {
        if depth == 0 || ply >= MAX_PLY {
            return self.captures(ply, alpha, beta, 0);
        }
        if !self.visit() {
            return 0;
        }
        let slot = (self.pos.hash as usize) & (TABLE_ENTRIES - 1);
        let mut table_move = None;
        if let Some(e) = self.table.get(slot).copied() {
            if e.bound != 0 && e.key == self.pos.hash {
                table_move = Some((e.from, e.to));
                if u32::from(e.depth) >= depth {
                    let s = from_table(e.score, ply);
                    let cut = match e.bound {
                        EXACT => true,
                        LOWER => s >= beta,
                        _ => s <= alpha,
                    };
                    if cut {
                        return s;
                    }
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let king = self.generate(&mut moves, false);
        if king {
            self.buffers[ply] = moves;
            return WIN - ply as i32;
        }
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return 0;
        }
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let n = self.geometry.len();
        for m in &mut moves {
            if table_move == Some((m.from, m.to)) {
                m.order = ORDER_TABLE;
            } else if m.order == 0 {
                if killers[0] == Some(*m) {
                    m.order = ORDER_KILLER;
                } else if killers[1] == Some(*m) {
                    m.order = ORDER_KILLER - 1;
                } else {
                    let piece = usize::from(self.pos.square(m.from as usize));
                    m.order = self
                        .history
                        .get(piece * n + m.to as usize)
                        .copied()
                        .unwrap_or(0)
                        .min(ORDER_KILLER - 2);
                }
            }
        }
        // Futility: one ply from the horizon, a position too far below alpha for a quiet move to help
        // is left to the capture search.
        if depth == 1 && alpha.abs() < WIN_BOUND && self.evaluate() + FUTILITY <= alpha {
            self.buffers[ply] = moves;
            return self.captures(ply, alpha, beta, 0);
        }
        // Null move: if passing still holds beta with a shallower search, a real move will too.
        let us = usize::from(self.pos.side);
        if null && depth >= 3 && beta.abs() < WIN_BOUND && self.pos.material[us] >= NULL_MATERIAL {
            self.pos.pass();
            let score = -self.negamax(depth - 1 - NULL_REDUCTION, ply + 1, -beta, -beta + 1, false);
            self.pos.pass();
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score >= beta {
                self.buffers[ply] = moves;
                return beta;
            }
        }
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..moves.len() {
            pick(&mut moves, i);
            let m = moves[i];
            // Late quiet moves are searched one ply shallower first, and again in full if they beat alpha.
            let reduce = depth >= 3 && i >= LATE_MOVE && m.order < ORDER_KILLER - 1;
            let taken = self.pos.make(m);
            let mut score = if i == 0 {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha, true)
            } else if reduce {
                -self.negamax(depth - 2, ply + 1, -alpha - 1, -alpha, true)
            } else {
                -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true)
            };
            if reduce && score > alpha && !self.stopped {
                score = -self.negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true);
            }
            if i > 0 && score > alpha && score < beta && !self.stopped {
                score = -self.negamax(depth - 1, ply + 1, -beta, -alpha, true);
            }
            self.pos.unmake(m, taken);
            if self.stopped {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        if taken == 0 {
                            self.remember(m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if let (Some(m), Some(e)) = (best_move, self.table.get_mut(slot)) {
            if e.key != self.pos.hash || u32::from(e.depth) <= depth {
                *e = Entry {
                    key: self.pos.hash,
                    from: m.from,
                    to: m.to,
                    score: to_table(best, ply),
                    depth: u8::try_from(depth).unwrap_or(u8::MAX),
                    bound: if best <= alpha_start {
                        UPPER
                    } else if best >= beta {
                        LOWER
                    } else {
                        EXACT
                    },
                };
            }
        }
        best
    }

    /// A quiet move that cut the search off: a killer at this ply, and history for its piece and node.
    fn remember(&mut self, m: Mv, ply: usize, depth: u32) {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        let piece = usize::from(self.pos.square(m.from as usize));
        let n = self.geometry.len();
        if let Some(h) = self.history.get_mut(piece * n + m.to as usize) {
            *h = h.saturating_add((depth * depth) as i32);
        }
    }

    /// The evaluation of the position, for the side to move.
    fn evaluate(&mut self) -> i32 {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let (king, mobility) = self.scan(&mut scratch);
        self.scratch = scratch;
        if king {
            return WIN;
        }
        let us = usize::from(self.pos.side);
        self.pos.material[us] - self.pos.material[1 - us] + MOBILITY * (mobility[0] - mobility[1])
    }

    /// The capture search past the horizon: the evaluation stands unless a capture improves on it.
    fn captures(&mut self, ply: usize, mut alpha: i32, beta: i32, depth: u32) -> i32 {
        if !self.visit() {
            return 0;
        }
        let mut moves = std::mem::take(&mut self.buffers[ply.min(MAX_PLY)]);
        moves.clear();
        let (king, mobility) = self.scan(&mut moves);
        let result = if king {
            WIN - ply as i32
        } else if mobility[0] == 0 {
            // No legal move: a draw.
            0
        } else {
            let us = usize::from(self.pos.side);
            let stand = self.pos.material[us] - self.pos.material[1 - us]
                + MOBILITY * (mobility[0] - mobility[1]);
            if stand >= beta || depth >= MAX_CAPTURE_DEPTH || ply >= MAX_PLY {
                stand
            } else {
                let mut best = stand;
                alpha = alpha.max(stand);
                for i in 0..moves.len() {
                    pick(&mut moves, i);
                    let m = moves[i];
                    let taken = self.pos.make(m);
                    let score = -self.captures(ply + 1, -beta, -alpha, depth + 1);
                    self.pos.unmake(m, taken);
                    if self.stopped {
                        best = 0;
                        break;
                    }
                    if score > best {
                        best = score;
                        if score > alpha {
                            alpha = score;
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                best
            }
        };
        self.buffers[ply.min(MAX_PLY)] = moves;
        result
    }

    /// Every move of the side to move into `out` (captures ordered by MVV-LVA, quiet moves 0), or only
    /// the captures; returns whether one of them takes a King.
    fn generate(&self, out: &mut Vec<Mv>, captures_only: bool) -> bool {
        let pos = &self.pos;
        let mut king = false;
        for (from, &c) in pos.squares.iter().enumerate() {
            if c == 0 || side_of(c) != pos.side {
                continue;
            }
            let attacker = i32::from(kind_of(c));
            self.geometry.targets(&pos.squares, from, c, |to, there| {
                if there == 0 {
                    if !captures_only {
                        out.push(Mv {
                            from: from as u32,
                            to: to as u32,
                            order: 0,
                        });
                    }
                } else {
                    king |= kind_of(there) == KING;
                    out.push(Mv {
                        from: from as u32,
                        to: to as u32,
                        order: ORDER_CAPTURE + value_of(there) * 8 - attacker,
                    });
                }
            });
        }
        king
    }

    /// The captures of the side to move into `out`, whether one takes a King, and the number of legal
    /// moves of each side ([side to move, other side]).
    fn scan(&self, out: &mut Vec<Mv>) -> (bool, [i32; 2]) {
        let pos = &self.pos;
        let mut king = false;
        let mut mobility = [0i32; 2];
        for (from, &c) in pos.squares.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let ours = side_of(c) == pos.side;
            let attacker = i32::from(kind_of(c));
            let mut count = 0;
            self.geometry.targets(&pos.squares, from, c, |to, there| {
                count += 1;
                if ours && there != 0 {
                    king |= kind_of(there) == KING;
                    out.push(Mv {
                        from: from as u32,
                        to: to as u32,
                        order: ORDER_CAPTURE + value_of(there) * 8 - attacker,
                    });
                }
            });
            mobility[usize::from(!ours)] += count;
        }
        (king, mobility)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{maps, parse_map, Piece};
    use super::*;
    use std::collections::BTreeSet;

    fn c(x: i32, y: i32, z: i32) -> Coord {
        Coord::new(x, y, z)
    }

    /// An empty `w` x `h` x `d` box as a Map file, with `pieces` placed.
    fn map(w: i32, h: i32, d: i32, pieces: &[(Coord, &str)]) -> String {
        let id = |x: i32, y: i32, z: i32| {
            if (0..w).contains(&x) && (0..h).contains(&y) && (0..d).contains(&z) {
                x + w * (y + h * z)
            } else {
                -1
            }
        };
        let mut out = format!("{}\n", w * h * d);
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    let piece = pieces
                        .iter()
                        .find(|(at, _)| *at == c(x, y, z))
                        .map_or("null", |(_, p)| *p);
                    out.push_str(&format!(
                        "{} {} {} {} {} {} {} {piece}\n",
                        id(x, y, z),
                        id(x - 1, y, z),
                        id(x + 1, y, z),
                        id(x, y - 1, z),
                        id(x, y + 1, z),
                        id(x, y, z - 1),
                        id(x, y, z + 1),
                    ));
                }
            }
        }
        out
    }

    fn game(text: &str, to_move: Side) -> Game {
        Game::resume(parse_map(text).unwrap(), to_move, Vec::new())
    }

    fn budget(nodes: u64) -> impl FnMut(&Progress) -> bool {
        move |p| p.nodes < nodes
    }

    #[test]
    fn takes_a_king_when_it_can() {
        // White's Rook can take the Black King along the row; a Queen is also hanging, worth more
        // material, but the King ends the game.
        let g = game(
            &map(
                4,
                4,
                1,
                &[
                    (c(0, 0, 0), "WRook"),
                    (c(3, 0, 0), "BKing"),
                    (c(0, 3, 0), "BQueen"),
                    (c(3, 3, 0), "WKing"),
                ],
            ),
            Side::White,
        );
        for seed in 0..20 {
            let choice = choose(&g, seed, budget(10_000)).unwrap();
            assert_eq!((choice.from, choice.to), (c(0, 0, 0), c(3, 0, 0)));
            assert_eq!(choice.king_in(), Some(1));
            assert_eq!(choice.depth, 0);
        }
        // A budget of nothing still takes it.
        let choice = choose(&g, 1, |_| false).unwrap();
        assert_eq!(choice.to, c(3, 0, 0));
    }

    #[test]
    fn sees_a_lost_king_and_stops_searching() {
        // Black's King in a corner; White's Rooks cover every node it can step to.
        let g = game(
            &map(
                3,
                3,
                1,
                &[
                    (c(0, 0, 0), "BKing"),
                    (c(2, 2, 0), "WKing"),
                    (c(2, 1, 0), "WRook"),
                    (c(1, 2, 0), "WRook"),
                ],
            ),
            Side::Black,
        );
        // Black to move: every move loses the King to the next move; depth 1 proves it, and the search
        // stops there even with no limit.
        let choice = choose(&g, 3, |_| true).unwrap();
        assert_eq!(choice.king_in(), Some(-2), "{choice:?}");
        assert_eq!(choice.depth, 1);
        assert!(g.check(choice.from, choice.to).is_ok());
    }

    #[test]
    fn prefers_winning_material() {
        // White's Knight in the middle can take a Black Queen or a Black Pawn, neither guarded nor
        // attacking anything. The Queen is worth more.
        let g = game(
            &map(
                5,
                5,
                1,
                &[
                    (c(2, 2, 0), "WKnight"),
                    (c(4, 3, 0), "BQueen"),
                    (c(0, 1, 0), "BPawn"),
                    (c(0, 4, 0), "WKing"),
                    (c(4, 0, 0), "BKing"),
                ],
            ),
            Side::White,
        );
        for seed in 0..5 {
            let choice = choose(&g, seed, budget(20_000)).unwrap();
            assert_eq!((choice.from, choice.to), (c(2, 2, 0), c(4, 3, 0)));
            assert!(choice.score > 100, "{choice:?}");
        }
    }

    #[test]
    fn does_not_give_its_queen_away() {
        // White's Queen may take a Pawn guarded by a Black Rook; a depth-2 search sees the recapture.
        let g = game(
            &map(
                5,
                5,
                1,
                &[
                    (c(0, 0, 0), "WQueen"),
                    (c(0, 3, 0), "BPawn"),
                    (c(4, 3, 0), "BRook"),
                    (c(3, 4, 0), "BKing"),
                    (c(2, 0, 0), "WKing"),
                ],
            ),
            Side::White,
        );
        let choice = choose(&g, 1, budget(50_000)).unwrap();
        assert_ne!(choice.to, c(0, 3, 0), "{choice:?}");
        assert!(choice.depth >= 2, "{choice:?}");
    }

    #[test]
    fn the_same_seed_and_budget_give_the_same_move_and_seeds_vary_play() {
        let g = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
        let a = choose(&g, 5, budget(3_000)).unwrap();
        let b = choose(&g, 5, budget(3_000)).unwrap();
        assert_eq!(a, b);
        // A reused searcher chooses as a fresh one.
        let mut s = Searcher::new(5);
        let _ = s.think(
            &Game::new(parse_map(maps::SMALL).unwrap()).unwrap(),
            budget(500),
        );
        assert_eq!(s.think(&g, budget(3_000)), Some(a));
        assert_eq!(s.think(&g, budget(3_000)), Some(a));
        // From the opening, equal first moves are chosen between by the seed.
        let firsts: BTreeSet<(Coord, Coord)> = (0..16)
            .map(|seed| {
                let ch = choose(&g, seed, budget(200)).unwrap();
                (ch.from, ch.to)
            })
            .collect();
        assert!(firsts.len() > 1, "{firsts:?}");
    }

    #[test]
    fn a_node_budget_is_kept_and_keep_going_sees_progress() {
        let g = Game::new(parse_map(maps::STANDARD).unwrap()).unwrap();
        let mut asked = Vec::new();
        let choice = choose(&g, 1, |p| {
            asked.push(*p);
            p.nodes < 5_000
        })
        .unwrap();
        assert!(choice.nodes >= 5_000 && choice.nodes < 5_000 + CHECK_EVERY);
        assert_eq!(asked.first().map(|p| (p.depth, p.nodes)), Some((1, 0)));
        assert!(asked.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        assert!(choice.depth >= 1, "{choice:?}");
        // Nothing at all: the first move of the ordering, still legal.
        let choice = choose(&g, 1, |_| false).unwrap();
        assert_eq!((choice.depth, choice.nodes), (0, 0));
        assert!(g.check(choice.from, choice.to).is_ok());
    }

    #[test]
    fn a_finished_search_stops_by_itself() {
        // A 3x1x1 strip: White's King has one move (and loses). One legal move needs no deeper search.
        let g = game(
            &map(3, 1, 1, &[(c(0, 0, 0), "WKing"), (c(2, 0, 0), "BKing")]),
            Side::White,
        );
        let choice = choose(&g, 1, |_| true).unwrap();
        assert!(choice.depth <= MAX_DEPTH);
        assert!(g.check(choice.from, choice.to).is_ok());
    }

    #[test]
    fn nothing_is_chosen_when_the_game_is_over_or_nobody_can_move() {
        let mut g = Game::new(parse_map(maps::SMALL).unwrap()).unwrap();
        g.play(c(1, 2, 0), c(1, 1, 1)).unwrap();
        // Black's King or Pawn takes White's King.
        let choice = choose(&g, 1, budget(1_000)).unwrap();
        assert_eq!((choice.to, choice.depth), (c(1, 1, 1), 0));
        g.play(choice.from, choice.to).unwrap();
        assert!(g.outcome().is_some());
        assert_eq!(choose(&g, 1, |_| true), None);
        // A lone King on a single node cannot move: a draw, no move.
        let lone = Game::resume(
            parse_map("1\n0 -1 -1 -1 -1 -1 -1 WKing\n").unwrap(),
            Side::White,
            Vec::new(),
        );
        assert_eq!(choose(&lone, 1, |_| true), None);
        // A side with no King at all (a resumed position) still gets moves.
        let kingless = Game::resume(
            parse_map("2\n0 -1 1 -1 -1 -1 -1 WPawn\n1 0 -1 -1 -1 -1 -1 BPawn\n").unwrap(),
            Side::White,
            vec![Piece::new(Side::Black, Kind::Queen)],
        );
        let choice = choose(&kingless, 1, budget(1_000)).unwrap();
        assert_eq!(choice.to, c(1, 0, 0));
    }

    /// The search's move generator against the rules' on every node of random games of every shipped
    /// map.
    #[test]
    fn the_search_generates_exactly_the_legal_moves() {
        for (name, text) in maps::SHIPPED {
            let mut rng = SplitMix64::new(11);
            let board = parse_map(text).unwrap();
            let geometry = Geometry::new(&board);
            for _ in 0..4 {
                let mut g = Game::new(board.clone()).unwrap();
                for _ in 0..60 {
                    let legal: BTreeSet<(Coord, Coord)> = g.legal_moves().into_iter().collect();
                    if legal.is_empty() {
                        break;
                    }
                    let pos = Position::new(g.board(), g.to_move());
                    let mut keep = |_: &Progress| true;
                    let mut owner = Searcher::new(0);
                    let search = Search::new(&mut owner, &geometry, pos.clone(), &mut keep);
                    let mut moves = Vec::new();
                    search.generate(&mut moves, false);
                    let coord = |i: u32| g.board().node(i as usize).unwrap().coord;
                    let ours: BTreeSet<(Coord, Coord)> =
                        moves.iter().map(|m| (coord(m.from), coord(m.to))).collect();
                    assert_eq!(ours, legal, "{name}");
                    assert_eq!(ours.len(), moves.len(), "{name}: duplicates");
                    let mut caps = Vec::new();
                    let (_, mobility) = search.scan(&mut caps);
                    assert_eq!(mobility[0] as usize, legal.len(), "{name}");
                    let other = Game::resume(g.board().clone(), g.to_move().other(), Vec::new());
                    assert_eq!(mobility[1] as usize, other.legal_moves().len(), "{name}");
                    let list: Vec<(Coord, Coord)> = legal.into_iter().collect();
                    let (from, to) = list[rng.below(list.len() as u64) as usize];
                    // Make and unmake leave the position as it was.
                    let mut p = pos.clone();
                    let m = Mv {
                        from: g.board().index_of(from).unwrap() as u32,
                        to: g.board().index_of(to).unwrap() as u32,
                        order: 0,
                    };
                    let taken = p.make(m);
                    g.play(from, to).unwrap();
                    assert_eq!(p.hash, Position::new(g.board(), g.to_move()).hash);
                    p.unmake(m, taken);
                    assert_eq!(
                        (p.squares, p.hash, p.material),
                        (pos.squares, pos.hash, pos.material)
                    );
                }
            }
        }
    }

    #[test]
    fn values_and_codes_agree() {
        for kind in Kind::ALL {
            for side in [Side::White, Side::Black] {
                let c = code(side, kind);
                assert_eq!(value_of(c), value(kind));
                assert_eq!(side_of(c), u8::from(side == Side::Black));
            }
        }
        assert_eq!(
            Choice {
                from: c(0, 0, 0),
                to: c(1, 0, 0),
                depth: 3,
                nodes: 99,
                score: -125
            }
            .to_string(),
            "depth 3, 99 nodes, score -1.25"
        );
    }
}
