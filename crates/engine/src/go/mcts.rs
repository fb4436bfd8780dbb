//! The built-in Go AI: Monte-Carlo tree search with RAVE (rapid action value estimation), prior
//! knowledge in the tree and knowledge in the playouts (the `policy` module).
//!
//! **Why knowledge.** Uniformly random playouts misjudge every capturing race and let groups in atari
//! die for nothing, so the search needs thousands of visits before it sees what a beginner sees at once.
//! Playouts that capture, escape from atari, answer the classic 3x3 shapes and avoid self-atari judge
//! positions far better per simulation; priors (virtual simulations that a move is given when its node
//! is expanded) make the tree try captures, escapes and good shapes first and self-atari last.
//!
//! **Why RAVE.** A move is also credited with the result of every simulation in which the same player
//! played it later ("all moves as first"), which ranks the moves of a position after a few hundred
//! simulations; the credit fades as the move's own visits grow.
//!
//! **Budgets.** The engine has no clock (it runs in the browser's wasm too). A search runs for as long
//! as its caller's `keep_going` says: [`Mcts::decide`] counts simulations, so a game replays exactly for
//! a seed and a test cannot flake; [`Mcts::think`] lets the caller stop on a clock (GTP, the page's Web
//! Worker) and keeps the tree between moves in a [`Memory`].
//!
//! **Passing and resigning**, decided before and after the search because a search alone does not end
//! games well:
//! - once the game is over, the answer is a pass (callers should not ask);
//! - when the opponent has just passed and the area count as it stands (every stone alive, docs/go.md)
//!   already wins, passing ends the game with that win;
//! - when nothing is left but filling one's own eyes, pass;
//! - when the best move wins less than [`Mcts::resign_below`] of the simulations, resign if that is
//!   enabled, else pass if the opponent has just passed (the count decides), else play on.
//!
//! Inside the tree, moves are checked with the board's rules (occupancy, suicide, simple ko); only the
//! root's moves are checked against the game's positional superko, so the chosen move is always legal.

use super::board::Board;
use super::clock::think_time;
use super::point::CELLS;
use super::policy::{prior, Prior};
use super::{Clock, Color, Game, Komi, Move, Score};
use crate::SplitMix64;
use std::fmt;
use std::time::Duration;

/// Simulations per move when nothing else is asked: about a fifth of a second per 9x9 move natively.
pub const DEFAULT_PLAYOUTS: u32 = 10_000;

/// The resignation threshold when a person plays the AI (GTP's `--resign-below` default, the page's): a
/// game the best move wins less than 5% of the simulations of is clearly lost, and playing it out to the
/// last stone teaches nothing and keeps the person waiting.
pub const RESIGN_BELOW: f64 = 0.05;

/// RAVE's equivalence parameter: the number of own visits at which a move's own result and its
/// all-moves-as-first result weigh about the same (Gelly and Silver's schedule, the value michi uses).
const RAVE_EQUIVALENCE: f64 = 3500.0;

/// A node's moves are listed (with their priors) once the node has been reached this many times; until
/// then a simulation plays out from it. Keeps the tree, and the memory it takes, several times smaller
/// than expanding every leaf, at little cost in strength.
const EXPAND_AFTER: u32 = 8;

/// The most edges (moves of expanded nodes) a tree may hold: about 32 MB. Past it, simulations still run
/// but add no nodes, so a long think on 19x19 in the browser cannot exhaust the wasm memory.
const MAX_EDGES: usize = 1 << 20;

/// A pass in the tree: as if it had lost most of a few simulations, so that it is tried only when the
/// stones have nothing better (at the end, when every stone move loses).
const PASS_PRIOR: Prior = Prior {
    visits: 10.0,
    wins: 1.0,
};

/// How many moves of a game a [`Memory`] looks back through to find its tree's root: our own move and
/// the opponent's, with room for a pass or two.
const MAX_REUSE_MOVES: usize = 4;

/// No child node yet.
const NO_NODE: u32 = u32::MAX;

/// A Monte-Carlo tree search player. Small and `Copy`: it holds only its settings; the tree of a search
/// lives in a [`Memory`] or is dropped after the move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mcts {
    playouts: u32,
    resign_below: Option<f64>,
}

