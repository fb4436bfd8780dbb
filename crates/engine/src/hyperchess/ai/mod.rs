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

mod position;
mod search;
#[cfg(test)]
mod tests;

use position::*;
use search::*;

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
        SplitMix64::new(self.seed ^ pos.hash).shuffle(&mut root);
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
