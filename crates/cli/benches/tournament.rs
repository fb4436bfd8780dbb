//! A classroom-sized tournament headless: a double round robin of 10 built-in entries (5 `greedy`, 5
//! `search`) on the arena preset, through the library `gridarena halma tournament` runs
//! (`gridarena_cli::tournament::play`), at 1 and at 2 games at once, plus what writing the bundle after
//! every game costs.
//!
//! `cargo bench -p gridarena-cli --bench tournament`. Without `--bench` (as `cargo test --benches` runs
//! it) it plays a 3-entry mini tournament as a smoke test and prints nothing.

use gridarena_cli::tournament::play;
use gridarena_engine::halma::Preset;
use gridarena_engine::tournament::event::Tournament;
use gridarena_engine::tournament::pairing::Format;
use gridarena_engine::tournament::roster::{Entry, Roster};
use gridarena_engine::tournament::settings::Settings;
use std::time::{Duration, Instant};

fn roster(entries: usize) -> Roster {
    Roster {
        entries: (0..entries)
            .map(|i| {
                let player = if i % 2 == 0 {
                    "builtin:greedy"
                } else {
                    "builtin:search"
                };
                Entry::new(&format!("AI {}", i + 1), player)
            })
            .collect(),
    }
}

/// Plays a whole tournament; returns (games, ticks, time playing, time writing bundles, bundle bytes).
fn run(
    entries: usize,
    preset: Preset,
    concurrency: u32,
    save: bool,
) -> (usize, u64, Duration, Duration, usize) {
    let settings = Settings {
        format: Format::Double,
        preset,
        tick_ms: 10_000,
        concurrency,
        seed: 2026,
        ..Settings::default()
    };
    let mut t = Tournament::new(roster(entries), settings).expect("a valid tournament");
    let mut saving = Duration::ZERO;
    let mut bytes = 0;
    let start = Instant::now();
    play(&mut t, Default::default(), |done| {
        if save {
            let s = Instant::now();
            bytes = std::hint::black_box(done.tournament.to_bundle()).len();
            saving += s.elapsed();
        }
        Ok(())
    })
    .expect("built-in games play");
    let ticks = t.finished().map(|r| u64::from(r.played.ticks)).sum();
    (t.finished_count(), ticks, start.elapsed(), saving, bytes)
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        let (games, ..) = run(3, Preset::Mini, 2, true);
        assert_eq!(games, 6);
        return;
    }
    println!(
        "double round robin, 10 built-in entries (5 greedy, 5 search), arena preset, 90 games"
    );
    for concurrency in [1, 2] {
        let (games, ticks, elapsed, saving, bytes) = run(10, Preset::Arena, concurrency, true);
        println!(
            "  {concurrency} at once: {games} games, {ticks} ticks in {:.2} s ({:.1} games/s, {:.0} ticks/s); \
             bundle written after every game: {:.1} ms in all, {:.0} KB at the end",
            elapsed.as_secs_f64(),
            games as f64 / elapsed.as_secs_f64(),
            ticks as f64 / elapsed.as_secs_f64(),
            saving.as_secs_f64() * 1000.0,
            bytes as f64 / 1024.0,
        );
    }
}