/// Why [`Mcts::decide`] chose its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The game is already over; the answer is a pass.
    GameOver,
    /// The opponent passed and the count as it stands wins: passing ends the game.
    PassWins,
    /// Every legal stone would fill one of the player's own eyes.
    NothingUseful,
    /// The search found the move.
    Searched,
    /// The search found the game lost: resigning (if enabled) or passing after the opponent's pass.
    Hopeless,
}

/// A chosen move and what the search knew about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The move, always legal for the colour asked (or a pass or resignation).
    pub mv: Move,
    /// The share of simulations through the chosen move that the mover won (draws count half); `None`
    /// when no search ran.
    pub win_rate: Option<f64>,
    /// Simulations run for this decision (a reused tree's earlier ones not counted).
    pub playouts: u32,
    /// Simulations behind the chosen move, the reused ones included.
    pub visits: u32,
    /// Why this move.
    pub reason: Reason,
}

/// What a player keeps between its moves: the tree of its last search. When the game goes on from that
/// search's root (our move, then the opponent's), the next search starts from the subtree it reached,
/// with everything it already learnt there. Anything else (an undo, a new game, a move the tree never
/// tried) starts afresh.
#[derive(Default)]
pub struct Memory {
    search: Option<Search>,
    /// The number of moves the game had at the root of `search`.
    moves: usize,
}

impl fmt::Debug for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nodes = self.search.as_ref().map_or(0, |s| s.nodes.len());
        write!(f, "Memory {{ nodes: {nodes}, moves: {} }}", self.moves)
    }
}

impl Clone for Memory {
    /// A copy forgets: a tree is large, and a copied player (a cloned GTP engine) thinks afresh.
    fn clone(&self) -> Memory {
        Memory::default()
    }
}

impl Memory {
    /// Forgets the tree.
    pub fn clear(&mut self) {
        *self = Memory::default();
    }

    /// The stored search, moved down to the position `game` is in now, if the game went on from its
    /// root by moves the tree holds.
    fn take_for(&mut self, game: &Game, color: Color) -> Option<Search> {
        let search = self.search.take()?;
        let since = game.moves().get(self.moves..)?;
        if since.len() > MAX_REUSE_MOVES || search.komi != game.komi() {
            return None;
        }
        let mut board = search.root.clone();
        let mut node = 0u32;
        let mut last = search.root_last;
        for &(c, mv) in since {
            let n = search.nodes.get(node as usize)?;
            if c != n.to_move {
                return None;
            }
            let edge = n.edges.iter().find(|e| e.mv == mv)?;
            match mv {
                Move::Play(p) => {
                    board.place(p.cell(), c);
                    last = [Some(p.cell()), last[0]];
                }
                _ => {
                    board.pass();
                    last = [None, last[0]];
                }
            }
            if edge.child == NO_NODE {
                return None;
            }
            node = edge.child;
        }
        let reached = search.nodes.get(node as usize)?;
        if board != *game.board() || reached.to_move != color || last != last_moves(game) {
            return None;
        }
        Some(search.subtree(node, board, last))
    }
}

impl Default for Mcts {
    fn default() -> Mcts {
        Mcts::new(DEFAULT_PLAYOUTS)
    }
}

impl Mcts {
    /// A player that runs `playouts` simulations per move (at least one) and never resigns.
    pub fn new(playouts: u32) -> Mcts {
        Mcts {
            playouts: playouts.max(1),
            resign_below: None,
        }
    }

    /// Resign when the best move wins less than this share of its simulations (e.g. 0.05); `None` never
    /// resigns. Values outside 0..1 are clamped.
    pub fn with_resign_below(self, threshold: Option<f64>) -> Mcts {
        Mcts {
            resign_below: threshold.filter(|t| !t.is_nan()).map(|t| t.clamp(0.0, 1.0)),
            ..self
        }
    }

    /// Simulations per move.
    pub fn playouts(&self) -> u32 {
        self.playouts
    }

    /// The resignation threshold, if any.
    pub fn resign_below(&self) -> Option<f64> {
        self.resign_below
    }

    /// The move for the colour to move; the same game and seed always give the same move.
    pub fn choose(&self, game: &Game, seed: u64) -> Move {
        self.decide(game, game.to_move(), seed).mv
    }

    /// The move for `color`, whoever's turn it is (GTP's `genmove` may ask either colour), with the
    /// search's statistics, after exactly [`Mcts::playouts`] simulations on a fresh tree.
    pub fn decide(&self, game: &Game, color: Color, seed: u64) -> Decision {
        let budget = self.playouts;
        self.think(game, color, seed, &mut Memory::default(), |done| {
            done < budget
        })
    }

