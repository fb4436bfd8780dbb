//! Criterion benchmarks of the Go engine (issue 5), each reported as a throughput:
//!
//! - `playout/<size>`: light random playouts from the empty board (random legal moves that fill no own
//!   eye, until two passes, then the area count), in playouts per second on one core (criterion's
//!   "elem/s"). The target is 15,000 per second on 9x9.
//! - `legal_moves/19x19_midgame`: `Game::legal_moves` with full positional superko on a 19x19 position
//!   200 moves into a random game, in calls per second (what GTP's `all_legal` and the page's move hints
//!   cost).
//!
//! Before measuring, a batch of seeded playouts is checked: each must end with nearly every point owned
//! (a playout that stops early would be fast and wrong). `cargo bench -p gridarena-engine --bench go`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gridarena_engine::go::{BoardSize, Color, Game, Move};
use gridarena_engine::SplitMix64;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Checks a batch of playouts from the empty board and prints what they look like and how fast they are.
fn check_playouts(size: BoardSize) {
    let game = Game::new(size);
    let mut rng = SplitMix64::new(42);
    let n = 2000;
    let area = size.area();
    let (mut complete, mut black_wins) = (0, 0);
    let start = Instant::now();
    for _ in 0..n {
        let score = game.playout(&mut rng);
        if score.black + score.white == area {
            complete += 1;
        }
        if score.winner() == Some(Color::Black) {
            black_wins += 1;
        }
    }
    let elapsed = start.elapsed();
    assert!(
        complete * 100 >= n * 99,
        "{size}: only {complete} of {n} playouts ended with every point owned"
    );
    eprintln!(
        "{size}: {complete}/{n} playouts ended with every point owned, black won {black_wins}; \
         {:.0} playouts/s in this check",
        n as f64 / elapsed.as_secs_f64()
    );
}

/// A 19x19 game 200 random legal moves in, the same on every run.
fn midgame_19() -> Game {
    let mut game = Game::new(BoardSize::NINETEEN);
    let mut rng = SplitMix64::new(7);
    while game.moves().len() < 200 {
        let moves: Vec<Move> = game
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.point()
                    .is_some_and(|p| !game.board().is_eye(p, game.to_move()))
            })
            .collect();
        let mv = moves[rng.below(moves.len() as u64) as usize];
        game.play(mv).expect("a listed move is legal");
    }
    game
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    for size in BoardSize::PRESETS {
        check_playouts(size);
        let game = Game::new(size);
        let mut rng = SplitMix64::new(1);
        group.bench_function(size.to_string(), |b| {
            b.iter(|| game.playout(black_box(&mut rng)))
        });
    }
    group.finish();

    let game = midgame_19();
    let n = game.legal_moves().len();
    assert!(n > 100, "{n} legal moves 200 moves into a 19x19 game");
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(1));
    group.bench_function("19x19_midgame", |b| {
        b.iter(|| black_box(&game).legal_moves())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = playouts
}
criterion_main!(benches);
