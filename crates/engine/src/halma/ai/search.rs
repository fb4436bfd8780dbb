//! The "search" AI: alpha-beta over both teams' moves, iterative deepening under a node budget.
//!
//! The budget is counted in nodes (moves played on the search's board), not in time: `std::time::Instant`
//! panics on wasm32-unknown-unknown, and a clock would make the chosen move depend on the machine, while a
//! recorded game must replay the same everywhere. The cost per node is bounded, so a budget is also a bound
//! on the time a call may take, which is what keeps a browser page responsive.
//!
//! In the arena both teams move at once; the search pretends the opponent answers each move instead
//! (paranoid minimax). That is pessimistic, since it lets the opponent react to a move it cannot see yet,
//! but it never counts on the opponent's help, and the one real hazard of moving at the same time, a
//! collision, is priced separately at the root ([`Risk`]).

use super::collide::Risk;
use super::eval::{terminal, Evaluator, WIN};
use super::field::Field;
use crate::halma::{Mode, Move, Path, Position, Team};
use crate::SplitMix64;
use std::cmp::Reverse;

const INF: i32 = 2 * WIN;

/// How many generated moves count as one node of the budget. Measured: generating and ordering a move list
/// costs about as much per two moves as one visit with its evaluation, and in the middle game it is most of
/// the time a search takes; without this charge a board with hundreds of moves a side would run many
/// times longer on the same budget.
const MOVES_PER_NODE: u32 = 2;

/// The settings of a search. [`Search::DEFAULT`] is what the "search" built-in AI plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Search {
    /// Work per call, in nodes: one per move played on the search's board, plus one per two moves generated
    /// below the root, so that the budget bounds the time whatever the board. Judging every root move on
    /// its own comes first and is always made in full, so even a budget of 0 plays a sensible legal move.
    pub budget: u32,
    /// Moves tried below the root, best first by how far they bring the piece. Halma has a hundred moves a
    /// side in the middle game and most of them go backwards or sideways; trying only the most promising
    /// ones buys a ply more for the same budget.
    pub width: usize,
    /// The deepest iteration, in plies (moves of either team).
    pub max_depth: u8,
}

impl Default for Search {
    fn default() -> Search {
        Search::DEFAULT
    }
}

/// What a search found: the move it plays and how sure it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The chosen move.
    pub best: Move,
    /// Its score for the mover in field units (a straight step is 2); near ±1,000,000 a forced win or loss.
    pub score: i32,
    /// The deepest iteration that finished (1: each move judged by the evaluation alone).
    pub depth: u8,
    /// Nodes visited, the root's moves included.
    pub nodes: u32,
}

impl Search {
    /// The built-in "search" AI. Measured: 2.3 ms a call natively in a crowded arena middle game (2.6 ms in
    /// classic), and at most 3.4 ms a call in wasm over whole arena games, where the mean is 1.9 ms.
    pub const DEFAULT: Search = Search {
        budget: 60_000,
        width: 12,
        max_depth: 12,
    };

    /// The built-in "search-lite" AI: the default search on 2,000 nodes, about two plies.
    pub const LITE: Search = Search {
        budget: 2_000,
        width: 12,
        max_depth: 12,
    };

    /// The default search with another node budget.
    pub fn with_budget(budget: u32) -> Search {
        Search {
            budget,
            ..Search::DEFAULT
        }
    }

    /// `team`'s move as a chain of landing squares, or `None` if it has no legal move.
    ///
    /// `mode` decides whether collisions are a risk: only in simultaneous ticks does the opponent move
    /// without seeing the move first. The same position, mode, team and seed give the same move on every
    /// platform; the seed only orders moves the search cannot tell apart.
    pub fn choose(&self, position: &Position, mode: Mode, team: Team, seed: u64) -> Option<Path> {
        let report = self.analyse(position, mode, team, seed)?;
        super::path_of(position, team, report.best)
    }

