//! The built-in Go AI: Monte-Carlo tree search with RAVE (rapid action value estimation) over the light
//! random playouts of [`Board::random_move`].
//!
//! **Why RAVE.** With light playouts, plain UCT needs many visits per move before it can tell a good move
//! from a bad one. RAVE also credits a move with the result of every simulation in which the same player
//! played it later ("all moves as first"), which ranks the ~80 moves of a 9x9 position after a few hundred
//! simulations; the credit fades as the move's own visits grow (Gelly and Silver's schedule).
//!
//! **Why a playout budget, not a clock.** The engine has no clock (it runs in the browser's wasm too), and a
//! budget makes a search depend on its seed alone, so a game replays exactly and a test cannot flake.
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
use super::point::CELLS;
use super::{Color, Game, Komi, Move, Score};
use crate::SplitMix64;

/// Simulations per move when nothing else is asked: about a fifth of a second per 9x9 move natively.
pub const DEFAULT_PLAYOUTS: u32 = 10_000;

/// RAVE's equivalence parameter: the number of own visits at which a move's own result and its
/// all-moves-as-first result weigh about the same.
const RAVE_EQUIVALENCE: f64 = 1000.0;

/// The exploration constant of the UCT term. Small, because RAVE already spreads visits over the moves
/// that look good anywhere in the simulations.
const EXPLORATION: f64 = 0.1;

/// The value of a move no simulation has touched yet: above any real value, so each is tried once.
const FIRST_PLAY_URGENCY: f64 = 1.1;

/// No child node yet.
const NO_NODE: u32 = u32::MAX;

/// A Monte-Carlo tree search player. Small and `Copy`: it holds only its settings; each search builds
/// its own tree and drops it.
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
    /// Simulations run.
    pub playouts: u32,
    /// Why this move.
    pub reason: Reason,
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
    /// search's statistics.
    pub fn decide(&self, game: &Game, color: Color, seed: u64) -> Decision {
        let fixed = |mv, reason| Decision {
            mv,
            win_rate: None,
            playouts: 0,
            reason,
        };
        if game.is_over() {
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
        let mut search = Search::new(board, color, game.komi(), moves, opponent_passed);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..self.playouts {
            search.simulate(&mut rng);
        }
        let (mv, win_rate) = search.best();
        let searched = |mv, reason| Decision {
            mv,
            win_rate: Some(win_rate),
            playouts: self.playouts,
            reason,
        };
        match self.resign_below {
            Some(t) if win_rate < t => searched(Move::Resign, Reason::Hopeless),
            _ if win_rate < HOPELESS && opponent_passed => searched(Move::Pass, Reason::Hopeless),
            _ => searched(mv, Reason::Searched),
        }
    }
}

/// Below this win rate, playing on after the opponent's pass only delays the count.
const HOPELESS: f64 = 0.05;

/// One move out of a node, with its statistics from the mover's point of view.
#[derive(Clone, Copy, Debug)]
struct Edge {
    mv: Move,
    visits: u32,
    wins: f32,
    rave_visits: u32,
    rave_wins: f32,
    child: u32,
}

impl Edge {
    fn new(mv: Move) -> Edge {
        Edge {
            mv,
            visits: 0,
            wins: 0.0,
            rave_visits: 0,
            rave_wins: 0.0,
            child: NO_NODE,
        }
    }

    /// The selection value: the own result blended with the RAVE result, plus a small exploration term.
    fn value(&self, log_parent: f64) -> f64 {
        if self.visits == 0 && self.rave_visits == 0 {
            return FIRST_PLAY_URGENCY;
        }
        let n = f64::from(self.visits);
        let q = if self.visits > 0 {
            f64::from(self.wins) / n
        } else {
            0.5
        };
        let mixed = if self.rave_visits > 0 {
            let r = f64::from(self.rave_wins) / f64::from(self.rave_visits);
            let beta = (RAVE_EQUIVALENCE / (3.0 * n + RAVE_EQUIVALENCE)).sqrt();
            (1.0 - beta) * q + beta * r
        } else {
            q
        };
        mixed + EXPLORATION * (log_parent / (n + 1.0)).sqrt()
    }
}

/// A position in the tree: who is to move there, and its moves once expanded (a node is expanded the
/// second time a simulation reaches it, which keeps the leaves of single visits cheap).
#[derive(Debug)]
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
    /// Passes in a row before the root (only the opponent's pass counts).
    root_passes: u8,
    nodes: Vec<Node>,
    /// Per simulation: the (node, edge) pairs chosen, and the index into `played` of each one's stone.
    path: Vec<(u32, u32, usize)>,
    /// Per simulation: every stone placed, tree and playout alike, in order.
    played: Vec<(u16, Color)>,
    /// Per simulation: who first played on each cell from some point on (0 none, 1 black, 2 white).
    first: Vec<u8>,
}