    /// The move for `color` after simulating while `keep_going(simulations so far)` says so (asked
    /// before each one; at least one runs), starting from the tree in `memory` where the game went on
    /// from it, and leaving this search's tree there. The same game, memory, seed and answers from
    /// `keep_going` give the same move.
    pub fn think(
        &self,
        game: &Game,
        color: Color,
        seed: u64,
        memory: &mut Memory,
        mut keep_going: impl FnMut(u32) -> bool,
    ) -> Decision {
        let fixed = |mv, reason| Decision {
            mv,
            win_rate: None,
            playouts: 0,
            visits: 0,
            reason,
        };
        if game.is_over() {
            memory.clear();
            return fixed(Move::Pass, Reason::GameOver);
        }
        // A pass only counts towards the end when the opponent made it just before this move.
        let opponent_passed = color == game.to_move() && game.consecutive_passes() >= 1;
        if opponent_passed && game.score().winner() == Some(color) {
            return fixed(Move::Pass, Reason::PassWins);
        }
        let board = game.board();
        let moves: Vec<Move> = board
            .empty_points()
            .filter(|&p| !board.is_eye(p, color) && game.check_as(color, Move::Play(p)).is_ok())
            .map(Move::Play)
            .collect();
        if moves.is_empty() {
            return fixed(Move::Pass, Reason::NothingUseful);
        }
        let last = last_moves(game);
        let mut search = memory
            .take_for(game, color)
            .unwrap_or_else(|| Search::new(board, color, game.komi(), last));
        search.root_passes = u8::from(opponent_passed);
        search.set_root_moves(moves);
        let mut rng = SplitMix64::new(seed);
        let mut done = 0u32;
        while done == 0 || keep_going(done) {
            search.simulate(&mut rng);
            done = done.saturating_add(1);
        }
        let (mv, win_rate, visits) = search.best();
        memory.search = Some(search);
        memory.moves = game.moves().len();
        let searched = |mv, reason| Decision {
            mv,
            win_rate: Some(win_rate),
            playouts: done,
            visits,
            reason,
        };
        match self.resign_below {
            Some(t) if win_rate < t => searched(Move::Resign, Reason::Hopeless),
            _ if win_rate < HOPELESS && opponent_passed => searched(Move::Pass, Reason::Hopeless),
            _ => searched(mv, Reason::Searched),
        }
    }
}