    /// The search itself, with what it found; `None` if `team` has no legal move.
    pub fn analyse(
        &self,
        position: &Position,
        mode: Mode,
        team: Team,
        seed: u64,
    ) -> Option<SearchReport> {
        let mut pos = position.clone();
        let mut moves = pos.moves(team);
        if moves.is_empty() {
            return None;
        }
        // The seed's order of the root moves, so that moves the search scores alike are chosen by the
        // seed and not always by the generator's order; sorted first, so that it does not depend on it.
        crate::sort::sort(&mut moves);
        SplitMix64::new(seed).shuffle(&mut moves);
        let mut s = Searcher::new(&pos, self);
        let risk = match mode {
            Mode::Simultaneous => Risk::new(&pos, team, s.eval.field(team.other())),
            Mode::Alternating => Risk::none(),
        };

        // Depth 1: every move judged on its own, in full whatever the budget, to order the deeper passes.
        let mut root: Vec<(Move, i32)> = moves
            .iter()
            .map(|&m| {
                s.nodes = s.nodes.saturating_add(1);
                pos.play_unchecked(team, m);
                let score = terminal(&pos, team, 1).unwrap_or_else(|| s.eval.score(&pos, team));
                pos.play_unchecked(team, back(m));
                (m, score - risk.penalty(m))
            })
            .collect();
        crate::sort::sort_by_key(&mut root, |&(_, score)| Reverse(score));
        let mut best = root[0];
        let mut depth_done = 1;

        for depth in 2..=self.max_depth {
            if best.1.abs() >= WIN / 2 {
                break;
            }
            let mut alpha = -INF;
            let mut iteration_best = None;
            let mut finished = true;
            for entry in root.iter_mut() {
                let (m, _) = *entry;
                let penalty = risk.penalty(m);
                if s.nodes >= s.budget {
                    finished = false;
                    break;
                }
                s.nodes += 1;
                pos.play_unchecked(team, m);
                // Only a raw score above alpha + penalty can beat the best so far.
                let child = s.node(
                    &mut pos,
                    team.other(),
                    depth - 1,
                    1,
                    -INF,
                    -(alpha + penalty),
                );
                pos.play_unchecked(team, back(m));
                let Some(v) = child else {
                    finished = false;
                    break;
                };
                let score = -v - penalty;
                entry.1 = score;
                if score > alpha {
                    alpha = score;
                    iteration_best = Some((m, score));
                }
            }
            // The previous best is searched first, so a move that beat it in an unfinished iteration has
            // been proven better at this depth and is taken; moves not reached were worse one ply less deep.
            if let Some(b) = iteration_best {
                best = b;
            }
            if !finished {
                break;
            }
            depth_done = depth;
            // Stable: among equal scores the earlier (the best, then the seed's order) stays first.
            crate::sort::sort_by_key(&mut root, |&(_, score)| Reverse(score));
        }
        Some(SearchReport {
            best: best.0,
            score: best.1,
            depth: depth_done,
            nodes: s.nodes,
        })
    }
}

/// The move that undoes `m` on the search's board.
fn back(m: Move) -> Move {
    Move {
        from: m.to,
        to: m.from,
    }
}

/// The state of one search: the evaluator, the node count and a move list per ply, reused across nodes.
struct Searcher {
    eval: Evaluator,
    nodes: u32,
    budget: u32,
    width: usize,
    lists: Vec<Vec<(Reverse<i16>, Move)>>,
    moves: Vec<Move>,
}

impl Searcher {
    fn new(position: &Position, config: &Search) -> Searcher {
        Searcher {
            eval: Evaluator::new(position),
            nodes: 0,
            budget: config.budget,
            width: config.width.max(1),
            lists: Vec::new(),
            moves: Vec::new(),
        }
    }

    /// Negamax with alpha-beta: the score for `side`, to move, or `None` once the budget is spent.
    fn node(
        &mut self,
        pos: &mut Position,
        side: Team,
        depth: u8,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        if let Some(score) = terminal(pos, side, ply) {
            return Some(score);
        }
        if depth == 0 {
            return Some(self.eval.score(pos, side));
        }
        let mut list = self.take_list(ply);
        self.ordered_moves(pos, side, &mut list);
        if list.is_empty() {
            // A team without a move passes; the position stands as it is.
            self.lists[ply] = list;
            return Some(self.eval.score(pos, side));
        }
        let mut best = -INF;
        let mut aborted = false;
        for &(_, m) in &list {
            if self.nodes >= self.budget {
                aborted = true;
                break;
            }
            self.nodes += 1;
            pos.play_unchecked(side, m);
            let child = self.node(pos, side.other(), depth - 1, ply + 1, -beta, -alpha);
            pos.play_unchecked(side, back(m));
            let Some(v) = child else {
                aborted = true;
                break;
            };
            best = best.max(-v);
            alpha = alpha.max(-v);
            if alpha >= beta {
                break;
            }
        }
        self.lists[ply] = list;
        (!aborted).then_some(best)
    }

    /// The list buffer of `ply`, taken out so the recursion below can use the buffers of deeper plies.
    fn take_list(&mut self, ply: usize) -> Vec<(Reverse<i16>, Move)> {
        while self.lists.len() <= ply {
            self.lists.push(Vec::new());
        }
        std::mem::take(&mut self.lists[ply])
    }

    /// `side`'s most promising moves, most promising first: those that bring a piece furthest along its
    /// field. Ties are broken by the move itself, a total order, so the list is the same on every platform.
    fn ordered_moves(&mut self, pos: &Position, side: Team, list: &mut Vec<(Reverse<i16>, Move)>) {
        self.moves.clear();
        pos.legal_moves(side, &mut self.moves);
        let generated = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        self.nodes = self.nodes.saturating_add(generated / MOVES_PER_NODE);
        let field: &Field = self.eval.field(side);
        list.clear();
        list.extend(self.moves.iter().map(|&m| {
            let gain = field
                .at(m.from.cell())
                .saturating_sub(field.at(m.to.cell()));
            (Reverse(gain), m)
        }));
        if list.len() > self.width {
            list.select_nth_unstable(self.width - 1);
            list.truncate(self.width);
        }
        crate::sort::sort(list);
    }
}