impl Search {
    fn new(board: &Board, color: Color, komi: Komi, moves: Vec<Move>, passed: bool) -> Search {
        let mut root = Node::new(color);
        root.expanded = true;
        root.edges = moves
            .into_iter()
            .chain([Move::Pass])
            .map(Edge::new)
            .collect();
        Search {
            root: board.clone(),
            komi,
            root_passes: u8::from(passed),
            nodes: vec![root],
            path: Vec::new(),
            played: Vec::new(),
            first: vec![0; CELLS],
        }
    }

    /// The most visited root move (not the best valued: visits are what the search trusts), and its win
    /// rate. Ties go to the first in A1-first order, so the answer is deterministic.
    fn best(&self) -> (Move, f64) {
        let root = &self.nodes[0];
        let mut best: Option<&Edge> = None;
        for e in &root.edges {
            if best.is_none_or(|b| e.visits > b.visits) {
                best = Some(e);
            }
        }
        match best {
            Some(e) if e.visits > 0 => (e.mv, f64::from(e.wins) / f64::from(e.visits)),
            _ => (Move::Pass, 0.5),
        }
    }

    /// One simulation: descend the tree by the selection value, add one node, play out, and update
    /// every edge passed (own result) and every sibling move played later by the same colour (RAVE).
    fn simulate(&mut self, rng: &mut SplitMix64) {
        let mut board = self.root.clone();
        self.path.clear();
        self.played.clear();
        let mut node = 0u32;
        let mut passes = self.root_passes;
        let score = loop {
            let n = node as usize;
            let color = self.nodes[n].to_move;
            if !self.nodes[n].expanded {
                self.nodes[n].edges = expand(&board, color);
                self.nodes[n].expanded = true;
            }
            let e = select(&self.nodes[n]);
            self.path.push((node, e as u32, self.played.len()));
            let edge = self.nodes[n].edges[e];
            match edge.mv {
                Move::Play(p) => {
                    board.place(p.cell(), color);
                    self.played.push((p.cell() as u16, color));
                    passes = 0;
                }
                Move::Pass | Move::Resign => {
                    board.pass();
                    passes = passes.saturating_add(1);
                }
            }
            if passes >= 2 {
                break board.score(self.komi);
            }
            if edge.child == NO_NODE {
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::new(color.other()));
                self.nodes[n].edges[e].child = child;
                break self.playout(&mut board, color.other(), rng);
            }
            node = edge.child;
        };
        self.update(score);
    }

    /// [`Board::playout`], recording every stone for RAVE.
    fn playout(&mut self, board: &mut Board, to_move: Color, rng: &mut SplitMix64) -> Score {
        let limit = 3 * usize::from(board.size().area());
        let mut color = to_move;
        let mut passes = 0;
        let mut moves = 0;
        while passes < 2 && moves < limit {
            match board.random_move(color, rng) {
                Some(p) => {
                    board.place(p.cell(), color);
                    self.played.push((p.cell() as u16, color));
                    passes = 0;
                }
                None => {
                    board.pass();
                    passes += 1;
                }
            }
            moves += 1;
            color = color.other();
        }
        board.score(self.komi)
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

/// The moves of a node inside the tree: every stone the board allows that does not fill an own eye,
/// then a pass (always there, so a node is never without moves).
fn expand(board: &Board, color: Color) -> Vec<Edge> {
    board
        .empty_points()
        .filter(|&p| !board.is_eye(p, color) && board.check(p, color).is_ok())
        .map(Move::Play)
        .chain([Move::Pass])
        .map(Edge::new)
        .collect()
}

/// The edge with the highest selection value; the first on a tie.
fn select(node: &Node) -> usize {
    let log_parent = f64::from(node.visits + 1).ln();
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, e) in node.edges.iter().enumerate() {
        let v = e.value(log_parent);
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
    fn captures_a_big_group_in_atari() {
        // White's five stones in the middle have one liberty left, at E4.
        let g = game(
            ". . . . . . . . .
             . . . . . . . . .
             . . . X X X . . .
             . . X O O O X . .
             . . X O O X . . .
             . . . X . . . . .
             . . . . . . . . .
             . . O . . . O . .
             . . . . . . . . .",
            Color::Black,
        );
        assert_eq!(
            g.board()
                .liberties(Point::from_gtp("E6", g.size()).unwrap()),
            1
        );
        assert_eq!(Mcts::new(1000).choose(&g, 7), gtp("E4", &g));
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
