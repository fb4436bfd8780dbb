//! Criterion benchmarks of the built-in AIs: the time of one call, which is what a browser page waits for.
//!
//! - `search/<position>` and `greedy/<position>`: one `choose` call for red on the arena start and on the
//!   crowded mid-game positions of `workload/mod.rs` (the same boards the move-generation benches use).
//! - Before measuring, a search-vs-greedy arena game is played and the mean and slowest search call of
//!   that game are printed, with the depth and node count the default budget reached on each position:
//!   a mean over one board says little about the worst moment of a game.
//!
//! `cargo bench -p gridarena-engine --bench ai`. Wasm runs these about 1.7x slower than native.

#[allow(dead_code)]
mod workload;

use criterion::{criterion_group, criterion_main, Criterion};
use gridarena_engine::halma::ai::{BuiltIn, Search};
use gridarena_engine::halma::{Answer, Game, Mode, NoMove, Preset, Team};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn positions() -> Vec<(&'static str, Game)> {
    vec![
        (
            "arena_start",
            Game::new(&Preset::Arena.rules(), 0).expect("presets are valid"),
        ),
        ("arena_midgame", workload::arena_midgame()),
        ("classic_midgame", workload::classic_midgame()),
    ]
}

/// One arena game, search (red) against greedy; prints the mean and slowest search call.
fn report_a_game() {
    let mut game = Game::new(&Preset::Arena.rules(), 3).expect("presets are valid");
    let mut times = Vec::new();
    while game.result().is_none() {
        let seed = u64::from(game.turn());
        // The fastest of three runs of the same call: the search is deterministic, so the spread is the
        // machine's noise, not the search's.
        let mut fastest = Duration::MAX;
        let mut red = None;
        for _ in 0..3 {
            let start = Instant::now();
            red = BuiltIn::Search.choose(game.position(), game.mode(), Team::Red, seed);
            fastest = fastest.min(start.elapsed());
        }
        times.push(fastest);
        let blue = BuiltIn::Greedy.choose(game.position(), game.mode(), Team::Blue, seed);
        let answer = |p: Option<_>| p.map_or(Answer::NoMove(NoMove::Missing), Answer::Move);
        game.tick(answer(red), answer(blue))
            .expect("the game is not over");
    }
    let total: Duration = times.iter().sum();
    let slowest = times.iter().max().copied().unwrap_or_default();
    eprintln!(
        "search vs greedy, arena seed 3: {:?} after {} ticks; search call mean {:?}, slowest {:?}",
        game.result(),
        game.turn(),
        total / times.len().max(1) as u32,
        slowest
    );
}

fn calls(c: &mut Criterion) {
    report_a_game();
    let positions = positions();
    for (name, game) in &positions {
        let report = Search::DEFAULT
            .analyse(game.position(), game.mode(), Team::Red, 1)
            .expect("red can move");
        eprintln!(
            "{name}: {} red moves, search depth {} in {} nodes",
            game.position().count_moves(Team::Red),
            report.depth,
            report.nodes
        );
    }
    for ai in BuiltIn::ALL {
        let mut group = c.benchmark_group(ai.name());
        for (name, game) in &positions {
            let (position, mode): (_, Mode) = (game.position(), game.mode());
            group.bench_function(*name, |b| {
                b.iter(|| ai.choose(black_box(position), mode, Team::Red, 1))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = calls
}
criterion_main!(benches);