/// The seed for the search of `game`'s next move, from the seed of the whole game: mixing in the move
/// number keeps one move's playouts apart from the next while a game and its seed still replay exactly.
/// GTP, the page's worker and the wasm bench all seed their moves this way.
pub fn move_seed(game_seed: u64, game: &Game) -> u64 {
    game_seed ^ (game.moves().len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The most simulations a search on the clock runs, whatever the time: a search that has made up its
/// mind long before only grows its tree.
const MAX_TIMED_PLAYOUTS: u32 = 5_000_000;

impl Mcts {
    /// [`Mcts::think`] under a clock, as GTP and the wasm bench play: for [`think_time`] (the clock's
    /// budget, at most `cap`), or with neither this player's playouts. `elapsed` is the caller's clock, the time since the call
    /// began (the engine has none). The move's time is charged to `clock`.
    #[allow(clippy::too_many_arguments)]
    pub fn think_on_clock(
        &self,
        game: &Game,
        color: Color,
        seed: u64,
        memory: &mut Memory,
        clock: Option<&mut Clock>,
        cap: Option<Duration>,
        mut elapsed: impl FnMut() -> Duration,
    ) -> Decision {
        let time = think_time(clock.as_deref(), cap, game.board().empty_count() as u16);
        let playouts = self.playouts;
        let decision = match time {
            None => self.think(game, color, seed, memory, |done| done < playouts),
            Some(t) => self.think(game, color, seed, memory, |done| {
                done < MAX_TIMED_PLAYOUTS && elapsed() < t
            }),
        };
        if let Some(clock) = clock {
            clock.spend(elapsed());
        }
        decision
    }
}

/// Below this win rate, playing on after the opponent's pass only delays the count.
const HOPELESS: f64 = 0.05;

/// The cells of the last two stones played, the latest first (`None` for a pass or before the start):
/// what the playout policy and the priors answer.
fn last_moves(game: &Game) -> [Option<usize>; 2] {
    let mut it = game.moves().iter().rev().map(|(_, mv)| match mv {
        Move::Play(p) => Some(p.cell()),
        _ => None,
    });
    [it.next().flatten(), it.next().flatten()]
}

/// One move out of a node, with its statistics from the mover's point of view.
#[derive(Clone, Copy, Debug)]
struct Edge {
    mv: Move,
    visits: u32,
    wins: f32,
    prior: Prior,
    rave_visits: u32,
    rave_wins: f32,
    child: u32,
}

impl Edge {
    fn new(mv: Move, prior: Prior) -> Edge {
        Edge {
            mv,
            visits: 0,
            wins: 0.0,
            prior,
            rave_visits: 0,
            rave_wins: 0.0,
            child: NO_NODE,
        }
    }

    /// The selection value: the own result with the prior's virtual simulations, blended with the RAVE
    /// result (michi's schedule: RAVE's weight fades as the own visits grow).
    fn value(&self) -> f64 {
        let v = f64::from(self.visits) + f64::from(self.prior.visits);
        let w = f64::from(self.wins) + f64::from(self.prior.wins);
        let q = if v > 0.0 { w / v } else { 0.5 };
        if self.rave_visits == 0 {
            return q;
        }
        let av = f64::from(self.rave_visits);
        let r = f64::from(self.rave_wins) / av;
        let beta = av / (av + v + v * av / RAVE_EQUIVALENCE);
        (1.0 - beta) * q + beta * r
    }
}

/// A position in the tree: who is to move there, how often simulations reached it, and its moves once
/// expanded.
#[derive(Clone, Debug)]
struct Node {
    to_move: Color,
    visits: u32,
    expanded: bool,
    edges: Vec<Edge>,
}

impl Node {
    fn new(to_move: Color) -> Node {
        Node {
            to_move,
            visits: 0,
            expanded: false,
            edges: Vec::new(),
        }
    }
}

/// One search: the tree over a root position, and buffers reused by every simulation.
struct Search {
    root: Board,
    komi: Komi,
    /// The last two stones before the root, the latest first.
    root_last: [Option<usize>; 2],
    /// Passes in a row before the root (only the opponent's pass counts).
    root_passes: u8,
    nodes: Vec<Node>,
    /// Edges held by all nodes, against [`MAX_EDGES`].
    edges: usize,
    /// Per simulation: the (node, edge) pairs chosen, and the index into `played` of each one's stone.
    path: Vec<(u32, u32, usize)>,
    /// Per simulation: every stone placed, tree and playout alike, in order.
    played: Vec<(u16, Color)>,
    /// Per simulation: who first played on each cell from some point on (0 none, 1 black, 2 white).
    first: Vec<u8>,
}

impl Search {
    fn new(board: &Board, color: Color, komi: Komi, last: [Option<usize>; 2]) -> Search {
        Search {
            root: board.clone(),
            komi,
            root_last: last,
            root_passes: 0,
            nodes: vec![Node::new(color)],
            edges: 0,
            path: Vec::new(),
            played: Vec::new(),
            first: vec![0; CELLS],
        }
    }

    /// The tree below `node` (whose position is `board`, after the stones `last`) as a search of its
    /// own: the nodes reachable from it are copied, the rest dropped.
    fn subtree(mut self, node: u32, board: Board, last: [Option<usize>; 2]) -> Search {
        let mut nodes = Vec::new();
        let mut edges = 0;
        // Breadth first: each copied node's children are queued and their new indices written back.
        let mut queue = std::collections::VecDeque::from([(node, 0usize)]);
        nodes.push(Node::new(Color::Black));
        while let Some((from, to)) = queue.pop_front() {
            let mut n = std::mem::replace(&mut self.nodes[from as usize], Node::new(Color::Black));
            for e in &mut n.edges {
                if e.child != NO_NODE {
                    let child = nodes.len();
                    nodes.push(Node::new(Color::Black));
                    queue.push_back((e.child, child));
                    e.child = child as u32;
                }
            }
            edges += n.edges.len();
            nodes[to] = n;
        }
        Search {
            root: board,
            root_last: last,
            nodes,
            edges,
            ..self
        }
    }

    /// Makes the root's moves exactly `moves` (the legal ones under superko, found by the caller) and a
    /// pass, keeping what a reused tree learnt about each.
    fn set_root_moves(&mut self, moves: Vec<Move>) {
        let color = self.nodes[0].to_move;
        let last = self.root_last[0];
        let old = std::mem::take(&mut self.nodes[0].edges);
        let fresh = |mv: Move| match mv {
            Move::Play(p) => Edge::new(mv, prior(&self.root, color, last, p.cell())),
            _ => Edge::new(mv, PASS_PRIOR),
        };
        let edges: Vec<Edge> = moves
            .into_iter()
            .chain([Move::Pass])
            .map(|mv| {
                old.iter()
                    .find(|e| e.mv == mv)
                    .copied()
                    .unwrap_or_else(|| fresh(mv))
            })
            .collect();
        self.edges = self.edges.saturating_sub(old.len()) + edges.len();
        self.nodes[0].edges = edges;
        self.nodes[0].expanded = true;
    }

    /// The most visited root move (not the best valued: visits are what the search trusts), its win
    /// rate and its visits. Ties go to the first in A1-first order, so the answer is deterministic.
    fn best(&self) -> (Move, f64, u32) {
        let root = &self.nodes[0];
        let mut best: Option<&Edge> = None;
        for e in &root.edges {
            if best.is_none_or(|b| e.visits > b.visits) {
                best = Some(e);
            }
        }
        match best {
            Some(e) if e.visits > 0 => (e.mv, f64::from(e.wins) / f64::from(e.visits), e.visits),
            _ => (Move::Pass, 0.5, 0),
        }
    }

    /// One simulation: descend the tree by the selection value, add at most one node, play out, and
    /// update every edge passed (own result) and every sibling move played later by the same colour
    /// (RAVE).
    fn simulate(&mut self, rng: &mut SplitMix64) {
        let mut board = self.root.clone();
        self.path.clear();
        self.played.clear();
        let mut node = 0u32;
        let mut passes = self.root_passes;
        let mut last = self.root_last;
        let score = loop {
            let n = node as usize;
            let color = self.nodes[n].to_move;
            if !self.nodes[n].expanded {
                if self.nodes[n].visits < EXPAND_AFTER || self.edges >= MAX_EDGES {
                    self.nodes[n].visits += 1;
                    break self.playout(&mut board, color, last, rng);
                }
                let edges = expand(&board, color, last[0]);
                self.edges += edges.len();
                self.nodes[n].edges = edges;
                self.nodes[n].expanded = true;
            }
            let e = select(&self.nodes[n]);
            self.path.push((node, e as u32, self.played.len()));
            let edge = self.nodes[n].edges[e];
            match edge.mv {
                Move::Play(p) => {
                    board.place(p.cell(), color);
                    self.played.push((p.cell() as u16, color));
                    last = [Some(p.cell()), last[0]];
                    passes = 0;
                }
                Move::Pass | Move::Resign => {
                    board.pass();
                    last = [None, last[0]];
                    passes = passes.saturating_add(1);
                }
            }
            if passes >= 2 {
                break board.score(self.komi);
            }
            node = if edge.child == NO_NODE {
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(color.other()));
                self.nodes[n].edges[e].child = child;
                child
            } else {
                edge.child
            };
        };
        self.update(score);
    }

    /// [`Board::policy_playout`], recording every stone for RAVE.
    fn playout(
        &mut self,
        board: &mut Board,
        to_move: Color,
        last: [Option<usize>; 2],
        rng: &mut SplitMix64,
    ) -> Score {
        let played = &mut self.played;
        board.policy_playout(to_move, self.komi, last[0], last[1], rng, |cell, c| {
            played.push((cell as u16, c))
        })
    }
    /// Backs the result up the path: each edge's own statistics, and the RAVE statistics of every move
    /// of a node that the node's player made first on its point later in the simulation.
    fn update(&mut self, score: Score) {
        let black = match score.lead_half_points().signum() {
            1 => 1.0f32,
            -1 => 0.0,
            _ => 0.5,
        };
        let reward = |c: Color| {
            if c == Color::Black {
                black
            } else {
                1.0 - black
            }
        };
        self.first.fill(0);
        // Walk backwards so that, for each node, `first` holds who played each point first from that
        // node's move on.
        let mut end = self.played.len();
        for &(node, edge, start) in self.path.iter().rev() {
            for &(cell, c) in self.played[start..end].iter().rev() {
                self.first[usize::from(cell)] = 1 + c.index() as u8;
            }
            end = start;
            let n = &mut self.nodes[node as usize];
            let mover = n.to_move;
            let r = reward(mover);
            n.visits += 1;
            let mark = 1 + mover.index() as u8;
            for e in &mut n.edges {
                if let Move::Play(p) = e.mv {
                    if self.first[p.cell()] == mark {
                        e.rave_visits += 1;
                        e.rave_wins += r;
                    }
                }
            }
            let e = &mut n.edges[edge as usize];
            e.visits += 1;
            e.wins += r;
        }
    }
}

/// The moves of a node inside the tree, with their priors: every stone the board allows that does not
/// fill an own eye, then a pass (always there, so a node is never without moves).
fn expand(board: &Board, color: Color, last: Option<usize>) -> Vec<Edge> {
    board
        .empty_points()
        .filter(|&p| !board.is_eye(p, color) && board.check(p, color).is_ok())
        .map(|p| Edge::new(Move::Play(p), prior(board, color, last, p.cell())))
        .chain([Edge::new(Move::Pass, PASS_PRIOR)])
        .collect()
}

/// The edge with the highest selection value; the first on a tie.
fn select(node: &Node) -> usize {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, e) in node.edges.iter().enumerate() {
        let v = e.value();
        if v > best_value {
            best = i;
            best_value = v;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{BoardSize, Point};

    fn game(diagram: &str, to_move: Color) -> Game {
        Game::from_position(
            Board::from_diagram(diagram).unwrap(),
            to_move,
            Komi::DEFAULT,
        )
    }

    fn gtp(s: &str, g: &Game) -> Move {
        Move::from_gtp(s, g.size()).unwrap()
    }

    #[test]
    fn every_move_is_legal_until_the_game_ends() {
        for (size, seed) in [(5, 1u64), (7, 2)] {
            let mut g = Game::new(BoardSize::new(size).unwrap());
            let ai = Mcts::new(60);
            for ply in 0..300u64 {
                if g.is_over() {
                    break;
                }
                let mv = ai.choose(&g, seed + ply);
                assert_ne!(mv, Move::Resign);
                g.play(mv)
                    .unwrap_or_else(|e| panic!("{mv} refused: {e}\n{}", g.board()));
            }
            assert!(
                g.is_over(),
                "the game should end by two passes\n{}",
                g.board()
            );
        }
    }

    #[test]
    fn captures_a_group_in_atari_before_it_escapes() {
        // White's three stones have one liberty, at E3; extended there they would have three and run
        // into open space. Komi 20.5 keeps the game close enough for the stones to matter.
        let g = Game::from_position(
            Board::from_diagram(
                ". . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . X X . . . .
                 . . X O O X . . .
                 . . . X O X . . .
                 . . . . . . . . .
                 . . . . . . . . .
                 . . . . . . . . .",
            )
            .unwrap(),
            Color::Black,
            "20.5".parse().unwrap(),
        );
        assert_eq!(
            g.board()
                .liberties(Point::from_gtp("E4", g.size()).unwrap()),
            1
        );
        for seed in 1..=5 {
            assert_eq!(
                Mcts::new(2000).choose(&g, seed),
                gtp("E3", &g),
                "seed {seed}"
            );
        }
    }

    /// Black's wall and White's on a 7x7 board, and below them White's group whose only eye space is
    /// three points in a row on the first line. Alive, the group wins White the game; dead, it loses it.
    const STRAIGHT_THREE: &str = ". . . . . . .
                                  . . . . . . .
                                  X X X X X X X
                                  O O O O O O O
                                  O O O O O O O
                                  O O O O O O O
                                  O O . . . O O";

    #[test]
    fn the_vital_point_of_a_straight_three_kills_or_lives() {
        // Black to move kills there; White to move makes two eyes there.
        for color in Color::ALL {
            let g = game(STRAIGHT_THREE, color);
            for seed in 1..=3 {
                assert_eq!(
                    Mcts::new(3000).choose(&g, seed),
                    gtp("D1", &g),
                    "{color}, seed {seed}"
                );
            }
        }
    }

    #[test]
    fn the_tree_is_kept_when_the_game_goes_on_from_it() {
        let ai = Mcts::new(400);
        let mut g = Game::with_komi(BoardSize::NINE, "7.5".parse().unwrap());
        let mut memory = Memory::default();
        let first = ai.think(&g, Color::Black, 1, &mut memory, |n| n < 400);
        assert_eq!((first.playouts, first.visits <= 400), (400, true));
        g.play(first.mv).unwrap();
        // The opponent answers with a move the tree has tried: the next search starts with what the
        // tree learnt below it, so its move has more visits than this search ran.
        let root = memory.search.as_ref().unwrap();
        let child = root.nodes[0]
            .edges
            .iter()
            .find(|e| e.mv == first.mv)
            .unwrap()
            .child;
        let answer = root.nodes[child as usize]
            .edges
            .iter()
            .max_by_key(|e| e.visits)
            .unwrap()
            .mv;
        g.play(answer).unwrap();
        let second = ai.think(&g, Color::Black, 2, &mut memory, |n| n < 100);
        assert_eq!(second.playouts, 100);
        assert!(second.visits > 0 && g.check(second.mv).is_ok());
        assert!(
            memory.search.as_ref().unwrap().nodes[0].visits > 100,
            "{memory:?}"
        );
        // An undo (or any move the tree does not hold) starts afresh.
        g.undo().unwrap();
        let fresh = ai.think(&g, Color::White, 3, &mut memory, |n| n < 50);
        assert_eq!(memory.search.as_ref().unwrap().nodes[0].visits, 50);
        assert!(g.check(fresh.mv).is_ok());
        // The same calls give the same moves.
        let mut again = Memory::default();
        let mut h = Game::with_komi(BoardSize::NINE, "7.5".parse().unwrap());
        assert_eq!(
            ai.think(&h, Color::Black, 1, &mut again, |n| n < 400),
            first
        );
        h.play(first.mv).unwrap();
        h.play(answer).unwrap();
        assert_eq!(
            ai.think(&h, Color::Black, 2, &mut again, |n| n < 100),
            second
        );
    }

    #[test]
    fn passes_when_only_own_eyes_are_left() {
        let g = game(
            ". X . X O . O
             X X X X O O O
             . X . X O . O
             X X X X O O O
             . X . X O . O
             X X X X O O O
             . X . X O . O",
            Color::Black,
        );
        let d = Mcts::new(100).decide(&g, Color::Black, 1);
        assert_eq!(d.mv, Move::Pass);
        assert_eq!(d.reason, Reason::NothingUseful);
    }

    #[test]
    fn passes_after_the_opponents_pass_when_the_count_wins() {
        let mut g = game(
            ". X . X O . .
             X X X X O O O
             . X . X O . .
             X X X X O O O
             . X . X O . .
             X X X X O . O
             . X . X O O .",
            Color::White,
        );
        g.play(Move::Pass).unwrap();
        // Black has 28 points against White's 21 + 0.5.
        let d = Mcts::new(100).decide(&g, Color::Black, 1);
        assert_eq!((d.mv, d.reason), (Move::Pass, Reason::PassWins));
        g.play(d.mv).unwrap();
        assert_eq!(g.result().unwrap().to_string(), "B+6.5");
    }

    #[test]
    fn a_finished_game_gets_a_pass_and_a_seed_fixes_the_move() {
        let mut g = Game::new(BoardSize::NINE);
        let ai = Mcts::new(200);
        assert_eq!(ai.choose(&g, 11), ai.choose(&g, 11));
        let d = ai.decide(&g, Color::White, 4);
        assert!(g.check_as(Color::White, d.mv).is_ok());
        assert!(d.win_rate.is_some_and(|w| (0.0..=1.0).contains(&w)));
        g.play(Move::Resign).unwrap();
        assert_eq!(ai.decide(&g, Color::White, 1).reason, Reason::GameOver);
        assert_eq!(Mcts::new(0).playouts(), 1);
        assert_eq!(
            Mcts::new(5).with_resign_below(Some(2.0)).resign_below(),
            Some(1.0)
        );
        assert_eq!(
            Mcts::new(5)
                .with_resign_below(Some(f64::NAN))
                .resign_below(),
            None
        );
    }

    #[test]
    fn resigns_a_hopeless_game_when_allowed() {
        // White owns nearly everything; Black's lone stone has no future.
        let g = game(
            ". . . . .
             . O O O .
             . O X O .
             . O . O .
             . . O . .",
            Color::Black,
        );
        let ai = Mcts::new(300).with_resign_below(Some(0.1));
        assert_eq!(ai.choose(&g, 5), Move::Resign);
        assert_ne!(Mcts::new(300).choose(&g, 5), Move::Resign);
    }
}
