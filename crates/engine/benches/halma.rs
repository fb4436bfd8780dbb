//! Criterion benchmarks of the Halma engine (issue 2), each reported as a throughput:
//!
//! - `legal_moves/<position>` and `count_moves/<position>`: move generation for red, in moves per second
//!   (criterion's "elem/s"), on the presets' start positions and on crowded mid-game positions
//!   (`workload/mod.rs` builds them, the same on every run).
//! - `perft/classic_d3`: perft depth 3 from the classic start, in leaves per second.
//! - `tick/<position>`: one arena tick through `Game::tick` with two legal moves, in ticks per second.
//!
//! Every benchmark first asserts the count it measures, so a fast wrong answer fails instead of
//! reporting a figure. `cargo bench -p gridarena-engine`; a filter picks benchmarks, e.g.
//! `cargo bench -p gridarena-engine -- legal_moves`. The same positions under wasm: `wasm_vs_native.sh`.

// Shared with the wasm comparison, whose move-list checksum is not used here.
#[allow(dead_code)]
mod workload;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use gridarena_engine::halma::{perft, Game, Preset, Team};
use gridarena_engine::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

fn move_generation(c: &mut Criterion) {
    let benches = workload::benches();
    for b in &benches {
        b.check();
    }

    let mut group = c.benchmark_group("legal_moves");
    let mut buf = Vec::new();
    for b in &benches {
        group.throughput(Throughput::Elements(b.expected as u64));
        group.bench_function(b.name, |bencher| {
            bencher.iter(|| workload::run_legal_moves(b, 1, &mut buf))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("count_moves");
    for b in &benches {
        group.throughput(Throughput::Elements(b.expected as u64));
        group.bench_function(b.name, |bencher| {
            bencher.iter(|| workload::run_count_moves(b, 1))
        });
    }
    group.finish();
}

fn perft_classic(c: &mut Criterion) {
    const LEAVES: u64 = 85_440;
    let game = Game::new(&Preset::Classic.rules(), 0).expect("presets are valid");
    let mut position = game.position().clone();
    assert_eq!(perft(&mut position, Team::Red, 3), LEAVES);

    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(LEAVES));
    group.bench_function("classic_d3", |bencher| {
        bencher.iter(|| perft(black_box(&mut position), Team::Red, 3))
    });
    group.finish();
}

fn arena_tick(c: &mut Criterion) {
    let start = Game::new(&Preset::Arena.rules(), 0).expect("presets are valid");
    let mut group = c.benchmark_group("tick");
    group.throughput(Throughput::Elements(1));
    for (name, game) in [
        ("arena_start", start),
        ("arena_midgame", workload::arena_midgame()),
    ] {
        let mut rng = SplitMix64::new(7);
        let red = workload::greedy_answer(game.position(), Team::Red, &mut rng);
        let blue = workload::greedy_answer(game.position(), Team::Blue, &mut rng);
        let outcome = game
            .clone()
            .tick(red.clone(), blue.clone())
            .expect("the game is not over");
        assert!(outcome.errors.is_empty(), "{name}: {:?}", outcome.errors);
        assert_eq!(outcome.moves.len(), 2, "{name}: both moves are enacted");

        group.bench_function(name, |bencher| {
            bencher.iter_batched(
                || (game.clone(), red.clone(), blue.clone()),
                // The game is returned so that dropping it is not timed.
                |(mut game, red, blue)| {
                    let outcome = game.tick(red, blue);
                    (game, outcome)
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // Short runs: the whole suite takes about a minute.
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = move_generation, perft_classic, arena_tick
}
criterion_main!(benches);
