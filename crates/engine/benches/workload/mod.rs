//! The positions the Halma benchmarks measure, and the move-generation loop they time.
//!
//! Shared by the criterion benches (`benches/halma.rs`) and by the wasm-vs-native comparison
//! (`examples/movegen_native.rs`, `examples/movegen_wasm.rs`, `benches/wasm_vs_native.sh`), which include
//! this file with `#[path]`, so every figure is about the same boards and the same loop.
//!
//! Every position is built the same way on every run and every platform: the start positions of the
//! presets, and mid-game positions reached by a seeded greedy game played through the engine's public
//! API ([`Game::tick`] / [`Game::play`]). The greedy player sorts the legal moves before it chooses, so
//! the positions do not depend on the order the move generator emits moves in; they do depend on the
//! generator being right, which is what [`Bench::expected`] guards.

use gridarena_engine::halma::{Answer, Game, Move, NoMove, Position, Preset, Square, Team};
use gridarena_engine::SplitMix64;
use std::hint::black_box;

/// How many of the best moves [`greedy_answer`] draws from.
pub const GREEDY_CHOICES: usize = 3;

/// One position to measure: the moves of `team` on `position`.
pub struct Bench {
    /// A short identifier, also the criterion benchmark id.
    pub name: &'static str,
    pub position: Position,
    pub team: Team,
    /// The number of legal moves of `team` here, fixed in this file: a fast wrong generator fails.
    pub expected: usize,
}

impl Bench {
    /// Panics unless the move generator finds exactly the expected moves, by both of its entry points.
    pub fn check(&self) {
        let mut moves = Vec::new();
        self.position.legal_moves(self.team, &mut moves);
        assert_eq!(
            moves.len(),
            self.expected,
            "{}: legal_moves found {} moves, expected {}\n{}",
            self.name,
            moves.len(),
            self.expected,
            self.position
        );
        assert_eq!(
            self.position.count_moves(self.team),
            self.expected,
            "{}: count_moves disagrees with legal_moves",
            self.name
        );
        let mut sorted = moves.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), moves.len(), "{}: duplicate moves", self.name);
    }
}

/// Every benchmark position: the three start positions, then the crowded mid-game positions.
pub fn benches() -> Vec<Bench> {
    let start = |preset: Preset| {
        Game::new(&preset.rules(), 0)
            .expect("presets are valid")
            .position()
            .clone()
    };
    let bench = |name, position, expected| Bench {
        name,
        position,
        team: Team::Red,
        expected,
    };
    vec![
        bench("arena_start", start(Preset::Arena), 33),
        bench("classic_start", start(Preset::Classic), 40),
        bench("mini_start", start(Preset::Mini), 24),
        bench("arena_midgame", arena_midgame().position().clone(), 111),
        bench("classic_midgame", classic_midgame().position().clone(), 139),
    ]
}

/// The arena after 40 greedy ticks: the two armies cross in the middle of the board, interleaved.
pub fn arena_midgame() -> Game {
    greedy_game(Preset::Arena, 40, 1)
}

/// Classic Halma after 140 greedy plies (70 a side): both armies interleaved in the centre.
pub fn classic_midgame() -> Game {
    greedy_game(Preset::Classic, 140, 1)
}

/// A game of `preset` after `ticks` ticks of [`greedy_answer`] for every team asked to move.
pub fn greedy_game(preset: Preset, ticks: u32, seed: u64) -> Game {
    let mut game = Game::new(&preset.rules(), 0).expect("presets are valid");
    let mut rng = SplitMix64::new(seed);
    for _ in 0..ticks {
        let movers = game.movers();
        let mut answer = |team| {
            if movers.contains(&team) {
                greedy_answer(game.position(), team, &mut rng)
            } else {
                Answer::NoMove(NoMove::Missing)
            }
        };
        let (red, blue) = (answer(Team::Red), answer(Team::Blue));
        let outcome = game.tick(red, blue).expect("the game is not over");
        assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    }
    game
}

/// A greedy move in the manner of the course's sample AIs: the moves that bring a piece nearer the centre
/// of `team`'s destinations, rearmost piece first and longest advance first, and `rng` draws one of the
/// first [`GREEDY_CHOICES`]. Moving the rearmost pieces keeps each army together, so the mid-game is
/// crowded. The legal moves are sorted first: the choice never depends on the generator's order.
pub fn greedy_answer(position: &Position, team: Team, rng: &mut SplitMix64) -> Answer {
    let mut moves = position.moves(team);
    assert!(!moves.is_empty(), "{team} has no move:\n{position}");
    let dests = position.destinations(team);
    let n = dests.len() as i64;
    let (sx, sy) = dests.iter().fold((0, 0), |(sx, sy), s| {
        (sx + i64::from(s.x()), sy + i64::from(s.y()))
    });
    // Manhattan distance to the destinations' centre, scaled by n to stay in integers.
    let dist = |s: Square| (n * i64::from(s.x()) - sx).abs() + (n * i64::from(s.y()) - sy).abs();
    moves.sort();
    let forward: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| dist(m.to) < dist(m.from))
        .collect();
    if !forward.is_empty() {
        moves = forward;
    }
    moves.sort_by_key(|m| (std::cmp::Reverse(dist(m.from)), dist(m.to) - dist(m.from)));
    let pick = moves[rng.below(moves.len().min(GREEDY_CHOICES) as u64) as usize];
    Answer::Move(
        position
            .path(team, pick)
            .expect("a generated move has a path"),
    )
}

/// A checksum of a move list in its generated order (FNV-1a over the coordinates).
pub fn checksum(moves: &[Move]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for m in moves {
        for b in [m.from.x(), m.from.y(), m.to.x(), m.to.y()] {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
        }
    }
    h
}

/// `iters` calls of [`Position::legal_moves`] into one reused vector, cleared before each call; returns
/// the number of moves generated in all.
pub fn run_legal_moves(bench: &Bench, iters: u32, buf: &mut Vec<Move>) -> u64 {
    let mut total = 0;
    for _ in 0..iters {
        buf.clear();
        black_box(&bench.position).legal_moves(bench.team, buf);
        total += black_box(buf.len()) as u64;
    }
    total
}

/// `iters` calls of [`Position::count_moves`]; returns the number of moves counted in all.
pub fn run_count_moves(bench: &Bench, iters: u32) -> u64 {
    let mut total = 0;
    for _ in 0..iters {
        total += black_box(black_box(&bench.position).count_moves(bench.team)) as u64;
    }
    total
}
