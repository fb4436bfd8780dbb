//! The store alone, without the hub or WebSockets: how many moves a second `add_move` stores, and how
//! long one takes, on SQLite (a file: one writer thread, group commit) and on PostgreSQL (two stores on
//! one database, as two server instances would be, each with its pool and its listener).
//!
//! `GAMES` concurrent games (default 200) of `MOVES` moves each (default 100); each game stores its moves
//! one after another, as fast as the store answers (`THINK_MS`, default 0, waits between them). Prints
//! moves per second and the latency of one `add_move`: p50, p99, max. `STORE=sqlite|postgres` runs one
//! (default both). PostgreSQL is `GRIDARENA_TEST_PG`, or a throwaway cluster (`store::testing`); its
//! cluster runs with `fsync=off`, so its numbers leave out the disk.
//!
//! Run: `cargo bench -p gridarena-server --bench store`.

use gridarena_engine::go::online::{ColorPref, GameId};
use gridarena_server::store::{now_ms, testing, InstanceId, SeekOutcome, SeekRow, Store};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Makes `games` games on `store` (clock instance "bench").
async fn make_games(store: &Store, games: usize) -> Vec<GameId> {
    let me = InstanceId("bench".into());
    store.keep_alive(&me, now_ms(), 60_000).await.unwrap();
    let mut ids = Vec::with_capacity(games);
    for g in 0..games {
        let mut players = [0; 2];
        for (i, p) in players.iter_mut().enumerate() {
            let name = format!("b{g}x{i}");
            *p = store
                .create_player(&name, &name, name.as_bytes())
                .await
                .unwrap();
        }
        let deadline = now_ms() + 3_600_000;
        for (i, &player) in players.iter().enumerate() {
            let seek = SeekRow {
                player,
                name: String::new(),
                instance: me.clone(),
                conn: i as u64,
                size: 9,
                color: ColorPref::Any,
            };
            if let SeekOutcome::Paired { game, .. } = store
                .seek(&seek, true, now_ms(), 60_000, deadline)
                .await
                .unwrap()
            {
                ids.push(game);
            }
        }
    }
    ids
}

/// Plays `moves` moves in each game, game `i` on `stores[i % len]`, waiting `THINK_MS` before each;
/// returns (elapsed, latencies).
async fn play(stores: &[Arc<Store>], games: &[GameId], moves: u32) -> (Duration, Vec<Duration>) {
    let think = Duration::from_millis(env("THINK_MS", 0));
    let start = Instant::now();
    let tasks: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, &game)| {
            let store = Arc::clone(&stores[i % stores.len()]);
            // Paced games start spread over one think time, as players would, not all at once.
            let offset = think.mul_f64(i as f64 / games.len() as f64);
            tokio::spawn(async move {
                tokio::time::sleep(offset).await;
                let mut latencies = Vec::with_capacity(moves as usize);
                for n in 1..=moves {
                    if !think.is_zero() {
                        tokio::time::sleep(think).await;
                    }
                    let color = if n % 2 == 1 { 'B' } else { 'W' };
                    let t = Instant::now();
                    let now = now_ms();
                    let stored = store
                        .add_move(game, n, color, "D4", now, now + 300_000)
                        .await
                        .expect("add_move");
                    latencies.push(t.elapsed());
                    assert_eq!(stored, Ok(()), "move {n} of game {game}");
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    (start.elapsed(), all)
}

fn report(label: &str, elapsed: Duration, mut latencies: Vec<Duration>) {
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{label}: {} moves in {:.2} s: {:.0} moves/s; add_move p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(at(1.0))
    );
}

fn main() {
    let games = env("GAMES", 200) as usize;
    let moves = env("MOVES", 100) as u32;
    let which = std::env::var("STORE").unwrap_or_default();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        if which.is_empty() || which == "sqlite" {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("bench.sqlite3");
            let store = Store::open(path.to_str().unwrap()).await.unwrap();
            let ids = make_games(&store, games).await;
            let store = Arc::new(store);
            let (elapsed, lat) = play(&[Arc::clone(&store)], &ids, moves).await;
            report(&format!("SQLite file, {games} games"), elapsed, lat);
            if let Store::Sqlite(s) = &*store {
                let (requests, commits) = s.write_stats();
                println!("  group commit: {requests} write requests in {commits} transactions");
            }
        }
        if which.is_empty() || which == "postgres" {
            let url = testing::fresh_database().await;
            let one = Store::open(&url).await.unwrap();
            let two = Store::open(&url).await.unwrap();
            let ids = make_games(&one, games).await;
            let stores = [Arc::new(one), Arc::new(two)];
            let (elapsed, lat) = play(&stores, &ids, moves).await;
            report(
                &format!("PostgreSQL, two stores, {games} games"),
                elapsed,
                lat,
            );
        }
    });
}
